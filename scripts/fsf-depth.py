#!/usr/bin/env python3
"""The depth Fairy-Stockfish reaches in a fixed number of nodes, over the positions of a file
as `bughouse tune positions` writes them (`RESULT FEN` lines): every EVERY-th position, each
with `go nodes NODES` (variant bughouse) after `ucinewgame`. Prints the mean and median of its
last reported depth and seldepth, and how many positions reached each depth: the figure to
hold against our engine's `cargo run --release -p bughouse-engine --example depth FILE NODES
EVERY NAME...` (its depth counts plies differently, so the comparison is rough).

usage: scripts/fsf-depth.py POSITIONS NODES EVERY [--fsf /usr/games/fairy-stockfish]
"""
import argparse
import collections
import importlib.util
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("move_quality", os.path.join(HERE, "move-quality.py"))
move_quality = importlib.util.module_from_spec(spec)
spec.loader.exec_module(move_quality)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("nodes", type=int)
    ap.add_argument("every", type=int)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    with open(args.positions) as f:
        lines = [line for line in f.read().splitlines() if " " in line][::max(args.every, 1)]
    engine = move_quality.Engine([args.fsf])
    depths, seldepths = [], []
    for line in lines:
        fen = move_quality.engine_fen(line.split(" ", 1)[1])
        engine.send("ucinewgame")
        engine.send("position fen " + fen)
        engine.send(f"go nodes {args.nodes}")
        last = None
        while True:
            out = engine.line()
            m = re.search(r"info depth (\d+) seldepth (\d+)", out)
            if m and " pv " in out:
                last = (int(m.group(1)), int(m.group(2)))
            if out.startswith("bestmove"):
                break
        if last:
            depths.append(last[0])
            seldepths.append(last[1])
    engine.send("quit")
    print(f"Fairy-Stockfish at {args.nodes} nodes over {len(depths)} positions: depth mean "
          f"{statistics.mean(depths):.2f} median {statistics.median(depths)}, seldepth mean "
          f"{statistics.mean(seldepths):.2f} median {statistics.median(seldepths)}")
    print("positions by depth:", " ".join(f"d{d}:{n}" for d, n in
                                          sorted(collections.Counter(depths).items())))


if __name__ == "__main__":
    main()
