"""IS-like time-independent traces and the xSim paper's IS scaling study (Sec. 3.3, Fig. 2) under `--model xsim`.

The bundled NAS traces hold IS at 4 and 16 ranks only, of class S; the paper scales class C on 16 nodes from 1 to 8
cores per node. This script writes traces with IS's communication pattern at any rank count: per iteration (10, as
NPB IS), every rank computes on its share of the keys, then `allreduce` of the 1024 bucket sizes, `alltoall` of one
int (the send counts), `alltoallv` of its keys (an equal share to every rank: 2^27 keys of 4 bytes, class C), then
sorts what it received. Computation: 20 flops per key (an assumption: only the shape of the curve matters).

    python examples/xsim-is/is_like.py [--workdir DIR]

replays the traces at 1, 2, 4 and 8 cores on each of the 16 nodes of platforms/xsim-16node.xml (ranks placed node
by node through a hostfile), under `--model xsim` with contention (the platform's) and without it
(`--param contention=no`), and prints the simulated times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

KEYS = 2 ** 27          # NPB IS class C
ITERATIONS = 10
FLOPS_PER_KEY = 20
NODES, CORES_PER_NODE = 16, 8
HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORM = os.path.join(HERE, "..", "..", "platforms", "xsim-16node.xml")


def write_is_trace(folder: str, ranks: int) -> str:
    """Writes one file per rank and an index; returns the index path."""
    os.makedirs(folder, exist_ok=True)
    share = KEYS // ranks                     # keys per rank
    block = max(share // ranks, 1)            # keys sent to each rank
    counts = " ".join([str(block)] * ranks)
    names = []
    for rank in range(ranks):
        name = f"rank{rank}.txt"
        lines = [f"{rank} init"]
        for _ in range(ITERATIONS):
            lines += [f"{rank} compute {share * FLOPS_PER_KEY / 2:g}",
                      f"{rank} allreduce 1024 0 1",
                      f"{rank} alltoall 1 1 1 1",
                      f"{rank} alltoallv {block * ranks} {counts} {block * ranks} {counts} 1 1",
                      f"{rank} compute {share * FLOPS_PER_KEY / 2:g}"]
        lines.append(f"{rank} finalize")
        with open(os.path.join(folder, name), "w") as out:
            out.write("\n".join(lines) + "\n")
        names.append(name)
    index = os.path.join(folder, "index.txt")
    with open(index, "w") as out:
        out.write("\n".join(names) + "\n")
    return index


def write_hostfile(path: str, cores_per_node: int) -> str:
    """Rank i on node i // cores_per_node, filling each node's cores in order (processor 0 first)."""
    with open(path, "w") as out:
        for node in range(NODES):
            for core in range(cores_per_node):
                out.write(f"c{node}.{core // 4}.{core % 4}\n")
    return path


def replay(index: str, hostfile: str, *extra: str) -> float:
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", index, "--platform", PLATFORM,
                           "--hostfile", hostfile, "--model", "xsim", "--json", *extra],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["simulated_time"]


def study(workdir: str, cores=(1, 2, 4, 8)) -> dict:
    """Simulated times by cores per node: {"contention": [...], "no contention": [...]}."""
    times = {"contention": [], "no contention": []}
    for c in cores:
        ranks = NODES * c
        index = write_is_trace(os.path.join(workdir, f"is.{ranks}"), ranks)
        hostfile = write_hostfile(os.path.join(workdir, f"hosts.{c}.txt"), c)
        times["contention"].append(replay(index, hostfile))
        times["no contention"].append(replay(index, hostfile, "--param", "contention=no"))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", help="keep the traces there (default: a temporary folder)")
    args = parser.parse_args()
    cores = (1, 2, 4, 8)
    if args.workdir:
        times = study(args.workdir, cores)
    else:
        with tempfile.TemporaryDirectory() as workdir:
            times = study(workdir, cores)
    print("cores/node  ranks  contention (s)  no contention (s)")
    for i, c in enumerate(cores):
        print(f"{c:10d}  {NODES * c:5d}  {times['contention'][i]:14.6f}  {times['no contention'][i]:17.6f}")


if __name__ == "__main__":
    main()
