"""Prints mpisim's and SimGrid 3.32's predicted times side by side for every agreement case of the test suite
(tests/python/test_smpi_agreement.py), with the relative difference. Usage: .venv/bin/python bench/agreement_report.py"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import mpisim  # noqa: E402
from smpi import smpi_replay_time, write_hostfile  # noqa: E402
from test_smpi_agreement import CASES, NPB, choose_hosts  # noqa: E402
from tracegen import GENERATORS, write_trace  # noqa: E402


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (generator, ranks, platform, pattern) in enumerate(CASES):
            platform_file = os.path.join(ROOT, "platforms", platform)
            index = write_trace(os.path.join(tmp, f"t{i}"), GENERATORS[generator](ranks))
            hostfile = write_hostfile(os.path.join(tmp, f"h{i}"), choose_hosts(platform_file, ranks, pattern))
            rows.append((f"{generator} x{ranks} on {os.path.basename(platform)} ({pattern})", index, platform_file,
                         ranks, hostfile))
        for trace, ranks in NPB:
            platform_file = os.path.join(ROOT, "platforms", "graphene.xml")
            hostfile = write_hostfile(os.path.join(tmp, f"n{trace}"), choose_hosts(platform_file, ranks, "cabinets"))
            rows.append((f"NAS {trace} on graphene.xml", os.path.join(ROOT, "data", "traces", "npb", trace),
                         platform_file, ranks, hostfile))
        worst = 0.0
        print(f"{'case':<58} {'SimGrid (s)':>12} {'mpisim (s)':>14} {'rel. diff':>10}")
        for name, index, platform, ranks, hostfile in rows:
            reference = smpi_replay_time(index, platform, ranks, hostfile)
            ours = mpisim.replay(index, platform=platform, np=ranks, hostfile=hostfile).simulated_time
            diff = abs(ours - reference) / reference
            worst = max(worst, diff)
            print(f"{name:<58} {reference:>12.6f} {ours:>14.9f} {diff:>10.2e}")
    print(f"{len(rows)} cases, largest relative difference {worst:.2e} (SimGrid prints 6 decimals)")
    return 0 if worst <= 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
