// The form purge job of a regional service: every row of a deleted form (and
// what those rows hold elsewhere: stored bytes, queued jobs) is removed, in
// batches of bounded size with a pause between them, so the region's other
// statements never wait long behind it. Its state is the service's
// form_purges table (a row per form whose deletion was consumed), so it
// survives any crash: a purge is leased to one worker at a time, the lease
// renewed with every batch; a worker that dies leaves a lease that lapses,
// and the next worker carries on where the rows say it was. It is idempotent
// by construction: each batch deletes what is still there.
//
// A purge ends only when a whole pass over the form's tables found nothing
// and the form was deleted at least `settleMs` ago: a submission or upload
// already under way when the form was deleted, and written after an earlier
// pass, is caught by a later one.

export interface FormPurgeStep {
  /** Names the step in the logs, e.g. `responses`. */
  name: string;
  /** Deletes at most `batchSize` of the form's rows (and what they hold elsewhere); returns how many. */
  purgeBatch(formId: string, batchSize: number): Promise<number>;
}

export interface LeasedFormPurge {
  formId: string;
  deletedAt: Date;
}

/** The service's form_purges table, as the runner needs it. */
export interface FormPurgeQueue {
  /** The oldest purge due whose lease is free, leased for `leaseMs`. */
  lease(leaseMs: number): Promise<LeasedFormPurge | undefined>;
  /** Rows deleted by a batch: counted, and the lease renewed. */
  progress(formId: string, deleted: number, leaseMs: number): Promise<void>;
  /** Not to be worked again before `at` (a pass found nothing before the settle time; or released: now). */
  deferUntil(formId: string, at: Date): Promise<void>;
  /** Done: nothing of the form is left; the row goes. */
  finish(formId: string): Promise<number>;
}

export interface FormPurgeSettings {
  batchSize: number;
  /** Pause between two batches. */
  pauseMs: number;
  /** How often the runner looks for a purge when it has none. */
  intervalMs: number;
  /** How long after the form's deletion a pass finding nothing ends the purge. */
  settleMs: number;
  /** How long a worker holds a purge without renewing it (each batch renews). */
  leaseMs: number;
}

export class FormPurgeRunner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly queue: FormPurgeQueue,
    private readonly steps: readonly FormPurgeStep[],
    private readonly settings: FormPurgeSettings,
    private readonly log: { log(message: string): void; warn(message: string): void },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  // Works purges until none is due; a run under way is not doubled.
  runOnce(): Promise<void> {
    this.running ??= this.work().finally(() => (this.running = undefined));
    return this.running;
  }

  private async work(): Promise<void> {
    try {
      while (!this.stopped && (await this.workOne())) {
        await this.pause();
      }
    } catch (error) {
      this.log.warn(`form purge paused: ${String(error)}`);
    }
  }

  // One pass over the form's tables; false when no purge was due.
  private async workOne(): Promise<boolean> {
    const purge = await this.queue.lease(this.settings.leaseMs);
    if (!purge) return false;
    const { formId } = purge;
    let deleted = 0;
    for (const step of this.steps) {
      for (;;) {
        if (this.stopped) {
          // Another worker may take it at once.
          await this.queue.deferUntil(formId, new Date());
          return false;
        }
        const count = await step.purgeBatch(formId, this.settings.batchSize);
        if (count > 0) await this.queue.progress(formId, count, this.settings.leaseMs);
        deleted += count;
        if (count < this.settings.batchSize) break;
        await this.pause();
      }
    }
    if (deleted > 0) {
      // Look again: a pass that deleted nothing ends it.
      await this.queue.deferUntil(formId, new Date());
      return true;
    }
    const settled = new Date(purge.deletedAt.getTime() + this.settings.settleMs);
    if (settled.getTime() > Date.now()) {
      await this.queue.deferUntil(formId, settled);
      return true;
    }
    const total = await this.queue.finish(formId);
    this.log.log(`form ${formId} purged: ${total} rows deleted`);
    return true;
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.settings.pauseMs));
  }
}
