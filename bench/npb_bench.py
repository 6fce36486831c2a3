#!/usr/bin/env python3
"""NAS Parallel Benchmarks (NPB 3.4 MPI) under `mpisim run` and SimGrid 3.32's `smpirun`, in one command.

Given an NPB3.4-MPI folder (not part of this repository: docs/online.md says where to get it), the script makes two
copies of it in `--workdir` (left there, so that a second run reuses the programs), one built by `mpisim fc`/`mpisim
cc` and one by `smpiff`/`smpicc` (each copy's config/make.def is the template with only the compiler lines changed,
and `RAND = randdp`: the template's `randi8` does not compile with gfortran 10 and later), builds the benchmarks of
`--benchmarks` at `--class`, then runs each on `--ranks` ranks of the same platform and hostfile under both simulators,
computation not simulated on either side (`--no-compute-time`, `smpi/simulate-computation:no`: both execute it, neither
injects it), one simulator after the other, `--repeat` times. With `--simulate-computation` both simulators measure
the computation they execute and inject it as simulated time (their defaults; the speed target of issue 15 is stated
this way): the end dates then depend on each run's measured times, so they are printed but not compared.

Per benchmark it prints whether NPB's own check passed on both sides (`Verification = SUCCESSFUL`), the time NPB
prints, the simulated end dates (mpisim's from `--json`, smpirun's from `smpi/display-timing`, six digits) and their
relative difference, and the ratios smpirun / mpisim of:
- wall time: the median over the repetitions of each simulator's elapsed time (start-up and output included);
- CPU time: the same with user + system time of the run's processes (steadier than wall time on a busy machine);
- peak memory: the largest resident set size of any process of the run (`wait4`'s `ru_maxrss` over the run's process
  tree: the simulator itself, not the front end script; the largest over the repetitions).
The machine may be shared: run both back to back several times (`--repeat`) and read the ratios, not the absolute
times.

Exit status: 0 when every benchmark verified on both sides and the end dates agree within `--tolerance` (relative;
with `--simulate-computation`, verification only), 1 when not, 2 when a build or a run failed.

Run from the project root:
    .venv/bin/python bench/npb_bench.py /path/to/NPB3.4-MPI [--benchmarks cg,ep,ft,is,lu,mg,bt,sp] [--class A]
        [--ranks 64] [--repeat 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARKS = ["cg", "ep", "ft", "is", "lu", "mg", "bt", "sp"]
SQUARE_ONLY = {"bt", "sp"}  # BT and SP need a square rank count
VERIFIED = re.compile(r"Verification\s*=\s*SUCCESSFUL")
NPB_TIME = re.compile(r"Time in seconds\s*=\s*([0-9.eE+-]+)")
SMPI_END = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Building the two copies


@dataclass
class Side:
    name: str          # "mpisim" or "smpi"
    fortran: str       # MPIFC of make.def
    c: str             # MPICC of make.def
    folder: str = ""   # the copy of NPB3.4-MPI


def make_def(template: str, side: Side) -> str:
    """The template with the compiler lines of `side` and the portable random number generator."""
    lines = []
    for line in template.splitlines():
        if re.match(r"^MPIFC\s*=", line):
            line = f"MPIFC = {side.fortran}"
        elif re.match(r"^MPICC\s*=", line):
            line = f"MPICC = {side.c}"
        elif re.match(r"^RAND\s*=", line):
            line = "RAND   = randdp"
        lines.append(line)
    return "\n".join(lines) + "\n"


def prepare_copy(npb: str, side: Side, workdir: str) -> None:
    side.folder = os.path.join(workdir, side.name)
    if not os.path.isdir(side.folder):
        shutil.copytree(npb, side.folder, ignore=shutil.ignore_patterns("*.o", "*.mod", "*.x"))
    os.makedirs(os.path.join(side.folder, "bin"), exist_ok=True)
    with open(os.path.join(npb, "config", "make.def.template")) as template:
        text = make_def(template.read(), side)
    path = os.path.join(side.folder, "config", "make.def")
    if os.path.exists(path) and open(path).read() == text:
        return
    if os.path.exists(path):  # other compilers than the copy was built with: objects and programs go
        subprocess.run(["make", "veryclean"], cwd=side.folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(path, "w") as out:
        out.write(text)


def program(side: Side, benchmark: str, klass: str) -> str:
    return os.path.join(side.folder, "bin", f"{benchmark}.{klass}.x")


def build(side: Side, benchmark: str, klass: str) -> Optional[str]:
    """Builds the benchmark unless its program is there; the error text when the build fails."""
    if os.path.exists(program(side, benchmark, klass)):
        return None
    progress(f"building {benchmark}.{klass} for {side.name}")
    log = os.path.join(side.folder, f"build-{benchmark}.{klass}.log")
    with open(log, "w") as out:
        done = subprocess.run(["make", benchmark.upper(), f"CLASS={klass}"], cwd=side.folder, stdout=out,
                              stderr=subprocess.STDOUT)
    if done.returncode != 0 or not os.path.exists(program(side, benchmark, klass)):
        return f"build of {benchmark}.{klass} for {side.name} failed, see {log}"
    return None


# ---------------------------------------------------------------------------------------------------------------
# Runs


@dataclass
class Run:
    simulator: str
    command: List[str]
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0         # user + system time of the run's process tree (wait4)
    max_rss_kib: int = 0
    end_date: Optional[float] = None
    end_date_text: str = ""
    npb_time: Optional[str] = None
    verified: bool = False
    returncode: int = 0
    load_before: float = 0.0


def run_command(simulator: str, command: List[str], cwd: str, log: str, timeout: float) -> Run:
    """Runs `command`, its output in `log`; elapsed time, and peak RSS of its process tree from wait4."""
    run = Run(simulator, command, load_before=os.getloadavg()[0])
    with open(log, "w") as out:
        start = time.monotonic()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(process.pid, 9)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.05)
        run.wall_seconds = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    run.returncode = process.returncode
    run.max_rss_kib = usage.ru_maxrss
    run.cpu_seconds = usage.ru_utime + usage.ru_stime
    with open(log, errors="replace") as out:
        text = out.read()
    run.verified = bool(VERIFIED.search(text))
    npb_time = NPB_TIME.search(text)
    run.npb_time = npb_time.group(1) if npb_time else None
    return run


def run_mpisim(args: argparse.Namespace, side: Side, benchmark: str, logdir: str, index: int) -> Run:
    summary = os.path.join(logdir, f"mpisim-{benchmark}-{index}.json")
    compute = [] if args.simulate_computation else ["--no-compute-time"]
    command = [args.mpisim, "run", "-np", str(args.ranks), "--platform", args.platform, "--hostfile", args.hostfile,
               *compute, "--json", "--summary", summary, program(side, benchmark, args.klass)]
    run = run_command("mpisim", command, side.folder, os.path.join(logdir, f"mpisim-{benchmark}-{index}.out"),
                      args.timeout)
    try:
        with open(summary) as result:
            value = json.load(result)["simulated_time"]
        run.end_date, run.end_date_text = float(value), str(value)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return run


def run_smpirun(args: argparse.Namespace, side: Side, benchmark: str, logdir: str, index: int) -> Run:
    log = os.path.join(logdir, f"smpirun-{benchmark}-{index}.out")
    compute = [] if args.simulate_computation else ["--cfg=smpi/simulate-computation:no"]
    command = [args.smpirun, "-np", str(args.ranks), "-platform", args.platform, "-hostfile", args.hostfile,
               *compute, "--cfg=smpi/display-timing:yes", program(side, benchmark, args.klass)]
    run = run_command("smpirun", command, side.folder, log, args.timeout)
    with open(log, errors="replace") as out:
        end = SMPI_END.search(out.read())
    if end:
        run.end_date, run.end_date_text = float(end.group(1)), end.group(1)
    return run


# ---------------------------------------------------------------------------------------------------------------
# Results


@dataclass
class Result:
    benchmark: str
    mpisim: List[Run] = field(default_factory=list)
    smpirun: List[Run] = field(default_factory=list)
    error: str = ""

    def _last(self, simulator: str) -> Optional[Run]:
        runs = getattr(self, simulator)
        return runs[-1] if runs else None

    def verified(self) -> bool:
        return bool(self.mpisim and self.smpirun) and all(r.verified for r in self.mpisim + self.smpirun)

    def relative_difference(self) -> Optional[float]:
        mine, theirs = self._last("mpisim"), self._last("smpirun")
        if mine is None or theirs is None or mine.end_date is None or not theirs.end_date:
            return None
        return (mine.end_date - theirs.end_date) / theirs.end_date

    def wall_ratio(self) -> Optional[float]:
        if not self.mpisim or not self.smpirun:
            return None
        return statistics.median(r.wall_seconds for r in self.smpirun) / statistics.median(
            r.wall_seconds for r in self.mpisim)

    def cpu_ratio(self) -> Optional[float]:
        if not self.mpisim or not self.smpirun:
            return None
        return statistics.median(r.cpu_seconds for r in self.smpirun) / statistics.median(
            r.cpu_seconds for r in self.mpisim)

    def memory_ratio(self) -> Optional[float]:
        if not self.mpisim or not self.smpirun:
            return None
        return max(r.max_rss_kib for r in self.smpirun) / max(1, max(r.max_rss_kib for r in self.mpisim))


def _fmt(value: Optional[float], spec: str) -> str:
    width = int(re.match(r"\D*(\d*)", spec).group(1) or 0)
    return format(value, spec) if value is not None else "-".rjust(width)


def print_table(results: List[Result], out=sys.stdout) -> None:
    out.write(f"{'bench':>5} {'verified':>8} {'NPB time':>9} {'mpisim end (s)':>15} {'smpirun end (s)':>15} "
              f"{'rel. diff':>10} {'wall ratio':>10} {'CPU ratio':>10} {'memory ratio':>12}   (ratios: smpirun / mpisim)\n")
    for result in results:
        if result.error:
            out.write(f"{result.benchmark:>5} {result.error}\n")
            continue
        mine, theirs = result._last("mpisim"), result._last("smpirun")
        if mine is None or theirs is None:  # --repeat 0: built, not run
            out.write(f"{result.benchmark.upper():>5} built, not run\n")
            continue
        npb_time = mine.npb_time if mine.npb_time == theirs.npb_time else f"{mine.npb_time}/{theirs.npb_time}"
        out.write(f"{result.benchmark.upper():>5} {'both' if result.verified() else 'NO':>8} {npb_time or '-':>9} "
                  f"{_fmt(mine.end_date, '>15.9f')} {theirs.end_date_text or '-':>15} "
                  f"{_fmt(result.relative_difference(), '>10.1e')} {_fmt(result.wall_ratio(), '>9.2f')}x "
                  f"{_fmt(result.cpu_ratio(), '>9.2f')}x "
                  f"{_fmt(result.memory_ratio(), '>11.2f')}x\n")
    for result in results:
        if result.mpisim and result.smpirun:
            walls = ", ".join(f"{a.wall_seconds:.1f}/{b.wall_seconds:.1f} ({a.cpu_seconds:.1f}/{b.cpu_seconds:.1f})"
                              for a, b in zip(result.smpirun, result.mpisim))
            out.write(f"  {result.benchmark.upper()} wall (CPU) seconds smpirun/mpisim per repetition: {walls}; peak RSS "
                      f"{max(r.max_rss_kib for r in result.smpirun) // 1024} MiB / "
                      f"{max(r.max_rss_kib for r in result.mpisim) // 1024} MiB\n")


def write_hostfile(ranks: int, prefix: str, path: str) -> None:
    with open(path, "w") as out:
        out.writelines(f"{prefix}{i}\n" for i in range(1, ranks + 1))


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("npb", help="the NPB3.4-MPI folder of an NPB 3.4 release")
    parser.add_argument("--benchmarks", default=",".join(BENCHMARKS), help="default %(default)s")
    parser.add_argument("--class", dest="klass", default="A", help="NPB class (default %(default)s)")
    parser.add_argument("--ranks", type=int, default=64, help="default %(default)s")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each simulator per benchmark, alternated")
    parser.add_argument("--platform", default=os.path.join(PROJECT_ROOT, "platforms", "graphene.xml"))
    parser.add_argument("--hostfile", help="default: graphene-1 ... graphene-RANKS")
    parser.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "mpisim-npb-bench"),
                        help="where the two built copies and the logs go (default %(default)s)")
    parser.add_argument("--mpisim", default=os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim"))
    parser.add_argument("--smpirun", default="smpirun")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per run (default %(default)s)")
    parser.add_argument("--tolerance", type=float, default=1e-4,
                        help="largest relative difference of the end dates (default %(default)s)")
    parser.add_argument("--simulate-computation", action="store_true",
                        help="both simulators measure and inject the computation (end dates not compared)")
    parser.add_argument("--json", help="write the figures, commands and load averages to this file")
    args = parser.parse_args(argv)

    npb = os.path.abspath(args.npb)
    if not os.path.exists(os.path.join(npb, "config", "make.def.template")):
        parser.error(f"{npb} is not an NPB3.4-MPI folder (no config/make.def.template)")
    args.platform = os.path.abspath(args.platform)
    args.mpisim = os.path.abspath(args.mpisim) if os.path.exists(args.mpisim) else args.mpisim
    os.makedirs(args.workdir, exist_ok=True)
    logdir = os.path.join(args.workdir, "logs")
    os.makedirs(logdir, exist_ok=True)
    if not args.hostfile:
        args.hostfile = os.path.join(args.workdir, f"hosts{args.ranks}")
        write_hostfile(args.ranks, "graphene-", args.hostfile)
    args.hostfile = os.path.abspath(args.hostfile)

    sides = {"mpisim": Side("mpisim", f"{args.mpisim} fc", f"{args.mpisim} cc"), "smpi": Side("smpi", "smpiff",
                                                                                             "smpicc")}
    for side in sides.values():
        prepare_copy(npb, side, args.workdir)

    results: List[Result] = []
    failed = False
    for benchmark in [b.strip().lower() for b in args.benchmarks.split(",") if b.strip()]:
        result = Result(benchmark)
        results.append(result)
        if benchmark in SQUARE_ONLY and round(args.ranks ** 0.5) ** 2 != args.ranks:
            result.error = f"skipped: {benchmark.upper()} needs a square rank count"
            continue
        errors = [e for e in (build(side, benchmark, args.klass) for side in sides.values()) if e]
        if errors:
            result.error, failed = "; ".join(errors), True
            continue
        for index in range(args.repeat):
            progress(f"{benchmark}.{args.klass} on {args.ranks} ranks, repetition {index + 1}/{args.repeat}")
            result.smpirun.append(run_smpirun(args, sides["smpi"], benchmark, logdir, index))
            result.mpisim.append(run_mpisim(args, sides["mpisim"], benchmark, logdir, index))
            for run in (result.smpirun[-1], result.mpisim[-1]):
                progress(f"  {run.simulator}: {run.wall_seconds:.1f} s ({run.cpu_seconds:.1f} s CPU, load "
                         f"{run.load_before:.1f} before), {run.max_rss_kib // 1024} MiB, end date "
                         f"{run.end_date_text or '-'}, {'verified' if run.verified else 'NOT verified'}")
                failed |= run.returncode != 0
    mode = "computation simulated" if args.simulate_computation else "computation not simulated"
    print(f"NPB class {args.klass}, {args.ranks} ranks, {os.path.basename(args.platform)}, {mode}; "
          f"{args.repeat} run(s) of each simulator per benchmark")
    print_table(results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"npb": npb, "class": args.klass, "ranks": args.ranks, "platform": args.platform,
                       "results": [asdict(r) for r in results]}, out, indent=1)
    if failed:
        return 2
    ok = all(r.error or (r.verified() and (args.simulate_computation or (
        r.relative_difference() is not None and abs(r.relative_difference()) <= args.tolerance))) for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
