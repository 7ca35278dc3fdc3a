#!/usr/bin/env bash
# Applies every database's migrations (global, and each region's responses and
# webhooks databases) on the local PostgreSQL of the profile, creating missing
# databases. `--reset` drops them first (the test setup uses it).
#
#   scripts/migrate.sh [--reset]        (FORMLINE_PROFILE=dev|test)
#
# In production, the same tools/db/prisma-migrate.cjs runs once per deploy, per
# database, as a Kubernetes Job (deploy/), never in the apps' start-up.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/profile.sh"
source "$(dirname "${BASH_SOURCE[0]}")/node-runtime.sh"
cd "$ROOT_DIR"

declare -A databases=(
  [formline_global]=global
  [formline_responses_us]=responses
  [formline_responses_eu]=responses
  [formline_webhooks_us]=webhooks
  [formline_webhooks_eu]=webhooks
)

sql() { PGOPTIONS='-c client_min_messages=warning' psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -c "$1"; }

# One at a time: concurrent CREATE DATABASE can trip over the shared template.
for name in "${!databases[@]}"; do
  [[ "${1:-}" == "--reset" ]] && sql "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null
  [[ -n "$(sql "SELECT 1 FROM pg_database WHERE datname = '$name'")" ]] || sql "CREATE DATABASE $name" >/dev/null
done

pids=()
for name in "${!databases[@]}"; do
  DATABASE_URL="$DATABASE_HOST_URL/$name" node tools/db/prisma-migrate.cjs "${databases[$name]}" migrate deploy \
    > "$DATA_DIR/migrate-$name.log" 2>&1 &
  pids+=("$!:$name")
done
failed=0
for entry in "${pids[@]}"; do
  if ! wait "${entry%%:*}"; then
    echo "migrating ${entry#*:} failed:" >&2
    cat "$DATA_DIR/migrate-${entry#*:}.log" >&2
    failed=1
  fi
done
[[ $failed == 0 ]] && echo "[migrate:$FORMLINE_PROFILE] all databases up to date" >&2
exit $failed
