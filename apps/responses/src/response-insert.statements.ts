// The intake's write, the hottest statement of the responses service, so
// written by hand: many submissions' responses and their events in one
// statement (atomic on its own: one round trip, no BEGIN/COMMIT), one array a
// column, row i of each array for submission i. The statement-level tally
// triggers then run once for all of them. A response whose idempotency or
// progress key (or id) another holds already, in the table or earlier in the
// same statement, is left out with its event (ON CONFLICT DO NOTHING): its
// writer looks again. Answers the ids of the responses written.
const utcNow = `now() AT TIME ZONE 'UTC'`;

export const insertResponsesWithEventsSql = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamp[], $5::timestamp[], $6::text[],
        $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
        $15::text[], $16::text[])
      AS i(id, form_id, account_id, landed_at, submitted_at, payload, search_text, idempotency_key,
        request_hash, request_id, event_id, subject, event_payload, response_type, progress_key, answered_fields)),
  response AS (
    INSERT INTO responses (id, form_id, account_id, landed_at, submitted_at, payload, search_text,
      idempotency_key, request_hash, request_id, response_type, progress_key, answered_fields, created_at)
    SELECT id, form_id, account_id, landed_at, submitted_at, payload::json, search_text, idempotency_key,
      request_hash, request_id, response_type, progress_key,
      ARRAY(SELECT json_array_elements_text(answered_fields::json)), ${utcNow}
    FROM input
    ON CONFLICT DO NOTHING
    RETURNING id)
  INSERT INTO outbox_events (id, subject, payload, request_id, response_id, created_at)
  SELECT i.event_id, i.subject, i.event_payload::json, i.request_id, r.id, ${utcNow}
  FROM response r JOIN input i ON i.id = r.id
  RETURNING response_id AS id`;
