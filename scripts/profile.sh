# Ports and folders of a local profile, sourced by the scripts. `dev` is what
# `npm start` runs; `test` is what `npm test` runs, on other ports and data,
# so a running `npm start` never collides with the tests. Each can be moved
# by setting the variable before running the script.
# shellcheck shell=bash
FORMLINE_PROFILE="${FORMLINE_PROFILE:-dev}"
ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$FORMLINE_PROFILE" in
  dev)  offset=10000 ;;
  test) offset=20000 ;;
  *) echo "FORMLINE_PROFILE must be dev or test, not '$FORMLINE_PROFILE'" >&2; exit 2 ;;
esac
export FORMLINE_PROFILE
export DATA_DIR="${DATA_DIR:-$ROOT_DIR/.data/$FORMLINE_PROFILE}"
export PG_PORT="${PG_PORT:-$((offset + 5432))}"
export NATS_PORT_US="${NATS_PORT_US:-$((offset + 4222))}"
export NATS_PORT_EU="${NATS_PORT_EU:-$((offset + 4223))}"
export REDIS_PORT_US="${REDIS_PORT_US:-$((offset + 6379))}"
export REDIS_PORT_EU="${REDIS_PORT_EU:-$((offset + 6380))}"
export DATABASE_HOST_URL="postgresql://postgres@127.0.0.1:$PG_PORT"
unset offset
