#!/usr/bin/env python3
"""When the other team first thought long: reads BPGN files that `bughouse arena --out` wrote
(our bot's seats are those whose player tag starts with `bot`) and finds, in each match, the
first move of the other team's made after a think of at least SECS seconds (a sit, or a long
search), with the match time then (the later board's virtual time: the sum of the time both
its players have used). Prints how many matches had one, and the quantiles of its time.

A sit that the mate on the other board ends leaves no move, so it is not counted: this tells
how early a bot could have *seen* an opponent sit, not how often one sat.

usage: scripts/arena-first-sit.py SECS FILE.bpgn...
"""
import re
import sys

SEATS = {"A": "WhiteA", "a": "BlackA", "B": "WhiteB", "b": "BlackB"}


def base_of(tags):
    tc = tags.get("TimeControl", "60+0")
    return float(tc.split("+")[0])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    secs = float(sys.argv[1])
    firsts, matches = [], 0
    for path in sys.argv[2:]:
        text = open(path).read()
        for game in text.split("[Event ")[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            ours = {s for s in SEATS.values() if tags.get(s, "").startswith("bot")}
            base = base_of(tags)
            clock = {s: base for s in SEATS.values()}
            matches += 1
            for _, board, _, left in re.findall(r"(\d+)([AaBb])\. (\S+) \{([\d.]+)\}", game):
                seat = SEATS[board]
                think = clock[seat] - float(left)
                clock[seat] = float(left)
                if seat not in ours and think >= secs:
                    used = [2 * base - clock["White" + b] - clock["Black" + b] for b in "AB"]
                    firsts.append(max(used))
                    break
    print(f"matches {matches}; with a think of the other team's of {secs} s or more: {len(firsts)}")
    if firsts:
        firsts.sort()
        qs = [firsts[min(len(firsts) - 1, int(len(firsts) * q))] for q in (0.1, 0.25, 0.5, 0.75, 0.9)]
        print("match time of the first, quantiles 10/25/50/75/90%: " + " ".join(f"{t:.1f}" for t in qs) + " s")


if __name__ == "__main__":
    main()
