import {
  DeliveryStatus,
  SendFailureKind,
  WebhooksPrismaClient,
  StatementBatch,
  webhooksKeyedPool,
} from '@formline/db';
import type pg from 'pg';
import { newPublicId } from '@formline/ids';
import { runsWithin } from '@formline/input';
import type { PlannedDelivery } from './delivery.queue';
import type { SendOutcome } from './send-outcome';
import { asLogged, type DeliveryPageQuery, type DeliveryRow, withNewestAttempts } from './delivery-log.rows';
import {
  startAttemptSql,
  finishSql,
  finishAndDisableSql,
  planSql,
  planRecheckSql,
  cancelAttemptSql,
} from './delivery.statements';

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
//   reopenFailed    failed  -> pending     the same, for the failed ones of a window
//   pruneFinished   succeeded|failed -> (deleted, with its attempts) after retention

export interface DeliveryToSend {
  id: string;
  eventId: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** When its next attempt is due (after a failed one), or null. */
  nextAttemptAt: Date | null;
  /** For a first attempt that did not begin: until when an earlier one may be in flight. */
  inFlightUntil: Date | null;
  createdAt: Date;
  webhook: {
    id: string;
    url: string;
    enabled: boolean;
    verifySsl: boolean;
    secretSealed: string | null;
  };
}

/** The attempt under way: its row id and its number (from 1). */
export interface StartedAttempt {
  attemptId: string;
  attemptNumber: number;
}

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
  firstOnly: boolean;
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

// At most this many characters of bodies in one planning statement: its
// parameters are written out as one text, every body in it again.
export const planStatementChars = 4 * 1024 * 1024;

export class DeliveryRepository {
  // The hot statements (the planner's insert, the dispatcher's start and
  // record of an attempt) skip Prisma: plain SQL, prepared once per connection.
  // The dispatcher's concurrent jobs share them (StatementBatch).
  private readonly sql: pg.Pool;
  private readonly starts: StatementBatch<StartInput, StartRow | null>;
  private readonly finishes: StatementBatch<FinishInput, boolean>;

  constructor(private readonly db: WebhooksPrismaClient) {
    this.sql = webhooksKeyedPool(db);
    this.starts = new StatementBatch<StartInput, StartRow | null>(async (inputs) => {
      const { rows } = await this.sql.query<StartRow>({
        name: 'delivery-start-attempts',
        text: startAttemptSql,
        values: [
          inputs.map((input) => input.deliveryId),
          inputs.map((input) => input.once),
          inputs.map((input) => input.attemptId),
          inputs.map((input) => input.inFlightMs),
          inputs.map((input) => input.firstOnly),
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
  // one only when another planner raced it), or in several when their bodies
  // together pass planStatementChars (an event carries a response and its
  // form's questions, and one body goes once per webhook that wants it);
  // those that exist already are kept. Returns the pairs' deliveries still
  // pending, new or found (an event planned twice enqueues only what is not
  // done).
  async plan(
    items: readonly { eventId: string; webhookId: string; body: string; responseToken?: string }[],
  ): Promise<PlannedDelivery[]> {
    const planned: PlannedDelivery[] = [];
    for (const chunk of runsWithin(items, (item) => item.body.length, planStatementChars)) {
      planned.push(...(await this.planChunk(chunk)));
    }
    return planned;
  }

  private async planChunk(
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
  // was taken over). With `firstOnly`, an attempt begins only if the delivery
  // has had none (checked on the locked row: of two runs racing for it, one
  // sends). Null when the delivery is gone.
  async startAttempt(
    deliveryId: string,
    options: { once: boolean; inFlightMs: number; firstOnly?: boolean },
  ): Promise<StartedDelivery | null> {
    const row = await this.starts.submit({
      deliveryId,
      once: options.once,
      attemptId: newPublicId(12),
      inFlightMs: options.inFlightMs,
      firstOnly: options.firstOnly ?? false,
    });
    if (!row) return null;
    return {
      delivery: {
        id: row.id,
        eventId: row.eventId,
        body: row.body,
        status: row.status,
        attemptCount: row.attemptNumber ?? row.attemptCount,
        nextAttemptAt: row.nextAttemptAt,
        inFlightUntil: row.inFlightUntil,
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
      text: cancelAttemptSql,
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
    const row = await this.db.delivery.findUniqueOrThrow({ where: { id: deliveryId }, select: asLogged });
    const [logged] = await withNewestAttempts(this.db, [row]);
    return logged;
  }

  // Every failed delivery of the webhook created in [since, until], as reopen
  // does, the oldest first, at most `limit`: the ids reopened, with their
  // attempt counts (a redelivery's job id). A delivery that another request
  // reopens meanwhile may be answered by both: its job id is the same, so it
  // is queued once.
  async reopenFailed(
    webhookId: string,
    window: { since: Date; until: Date },
    limit: number,
  ): Promise<{ id: string; attemptCount: number }[]> {
    const failed = await this.db.delivery.findMany({
      where: {
        webhookId,
        status: DeliveryStatus.failed,
        createdAt: { gte: window.since, lte: window.until },
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true },
    });
    if (failed.length === 0) return [];
    const ids = failed.map((row) => row.id);
    await this.db.delivery.updateMany({
      where: { id: { in: ids }, status: DeliveryStatus.failed },
      data: { status: DeliveryStatus.pending, nextAttemptAt: new Date() },
    });
    return this.db.delivery.findMany({
      where: { id: { in: ids }, status: DeliveryStatus.pending },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, attemptCount: true },
    });
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
      select: asLogged,
    });
    return withNewestAttempts(this.db, query.after ? rows.reverse() : rows);
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
