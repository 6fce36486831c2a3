"""Runs the OSU-style point-to-point benchmarks of this folder under `--model smpi` and `--model bxi` and plots them
side by side (docs/bxi.md).

    .venv/bin/python examples/osu/plot_osu.py [--max-size 1048576] [--out DIR]

Compiles osu_pt2pt.c with `mpisim cc`, runs `latency` and `bw` on two nodes of a fat tree under each model, writes
osu.csv (model, test, size, value) into DIR (default: a temporary folder) and draws docs/bxi-osu.png: latency (us)
and bandwidth (MB/s) against message size, one curve per model."""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = ["smpi", "bxi"]
TESTS = {"latency": ("latency (us)", 1000), "bw": ("bandwidth (MB/s)", 10)}
# The platform of examples/portals/plot_benchmarks.py: two nodes under one leaf of a 16-node fat tree, 100 Gbit/s
# cables of 100 ns.
PLATFORM = "fattree:2;4,4;1,2;1,2,bw=100Gbps,lat=100ns"


def mpisim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, check=True)


def run(binary: str, model: str, test: str, max_size: int, iterations: int, platform: str) -> list:
    done = mpisim("run", "-np", "2", "--platform", platform, "--model", model, "--no-compute-time", "--quiet",
                  binary, test, str(max_size), str(iterations))
    return [(int(size), float(value)) for size, value in
            (line.split() for line in done.stdout.splitlines() if line and not line.startswith("#"))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-size", type=int, default=1 << 20, help="largest message (default 1 MiB)")
    parser.add_argument("--platform", default=PLATFORM)
    parser.add_argument("--out", help="folder for the binary and osu.csv (default: a temporary one)")
    parser.add_argument("--figure", default=os.path.join(ROOT, "docs", "bxi-osu.png"))
    options = parser.parse_args()
    out = options.out or tempfile.mkdtemp(prefix="osu-")
    os.makedirs(out, exist_ok=True)
    binary = os.path.join(out, "osu_pt2pt")
    mpisim("cc", "-O2", os.path.join(HERE, "osu_pt2pt.c"), "-o", binary)

    curves = {}
    for test, (_, iterations) in TESTS.items():
        for model in MODELS:
            curves[model, test] = run(binary, model, test, options.max_size, iterations, options.platform)
            print(f"{test} under {model}: {len(curves[model, test])} sizes", flush=True)
    with open(os.path.join(out, "osu.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["model", "test", "size", "value"])
        for (model, test), points in curves.items():
            writer.writerows([model, test, size, value] for size, value in points)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, (test, (label, _)) in zip(axes, TESTS.items()):
        for model, style in zip(MODELS, ("o-", "s-")):
            sizes, values = zip(*curves[model, test])
            ax.plot(sizes, values, style, markersize=3, label=f"--model {model}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(label)
        ax.set_title(f"osu_pt2pt {test}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    figure.suptitle("OSU-style point to point, two nodes of a fat tree (100 Gbit/s, 100 ns cables)")
    figure.tight_layout()
    figure.savefig(options.figure, dpi=110)
    print(f"wrote {options.figure} and {os.path.join(out, 'osu.csv')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
