"""The `mpisim` command line.

Exit status: 0 success, 2 bad input (one line "FILE:LINE: what is wrong"), 3 the simulated application deadlocked
(the report lists what each blocked rank waits for), 1 any other simulated failure.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Dict, List, Optional, Tuple

EXIT_INPUT = 2
EXIT_DEADLOCK = 3


def _parse_params(values: List[str]) -> List[Tuple[str, str]]:
    pairs = []
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name:
            raise ValueError(f"--param expects NAME=VALUE, got '{value}'")
        pairs.append((name.strip(), text.strip()))
    return pairs


def _parse_coll(values: List[str]) -> Dict[str, str]:
    chosen: Dict[str, str] = {}
    for value in values:
        for item in value.split(","):
            if not item:
                continue
            op, sep, algorithm = item.partition("=")
            if not sep or not op or not algorithm:
                raise ValueError(f"--coll expects OPERATION=ALGORITHM[,...], got '{item}'")
            chosen[op.strip()] = algorithm.strip()
    return chosen


def _add_simulation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--platform", required=True,
                        help="SimGrid platform XML file, or a generator spec such as torus:8x8x8,bw=10Gbps")
    parser.add_argument("--model", default="smpi", help="network model (see `mpisim models`); default smpi")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="override a model parameter (repeatable); SimGrid --cfg names are accepted")
    parser.add_argument("--model-params", metavar="FILE", help="file of 'name = value' model parameters")
    parser.add_argument("--hostfile", help="one host per line: rank i runs on line i (host:N counts N lines)")
    parser.add_argument("--map", choices=["platform", "sorted"], default="platform",
                        help="rank placement without a hostfile: platform order (default) or sorted host names "
                             "(what smpirun does)")
    parser.add_argument("--coll-selector", default="default",
                        help="collective selection logic (see `mpisim collectives`); default: SimGrid 3.32's")
    parser.add_argument("--coll", action="append", default=[], metavar="OP=ALGO[,OP=ALGO]",
                        help="force algorithms per collective, e.g. alltoall=bruck,bcast=binomial_tree")


def _replay_kwargs(args: argparse.Namespace) -> dict:
    return dict(
        platform=args.platform,
        model=args.model,
        params=_parse_params(args.param),
        params_file=args.model_params,
        hostfile=args.hostfile,
        placement=args.map,
        coll_selector=args.coll_selector,
        coll=_parse_coll(args.coll),
    )


def _add_timeline_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeline", metavar="FILE",
                        help="write the run's timeline to FILE: .json (Chrome trace events: Perfetto, "
                             "chrome://tracing), .paje or .trace (Paje: ViTE, pj_dump), .csv (see docs/timelines.md)")
    parser.add_argument("--timeline-format", metavar="NAME",
                        help="timeline format by name (chrome, paje, csv) instead of by FILE's extension")
    parser.add_argument("--timeline-internals", action="store_true",
                        help="timeline: also the point-to-point messages collective algorithms send")
    parser.add_argument("--timeline-links", action="store_true",
                        help="timeline: also the bandwidth each link carries over time (flow models: smpi, hybrid, "
                             "fluid)")


def _replay(args: argparse.Namespace):
    """mpisim.api.replay with the replay command's options (with --timeline FILE, the timeline is written too)."""
    from mpisim import api

    if not args.timeline and (args.timeline_format or args.timeline_internals or args.timeline_links):
        raise ValueError("--timeline-format, --timeline-internals and --timeline-links need --timeline FILE")
    return api.replay(args.trace, np=args.np, timeline=args.timeline, timeline_format=args.timeline_format,
                      timeline_internals=args.timeline_internals, timeline_links=args.timeline_links,
                      **_replay_kwargs(args))


def _print_summary(result, out=sys.stdout) -> None:
    print(f"Simulated time: {result.simulated_time:.6f} s "
          f"({len(result.ranks)} ranks, {result.actions} actions, model {result.inputs['model']})", file=out)
    print(f"{'rank':>6} {'compute':>12} {'communicate':>12} {'wait':>12} {'sleep':>12} {'finish':>12}", file=out)
    shown = result.ranks if len(result.ranks) <= 16 else result.ranks[:8] + result.ranks[-8:]
    for index, r in enumerate(shown):
        if len(result.ranks) > 16 and index == 8:
            print(f"{'...':>6}", file=out)
        print(f"{r.rank:>6} {r.compute:>12.6f} {r.communicate:>12.6f} {r.wait:>12.6f} {r.sleep:>12.6f} "
              f"{r.finish:>12.6f}", file=out)
    _print_decisions(result.collective_decisions, out)


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


def cmd_replay(args: argparse.Namespace) -> int:
    result = _replay(args)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")  # one write, even unbuffered
    else:
        _print_summary(result)
    return 0


def cmd_compare_models(args: argparse.Namespace) -> int:
    from mpisim.api import replay

    models = [m for m in args.models.split(",") if m]
    kwargs = _replay_kwargs(args)
    rows = []
    for model in models:
        kwargs["model"] = model
        result = replay(args.trace, np=args.np, **kwargs)
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
                "| parameter | unit | default | meaning | SimGrid name |", "| --- | --- | --- | --- | --- |"]
        for p in model["parameters"]:
            default = p["default"].replace(";", "; ")
            out.append(f"| `{p['name']}` | {p['unit'] or 'number'} | `{default}` | {p['description']} | "
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
            print(f"    --param {p['name']}=<{p['unit'] or 'number'}>  default {p['default']}: "
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

    if args.slower_than is not None and not args.slower_than >= 0:
        raise ValueError(f"--slower-than expects a fraction >= 0 (0.2: 20 %), got {args.slower_than}")
    result = compare.compare_files(args.real, args.sim)
    if args.json:
        compare.write_json(result, args.top, args.slower_than)
    else:
        compare.print_report(result, args.top, args.slower_than)
    for path, write in ((args.csv, compare.write_csv), (args.output, compare.plot)):
        if path:
            try:
                write(result, path)
            except OSError as error:
                raise ValueError(f"{path}: {error.strerror}") from error
            print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mpisim", description="Simulate MPI applications on HPC clusters.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a SimGrid time-independent trace")
    p.add_argument("trace", help="index file (one per-rank file per line) or a single file holding every rank")
    p.add_argument("--np", type=int, default=None, help="number of ranks (default: as many as the trace lists)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_simulation_options(p)
    _add_timeline_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("compare-models", help="replay one trace under several network models, side by side")
    p.add_argument("trace")
    p.add_argument("--np", type=int, default=None)
    p.add_argument("--models", default="smpi,hybrid,loggps,fluid")
    _add_simulation_options(p)
    p.set_defaults(func=cmd_compare_models)

    p = sub.add_parser("models", help="list the network models and their parameters")
    p.add_argument("--markdown", action="store_true", help="print the parameter reference as Markdown")
    p.set_defaults(func=cmd_models)
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
    p.add_argument("--slower-than", type=float, metavar="X",
                   help="list the calls slower in reality than simulated by more than X (0.2: 20 %%)")
    p.set_defaults(func=cmd_compare)

    _add_study_commands(sub)
    _add_optional_commands(sub)
    from mpisim.online import add_online_commands

    add_online_commands(sub)
    return parser


def _add_study_commands(sub) -> None:
    from mpisim.study import add_study_command

    add_study_command(sub)


def _add_optional_commands(sub) -> None:
    """Commands whose modules may be absent from this build."""
    try:
        from mpisim.record import add_record_command
    except ImportError:
        return
    add_record_command(sub)


def main(argv: Optional[List[str]] = None) -> int:
    from mpisim.online import dispatch

    argv = list(sys.argv[1:] if argv is None else argv)
    status = dispatch(argv)  # cc, cxx, run: arguments belong to the compiler or the native runner
    if status is not None:
        return status
    from mpisim._core import DeadlockError, InputError, SimulationError

    if argv[:1] == ["--help-models"]:  # SimGrid-style spelling
        argv = ["models"] + argv[1:]
    args = build_parser().parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
