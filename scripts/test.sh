#!/usr/bin/env bash
# `npm test`: format, lint, type-check, build, then the unit, integration and
# end-to-end tests (the integration tier runs components in-process, the e2e
# tier the real apps, both against the real NATS, Redis and PostgreSQL of the
# test profile, on their own ports). Extra arguments go to Jest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=test NX_NO_CLOUD=true NX_DAEMON=false
source scripts/profile.sh
source scripts/node-runtime.sh
bin=node_modules/.bin
step() { printf '\n== %s\n' "$*"; }

scripts/ensure-deps.sh
step format;    $bin/prettier --check . --log-level warn
step lint;      $bin/eslint . --max-warnings 0
step typecheck; scripts/typecheck.sh
step build;     node tools/build.mjs

infra_was_running=$(scripts/infra.sh status 2>/dev/null | grep -c running || true)
stop_infra() { [[ "$infra_was_running" -gt 0 ]] || scripts/infra.sh down; }
trap stop_infra EXIT

step tests
mkdir -p "$DATA_DIR"
results="$DATA_DIR/jest-results.json"
status=0
$bin/jest --ci --runInBand --json --outputFile="$results" "$@" || status=$?
# One closing line any CI can read, whatever the runner printed above it.
node -e 'const r = require(process.argv[1]); console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$results" || true
exit $status
