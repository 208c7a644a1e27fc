#!/bin/sh
# A throwaway PostgreSQL cluster for the tests: initdb + pg_ctl in a temporary folder, listening only
# on a Unix socket in that folder (no TCP port), run by an unprivileged user.
#
# Usage: Scripts/postgres-test-server.sh start DIR [PID]   create DIR, start the cluster, print its URL;
#                                                          with PID, stop it once that process is gone
#        Scripts/postgres-test-server.sh stop DIR          stop the cluster and remove DIR
#
# `start` prints one line on stdout, the connection string of the cluster's `catalog_test` database
# as its superuser `catalog_admin` (e.g. postgresql://catalog_admin@/catalog_test?host=/tmp/x/socket),
# which .ci/run exports as CATALOG_TEST_POSTGRES_URL. Authentication is `trust` on the socket, whose
# folder only the server's user and root can enter.
#
# PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` system user (Debian's
# package creates it) or else `nobody`. The binaries come from PATH, else the newest
# /usr/lib/postgresql/*/bin (Debian's layout, which does not put initdb on PATH).
set -eu

command=${1:-}
dir=${2:-}
watch_pid=${3:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 64
fi

find_bin() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
        if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
            echo "$candidate"
            return
        fi
    done
    echo "postgres-test-server: initdb and pg_ctl not found (apt-get install postgresql)" >&2
    exit 1
}

# Runs a command as the cluster's user (unchanged when not root).
as_user() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid="$run_user" --regid="$(id -g "$run_user")" --init-groups -- "$@"
    else
        "$@"
    fi
}

run_user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    if id postgres >/dev/null 2>&1; then run_user=postgres; else run_user=nobody; fi
fi

case "$command" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    # A Unix socket's path has at most 103 bytes on macOS (107 on Linux): $TMPDIR there is too long.
    socket_path="$dir/socket/.s.PGSQL.5432"
    if [ "${#socket_path}" -gt 103 ]; then
        rmdir "$dir" 2>/dev/null || true
        echo "postgres-test-server: $socket_path is longer than a Unix socket path may be (103 bytes); use a shorter DIR, e.g. under /tmp" >&2
        exit 1
    fi
    bin=$(find_bin)
    mkdir -p "$dir/data" "$dir/socket"
    chmod 700 "$dir" "$dir/data" "$dir/socket"
    if [ "$(id -u)" -eq 0 ]; then chown -R "$run_user" "$dir"; fi
    as_user "$bin/initdb" -D "$dir/data" -U catalog_admin --auth=trust --encoding=UTF8 --locale=C \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # No TCP, a socket in the private folder; fsync off: the cluster is thrown away after the tests.
    options="-c listen_addresses= -c unix_socket_directories=$dir/socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    psql="$bin/psql"
    [ -x "$psql" ] || psql=$(command -v psql || true)
    if [ -n "$psql" ]; then
        "$psql" -X -q -h "$dir/socket" -U catalog_admin -d postgres -v ON_ERROR_STOP=1 \
            -c "CREATE DATABASE catalog_test" >/dev/null
    else
        # No psql (only the server package): the single-user backend is stopped to create it.
        as_user "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
        echo "CREATE DATABASE catalog_test;" | as_user "$bin/postgres" --single -D "$dir/data" postgres >/dev/null
        as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" start >/dev/null
    fi
    if [ -n "$watch_pid" ]; then
        # A test process that started its own cluster may die without stopping it: stop it then.
        script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
        (while kill -0 "$watch_pid" 2>/dev/null; do sleep 1; done; sh "$script" stop "$dir") \
            </dev/null >/dev/null 2>&1 &
    fi
    echo "postgresql://catalog_admin@/catalog_test?host=$dir/socket"
    ;;
stop)
    [ -d "$dir" ] || exit 0
    if [ -f "$dir/data/postmaster.pid" ]; then
        bin=$(find_bin)
        as_user "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 64
    ;;
esac
