"""The `mpisim` command line.

Exit status: 0 success, 2 bad input (one line "FILE:LINE: what is wrong"; also an input that is too large for this
machine, or a file or the output that cannot be read or written), 124 the simulated application deadlocked (the
report lists what each blocked rank waits for; the code `mpisim run` uses too, docs/online.md), 1 any other simulated
failure (an erroneous MPI call, as `mpisim run`'s fatal MPI errors).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import sys

TYPE_CHECKING = False  # `typing` costs 15 M instructions of `mpisim replay`'s start-up; the annotations are text
if TYPE_CHECKING:
    from typing import List, Optional, Sequence

EXIT_INPUT = 2
EXIT_DEADLOCK = 124  # as `mpisim run` (GNU timeout's code for "did not finish"): not 3, which a program may return


@functools.lru_cache(maxsize=None)
def _run_options() -> tuple:
    """The native core's option tables, read once: a replay's command line consults them ten times (parser and
    keywords, five groups), and each read builds a dict per option (about 1 M instructions)."""
    from mpisim._core import run_options

    return tuple(run_options())


def _shared_options(group: str, exclude: Sequence[str] = ()) -> List[dict]:
    """The options of `mpisim replay` declared in the native core's tables (group: "simulation", "timeline" or
    "trace_format")."""
    return [o for o in _run_options()
            if o["group"] == group and "replay" in o["front_ends"] and o["name"] not in exclude]


def _add_table_options(parser: argparse.ArgumentParser, group: str, exclude: Sequence[str] = ()) -> None:
    """argparse options from the table: name, help (with default and SimGrid names), default. Values stay text and
    are typed by the table's parser afterwards (_table_kwargs), so errors read as in `mpisim run`."""
    for option in _shared_options(group, exclude):
        help_text = option["description"].replace("%", "%%")
        dest = option["keyword"]
        if option["type"] == "flag":
            parser.add_argument(option["name"], dest=dest, action="store_true", help=help_text)
        elif option["type"] in ("assignment", "assignment_list"):
            parser.add_argument(option["name"], dest=dest, action="append", default=[], metavar=option["metavar"],
                                help=help_text)
        else:
            metavar = "|".join(option["choices"]) or option["metavar"]
            parser.add_argument(option["name"], dest=dest, default=option["default_text"] or None, metavar=metavar,
                                required=option["required"], help=help_text)


def _table_kwargs(args: argparse.Namespace, group: str, exclude: Sequence[str] = ()) -> dict:
    """The table's options as `mpisim.replay` keywords, each value typed by the table's parser."""
    from mpisim._core import parse_run_option

    kwargs = {}
    for option in _shared_options(group, exclude):
        given = getattr(args, option["keyword"])
        if option["type"] == "assignment":
            kwargs[option["keyword"]] = [pair for text in given for pair in parse_run_option(option["name"], text)]
        elif option["type"] == "assignment_list":
            kwargs[option["keyword"]] = dict(pair for text in given for pair in parse_run_option(option["name"], text))
        elif given is None or option["type"] == "flag":
            kwargs[option["keyword"]] = given
        else:
            kwargs[option["keyword"]] = parse_run_option(option["name"], given)
    return kwargs


def _add_simulation_options(parser: argparse.ArgumentParser) -> None:
    _add_table_options(parser, "simulation")


def _replay_kwargs(args: argparse.Namespace) -> dict:
    return _table_kwargs(args, "simulation")


def _add_timeline_options(parser: argparse.ArgumentParser) -> None:
    _add_table_options(parser, "timeline")


def _replay(args: argparse.Namespace, rank_stats: bool = True):
    """mpisim.api.replay with the replay command's options (with --timeline FILE, the timeline is written too).
    `rank_stats=False` (with --json): not a ReplayResult but its fields (api.replay_fields), the per-rank figures only
    as their JSON text."""
    from mpisim import api

    timeline = _table_kwargs(args, "timeline")
    if not timeline["timeline"] and (timeline["timeline_format"] or timeline["timeline_internals"]
                                     or timeline["timeline_links"]):
        raise ValueError("--timeline-format, --timeline-internals and --timeline-links need --timeline FILE")
    checkpointing = {k: v for k, v in {**_table_kwargs(args, "checkpoint"), **_table_kwargs(args, "run")}.items()
                     if v is not None}
    replay = api.replay if rank_stats else api.replay_fields  # the latter: no ReplayResult, no `dataclasses`
    return replay(args.trace, np=_ranks(args), **_table_kwargs(args, "trace_format"), **timeline, **checkpointing,
                  **_replay_kwargs(args), ranks_json=args.json, rank_stats=rank_stats, teardown=not args.process_ends)


def _ranks(args: argparse.Namespace) -> Optional[int]:
    """--np, typed and bounded as `mpisim run`'s -np (one line and exit 2 for `abc`, `0`, `2147483648`)."""
    from mpisim._core import parse_run_option

    return None if args.np is None else parse_run_option("--np", args.np)


def _print_summary(result, out=sys.stdout) -> None:
    print(f"Simulated time: {result.simulated_time:.6f} s "
          f"({len(result.ranks)} ranks, {result.actions} actions, model {result.inputs['model']})", file=out)
    print(f"{'rank':>6} {'compute':>12} {'communicate':>12} {'wait':>12} {'sleep':>12} {'finish':>12}", file=out)
    shown = result.ranks if len(result.ranks) <= 16 else result.ranks[:8] + result.ranks[-8:]
    for index, r in enumerate(shown):
        if len(result.ranks) > 16 and index == 8:
            print(f"{'...':>6}", file=out)
        print(f"{r.rank:>6} {r.compute:>12.6f} {r.communicate:>12.6f} {r.wait:>12.6f} {r.sleep:>12.6f} "
              f"{r.finish:>12.6f}{'  failed' if r.failed else ''}", file=out)
    if result.attempts is not None:
        _print_attempts(result, out)
    else:
        for failure in result.failures:
            print(f"Process failure: rank {failure['rank']} at {failure['time']:.9f} s (its trace stopped there)",
                  file=out)
    if result.time_under_models:
        print("Time under each model:" + "".join(f" {model} {seconds:.6f} s"
                                                 for model, seconds in result.time_under_models.items()), file=out)
    _print_decisions(result.collective_decisions, out)


def _print_attempts(result, out) -> None:
    """Checkpoint/restart: the checkpoints, the failures and attempts, the time lost (docs/failures.md)."""
    checkpoints = result.checkpoints
    if checkpoints:
        per_attempt = ", ".join(f"{sum(1 for c in checkpoints if c['attempt'] == a['attempt'])} in attempt "
                                f"{a['attempt']}" for a in result.attempts)
        cost = max(r.checkpoint for r in result.ranks) if result.ranks else 0.0
        print(f"Checkpoints: {len(checkpoints)} taken ({per_attempt}), each rank spent {cost:.6f} s writing them",
              file=out)
    else:
        print("Checkpoints: none taken", file=out)
    for failure in result.failures:
        print(f"Process failure: rank {failure['rank']} at {failure['time']:.9f} s (attempt {failure['attempt']})",
              file=out)
    for a in result.attempts:
        origin = "from the start of the trace"
        if a["checkpoint"]:
            committed = checkpoints[a["checkpoint"] - 1]["date"]
            origin = f"from checkpoint {a['checkpoint']}, complete at {committed:.9f} s"
        print(f"Attempt {a['attempt']}: {a['start']:.9f} s to {a['end']:.9f} s, {a['outcome']} ({origin})", file=out)
    if len(result.attempts) > 1:
        print(f"Time lost to failures: {result.time_lost:.9f} s (work done again, and the restarts)", file=out)


def _print_decisions(decisions, out) -> None:
    """What the automatic selector chose, per distinct call, with the runners-up."""
    if not decisions:
        return
    print("Automatic collective selection (each candidate timed alone on the same hosts):", file=out)
    for d in decisions:
        ranked = sorted(d["candidates"], key=lambda c: c[1])
        others = ", ".join(f"{name} {seconds:.6f}" for name, seconds in ranked[1:4])
        print(f"  {d['operation']} on {d['comm_size']} ranks, {d['bytes']:.0f} B, {d['calls']} rank-calls: "
              f"{d['chosen']} {ranked[0][1]:.6f} s (next: {others})", file=out)


# How json.dumps(..., indent=2) lays out the entries of the result's "ranks" list (nesting level 2) and their items
# (level 3).
_RANK_BREAK = "\n    "
_RANK_ITEM_BREAK = "\n      "
_RANK_ITEMS = json.JSONEncoder(separators=("," + _RANK_ITEM_BREAK, ": "))


def result_json(document: dict) -> str:
    """json.dumps(document, indent=2), the same text, faster: the per-rank list (16 384 ranks, 130 000 values) by
    the C encoder. Without indent it lays out a list of flat dicts as '[{"a": 1,SEP"b": 2},SEP{...}]' with SEP the
    item separator; given SEP = ",\n      ", only the list's own breaks differ from the indented text, and they are
    the only "},SEP{" in it as long as no value holds a container (else the plain encoder lays it out)."""
    ranks = document.get("ranks")
    if not isinstance(ranks, list) or not ranks:
        return json.dumps(document, indent=2)
    flat = _RANK_ITEMS.encode(ranks)
    if flat.count("{") != len(ranks) or flat.count("}") != len(ranks) or flat.count("[") != 1 or \
            flat.count("]") != 1:
        return json.dumps(document, indent=2)  # a nested container, or a brace inside a string
    entries = flat[2:-2].replace("}," + _RANK_ITEM_BREAK + "{", _RANK_ITEM_BREAK[:-2] + "}," + _RANK_BREAK + "{"
                                 + _RANK_ITEM_BREAK)
    ranks_text = "[" + _RANK_BREAK + "{" + _RANK_ITEM_BREAK + entries + _RANK_BREAK + "}\n  ]"
    return _with_ranks_text(document, ranks_text)


def _with_ranks_text(document: dict, ranks_text: str) -> str:
    """json.dumps(document, indent=2) with `ranks_text` as the text of its "ranks" list: the rest through the plain
    encoder, the list replaced by a string no value can hold (NUL: not in a path)."""
    marker = "\0ranks\0"
    text = json.dumps({**document, "ranks": marker}, indent=2)
    return text.replace(json.dumps(marker), ranks_text, 1)


def replay_result_json(result) -> str:
    """result_json(result.to_dict()), the per-rank list from the native core when the result carries it
    (replay(..., ranks_json=True)): the same text without a Python object per rank and value."""
    if result.ranks_json is None:
        return result_json(result.to_dict())
    return replay_fields_json(vars(result))  # the same document: its ranks as the native core's text


def replay_fields_json(fields: dict) -> str:
    """replay_result_json() of the ReplayResult these fields (api.replay_fields(..., ranks_json=True,
    rank_stats=False)) would make."""
    from mpisim.api import replay_document

    if fields["ranks_json"] is None:
        return result_json(replay_document(fields, []))
    return _with_ranks_text(replay_document(fields, None), fields["ranks_json"])


def cmd_replay(args: argparse.Namespace) -> int:
    if args.json:  # the per-rank text from the native core: no RankStats, no ReplayResult needed
        sys.stdout.write(replay_fields_json(_replay(args, rank_stats=False)) + "\n")  # one write, even unbuffered
    else:
        _print_summary(_replay(args))
    sys.stdout.flush()  # a full disk is reported here, by main, not at exit
    if args.process_ends:
        _end_process(0)
    # The result (an object per rank) lives until exit: the collection at exit need not go through it (10 ms of a
    # replay's fixed cost at 16 384 ranks, bench/README.md, session 15). Counted references still free it.
    gc.freeze()
    return 0


def _end_process(status: int) -> None:
    """Ends the `mpisim` process now, its output written: the result (an object per rank), the simulation (left by
    replay(teardown=False)) and the interpreter's modules are not freed one by one first, the system takes the
    memory back in one piece (at 16 384 ranks some 60 M instructions, bench/README.md, session 22). Nothing on
    replay's path registers an exit handler (the command's tests check its output and status)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def cmd_convert(args: argparse.Namespace) -> int:
    from mpisim.api import convert

    actions = convert(args.trace, args.output, **_table_kwargs(args, "trace_format"))
    print(f"wrote {os.path.join(args.output, 'index.txt')} ({actions} actions)")
    return 0


def cmd_compare_models(args: argparse.Namespace) -> int:
    from mpisim.api import replay

    from mpisim.api import network_models

    if args.models:
        models = [m for m in args.models.split(",") if m]
    else:
        models = [model["name"] for model in network_models()]
    kwargs = _replay_kwargs(args)
    rows = []
    for model in models:
        kwargs["model"] = model
        result = replay(args.trace, np=_ranks(args), **kwargs)
        rows.append((model, result.simulated_time, result.actions))
    print(f"Predicted time of {args.trace} on {args.platform}:")
    print(f"{'model':>10} {'simulated time (s)':>20} {'actions':>10}")
    for model, time, actions in rows:
        print(f"{model:>10} {time:>20.6f} {actions:>10}")
    return 0


def models_markdown() -> str:
    """The parameter reference of every model, generated from the models' own declarations."""
    from mpisim.api import network_models

    out = ["# Network model parameters", "",
           "Generated by `mpisim models --markdown` from the parameter declarations in `src/models/`; "
           "do not edit by hand.", ""]
    for model in network_models():
        out += [f"## `{model['name']}`", "", model["description"] + ".", "", f"Source: {model['citation']}.", "",
                "| parameter | unit | range | default | meaning | SimGrid name |",
                "| --- | --- | --- | --- | --- | --- |"]
        for p in model["parameters"]:
            default = p["default"].replace(";", "; ")
            out.append(f"| `{p['name']}` | {p['unit'] or 'number'} | {p['range']} | `{default}` | {p['description']} | "
                       f"{', '.join(f'`{a}`' for a in p['aliases'])} |")
        out.append("")
    return "\n".join(out)


def cmd_models(args: argparse.Namespace) -> int:
    from mpisim.api import network_models

    if args.markdown:
        print(models_markdown(), end="")
        return 0
    for model in network_models():
        print(f"{model['name']}: {model['description']}")
        print(f"    source: {model['citation']}")
        for p in model["parameters"]:
            aliases = f" (SimGrid: {', '.join(p['aliases'])})" if p["aliases"] else ""
            bounds = f", {p['range']}" if p["range"] else ""
            print(f"    --param {p['name']}=<{p['unit'] or 'number'}{bounds}>  default {p['default']}: "
                  f"{p['description']}{aliases}")
    return 0


def collectives_markdown() -> str:
    """docs/collective-algorithms.md: every selector and algorithm, from the registrations."""
    from mpisim.api import collective_algorithms, collective_selectors

    lines = ["# Collective algorithms and selectors", "",
             "Generated by `mpisim collectives --markdown` from the registrations in `src/mpi/collectives/`; a test "
             "keeps it in step. How to choose them: [collectives.md](collectives.md).", "",
             "## Selectors (`--coll-selector NAME`)", "", "| name | what it does |", "| --- | --- |"]
    lines += [f"| `{s['name']}` | {s['description']} |" for s in collective_selectors()]
    algorithms = collective_algorithms()
    for op in dict.fromkeys(a["operation"] for a in algorithms):
        mine = [a for a in algorithms if a["operation"] == op]
        lines += ["", f"## {op} ({len(mine)}: `--coll {op}=NAME`)", "", "| name | what it does | origin |",
                  "| --- | --- | --- |"]
        lines += [f"| `{a['name']}` | {a['description']} | {a['origin']} |" for a in mine]
    return "\n".join(lines) + "\n"


def cmd_collectives(args: argparse.Namespace) -> int:
    from mpisim.api import collective_algorithms, collective_selectors

    if args.markdown:
        print(collectives_markdown(), end="")
        return 0
    print("Selectors (--coll-selector):")
    for s in collective_selectors():
        print(f"    {s['name']}: {s['description']}")
    print("Algorithms (--coll OP=ALGO):")
    for a in collective_algorithms():
        print(f"    {a['operation']}={a['name']}: {a['description']} [{a['origin']}]")
    return 0


def run_options_markdown() -> str:
    """docs/run-options.md: every run option of both front ends, from the one table in the native core."""
    from mpisim.api import run_options

    lines = ["# Run options", "",
             "Generated by `mpisim options --markdown` from the option tables in `src/mpi/RunOptions.cpp`, "
             "`src/timeline/TimelineOptionTable.cpp`, `src/online/options/RunnerOptions.cpp`, "
             "`src/replay/TraceFormatOptionTable.cpp` and `src/replay/CheckpointOptionTable.cpp`; a test keeps it "
             "in step. "
             "`mpisim replay` and `mpisim run` read their options from these tables, and `mpisim.replay` / "
             "`mpisim.run` take the keyword of each.", "",
             "| option | keyword | value | default | meaning | SimGrid | front ends |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for o in run_options():
        names = ", ".join(f"`{n}`" for n in [o["name"], *o["spellings"]])
        value = f"`{o['metavar']}` ({o['type']}{_bounds_text(o)})" if o["type"] != "flag" else "flag"
        if o["choices"]:
            value += ": " + ", ".join(f"`{c}`" for c in o["choices"])
        default = f"`{o['default_text']}`" if o["default_text"] else ("required" if o["required"] else "")
        keyword = f"`{o['keyword']}`" if o["keyword"] else ""
        simgrid = ", ".join(f"`{n}`" for n in o["simgrid"])
        meaning = o["help"].replace("|", "\\|")
        lines.append(f"| {names} | {keyword} | {value} | {default} | {meaning} | {simgrid} | "
                     f"{', '.join(o['front_ends'])} |")
    return "\n".join(lines) + "\n"


def _bounds_text(option: dict) -> str:
    """", 1 to 2147483647", ", at least 64KiB", or "" for an option without bounds."""
    low, high = option["minimum"], option["maximum"]
    if low and high:
        return f", {low} to {high}"
    return f", at least {low}" if low else f", at most {high}" if high else ""


def cmd_options(args: argparse.Namespace) -> int:
    if args.markdown:
        print(run_options_markdown(), end="")
        return 0
    from mpisim.api import run_options

    for o in run_options():
        keyword = f", mpisim.{'/'.join(o['front_ends'])}({o['keyword']}=...)" if o["keyword"] else ""
        print(f"{o['name']} ({', '.join(o['front_ends'])}{keyword}): {o['description']}")
    return 0


def cmd_gantt(args: argparse.Namespace) -> int:
    from mpisim.gantt import parse_ranks, parse_size, plot_files

    if len(args.timelines) > 2:
        raise ValueError(f"gantt draws one or two timelines, got {len(args.timelines)}")
    try:
        plot_files(args.timelines, args.output, ranks=parse_ranks(args.ranks) if args.ranks else None,
                   start=args.start, end=args.end, messages=args.messages, size=parse_size(args.size),
                   title=args.title, links=args.links)
    except OSError as error:
        raise ValueError(f"{error.filename}: {error.strerror}") from error
    print(f"wrote {args.output}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from mpisim import compare

    threshold = None if args.slower_than is None else compare.parse_threshold(args.slower_than)
    result = compare.compare_files(args.real, args.sim)
    if args.operations:
        result = result.only([p.strip() for p in args.operations.split(",") if p.strip()])
    if args.json:
        compare.write_json(result, args.top, threshold)
    else:
        compare.print_report(result, args.top, threshold)
    flag = compare.parse_threshold(compare.DEFAULT_THRESHOLD) if threshold is None else threshold
    for path, write in ((args.csv, compare.write_csv), (args.output, compare.plot),
                        (args.timelines, lambda result, path: compare.plot_timelines(result, flag, path))):
        if path:
            try:
                write(result, path)
            except OSError as error:
                raise ValueError(f"{path}: {error.strerror}") from error
            print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """Every command's parser; for `command` "replay", that command's alone: the others import modules (studies,
    calibration, recording, the online runner) that would cost each replay's start-up (bench/README.md, session 15)."""
    parser = argparse.ArgumentParser(prog="mpisim", description="Simulate MPI applications on HPC clusters.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a SimGrid time-independent trace")
    # replay's own options (trace, --np defaulting to the trace's ranks, --json of the result); the simulation and
    # timeline options come from the native core's table, shared with `mpisim run` (src/mpi/RunOptions.cpp).
    p.add_argument("trace", help="index file (one per-rank file per line) or a single file holding every rank, or an "
                   "OTF2 archive (NAME.otf2 or its folder)")
    p.add_argument("--np", default=None, metavar="N", help="number of ranks (default: as many as the trace lists)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_table_options(p, "trace_format")
    _add_simulation_options(p)
    _add_table_options(p, "checkpoint")
    _add_table_options(p, "run")  # the runner's options replay takes too: --restart, --restart-cost
    _add_timeline_options(p)
    p.set_defaults(func=cmd_replay, process_ends=False)  # main() says whether the process ends after
    if command == "replay":
        return parser

    p = sub.add_parser("convert", help="write a trace (OTF2) as a SimGrid time-independent trace")
    p.add_argument("trace", help="an OTF2 archive (NAME.otf2 or its folder), or any trace `mpisim replay` reads")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for index.txt and the per-rank files")
    _add_table_options(p, "trace_format")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("compare-models", help="replay one trace under several network models, side by side")
    p.add_argument("trace")
    p.add_argument("--np", default=None, metavar="N")
    p.add_argument("--models", default=None, metavar="M1,M2,...",
                   help="models to compare (default: every model `mpisim models` lists)")
    _add_simulation_options(p)
    p.set_defaults(func=cmd_compare_models)

    p = sub.add_parser("models", help="list the network models and their parameters")
    p.add_argument("--markdown", action="store_true", help="print the parameter reference as Markdown")
    p.set_defaults(func=cmd_models)
    p = sub.add_parser("options", help="list the run options of replay and run, declared once in the native core")
    p.add_argument("--markdown", action="store_true", help="as the Markdown page docs/run-options.md")
    p.set_defaults(func=cmd_options)
    p = sub.add_parser("collectives", help="list the collective selectors and algorithms")
    p.add_argument("--markdown", action="store_true", help="as the Markdown page docs/collective-algorithms.md")
    p.set_defaults(func=cmd_collectives)

    p = sub.add_parser("gantt", help="draw timelines as Gantt charts (png, svg, or interactive html)",
                       description="Draw one timeline, or two one above the other on the same time axis (e.g. a "
                                   "real run above its simulation). Timelines: .json (Chrome trace events), "
                                   ".paje/.trace, .csv, as written by `mpisim replay --timeline` or `mpisim record`.")
    p.add_argument("timelines", nargs="+", metavar="FILE", help="one or two timelines")
    p.add_argument("-o", "--output", required=True, help="output image: .png, .svg or .html (interactive)")
    p.add_argument("--ranks", metavar="LIST", help="ranks to draw, e.g. 0-31 or 0,4,8-15 (default: all)")
    p.add_argument("--from", dest="start", type=float, metavar="T", help="start of the time window (seconds)")
    p.add_argument("--to", dest="end", type=float, metavar="T", help="end of the time window (seconds)")
    p.add_argument("--messages", action="store_true", help="draw messages as thin lines")
    p.add_argument("--size", default="1600x900", metavar="WxH", help="image size in pixels (default 1600x900)")
    p.add_argument("--title", help="title above the chart")
    p.add_argument("--links", metavar="SELECTION",
                   help="link bandwidth drawn under the ranks when the timeline has it (--timeline-links): top:N "
                        "(the N links that carried the most bytes; default top:5), NAME,NAME, or none")
    p.set_defaults(func=cmd_gantt)

    p = sub.add_parser("compare", help="compare a real run's timeline with its simulation, call by call",
                       description="Match the n-th MPI call of each rank in a recorded run (REAL: mpisim record's "
                                   "timeline.json) with the replay's (SIM: a timeline of `mpisim replay "
                                   "--timeline`), and report real versus simulated time per operation, per rank, and "
                                   "the largest discrepancies (docs/timelines.md).")
    p.add_argument("real", metavar="REAL", help="timeline of the real run (mpisim record's DIR/timeline.json)")
    p.add_argument("sim", metavar="SIM", help="timeline of the simulated run (.json, .paje, .trace, .csv)")
    p.add_argument("-o", "--output", metavar="IMAGE",
                   help="plot: per-operation real vs simulated time, per-rank error (.png, .svg, .pdf)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON instead of tables")
    p.add_argument("--csv", metavar="FILE", help="write one row per matched call to FILE")
    p.add_argument("--top", type=int, default=10, metavar="N", help="largest discrepancies to list (default 10)")
    p.add_argument("--slower-than", nargs="?", const="2x", metavar="X",
                   help="list the calls slower in reality than simulated by more than X: a fraction (0.2: 20 %%), a "
                        "percentage (20%%) or a factor (2x: more than twice the predicted time); alone: 2x")
    p.add_argument("--operations", metavar="PATTERNS",
                   help="report only these operations: comma-separated shell patterns of the canonical names "
                        "(file_*: the MPI-IO calls; allreduce,bcast)")
    p.add_argument("--timelines", metavar="IMAGE",
                   help="draw each rank's calls, real above simulated, the calls slower than --slower-than (default "
                        "2x) marked (.png, .svg, .pdf)")
    p.set_defaults(func=cmd_compare)

    _add_study_commands(sub)
    _add_optional_commands(sub)
    from mpisim.online import add_online_commands

    add_online_commands(sub)
    return parser


def _add_study_commands(sub) -> None:
    from mpisim.calibrate import add_calibrate_command
    from mpisim.study import add_study_command
    from mpisim.sweep_cli import add_sweep_commands

    add_study_command(sub)
    add_calibrate_command(sub)
    add_sweep_commands(sub)


def _add_optional_commands(sub) -> None:
    """Commands whose modules may be absent from this build."""
    try:
        from mpisim.record import add_record_command
    except ImportError:
        return
    add_record_command(sub)


def _parse_arguments(parser: argparse.ArgumentParser, argv: List[str]) -> argparse.Namespace:
    """argparse, except that an unknown option gets the one line every front end gives (`mpisim run`'s too), exit 2."""
    from mpisim._core import unknown_option_message

    args, unknown = parser.parse_known_args(argv)
    for argument in unknown:
        if argument.startswith("-"):
            print(f"mpisim {args.command}: {unknown_option_message(args.command, argument)}", file=sys.stderr)
            sys.exit(EXIT_INPUT)
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def main(argv: Optional[List[str]] = None, process_ends: bool = False) -> int:
    """Runs one command and returns its exit status. `process_ends`: the process exits right after (the `mpisim`
    command itself, `command()`), so a successful replay may end it at once rather than free what it made."""
    argv = list(sys.argv[1:] if argv is None else argv)
    replaying = argv[:1] == ["replay"]  # its start-up skips the other commands' modules (build_parser)
    if not replaying:
        from mpisim.online import dispatch
        from mpisim.sweep_cli import spelled_plot

        status = dispatch(argv)  # cc, cxx, run: arguments belong to the compiler or the native runner
        if status is not None:
            return status
        if argv[:1] == ["--help-models"]:  # SimGrid-style spelling
            argv = ["models"] + argv[1:]
        argv = spelled_plot(argv)
    from mpisim._core import DeadlockError, InputError, SimulationError

    args = _parse_arguments(build_parser("replay" if replaying else None), argv)
    args.process_ends = process_ends
    try:
        return args.func(args)
    except InputError as error:
        print(f"mpisim: {error}", file=sys.stderr)
        return EXIT_INPUT
    except ValueError as error:
        print(f"mpisim: {error}", file=sys.stderr)
        return EXIT_INPUT
    except DeadlockError as error:
        print(f"mpisim: {error}", file=sys.stderr)
        return EXIT_DEADLOCK
    except SimulationError as error:
        print(f"mpisim: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    except MemoryError:  # what no check foresaw: still one line
        print("mpisim: out of memory: the input needs more than this machine has", file=sys.stderr)
        return EXIT_INPUT
    except OSError as error:  # a file given that cannot be read or written, stdout on a full disk
        _drop_pending_output()
        where = f"{error.filename}: " if error.filename else "cannot write the output: " if error.errno else ""
        print(f"mpisim: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_INPUT


def _drop_pending_output() -> None:
    """Output that could not be written is dropped: flushing it again at exit would print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout closed or not a file
        pass


def command() -> None:
    """The `mpisim` command and `python -m mpisim`: main() on the command line's arguments, then the process ends."""
    sys.exit(main(process_ends=True))


if __name__ == "__main__":
    command()
