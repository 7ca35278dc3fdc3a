-- The services' connections plan every run of a prepared statement for the
-- tables as they are then (plan_cache_mode = force_custom_plan, set by their
-- pools): a plan made while a table was small would otherwise stay. PL/pgSQL
-- plans its own statements through the same cache, so these functions, which
-- run once a row written, would plan theirs on every call (the intake's insert
-- cost 1.8 times as much). They keep PostgreSQL's default: a plan made once
-- per connection.
ALTER FUNCTION response_answered_fields(json) SET plan_cache_mode = auto;
ALTER FUNCTION responses_set_answered_fields() SET plan_cache_mode = auto;
ALTER FUNCTION response_tally_deltas(responses, integer) SET plan_cache_mode = auto;
ALTER FUNCTION responses_count_changes() SET plan_cache_mode = auto;
ALTER FUNCTION responses_count_truncate() SET plan_cache_mode = auto;
