#!/usr/bin/env bash
# The end-to-end test: the real server (release build, a fresh SQLite file, a free port) and four
# players in Debian's chromium, driven by playwright-core, playing a bughouse match to a drop mate
# through the web front end. Screenshots and the server log go to e2e/artifacts/.
#
# Needs: cargo, Node.js 20+ with npm, and /usr/bin/chromium (installed with apt-get when missing).
# playwright-core never downloads a browser; this script uses the system's chromium only.
set -euo pipefail
e2e="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$e2e/.." && pwd)"

if [ ! -x /usr/bin/chromium ]; then
    echo "e2e: installing chromium" >&2
    sudo=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium
fi

(cd "$e2e" && npm ci --no-audit --no-fund)
(cd "$root" && cargo build --release -p bughouse-cli)
bin="${CARGO_TARGET_DIR:-$root/target}/release/bughouse"

mkdir -p "$e2e/artifacts"
tmp="$(mktemp -d)"
port="$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
"$bin" serve --addr "127.0.0.1:$port" --database "sqlite://$tmp/e2e.db" >"$e2e/artifacts/server.log" 2>&1 &
server=$!
stop() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$tmp"
}
trap stop EXIT

# Wait until the server answers (it binds at once; a fresh database takes a moment to migrate).
url="http://127.0.0.1:$port"
ready=""
for _ in $(seq 1 300); do
    if node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/api/archive?limit=1"; then
        ready=1
        break
    fi
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$ready" ]; then
    echo "e2e: the server does not answer on $url; its log:" >&2
    cat "$e2e/artifacts/server.log" >&2
    exit 1
fi

cd "$e2e"
BUGHOUSE_URL="$url" node --test --test-reporter=spec tests/
