import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { FORMS_CONFIG, type FormsConfig } from '../forms.config';

// Where the forms process runs its password checks. Each is a scrypt hash
// (memory-hard on purpose: about 100 ms of a CPU and 32 MiB), run in libuv's
// thread pool, whose 4 threads the process shares with everything else it
// does there. Unbounded, a burst of sign-ins (a script minting tokens with
// its password, or guesses spread over many addresses and emails) runs 4
// hashes at once and takes both cores of a small node from every other
// caller of the region. So at most PASSWORD_CHECK_CONCURRENCY run at once,
// at most PASSWORD_CHECK_QUEUE wait, first come first served, and one more
// is refused at once with 503 (Retry-After, set by the gateway): never a
// queue without end, never a check whose caller has long given up.
@Injectable()
export class PasswordCheckQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly maxQueued: number;

  constructor(
    @Inject(FORMS_CONFIG) config: Pick<FormsConfig, 'PASSWORD_CHECK_CONCURRENCY' | 'PASSWORD_CHECK_QUEUE'>,
  ) {
    this.concurrency = config.PASSWORD_CHECK_CONCURRENCY;
    this.maxQueued = config.PASSWORD_CHECK_QUEUE;
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
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await check();
    } finally {
      // The turn passes to the next check waiting (the count stays), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
