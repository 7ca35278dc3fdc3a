import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@formline/errors';
import { redisIsUp, whenRedisReady } from '@formline/messaging';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';

export interface RateLimit {
  /** Names the counters in Redis; one name per kind of limit. */
  name: string;
  /** Requests allowed per window; 0 means no limit. */
  limit: number;
  windowMs: number;
}

// One budget of requests per key and window (rate-limiter-flexible's fixed
// window), counted in the region's Redis so that every gateway replica shares
// it. Each count is one atomic INCR in Redis, so parallel requests can never
// all slip through under the limit.
//
// When Redis is away, each replica counts in its own memory instead (the
// library's insurance limiter): the limits still hold, per replica, so a
// region with N gateways allows up to N times the budget until Redis is back.
// The API stays up without Redis; readiness reports it (check `redis`).
export class Budget {
  constructor(
    private readonly limiter: RateLimiterRedis | undefined,
    private readonly description: string,
  ) {}

  /** False for a limit of 0: nothing to count, so callers can skip the await. */
  get counts(): boolean {
    return this.limiter !== undefined;
  }

  // Counts one request against `key`; throws RATE_LIMITED (429, Retry-After) over the limit.
  async consume(key: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(key);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw rateLimited(this.description, outcome.msBeforeNext);
      throw outcome;
    }
  }

  // Throws RATE_LIMITED (429, Retry-After) if `key` has spent its budget,
  // counting nothing: for a check that must not cost the caller a point.
  async refuseIfSpent(key: string): Promise<void> {
    if (!this.limiter) return;
    let spent: RateLimiterRes | null;
    try {
      spent = await this.limiter.get(key);
    } catch {
      // Redis away: the count goes on in the insurance limiter at the next consume().
      return;
    }
    if (spent && spent.consumedPoints >= this.limiter.points)
      throw rateLimited(this.description, spent.msBeforeNext);
  }

  // Gives one counted request back (a sign-in that turned out right).
  async refund(key: string): Promise<void> {
    if (this.limiter) await this.limiter.reward(key);
  }

  // Counts `points` against `key` at once (bytes of a file, say); over the
  // limit, throws RATE_LIMITED and gives the points back, so a refused
  // request costs its caller nothing and a smaller one may still fit.
  async take(key: string, points: number): Promise<void> {
    if (!this.limiter || points <= 0) return;
    try {
      await this.limiter.consume(key, points);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      await this.limiter.reward(key, points).catch(() => undefined);
      throw rateLimited(this.description, outcome.msBeforeNext);
    }
  }

  // Gives back points taken and not spent after all (an upload that was never stored).
  async giveBack(key: string, points: number): Promise<void> {
    if (this.limiter && points > 0) await this.limiter.reward(key, points);
  }
}

@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimiter');
  private readonly budgets = new Map<string, Budget>();
  private failing = false;

  constructor(private readonly redis: Redis) {
    this.redis.on('ready', () => this.recovered());
    this.redis.on('error', (error: Error) => this.failed(error));
  }

  async onModuleInit(): Promise<void> {
    if (!(await whenRedisReady(this.redis, 3000))) {
      this.logger.warn('Redis is not reachable yet: rate limits are counted per replica until it is.');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }

  // For readiness: whether the counters are shared (true) or per replica.
  isShared(): boolean {
    return redisIsUp(this.redis);
  }

  // The budget of one kind of limit; `description` starts the 429's description.
  budget(policy: RateLimit, description: string): Budget {
    const id = `${policy.name}:${policy.limit}:${policy.windowMs}`;
    let budget = this.budgets.get(id);
    if (!budget) {
      budget = new Budget(policy.limit === 0 ? undefined : this.limiter(policy), description);
      this.budgets.set(id, budget);
    }
    return budget;
  }

  private limiter(policy: RateLimit): RateLimiterRedis {
    // The library counts whole seconds; a window is rounded up to the next one.
    const duration = Math.max(1, Math.ceil(policy.windowMs / 1000));
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `ratelimit:${policy.name}`,
      points: policy.limit,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({
        keyPrefix: `ratelimit:${policy.name}`,
        points: policy.limit,
        duration,
      }),
    });
  }

  private failed(error: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(`Rate limits counted per replica, Redis failed: ${error.message}`);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Rate limits shared again: Redis answers.');
  }
}

function rateLimited(description: string, msBeforeNext: number): DomainErrorWithHeaders {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new DomainErrorWithHeaders(ErrorCode.RateLimited, `${description} Retry in ${retryAfter} s.`, {
    'Retry-After': String(retryAfter),
  });
}
