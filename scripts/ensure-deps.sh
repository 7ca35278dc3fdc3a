#!/usr/bin/env bash
# Installs the npm dependencies when they are missing or older than the
# lockfile. Plain `npm install`, not `npm ci`: the lockfile cannot list other
# platforms' native builds that this registry lacks, so `npm ci` calls it out of
# sync (docs/decisions.md). `npm install` installs from it and leaves it unchanged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node 20.19 or newer is needed (NestJS 12 is loaded through require(esm)); this is "+process.version); process.exit(1) }'
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json || package.json -nt node_modules/.package-lock.json ]]; then
  echo "[deps] npm install" >&2
  npm install --no-audit --no-fund
fi
