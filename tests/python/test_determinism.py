"""Determinism is a tested feature (issue 13): the same inputs give the same output, byte for byte. A replay and an
online run (computation not timed: --no-compute-time) are each run twice; their `--json` summaries must be the same
text except the one entry "host" (real time taken, host speed: what the machine and the moment add; docs/replay.md
and docs/online.md), and their timelines the same in every byte.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import repo_path

# The "host" entry of a summary, in one piece: its values are numbers, it holds no nested object.
HOST_ENTRY = re.compile(r'"host": \{[^{}]*\}')


def run_mpisim(*args, timeout=300):
    """`python -m mpisim ARGS`, running this checkout's sources when its native core is built next to them (as
    test_online.py does)."""
    env = dict(os.environ)
    if any(name.startswith("_core") for name in os.listdir(repo_path("src", "mpisim"))):
        env["PYTHONPATH"] = repo_path("src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


def mpisim(*args):
    done = run_mpisim(*args)
    assert done.returncode == 0, done.stderr
    return done


def without_host(summary: str) -> str:
    entries = HOST_ENTRY.findall(summary)
    assert len(entries) == 1 and "wall_seconds" in entries[0], summary  # one entry, so nothing else can hide there
    return HOST_ENTRY.sub('"host": {}', summary)


def twice(run, timeline):
    """(summary, timeline bytes) of two runs; the same timeline path both times (a CSV names its companion file)."""
    outputs = []
    for _ in range(2):
        summary = run()
        outputs.append((summary, timeline.read_bytes()))
    return outputs


@pytest.mark.parametrize("trace, platform, extension, options", [
    ("examples/replay-basic/index.txt", "examples/replay-basic/cluster4.xml", ".json", ()),
    ("data/traces/npb/lu.S.4.txt", "platforms/graphene.xml", ".paje", ("--model", "fluid", "--timeline-links")),
    ("data/traces/npb/cg.S.4.txt", "platforms/fattree-64.xml", ".csv",
     ("--coll-selector", "ompi", "--timeline-internals")),
])
def test_replay_twice_gives_the_same_bytes(tmp_path, trace, platform, extension, options):
    timeline = tmp_path / f"timeline{extension}"
    runs = twice(lambda: mpisim("replay", repo_path(trace), "--platform", repo_path(platform), "--json",
                                "--timeline", str(timeline), *options).stdout, timeline)
    (first_summary, first_timeline), (second_summary, second_timeline) = runs
    assert without_host(first_summary) == without_host(second_summary)
    assert first_timeline == second_timeline and len(first_timeline) > 1000


@pytest.fixture(scope="module")
def timeline_coll(tmp_path_factory):
    probe = run_mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"mpisim cc unavailable: {probe.stderr}")
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    program = str(tmp_path_factory.mktemp("determinism") / "timeline_coll")
    mpisim("cc", "-O1", repo_path("tests", "online", "timeline_coll.c"), "-o", program)
    return program


def test_online_run_twice_gives_the_same_bytes(tmp_path, timeline_coll):
    summary, timeline = tmp_path / "summary.json", tmp_path / "timeline.json"

    def run():
        mpisim("run", "-np", "4", "--platform", "cluster:4", "--no-compute-time", "--json", "--summary", str(summary),
               "--timeline", str(timeline), "--timeline-internals", timeline_coll)
        return summary.read_text()

    (first_summary, first_timeline), (second_summary, second_timeline) = twice(run, timeline)
    assert without_host(first_summary) == without_host(second_summary)
    assert first_timeline == second_timeline and len(first_timeline) > 1000
    # Without --host-speed the speed is measured: it lives under "host", and the inputs say it was not given.
    assert '"host_speed": null' in first_summary.split('"host"')[0]
