import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';

// Where the global process runs its password checks. Each is a scrypt hash
// (memory-hard on purpose: about 100 ms of a CPU and 32 MiB), run in libuv's
// thread pool, whose 4 threads the process shares with everything else it
// does there. Unbounded, a burst of sign-ins (a script minting tokens with
// its password, or guesses spread over many addresses and emails) runs 4
// hashes at once and takes both cores of a small node from every other
// caller of the region. So at most PASSWORD_CHECK_CONCURRENCY run at once,
// at most PASSWORD_CHECK_QUEUE wait, first come first served, and one more
// is refused at once with 503 (Retry-After, set by the gateway): never a
// queue without end. A check whose turn comes after NATS_REQUEST_TIMEOUT_MS
// of waiting is not run (503 too): its caller, who waits that long for any
// reply between services, has given up, and the hash would serve no one.
@Injectable()
export class PasswordCheckLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly maxWaitMs: number;

  constructor(
    @Inject(GLOBAL_CONFIG)
    config: Pick<
      GlobalConfig,
      'PASSWORD_CHECK_CONCURRENCY' | 'PASSWORD_CHECK_QUEUE' | 'NATS_REQUEST_TIMEOUT_MS'
    >,
  ) {
    this.concurrency = config.PASSWORD_CHECK_CONCURRENCY;
    this.maxQueued = config.PASSWORD_CHECK_QUEUE;
    this.maxWaitMs = config.NATS_REQUEST_TIMEOUT_MS;
  }

  // `check` when a turn is free, after the checks queued before it.
  async run<T>(check: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) {
        throw new DomainError(
          ErrorCode.ServiceUnavailable,
          'The server is checking as many passwords as it can right now. Retry after the time in Retry-After.',
        );
      }
      const queuedAt = Date.now();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (Date.now() - queuedAt > this.maxWaitMs) {
        this.passTurn();
        throw new DomainError(
          ErrorCode.ServiceUnavailable,
          'The server could not check the password in time. Retry after the time in Retry-After.',
        );
      }
    } else this.running += 1;
    try {
      return await check();
    } finally {
      this.passTurn();
    }
  }

  // The turn passes to the next check waiting (the count stays), or is given back.
  private passTurn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
