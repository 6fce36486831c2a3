"""The Python API over the native core: keyword arguments in, a result with its provenance out (`replay`: a
ReplayResult; `run`, an online run of a program built by `mpisim cc`: a RunResult)."""

from __future__ import annotations

import json
import os
import time

from mpisim import _core

TYPE_CHECKING = False  # `typing` costs 15 M instructions of start-up: the annotations are text that no code reads
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence, Tuple, Union

    from mpisim._results import ReplayResult, RunResult

# Result types, imported on first use from mpisim._results (with `dataclasses`): `mpisim replay --json` needs none.
_RESULT_TYPES = ("RankStats", "Result", "ReplayResult", "OnlineRankStats", "RunResult")


def __getattr__(name: str):
    if name in _RESULT_TYPES:
        from mpisim import _results

        return getattr(_results, name)
    raise AttributeError(f"module 'mpisim.api' has no attribute {name!r}")


def replay_document(fields, ranks) -> dict:
    """ReplayResult.to_dict() from the result's fields (a mapping of its field names) with `ranks` as its per-rank
    list: also what `mpisim replay --json` prints, from replay_fields() with no ReplayResult."""
    from mpisim import __version__

    out = {
        "mpisim_version": __version__,
        "simulated_time": fields["simulated_time"],
        "actions": fields["actions"],
        "fingerprint": f"{fields['fingerprint']:016x}",
        "inputs": fields["inputs"],
        "model_parameters": fields["model_parameters"],
        "ranks": ranks,
        "collective_decisions": fields["collective_decisions"],
        "failures": fields["failures"],
        "host": {"wall_seconds": fields["wall_seconds"]},
    }
    if fields["time_under_models"]:
        out["time_under_models"] = fields["time_under_models"]
    if fields["attempts"] is not None:
        out.update(attempts=fields["attempts"], checkpoints=fields["checkpoints"], time_lost=fields["time_lost"])
    return out


def convert(trace: str, output: str, otf2_host_speed: Optional[Union[str, float]] = None) -> int:
    """Write `trace` (an OTF2 archive, or any format `replay` reads) as a SimGrid time-independent trace in the folder
    `output` (index.txt and one file per rank), readable by `replay` and `smpirun -replay`. Computation recorded as
    time becomes flops at `otf2_host_speed` ("2Gf", or flop/s as a number; default 1Gf). Returns the number of actions
    written."""
    speed = "1Gf" if otf2_host_speed is None else otf2_host_speed
    options = {"trace": trace, "output": output, "otf2_host_speed": speed}
    return _core.convert(options)


def replay(
    trace: str,
    platform: str,
    np: Optional[int] = None,
    model: str = "smpi",
    params: Sequence[Tuple[str, str]] = (),
    params_file: Optional[str] = None,
    hostfile: Optional[str] = None,
    placement: str = "platform",
    coll_selector: str = "default",
    coll: Optional[Dict[str, str]] = None,
    timeline: Optional[str] = None,
    timeline_format: Optional[str] = None,
    timeline_internals: bool = False,
    timeline_links: bool = False,
    fail: Optional[str] = None,
    fail_mtbf: Optional[float] = None,
    seed: int = 1,
    otf2_host_speed: Optional[Union[str, float]] = None,
    switch: Optional[str] = None,
    checkpoint_interval: Optional[Union[str, float]] = None,
    checkpoint_cost: Union[str, float] = 0.0,
    restart: int = 0,
    restart_cost: Union[str, float] = 0.0,
    ranks_json: bool = False,
    rank_stats: bool = True,
    teardown: bool = True,
) -> ReplayResult:
    """Replay a trace on a platform: a SimGrid time-independent trace (index file or single file), or an OTF2 archive
    (its anchor file NAME.otf2 or its folder; `otf2_host_speed`, such as "2Gf", turns the recorded time between MPI
    calls into flops, default: each rank's host speed, docs/otf2.md).

    With `timeline`, the run's timeline is written to that file (format by extension, or `timeline_format`:
    chrome, paje, csv; `timeline_internals` adds the messages of collective algorithms, `timeline_links` the bandwidth
    each link carries over time; docs/timelines.md). `fail` ("RANK@TIME,...") and `fail_mtbf` (seconds, with `seed`)
    inject process failures (docs/failures.md): a failed rank's trace stops; ranks left waiting for it end in a
    DeadlockError naming the failure. `switch` ("size<4KiB=bxi", "time<1.5s=bxi", ...) sends some messages through
    another network model (docs/bxi.md); the result's `time_under_models` then gives the time under each.
    `checkpoint_interval` (seconds, or "30s") takes a coordinated checkpoint of `checkpoint_cost` at the first
    consistent cut after each interval; `restart` N restarts every rank from the last one, up to N times, when a rank
    fails, `restart_cost` later (docs/failures.md, "Checkpoint/restart in replay"): the result's `attempts`,
    `checkpoints` and `time_lost` say what happened. `ranks_json` also gives the per-rank list as the JSON text of
    `mpisim replay --json` (the result's `ranks_json`), written by the native core: faster than json.dumps at
    thousands of ranks; with `rank_stats=False` as well, `ranks` is left empty (building 16 384 RankStats costs
    more than the text: for a caller that only prints it, as `mpisim replay --json`). `teardown=False` leaves the
    simulation's memory to the process's end instead of freeing it when the replay returns: for a process that exits
    right after (`mpisim replay`); a process that goes on replaying would keep every such replay's memory."""
    fields = _replay_fields(**locals())  # the parameters, all of them (the first statement: no other name yet)
    from mpisim._results import RankStats, ReplayResult

    fields["ranks"] = [RankStats(i, *row) for i, row in enumerate(fields["ranks"])]  # rows in the fields' order
    return ReplayResult(**fields)


def replay_fields(trace: str, platform: str, **options) -> dict:
    """replay(trace, platform, **options) without the result object: ReplayResult's fields as a dict, `ranks` as the
    native core's rows (rank order, RankStats' fields after `rank`). For `mpisim replay --json`, which prints the
    document (replay_document) and needs no ReplayResult, nor the `dataclasses` module it is made with."""
    code = replay.__code__
    names = code.co_varnames[:code.co_argcount]
    defaults = dict(zip(names[len(names) - len(replay.__defaults__):], replay.__defaults__))
    unknown = [name for name in options if name not in defaults]
    if unknown:
        raise TypeError(f"replay() got an unexpected keyword argument {unknown[0]!r}")
    return _replay_fields(trace, platform, **{**defaults, **options})


def _replay_fields(trace, platform, np, model, params, params_file, hostfile, placement, coll_selector, coll, timeline,
                   timeline_format, timeline_internals, timeline_links, fail, fail_mtbf, seed, otf2_host_speed, switch,
                   checkpoint_interval, checkpoint_cost, restart, restart_cost, ranks_json, rank_stats,
                   teardown) -> dict:
    """replay()'s work: every keyword given (replay() passes its parameters, replay_fields() adds the defaults)."""
    if (timeline_format or timeline_internals or timeline_links) and not timeline:
        raise ValueError("timeline_format, timeline_internals and timeline_links need a timeline file")
    if not rank_stats and not ranks_json:
        raise ValueError("rank_stats=False needs ranks_json=True: the per-rank figures would be nowhere")
    options = {
        "trace": trace,
        "platform": platform,
        "ranks": np,
        "model": model,
        "params": list(params),
        "params_file": params_file,
        "hostfile": hostfile,
        "placement": placement,
        "coll_selector": coll_selector,
        "coll": dict(coll or {}),
        "seed": seed,
    }
    if otf2_host_speed is not None:
        options["otf2_host_speed"] = otf2_host_speed
    if fail is not None:
        options["fail"] = fail
    if fail_mtbf is not None:
        options["fail_mtbf"] = fail_mtbf
    if switch is not None:
        options["switch"] = switch
    checkpointing = checkpoint_interval is not None or restart
    if checkpointing:
        options.update(checkpoint_cost=checkpoint_cost, restart=restart, restart_cost=restart_cost)
        if checkpoint_interval is not None:
            options["checkpoint_interval"] = checkpoint_interval
    elif checkpoint_cost:
        raise ValueError("--checkpoint-cost needs --checkpoint-interval")
    if timeline:
        options.update(timeline=timeline, timeline_format=timeline_format, timeline_internals=timeline_internals,
                       timeline_links=timeline_links)
    if ranks_json:
        options["ranks_json"] = True
        if not rank_stats:
            options["rank_stats"] = False
    if not teardown:
        options["teardown"] = False
    start = time.perf_counter()
    raw = _core.replay(options)
    wall_seconds = time.perf_counter() - start
    inputs = {
        "trace": os.path.abspath(trace) if os.path.exists(trace) else trace,
        "platform": os.path.abspath(platform) if os.path.exists(platform) else platform,
        "np": raw["np"],
        "model": model,
        "hostfile": hostfile,
        "placement": placement,
        "coll_selector": coll_selector,
        "coll": dict(coll or {}),
    }
    if fail is not None or fail_mtbf is not None:
        inputs.update(fail=fail, fail_mtbf=fail_mtbf, seed=seed)
    if switch is not None:
        inputs["switch"] = switch
    if checkpointing:
        inputs.update(checkpoint_interval=checkpoint_interval, checkpoint_cost=checkpoint_cost, restart=restart,
                      restart_cost=restart_cost)
    if timeline:
        inputs["timeline"] = os.path.abspath(timeline)
    return dict(
        simulated_time=raw["simulated_time"],
        ranks=raw["ranks"],
        actions=raw["actions"],
        fingerprint=raw["fingerprint"],
        inputs=inputs,
        model_parameters=dict(raw["model_parameters"]),
        collective_decisions=[dict(d, candidates=[list(c) for c in d["candidates"]])
                              for d in raw["collective_decisions"]],
        wall_seconds=wall_seconds,
        failures=[dict(f) for f in raw["failures"]],
        time_under_models=dict(raw["time_under_models"]),
        attempts=[dict(a) for a in raw["attempts"]] if "attempts" in raw else None,
        checkpoints=[dict(c) for c in raw["checkpoints"]] if "checkpoints" in raw else None,
        time_lost=raw.get("time_lost"),
        ranks_json=raw.get("ranks_json") or None,
    )


def _runner_failure(status: int, stdout: str, stderr: str) -> Exception:
    """The exception for a run that ended without a summary, told by the runner's report (its first `mpisim` line
    and what follows), not by the status alone (a program may exit(2) or call MPI_Abort with 3). As `replay`:
    InputError for bad input (the runner's own errors with status 2, an MPI function mpisim lacks), DeadlockError,
    SimulationError for the rest (MPI_Abort, a crash, exit(), a fatal MPI error)."""
    lines = stderr.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("mpisim")), None)
    report = "\n".join(lines[first:]) if first is not None else f"mpisim-run ended with status {status}"
    kind = _core.SimulationError
    if report.startswith("mpisim run: "):  # the runner's own error, before or outside the simulation
        kind = _core.InputError if status == 2 else _core.SimulationError
    elif report.startswith("mpisim: deadlock at simulated time"):
        kind = _core.DeadlockError
    elif status == 2 and report.splitlines()[0].endswith("which mpisim does not support"):
        kind = _core.InputError
    for prefix in ("mpisim run: ", "mpisim: "):
        if report.startswith(prefix):
            report = report[len(prefix):]
            break
    error = kind(report)
    error.exit_status, error.stdout, error.stderr = status, stdout, stderr
    return error


_FAILURE_KINDS = {"bad-input": _core.InputError, "deadlock": _core.DeadlockError}


def _summary_failure(summary: dict, status: int, stdout: str, stderr: str) -> Exception:
    """The exception for a run whose summary says it did not complete: its outcome tells the kind (docs/online.md,
    "Exit status and reports"), its report the message."""
    report = summary.get("report") or f"mpisim-run ended with outcome {summary['outcome']}"
    for prefix in ("mpisim run: ", "mpisim: "):
        if report.startswith(prefix):
            report = report[len(prefix):]
            break
    error = _FAILURE_KINDS.get(summary["outcome"], _core.SimulationError)(report)
    error.exit_status, error.stdout, error.stderr = status, stdout, stderr
    error.outcome = summary["outcome"]
    return error


def _completed(summary: dict) -> bool:
    """Whether every rank's main returned (outcome ok or application-exit, no rank cut short by exit())."""
    return summary.get("outcome", "ok") in ("ok", "application-exit") and all(
        r["finish"] >= 0 or r.get("failed", False) for r in summary["ranks"])


def _forced_algorithms(coll) -> Dict[str, str]:
    """`coll` as given to `run` (dict, pairs or "OP=ALGO,..." texts; already checked), as the dict `replay` records."""
    if not coll:
        return {}
    if isinstance(coll, dict):
        return {str(op): str(algorithm) for op, algorithm in coll.items()}
    items = [coll] if isinstance(coll, str) else coll
    chosen: Dict[str, str] = {}
    for item in items:
        pairs = _core.parse_run_option("--coll", item) if isinstance(item, str) else [item]
        chosen.update((str(op), str(algorithm)) for op, algorithm in pairs)
    return chosen


def _absolute(path: Optional[str]) -> Optional[str]:
    return os.path.abspath(path) if path and os.path.exists(path) else path


def run(program: str, args: Sequence[str] = (), **options) -> RunResult:
    """Simulate an MPI program built by `mpisim cc` (docs/online.md), as `mpisim run` does, through the native runner:
    `run("./app", np=16, platform="cluster:16", args=["-n", "100"], model="smpi", params={"bw-factor": "0.9"},
    coll={"alltoall": "bruck"})`.

    Keywords are the run options of `mpisim run` (listed below, generated from the one table of options), named as
    in `replay`: text is read as on the command line ("2Gf", "1us"); numbers are in base units. An unknown keyword
    raises TypeError; a bad value InputError naming the keyword. The program's stdout and stderr are captured into the
    result. A run that ends without a summary raises as `replay` does: InputError (bad input, program not built by
    `mpisim cc`), DeadlockError, SimulationError (MPI_Abort, a crash, exit(), a fatal MPI error), with the
    `exit_status`, `stdout` and `stderr` of the run as attributes.
    """
    import subprocess  # here, not at the top: a replay's start-up does without them
    import tempfile

    from mpisim._results import OnlineRankStats, RunResult

    from mpisim.online import RUNNER, native_dir

    arguments = _core.run_arguments(options)
    with tempfile.TemporaryDirectory(prefix="mpisim-run-") as directory:
        summary_path = os.path.join(directory, "summary.json")
        command = [str(native_dir() / RUNNER), *arguments, "--json", "--summary", summary_path, program,
                   *[str(a) for a in args]]
        done = subprocess.run(command, capture_output=True, text=True, errors="replace")
        status = 128 - done.returncode if done.returncode < 0 else done.returncode
        if not os.path.exists(summary_path):
            raise _runner_failure(status, done.stdout, done.stderr)
        with open(summary_path) as summary_file:
            summary = json.load(summary_file)
        if not _completed(summary):
            raise _summary_failure(summary, status, done.stdout, done.stderr)
    given = summary["inputs"]
    inputs = {
        "program": _absolute(program),
        "args": [str(a) for a in args],
        "platform": _absolute(given["platform"]),
        "np": given["ranks"],
        "model": given["model"],
        "hostfile": _absolute(options.get("hostfile")),
        "placement": options.get("placement") or "platform",
        "coll_selector": given["collective_selector"],
        "coll": _forced_algorithms(options.get("coll")),
        "host_speed": given["host_speed"],
        "compute_time": given["compute_time"],
        "privatization": given["privatization"],
    }
    if options.get("timeline"):
        inputs["timeline"] = os.path.abspath(options["timeline"])
    return RunResult(
        simulated_time=summary["simulated_time"],
        ranks=[OnlineRankStats(**r) for r in summary["ranks"]],
        fingerprint=int(summary["fingerprint"], 16),
        exit_status=summary["exit_status"],
        stdout=done.stdout,
        stderr=done.stderr,
        wall_seconds=summary["host"]["wall_seconds"],
        inputs=inputs,
        model_parameters=dict(summary["model_parameters"]),
        outcome=summary["outcome"],
        warnings=list(summary["warnings"]),
        host_speed=summary["host"]["host_speed"],
        failures=list(summary.get("failures", [])),
        attempts=list(summary.get("attempts", [])),
        time_lost=summary.get("time_lost", 0.0),
    )


def run_options() -> List[dict]:
    """The run options of both front ends, declared once in the native core: name, type, default, help, SimGrid
    names, front ends (replay, run), keyword of `replay`/`run`."""
    return _core.run_options()


def _keyword_list() -> str:
    lines = ["", "    Keywords:"]
    for option in run_options():
        if option["keyword"] and "run" in option["front_ends"]:
            lines.append(f"        {option['keyword']} ({option['name']}): {option['description']}")
    return "\n".join(lines) + "\n"


run.__doc__ += _keyword_list()


def platform_hosts(platform: str) -> List[str]:
    """Host names of a platform file or generator spec, in platform order."""
    return [h["name"] for h in _core.describe_platform(platform)["hosts"]]


def describe_platform(platform: str) -> dict:
    """Hosts (name, speed, cores) and links (name, bandwidth, latency, sharing) of a platform."""
    return _core.describe_platform(platform)


def route(platform: str, src: str, dst: str) -> dict:
    """Links crossed from host src to host dst, and the route's latency."""
    return _core.route(platform, src, dst)


def network_models() -> list:
    return _core.network_models()


def collective_algorithms() -> list:
    return _core.collective_algorithms()


def collective_selectors() -> list:
    return _core.collective_selectors()
