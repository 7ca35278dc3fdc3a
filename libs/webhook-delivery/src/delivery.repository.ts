import { DeliveryStatus, SendFailureKind, WebhooksPrismaClient, jsonStringMemberPattern } from '@formline/db';
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
//   beginAttempt    pending -> pending     attempt row written before the POST,
//                                          as `interrupted` until it ends, in
//                                          flight until its deadline; earlier
//                                          attempts still in flight are closed
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

export class DeliveryRepository {
  constructor(private readonly db: WebhooksPrismaClient) {}

  // Rows for many (event, webhook) pairs in one insert; those that exist
  // already are kept. Returns the pairs' deliveries still pending, new or
  // found (an event planned twice enqueues only what is not done).
  async plan(
    items: readonly { eventId: string; webhookId: string; body: string }[],
  ): Promise<PlannedDelivery[]> {
    if (items.length === 0) return [];
    await this.db.delivery.createMany({
      data: items.map((item) => ({ id: newPublicId(12), ...item })),
      skipDuplicates: true,
    });
    const wanted = new Set(items.map((item) => `${item.eventId} ${item.webhookId}`));
    const rows = await this.db.delivery.findMany({
      where: {
        eventId: { in: [...new Set(items.map((item) => item.eventId))] },
        status: DeliveryStatus.pending,
      },
      select: { id: true, eventId: true, webhookId: true },
    });
    return rows.filter((row) => wanted.has(`${row.eventId} ${row.webhookId}`));
  }

  // Once per delivery attempt, the dispatcher's busiest read: by hand, as
  // Prisma's planned query cost the dispatcher about a sixth of its time.
  async findToSend(deliveryId: string): Promise<DeliveryToSend | null> {
    const [row] = await this.db.$queryRawUnsafe<
      (Omit<DeliveryToSend, 'webhook'> & {
        webhookId: string;
        url: string;
        enabled: boolean;
        verifySsl: boolean;
        secretSealed: string | null;
      })[]
    >(
      `SELECT d.id, d.event_id AS "eventId", d.body, d.status::text AS status,
         d.attempt_count AS "attemptCount", d.created_at AS "createdAt", w.id AS "webhookId",
         w.url, w.enabled, w.verify_ssl AS "verifySsl", w.secret_sealed AS "secretSealed"
       FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1`,
      deliveryId,
    );
    if (!row) return null;
    const { webhookId, url, enabled, verifySsl, secretSealed, ...delivery } = row;
    return { ...delivery, webhook: { id: webhookId, url, enabled, verifySsl, secretSealed } };
  }

  // Written before the POST, in one statement: if the dispatcher dies during
  // the send, the log keeps an `interrupted` attempt (the receiver may have
  // had it), and the attempt count already includes it. Until `inFlightMs`
  // has passed (the send's timeout and a margin) the log shows it as
  // `sending`; a newer attempt ends that at once for the earlier ones (a
  // dead dispatcher's send was taken over).
  async beginAttempt(deliveryId: string, inFlightMs: number): Promise<StartedAttempt> {
    const attemptId = newPublicId(12);
    const [row] = await this.db.$queryRawUnsafe<{ attempt_count: number }[]>(
      `WITH counted AS (
         UPDATE deliveries SET attempt_count = attempt_count + 1, updated_at = ${utcNow}
         WHERE id = $1 RETURNING id, attempt_count),
       taken_over AS (
         UPDATE delivery_attempts SET in_flight_until = NULL
         WHERE delivery_id = $1 AND in_flight_until IS NOT NULL)
       INSERT INTO delivery_attempts (id, delivery_id, attempted_at, duration_ms, error_kind, error, in_flight_until)
       SELECT $2, id, ${utcNow}, 0, 'interrupted', '${interruptedMessage}',
         ${utcNow} + $3::int * interval '1 millisecond'
       FROM counted RETURNING (SELECT attempt_count FROM counted)`,
      deliveryId,
      attemptId,
      inFlightMs,
    );
    if (!row) throw new Error(`delivery ${deliveryId} is gone`);
    return { attemptId, attemptNumber: row.attempt_count };
  }

  // succeed, retryLater and giveUp record how an attempt ended. Each applies
  // once: an attempt already recorded is left as it is and the answer is
  // false (a record retried after its first try did commit, or an outcome
  // kept aside while the database was away and recorded later).
  async succeed(deliveryId: string, attempt: StartedAttempt, outcome: SendOutcome): Promise<boolean> {
    return (await this.finish(deliveryId, attempt, outcome, DeliveryStatus.succeeded, null)) > 0;
  }

  async retryLater(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    at: Date,
  ): Promise<boolean> {
    return (await this.finish(deliveryId, attempt, outcome, DeliveryStatus.pending, at)) > 0;
  }

  // The delivery stops; with `disable`, its webhook is turned off too, saying why.
  async giveUp(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    disable: { webhookId: string; reason: string } | null,
  ): Promise<boolean> {
    const finished = this.finish(deliveryId, attempt, outcome, DeliveryStatus.failed, null);
    if (!disable) return (await finished) > 0;
    const [count] = await this.db.$transaction([
      finished,
      // updateMany: a webhook deleted meanwhile is no error.
      this.db.webhook.updateMany({
        where: { id: disable.webhookId },
        data: { enabled: false, disabledReason: disable.reason.slice(0, 1000) },
      }),
    ]);
    return count > 0;
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

  // The attempt row and the delivery's state, in one statement, only while the
  // attempt is unrecorded (still `interrupted`, as beginAttempt wrote it: no
  // send ends with that kind). The count of deliveries changed: 0 or 1.
  private finish(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    status: DeliveryStatus,
    nextAttemptAt: Date | null,
  ) {
    const failure = outcome.ok ? null : outcome;
    return this.db.$executeRawUnsafe(
      `WITH attempt AS (
         UPDATE delivery_attempts SET status_code = $3, duration_ms = $4,
           error_kind = $5::send_failure_kind, error = $6, next_retry_at = $7::timestamp,
           in_flight_until = NULL
         WHERE id = $2 AND delivery_id = $1 AND error_kind = 'interrupted' RETURNING id)
       UPDATE deliveries SET status = $8::delivery_status, next_attempt_at = $7::timestamp, updated_at = ${utcNow}
       WHERE id = $1 AND EXISTS (SELECT 1 FROM attempt)`,
      deliveryId,
      attempt.attemptId,
      outcome.statusCode,
      outcome.durationMs,
      failure?.kind ?? null,
      failure?.message.slice(0, 1000) ?? null,
      nextAttemptAt,
      status,
    );
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

  // Right to be forgotten: the deliveries (with their attempts) whose stored
  // body is the event of one of these responses, on the account's webhooks.
  // In compact JSON `"token":"…"` unescaped can only be the payload's key.
  async forgetResponses(accountId: string, responseTokens: readonly string[]): Promise<number> {
    const patterns = responseTokens.map((token) => jsonStringMemberPattern('token', token));
    return this.db.$executeRaw`
      DELETE FROM deliveries d
       USING webhooks w
       WHERE w.id = d.webhook_id
         AND w.account_id = ${accountId}
         AND d.body LIKE ANY(${patterns}::text[])`;
  }
}
