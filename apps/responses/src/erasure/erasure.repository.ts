import { Injectable } from '@nestjs/common';
import { containingPattern, jsonStringMemberPattern, ResponsesPrismaClient } from '@formline/db';
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
  candidates(
    accountId: string,
    emails: readonly string[],
    after: string | null,
    limit: number,
  ): Promise<Array<{ id: string; payload: unknown }>> {
    const patterns = emails.map(containingPattern);
    return this.db.$queryRaw<Array<{ id: string; payload: unknown }>>`
      SELECT id, payload FROM responses
       WHERE account_id = ${accountId} AND search_text LIKE ANY(${patterns}::text[])
         AND (${after}::text IS NULL OR id > ${after}::text)
       ORDER BY id LIMIT ${limit}`;
  }

  // One batch, in one transaction that first makes sure the worker still
  // holds the job: the responses' uploads (bytes first), the outbox events
  // that carry them (published or not: an event not yet relayed is never
  // sent, except one its writer is publishing at that moment), the
  // responses, and the job's progress. Events are found by their text and
  // checked here, never parsed by PostgreSQL: one unparsable row (the relay's
  // dead letters) must not fail the erasure.
  async eraseBatch(
    batch: ErasureBatch,
    removeBytes: (uploads: StoredUpload[]) => Promise<void>,
  ): Promise<{ responses: number; files: number }> {
    const { accountId, responseIds } = batch;
    const tokens = new Set(responseIds);
    const patterns = responseIds.map((id) => jsonStringMemberPattern('token', id));
    return this.db.$transaction(
      async (tx) => {
        if (!(await ErasureJobRepository.holds(tx, batch.jobId, batch.owner))) throw new ErasureLeaseLost();
        let files = 0;
        let responses = 0;
        if (responseIds.length > 0) {
          files = await UploadRepository.removeOfResponses(tx, responseIds, removeBytes);
          const candidates = await tx.$queryRaw<Array<{ id: string; payload: string }>>`
            SELECT id, payload::text AS payload FROM outbox_events WHERE payload::text LIKE ANY(${patterns}::text[])`;
          const eventIds = candidates
            .filter((row) => carriesResponse(row.payload, accountId, tokens))
            .map((row) => row.id);
          if (eventIds.length > 0) await tx.outboxEvent.deleteMany({ where: { id: { in: eventIds } } });
          responses = (await tx.response.deleteMany({ where: { accountId, id: { in: [...responseIds] } } }))
            .count;
        }
        await ErasureJobRepository.advance(tx, {
          jobId: batch.jobId,
          position: batch.position,
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

function carriesResponse(payloadText: string, accountId: string, tokens: ReadonlySet<string>): boolean {
  const event = parseEvent(payloadText);
  return event?.account_id === accountId && tokens.has(event.form_response?.token ?? '');
}

function parseEvent(text: string): { account_id?: unknown; form_response?: { token?: string } } | undefined {
  try {
    return JSON.parse(text) as { account_id?: unknown; form_response?: { token?: string } };
  } catch {
    return undefined;
  }
}
