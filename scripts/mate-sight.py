#!/usr/bin/env python3
"""Who sees the mates first: our engine or Fairy-Stockfish, on the same positions and the same
time. Reads the positions `bughouse tune positions --bpgn FILE...` wrote (`RESULT FEN` lines,
each decided game's deciding board in order), keeps the last LAST positions of each game (a
game ends where the next position's move number falls), samples N of them (seed 3), and asks
both engines through UCI (`go movetime MS`, variant bughouse) for their score. Positions with a
single legal move are left out (our engine plays it at once, after a search of depth 1).

A check no drop in hand can block but a piece from the partner could is no mate under the fide
preset (F3.7): the side to move must wait, and our engine scores it 1,500 down
(`WAITING_IN_CHECK`), where Fairy-Stockfish reports a mate. So a score of ours beyond ±1,000
on the side of Fairy-Stockfish's mate counts as seeing it. Prints how often one engine reports
a mate (ours: or such a score) the other does not see, how often one stands 300 units (each
engine's own unit) worse while the other stands at least level, and the correlation of the
scores (clipped to ±1000).

usage: scripts/mate-sight.py POSITIONS [--last 10] [--n 300] [--ms 200]
       [--ours target/release/bughouse] [--search NAME] [--fsf /usr/games/fairy-stockfish]

`--search NAME` sets our engine's search configuration (the UCI option `Search`, a name of
`SearchConfig::NAMED`).
"""
import argparse
import random
import re
import statistics
import subprocess


def engine(cmd, search=None):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(word):
        while word not in p.stdout.readline():
            pass

    send("uci")
    wait("uciok")
    send("setoption name UCI_Variant value bughouse")
    if search:
        send("setoption name Search value " + search)
    send("isready")
    wait("readyok")
    return p, send


def score(e, fen, ms):
    p, send = e
    send("position fen " + fen)
    send(f"go movetime {ms}")
    found = None
    while True:
        line = p.stdout.readline()
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if m:
            v = int(m.group(2))
            found = v if m.group(1) == "cp" else (10000 if v > 0 else -10000)
        if line.startswith("bestmove"):
            return found


def legal_moves(e, fen):
    p, send = e
    send("position fen " + fen)
    send("go perft 1")
    while True:
        line = p.stdout.readline()
        if line.startswith("Nodes searched"):
            return int(line.split(":")[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("--last", type=int, default=10)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--ours", default="target/release/bughouse")
    ap.add_argument("--search")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    games, cur, prev = [], [], 0
    for line in open(a.positions):
        fen = line.split(" ", 1)[1].strip()
        n = int(fen.split()[-1])
        if n < prev and cur:
            games.append(cur)
            cur = []
        cur.append(fen)
        prev = n
    if cur:
        games.append(cur)
    late = [f for g in games for f in g[-a.last:]]
    random.seed(3)
    sample = random.sample(late, min(a.n, len(late)))
    fsf, ours = engine([a.fsf]), engine([a.ours, "uci"], a.search)
    rows = []
    for fen in sample:
        if legal_moves(fsf, fen) < 2:
            continue
        x, y = score(fsf, fen, a.ms), score(ours, fen, a.ms)
        if x is not None and y is not None:
            rows.append((x, y))
    mate = lambda v: abs(v) >= 10000
    # Ours sees the mate: a mate, or the wait in check (1,500 down) or worse on that side.
    sees = lambda x, y: y * x > 0 and abs(y) >= 1000
    clip = lambda v: max(-1000, min(1000, v))
    print(f"{len(games)} games, {len(rows)} positions of their last {a.last} with two or more legal moves, {a.ms} ms each")
    print(f"Fairy-Stockfish reports a mate ours does not see: {sum(mate(x) and not sees(x, y) for x, y in rows)}")
    print(f"Fairy-Stockfish reports a mate, ours a wait in check or worse: {sum(mate(x) and sees(x, y) and not mate(y) for x, y in rows)}")
    print(f"ours reports a mate Fairy-Stockfish does not: {sum(mate(y) and not mate(x) for x, y in rows)}")
    print(f"Fairy-Stockfish -300 or worse, ours level or better: {sum(x <= -300 and y >= 0 for x, y in rows)}")
    print(f"ours -300 or worse, Fairy-Stockfish level or better: {sum(y <= -300 and x >= 0 for x, y in rows)}")
    print(f"correlation: {statistics.correlation([clip(x) for x, _ in rows], [clip(y) for _, y in rows]):.3f}")


main()
