"""Runs the Portals benchmarks of this folder under `--model bxi` and plots their curves (docs/bxi.md).

    .venv/bin/python examples/portals/plot_benchmarks.py [--sizes 64] [--requests 10000] [--out DIR]

Compiles ptl_bench.c and ptl_rate.c with `mpisim cc`, runs the five benchmarks (put-waitack, get-waitreply,
put-nowait, get-nowait, put-waitsend) and the three message-rate modes (ct, ack, match) on two nodes of a fat tree,
writes their CSV files and the wall time of each run into DIR (default: a temporary folder), and draws
docs/bxi-benchmarks.png (time per request against size) and docs/bxi-message-rate.png (messages per second)."""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCHMARKS = ["put-waitack", "get-waitreply", "put-nowait", "get-nowait", "put-waitsend"]
RATE_MODES = ["ct", "ack", "match"]
# Two nodes under one leaf switch of a two-level fat tree of 16 nodes, BXI cables of 100 Gbit/s (12.5 GB/s); the
# thesis quotes no cable latency: 100 ns per cable here.
PLATFORM = "fattree:2;4,4;1,2;1,2,bw=100Gbps,lat=100ns"


def mpisim(*args: str, capture: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=capture, text=True, check=True)


def run_program(binary: str, args: list[str], platform: str) -> tuple[list[list[str]], float]:
    start = time.perf_counter()
    done = mpisim("run", "-np", "2", "--platform", platform, "--model", "bxi", "--no-compute-time", "--host-speed",
                  "1Gf", "--quiet", binary, *args)
    wall = time.perf_counter() - start
    return [row for row in csv.reader(done.stdout.splitlines()) if row], wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, default=64, help="message sizes per benchmark (default 64)")
    parser.add_argument("--requests", type=int, default=10000, help="requests per size (default 10000)")
    parser.add_argument("--duration", default="0.002", help="simulated seconds per size of the rate program")
    parser.add_argument("--platform", default=PLATFORM)
    parser.add_argument("--out", help="folder for the CSV files (default: a temporary one)")
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs"), help="folder for the PNG files")
    options = parser.parse_args()
    out = options.out or tempfile.mkdtemp(prefix="bxi-benchmarks-")
    os.makedirs(out, exist_ok=True)
    os.makedirs(options.docs, exist_ok=True)
    bench, rate = os.path.join(out, "ptl_bench"), os.path.join(out, "ptl_rate")
    mpisim("cc", "-O2", os.path.join(HERE, "ptl_bench.c"), "-o", bench)
    mpisim("cc", "-O2", os.path.join(HERE, "ptl_rate.c"), "-o", rate)

    curves, rates, walls = {}, {}, []
    for name in BENCHMARKS:
        rows, wall = run_program(bench, [name, str(options.sizes), str(options.requests)], options.platform)
        curves[name] = [(int(size), float(us)) for _, size, us in rows]
        walls.append((name, wall))
        print(f"{name}: {len(rows)} sizes x {options.requests} requests simulated in {wall:.2f} s", flush=True)
    for mode in RATE_MODES:
        rows, wall = run_program(rate, [mode, options.duration], options.platform)
        rates[mode] = [(int(size), float(value)) for _, size, value in rows]
        walls.append((f"rate-{mode}", wall))
        print(f"rate {mode}: {wall:.2f} s", flush=True)
    with open(os.path.join(out, "benchmarks.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["benchmark", "size", "us_per_request"])
        for name, points in curves.items():
            writer.writerows([name, size, us] for size, us in points)
    with open(os.path.join(out, "message_rate.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["mode", "size", "messages_per_second"])
        for mode, points in rates.items():
            writer.writerows([mode, size, value] for size, value in points)
    with open(os.path.join(out, "wall_times.csv"), "w", newline="") as f:
        csv.writer(f).writerows([["run", "wall_seconds"], *walls])

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for name, points in curves.items():
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=name)
    for boundary, label in [(64.5, "64/65 B: SEND early"), (408.5, "408/409 B: PIO -> DMA")]:
        ax.axvline(boundary, color="grey", linestyle=":", linewidth=1)
        ax.text(boundary * 1.08, ax.get_ylim()[0] * 1.5 if ax.get_yscale() == "log" else 0.3, label, rotation=90,
                fontsize=7, color="grey")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("time per request (us, simulated)")
    ax.set_title(f"Portals benchmarks under --model bxi ({options.requests} requests per size)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(options.docs, "bxi-benchmarks.png"), dpi=110)

    fig, ax = plt.subplots(figsize=(8, 5))
    for mode, points in rates.items():
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=mode)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("Puts per second (simulated)")
    ax.set_title("Message rate under --model bxi (PtlPerf-like)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(options.docs, "bxi-message-rate.png"), dpi=110)
    print(f"CSV files in {out}; figures in {options.docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
