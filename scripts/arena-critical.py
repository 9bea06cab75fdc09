#!/usr/bin/env python3
"""Where our bot's lost matches were lost: for each match our bot's team lost by a mate, walks
back from the mate over the positions of the mated board where our bot was to move and asks
Fairy-Stockfish for its score of each (`go movetime MS`, our side's point of view), until one
scores better than THRESHOLD (-400 of its units, about -190 centipawns, by default). That
position is the match's critical position: from there on Fairy-Stockfish scored us worse than
the threshold at every move to the mate. Writes the critical positions as `0 FEN` lines (the
positions file `scripts/move-quality.py` reads) and prints how many of our moves lay between
each critical position and the mate, and how often the score fell past -1,500 at once.

The positions come from `bughouse tune positions --bpgn FILE...` run on the same files in the
same order (the deciding board of each decided match, after its first 6 plies).

usage: bughouse tune positions --bpgn A.bpgn --bpgn B.bpgn ... --out POSITIONS
       scripts/arena-critical.py POSITIONS A.bpgn B.bpgn ... --out CRITICAL [--ms 250]
       [--threshold -400] [--fsf /usr/games/fairy-stockfish]
       scripts/move-quality.py CRITICAL ours:200 ours:1000 fsf:200 --n 1000
"""
import argparse
import collections
import importlib.util
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mq", os.path.join(HERE, "move-quality.py"))
mq = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mq)


def decided(paths):
    """(file, how it ended) of each decided match, in order."""
    for path in paths:
        for g in re.split(r"\n(?=\[Event )", open(path).read()):
            m = re.search(r"\{([^}]*)\}\s*(1-0|0-1)\s*$", g.strip())
            if m:
                yield path, m.group(1)


def games(path):
    """The positions file's games: a game ends where the next position's move number falls."""
    out, cur, last = [], [], None
    for line in open(path):
        result, fen = line.split(" ", 1)
        fen = fen.strip()
        n = int(fen.split()[-1])
        if cur and n < last:
            out.append(cur)
            cur = []
        cur.append((result, fen))
        last = n
    if cur:
        out.append(cur)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("bpgn", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ms", type=int, default=250)
    ap.add_argument("--threshold", type=int, default=-400)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    matches = list(decided(a.bpgn))
    gs = games(a.positions)
    if len(matches) != len(gs):
        raise SystemExit(f"{len(matches)} decided matches but {len(gs)} games in {a.positions}: "
                         "give the BPGN files in the order `bughouse tune positions` read them")
    fsf = mq.Engine([a.fsf])
    lengths, sudden, critical = [], 0, []
    for (path, end), g in zip(matches, gs):
        if not (end.startswith("bot") and end.endswith("checkmated")):
            continue
        loser = "w" if g[0][0] == "0" else "b"
        ours = [fen for _, fen in g if fen.split()[1] == loser]
        scores = []
        for fen in reversed(ours):
            try:
                _, s = fsf.go(mq.engine_fen(fen), a.ms)
            except mq.EngineDied:
                fsf.restart()
                s = None
            scores.insert(0, (fen, s))
            if s is not None and s > a.threshold:
                break
        lengths.append(len(scores))
        if len(scores) > 1 and scores[1][1] is not None and scores[1][1] <= -1500:
            sudden += 1
        critical.append(scores[0][0])
        print(path, [s for _, s in scores], flush=True)
    with open(a.out, "w") as f:
        for fen in critical:
            f.write("0 " + fen + "\n")
    print(f"{len(critical)} matches lost by a mate; our moves from the critical position to the "
          f"mate: median {statistics.median(lengths)}; fell past -1500 at the next move: {sudden}")
    print("histogram:", sorted(collections.Counter(lengths).items()))


if __name__ == "__main__":
    main()
