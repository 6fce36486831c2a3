"""What `mpisim calibrate` buys: predict two programs not used in the fit, with calibrated and default parameters.

    make calibrate-check                       # or: .venv/bin/python bench/calibrate_check.py [--np 2] [--out DIR]

1. calibrates this machine under Open MPI (`mpisim calibrate --mpirun "mpirun --oversubscribe -np 2"`), unless
   --params FILE is given (its .spec beside it);
2. builds bench/calibrate_check/halo.c (ring halo exchange, Isend/Irecv) and allreduce_loop.c with mpicc, runs each
   --real-runs times under mpirun (real time: median of the loop's time that rank 0 prints), and records one run
   with `mpisim record --speed S` (S: the calibrated host speed, so replayed computation lasts what it lasted);
3. replays each trace under the hybrid model on the calibrated platform with the calibrated parameters, and with
   the model's default parameters; also the default model (smpi) on the same platform; Open MPI's collective
   selector in every case;
4. prints real and predicted times and the errors, and writes them to OUT/check.json.

The machine is shared and oversubscription makes times noisy: rerun to see the spread (docs/calibrate.md).
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
PROGRAMS = {  # name: arguments (iterations, message bytes or doubles, computation per iteration)
    "halo": ["2000", "65536", "20000"],
    "allreduce_loop": ["2000", "1024", "20000"],
}


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, env=ENV, **kwargs)
    if done.returncode != 0:
        sys.exit(f"calibrate_check: {' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def elapsed(output: str) -> float:
    match = re.search(r"elapsed ([0-9.eE+-]+)", output)
    if not match:
        sys.exit(f"calibrate_check: no 'elapsed' line in:\n{output}")
    return float(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "calibrate_check"))
    parser.add_argument("--params", help="a calibrated parameter file (default: calibrate now)")
    parser.add_argument("--real-runs", type=int, default=5)
    parser.add_argument("--mpirun", default="mpirun --oversubscribe")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mpisim = [sys.executable, "-m", "mpisim"]
    launcher = args.mpirun.split()

    params = args.params
    if not params:
        params = os.path.join(args.out, "local.params")
        print(run(mpisim + ["calibrate", "--mpirun", f"{args.mpirun} -np 2", "-o", params, "--plot",
                            os.path.join(args.out, "local.png")]), end="")
    spec = open(os.path.splitext(params)[0] + ".spec").read().strip()
    speed = re.search(r"speed=([^,]+)", spec).group(1)
    import mpisim as api

    results = {"params": params, "platform": spec, "np": args.np, "programs": {}}
    for name, program_args in PROGRAMS.items():
        binary = os.path.join(args.out, name)
        run(["mpicc", "-O2", "-o", binary, os.path.join(HERE, "calibrate_check", f"{name}.c")])
        command = launcher + ["-np", str(args.np), binary] + program_args
        real = [elapsed(run(command)) for _ in range(args.real_runs)]
        trace = os.path.join(args.out, f"trace-{name}")
        shutil.rmtree(trace, ignore_errors=True)
        recorded = elapsed(run(mpisim + ["record", "-o", trace, "--speed", speed, "--"] + command))
        index = os.path.join(trace, "index.txt")
        common = dict(platform=spec, coll_selector="ompi")
        predicted = {
            "hybrid, calibrated": api.replay(index, model="hybrid", params_file=params, **common).simulated_time,
            "hybrid, default parameters": api.replay(index, model="hybrid", **common).simulated_time,
            "smpi (default model)": api.replay(index, **common).simulated_time,
        }
        reference = statistics.median(real)
        results["programs"][name] = {
            "arguments": program_args, "real_runs": real, "real_median": reference, "recorded_run": recorded,
            "predicted": predicted, "error": {k: v / reference - 1 for k, v in predicted.items()},
        }
        print(f"{name}: real {reference:.4f} s (runs {', '.join(f'{t:.4f}' for t in real)}; recorded run "
              f"{recorded:.4f})")
        for label, time in predicted.items():
            print(f"  {label:<28} {time:.4f} s  error {100 * (time / reference - 1):+.1f} %")
    with open(os.path.join(args.out, "check.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"wrote {os.path.join(args.out, 'check.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
