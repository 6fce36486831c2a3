#!/usr/bin/env python3
"""Collective benchmark: mpisim against SimGrid 3.32's `smpirun -replay` on the same trace, platform and algorithm.

Cases (each a time-independent trace where every rank calls the collective `--repeat` times, separated by a small
computation):
    alltoall  on 1 024 ranks, 4 KiB blocks, on a 3-D torus (16x8x8) and on a two-level fat tree (32 leaves of 32)
    allreduce on 16 384 ranks, 64 KiB, on a 3-D torus (32x32x16) and on a two-level fat tree (128 leaves of 128)
Both simulators run the same algorithm, named on both sides (`--coll OP=ALGO` / `--cfg=smpi/OP:ALGO`): by default
alltoall `bruck`... see ALGORITHMS below. For each case the script reports both wall times, peak memory, both simulated
times (they must agree within 1 %) and the ratio SMPI wall time / mpisim wall time (target: at least 2x).

Run from the project root:  .venv/bin/python bench/collective_bench.py [--cases alltoall-torus,...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_bench import Run, _raise_file_limit, measure, progress, run_smpi  # noqa: E402

TOLERANCE = 0.01
TARGET_SPEEDUP = 2.0


@dataclass
class Case:
    name: str
    operation: str
    ranks: int
    bytes: int
    topology: str        # SimGrid cluster topology
    topo_parameters: str
    algorithm: str
    repeat: int = 3


CASES = {
    "alltoall-torus": Case("alltoall-torus", "alltoall", 1024, 4096, "TORUS", "16,8,8", "bruck"),
    "alltoall-fattree": Case("alltoall-fattree", "alltoall", 1024, 4096, "FAT_TREE", "2;32,32;1,8;1,1", "bruck"),
    "allreduce-torus": Case("allreduce-torus", "allreduce", 16384, 65536, "TORUS", "32,32,16", "rdb", 2),
    "allreduce-fattree": Case("allreduce-fattree", "allreduce", 16384, 65536, "FAT_TREE", "2;128,128;1,16;1,1",
                              "rdb", 2),
}


def write_inputs(folder: str, case: Case) -> Dict[str, str]:
    os.makedirs(os.path.join(folder, "trace"), exist_ok=True)
    if case.operation == "alltoall":
        line = f"alltoall {case.bytes} {case.bytes}"
    else:
        line = f"allreduce {case.bytes} 0"
    names = []
    for rank in range(case.ranks):
        name = f"rank{rank}.txt"
        with open(os.path.join(folder, "trace", name), "w") as out:
            out.write(f"{rank} init\n")
            for _ in range(case.repeat):
                out.write(f"{rank} {line}\n{rank} compute 1e5\n")
            out.write(f"{rank} finalize\n")
        names.append(name)
    index = os.path.join(folder, "trace", "index.txt")
    with open(index, "w") as out:
        out.write("\n".join(names) + "\n")
    platform = os.path.join(folder, "platform.xml")
    with open(platform, "w") as out:
        out.write(f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="bench" prefix="node-" radical="0-{case.ranks - 1}" suffix="" speed="1Gf" bw="10Gbps" lat="1us"
           topology="{case.topology}" topo_parameters="{case.topo_parameters}"/>
</platform>
""")
    hostfile = os.path.join(folder, "hosts.txt")
    with open(hostfile, "w") as out:
        out.write("".join(f"node-{r}\n" for r in range(case.ranks)))
    return {"index": index, "platform": platform, "hostfile": hostfile}


@dataclass
class CaseResult:
    case: Case
    runs: Dict[str, Run] = field(default_factory=dict)

    def speedup(self) -> Optional[float]:
        ours, ref = self.runs.get("mpisim"), self.runs.get("smpi")
        if not ours or not ref or ours.error or ref.error or ours.wall_seconds <= 0:
            return None
        return ref.wall_seconds / ours.wall_seconds

    def cpu_speedup(self) -> Optional[float]:
        ours, ref = self.runs.get("mpisim"), self.runs.get("smpi")
        if not ours or not ref or ours.error or ref.error or ours.cpu_seconds <= 0:
            return None
        return ref.cpu_seconds / ours.cpu_seconds

    def relative_difference(self) -> Optional[float]:
        ours, ref = self.runs["mpisim"].simulated_time, self.runs["smpi"].simulated_time
        return None if ours is None or ref is None or ref == 0 else abs(ours - ref) / ref


def run_case(case: Case, tools: Dict[str, str], workdir: str, timeout: float) -> CaseResult:
    folder = os.path.join(workdir, case.name)
    logs = os.path.join(folder, "logs")
    os.makedirs(logs, exist_ok=True)
    files = write_inputs(folder, case)
    result = CaseResult(case)
    progress(f"[{case.name}] mpisim replay ({case.ranks} ranks, {case.operation} {case.algorithm})")
    command = [tools["mpisim"], "replay", files["index"], "--platform", files["platform"], "--hostfile",
               files["hostfile"], "--coll", f"{case.operation}={case.algorithm}", "--json"]
    ours = measure("mpisim", command, os.path.dirname(files["index"]), os.path.join(logs, "mpisim"), timeout)
    if ours.returncode == 0:
        with open(os.path.join(logs, "mpisim.out")) as out:
            ours.simulated_time = float(json.load(out)["simulated_time"])
    result.runs["mpisim"] = ours
    progress(f"[{case.name}]   {ours.wall_seconds:.2f} s, {ours.max_rss_kib / 1024:.1f} MiB {ours.error[:200]}")
    progress(f"[{case.name}] smpirun -replay --cfg=smpi/{case.operation}:{case.algorithm}")
    _raise_file_limit(case.ranks + 256)
    ref = run_smpi(tools["smpirun"], files["index"], files["platform"], files["hostfile"], case.ranks, logs, timeout,
                   extra=[f"--cfg=smpi/{case.operation}:{case.algorithm}"])
    result.runs["smpi"] = ref
    progress(f"[{case.name}]   {ref.wall_seconds:.2f} s, {ref.max_rss_kib / 1024:.1f} MiB {ref.error[:200]}")
    return result


def _fmt(value: Optional[float], spec: str) -> str:
    return format(value, spec) if value is not None else "-"


def print_table(results: List[CaseResult], out=sys.stdout) -> None:
    print(f"{'case':>18} {'ranks':>6} {'algorithm':>10} {'mpisim s':>9} {'SMPI s':>9} {'mpisim MiB':>11} "
          f"{'SMPI MiB':>9} {'sim. diff':>10} {'SMPI/mpisim wall':>17} {'(cpu)':>7}  target", file=out)
    for r in results:
        ours, ref = r.runs["mpisim"], r.runs["smpi"]
        diff, speed = r.relative_difference(), r.speedup()
        met = speed is not None and speed >= TARGET_SPEEDUP and diff is not None and diff <= TOLERANCE
        print(f"{r.case.name:>18} {r.case.ranks:>6} {r.case.algorithm:>10} {ours.wall_seconds:>9.2f} "
              f"{ref.wall_seconds:>9.2f} {ours.max_rss_kib / 1024:>11.1f} {ref.max_rss_kib / 1024:>9.1f} "
              f"{_fmt(None if diff is None else 100 * diff, '>9.4f')}% {_fmt(speed, '>16.2f')}x "
              f"{_fmt(r.cpu_speedup(), '>6.2f')}x  {'met' if met else 'NOT met'}", file=out)
        for run in (ours, ref):
            if run.note:
                print(f"    {run.simulator}: {run.note}", file=out)
    print(f"target: SMPI wall time / mpisim wall time >= {TARGET_SPEEDUP:g}, simulated times within "
          f"{100 * TOLERANCE:g} %", file=out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=",".join(CASES), help="comma list of: " + ", ".join(CASES))
    parser.add_argument("--repeat", type=int, help="collective calls per rank (default: per case)")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--keep", action="store_true", help="keep the generated inputs")
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tools = {"mpisim": os.path.join(root, ".venv", "bin", "mpisim"), "smpirun": shutil.which("smpirun")}
    if not tools["smpirun"]:
        print("smpirun not found: install libsimgrid-dev (scripts/install-deps.sh --with-test-tools)", file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="mpisim-collbench-")
    results = []
    try:
        for name in args.cases.split(","):
            case = CASES[name]
            if args.repeat:
                case.repeat = args.repeat
            results.append(run_case(case, tools, workdir, args.timeout))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print_table(results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump([{"case": asdict(r.case), "runs": {k: asdict(v) for k, v in r.runs.items()},
                        "speedup_wall": r.speedup(), "speedup_cpu": r.cpu_speedup(),
                        "simulated_time_relative_difference": r.relative_difference()} for r in results], out,
                      indent=2)
    failed = any(r.relative_difference() is None or r.relative_difference() > TOLERANCE for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
