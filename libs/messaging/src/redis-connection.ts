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
