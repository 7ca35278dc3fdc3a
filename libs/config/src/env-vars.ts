import { z } from 'zod';
import { regionSchema } from '@formline/contracts';

// Building blocks of every app's config schema. Each variable carries its
// meaning, so the configuration reference and the error messages say the same.

const port = (description: string) => z.coerce.number().int().min(0).max(65535).describe(description);
const url = (description: string) => z.url().describe(description);
const milliseconds = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);
const optionalText = (description: string) => z.string().min(1).optional().describe(description);
const commaList = (description: string) =>
  z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .describe(description);

// How an app proves itself to NATS and checks the server: at most one of
// user/password, token, nkey seed or credentials file (the server's choice),
// and TLS with the cluster's CA. Secrets (password, token, seed) come from
// Kubernetes Secrets; files are mounted from them.
function natsSecurityVars() {
  return {
    NATS_USER: optionalText('NATS user name (with `NATS_PASSWORD`), when the server authenticates users.'),
    NATS_PASSWORD: optionalText('Password of `NATS_USER`; from a Secret.'),
    NATS_TOKEN: optionalText('NATS authentication token, when the server uses one; from a Secret.'),
    NATS_NKEY_SEED: optionalText(
      'NATS nkey seed (`SU...`), when the server authenticates nkeys; from a Secret.',
    ),
    NATS_CREDS_FILE: optionalText(
      'Path of a NATS credentials file (JWT and nkey seed, decentralized auth), mounted from a Secret.',
    ),
    NATS_TLS_CA_FILE: optionalText(
      'PEM file of the CA that signed the NATS server certificate; turns TLS on and checks the server with it.',
    ),
    NATS_TLS_CERT_FILE: optionalText(
      'Client certificate (PEM) for NATS servers that verify clients (mutual TLS).',
    ),
    NATS_TLS_KEY_FILE: optionalText('Key (PEM) of `NATS_TLS_CERT_FILE`.'),
  };
}

export const regionVars = {
  REGION: regionSchema.describe('Region this stack serves: `us` (the default region) or `eu`.'),
  BASE_URL: url('Public base address of the default region ({base_url}), e.g. https://api.example.com.'),
  EU_BASE_URL: url('Public base address of the EU region ({eu_base_url}), e.g. https://api.eu.example.com.'),
};

export const natsVars = {
  NATS_URL: z
    .string()
    .min(1)
    .default('nats://127.0.0.1:4222')
    .describe("This region's NATS server(s), comma separated."),
  NATS_REQUEST_TIMEOUT_MS: milliseconds(5000, 'How long a request between services waits for its reply.'),
  NATS_RECONNECT_WAIT_MS: milliseconds(1000, 'Pause between attempts to reconnect to NATS.'),
  ...natsSecurityVars(),
  NATS_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(256)
    .describe(
      'Services: requests one process works on at once; more are answered 503 at once (retry) rather than queued behind the database.',
    ),
};

export const redisVars = {
  REDIS_URL: z
    .string()
    .min(1)
    .default('redis://127.0.0.1:6379/0')
    .describe(
      "This region's Redis (BullMQ queues; the gateway's rate-limit counters). `rediss://` connects over TLS. Keep the password out of it: `REDIS_PASSWORD`.",
    ),
  REDIS_USERNAME: optionalText('Redis ACL user name, when the server uses ACLs (Redis 6+).'),
  REDIS_PASSWORD: optionalText(
    'Password of the Redis server (AUTH), from a Secret; used when `REDIS_URL` carries none.',
  ),
  REDIS_TLS_CA_FILE: optionalText(
    'PEM file of the CA that signed the Redis server certificate; turns TLS on (as `rediss://` does).',
  ),
};

const count = (fallback: number, description: string) =>
  z.coerce.number().int().min(0).default(fallback).describe(description);

// Rate limits are counted in Redis, so every gateway replica of a region shares them.
export const rateLimitVars = {
  RATE_LIMIT_REQUESTS: count(600, 'Requests one access token may make per window; 0 turns the limit off.'),
  RATE_LIMIT_WINDOW_MS: milliseconds(60_000, 'Length of the rate-limit window of access tokens.'),
  LOGIN_RATE_LIMIT_ATTEMPTS: count(
    10,
    'Failed sign-ins (OAuth page, email and password routes) per email and window, before refusing; 0 turns it off.',
  ),
  LOGIN_RATE_LIMIT_WINDOW_MS: milliseconds(300_000, 'Length of the sign-in rate-limit window.'),
  LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS: count(
    100,
    'Failed sign-ins per client address and window (whatever the emails), before refusing; 0 turns it off.',
  ),
  PASSWORD_CHECKS_PER_EMAIL: count(
    20,
    'Password checks (HTTP Basic routes, the OAuth sign-in page) per email and window, right or wrong: each is a scrypt hash in the forms service (about 100 ms of a CPU), so this bounds what one account can make the region spend, a script minting tokens with its password included. Over it, 429 with Retry-After before the password is checked. 0 turns it off.',
  ),
  PASSWORD_CHECKS_PER_ADDRESS: count(
    60,
    'Password checks per client address and window (whatever the emails, right or wrong); over it, 429 with Retry-After before the password is checked. 0 turns it off.',
  ),
  PASSWORD_CHECKS_WINDOW_MS: milliseconds(
    60_000,
    'Length of the password-check rate-limit window (whole seconds: rounded up).',
  ),
  AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS: count(
    100,
    'Failed token authentications (a token the forms service does not know, or expired, or revoked) one client address may make per window; over it, 429 with Retry-After before any token of theirs is checked. A token cached as valid is never held back. 0 turns it off.',
  ),
  AUTH_FAILURE_RATE_LIMIT_WINDOW_MS: milliseconds(
    60_000,
    'Length of the failed-authentication rate-limit window (whole seconds: rounded up).',
  ),
  AUTH_FAILURE_CACHE_MS: milliseconds(
    30_000,
    'How long a token that failed authentication is answered 401 from memory, without asking the forms service again.',
  ),
  SUBMISSION_RATE_LIMIT_PER_ADDRESS: count(
    60,
    'Anonymous submissions one client address may make per window (all forms together); 0 turns it off.',
  ),
  SUBMISSION_RATE_LIMIT_PER_FORM: count(
    3000,
    'Anonymous submissions one form may take per window (all addresses together); 0 turns it off.',
  ),
  SUBMISSION_RATE_LIMIT_WINDOW_MS: milliseconds(
    60_000,
    'Length of the anonymous-submission rate-limit window (whole seconds: rounded up).',
  ),
};

export const opsVars = {
  OPS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('Address of the ops server (health and metrics); 0.0.0.0 in a container.'),
  OPS_PORT: port('Port of /health/live, /health/ready and /metrics (Prometheus); never exposed publicly.'),
};

export const logVars = {
  LOG_LEVEL: z
    .enum(['error', 'warn', 'log', 'debug', 'verbose'])
    .default('log')
    .describe('Lowest level logged; `log` is info, `verbose` is trace.'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .default('json')
    .describe('`json`: one JSON object a line (pino), for machines; `pretty`: for a terminal.'),
};

export const databaseUrl = (description: string) =>
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgresql:// URL')
    .describe(description);

// Each process's connection pool: a query that waits longer than the timeout
// for a free connection fails as 503 SERVICE_UNAVAILABLE (retry), not a hang.
export const databasePoolVars = {
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .describe('Connections each process keeps to its database at most.'),
  DATABASE_POOL_TIMEOUT_MS: milliseconds(
    2000,
    'How long a query waits for a free connection before the request is answered 503 (retry later).',
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(
    15_000,
    "How long one SQL statement may run before PostgreSQL cancels it: past the services' request deadline, so it only stops work whose caller has gone.",
  ),
};

export const httpVars = {
  HTTP_HOST: z.string().min(1).default('127.0.0.1').describe('Address the public HTTP server listens on.'),
  HTTP_PORT: port('Port of the public HTTP API.'),
  DEMO_FORM_ID: z
    .string()
    .max(64)
    .default('')
    .describe(
      'A form the home page of the base address (`GET /`) links as one to try; `npm start` names its demo form. Empty: none.',
    ),
  TRUSTED_PROXIES: commaList(
    'Addresses or CIDR ranges of the proxies in front of the gateway (the ingress controller), comma separated. Only a request from one of them has its X-Forwarded-For believed, for rate limits per client address; empty: the socket address is the client.',
  ),
};

// Load shedding in the gateway: when it is over either bound, a new request is
// answered 503 with Retry-After at once instead of queueing behind the others,
// so a burst or a retry storm after an outage cannot starve the process into
// timeouts for everyone (health and metrics are on the ops port, never shed).
export const loadSheddingVars = {
  GATEWAY_MAX_IN_FLIGHT: count(
    1_000,
    'Requests one gateway handles at once; over it, new requests are answered 503 with Retry-After. 0: no bound.',
  ),
  GATEWAY_MAX_EVENT_LOOP_DELAY_MS: count(
    1_000,
    'Mean event-loop delay (over half a second) above which the gateway sheds new requests with 503 and Retry-After: the process is short of CPU and every queued request would only wait longer. 0: no bound.',
  ),
};

// Time limits on each phase of a request in the gateway. Without them a client
// that is slow on purpose (headers or a body a byte at a time, a socket left
// silent) holds a socket, and the work waiting behind it, for as long as it
// likes. A request cut off before anything was answered gets 408 with the error body.
export const requestTimeVars = {
  GATEWAY_HEADERS_TIMEOUT_MS: milliseconds(
    10_000,
    "Longest a client may take to send a request's headers; then 408 and the socket is closed.",
  ),
  GATEWAY_REQUEST_TIMEOUT_MS: milliseconds(
    60_000,
    "Longest a client may take to send a whole request, headers and body (a respondent's 10 MiB file on a slow line must fit); then 408 and the socket is closed.",
  ),
  GATEWAY_IDLE_TIMEOUT_MS: milliseconds(
    30_000,
    'Longest a socket may stay silent while a request is being received or answered; then 408 if nothing was answered yet, and the socket is closed.',
  ),
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: milliseconds(
    72_000,
    'Longest an idle keep-alive socket is kept open between requests; above the 60 s idle timeout of the usual load balancers, so the gateway never closes a socket the balancer is about to reuse.',
  ),
};

export const shutdownVars = {
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(25_000)
    .describe(
      'Longest a graceful stop may take before the process exits anyway; keep below the pod grace period.',
    ),
};

// Shared by the webhooks service (which saves webhooks) and the dispatcher
// (which delivers): both open sealed secrets and both check target addresses.
export const webhookSecurityVars = {
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'expected 32 bytes, base64 encoded')
    .optional()
    .describe(
      'Key that encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes, base64 (`openssl rand -base64 32`). Keep it in a Secret. Required unless WEBHOOK_SECRET_KEYS is set; to rotate, move to WEBHOOK_SECRET_KEYS.',
    ),
  WEBHOOK_SECRET_KEYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const keys = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => ({
          id: entry.slice(0, entry.indexOf(':')),
          key: entry.slice(entry.indexOf(':') + 1),
        }));
      for (const { id, key } of keys) {
        if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
          ctx.addIssue({ code: 'custom', message: `key id "${id}": 1-32 letters, digits, _ or -` });
        else if (Buffer.from(key, 'base64').length !== 32)
          ctx.addIssue({ code: 'custom', message: `key ${id}: expected 32 bytes, base64 encoded` });
      }
      if (new Set(keys.map((k) => k.id)).size !== keys.length)
        ctx.addIssue({ code: 'custom', message: 'key ids must differ' });
      return keys;
    })
    .describe(
      'Several webhook secret keys, for rotation: `id:base64key,id:base64key`, newest first. The newest seals new secrets; every key listed opens the secrets sealed with it (and WEBHOOK_SECRET_KEY, if also set, is tried for secrets sealed before key ids existed). `npm run admin -- reseal-webhook-secrets` re-seals old secrets with the newest key, after which older keys may be dropped. Never reuse an id for another key.',
    ),
  WEBHOOK_ALLOWED_HOSTS: commaList(
    'Comma-separated host names, addresses or CIDR ranges that webhooks may target although internal (e.g. 127.0.0.1 for a local receiver), over plain http too; empty by default.',
  ),
};

// The gateway and the media app: the gateway signs every request it hands to
// media (the caller's account, the path, when), and media serves only what
// carries a valid signature, so that reaching media's port is not enough to
// read respondents' files or act as an account.
export const mediaForwardingVars = {
  MEDIA_FORWARDING_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'expected 32 bytes, base64 encoded')
    .describe(
      "Key the gateway signs the requests it forwards to the region's media app with, and media checks them with (HMAC-SHA256): 32 random bytes, base64 (`openssl rand -base64 32`), the same on the region's gateway and media. Keep it in a Secret.",
    ),
};

// The gateway's caches of token checks and form reads. Its own region's
// changes reach them at once (announced on NATS); the other region's changes
// only when an entry's lifetime ends, so this is how long a token revoked, or a
// form changed, through the other region's address may still be honoured here.
export const readCacheVars = {
  READ_CACHE_TTL_MS: count(
    5_000,
    "Longest life of a cached token check or form read in the gateway: the bound on seeing the other region's revocations, form changes and removals of workspace members; 0 turns the caches off.",
  ),
  READ_CACHE_MAX_ENTRIES: count(
    2_000,
    'Entries each gateway cache (token checks, form reads, form snapshots) holds at most, the least recently used dropped first.',
  ),
};

// The key ring of the webhooks service and dispatcher, newest first: the
// variables above, merged (WEBHOOK_SECRET_KEY last, as the oldest, id `default`).
export function webhookSecretKeys(config: {
  WEBHOOK_SECRET_KEY?: string;
  WEBHOOK_SECRET_KEYS?: { id: string; key: string }[];
}): { id: string; key: string }[] {
  const ring = [...(config.WEBHOOK_SECRET_KEYS ?? [])];
  if (config.WEBHOOK_SECRET_KEY && !ring.some((entry) => entry.id === 'default'))
    ring.push({ id: 'default', key: config.WEBHOOK_SECRET_KEY });
  return ring;
}

// For the config schemas that spread webhookSecurityVars: one of the two keys must be set.
export function requireWebhookSecretKey(
  config: { WEBHOOK_SECRET_KEY?: string; WEBHOOK_SECRET_KEYS?: unknown[] },
  ctx: z.RefinementCtx,
): void {
  if (!config.WEBHOOK_SECRET_KEY && !config.WEBHOOK_SECRET_KEYS?.length)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SECRET_KEY'],
      message: 'set WEBHOOK_SECRET_KEY or WEBHOOK_SECRET_KEYS',
    });
}

// The retention job of the services that own ever-growing tables.
export const retentionVars = {
  RETENTION_INTERVAL_MS: milliseconds(
    600_000,
    'How often the retention job deletes rows past their keep-time (one replica at a time).',
  ),
  RETENTION_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(500)
    .describe('Rows the retention job deletes per statement; it pauses between statements.'),
};

// The region's RESPONSES stream, which the responses service publishes to and
// the webhooks service reads: both bring it to this setting at start-up.
export const responsesStreamVars = {
  // At least the stream's de-duplication window (10 minutes), as JetStream requires.
  RESPONSES_STREAM_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(600_000)
    .default(7 * 24 * 3_600_000)
    .describe(
      "How long the region's RESPONSES stream keeps a submission event (the response as webhooks receive it). The webhooks service reads each within seconds; the age bounds how long a respondent's answers stay there after their response, form or account is deleted, and how long the webhooks service may be away without losing deliveries.",
    ),
};

// The form purge job of the services that hold a form's data in a region.
export const formPurgeVars = {
  FORM_PURGE_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(500)
    .describe(
      "Rows of a deleted form the purge job deletes per statement (with their stored files or queued jobs); it pauses FORM_PURGE_PAUSE_MS between statements, so the region's other work never waits long behind it.",
    ),
  FORM_PURGE_PAUSE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe("The purge job's pause between two statements."),
  FORM_PURGE_INTERVAL_MS: milliseconds(
    1000,
    'How often the purge job looks for deleted forms whose data is still here (a deletion is also taken up as it arrives).',
  ),
  FORM_PURGE_SETTLE_MS: milliseconds(
    60_000,
    'A purge ends with a pass that finds nothing of the form at least this long after it was deleted: a submission or upload already under way when the form was deleted is removed too.',
  ),
};
