import { ErrorCode } from '@formline/errors';
import { Redis } from 'ioredis';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';
import { RateLimiter } from './rate-limiter';

// Without Redis (a client that never connects), every budget is still kept,
// in this replica's memory; the e2e tests cover the shared counts in Redis.
describe('RateLimiter without Redis', () => {
  const redis = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false });
  const limiter = new RateLimiter(redis);
  afterAll(() => redis.disconnect());

  const refusal = async (attempt: Promise<void>) =>
    attempt.then(() => undefined).catch((error: unknown) => error);

  it('still refuses over the limit, with Retry-After, and says the counts are not shared', async () => {
    const budget = limiter.budget({ name: 'spec-memory', limit: 2, windowMs: 5000 }, 'Too many.');
    await budget.consume('k');
    await budget.consume('k');
    const refused = await refusal(budget.consume('k'));
    expect(refused).toBeInstanceOf(DomainErrorWithHeaders);
    expect(refused).toMatchObject({ code: ErrorCode.RateLimited, headers: { 'Retry-After': '5' } });
    // Another key has its own budget.
    await expect(budget.consume('other')).resolves.toBeUndefined();
    expect(limiter.isShared()).toBe(false);
  });

  it('gives a refunded count back', async () => {
    const budget = limiter.budget({ name: 'spec-refund', limit: 1, windowMs: 5000 }, 'Too many.');
    await budget.consume('k');
    await budget.refund('k');
    await expect(budget.consume('k')).resolves.toBeUndefined();
    await expect(refusal(budget.consume('k'))).resolves.toBeInstanceOf(DomainErrorWithHeaders);
  });

  it('turns a limit of 0 off', async () => {
    const budget = limiter.budget({ name: 'spec-off', limit: 0, windowMs: 5000 }, 'Too many.');
    for (let count = 0; count < 5; count++) await budget.consume('k');
  });
});
