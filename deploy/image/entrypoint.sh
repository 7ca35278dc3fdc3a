#!/bin/sh
# What a Formline container runs, chosen by the first argument or by $APP:
#
#   formline gateway|global|responses|webhooks|dispatcher|media
#       one app: node dist/apps/<app>/main.js, its bundle (app image)
#   formline migrate <global|responses|webhooks> [prisma migrate subcommand]
#       the migrations of one database, `deploy` unless told (migrate image);
#       DATABASE_URL names the database
#
# exec, so that the app is the process tini signals on SIGTERM. The node flags
# are those of libs/stack/src/app-process.ts (appNodeFlags and heapLimitFlag,
# which say why),
# and so is glibc's malloc setting (appMallocEnv), unless the pod sets its own.
set -eu

# The old generation's bound: half the container's memory limit (cgroup v2's
# memory.max, or v1's limit_in_bytes), at least 64 MB; with no limit, the
# stack's figures for the default pods (256 MB, media 512 MB), as
# heapLimitFlag states them. FORMLINE_CGROUP_DIR names where the cgroup
# filesystem is mounted, /sys/fs/cgroup unless told.
heap_mb_for() {
  cgroup="${FORMLINE_CGROUP_DIR:-/sys/fs/cgroup}"
  limit=""
  if [ -r "$cgroup/memory.max" ]; then
    limit=$(cat "$cgroup/memory.max")
  elif [ -r "$cgroup/memory/memory.limit_in_bytes" ]; then
    limit=$(cat "$cgroup/memory/memory.limit_in_bytes")
  fi
  case "$limit" in
    '' | max | *[!0-9]*) limit="" ;;
  esac
  # cgroup v1 writes "no limit" as a number near 2^63.
  if [ -n "$limit" ] && [ "${#limit}" -lt 16 ]; then
    mb=$((limit / 2097152))
    if [ "$mb" -lt 64 ]; then mb=64; fi
    echo "$mb"
  elif [ "$1" = media ]; then
    echo 512
  else
    echo 256
  fi
}

if [ "$#" -gt 0 ]; then
  role="$1"
  shift
else
  role="${APP:-}"
fi

case "$role" in
  gateway | global | responses | webhooks | dispatcher | media)
    if [ ! -f "dist/apps/$role/main.js" ]; then
      echo "formline: dist/apps/$role is not in this image; the apps run from the app image (docker build --target app)" >&2
      exit 2
    fi
    export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
    heap_mb=$(heap_mb_for "$role")
    exec node --disable-proto=throw --enable-source-maps --liftoff-only --max-semi-space-size=2 "--max-old-space-size=$heap_mb" "dist/apps/$role/main.js"
    ;;
  migrate)
    if [ "$#" -eq 0 ]; then
      echo "formline: usage: formline migrate <global|responses|webhooks> [deploy|status]" >&2
      exit 2
    fi
    database="$1"
    shift
    if [ ! -f tools/db/prisma-migrate.cjs ]; then
      echo "formline: migrations run from the migrate image (docker build --target migrate)" >&2
      exit 2
    fi
    if [ "$#" -eq 0 ]; then set -- deploy; fi
    exec node tools/db/prisma-migrate.cjs "$database" migrate "$@"
    ;;
  *)
    echo "formline: unknown app '$role'; expected gateway, global, responses, webhooks, dispatcher or migrate" >&2
    exit 2
    ;;
esac
