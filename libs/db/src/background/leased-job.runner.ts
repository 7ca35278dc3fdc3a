import { BackgroundLoop } from './background.loop';

// A background job whose state is a row of the service's database, worked in
// bounded batches with a pause between them so the region's other statements
// never wait long behind it. A job is leased to one worker at a time (the
// lease renewed by every batch); a worker that dies leaves a lease that
// lapses, and the next worker carries on where the row says. Every batch
// deletes only what is still there, so one worked twice changes nothing.

export interface LeasedJobs<Job> {
  /** The next job due whose lease is free, leased to this worker. */
  lease(): Promise<Job | undefined>;
  /** One batch of the job (renewing its lease); false once the job is over. */
  workBatch(job: Job): Promise<boolean>;
  /** A batch threw: recorded on the job, to be tried again later (or ended). */
  failed(job: Job, error: unknown): Promise<void>;
  /** This worker stops: the job is free for another at once. */
  release(job: Job): Promise<void>;
}

export interface LeasedJobSettings {
  /** Pause between two batches. */
  pauseMs: number;
  /** How often the runner looks for a job when it has none. */
  intervalMs: number;
}

export class LeasedJobRunner<Job> extends BackgroundLoop {
  constructor(
    private readonly jobs: LeasedJobs<Job>,
    private readonly settings: LeasedJobSettings,
    private readonly log: { warn(message: string): void },
  ) {
    super(settings.intervalMs);
  }

  // Works jobs until none is due.
  protected async round(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const job = await this.jobs.lease();
        if (!job) return;
        await this.workOne(job);
      }
    } catch (error) {
      // The database itself failed (a lease, a failure not recorded): the
      // next round tries again.
      this.log.warn(`jobs paused: ${String(error)}`);
    }
  }

  private async workOne(job: Job): Promise<void> {
    for (;;) {
      if (this.stopped) return this.jobs.release(job);
      let more: boolean;
      try {
        more = await this.jobs.workBatch(job);
      } catch (error) {
        return this.jobs.failed(job, error);
      }
      if (!more) return;
      await new Promise((resolve) => setTimeout(resolve, this.settings.pauseMs));
    }
  }
}
