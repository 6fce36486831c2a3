"""`mpisim sweep CAMPAIGN -o RESULTS.parquet` and `mpisim sweep plot RESULTS ...` (docs/sweep.md)."""

from __future__ import annotations

import argparse
import math
import signal
import sys
from typing import List, Optional, Sequence


def cmd_sweep(args: argparse.Namespace) -> int:
    from mpisim import campaign as campaigns
    from mpisim import sweeps

    overrides = dict(campaigns.parse_override(text) for text in args.set)
    parsed = campaigns.load(args.campaign, overrides)
    if args.dry_run:
        print(f"{args.campaign}: {len(parsed.runs)} runs; columns: {', '.join(parsed.columns)}")
        script = sweeps.job_script(parsed)
        if script:
            print(f"each batch job runs:\n{script}")
        return 0
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers: at least 1, got {args.workers}")
    signal.signal(signal.SIGTERM, _interrupt)  # stopped by kill or a batch system: keep what is done, as Ctrl-C
    try:
        rows = sweeps.execute(parsed, args.output, args.scheduler, args.workers, args.resume, args.retry_failed,
                              progress=not args.quiet)
    except KeyboardInterrupt:
        print(f"\nmpisim sweep: interrupted; the finished runs are kept in {args.output}{sweeps.PARTS_SUFFIX}, "
              "--resume runs the others", file=sys.stderr)
        return 130
    failed = int((rows["status"] != "ok").sum())
    print(f"{len(rows)} runs in {args.output} ({failed} failed)")
    return 0


def _interrupt(signal_number, frame):
    raise KeyboardInterrupt


def cmd_sweep_plot(args: argparse.Namespace) -> int:
    from mpisim.sweeps import load_sweep

    rows = load_sweep(args.results)
    plot(rows, args.output, x=args.x, y=args.y, hue=_names(args.hue), col=_names(args.col), y_per=args.y_per,
         logx=args.logx, logy=args.logy, title=args.title or args.results)
    print(f"wrote {args.output}")
    return 0


def _names(text: Optional[str]) -> List[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _label(row, columns: Sequence[str]) -> str:
    """The values of `columns` that are set, joined: hue `coll.alltoall,coll_selector` gives `bruck` or `ompi`."""
    values = [str(row[c]) for c in columns if row[c] is not None and not (isinstance(row[c], float) and
                                                                           math.isnan(row[c]))]
    return " / ".join(values) if values else "-"


def plot(rows, output: str, x: str, y: str, hue: Sequence[str] = (), col: Sequence[str] = (),
         y_per: Optional[str] = None, logx: bool = False, logy: bool = False, title: str = "") -> None:
    """Mean of y (divided by y_per) against x, a line per hue value, a panel per col value, over the runs that
    succeeded; the spread (min to max) of runs sharing x, hue and panel shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    for column in [x, y, *hue, *col, *([y_per] if y_per else [])]:
        if column not in rows.columns:
            raise ValueError(f"sweep plot: no column '{column}' (columns: {', '.join(rows.columns)})")
    ok = rows[rows["status"] == "ok"].copy()
    if ok.empty:
        raise ValueError("sweep plot: no run succeeded: nothing to plot")
    numeric_x = pd.to_numeric(ok[x], errors="coerce")
    if numeric_x.notna().all():  # tags and texts holding numbers ("1", "16") placed as numbers
        ok[x] = numeric_x
    ok["_y"] = ok[y].astype(float) / (ok[y_per].astype(float) if y_per else 1.0)
    ok["_hue"] = [_label(r, hue) for _, r in ok.iterrows()] if hue else y
    ok["_col"] = [_label(r, col) for _, r in ok.iterrows()] if col else ""
    panels = list(dict.fromkeys(ok["_col"]))
    series = list(dict.fromkeys(ok["_hue"]))
    columns = min(4, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(4.4 * columns, 3.4 * lines + 1.0), squeeze=False)
    colours = plt.get_cmap("tab10" if len(series) <= 10 else "tab20")
    for index, panel in enumerate(panels):
        ax = axes[index // columns][index % columns]
        mine = ok[ok["_col"] == panel]
        for k, name in enumerate(series):
            points = mine[mine["_hue"] == name].groupby(x)["_y"].agg(["mean", "min", "max"]).sort_index()
            if points.empty:
                continue
            colour = colours(k % colours.N)
            ax.plot(points.index, points["mean"], marker=".", label=name, color=colour, linewidth=1.3)
            if (points["max"] > points["min"]).any():
                ax.fill_between(points.index, points["min"], points["max"], color=colour, alpha=0.15)
        if logx:
            ax.set_xscale("log", base=2)
        if logy:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.set_title(f"{', '.join(col)} = {panel}" if col else "", fontsize=9)
        ax.set_xlabel(x)
        ax.set_ylabel(f"{y} / {y_per}" if y_per else y)
    for index in range(len(panels), lines * columns):
        axes[index // columns][index % columns].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend_columns = max(1, min(len(labels), 3 * columns))  # as wide as the panels
    if hue:
        figure.legend(handles, labels, loc="lower center", ncol=legend_columns, fontsize=8, frameon=False,
                      title=", ".join(hue), title_fontsize=8)
    figure.suptitle(title, fontsize=10)
    legend_rows = math.ceil(len(labels) / legend_columns) if hue else 0
    figure.tight_layout(rect=(0, (0.15 + 0.18 * legend_rows) / figure.get_figheight(), 1, 0.96))
    try:
        figure.savefig(output, dpi=110)
    except OSError as error:
        raise ValueError(f"{output}: {error.strerror}") from error
    finally:
        plt.close(figure)


def add_sweep_commands(sub) -> None:
    p = sub.add_parser("sweep", help="run every combination of a campaign file on Dask into one Parquet file "
                                     "(`mpisim sweep plot --help` for plots)",
                       description="Runs every combination of CAMPAIGN (YAML: what varies, what to collect; "
                                   "docs/sweep.md) on Dask, one simulation per task, and streams one row per run "
                                   "into RESULTS (Parquet). A failed run is a row with its error. "
                                   "`mpisim sweep plot RESULTS --x ... --y ...` draws the results.")
    p.add_argument("campaign", metavar="CAMPAIGN", help="campaign file (YAML)")
    p.add_argument("-o", "--output", required=True, metavar="RESULTS", help="Parquet file of the results")
    p.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler (tcp://host:8786) rather "
                                                           "than a local cluster")
    p.add_argument("--workers", type=int, metavar="N", help="local cluster: N worker processes (default: one per core)")
    p.add_argument("--resume", action="store_true", help="skip the runs already in RESULTS (and its part files)")
    p.add_argument("--retry-failed", action="store_true", help="with --resume, run the failed runs again")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="replace a key of the campaign, VALUE in YAML (--set 'np=[4,8]'); repeatable")
    p.add_argument("--dry-run", action="store_true",
                   help="check the campaign and print its run count (and the batch job script of cluster.jobqueue), "
                        "run nothing")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("sweep-plot", prog="mpisim sweep plot",
                       help="plot a sweep's results (spelled `mpisim sweep plot`)",
                       description="Draws the mean of Y against X over the successful runs of RESULTS, a line per "
                                   "value of the HUE columns, a panel per value of the COL columns.")
    p.add_argument("results", metavar="RESULTS", help="Parquet file written by mpisim sweep")
    p.add_argument("--x", required=True, help="column on the x axis")
    p.add_argument("--y", default="simulated_time", help="column on the y axis (default simulated_time)")
    p.add_argument("--hue", metavar="COL[,COL]", help="a line per value of these columns (unset ones skipped)")
    p.add_argument("--col", metavar="COL[,COL]", help="a panel per value of these columns")
    p.add_argument("--y-per", metavar="COL", help="divide y by this column (time per byte: --y-per bytes)")
    p.add_argument("--logx", action="store_true", help="logarithmic x axis (base 2)")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis")
    p.add_argument("--title", help="title (default: the results file)")
    p.add_argument("-o", "--output", required=True, help="image: .png, .svg, .pdf")
    p.set_defaults(func=cmd_sweep_plot)


def spelled_plot(argv: List[str]) -> List[str]:
    """`mpisim sweep plot ...` is the parser's `sweep-plot`."""
    return ["sweep-plot", *argv[2:]] if argv[:2] == ["sweep", "plot"] else argv
