#!/usr/bin/env bash
# t/pg/pg-server.sh start|stop|up|down DIR PORT
# A PostgreSQL server for the tests and the demo: initialised in DIR (owned by the
# postgres user, since initdb refuses root), listening on 127.0.0.1:PORT only, with a
# database "ranking" holding sql/schema-pg.sql and sql/demo.sql, owned by the role
# "ranking" (password "ranking").  Prints the DBDParams conninfo.
#   start  a fresh server (DIR is wiped first)      stop  stop it and remove DIR
#   up     start the server in DIR, creating it only when absent (the demo's: its
#          data is kept between runs)                down  stop it, keep DIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cmd=${1:?start|stop}; dir=${2:?DIR}; port=${3:?PORT}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { runuser -u postgres -- "$@"; }

conninfo="host=127.0.0.1 port=$port dbname=ranking user=ranking password=ranking"
pg_start() {
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=200 -c fsync=on" \
        start >/dev/null
}

case "$cmd" in
up)
    if [ -f "$dir/data/PG_VERSION" ]; then
        pg_start
        echo "$conninfo"
        exit 0
    fi
    ;&
start)
    [ -x "$bin/initdb" ] || { echo "PostgreSQL server not installed" >&2; exit 1; }
    rm -rf "$dir"; mkdir -p "$dir"; chown postgres: "$dir"
    as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log"; exit 1; }
    pg_start
    psql=(as_pg psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
    "${psql[@]}" -d postgres -c "CREATE ROLE ranking LOGIN PASSWORD 'ranking'" \
                             -c "CREATE DATABASE ranking OWNER ranking"
    PGPASSWORD=ranking psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U ranking -d ranking \
        -f "$ROOT/sql/schema-pg.sql" -f "$ROOT/sql/demo.sql" >/dev/null
    echo "$conninfo"
    ;;
down)
    [ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*) echo "usage: $0 start|stop|up|down DIR PORT" >&2; exit 2 ;;
esac
