import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type ResponsesDeletedEvent, Subjects } from '@formline/contracts';
import { ResponsesPrismaClient, responsesKeyedPool, StatementBatch } from '@formline/db';
import { isDependencyUnavailable } from '@formline/errors';
import { runsWithin } from '@formline/input';

export interface OutboxRow {
  id: string;
  subject: string;
  /** The payload exactly as stored: published as is, never parsed here. */
  payload: string;
  /** The submission's request id, sent on as the message's X-Request-Id header. */
  requestId: string | null;
}

export interface ClaimedBatch {
  ids: string[];
  /** Rows published (JetStream acknowledged): marked in the batch's transaction. */
  markPublished(ids: readonly string[]): Promise<void>;
  /** Rows that failed on their own: attempts counted, and set aside at `maxAttempts`; returns those set aside. */
  countFailures(
    failures: readonly { id: string; error: string }[],
    maxAttempts: number,
  ): Promise<{ id: string; subject: string; attempts: number; lastError: string | null }[]>;
}

export interface OutboxStats {
  backlog: number;
  oldestAgeSeconds: number;
  deadLettered: number;
}

const pending = 'published_at IS NULL AND dead_lettered_at IS NULL';

// Raw SQL on a transaction's connection.
type Tx = Pick<ResponsesPrismaClient, '$executeRaw'>;

// How long a mark waits for others to share its statement (markPublishedNow).
export const markLingerMs = 100;

// The SQL of the outbox table (outbox_events), for the relay. Rows are claimed
// by id alone (FOR UPDATE SKIP LOCKED in a transaction, so replicas never take
// the same row), and their payloads are read apart, as text: nothing in the
// claim parses a payload, so a row PostgreSQL cannot read fails alone. A row
// its writer published at once is marked without a claim (markPublishedNow).
// Marks the rows of these ids still unpublished, skipping those a poller
// holds. "Unpublished" is written so that no index can serve it: only the
// ids are looked up (the published_at index would read every unpublished
// row, the dead-lettered ones kept for an operator among them).
export const markPublishedSql = `UPDATE outbox_events SET published_at = now() AT TIME ZONE 'UTC'
  WHERE id IN (SELECT id FROM outbox_events
    WHERE id = ANY($1::text[]) AND coalesce(published_at, 'infinity') = 'infinity' FOR UPDATE SKIP LOCKED)
  RETURNING id`;

@Injectable()
export class OutboxRepository {
  private publishedNow?: StatementBatch<string, boolean>;

  constructor(private readonly db: ResponsesPrismaClient) {}

  // Runs `work` with up to `limit` pending rows locked, oldest first, of
  // those at least `minAgeMs` old (younger ones are still their writer's to
  // publish); the locks, and what `work` marked, last until it returns.
  async withClaimedBatch<T>(
    limit: number,
    timeoutMs: number,
    work: (batch: ClaimedBatch) => Promise<T>,
    minAgeMs = 0,
  ): Promise<T> {
    return this.db.$transaction(
      async (tx) => {
        const claimed = await tx.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM outbox_events
           WHERE ${pending} AND created_at <= (now() AT TIME ZONE 'UTC') - $2::float8 * interval '1 millisecond'
           ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          limit,
          minAgeMs,
        );
        return work({
          ids: claimed.map((row) => row.id),
          markPublished: async (ids) => {
            if (ids.length === 0) return;
            await tx.$executeRaw`UPDATE outbox_events SET published_at = now() AT TIME ZONE 'UTC'
              WHERE id = ANY(${[...ids]}::text[])`;
          },
          countFailures: async (failures, maxAttempts) => {
            if (failures.length === 0) return [];
            // Counted in a statement of its own: whatever failed with the row cannot undo the count.
            await tx.$executeRaw`UPDATE outbox_events o SET attempts = o.attempts + 1, last_error = f.error
              FROM unnest(${failures.map((f) => f.id)}::text[], ${failures.map((f) => f.error.slice(0, 500))}::text[])
                AS f(id, error)
              WHERE o.id = f.id`;
            return tx.$queryRaw<
              { id: string; subject: string; attempts: number; lastError: string | null }[]
            >`
              UPDATE outbox_events SET dead_lettered_at = now() AT TIME ZONE 'UTC'
              WHERE id = ANY(${failures.map((f) => f.id)}::text[]) AND attempts >= ${maxAttempts}
              RETURNING id, subject, attempts, last_error AS "lastError"`;
          },
        });
      },
      { timeout: timeoutMs, maxWait: timeoutMs },
    );
  }

  // A row published by its writer at once, marked so: concurrent writers'
  // rows share one statement (StatementBatch), which waits markLingerMs for
  // them to gather. Nobody waits on a mark but the poller, which leaves a row
  // to its writer for seconds (fastPathGraceMs), so a tenth of a second costs
  // nothing and makes one statement of a busy moment's marks. False when it was marked
  // already, or is locked by a poller that took it (it marks it then): a
  // mark never waits for a poller's transaction, so one slow mark cannot hold
  // up the others behind it.
  markPublishedNow(id: string): Promise<boolean> {
    this.publishedNow ??= new StatementBatch<string, boolean>(
      async (ids) => {
        const { rows } = await responsesKeyedPool(this.db).query<{ id: string }>({
          name: 'outbox-mark-published',
          text: markPublishedSql,
          values: [ids],
        });
        const marked = new Set(rows.map((row) => row.id));
        return ids.map((id) => marked.has(id));
      },
      (id) => id,
      { maxRows: 500, lingerMs: markLingerMs },
    );
    return this.publishedNow.submit(id);
  }

  // Claimed rows in consecutive runs of at most `maxBytes` of stored
  // payloads each (a row larger than that alone), in their order: measured
  // by PostgreSQL, so that the rows are read a run at a time. A row gone
  // meanwhile weighs nothing (its read finds nothing). When a payload cannot
  // even be measured, each row is a run of its own, so that `read` names the
  // row at fault and the others go on.
  async runsOfBytes(ids: readonly string[], maxBytes: number): Promise<string[][]> {
    if (ids.length === 0) return [];
    try {
      const sizes = await this.db.$queryRaw<Array<{ id: string; bytes: number }>>`
        SELECT id, octet_length(payload::text) AS bytes FROM outbox_events WHERE id = ANY(${[...ids]}::text[])`;
      const bytesOf = new Map(sizes.map((row) => [row.id, Number(row.bytes)]));
      return runsWithin(ids, (id) => bytesOf.get(id) ?? 0, maxBytes);
    } catch (error) {
      if (isDependencyUnavailable(error)) throw error;
      return ids.map((id) => [id]);
    }
  }

  // The payloads of claimed rows, in one read; if that read fails, row by row,
  // so that only the rows PostgreSQL cannot render are left out (and named).
  // The database being away (no free connection, a lost one) is no row's
  // fault: it fails the whole read, so the relay pauses and counts nothing.
  // (Taken for the rows' fault, a busy pool once sent the relay through a
  // batch one row at a time, each waiting out the pool's timeout, for longer
  // than its transaction lives: the relay then made no progress at all.)
  async read(
    ids: readonly string[],
  ): Promise<{ rows: OutboxRow[]; unreadable: { id: string; error: string }[] }> {
    if (ids.length === 0) return { rows: [], unreadable: [] };
    try {
      return { rows: sortedLike(ids, await this.select(ids)), unreadable: [] };
    } catch (error) {
      if (isDependencyUnavailable(error)) throw error;
      const rows: OutboxRow[] = [];
      const unreadable: { id: string; error: string }[] = [];
      for (const id of ids) {
        try {
          rows.push(...(await this.select([id])));
        } catch (rowError) {
          if (isDependencyUnavailable(rowError)) throw rowError;
          unreadable.push({ id, error: `unreadable: ${String(rowError)}` });
        }
      }
      return { rows, unreadable };
    }
  }

  // Within the transaction that deletes these responses of one form: the
  // events that carry them go, published or not (one not yet relayed is then
  // never sent, and none keeps their answers until retention), and the event
  // announcing their deletion takes their place, for the webhooks service to
  // drop their deliveries. Both or neither, with the responses.
  static async recordDeletion(
    tx: Tx,
    deletion: { accountId: string; formId: string; responseIds: readonly string[] },
  ): Promise<void> {
    if (deletion.responseIds.length === 0) return;
    const ids = [...deletion.responseIds];
    await tx.$executeRaw`DELETE FROM outbox_events WHERE response_id = ANY(${ids}::text[])`;
    const event: ResponsesDeletedEvent = {
      event_id: randomUUID(),
      account_id: deletion.accountId,
      form_id: deletion.formId,
      response_tokens: ids,
      deleted_at: new Date().toISOString(),
    };
    await tx.$executeRaw`INSERT INTO outbox_events (id, subject, payload, created_at)
      VALUES (${event.event_id}, ${Subjects.responsesResponsesDeleted}, ${JSON.stringify(event)}::json,
              now() AT TIME ZONE 'UTC')`;
  }

  private select(ids: readonly string[]): Promise<OutboxRow[]> {
    return this.db.$queryRaw<OutboxRow[]>`
      SELECT id, subject, payload::text AS payload, request_id AS "requestId"
      FROM outbox_events WHERE id = ANY(${[...ids]}::text[])`;
  }

  // Backlog (rows waiting), the age of the oldest, and rows set aside.
  async stats(): Promise<OutboxStats> {
    const [row] = await this.db.$queryRawUnsafe<{ backlog: bigint; age: number | null; dead: bigint }[]>(
      // Timestamps are stored in UTC (Prisma's convention), whatever the session's zone.
      `SELECT count(*) FILTER (WHERE ${pending}) AS backlog,
              extract(epoch FROM (now() AT TIME ZONE 'UTC') - min(created_at) FILTER (WHERE ${pending}))::float8 AS age,
              count(*) FILTER (WHERE dead_lettered_at IS NOT NULL) AS dead
       FROM outbox_events WHERE published_at IS NULL`,
    );
    return {
      backlog: Number(row?.backlog ?? 0),
      oldestAgeSeconds: Math.max(0, row?.age ?? 0),
      deadLettered: Number(row?.dead ?? 0),
    };
  }

  // Retention: one small batch of rows published before `cutoff` (dead
  // letters stay for an operator); nothing while another replica prunes.
  async prunePublished(cutoff: Date, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext('retention:outbox_events')) AS held)
      DELETE FROM outbox_events WHERE (SELECT held FROM lock) AND id IN (
        SELECT id FROM outbox_events WHERE published_at < ${cutoff}
        ORDER BY published_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }
}

function sortedLike(ids: readonly string[], rows: OutboxRow[]): OutboxRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
