#!/usr/bin/env python3
"""Where a replay rank's bytes go: `mpisim replay` of replay_scale.py's ring + allreduce trace at two rank counts,
its memory mappings (/proc/PID/smaps) polled while it runs and the peak resident bytes of each kind kept:

    stack arena   the ranks' stack slices (kernel/Stacks.hpp: anonymous MAP_NORESERVE reservations, flag `nr` in smaps;
                  the kernel merges adjacent ones, so their sizes say nothing)
    heap          malloc's memory: [heap] and the other anonymous mappings (large blocks, thread arenas)
    other         the binary, the libraries, Python

Per rank: the difference of each kind's peak between the two counts over the difference of ranks (what start-up,
Python and the libraries cost drops out). The stack figure divided by the page size is the pages a rank touches.

Run from the project root:
    .venv/bin/python bench/replay_rank_memory.py --ranks 65536,262144 --models xsim,smpi
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_scale import write_ring_allreduce  # noqa: E402

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$")


def resident_by_kind(pid: int) -> Dict[str, int]:
    kinds = {"stack arena": 0, "heap": 0, "other": 0}
    name, rss = "", 0
    try:
        with open(f"/proc/{pid}/smaps") as smaps:
            for line in smaps:
                found = MAPPING.match(line)
                if found:
                    name = found.group(3)
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
                elif line.startswith("VmFlags:"): # the last field of a mapping
                    if name == "" and " nr" in line:
                        kinds["stack arena"] += rss
                    elif name in ("", "[heap]"):
                        kinds["heap"] += rss
                    else:
                        kinds["other"] += rss
    except OSError:
        pass
    return kinds


def peak_by_kind(command, cwd: str) -> Dict[str, int]:
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = {"stack arena": 0, "heap": 0, "other": 0}
    while process.poll() is None:
        for kind, value in resident_by_kind(process.pid).items():
            peak[kind] = max(peak[kind], value)
        time.sleep(0.02)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode(errors='replace')[-500:]}")
    return peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", default="65536,262144", help="two rank counts, comma separated")
    parser.add_argument("--models", default="xsim,smpi")
    parser.add_argument("--mpisim", default=os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim"))
    args = parser.parse_args(argv)
    small, large = (int(n) for n in args.ranks.split(","))
    with tempfile.TemporaryDirectory(prefix="replay_rank_memory_") as workdir:
        for model in args.models.split(","):
            peaks = {}
            for ranks in (small, large):
                trace = os.path.join(workdir, f"ring_{ranks}.txt")
                if not os.path.exists(trace):
                    write_ring_allreduce(trace, ranks)
                command = [args.mpisim, "replay", trace, "--platform", f"cluster:{ranks}", "--model", model]
                peaks[ranks] = peak_by_kind(command, workdir)
            print(f"{model}: bytes per rank between {small} and {large} ranks (peak resident, per kind)")
            total = 0.0
            for kind in ("stack arena", "heap", "other"):
                per_rank = (peaks[large][kind] - peaks[small][kind]) / (large - small)
                total += per_rank
                print(f"  {kind:<12} {per_rank:9.1f}")
            print(f"  {'total':<12} {total:9.1f}  ({total / 1024:.2f} KiB)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
