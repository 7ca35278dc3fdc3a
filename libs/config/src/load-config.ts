import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Parses the environment once, at boot, into a typed object. Every problem is
// reported with the variable's name, all at once, so one restart fixes them all.
export function parseConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = env[String(issue.path[0])];
    return value === undefined || value === ''
      ? `${name} is missing: ${describe(schema, name)}`
      : `${name} is invalid (${issue.message})`;
  });
  throw new ConfigError(problems);
}

// The entry point for apps: on a bad config, print what is wrong and stop.
export function loadConfig<S extends z.ZodObject>(schema: S): z.infer<S> {
  try {
    return parseConfig(schema, process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

function describe(schema: z.ZodObject, name: string): string {
  const field = schema.shape[name] as z.ZodType | undefined;
  return field?.description ?? 'required';
}
