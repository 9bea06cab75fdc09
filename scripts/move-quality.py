#!/usr/bin/env python3
"""How good the moves are that each engine picks in a given time, judged by Fairy-Stockfish
thinking longer (the oracle). Reads positions as `bughouse tune positions` writes them
(`RESULT FEN` lines), samples N of them (`--seed`, default 5) that have two or more legal moves, and for
each asks the oracle (`go movetime ORACLE`, variant bughouse) for its best move and score,
then each player for its move in its time, then the oracle for the score of each player's move
when it differs (`go movetime ORACLE searchmoves MOVE`). A move's loss is the oracle's best
score minus that move's score, in Fairy-Stockfish's units (about 2.1 a centipawn), a mate
counted as 3,000 and each loss capped at 1,000. Positions the oracle scores beyond ±1,500 are
left out (decided). Prints for each player the mean loss, the share of its moves that lose
more than 150 (a mistake) and more than 400 (a blunder), and how often it picked the
oracle's move, and for each player after the first the mean difference of its losses from
the first player's, paired by position, with a 95% interval. The oracle judges each move once
per position, so players that chose the same move lose the same.

PLAYER is `ours:MS[:SEARCH[:WEIGHTS]]` (our engine, `bughouse uci`, with a search configuration
by name, `default` for the default, and a weights file of `bughouse tune`) or `fsf:MS`
(Fairy-Stockfish).

usage: scripts/move-quality.py POSITIONS PLAYER... [--n 300] [--oracle 1000] [--seed 5]
       [--ours target/release/bughouse] [--fsf /usr/games/fairy-stockfish] [--mistakes FILE]

`--mistakes FILE` writes each move that lost more than 150, with the oracle's move and both
scores.
"""
import argparse
import random
import re
import subprocess

MATE = 3000


class EngineDied(Exception):
    """The engine closed its output (it crashed on a position)."""


class Engine:
    def __init__(self, cmd, search=None, weights=None):
        self.cmd, self.search, self.weights = cmd, search, weights
        self.start()

    def start(self):
        cmd, search, weights = self.cmd, self.search, self.weights
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value bughouse")
        if search:
            self.send("setoption name Search value " + search)
        if weights:
            self.send("setoption name EvalFile value " + weights)
        self.send("isready")
        self.wait("readyok")

    def restart(self):
        self.p.kill()
        self.p.wait()
        self.start()

    def send(self, s):
        try:
            self.p.stdin.write(s + "\n")
            self.p.stdin.flush()
        except BrokenPipeError as e:
            raise EngineDied() from e

    def line(self):
        line = self.p.stdout.readline()
        if not line:
            raise EngineDied()
        return line

    def wait(self, word):
        while word not in self.line():
            pass

    def go(self, fen, ms=None, searchmoves=None, nodes=None):
        """(best move, score for the side to move) after `go movetime MS` (or `go nodes
        NODES`), from a new game."""
        self.send("ucinewgame")
        self.send("position fen " + fen)
        limit = f"nodes {nodes}" if nodes is not None else f"movetime {ms}"
        self.send(f"go {limit}" + (f" searchmoves {searchmoves}" if searchmoves else ""))
        score = None
        while True:
            line = self.line()
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (MATE if v > 0 else -MATE)
            if line.startswith("bestmove"):
                return line.split()[1], score

    def legal_moves(self, fen):
        self.send("position fen " + fen)
        self.send("go perft 1")
        while True:
            line = self.line()
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1])


def engine_fen(fen):
    """The FEN with castling rights only where king and rook stand on their squares: our rules
    keep a right for a rook dropped into an empty corner later, which X-FEN (and so
    Fairy-Stockfish, which dies on some such positions) reads otherwise (as the arena's
    `uci_fen` does)."""
    board, rest = fen.split(" ", 1)
    fields = rest.split(" ")
    if len(fields) < 2:
        return fen
    rows = board.split("[")[0].split("/")

    def at(square):
        file, rank = "abcdefgh".index(square[0]), int(square[1])
        row = rows[8 - rank].replace("~", "")
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
            else:
                if col == file:
                    return ch
                col += 1
        return None

    keep = {"K": ("e1", "K", "h1", "R"), "Q": ("e1", "K", "a1", "R"),
            "k": ("e8", "k", "h8", "r"), "q": ("e8", "k", "a8", "r")}
    rights = "".join(c for c in fields[1] if c in keep and at(keep[c][0]) == keep[c][1]
                     and at(keep[c][2]) == keep[c][3])
    fields[1] = rights or "-"
    return board + " " + " ".join(fields)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("players", nargs="+")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--oracle", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--mistakes", help="write each move losing more than 150 here")
    ap.add_argument("--ours", default="target/release/bughouse")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    fens = [engine_fen(line.split(" ", 1)[1].strip()) for line in open(a.positions)]
    random.seed(a.seed)
    random.shuffle(fens)
    oracle = Engine([a.fsf])
    players = []
    for spec in a.players:
        kind, ms, *rest = spec.split(":")
        cmd = [a.ours, "uci"] if kind == "ours" else [a.fsf]
        search = rest[0] if rest else None
        weights = rest[1] if len(rest) > 1 else None
        players.append((spec, int(ms), Engine(cmd, search, weights)))
    losses = {spec: [] for spec, _, _ in players}
    same = {spec: 0 for spec, _, _ in players}
    done = 0
    dump = open(a.mistakes, "w") if a.mistakes else None
    crashed = 0
    for fen in fens:
        if done >= a.n:
            break
        try:
            if oracle.legal_moves(fen) < 2:
                continue
            best, top = oracle.go(fen, a.oracle)
            if top is None or abs(top) > 1500:
                continue
            # Every player's move first: a position an engine dies on is left out for all.
            moves = {spec: e.go(fen, ms)[0] for spec, ms, e in players}
        except EngineDied:
            crashed += 1
            print(f"an engine died on {fen}: left out", flush=True)
            for e in [oracle] + [e for _, _, e in players]:
                e.restart()
            continue
        done += 1
        # The oracle judges each move once: players that chose the same move lose the same.
        judged = {best: top}
        for spec, ms, e in players:
            mv = moves[spec]
            if mv == best:
                losses[spec].append(0)
                same[spec] += 1
                continue
            if mv not in judged:
                try:
                    judged[mv] = oracle.go(fen, a.oracle, mv)[1]
                except EngineDied:
                    oracle.restart()
                    judged[mv] = None
            s = judged[mv]
            loss = 0 if s is None else max(0, min(1000, top - s))
            losses[spec].append(loss)
            if dump and loss > 150:
                print(f"{spec} played {mv} ({s}), oracle {best} ({top}): {fen}", file=dump,
                      flush=True)
    print(f"{done} positions, oracle Fairy-Stockfish {a.oracle} ms"
          + (f", {crashed} left out (an engine died)" if crashed else ""))
    print(f"{'player':<24} {'mean loss':>9} {'>150':>6} {'>400':>6} {'oracle move':>11}")
    for spec, _, _ in players:
        ls = losses[spec]
        n = len(ls)
        print(f"{spec:<24} {sum(ls) / n:9.1f} {sum(x > 150 for x in ls) / n:6.1%} "
              f"{sum(x > 400 for x in ls) / n:6.1%} {same[spec] / n:11.1%}")
    # Each player against the first, paired by position: the mean difference of the losses
    # and its 95% interval (normal approximation).
    first = players[0][0]
    for spec, _, _ in players[1:]:
        d = [x - y for x, y in zip(losses[spec], losses[first])]
        n = len(d)
        if n < 2:
            continue
        mean = sum(d) / n
        sd = (sum((x - mean) ** 2 for x in d) / (n - 1)) ** 0.5
        half = 1.96 * sd / n ** 0.5
        print(f"{spec} - {first}: {mean:+.1f} (95% {mean - half:+.1f} to {mean + half:+.1f}), "
              f"{n} positions")


if __name__ == "__main__":
    main()
