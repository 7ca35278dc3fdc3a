import type { FormPurgeGroupSettings } from '@formline/config';
import { LeasedJobRunner, type LeasedJobs } from './leased-job.runner';

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

// A service's purge job as its schema configures it (libs/config formPurgeVars).
export function formPurgeSettingsOf(config: FormPurgeGroupSettings, leaseMs: number): FormPurgeSettings {
  return {
    batchSize: config.FORM_PURGE_BATCH_SIZE,
    pauseMs: config.FORM_PURGE_PAUSE_MS,
    intervalMs: config.FORM_PURGE_INTERVAL_MS,
    settleMs: config.FORM_PURGE_SETTLE_MS,
    leaseMs,
  };
}

// A purge leased for one pass over the form's tables: where the pass stands.
interface FormPurgePass extends LeasedFormPurge {
  step: number;
  deleted: number;
}

export class FormPurgeRunner extends LeasedJobRunner<FormPurgePass> {
  constructor(
    queue: FormPurgeQueue,
    steps: readonly FormPurgeStep[],
    settings: FormPurgeSettings,
    log: { log(message: string): void; warn(message: string): void },
  ) {
    super(new FormPurgePasses(queue, steps, settings, log), settings, log);
  }
}

// The purges as leased jobs: a lease is one pass over the form's tables, a
// batch one statement of a step (the next steps at once when one finds less
// than a batch).
class FormPurgePasses implements LeasedJobs<FormPurgePass> {
  constructor(
    private readonly queue: FormPurgeQueue,
    private readonly steps: readonly FormPurgeStep[],
    private readonly settings: FormPurgeSettings,
    private readonly log: { log(message: string): void; warn(message: string): void },
  ) {}

  async lease(): Promise<FormPurgePass | undefined> {
    const purge = await this.queue.lease(this.settings.leaseMs);
    return purge && { ...purge, step: 0, deleted: 0 };
  }

  async workBatch(pass: FormPurgePass): Promise<boolean> {
    const { formId } = pass;
    for (; pass.step < this.steps.length; pass.step++) {
      const count = await this.steps[pass.step].purgeBatch(formId, this.settings.batchSize);
      if (count > 0) await this.queue.progress(formId, count, this.settings.leaseMs);
      pass.deleted += count;
      if (count >= this.settings.batchSize) return true;
    }
    if (pass.deleted > 0) {
      // Look again: a pass that deleted nothing ends it.
      await this.queue.deferUntil(formId, new Date());
      return false;
    }
    const settled = new Date(pass.deletedAt.getTime() + this.settings.settleMs);
    if (settled.getTime() > Date.now()) {
      await this.queue.deferUntil(formId, settled);
      return false;
    }
    const total = await this.queue.finish(formId);
    this.log.log(`form ${formId} purged: ${total} rows deleted`);
    return false;
  }

  // A dying worker's way out: its lease is kept, and lapses.
  failed(_pass: FormPurgePass, error: unknown): Promise<void> {
    this.log.warn(`form purge paused: ${String(error)}`);
    return Promise.resolve();
  }

  // Another worker may take it at once.
  release(pass: FormPurgePass): Promise<void> {
    return this.queue.deferUntil(pass.formId, new Date());
  }
}
