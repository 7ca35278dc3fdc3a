#!/usr/bin/env bash
# Starts and stops the infrastructure on 127.0.0.1, data under .data/<profile>:
# one PostgreSQL server (holding the global and both regions' databases), and
# per region its own NATS server (JetStream on) and its own Redis.
#
#   scripts/infra.sh up|down|status        (FORMLINE_PROFILE=dev|test, default dev)
#
# Idempotent: `up` on a running set is a no-op, a stale pid file is replaced.
# Missing servers are installed from Debian's packages when running as root.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/profile.sh"

log() { printf '[infra:%s] %s\n' "$FORMLINE_PROFILE" "$*" >&2; }

pg_bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then echo "$dir"; return; fi
  if command -v pg_config >/dev/null && [[ -x "$(pg_config --bindir)/initdb" ]]; then pg_config --bindir; fi
}

ensure_installed() {
  local missing=()
  command -v nats-server >/dev/null || missing+=(nats-server)
  command -v redis-server >/dev/null || missing+=(redis-server)
  [[ -n "$(pg_bin_dir)" ]] || missing+=(postgresql)
  [[ ${#missing[@]} -eq 0 ]] && return
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${missing[*]} from the OS packages"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Missing: ${missing[*]}. Install them, e.g.: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

# A pid file is only trusted if its process is alive and is the expected server:
# after a crash or reboot the pid may belong to something else entirely.
alive() {
  local pidfile=$1 program=$2 pid
  [[ -f "$pidfile" ]] || return 1
  pid=$(tr -dc '0-9' < "$pidfile")
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # A killed server whose parent is gone can linger as a zombie: not alive.
  [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]] || return 1
  [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$program"* ]]
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Another program on our port would answer our readiness check in its place.
refuse_taken_port() {
  local port=$1 name=$2 variable=$3
  if port_open "$port"; then
    log "port $port for $name is taken by another process: stop it, or move $name with $variable"
    exit 1
  fi
}

wait_for_port() {
  local port=$1 name=$2
  for _ in $(seq 1 100); do
    if port_open "$port"; then return 0; fi
    sleep 0.1
  done
  log "$name did not open port $port; see its log under $DATA_DIR"
  exit 1
}

# PostgreSQL refuses to run as root: as root, run it as the `postgres` user.
as_pg_user() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_up() {
  local bin dir="$DATA_DIR/postgres"
  bin=$(pg_bin_dir)
  if [[ ! -s "$dir/PG_VERSION" ]]; then
    mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    chmod 700 "$dir"
    log "initialising PostgreSQL in $dir"
    as_pg_user "$bin/initdb" -D "$dir" --auth=trust --username=postgres -E UTF8 >/dev/null
  fi
  if as_pg_user "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    log "PostgreSQL already running on $PG_PORT"
    return
  fi
  local opts="-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300"
  # Test data is thrown away after each run: durability only costs time there.
  [[ "$FORMLINE_PROFILE" == test ]] && opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  # More server settings for one run, e.g. the bench's statement statistics
  # (BENCH_PG_STATEMENTS): `-c name=value ...`.
  opts+=" ${PG_SERVER_OPTIONS:-}"
  touch "$DATA_DIR/postgres.log"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$DATA_DIR/postgres.log"
  as_pg_user "$bin/pg_ctl" -D "$dir" -l "$DATA_DIR/postgres.log" -o "$opts" -w -t 60 start >/dev/null
  log "PostgreSQL on 127.0.0.1:$PG_PORT"
}

postgres_down() {
  local bin dir="$DATA_DIR/postgres"
  bin=$(pg_bin_dir)
  [[ -s "$dir/PG_VERSION" ]] || return 0
  if as_pg_user "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    as_pg_user "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    log "PostgreSQL stopped"
  fi
}

nats_up() {
  local region=$1 port=$2 pid="$DATA_DIR/nats-$1.pid"
  if alive "$pid" nats-server; then log "NATS ($region) already running on $port"; return; fi
  rm -f "$pid"
  refuse_taken_port "$port" "NATS ($region)" "NATS_PORT_${region^^}"
  mkdir -p "$DATA_DIR/nats-$region"
  setsid nohup nats-server -a 127.0.0.1 -p "$port" -n "formline-$region" -js -sd "$DATA_DIR/nats-$region" \
    -P "$pid" -l "$DATA_DIR/nats-$region.log" >/dev/null 2>&1 < /dev/null &
  wait_for_port "$port" "NATS ($region)"
  log "NATS ($region) on 127.0.0.1:$port"
}

redis_up() {
  local region=$1 port=$2 pid="$DATA_DIR/redis-$1.pid"
  if alive "$pid" redis-server; then log "Redis ($region) already running on $port"; return; fi
  rm -f "$pid"
  refuse_taken_port "$port" "Redis ($region)" "REDIS_PORT_${region^^}"
  mkdir -p "$DATA_DIR/redis-$region"
  # noeviction: BullMQ must never lose a queued job to memory pressure.
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --pidfile "$pid" \
    --dir "$DATA_DIR/redis-$region" --logfile "$DATA_DIR/redis-$region.log" \
    --appendonly yes --save '' --maxmemory-policy noeviction >/dev/null
  wait_for_port "$port" "Redis ($region)"
  log "Redis ($region) on 127.0.0.1:$port"
}

program_of() { [[ $1 == nats-* ]] && echo nats-server || echo redis-server; }

stop_pid() {
  local name=$1 pid="$DATA_DIR/$1.pid" program
  program=$(program_of "$name")
  if alive "$pid" "$program"; then
    kill "$(cat "$pid")"
    for _ in $(seq 1 100); do alive "$pid" "$program" || break; sleep 0.1; done
    alive "$pid" "$program" && kill -9 "$(cat "$pid")"
    log "$name stopped"
  fi
  rm -f "$pid"
}

status_line() {
  local name=$1 up=$2
  printf '%-12s %s\n' "$name" "$([[ $up == 0 ]] && echo running || echo stopped)"
}

case "${1:-}" in
  up)
    ensure_installed
    mkdir -p "$DATA_DIR"
    postgres_up
    nats_up us "$NATS_PORT_US"
    nats_up eu "$NATS_PORT_EU"
    redis_up us "$REDIS_PORT_US"
    redis_up eu "$REDIS_PORT_EU"
    ;;
  down)
    for name in nats-us nats-eu redis-us redis-eu; do stop_pid "$name"; done
    postgres_down
    ;;
  status)
    bin=$(pg_bin_dir)
    up=0; as_pg_user "$bin/pg_ctl" -D "$DATA_DIR/postgres" status >/dev/null 2>&1 || up=1
    status_line postgres $up
    for name in nats-us nats-eu redis-us redis-eu; do
      up=0; alive "$DATA_DIR/$name.pid" "$(program_of "$name")" || up=1
      status_line "$name" $up
    done
    ;;
  *)
    echo "usage: scripts/infra.sh up|down|status   (FORMLINE_PROFILE=dev|test)" >&2
    exit 2
    ;;
esac
