import { randomUUID } from 'node:crypto';
import { parseConfig, rateLimitVars } from '@formline/config';
import { DomainError, ErrorCode } from '@formline/errors';
import { connectRedisFailFast } from '@formline/messaging';
import { testInfra } from '@formline/testing';
import { z } from 'zod';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';
import type { HttpEdgeConfig } from '../http-edge.config';
import { RateLimiter } from './rate-limiter';
import { SignInThrottle } from './sign-in.throttle';

// The budgets counted in the test profile's Redis (a database of the
// integration tier's own), by two limiters with a connection each, as two
// gateway replicas of a region count them.
describe('rate limits in Redis', () => {
  const redisUrl = testInfra().integrationRedisUrl.us;
  const replicas = ['one', 'two'].map((name) => {
    const redis = connectRedisFailFast({ REDIS_URL: redisUrl }, `rate-limit-int-spec-${name}`);
    return { redis, limiter: new RateLimiter(redis) };
  });
  const [one, two] = replicas.map((replica) => replica.limiter);

  beforeAll(() => Promise.all(replicas.map(({ limiter }) => limiter.onModuleInit())));
  afterAll(() => Promise.all(replicas.map(({ limiter }) => limiter.onApplicationShutdown())));

  // A budget of its own for each test (and each run: Redis keeps counts for a window).
  const policy = (limit: number, windowMs: number) => ({ name: `int-${randomUUID()}`, limit, windowMs });
  const outcome = (attempt: Promise<void>) =>
    attempt.then(
      () => 'served',
      (error: unknown) => error,
    );

  it('shares one budget between replicas and refuses past it with RATE_LIMITED and Retry-After', async () => {
    const shared = policy(3, 4000);
    const [here, there] = [one.budget(shared, 'Too many.'), two.budget(shared, 'Too many.')];
    expect(one.isShared() && two.isShared()).toBe(true);
    await here.consume('token');
    await there.consume('token');
    await here.consume('token');
    const refused = await outcome(there.consume('token'));
    expect(refused).toBeInstanceOf(DomainErrorWithHeaders);
    expect(refused).toMatchObject({
      code: ErrorCode.RateLimited,
      description: expect.stringMatching(/^Too many\. Retry in [1-4] s\.$/),
    });
    const retryAfter = Number((refused as DomainErrorWithHeaders).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(4);
    // Another key has its own budget.
    await expect(here.consume('another-token')).resolves.toBeUndefined();
  });

  it('lets exactly the budget through when requests arrive all at once', async () => {
    const shared = policy(5, 10_000);
    const budgets = [one, two].map((limiter) => limiter.budget(shared, 'Too many.'));
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, (_, n) => outcome(budgets[n % 2].consume('burst'))),
    );
    expect(outcomes.filter((result) => result === 'served')).toHaveLength(5);
    expect(outcomes.filter((result) => result instanceof DomainErrorWithHeaders)).toHaveLength(19);
  });

  it('serves again once the window is over', async () => {
    const budget = one.budget(policy(1, 1000), 'Too many.');
    await budget.consume('key');
    const refused = await outcome(budget.consume('key'));
    expect(refused).toBeInstanceOf(DomainErrorWithHeaders);
    // About time: the window is what is tested, so the test waits it out.
    await new Promise((resolve) =>
      setTimeout(resolve, Number((refused as DomainErrorWithHeaders).headers['Retry-After']) * 1000 + 100),
    );
    await expect(budget.consume('key')).resolves.toBeUndefined();
  });

  describe('sign-ins', () => {
    // SignInThrottle reads only the sign-in limits of the gateway's config.
    const config = (attempts: number, addressAttempts: number, checks: Record<string, string> = {}) =>
      parseConfig(z.object(rateLimitVars), {
        LOGIN_RATE_LIMIT_ATTEMPTS: String(attempts),
        LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS: String(addressAttempts),
        LOGIN_RATE_LIMIT_WINDOW_MS: '10000',
        ...checks,
      }) as HttpEdgeConfig;
    const wrongPassword = () =>
      Promise.reject(new DomainError(ErrorCode.AuthenticationFailed, 'Wrong password.'));
    const rightPassword = () => Promise.resolve('signed in');
    const attempt = (
      throttle: SignInThrottle,
      email: string,
      address: string,
      signIn: () => Promise<string>,
    ) =>
      throttle.attempt(email, address, signIn).then(
        (result) => result,
        (error: unknown) => (error instanceof DomainError ? error.code : error),
      );

    it('refuses an email after its failures, even with the right password, on every replica; successes cost nothing', async () => {
      const settings = config(2, 100);
      const [here, there] = [new SignInThrottle(one, settings), new SignInThrottle(two, settings)];
      const email = `${randomUUID()}@example.com`;
      for (let n = 0; n < 3; n++)
        expect(await attempt(here, email, '192.0.2.1', rightPassword)).toBe('signed in');
      expect(await attempt(here, email, '192.0.2.1', wrongPassword)).toBe(ErrorCode.AuthenticationFailed);
      expect(await attempt(there, email, '192.0.2.2', wrongPassword)).toBe(ErrorCode.AuthenticationFailed);
      expect(await attempt(there, email, '192.0.2.3', rightPassword)).toBe(ErrorCode.RateLimited);
      // Another account is not held back by it.
      expect(await attempt(here, `${randomUUID()}@example.com`, '192.0.2.1', rightPassword)).toBe(
        'signed in',
      );
    });

    it('counts every password check, right ones too, and refuses one more before the password is checked', async () => {
      const settings = config(100, 100, {
        PASSWORD_CHECKS_PER_EMAIL: '3',
        PASSWORD_CHECKS_PER_ADDRESS: '5',
        PASSWORD_CHECKS_WINDOW_MS: '10000',
      });
      const [here, there] = [new SignInThrottle(one, settings), new SignInThrottle(two, settings)];
      let checked = 0;
      const countedPassword = () => {
        checked += 1;
        return Promise.resolve('signed in');
      };
      const email = `${randomUUID()}@example.com`;
      const address = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
      for (let n = 0; n < 3; n++)
        expect(await attempt(n % 2 ? here : there, email, `${address}-${n}`, countedPassword)).toBe(
          'signed in',
        );
      expect(await attempt(here, email, `${address}-3`, countedPassword)).toBe(ErrorCode.RateLimited);
      expect(checked).toBe(3);
      // Per address, whatever the emails.
      for (let n = 0; n < 5; n++)
        expect(await attempt(there, `${randomUUID()}@example.com`, address, countedPassword)).toBe(
          'signed in',
        );
      expect(await attempt(here, `${randomUUID()}@example.com`, address, countedPassword)).toBe(
        ErrorCode.RateLimited,
      );
      expect(checked).toBe(8);
    });

    it('refuses an address trying many accounts', async () => {
      const throttle = new SignInThrottle(one, config(100, 2));
      const address = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
      expect(await attempt(throttle, `${randomUUID()}@example.com`, address, wrongPassword)).toBe(
        ErrorCode.AuthenticationFailed,
      );
      expect(await attempt(throttle, `${randomUUID()}@example.com`, address, wrongPassword)).toBe(
        ErrorCode.AuthenticationFailed,
      );
      expect(await attempt(throttle, `${randomUUID()}@example.com`, address, rightPassword)).toBe(
        ErrorCode.RateLimited,
      );
    });
  });
});
