#!/usr/bin/env bash
# `npm run bench` (bench/README.md): builds, then runs the bench
# (bench/bench.main.ts) on the product's Node.js line; the apps it starts run
# on the same node. Arguments go to the bench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/node-runtime.sh
node tools/build.mjs >/dev/null
exec node --enable-source-maps dist/bench/bench.main.js "$@"
