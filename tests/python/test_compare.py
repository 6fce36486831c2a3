"""`mpisim compare REAL SIM` on a hand-made pair of timelines whose errors are worked out below, and on bad input.

The real run (Chrome JSON as `mpisim record` writes it, microseconds) and its simulation (CSV, seconds), 2 ranks:

    rank call  real                         real (us)  simulated slices                    sim (us)  error    slowdown
    0    1     MPI_Send       1000..1200     200        send 1000..1050                       50      -75 %    +300 %
    0    2     MPI_Allreduce  2000..2500     500        allreduce 2000..2400                 400      -20 %     +25 %
    0    3     MPI_Sendrecv   3000..3300     300        sendRecv 3000..3240                  240      -20 %     +25 %
    1    1     MPI_Recv       1000..1250     250        recv 1000..1250                      250        0 %       0 %
    1    2     MPI_Allreduce  2000..2400     400        allreduce 2000..2450                 450    +12.5 %   -11.1 %
    1    3     MPI_Sendrecv   3000..3300     300        isend, recv, wait 3000..3180         180      -40 %   +66.7 %
               (3 trace lines: actions 3)

error = (sim - real) / real, slowdown = real / sim - 1. MPI_Init, MPI_Comm_size, MPI_Probe (0 lines) and
MPI_Finalize have no simulated slice; the simulated computations have no real call: all are skipped.

Per operation: send 200 vs 50 (-75 %), recv 250 vs 250 (0), allreduce 900 vs 850 (-5.56 %), sendRecv 600 vs 420
(-30 %). Per rank: 0: 1000 vs 690 (-31 %), 1: 950 vs 880 (-7.37 %). Largest |sim - real|: rank 0's send (150 us),
rank 1's sendrecv (120), rank 0's allreduce (100), rank 0's sendrecv (60), rank 1's allreduce (50), rank 1's recv (0).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

REAL_EVENTS = [
    # rank, name, ts (us), dur (us), actions
    (0, "MPI_Init", 0, 100, 1), (0, "MPI_Comm_size", 150, 1, 1), (0, "MPI_Send", 1000, 200, 1),
    (0, "MPI_Allreduce", 2000, 500, 1), (0, "MPI_Sendrecv", 3000, 300, 1), (0, "MPI_Finalize", 4000, 10, 1),
    (1, "MPI_Init", 0, 100, 1), (1, "MPI_Probe", 900, 50, 0), (1, "MPI_Recv", 1000, 250, 1),
    (1, "MPI_Allreduce", 2000, 400, 1), (1, "MPI_Sendrecv", 3000, 300, 3), (1, "MPI_Finalize", 4000, 10, 1),
]
SIM_ROWS = [
    # rank, operation, start (s), end (s)
    (0, "compute", 0.0, 0.001), (0, "send", 0.001, 0.00105), (0, "compute", 0.00105, 0.002),
    (0, "allreduce", 0.002, 0.0024), (0, "sendRecv", 0.003, 0.00324),
    (1, "recv", 0.001, 0.00125), (1, "allreduce", 0.002, 0.00245), (1, "isend", 0.003, 0.00301),
    (1, "recv", 0.00301, 0.0031), (1, "wait", 0.0031, 0.00318),
]


def write_real(path, events=REAL_EVENTS):
    lines = ['{"traceEvents":[', '{"name":"process_name","ph":"M","pid":0,"args":{"name":"mpisim-record"}}']
    for rank, name, ts, dur, actions in events:
        lines.append(f',{{"name":"{name}","ph":"X","pid":0,"tid":{rank},"ts":{ts:.3f},"dur":{dur:.3f},'
                     f'"args":{{"peer":-1,"bytes":0,"comm":"world","actions":{actions}}}}}')
    lines.append('],"displayTimeUnit":"ms","otherData":{"mpisim_version":"test"}}')
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def write_sim(path, rows=SIM_ROWS):
    text = "rank,operation,start,end,duration,peer,bytes,tag,communicator,flops\n"
    text += "".join(f"{r},{op},{a!r},{b!r},{b - a!r},-1,0,0,0,0\n" for r, op, a, b in rows)
    path.write_text(text)
    return str(path)


@pytest.fixture
def pair(tmp_path):
    return write_real(tmp_path / "timeline.json"), write_sim(tmp_path / "sim.csv")


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


US = 1e-6


def test_matched_calls_and_errors(pair):
    from mpisim.compare import compare_files

    result = compare_files(*pair)
    got = [(c.rank, c.index, c.operation, round(c.real / US, 6), round(c.sim / US, 6)) for c in result.calls]
    assert got == [(0, 0, "MPI_Send", 200, 50), (0, 1, "MPI_Allreduce", 500, 400), (0, 2, "MPI_Sendrecv", 300, 240),
                   (1, 0, "MPI_Recv", 250, 250), (1, 1, "MPI_Allreduce", 400, 450), (1, 2, "MPI_Sendrecv", 300, 180)]
    assert [c.error for c in result.calls] == pytest.approx([-0.75, -0.2, -0.2, 0, 0.125, -0.4])
    assert [c.slowdown for c in result.calls] == pytest.approx([3, 0.25, 0.25, 0, 400 / 450 - 1, 300 / 180 - 1])
    sendrecv = result.calls[-1]
    assert (sendrecv.sim_start, sendrecv.sim_end) == pytest.approx((0.003, 0.00318))
    assert (sendrecv.real_start, sendrecv.real_end) == pytest.approx((0.003, 0.0033))

    assert [(t.name, t.calls) for t in result.per_operation] == [("allreduce", 2), ("recv", 1), ("send", 1),
                                                                  ("sendRecv", 2)]
    per_operation = [(t.real / US, t.sim / US, t.error) for t in result.per_operation]
    assert per_operation == [pytest.approx(v) for v in [(900, 850, -50 / 900), (250, 250, 0), (200, 50, -0.75),
                                                         (600, 420, -0.3)]]
    assert [t.name for t in result.per_rank] == ["0", "1"]
    per_rank = [(t.real / US, t.sim / US, t.error) for t in result.per_rank]
    assert per_rank == [pytest.approx((1000, 690, -0.31)), pytest.approx((950, 880, -70 / 950))]

    assert [(c.rank, c.index) for c in result.largest(4)] == [(0, 0), (1, 2), (0, 1), (0, 2)]
    assert [(c.rank, c.index) for c in result.slower_than(0.3)] == [(0, 0), (1, 2)]
    assert [(c.rank, c.index) for c in result.slower_than(0.2)] == [(0, 0), (1, 2), (0, 1), (0, 2)]


def test_cli_report_json_csv_and_plot(pair, tmp_path):
    code, out, err = run_cli("compare", *pair, "--slower-than", "0.3", "--top", "3")
    assert code == 0, err
    assert "6 calls matched" in out and "2 call(s) slower in reality than predicted by more than 30%" in out
    assert "-75.0%" in out and "4.0x" in out  # the error, and the slowdown as a factor from 2x on

    code, out, err = run_cli("compare", *pair, "--json", "--slower-than", "0.3", "--csv", str(tmp_path / "calls.csv"),
                             "-o", str(tmp_path / "compare.png"))
    assert code == 0, err
    document = json.loads(out)
    assert document["calls"] == 6
    assert document["total"]["real"] == pytest.approx(1950 * US) and document["total"]["sim"] == pytest.approx(
        1570 * US)
    assert [c["operation"] for c in document["slower_than"]["calls"]] == ["MPI_Send", "MPI_Sendrecv"]
    largest = document["largest"][0]
    assert (largest["rank"], largest["operation"]) == (0, "MPI_Send")
    assert (largest["real_start"], largest["real_end"], largest["sim_start"], largest["sim_end"]) == pytest.approx(
        (0.001, 0.0012, 0.001, 0.00105))
    with open(tmp_path / "calls.csv") as stream:
        rows = list(csv.DictReader(line for line in stream if not line.startswith("#")))
    assert len(rows) == 6 and float(rows[0]["error"]) == pytest.approx(-0.75)
    assert (tmp_path / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_file(pair, tmp_path):
    code, out, err = run_cli("compare", str(tmp_path / "nowhere.json"), pair[1])
    assert code == 2
    assert err.strip().splitlines() == [f"mpisim: {tmp_path / 'nowhere.json'}: no such file"]


def test_mismatched_operation_names_the_first_difference(tmp_path):
    rows = [(r, "bcast" if (r, op) == (1, "allreduce") else op, a, b) for r, op, a, b in SIM_ROWS]
    real, sim = write_real(tmp_path / "timeline.json"), write_sim(tmp_path / "sim.csv", rows)
    code, out, err = run_cli("compare", real, sim)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "rank 1, call 2 (MPI_Allreduce at 0.002 s)" in lines[0] and "bcast at 0.002 s" in lines[0]


def test_mismatched_call_counts(tmp_path):
    real = write_real(tmp_path / "timeline.json")
    code, _, err = run_cli("compare", real, write_sim(tmp_path / "short.csv", SIM_ROWS[:-1]))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "rank 1, call 3 (MPI_Sendrecv at 0.003 s): the simulated run has no matching call" in err
    longer = SIM_ROWS + [(0, "barrier", 0.004, 0.005)]
    code, _, err = run_cli("compare", real, write_sim(tmp_path / "long.csv", longer))
    assert code == 2 and "rank 0: the simulated run has more calls: barrier at 0.004 s" in err
    code, _, err = run_cli("compare", real, write_sim(tmp_path / "ranks.csv", SIM_ROWS + [(2, "send", 0, 1)]))
    assert code == 2 and "ranks differ: only" in err and "rank(s) 2" in err


def test_two_simulated_timelines_and_bad_files(tmp_path):
    """REAL may be a simulated timeline too (two models of one trace); a folder or a non-timeline is one line."""
    sim = write_sim(tmp_path / "sim.csv")
    code, out, err = run_cli("compare", sim, sim, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["calls"] == 8 and document["total"]["error"] == 0  # compute rows skipped, multi-slice calls split
    code, _, err = run_cli("compare", str(tmp_path), sim)
    assert code == 2 and err.strip().splitlines() == [f"mpisim: {tmp_path}: not a file"]
    (tmp_path / "broken.json").write_text("{not json")
    code, _, err = run_cli("compare", str(tmp_path / "broken.json"), sim)
    assert code == 2 and len(err.strip().splitlines()) == 1 and f"{tmp_path / 'broken.json'}: not a Chrome" in err


# ----------------------------------------------------------------------------------------------- MPI-IO calls

# One rank: a pointer write (recorded as `file_write_at`), a non-blocking write completed by MPI_Wait (`file_wait`),
# a split collective (`_begin` posted as `file_iwrite_at_all`, `_end` as its `file_wait`), a Waitall over two file
# accesses.
IO_EVENTS = [
    (0, "MPI_Init", 0, 100, 1), (0, "MPI_File_open", 200, 100, 1), (0, "MPI_File_set_view", 350, 10, 0),
    (0, "MPI_File_write", 400, 600, 1), (0, "MPI_File_iwrite_at", 1100, 10, 1), (0, "MPI_Wait", 1200, 300, 1),
    (0, "MPI_File_write_all_begin", 1600, 350, 1), (0, "MPI_File_write_all_end", 2100, 5, 1),
    (0, "MPI_File_iread_at", 2200, 10, 1), (0, "MPI_File_iread_at", 2300, 10, 1), (0, "MPI_Waitall", 2400, 100, 2),
    (0, "MPI_File_close", 2600, 50, 1), (0, "MPI_Finalize", 3000, 10, 1),
]
IO_ROWS = [
    (0, "file_open", 0.0002, 0.0003), (0, "file_write_at", 0.0004, 0.0006), (0, "file_iwrite_at", 0.0011, 0.0011),
    (0, "file_wait", 0.0012, 0.0013), (0, "file_iwrite_at_all", 0.0016, 0.0016),
    (0, "file_wait", 0.0021, 0.00235), (0, "file_iread_at", 0.0022, 0.0022),
    (0, "file_iread_at", 0.0023, 0.0023), (0, "file_wait", 0.0024, 0.00245), (0, "file_wait", 0.00245, 0.0025),
    (0, "file_close", 0.0026, 0.00265),
]


def test_mpi_io_calls_match_the_replayed_file_actions(tmp_path):
    from mpisim.compare import compare_files

    result = compare_files(write_real(tmp_path / "t.json", IO_EVENTS), write_sim(tmp_path / "s.csv", IO_ROWS))
    got = [(c.operation, round(c.real / US, 6), round(c.sim / US, 6)) for c in result.calls]
    assert got == [("MPI_File_open", 100, 100), ("MPI_File_write", 600, 200), ("MPI_File_iwrite_at", 10, 0),
                   ("MPI_Wait", 300, 100), ("MPI_File_write_all_begin", 350, 0), ("MPI_File_write_all_end", 5, 250),
                   ("MPI_File_iread_at", 10, 0),
                   ("MPI_File_iread_at", 10, 0), ("MPI_Waitall", 100, 100), ("MPI_File_close", 50, 50)]
    # More than twice as slow as predicted, those that lost the most time first: the pointer write (3x), the split's
    # begin and the other posts simulated in no time (infinitely slower), the wait (3x); not the split's end (faster
    # than predicted).
    assert [c.operation for c in result.slower_than(1.0)] == ["MPI_File_write", "MPI_File_write_all_begin", "MPI_Wait",
                                                              "MPI_File_iwrite_at", "MPI_File_iread_at",
                                                              "MPI_File_iread_at"]
    only = result.only(["file_write*"])
    assert [c.operation for c in only.calls] == ["MPI_File_write", "MPI_File_write_all_begin", "MPI_File_write_all_end"]
    assert [(t.name, t.calls, round(t.real / US, 6)) for t in only.per_operation] == [
        ("file_write", 1, 600), ("file_write_all_begin", 1, 350), ("file_write_all_end", 1, 5)]


@pytest.mark.parametrize("text,value", [("0.2", 0.2), ("20%", 0.2), ("2x", 1.0), ("1x", 0.0), ("10x", 9.0)])
def test_thresholds(text, value):
    from mpisim.compare import parse_threshold

    assert parse_threshold(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["0.5x", "-1", "x", "fast", "nan"])
def test_bad_thresholds(pair, text):
    code, out, err = run_cli("compare", *pair, "--slower-than", text)
    assert code == 2 and err.strip().endswith(f"got '{text}'") and "--slower-than" in err, err


def test_bare_slower_than_is_twice_and_timelines_are_drawn(pair, tmp_path):
    image = tmp_path / "timelines.png"
    code, out, err = run_cli("compare", *pair, "--slower-than", "--timelines", str(image), "--top", "0")
    assert code == 0, err
    # Only rank 0's send took more than twice its prediction (200 us against 50).
    assert "1 call(s) slower in reality than predicted by more than 100%" in out, out
    assert image.stat().st_size > 10000 and image.read_bytes()[:4] == b"\x89PNG"
