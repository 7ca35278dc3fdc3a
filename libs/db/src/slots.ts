// At most `size` runs at once in this process, whoever starts them; waiters
// are served in arrival order. The dispatcher's sends draw from one such pool
// (DISPATCHER_CONCURRENCY), and the global service's form writes from another
// (FormRepository.updateLocked).
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
