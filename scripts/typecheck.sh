#!/usr/bin/env bash
# `npm run typecheck`: the workspace's TypeScript against tsconfig.json, then
# each project that has its own tsconfig.json (browser code, with the DOM's
# types instead of Node's only) against that one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/node-runtime.sh
tsc=node_modules/.bin/tsc
$tsc -p tsconfig.json
for config in apps/*/tsconfig.json libs/*/tsconfig.json; do
  if [[ -f "$config" ]]; then $tsc -p "$config"; fi
done
