"""`mpisim study coll`: which collective algorithm, which MPI library's choice, on which machine.

Times one call of a collective operation, in isolation, for every algorithm (and library selector) asked for, over
a grid of message sizes and communicator sizes; writes the results as CSV and plots time per byte as in figure 12 of
the SMPI paper (Degomme et al., "Simulating MPI applications: the SMPI approach", TPDS 2017,
section 7.5)."""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from mpisim.cli import _add_table_options, _table_kwargs

# The simulation options the study takes from the one table, but these: it chooses the collective algorithms itself.
STUDY_CHOOSES = ("--coll-selector", "--coll")

_UNITS = {"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1024, "mib": 1024 ** 2, "gib": 1024 ** 3,
          "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*$")


def parse_size(text: str) -> int:
    """Bytes in '32KiB', '2MiB', '1e6', '64kB' (k/M/G alone are binary, as in most MPI benchmarks)."""
    match = _SIZE.match(text)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: '{text}' (examples: 4096, 32KiB, 2MiB, 1MB)")
    return int(round(float(match.group(1)) * _UNITS[match.group(2).lower()]))


def _powers_of_two_between(low: int, high: int) -> List[int]:
    values = []
    value = 1 << max(0, math.ceil(math.log2(low))) if low > 0 else 0
    if low > 0 and value != low:
        values.append(low)
    if value == 0:
        values.append(0)
        value = 1
    while value <= high:
        values.append(value)
        value *= 2
    if values[-1] != high:
        values.append(high)
    return sorted(set(values))


def parse_range(text: str, parse=int, what: str = "value") -> List[int]:
    """'A:B' -> A, then the powers of two between, then B; 'a,b,c' -> those values."""
    try:
        if ":" in text:
            low, high = (parse(part) for part in text.split(":", 1))
            if low > high or low < 0:
                raise ValueError
            return _powers_of_two_between(low, high)
        values = sorted({parse(part) for part in text.split(",") if part.strip()})
        if not values or values[0] < 0:
            raise ValueError
        return values
    except ValueError:
        raise ValueError(f"bad {what} range '{text}' (use LOW:HIGH for powers of two between, or a,b,c)") from None


@dataclass
class Choice:
    name: str
    is_selector: bool


def resolve_choices(operation: str, requested: str) -> List[Choice]:
    """'all' = every algorithm of the operation, then the MPI libraries' selectors; or a comma list of either."""
    from mpisim.api import collective_algorithms, collective_selectors

    algorithms = [a["name"] for a in collective_algorithms() if a["operation"] == operation]
    if not algorithms:
        ops = sorted({a["operation"] for a in collective_algorithms()})
        raise ValueError(f"unknown collective operation '{operation}' (valid: {', '.join(ops)})")
    selectors = [s["name"] for s in collective_selectors()]
    if requested == "all":
        libraries = [s for s in selectors if s not in ("default", "automatic")]
        return [Choice(a, False) for a in algorithms] + [Choice(s, True) for s in libraries]
    choices = []
    for name in (n.strip() for n in requested.split(",") if n.strip()):
        if name in algorithms:
            choices.append(Choice(name, False))
        elif name in selectors:
            choices.append(Choice(name, True))
        else:
            raise ValueError(f"'{name}' is neither an algorithm of {operation} nor a selector "
                             f"(algorithms: {', '.join(algorithms)}; selectors: {', '.join(selectors)})")
    return choices


class ProgressBar:
    """One line on stderr, redrawn in place when stderr is a terminal, every 5 % otherwise."""

    def __init__(self, total: int, stream=sys.stderr, width: int = 30):
        self.total, self.stream, self.width, self.done, self.shown = max(total, 1), stream, width, 0, -1

    def advance(self, label: str) -> None:
        self.done += 1
        fraction = self.done / self.total
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        step = int(fraction * 20)
        if not tty and step == self.shown and self.done != self.total:
            return
        self.shown = step
        bar = "#" * int(fraction * self.width) + "." * (self.width - int(fraction * self.width))
        end = "\r" if tty and self.done != self.total else "\n"
        self.stream.write(f"[{bar}] {self.done}/{self.total} {label}".ljust(90)[:120] + end)
        self.stream.flush()


def run_study(operation: str, sizes: Sequence[int], nodes: Sequence[int], choices: Sequence[Choice],
              options: Dict, element_bytes: float = 1.0, progress: Optional[ProgressBar] = None) -> List[Dict]:
    from mpisim import _core

    study = _core.CollectiveStudy(options)
    rows = []
    for choice in choices:
        for ranks in nodes:
            for size in sizes:
                seconds = study.time(operation, ranks, float(size), choice.name, choice.is_selector, element_bytes, 0)
                rows.append({"operation": operation, "algorithm": choice.name,
                             "kind": "selector" if choice.is_selector else "algorithm", "ranks": ranks,
                             "bytes": size, "time": seconds, "time_per_byte": seconds / size if size else math.nan})
                if progress:
                    progress.advance(f"{operation} {choice.name} {ranks} ranks {size} B")
    return rows


def write_csv(rows: List[Dict], path: str) -> None:
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()) if rows else ["operation"])
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in row.items()})


def _size_label(size: int) -> str:
    for unit, factor in (("MiB", 1024 ** 2), ("KiB", 1024)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} B"


def plot_study(rows: List[Dict], path: str, title: str) -> None:
    """One panel per message size: time per byte against the number of ranks, a line per algorithm (selectors
    dashed), as figure 12 of the SMPI paper."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted({r["bytes"] for r in rows})
    names: List[Tuple[str, str]] = []
    for r in rows:
        if (r["algorithm"], r["kind"]) not in names:
            names.append((r["algorithm"], r["kind"]))
    columns = min(4, len(sizes))
    lines = math.ceil(len(sizes) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.2 * lines + 1.2), squeeze=False,
                                sharex=True)
    colours = plt.get_cmap("tab20")
    for index, size in enumerate(sizes):
        ax = axes[index // columns][index % columns]
        for k, (name, kind) in enumerate(names):
            points = sorted((r["ranks"], r["time_per_byte"]) for r in rows
                            if r["bytes"] == size and r["algorithm"] == name and r["kind"] == kind)
            ax.plot([p[0] for p in points], [p[1] for p in points], label=name, color=colours(k % 20),
                    linestyle="--" if kind == "selector" else "-", marker=".", linewidth=1.2, markersize=3)
        ax.set_title(_size_label(size), fontsize=9)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
        if index % columns == 0:
            ax.set_ylabel("time / message size (s/B)")
        if index // columns == lines - 1:
            ax.set_xlabel("ranks")
    for index in range(len(sizes), lines * columns):
        axes[index // columns][index % columns].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=min(8, len(labels)), fontsize=8, frameon=False)
    figure.suptitle(title, fontsize=11)
    figure.tight_layout(rect=(0, 0.04 + 0.025 * math.ceil(len(labels) / 8), 1, 0.97))
    figure.savefig(path, dpi=110)
    plt.close(figure)


def cmd_study_coll(args: argparse.Namespace) -> int:
    sizes = parse_range(args.sizes, parse_size, "size")
    nodes = parse_range(args.nodes, int, "rank count")
    if nodes[0] < 1:
        raise ValueError("--nodes: communicators have at least 1 rank")
    choices = resolve_choices(args.operation, args.algorithms)
    options = _table_kwargs(args, "simulation", exclude=STUDY_CHOOSES)
    total = len(sizes) * len(nodes) * len(choices)
    rows = run_study(args.operation, sizes, nodes, choices, options, args.datatype_size,
                     None if args.quiet else ProgressBar(total))
    write_csv(rows, args.output)
    print(f"{len(rows)} timings written to {args.output}")
    if args.plot:
        plot_study(rows, args.plot, f"{args.operation} on {args.platform} ({args.model} model)")
        print(f"plot written to {args.plot}")
    best = {}
    for r in rows:
        key = (r["ranks"], r["bytes"])
        if key not in best or r["time"] < best[key]["time"]:
            best[key] = r
    wins: Dict[str, int] = {}
    for r in best.values():
        wins[r["algorithm"]] = wins.get(r["algorithm"], 0) + 1
    print("fastest (grid points won): " + ", ".join(f"{n} {c}" for n, c in sorted(wins.items(), key=lambda x: -x[1])))
    return 0


def add_study_command(sub) -> None:
    study = sub.add_parser("study", help="parameter studies (`mpisim study coll --help`, `mpisim study resilience "
                                         "--help`, `mpisim study io --help`, `mpisim study flow-control --help`)")
    kinds = study.add_subparsers(dest="study", required=True)
    p = kinds.add_parser("coll", help="time a collective for every algorithm over sizes and communicator sizes",
                         description="Times one call of OPERATION for each algorithm (and MPI library selector) "
                                     "over a grid of message sizes and rank counts, one rank per host in platform "
                                     "order; writes a CSV and, with --plot, time per byte per algorithm.")
    p.add_argument("operation", help="bcast, reduce, allreduce, alltoall, allgather, gather, scatter, ...")
    p.add_argument("--sizes", default="32KiB:2MiB",
                   help="per-rank message sizes: LOW:HIGH (powers of two between) or a,b,c; units B, KiB, MiB, kB, "
                        "MB (default 32KiB:2MiB). alltoall/allgather/gather/scatter: the block per peer")
    p.add_argument("--nodes", default="2:64", help="rank counts: LOW:HIGH (powers of two between) or a,b,c")
    p.add_argument("--algorithms", default="all",
                   help="'all' (every algorithm, then the ompi/mpich/mvapich2/impi selectors) or a comma list of "
                        "algorithm and selector names")
    _add_table_options(p, "simulation", exclude=STUDY_CHOOSES)  # --platform, --model, --param, --hostfile, ...
    p.add_argument("--datatype-size", type=float, default=1.0,
                   help="bytes per element the selectors see (default 1, MPI_BYTE)")
    p.add_argument("-o", "--output", default="study.csv", help="CSV file (default study.csv)")
    p.add_argument("--plot", help="PNG/SVG/PDF of time per byte per algorithm")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_study_coll)

    from mpisim.resilience import add_resilience_command

    add_resilience_command(kinds)
    from mpisim.io_study import add_io_command

    add_io_command(kinds)
    from mpisim.flow_control_study import add_flow_control_command

    add_flow_control_command(kinds)
