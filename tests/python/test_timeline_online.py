"""Timelines of online runs (`mpisim run --timeline`): the same writers as the replay, fed by the online runtime.

ring (tests/online/ring.c) on 4 ranks makes, per rank, MPI_Init, two MPI_Send, two MPI_Recv and MPI_Finalize (its
MPI_Comm_rank/size are not timed calls): 24 slices, and 8 point-to-point messages (the token twice around 4 ranks).
Runs use --no-compute-time, so no computation burst comes between calls and the files are the same from run to run.

timeline_coll (tests/online/timeline_coll.c) on 4 ranks with the algorithms forced by --coll sends, inside its
collectives: bcast binomial_tree 3 messages (a tree over 4 ranks has 3 edges), allreduce rdb 8 (recursive doubling:
2 rounds of one message per rank), barrier ompi_basic_linear 6 (fan-in to rank 0, then fan-out), reduce
ompi_basic_linear 3 (each other rank to the root): 20 in all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import repo_path

SOURCES = repo_path("tests", "online")


def mpisim(*args, timeout=120):
    """`python -m mpisim ARGS`, running this checkout's sources when its native core is built next to them (as
    test_online.py does)."""
    env = dict(os.environ)
    if any(name.startswith("_core") for name in os.listdir(repo_path("src", "mpisim"))):
        env["PYTHONPATH"] = repo_path("src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=timeout,
                          env=env)

RING_CALLS = {"init": 1, "send": 2, "recv": 2, "finalize": 1}  # per rank
RING_MESSAGES = 8
FORCED = "bcast=binomial_tree,allreduce=rdb,barrier=ompi_basic_linear,reduce=ompi_basic_linear"
INSIDE = {"bcast": 3, "allreduce": 8, "barrier": 6, "reduce": 3}


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"mpisim cc unavailable: {probe.stderr}")
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("timeline-online")
    paths = {}
    for name in ("ring", "timeline_coll", "pingpong", "deadlock"):
        paths[name] = str(out / name)
        done = mpisim("cc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def run_with_timeline(programs, name, path, *options, np=4, arguments=()):
    done = mpisim("run", "-np", str(np), "--platform", "cluster:4", "--no-compute-time", "--quiet",
                  "--timeline", str(path), *options, programs[name], *arguments)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_chrome_states_and_arrows(programs, tmp_path):
    path = tmp_path / "ring.json"
    assert run_with_timeline(programs, "ring", path) == "token after 2 laps on 4 ranks: 12\n"
    document = json.loads(path.read_text())
    events = document["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    for e in slices:
        assert {"name", "ph", "ts", "dur", "pid", "tid"} <= e.keys(), e
        assert isinstance(e["ts"], (int, float)) and e["dur"] >= 0
        assert {"operation", "peer", "bytes", "tag", "communicator"} <= e["args"].keys(), e
    for rank in range(4):
        mine = [e["name"] for e in slices if e["tid"] == rank]
        assert {op: mine.count(op) for op in set(mine)} == RING_CALLS, (rank, mine)
    # Each send names its peer (world rank), size and tag; each message is one arrow from the send to the recv.
    sends = [e for e in slices if e["name"] == "send"]
    assert all(e["args"]["peer"] == (e["tid"] + 1) % 4 and e["args"]["bytes"] == 4 for e in sends)
    assert sorted(e["args"]["tag"] for e in sends) == [0, 0, 0, 0, 1, 1, 1, 1]
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(starts) == len(ends) == RING_MESSAGES and starts.keys() == ends.keys()
    for key, s in starts.items():
        f = ends[key]
        assert f["tid"] == (s["tid"] + 1) % 4 and s["ts"] <= f["ts"] and s["cat"] == "p2p"
        send = next(x for x in sends if x["tid"] == s["tid"] and x["ts"] == s["ts"])
        recv = [x for x in slices if x["tid"] == f["tid"] and x["name"] == "recv"
                and x["ts"] + x["dur"] == pytest.approx(f["ts"], abs=1e-3)]
        assert len(recv) == 1 and recv[0]["args"]["tag"] == send["args"]["tag"]
    assert document["otherData"]["mode"] == "online" and document["otherData"]["np"] == "4"


def test_same_bytes_twice(programs, tmp_path):
    # The same file name both times: the CSV header names its companion file.
    for extension in (".json", ".paje", ".csv"):
        path = tmp_path / f"ring{extension}"
        contents = []
        for _ in range(2):
            run_with_timeline(programs, "timeline_coll", path, "--timeline-internals", "--timeline-links")
            contents.append(path.read_bytes())
        assert contents[0] == contents[1] and len(contents[0]) > 1000, extension


def test_paje_and_csv(programs, tmp_path):
    from mpisim.timeline import read_timeline

    paje, csv = tmp_path / "ring.paje", tmp_path / "ring.csv"
    run_with_timeline(programs, "ring", paje)
    run_with_timeline(programs, "ring", csv)
    for path in (paje, csv):
        timeline = read_timeline(str(path))
        assert len(timeline.calls) == 4 * sum(RING_CALLS.values())
        assert len(timeline.messages) == RING_MESSAGES
        assert sorted(timeline.calls["operation"].astype(str).unique()) == sorted(RING_CALLS)
    if shutil.which("pj_dump"):
        done = subprocess.run(["pj_dump", str(paje)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        rows = [line.split(", ") for line in done.stdout.splitlines()]
        assert sum(r[0] == "State" for r in rows) == 4 * sum(RING_CALLS.values())
        assert sum(r[0] == "Link" for r in rows) == RING_MESSAGES


def test_collective_internal_arrows(programs, tmp_path):
    path = tmp_path / "coll.json"
    assert run_with_timeline(programs, "timeline_coll", path, "--coll", FORCED,
                             "--timeline-internals") == "timeline_coll PASSED\n"
    events = json.loads(path.read_text())["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert all(e["cat"] == "collective" for e in starts.values())
    assert len(starts) == len(ends) == sum(INSIDE.values()) and starts.keys() == ends.keys()
    # Each arrow starts inside a collective of its source and ends at the end of the same collective of its
    # destination (exact ids: no arrow ends in the next collective). The algorithms tag their messages per
    # collective: all the arrows of one tag belong to one operation.
    def operations_at(point, at_end):
        return {x["name"] for x in slices if x["tid"] == point["tid"] and x["name"] in INSIDE and (
            x["ts"] + x["dur"] == pytest.approx(point["ts"], abs=1e-3) if at_end
            else x["ts"] - 1e-3 <= point["ts"] <= x["ts"] + x["dur"] + 1e-3)}
    by_tag = {}
    for key, s in starts.items():
        both = operations_at(s, False) & operations_at(ends[key], True)
        assert both, (s, ends[key])
        by_tag.setdefault(s["args"]["tag"], []).append(both)
    counted = {}
    for tag, candidates in by_tag.items():
        common = set.intersection(*candidates)
        assert len(common) == 1, (tag, candidates)
        counted[common.pop()] = len(candidates)
    assert counted == INSIDE
    # Without --timeline-internals, collectives are slices only.
    run_with_timeline(programs, "timeline_coll", path, "--coll", FORCED)
    assert not [e for e in json.loads(path.read_text())["traceEvents"] if e["ph"] in "sf"]


def test_links_and_gantt_panel(programs, tmp_path):
    from mpisim.timeline import read_timeline

    path = tmp_path / "pingpong.json"
    run_with_timeline(programs, "pingpong", path, "--timeline-links", np=2, arguments=("1000000",))
    timeline = read_timeline(str(path))
    assert len(timeline.links) > 0 and set(timeline.links.columns) >= {"link", "time", "used", "flows"}
    assert timeline.links["used"].max() > 0
    image = tmp_path / "gantt.png"
    done = mpisim("gantt", str(path), "-o", str(image), "--size", "800x600", "--links", "top:2")
    assert done.returncode == 0, done.stderr
    from matplotlib.image import imread

    pixels = imread(str(image))
    assert pixels.shape[:2] == (600, 800) and pixels[..., :3].std() > 0.05
    # The link panel is what differs from the chart without links: its lines, low in the image.
    bare = tmp_path / "bare.png"
    assert mpisim("gantt", str(path), "-o", str(bare), "--size", "800x600", "--links", "none").returncode == 0
    assert (imread(str(bare))[..., :3] != pixels[..., :3]).any(axis=2)[450:550].sum() > 500
    page = tmp_path / "gantt.html"
    assert mpisim("gantt", str(path), "-o", str(page), "--links", "top:1").returncode == 0
    text = page.read_text()
    assert text.count('class="plot links"') == 1 and text.count("<polyline") == 1


def test_timeline_options_need_a_file(programs):
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--timeline-links", programs["ring"])
    assert done.returncode == 2 and "need --timeline FILE" in done.stderr
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--timeline", "x.txt", programs["ring"])
    assert done.returncode == 2 and "cannot tell the timeline format" in done.stderr


def test_failed_run_still_writes_its_timeline(programs, tmp_path):
    # deadlock.c: both ranks receive first. The file is complete up to the deadlock: each rank's MPI_Init.
    path = tmp_path / "deadlock.json"
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", "--no-compute-time", "--timeline",
                  str(path), programs["deadlock"])
    assert done.returncode == 124 and "deadlock" in done.stderr
    slices = [e for e in json.loads(path.read_text())["traceEvents"] if e["ph"] == "X"]
    assert sorted((e["tid"], e["name"]) for e in slices) == [(0, "init"), (1, "init")]


def test_computation_annotations_are_compute_slices(programs, tmp_path):
    """smpi_execute_flops and SMPI_SAMPLE_FLOPS inject computation as the measured bursts do: each is a compute slice
    with its flops (tests/online/sampling.c: SAMPLE_FLOPS(1e9) and smpi_execute_flops(5e8) per rank)."""
    binary = str(tmp_path / "sampling")
    done = mpisim("cc", "-O1", os.path.join(SOURCES, "sampling.c"), "-o", binary, "-lm")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "sampling.json"
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--no-compute-time", "--host-speed", "2Gf", "--quiet",
                  "--timeline", str(path), binary)
    assert done.returncode == 0, done.stderr
    slices = [e for e in json.loads(path.read_text())["traceEvents"] if e["ph"] == "X" and e["name"] == "compute"]
    for rank in range(2):
        flops = sorted(e["args"].get("flops", 0) for e in slices if e["tid"] == rank)
        assert 1e9 in flops and 5e8 in flops, (rank, flops)
