import {
  databasePoolVars,
  databaseUrl,
  logVars,
  natsVars,
  opsVars,
  regionVars,
  shutdownVars,
} from '@formline/config';
import { z } from 'zod';

export const globalConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  ...databasePoolVars,
  GLOBAL_DATABASE_URL: databaseUrl(
    'The global database (accounts, workspaces, forms), shared by all regions.',
  ),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(604_800)
    .describe('Lifetime of an OAuth access token (Typeform: one week); refresh tokens renew it.'),
  OAUTH_REFRESH_TOKEN_IDLE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7_776_000)
    .describe(
      'A refresh token unused for this long (default 90 days) is refused; each refresh issues a new one, so an application in use never meets it.',
    ),
  PERSONAL_TOKENS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      'Live personal access tokens (neither revoked nor expired) one account may hold; one more answers 409 CONFLICT until one is revoked or expires. Each token has its own request budget, so their number bounds what an account may send. 0 turns the cap off.',
    ),
  OAUTH_GRANTS_PER_APPLICATION: z.coerce
    .number()
    .int()
    .min(0)
    .default(10)
    .describe(
      "Live grants one account may hold for one OAuth application: each authorization makes a grant, and one past this ends the account's oldest grant to that application, with its tokens. Each token has its own request budget, so this bounds what re-authorizing can add. 0 turns the bound off.",
    ),
  OAUTH_APPLICATIONS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe(
      'OAuth applications one account may register; one more answers 409 CONFLICT until one is deleted. The account lists them whole, so their number bounds what that read holds. 0 turns the cap off.',
    ),
  PASSWORD_CHECK_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .describe(
      "Password checks (scrypt: about 100 ms of a CPU and 32 MiB each) one global process runs at once; the others wait their turn. They run in libuv's thread pool (4 threads, shared with the process's other work): a bound below it keeps a flood of sign-ins from taking every thread and every core from the region's other callers.",
    ),
  PASSWORD_CHECK_QUEUE: z.coerce
    .number()
    .int()
    .min(0)
    .default(16)
    .describe(
      'Password checks waiting for a turn in one global process; one more is answered 503 SERVICE_UNAVAILABLE with Retry-After at once rather than queued behind the others.',
    ),
  FORM_DELETION_RELAY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(1000)
    .describe(
      "How often the global service relays the deletions of its region's forms (form_deletions) to the region's services, which purge the forms' data. A deletion made through this region's API is relayed at once.",
    ),
  FORM_DELETION_PUBLISH_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(2000)
    .describe('How long the form deletion relay waits for JetStream to acknowledge a deletion.'),
});

export type GlobalConfig = z.infer<typeof globalConfigSchema>;

// The token the global app injects its parsed config by.
export const GLOBAL_CONFIG = Symbol('GLOBAL_CONFIG');
