import type { RetentionGroupSettings } from '@formline/config';
import { BackgroundLoop } from './background.loop';

// Retention: rows past their keep-time are deleted by a periodic job, in small
// batches with a pause between them, so the hot path's statements never wait
// long behind a delete. Each batch is one statement that first takes a
// transaction-scoped advisory lock named after its table
// (`pg_try_advisory_xact_lock(hashtext('retention:<table>'))`): while one
// replica prunes, the others' batches delete nothing and they stop for the round.

export interface RetentionTask {
  /** Names the task in the logs, e.g. `outbox_events`. */
  name: string;
  /** Deletes at most `batchSize` rows past their time; returns how many. */
  pruneBatch(batchSize: number): Promise<number>;
}

export interface RetentionSettings {
  intervalMs: number;
  batchSize: number;
  /** Pause between two batches of one round. */
  pauseMs: number;
}

// A service's retention job as its schema configures it (libs/config
// retentionVars), with a pause of 50 ms between two batches of a round.
export function retentionSettingsOf(config: RetentionGroupSettings): RetentionSettings {
  return { intervalMs: config.RETENTION_INTERVAL_MS, batchSize: config.RETENTION_BATCH_SIZE, pauseMs: 50 };
}

export class RetentionPruner extends BackgroundLoop {
  constructor(
    private readonly tasks: readonly RetentionTask[],
    private readonly settings: RetentionSettings,
    private readonly log: { log(message: string): void; warn(message: string): void },
  ) {
    super(settings.intervalMs);
  }

  // One round over every task.
  protected async round(): Promise<void> {
    for (const task of this.tasks) {
      let total = 0;
      try {
        for (;;) {
          if (this.stopped) break;
          const deleted = await task.pruneBatch(this.settings.batchSize);
          total += deleted;
          if (deleted < this.settings.batchSize) break;
          await new Promise((resolve) => setTimeout(resolve, this.settings.pauseMs));
        }
      } catch (error) {
        this.log.warn(`retention of ${task.name} paused: ${String(error)}`);
      }
      if (total > 0) this.log.log(`retention: ${total} ${task.name} rows past their time deleted`);
    }
  }
}
