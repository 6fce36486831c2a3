"""What `mpisim calibrate` buys: predict two programs not used in the fit, with calibrated and default parameters.

    make calibrate-check                       # or: .venv/bin/python bench/calibrate_check.py [--np 2] [--out DIR]

1. calibrates this machine under Open MPI (`mpisim calibrate --mpirun "mpirun --oversubscribe -np 2"`), unless
   --params FILE is given (its .spec beside it);
2. builds bench/calibrate_check/halo.c (ring halo exchange, Isend/Irecv) and allreduce_loop.c with mpicc, runs each
   --real-runs times under mpirun (real time: median of the loop's time that rank 0 prints), and records
   --recorded-runs runs with `mpisim record --speed S` (S: the calibrated host speed, so replayed computation lasts
   what it lasted), real and recorded runs interleaved so that a change of load over time hits both alike;
3. replays every trace under the hybrid model on the calibrated platform with the calibrated parameters, and with
   the model's default parameters; also the default model (smpi) on the same platform; and, when the calibration's
   raw CSV is beside the parameters, with the file the same measurements give when T2 is fitted on the blocking
   ping-pong as PMBS 2013 does (the pre-posted rows left out, on its own platform); Open MPI's collective selector
   in every case; a prediction is the median over the traces, as the real time is the median over runs;
4. prints the load average, the fitted one-way time of a 64 KiB message, real and predicted times and the errors,
   and writes them to OUT/check.json.

For quiet measurements on a shared machine, run the real MPI runs (calibration, real and recorded runs) at real-time
priority: --mpirun "chrt -f 10 mpirun --oversubscribe" (as root); the replays stay at normal priority.

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


def traced_computation(index: str, speed: float) -> float:
    """Seconds of computation in a recording: the largest sum of `compute` lines over its ranks, at `speed`."""
    folder = os.path.dirname(index)
    sums = []
    for name in open(index).read().split():
        with open(os.path.join(folder, name)) as trace:
            sums.append(sum(float(line.split()[2]) for line in trace if line.split()[1:2] == ["compute"]))
    return max(sums) / speed


def blocking_pingpong_fit(mpisim, params: str, out: str):
    """The parameters the calibration's measurements give with T2 fitted on the blocking ping-pong (PMBS 2013's
    method): its CSV without the pre-posted rows, refitted. (params file, platform spec), or None without a CSV."""
    raw = os.path.splitext(params)[0] + ".csv"
    if not os.path.exists(raw):
        return None
    with open(raw) as f:
        rows = [line for line in f if not line.startswith(("preposted,", "preposted_first,"))]
    stripped = os.path.join(out, "blocking.csv")
    with open(stripped, "w") as f:
        f.writelines(rows)
    blocking = os.path.join(out, "blocking.params")
    run(mpisim + ["calibrate", "--from-csv", stripped, "-o", blocking])
    return blocking, open(os.path.join(out, "blocking.spec")).read().strip()


def one_way_times(params: str, blocking):
    """The model's one-way time of one 65536-byte message under each fit (calibrate_fit.Fit.one_way)."""
    from mpisim import calibrate_fit

    times = {}
    for label, path in (("calibrated", params), ("blocking ping-pong fit", blocking)):
        raw = os.path.splitext(path)[0] + ".csv" if path else None
        if raw and os.path.exists(raw):
            with open(raw) as f:
                fit = calibrate_fit.fit_measurements(calibrate_fit.read_measurements(f.read(), raw))
            times[label] = fit.one_way(65536)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "calibrate_check"))
    parser.add_argument("--params", help="a calibrated parameter file (default: calibrate now)")
    parser.add_argument("--real-runs", type=int, default=5)
    parser.add_argument("--recorded-runs", type=int, default=3)
    parser.add_argument("--mpirun", default="mpirun --oversubscribe")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mpisim = [sys.executable, "-m", "mpisim"]
    launcher = args.mpirun.split()

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    params = args.params
    if not params:
        params = os.path.join(args.out, "local.params")
        print(run(mpisim + ["calibrate", "--mpirun", f"{args.mpirun} -np 2", "-o", params, "--plot",
                            os.path.join(args.out, "local.png")]), end="")
    spec = open(os.path.splitext(params)[0] + ".spec").read().strip()
    speed = re.search(r"speed=([^,]+)", spec).group(1)
    import mpisim as api

    results = {"params": params, "platform": spec, "np": args.np, "mpirun": args.mpirun, "load_average": load,
               "programs": {}}
    blocking = blocking_pingpong_fit(mpisim, params, args.out)
    if blocking:
        results["blocking_params"], results["blocking_platform"] = blocking
    results["one_way_65536"] = one_way_times(params, blocking[0] if blocking else None)
    print("one-way time of a 64 KiB message, fitted: " + ", ".join(
        f"{label} {seconds * 1e6:.2f} us" for label, seconds in results["one_way_65536"].items()))
    for name, program_args in PROGRAMS.items():
        binary = os.path.join(args.out, name)
        run(["mpicc", "-O2", "-o", binary, os.path.join(HERE, "calibrate_check", f"{name}.c")])
        command = launcher + ["-np", str(args.np), binary] + program_args
        real, recorded, traces = [], [], []
        for i in range(max(args.real_runs, args.recorded_runs)):
            if i < args.real_runs:
                real.append(elapsed(run(command)))
            if i < args.recorded_runs:
                trace = os.path.join(args.out, f"trace-{name}-{i}")
                shutil.rmtree(trace, ignore_errors=True)
                recorded.append(elapsed(run(mpisim + ["record", "-o", trace, "--speed", speed, "--"] + command)))
                traces.append(os.path.join(trace, "index.txt"))
        common = dict(platform=spec, coll_selector="ompi")
        configurations = {
            "hybrid, calibrated": dict(model="hybrid", params_file=params),
            "hybrid, default parameters": dict(model="hybrid"),
            "smpi (default model)": {},
        }
        if blocking:
            configurations["hybrid, blocking ping-pong fit"] = dict(model="hybrid", params_file=blocking[0],
                                                                    platform=blocking[1])
        per_trace = {label: [api.replay(index, **{**common, **options}).simulated_time for index in traces]
                     for label, options in configurations.items()}
        predicted = {label: statistics.median(times) for label, times in per_trace.items()}
        computation = [traced_computation(index, float(speed.rstrip("f"))) for index in traces]
        reference = statistics.median(real)
        results["programs"][name] = {
            "arguments": program_args, "real_runs": real, "real_median": reference, "recorded_runs": recorded,
            "traced_computation": computation, "predicted_per_trace": per_trace, "predicted": predicted,
            "error": {k: v / reference - 1 for k, v in predicted.items()},
        }
        print(f"{name}: real {reference:.4f} s (runs {', '.join(f'{t:.4f}' for t in real)}; recorded runs "
              f"{', '.join(f'{t:.4f}' for t in recorded)}; computation in the traces "
              f"{', '.join(f'{t:.4f}' for t in computation)} s)")
        for label, time in predicted.items():
            spread = ", ".join(f"{t:.4f}" for t in per_trace[label])
            print(f"  {label:<31} {time:.4f} s  error {100 * (time / reference - 1):+.1f} %  (per trace {spread})")
    with open(os.path.join(args.out, "check.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"wrote {os.path.join(args.out, 'check.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
