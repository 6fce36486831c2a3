"""mpisim sweep: 1 000 small replays (the NAS class S traces of data/traces/npb) on a local Dask cluster, and what
Dask costs per task.

    .venv/bin/python bench/sweep_bench.py [--runs 1000] [--workers N]

The campaign: the 9 class S traces x cluster:{4,8,16,...} platforms x seeds, cut to --runs runs. Prints the total
wall time (cluster start and the Parquet merge included), the replays' own wall time (mpisim.replay's
`wall_seconds`), the time a task took in its worker (`task_seconds`: the replay plus building its row), and the
overhead per task: total x workers / runs - mean replay wall time."""

from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def campaign_text(runs: int) -> str:
    traces = sorted(glob.glob(os.path.join(ROOT, "data", "traces", "npb", "*.S.*.txt")))
    platforms = 8
    seeds = -(-runs // (len(traces) * platforms))  # enough combinations, cut to `runs` by the caller
    return (f"name: bench\ntrace: [{', '.join(traces)}]\n"
            f"platform: 'cluster:{{16..{15 + platforms}}}'\nseed: '{{1..{seeds}}}'\ncollect: [simulated_time]\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()

    from mpisim import campaign as campaigns
    from mpisim import sweeps

    with tempfile.TemporaryDirectory(prefix="mpisim-sweep-bench-") as folder:
        path = os.path.join(folder, "bench.yaml")
        with open(path, "w") as out:
            out.write(campaign_text(args.runs))
        parsed = campaigns.load(path)
        parsed.runs = parsed.runs[:args.runs]
        start = time.perf_counter()
        rows = sweeps.execute(parsed, os.path.join(folder, "bench.parquet"), workers=args.workers, progress=False)
        total = time.perf_counter() - start
    ok = rows[rows["status"] == "ok"]
    replay = ok["wall_seconds"].mean()
    task = rows["task_seconds"].mean()
    per_task = total * args.workers / len(rows)
    print(f"{len(rows)} runs ({len(rows) - len(ok)} failed) on {args.workers} workers: {total:.1f} s in total "
          f"(limit 120 s: {'met' if total < 120 else 'NOT met'})")
    print(f"replay wall time per run: mean {replay * 1e3:.1f} ms, sum {ok['wall_seconds'].sum():.1f} s")
    print(f"task time in its worker: mean {task * 1e3:.1f} ms")
    print(f"worker time per task (total x workers / runs): {per_task * 1e3:.1f} ms; Dask overhead per task "
          f"(that minus the replay's wall time): {(per_task - replay) * 1e3:.1f} ms, of which inside the task "
          f"(row, temporary folder): {(task - replay) * 1e3:.1f} ms")
    return 0 if total < 120 else 1


if __name__ == "__main__":
    sys.exit(main())
