#!/usr/bin/env bash
# A private Redis for the cluster tests (crates/cli/tests/cluster.rs): installs Debian's
# redis-server when missing, starts one of its own on 127.0.0.1 (port $BUGHOUSE_REDIS_PORT, 56379
# unless set) with its data under /tmp, and prints
#
#     export BUGHOUSE_TEST_REDIS_URL=redis://127.0.0.1:PORT
#
# on stdout (everything else goes to stderr). Use it as
#
#     redis_env=$(bash .ci/redis.sh) && eval "$redis_env"
#
# Idempotent: a second run reuses the running server. Stop it with:
# redis-cli -p 56379 shutdown nosave
set -euo pipefail

port=${BUGHOUSE_REDIS_PORT:-56379}
root=/tmp/bughouse-redis-$port

log() { echo "redis.sh: $*" >&2; }

if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    log "installing Debian's redis-server"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y redis-server >&2
fi

if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
    log "reusing the server on 127.0.0.1:$port"
else
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
    log "starting a server on 127.0.0.1:$port (data in $root)"
    # Loopback only, no snapshots (the tests' leases and relays need no persistence).
    redis-server --bind 127.0.0.1 --port "$port" --dir "$root" --save '' --appendonly no \
        --daemonize yes --logfile "$root/server.log" --pidfile "$root/redis.pid" >&2
    for _ in $(seq 1 100); do
        if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
            break
        fi
        sleep 0.1
    done
    redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG || {
        log "the server did not start; its log:"
        tail -n 30 "$root/server.log" >&2 || true
        exit 1
    }
fi

echo "export BUGHOUSE_TEST_REDIS_URL=redis://127.0.0.1:$port"
