#!/usr/bin/env bash
# `npm run soak`: the fault matrix for a longer time (tools/soak/main.ts; not
# part of `npm test`), against the test profile's servers, which it starts
# (and stops again if it started them). Arguments go to the soak, e.g.
#   npm run soak -- --minutes 5 --rate 10
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=test NX_NO_CLOUD=true NX_DAEMON=false
source scripts/profile.sh
source scripts/node-runtime.sh
scripts/ensure-deps.sh
node tools/build.mjs
infra_was_running=$(scripts/infra.sh status 2>/dev/null | grep -c running || true)
scripts/infra.sh up
stop_infra() { [[ "$infra_was_running" -gt 0 ]] || scripts/infra.sh down; }
trap stop_infra EXIT
scripts/migrate.sh
node --enable-source-maps dist/tools/soak/main.js "$@"
