import {
  DeliveryStatus,
  SendFailureKind,
  WebhooksPrismaClient,
  StatementBatch,
  webhooksSqlPool,
} from '@formline/db';
import type pg from 'pg';
import { newPublicId } from '@formline/ids';
import type { PlannedDelivery } from './delivery.queue';
import type { SendOutcome } from './send-outcome';

export { DeliveryStatus };

// The one owner of delivery rows and their attempts (tables `deliveries` and
// `delivery_attempts`), used by the webhooks service (planning, the log, a
// person's redelivery, retention) and by the dispatcher (attempts and their
// outcome). Every change of state is one method here:
//
//   plan            (none)  -> pending     one row per (event, webhook), unique
//   startAttempt    pending -> pending     attempt row written before the POST,
//                                          as `interrupted` until it ends, in
//                                          flight until its deadline; earlier
//                                          attempts still in flight are closed
//   cancelAttempt   pending -> pending     nothing was sent: the attempt undone
//   succeed         pending -> succeeded
//   retryLater      pending -> pending     next_attempt_at set
//   giveUp          pending -> failed      the webhook disabled with the reason, or not
//   abandon         pending -> failed      its webhook was disabled meanwhile
//   reopen          any     -> pending     a person asked to send it again
//   pruneFinished   succeeded|failed -> (deleted, with its attempts) after retention

export interface DeliveryToSend {
  id: string;
  eventId: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  createdAt: Date;
  webhook: {
    id: string;
    url: string;
    enabled: boolean;
    verifySsl: boolean;
    secretSealed: string | null;
  };
}

export interface AttemptRow {
  attemptedAt: Date;
  inFlightUntil: Date | null;
  statusCode: number | null;
  durationMs: number;
  errorKind: SendFailureKind | null;
  error: string | null;
  nextRetryAt: Date | null;
}

export interface DeliveryRow {
  id: string;
  eventId: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: AttemptRow[];
}

export interface DeliveryPageQuery {
  pageSize: number;
  /** Deliveries older than this one (the next page, newest first). */
  before?: string;
  /** Deliveries newer than this one (the previous page). */
  after?: string;
}

/** The attempt under way: its row id and its number (from 1). */
export interface StartedAttempt {
  attemptId: string;
  attemptNumber: number;
}

const withAttempts = { attempts: { orderBy: [{ attemptedAt: 'desc' as const }, { id: 'desc' as const }] } };
const utcNow = `now() AT TIME ZONE 'UTC'`;
// What an attempt says from its start: true of an attempt whose dispatcher
// died, replaced by the real outcome when the attempt ends.
const interruptedMessage =
  'the dispatcher stopped during this attempt: the receiver may have received it; a later attempt carries the same webhook-id';

export interface StartedDelivery {
  delivery: DeliveryToSend;
  /** Null when there is nothing to send: ended already, or its webhook disabled (unless `once`). */
  attempt: StartedAttempt | null;
}

interface StartRow extends Omit<DeliveryToSend, 'webhook'> {
  webhookId: string;
  url: string;
  enabled: boolean;
  verifySsl: boolean;
  secretSealed: string | null;
  attemptId: string | null;
  attemptNumber: number | null;
}

interface StartInput {
  deliveryId: string;
  once: boolean;
  attemptId: string;
  inFlightMs: number;
}

interface FinishInput {
  deliveryId: string;
  attemptId: string;
  statusCode: number | null;
  durationMs: number;
  errorKind: SendFailureKind | null;
  error: string | null;
  /** UTC, without a zone, as Prisma stores every timestamp. */
  nextAttemptAt: string | null;
  status: DeliveryStatus;
}

// Each statement below takes many deliveries at once (StatementBatch), one
// array a column, row i of each array for delivery i. Every part of a
// statement sees the rows as they were when it began; a delivery's status is
// checked again on the row it locks.
const startAttemptSql = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[], $4::int[])
      AS i(delivery_id, once, attempt_id, in_flight_ms)),
  target AS (
    SELECT i.delivery_id, i.once, i.attempt_id, i.in_flight_ms, d.event_id, d.body, d.status,
      d.attempt_count, d.created_at, w.id AS webhook_id, w.url, w.enabled, w.verify_ssl, w.secret_sealed
    FROM input i JOIN deliveries d ON d.id = i.delivery_id JOIN webhooks w ON w.id = d.webhook_id),
  counted AS (
    UPDATE deliveries d SET attempt_count = d.attempt_count + 1, updated_at = ${utcNow}
    FROM target t
    WHERE d.id = t.delivery_id AND (t.once OR (d.status = 'pending' AND t.enabled))
    RETURNING d.id, d.attempt_count),
  taken_over AS (
    UPDATE delivery_attempts a SET in_flight_until = NULL
    FROM counted c WHERE a.delivery_id = c.id AND a.in_flight_until IS NOT NULL),
  begun AS (
    INSERT INTO delivery_attempts (id, delivery_id, attempted_at, duration_ms, error_kind, error, in_flight_until)
    SELECT t.attempt_id, c.id, ${utcNow}, 0, 'interrupted', '${interruptedMessage}',
      ${utcNow} + t.in_flight_ms * interval '1 millisecond'
    FROM counted c JOIN target t ON t.delivery_id = c.id RETURNING id, delivery_id)
  SELECT t.delivery_id AS id, t.event_id AS "eventId", t.body, t.status::text AS status,
    t.attempt_count AS "attemptCount", t.created_at AT TIME ZONE 'UTC' AS "createdAt",
    t.webhook_id AS "webhookId", t.url, t.enabled, t.verify_ssl AS "verifySsl",
    t.secret_sealed AS "secretSealed", b.id AS "attemptId", c.attempt_count AS "attemptNumber"
  FROM target t LEFT JOIN counted c ON c.id = t.delivery_id LEFT JOIN begun b ON b.delivery_id = t.delivery_id`;

// How attempts ended, each only while it is unrecorded (still `interrupted`,
// as startAttempt wrote it: no send ends with that kind). The rows come as
// columns ($1-$8, finishColumns); `attempt` answers the deliveries whose
// attempt it recorded.
const recordAttemptsCte = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::send_failure_kind[],
        $6::text[], $7::timestamp[], $8::delivery_status[])
      AS i(delivery_id, attempt_id, status_code, duration_ms, error_kind, error, next_at, status)),
  attempt AS (
    UPDATE delivery_attempts a SET status_code = i.status_code, duration_ms = i.duration_ms,
      error_kind = i.error_kind, error = i.error, next_retry_at = i.next_at, in_flight_until = NULL
    FROM input i
    WHERE a.id = i.attempt_id AND a.delivery_id = i.delivery_id AND a.error_kind = 'interrupted'
    RETURNING a.delivery_id)`;

// The new states of the deliveries whose attempt was recorded.
const updateDeliveriesSql = `UPDATE deliveries d SET status = i.status, next_attempt_at = i.next_at, updated_at = ${utcNow}
  FROM input i
  WHERE d.id = i.delivery_id AND d.id IN (SELECT delivery_id FROM attempt)
  RETURNING d.id`;

// Records the attempts and the deliveries' new states. Answers the deliveries changed.
const finishSql = `${recordAttemptsCte}
  ${updateDeliveriesSql}`;

// The same for one delivery, turning its webhook off too (whether or not the
// attempt was recorded already; a webhook deleted meanwhile is no error).
const finishAndDisableSql = `${recordAttemptsCte},
  disabled AS (
    UPDATE webhooks SET enabled = false, disabled_reason = $10, updated_at = ${utcNow} WHERE id = $9)
  ${updateDeliveriesSql}`;

// plan: one row per (event, webhook) given, those that exist already kept,
// and the items' deliveries still pending returned: the rows inserted, and
// those that were there when the statement began (a statement's scan does not
// see the rows its own insert adds, hence the union). A row that another
// planner (the same event redelivered) inserted after the statement began is
// in neither: ON CONFLICT waits for it to commit and skips it, but the scan
// does not see it. Those items come back with a null id, to be read again
// (planRecheckSql): the other planner may die before it enqueues the job,
// and this one acks the event. Prisma's @updatedAt is written by the client,
// the table has no default for it: both timestamps are set here.
// A deleted response's (deleted_responses) is never planned: it comes back
// with a null id too, and the recheck finds nothing for it.
const planSql = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
      AS i(id, event_id, webhook_id, body, response_token)),
  inserted AS (
    INSERT INTO deliveries (id, event_id, webhook_id, body, response_token, created_at, updated_at)
    SELECT id, event_id, webhook_id, body, response_token, ${utcNow}, ${utcNow} FROM input i
    WHERE i.response_token IS NULL
       OR NOT EXISTS (SELECT 1 FROM deleted_responses x WHERE x.response_token = i.response_token)
    ON CONFLICT (event_id, webhook_id) DO NOTHING
    RETURNING id, event_id, webhook_id),
  found AS (
    SELECT d.id, d.event_id, d.webhook_id, d.status FROM deliveries d
    WHERE (d.event_id, d.webhook_id) IN (SELECT event_id, webhook_id FROM input))
  SELECT id, event_id AS "eventId", webhook_id AS "webhookId" FROM inserted
  UNION ALL
  SELECT id, event_id, webhook_id FROM found WHERE status = 'pending'
  UNION ALL
  SELECT NULL, i.event_id, i.webhook_id FROM input i
  WHERE NOT EXISTS (SELECT 1 FROM inserted n WHERE n.event_id = i.event_id AND n.webhook_id = i.webhook_id)
    AND NOT EXISTS (SELECT 1 FROM found f WHERE f.event_id = i.event_id AND f.webhook_id = i.webhook_id)`;

// The pending deliveries of (event, webhook) pairs, in a statement of its own
// (one that sees what was committed before it began).
const planRecheckSql = `SELECT id, event_id AS "eventId", webhook_id AS "webhookId" FROM deliveries
  WHERE status = 'pending' AND (event_id, webhook_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

const byDelivery = (input: { deliveryId: string }) => input.deliveryId;

// The columns of finishSql's input, from its rows.
function finishColumns(rows: readonly FinishInput[]): unknown[] {
  return [
    rows.map((row) => row.deliveryId),
    rows.map((row) => row.attemptId),
    rows.map((row) => row.statusCode),
    rows.map((row) => row.durationMs),
    rows.map((row) => row.errorKind),
    rows.map((row) => row.error),
    rows.map((row) => row.nextAttemptAt),
    rows.map((row) => row.status),
  ];
}

export class DeliveryRepository {
  // The hot statements (the planner's insert, the dispatcher's start and
  // record of an attempt) skip Prisma: plain SQL, prepared once per connection.
  // The dispatcher's concurrent jobs share them (StatementBatch).
  private readonly sql: pg.Pool;
  private readonly starts: StatementBatch<StartInput, StartRow | null>;
  private readonly finishes: StatementBatch<FinishInput, boolean>;

  constructor(private readonly db: WebhooksPrismaClient) {
    this.sql = webhooksSqlPool(db);
    this.starts = new StatementBatch<StartInput, StartRow | null>(async (inputs) => {
      const { rows } = await this.sql.query<StartRow>({
        name: 'delivery-start-attempts',
        text: startAttemptSql,
        values: [
          inputs.map((input) => input.deliveryId),
          inputs.map((input) => input.once),
          inputs.map((input) => input.attemptId),
          inputs.map((input) => input.inFlightMs),
        ],
      });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return inputs.map((input) => byId.get(input.deliveryId) ?? null);
    }, byDelivery);
    this.finishes = new StatementBatch<FinishInput, boolean>(async (inputs) => {
      const { rows } = await this.sql.query<{ id: string }>({
        name: 'delivery-finish-attempts',
        text: finishSql,
        values: finishColumns(inputs),
      });
      const changed = new Set(rows.map((row) => row.id));
      return inputs.map((input) => changed.has(input.deliveryId));
    }, byDelivery);
  }

  // Rows for many (event, webhook) pairs in one statement (planSql; a second
  // one only when another planner raced it); those that exist already are
  // kept. Returns the pairs' deliveries still pending, new or found (an event
  // planned twice enqueues only what is not done).
  async plan(
    items: readonly { eventId: string; webhookId: string; body: string; responseToken?: string }[],
  ): Promise<PlannedDelivery[]> {
    if (items.length === 0) return [];
    const { rows } = await this.sql.query<{ id: string | null; eventId: string; webhookId: string }>({
      name: 'delivery-plan',
      text: planSql,
      values: [
        items.map(() => newPublicId(12)),
        items.map((item) => item.eventId),
        items.map((item) => item.webhookId),
        items.map((item) => item.body),
        items.map((item) => item.responseToken ?? null),
      ],
    });
    const planned: PlannedDelivery[] = [];
    const unseen: { eventId: string; webhookId: string }[] = [];
    for (const row of rows) {
      if (row.id === null) unseen.push(row);
      else planned.push({ id: row.id, eventId: row.eventId, webhookId: row.webhookId });
    }
    if (unseen.length === 0) return planned;
    const { rows: found } = await this.sql.query<PlannedDelivery>({
      name: 'delivery-plan-recheck',
      text: planRecheckSql,
      values: [unseen.map((row) => row.eventId), unseen.map((row) => row.webhookId)],
    });
    return [...planned, ...found];
  }

  // Once per run of a delivery job, in one statement: the delivery with its
  // webhook and, when it is to be sent (pending and its webhook enabled, or a
  // redelivery asked for by a person: `once`), its attempt begun. The attempt
  // row is written before the POST: if the dispatcher dies during the send,
  // the log keeps an `interrupted` attempt (the receiver may have had it), and
  // the attempt count already includes it. Until `inFlightMs` has passed (the
  // send's timeout and a margin) the log shows it as `sending`; a newer
  // attempt ends that at once for the earlier ones (a dead dispatcher's send
  // was taken over). Null when the delivery is gone.
  async startAttempt(
    deliveryId: string,
    options: { once: boolean; inFlightMs: number },
  ): Promise<StartedDelivery | null> {
    const row = await this.starts.submit({
      deliveryId,
      once: options.once,
      attemptId: newPublicId(12),
      inFlightMs: options.inFlightMs,
    });
    if (!row) return null;
    return {
      delivery: {
        id: row.id,
        eventId: row.eventId,
        body: row.body,
        status: row.status,
        attemptCount: row.attemptNumber ?? row.attemptCount,
        createdAt: row.createdAt,
        webhook: {
          id: row.webhookId,
          url: row.url,
          enabled: row.enabled,
          verifySsl: row.verifySsl,
          secretSealed: row.secretSealed,
        },
      },
      attempt:
        row.attemptId === null || row.attemptNumber === null
          ? null
          : { attemptId: row.attemptId, attemptNumber: row.attemptNumber },
    };
  }

  // An attempt begun and nothing sent (its request could not even be made):
  // as if it had never begun, while it is unrecorded. The job runs again.
  async cancelAttempt(deliveryId: string, attempt: StartedAttempt): Promise<void> {
    await this.sql.query({
      name: 'delivery-cancel-attempt',
      text: `WITH gone AS (
               DELETE FROM delivery_attempts WHERE id = $2 AND delivery_id = $1 AND error_kind = 'interrupted'
               RETURNING delivery_id)
             UPDATE deliveries SET attempt_count = attempt_count - 1
             WHERE id = $1 AND EXISTS (SELECT 1 FROM gone)`,
      values: [deliveryId, attempt.attemptId],
    });
  }

  // succeed, retryLater and giveUp record how an attempt ended. Each applies
  // once: an attempt already recorded is left as it is and the answer is
  // false (a record retried after its first try did commit, or an outcome
  // kept aside while the database was away and recorded later).
  succeed(deliveryId: string, attempt: StartedAttempt, outcome: SendOutcome): Promise<boolean> {
    return this.finish(deliveryId, attempt, outcome, DeliveryStatus.succeeded, null, null);
  }

  retryLater(deliveryId: string, attempt: StartedAttempt, outcome: SendOutcome, at: Date): Promise<boolean> {
    return this.finish(deliveryId, attempt, outcome, DeliveryStatus.pending, at, null);
  }

  // The delivery stops; with `disable`, its webhook is turned off too, saying why.
  giveUp(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    disable: { webhookId: string; reason: string } | null,
  ): Promise<boolean> {
    return this.finish(deliveryId, attempt, outcome, DeliveryStatus.failed, null, disable);
  }

  // Its webhook was turned off after the job was queued: nothing is sent (and
  // an attempt a dead dispatcher left in flight is closed).
  async abandon(deliveryId: string): Promise<void> {
    await this.db.$transaction([
      this.db.delivery.update({
        where: { id: deliveryId },
        data: { status: DeliveryStatus.failed, nextAttemptAt: null },
      }),
      this.db.deliveryAttempt.updateMany({
        where: { deliveryId, inFlightUntil: { not: null } },
        data: { inFlightUntil: null },
      }),
    ]);
  }

  // A person asked for it again: pending, due now. Null when it is not this webhook's.
  async reopen(deliveryId: string, webhookId: string): Promise<DeliveryRow | null> {
    const { count } = await this.db.delivery.updateMany({
      where: { id: deliveryId, webhookId },
      data: { status: DeliveryStatus.pending, nextAttemptAt: new Date() },
    });
    if (count === 0) return null;
    return this.db.delivery.findUniqueOrThrow({ where: { id: deliveryId }, include: withAttempts });
  }

  // The attempt row and the delivery's state (and, with `disable`, the
  // webhook turned off, whether or not the attempt was recorded already), in
  // one statement, only while the attempt is unrecorded (still `interrupted`,
  // as startAttempt wrote it: no send ends with that kind). True when the
  // delivery changed.
  private async finish(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    status: DeliveryStatus,
    nextAttemptAt: Date | null,
    disable: { webhookId: string; reason: string } | null,
  ): Promise<boolean> {
    const failure = outcome.ok ? null : outcome;
    const input: FinishInput = {
      deliveryId,
      attemptId: attempt.attemptId,
      statusCode: outcome.statusCode,
      durationMs: Math.round(outcome.durationMs),
      errorKind: failure?.kind ?? null,
      error: failure?.message.slice(0, 1000) ?? null,
      nextAttemptAt: nextAttemptAt?.toISOString().slice(0, 23) ?? null,
      status,
    };
    if (!disable) return this.finishes.submit(input);
    const { rowCount } = await this.sql.query({
      name: 'delivery-finish-and-disable',
      text: finishAndDisableSql,
      values: [...finishColumns([input]), disable.webhookId, disable.reason.slice(0, 1000)],
    });
    return (rowCount ?? 0) > 0;
  }

  // The delivery log of a webhook, newest first, by cursor (a delivery id):
  // `before` pages towards older deliveries, `after` towards newer ones.
  // An unknown cursor answers an empty page.
  async page(webhookId: string, query: DeliveryPageQuery): Promise<DeliveryRow[]> {
    const cursorId = query.before ?? query.after;
    const anchor = cursorId
      ? await this.db.delivery.findFirst({
          where: { id: cursorId, webhookId },
          select: { id: true, createdAt: true },
        })
      : undefined;
    if (cursorId && !anchor) return [];
    const direction = query.after ? 'gt' : 'lt';
    const rows = await this.db.delivery.findMany({
      where: {
        webhookId,
        ...(anchor
          ? {
              OR: [
                { createdAt: { [direction]: anchor.createdAt } },
                { createdAt: anchor.createdAt, id: { [direction]: anchor.id } },
              ],
            }
          : {}),
      },
      // Towards newer ones, read upwards from the cursor, then show newest first.
      orderBy: query.after ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.pageSize,
      include: withAttempts,
    });
    return query.after ? rows.reverse() : rows;
  }

  // Retention: one small batch of finished deliveries last changed before
  // `cutoff`, their attempts with them (ON DELETE CASCADE); nothing while
  // another replica prunes. Pending deliveries are never pruned.
  async pruneFinished(cutoff: Date, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext('retention:deliveries')) AS held)
      DELETE FROM deliveries WHERE (SELECT held FROM lock) AND id IN (
        SELECT id FROM deliveries
        WHERE status IN ('succeeded', 'failed') AND updated_at < ${cutoff}
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }

  // Deleted responses (by their owner, or by a right-to-be-forgotten job):
  // recorded first (deleted_responses, committed before anything is looked
  // up, so a planner that starts after this plans nothing more for them),
  // then the deliveries that carry them on the account's webhooks, with their
  // attempts (ON DELETE CASCADE) and, through `removeJobs`, their queued
  // jobs, in one transaction that holds the rows. Doing it again deletes
  // nothing more.
  async forgetResponses(
    accountId: string,
    responseTokens: readonly string[],
    removeJobs: (deliveries: ForgottenDelivery[]) => Promise<void> = () => Promise.resolve(),
  ): Promise<number> {
    const tokens = [...responseTokens];
    await this.db.$executeRaw`
      INSERT INTO deleted_responses (response_token, account_id, deleted_at)
      SELECT token, ${accountId}, now() AT TIME ZONE 'UTC' FROM unnest(${tokens}::text[]) AS token
      ON CONFLICT (response_token) DO NOTHING`;
    return this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<ForgottenDelivery[]>`
          SELECT d.id, d.event_id AS "eventId", d.webhook_id AS "webhookId", d.attempt_count AS "attemptCount"
            FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.response_token = ANY(${tokens}::text[]) AND w.account_id = ${accountId}
             FOR UPDATE OF d`;
        if (rows.length === 0) return 0;
        await removeJobs(rows);
        await tx.$executeRaw`DELETE FROM deliveries WHERE id = ANY(${rows.map((row) => row.id)}::text[])`;
        return rows.length;
      },
      { timeout: 60_000 },
    );
  }

  // Retention: deleted responses recorded before `cutoff` (once no event of
  // theirs can still come: the RESPONSES stream's age), one small batch.
  async pruneDeletedResponses(cutoff: Date, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext('retention:deleted_responses')) AS held)
      DELETE FROM deleted_responses WHERE (SELECT held FROM lock) AND response_token IN (
        SELECT response_token FROM deleted_responses WHERE deleted_at < ${cutoff}
        ORDER BY deleted_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }
}

// A delivery dropped with its response, as its queued jobs are named.
export interface ForgottenDelivery {
  id: string;
  eventId: string;
  webhookId: string;
  attemptCount: number;
}
