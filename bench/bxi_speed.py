"""Speed of the BXI NIC model against smpi on MPI: a ping-pong of 1 M messages (examples/osu/osu_pt2pt.c, latency of
1 B, 500 000 round trips) under `mpisim run --model smpi` and `--model bxi`, one after the other; prints the wall and
CPU time of each and the ratio bxi/smpi (issue 17's target: at most 5).

Run from the project root:  .venv/bin/python bench/bxi_speed.py [--messages 1000000] [--json out.json]"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLATFORM = "fattree:2;4,4;1,2;1,2,bw=100Gbps,lat=100ns"  # two nodes under one leaf (examples/osu/plot_osu.py)


def mpisim_command() -> list:
    local = os.path.join(ROOT, ".venv", "bin", "mpisim")
    return [local] if os.path.exists(local) else ["mpisim"]


def timed_run(command: list) -> dict:
    """Wall time and CPU time (user + system of the children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    latency = [float(line.split()[1]) for line in done.stdout.splitlines() if line and not line.startswith("#")]
    return {"wall": wall, "cpu": cpu, "load_before": load, "latency_us": latency[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000, help="messages in all (default 1 000 000)")
    parser.add_argument("--platform", default=PLATFORM)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    options = parser.parse_args()
    mpisim = mpisim_command()
    work = tempfile.mkdtemp(prefix="bxi-speed-")
    binary = os.path.join(work, "osu_pt2pt")
    subprocess.run([*mpisim, "cc", "-O2", os.path.join(ROOT, "examples", "osu", "osu_pt2pt.c"), "-o", binary],
                   check=True)
    round_trips = options.messages // 2
    results = {}
    for model in ("smpi", "bxi"):
        command = [*mpisim, "run", "-np", "2", "--platform", options.platform, "--model", model, "--no-compute-time",
                   "--quiet", binary, "latency", "1", str(round_trips)]
        results[model] = timed_run(command)
        r = results[model]
        print(f"{model:>5}: {options.messages} messages, wall {r['wall']:.2f} s, cpu {r['cpu']:.2f} s, "
              f"simulated latency {r['latency_us']:.3f} us (load average {r['load_before']:.2f})", flush=True)
    wall_ratio = results["bxi"]["wall"] / results["smpi"]["wall"]
    cpu_ratio = results["bxi"]["cpu"] / results["smpi"]["cpu"]
    met = cpu_ratio <= 5 and wall_ratio <= 5
    print(f"bxi/smpi: wall {wall_ratio:.2f}x, cpu {cpu_ratio:.2f}x; target <= 5x: {'met' if met else 'NOT met'}")
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"messages": options.messages, "platform": options.platform, "runs": results,
                       "wall_ratio": wall_ratio, "cpu_ratio": cpu_ratio}, f, indent=2)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
