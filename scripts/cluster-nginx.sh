#!/usr/bin/env bash
# Three nodes of a cluster behind Debian's nginx, with the nginx configuration of
# docs/cluster.md (read from it), on the private PostgreSQL and Redis of .ci/: checks that a
# tournament, "play now" and matches work through nginx, and measures the latency of "play now"
# through nginx, on the three nodes in turn, and on a single server (no --bus) for comparison.
#
# Usage: scripts/cluster-nginx.sh [BINARY (target/release/bughouse)] [PLAYERS (60)]
# Installs Debian's nginx when missing. Ports 8201-8203 (nodes), 8209 (single), 8280 (nginx).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bin=${1:-target/release/bughouse}
players=${2:-60}
if ! command -v nginx >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq nginx
fi
eval "$(bash .ci/postgres.sh 2>/dev/null)"
eval "$(bash .ci/redis.sh 2>/dev/null)"
work=$(mktemp -d /tmp/bughouse-cluster-nginx.XXXXXX)
schema=cluster_nginx_$(date +%s)_$$
psql "$BUGHOUSE_TEST_POSTGRES_URL" -qc "CREATE SCHEMA $schema; CREATE SCHEMA ${schema}_single"
sep='?'
case $BUGHOUSE_TEST_POSTGRES_URL in *\?*) sep='&' ;; esac
cluster_db="$BUGHOUSE_TEST_POSTGRES_URL${sep}options=-c%20search_path%3D$schema"
single_db="$BUGHOUSE_TEST_POSTGRES_URL${sep}options=-c%20search_path%3D${schema}_single"

pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
}
trap cleanup EXIT

for n in 1 2 3; do
    "$bin" serve --addr 127.0.0.1:820$n --database "$cluster_db" \
        --bus "$BUGHOUSE_TEST_REDIS_URL" --node-id "nginx$n-$$" 2>"$work/node$n.log" &
    pids+=($!)
done
"$bin" serve --addr 127.0.0.1:8209 --database "$single_db" 2>"$work/single.log" &
pids+=($!)

# The configuration of docs/cluster.md, on this script's ports, inside a whole nginx.conf.
{
    echo "worker_processes 1; pid $work/nginx.pid; error_log $work/error.log;"
    echo "events { worker_connections 1024; }"
    echo "http { access_log off;"
    for t in client_body proxy fastcgi uwsgi scgi; do echo "${t}_temp_path $work/$t;"; done
    sed -n '/^```nginx$/,/^```$/p' docs/cluster.md | sed '1d;$d' |
        sed -e 's/127\.0\.0\.1:810/127.0.0.1:820/' -e 's/listen 8080;/listen 127.0.0.1:8280;/'
    echo "}"
} >"$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work"

for port in 8201 8202 8203 8209 8280; do
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$port/api/archive?limit=1" >/dev/null && break
        sleep 0.2
    done
done
px=http://127.0.0.1:8280
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

echo "== a tournament through nginx (each request to whichever node nginx picks)"
created=$(curl -sf -X POST -H 'content-type: application/json' \
    -d '{"name":"Nginx cup","preset":"fide","format":"round-robin","time_control":"3+0"}' \
    "$px/api/tournaments")
id=$(echo "$created" | json '["tournament_id"]')
secret=$(echo "$created" | json '["organiser_secret"]')
for t in Ants Bees Cats Dogs; do
    curl -sf -X POST -H 'content-type: application/json' -H "Authorization: Bearer $secret" \
        -d "{\"name\":\"$t\",\"first\":{\"name\":\"${t}1\"},\"second\":{\"name\":\"${t}2\"}}" \
        "$px/api/tournaments/$id/teams" >/dev/null
done
curl -sf -X POST -H 'content-type: application/json' -H "Authorization: Bearer $secret" \
    -d '{"online":true}' "$px/api/tournaments/$id/rounds" >/dev/null
seen=$(for _ in 1 2 3 4 5 6; do
    curl -sf "$px/api/tournaments/$id" | python3 -c 'import json,sys
t = json.load(sys.stdin)
print(t["updated_at"], len(t["teams"]), len(t["rounds"]),
      all(p["match_id"] for p in t["rounds"][0]["pairings"]))'
done | sort | uniq -c)
echo "6 reads through nginx (count, version, teams, rounds, server matches): $seen"

echo "== play now: $players players, each a POST /api/lobby/play (sequential)"
measure() { # LABEL URL...
    local label=$1
    shift
    local urls=("$@") i=0
    for i in $(seq "$players"); do
        local u=${urls[$((i % ${#urls[@]}))]}
        curl -s -o /dev/null -w '%{time_total}\n' -X POST -H 'content-type: application/json' \
            -d "{\"rules\":\"fide\",\"time_control\":\"3+0\",\"name\":\"p$i\"}" "$u/api/lobby/play"
    done | python3 -c "
import sys
t = sorted(float(x) * 1000 for x in sys.stdin)
p = lambda q: t[min(len(t) - 1, int(q * len(t)))]
print(f'$label: {len(t)} requests, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {t[-1]:.1f} ms')"
}
measure "single server (no --bus)" http://127.0.0.1:8209
measure "cluster, the three nodes in turn" http://127.0.0.1:8201 http://127.0.0.1:8202 http://127.0.0.1:8203
measure "cluster, through nginx" "$px"
lobby=$(curl -sf "$px/api/lobby" | python3 -c \
    'import json,sys; l=json.load(sys.stdin); print(len(l["open"]), "open,", len(l["live"]), "live")')
echo "lobby through nginx after the cluster's $((2 * players)) players: $lobby"

echo "== matches through nginx"
"$bin" loadtest --server "$px" --matches 20 --duration 15 2>&1 | tail -n 12
echo "logs: $work"
