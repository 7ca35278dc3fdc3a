import { Redis } from 'ioredis';

// A Redis connection as BullMQ needs it: commands wait through a Redis restart
// instead of failing (maxRetriesPerRequest null), and reconnects never stop.
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
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
export function connectRedisFailFast(url: string, name: string): Redis {
  return new Redis(url, {
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
