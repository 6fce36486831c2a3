"""`mpisim study flow-control`: the flow-control study of the S4BXI thesis (J. Emmanuel, PhD thesis, Univ. Lyon 1,
2023, section 7.1, Fig. 7.1-7.2) under the BXI NIC model.

A measured pair of nodes (one process each: A0 sends Puts to B0, one at a time, each waiting for its ACK) and a
flooding pair (P processes on A1, each sending Puts at once to its partner on B1) share a link: A0 and A1 hang off one
leaf switch, B0 and B1 off another, and every message from A to B crosses the leaf-to-upper-switch link of A's leaf.
For each in-flight limit, per process pair (`max-inflight-process-pair`) and per node pair (`max-inflight-node-pair`),
the measured pair's latency (mean time per Put, as rank 0 measures it); and two references: no flooding pair, and
flooding without flow control. Each point is one `mpisim run` of examples/portals/ptl_flood.c. The NICs have
`--tx-stages` transmit servers (`nic-tx-stages`, S4BXI's TX actors), so that a node may have that many messages on
the wire at once: with one, a NIC sends one message at a time and the limits change nothing on the wire."""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

# Two leaves of two nodes under one upper switch, 100 Gbit/s cables of 100 ns: nodes 0, 1 (A0, A1) on one leaf, 2, 3
# (B0, B1) on the other.
PLATFORM = "fattree:2;2,2;1,1;1,1,bw=100Gbps,lat=100ns"
KINDS = {"process": "max-inflight-process-pair", "node": "max-inflight-node-pair"}


def _example(name: str) -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    for root in (os.path.dirname(os.path.dirname(here)), os.getcwd()):
        path = os.path.join(root, "examples", "portals", name)
        if os.path.exists(path):
            return path
    raise ValueError(f"examples/portals/{name} not found: run from the project's folder")


def _mpisim(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"mpisim {' '.join(args[:1])} failed ({done.returncode}): {done.stderr.strip()}")
    return done


def _hosts(platform: str) -> List[str]:
    """The platform's host names in platform order (the first four are A0, A1, B0, B1)."""
    from mpisim import _core

    return [host["name"] for host in _core.describe_platform(platform)["hosts"]]


def latency(binary: str, flooders: int, limit_param: Optional[str], limit: int, options, workdir: str) -> float:
    """The measured pair's mean time per Put (microseconds) in one run."""
    hostfile = os.path.join(workdir, f"hosts-{flooders}.txt")
    a0, a1, b0, b1 = options.hosts[:4]
    with open(hostfile, "w") as f:
        f.write("\n".join([a0, b0] + [a1] * flooders + [b1] * flooders) + "\n")
    args = ["run", "-np", str(2 + 2 * flooders), "--platform", options.platform, "--hostfile", hostfile, "--model",
            "bxi", "--no-compute-time", "--quiet", "--param", f"nic-tx-stages={options.tx_stages}"]
    for assignment in options.param or []:
        args += ["--param", assignment]
    if limit_param:
        args += ["--param", f"{limit_param}={limit}"]
    done = _mpisim(*args, binary, str(flooders), str(options.size), str(options.measured), str(options.flood))
    for line in done.stdout.splitlines():
        if line.startswith("latency "):
            return float(line.split()[1])
    raise ValueError(f"no latency line in the output: {done.stdout!r}")


def run_study(options) -> List[Dict]:
    workdir = options.workdir or tempfile.mkdtemp(prefix="flow-control-")
    os.makedirs(workdir, exist_ok=True)
    binary = os.path.join(workdir, "ptl_flood")
    _mpisim("cc", "-O2", _example("ptl_flood.c"), "-o", binary)
    rows = [{"kind": "no-flood", "limit": 0,
             "latency_us": latency(binary, 0, None, 0, options, workdir)},
            {"kind": "no-flow-control", "limit": 0,
             "latency_us": latency(binary, options.processes, None, 0, options, workdir)}]
    for kind, param in KINDS.items():
        for limit in options.limits:
            rows.append({"kind": kind, "limit": limit,
                         "latency_us": latency(binary, options.processes, param, limit, options, workdir)})
            if not options.quiet:
                print(f"{kind} limit {limit}: {rows[-1]['latency_us']:.3f} us", file=sys.stderr, flush=True)
    return rows


def plot_study(rows: List[Dict], path: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(8, 4.8))
    for kind, style in (("process", "o-"), ("node", "s-")):
        points = [(r["limit"], r["latency_us"]) for r in rows if r["kind"] == kind]
        ax.plot(*zip(*points), style, label=f"limit per {kind} pair")
    reference = {r["kind"]: r["latency_us"] for r in rows if r["limit"] == 0}
    ax.axhline(reference["no-flow-control"], linestyle=":", color="black", label="flooding, no flow control")
    ax.axhline(reference["no-flood"], linestyle="--", color="grey", label="no flooding")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("messages in flight allowed")
    ax.set_ylabel("measured pair's latency (us per Put)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def cmd_study_flow_control(args: argparse.Namespace) -> int:
    from mpisim.study import parse_size

    args.size = parse_size(args.size)
    args.limits = [int(x) for x in args.limits.split(",")]
    if any(limit < 1 for limit in args.limits) or args.processes < 1:
        raise ValueError("--limits and --processes take integers of at least 1")
    args.hosts = _hosts(args.platform)
    if len(args.hosts) < 4:
        raise ValueError(f"{args.platform}: the study needs four nodes (A0, A1, B0, B1), it has {len(args.hosts)}")
    rows = run_study(args)
    with open(args.output, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["kind", "limit", "latency_us"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"{'kind':>16} {'limit':>6} {'latency us':>11}")
    for r in rows:
        print(f"{r['kind']:>16} {r['limit']:>6} {r['latency_us']:>11.3f}")
    if args.plot:
        plot_study(rows, args.plot, f"flow control: {args.processes} flooding processes per node, "
                                    f"{args.size} B Puts")
        print(f"wrote {args.plot}")
    return 0


def add_flow_control_command(kinds) -> None:
    p = kinds.add_parser("flow-control", help="the S4BXI thesis's flow-control study (its Fig. 7.2) under --model bxi",
                         description=__doc__.split("\n\n")[1])
    p.add_argument("--platform", default=PLATFORM,
                   help="its first four hosts are A0, A1 (one switch), B0, B1 (another) (default: " + PLATFORM + ")")
    p.add_argument("--processes", type=int, default=8, help="flooding processes per node (default 8)")
    p.add_argument("--size", default="1MiB", help="message size (default 1MiB)")
    p.add_argument("--measured", type=int, default=10, help="Puts of the measured pair (default 10)")
    p.add_argument("--flood", type=int, default=128,
                   help="Puts of each flooding process (default 128: the flood outlasts the measured Puts)")
    p.add_argument("--tx-stages", type=int, default=64,
                   help="transmit servers per NIC, nic-tx-stages (default 64: up to 64 messages of a node at once)")
    p.add_argument("--limits", default="1,2,4,8,16,32,64,128", help="in-flight limits (default 1,2,...,128)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="other bxi parameters (repeatable)")
    p.add_argument("--workdir", help="folder for the binary and hostfiles (default: a temporary one)")
    p.add_argument("-o", "--output", default="flow-control.csv", help="CSV file (default flow-control.csv)")
    p.add_argument("--plot", help="PNG/SVG/PDF of the latency against the limit")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_study_flow_control)
