// At most `size` sends at once in this process, whatever jobs they come from:
// a delivery's own job and a first-attempts job of many deliveries draw from
// the same slots (DISPATCHER_CONCURRENCY), so a dispatcher killed mid-send
// leaves at most that many sends in doubt. Waiters are served in arrival order.
export class SendSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(send: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await send();
    } finally {
      // The slot passes straight to the next waiter, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
