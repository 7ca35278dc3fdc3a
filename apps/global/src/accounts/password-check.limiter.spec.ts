import { DomainError, ErrorCode } from '@formline/errors';
import { hashPassword } from '@formline/tokens';
import type { AccountRepository } from './account.repository';
import { AccountCredentialsService } from './account-credentials.service';
import { PasswordCheckLimiter } from './password-check.limiter';

describe('PasswordCheckLimiter', () => {
  const queueOf = (concurrency: number, queued: number, maxWaitMs = 5000) =>
    new PasswordCheckLimiter({
      PASSWORD_CHECK_CONCURRENCY: concurrency,
      PASSWORD_CHECK_QUEUE: queued,
      NATS_REQUEST_TIMEOUT_MS: maxWaitMs,
    });

  // A check that runs until the test lets it finish.
  const held = () => {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    return { finish, check: () => done.then(() => 'checked') };
  };

  it('runs at most its concurrency at once, the others in their order, and refuses one past the queue with 503', async () => {
    const queue = queueOf(1, 2);
    const order: number[] = [];
    const checks = [held(), held(), held()];
    const runs = checks.map((item, n) =>
      queue.run(async () => {
        order.push(n);
        return item.check();
      }),
    );
    await Promise.resolve();
    expect(queue.stats()).toEqual({ running: 1, waiting: 2 });
    expect(order).toEqual([0]);
    await expect(queue.run(() => Promise.resolve('checked'))).rejects.toMatchObject({
      code: ErrorCode.ServiceUnavailable,
    });
    for (const item of checks) item.finish();
    await expect(Promise.all(runs)).resolves.toEqual(['checked', 'checked', 'checked']);
    expect(order).toEqual([0, 1, 2]);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("does not run a check whose turn came after its caller's wait for a reply, and passes the turn on", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const queue = queueOf(1, 2, 5000);
      const first = held();
      const ran: string[] = [];
      const running = queue.run(first.check);
      const late = queue.run(() => {
        ran.push('late');
        return Promise.resolve('checked');
      });
      await Promise.resolve();
      jest.setSystemTime(1_000_000 + 5001);
      const next = queue.run(() => {
        ran.push('next');
        return Promise.resolve('checked');
      });
      first.finish();
      await expect(running).resolves.toBe('checked');
      await expect(late).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable });
      await expect(next).resolves.toBe('checked');
      expect(ran).toEqual(['next']);
      expect(queue.stats()).toEqual({ running: 0, waiting: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives the turn back when a check fails', async () => {
    const queue = queueOf(1, 0);
    await expect(queue.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    await expect(queue.run(() => Promise.resolve('checked'))).resolves.toBe('checked');
  });

  it('is where the credentials service checks every password, known email or not', async () => {
    const passwordHash = await hashPassword('right password');
    const accounts = {
      findCredentialsByEmail: (email: string) =>
        Promise.resolve(
          email === 'owner@example.com' ? { id: 'acc1', region: 'us', passwordHash } : undefined,
        ),
    } as unknown as AccountRepository;
    const service = new AccountCredentialsService(accounts, queueOf(1, 0));
    const outcome = (email: string) =>
      service.authenticate(email, 'right password').then(
        (owner) => owner.accountId,
        (error: unknown) => (error instanceof DomainError ? error.code : error),
      );
    // Two at once with one turn and no queue: the second is refused before its hash.
    for (const emails of [
      ['owner@example.com', 'owner@example.com'],
      ['nobody@example.com', 'owner@example.com'],
    ])
      expect(await Promise.all(emails.map(outcome))).toEqual([
        emails[0] === 'owner@example.com' ? 'acc1' : ErrorCode.AuthenticationFailed,
        ErrorCode.ServiceUnavailable,
      ]);
  });
});
