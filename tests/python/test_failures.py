"""Process failures (docs/failures.md): --fail and --fail-mtbf in replay and online runs, detection under
MPI_ERRORS_ARE_FATAL (exit status 4) and MPI_ERRORS_RETURN (MPIX_ERR_PROC_FAILED), ULFM (revoke, shrink, agree),
checkpoint/restart, and the bad input of the failure options. The programs are tests/online/failure_transfer.c,
ulfm.c and checkpoint.c."""

from __future__ import annotations

import json
import re

import pytest

import mpisim
import mpisim.timeline
from conftest import repo_path
from test_run_reports import cli

TRACE = repo_path("examples", "replay-basic", "index.txt")
PLATFORM = repo_path("examples", "replay-basic", "cluster4.xml")


def replay(*options):
    return cli("replay", TRACE, "--platform", PLATFORM, *options)


# Bad input: one line, exit status 2 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    (("--fail", "9@1s"), "--fail: rank 9 is out of range (the job has 4 ranks)"),
    (("--fail", "1@-1s"), "--fail: '1@-1s': the time must not be negative"),
    (("--fail", "1x"), "--fail: '1x': expected RANK@TIME, e.g. 3@1.5s"),
    (("--fail", "1@2s,,0@1s"), "--fail: empty item in '1@2s,,0@1s'"),
    (("--fail", "a@1s"), "--fail: 'a@1s': the rank must be a non-negative integer"),
    (("--fail-mtbf", "0"), "--fail-mtbf: the mean time between failures must be positive"),
])
def test_bad_failure_options_are_one_line_and_status_2(options, message):
    done = replay(*options)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


# Replay -------------------------------------------------------------------------------------------------------------

def test_replay_failed_rank_stops_and_waiting_ranks_end_in_a_deadlock_naming_it():
    done = replay("--fail", "1@1ms")
    assert done.returncode == 124
    assert "deadlock at simulated time" in done.stderr
    assert "rank 1 failed at simulated time 0.001000000 s (process failure injected" in done.stderr
    assert "rank 1 waits" not in done.stderr  # a failed rank waits for nothing
    with pytest.raises(mpisim.DeadlockError, match="rank 1 failed at simulated time 0.001000000 s"):
        mpisim.replay(TRACE, platform=PLATFORM, fail="1@1ms")


def test_replay_failure_after_the_end_changes_nothing():
    plain = mpisim.replay(TRACE, platform=PLATFORM)
    late = mpisim.replay(TRACE, platform=PLATFORM, fail=f"2@{plain.simulated_time + 1}s")
    assert late.simulated_time == plain.simulated_time and late.fingerprint == plain.fingerprint
    assert late.failures == [] and not any(r.failed for r in late.ranks)


def test_replay_mtbf_is_reproducible_by_seed():
    first, again, other = (replay("--fail-mtbf", "1s", "--seed", seed) for seed in ("7", "7", "8"))
    failures = [re.findall(r"rank \d+ failed at simulated time [\d.]+ s", d.stderr) for d in (first, again, other)]
    assert first.returncode == 124 and failures[0], first.stderr
    assert first.stderr == again.stderr
    assert failures[0] != failures[2]


# Online: detection ----------------------------------------------------------------------------------------------------

def compile_program(name, tmp_path_factory):
    path = str(tmp_path_factory.mktemp(name) / name)
    done = cli("cc", "-O0", repo_path("tests", "online", f"{name}.c"), "-o", path)
    if done.returncode != 0:
        pytest.skip(done.stderr.strip())
    return path


@pytest.fixture(scope="module")
def transfer(tmp_path_factory):
    return compile_program("failure_transfer", tmp_path_factory)


def run(program, *args, np=2, options=()):
    return cli("run", "-np", str(np), "--platform", f"cluster:{np}", "--no-compute-time", *options, program, *args)


def test_failure_mid_transfer_aborts_under_errors_are_fatal_naming_rank_date_and_detector(transfer, tmp_path):
    summary = tmp_path / "summary.json"
    done = run(transfer, options=("--fail", "1@10ms", "--json", "--summary", str(summary)))
    assert done.returncode == 4
    assert done.stdout == ""  # the receive never returned
    assert ("mpisim: rank 0: MPI_Recv: MPIX_ERR_PROC_FAILED: rank 1 failed at simulated time 0.010000000 s; "
            "detected by rank 0 at simulated time 0.010000000 s, on MPI_COMM_WORLD") in done.stderr
    report = json.loads(summary.read_text())
    assert report["outcome"] == "process-failure" and report["exit_status"] == 4
    assert report["simulated_time"] == 0.01
    assert report["failures"] == [{"rank": 1, "time": 0.01, "attempt": 1}]


def test_failure_mid_transfer_returns_proc_failed_at_the_failure_date_under_errors_return(transfer):
    done = run(transfer, "return", options=("--fail", "1@10ms", "--quiet"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "rank 0: MPI_Recv: MPIX_ERR_PROC_FAILED at 0.010000 s\n"
    plain = run(transfer, "return", options=("--quiet",))
    assert plain.stdout.startswith("rank 0: MPI_Recv: success at ")


# Online: ULFM -------------------------------------------------------------------------------------------------------

ULFM_OUTPUT = """iteration 0: 4 ranks, sum 10
iteration 1: 4 ranks, sum 10
iteration 2: 4 ranks, sum 10
rank 0: iteration 3: MPIX_ERR_PROC_FAILED at 0.30{0}
rank 1: iteration 3: MPIX_ERR_PROC_FAILED at 0.30{0}
rank 3: iteration 3: {1} at 0.30{0}
iteration 3: 3 ranks, sum 7
iteration 4: 3 ranks, sum 7
agreed: 1
"""


def test_ulfm_program_revokes_shrinks_and_goes_on_with_the_survivors(tmp_path_factory):
    program = compile_program("ulfm", tmp_path_factory)
    done = run(program, np=4, options=("--fail", "2@250ms", "--quiet"))
    assert done.returncode == 0, done.stderr
    # Rank 3 enters the allreduce after the others' revocation notices reach it: it sees the revocation.
    pattern = re.escape(ULFM_OUTPUT).replace(r"\{0\}", r"\d s").replace(r"\{1\}", "MPIX_ERR_(PROC_FAILED|REVOKED)")
    assert re.fullmatch(pattern, done.stdout), done.stdout
    plain = run(program, np=4, options=("--quiet",))
    assert plain.stdout == "".join(f"iteration {i}: 4 ranks, sum 10\n" for i in range(5)) + "agreed: 1\n"
    result = mpisim.run(program, np=4, platform="cluster:4", no_compute_time=True, fail="2@250ms")
    assert [r.failed for r in result.ranks] == [False, False, True, False]
    assert result.failures == [{"rank": 2, "time": 0.25, "attempt": 1}]


# Online: checkpoint/restart -------------------------------------------------------------------------------------------

def test_restart_continues_the_clock_and_a_checkpointing_program_finishes(tmp_path_factory, tmp_path, monkeypatch):
    program = compile_program("checkpoint", tmp_path_factory)
    monkeypatch.chdir(tmp_path)  # the program's checkpoint file goes there, and stays between attempts
    summary = tmp_path / "summary.json"
    done = run(program, options=("--fail", "1@350ms", "--restart", "1", "--restart-cost", "500ms", "--json",
                                 "--summary", str(summary)))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "starting after step 0 at 0.000 s"
    assert re.fullmatch(r"starting after step 3 at 0\.90\d s", lines[1])
    assert re.fullmatch(r"total 30 at 1\.60\d s", lines[2])
    assert "restarting the application (attempt 2 of 2)" in done.stderr
    report = json.loads(summary.read_text())
    first, second = report["attempts"]
    assert first["outcome"] == "process-failure" and second["outcome"] == "ok"
    assert 0.4 < first["end"] < 0.41  # the fourth allreduce, after the failure at 0.35 s
    assert second["start"] == pytest.approx(first["end"] + 0.5, abs=1e-12)
    assert report["time_lost"] == pytest.approx(first["end"] + 0.5, abs=1e-12)
    assert report["failures"] == [{"rank": 1, "time": pytest.approx(0.35, abs=1e-15), "attempt": 1}]
    assert report["simulated_time"] == second["end"]


def test_without_restart_the_same_failure_aborts_with_status_4(tmp_path_factory, tmp_path, monkeypatch):
    program = compile_program("checkpoint", tmp_path_factory)
    monkeypatch.chdir(tmp_path)
    done = run(program, options=("--fail", "1@350ms", "--quiet"))
    assert done.returncode == 4
    assert "MPI_Allreduce: MPIX_ERR_PROC_FAILED: rank 1 failed at simulated time 0.350000000 s" in done.stderr


# Timelines: failures and attempts -----------------------------------------------------------------------------------

def chrome_events(path):
    return json.loads(path.read_text())["traceEvents"]


def test_replay_timelines_mark_the_failure_at_its_date_and_the_rank_line_ends_there(tmp_path):
    # Rank 1 receives until 1.015 s, posts an isend, and fails in the bcast that follows (the others wait there).
    for name in ("t.json", "t.csv", "t.paje"):
        assert replay("--fail", "1@1.5s", "--timeline", str(tmp_path / name)).returncode == 124
    events = chrome_events(tmp_path / "t.json")
    failures = [e for e in events if e.get("cat") == "failure"]
    assert failures == [{"name": "failure", "cat": "failure", "ph": "i", "s": "t", "pid": 0, "tid": 1,
                         "ts": 1500000.0, "args": {"rank": 1}}]
    rank1 = [e for e in events if e.get("ph") == "X" and e["tid"] == 1]
    assert [e["name"] for e in rank1] == ["recv", "isend"]  # its line ends before the failure: no bcast
    assert max(e["ts"] + e["dur"] for e in rank1) < 1500000.0
    rows = (tmp_path / "t.events.csv").read_text().splitlines()
    assert [r for r in rows if not r.startswith("#")] == ["event,time,rank,attempt,outcome", "failure,1.5,1,-1,"]
    paje = (tmp_path / "t.paje").read_text().splitlines()
    at = paje.index("20 1.500000000 r1 FAIL failed")
    assert paje[at + 1] == "7 1.500000000 RANK r1"  # rank 1's container ends with its failure
    assert not any(line.startswith(("12 ", "14 ")) and line.split()[2] == "r1" and float(line.split()[1]) > 1.5
                   for line in paje)
    for name in ("t.json", "t.csv", "t.paje"):  # mpisim.timeline reads the marks back
        events = mpisim.timeline.read_timeline(str(tmp_path / name)).events
        assert events.values.tolist() == [["failure", 1.5, 1, -1, ""]], name


def test_replay_without_failures_writes_no_events_file(tmp_path):
    assert replay("--timeline", str(tmp_path / "t.csv")).returncode == 0
    assert not (tmp_path / "t.events.csv").exists()


def test_restarted_run_timelines_mark_each_attempt_after_the_restart_cost(tmp_path_factory, tmp_path, monkeypatch):
    program = compile_program("checkpoint", tmp_path_factory)
    monkeypatch.chdir(tmp_path)
    summary = tmp_path / "summary.json"
    for name in ("c.json", "c.csv", "c.paje"):
        (tmp_path / "checkpoint.txt").unlink(missing_ok=True)
        done = run(program, options=("--fail", "1@350ms", "--restart", "1", "--restart-cost", "500ms", "--json",
                                     "--summary", str(summary), "--timeline", str(tmp_path / name)))
        assert done.returncode == 0, done.stderr
    first, second = json.loads(summary.read_text())["attempts"]
    assert second["start"] == pytest.approx(first["end"] + 0.5, abs=1e-12)
    events = chrome_events(tmp_path / "c.json")
    marks = [(e["name"], e["ts"], e["args"]) for e in events if e.get("ph") == "i"]
    assert marks == [("failure", 350000.0, {"rank": 1}),
                     ("attempt 1 starts", 0.0, {"attempt": 1}),
                     ("attempt 1 ends", pytest.approx(first["end"] * 1e6, abs=1e-3),
                      {"attempt": 1, "outcome": "process-failure"}),
                     ("attempt 2 starts", pytest.approx(second["start"] * 1e6, abs=1e-3), {"attempt": 2})]
    # The file holds the last attempt's calls: none before its start.
    assert min(e["ts"] for e in events if e.get("ph") == "X") >= second["start"] * 1e6 - 1e-3
    rows = [r.split(",") for r in (tmp_path / "c.events.csv").read_text().splitlines() if not r.startswith("#")]
    assert rows[0] == ["event", "time", "rank", "attempt", "outcome"]
    assert [(r[0], float(r[1]), r[2], r[3], r[4]) for r in rows[1:]] == [
        ("failure", pytest.approx(0.35, abs=1e-15), "1", "-1", ""),
        ("attempt-start", 0.0, "-1", "1", ""),
        ("attempt-end", first["end"], "-1", "1", "process-failure"),
        ("attempt-start", second["start"], "-1", "2", "")]
    paje = (tmp_path / "c.paje").read_text().splitlines()
    marks = [line for line in paje if line.startswith("20 ")]
    assert marks == ["20 0.000000000 root ATTEMPT start", "20 0.350000000 r1 FAIL failed",
                     f"20 {first['end']:.9f} root ATTEMPT end", f"20 {second['start']:.9f} root ATTEMPT start"]
    for name in ("c.json", "c.csv", "c.paje"):  # mpisim.timeline reads the marks back
        events = mpisim.timeline.read_timeline(str(tmp_path / name)).events
        assert events.values.tolist() == [
            ["attempt-start", 0.0, -1, 1, ""], ["failure", pytest.approx(0.35, abs=1e-9), 1, -1, ""],
            ["attempt-end", pytest.approx(first["end"], abs=1e-9), -1, 1, "" if name == "c.paje" else "process-failure"],
            ["attempt-start", pytest.approx(second["start"], abs=1e-9), -1, 2, ""]], name
    # Rank 1 failed in the first attempt and ran again in the second: its container lasts to the end.
    assert "7 0.350000000 RANK r1" not in paje and any(line.startswith("7 ") and line.endswith(" RANK r1")
                                                        for line in paje)


# A failed rank's computation stops with it -------------------------------------------------------------------------
# Two ranks compute 1e9 flops each on one single-core 1 Gf host (0.5 Gf each while both run). Rank 1 fails at 0.5 s:
# rank 0 has done 0.25e9 flops and does the other 0.75e9 alone, ending at 1.25 s; had the dead rank's computation
# kept its share until its own end, rank 0 would end at 2 s.

def one_core_host_pair(tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("node-0\nnode-0\n")
    return str(hostfile)


def test_replay_failed_rank_frees_its_share_of_the_host(tmp_path):
    trace = tmp_path / "compute.txt"
    trace.write_text("0 init\n1 init\n0 compute 1e9\n1 compute 1e9\n0 finalize\n")
    hostfile = one_core_host_pair(tmp_path)
    both = mpisim.replay(str(trace), platform=PLATFORM, hostfile=hostfile)
    assert [r.finish for r in both.ranks] == [2.0, 2.0]
    failed = mpisim.replay(str(trace), platform=PLATFORM, hostfile=hostfile, fail="1@0.5s")
    assert failed.failures == [{"rank": 1, "time": 0.5}]
    assert failed.ranks[0].finish == pytest.approx(1.25, abs=1e-12)
    assert failed.ranks[1].failed and failed.ranks[1].finish == 0.5


def test_online_failed_rank_frees_its_share_of_the_host(tmp_path_factory, tmp_path):
    program = compile_program("failure_compute", tmp_path_factory)
    done = cli("run", "-np", "2", "--platform", PLATFORM, "--hostfile", one_core_host_pair(tmp_path),
               "--no-compute-time", "--wtime-delay", "0", "--fail", "1@0.5s", "--quiet", program)
    assert done.stdout == "rank 0: computation done at 1.250000 s\n", done.stderr
    plain = cli("run", "-np", "2", "--platform", PLATFORM, "--hostfile", one_core_host_pair(tmp_path),
                "--no-compute-time", "--wtime-delay", "0", "--quiet", program)
    assert sorted(plain.stdout.splitlines()) == ["rank 0: computation done at 2.000000 s",
                                                 "rank 1: computation done at 2.000000 s"]
