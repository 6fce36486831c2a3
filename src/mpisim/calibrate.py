"""`mpisim calibrate`: measure the real machine with this project's benchmark, fit the hybrid model, write its
parameters (docs/calibrate.md).

    mpisim calibrate --mpirun "mpirun -np 2 --host a,b" -o graphene.params [--sizes 1:16MiB] [--repeat 10] [--plot p.png]
    mpisim calibrate --from-csv graphene.csv -o graphene.params      # refit saved measurements, no MPI needed

Steps: compile src/mpisim/calibration/calibrate_bench.c with the user's `mpicc` into a cache folder; write the plan
(every size x test x repetition, plus the contention, concurrency and computation tests, shuffled with a fixed seed); run it under the user's `mpirun`; keep the raw CSV; fit
(mpisim.calibrate_fit); write FILE.params (the hybrid model's parameters, with the data, residuals and machine as
comments), FILE.spec (the reference platform the factors are relative to) and optionally a PNG.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import os
import platform as host_platform
import random
import re
import shlex
import shutil
import subprocess
import sys
from typing import Dict, List, Optional, Sequence, Tuple


class _FittingOnDemand:
    """mpisim.calibrate_fit, imported at its first use: it imports numpy, whose import (and OpenBLAS's thread pool,
    spinning on the CPU) every other command would pay, since the CLI imports this module to build its parser."""

    def __getattr__(self, name: str):
        from mpisim import calibrate_fit

        return getattr(calibrate_fit, name)


fitting = _FittingOnDemand()

BENCH_SOURCE = os.path.join(os.path.dirname(__file__), "calibration", "calibrate_bench.c")
# Sizes near the thresholds real libraries use (PMBS 2013's 1420 / 32768 / 65536 / 327680, Open MPI's shared-memory
# eager limit 4096 and TCP's 65536): a point on each side so the fit can place a break there if the data has one.
SUSPECTED_THRESHOLDS = (1420, 4096, 12288, 32768, 65536, 131072, 327680)
DEFAULT_SIZES = "1:16MiB"
CONTENTION_SIZE = 4 * 1024 * 1024  # the paper's 4 MiB messages, in the large mode
CONTENTION_COUNT = 8
# The in-flight and exchange tests: sizes around a halo's (the 4 MiB contention test covers the large ones), and how
# many messages are in flight at once (1 for reference; the fit uses 2 and more).
CONCURRENCY_SIZES = (4096, 16384, 65536, 262144, 1048576)
CONCURRENCY_COUNTS = (1, 2, 4)
KERNEL_PASSES = 50000
# Timed round trips of each pre-posted ping-pong line (after an untimed one): the one-way times T2 is fitted from,
# 3 per repetition so that each size's median is taken over 3 x --repeat points.
PREPOSTED_ROUNDS = 3
UNLIMITED_SIZE = 2**53  # Sd when no size was synchronous: every size stays detached
BANDWIDTH_FACTOR_CAP = 1e6  # bw-factor when a segment's time does not grow with size

_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*(B|KiB|MiB|GiB|kB|MB|GB)?\s*$")
_UNITS = {None: 1, "B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "kB": 1000, "MB": 1000**2, "GB": 1000**3}


# ----------------------------------------------------------------------------------------------------------------
# the plan


def parse_size(text: str) -> int:
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"--sizes: '{text}' is not a size (bytes, or with B, KiB, MiB, GiB, kB, MB, GB)")
    return int(float(match.group(1)) * _UNITS[match.group(2)])


def parse_sizes(text: str) -> List[int]:
    """`A:B` (log-spaced, two points per octave, plus points around the suspected thresholds inside) and/or sizes,
    comma-separated."""
    sizes = set()
    for part in text.split(","):
        if ":" in part:
            low, high = (parse_size(x) for x in part.split(":", 1))
            if not 1 <= low < high:
                raise ValueError(f"--sizes: range '{part}' must go from 1 B or more up to a larger size")
            steps = int(math.floor(2 * math.log2(high / low) + 1e-9))
            sizes.update(int(round(low * 2 ** (i / 2))) for i in range(steps + 1))
            sizes.add(high)
            for threshold in SUSPECTED_THRESHOLDS:
                for near in (threshold - threshold // 16, threshold, threshold + threshold // 16):
                    if low <= near <= high:
                        sizes.add(near)
        else:
            size = parse_size(part)
            if size < 1:
                raise ValueError("--sizes: sizes start at 1 byte")
            sizes.add(size)
    if len(sizes) < 2:
        raise ValueError("--sizes: at least 2 sizes are needed to fit")
    return sorted(sizes)


def concurrency_sizes(sizes: Sequence[int]) -> List[int]:
    """The concurrency test's sizes inside the measured range (the fit reads the model's one-way time there)."""
    return [k for k in CONCURRENCY_SIZES if min(sizes) <= k <= max(sizes)]


def make_plan(sizes: Sequence[int], repeat: int, delay: float, seed: int) -> List[str]:
    """Every measurement as a line of the benchmark's plan, in a random order fixed by the seed (so sizes and
    repetitions are not measured in sequence: drifts of the machine do not line up with sizes)."""
    lines = []
    for k in sizes:
        for _ in range(repeat):
            lines += [f"pingpong {k}", f"preposted {k} {PREPOSTED_ROUNDS}", f"ready {k}", f"late {k} {delay:.9g}"]
    for k in concurrency_sizes(sizes):
        for n in CONCURRENCY_COUNTS:
            lines += [f"inflight {k} {n}", f"exchange {k} {n}"] * repeat
    for _ in range(max(3, repeat // 3)):
        lines += [f"unidir {CONTENTION_SIZE} {CONTENTION_COUNT}", f"bidir {CONTENTION_SIZE} {CONTENTION_COUNT}"]
        lines.append(f"flops {KERNEL_PASSES}")
    random.Random(seed).shuffle(lines)
    return lines


# ----------------------------------------------------------------------------------------------------------------
# building and running


def cache_folder(override: Optional[str]) -> str:
    if override:
        return override
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mpisim", "calibrate")


def build_benchmark(mpicc: str, cache: str) -> str:
    """Compiles the benchmark with the user's MPI compiler wrapper, once per (source, wrapper) pair."""
    words = shlex.split(mpicc)
    if not words or not shutil.which(words[0]):
        raise ValueError(f"calibrate: MPI compiler '{mpicc}' not found (install MPI, or give --mpicc)")
    with open(BENCH_SOURCE, "rb") as source:
        digest = hashlib.sha256(source.read() + mpicc.encode() + shutil.which(words[0]).encode()).hexdigest()[:16]
    binary = os.path.join(cache, f"calibrate_bench-{digest}")
    if os.path.exists(binary):
        return binary
    try:
        os.makedirs(cache, exist_ok=True)
    except OSError as error:
        raise ValueError(f"calibrate: cache folder {cache}: {error.strerror}") from None
    if not os.access(cache, os.W_OK):
        raise ValueError(f"calibrate: cache folder {cache} is not writable (give --cache DIR)")
    done = subprocess.run(words + ["-O2", "-o", binary + ".tmp", BENCH_SOURCE], capture_output=True, text=True)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        raise ValueError(f"calibrate: '{mpicc}' failed to compile the benchmark: {first}")
    os.replace(binary + ".tmp", binary)
    return binary


def run_benchmark(mpirun: str, binary: str, plan: List[str], work: str, timeout: float) -> str:
    """Runs the plan under the user's launcher; returns the CSV the benchmark wrote."""
    plan_path = os.path.join(work, "plan.txt")
    out_path = os.path.join(work, "bench.csv")
    with open(plan_path, "w") as f:
        f.write("\n".join(plan) + "\n")
    if os.path.exists(out_path):
        os.remove(out_path)
    words = shlex.split(mpirun)
    if not words:
        raise ValueError("calibrate: --mpirun is empty")
    command = words + [binary, plan_path, out_path]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise ValueError(f"calibrate: the MPI launcher '{words[0]}' was not found (--mpirun)") from None
    except subprocess.TimeoutExpired:
        raise ValueError(f"calibrate: the MPI run did not finish within {timeout:g} s (--timeout)") from None
    if done.returncode != 0 or not os.path.exists(out_path):
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip() and set(line) != {"-"}]
        why = lines[0].strip() if lines else "no message"
        raise ValueError(f"calibrate: the MPI run failed to start or ended with status {done.returncode} "
                         f"({' '.join(command[:len(words)])}): {why}")
    with open(out_path) as f:
        return f.read()


def describe_machine() -> List[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return [f"machine: {host_platform.node()}, {host_platform.system()} {host_platform.release()} "
            f"{host_platform.machine()}, {os.cpu_count()} cpus, {cpu}"]


# ----------------------------------------------------------------------------------------------------------------
# from the fit to the model's parameters


def reference_platform(fit: fitting.Fit, hosts: int) -> Tuple[str, float, float]:
    """The generated platform the factors are relative to: bandwidth = the largest sizes' fitted bandwidth, latency
    per link = half the smallest sizes' fitted latency (a cluster route crosses two links), limiter = f x bandwidth,
    speed = the kernel's. Returns (spec, route latency, route bandwidth)."""
    last_slope = fit.segments[-1].coefficients["T2"][1]
    bandwidth = 1 / last_slope if last_slope > 0 else 1e10
    first_latency = fit.segments[0].coefficients["T2"][0]
    link_latency = first_latency / 2 if first_latency > 0 else 1e-7
    spec = f"cluster:{hosts},bw={bandwidth:.6g}Bps,lat={link_latency:.6g}s"
    if fit.limiter_factor is not None:
        spec += f",limiter={fit.limiter_factor * bandwidth:.6g}Bps"
    if fit.host_speed:
        spec += f",speed={fit.host_speed:.6g}f"
    return spec, 2 * link_latency, bandwidth


def _number(x: float) -> str:
    return f"{x:.6g}"


def hybrid_parameters(fit: fitting.Fit, route_latency: float, route_bandwidth: float) -> Tuple[Dict[str, str], List[str]]:
    """The hybrid model's parameters (its names, as --model-params reads them), and notes on values clamped."""
    notes = []
    tables: Dict[str, List[str]] = {"os": [], "ois": [], "or": [], "lat-factor": [], "bw-factor": []}
    threshold = 0
    for s in fit.segments:
        for series in ("os", "ois", "or"):
            a, b = s.coefficients.get(series, (0.0, 0.0))  # a series a mode does not pay is 0
            if a < 0 or b < 0:
                notes.append(f"{series} on ({threshold}, {s.last}]: fitted {a:.3g} + {b:.3g} k clamped to >= 0")
            tables[series].append(f"{threshold}:{_number(max(a, 0.0))}:{_number(max(b, 0.0))}")
        latency, slope = s.coefficients["T2"]
        if latency < 0:
            notes.append(f"latency on ({threshold}, {s.last}]: fitted {latency:.3g} s clamped to 0")
        tables["lat-factor"].append(f"{threshold}:{_number(max(latency, 0.0) / route_latency)}")
        bw_factor = BANDWIDTH_FACTOR_CAP if slope <= 0 else min(BANDWIDTH_FACTOR_CAP, 1 / slope / route_bandwidth)
        if slope <= 0:
            notes.append(f"bandwidth on ({threshold}, {s.last}]: time does not grow with size, bw-factor capped")
        tables["bw-factor"].append(f"{threshold}:{_number(bw_factor)}")
        threshold = s.last
    async_last = [s.last for s in fit.segments if s.mode == fitting.ASYNCHRONOUS]
    detached_last = [s.last for s in fit.segments if s.mode == fitting.DETACHED]
    eager_limit = max(async_last) if async_last else 0
    detached_limit = max(detached_last) if detached_last else eager_limit
    if not any(s.mode == fitting.SYNCHRONOUS for s in fit.segments):  # no size waited: none ever will
        detached_limit = UNLIMITED_SIZE
        if not detached_last:
            eager_limit = UNLIMITED_SIZE
    values = {name: ";".join(entries) for name, entries in tables.items()}
    values.update({"Sa": f"{eager_limit}B", "Sd": f"{detached_limit}B", "envelope": "0B", "crosstraffic": "no"})
    values.update(concurrency_tables(fit))
    return values, notes


def concurrency_tables(fit: fitting.Fit) -> Dict[str, str]:
    """`concurrency-factor` and `duplex-factor` (threshold:factor): each size of the concurrency test rules from the
    geometric middle between it and the size before to the middle with the size after (a quarter below the first,
    4 times the last: the test's spacing); 1 outside, where the model shares as max-min and the platform's limiter
    (the 4 MiB contention test) apply. duplex-factor = D / f, f the platform's limiter factor (1 with no limiter:
    no link is then crossed both ways)."""
    points = fit.concurrency
    if not points:
        return {"concurrency-factor": "0:1", "duplex-factor": "0:1"}
    sizes = [p.size for p in points]
    edges = [sizes[0] / 4] + sizes + [sizes[-1] * 4]
    starts = [int(round(math.sqrt(edges[i] * edges[i + 1]))) for i in range(len(sizes))]
    end = int(round(math.sqrt(edges[-2] * edges[-1])))
    limiter = fit.limiter_factor

    def table(value_of) -> str:
        entries = ["0:1"] + [f"{start}:{_number(value_of(p))}" for start, p in zip(starts, points)] + [f"{end}:1"]
        return ";".join(entries)

    return {"concurrency-factor": table(lambda p: p.concurrency if p.fitted else 1.0),
            "duplex-factor": table(lambda p: p.duplex / limiter if limiter and p.fitted else 1.0)}


def method_lines(transfer_test: str) -> List[str]:
    """The comment lines saying which measurement feeds which parameter, and how this differs from PMBS 2013."""
    if transfer_test == "pingpong":
        return ["method: T2 (lat-factor, bw-factor) from the blocking ping-pong as PMBS 2013 Sec. IV.A (these "
                "measurements have no pre-posted ping-pong)"]
    return ["method: T2 (lat-factor, bw-factor) from the pre-posted ping-pong (receives posted before the send, round "
            "trips back to back, the first untimed),",
            "  not the blocking ping-pong of PMBS 2013 Sec. IV.A: a program's loop sends from warm buffers into posted "
            "receives; the blocking ping-pong",
            "  reads the modes (Sa, Sd), os and or come from the receiver-ready and late-receiver tests as in the paper "
            "(docs/calibrate.md)"]


def parameter_file_text(fit: fitting.Fit, m: fitting.Measurements, spec: str, values: Dict[str, str],
                        notes: List[str], provenance: List[str]) -> str:
    lines = ["# hybrid network model parameters fitted by mpisim calibrate (docs/calibrate.md)",
             f"# use: mpisim replay TRACE --model hybrid --model-params THIS_FILE --platform '{spec}'",
             f"#   (the factors are relative to that platform's route: written also to the .spec file)"]
    lines += [f"# {p}" for p in provenance]
    lines += [f"# {c}" for c in m.comments]
    lines.append("#")
    lines += [f"# {line}" for line in method_lines(fit.transfer_test)]
    lines.append("# fit: segments of sizes (lo, hi], protocol mode, coefficients a + b k (seconds, seconds per byte)")
    lines.append("#      and the root mean square relative residual of each series (os, ois, or, T2 = transfer)")
    low = 0
    for s in fit.segments:
        parts = [f"{name} {a:.4g}+{b:.4g}k (rms {s.residuals[name]:.3f})" for name, (a, b) in s.coefficients.items()]
        lines.append(f"#   ({low}, {s.last}] {s.mode}, {s.points} points: " + "; ".join(parts))
        low = s.last
    if fit.limiter_factor is not None:
        lines.append(f"# contention: Bs + Br = {fit.limiter_factor:.3f} x B at {fit.contention_size} B messages "
                     f"(limiter link of the platform)")
    if fit.concurrency:
        lines.append("# concurrency: N messages of k bytes in flight one way (in flight) and N each way (exchange), "
                     "median seconds;")
        lines.append("#   p1 = the model's one-way time of one, bk = its bandwidth term; c = concurrency-factor, "
                     "D = Bs + Br over B (duplex-factor = D / limiter factor)")
        for p in fit.concurrency:
            in_flight = " ".join(f"{n}:{t:.4e}" for n, t in p.in_flight.items())
            exchange = " ".join(f"{n}:{t:.4e}" for n, t in p.exchange.items())
            factors = (f"c {p.concurrency:.3f} D {p.duplex:.3f}" if p.fitted
                       else "not fitted (bk under half of p1: plain sharing)")
            lines.append(f"#   {p.size}: in flight {in_flight}; exchange {exchange}; p1 {p.lone:.4e} bk "
                         f"{p.bandwidth_term:.4e}; {factors}")
    if fit.host_speed:
        lines.append(f"# computation: {fit.host_speed:.4g} flop/s (multiply-add kernel; record traces with "
                     f"mpisim record --speed {fit.host_speed:.4g}f for replays on this platform)")
    for note in notes:
        lines.append(f"# note: {note}")
    lines.append("")
    for name in ("Sa", "Sd", "os", "ois", "or", "lat-factor", "bw-factor", "concurrency-factor", "duplex-factor",
                 "envelope", "crosstraffic"):
        lines.append(f"{name} = {values[name]}")
    lines.append("")
    lines.append("# data: medians per size (seconds); mode as measured -> as fitted")
    lines.append("#   size n one-way preposted preposted_first send_ready isend_ready send_late recv_late mode "
                 "(one-way: blocking ping-pong; preposted: warm round trips, preposted_first: the first after the "
                 "barrier)")
    for k in m.sizes():
        medians = " ".join(f"{m.median(t, k):.4e}" for t in ("pingpong", "preposted", "preposted_first",
                                                                "send_ready", "isend_ready", "send_late",
                                                                "recv_late"))
        lines.append(f"#   {k} {len(m.samples['pingpong'][k])} {medians} {fit.raw_labels[k]} -> "
                     f"{fit.modes_by_size[k]}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------------------------
# plot


def plot_fit(fit: fitting.Fit, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    colors = {fitting.ASYNCHRONOUS: "tab:blue", fitting.DETACHED: "tab:orange", fitting.SYNCHRONOUS: "tab:red"}
    panels = (("os", "send overhead os (MPI_Send, receiver ready)"),
              ("ois", "send overhead ois (MPI_Isend)"),
              ("or", "receive overhead or (MPI_Recv, data there)"),
              ("T2", "transfer T2 = L + k / B (from the "
                     + ("pre-posted" if fit.transfer_test == "preposted" else "blocking") + " ping-pong)"))
    figure, axes = plt.subplots(2, 2, figsize=(13, 9))
    for ax, (series, title) in zip(axes.flat, panels):
        points = fit.series_points.get(series, {})
        for k, values in sorted(points.items()):
            mode = fit.modes_by_size[k]
            ax.scatter([k] * len(values), np.maximum(values, 1e-10), s=6, alpha=0.4, color=colors[mode])
        low = 0
        for s in fit.segments:
            if series in s.coefficients:
                a, b = s.coefficients[series]
                ks = np.geomspace(max(low, 1) if low == 0 else low + 1, s.last, 50)
                ax.plot(ks, np.maximum(a + b * ks, 1e-10), color=colors[s.mode], linewidth=2)
            if low > 0:
                ax.axvline(low, color="grey", linestyle=":", linewidth=0.8)
            low = s.last
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("seconds")
    handles = [plt.Line2D([], [], color=c, linewidth=2, label=m) for m, c in colors.items()]
    figure.legend(handles=handles, loc="upper center", ncol=3)
    figure.suptitle("calibrate: measured points and the fitted hybrid model, by interval", y=0.995)
    figure.tight_layout(rect=(0, 0, 1, 0.95))
    figure.savefig(path, dpi=110)
    plt.close(figure)


# ----------------------------------------------------------------------------------------------------------------
# command


def _sibling(path: str, extension: str) -> str:
    stem, _ = os.path.splitext(path)
    return stem + extension


def _check_writable(path: str, what: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"calibrate: {what} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ValueError(f"calibrate: {what} {path}: not writable")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as error:
        raise ValueError(f"calibrate: {path}: {error.strerror}") from None


def calibrate(args) -> int:
    outputs = {"parameter file": args.output, "platform spec": args.platform_out or _sibling(args.output, ".spec")}
    if args.plot:
        outputs["plot"] = args.plot
    raw_csv = args.csv or (None if args.from_csv else _sibling(args.output, ".csv"))
    if raw_csv:
        outputs["raw measurements"] = raw_csv
    for what, path in outputs.items():
        _check_writable(path, what)
    if args.repeat < 1:
        raise ValueError("calibrate: --repeat must be at least 1")
    provenance = [f"calibrated {datetime.datetime.now().isoformat(timespec='seconds')}"]

    if args.from_csv:
        try:
            with open(args.from_csv) as f:
                text = f.read()
        except OSError as error:
            raise ValueError(f"calibrate: {args.from_csv}: {error.strerror}") from None
        name = args.from_csv
        provenance.append(f"refitted from {args.from_csv}")
    else:
        if not args.mpirun:
            raise ValueError("calibrate: give --mpirun \"mpirun -np 2 ...\" (or --from-csv RAW.csv)")
        sizes = parse_sizes(args.sizes)
        delay = _seconds(args.delay)
        binary = build_benchmark(args.mpicc, cache_folder(args.cache))
        plan = make_plan(sizes, args.repeat, delay, args.seed)
        work = os.path.join(cache_folder(args.cache), f"run-{os.getpid()}")
        os.makedirs(work, exist_ok=True)
        try:
            print(f"calibrate: {len(plan)} measurements over {len(sizes)} sizes under: {args.mpirun}", flush=True)
            bench_text = run_benchmark(args.mpirun, binary, plan, work, args.timeout)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        header = [f"# mpisim calibrate raw measurements; launcher: {args.mpirun}; compiler: {args.mpicc}",
                  f"# late receiver delay: {delay:.9g}s", f"# plan: {len(sizes)} sizes x {args.repeat} repetitions, "
                  f"shuffled with seed {args.seed}"] + [f"# {d}" for d in describe_machine()]
        text = "\n".join(header) + "\n" + bench_text
        name = raw_csv
        _write(raw_csv, text)
        print(f"wrote {raw_csv}")

    measurements = fitting.read_measurements(text, name)
    fit = fitting.fit_measurements(measurements, max_segments=args.max_segments)
    spec, route_latency, route_bandwidth = reference_platform(fit, args.platform_hosts)
    values, notes = hybrid_parameters(fit, route_latency, route_bandwidth)
    _write(args.output, parameter_file_text(fit, measurements, spec, values, notes, provenance))
    _write(outputs["platform spec"], spec + "\n")
    print(f"wrote {args.output}")
    print(f"wrote {outputs['platform spec']}: {spec}")
    if args.plot:
        plot_fit(fit, args.plot)
        print(f"wrote {args.plot}")
    for s in fit.segments:
        print(f"  sizes <= {s.last:>9}: {s.mode:<12} " + ", ".join(
            f"{n} rms {r:.3f}" for n, r in s.residuals.items()))
    if fit.concurrency:
        print("  concurrency: " + ", ".join(f"{p.size} B c {p.concurrency:.2f} D {p.duplex:.2f}" if p.fitted
                                            else f"{p.size} B not fitted" for p in fit.concurrency))
    return 0


def _seconds(text: str) -> float:
    match = re.match(r"^\s*(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)\s*(s|ms|us)?\s*$", text)
    if not match:
        raise ValueError(f"calibrate: --delay expects a time (1ms, 500us), got '{text}'")
    value = float(match.group(1)) * {None: 1, "s": 1, "ms": 1e-3, "us": 1e-6}[match.group(2)]
    if value <= 0:
        raise ValueError("calibrate: --delay must be positive")
    return value


def add_calibrate_command(sub) -> None:
    p = sub.add_parser("calibrate", help="measure the real machine and fit the hybrid model's parameters",
                       description="Build and run mpisim's benchmark under your MPI (ping, ping-pong, contention, "
                                   "messages in flight together, computation speed), fit the hybrid model by "
                                   "segmented linear regression with the break points found by the fit (PMBS 2013, "
                                   "Sec. IV.A-B), and write a "
                                   "--model-params file, the reference platform spec, and a plot (docs/calibrate.md).")
    p.add_argument("--mpirun", help='how to launch 2 ranks on the machines to measure, e.g. "mpirun -np 2 --host a,b"')
    p.add_argument("-o", "--output", required=True, metavar="FILE.params", help="the parameter file to write")
    p.add_argument("--from-csv", metavar="RAW.csv", help="refit saved measurements instead of running")
    p.add_argument("--sizes", default=DEFAULT_SIZES,
                   help="message sizes: A:B log-spaced (2 per octave, plus points around usual thresholds) and/or "
                        f"a list, comma-separated (default {DEFAULT_SIZES})")
    p.add_argument("--repeat", type=int, default=10, metavar="N", help="repetitions of each measurement (default 10)")
    p.add_argument("--plot", metavar="P.png", help="measured points against the fitted model per interval")
    p.add_argument("--csv", metavar="RAW.csv", help="where to keep the raw measurements (default: FILE.csv)")
    p.add_argument("--platform-out", metavar="FILE.spec", help="where to write the reference platform (default: FILE.spec)")
    p.add_argument("--platform-hosts", type=int, default=64, metavar="N", help="hosts of that platform (default 64)")
    p.add_argument("--mpicc", default="mpicc", help="MPI C compiler wrapper (default mpicc)")
    p.add_argument("--cache", metavar="DIR", help="where the benchmark is built (default ~/.cache/mpisim/calibrate)")
    p.add_argument("--delay", default="1ms", help="how late the receiver is in the late-receiver test (default 1ms)")
    p.add_argument("--seed", type=int, default=1, help="seed of the measurement order (default 1)")
    p.add_argument("--max-segments", type=int, default=4, metavar="K",
                   help="most segments per protocol mode in the regression (default 4)")
    p.add_argument("--timeout", type=float, default=1800, metavar="S", help="limit of the MPI run, seconds")
    p.set_defaults(func=calibrate)
