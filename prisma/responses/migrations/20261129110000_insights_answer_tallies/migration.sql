-- Insights' distribution of answers (GET /insights/{form_id}/answers) read
-- from the running tallies, as the summary is: per question of a bounded set
-- of answers, how many completed responses gave each answer, and per question
-- of a number how many answered and the sum of their numbers.
--
-- Two new tallies, of completed responses only:
--   `answers`  key <field id>: the responses answering the question; `total`
--              adds up the numbers of a number, rating, opinion scale or NPS;
--   `answer`   key <field id> chr(31) <value>: the responses giving that
--              answer, the value being `choice:<choice id>` or `other` (a
--              multiple choice, dropdown or picture choice, one row per choice
--              picked), `true`/`false` (yes/no), or the number given (rating,
--              opinion scale, NPS).
--
-- `total` is a column of its own, NUMERIC: a number question's answers are any
-- JSON number (fractions, magnitudes beyond a BIGINT), which jsonb holds as
-- NUMERIC, so adding and taking away are exact and a deleted response takes
-- away exactly what it added. The other tallies leave it 0.

-- Writers of responses wait until the tallies are counted again: a response
-- written between the new trigger function and the backfill's snapshot would
-- otherwise be counted twice, or not at all.
LOCK TABLE "responses" IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE "response_tallies" ADD COLUMN "total" NUMERIC NOT NULL DEFAULT 0;

-- The return type changes: the function is made again, with the cached-plan
-- setting 20261129091000_functions_keep_cached_plans gave it.
DROP FUNCTION response_tally_deltas(responses, integer);

-- What one response adds to its form's tallies (`sign` 1), or takes away
-- from them when it is deleted or replaced by an update (`sign` -1).
--
-- A caller's answers were checked against the form at submission, but the
-- rows one response adds are bounded here too, whatever wrote it: a key longer
-- than 600 characters (a field id and a choice id are at most 255) is not
-- counted, and a response adds at most 1,000 `answers`/`answer` rows, the
-- first in the order of its answers (then of the choices picked). The order
-- is total, so a delete takes away exactly the rows the insert added.
CREATE FUNCTION response_tally_deltas(response responses, sign integer)
RETURNS TABLE (tally text, key text, count bigint, milliseconds bigint, total numeric)
LANGUAGE plpgsql STABLE SET plan_cache_mode = auto AS $$
DECLARE
  stored jsonb := response.payload::jsonb;
  answers jsonb := CASE WHEN jsonb_typeof(stored -> 'answers') = 'array' THEN stored -> 'answers' ELSE '[]'::jsonb END;
  platform text := coalesce(stored -> 'metadata' ->> 'platform', 'other');
  last_answered text := answers -> -1 -> 'field' ->> 'id';
BEGIN
  RETURN QUERY
    -- A completed response's answers to the questions whose answers are
    -- distributed, in the order given.
    WITH distributed AS (
      SELECT answer.value, answer.position,
             answer.value -> 'field' ->> 'id' AS field_id,
             answer.value -> 'field' ->> 'type' AS field_type,
             answer.value ->> 'type' AS kind
        FROM jsonb_array_elements(answers) WITH ORDINALITY AS answer(value, position)
       WHERE response.response_type = 'completed'
         AND answer.value -> 'field' ->> 'id' IS NOT NULL
         AND answer.value -> 'field' ->> 'type' IN
             ('multiple_choice', 'dropdown', 'picture_choice', 'yes_no', 'rating', 'opinion_scale', 'nps', 'number')
    )
    SELECT 'type', response.response_type, sign::bigint, 0::bigint, 0::numeric
    UNION ALL
    SELECT 'landed', platform, sign::bigint, 0::bigint, 0::numeric
    UNION ALL
    SELECT 'completed', platform, sign::bigint,
           sign * round(extract(epoch FROM response.submitted_at - response.landed_at) * 1000)::bigint, 0::numeric
     WHERE response.response_type = 'completed'
    UNION ALL
    SELECT 'answered', answer -> 'field' ->> 'id', sign::bigint, 0::bigint, 0::numeric
      FROM jsonb_array_elements(answers) AS answer
     WHERE answer -> 'field' ->> 'id' IS NOT NULL
    UNION ALL
    SELECT 'left_after', last_answered, sign::bigint, 0::bigint, 0::numeric
     WHERE response.response_type <> 'completed' AND last_answered IS NOT NULL
    UNION ALL
    (SELECT given.tally, given.key, sign::bigint, 0::bigint, sign * given.total
       FROM (SELECT 'answers' AS tally, answer.field_id AS key, answer.position, 0::bigint AS rank,
                    CASE WHEN jsonb_typeof(answer.value -> 'number') = 'number'
                         THEN (answer.value -> 'number')::numeric ELSE 0 END AS total
               FROM distributed AS answer
             UNION ALL
             SELECT 'answer', answer.field_id || chr(31) || picked.value, answer.position, picked.rank, 0
               FROM distributed AS answer,
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
      LIMIT 1000);
END
$$;

-- The responses already stored, counted once: the new tallies only (the
-- others are kept), in slot 0, where no row of theirs exists yet.
INSERT INTO "response_tallies" ("form_id", "tally", "key", "slot", "count", "milliseconds", "total")
SELECT response.form_id, delta.tally, delta.key, 0, sum(delta.count), sum(delta.milliseconds), sum(delta.total)
  FROM "responses" AS response, LATERAL response_tally_deltas(response, 1) AS delta
 WHERE response.response_type = 'completed' AND delta.tally IN ('answers', 'answer')
 GROUP BY 1, 2, 3;

-- Each statement's changed rows, added up per form, tally and key, then
-- added to the connection's slot (as before, with `total` beside `count`).
CREATE OR REPLACE FUNCTION responses_count_changes() RETURNS trigger
LANGUAGE plpgsql SET plan_cache_mode = auto AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8,
           sum(delta.count), sum(delta.milliseconds), sum(delta.total)
      FROM new_rows AS changed, LATERAL response_tally_deltas(changed, 1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds,
           total = tallies.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8,
           sum(delta.count), sum(delta.milliseconds), sum(delta.total)
      FROM old_rows AS changed, LATERAL response_tally_deltas(changed, -1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds,
           total = tallies.total + excluded.total;
  ELSE
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds, total)
    SELECT changes.form_id, changes.tally, changes.key, pg_backend_pid() % 8,
           sum(changes.count), sum(changes.milliseconds), sum(changes.total)
      FROM (SELECT inserted.form_id, delta.*
              FROM new_rows AS inserted, LATERAL response_tally_deltas(inserted, 1) AS delta
            UNION ALL
            SELECT deleted.form_id, delta.*
              FROM old_rows AS deleted, LATERAL response_tally_deltas(deleted, -1) AS delta) AS changes
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
