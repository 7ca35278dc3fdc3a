import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  allScopes,
  createAccount,
  mintPersonalAccessToken,
  registerOAuthApplication,
  resealWebhookSecrets,
} from '@formline/admin';
import {
  databaseUrl,
  loadConfig,
  requireWebhookSecretKey,
  webhookSecretKeys,
  webhookSecurityVars,
} from '@formline/config';
import { apiScopeSchema, emailSchema, redirectUriSchema, regionSchema } from '@formline/contracts';
import { createGlobalDatabase, createWebhooksDatabase, type GlobalPrismaClient } from '@formline/db';
import { SecretBox } from '@formline/webhook-delivery';
import { z } from 'zod';

// The operators' command: accounts, tokens and OAuth applications, straight
// in the global database (GLOBAL_DATABASE_URL; `npm run admin` points it at
// the local dev database). Secrets it makes are printed once, on stdout alone,
// so scripts can capture them; everything else goes to stderr.

const usage = `Usage: npm run admin -- <command> [options]

  create-account --region us|eu --email EMAIL --alias ALIAS [--language en]
                 [--password PASSWORD | --password-stdin]
      Creates an account (and its default workspace) in a region, fixed for good.
      Without a password the owner cannot sign in; tokens minted here still work.

  mint-token --email EMAIL [--scopes forms:read,forms:write,...] [--name NAME]
             [--expires-in-days DAYS]
      Mints a personal access token (all scopes by default) and prints it.

  register-oauth-app --email EMAIL --name NAME --redirect-uri URI [--redirect-uri URI ...]
      Registers an OAuth application for the account; prints its client id and secret.

  reseal-webhook-secrets
      Re-seals every webhook secret of one region's webhooks database with the
      newest key. Reads WEBHOOKS_DATABASE_URL and the key ring
      (WEBHOOK_SECRET_KEYS, newest first, and/or WEBHOOK_SECRET_KEY) as the
      webhooks service does. Exits 1 if a secret no key opens is left.
`;

class UsageError extends Error {}

const options = {
  region: { type: 'string' },
  email: { type: 'string' },
  alias: { type: 'string' },
  language: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  scopes: { type: 'string' },
  name: { type: 'string' },
  'expires-in-days': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function required<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  if (value === undefined) throw new UsageError(`--${flag} is required`);
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`--${flag} is invalid: ${result.error.issues[0]?.message}`);
  return result.data;
}

async function accountIdOf(db: GlobalPrismaClient, email: string): Promise<string> {
  const account = await db.account.findUnique({ where: { email }, select: { id: true } });
  if (!account) throw new UsageError(`no account has the email ${email}`);
  return account.id;
}

const commands: Record<string, (db: GlobalPrismaClient, values: Values) => Promise<void>> = {
  'create-account': async (db, values) => {
    const email = required(emailSchema, values.email, 'email');
    const password = values['password-stdin']
      ? readFileSync(0, 'utf8').replace(/\r?\n$/, '')
      : values.password;
    if (password !== undefined && password.length < 8)
      throw new UsageError('the password needs 8 characters or more');
    if (await db.account.findUnique({ where: { email } }))
      throw new UsageError(`${email} already has an account`);
    const account = await createAccount(db, {
      region: required(regionSchema, values.region, 'region'),
      email,
      alias: required(z.string().trim().min(1).max(100), values.alias, 'alias'),
      language: values.language,
      password,
    });
    process.stderr.write(
      `Account ${account.accountId} created for ${email} (default workspace ${account.defaultWorkspaceId}).\n`,
    );
    process.stdout.write(`${account.accountId}\n`);
  },

  'mint-token': async (db, values) => {
    const email = required(emailSchema, values.email, 'email');
    const scopes = values.scopes
      ? required(z.array(apiScopeSchema).min(1), values.scopes.split(',').filter(Boolean), 'scopes')
      : allScopes;
    const days = values['expires-in-days']
      ? required(z.coerce.number().int().positive(), values['expires-in-days'], 'expires-in-days')
      : undefined;
    const token = await mintPersonalAccessToken(db, {
      accountId: await accountIdOf(db, email),
      name: values.name ?? 'admin',
      scopes,
      expiresAt: days ? new Date(Date.now() + days * 86_400_000) : undefined,
    });
    process.stderr.write(`Token for ${email} with ${scopes.join(' ')}; shown once, store it now:\n`);
    process.stdout.write(`${token}\n`);
  },

  'register-oauth-app': async (db, values) => {
    const email = required(emailSchema, values.email, 'email');
    const application = await registerOAuthApplication(db, {
      accountId: await accountIdOf(db, email),
      name: required(z.string().trim().min(1).max(100), values.name, 'name'),
      redirectUris: required(z.array(redirectUriSchema).min(1), values['redirect-uri'], 'redirect-uri'),
    });
    process.stderr.write('OAuth application registered; the secret is shown once, store it now:\n');
    process.stdout.write(`client_id=${application.clientId}\nclient_secret=${application.clientSecret}\n`);
  },
};

// Key rotation (docs/decisions/webhooks-and-delivery.md): against a regional webhooks database, not the global one.
async function resealCommand(): Promise<number> {
  const config = loadConfig(
    z
      .object({
        WEBHOOKS_DATABASE_URL: databaseUrl("A region's webhooks database."),
        WEBHOOK_SECRET_KEY: webhookSecurityVars.WEBHOOK_SECRET_KEY,
        WEBHOOK_SECRET_KEYS: webhookSecurityVars.WEBHOOK_SECRET_KEYS,
      })
      .superRefine(requireWebhookSecretKey),
  );
  const box = new SecretBox(webhookSecretKeys(config));
  const db = createWebhooksDatabase(config.WEBHOOKS_DATABASE_URL);
  try {
    const report = await resealWebhookSecrets(db, box);
    process.stderr.write(
      `${report.resealed} webhook secrets re-sealed with key ${box.currentKeyId}; ${report.alreadyCurrent} already were.\n`,
    );
    if (report.unreadable.length === 0) return 0;
    process.stderr.write(`No configured key opens the secret of webhooks ${report.unreadable.join(', ')}.\n`);
    return 1;
  } finally {
    await db.$disconnect();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options, allowPositionals: true });
  if (positionals[0] === 'reseal-webhook-secrets' && positionals.length === 1 && !values.help) {
    return resealCommand();
  }
  const command = commands[positionals[0] ?? ''];
  if (values.help || !command || positionals.length > 1) {
    process.stderr.write(usage);
    return values.help ? 0 : 64;
  }
  const config = loadConfig(
    z.object({ GLOBAL_DATABASE_URL: databaseUrl('The global database (accounts, tokens).') }),
  );
  const db = createGlobalDatabase(config.GLOBAL_DATABASE_URL);
  try {
    await command(db, values);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usageError = error instanceof UsageError || (error instanceof TypeError && 'code' in error);
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    if (usageError) process.stderr.write(`\n${usage}`);
    process.exit(usageError ? 64 : 1);
  },
);
