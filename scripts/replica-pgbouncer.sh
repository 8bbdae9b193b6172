#!/usr/bin/env bash
# PgBouncer in transaction mode with its default settings in front of the streaming replica
# (../shared/tools/pg-replica.sh, port 5433), as ../shared/tools/pgbouncer.sh does for the primary:
# the behavioural suite runs with a pooler in front of both (test/behaviour.replica-pgbouncer.test.ts).
#   scripts/replica-pgbouncer.sh start [PORT] [REPLICA_PORT]   (default 6433, 5433) prints the URL prefix
#   scripts/replica-pgbouncer.sh stop [PORT]
# Needs root (PgBouncer runs as the postgres user) and the pgbouncer binary (pgbouncer.sh installs it).
set -euo pipefail
cmd=${1:-start}
port=${2:-6433}
replica_port=${3:-5433}
dir=/tmp/petstore-pgbouncer-replica-$port
case "$cmd" in
  start)
    command -v pgbouncer >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq pgbouncer >/dev/null; }
    if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      echo "postgres://postgres:postgres@127.0.0.1:$port"; exit 0
    fi
    mkdir -p "$dir"
    cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$replica_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = plain
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = 8
max_client_conn = 400
logfile = $dir/pgbouncer.log
pidfile = $dir/pid
INI
    echo '"postgres" "postgres"' >"$dir/userlist.txt"
    chown -R postgres "$dir"
    chmod 755 "$dir"
    runuser -u postgres -- pgbouncer -d "$dir/pgbouncer.ini"
    for _ in $(seq 1 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
      sleep 0.1
    done
    echo "postgres://postgres:postgres@127.0.0.1:$port"
    ;;
  stop)
    [ -f "$dir/pid" ] && kill "$(cat "$dir/pid")" 2>/dev/null || true
    ;;
  *) echo "usage: $0 start|stop [PORT] [REPLICA_PORT]" >&2; exit 2 ;;
esac
