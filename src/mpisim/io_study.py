"""`mpisim study io`: I/O bandwidth against clients, file servers and record size.

The PIOsimHD paper's experiment (Kunkel et al., "Towards I/O analysis of HPC systems and a generic architecture to
collect access patterns", Sec. 4, Fig. 5): C clients each write (then, in a second run, read) a contiguous block of
a shared file in records of R bytes, on a platform whose file servers are cut to the last S of its `io/servers`
hosts; the bandwidth is the bytes of all clients over the simulated time. Each point is the replay of a generated
trace of MPI-IO actions (docs/replay.md, "MPI-IO actions"), so it runs through the same storage model as `mpisim
run`."""

from __future__ import annotations

import csv
import os
import re
import sys
import tempfile
from typing import Dict, List, Optional, Sequence

from mpisim.study import ProgressBar, parse_size

_SERVERS_PROP = re.compile(r'(<prop\s+id="io/servers"\s+value=")([^"]*)(")')


def _int_list(text: str, option: str) -> List[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"{option}: '{text}': expected whole numbers separated by commas") from None
    if not values or min(values) < 1:
        raise ValueError(f"{option}: '{text}': every value must be at least 1")
    return values


def platform_with_servers(xml: str, servers: int, path: str) -> str:
    """The platform text with its io/servers cut to its last `servers` hosts (clients sit on the first hosts)."""
    match = _SERVERS_PROP.search(xml)
    if match is None:
        raise ValueError(f"{path}: the platform has no io/servers prop: no file servers to vary (docs/platforms.md)")
    names = [name.strip() for name in match.group(2).split(",") if name.strip()]
    if servers > len(names):
        raise ValueError(f"--servers: {servers} servers asked, {path} has {len(names)}")
    return xml[:match.start(2)] + ",".join(names[-servers:]) + xml[match.end(2):]


def io_trace(clients: int, block: int, record: int, write: bool) -> str:
    """Every client opens the shared file, accesses its block record by record (the last one may be shorter), closes
    it."""
    action = "file_write_at" if write else "file_read_at"
    lines = [f"{r} init" for r in range(clients)]
    lines += [f"{r} file_open data world" for r in range(clients)]
    for r in range(clients):
        lines += [f"{r} {action} data {r * block + offset} {min(record, block - offset)}"
                  for offset in range(0, block, record)]
    lines += [f"{r} file_close data" for r in range(clients)]
    lines += [f"{r} finalize" for r in range(clients)]
    return "\n".join(lines) + "\n"


def run_io_study(platform: str, clients: Sequence[int], servers: Sequence[int], records: Sequence[int], block: int,
                 model: str = "fluid", progress: Optional[ProgressBar] = None) -> List[Dict]:
    from mpisim.api import replay

    if block <= 0 or min(records) <= 0:
        raise ValueError("--block, --records: sizes must be positive")
    with open(platform) as stream:
        xml = stream.read()
    rows = []
    with tempfile.TemporaryDirectory(prefix="mpisim-io-study-") as folder:
        for s in servers:
            variant = os.path.join(folder, f"servers-{s}.xml")
            with open(variant, "w") as out:
                out.write(platform_with_servers(xml, s, platform))
            for c in clients:
                for record in records:
                    for write in (True, False):
                        trace = os.path.join(folder, "trace.txt")
                        with open(trace, "w") as out:
                            out.write(io_trace(c, block, record, write))
                        seconds = replay(trace, variant, np=c, model=model).simulated_time
                        rows.append({"clients": c, "servers": s, "record": record,
                                     "direction": "write" if write else "read", "seconds": seconds,
                                     "MiB/s": c * block / 2 ** 20 / seconds})
                        if progress:
                            progress.advance(f"{c} clients, {s} servers, {record} B records")
    return rows


def _size_text(size: int) -> str:
    for unit, scale in (("MiB", 2 ** 20), ("KiB", 1024)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def print_table(rows: Sequence[Dict], stream=sys.stdout) -> None:
    stream.write(f"{'record':>10} {'clients':>8} {'servers':>8} {'write MiB/s':>12} {'read MiB/s':>12}\n")
    keyed = {(r["record"], r["clients"], r["servers"], r["direction"]): r["MiB/s"] for r in rows}
    for record, clients, servers in sorted({(r["record"], r["clients"], r["servers"]) for r in rows}):
        stream.write(f"{_size_text(record):>10} {clients:>8} {servers:>8} "
                     f"{keyed[(record, clients, servers, 'write')]:>12.2f} "
                     f"{keyed[(record, clients, servers, 'read')]:>12.2f}\n")


def plot(rows: Sequence[Dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = sorted({r["record"] for r in rows})
    fig, axes = plt.subplots(2, len(records), figsize=(5 * len(records), 7), squeeze=False)
    for column, record in enumerate(records):
        for line, direction in enumerate(("write", "read")):
            ax = axes[line][column]
            for servers in sorted({r["servers"] for r in rows}):
                points = sorted((r["clients"], r["MiB/s"]) for r in rows
                                if r["record"] == record and r["servers"] == servers and r["direction"] == direction)
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"{servers} servers")
            ax.set_title(f"{direction}, {_size_text(record)} records")
            ax.set_xlabel("clients")
            ax.set_ylabel("MiB/s")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def cmd_study_io(args) -> int:
    clients = _int_list(args.clients, "--clients")
    servers = _int_list(args.servers, "--servers")
    records = [parse_size(r) for r in args.records.split(",")]
    block = parse_size(args.block)
    progress = None if args.quiet else ProgressBar(len(clients) * len(servers) * len(records) * 2)
    rows = run_io_study(args.platform, clients, servers, records, block, args.model, progress)
    with open(args.output, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    print_table(rows)
    if args.plot:
        plot(rows, args.plot)
    return 0


def add_io_command(kinds) -> None:
    p = kinds.add_parser("io", help="I/O bandwidth over clients x file servers x record size (PIOsimHD's Fig. 5)",
                         description="Replays generated MPI-IO traces: each client writes, then reads, its block of a "
                                     "shared file in records, on the platform cut to S file servers (its last S "
                                     "io/servers hosts); prints and writes the bandwidth of every point.")
    p.add_argument("--platform", required=True, help="a platform with file servers (io/servers), such as "
                                                     "platforms/pio-cluster-10.xml")
    p.add_argument("--clients", default="1,2,4,8", help="client counts, comma separated (default 1,2,4,8)")
    p.add_argument("--servers", default="1,2,4,8", help="file server counts, comma separated (default 1,2,4,8)")
    p.add_argument("--records", default="100KiB,100MiB",
                   help="record sizes, comma separated (default 100KiB,100MiB, the paper's)")
    p.add_argument("--block", default="100MiB", help="bytes each client accesses (default 100MiB)")
    p.add_argument("--model", default="fluid", help="network model (default fluid)")
    p.add_argument("-o", "--output", default="io-study.csv", help="CSV file (default io-study.csv)")
    p.add_argument("--plot", help="PNG/SVG/PDF of bandwidth against clients, one line per server count")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_study_io)
