#!/bin/sh
# Stand-in for Prisma's native schema-engine binary, which cannot be downloaded offline.
# `prisma generate/validate/format/--version` only need it to exist / answer --version.
# Migrations go through tools/db/prisma-migrate.cjs (wasm schema engine + driver adapter).
case "$*" in
  --version) echo "schema-engine-stub (offline)"; exit 0 ;;
  *can-connect-to-database*) exit 0 ;;
esac
echo "Native Prisma schema engine unavailable offline: use tools/db/prisma-migrate.cjs." >&2
exit 1
