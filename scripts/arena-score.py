#!/usr/bin/env python3
"""The score of a team over BPGN files that `bughouse arena --out` wrote: every finished match
counts (a chunk stopped part-way gives the matches it wrote). The team is the seats whose
player tag equals SPEC (e.g. `bot:8?search=race`) or, with `--prefix`, starts with it. Prints
won-drawn-lost, the score, its 95% Wilson interval and the Elo difference (the logistic
transform of the score and of the interval's ends). A match's `Result` is from the side of
WhiteA's team (WhiteA + BlackB): `1-0` that team won.

usage: scripts/arena-score.py [--prefix] SPEC FILE.bpgn...
"""
import math
import re
import sys


def elo(p):
    if p <= 0 or p >= 1:
        return -math.inf if p <= 0 else math.inf
    return -400 * math.log10(1 / p - 1)


def wilson(points, n, z=1.96):
    p = points / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main(args):
    prefix = args and args[0] == "--prefix"
    if prefix:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    spec, files = args[0], args[1:]
    won = drawn = lost = 0
    for path in files:
        for g in re.split(r"\n(?=\[Event )", open(path).read()):
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
            if "Result" not in tags or tags["Result"] == "*":
                continue
            ours = [s for s in ("WhiteA", "BlackA", "WhiteB", "BlackB")
                    if (tags.get(s, "").startswith(spec) if prefix else tags.get(s) == spec)]
            if not ours:
                continue
            white_a_team = "WhiteA" in ours
            r = tags["Result"]
            if r == "1/2-1/2":
                drawn += 1
            elif (r == "1-0") == white_a_team:
                won += 1
            else:
                lost += 1
    n = won + drawn + lost
    if n == 0:
        sys.exit("no finished match of " + spec)
    points = won + drawn / 2
    lo, hi = wilson(points, n)
    print(f"{spec}: {n} matches, {won}-{drawn}-{lost}, {points:g} ({100 * points / n:.1f}%), "
          f"95% {100 * lo:.1f}-{100 * hi:.1f}%, Elo {elo(points / n):+.0f} "
          f"({elo(lo):+.0f} to {elo(hi):+.0f})")


if __name__ == "__main__":
    main(sys.argv[1:])
