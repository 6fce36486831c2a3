"""Timelines: `mpisim replay --timeline` in each format (parsed and counted against the trace), read back by
mpisim.timeline, and drawn by `mpisim gantt` (images of the expected size that are not blank).

examples/replay-basic has 36 actions, 28 of them reported (init and finalize are not), 3 point-to-point messages and
27 messages inside its collectives (bcast 3, allreduce 6, barrier 6, alltoall 12)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import repo_path

FOLDER = repo_path("examples", "replay-basic")
CALLS = 28
POINT_TO_POINT = 3
INSIDE_COLLECTIVES = 27


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def replay_into(path, *extra):
    code, out, err = run_cli("replay", f"{FOLDER}/index.txt", "--platform", f"{FOLDER}/cluster4.xml",
                             "--timeline", str(path), *extra)
    assert code == 0, err
    return out


# ------------------------------------------------------------------------------------------------ chrome json

def test_chrome_trace_schema(tmp_path):
    import mpisim

    path = tmp_path / "run.json"
    replay_into(path)
    with open(path) as stream:
        document = json.load(stream)
    events = document["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    assert len(slices) == CALLS
    for e in slices:
        assert {"name", "ph", "ts", "dur", "pid", "tid"} <= e.keys(), e
        assert isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        assert {"operation", "peer", "bytes", "tag", "communicator"} <= e["args"].keys(), e
        assert e["name"] == e["args"]["operation"] and e["pid"] == 0 and 0 <= e["tid"] < 4
    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {r: f"rank {r}" for r in range(4)}

    # Flows pair up (one s and one f per id, same name and category), run forward in time, and each flow event lies
    # within a slice of its own track: the slice it is bound to.
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(starts) == len([e for e in events if e["ph"] == "s"]) == POINT_TO_POINT
    assert starts.keys() == ends.keys()
    for key, s in starts.items():
        f = ends[key]
        assert (s["name"], s["cat"]) == (f["name"], f["cat"]) == ("message", "p2p")
        assert f["bp"] == "e" and s["ts"] <= f["ts"]
        for point in (s, f):
            assert any(x["tid"] == point["tid"] and x["ts"] <= point["ts"] <= x["ts"] + x["dur"] + 1e-3
                       for x in slices), point

    # Rank 3's 1 MB send to rank 0 (tag 7) starts at 0 and is received by rank 0's `wait 3 0 7`.
    s = next(e for e in starts.values() if e["tid"] == 3)
    wait = next(x for x in slices if x["tid"] == 0 and x["name"] == "wait")
    assert s["ts"] == 0 and ends[s["id"]]["tid"] == 0
    assert ends[s["id"]]["ts"] == pytest.approx(wait["ts"] + wait["dur"], abs=1e-3)

    other = document["otherData"]
    assert other["mpisim_version"] == mpisim.__version__ and other["model"] == "smpi"
    assert other["trace"].endswith("index.txt")


def test_chrome_trace_with_collective_internals(tmp_path):
    path = tmp_path / "run.json"
    replay_into(path, "--timeline-internals")
    with open(path) as stream:
        events = json.load(stream)["traceEvents"]
    starts = [e for e in events if e["ph"] == "s"]
    ends = [e for e in events if e["ph"] == "f"]
    assert len(starts) == len(ends) == POINT_TO_POINT + INSIDE_COLLECTIVES
    assert sum(e["cat"] == "collective" for e in starts) == INSIDE_COLLECTIVES
    assert sorted(e["id"] for e in starts) == sorted(e["id"] for e in ends)


# ------------------------------------------------------------------------------------------------------- paje

def pj_dump(path):
    done = subprocess.run(["pj_dump", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = [line.split(", ") for line in done.stdout.splitlines()]
    return [r for r in rows if r[0] == "State"], [r for r in rows if r[0] == "Link"]


@pytest.mark.skipif(shutil.which("pj_dump") is None, reason="pajeng is not installed (scripts/install-deps.sh)")
@pytest.mark.parametrize("extension,internals", [(".paje", False), (".trace", True)])
def test_paje_validated_by_pajeng(tmp_path, extension, internals):
    path = tmp_path / f"run{extension}"
    replay_into(path, *(["--timeline-internals"] if internals else []))
    states, links = pj_dump(path)
    assert len(states) == CALLS
    assert len(links) == POINT_TO_POINT + (INSIDE_COLLECTIVES if internals else 0)
    # State, container, type, start, end, duration, imbrication, value
    send = [s for s in states if s[1] == "rank 0" and s[7] == "send"]
    assert len(send) == 1 and float(send[0][3]) == pytest.approx(1.0)
    assert {s[1] for s in states} == {f"rank {r}" for r in range(4)}


# -------------------------------------------------------------------------------------------------------- csv

def test_csv_rows(tmp_path):
    import pandas as pd

    path = tmp_path / "run.csv"
    replay_into(path)
    calls = pd.read_csv(path, comment="#")
    assert list(calls.columns)[:9] == ["rank", "operation", "start", "end", "duration", "peer", "bytes", "tag",
                                       "communicator"]
    assert len(calls) == CALLS
    assert (calls["end"] - calls["start"] - calls["duration"]).abs().max() < 1e-12
    messages = pd.read_csv(tmp_path / "run.messages.csv", comment="#")
    assert len(messages) == POINT_TO_POINT
    assert set(messages["protocol"]) <= {"eager", "detached", "rendezvous"}
    with open(path) as stream:
        assert any(line.startswith("# mpisim_version: ") for line in stream)


def test_format_by_name_and_bad_requests(tmp_path):
    path = tmp_path / "run.out"
    replay_into(path, "--timeline-format", "csv")
    assert (tmp_path / "run.out.messages.csv").exists()

    code, out, err = run_cli("replay", f"{FOLDER}/index.txt", "--platform", f"{FOLDER}/cluster4.xml",
                             "--timeline", str(tmp_path / "run.txt"))
    assert code == 2 and out == ""
    assert "cannot tell the timeline format from the file name" in err and ".paje (paje)" in err
    code, _, err = run_cli("replay", f"{FOLDER}/index.txt", "--platform", f"{FOLDER}/cluster4.xml",
                           "--timeline", str(path), "--timeline-format", "vampir")
    assert code == 2 and "unknown timeline format 'vampir' (valid formats: chrome, csv, otf2, paje)" in err
    code, _, err = run_cli("replay", f"{FOLDER}/index.txt", "--platform", f"{FOLDER}/cluster4.xml",
                           "--timeline-internals")
    assert code == 2 and "need --timeline FILE" in err


def test_deadlocked_run_still_writes_its_timeline(tmp_path):
    trace = tmp_path / "trace.txt"
    trace.write_text("0 init\n0 compute 1e9\n0 recv 1 0 10\n1 init\n1 recv 0 0 10\n")
    path = tmp_path / "run.json"
    code, _, err = run_cli("replay", str(trace), "--platform", f"{FOLDER}/cluster4.xml", "--timeline", str(path))
    assert code == 124, err
    with open(path) as stream:
        events = json.load(stream)["traceEvents"]
    assert [e["name"] for e in events if e["ph"] == "X"] == ["compute"]


# ---------------------------------------------------------------------------------------------------- reading

def test_the_three_formats_read_back_alike(tmp_path):
    from mpisim.timeline import read_timeline

    frames = {}
    for extension in (".json", ".paje", ".csv"):
        replay_into(tmp_path / f"run{extension}")
        frames[extension] = read_timeline(str(tmp_path / f"run{extension}"))
    def ordered(calls):
        calls = calls.assign(operation=calls["operation"].astype(str))
        return calls.sort_values(["rank", "start", "end", "operation"], kind="stable").reset_index(drop=True)

    reference = ordered(frames[".csv"].calls)
    assert frames[".csv"].provenance["model"] == "smpi"
    for extension in (".json", ".paje"):
        calls = ordered(frames[extension].calls)
        assert len(calls) == CALLS
        assert list(calls["rank"]) == list(reference["rank"])
        assert list(calls["operation"]) == list(reference["operation"])
        assert (calls["start"] - reference["start"]).abs().max() < 1e-9  # files keep whole nanoseconds
        assert (calls["end"] - reference["end"]).abs().max() < 1e-9
        assert len(frames[extension].messages) == POINT_TO_POINT
        assert frames[extension].provenance["model"] == "smpi"


def test_reads_recorded_timelines(tmp_path):
    """`mpisim record`'s timeline.json: MPI_ names, a trailing comma per event, communicators named by strings."""
    from mpisim.gantt import canonical_operation
    from mpisim.timeline import read_timeline

    path = tmp_path / "timeline.json"
    path.write_text('{"traceEvents":[\n'
                    '{"name":"process_name","ph":"M","pid":0,"args":{"name":"mpirun -np 2 ./app"}},\n'
                    '{"name":"MPI_Init","ph":"X","pid":0,"tid":0,"ts":0.000,"dur":12.500,"args":{"actions":0}},\n'
                    '{"name":"MPI_Send","ph":"X","pid":0,"tid":1,"ts":20.000,"dur":3.000,'
                    '"args":{"peer":0,"bytes":800,"tag":1,"comm":"world","actions":1}}\n'
                    '],\n"displayTimeUnit":"ms",\n"otherData":{"mpisim_version":"0.1.0","ranks":2}}\n')
    timeline = read_timeline(str(path))
    assert list(timeline.calls["rank"]) == [0, 1]
    assert list(timeline.calls["operation"].astype(str)) == ["MPI_Init", "MPI_Send"]
    assert timeline.calls["end"].iloc[1] == pytest.approx(23e-6)
    assert timeline.calls["communicator"].iloc[1] == "world"
    assert timeline.provenance["ranks"] == "2"
    assert [canonical_operation(n) for n in ("MPI_Allreduce", "MPI_Sendrecv", "allreduce", "MPI_Init", "Foo")] == \
        ["allreduce", "sendRecv", "allreduce", "init", "Foo"]


# ------------------------------------------------------------------------------------------------------ gantt

def read_png(path):
    import matplotlib.image

    return matplotlib.image.imread(str(path))


def assert_not_blank(image):
    rgb = image[:, :, :3]
    assert rgb.var() > 0.01, "the image is (nearly) uniform"
    assert (rgb.sum(axis=2) < 2.9).mean() > 0.05, "too little is drawn"


def test_gantt_png_has_the_requested_size_and_is_not_blank(tmp_path):
    path = tmp_path / "run.json"
    replay_into(path)
    out = tmp_path / "gantt.png"
    code, _, err = run_cli("gantt", str(path), "-o", str(out), "--size", "1200x700", "--messages")
    assert code == 0, err
    image = read_png(out)
    assert image.shape[:2] == (700, 1200)
    assert_not_blank(image)


def test_gantt_two_timelines_one_above_the_other(tmp_path):
    replay_into(tmp_path / "a.json")
    code, _, err = run_cli("replay", f"{FOLDER}/index.txt", "--platform", f"{FOLDER}/cluster4.xml", "--model",
                           "loggps", "--timeline", str(tmp_path / "b.paje"))
    assert code == 0, err
    out = tmp_path / "both.png"
    code, _, err = run_cli("gantt", str(tmp_path / "a.json"), str(tmp_path / "b.paje"), "-o", str(out))
    assert code == 0, err
    image = read_png(out)
    assert image.shape[:2] == (900, 1600)
    # Each half of the image holds a chart.
    assert_not_blank(image[:450])
    assert_not_blank(image[450:])


def test_gantt_svg_and_window(tmp_path):
    replay_into(tmp_path / "run.csv")
    out = tmp_path / "window.svg"
    code, _, err = run_cli("gantt", str(tmp_path / "run.csv"), "-o", str(out), "--ranks", "0-1", "--from", "1",
                           "--to", "2.1")
    assert code == 0, err
    assert "<svg" in out.read_text()
    code, out_text, err = run_cli("gantt", str(tmp_path / "run.csv"), "-o", str(tmp_path / "x.png"), "--ranks",
                                  "9")
    assert code == 2 and "nothing to draw" in err
    code, _, err = run_cli("gantt", str(tmp_path / "run.csv"), "-o", str(tmp_path / "x.png"), "--ranks", "a-b")
    assert code == 2 and "--ranks expects" in err


def test_gantt_html_is_self_contained(tmp_path):
    replay_into(tmp_path / "run.json", "--timeline-internals")
    out = tmp_path / "gantt.html"
    code, _, err = run_cli("gantt", str(tmp_path / "run.json"), "-o", str(out), "--messages")
    assert code == 0, err
    text = out.read_text()
    assert "<svg" in text and "<script>" in text and 'class="o' in text
    # No network resource: the only URL is the SVG namespace.
    assert text.count("http") == text.count("http://www.w3.org/2000/svg")


def test_dominant_operation_raster():
    """One rank over [0, 1] s on 2 pixel columns: compute on [0, 0.6], send on [0.6, 1]. Column 0 ([0, 0.5]) is all
    compute; column 1 ([0.5, 1]) holds 0.1 s of compute and 0.4 s of send: send dominates."""
    import numpy as np

    from mpisim.gantt import Panel, raster

    panel = Panel("t", [0], np.array([0, 0]), np.array([0, 1]), np.array([0.0, 0.6]), np.array([0.6, 1.0]),
                  (np.zeros(0),) * 4, 2)
    assert raster(panel, 0.0, 1.0, 2, 10, 2).tolist() == [[0, 1]]
    # On 4 columns: compute, compute, send (0.1 compute, 0.15 send), send; an idle gap stays empty (-1).
    assert raster(panel, 0.0, 1.0, 4, 10, 2).tolist() == [[0, 0, 1, 1]]
    assert raster(panel, 0.0, 2.0, 4, 10, 2).tolist() == [[0, 1, -1, -1]]


def test_gantt_aggregates_large_timelines(tmp_path):
    """300 ranks x 1000 calls: more than the 200 000 slices drawn one by one, so cells show dominant operations."""
    import numpy as np
    import pandas as pd

    ranks, per_rank = 300, 1000
    rank = np.repeat(np.arange(ranks), per_rank)
    start = np.tile(np.arange(per_rank, dtype=float), ranks) * 1e-3
    operation = np.where(np.arange(ranks * per_rank) % 2 == 0, "compute", "allreduce")
    pd.DataFrame({"rank": rank, "operation": operation, "start": start, "end": start + 1e-3,
                  "duration": 1e-3, "peer": -1, "bytes": 0, "tag": 0, "communicator": 0}).to_csv(
        tmp_path / "big.csv", index=False)
    for name in ("big.png", "big.html"):
        out = tmp_path / name
        code, _, err = run_cli("gantt", str(tmp_path / "big.csv"), "-o", str(out), "--size", "800x600")
        assert code == 0, err
    assert_not_blank(read_png(tmp_path / "big.png"))
    assert "dominant operation" in (tmp_path / "big.html").read_text()


# ------------------------------------------------------------------------------------------------ exact arrows

def test_arrows_follow_message_ids(tmp_path):
    """Two messages from rank 1 to rank 0 with tag 0, posted at the same date by two isends, the second (10 bytes)
    arriving before the first (60 000 bytes). Rank 0 waits for them after a 0.1 s computation, one wait each, with a
    1 ms computation between the waits. MPI matches in posting order: the first wait completes the 60 000-byte
    message, the second the 10-byte one, and so must the arrows end (without message ids, same-date posting and
    arrival order sent the small message to the first wait)."""
    (tmp_path / "r0.txt").write_text("0 irecv 1 0 60000\n0 irecv 1 0 10\n0 compute 1e8\n0 wait 1 0 0\n"
                                     "0 compute 1e6\n0 wait 1 0 0\n")
    (tmp_path / "r1.txt").write_text("1 isend 0 0 60000\n1 isend 0 0 10\n1 waitall\n")
    (tmp_path / "index.txt").write_text(f"{tmp_path}/r0.txt\n{tmp_path}/r1.txt\n")
    code, out, err = run_cli("replay", str(tmp_path / "index.txt"), "--platform", f"{FOLDER}/cluster4.xml",
                             "--timeline", str(tmp_path / "run.json"), "--timeline-format", "chrome")
    assert code == 0, err
    events = json.loads((tmp_path / "run.json").read_text())["traceEvents"]
    waits = sorted(e["ts"] + e["dur"] for e in events if e["ph"] == "X" and e["tid"] == 0 and e["name"] == "wait")
    sends = sorted(e["ts"] for e in events if e["ph"] == "X" and e["tid"] == 1 and e["name"] == "isend")
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    assert len(starts) == len(ends) == 2 and len(waits) == 2 and waits[1] > waits[0] + 0.9e3  # 1 ms apart, in us
    by_size = {starts[i]["args"]["bytes"]: (starts[i]["ts"], ends[i]["ts"]) for i in starts}
    assert by_size == {60000: (sends[0], waits[0]), 10: (sends[1], waits[1])}
    # Each start event is written right after its own isend slice (that is how viewers bind it): first message first.
    order = [e for e in events if e["ph"] in ("X", "s") and e["tid"] == 1]
    assert [(e["ph"], e["name"] if e["ph"] == "X" else e["args"]["bytes"]) for e in order[:4]] == [
        ("X", "isend"), ("s", 60000), ("X", "isend"), ("s", 10)]
