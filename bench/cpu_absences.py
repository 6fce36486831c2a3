#!/usr/bin/env python3
"""How long a busy thread loses its CPU at a time on this machine: what the online mode's ThreadCpuClock
(src/online/runtime/ThreadCpuClock.hpp) extrapolates over. The loop reads the monotonic and the thread CPU clocks
back to back for `--seconds`; whenever real time advanced more than CPU time between two iterations (by more than
`--floor`), the thread was away for the difference. Prints the absences by length: how many, and their total.

    .venv/bin/python bench/cpu_absences.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import os
import time

BOUNDS = [2e-6, 5e-6, 10e-6, 20e-6, 50e-6, 100e-6, 200e-6, 500e-6, 1e-3, float("inf")]


def label(index: int) -> str:
    low = 1e-6 if index == 0 else BOUNDS[index - 1]
    high = BOUNDS[index]
    return f">= {low * 1e6:g} us" if high == float("inf") else f"{low * 1e6:g}-{high * 1e6:g} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--floor", type=float, default=1e-6, help="smallest absence counted (default 1 us)")
    args = parser.parse_args()
    wall, cpu = time.monotonic, time.thread_time
    counts, totals = [0] * len(BOUNDS), [0.0] * len(BOUNDS)
    start_wall, start_cpu = wall(), cpu()
    last_wall, last_cpu = start_wall, start_cpu
    while last_wall - start_wall < args.seconds:
        now_wall, now_cpu = wall(), cpu()
        away = (now_wall - last_wall) - (now_cpu - last_cpu)
        if away > args.floor:
            index = next(i for i, bound in enumerate(BOUNDS) if away < bound)
            counts[index] += 1
            totals[index] += away
        last_wall, last_cpu = now_wall, now_cpu
    elapsed, used = last_wall - start_wall, last_cpu - start_cpu
    print(f"{elapsed:.3f} s of real time, {used:.3f} s of CPU, load average {os.getloadavg()[0]:.2f}")
    print(f"{'absence':>14} {'count':>8} {'total (s)':>10} {'share of time away':>19}")
    for index, bound in enumerate(BOUNDS):
        share = totals[index] / max(elapsed - used, 1e-12)
        print(f"{label(index):>14} {counts[index]:8d} {totals[index]:10.4f} {100 * share:18.1f}%")


if __name__ == "__main__":
    main()
