"""Parallel I/O at scale: 1 024 clients writing one shared file collectively through 16 file servers, 1 GiB in all
(issue 16's speed target: under a minute here), and whether the simulator's memory grows with the data.

    .venv/bin/python bench/io_bench.py [--clients 1024] [--servers 16] [--block 1m] [--transfer 1m]

Builds examples/io/ior.c with `mpisim cc`, writes a platform (clients' nodes of 16 cores and --servers NVMe file
servers, all on one 100 Gb/s switch, files striped over the servers in 1 MiB units: the figures of
platforms/io-nvme.xml) and a hostfile into a scratch folder, and runs `ior -c` (collective writes then reads of a
shared file, every byte checked) under the fluid model, computation not simulated. Prints the run's simulated
bandwidths, wall and CPU seconds and peak memory.

Memory: ior keeps each client's block in a buffer of its own (the clients' buffers are the program's memory, in the
simulator's process). The second part runs --memory-clients clients with blocks of B and 4 B, and prints the peak
memory's growth next to the growth of the clients' buffers: what is left is the simulator's own growth with the data
(it reads the data the program writes into the real file and moves no other copy of it).

No reference runs beside it: SimGrid 3.32's smpirun crashes at the first MPI-IO write (docs/io.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORES_PER_NODE = 16


def platform_xml(nodes: int, servers: int) -> str:
    """A star of `nodes` compute nodes and `servers` file servers (platforms/io-nvme.xml's hardware)."""
    hosts = [f"node-{n}" for n in range(nodes)] + [f"io-{s}" for s in range(servers)]
    lines = ["<?xml version='1.0'?>", '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '  <zone id="io-bench" routing="Floyd">',
             f'    <prop id="io/servers" value="{",".join(hosts[nodes:])}"/>',
             '    <prop id="io/stripe-size" value="1MiB"/>', '    <prop id="io/open-cost" value="50us"/>',
             '    <prop id="io/close-cost" value="20us"/>', '    <prop id="io/request-overhead" value="5us"/>']
    lines += [f'    <host id="{host}" speed="50Gf" core="{CORES_PER_NODE}"/>' for host in hosts[:nodes]]
    for server in hosts[nodes:]:
        lines += [f'    <host id="{server}" speed="50Gf" core="32">',
                  '      <prop id="io/cache-size" value="64GiB"/>', '      <prop id="io/memory-bw" value="20GBps"/>',
                  '      <prop id="io/read-ahead" value="4MiB"/>',
                  '      <disk id="nvme0" read_bw="7GBps" write_bw="5GBps"><prop id="kind" value="ssd"/>'
                  '<prop id="latency" value="20us"/></disk>', '    </host>']
    lines.append('    <router id="switch"/>')
    lines += [f'    <link id="l-{host}" bandwidth="100Gbps" latency="1us" sharing_policy="SPLITDUPLEX"/>'
              for host in hosts]
    lines += [f'    <route src="{host}" dst="switch"><link_ctn id="l-{host}" direction="UP"/></route>' for host in hosts]
    lines += ["  </zone>", "</platform>", ""]
    return "\n".join(lines)


def size_in_bytes(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(text[:-1]) * units[text[-1].lower()] if text[-1].lower() in units else int(text)


def run_ior(mpisim: str, folder: str, clients: int, servers: int, block: str, transfer: str) -> dict:
    nodes = -(-clients // CORES_PER_NODE)
    platform = os.path.join(folder, f"platform-{nodes}-{servers}.xml")
    with open(platform, "w") as out:
        out.write(platform_xml(nodes, servers))
    hostfile = os.path.join(folder, f"hosts-{nodes}")
    with open(hostfile, "w") as out:
        out.write("".join(f"node-{n}:{CORES_PER_NODE}\n" for n in range(nodes)))
    files = os.path.join(folder, "files")
    shutil.rmtree(files, ignore_errors=True)
    os.makedirs(files)
    command = [mpisim, "run", "-np", str(clients), "--hostfile", hostfile, "--platform", platform, "--model", "fluid",
               "--no-compute-time", "--stack-size", "256KiB", "--io-root", files, "--quiet",
               os.path.join(folder, "ior"), "-c", "-b", block, "-t", transfer]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(files, ignore_errors=True)
    if done.returncode != 0 or "check 0 wrong bytes" not in done.stdout:
        sys.exit(f"io_bench: {' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return {"output": done.stdout.strip(), "wall": wall,
            "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "peak_mib": after.ru_maxrss / 1024}  # the largest child so far: runs go from small to large


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1024)
    parser.add_argument("--servers", type=int, default=16)
    parser.add_argument("--block", default="1m", help="bytes per client (k, m, g suffixes)")
    parser.add_argument("--transfer", default="1m", help="bytes per collective call and client")
    parser.add_argument("--memory-clients", type=int, default=256)
    args = parser.parse_args()
    mpisim = os.path.join(os.path.dirname(sys.executable), "mpisim")
    with tempfile.TemporaryDirectory(prefix="mpisim-io-bench-") as folder:
        subprocess.run([mpisim, "cc", "-O2", os.path.join(ROOT, "examples", "io", "ior.c"), "-o",
                        os.path.join(folder, "ior")], check=True)
        block = size_in_bytes(args.block)
        small = run_ior(mpisim, folder, args.memory_clients, args.servers, args.block, args.transfer)
        large = run_ior(mpisim, folder, args.memory_clients, args.servers, f"{4 * block // 1024}k", args.transfer)
        buffers_mib = args.memory_clients * 3 * block / 2**20
        growth = large["peak_mib"] - small["peak_mib"]
        print(f"memory, {args.memory_clients} clients, blocks of {args.block} then 4x: peak {small['peak_mib']:.0f} -> "
              f"{large['peak_mib']:.0f} MiB, +{growth:.0f} MiB for +{buffers_mib:.0f} MiB of the clients' buffers: "
              f"the simulator's own growth {growth - buffers_mib:+.0f} MiB")
        big = run_ior(mpisim, folder, args.clients, args.servers, args.block, args.transfer)
        total_gib = args.clients * block / 2**30
        print(big["output"])
        print(f"{args.clients} clients, {args.servers} servers, {total_gib:g} GiB shared file, collective: "
              f"wall {big['wall']:.1f} s, CPU {big['cpu']:.1f} s, peak {big['peak_mib']:.0f} MiB "
              f"(of which the clients' buffers {args.clients * block / 2**20:.0f} MiB); target: under 60 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
