// The SQL of DeliveryRepository's statements over many deliveries at once
// (delivery.repository.ts says what each change of state does).
// PostgreSQL's time now, as the tables keep it (UTC, no zone).
const utcNow = `now() AT TIME ZONE 'UTC'`;
// What an attempt says from its start: true of an attempt whose dispatcher
// died, replaced by the real outcome when the attempt ends.
const interruptedMessage =
  'the dispatcher stopped during this attempt: the receiver may have received it; a later attempt carries the same webhook-id';

// Each statement below takes many deliveries at once (StatementBatch), one
// array a column, row i of each array for delivery i. Every part of a
// statement sees the rows as they were when it began; a delivery's status is
// checked again on the row it locks.
// A first attempt (`first_only`) begins only while the delivery has none: the
// condition is checked again on the locked row, so of two runs that race for
// one delivery only one sends.
export const startAttemptSql = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[], $4::int[], $5::boolean[])
      AS i(delivery_id, once, attempt_id, in_flight_ms, first_only)),
  target AS (
    SELECT i.delivery_id, i.once, i.attempt_id, i.in_flight_ms, i.first_only, d.event_id, d.body, d.status,
      d.attempt_count, d.next_attempt_at, d.created_at, w.id AS webhook_id, w.url, w.enabled, w.verify_ssl,
      w.secret_sealed,
      -- Until when an attempt of a delivery attempted already may still be in
      -- flight: read only for a first attempt that may not begin.
      CASE WHEN i.first_only AND d.attempt_count > 0 THEN
        (SELECT max(a.in_flight_until) FROM delivery_attempts a WHERE a.delivery_id = d.id) END AS in_flight_until
    FROM input i JOIN deliveries d ON d.id = i.delivery_id JOIN webhooks w ON w.id = d.webhook_id),
  -- Only the count changes (no updated_at, which the retention index holds):
  -- no indexed column, so the new version stays on its page with no index
  -- entry (a heap-only update, with the room the table's fillfactor keeps).
  counted AS (
    UPDATE deliveries d SET attempt_count = d.attempt_count + 1
    FROM target t
    WHERE d.id = t.delivery_id AND (t.once OR (d.status = 'pending' AND t.enabled))
      AND (NOT t.first_only OR d.attempt_count = 0)
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
    t.attempt_count AS "attemptCount", t.next_attempt_at AT TIME ZONE 'UTC' AS "nextAttemptAt",
    t.in_flight_until AT TIME ZONE 'UTC' AS "inFlightUntil",
    t.created_at AT TIME ZONE 'UTC' AS "createdAt",
    t.webhook_id AS "webhookId", t.url, t.enabled, t.verify_ssl AS "verifySsl",
    t.secret_sealed AS "secretSealed", b.id AS "attemptId", c.attempt_count AS "attemptNumber"
  FROM target t LEFT JOIN counted c ON c.id = t.delivery_id LEFT JOIN begun b ON b.delivery_id = t.delivery_id`;

// How attempts ended, each only while it is unrecorded (still `interrupted`,
// as startAttempt wrote it: no send ends with that kind). The rows come as
// columns ($1-$8, finishColumns); `attempt` answers the deliveries whose
// attempt it recorded.
export const recordAttemptsCte = `WITH input AS (
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
export const updateDeliveriesSql = `UPDATE deliveries d SET status = i.status, next_attempt_at = i.next_at, updated_at = ${utcNow}
  FROM input i
  WHERE d.id = i.delivery_id AND d.id IN (SELECT delivery_id FROM attempt)
  RETURNING d.id`;

// Records the attempts and the deliveries' new states. Answers the deliveries changed.
export const finishSql = `${recordAttemptsCte}
  ${updateDeliveriesSql}`;

// The same for one delivery, turning its webhook off too (whether or not the
// attempt was recorded already; a webhook deleted meanwhile is no error).
export const finishAndDisableSql = `${recordAttemptsCte},
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
export const planSql = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
      AS i(id, event_id, webhook_id, body, response_token)),
  inserted AS (
    INSERT INTO deliveries (id, event_id, webhook_id, body, response_token, created_at, updated_at)
    SELECT id, event_id, webhook_id, body, response_token, ${utcNow}, ${utcNow} FROM input i
    -- (a null token equals none: planned; written without an OR, so that each
    -- token is one lookup in deleted_responses' key, not a read of it all)
    WHERE NOT EXISTS (SELECT 1 FROM deleted_responses x WHERE x.response_token = i.response_token)
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
// (one that sees what was committed before it began). The status is compared
// as text so that the pairs' key is the only index it can use (the status
// index would read every pending delivery, as many as a receiver's outage
// leaves).
export const planRecheckSql = `SELECT id, event_id AS "eventId", webhook_id AS "webhookId" FROM deliveries
  WHERE status::text = 'pending' AND (event_id, webhook_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

// An attempt begun and nothing sent, undone while it is unrecorded ($1 the
// delivery, $2 the attempt).
export const cancelAttemptSql = `WITH gone AS (
    DELETE FROM delivery_attempts WHERE id = $2 AND delivery_id = $1 AND error_kind = 'interrupted'
    RETURNING delivery_id)
  UPDATE deliveries SET attempt_count = attempt_count - 1
  WHERE id = $1 AND EXISTS (SELECT 1 FROM gone)`;
