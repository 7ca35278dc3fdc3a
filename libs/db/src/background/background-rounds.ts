import { BackgroundLoop } from './background.loop';

// A background loop whose round is a function of the job that owns it: for a
// job whose work is its own (a relay publishing its table's rows) rather than
// one of the runners' (retention, leased jobs, purges). The round reads
// `isStopped` between batches and catches its own failures.
export class BackgroundRounds extends BackgroundLoop {
  constructor(
    intervalMs: number,
    private readonly work: () => Promise<void>,
  ) {
    super(intervalMs);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  protected round(): Promise<void> {
    return this.work();
  }
}
