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
# The e2e tier's other lanes (tools/test/test-profile.cjs) live in lane-k
# folders of the profile's data: stopped with it.
stop_infra() {
  [[ "$infra_was_running" -gt 0 ]] && return
  scripts/infra.sh down
  for lane in "$DATA_DIR"/lane-*/; do
    [[ -d "$lane" ]] && DATA_DIR="${lane%/}" scripts/infra.sh down
  done
  return 0
}
trap stop_infra EXIT

step tests
mkdir -p "$DATA_DIR"
status=0
if [[ $# -eq 0 ]]; then
  # The unit tier holds no server and no shared state: two workers. The
  # integration tier shares the test servers, one spec at a time. The e2e
  # tier runs on two workers, each on a lane of servers of its own
  # (tools/test/test-profile.cjs): its specs spend much of their time waiting
  # on apps, which the other worker's spec fills.
  results=("$DATA_DIR/jest-unit.json" "$DATA_DIR/jest-integration.json" "$DATA_DIR/jest-e2e.json")
  $bin/jest --ci --selectProjects unit --maxWorkers 2 --json --outputFile="${results[0]}" || status=$?
  $bin/jest --ci --selectProjects integration --runInBand --json --outputFile="${results[1]}" || status=$?
  $bin/jest --ci --selectProjects e2e --maxWorkers "${E2E_LANES:-2}" --json --outputFile="${results[2]}" || status=$?
else
  results=("$DATA_DIR/jest-results.json")
  $bin/jest --ci --runInBand --json --outputFile="${results[0]}" "$@" || status=$?
fi
# One closing line any CI can read, whatever the runner printed above it.
node -e '
  const runs = process.argv.slice(1).map((file) => require(file));
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  console.log(`\n${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed, ${sum("numPendingTests")} skipped`);
' "${results[@]}" || true
exit $status
