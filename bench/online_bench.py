#!/usr/bin/env python3
"""Online benchmark: an unmodified MPI program run by `mpisim run` and by SimGrid 3.32's `smpirun`.

Two cases, the same C program built by `mpisim cc` and by `smpicc`, the same platform XML (a flat cluster of one
1 Gf host per rank, 10 Gbps / 1 us private links) and the same hostfile for both simulators:

overhead   MPI call overhead: bench/programs/pingpong_pairs.c, `--pairs` pairs of ranks (2k, 2k+1) exchanging
           `--bytes`-byte messages `--round-trips` times each, all pairs at once. Reported: wall and CPU seconds per
           simulated message (2 x pairs x round trips messages) and the ratio SMPI / mpisim (target: at least 2x),
           both simulated loop durations (measured by rank 0 with MPI_Wtime). Run with the computation between calls
           simulated (both simulators' default; host speed set to 1 Gf on both sides, so the measured bursts weigh
           the same) and without (`--cfg=smpi/simulate-computation:no` / `--no-compute-time`: the simulated times
           must then be equal).
scale      Memory per rank: bench/programs/init_allreduce.c (MPI_Init, one MPI_Allreduce of a double, MPI_Finalize)
           at `--scale-ranks` rank counts; the memory of each run (peak RSS plus the page tables the kernel keeps
           for the process: with an 8 MiB stack per rank, a 4 KiB page of them per rank, outside RSS), the slope of
           that memory against ranks (least squares) and the rank count the slope reaches at `--target-memory`
           (labelled EXTRAPOLATED); the same for RSS alone.
           With `--search`, instead finds the largest rank count that runs within `--memory-limit` (doubling from
           `--search-start`, then bisection to `--search-precision`): each run is killed as soon as the resident
           memory and page tables of its process tree pass the limit (polled from /proc every 10 ms).
           Target: mpisim runs at least 4x SMPI's rank count in the same memory.

SMPI is run as a user would: dlopen privatization (its default), default stack size (8 MiB, `contexts/stack-size`),
which mpisim uses too (`--stack-size`). Every run is wrapped in /usr/bin/time (CPU seconds, peak RSS of the largest
process) and watched by the memory poller.

Run from the project root:  .venv/bin/python bench/online_bench.py [--cases overhead,scale] [--json out.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform as host_platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_bench import _fmt, progress, tool_version, write_hostfile, write_platform  # noqa: E402

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(PROJECT_ROOT, "bench", "programs")
TARGET_OVERHEAD = 2.0     # SMPI wall (and CPU) seconds per message over mpisim's, at least
TARGET_SCALE = 4.0        # mpisim's rank count over SMPI's in the same memory, at least
HOST_SPEED = "1Gf"        # flop/s of the real host, the same for both simulators
SIMULATION_TIME = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")  # smpi/display-timing (6 digits)
LOOP_TIME = re.compile(r"loop ([0-9.eE+-]+) s (PASSED|FAILED)")


def parse_bytes(text: str) -> int:
    """'20G', '512M', '8MiB', '1024' -> bytes (binary units)."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]?)(i?B)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: '{text}'")
    power = " KMGT".index(match.group(2).upper() or " ")
    return int(float(match.group(1)) * 1024 ** power)


# ---------------------------------------------------------------------------------------------------------------
# Tools


@dataclass
class Tools:
    mpisim: List[str]            # the mpisim command (its `cc` and `run` subcommands are used)
    env: Dict[str, str]          # environment of mpisim's commands
    smpicc: str
    smpirun: str

    def mpisim_cc(self, source: str, output: str) -> None:
        subprocess.run(self.mpisim + ["cc", "-O2", source, "-o", output], check=True, env=self.env)

    def smpi_cc(self, source: str, output: str) -> None:
        subprocess.run([self.smpicc, "-O2", source, "-o", output], check=True, capture_output=True)


def find_tools(args: argparse.Namespace) -> Tools:
    """A source checkout whose package has its native core built next to it runs its own sources and its build's
    online tools; otherwise `.venv/bin/mpisim`, else the one on PATH."""
    env = dict(os.environ)
    if args.mpisim:
        command = shlex.split(args.mpisim)
    elif any(name.startswith("_core") for name in os.listdir(os.path.join(PROJECT_ROOT, "src", "mpisim"))):
        command = [sys.executable, "-m", "mpisim"]
        env["PYTHONPATH"] = os.path.join(PROJECT_ROOT, "src") + os.pathsep + env.get("PYTHONPATH", "")
        online = os.path.join(PROJECT_ROOT, "build", "src", "online")
        if "MPISIM_ONLINE_DIR" not in env and os.path.isdir(online):
            env["MPISIM_ONLINE_DIR"] = online
    else:
        venv = os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim")
        command = [venv if os.path.exists(venv) else (shutil.which("mpisim") or "mpisim")]
    return Tools(command, env, args.smpicc, args.smpirun)


# ---------------------------------------------------------------------------------------------------------------
# One run: /usr/bin/time for CPU and peak RSS, a poller that kills the run when its memory passes a limit


@dataclass
class Run:
    simulator: str
    ranks: int
    command: List[str]
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0         # user + system, from /usr/bin/time
    max_rss_kib: int = 0             # peak of the largest process of the run, the simulator (/usr/bin/time %M)
    tree_rss_kib: int = 0            # largest sum over the run's processes seen by the poller (every 20 ms)
    tree_pte_kib: int = 0            # largest sum of their page tables (VmPTE) seen by the poller
    load_before: float = 0.0         # 1-minute load average when the run started
    simulated_time: Optional[float] = None
    loop_time: Optional[float] = None  # what the program measured with MPI_Wtime (overhead case)
    returncode: int = 0
    error: str = ""
    over_memory: bool = False        # killed by the poller

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def memory_kib(self) -> int:
        """What the run costs the machine: the simulator's peak RSS plus the peak of its page tables."""
        return self.max_rss_kib + self.tree_pte_kib


def _tree_memory_kib(root: int) -> Tuple[int, int]:
    """Resident memory (VmRSS) and page tables (VmPTE) of `root` and its descendants, KiB. Page tables are memory
    the kernel spends per process, outside RSS: with one 8 MiB stack per rank, a page of them per rank."""
    children: Dict[int, List[int]] = {}
    rss: Dict[int, int] = {}
    pte: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        rss[int(entry)] = int(line.split()[1])
                    elif line.startswith("VmPTE:"):
                        pte[int(entry)] = int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    total_rss, total_pte, todo = 0, 0, [root]
    while todo:
        pid = todo.pop()
        total_rss += rss.get(pid, 0)
        total_pte += pte.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total_rss, total_pte


def measure(simulator: str, ranks: int, command: List[str], cwd: str, log_prefix: str, timeout: float,
            memory_limit: int, env: Optional[Dict[str, str]] = None) -> Run:
    """Runs `command` in its own process group under /usr/bin/time; kills the group when the resident memory of the
    process tree passes `memory_limit` bytes (polled every 20 ms) or after `timeout` seconds."""
    run = Run(simulator=simulator, ranks=ranks, command=command)
    time_file = log_prefix + ".time"
    wrapped = ["/usr/bin/time", "-f", "%U %S %M", "-o", time_file] + command
    run.load_before = os.getloadavg()[0]
    with open(log_prefix + ".out", "w") as out, open(log_prefix + ".err", "w") as err:
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, cwd=cwd, stdout=out, stderr=err, env=env, start_new_session=True)
        while process.poll() is None:
            rss, pte = _tree_memory_kib(process.pid)
            run.tree_rss_kib, run.tree_pte_kib = max(run.tree_rss_kib, rss), max(run.tree_pte_kib, pte)
            if (rss + pte) * 1024 > memory_limit:
                run.over_memory = True
                run.error = f"killed: resident memory and page tables passed {memory_limit / 2 ** 30:g} GiB"
            elif time.perf_counter() - start > timeout:
                run.error = f"timed out after {timeout:.0f} s"
            if run.error:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                break
            time.sleep(0.01)
        run.wall_seconds = time.perf_counter() - start
        run.returncode = process.returncode
    try:
        with open(time_file) as times:   # a signalled command adds a first line "Command terminated by ..."
            user, system, rss = times.read().split()[-3:]
        run.cpu_seconds, run.max_rss_kib = float(user) + float(system), int(rss)
    except (OSError, ValueError, IndexError):
        pass
    run.tree_rss_kib = max(run.tree_rss_kib, run.max_rss_kib)
    if run.returncode != 0 and not run.error:
        with open(log_prefix + ".err", errors="replace") as err:   # SimGrid's configuration lines say nothing
            lines = [line for line in err.read().splitlines() if "/INFO]" not in line and line.strip()]
        run.error = f"exit status {run.returncode}: " + "\n".join(lines[:3] + lines[3:][-5:])
    return run


def _read_outputs(log_prefix: str) -> Tuple[str, str]:
    with open(log_prefix + ".out", errors="replace") as out, open(log_prefix + ".err", errors="replace") as err:
        return out.read(), err.read()


class Runner:
    """Builds the programs once per simulator and runs them on generated platforms."""

    def __init__(self, tools: Tools, workdir: str, timeout: float, memory_limit: int, stack_size: int,
                 smpi_options: List[str]):
        self.tools, self.workdir, self.timeout = tools, workdir, timeout
        self.memory_limit, self.stack_size, self.smpi_options = memory_limit, stack_size, smpi_options
        self.binaries: Dict[Tuple[str, str], str] = {}

    def binary(self, program: str, simulator: str) -> str:
        key = (program, simulator)
        if key not in self.binaries:
            source = os.path.join(PROGRAMS, program + ".c")
            output = os.path.join(self.workdir, f"{program}-{simulator}")
            (self.tools.mpisim_cc if simulator == "mpisim" else self.tools.smpi_cc)(source, output)
            self.binaries[key] = output
        return self.binaries[key]

    def platform(self, ranks: int) -> Tuple[str, str]:
        folder = os.path.join(self.workdir, f"n{ranks}")
        os.makedirs(folder, exist_ok=True)
        return (write_platform(os.path.join(folder, "cluster.xml"), ranks),
                write_hostfile(os.path.join(folder, "hosts.txt"), ranks))

    def run(self, simulator: str, program: str, ranks: int, arguments: List[str], computation: bool,
            label: str) -> Run:
        platform, hostfile = self.platform(ranks)
        folder = os.path.dirname(platform)
        log_prefix = os.path.join(folder, f"{label}-{simulator}")
        binary = self.binary(program, simulator)
        if simulator == "mpisim":
            summary = log_prefix + ".json"
            command = self.tools.mpisim + [
                "run", "-np", str(ranks), "--platform", platform, "--hostfile", hostfile, "--model", "smpi",
                "--polling", "smpi", "--host-speed", HOST_SPEED, "--stack-size", str(self.stack_size), "--json", "--summary", summary]
            command += [] if computation else ["--no-compute-time"]
            run = measure(simulator, ranks, command + [binary] + arguments, folder, log_prefix, self.timeout,
                          self.memory_limit, self.tools.env)
            if run.ok:
                with open(summary) as f:
                    run.simulated_time = float(json.load(f)["simulated_time"])
        else:
            command = [self.tools.smpirun, "-np", str(ranks), "-platform", platform, "-hostfile", hostfile,
                       f"--cfg=smpi/host-speed:{HOST_SPEED}", "--cfg=smpi/display-timing:yes",
                       f"--cfg=contexts/stack-size:{self.stack_size // 1024}", *self.smpi_options]
            command += [] if computation else ["--cfg=smpi/simulate-computation:no"]
            run = measure(simulator, ranks, command + [binary] + arguments, folder, log_prefix, self.timeout,
                          self.memory_limit)
            match = SIMULATION_TIME.search("".join(_read_outputs(log_prefix)))
            if match:
                run.simulated_time = float(match.group(1))
            elif run.ok:
                run.error = "no 'Simulated time' in smpirun's output"
        stdout, _ = _read_outputs(log_prefix)
        loop = LOOP_TIME.search(stdout)
        if loop:
            run.loop_time = float(loop.group(1))
            if loop.group(2) != "PASSED" and run.ok:
                run.error = "the program's check FAILED"
        elif run.ok and "PASSED" not in stdout:
            run.error = "the program did not print PASSED"
        return run


def describe(run: Run) -> str:
    text = (f"{run.wall_seconds:.2f} s wall, {run.cpu_seconds:.2f} s CPU, {run.max_rss_kib / 1024:.1f} MiB RSS, "
            f"{run.tree_pte_kib / 1024:.1f} MiB page tables")
    return text + (f"  FAILED: {run.error.splitlines()[0][:200]}" if run.error else "")


# ---------------------------------------------------------------------------------------------------------------
# Overhead case


@dataclass
class OverheadResult:
    computation: bool
    pairs: int
    round_trips: int
    bytes: int
    runs: Dict[str, Run] = field(default_factory=dict)

    @property
    def messages(self) -> int:
        return 2 * self.pairs * self.round_trips

    def per_message(self, simulator: str, what: str = "wall") -> Optional[float]:
        run = self.runs.get(simulator)
        if run is None or not run.ok:
            return None
        return (run.wall_seconds if what == "wall" else run.cpu_seconds) / self.messages

    def ratio(self, what: str = "wall") -> Optional[float]:
        ours, ref = self.per_message("mpisim", what), self.per_message("smpi", what)
        return ref / ours if ours and ref else None

    def loop_difference(self) -> Optional[float]:
        ours, ref = (self.runs[s].loop_time if s in self.runs else None for s in ("mpisim", "smpi"))
        return abs(ours - ref) / ref if ours is not None and ref else None

    def to_dict(self) -> dict:
        return {"computation_simulated": self.computation, "pairs": self.pairs, "ranks": 2 * self.pairs,
                "round_trips": self.round_trips, "bytes": self.bytes, "messages": self.messages,
                "runs": {name: asdict(run) for name, run in self.runs.items()},
                "wall_seconds_per_message": {s: self.per_message(s) for s in self.runs},
                "cpu_seconds_per_message": {s: self.per_message(s, "cpu") for s in self.runs},
                "ratio_wall_smpi_over_mpisim": self.ratio(), "ratio_cpu_smpi_over_mpisim": self.ratio("cpu"),
                "loop_time_relative_difference": self.loop_difference()}


def bench_overhead(runner: Runner, args: argparse.Namespace) -> List[OverheadResult]:
    results = []
    for computation in {"both": (True, False), "on": (True,), "off": (False,)}[args.computation]:
        result = OverheadResult(computation, args.pairs, args.round_trips, args.bytes)
        label = "overhead-" + ("compute" if computation else "nocompute")
        for simulator in ("mpisim", "smpi"):
            progress(f"[overhead, computation {'simulated' if computation else 'off'}] {simulator}: "
                     f"{args.pairs} pairs x {args.round_trips} round trips of {args.bytes} B")
            run = runner.run(simulator, "pingpong_pairs", 2 * args.pairs, [str(args.round_trips), str(args.bytes)],
                             computation, label)
            result.runs[simulator] = run
            progress("  " + describe(run))
        results.append(result)
    return results


def print_overhead(results: List[OverheadResult], out=sys.stdout) -> None:
    print("MPI call overhead: ping-pong pairs (bench/programs/pingpong_pairs.c)", file=out)
    header = (f"{'computation':>11} {'ranks':>6} {'messages':>9} {'simulator':>9} {'wall s':>8} {'cpu s':>8} "
              f"{'wall us/msg':>11} {'cpu us/msg':>10} {'peak MiB':>8} {'simulated loop s':>16}")
    print(header, file=out)
    print("-" * len(header), file=out)
    for r in results:
        for name, run in r.runs.items():
            wall, cpu = r.per_message(name), r.per_message(name, "cpu")
            status = f"  FAILED ({run.error.splitlines()[0][:60]})" if run.error else ""
            print(f"{'simulated' if r.computation else 'off':>11} {2 * r.pairs:>6} {r.messages:>9} {name:>9} "
                  f"{run.wall_seconds:>8.2f} {run.cpu_seconds:>8.2f} "
                  f"{_fmt(None if wall is None else 1e6 * wall, '>11.3f')} "
                  f"{_fmt(None if cpu is None else 1e6 * cpu, '>10.3f')} {run.max_rss_kib / 1024:>8.1f} "
                  f"{_fmt(run.loop_time, '>16.9f')}{status}", file=out)
    print(file=out)
    print(f"{'computation':>11} {'SMPI/mpisim per message: wall':>30} {'cpu':>6} {'loop time diff':>15}  target",
          file=out)
    for r in results:
        wall, cpu, diff = r.ratio(), r.ratio("cpu"), r.loop_difference()
        met = wall is not None and cpu is not None and min(wall, cpu) >= TARGET_OVERHEAD
        print(f"{'simulated' if r.computation else 'off':>11} {_fmt(wall, '>29.2f')}x {_fmt(cpu, '>5.2f')}x "
              f"{_fmt(None if diff is None else 100 * diff, '>14.4f')}%  {'met' if met else 'NOT met'}", file=out)
    print(f"target: mpisim at least {TARGET_OVERHEAD:g}x faster per message (wall and CPU); without computation the "
          "simulated loop times must be equal", file=out)
    print(file=out)


# ---------------------------------------------------------------------------------------------------------------
# Scale case


@dataclass
class ScaleResult:
    simulator: str
    runs: List[Run] = field(default_factory=list)
    largest: Optional[int] = None        # --search: the largest rank count that ran within the limit
    first_failure: Optional[Run] = None  # --search: the smallest rank count that did not

    def slope(self, measure: str = "memory") -> Optional[Tuple[float, float]]:
        """(KiB per rank, KiB at zero ranks): least squares against ranks, over the successful runs, of peak RSS
        plus page tables (`memory`) or of peak RSS alone (`rss`)."""
        points = [(r.ranks, r.memory_kib if measure == "memory" else r.max_rss_kib) for r in self.runs if r.ok]
        if len(points) < 2:
            return None
        mean_x = sum(x for x, _ in points) / len(points)
        mean_y = sum(y for _, y in points) / len(points)
        sxx = sum((x - mean_x) ** 2 for x, _ in points)
        if sxx == 0:
            return None
        per_rank = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
        return per_rank, mean_y - per_rank * mean_x

    def extrapolated_ranks(self, memory: int, measure: str = "memory") -> Optional[int]:
        fit = self.slope(measure)
        if fit is None or fit[0] <= 0:
            return None
        return int((memory / 1024 - fit[1]) / fit[0])

    def to_dict(self, memory: int) -> dict:
        fit, rss_fit = self.slope(), self.slope("rss")
        return {"simulator": self.simulator, "runs": [asdict(r) for r in self.runs],
                "kib_per_rank": fit[0] if fit else None, "kib_at_zero_ranks": fit[1] if fit else None,
                "rss_kib_per_rank": rss_fit[0] if rss_fit else None,
                "extrapolated_ranks_at_target_memory": self.extrapolated_ranks(memory),
                "extrapolated_ranks_at_target_memory_rss_only": self.extrapolated_ranks(memory, "rss"),
                "largest_within_limit": self.largest,
                "first_failure": asdict(self.first_failure) if self.first_failure else None}


def bench_scale_series(runner: Runner, simulator: str, counts: List[int]) -> ScaleResult:
    result = ScaleResult(simulator)
    for ranks in counts:
        progress(f"[scale] {simulator}: {ranks} ranks")
        run = runner.run(simulator, "init_allreduce", ranks, [], False, "scale")
        result.runs.append(run)
        progress("  " + describe(run))
        if not run.ok:   # larger counts would fail too (memory, mappings, time)
            break
    return result


def bench_scale_search(runner: Runner, simulator: str, start: int, precision: float) -> ScaleResult:
    """Doubling from `start` while runs succeed, then bisection between the last success and the first failure
    until they are within `precision` (relative) of each other."""
    result = ScaleResult(simulator)

    def attempt(ranks: int) -> bool:
        progress(f"[scale search] {simulator}: {ranks} ranks")
        run = runner.run(simulator, "init_allreduce", ranks, [], False, "search")
        result.runs.append(run)
        progress("  " + describe(run))
        if not run.ok and (result.first_failure is None or ranks < result.first_failure.ranks):
            result.first_failure = run
        return run.ok

    good, bad = 0, None
    ranks = start
    while bad is None:
        if attempt(ranks):
            good, ranks = ranks, 2 * ranks
        else:
            bad = ranks
    while bad - good > max(1, precision * good):
        middle = (good + bad) // 2
        if attempt(middle):
            good = middle
        else:
            bad = middle
    result.largest = good or None
    return result


def print_scale(results: Dict[str, ScaleResult], memory: int, search: bool, out=sys.stdout) -> None:
    print("Scale: MPI_Init, one MPI_Allreduce of a double, MPI_Finalize (bench/programs/init_allreduce.c)", file=out)
    header = (f"{'simulator':>9} {'ranks':>7} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'PTE MiB':>8} "
              f"{'KiB/rank':>9} {'simulated s':>12}")
    print(header, file=out)
    print("-" * len(header), file=out)
    for name, result in results.items():
        for run in result.runs:
            status = f"  FAILED ({run.error.splitlines()[0][:70]})" if run.error else ""
            print(f"{name:>9} {run.ranks:>7} {run.wall_seconds:>8.2f} {run.cpu_seconds:>8.2f} "
                  f"{run.max_rss_kib / 1024:>9.1f} {run.tree_pte_kib / 1024:>8.1f} "
                  f"{run.memory_kib / run.ranks:>9.1f} {_fmt(run.simulated_time, '>12.9f')}{status}", file=out)
    print("(peak MiB: the simulator's peak RSS; PTE: its page tables; KiB/rank: both, per rank)", file=out)
    print(file=out)
    gib = memory / 2 ** 30
    counts: Dict[str, Optional[int]] = {}
    rss_counts: Dict[str, Optional[int]] = {}
    for name, result in results.items():
        fit = result.slope()
        if search:
            counts[name] = result.largest
            failure = result.first_failure
            why = f"; {failure.ranks} ranks: {failure.error.splitlines()[0][:80]}" if failure else ""
            print(f"{name:>9}: largest rank count within {gib:g} GiB: {_fmt(result.largest, '>8d')} (measured{why})",
                  file=out)
        else:
            counts[name] = result.extrapolated_ranks(memory)
            rss_counts[name] = result.extrapolated_ranks(memory, "rss")
            rss_fit = result.slope("rss")
            slope = f"{fit[0]:.2f} KiB per rank + {fit[1] / 1024:.1f} MiB" if fit else "-"
            rss_slope = f"{rss_fit[0]:.2f} KiB" if rss_fit else "-"
            print(f"{name:>9}: {slope} (RSS alone {rss_slope} per rank); EXTRAPOLATED rank count at {gib:g} GiB: "
                  f"{_fmt(counts[name], '>9d')} (RSS alone {_fmt(rss_counts[name], 'd')})", file=out)
    if not search and rss_counts.get("mpisim") and rss_counts.get("smpi"):
        print(f"rank count mpisim/SMPI at {gib:g} GiB counting RSS alone: "
              f"{rss_counts['mpisim'] / rss_counts['smpi']:.2f}x (EXTRAPOLATED)", file=out)
    ours, ref = counts.get("mpisim"), counts.get("smpi")
    ratio = ours / ref if ours and ref else None
    met = ratio is not None and ratio >= TARGET_SCALE
    print(f"rank count mpisim/SMPI at {gib:g} GiB, RSS and page tables: {_fmt(ratio, '.2f')}x "
          f"({'measured' if search else 'EXTRAPOLATED'})  target {TARGET_SCALE:g}x {'met' if met else 'NOT met'}",
          file=out)
    print(file=out)


# ---------------------------------------------------------------------------------------------------------------


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="overhead,scale", help="overhead, scale or both (default %(default)s)")
    parser.add_argument("--pairs", type=int, default=32, help="overhead: rank pairs (default 32: 64 ranks)")
    parser.add_argument("--round-trips", type=int, default=10000, help="overhead: per pair (default 10000)")
    parser.add_argument("--bytes", type=int, default=8, help="overhead: message size (default 8)")
    parser.add_argument("--computation", choices=("both", "on", "off"), default="both",
                        help="overhead: computation between calls simulated or not (default: both runs)")
    parser.add_argument("--scale-ranks", default="1024,2048,4096",
                        help="scale: rank counts of the series (default %(default)s)")
    parser.add_argument("--search", action="store_true",
                        help="scale: search the largest rank count within --memory-limit instead of a series")
    parser.add_argument("--search-start", type=int, default=1024, help="scale search: first rank count")
    parser.add_argument("--scale-simulators", default="mpisim,smpi", choices=("mpisim,smpi", "mpisim", "smpi"),
                        help="scale: which simulators (default both; one alone when the other cannot reach the limit "
                             "in reasonable time, e.g. SMPI at 20 GiB: its start-up is quadratic in the rank count)")
    parser.add_argument("--search-precision", type=float, default=0.05,
                        help="scale search: stop when the bracket is within this fraction (default 0.05)")
    parser.add_argument("--memory-limit", type=parse_bytes, default=parse_bytes("6G"),
                        help="each run is killed when its resident memory passes this (default 6G)")
    parser.add_argument("--target-memory", type=parse_bytes, default=parse_bytes("20G"),
                        help="scale series: memory the rank counts are extrapolated to (default 20G)")
    parser.add_argument("--stack-size", type=parse_bytes, default=parse_bytes("8M"),
                        help="stack of each rank, both simulators (default 8M, SMPI's default)")
    parser.add_argument("--smpi-option", action="append", default=[],
                        help="extra smpirun option (repeatable), e.g. --smpi-option=-no-privatize")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--workdir", help="folder for binaries, platforms and logs (default: a temporary folder, "
                                          "removed at the end unless --keep)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--mpisim", default=None, help="mpisim command (default: this checkout's sources when "
                                                       "built, else .venv/bin/mpisim, else PATH)")
    parser.add_argument("--smpicc", default=shutil.which("smpicc") or "smpicc")
    parser.add_argument("--smpirun", default=shutil.which("smpirun") or "smpirun")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed per run (default 3600)")
    args = parser.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    if any(c not in ("overhead", "scale") for c in cases):
        parser.error("--cases: overhead, scale")
    for tool in (args.smpicc, args.smpirun, "/usr/bin/time"):
        if shutil.which(tool) is None:
            parser.error(f"'{tool}' not found")
    tools = find_tools(args)
    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="mpisim-online-bench-")
    os.makedirs(workdir, exist_ok=True)
    if any(c.isspace() for c in workdir):   # smpirun (a shell script) splits its arguments on blanks
        parser.error(f"the work folder must not contain blanks: '{workdir}'")
    runner = Runner(tools, workdir, args.timeout, args.memory_limit, args.stack_size, args.smpi_option)
    overhead: List[OverheadResult] = []
    scale: Dict[str, ScaleResult] = {}
    try:
        if "overhead" in cases:
            overhead = bench_overhead(runner, args)
        if "scale" in cases:
            counts = [int(x) for x in args.scale_ranks.split(",") if x.strip()]
            for simulator in args.scale_simulators.split(","):
                scale[simulator] = (bench_scale_search(runner, simulator, args.search_start, args.search_precision)
                                    if args.search else bench_scale_series(runner, simulator, counts))
    finally:
        if not args.keep and not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            progress(f"generated files kept in {workdir}")

    print(f"Online benchmark: flat cluster of 1 Gf hosts, 10 Gbps / 1 us links, one rank per host; model smpi; "
          f"host speed {HOST_SPEED}; stack {args.stack_size // 1024} KiB per rank"
          + (f"; smpirun {' '.join(args.smpi_option)}" if args.smpi_option else ""))
    print()
    if overhead:
        print_overhead(overhead)
    limit = args.memory_limit if args.search else args.target_memory
    if scale:
        print_scale(scale, limit, args.search)
    if args.json:
        document = {
            "benchmark": "online_bench",
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": [os.path.basename(sys.argv[0])] + (argv if argv is not None else sys.argv[1:]),
            "machine": {"host": host_platform.node(), "cpus": os.cpu_count(), "python": host_platform.python_version(),
                        "vm.max_map_count": _read_int("/proc/sys/vm/max_map_count")},
            "versions": {"smpirun": tool_version([args.smpirun, "-version"])},
            "platform": {"cluster": "flat, 1Gf hosts, 10Gbps/1us private links, one rank per host"},
            "options": {"host_speed": HOST_SPEED, "stack_size": args.stack_size, "smpi_options": args.smpi_option,
                        "memory_limit": args.memory_limit, "target_memory": args.target_memory},
            "target": {"overhead_ratio_at_least": TARGET_OVERHEAD, "scale_ratio_at_least": TARGET_SCALE},
            "overhead": [r.to_dict() for r in overhead],
            "scale": {name: r.to_dict(limit) for name, r in scale.items()},
        }
        with open(args.json, "w") as out:
            json.dump(document, out, indent=2)
            out.write("\n")
    runs = [run for r in overhead for run in r.runs.values()]
    if args.search:
        return 0 if all(r.largest for r in scale.values()) else 2
    runs += [run for r in scale.values() for run in r.runs]
    return 2 if any(not run.ok for run in runs) else 0


def _read_int(path: str) -> Optional[int]:
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


if __name__ == "__main__":
    sys.exit(main())
