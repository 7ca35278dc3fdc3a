#!/usr/bin/env bash
# `npm start`: everything a fresh clone needs, then both regional stacks.
# Installs dependencies when missing or stale, builds, starts NATS, Redis and
# PostgreSQL (installing them from the OS packages when missing), migrates,
# seeds the demo accounts and runs all five apps of both regions.
# Ctrl-C stops the apps and the infrastructure this command started.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=dev
source scripts/profile.sh
source scripts/node-runtime.sh
scripts/ensure-deps.sh
node tools/build.mjs
infra_was_running=$(scripts/infra.sh status 2>/dev/null | grep -c running || true)
scripts/infra.sh up
stop_infra() { [[ "$infra_was_running" -gt 0 ]] || scripts/infra.sh down; }
trap stop_infra EXIT
scripts/migrate.sh
# In the background with `wait`, so a TERM or INT sent to this script alone
# (not only a terminal's Ctrl-C to the whole group) reaches the launcher.
node --enable-source-maps dist/tools/start/main.js &
launcher=$!
trap 'kill -INT "$launcher" 2>/dev/null || true' INT TERM
# `wait` returns early when a trapped signal arrives: wait again until the launcher has finished.
while :; do
  status=0
  wait "$launcher" || status=$?
  kill -0 "$launcher" 2>/dev/null || break
done
exit "$status"
