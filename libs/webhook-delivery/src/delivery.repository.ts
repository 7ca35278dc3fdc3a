import { DeliveryStatus, SendFailureKind, WebhooksPrismaClient } from '@formline/db';
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
//                                          as `interrupted` until it ends
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

  findToSend(deliveryId: string): Promise<DeliveryToSend | null> {
    return this.db.delivery.findUnique({
      where: { id: deliveryId },
      select: {
        id: true,
        eventId: true,
        body: true,
        status: true,
        attemptCount: true,
        createdAt: true,
        webhook: { select: { id: true, url: true, enabled: true, verifySsl: true, secretSealed: true } },
      },
    });
  }

  // Written before the POST, in one statement: if the dispatcher dies during
  // the send, the log keeps an `interrupted` attempt (the receiver may have
  // had it), and the attempt count already includes it.
  async beginAttempt(deliveryId: string): Promise<StartedAttempt> {
    const attemptId = newPublicId(12);
    const [row] = await this.db.$queryRawUnsafe<{ attempt_count: number }[]>(
      `WITH counted AS (
         UPDATE deliveries SET attempt_count = attempt_count + 1, updated_at = ${utcNow}
         WHERE id = $1 RETURNING id, attempt_count)
       INSERT INTO delivery_attempts (id, delivery_id, attempted_at, duration_ms, error_kind, error)
       SELECT $2, id, ${utcNow}, 0, 'interrupted', 'the dispatcher stopped during this attempt'
       FROM counted RETURNING (SELECT attempt_count FROM counted)`,
      deliveryId,
      attemptId,
    );
    if (!row) throw new Error(`delivery ${deliveryId} is gone`);
    return { attemptId, attemptNumber: row.attempt_count };
  }

  async succeed(deliveryId: string, attempt: StartedAttempt, outcome: SendOutcome): Promise<void> {
    await this.finish(deliveryId, attempt, outcome, DeliveryStatus.succeeded, null);
  }

  async retryLater(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    at: Date,
  ): Promise<void> {
    await this.finish(deliveryId, attempt, outcome, DeliveryStatus.pending, at);
  }

  // The delivery stops; with `disable`, its webhook is turned off too, saying why.
  async giveUp(
    deliveryId: string,
    attempt: StartedAttempt,
    outcome: SendOutcome,
    disable: { webhookId: string; reason: string } | null,
  ): Promise<void> {
    const finished = this.finish(deliveryId, attempt, outcome, DeliveryStatus.failed, null);
    if (!disable) {
      await finished;
      return;
    }
    await this.db.$transaction([
      finished,
      this.db.webhook.update({
        where: { id: disable.webhookId },
        data: { enabled: false, disabledReason: disable.reason.slice(0, 1000) },
      }),
    ]);
  }

  // Its webhook was turned off after the job was queued: nothing is sent.
  async abandon(deliveryId: string): Promise<void> {
    await this.db.delivery.update({
      where: { id: deliveryId },
      data: { status: DeliveryStatus.failed, nextAttemptAt: null },
    });
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

  // The attempt row and the delivery's state, in one statement.
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
           error_kind = $5::send_failure_kind, error = $6, next_retry_at = $7::timestamp
         WHERE id = $2)
       UPDATE deliveries SET status = $8::delivery_status, next_attempt_at = $7::timestamp, updated_at = ${utcNow}
       WHERE id = $1`,
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
    const patterns = responseTokens.map((token) => `%"token":"${token.replace(/[\\%_]/g, '\\$&')}"%`);
    return this.db.$executeRaw`
      DELETE FROM deliveries d
       USING webhooks w
       WHERE w.id = d.webhook_id
         AND w.account_id = ${accountId}
         AND d.body LIKE ANY(${patterns}::text[])`;
  }
}
