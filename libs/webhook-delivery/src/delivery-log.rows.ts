import { type SendFailureKind, type DeliveryStatus, type WebhooksPrismaClient } from '@formline/db';

// What a webhook's delivery log reads (DeliveryRepository's page and
// reopen): deliveries and their attempts, as rows.

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

// A delivery as its log shows it: never its body (the event it carries, up
// to a response and its form's definition), and its newest attempts only, at
// most deliveryLogAttempts of them (attempt_count has them all), read by
// withNewestAttempts with the bound in SQL: a page of 200 deliveries stays a
// few megabytes read, however often they were sent again.
export const deliveryLogAttempts = 25;
export const asLogged = {
  id: true,
  eventId: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  createdAt: true,
};

// The deliveries with their newest attempts, newest first, at most
// deliveryLogAttempts each. Plain SQL, so the bound is the database's: a
// nested `take` of Prisma's under a list of deliveries reads every attempt
// and keeps the newest in memory. One index range a delivery
// (delivery_id, attempted_at).
export async function withNewestAttempts(
  db: WebhooksPrismaClient,
  rows: Array<Omit<DeliveryRow, 'attempts'>>,
): Promise<DeliveryRow[]> {
  if (rows.length === 0) return [];
  const attempts = await db.$queryRaw<Array<AttemptRow & { deliveryId: string }>>`
    SELECT d.id AS "deliveryId",
           a.attempted_at AT TIME ZONE 'UTC' AS "attemptedAt",
           a.in_flight_until AT TIME ZONE 'UTC' AS "inFlightUntil",
           a.status_code AS "statusCode", a.duration_ms AS "durationMs",
           a.error_kind::text AS "errorKind", a.error,
           a.next_retry_at AT TIME ZONE 'UTC' AS "nextRetryAt"
      FROM unnest(${rows.map((row) => row.id)}::text[]) AS d(id)
      CROSS JOIN LATERAL (
        SELECT * FROM delivery_attempts WHERE delivery_id = d.id
         ORDER BY attempted_at DESC, id DESC LIMIT ${deliveryLogAttempts}) AS a
     ORDER BY d.id, a.attempted_at DESC, a.id DESC`;
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const { deliveryId, ...attempt } of attempts) {
    const list = byDelivery.get(deliveryId) ?? [];
    list.push(attempt);
    byDelivery.set(deliveryId, list);
  }
  return rows.map((row) => ({ ...row, attempts: byDelivery.get(row.id) ?? [] }));
}
