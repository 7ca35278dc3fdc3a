import { z } from 'zod';
import { regionSchema } from '@formline/contracts';

// Building blocks of every app's config schema. Each variable carries its
// meaning, so the configuration reference and the error messages say the same.

const port = (description: string) => z.coerce.number().int().min(0).max(65535).describe(description);
const url = (description: string) => z.url().describe(description);
const milliseconds = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);

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
  NATS_MAX_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .default(32)
    .describe(
      'Services: requests one process works on at once; more are answered 503 at once (retry) rather than queued behind the database.',
    ),
};

export const redisVars = {
  REDIS_URL: z
    .string()
    .min(1)
    .default('redis://127.0.0.1:6379/0')
    .describe("This region's Redis (BullMQ queues; the gateway's rate-limit counters)."),
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
};

export const httpVars = {
  HTTP_HOST: z.string().min(1).default('127.0.0.1').describe('Address the public HTTP server listens on.'),
  HTTP_PORT: port('Port of the public HTTP API.'),
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
    .describe(
      'Key that encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes, base64 (`openssl rand -base64 32`). Keep it in a Secret; changing it makes stored secrets unreadable.',
    ),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .describe(
      'Comma-separated host names, addresses or CIDR ranges that webhooks may target although internal (e.g. 127.0.0.1 for a local receiver); empty by default.',
    ),
};
