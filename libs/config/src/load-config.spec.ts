import { z } from 'zod';
import { ConfigError, parseConfig } from './load-config';
import { natsVars, regionVars } from './groups';
import { databaseUrl } from './setting.builders';

const schema = z.object({
  ...regionVars,
  ...natsVars,
  GLOBAL_DATABASE_URL: databaseUrl('The global database.'),
});

const valid = {
  REGION: 'eu',
  BASE_URL: 'https://api.example.com',
  EU_BASE_URL: 'https://api.eu.example.com',
  GLOBAL_DATABASE_URL: 'postgresql://u@db/global',
};

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    parseConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('parseConfig', () => {
  it('parses a valid environment into typed values, with defaults', () => {
    const config = parseConfig(schema, { ...valid, NATS_REQUEST_TIMEOUT_MS: '1500' });
    expect(config.REGION).toBe('eu');
    expect(config.NATS_REQUEST_TIMEOUT_MS).toBe(1500);
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
  });

  it('names every missing variable with its meaning', () => {
    const problems = problemsOf({ REGION: 'us' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^BASE_URL is missing: Public base address/),
        expect.stringMatching(/^EU_BASE_URL is missing/),
        expect.stringMatching(/^GLOBAL_DATABASE_URL is missing: The global database/),
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it.each([
    ['REGION', 'mars'],
    ['BASE_URL', 'not a url'],
    ['GLOBAL_DATABASE_URL', 'mysql://x/y'],
    ['NATS_REQUEST_TIMEOUT_MS', '-5'],
  ])('names an invalid %s', (name, value) => {
    const problems = problemsOf({ ...valid, [name]: value });
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${name} is invalid`))]);
  });
});
