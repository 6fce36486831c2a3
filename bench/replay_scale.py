#!/usr/bin/env python3
"""Replay at scale: the memory and wall time of `mpisim replay` on a small trace at large rank counts.

The trace is one shared file (SimGrid's single-file form: every rank's lines, rank after rank), so that millions of
ranks need no million files; per rank:

    init
    compute 1e6                  (1 ms on a 1 Gf host)
    irecv PREV 0 1024            a ring of 8 KiB messages (1024 doubles: `init 1` makes MPI_DOUBLE the default)
    isend NEXT 0 1024            ... to the next
    waitall
    allreduce 1 1000             one double (count 1, datatype MPI_DOUBLE from `init 1`), 1000 flops of reduction
    finalize

The platform is generated, one host per rank: `cluster:N` (1 Gf hosts, 10 Gbps / 1 us private links, no backbone;
docs/platforms.md). Every run goes through /usr/bin/time and a poller that kills it when its resident memory and
page tables pass `--memory-limit` (bench/online_bench.py's `measure`). Printed per rank count and model: wall and CPU
seconds, peak RSS (/usr/bin/time), the largest page tables seen, memory per rank, the simulated time.

Run from the project root:
    .venv/bin/python bench/replay_scale.py --ranks 4096,16384,32000
    .venv/bin/python bench/replay_scale.py --ranks 1048576,2097152,4194304 --models smpi,loggps --memory-limit 20G
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from online_bench import measure, parse_bytes  # noqa: E402

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMULATED = re.compile(r"Simulated time: ([0-9.eE+-]+) s")


def write_ring_allreduce(path: str, ranks: int) -> None:
    """The trace above, rank after rank, written in blocks (a few hundred MB at millions of ranks)."""
    with open(path, "w") as out:
        block: List[str] = []
        for rank in range(ranks):
            prev, nxt = (rank - 1) % ranks, (rank + 1) % ranks
            block.append(f"{rank} init 1\n{rank} compute 1e6\n{rank} irecv {prev} 0 1024\n{rank} isend {nxt} 0 1024\n"
                         f"{rank} waitall\n{rank} allreduce 1 1000\n{rank} finalize\n")
            if len(block) == 65536:
                out.write("".join(block))
                block.clear()
        out.write("".join(block))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", default="4096,16384,32000", help="rank counts, comma separated")
    parser.add_argument("--models", default="smpi", help="network models, comma separated (`mpisim models`)")
    parser.add_argument("--memory-limit", default="20G", help="kill a run past this RSS + page tables (default 20G)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per run")
    parser.add_argument("--mpisim", default=os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim"))
    parser.add_argument("--workdir", help="keep the traces and logs here (default: a temporary folder, removed)")
    args = parser.parse_args(argv)
    limit = parse_bytes(args.memory_limit)
    workdir = args.workdir or tempfile.mkdtemp(prefix="replay_scale_")
    os.makedirs(workdir, exist_ok=True)
    header = (f"{'ranks':>9} {'model':>7} {'wall s':>8} {'cpu s':>8} {'peak RSS MiB':>13} {'PTE MiB':>8} "
              f"{'KiB/rank':>9} {'simulated s':>12}  outcome")
    print(header)
    print("-" * len(header), flush=True)
    failed = False
    try:
        for ranks in [int(n) for n in args.ranks.split(",")]:
            trace = os.path.join(workdir, f"ring_allreduce_{ranks}.txt")
            if not os.path.exists(trace):
                write_ring_allreduce(trace, ranks)
            for model in args.models.split(","):
                command = [args.mpisim, "replay", trace, "--platform", f"cluster:{ranks}", "--model", model]
                log = os.path.join(workdir, f"{ranks}_{model}")
                run = measure("mpisim", ranks, command, workdir, log, args.timeout, limit)
                with open(log + ".out", errors="replace") as out:
                    found = SIMULATED.search(out.read())
                simulated = f"{float(found.group(1)):.6f}" if found else "-"
                per_rank = run.memory_kib / ranks
                outcome = "ok" if run.ok else run.error.splitlines()[0]
                failed = failed or not run.ok
                print(f"{ranks:>9} {model:>7} {run.wall_seconds:>8.1f} {run.cpu_seconds:>8.1f} "
                      f"{run.max_rss_kib / 1024:>13.1f} {run.tree_pte_kib / 1024:>8.1f} {per_rank:>9.2f} "
                      f"{simulated:>12}  {outcome}", flush=True)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
