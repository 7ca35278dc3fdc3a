// What every in-process background job of a service runs on: a round every
// `intervalMs`, and one at once when asked (runOnce: a new deletion, a
// committed row, a new request). A round is never doubled: asked while one is
// under way, the loop runs one more after it (however often it was asked
// meanwhile), so work that arrived during a round is never left to the next
// tick. stop() waits for the round under way and starts no other. Rounds
// read `stopped` between batches, and report their own failures: a round
// never rejects (the next round tries again).
export abstract class BackgroundLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private queued?: Promise<void>;
  protected stopped = false;

  protected constructor(private readonly intervalMs: number) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.queued;
  }

  /** Resolves once a round that began after this call has ended. */
  runOnce(): Promise<void> {
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = undefined;
        return this.runOnce();
      });
      return this.queued;
    }
    if (this.stopped) return Promise.resolve();
    this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  protected abstract round(): Promise<void>;
}
