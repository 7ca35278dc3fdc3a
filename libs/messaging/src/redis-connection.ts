import { readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisGroupSettings } from '@formline/config';

// Where and how every app reaches its region's Redis: the URL (`rediss://` for
// TLS), and besides it a user, a password and a CA file, so that the password
// comes from a Secret without being joined into the URL. The names and types
// are the group's in libs/config (redisVars).
export type RedisSettings = RedisGroupSettings;

export function redisConnectionOptions(settings: RedisSettings): RedisOptions {
  const options: RedisOptions = {};
  if (settings.REDIS_USERNAME !== undefined) options.username = settings.REDIS_USERNAME;
  if (settings.REDIS_PASSWORD !== undefined) options.password = settings.REDIS_PASSWORD;
  if (settings.REDIS_TLS_CA_FILE !== undefined)
    options.tls = { ca: readFileSync(settings.REDIS_TLS_CA_FILE) };
  return options;
}

// A Redis connection as BullMQ needs it: commands wait through a Redis restart
// instead of failing (maxRetriesPerRequest null), and reconnects never stop.
export function connectRedis(settings: RedisSettings, name: string): Redis {
  return reportProblems(
    new Redis(settings.REDIS_URL, {
      ...redisConnectionOptions(settings),
      connectionName: name,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    }),
    name,
  );
}

// For readiness: a ping that fails fast while Redis is away.
export function redisIsUp(redis: Redis): boolean {
  return redis.status === 'ready';
}

// A Redis connection for the request path (the gateway's rate limits): a
// command fails at once while Redis is away, instead of holding the request.
export function connectRedisFailFast(settings: RedisSettings, name: string): Redis {
  return reportProblems(
    new Redis(settings.REDIS_URL, {
      ...redisConnectionOptions(settings),
      connectionName: name,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    }),
    name,
  );
}

// Redis's error codes (the first word of its error replies) that mean our
// credentials are wrong: no retry will help until the config is fixed.
const credentialErrors = new Set(['WRONGPASS', 'NOAUTH', 'NOPERM']);

export function describeRedisError(error: Error): string {
  const code = error.message.split(' ', 1)[0];
  if (credentialErrors.has(code))
    return `Redis refused our credentials (${error.message}): check REDIS_PASSWORD and REDIS_USERNAME`;
  return `Redis unreachable: ${error.message}`;
}

// One log line each time what goes wrong changes (not one per reconnection,
// every 2 s), and one when Redis answers again. The connection keeps retrying:
// the app stays up, not ready, and recovers by itself once Redis is fixed.
function reportProblems(redis: Redis, name: string): Redis {
  const logger = new Logger('Redis');
  let problem: string | undefined;
  redis.on('error', (error: Error) => {
    const described = describeRedisError(error);
    if (described === problem) return;
    problem = described;
    logger.error(`${name}: ${described}`);
  });
  redis.on('ready', () => {
    if (problem !== undefined) logger.log(`${name}: Redis answers again`);
    problem = undefined;
  });
  return redis;
}

// Resolves once connected, or after `timeoutMs` whatever the state: a caller
// that can work without Redis starts anyway.
export async function whenRedisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
