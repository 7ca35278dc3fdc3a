-- A form's responses answer as fast at a million as at ten thousand: the
-- listing's filters and both sort columns are served by indexes, and its
-- total, the welcome screen's count and the Insights summary are read from
-- running tallies instead of being counted over every response.

-- Substring search (`query`) through a trigram index, beside the form id
-- (btree_gin lets a GIN index hold the plain text column too). Both are
-- trusted extensions: the database's owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- `answered_fields`: the ids and refs of the questions a response answers,
-- as a column an index serves. The service writes it with each response (it
-- holds the answers already parsed); the database reads it out of the
-- payload for a write that leaves it out, and on every update of the payload.
ALTER TABLE "responses" ADD COLUMN "answered_fields" TEXT[];

-- The functions below are PL/pgSQL, not SQL: PostgreSQL plans a SQL
-- function's body again on every call from a trigger, PL/pgSQL once per
-- connection. Each reads the stored json once, as jsonb.
CREATE FUNCTION response_answered_fields(payload json) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  answers jsonb := payload::jsonb -> 'answers';
BEGIN
  IF jsonb_typeof(answers) IS DISTINCT FROM 'array' THEN
    RETURN ARRAY[]::text[];
  END IF;
  RETURN ARRAY(
    SELECT DISTINCT name
      FROM jsonb_array_elements(answers) AS answer,
           LATERAL (VALUES (answer -> 'field' ->> 'id'), (answer -> 'field' ->> 'ref')) AS field(name)
     WHERE name IS NOT NULL);
END
$$;

UPDATE "responses" SET "answered_fields" = response_answered_fields("payload");

CREATE FUNCTION responses_set_answered_fields() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR NEW.answered_fields IS NULL THEN
    NEW.answered_fields := response_answered_fields(NEW.payload);
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER responses_answered_fields BEFORE INSERT OR UPDATE OF payload ON "responses"
  FOR EACH ROW EXECUTE FUNCTION responses_set_answered_fields();

-- CreateTable
CREATE TABLE "response_tallies" (
    "form_id" TEXT NOT NULL,
    "tally" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "count" BIGINT NOT NULL,
    "milliseconds" BIGINT NOT NULL,

    CONSTRAINT "response_tallies_pkey" PRIMARY KEY ("form_id","tally","key","slot")
);

-- What one response adds to its form's tallies (`sign` 1), or takes away
-- from them when it is deleted or replaced by an update (`sign` -1).
CREATE FUNCTION response_tally_deltas(response responses, sign integer)
RETURNS TABLE (tally text, key text, count bigint, milliseconds bigint)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  stored jsonb := response.payload::jsonb;
  answers jsonb := CASE WHEN jsonb_typeof(stored -> 'answers') = 'array' THEN stored -> 'answers' ELSE '[]'::jsonb END;
  platform text := coalesce(stored -> 'metadata' ->> 'platform', 'other');
  last_answered text := answers -> -1 -> 'field' ->> 'id';
BEGIN
  RETURN QUERY
    SELECT 'type', response.response_type, sign::bigint, 0::bigint
    UNION ALL
    SELECT 'landed', platform, sign::bigint, 0::bigint
    UNION ALL
    SELECT 'completed', platform, sign::bigint,
           sign * round(extract(epoch FROM response.submitted_at - response.landed_at) * 1000)::bigint
     WHERE response.response_type = 'completed'
    UNION ALL
    SELECT 'answered', answer -> 'field' ->> 'id', sign::bigint, 0::bigint
      FROM jsonb_array_elements(answers) AS answer
     WHERE answer -> 'field' ->> 'id' IS NOT NULL
    UNION ALL
    SELECT 'left_after', last_answered, sign::bigint, 0::bigint
     WHERE response.response_type <> 'completed' AND last_answered IS NOT NULL;
END
$$;

-- The responses already stored, counted once.
INSERT INTO "response_tallies" ("form_id", "tally", "key", "slot", "count", "milliseconds")
SELECT response.form_id, delta.tally, delta.key, 0, sum(delta.count), sum(delta.milliseconds)
  FROM "responses" AS response, LATERAL response_tally_deltas(response, 1) AS delta
 GROUP BY 1, 2, 3;

-- Each statement's changed rows, added up per form, tally and key, then
-- added to the connection's slot. Rows are locked in key order, so two
-- writers that share a slot never wait on each other in a cycle.
CREATE FUNCTION responses_count_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8, sum(delta.count), sum(delta.milliseconds)
      FROM new_rows AS changed, LATERAL response_tally_deltas(changed, 1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds)
    SELECT changed.form_id, delta.tally, delta.key, pg_backend_pid() % 8, sum(delta.count), sum(delta.milliseconds)
      FROM old_rows AS changed, LATERAL response_tally_deltas(changed, -1) AS delta
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds;
  ELSE
    INSERT INTO response_tallies AS tallies (form_id, tally, key, slot, count, milliseconds)
    SELECT changes.form_id, changes.tally, changes.key, pg_backend_pid() % 8, sum(changes.count), sum(changes.milliseconds)
      FROM (SELECT inserted.form_id, delta.*
              FROM new_rows AS inserted, LATERAL response_tally_deltas(inserted, 1) AS delta
            UNION ALL
            SELECT deleted.form_id, delta.*
              FROM old_rows AS deleted, LATERAL response_tally_deltas(deleted, -1) AS delta) AS changes
     GROUP BY 1, 2, 3
    HAVING sum(changes.count) <> 0 OR sum(changes.milliseconds) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT (form_id, tally, key, slot) DO UPDATE
       SET count = tallies.count + excluded.count, milliseconds = tallies.milliseconds + excluded.milliseconds;
  END IF;
  RETURN NULL;
END
$$;

-- Transition tables allow one event per trigger: three triggers, one function.
CREATE TRIGGER responses_count_inserts AFTER INSERT ON "responses"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_count_changes();
CREATE TRIGGER responses_count_updates AFTER UPDATE ON "responses"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_count_changes();
CREATE TRIGGER responses_count_deletes AFTER DELETE ON "responses"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_count_changes();

-- A truncated table has no responses left to count.
CREATE FUNCTION responses_count_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM response_tallies;
  RETURN NULL;
END
$$;
CREATE TRIGGER responses_count_truncate AFTER TRUNCATE ON "responses"
  FOR EACH STATEMENT EXECUTE FUNCTION responses_count_truncate();

-- CreateIndex
CREATE INDEX "responses_form_id_landed_at_id_idx" ON "responses"("form_id", "landed_at", "id");

-- CreateIndex
CREATE INDEX "responses_form_id_search_text_idx" ON "responses" USING GIN ("form_id" text_ops, "search_text" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "responses_form_id_answered_fields_idx" ON "responses" USING GIN ("form_id" text_ops, "answered_fields");
