#!/usr/bin/env python3
"""The fixed cost of a replay, two builds of mpisim against each other: what every `mpisim replay` pays besides its
messages (start-up, reading the index and the trace files, building the platform and the ranks, the result, exit).

Runs `mpisim replay index.txt --platform ../cluster.xml --hostfile ../hosts.txt --json --model M` in each given
trace folder with the base build and with this branch's, interleaved (base, branch, base, ...: a change of the
machine's load hits both alike), and prints per folder and model the median CPU time (user + system) and peak memory
of each, and their ratios. Also checks that both print the same JSON minus the wall time.

The folder "empty" (written at the first run, in --workdir) holds a trace of --ranks ranks doing nothing but `init`
and `finalize`, one file each, on replay_bench's flat cluster: its replay is the fixed cost alone. Other folders are
replay_bench's (`bench/replay_bench.py --workdir DIR --keep`: DIR/n16384/trace).

    .venv/bin/python bench/replay_fixed_cost.py --base /path/to/main/.venv/bin/mpisim \\
        [--traces DIR/n16384/trace,...] [--models xsim,smpi] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Dict, List, Optional, Tuple

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_empty_trace(folder: str, ranks: int) -> str:
    """`ranks` files of `init` and `finalize`, their index, and replay_bench's cluster and hostfile beside."""
    trace = os.path.join(folder, "trace")
    if os.path.exists(os.path.join(trace, "index.txt")):
        return trace
    os.makedirs(trace, exist_ok=True)
    for rank in range(ranks):
        with open(os.path.join(trace, f"rank{rank}.txt"), "w") as out:
            out.write(f"{rank} init\n{rank} finalize\n")
    with open(os.path.join(trace, "index.txt"), "w") as out:
        out.write("".join(f"rank{rank}.txt\n" for rank in range(ranks)))
    with open(os.path.join(folder, "cluster.xml"), "w") as out:
        out.write("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\">\n"
                  f"  <cluster id=\"bench\" prefix=\"node-\" radical=\"0-{ranks - 1}\" suffix=\"\" speed=\"1Gf\" "
                  "bw=\"10Gbps\" lat=\"1us\"/>\n</platform>\n")
    with open(os.path.join(folder, "hosts.txt"), "w") as out:
        out.write("".join(f"node-{rank}\n" for rank in range(ranks)))
    return trace


def measure(mpisim: str, trace: str, model: str) -> Tuple[float, int, str]:
    """CPU seconds (user + system) and peak resident KiB of one run (the child's own, from os.wait4), and the JSON
    it printed minus its wall time."""
    command = [mpisim, "replay", "index.txt", "--platform", "../cluster.xml", "--hostfile", "../hosts.txt", "--json",
               "--model", model]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: stdout into the pipe, stderr kept
        os.close(read_end)
        os.dup2(write_end, 1)
        os.chdir(trace)
        try:
            os.execvp(mpisim, command)
        finally:
            os._exit(127)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        out = pipe.read()
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} in {trace} failed with status {os.waitstatus_to_exitcode(status)}")
    text = "\n".join(line for line in out.splitlines() if "wall_seconds" not in line)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, text


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the mpisim to compare with (e.g. main's build)")
    parser.add_argument("--branch", default=os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim"),
                        help="this branch's mpisim (default: .venv/bin/mpisim)")
    parser.add_argument("--traces", default="", help="comma-separated trace folders besides the empty one")
    parser.add_argument("--models", default="xsim,smpi")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each build per folder and model (default 5)")
    parser.add_argument("--ranks", type=int, default=16384, help="ranks of the empty trace (default 16384)")
    parser.add_argument("--workdir", default="/tmp/mpisim-fixed-cost", help="where the empty trace is written")
    args = parser.parse_args(argv)

    folders = [write_empty_trace(os.path.join(args.workdir, f"empty{args.ranks}"), args.ranks)]
    folders += [os.path.abspath(f) for f in args.traces.split(",") if f]
    # Absolute: each run starts in its trace folder.
    builds = {name: os.path.abspath(path) if os.sep in path else path
              for name, path in (("base", args.base), ("branch", args.branch))}
    print(f"{'trace':>40} {'model':>6} {'base cpu s':>11} {'branch cpu s':>13} {'ratio':>7} {'base MiB':>9} "
          f"{'branch MiB':>11} {'same json':>10}")
    same_everywhere = True
    for folder in folders:
        for model in [m for m in args.models.split(",") if m]:
            cpu: Dict[str, List[float]] = {name: [] for name in builds}
            peak: Dict[str, List[int]] = {name: [] for name in builds}
            texts: Dict[str, str] = {}
            for _ in range(args.rounds):
                for name, mpisim in builds.items():
                    seconds, kib, text = measure(mpisim, folder, model)
                    cpu[name].append(seconds)
                    peak[name].append(kib)
                    texts[name] = text
            base, branch = statistics.median(cpu["base"]), statistics.median(cpu["branch"])
            same = texts["base"] == texts["branch"]
            same_everywhere = same_everywhere and same
            label = os.path.relpath(folder, args.workdir) if folder.startswith(args.workdir) else folder
            print(f"{label[-40:]:>40} {model:>6} {base:>11.3f} {branch:>13.3f} {branch / base:>7.2f} "
                  f"{max(peak['base']) / 1024:>9.1f} {max(peak['branch']) / 1024:>11.1f} {'yes' if same else 'NO':>10}",
                  flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if same_everywhere else 1


if __name__ == "__main__":
    sys.exit(main())
