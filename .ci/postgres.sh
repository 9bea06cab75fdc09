#!/usr/bin/env bash
# A private PostgreSQL for the store's tests (crates/store/tests): installs Debian's postgresql
# when missing, starts a cluster of its own on 127.0.0.1 (port $BUGHOUSE_PG_PORT, 55432 unless
# set) with its data under /tmp, creates the database `bughouse_test`, and prints
#
#     export BUGHOUSE_TEST_POSTGRES_URL=postgres://...
#
# on stdout (everything else goes to stderr). Use it as
#
#     pg_env=$(bash .ci/postgres.sh) && eval "$pg_env"
#
# Idempotent: a second run reuses the running cluster (or starts the stopped one) and prints the
# same line. Stop it with: runuser -u postgres -- pg_ctl -D /tmp/bughouse-pg-55432/data stop
set -euo pipefail

port=${BUGHOUSE_PG_PORT:-55432}
root=/tmp/bughouse-pg-$port
data=$root/data
db=bughouse_test
user=bughouse

log() { echo "postgres.sh: $*" >&2; }

pg_bin() { { ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true; } | sort -V | tail -n 1; }

bin=$(pg_bin)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    log "installing Debian's postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y postgresql >&2
    bin=$(pg_bin)
    [[ -n "$bin" && -x "$bin/initdb" ]] || { log "no initdb after installing postgresql"; exit 1; }
fi

# The cluster belongs to the `postgres` user (the server refuses to run as root).
if [[ $(id -u) -eq 0 ]]; then
    owner=postgres
    as_owner() { runuser -u postgres -- "$@"; }
else
    owner=$(id -un)
    as_owner() { "$@"; }
fi

# The port lies in Linux's range of ephemeral ports (32768-60999): a test's client connection
# (the load and websocket tests open thousands) may hold it, in TIME-WAIT, when the server
# starts, and the bind fails. As root, reserve it so that no client connection is given it.
if [[ $(id -u) -eq 0 && -w /proc/sys/net/ipv4/ip_local_reserved_ports ]]; then
    reserved=$(cat /proc/sys/net/ipv4/ip_local_reserved_ports)
    if [[ ",$reserved," != *",$port,"* ]]; then
        echo "${reserved:+$reserved,}$port" >/proc/sys/net/ipv4/ip_local_reserved_ports || true
    fi
fi

mkdir -p "$root"
[[ $(id -u) -ne 0 ]] || chown "$owner" "$root"
chmod 700 "$root"

if [[ ! -s "$data/PG_VERSION" ]]; then
    log "creating a cluster in $data"
    rm -rf "$data"
    # The password of the test role, kept beside the cluster so that later runs print the same URL.
    head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$root/password"
    [[ $(id -u) -ne 0 ]] || chown "$owner" "$root/password"
    chmod 600 "$root/password"
    # Local (socket) connections for the owner only, password (SCRAM) connections on loopback.
    as_owner "$bin/initdb" -D "$data" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >&2
    cat >>"$data/postgresql.conf" <<EOF
# bughouse test cluster (.ci/postgres.sh)
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$root'
EOF
fi

ready() { as_owner "$bin/pg_isready" -q -h "$root" -p "$port"; }
if ready; then
    log "reusing the cluster running in $data"
else
    # A lock file left by a server that is gone (the machine was restarted) names a process id
    # that may have been reused by now, which would stop the start: drop it.
    pidfile=$data/postmaster.pid
    if [[ -f "$pidfile" ]]; then
        pid=$(head -n 1 "$pidfile")
        if [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != postgres ]]; then
            log "removing the stale $pidfile"
            rm -f "$pidfile"
        fi
    fi
    log "starting the cluster in $data on 127.0.0.1:$port"
    if ! as_owner "$bin/pg_ctl" -D "$data" -l "$root/server.log" -w -t 60 start >&2; then
        log "the server did not start; its log:"
        tail -n 30 "$root/server.log" >&2 || true
        exit 1
    fi
fi

psql_admin() { as_owner "$bin/psql" -h "$root" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

password=$(cat "$root/password")
if [[ -z $(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$user'") ]]; then
    psql_admin -c "CREATE ROLE $user LOGIN PASSWORD '$password'" >&2
fi
if [[ -z $(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$db'") ]]; then
    psql_admin -c "CREATE DATABASE $db OWNER $user" >&2
fi

echo "export BUGHOUSE_TEST_POSTGRES_URL=postgres://$user:$password@127.0.0.1:$port/$db"
