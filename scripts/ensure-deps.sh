#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the
# lockfile. Plain `npm install`, not `npm ci`: the lockfile cannot list other
# platforms' native builds that this registry lacks, so `npm ci` calls it out of
# sync (docs/decisions/operations-and-deploy.md). `npm install` installs from it and leaves it unchanged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# npm itself runs on the product's Node.js line (the pinned one when the
# machine's is older), so that no dependency installs outside its engines.
source scripts/node-runtime.sh
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json || package.json -nt node_modules/.package-lock.json ]]; then
  echo "[deps] npm install" >&2
  npm install --no-audit --no-fund
fi
