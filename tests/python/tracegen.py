"""Generators of time-independent traces for tests and benchmarks (SimGrid's format, one file per rank)."""

from __future__ import annotations

import os
from typing import Callable, Dict, List


def write_trace(folder: str, lines_per_rank: List[List[str]], init: str = "init") -> str:
    """Writes rank files and an index (paths relative to the index's folder); returns the index path."""
    os.makedirs(folder, exist_ok=True)
    names = []
    for rank, lines in enumerate(lines_per_rank):
        name = f"rank{rank}.txt"
        with open(os.path.join(folder, name), "w") as out:
            out.write(f"{rank} {init}\n")
            for line in lines:
                out.write(f"{rank} {line}\n")
            out.write(f"{rank} finalize\n")
        names.append(name)
    index = os.path.join(folder, "index.txt")
    with open(index, "w") as out:
        out.write("\n".join(names) + "\n")
    return index


# Payload sizes around every threshold of the SMPI model: factor intervals at 257/732/1426/3484/5776/9376/15424/
# 65472 bytes (payload + 16), the detached threshold at 65536, the hybrid model's 1420/32768/327680.
THRESHOLD_SIZES = [0, 1, 100, 240, 241, 716, 717, 1410, 1411, 1420, 3468, 3469, 5760, 5761, 9360, 9361, 15408,
                   15409, 32768, 65456, 65457, 65535, 65536, 100000, 327680, 327681, 1000000, 4000000]


def pingpong_sizes(ranks: int = 2, sizes=THRESHOLD_SIZES, flops: float = 1e6) -> List[List[str]]:
    """Rank 0 and rank 1 ping-pong every size, with blocking send/recv; other ranks idle."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    for size in sizes:
        lines[0] += [f"compute {flops:g}", f"send 1 0 {size}", f"recv 1 1 {size}"]
        lines[1] += [f"recv 0 0 {size}", f"compute {flops / 2:g}", f"send 0 1 {size}"]
    return lines


def isend_ring(ranks: int, sizes=(10, 20000, 70000, 500000), rounds: int = 3) -> List[List[str]]:
    """Every rank isends to the next and irecvs from the previous, then waits for both (waitall or wait)."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    for r in range(rounds):
        for size in sizes:
            for rank in range(ranks):
                nxt, prv = (rank + 1) % ranks, (rank - 1) % ranks
                lines[rank] += [f"compute {1e5 * (rank + 1):g}", f"irecv {prv} {r} {size}", f"isend {nxt} {r} {size}"]
                if r % 2 == 0:
                    lines[rank].append("waitall")
                else:
                    lines[rank] += [f"wait {prv} {rank} {r}", f"wait {rank} {nxt} {r}"]
    return lines


def contention(ranks: int, size: int = 2000000) -> List[List[str]]:
    """Everyone sends to rank 0 at once (incast on one link), then rank 0 answers everyone."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    for rank in range(1, ranks):
        lines[0].append(f"irecv {rank} 5 {size}")
        lines[rank] += [f"send 0 5 {size}", f"recv 0 6 {size // 4}"]
    lines[0].append("waitall")
    for rank in range(1, ranks):
        lines[0].append(f"isend {rank} 6 {size // 4}")
    lines[0].append("waitall")
    return lines


def exchange_pairs(ranks: int, size: int = 3000000) -> List[List[str]]:
    """Pairs (i, i + ranks/2) exchange with sendRecv at the same time: bidirectional traffic on shared links."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    half = ranks // 2
    for rank in range(ranks):
        peer = (rank + half) % ranks
        lines[rank] += [f"sendRecv {size} {peer} {size} {peer} 6 6", f"compute {2e6 * (rank % 3 + 1):g}",
                        f"sendRecv {size // 10} {peer} {size // 10} {peer} 6 6"]
    return lines


def collectives(ranks: int, sizes=(8, 1000, 70000, 400000)) -> List[List[str]]:
    """Every collective of the TI format at several sizes."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    for rank in range(ranks):
        out = lines[rank]
        for size in sizes:
            counts = " ".join(str(size // (i + 1) + 1) for i in range(ranks))
            # alltoallv: rank i receives from everyone what everyone sends to i (counts must match, as MPI requires)
            send_counts = counts
            recv_counts = " ".join([str(size // (rank + 1) + 1)] * ranks)
            out += [
                "barrier",
                f"bcast {size} {1 % ranks}",
                f"reduce {size} 1e6 0",
                f"allreduce {size} 2e6",
                f"alltoall {max(size // ranks, 1)} {max(size // ranks, 1)}",
                f"gather {size // 4} {size // 4} 0",
                f"scatter {size // 4} {size // 4} {ranks - 1}",
                f"allgather {size // 8} {size // 8}",
                f"gatherv {size // (rank + 1) + 1} {counts} 0",
                f"scatterv {counts} {size // (rank + 1) + 1} 0",
                f"allgatherv {size // (rank + 1) + 1} {counts}",
                f"alltoallv {size * ranks} {send_counts} {size * ranks} {recv_counts}",
                f"reducescatter {' '.join([str(max(size // ranks, 1))] * ranks)} 5e5",
                # irregular counts: SimGrid's default switches to MPICH's pair (> 524288 elements) or rdb
                f"reducescatter {' '.join(str(size // (i + 2) + i) for i in range(ranks))} 5e5",
                f"reducescatter {' '.join(str(3 * size + i) for i in range(ranks))} 0",
                f"scan {size} 1e5",
                f"compute {3e6 * (rank + 1):g}",
            ]
    return lines


def alltoall_sizes(ranks: int, sizes=(1, 16, 200, 600, 3000, 40000, 300000)) -> List[List[str]]:
    """alltoall at per-peer block sizes that select each of the Open MPI table's algorithms."""
    lines: List[List[str]] = [[] for _ in range(ranks)]
    for rank in range(ranks):
        for size in sizes:
            lines[rank] += [f"alltoall {size} {size}", f"compute {1e6 * (rank % 4 + 1):g}"]
    return lines


GENERATORS: Dict[str, Callable[[int], List[List[str]]]] = {
    "pingpong": lambda n: pingpong_sizes(n),
    "isend_ring": isend_ring,
    "contention": contention,
    "exchange_pairs": exchange_pairs,
    "collectives": collectives,
    "alltoall_sizes": alltoall_sizes,
}
