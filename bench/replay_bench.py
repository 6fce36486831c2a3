#!/usr/bin/env python3
"""Replay benchmark: mpisim against SimGrid 3.32's `smpirun -replay` on the same trace and the same platform.

For each size (default 64, 1 024 and 16 384 ranks) the script writes, into a temporary folder, a time-independent
trace of a 3-D stencil application, a flat cluster with one host per rank and a hostfile, then replays the trace with

    mpisim replay index.txt --platform cluster.xml --hostfile hosts.txt --json
    smpirun -np N -platform cluster.xml -hostfile hosts.txt -replay index.txt      (run from the trace's folder)

each under `/usr/bin/time`, and reports for both the wall time, the actions replayed per wall second, the peak
memory (maximum resident set size of that command alone) and the simulated time. The simulated times must agree
within 1 % (exit status 1 otherwise, 2 when a run fails); the ratios mpisim/SMPI of actions per second and of peak
memory are checked against the project's target: at least 3x SMPI's speed, no more memory.

The trace (per rank, `--iterations` times):
    compute     60 flops per cell of a 32 x 64 x 256 block of doubles = 3.1e7 flops (31 ms on the 1 Gf hosts),
                with a fixed per-rank imbalance of up to +-5 %
    irecv x 6   from the six neighbours of a periodic 3-D process grid (one tag per direction)
    isend x 6   the block's faces: 128 KiB along x and 64 KiB along y (rendezvous: SMPI sends >= 64 KiB
                synchronously), 16 KiB along z (detached: sent eagerly)
    waitall
and every `--allreduce-every` iterations an 8-byte allreduce (a residual norm).

Run from the project root:  .venv/bin/python bench/replay_bench.py [--ranks 64,1024] [--json results.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform as host_platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Tuple

TOLERANCE = 0.01          # agreement required between the two simulated times (relative)
TARGET_SPEEDUP = 3.0      # mpisim actions/s over SMPI's
TARGET_MEMORY = 1.0       # mpisim peak memory over SMPI's, at most

# Iterations per size when --iterations is not given: SMPI then takes about a minute at 16 384 ranks on a 2-core VM,
# 5-15 s at the smaller sizes (bench/README.md has the measured times); other sizes get 40 000 / ranks, at least 3.
# At 16 384 ranks the 3 iterations include no allreduce: there SMPI 3.32 spends minutes per allreduce (README).
DEFAULT_ITERATIONS = {64: 1000, 1024: 60, 16384: 3}

SIMULATION_TIME = re.compile(r"Simulation time ([0-9.eE+-]+)")
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------------------------------------------------------
# Inputs: process grid, trace, platform, hostfile


def process_grid(ranks: int) -> Tuple[int, int, int]:
    """The most cubic px <= py <= pz with px * py * pz == ranks (64 -> 4x4x4, 1024 -> 8x8x16, 16384 -> 16x32x32)."""
    best = (1, 1, ranks)
    for px in range(1, int(round(ranks ** (1 / 3))) + 2):
        if ranks % px:
            continue
        rest = ranks // px
        for py in range(px, int(rest ** 0.5) + 2):
            if rest % py == 0 and py <= rest // py:
                candidate = (px, py, rest // py)
                if max(candidate) - min(candidate) < max(best) - min(best):
                    best = candidate
    return best


@dataclass
class Stencil:
    """The application the trace describes; every size in bytes, work in flops."""

    iterations: int
    allreduce_every: int = 5
    block: Tuple[int, int, int] = (32, 64, 256)   # cells per rank (doubles), halo of `halo` cells each side
    halo: int = 1
    flops_per_cell: float = 60.0
    imbalance: float = 0.05                        # compute of rank r: base * (1 + imbalance * u(r)), u in [-1, 1]

    def face_bytes(self) -> Tuple[int, int, int]:
        """Bytes of one face exchanged along x, y and z."""
        nx, ny, nz = self.block
        return (ny * nz * self.halo * 8, nx * nz * self.halo * 8, nx * ny * self.halo * 8)

    def base_flops(self) -> float:
        nx, ny, nz = self.block
        return nx * ny * nz * self.flops_per_cell


def _unit_noise(rank: int) -> float:
    """A fixed pseudo-random number in [-1, 1] per rank (reproducible, independent of Python's hash seed)."""
    x = (rank * 2654435761 + 12345) % 2 ** 32
    x ^= x >> 16
    x = (x * 0x45D9F3B) % 2 ** 32
    x ^= x >> 16
    return x / 2 ** 31 - 1.0


def write_stencil_trace(folder: str, ranks: int, app: Stencil) -> Tuple[str, int]:
    """Writes rank<r>.txt files and index.txt (paths relative to `folder`); returns the index path and the number of
    actions (trace lines, init and finalize included)."""
    os.makedirs(folder, exist_ok=True)
    px, py, pz = process_grid(ranks)
    sizes = app.face_bytes()
    actions = 0
    names = []
    for rank in range(ranks):
        x, y, z = rank % px, (rank // px) % py, rank // (px * py)

        def at(i: int, j: int, k: int) -> int:
            return (i % px) + (j % py) * px + (k % pz) * px * py

        # direction d = (axis, sign): send to the neighbour at +sign on axis with tag d, receive tag d from -sign
        plus = [at(x + 1, y, z), at(x, y + 1, z), at(x, y, z + 1)]
        minus = [at(x - 1, y, z), at(x, y - 1, z), at(x, y, z - 1)]
        flops = app.base_flops() * (1.0 + app.imbalance * _unit_noise(rank))
        lines = [f"{rank} init"]
        for iteration in range(app.iterations):
            lines.append(f"{rank} compute {flops:.0f}")
            for axis in range(3):
                lines.append(f"{rank} irecv {minus[axis]} {2 * axis} {sizes[axis]}")
                lines.append(f"{rank} irecv {plus[axis]} {2 * axis + 1} {sizes[axis]}")
            for axis in range(3):
                lines.append(f"{rank} isend {plus[axis]} {2 * axis} {sizes[axis]}")
                lines.append(f"{rank} isend {minus[axis]} {2 * axis + 1} {sizes[axis]}")
            lines.append(f"{rank} waitall")
            if app.allreduce_every and (iteration + 1) % app.allreduce_every == 0:
                lines.append(f"{rank} allreduce 8 8")
        lines.append(f"{rank} finalize")
        name = f"rank{rank}.txt"
        with open(os.path.join(folder, name), "w") as out:
            out.write("\n".join(lines) + "\n")   # SimGrid drops a last line without newline
        actions += len(lines)
        names.append(name)
    index = os.path.join(folder, "index.txt")
    with open(index, "w") as out:
        out.write("\n".join(names) + "\n")
    return index, actions


def write_platform(path: str, ranks: int, backbone_gbps_per_host: float = 0.0) -> str:
    """A flat cluster of `ranks` hosts node-0 ... node-(N-1): 1 Gf hosts and 10 Gbps / 1 us private links (split
    duplex), so a message crosses its sender's up link and its receiver's down link (a non-blocking crossbar).

    With `backbone_gbps_per_host` > 0, every message also crosses one shared backbone of that bandwidth times N.
    Not the default: a backbone puts every concurrent message in one max-min system, so each message start or end
    re-solves all of them and both simulators become quadratic (bench/README.md has the measurements)."""
    backbone = ""
    if backbone_gbps_per_host > 0:
        backbone = f' bb_bw="{backbone_gbps_per_host * ranks:g}Gbps" bb_lat="1us"'
    with open(path, "w") as out:
        out.write(f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="bench" prefix="node-" radical="0-{ranks - 1}" suffix="" speed="1Gf" bw="10Gbps" lat="1us"{backbone}/>
</platform>
""")
    return path


def write_hostfile(path: str, ranks: int) -> str:
    """Rank r on node-r, for both simulators (SimGrid's default placement sorts host names; mpisim's does not)."""
    with open(path, "w") as out:
        out.write("".join(f"node-{r}\n" for r in range(ranks)))
    return path


# ---------------------------------------------------------------------------------------------------------------
# Running one simulator


@dataclass
class Run:
    simulator: str
    command: List[str]
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0       # user + system, from /usr/bin/time
    max_rss_kib: int = 0
    load_before: float = 0.0       # 1-minute load average when the run started (other jobs inflate wall times)
    simulated_time: Optional[float] = None
    actions: int = 0
    returncode: int = 0
    error: str = ""
    version: str = ""
    note: str = ""

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.wall_seconds if self.wall_seconds > 0 and not self.error else 0.0


def _raise_file_limit(needed: int) -> None:
    """SimGrid's replay keeps every rank's trace file open: the soft limit on open files must exceed the rank count."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def measure(simulator: str, command: List[str], cwd: str, log_prefix: str, timeout: float) -> Run:
    """Runs `command` under /usr/bin/time (which reports the peak RSS of that command alone), wall-clocked here."""
    run = Run(simulator=simulator, command=command)
    time_file = log_prefix + ".time"
    stdout_path, stderr_path = log_prefix + ".out", log_prefix + ".err"
    wrapped = ["/usr/bin/time", "-f", "%U %S %M", "-o", time_file] + command
    run.load_before = os.getloadavg()[0]
    with open(stdout_path, "w") as out, open(stderr_path, "w") as err:
        start = time.perf_counter()
        try:
            done = subprocess.run(wrapped, cwd=cwd, stdout=out, stderr=err, timeout=timeout)
            run.returncode = done.returncode
        except subprocess.TimeoutExpired:
            run.returncode = -1
            run.error = f"timed out after {timeout:.0f} s"
        run.wall_seconds = time.perf_counter() - start
    try:
        with open(time_file) as times:   # a signalled command adds a first line "Command terminated by ..."
            user, system, rss = times.read().split()[-3:]
        run.cpu_seconds, run.max_rss_kib = float(user) + float(system), int(rss)
    except (OSError, ValueError, IndexError):
        pass
    if run.returncode != 0 and not run.error:
        with open(stderr_path) as err:
            tail = err.read()[-2000:]
        run.error = f"exit status {run.returncode}: {tail.strip()}"
    return run


def run_mpisim(mpisim: str, index: str, platform: str, hostfile: str, logs: str, timeout: float,
               model: Optional[str] = None) -> Run:
    command = [mpisim, "replay", index, "--platform", platform, "--hostfile", hostfile, "--json"]
    label = "mpisim"
    if model:
        command += ["--model", model]
        label = f"mpisim-{model}"
    run = measure(label, command, os.path.dirname(index), os.path.join(logs, label), timeout)
    if run.returncode == 0:
        with open(os.path.join(logs, f"{label}.out")) as out:
            result = json.load(out)
        run.simulated_time = float(result["simulated_time"])
        run.actions = int(result["actions"])
        run.version = str(result.get("mpisim_version", ""))
    return run


def run_smpi(smpirun: str, index: str, platform: str, hostfile: str, ranks: int, logs: str, timeout: float,
             extra: Tuple[str, ...] = ()) -> Run:
    """The plain `smpirun -replay`. SMPI privatizes each rank by dlopen-ing its own copy of the replay binary, about
    ten memory mappings per rank, which exceeds Linux's default vm.max_map_count (65530) at 16 384 ranks: the run dies
    at start-up (at rank 6 518 with this trace) with "dlopen failed: ... cannot apply additional memory protection
    after relocation" or "... failed to map segment from shared object". Then the run is repeated with `-no-privatize`
    (same simulated time, less memory) and the result says so; raising the limit (`sysctl -w
    vm.max_map_count=262144`, as root) lets the plain command run."""
    base = [smpirun, "-np", str(ranks), "-platform", platform, "-hostfile", hostfile, "-replay",
            os.path.basename(index), *extra]
    run = _smpi_attempt(base, index, logs, timeout)
    if run.returncode != 0 and _mapping_limit_hit(os.path.join(logs, "smpi.err")):
        limit = _read_int("/proc/sys/vm/max_map_count")
        progress(f"  smpirun could not dlopen a copy per rank (vm.max_map_count = {limit}): again with -no-privatize")
        os.replace(os.path.join(logs, "smpi.err"), os.path.join(logs, "smpi-privatized.err"))
        run = _smpi_attempt(base[:1] + ["-no-privatize"] + base[1:], index, logs, timeout)
        run.note = (f"-no-privatize: the plain command ran out of memory mappings (vm.max_map_count = {limit}; "
                    "privatization maps a copy of the replay binary per rank)")
    return run


def _smpi_attempt(command: List[str], index: str, logs: str, timeout: float) -> Run:
    run = measure("smpi", command, os.path.dirname(index), os.path.join(logs, "smpi"), timeout)
    with open(os.path.join(logs, "smpi.out")) as out, open(os.path.join(logs, "smpi.err")) as err:
        match = SIMULATION_TIME.search(out.read() + err.read())
    if match:
        run.simulated_time = float(match.group(1))
    elif run.returncode == 0:
        run.returncode, run.error = -2, "no 'Simulation time' in smpirun's output (deadlock?)"
    return run


def _mapping_limit_hit(stderr_path: str) -> bool:
    with open(stderr_path, errors="replace") as err:
        text = err.read()
    # the failing call varies with the memory layout; all are out-of-mappings errors at the same rank
    return "dlopen failed" in text and any(symptom in text for symptom in (
        "cannot apply additional memory protection", "failed to map segment", "Cannot allocate memory"))


def _read_int(path: str) -> Optional[int]:
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------------------------
# One size, the table, the report


@dataclass
class SizeResult:
    ranks: int
    grid: Tuple[int, int, int]
    iterations: int
    actions: int
    messages: int
    allreduces: int
    runs: Dict[str, Run] = field(default_factory=dict)

    def _both_ran(self) -> bool:
        return all(not run.error for run in self.runs.values())

    def relative_difference(self) -> Optional[float]:
        ours, ref = self.runs["mpisim"].simulated_time, self.runs["smpi"].simulated_time
        if ours is None or ref is None or ref == 0:
            return None
        return abs(ours - ref) / ref

    def speed_ratio(self) -> Optional[float]:
        ref = self.runs["smpi"].actions_per_second
        return self.runs["mpisim"].actions_per_second / ref if ref > 0 and self._both_ran() else None

    def cpu_speed_ratio(self) -> Optional[float]:
        """The speed ratio from CPU seconds instead of wall seconds: steadier when other jobs share the machine."""
        ours, ref = self.runs["mpisim"].cpu_seconds, self.runs["smpi"].cpu_seconds
        return ref / ours if ours > 0 and ref > 0 and self._both_ran() else None

    def memory_ratio(self) -> Optional[float]:
        ref = self.runs["smpi"].max_rss_kib
        return self.runs["mpisim"].max_rss_kib / ref if ref > 0 and self._both_ran() else None

    def to_dict(self) -> dict:
        runs = {}
        for name, run in self.runs.items():
            item = asdict(run)
            item["actions_per_second"] = run.actions_per_second
            item["max_rss_mib"] = run.max_rss_kib / 1024
            runs[name] = item
        return {"ranks": self.ranks, "grid": list(self.grid), "iterations": self.iterations,
                "allreduces": self.allreduces, "actions": self.actions, "messages": self.messages, "runs": runs,
                "simulated_time_relative_difference": self.relative_difference(),
                "ratio_actions_per_second": self.speed_ratio(),
                "ratio_actions_per_cpu_second": self.cpu_speed_ratio(), "ratio_max_rss": self.memory_ratio()}


def bench_size(ranks: int, app: Stencil, tools: Dict[str, str], workdir: str, timeout: float,
               backbone_gbps_per_host: float = 0.0) -> SizeResult:
    folder = os.path.join(workdir, f"n{ranks}")
    logs = os.path.join(folder, "logs")
    os.makedirs(logs, exist_ok=True)
    progress(f"[{ranks} ranks] writing the trace ({app.iterations} iterations) in {folder}")
    index, actions = write_stencil_trace(os.path.join(folder, "trace"), ranks, app)
    platform = write_platform(os.path.join(folder, "cluster.xml"), ranks, backbone_gbps_per_host)
    hostfile = write_hostfile(os.path.join(folder, "hosts.txt"), ranks)
    result = SizeResult(ranks=ranks, grid=process_grid(ranks), iterations=app.iterations, actions=actions,
                        messages=6 * ranks * app.iterations,
                        allreduces=app.iterations // app.allreduce_every if app.allreduce_every else 0)

    progress(f"[{ranks} ranks] mpisim replay ({actions} actions)")
    ours = run_mpisim(tools["mpisim"], index, platform, hostfile, logs, timeout)
    if ours.returncode == 0 and ours.actions != actions:
        progress(f"[{ranks} ranks] note: mpisim counted {ours.actions} actions, the trace has {actions}")
    ours.actions = actions
    result.runs["mpisim"] = ours
    progress(f"[{ranks} ranks]   {ours.wall_seconds:.2f} s, {ours.max_rss_kib / 1024:.1f} MiB"
             + (f"  FAILED: {ours.error}" if ours.error else ""))

    progress(f"[{ranks} ranks] smpirun -replay")
    _raise_file_limit(ranks + 256)
    ref = run_smpi(tools["smpirun"], index, platform, hostfile, ranks, logs, timeout)
    ref.actions = actions
    result.runs["smpi"] = ref
    progress(f"[{ranks} ranks]   {ref.wall_seconds:.2f} s, {ref.max_rss_kib / 1024:.1f} MiB"
             + (f"  FAILED: {ref.error}" if ref.error else ""))
    return result


def bench_models(ranks: int, app: Stencil, mpisim: str, models: List[str], workdir: str,
                 timeout: float) -> Tuple[int, Dict[str, Run]]:
    """`--models`: the same trace, platform and hostfile under several of mpisim's network models, one after the
    other. Returns the trace's action count and each model's run."""
    folder = os.path.join(workdir, f"n{ranks}")
    logs = os.path.join(folder, "logs")
    os.makedirs(logs, exist_ok=True)
    progress(f"[{ranks} ranks] writing the trace ({app.iterations} iterations) in {folder}")
    index, actions = write_stencil_trace(os.path.join(folder, "trace"), ranks, app)
    platform = write_platform(os.path.join(folder, "cluster.xml"), ranks)
    hostfile = write_hostfile(os.path.join(folder, "hosts.txt"), ranks)
    runs: Dict[str, Run] = {}
    for model in models:
        progress(f"[{ranks} ranks] mpisim replay --model {model} ({actions} actions)")
        run = run_mpisim(mpisim, index, platform, hostfile, logs, timeout, model)
        run.actions = actions
        runs[model] = run
        progress(f"[{ranks} ranks]   {run.wall_seconds:.2f} s, {run.max_rss_kib / 1024:.1f} MiB"
                 + (f"  FAILED: {run.error}" if run.error else ""))
    return actions, runs


def print_models_table(rows: List[Tuple[int, int, int, Dict[str, Run]]], models: List[str], out=sys.stdout) -> None:
    header = (f"{'ranks':>6} {'iter':>5} {'actions':>9} {'model':>8} {'wall s':>9} {'cpu s':>9} {'actions/s':>11} "
              f"{'peak MiB':>9} {'simulated s':>12}")
    print(header, file=out)
    print("-" * len(header), file=out)
    for ranks, iterations, actions, runs in rows:
        for model in models:
            run = runs[model]
            status = f"  FAILED ({run.error.splitlines()[0][:60]})" if run.error else ""
            print(f"{ranks:>6} {iterations:>5} {actions:>9} {model:>8} {run.wall_seconds:>9.2f} "
                  f"{run.cpu_seconds:>9.2f} {run.actions_per_second:>11.0f} {run.max_rss_kib / 1024:>9.1f} "
                  f"{_fmt(run.simulated_time, '>12.6f')}{status}", file=out)
    first, second = models[0], models[1]
    print(file=out)
    print(f"{'ranks':>6} {f'actions/s {first}/{second}':>26} {'(per cpu s)':>12} {f'memory {first}/{second}':>22}",
          file=out)
    for ranks, _, _, runs in rows:
        a, b = runs[first], runs[second]
        ok = not a.error and not b.error
        speed = a.actions_per_second / b.actions_per_second if ok and b.actions_per_second > 0 else None
        cpu = b.cpu_seconds / a.cpu_seconds if ok and a.cpu_seconds > 0 else None
        memory = a.max_rss_kib / b.max_rss_kib if ok and b.max_rss_kib > 0 else None
        print(f"{ranks:>6} {_fmt(speed, '>25.2f')}x {_fmt(cpu, '>11.2f')}x {_fmt(memory, '>21.2f')}x", file=out)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _fmt(value: Optional[float], spec: str) -> str:
    """`value` formatted by `spec` (such as '>12.6f'), or a dash of the same width when there is none."""
    width = int(re.match(r"\D*(\d*)", spec).group(1) or 0)
    return format(value, spec) if value is not None else "-".rjust(width)


def print_table(results: List[SizeResult], out=sys.stdout) -> None:
    header = (f"{'ranks':>6} {'iter':>5} {'allred':>6} {'actions':>9} {'simulator':>9} {'wall s':>9} {'cpu s':>9} "
              f"{'actions/s':>11} {'peak MiB':>9} {'simulated s':>12}")
    print(header, file=out)
    print("-" * len(header), file=out)
    notes: List[str] = []
    for r in results:
        for name in ("mpisim", "smpi"):
            run = r.runs[name]
            label = name
            if run.note:
                notes.append(f"({len(notes) + 1}) {r.ranks} ranks, {name}: {run.note}")
                label += f"({len(notes)})"
            status = f"  FAILED ({run.error.splitlines()[0][:60]})" if run.error else ""
            print(f"{r.ranks:>6} {r.iterations:>5} {r.allreduces:>6} {r.actions:>9} {label:>9} "
                  f"{run.wall_seconds:>9.2f} {run.cpu_seconds:>9.2f} {run.actions_per_second:>11.0f} "
                  f"{run.max_rss_kib / 1024:>9.1f} {_fmt(run.simulated_time, '>12.6f')}{status}", file=out)
    for note in notes:
        print(note, file=out)
    print(file=out)
    print(f"{'ranks':>6} {'simulated time diff':>20} {'actions/s mpisim/SMPI':>22} {'(per cpu s)':>12} "
          f"{'memory mpisim/SMPI':>19}  target", file=out)
    for r in results:
        diff, speed, memory = r.relative_difference(), r.speed_ratio(), r.memory_ratio()
        met = (speed is not None and memory is not None and speed >= TARGET_SPEEDUP and memory <= TARGET_MEMORY)
        print(f"{r.ranks:>6} {_fmt(None if diff is None else 100 * diff, '>19.4f')}% {_fmt(speed, '>21.2f')}x "
              f"{_fmt(r.cpu_speed_ratio(), '>11.2f')}x {_fmt(memory, '>18.2f')}x  {'met' if met else 'NOT met'}",
              file=out)
    print(f"target: actions/s >= {TARGET_SPEEDUP:g}x SMPI's and peak memory <= SMPI's; simulated times within "
          f"{100 * TOLERANCE:g} % (actions/s = trace actions / wall seconds; peak = max RSS of the command)", file=out)


def mpisim_version(results: List[SizeResult]) -> str:
    """The version mpisim wrote in its JSON result (it has no --version option)."""
    for r in results:
        version = r.runs["mpisim"].version
        if version:
            return version
    return "unknown"


def tool_version(command: List[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        return (done.stdout + done.stderr).strip().splitlines()[-1]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", default="64,1024,16384", help="comma-separated rank counts (default %(default)s)")
    parser.add_argument("--iterations", type=int, default=None,
                        help=f"stencil iterations at every size (default per size: {DEFAULT_ITERATIONS}, "
                             "else 40000 / ranks, at least 3)")
    parser.add_argument("--allreduce-every", type=int, default=5,
                        help="an allreduce every N iterations, 0 for none (default 5)")
    parser.add_argument("--imbalance", type=float, default=0.05,
                        help="compute of each rank varies by up to +-this fraction (default 0.05; 0 synchronizes "
                             "all ranks: a stress case, see bench/README.md)")
    parser.add_argument("--backbone", type=float, default=0.0, metavar="GBPS",
                        help="add a shared backbone of GBPS x ranks Gbps to the cluster (default: none; a stress "
                             "case, quadratic for both simulators, see bench/README.md)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--workdir", help="folder for traces, platforms and logs (default: a temporary folder, "
                                          "removed at the end unless --keep)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--mpisim", default=None, help="mpisim command (default: .venv/bin/mpisim, else PATH)")
    parser.add_argument("--smpirun", default=shutil.which("smpirun") or "smpirun", help="smpirun command")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed per run (default 3600)")
    parser.add_argument("--models", metavar="M1,M2,...",
                        help="compare mpisim's network models with one another instead of mpisim with smpirun "
                             "(e.g. xsim,smpi: actions/s of the first over the second; no agreement check)")
    args = parser.parse_args(argv)

    sizes = [int(x) for x in args.ranks.split(",") if x.strip()]
    mpisim = args.mpisim or os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim")
    if not os.path.exists(mpisim):
        mpisim = shutil.which("mpisim") or mpisim
    tools = {"mpisim": mpisim} if args.models else {"mpisim": mpisim, "smpirun": args.smpirun}
    for name, path in tools.items():
        if shutil.which(path) is None:
            parser.error(f"{name} not found at '{path}'")
    if not os.path.exists("/usr/bin/time"):
        parser.error("/usr/bin/time is missing (Debian package `time`): it measures each run's peak memory")

    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="mpisim-replay-bench-")
    if any(c.isspace() for c in workdir):   # smpirun (a shell script) splits its arguments on blanks
        parser.error(f"the work folder must not contain blanks: '{workdir}'")
    if args.models:
        return compare_models(args, sizes, mpisim, workdir)
    results: List[SizeResult] = []
    try:
        for ranks in sizes:
            iterations = args.iterations or DEFAULT_ITERATIONS.get(ranks) or max(3, round(40000 / ranks))
            app = Stencil(iterations=iterations, allreduce_every=args.allreduce_every, imbalance=args.imbalance)
            results.append(bench_size(ranks, app, tools, workdir, args.timeout, args.backbone))
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        elif results:
            progress(f"generated files kept in {workdir}")

    app = Stencil(iterations=0, imbalance=args.imbalance)
    network = (f"shared backbone of {args.backbone:g} Gbps x ranks" if args.backbone > 0
               else "no backbone (crossbar)")
    print(f"Replay benchmark: 3-D halo exchange (6 neighbours, faces {'/'.join(map(str, app.face_bytes()))} B, "
          f"{app.base_flops():.3g} flops +-{100 * app.imbalance:g} % per iteration), 8 B allreduce every "
          f"{args.allreduce_every} iterations; flat cluster, 10 Gbps / 1 us links, {network}, one rank per host")
    print_table(results)

    failed = [r for r in results if any(run.error for run in r.runs.values())]
    disagree = [r for r in results if r.relative_difference() is None or r.relative_difference() > TOLERANCE]
    if args.json:
        document = {
            "benchmark": "replay_bench",
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": [os.path.basename(sys.argv[0])] + (argv if argv is not None else sys.argv[1:]),
            "machine": {"host": host_platform.node(), "cpus": os.cpu_count(), "python": host_platform.python_version()},
            "versions": {"mpisim": mpisim_version(results),
                         "smpirun": tool_version([args.smpirun, "-version"])},
            "trace": {"pattern": "3-D periodic halo exchange, isend/irecv/waitall, allreduce",
                      "face_bytes": list(app.face_bytes()), "base_flops": app.base_flops(),
                      "imbalance": app.imbalance, "allreduce_every": args.allreduce_every},
            "platform": {"cluster": "flat, 1Gf hosts, 10Gbps/1us private links, one rank per host",
                         "backbone_gbps_per_host": args.backbone},
            "target": {"actions_per_second_ratio_at_least": TARGET_SPEEDUP, "max_rss_ratio_at_most": TARGET_MEMORY,
                       "simulated_time_tolerance": TOLERANCE},
            "results": [r.to_dict() for r in results],
        }
        with open(args.json, "w") as out:
            json.dump(document, out, indent=2)
            out.write("\n")
    if failed:
        return 2
    return 1 if disagree else 0


def compare_models(args, sizes: List[int], mpisim: str, workdir: str) -> int:
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    if len(models) < 2:
        progress("--models needs two models at least")
        return 2
    rows = []
    try:
        for ranks in sizes:
            iterations = args.iterations or DEFAULT_ITERATIONS.get(ranks) or max(3, round(40000 / ranks))
            app = Stencil(iterations=iterations, allreduce_every=args.allreduce_every, imbalance=args.imbalance)
            actions, runs = bench_models(ranks, app, mpisim, models, workdir, args.timeout)
            rows.append((ranks, iterations, actions, runs))
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"Replay benchmark, mpisim's models compared: {', '.join(models)} (the stencil trace and flat cluster "
          "below, one rank per host)")
    print_models_table(rows, models)
    if args.json:
        document = {"benchmark": "replay_bench --models", "models": models,
                    "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                    "machine": {"host": host_platform.node(), "cpus": os.cpu_count()},
                    "results": [{"ranks": r, "iterations": i, "actions": a,
                                 "runs": {m: {**asdict(run), "actions_per_second": run.actions_per_second}
                                          for m, run in runs.items()}} for r, i, a, runs in rows]}
        with open(args.json, "w") as out:
            json.dump(document, out, indent=2)
            out.write("\n")
    return 2 if any(run.error for _, _, _, runs in rows for run in runs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
