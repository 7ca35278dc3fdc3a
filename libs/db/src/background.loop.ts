// What every background job of a service shares: a round every `intervalMs`,
// or at once when asked (runOnce: a new deletion, a new request); a round
// under way is never doubled, and stop() waits for it to end. The rounds
// themselves (retention, leased jobs) read `stopped` between batches.
export abstract class BackgroundLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
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
  }

  runOnce(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  protected abstract round(): Promise<void>;
}
