import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type ErasureJob, ErasureJobState } from '@formline/contracts';
import { ResponsesPrismaClient } from '@formline/db';

// A job as its worker holds it.
export interface LeasedErasureJob {
  id: string;
  accountId: string;
  emails: string[];
  position: string | null;
  /** In its final sweep: walking the responses saved since it was asked for. */
  sweeping: boolean;
}

// What a batch's transaction needs: raw SQL on the same connection.
type Tx = Pick<ResponsesPrismaClient, '$queryRaw' | '$executeRaw'>;

interface JobRow {
  id: string;
  accountId: string;
  state: ErasureJobState;
  responsesDeleted: number;
  filesDeleted: number;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

// The erasure_jobs table: one row per right-to-be-forgotten request, its
// only writer. A job is leased to one worker at a time (`lease_owner`,
// `leased_until`, renewed by every batch); a batch counts only while its
// worker still holds the lease, so a job taken over from a worker presumed
// dead is never counted twice. The addresses are emptied by the statement
// that ends the job, whichever way it ends.
@Injectable()
export class ErasureJobRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  async record(accountId: string, emails: readonly string[]): Promise<string> {
    const id = randomUUID();
    await this.db.erasureJob.create({ data: { id, accountId, emails: [...emails] } });
    return id;
  }

  async find(accountId: string, id: string): Promise<ErasureJob | undefined> {
    const row = await this.db.erasureJob.findFirst({
      where: { id, accountId },
      select: {
        id: true,
        accountId: true,
        state: true,
        responsesDeleted: true,
        filesDeleted: true,
        createdAt: true,
        updatedAt: true,
        finishedAt: true,
      },
    });
    return row ? presented(row as JobRow) : undefined;
  }

  // The oldest unfinished job whose lease is free, leased to `owner`.
  async lease(owner: string, leaseMs: number): Promise<LeasedErasureJob | undefined> {
    const rows = await this.db.$queryRaw<LeasedErasureJob[]>`
      UPDATE erasure_jobs
         SET state = ${ErasureJobState.Running}, lease_owner = ${owner},
             leased_until = now() AT TIME ZONE 'UTC' + ${leaseMs}::float8 * interval '1 millisecond',
             updated_at = now() AT TIME ZONE 'UTC'
       WHERE id = (
         SELECT id FROM erasure_jobs
          WHERE state IN (${ErasureJobState.Queued}, ${ErasureJobState.Running})
            AND (leased_until IS NULL OR leased_until <= now() AT TIME ZONE 'UTC')
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, account_id AS "accountId", emails, position, sweeping`;
    return rows[0];
  }

  // Within a batch's transaction, first: holds the job's row (a worker that
  // takes the job over waits for this batch) and says whether `owner` still
  // leases it.
  static async holds(tx: Tx, jobId: string, owner: string): Promise<boolean> {
    const rows = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM erasure_jobs
       WHERE id = ${jobId} AND lease_owner = ${owner} AND state = ${ErasureJobState.Running}
       FOR UPDATE`;
    return rows.length === 1;
  }

  // Within a batch's transaction, last: what it deleted is counted, where it
  // stopped recorded, the lease renewed; the last batch ends the job.
  static async advance(
    tx: Tx,
    batch: {
      jobId: string;
      position: string | null;
      sweeping: boolean;
      responses: number;
      files: number;
      done: boolean;
      leaseMs: number;
    },
  ): Promise<void> {
    await tx.$executeRaw`
      UPDATE erasure_jobs
         SET position = ${batch.position}, sweeping = ${batch.sweeping},
             responses_deleted = responses_deleted + ${batch.responses},
             files_deleted = files_deleted + ${batch.files},
             failures = 0,
             leased_until = now() AT TIME ZONE 'UTC' + ${batch.leaseMs}::float8 * interval '1 millisecond',
             updated_at = now() AT TIME ZONE 'UTC',
             state = CASE WHEN ${batch.done}::boolean THEN ${ErasureJobState.Done} ELSE state END,
             emails = CASE WHEN ${batch.done}::boolean THEN '{}'::text[] ELSE emails END,
             finished_at = CASE WHEN ${batch.done}::boolean THEN now() AT TIME ZONE 'UTC' ELSE finished_at END,
             lease_owner = CASE WHEN ${batch.done}::boolean THEN NULL ELSE lease_owner END
       WHERE id = ${batch.jobId}`;
  }

  // A batch failed: tried again from where the job stands after `retryAt`,
  // by any worker; after `maxFailures` in a row the job ends as failed (its
  // addresses emptied: the caller asks again).
  async recordFailure(
    jobId: string,
    owner: string,
    error: string,
    retryAt: Date,
    maxFailures: number,
  ): Promise<ErasureJobState | undefined> {
    const rows = await this.db.$queryRaw<Array<{ state: ErasureJobState }>>`
      UPDATE erasure_jobs
         SET failures = failures + 1, last_error = ${error.slice(0, 500)},
             leased_until = ${retryAt}, lease_owner = NULL,
             updated_at = now() AT TIME ZONE 'UTC',
             state = CASE WHEN failures + 1 >= ${maxFailures} THEN ${ErasureJobState.Failed} ELSE state END,
             emails = CASE WHEN failures + 1 >= ${maxFailures} THEN '{}'::text[] ELSE emails END,
             finished_at = CASE WHEN failures + 1 >= ${maxFailures} THEN now() AT TIME ZONE 'UTC' END
       WHERE id = ${jobId} AND lease_owner = ${owner} AND state = ${ErasureJobState.Running}
      RETURNING state`;
    return rows[0]?.state;
  }

  // A worker stopping: the job is free for another at once.
  async release(jobId: string, owner: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE erasure_jobs SET leased_until = NULL, lease_owner = NULL
       WHERE id = ${jobId} AND lease_owner = ${owner}`;
  }

  // One retention batch: jobs ended before the cutoff, one replica at a time
  // (the advisory lock libs/db's RetentionPruner expects).
  prune(cutoff: Date, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext('retention:erasure_jobs')) AS held)
      DELETE FROM erasure_jobs WHERE (SELECT held FROM lock) AND id IN (
        SELECT id FROM erasure_jobs WHERE finished_at < ${cutoff}
        ORDER BY finished_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }
}

function presented(row: JobRow): ErasureJob {
  return {
    id: row.id,
    account_id: row.accountId,
    state: row.state,
    responses_deleted: row.responsesDeleted,
    files_deleted: row.filesDeleted,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
