"""Recording traces of real MPI runs: ``mpisim record -o DIR -- mpirun -np 4 ./app args``.

Runs the command with ``libmpisim-trace.so`` preloaded (a PMPI interposition library, ``src/record/``), which makes
every rank write, into DIR:

- ``rank-<r>.txt``: its SimGrid time-independent trace, and rank 0 ``index.txt`` listing them (replay with
  ``mpisim replay DIR/index.txt`` or, from inside DIR, ``smpirun -replay index.txt``);
- ``rank-<r>.json``: its timed trace (Chrome trace-event format), which this module merges into ``timeline.json``.

Then checks the output and prints a summary. The library is found next to this package (installed there by the
build when an MPI library was found), or at ``MPISIM_TRACE_LIBRARY``. See docs/record.md.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

LIBRARY_NAME = "libmpisim-trace.so"

# What the library reads (src/record/Config.hpp). Values are checked here first for a clear error before any rank
# starts; the library checks them again with mpisim's units grammar.
_SPEED = re.compile(r"^\d+(\.\d*)?([eE][+-]?\d+)?([kMGTPEZY]?f|(kilo|mega|giga|tera|peta|exa|zetta|yotta)?flops)?$")
_TIME = re.compile(r"^\d+(\.\d*)?([eE][+-]?\d+)?(w|d|h|m|s|ms|us|ns|ps)?$")
_ACTION_LINE = re.compile(r"^(\d+)\s+(\S+)(.*)$")
_OUTPUTS = ("rank-*.txt", "rank-*.json", "index.txt", "index.txt.part", "timeline.json")


class RecordError(ValueError):
    """The recording cannot be made or is incomplete (the CLI reports it with exit status 2)."""


@dataclass
class RankSummary:
    rank: int
    actions: int  # action lines of its trace (comments excluded)
    action_counts: Dict[str, int]
    flops: float  # sum of its compute lines
    calls: int  # MPI calls in its timeline
    finalized: bool  # its trace ends with `finalize`


@dataclass
class Recording:
    directory: str
    index: str
    timeline: str
    ranks: List[RankSummary]
    notes: List[Tuple[int, str]] = field(default_factory=list)  # (rank, text of a `# note:` line)
    header: List[str] = field(default_factory=list)  # rank 0's provenance comments


def find_library() -> str:
    """Path of libmpisim-trace.so: ``MPISIM_TRACE_LIBRARY`` if set, else the copy installed in the package."""
    override = os.environ.get("MPISIM_TRACE_LIBRARY")
    if override:
        if not os.path.isfile(override):
            raise RecordError(f"MPISIM_TRACE_LIBRARY='{override}': no such file")
        return os.path.abspath(override)
    import mpisim

    path = os.path.join(os.path.dirname(os.path.abspath(mpisim.__file__)), LIBRARY_NAME)
    if not os.path.isfile(path):
        raise RecordError(
            f"{LIBRARY_NAME} is not installed next to the mpisim package ({path}): it is built only when an MPI "
            "library is found (Debian: apt-get install openmpi-bin libopenmpi-dev, then rebuild with `make build`); "
            "or point MPISIM_TRACE_LIBRARY at a build of src/record")
    return path


def _is_open_mpi_launcher(program: str) -> bool:
    """Open MPI's mpirun forwards environment variables to remote nodes only when told to (-x)."""
    if os.path.basename(program) not in ("mpirun", "mpiexec", "orterun", "oshrun"):
        return False
    resolved = shutil.which(program) or program
    if "openmpi" in os.path.realpath(resolved) or os.path.basename(os.path.realpath(resolved)) == "orterun":
        return True
    try:
        done = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return "Open MPI" in done.stdout or "OpenRTE" in done.stdout


def trace_environment(output: str, library: str, speed: str = "1Gf", counter: str = "time",
                      min_compute: str = "1us", subcomm: str = "p2p") -> Dict[str, str]:
    """The variables that make an MPI run record itself into `output`."""
    if not _SPEED.match(speed):
        raise RecordError(f"--speed '{speed}': expected a speed such as 1Gf, 2.5Gf, 500Mf")
    if not _TIME.match(min_compute):
        raise RecordError(f"--min-compute '{min_compute}': expected a duration such as 1us, 1e-6")
    if counter not in ("time", "instructions"):
        raise RecordError(f"--counter '{counter}': expected 'time' or 'instructions'")
    if subcomm not in ("world", "p2p"):
        raise RecordError(f"--subcomm '{subcomm}': expected 'world' or 'p2p'")
    preload = os.environ.get("LD_PRELOAD", "")
    return {
        "LD_PRELOAD": library + (":" + preload if preload else ""),
        "MPISIM_TRACE_DIR": os.path.abspath(output),
        "MPISIM_TRACE_SPEED": speed,
        "MPISIM_TRACE_COUNTER": counter,
        "MPISIM_TRACE_MIN_COMPUTE": min_compute,
        "MPISIM_TRACE_SUBCOMM": subcomm,
    }


def _clear_outputs(directory: str) -> None:
    for pattern in _OUTPUTS:
        for path in glob.glob(os.path.join(directory, pattern)):
            os.remove(path)


def _read_fragment(path: str) -> Tuple[List[dict], dict]:
    """Events and otherData of one rank's timeline. A file cut short (the rank died) still yields its whole lines."""
    with open(path) as stream:
        text = stream.read()
    try:
        document = json.loads(text)
        return document.get("traceEvents", []), document.get("otherData", {})
    except ValueError:
        events = []
        for line in text.splitlines():
            line = line.strip().lstrip(",")
            if line.startswith("{\"name\""):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
        return events, {}


def merge_timelines(directory: str, command: Optional[Sequence[str]] = None, keep_fragments: bool = False) -> str:
    """Merges the ranks' ``rank-<r>.json`` into ``timeline.json`` (one Chrome trace: pid 0, tid = rank)."""
    fragments = sorted(glob.glob(os.path.join(directory, "rank-*.json")),
                       key=lambda p: int(re.search(r"rank-(\d+)\.json$", p).group(1)))
    if not fragments:
        raise RecordError(f"{directory}: no rank-<r>.json timeline to merge")
    from mpisim import __version__

    path = os.path.join(directory, "timeline.json")
    per_rank = []
    with open(path + ".part", "w") as out:
        out.write('{"traceEvents":[\n')
        process = {"name": "process_name", "ph": "M", "pid": 0,
                   "args": {"name": " ".join(command) if command else "MPI run"}}
        out.write(json.dumps(process, separators=(",", ":")))
        for fragment in fragments:  # one rank in memory at a time
            rank_events, other = _read_fragment(fragment)
            per_rank.append(other)
            for event in rank_events:
                out.write(",\n")
                out.write(json.dumps(event, separators=(",", ":")))
        out.write('\n],\n"displayTimeUnit":"ms",\n"otherData":')
        json.dump(_provenance(per_rank, command, __version__), out)
        out.write("}\n")
    os.replace(path + ".part", path)
    if not keep_fragments:
        for fragment in fragments:
            os.remove(fragment)
    return path


def _provenance(per_rank: List[dict], command: Optional[Sequence[str]], version: str) -> dict:
    first = per_rank[0] if per_rank else {}

    return {
        "mpisim_version": version,
        "command": list(command) if command else None,
        "ranks": len(per_rank),
        "mpi_library": first.get("mpi_library"),
        "counter": first.get("counter"),
        "speed": first.get("speed"),
        "subcomm": first.get("subcomm"),
        "hosts": sorted({o.get("host") for o in per_rank if o.get("host")}),
        "clock": first.get("clock", "microseconds since the start of MPI_Init"),
    }


def _summarize_rank(path: str, rank: int) -> Tuple[RankSummary, List[str], List[str]]:
    counts: Counter = Counter()
    flops = 0.0
    last = None
    notes, header = [], []
    with open(path) as stream:
        for line in stream:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                if line.startswith("# note: "):
                    notes.append(line[len("# note: "):])
                elif last is None:
                    header.append(line[2:])
                continue
            match = _ACTION_LINE.match(line)
            if not match:
                continue
            action = match.group(2)
            counts[action] += 1
            last = action
            if action == "compute":
                flops += float(match.group(3).split()[0])
    summary = RankSummary(rank=rank, actions=sum(counts.values()), action_counts=dict(counts), flops=flops,
                          calls=0, finalized=last == "finalize")
    return summary, notes, header


def _check_index(directory: str) -> str:
    index = os.path.join(directory, "index.txt")
    if not os.path.isfile(index):
        raise RecordError(f"{index} is missing: rank 0 did not reach MPI_Finalize under the recorder (did the "
                          "command run an MPI program, and did LD_PRELOAD reach its ranks?)")
    return index


def summarize(directory: str) -> Recording:
    """Reads a recording back: per-rank action counts, computation, MPI calls, notes."""
    index = _check_index(directory)
    with open(index) as stream:
        files = [line.strip() for line in stream if line.strip()]
    ranks, notes, header = [], [], []
    for rank, name in enumerate(files):
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            raise RecordError(f"{index}: rank {rank}'s trace {path} is missing")
        summary, rank_notes, rank_header = _summarize_rank(path, rank)
        ranks.append(summary)
        notes.extend((rank, n) for n in rank_notes)
        if rank == 0:
            header = rank_header
    timeline = os.path.join(directory, "timeline.json")
    if os.path.isfile(timeline):
        with open(timeline) as stream:
            events = json.load(stream)["traceEvents"]
        calls = Counter(e["tid"] for e in events if e.get("ph") == "X")
        for summary in ranks:
            summary.calls = calls.get(summary.rank, 0)
    return Recording(directory=directory, index=index, timeline=timeline, ranks=ranks, notes=notes, header=header)


def record(command: Sequence[str], output: str, speed: str = "1Gf", counter: str = "time", min_compute: str = "1us",
           subcomm: str = "p2p", library: Optional[str] = None) -> Tuple[int, Optional[Recording]]:
    """Runs `command` (an MPI launch such as ``["mpirun", "-np", "4", "./app"]``) under the recorder.

    Returns the command's exit status and, when it succeeded, the recording (index checked, timelines merged).
    """
    if not command:
        raise RecordError("no command to record: give it after --, e.g. mpisim record -o DIR -- mpirun -np 4 ./app")
    trace_environment(output, "", speed, counter, min_compute, subcomm)  # options first: their errors come first
    variables = trace_environment(output, library or find_library(), speed, counter, min_compute, subcomm)
    os.makedirs(output, exist_ok=True)
    _clear_outputs(output)
    variables["MPISIM_TRACE_QUIET"] = "1"  # the summary below reports the notes
    launch = list(command)
    if _is_open_mpi_launcher(launch[0]):
        forwarded = []
        for name in variables:
            forwarded += ["-x", name]
        launch = launch[:1] + forwarded + launch[1:]
    env = dict(os.environ, **variables)
    try:
        status = subprocess.run(launch, env=env).returncode
    except OSError as error:
        raise RecordError(f"cannot run {launch[0]}: {error.strerror}") from error
    if status != 0:
        return status, None
    _check_index(output)
    merge_timelines(output, command)
    return 0, summarize(output)


_NOTE = re.compile(r"^(.*) \((\d+)x; first: (.*)\)$")


def _group_notes(notes: Sequence[Tuple[int, str]]) -> Dict[str, Tuple[List[int], int, str]]:
    """Notes of every rank grouped by kind: ranks, total count, first example."""
    grouped: Dict[str, Tuple[List[int], int, str]] = {}
    for rank, text in notes:
        match = _NOTE.match(text)
        kind, count, example = (match.group(1), int(match.group(2)), match.group(3)) if match else (text, 1, "")
        ranks, total, first = grouped.get(kind, ([], 0, example))
        grouped[kind] = (ranks + [rank], total + count, first)
    return grouped


def _rank_list(ranks: List[int]) -> str:
    ranks = sorted(set(ranks))
    if len(ranks) > 1 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"ranks {ranks[0]}-{ranks[-1]}"
    return ("rank " if len(ranks) == 1 else "ranks ") + ",".join(map(str, ranks))


def print_summary(recording: Recording, command: Sequence[str] = (), out=sys.stdout) -> None:
    ranks = recording.ranks
    what = f" of `{shlex.join(command)}`" if command else ""
    print(f"Recorded {len(ranks)} ranks{what} into {recording.directory}/", file=out)
    for line in recording.header[1:]:
        print(f"  {line}", file=out)
    print(f"{'rank':>6} {'actions':>8} {'MPI calls':>10} {'compute (flop)':>15}  most frequent actions", file=out)
    shown = ranks if len(ranks) <= 16 else ranks[:8] + ranks[-8:]
    for position, r in enumerate(shown):
        if len(ranks) > 16 and position == 8:
            print(f"{'...':>6}", file=out)
        mpi_actions = [(name, count) for name, count in r.action_counts.items() if name != "compute"]
        frequent = ", ".join(f"{name} {count}" for name, count in
                             sorted(mpi_actions, key=lambda item: (-item[1], item[0]))[:4])
        unfinished = "" if r.finalized else "  (no finalize: trace incomplete)"
        print(f"{r.rank:>6} {r.actions:>8} {r.calls:>10} {r.flops:>15.4g}  {frequent}{unfinished}", file=out)
    for kind, (ranks_with, count, example) in _group_notes(recording.notes).items():
        print(f"note: {kind} ({count} times on {_rank_list(ranks_with)}; e.g. {example})", file=out)
    print(f"Replay:   mpisim replay {recording.index} --platform cluster:{len(ranks)}", file=out)
    print(f"          (cd {recording.directory} && smpirun -np {len(ranks)} -platform PLATFORM.xml -replay index.txt)",
          file=out)
    print(f"Timeline: {recording.timeline} (Chrome trace-event format: https://ui.perfetto.dev, chrome://tracing)",
          file=out)


def cmd_record(args: argparse.Namespace) -> int:
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if args.merge_only:
        if command:
            raise RecordError("--merge-only takes no command")
        if glob.glob(os.path.join(args.output, "rank-*.json")) or \
                not os.path.isfile(os.path.join(args.output, "timeline.json")):
            merge_timelines(args.output)
        print_summary(summarize(args.output), out=sys.stdout)
        return 0
    status, recording = record(command, args.output, speed=args.speed, counter=args.counter,
                               min_compute=args.min_compute, subcomm=args.subcomm)
    if status != 0:
        print(f"mpisim: the recorded command exited with status {status}; {args.output} is incomplete",
              file=sys.stderr)
        return status
    print_summary(recording, command)
    return 0


def add_record_command(subparsers) -> None:
    """Adds `mpisim record` to the CLI's subparsers (called from mpisim.cli.build_parser)."""
    p = subparsers.add_parser(
        "record", help="run an MPI application under the trace recorder (TI traces + timeline)",
        description="Run an MPI application with libmpisim-trace.so preloaded: every rank writes its SimGrid "
                    "time-independent trace into DIR (index.txt, rank-<r>.txt), and its timed trace, merged into "
                    "DIR/timeline.json (Chrome trace-event format). Example: "
                    "mpisim record -o trace -- mpirun -np 4 ./app",
        epilog="See docs/record.md for what is recorded and the limitations.")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (created; previous "
                   "recording files in it are replaced)")
    p.add_argument("--speed", default="1Gf",
                   help="reference speed turning measured CPU time into flops (default 1Gf); replay on hosts of "
                        "this speed to reproduce the measured computation times")
    p.add_argument("--counter", choices=["time", "instructions"], default="time",
                   help="computation measured as thread CPU time x speed (default), or as retired instructions "
                        "(hardware counter; falls back to time with a warning where perf events are unavailable)")
    p.add_argument("--min-compute", default="1us", metavar="TIME",
                   help="computation bursts shorter than this are not written (default 1us)")
    p.add_argument("--subcomm", choices=["world", "p2p"], default="p2p",
                   help="collectives on sub-communicators: as point-to-point messages among their members "
                        "(default: replays right), or as MPI_COMM_WORLD collectives (world: SimGrid's convention)")
    p.add_argument("--merge-only", action="store_true",
                   help="run nothing: merge and summarise a recording made with LD_PRELOAD by hand")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the MPI launch command, after --")
    p.set_defaults(func=cmd_record)
