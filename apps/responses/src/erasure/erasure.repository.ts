import { Injectable } from '@nestjs/common';
import { containingPattern, ResponsesPrismaClient } from '@formline/db';
import { keptWithinBytesSql } from '../kept-within-bytes.sql';
import { OutboxRepository } from '../outbox/outbox.repository';
import { type StoredUpload, UploadRepository } from '../uploads/upload.repository';
import { ErasureJobRepository } from './erasure-job.repository';

export interface ErasureBatch {
  jobId: string;
  owner: string;
  accountId: string;
  // The responses of this batch that hold an address.
  responseIds: readonly string[];
  // The last response examined: the next batch starts after it.
  position: string | null;
  // The next batch walks the final sweep.
  sweeping: boolean;
  // No response is left past the position: the batch ends the job.
  done: boolean;
  leaseMs: number;
}

// The job lost its lease (taken over by another worker): the batch is undone.
export class ErasureLeaseLost extends Error {}

// The reads and deletes of a right-to-be-forgotten job, in this region's
// responses database.
@Injectable()
export class ErasureRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  // The account's next responses (in id order, after `after`) whose
  // searchable text mentions one of the addresses: a superset of those that
  // hold one (the caller checks each). The text's trigram index finds them.
  // In the final sweep (`sweepOf` the job), only those made or saved since
  // the job was asked for, less a minute for the clocks of the apps that
  // stamped them. At most `limit` of them and about `budget` bytes of stored
  // JSON (always the first, and the row that crosses the budget), measured
  // above the LIMIT (on the batch's rows only) and cut by PostgreSQL:
  // responses near their stored bound would otherwise bring hundreds of
  // megabytes into the process at once. `read` is how many rows the limit
  // let PostgreSQL look at: more than were answered means the batch was cut,
  // and the walk goes on after its last row.
  async candidates(
    accountId: string,
    emails: readonly string[],
    after: string | null,
    limit: number,
    budget: number,
    sweepOf?: string,
  ): Promise<{ rows: Array<{ id: string; payload: unknown }>; read: number }> {
    const patterns = emails.map(containingPattern);
    const sweep = sweepOf ?? null;
    const rows = await this.db.$queryRawUnsafe<Array<{ id: string; payload: unknown; read: number }>>(
      `WITH since AS (SELECT created_at - interval '1 minute' AS at FROM erasure_jobs WHERE id = $4::text)
       ${keptWithinBytesSql({
         select: 'id, payload',
         rows: `SELECT id, payload FROM responses
                 WHERE account_id = $1 AND search_text LIKE ANY($2::text[])
                   AND ($3::text IS NULL OR id > $3::text)
                   AND ($4::text IS NULL
                        OR created_at >= (SELECT at FROM since) OR submitted_at >= (SELECT at FROM since))
                 ORDER BY id LIMIT $5`,
         order: 'id',
         budget: '$6',
       })}`,
      accountId,
      patterns,
      after,
      sweep,
      limit,
      budget,
    );
    return { rows, read: rows[0]?.read ?? 0 };
  }

  // One batch, in one transaction that first makes sure the worker still
  // holds the job: the responses' uploads (bytes first), the outbox events
  // that carry them (published or not: an event not yet relayed is never
  // sent, except one its writer is publishing at that moment) replaced by
  // the events announcing their deletion (one per form, on which the
  // webhooks service drops their deliveries, including any planned after the
  // job asked it to), the responses, and the job's progress.
  async eraseBatch(
    batch: ErasureBatch,
    removeBytes: (uploads: StoredUpload[]) => Promise<void>,
  ): Promise<{ responses: number; files: number }> {
    const { accountId, responseIds } = batch;
    return this.db.$transaction(
      async (tx) => {
        if (!(await ErasureJobRepository.holds(tx, batch.jobId, batch.owner))) throw new ErasureLeaseLost();
        let files = 0;
        let responses = 0;
        if (responseIds.length > 0) {
          // The responses locked first, then their uploads: the order a save
          // of a response in progress takes them in, so the two never deadlock.
          const held = await tx.$queryRaw<Array<{ id: string; formId: string }>>`
            SELECT id, form_id AS "formId" FROM responses
             WHERE account_id = ${accountId} AND id = ANY(${[...responseIds]}::text[])
             ORDER BY id FOR UPDATE`;
          files = await UploadRepository.removeOfResponses(tx, responseIds, removeBytes);
          const byForm = new Map<string, string[]>();
          for (const row of held) byForm.set(row.formId, [...(byForm.get(row.formId) ?? []), row.id]);
          for (const [formId, ids] of byForm)
            await OutboxRepository.recordDeletion(tx, { accountId, formId, responseIds: ids });
          responses = (await tx.response.deleteMany({ where: { accountId, id: { in: [...responseIds] } } }))
            .count;
        }
        await ErasureJobRepository.advance(tx, {
          jobId: batch.jobId,
          position: batch.position,
          sweeping: batch.sweeping,
          responses,
          files,
          done: batch.done,
          leaseMs: batch.leaseMs,
        });
        return { responses, files };
      },
      { timeout: 60_000 },
    );
  }
}
