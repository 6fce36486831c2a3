"""`mpisim study resilience`: completion time under process failures, against the checkpoint interval.

Runs a checkpointing program (docs/failures.md, "mpisim study resilience": the contract) with `mpisim run
--fail-mtbf M --seed S --restart R`, or replays a trace with replay's own coordinated checkpoints (`mpisim replay
--checkpoint-interval T --checkpoint-cost C --fail-mtbf M --seed S --restart R`), for every per-rank MTBF M of a
log-spaced range and every checkpoint interval, K times with seeds S..S+K-1, and reports the mean completion time and
its spread; the plot marks Young's and Daly's optimal intervals (J. W. Young, CACM 17(9), 1974; J. T. Daly, FGCS
22(3), 2006)."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional, Sequence

from mpisim.study import ProgressBar

# SimGrid's time units (a bare number is seconds).
_SECONDS = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "m": 60.0, "min": 60.0, "h": 3600.0,
            "d": 86400.0, "w": 604800.0}
_TIME = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-z]*)\s*$")

# What the program reads (the contract): seconds of work between checkpoints, seconds a checkpoint takes.
INTERVAL_VARIABLE = "MPISIM_CHECKPOINT_INTERVAL"
COST_VARIABLE = "MPISIM_CHECKPOINT_COST"


def parse_time(text: str, option: str) -> float:
    match = _TIME.match(text)
    if not match or match.group(2) not in _SECONDS:
        raise ValueError(f"{option}: not a time: '{text}' (examples: 30s, 10m, 1.5h, 2d)")
    return float(match.group(1)) * _SECONDS[match.group(2)]


def log_spaced(low: float, high: float, count: int) -> List[float]:
    """`count` values from low to high, equally spaced on a log scale (both ends included)."""
    if count == 1 or low == high:
        return [low]
    ratio = (high / low) ** (1.0 / (count - 1))
    return [low * ratio ** i for i in range(count - 1)] + [high]


def parse_time_range(text: str, option: str, default_count: int) -> List[float]:
    """'A:B[:N]': N values log-spaced from A to B (default_count when N is not given); 'a,b,c': those times."""
    if ":" in text:
        parts = text.split(":")
        if len(parts) > 3:
            raise ValueError(f"{option}: '{text}': expected A:B or A:B:N")
        low, high = parse_time(parts[0], option), parse_time(parts[1], option)
        try:
            count = int(parts[2]) if len(parts) == 3 else default_count
        except ValueError:
            raise ValueError(f"{option}: '{text}': N must be a whole number") from None
        if not 0 < low <= high or count < 1:
            raise ValueError(f"{option}: '{text}': expected 0 < A <= B and N >= 1")
        return log_spaced(low, high, count)
    values = sorted({parse_time(part, option) for part in text.split(",") if part.strip()})
    if not values or values[0] <= 0:
        raise ValueError(f"{option}: '{text}': expected positive times")
    return values


def young_interval(checkpoint_cost: float, system_mtbf: float) -> float:
    """Young's first-order optimum, sqrt(2 C M)."""
    return math.sqrt(2 * checkpoint_cost * system_mtbf)


def daly_interval(checkpoint_cost: float, system_mtbf: float) -> float:
    """Daly's higher-order optimum (docs/failures.md); M itself when C >= 2M."""
    c, m = checkpoint_cost, system_mtbf
    if c >= 2 * m:
        return m
    x = c / (2 * m)
    return math.sqrt(2 * c * m) * (1 + math.sqrt(x) / 3 + x / 9) - c


def run_once(program: str, arguments: Sequence[str], runner_options: Sequence[str], ranks: int, mtbf: float,
             seed: int, interval: float, checkpoint_cost: float, restart_cost: float, restarts: int) -> Dict:
    """One simulated run in a fresh working directory (no checkpoint left from another run): its summary."""
    with tempfile.TemporaryDirectory(prefix="mpisim-resilience-") as directory:
        summary = os.path.join(directory, "summary.json")
        command = [sys.executable, "-m", "mpisim", "run", "-np", str(ranks), *runner_options,
                   "--fail-mtbf", repr(mtbf), "--seed", str(seed), "--restart", str(restarts),
                   "--restart-cost", repr(restart_cost), "--json", "--summary", summary,
                   os.path.abspath(program), *arguments]
        environment = dict(os.environ, **{INTERVAL_VARIABLE: repr(interval), COST_VARIABLE: repr(checkpoint_cost)})
        done = subprocess.run(command, cwd=directory, env=environment, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if not os.path.exists(summary):
            last = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
            raise ValueError(f"study resilience: the run did not complete: {last[0]}")
        with open(summary) as file:
            return json.load(file)


class TraceRuns:
    """Replays of a trace in this process, each with the study's failures and replay's checkpoint/restart: the
    command line of `mpisim replay` (the trace, its platform, -np and --run-options) and the study's options."""

    def __init__(self, trace: str, replay_options: Sequence[str]):
        from mpisim.cli import build_parser

        self.trace = trace
        self.replay_options = list(replay_options)
        self._parser = build_parser()
        plain = self._replay([])
        self.ranks = len(plain.ranks)
        self.failure_free = plain.simulated_time

    def _replay(self, options: Sequence[str]):
        from mpisim.cli import _replay

        return _replay(self._parser.parse_args(["replay", self.trace, *self.replay_options, *options]))

    def run_once(self, mtbf: float, seed: int, interval: float, checkpoint_cost: float, restart_cost: float,
                 restarts: int) -> Dict:
        """One replay: its summary in the shape of `mpisim run --json`'s (outcome, simulated_time, failures,
        attempts). Out of restarts, the failed rank's trace stops: a deadlock, or an end with a failed rank, is an
        incomplete run."""
        from mpisim._core import DeadlockError

        options = ["--checkpoint-interval", repr(interval), "--checkpoint-cost", repr(checkpoint_cost),
                   "--fail-mtbf", repr(mtbf), "--seed", str(seed), "--restart", str(restarts),
                   "--restart-cost", repr(restart_cost)]
        try:
            result = self._replay(options)
        except DeadlockError:
            return {"outcome": "process-failure", "failures": [None] * (restarts + 1),
                    "attempts": [None] * (restarts + 1)}
        outcome = result.attempts[-1]["outcome"]
        return {"outcome": outcome, "simulated_time": result.simulated_time, "failures": result.failures,
                "attempts": result.attempts, "checkpoints": len(result.checkpoints)}


def is_trace(path: str) -> bool:
    """A trace (an index or single-file TI trace, an OTF2 archive or its folder) rather than a program: anything
    that is not an executable file starting as an ELF binary or a script does."""
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        return True
    with open(path, "rb") as file:
        start = file.read(4)
    return not (start == b"\x7fELF" or start.startswith(b"#!"))


def summarize(times: Sequence[float]) -> Dict[str, float]:
    if not times:
        return {"mean": math.nan, "std": math.nan, "min": math.nan, "max": math.nan}
    return {"mean": statistics.fmean(times), "std": statistics.stdev(times) if len(times) > 1 else 0.0,
            "min": min(times), "max": max(times)}


def run_study(program: str, arguments: Sequence[str], runner_options: Sequence[str], ranks: int,
              mtbfs: Sequence[float], intervals: Sequence[float], checkpoint_cost: float, restart_cost: float,
              runs: int, seed: int, restarts: int, progress: Optional[ProgressBar] = None,
              trace: Optional[TraceRuns] = None) -> List[Dict]:
    """A program's runs, or a trace's replays when `trace` is given (`program`, `arguments` and `runner_options`
    then unused)."""
    rows = []
    for mtbf in mtbfs:
        system_mtbf = mtbf / ranks  # N ranks each of MTTF m: the job fails at rate N/m
        for interval in intervals:
            times, failures, attempts, incomplete = [], 0, 0, 0
            for k in range(runs):
                if trace is not None:
                    summary = trace.run_once(mtbf, seed + k, interval, checkpoint_cost, restart_cost, restarts)
                else:
                    summary = run_once(program, arguments, runner_options, ranks, mtbf, seed + k, interval,
                                       checkpoint_cost, restart_cost, restarts)
                failures += len(summary.get("failures", []))
                attempts += max(1, len(summary.get("attempts", [])))
                if summary["outcome"] == "ok":
                    times.append(summary["simulated_time"])
                else:  # out of restarts
                    incomplete += 1
                if progress:
                    progress.advance(f"MTBF {mtbf:g} s, interval {interval:g} s, seed {seed + k}")
            row = {"mtbf": mtbf, "system_mtbf": system_mtbf, "interval": interval, "checkpoint_cost": checkpoint_cost,
                   "restart_cost": restart_cost, "runs": runs, "completed": len(times), "incomplete": incomplete}
            row.update(summarize(times))
            row.update({"mean_failures": failures / runs, "mean_attempts": attempts / runs,
                        "young": young_interval(checkpoint_cost, system_mtbf),
                        "daly": daly_interval(checkpoint_cost, system_mtbf)})
            rows.append(row)
    return rows


COLUMNS = ["mtbf", "system_mtbf", "interval", "checkpoint_cost", "restart_cost", "runs", "completed", "incomplete",
           "mean", "std", "min", "max", "mean_failures", "mean_attempts", "young", "daly"]


def write_csv(rows: Sequence[Dict], path: str, provenance: Sequence) -> None:
    """'#' lines of provenance (pandas: read_csv(path, comment='#')), then one row per (MTBF, interval)."""
    with open(path, "w") as out:
        out.write("# mpisim study resilience: completion time (simulated seconds) per per-rank MTBF and checkpoint "
                  "interval\n")
        for key, value in provenance:
            out.write(f"# {key}: {value}\n")
        out.write(",".join(COLUMNS) + "\n")
        for row in rows:
            out.write(",".join(repr(row[c]) if isinstance(row[c], float) else str(row[c]) for c in COLUMNS) + "\n")


def _time_label(seconds: float) -> str:
    for unit, factor in (("d", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= factor:
            return f"{seconds / factor:.3g} {unit}"
    return f"{seconds:.3g} s"


def plot_study(rows: Sequence[Dict], path: str, title: str) -> None:
    """Mean completion time (error bars: standard deviation) against the interval, a line per MTBF; Young's optimum
    a dashed vertical line, Daly's a dotted one, in the line's colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(7.5, 4.8))
    colours = plt.get_cmap("viridis")
    mtbfs = sorted({r["mtbf"] for r in rows})
    for index, mtbf in enumerate(mtbfs):
        colour = colours(index / max(1, len(mtbfs) - 1) * 0.9)
        points = sorted((r["interval"], r["mean"], r["std"]) for r in rows if r["mtbf"] == mtbf)
        ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=[p[2] for p in points], color=colour,
                    marker="o", markersize=4, capsize=3, linewidth=1.3, label=f"MTBF {_time_label(mtbf)} per rank")
        first = next(r for r in rows if r["mtbf"] == mtbf)
        if first["checkpoint_cost"] > 0:
            ax.axvline(first["young"], color=colour, linestyle="--", linewidth=1, alpha=0.8)
            ax.axvline(first["daly"], color=colour, linestyle=":", linewidth=1.2, alpha=0.8)
    ax.plot([], [], color="grey", linestyle="--", label="Young: sqrt(2 C M)")
    ax.plot([], [], color="grey", linestyle=":", label="Daly")
    ax.set_xscale("log")
    ax.set_xlabel("checkpoint interval (s of work)")
    ax.set_ylabel("completion time (simulated s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def cmd_study_resilience(args: argparse.Namespace) -> int:
    if not os.path.exists(args.program):
        raise ValueError(f"study resilience: {args.program}: no such file")
    tracing = args.trace or is_trace(args.program)
    if tracing and args.args:
        raise ValueError(f"study resilience: {args.program} is a trace: --args is for programs")
    mtbfs = parse_time_range(args.mtbf, "--mtbf", 3)
    intervals = parse_time_range(args.checkpoint_interval, "--checkpoint-interval", 5)
    checkpoint_cost = parse_time(args.checkpoint_cost, "--checkpoint-cost")
    restart_cost = parse_time(args.restart_cost, "--restart-cost")
    if args.runs < 1 or (args.np is not None and args.np < 1):
        raise ValueError("study resilience: --runs and -np must be at least 1")
    arguments = shlex.split(args.args or "")
    trace = None
    if tracing:  # replay's checkpoint/restart; -np and the platform default to the trace's ranks
        replay_options = ["--np", str(args.np)] if args.np else []
        if args.platform:
            replay_options += ["--platform", args.platform]
        replay_options += shlex.split(args.run_options or "")
        if not args.platform:  # its ranks counted by a replay on one host (ranks wrap around the hosts)
            ranks = TraceRuns(args.program, [*replay_options, "--platform", "cluster:1"]).ranks
            replay_options += ["--platform", f"cluster:{ranks}"]
        trace = TraceRuns(args.program, replay_options)
        ranks, runner_options = trace.ranks, replay_options
    else:
        ranks = args.np or 4
        runner_options = ["--platform", args.platform or f"cluster:{ranks}", *shlex.split(args.run_options or "")]
    total = len(mtbfs) * len(intervals) * args.runs
    rows = run_study(args.program, arguments, runner_options, ranks, mtbfs, intervals, checkpoint_cost,
                     restart_cost, args.runs, args.seed, args.max_restarts, None if args.quiet else ProgressBar(total),
                     trace)
    from mpisim import __version__

    provenance = [("mpisim_version", __version__), ("trace" if trace else "program", os.path.abspath(args.program)),
                  ("arguments", " ".join(arguments)), ("ranks", ranks),
                  ("replay_options" if trace else "runner_options", " ".join(runner_options)),
                  ("seeds", f"{args.seed}..{args.seed + args.runs - 1}"), ("max_restarts", args.max_restarts)]
    if trace:
        provenance.append(("failure_free_time", repr(trace.failure_free)))
    write_csv(rows, args.output, provenance)
    print(f"{'MTBF/rank':>12} {'interval':>10} {'mean':>12} {'std':>10} {'done':>5} {'fails':>6} "
          f"{'Young':>10} {'Daly':>10}")
    for r in rows:
        print(f"{_time_label(r['mtbf']):>12} {r['interval']:>10.4g} {r['mean']:>12.6g} {r['std']:>10.4g} "
              f"{r['completed']:>2}/{r['runs']:<2} {r['mean_failures']:>6.2f} {r['young']:>10.4g} {r['daly']:>10.4g}")
    print(f"{len(rows)} configurations written to {args.output}")
    if trace:
        print(f"failure-free replay: {trace.failure_free:.6g} s, without checkpoints")
    if args.plot:
        plot_study(rows, args.plot, f"{os.path.basename(args.program)} on {ranks} ranks: checkpoint cost "
                                    f"{_time_label(checkpoint_cost)}, restart cost {_time_label(restart_cost)}")
        print(f"plot written to {args.plot}")
    return 0


def add_resilience_command(kinds) -> None:
    p = kinds.add_parser(
        "resilience", help="completion time under process failures against the checkpoint interval",
        description="Runs PROGRAM (a checkpointing MPI program: it reads the interval from $MPISIM_CHECKPOINT_INTERVAL "
                    "and the checkpoint cost from $MPISIM_CHECKPOINT_COST, in seconds, and resumes from its own "
                    "checkpoint files; docs/failures.md) with mpisim run --fail-mtbf M --seed S --restart, or replays "
                    "TRACE with mpisim replay --checkpoint-interval T --checkpoint-cost C --fail-mtbf M --seed S "
                    "--restart (replay's coordinated checkpoints), for every per-rank MTBF and checkpoint interval, "
                    "RUNS times with seeds S..S+RUNS-1; prints and writes the mean completion time and its spread, and "
                    "plots it with Young's and Daly's optimal intervals (system MTBF M/N for N ranks).")
    p.add_argument("program", metavar="PROGRAM_OR_TRACE",
                   help="the checkpointing program (built with mpisim cc), or a trace (anything that is not an "
                        "executable ELF file or script: a TI index or single file, an OTF2 archive)")
    p.add_argument("--trace", action="store_true", help="PROGRAM_OR_TRACE is a trace, whatever it looks like")
    p.add_argument("--mtbf", required=True,
                   help="per-rank mean times to failure: A:B[:N] (N values log-spaced, default 3) or a,b,c; "
                        "units s, m(in), h, d (e.g. 1h:100h:3)")
    p.add_argument("--checkpoint-interval", required=True,
                   help="seconds of work between checkpoints: A:B[:N] (log-spaced, default 5) or a,b,c")
    p.add_argument("--checkpoint-cost", default="0", help="time a checkpoint takes, passed to the program (default 0)")
    p.add_argument("--restart-cost", default="0", help="mpisim run --restart-cost (default 0)")
    p.add_argument("--runs", type=int, default=5, help="runs per configuration (default 5)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first run (default 1)")
    p.add_argument("-np", "--np", type=int, default=None,
                   help="ranks (default: a program 4, a trace as many as it lists)")
    p.add_argument("--platform", help="platform (default cluster:NP)")
    p.add_argument("--max-restarts", type=int, default=1000,
                   help="mpisim run --restart: attempts beyond it leave the run incomplete (default 1000)")
    p.add_argument("--args", help="the program's arguments, one string (--args='-n 10' when it starts with '-')")
    p.add_argument("--run-options",
                   help="more mpisim run options (a trace: mpisim replay options), one string, with '=': "
                        "--run-options='--no-compute-time'")
    p.add_argument("-o", "--output", default="resilience.csv", help="CSV file (default resilience.csv)")
    p.add_argument("--plot", help="PNG/SVG/PDF of completion time against the interval")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_study_resilience)
