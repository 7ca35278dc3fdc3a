-- Half of the CPU the intake's insert cost PostgreSQL went to the running
-- tallies: the statement-level trigger called response_tally_deltas once per
-- changed row, a PL/pgSQL function whose query PostgreSQL started afresh on
-- every call. The same deltas are now a plain SQL function of the row's
-- columns, which the planner inlines into the trigger's one statement (a SQL
-- function is inlined only with no SET clause, and its answer is the same
-- whatever the plan cache mode). Each payload is read as jsonb once
-- (OFFSET 0 keeps that subquery whole). It counts exactly what the function
-- it replaces counted, so a response counted by the old one is taken away
-- exactly by the new one.
--
-- Measured on the product's table, 15 rows a statement: 127-132 µs of the
-- backend's CPU per row inserted before, 99-108 after (with no tallies: 63).

-- What one response adds to its form's tallies (`sign` 1), or takes away
-- from them when it is deleted or replaced by an update (`sign` -1): as
-- before (20261129110000_insights_answer_tallies says what each tally counts
-- and how the rows are bounded), from the row's columns.
CREATE FUNCTION response_tally_deltas(response_type text, landed_at timestamp, submitted_at timestamp, payload json, sign integer)
RETURNS TABLE(tally text, key text, count bigint, milliseconds bigint, total numeric)
LANGUAGE sql STABLE
AS $$
  SELECT delta.tally, delta.key, delta.count, delta.milliseconds, delta.total
    FROM (SELECT payload::jsonb AS stored OFFSET 0) AS parsed,
         LATERAL (SELECT CASE WHEN jsonb_typeof(parsed.stored -> 'answers') = 'array'
                              THEN parsed.stored -> 'answers' ELSE '[]'::jsonb END AS answers,
                         coalesce(parsed.stored -> 'metadata' ->> 'platform', 'other') AS platform
                   OFFSET 0) AS stored,
         LATERAL (
           SELECT 'type'::text AS tally, response_type AS key, sign::bigint AS count,
                  0::bigint AS milliseconds, 0::numeric AS total
           UNION ALL
           SELECT 'landed', stored.platform, sign::bigint, 0::bigint, 0::numeric
           UNION ALL
           SELECT 'completed', stored.platform, sign::bigint,
                  sign * round(extract(epoch FROM submitted_at - landed_at) * 1000)::bigint, 0::numeric
            WHERE response_type = 'completed'
           UNION ALL
           SELECT 'answered', answer -> 'field' ->> 'id', sign::bigint, 0::bigint, 0::numeric
             FROM jsonb_array_elements(stored.answers) AS answer
            WHERE answer -> 'field' ->> 'id' IS NOT NULL
           UNION ALL
           SELECT 'left_after', stored.answers -> -1 -> 'field' ->> 'id', sign::bigint, 0::bigint, 0::numeric
            WHERE response_type <> 'completed' AND stored.answers -> -1 -> 'field' ->> 'id' IS NOT NULL
           UNION ALL
           (SELECT given.tally, given.key, sign::bigint, 0::bigint, sign * given.total
              FROM (SELECT 'answers' AS tally, answer.field_id AS key, answer.position, 0::bigint AS rank,
                           CASE WHEN jsonb_typeof(answer.value -> 'number') = 'number'
                                THEN (answer.value -> 'number')::numeric ELSE 0 END AS total
                      FROM (SELECT a.value, a.position, a.value -> 'field' ->> 'id' AS field_id,
                                   a.value -> 'field' ->> 'type' AS field_type, a.value ->> 'type' AS kind
                              FROM jsonb_array_elements(stored.answers) WITH ORDINALITY AS a(value, position)
                             WHERE response_type = 'completed'
                               AND a.value -> 'field' ->> 'id' IS NOT NULL
                               AND a.value -> 'field' ->> 'type' IN
                                   ('multiple_choice', 'dropdown', 'picture_choice', 'yes_no', 'rating', 'opinion_scale', 'nps', 'number')) AS answer
                    UNION ALL
                    SELECT 'answer', answer.field_id || chr(31) || picked.value, answer.position, picked.rank, 0
                      FROM (SELECT a.value, a.position, a.value -> 'field' ->> 'id' AS field_id,
                                   a.value -> 'field' ->> 'type' AS field_type, a.value ->> 'type' AS kind
                              FROM jsonb_array_elements(stored.answers) WITH ORDINALITY AS a(value, position)
                             WHERE response_type = 'completed'
                               AND a.value -> 'field' ->> 'id' IS NOT NULL
                               AND a.value -> 'field' ->> 'type' IN
                                   ('multiple_choice', 'dropdown', 'picture_choice', 'yes_no', 'rating', 'opinion_scale', 'nps', 'number')) AS answer,
                           LATERAL (SELECT 'choice:' || (answer.value -> 'choice' ->> 'id'), 0::bigint
                                     WHERE answer.kind = 'choice' AND answer.value -> 'choice' ? 'id'
                                    UNION ALL
                                    SELECT 'other', 0::bigint
                                     WHERE answer.kind = 'choice' AND answer.value -> 'choice' ? 'other'
                                    UNION ALL
                                    SELECT 'choice:' || choice.id, choice.rank
                                      FROM jsonb_array_elements_text(
                                             CASE WHEN answer.kind = 'choices'
                                                   AND jsonb_typeof(answer.value -> 'choices' -> 'ids') = 'array'
                                                  THEN answer.value -> 'choices' -> 'ids' END)
                                           WITH ORDINALITY AS choice(id, rank)
                                    UNION ALL
                                    SELECT 'other', 1000::bigint
                                     WHERE answer.kind = 'choices' AND answer.value -> 'choices' ? 'other'
                                    UNION ALL
                                    SELECT answer.value ->> 'boolean', 0::bigint
                                     WHERE answer.kind = 'boolean' AND answer.field_type = 'yes_no'
                                       AND jsonb_typeof(answer.value -> 'boolean') = 'boolean'
                                    UNION ALL
                                    SELECT answer.value ->> 'number', 0::bigint
                                     WHERE answer.kind = 'number' AND answer.field_type IN ('rating', 'opinion_scale', 'nps')
                                       AND jsonb_typeof(answer.value -> 'number') = 'number') AS picked(value, rank)
                   ) AS given
             WHERE given.key IS NOT NULL AND length(given.key) <= 600
             ORDER BY given.position, given.rank, given.tally, given.key
             LIMIT 1000)
         ) AS delta
$$;

-- The trigger's statements call it with the changed rows' columns.
CREATE OR REPLACE FUNCTION responses_count_changes() RETURNS trigger
LANGUAGE plpgsql SET plan_cache_mode = auto AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8,
           sum(delta.count), sum(delta.milliseconds), sum(delta.total)
      FROM new_rows AS changed, LATERAL response_tally_deltas(changed.response_type, changed.landed_at, changed.submitted_at, changed.payload, 1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds,
           total = tallies.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8,
           sum(delta.count), sum(delta.milliseconds), sum(delta.total)
      FROM old_rows AS changed, LATERAL response_tally_deltas(changed.response_type, changed.landed_at, changed.submitted_at, changed.payload, -1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds,
           total = tallies.total + excluded.total;
  ELSE
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changes.form_id, changes.tally, changes.key, pg_backend_pid() % 8,
           sum(changes.count), sum(changes.milliseconds), sum(changes.total)
      FROM (SELECT inserted.form_id, delta.*
              FROM new_rows AS inserted, LATERAL response_tally_deltas(inserted.response_type, inserted.landed_at, inserted.submitted_at, inserted.payload, 1) AS delta
            UNION ALL
            SELECT deleted.form_id, delta.*
              FROM old_rows AS deleted, LATERAL response_tally_deltas(deleted.response_type, deleted.landed_at, deleted.submitted_at, deleted.payload, -1) AS delta) AS changes
     GROUP BY 1, 2, 3
    HAVING sum(changes.count) <> 0 OR sum(changes.milliseconds) <> 0 OR sum(changes.total) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds,
           total = tallies.total + excluded.total;
  END IF;
  RETURN NULL;
END
$$;

DROP FUNCTION response_tally_deltas(responses, integer);
