#!/usr/bin/env python3
"""How our bot's arena matches were lost: reads BPGN files that `bughouse arena --out` wrote
(our bot's seats are those whose player tag starts with `bot`) and counts, over the matches
the bot's team lost, the way they ended (mate or flag), mates by a drop, mates after the mated
bot sat down to its floor (its last clock at most FLOOR seconds: 2.3 by default, the `drops` and
`clock` bots' floor of 2 s or 1 s; `--floor 0.8` for `race`, which sits to 0.5 s), and mates while the other board stood
still for a sixth of the base time or more with the opponents to move there (their partner
sat: a race of sitting), with whose clock was ahead when that board stopped (and when the
mated bot's was behind the sitter's, by how much, and the match time the sit began). Then the mean
thinking time per move (first 20 moves of each player) and the mean clocks at a third and a
half of the match's virtual time. Then the clocks at the mates (the mated bot's and its mater's,
medians), and our bot's holds of HOLD seconds or more on one move (8 by default: the sits of a
bot mated whatever it does, and long thinks) and how many of them came in matches it lost.

Each move's comment is its mover's clock after it; a board's virtual time at a move is the sum
of the time both its players have used, so the two boards' moves can be put on one timeline.

usage: scripts/arena-losses.py [--floor SECS] FILE.bpgn...
"""
import collections
import re
import sys

SEATS = {"A": "WhiteA", "a": "BlackA", "B": "WhiteB", "b": "BlackB"}


def games(path):
    text = open(path).read()
    for g in re.split(r"\n(?=\[Event )", text):
        if not g.strip():
            continue
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
        body = g[g.rfind("]") + 1 :]
        term = re.search(r"\{([^}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*$", body.strip())
        moves = re.findall(r"(\d+)([ABab])\.\s+(\S+)\s+\{([\d.]+)\}", body)
        yield tags, moves, term.group(1) if term else "?"


def timeline(tags, moves):
    base = float(tags["TimeControl"].split("+")[0])
    clock = {s: base for s in SEATS.values()}
    line = []
    for _, s, mv, c in moves:
        seat = SEATS[s]
        clock[seat] = float(c)
        b = s.upper()
        t = (base - clock["White" + b]) + (base - clock["Black" + b])
        line.append((t, seat, mv, float(c)))
    line.sort()
    return base, line


def clocks_at(line, base, t):
    c = {s: base for s in SEATS.values()}
    for x in line:
        if x[0] <= t:
            c[x[1]] = x[3]
    return c


HOLD = 8.0


def main(files, floor=2.3):
    count = collections.Counter()
    deficits, sit_starts = [], []
    mate_clocks = []
    holds = collections.Counter()
    think = {"bot": [], "other": []}
    at = {1 / 3: ([], []), 1 / 2: ([], [])}
    for path in files:
        for tags, moves, term in games(path):
            if not moves:
                continue
            bots = [s for s in SEATS.values() if tags[s].startswith("bot")]
            base, line = timeline(tags, moves)
            result = tags["Result"]
            lost_match = result != "1/2-1/2" and (result == "1-0") != ("WhiteA" in bots)
            prev = {s: base for s in SEATS.values()}
            n = collections.Counter()
            for _, s, _, c in moves:
                seat = SEATS[s]
                n[seat] += 1
                used = prev[seat] - float(c)
                if n[seat] <= 20:
                    think["bot" if seat in bots else "other"].append(used)
                if seat in bots and used >= HOLD:
                    holds["in lost matches" if lost_match else "in other matches"] += 1
                prev[seat] = float(c)
            for frac, (b, o) in at.items():
                if line[-1][0] >= 2 * base * frac:
                    c = clocks_at(line, base, 2 * base * frac)
                    b.append(sum(c[s] for s in bots) / 2)
                    o.append(sum(c[s] for s in SEATS.values() if s not in bots) / 2)
            count["matches"] += 1
            if result == "1/2-1/2":
                count["drawn"] += 1
                continue
            if not lost_match:
                count["won"] += 1
                continue
            count["lost"] += 1
            if "checkmated" not in term:
                count["lost: on time"] += 1
                # The bot that flagged: to move on its board, its flag falls at that board's
                # last move plus its clock; the other board stood still since its last move.
                for b in "AB":
                    on = [x for x in line if x[1][-1] == b]
                    off = [x for x in line if x[1][-1] != b]
                    if not on or not off:
                        continue
                    mover = ("Black" if on[-1][1].startswith("White") else "White") + b
                    if mover not in bots:
                        continue
                    flag = on[-1][0] + clocks_at(line, base, on[-1][0])[mover]
                    waiter = ("Black" if off[-1][1].startswith("White") else "White") + off[-1][1][-1]
                    if flag - off[-1][0] > base / 6 and waiter not in bots:
                        count["lost: on time while the opponents' partner sat"] += 1
                        break
                continue
            count["lost: mated"] += 1
            last = line[-1]
            mated = ("Black" if last[1].startswith("White") else "White") + last[1][-1]
            if "@" in last[2]:
                count["lost: mated by a drop"] += 1
            own = [x for x in line if x[1] == mated]
            mater = [x for x in line if x[1][-1] == mated[-1] and x[1] != mated]
            if own and mater:
                mate_clocks.append((own[-1][3], mater[-1][3]))
            if own and own[-1][3] <= floor:
                count["lost: mated after sitting down to the floor"] += 1
            other = [x for x in line if x[1][-1] != last[1][-1]]
            if not other:
                continue
            o = other[-1]
            waiter = ("Black" if o[1].startswith("White") else "White") + o[1][-1]
            if last[0] - o[0] > base / 6 and waiter not in bots:
                count["lost: mated while the opponents' partner sat"] += 1
                c = clocks_at(line, base, o[0])
                if c[mated] < c[waiter]:
                    count["  ... the mated bot had less time than the sitter"] += 1
                    deficits.append(c[waiter] - c[mated])
                    sit_starts.append(o[0])
    for k, v in count.items():
        print(f"{k}: {v}")
    if deficits:
        deficits.sort()
        sit_starts.sort()
        print(f"  ... by (median, range): {deficits[len(deficits) // 2]:.1f} s ({deficits[0]:.1f} to {deficits[-1]:.1f} s), "
              f"the sit from {sit_starts[len(sit_starts) // 2]:.1f} s of match time (median)")
    if mate_clocks:
        ours = sorted(m[0] for m in mate_clocks)
        theirs = sorted(m[1] for m in mate_clocks)
        print(f"clocks at our mates ({len(mate_clocks)}, medians): the mated bot {ours[len(ours) // 2]:.1f} s, "
              f"its mater {theirs[len(theirs) // 2]:.1f} s")
    print(f"our bot's holds of {HOLD:.0f} s or more on one move: {sum(holds.values())} "
          f"({holds['in lost matches']} in matches it lost)")
    b, o = think["bot"], think["other"]
    if b and o:
        print(f"think per move, first 20 moves: bot {sum(b)/len(b):.3f} s, other {sum(o)/len(o):.3f} s")
    for frac, (b, o) in at.items():
        if b and o:
            print(f"clocks at {frac:.2f} of the match time ({len(b)} matches): bot {sum(b)/len(b):.1f} s, other {sum(o)/len(o):.1f} s")


if __name__ == "__main__":
    args = sys.argv[1:]
    floor = 2.3
    if args[:1] == ["--floor"]:
        if len(args) < 2:
            sys.exit("usage: scripts/arena-losses.py [--floor SECS] FILE.bpgn...")
        floor = float(args[1])
        args = args[2:]
    main(args, floor)
