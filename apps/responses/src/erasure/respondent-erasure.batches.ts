import { randomUUID } from 'node:crypto';
import type { LeasedJobs } from '@formline/db';
import type { StoredUpload } from '../uploads/upload.repository';
import { type ErasureJobRepository, type LeasedErasureJob } from './erasure-job.repository';
import { ErasureLeaseLost, type ErasureRepository } from './erasure.repository';
import { holdsRespondentEmail } from './respondent-match';

export interface RespondentErasureSettings {
  /** Responses examined per batch (at most 1000: one call to the webhooks service). */
  batchSize: number;
  /** Bytes of stored responses a batch reads at most (beyond its first, and the one that crosses it). */
  batchBytes: number;
  /** How long a worker holds a job without a batch: a dead one's is taken over after this. */
  leaseMs: number;
  /** After a failed batch, how long before the job is tried again. */
  retryMs: number;
  /** Failed batches in a row after which the job ends as failed. */
  maxFailures: number;
}

export interface RespondentErasureDependencies {
  jobs: ErasureJobRepository;
  erasure: ErasureRepository;
  /** Drops the webhook deliveries of these responses (the webhooks service owns them). */
  forgetDeliveries(accountId: string, responseTokens: string[], jobId: string): Promise<void>;
  removeBytes(uploads: StoredUpload[]): Promise<void>;
  log: { log(message: string): void; warn(message: string): void };
}

// The batches of the right-to-be-forgotten jobs (what LeasedJobRunner works): a batch walks the
// account's responses that mention an address, from where the job stands,
// and deletes those that hold one. Deliveries go first: if anything fails,
// the responses are still there for the batch tried again, so nothing is
// left behind unfound. Everything it deletes is deleted by what is still
// there, so a batch done twice deletes nothing more.
export class RespondentErasureBatches implements LeasedJobs<LeasedErasureJob> {
  // This worker's name on the leases it holds.
  readonly owner = randomUUID();

  constructor(
    private readonly deps: RespondentErasureDependencies,
    private readonly settings: RespondentErasureSettings,
  ) {}

  lease(): Promise<LeasedErasureJob | undefined> {
    return this.deps.jobs.lease(this.owner, this.settings.leaseMs);
  }

  async workBatch(job: LeasedErasureJob): Promise<boolean> {
    const { batchSize, batchBytes, leaseMs } = this.settings;
    const { rows, read } = await this.deps.erasure.candidates(
      job.accountId,
      job.emails,
      job.position,
      batchSize,
      batchBytes,
      job.sweeping ? job.id : undefined,
    );
    const holding = rows.filter((row) => holdsRespondentEmail(row.payload, job.emails)).map((row) => row.id);
    if (holding.length > 0) await this.deps.forgetDeliveries(job.accountId, holding, job.id);
    // The end of the first walk starts the final sweep from the first id;
    // the end of the sweep ends the job.
    // A batch cut at its bytes (fewer rows than were read) is not the end.
    const walked = rows.length === read && read < batchSize;
    const done = walked && job.sweeping;
    const sweeping = job.sweeping || walked;
    const position = walked && !job.sweeping ? null : (rows.at(-1)?.id ?? job.position);
    const deleted = await this.deps.erasure.eraseBatch(
      {
        jobId: job.id,
        owner: this.owner,
        accountId: job.accountId,
        responseIds: holding,
        position,
        sweeping,
        done,
        leaseMs,
      },
      (uploads) => this.deps.removeBytes(uploads),
    );
    job.position = position;
    job.sweeping = sweeping;
    if (done) this.deps.log.log(`erasure job ${job.id} done`);
    else if (deleted.responses > 0)
      this.deps.log.log(`erasure job ${job.id}: ${deleted.responses} responses`);
    return !done;
  }

  async failed(job: LeasedErasureJob, error: unknown): Promise<void> {
    // Another worker holds it now: its batches count, this one was undone.
    if (error instanceof ErasureLeaseLost) return;
    const retryAt = new Date(Date.now() + this.settings.retryMs);
    const state = await this.deps.jobs.recordFailure(
      job.id,
      this.owner,
      String(error),
      retryAt,
      this.settings.maxFailures,
    );
    this.deps.log.warn(
      `erasure job ${job.id}: a batch failed (${String(error)}); now ${state ?? 'not ours'}`,
    );
  }

  release(job: LeasedErasureJob): Promise<void> {
    return this.deps.jobs.release(job.id, this.owner);
  }
}
