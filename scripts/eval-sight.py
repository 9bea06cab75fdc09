#!/usr/bin/env python3
"""How well each evaluation foresees the outcome: for the positions `cargo run --release -p
bughouse-engine --example evals POSITIONS NODES EVERY > OURS.tsv` wrote (our static evaluation,
quiescence score and search score at NODES nodes, side to move), asks Fairy-Stockfish for its
static evaluation (`eval`), its score at the same node count (`go nodes NODES`) and its score
at `--oracle` milliseconds (`go movetime`, the reference), each after `ucinewgame`. Prints the
Spearman rank correlation of each with the reference, over every position and over those the
reference scores within +-1,500 of its units (not decided), and with the match result of the
positions file (the side to move's: 1, 0.5, 0), which no engine judged.

The reference is Fairy-Stockfish's own search: its static evaluation shares that judgement, so
its correlation with the reference overstates it. The match result is the unbiased, noisy check.
Positions in check are left out (Fairy-Stockfish has no static evaluation there).

usage: scripts/eval-sight.py POSITIONS OURS.tsv NODES EVERY [--oracle 1000]
       [--fsf /usr/games/fairy-stockfish] [--worst K]
"""
import argparse
import importlib.util
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("move_quality", os.path.join(HERE, "move-quality.py"))
mq = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mq)

MATE = mq.MATE


def static(engine, fen, white_to_move):
    engine.send("position fen " + fen)
    engine.send("eval")
    engine.send("isready")
    value = None
    while True:
        line = engine.line()
        m = re.search(r"(Final|Total) evaluation:?\s+([-+]?\d+\.\d+)", line)
        if m:
            value = float(m.group(2)) * 100
        if line.startswith("readyok"):
            break
    if value is None:
        return None
    return value if white_to_move else -value


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("ours")
    ap.add_argument("nodes", type=int)
    ap.add_argument("every", type=int)
    ap.add_argument("--oracle", type=int, default=1000)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--worst", type=int, default=0,
                    help="print the K positions where our search differs most from the reference")
    args = ap.parse_args()
    # The match result of each position, in the order the example read them.
    results = {}
    with open(args.positions) as f:
        for line in f.read().splitlines()[::max(args.every, 1)]:
            if " " in line:
                result, fen = line.split(" ", 1)
                results.setdefault(fen, float(result))
    engine = mq.Engine([args.fsf])
    rows = []
    with open(args.ours) as f:
        for line in f:
            fen, ours_static, ours_quiet, ours_search = line.rstrip("\n").split("\t")
            efen = mq.engine_fen(fen)
            white = fen.split(" ")[1] == "w"
            fsf_static = static(engine, efen, white)
            if fsf_static is None:
                continue
            fsf_search = engine.go(efen, nodes=args.nodes)[1]
            reference = engine.go(efen, args.oracle)[1]
            if fsf_search is None or reference is None:
                continue
            result = results.get(fen, 0.5)
            rows.append({
                "fen": fen,
                "our static": int(ours_static),
                "our quiescence": int(ours_quiet),
                f"our search, {args.nodes} nodes": max(-MATE, min(MATE, int(ours_search))),
                "FSF static": fsf_static,
                f"FSF search, {args.nodes} nodes": fsf_search,
                "reference": reference,
                "result": result if white else 1 - result,
            })
    names = [k for k in rows[0] if k not in ("fen", "reference", "result")] if rows else []
    print(f"reference: Fairy-Stockfish at {args.oracle} ms; Spearman rank correlations")
    print(f"{'':30} {'reference':>10} {'ref, undecided':>15} {'result':>8}")
    undecided = [r for r in rows if abs(r["reference"]) < 1500]
    for name in names + ["reference"]:
        col = [spearman([r[name] for r in rows], [r["reference"] for r in rows]),
               spearman([r[name] for r in undecided], [r["reference"] for r in undecided]),
               spearman([r[name] for r in rows], [r["result"] for r in rows])]
        print(f"{name:30} {col[0]:>10.3f} {col[1]:>15.3f} {col[2]:>8.3f}")
    print(f"{len(rows)} positions, {len(undecided)} undecided")
    if args.worst:
        key = f"our search, {args.nodes} nodes"
        rank_ours = ranks([r[key] for r in rows])
        rank_ref = ranks([r["reference"] for r in rows])
        worst = sorted(range(len(rows)), key=lambda i: -abs(rank_ours[i] - rank_ref[i]))
        for i in worst[:args.worst]:
            r = rows[i]
            print(f"{r['fen']}  ours: static {r['our static']} search {r[key]}; "
                  f"FSF: static {r['FSF static']:.0f} reference {r['reference']}")


if __name__ == "__main__":
    main()
