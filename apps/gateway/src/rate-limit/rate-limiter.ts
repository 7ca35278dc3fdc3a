import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@formline/errors';
import { whenRedisReady } from '@formline/messaging';
import type { Redis } from 'ioredis';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';

export const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

export interface RateLimit {
  /** Requests allowed per window; 0 means no limit. */
  limit: number;
  windowMs: number;
}

// A fixed window per key, counted in the region's Redis so that all gateway
// replicas share it. One atomic script: count (or only read the count), start
// the window on the first hit, and say how long the window still runs.
const fixedWindow = `
local count
if ARGV[2] == '1' then
  count = redis.call('INCR', KEYS[1])
else
  count = tonumber(redis.call('GET', KEYS[1]) or '0')
end
local ttl = redis.call('PTTL', KEYS[1])
if count > 0 and ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

// When Redis is away the limiter lets requests through: the API stays up
// without its rate limits rather than going down with Redis. It says so in the
// log once when that starts and once when it ends.
@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimiter');
  private failing = false;

  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis) {}

  async onModuleInit(): Promise<void> {
    if (!(await whenRedisReady(this.redis, 3000))) {
      this.logger.warn('Redis is not reachable yet: requests are not rate limited until it is.');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }

  // Counts one request against `key`; throws RATE_LIMITED (429, Retry-After) over the limit.
  async consume(key: string, policy: RateLimit, description: string): Promise<void> {
    const window = await this.window(key, policy, true);
    if (window && window.count > policy.limit) throw rateLimited(description, window.ttlMs);
  }

  // Throws RATE_LIMITED once `key` has used up its window, without counting this request.
  async refuseIfSpent(key: string, policy: RateLimit, description: string): Promise<void> {
    const window = await this.window(key, policy, false);
    if (window && window.count >= policy.limit) throw rateLimited(description, window.ttlMs);
  }

  // Counts one event against `key`, without refusing anything.
  async count(key: string, policy: RateLimit): Promise<void> {
    await this.window(key, policy, true);
  }

  private async window(
    key: string,
    policy: RateLimit,
    increment: boolean,
  ): Promise<{ count: number; ttlMs: number } | undefined> {
    if (policy.limit === 0) return undefined;
    try {
      const [count, ttlMs] = (await this.redis.eval(
        fixedWindow,
        1,
        `ratelimit:${key}`,
        policy.windowMs,
        increment ? '1' : '0',
      )) as [number, number];
      this.recovered();
      return { count, ttlMs };
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Rate limits suspended, Redis failed: ${reason}`);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Rate limits enforced again: Redis answers.');
  }
}

function rateLimited(description: string, ttlMs: number): DomainErrorWithHeaders {
  const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
  return new DomainErrorWithHeaders(ErrorCode.RateLimited, `${description} Retry in ${retryAfter} s.`, {
    'Retry-After': String(retryAfter),
  });
}
