#!/usr/bin/env bash
# `npm run check:hostile` (docs/security.md, "The outside check"): against the
# region `npm start` is running, runs bench/hostile/outside-check.main.ts on
# the product's Node.js line. Only the check's own parts of dist/ (bench/ and
# the raw HTTP client in libs/testing) are rebuilt: the running apps' code is
# left as it is.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FORMLINE_PROFILE=dev
source scripts/profile.sh
source scripts/node-runtime.sh
node tools/build.mjs bench libs/testing >/dev/null
exec node --enable-source-maps dist/bench/hostile/outside-check.main.js
