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
    heap_mb=256
    if [ "$role" = media ]; then heap_mb=512; fi
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
