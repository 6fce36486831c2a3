"""Real versus simulated: ``mpisim compare REAL SIM``.

REAL is the timeline of a recorded run (``mpisim record``'s ``timeline.json``), SIM the timeline of its replay (any
format ``mpisim replay --timeline`` writes). Each rank's calls are matched in order: the n-th MPI call of a rank in
the real run with the simulated slices the replay made of it. A recorded call carries how many trace lines it
produced (``args.actions``): ``MPI_Waitall`` over some of a rank's requests becomes one ``wait`` per request,
``MPI_Sendrecv`` with tags ``isend`` + ``recv`` + ``wait``; its simulated time runs from the first of those slices'
start to the last one's end. Calls that leave no simulated slice (``MPI_Init``, ``MPI_Finalize``, ``MPI_Comm_size``,
communicator creation, probes) are skipped, and so are the simulated computations (the real timeline has none).

For each matched call, with ``real`` and ``sim`` its durations:

- ``error = (sim - real) / real``: the prediction's relative error (negative: the model is optimistic);
- ``slowdown = real / sim - 1``: how much slower the real call was than predicted; ``--slower-than X`` lists the calls
  whose slowdown exceeds X (``0.2``: 20 %, ``2x``: more than twice the predicted time; bare: ``2x``), the performance
  validation of Kunkel et al., PIOsimHD: a call that takes much longer than the model of the machine says points at a
  performance problem of the machine or the MPI library. ``--timelines IMAGE`` draws each rank's calls in both runs,
  real above simulated, the flagged ones marked (their Fig. 4 and 6).

MPI-IO calls match the replay's file actions: a pointer access (``MPI_File_write``) was recorded at its offset
(``file_write_at``), a non-blocking collective or a split collective's ``_begin`` as the blocking collective, and a
completion call that completed non-blocking file accesses (``MPI_Wait``) as ``file_wait`` lines.

The same two measures are given for totals per operation and per rank (sum of real and of simulated durations).
"""

from __future__ import annotations

import csv
import fnmatch
import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, TextIO

from mpisim.gantt import canonical_operation
from mpisim.timeline import Timeline, read_timeline

# Recorded calls that the replay turns into actions without a slice (or into nothing).
NO_SLICE = {"init", "init_thread", "finalize", "comm_size", "comm_split", "comm_split_type", "comm_create",
            "comm_dup", "comm_dup_with_info", "cart_create", "cart_sub", "graph_create", "dist_graph_create",
            "dist_graph_create_adjacent", "intercomm_create", "intercomm_merge", "comm_free", "probe", "iprobe",
            "request_free", "location", "comm_rank"}
# Simulated slices without a recorded call.
SIM_ONLY = {"compute", "sleep"}
POINT_TO_POINT = {"send", "isend", "recv", "irecv", "wait", "waitall", "test", "sendRecv"}
# What a completion call may have become: point-to-point waits and tests, and the completions of file accesses.
COMPLETIONS = POINT_TO_POINT | {"file_wait"}
_COMPLETION_CALLS = {"wait", "waitall", "waitany", "waitsome", "test", "testall", "testany", "testsome"}
# The simulated operation a recorded call of one trace line becomes, where its name differs.
_REPLAYED_AS = {"ssend": {"send"}, "bsend": {"send"}, "rsend": {"send"}, "issend": {"isend"}, "ibsend": {"isend"},
                "irsend": {"isend"}, "start": {"isend", "irecv"}, "startall": {"isend", "irecv"},
                "waitany": {"wait"}, "waitsome": {"wait"}, "waitall": {"waitall", "wait"}, "testany": {"test"},
                "testall": {"test"}, "testsome": {"test"}, "sendrecv_replace": {"sendRecv"},
                # MPI-IO (docs/record.md): pointer forms at their offset; non-blocking and split collectives posted
                # (at their offset, or in rank order), the split's end as its `file_wait`.
                "file_write": {"file_write_at"}, "file_read": {"file_read_at"},
                "file_write_all": {"file_write_at_all"}, "file_read_all": {"file_read_at_all"},
                "file_iwrite": {"file_iwrite_at"}, "file_iread": {"file_iread_at"},
                "file_iwrite_all": {"file_iwrite_at_all"}, "file_iread_all": {"file_iread_at_all"},
                "file_write_all_begin": {"file_iwrite_at_all"}, "file_read_all_begin": {"file_iread_at_all"},
                "file_write_at_all_begin": {"file_iwrite_at_all"}, "file_read_at_all_begin": {"file_iread_at_all"},
                "file_write_all_end": {"file_wait"}, "file_read_all_end": {"file_wait"},
                "file_write_at_all_end": {"file_wait"}, "file_read_at_all_end": {"file_wait"},
                "file_write_ordered_begin": {"file_iwrite_ordered"}, "file_read_ordered_begin": {"file_iread_ordered"},
                "file_write_ordered_end": {"file_wait"}, "file_read_ordered_end": {"file_wait"}}
# A completion call of one line may have completed a file access instead.
for _call in _COMPLETION_CALLS:
    _REPLAYED_AS[_call] = _REPLAYED_AS.get(_call, {_call}) | {"file_wait"}


class CompareError(ValueError):
    """The two timelines cannot be matched (the CLI reports it in one line, exit status 2)."""


@dataclass
class MatchedCall:
    rank: int
    index: int  # among the rank's compared calls, from 0
    operation: str  # the recorded call's name
    real_start: float
    real_end: float
    sim_start: float
    sim_end: float

    @property
    def real(self) -> float:
        return self.real_end - self.real_start

    @property
    def sim(self) -> float:
        return self.sim_end - self.sim_start

    @property
    def error(self) -> float:
        return relative_error(self.real, self.sim)

    @property
    def slowdown(self) -> float:
        return slowdown(self.real, self.sim)

    def to_dict(self) -> dict:
        return {"rank": self.rank, "index": self.index, "operation": self.operation, "real_start": self.real_start,
                "real_end": self.real_end, "real": self.real, "sim_start": self.sim_start, "sim_end": self.sim_end,
                "sim": self.sim, "error": _finite(self.error), "slowdown": _finite(self.slowdown)}


@dataclass
class Total:
    """Sums over a group of calls (an operation, a rank)."""

    name: str
    calls: int
    real: float
    sim: float

    @property
    def error(self) -> float:
        return relative_error(self.real, self.sim)

    def to_dict(self) -> dict:
        return {"name": self.name, "calls": self.calls, "real": self.real, "sim": self.sim,
                "error": _finite(self.error)}


@dataclass
class Comparison:
    real_path: str
    sim_path: str
    calls: List[MatchedCall]
    per_operation: List[Total] = field(default_factory=list)
    per_rank: List[Total] = field(default_factory=list)

    def only(self, patterns: Sequence[str]) -> "Comparison":
        """The comparison restricted to the operations matching one of the shell patterns (on the canonical names:
        `file_*`, `allreduce`), totals recomputed; the calls keep their index among all the rank's compared calls."""
        def wanted(call: MatchedCall) -> bool:
            return any(fnmatch.fnmatchcase(canonical_operation(call.operation), p) for p in patterns)

        calls = [c for c in self.calls if wanted(c)]
        return Comparison(self.real_path, self.sim_path, calls,
                          _totals(calls, lambda c: canonical_operation(c.operation)), _totals(calls, lambda c: c.rank))

    def largest(self, count: int) -> List[MatchedCall]:
        """The `count` calls whose simulated duration is farthest from the real one (in seconds)."""
        return sorted(self.calls, key=lambda c: (-abs(c.sim - c.real), c.rank, c.index))[:count]

    def slower_than(self, threshold: float) -> List[MatchedCall]:
        """The calls slower in reality than predicted by more than `threshold` (0.2: 20 %), those that lost the most
        time first (ranking by slowdown would put first the calls simulated in zero time, all infinitely slower)."""
        slow = [c for c in self.calls if c.slowdown > threshold]
        return sorted(slow, key=lambda c: (-(c.real - c.sim), c.rank, c.index))

    def to_dict(self, top: int, threshold: Optional[float]) -> dict:
        import mpisim

        out = {"provenance": {"mpisim_version": mpisim.__version__, "real": self.real_path, "sim": self.sim_path},
               "calls": len(self.calls),
               "total": Total("all", len(self.calls), sum(c.real for c in self.calls),
                              sum(c.sim for c in self.calls)).to_dict(),
               "per_operation": [t.to_dict() for t in self.per_operation],
               "per_rank": [dict(t.to_dict(), rank=int(t.name)) for t in self.per_rank],
               "largest": [c.to_dict() for c in self.largest(top)]}
        if threshold is not None:
            out["slower_than"] = {"threshold": threshold, "calls": [c.to_dict() for c in self.slower_than(threshold)]}
        return out


DEFAULT_THRESHOLD = "2x"


def parse_threshold(text: str) -> float:
    """A --slower-than value as a slowdown: '0.2' and '20%' are 0.2 (20 % slower), '2x' is 1.0 (twice as long)."""
    value = str(text).strip()
    try:
        if value.endswith("x"):
            factor = float(value[:-1])
            if not factor >= 1:
                raise ValueError
            return factor - 1
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
        if not number >= 0 or not math.isfinite(number):
            raise ValueError
        return number
    except ValueError:
        raise ValueError(f"--slower-than expects a fraction >= 0 (0.2: 20 %), a percentage (20%) or a factor >= 1 "
                         f"(2x: twice the predicted time), got '{text}'") from None


def relative_error(real: float, sim: float) -> float:
    if real == 0:
        return 0.0 if sim == 0 else math.inf
    return (sim - real) / real


def slowdown(real: float, sim: float) -> float:
    if sim == 0:
        return 0.0 if real == 0 else math.inf
    return real / sim - 1


def _finite(value: float) -> Optional[float]:
    return value if math.isfinite(value) else None  # JSON has no infinity


# ------------------------------------------------------------------------------------------------------ matching

def _compared_real(timeline: Timeline, rank: int):
    """The rank's recorded calls that have simulated slices: (names, starts, ends, trace lines each)."""
    calls = timeline.calls[timeline.calls["rank"] == rank].sort_values(["start", "end"], kind="stable")
    names = [canonical_operation(str(o)) for o in calls["operation"]]
    lines = calls["actions"].to_numpy() if "actions" in calls.columns else [1] * len(names)
    # Computations too, when REAL is itself a simulated timeline (comparing two models, say).
    keep = [i for i, (n, a) in enumerate(zip(names, lines)) if a > 0 and n not in NO_SLICE and n not in SIM_ONLY]
    starts, ends = calls["start"].to_numpy(), calls["end"].to_numpy()
    return ([str(calls["operation"].iloc[i]) for i in keep], [names[i] for i in keep],
            [float(starts[i]) for i in keep], [float(ends[i]) for i in keep], [int(lines[i]) for i in keep])


def _compared_sim(timeline: Timeline, rank: int):
    calls = timeline.calls[timeline.calls["rank"] == rank].sort_values(["start", "end"], kind="stable")
    names = [canonical_operation(str(o)) for o in calls["operation"]]
    keep = [i for i, n in enumerate(names) if n not in SIM_ONLY and n not in NO_SLICE]
    starts, ends = calls["start"].to_numpy(), calls["end"].to_numpy()
    return [names[i] for i in keep], [float(starts[i]) for i in keep], [float(ends[i]) for i in keep]


def _replayable_as(real: str, lines: int, sim: Sequence[str]) -> bool:
    """Whether the simulated slices `sim` can be what the replay made of a recorded call `real` of `lines` lines."""
    if lines > 1 and real in _COMPLETION_CALLS:  # waits of point-to-point requests and of file accesses
        return all(s in COMPLETIONS for s in sim)
    if lines > 1 or (real not in POINT_TO_POINT and sim[0] in POINT_TO_POINT):
        # Several lines (waitall as waits, sendrecv with tags, a sub-communicator collective as its messages) or a
        # sub-communicator collective of one message: point-to-point slices.
        return all(s in POINT_TO_POINT for s in sim) or (lines > 1 and _collective_name(real) in sim)
    return sim[0] in _REPLAYED_AS.get(real, {_collective_name(real)})


def _collective_name(real: str) -> str:
    """Non-blocking collectives are recorded as the blocking one; reduce_scatter(_block) is `reducescatter`."""
    name = real[1:] if real.startswith("i") and real[1:] in _BLOCKING else real
    return canonical_operation(name)


_BLOCKING = {"barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "gatherv", "scatter",
             "scatterv", "allgather", "allgatherv", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"}


def _match_rank(real: Timeline, sim: Timeline, rank: int) -> List[MatchedCall]:
    labels, names, r_start, r_end, lines = _compared_real(real, rank)
    s_names, s_start, s_end = _compared_sim(sim, rank)
    matched, cursor = [], 0
    for index, (label, name, count) in enumerate(zip(labels, names, lines)):
        where = f"rank {rank}, call {index + 1} ({label} at {r_start[index]:.9g} s)"
        group = s_names[cursor:cursor + count]
        if len(group) < count:
            raise CompareError(f"{real.path} vs {sim.path}: {where}: the simulated run has no matching call "
                               f"(its rank {rank} has {len(s_names)} compared calls, all used)")
        if not _replayable_as(name, count, group):
            raise CompareError(f"{real.path} vs {sim.path}: {where}: the simulated run has "
                               f"{', '.join(group)} at {s_start[cursor]:.9g} s instead: the call sequences differ")
        matched.append(MatchedCall(rank, index, label, r_start[index], r_end[index], s_start[cursor],
                                   max(s_end[cursor:cursor + count])))
        cursor += count
    if cursor < len(s_names):
        raise CompareError(f"{real.path} vs {sim.path}: rank {rank}: the simulated run has more calls: "
                           f"{s_names[cursor]} at {s_start[cursor]:.9g} s and {len(s_names) - cursor - 1} more "
                           f"after the real run's {len(labels)} compared calls")
    return matched


def _totals(calls: Sequence[MatchedCall], key) -> List[Total]:
    groups: Dict[object, Total] = {}
    for c in calls:
        k = key(c)
        total = groups.setdefault(k, Total(str(k), 0, 0.0, 0.0))
        total.calls += 1
        total.real += c.real
        total.sim += c.sim
    return [groups[k] for k in sorted(groups)]


def compare(real: Timeline, sim: Timeline) -> Comparison:
    """Matches the calls of the two timelines rank by rank; raises CompareError at the first difference."""
    real_ranks, sim_ranks = set(real.ranks), set(sim.ranks)
    if real_ranks != sim_ranks:
        only = sorted(real_ranks - sim_ranks) or sorted(sim_ranks - real_ranks)
        holder = real.path if real_ranks - sim_ranks else sim.path
        raise CompareError(f"{real.path} vs {sim.path}: ranks differ: only {holder} has rank(s) "
                           f"{', '.join(map(str, only[:10]))}{' ...' if len(only) > 10 else ''}")
    calls: List[MatchedCall] = []
    for rank in sorted(real_ranks):
        calls += _match_rank(real, sim, rank)
    return Comparison(real.path, sim.path, calls, _totals(calls, lambda c: canonical_operation(c.operation)),
                      _totals(calls, lambda c: c.rank))


def compare_files(real_path: str, sim_path: str) -> Comparison:
    for path in (real_path, sim_path):
        if not os.path.exists(path):
            raise CompareError(f"{path}: no such file")
        if not os.path.isfile(path):
            raise CompareError(f"{path}: not a file")
    return compare(read_timeline(real_path), read_timeline(sim_path))


# ------------------------------------------------------------------------------------------------------- output

def _percent(value: float) -> str:
    return f"{value * 100:+.1f}%" if math.isfinite(value) else "inf"


def _slowdown(value: float) -> str:
    """A slowdown as a percentage, or from twice the predicted time on as the factor real / simulated (497.2x reads
    better than +49618.8%)."""
    return f"{value + 1:.1f}x" if math.isfinite(value) and value >= 1 else _percent(value)


def print_report(result: Comparison, top: int, threshold: Optional[float], out: TextIO = sys.stdout) -> None:
    real_total = sum(c.real for c in result.calls)
    sim_total = sum(c.sim for c in result.calls)
    print(f"Real {result.real_path} vs simulated {result.sim_path}: {len(result.calls)} calls matched", file=out)
    print(f"time in MPI calls, all ranks: real {real_total:.6f} s, simulated {sim_total:.6f} s, "
          f"error {_percent(relative_error(real_total, sim_total))}", file=out)
    print("\nPer operation (error = (simulated - real) / real):", file=out)
    print(f"{'operation':>14} {'calls':>7} {'real (s)':>12} {'sim (s)':>12} {'error':>9}", file=out)
    for t in result.per_operation:
        print(f"{t.name:>14} {t.calls:>7} {t.real:>12.6f} {t.sim:>12.6f} {_percent(t.error):>9}", file=out)
    print("\nPer rank:", file=out)
    print(f"{'rank':>14} {'calls':>7} {'real (s)':>12} {'sim (s)':>12} {'error':>9}", file=out)
    for t in result.per_rank:
        print(f"{t.name:>14} {t.calls:>7} {t.real:>12.6f} {t.sim:>12.6f} {_percent(t.error):>9}", file=out)
    if top > 0:
        print(f"\nLargest discrepancies (|simulated - real|, top {top}):", file=out)
        _print_calls(result.largest(top), out)
    if threshold is not None:
        slow = result.slower_than(threshold)
        shown = slow[:max(top, 10)]
        print(f"\n{len(slow)} call(s) slower in reality than predicted by more than {threshold * 100:g}% "
              f"(slowdown = real / simulated - 1), most time lost first:", file=out)
        _print_calls(shown, out, slowdown_column=True)
        if len(shown) < len(slow):
            print(f"... and {len(slow) - len(shown)} more (all of them: --json, or --csv FILE)", file=out)


def _print_calls(calls: Sequence[MatchedCall], out: TextIO, slowdown_column: bool = False) -> None:
    last = "slowdown" if slowdown_column else "error"
    print(f"{'rank':>5} {'call':>6} {'operation':>17} {'real start':>12} {'real end':>12} {'sim start':>12} "
          f"{'sim end':>12} {'real (s)':>11} {'sim (s)':>11} {last:>9}", file=out)
    for c in calls:
        measure = _slowdown(c.slowdown) if slowdown_column else _percent(c.error)
        print(f"{c.rank:>5} {c.index + 1:>6} {c.operation:>17} {c.real_start:>12.6f} {c.real_end:>12.6f} "
              f"{c.sim_start:>12.6f} {c.sim_end:>12.6f} {c.real:>11.6f} {c.sim:>11.6f} {measure:>9}",
              file=out)


CSV_COLUMNS = ["rank", "index", "operation", "real_start", "real_end", "real", "sim_start", "sim_end", "sim", "error",
               "slowdown"]


def write_csv(result: Comparison, path: str) -> None:
    """One row per matched call; `index` counts the rank's compared calls from 0."""
    with open(path, "w", newline="") as stream:
        stream.write(f"# mpisim compare: real {result.real_path}, simulated {result.sim_path}\n")
        writer = csv.DictWriter(stream, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for c in result.calls:
            writer.writerow({k: ("" if v is None else repr(v) if isinstance(v, float) else v)
                             for k, v in c.to_dict().items()})


def write_json(result: Comparison, top: int, threshold: Optional[float], out: TextIO = sys.stdout) -> None:
    out.write(json.dumps(result.to_dict(top, threshold), indent=2) + "\n")


def plot(result: Comparison, output: str, size=(1400, 600)) -> None:
    """Left: per operation, total real and simulated time side by side. Right: per rank, the relative error of its
    total time in MPI calls."""
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    dpi = 100
    figure = Figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    names = [t.name for t in result.per_operation]
    x = np.arange(len(names))
    left.bar(x - 0.2, [t.real for t in result.per_operation], 0.4, label="real", color="#d62728")
    left.bar(x + 0.2, [t.sim for t in result.per_operation], 0.4, label="simulated", color="#1f77b4")
    left.set_xticks(x)
    left.set_xticklabels(names, rotation=30, ha="right")
    left.set_ylabel("time in the calls, all ranks (s)")
    left.set_title("per operation: real vs simulated", loc="left", fontsize=10)
    left.legend(frameon=False)
    ranks = [int(t.name) for t in result.per_rank]
    errors = [t.error * 100 if math.isfinite(t.error) else 0.0 for t in result.per_rank]
    right.bar(ranks, errors, 0.8, color=["#1f77b4" if e >= 0 else "#d62728" for e in errors])
    right.axhline(0, color="black", linewidth=0.8)
    right.xaxis.set_major_locator(MaxNLocator(integer=True))
    right.set_xlabel("rank")
    right.set_ylabel("error of simulated time in MPI (%)")
    right.set_title("per rank: (simulated - real) / real", loc="left", fontsize=10)
    figure.suptitle(f"{os.path.basename(result.real_path)} (real) vs {os.path.basename(result.sim_path)} (simulated)")
    figure.tight_layout()
    figure.savefig(output, dpi=dpi)


def plot_timelines(result: Comparison, threshold: float, output: str, ranks: Optional[Sequence[int]] = None,
                   width: int = 1400) -> None:
    """Kunkel et al.'s Fig. 4 and 6 (PIOsimHD): the real run above, the simulated run below, each rank's compared
    calls at their dates in that run and coloured by operation; the calls slower in reality than predicted by more
    than `threshold` hatched with a red edge in both. Above, under each rank's real row, a `model` row draws each
    call's simulated duration from its real start: a flagged call is a long bar over a short one."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    from mpisim.gantt import colour_of

    shown = sorted({c.rank for c in result.calls} if ranks is None else set(ranks))
    calls = [c for c in result.calls if c.rank in set(shown)]
    flagged = {(c.rank, c.index) for c in result.slower_than(threshold)}
    dpi = 100
    figure = Figure(figsize=(width / dpi, (160 + 60 * 3 * len(shown)) / dpi), dpi=dpi)
    real_ax, sim_ax = figure.subplots(2, 1, gridspec_kw={"height_ratios": [2, 1]})
    operations: Dict[str, tuple] = {}

    def bar(ax, row: int, start: float, duration: float, call: MatchedCall, least: float) -> None:
        operation = canonical_operation(call.operation)
        operations[operation] = colour_of(operation)
        slow = (call.rank, call.index) in flagged
        ax.broken_barh([(start, max(duration, least))], (row, 0.8), facecolors=operations[operation],
                       edgecolor="#d00000" if slow else "none", linewidth=1.2 if slow else 0,
                       hatch="////" if slow else None)

    def frame(ax, first: float, last: float, rows: List[str], title: str) -> float:
        margin = (last - first) * 0.01 or 1e-6
        ax.set_xlim(first - margin, last + margin)
        ax.set_yticks([r + 0.4 for r in range(len(rows))])
        ax.set_yticklabels(rows)
        ax.set_ylim(len(rows) - 0.1, -0.1)
        ax.set_title(title, loc="left", fontsize=10)
        return (last - first) / 1500  # the narrowest bar drawn: a call of no duration stays visible

    if calls:
        least = frame(real_ax, min(c.real_start for c in calls), max(c.real_end for c in calls),
                      [f"rank {r} {what}" for r in shown for what in ("real", "model")],
                      "real run (model: each call's simulated duration from its real start)")
        for position, rank in enumerate(shown):
            for c in (c for c in calls if c.rank == rank):
                bar(real_ax, 2 * position, c.real_start, c.real, c, least)
                bar(real_ax, 2 * position + 1, c.real_start, c.sim, c, least)
        least = frame(sim_ax, min(c.sim_start for c in calls), max(c.sim_end for c in calls),
                      [f"rank {r} sim" for r in shown], "simulated run")
        for position, rank in enumerate(shown):
            for c in (c for c in calls if c.rank == rank):
                bar(sim_ax, position, c.sim_start, c.sim, c, least)
    real_ax.set_xlabel("time in the real run (s)")
    sim_ax.set_xlabel("time in the simulation (s)")
    handles = [Patch(facecolor=colour, label=name) for name, colour in sorted(operations.items())]
    handles.append(Patch(facecolor="white", edgecolor="#d00000", hatch="////",
                         label=f"real > {threshold + 1:g}x simulated ({len(flagged)} calls)"))
    real_ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    figure.suptitle(f"{os.path.basename(result.real_path)} (real, above) vs "
                    f"{os.path.basename(result.sim_path)} (simulated, below)")
    figure.tight_layout()
    figure.savefig(output, dpi=dpi)
