import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';

// Where and how every app reaches its region's Redis: the URL (`rediss://` for
// TLS), and besides it a user, a password and a CA file, so that the password
// comes from a Secret without being joined into the URL. The variables are
// the config schema's (libs/config redisVars).
export interface RedisSettings {
  REDIS_URL: string;
  REDIS_USERNAME?: string;
  REDIS_PASSWORD?: string;
  REDIS_TLS_CA_FILE?: string;
}

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
  return new Redis(settings.REDIS_URL, {
    ...redisConnectionOptions(settings),
    connectionName: name,
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

// For readiness: a ping that fails fast while Redis is away.
export function redisIsUp(redis: Redis): boolean {
  return redis.status === 'ready';
}

// A Redis connection for the request path (the gateway's rate limits): a
// command fails at once while Redis is away, instead of holding the request.
export function connectRedisFailFast(settings: RedisSettings, name: string): Redis {
  return new Redis(settings.REDIS_URL, {
    ...redisConnectionOptions(settings),
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
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
