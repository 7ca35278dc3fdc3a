#!/usr/bin/env bash
# `npm run admin -- <command> ...`: the operators' command (tools/admin/main.ts)
# against the local profile's global database, unless GLOBAL_DATABASE_URL says
# otherwise. In a cluster, run `node dist/tools/admin/main.js` with it set.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/profile.sh
source scripts/node-runtime.sh
export GLOBAL_DATABASE_URL="${GLOBAL_DATABASE_URL:-$DATABASE_HOST_URL/formline_global}"
node tools/build.mjs >/dev/null
exec node --enable-source-maps dist/tools/admin/main.js "$@"
