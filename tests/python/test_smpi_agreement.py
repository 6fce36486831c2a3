"""Agreement with SimGrid 3.32: `mpisim replay --model smpi` and `smpirun -replay` on the same traces, platforms and
rank placement predict times within 1 %.

Traces: generated ones that cross every size threshold of the SMPI model, contend on shared links, and use every
collective of the format; and real NAS traces recorded with SimGrid. Platforms: the bundled ones (flat clusters with
backbone, limiters and loopback; graphene; torus; fat tree; dragonfly)."""

from __future__ import annotations

import os

import pytest

import mpisim
from conftest import repo_path
from smpi import require_smpirun, smpi_replay_time, write_hostfile
from tracegen import GENERATORS, write_trace

TOLERANCE = 0.01


def platform_hosts(platform: str, count: int):
    """The first `count` hosts in platform order."""
    return mpisim.platform_hosts(platform)[:count]


CASES = [
    # (generator, ranks, platform, host pattern)
    ("pingpong", 2, "cluster-16.xml", "spread"),
    ("pingpong", 2, "graphene.xml", "cabinets"),
    ("pingpong", 2, "cluster-16.xml", "same-host"),
    ("isend_ring", 8, "cluster-16.xml", "spread"),
    ("isend_ring", 16, "graphene.xml", "cabinets"),
    ("contention", 16, "cluster-16.xml", "spread"),
    ("contention", 16, "graphene.xml", "cabinets"),
    ("exchange_pairs", 16, "graphene.xml", "cabinets"),
    ("exchange_pairs", 16, "torus-8x8x8.xml", "spread"),
    ("exchange_pairs", 16, "fattree-64.xml", "spread"),
    ("exchange_pairs", 16, "dragonfly-120.xml", "spread"),
    ("collectives", 4, "cluster-16.xml", "spread"),
    ("collectives", 7, "graphene.xml", "cabinets"),
    ("collectives", 16, "cluster-16.xml", "shared-hosts"),
    ("alltoall_sizes", 16, "cluster-16.xml", "spread"),
    ("alltoall_sizes", 32, "graphene.xml", "cabinets"),
    # intra-host traffic over FATPIPE loopback links (counted once despite cross-traffic)
    ("pingpong", 2, "../examples/replay-basic/cluster4.xml", "same-host"),
    ("collectives", 8, "../examples/replay-basic/cluster4.xml", "shared-hosts"),
]


def choose_hosts(platform: str, ranks: int, pattern: str):
    if pattern == "same-host":
        return [platform_hosts(platform, 1)[0]] * ranks
    if pattern == "shared-hosts":
        return [h for h in platform_hosts(platform, (ranks + 1) // 2) for _ in (0, 1)][:ranks]
    if pattern == "cabinets":  # graphene: spread over the four cabinets, so traffic crosses the 13 Gb limiters
        hosts = platform_hosts(platform, 144)
        return [hosts[(i * 37) % len(hosts)] for i in range(ranks)]
    hosts = platform_hosts(platform, 512)
    step = max(1, len(hosts) // ranks)
    return [hosts[(i * step) % len(hosts)] for i in range(ranks)]


def agree(index: str, platform: str, ranks: int, hostfile: str):
    reference = smpi_replay_time(index, platform, ranks, hostfile)
    ours = mpisim.replay(index, platform=platform, np=ranks, model="smpi", hostfile=hostfile).simulated_time
    assert reference > 0
    assert abs(ours - reference) / reference <= TOLERANCE, f"mpisim {ours} vs SimGrid {reference}"
    return ours, reference


@pytest.mark.parametrize("generator,ranks,platform,pattern", CASES,
                         ids=[f"{g}-{n}-{p.split('/')[-1].split('.')[0]}-{h}" for g, n, p, h in CASES])
def test_generated_trace_agrees_with_smpi(tmp_path, generator, ranks, platform, pattern):
    require_smpirun()
    platform_file = repo_path("platforms", platform)
    index = write_trace(str(tmp_path / "trace"), GENERATORS[generator](ranks))
    hostfile = write_hostfile(str(tmp_path / "hosts.txt"), choose_hosts(platform_file, ranks, pattern))
    agree(index, platform_file, ranks, hostfile)


NPB = [("lu.S.4.txt", 4), ("lu.S.16.txt", 16), ("cg.S.4.txt", 4), ("mg.S.4.txt", 4), ("ep.S.4.txt", 4),
       ("ft.S.4.txt", 4), ("is.S.4.txt", 4), ("bt.S.4.txt", 4), ("sp.S.4.txt", 4)]


@pytest.mark.parametrize("trace,ranks", NPB, ids=[t for t, _ in NPB])
def test_nas_trace_agrees_with_smpi_on_graphene(tmp_path, trace, ranks):
    require_smpirun()
    platform_file = repo_path("platforms", "graphene.xml")
    hostfile = write_hostfile(str(tmp_path / "hosts.txt"), choose_hosts(platform_file, ranks, "cabinets"))
    agree(repo_path("data", "traces", "npb", trace), platform_file, ranks, hostfile)
