#!/usr/bin/env bash
# Measures our bot against Fairy-Stockfish in bughouse: `bughouse arena` with team1 our bot,
# team2 two Fairy-Stockfish processes, in virtual time (docs/arena.md).
#
# Usage: scripts/arena-vs-fairy-stockfish.sh [MATCHES (100)] [TIME (1+0)] [LEVEL (default)]
# Installs the Debian package fairy-stockfish when /usr/games/fairy-stockfish is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

matches=${1:-100}
time=${2:-1+0}
bot=bot${3:+:$3}
engine=/usr/games/fairy-stockfish

if [ ! -x "$engine" ]; then
    echo "installing fairy-stockfish" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq fairy-stockfish
fi

cargo build --release -p bughouse-cli
mkdir -p target/arena
out=target/arena/bot-vs-fairy-stockfish.bpgn
./target/release/bughouse arena --team1 "$bot" --team2 "uci:$engine" \
    --matches "$matches" --time "$time" --out "$out"
echo "games written to $out" >&2
