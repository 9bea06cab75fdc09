#!/usr/bin/env python3
"""The difference between two arms of an A/B played on the same seeds.

usage: scripts/arena-paired.py SPEC_A PREFIX_A SPEC_B PREFIX_B

Reads PREFIX_A-SEED.bpgn and PREFIX_B-SEED.bpgn (what `bughouse arena --matches 2 --seed SEED
--out PREFIX-SEED.bpgn` writes for each arm) and, for every seed both arms finished (both
matches of the chunk), the score of the team whose player tag starts with SPEC_A (resp.
SPEC_B). Prints the arms' scores over those seeds and the mean per-seed difference A - B in
percentage points with a 95% interval (normal approximation over the seeds). Pairing by seed
removes the seats' and openings' share of the noise (the seed alternates the seats and drives
the weak levels' random choices).
"""
import glob
import math
import re
import statistics
import sys

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def seed_scores(prefix, spec):
    """Seed -> the team's score per match over a chunk both of whose matches finished."""
    out = {}
    for path in glob.glob(glob.escape(prefix) + "-*.bpgn"):
        found = re.search(r"-(\d+)\.bpgn$", path)
        if not found:
            continue
        pts = []
        for game in open(path, encoding="utf-8").read().split("[Event ")[1:]:
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            result = tags.get("Result")
            if result not in POINTS:
                continue
            white_a_ours = tags.get("WhiteA", "").startswith(spec)
            pts.append(POINTS[result] if white_a_ours else 1 - POINTS[result])
        if len(pts) == 2:
            out[int(found.group(1))] = sum(pts) / 2
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2])
    spec_a, prefix_a, spec_b, prefix_b = sys.argv[1:]
    a, b = seed_scores(prefix_a, spec_a), seed_scores(prefix_b, spec_b)
    seeds = sorted(set(a) & set(b))
    if len(seeds) < 2:
        sys.exit(f"only {len(seeds)} seed(s) finished in both arms")
    diffs = [100 * (a[s] - b[s]) for s in seeds]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    score_a = 100 * statistics.mean(a[s] for s in seeds)
    score_b = 100 * statistics.mean(b[s] for s in seeds)
    print(
        f"{len(seeds)} seeds ({seeds[0]}-{seeds[-1]}): A {score_a:.1f}%  B {score_b:.1f}%  "
        f"A-B {mean:+.1f} points (95% {mean - half:+.1f} to {mean + half:+.1f})"
    )


if __name__ == "__main__":
    main()
