#!/usr/bin/env bash
# The delivery-pipeline probe (bench/pipeline-probe.ts) on the test profile's
# servers (its ports may be moved as for `npm test`): builds, brings the
# servers up and the databases up to date, then runs the probe.
#   bash bench/pipeline-probe.sh [rates=50,200] [seconds=15]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=test
source scripts/profile.sh
source scripts/node-runtime.sh
scripts/infra.sh up >/dev/null
scripts/migrate.sh >/dev/null
node tools/build.mjs >/dev/null
exec node --enable-source-maps dist/bench/pipeline-probe.js "$@"
