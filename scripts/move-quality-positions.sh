#!/usr/bin/env bash
# The positions of scripts/move-quality.py: those `bughouse tune positions` takes from the
# deciding board of the human games in ../shared/data/bpgn (FICS 2005, bughousedb) and of the
# arena matches in crates/tune/tests/data/arena-1m.bpgn, one `RESULT FEN` line each.
#
#   scripts/move-quality-positions.sh [OUT]     # default target/move-quality/positions.txt
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-target/move-quality/positions.txt}
bin=${BUGHOUSE_BIN:-target/release/bughouse}
[[ -x $bin ]] || cargo build --release -p bughouse-cli
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in ../shared/data/bpgn/fics-2005.bpgn ../shared/data/bpgn/bughousedb-*.bpgn \
    crates/tune/tests/data/arena-1m.bpgn; do
    "$bin" tune positions --bpgn "$f" --out "$tmp/$(basename "$f" .bpgn).txt" >&2
done
cat "$tmp"/fics-2005.txt "$tmp"/bughousedb-*.txt "$tmp"/arena-1m.txt > "$out"
echo "$(wc -l < "$out") positions in $out"
