import { DomainError, ErrorCode } from '@formline/errors';
import { recordImageWorkRefused } from './image-work.metrics';

export interface RenderPoolLimits {
  /** Image jobs (decode, resize, encode) running at once. */
  concurrency: number;
  /** Jobs waiting for a turn; one more is refused with 503. */
  maxQueued: number;
}

// Where the media app's image work runs: decoding, resizing and encoding with
// sharp, which runs in libuv's thread pool (4 threads in all, shared with file
// reads and DNS look-ups). A 25-megapixel image decodes to about 100 MB and
// takes a thread for a second or more, so the work is bounded here: at most
// `concurrency` jobs at once (the rest of libuv's threads stay free for
// everything else the process does) and at most `maxQueued` waiting; past
// that a job is refused at once with 503 and Retry-After, never queued
// without end. Load shedding reads `saturation()` to refuse the routes that
// would queue here before any of their work is done.
//
// `once` makes the same job (a variant, by its key) run once however many
// requests ask for it at the same time: the first starts it, the others wait
// for its result. Replicas do not share flights: each renders a variant at
// most once, and the store keeps whichever is written last (they are equal).
export class RenderPool {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly flights = new Map<string, Promise<unknown>>();

  constructor(private readonly limits: RenderPoolLimits) {}

  // `work` under the key's single flight: joined when one is already under way.
  once<T>(key: string, work: () => Promise<T>): Promise<T> {
    const flying = this.flights.get(key);
    if (flying) return flying as Promise<T>;
    const flight = work().finally(() => this.flights.delete(key));
    this.flights.set(key, flight);
    return flight;
  }

  // `work` when a turn is free, after the jobs queued before it; refused at
  // once (503) when the queue is full.
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.maxQueued) {
        recordImageWorkRefused();
        throw full();
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await work();
    } finally {
      // The turn passes to the next job waiting (the count stays), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  // Why the pool takes no more work now, or undefined while it does.
  saturation(): string | undefined {
    return this.running >= this.limits.concurrency && this.waiting.length >= this.limits.maxQueued
      ? fullReason
      : undefined;
  }

  stats(): { running: number; waiting: number; flights: number } {
    return { running: this.running, waiting: this.waiting.length, flights: this.flights.size };
  }
}

const fullReason = 'The server is processing as many images as it can right now.';

function full(): DomainError {
  return new DomainError(ErrorCode.ServiceUnavailable, `${fullReason} Retry after the time in Retry-After.`);
}
