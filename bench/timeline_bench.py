#!/usr/bin/env python3
"""Timeline benchmark: how long writing a timeline adds to a replay, and how long `mpisim gantt` takes to draw it,
with peak memory, at 1 000 ranks and a million calls (not part of the test suite).

The trace (per rank, `--iterations` times; 250 by default, so 1 000 calls per rank):
    compute 1e6 flops          (1 ms on the 1 Gf hosts, +-10 % per rank)
    irecv   from rank - 1      (8 KiB: detached)
    isend   to rank + 1
    waitall
on `cluster:N,bw=10Gbps,lat=1us`. For each timeline format the script replays the trace with
`mpisim replay ... --timeline FILE` (and once without) under /usr/bin/time, then draws each file with
`mpisim gantt FILE -o FILE.png`, and reports wall time, peak memory (maximum resident set size of that command) and
file size. Writing time is the replay's time with the timeline minus the time without.

Run from the project root:  .venv/bin/python bench/timeline_bench.py [--ranks 1000] [--iterations 250] [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPISIM = [sys.executable, "-m", "mpisim"]
MAX_RSS = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")


def write_trace(folder: str, ranks: int, iterations: int) -> str:
    index = os.path.join(folder, "index.txt")
    with open(index, "w") as listing:
        for rank in range(ranks):
            path = os.path.join(folder, f"rank{rank}.txt")
            listing.write(f"{path}\n")
            flops = 1e6 * (1 + 0.1 * ((rank * 7919) % 21 - 10) / 10)
            left, right = (rank - 1) % ranks, (rank + 1) % ranks
            step = (f"{rank} compute {flops:.0f}\n{rank} irecv {left} 0 8192\n{rank} isend {right} 0 8192\n"
                    f"{rank} waitall\n")
            with open(path, "w") as out:
                out.write(f"{rank} init\n" + step * iterations + f"{rank} finalize\n")
    return index


def measure(command) -> tuple:
    """Wall seconds and peak memory (MiB) of one command."""
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, cwd=PROJECT_ROOT)
    wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    rss = MAX_RSS.search(done.stderr)
    return wall, int(rss.group(1)) / 1024 if rss else float("nan")


def size_of(path: str) -> float:
    total = os.path.getsize(path)
    if path.endswith(".csv"):
        total += os.path.getsize(path[:-4] + ".messages.csv")
    return total / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=250)
    parser.add_argument("--formats", default="json,paje,csv")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (printed)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="mpisim-timeline-bench-")
    try:
        index = write_trace(folder, args.ranks, args.iterations)
        calls = args.ranks * args.iterations * 4
        platform = f"cluster:{args.ranks},bw=10Gbps,lat=1us"
        replay = [*MPISIM, "replay", index, "--platform", platform]
        print(f"{args.ranks} ranks x {args.iterations} iterations: {calls:,} calls, "
              f"{args.ranks * args.iterations:,} messages")
        base_wall, base_rss = measure(replay)
        print(f"{'':22} {'wall (s)':>9} {'peak (MiB)':>11} {'file (MiB)':>11}")
        print(f"{'replay, no timeline':22} {base_wall:9.1f} {base_rss:11.0f}")
        for extension in args.formats.split(","):
            path = os.path.join(folder, f"run.{extension}")
            wall, rss = measure([*replay, "--timeline", path])
            print(f"{'replay --timeline .' + extension:22} {wall:9.1f} {rss:11.0f} {size_of(path):11.0f}"
                  f"   writing: +{wall - base_wall:.1f} s, +{rss - base_rss:.0f} MiB")
            wall, rss = measure([*MPISIM, "gantt", path, "-o", path + ".png"])
            print(f"{'gantt .' + extension:22} {wall:9.1f} {rss:11.0f}")
    finally:
        if args.keep:
            print(f"files kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
