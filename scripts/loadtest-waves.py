#!/usr/bin/env python3
"""How the latency of a load test moves within the run, from the moves the load tool traced.

    BUGHOUSE_LOADTEST_TRACE=/tmp/tr bughouse loadtest ...   # each worker writes /tmp/tr.PID
    scripts/loadtest-waves.py /tmp/tr [FROM_MS [TO_MS]]

FROM_MS (default 30,000: after a ramp of 20,000 connections at 1,000 a second) and TO_MS bound
the moves read by their arrival. Each worker's times count from its own start (the workers
start within a few milliseconds of each other). Every FILE.* is read: give each run a fresh
FILE (the files read are listed). Prints the latency over the window, the moves arriving per 100 ms (even arrivals
have a narrow spread; players that all move a fixed time after their turn come in waves), the
share of slow moves and the windows they fall in, and a timeline of the median per 100 ms.
"""
import collections
import glob
import sys


def main():
    prefix = sys.argv[1]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 30_000
    end = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 31
    rows = []
    names = sorted(glob.glob(prefix + ".*"))
    print("read:", " ".join(names))
    for name in names:
        with open(name) as f:
            for line in f:
                at, us = line.split()
                if start <= int(at) < end:
                    rows.append((int(at), int(us)))
    if not rows:
        sys.exit(f"no moves traced in {prefix}.* between {start} and {end} ms")
    lat = sorted(us for _, us in rows)
    q = lambda xs, p: xs[min(len(xs) - 1, int(len(xs) * p))]
    print(f"{len(lat)} moves: p50 {q(lat, .5) / 1000:.1f} ms, p99 {q(lat, .99) / 1000:.1f} ms, "
          f"max {lat[-1] / 1000:.1f} ms")
    windows = collections.defaultdict(list)
    for at, us in rows:
        windows[at // 100].append(us)
    counts = sorted(len(v) for v in windows.values())
    print(f"moves per 100 ms: p10 {q(counts, .1)}, p50 {q(counts, .5)}, p90 {q(counts, .9)}, "
          f"min {counts[0]}, max {counts[-1]}")
    slow = q(lat, .99)
    holding = collections.Counter(at // 100 for at, us in rows if us >= slow)
    print(f"the slowest 1% (>= {slow / 1000:.1f} ms) fall in {len(holding)} of {len(windows)} "
          f"windows of 100 ms")
    for w in sorted(windows):
        v = sorted(windows[w])
        med = q(v, .5) / 1000
        print(f"{w / 10:7.1f} s  {len(v):5d} moves  p50 {med:6.1f} ms  max {v[-1] / 1000:6.1f} ms  "
              + "#" * int(med / 2))


main()
