// At most `size` runs at once in this process, whoever starts them; waiters
// are served in arrival order. A run that may not wait long (its caller gives
// up) names `maxWaitMs`: past it, it is refused with `tooLong()` and never runs.
export interface SlotsOptions {
  maxWaitMs?: number;
  tooLong?: () => Error;
}

export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly options: SlotsOptions = {},
  ) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await this.turn();
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }

  private turn(): Promise<void> {
    const { maxWaitMs, tooLong } = this.options;
    return new Promise<void>((resolve, reject) => {
      const timer =
        maxWaitMs === undefined
          ? undefined
          : setTimeout(() => {
              // Out of the queue: it never takes a slot.
              this.waiting.splice(this.waiting.indexOf(ready), 1);
              reject(tooLong?.() ?? new Error(`waited ${maxWaitMs} ms for a slot`));
            }, maxWaitMs);
      const ready = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(ready);
    });
  }
}
