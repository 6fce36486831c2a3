"""Reports that name the cause (docs/online.md, "Exit status and reports"): a rank leaving while others wait for it,
MPI calls outside MPI_Init..MPI_Finalize, stack overflows, requests pending at MPI_Finalize, and the outcome and exit
status of every kind of ending, with the JSON summary saying which. The program is tests/online/reports.c."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import mpisim
from conftest import repo_path

SOURCE = repo_path("tests", "online", "reports.c")
DATE = r"at simulated time \d+\.\d{9} s"


def _environment():
    env = dict(os.environ)
    if any(name.startswith("_core") for name in os.listdir(repo_path("src", "mpisim"))):
        env["PYTHONPATH"] = repo_path("src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return env


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=timeout,
                          env=_environment())


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    probe = cli("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"mpisim cc unavailable: {probe.stderr}")
        pytest.skip(probe.stderr.strip())
    path = str(tmp_path_factory.mktemp("reports") / "reports")
    done = cli("cc", "-O0", SOURCE, "-o", path)
    assert done.returncode == 0, done.stderr
    return path


def run(program, *args, np=4, options=("--quiet",)):
    return cli("run", "-np", str(np), "--platform", "cluster:4", "--no-compute-time", *options, program, *args)


def run_json(program, tmp_path, *args, np=4, options=()):
    """The run, and its JSON summary (written to a file, whatever the ending)."""
    summary = tmp_path / "summary.json"
    done = run(program, *args, np=np, options=("--json", "--summary", str(summary), *options))
    return done, json.loads(summary.read_text())


# A rank that leaves while others wait ------------------------------------------------------------------------------

def test_rank_returning_non_zero_while_others_wait_is_named_not_a_deadlock(program, tmp_path):
    done, summary = run_json(program, tmp_path, "return", "5")
    assert done.returncode == 5, done.stderr
    assert "deadlock" not in done.stderr
    first = next(line for line in done.stderr.splitlines() if line.startswith("mpisim:"))
    assert re.fullmatch(rf"mpisim: rank 1 exited with status 5 \(returned from main\) {DATE}; ranks 0, 2, 3 were "
                        r"waiting:", first), done.stderr
    assert "\n  rank 0 waits for receive from rank 1, tag 3, on MPI_COMM_WORLD (no matching send)" in done.stderr
    assert "\n  rank 2 waits for " in done.stderr and "\n  rank 3 waits for " in done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"]) == ("application-exit", 5, 5)
    assert summary["report"].startswith("mpisim: rank 1 exited with status 5")
    assert [r["finish"] for r in summary["ranks"]] == [-1, 0, -1, -1]


def test_rank_calling_exit_while_others_wait_is_named(program, tmp_path):
    # Rank 1 sleeps 1 s of simulated time first: by then every other rank waits for it.
    done, summary = run_json(program, tmp_path, "exit", "6")
    assert done.returncode == 6, done.stderr
    assert re.search(r"mpisim: rank 1 exited with status 6 \(called exit\) at simulated time 1\.\d{9} s; ranks 0, 2, "
                     r"3 were waiting:\n  rank 0 waits for receive from rank 1, tag 3", done.stderr), done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"]) == ("application-exit", 6, 6)
    with pytest.raises(mpisim.SimulationError, match=r"^rank 1 exited with status 6 \(called exit\)") as failure:
        mpisim.run(program, args=["exit", "6"], np=4, platform="cluster:4", no_compute_time=True)
    assert failure.value.exit_status == 6 and failure.value.outcome == "application-exit"


# Exit statuses: the application's own, and mpisim's, told apart by the summary ---------------------------------------

def test_application_status_3_and_a_deadlock_no_longer_share_an_exit_status(program, tmp_path):
    done, summary = run_json(program, tmp_path, "status", "3")  # rank 0 returns 3 after MPI_Finalize: nobody waits
    assert done.returncode == 3 and "mpisim: rank 0 returned exit status 3\n" in done.stderr, done.stderr
    assert (summary["outcome"], summary["application_status"], summary["warnings"]) == ("application-exit", 3, [])
    deadlock = repo_path("tests", "online", "deadlock.c")
    built = str(tmp_path / "deadlock")
    assert cli("cc", deadlock, "-o", built).returncode == 0
    done, summary = run_json(built, tmp_path, np=2)
    assert done.returncode == 124, done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"]) == ("deadlock", 124, None)
    assert "rank 0 waits for receive from rank 1, tag 5" in summary["report"]


def test_rank_returning_0_without_finalize_is_named_in_the_deadlock_report(program, tmp_path):
    # Status 0: not the application's failure status, so a deadlock (mpisim's verdict), whose report says who left.
    done, summary = run_json(program, tmp_path, "return", "0")
    assert done.returncode == 124, done.stderr
    assert summary["outcome"] == "deadlock" and summary["application_status"] is None
    assert re.search(r"\n  rank 1 returned from main at simulated time \d+\.\d{9} s without calling MPI_Finalize$",
                     summary["report"]), summary["report"]
    assert "rank 0 waits for receive from rank 1, tag 3" in summary["report"]


def test_every_outcome_is_in_the_summary(program, tmp_path):
    done, summary = run_json(program, tmp_path, "ok")
    assert done.returncode == 0, done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"], summary["report"],
            summary["warnings"]) == ("ok", 0, 0, None, [])
    script = tmp_path / "not-built-by-mpisim"
    script.write_text("#!/bin/sh\n")
    done, summary = run_json(str(script), tmp_path)
    assert done.returncode == 2 and "build it with `mpisim cc`" in done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["ranks"]) == ("bad-input", 2, [])
    assert "build it with `mpisim cc`" in summary["report"]


# MPI calls outside MPI_Init..MPI_Finalize ---------------------------------------------------------------------------

def test_mpi_call_after_finalize_is_an_error_naming_the_call(program, tmp_path):
    done, summary = run_json(program, tmp_path, "after")
    assert done.returncode == 1, done.stderr
    assert re.search(r"^mpisim: rank 2: MPI_Send called after MPI_Finalize \(simulated time \d+\.\d{9} s\)$",
                     done.stderr, re.M), done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"]) == ("mpi-error", 1, None)


def test_mpi_call_before_init_is_an_error_naming_the_call(program):
    done = run(program, "before")
    assert done.returncode == 1, done.stderr
    # MPI_Initialized, MPI_Get_version and MPI_Wtime are allowed before MPI_Init; MPI_Barrier is not.
    assert done.stdout.splitlines()[0] == "initialized 0, version 3.1, wtime 0"
    assert "barrier before MPI_Init returned" not in done.stdout
    # Every rank's MPI_Wtime ends at 10 ns; sleeps ending together resume newest first (SimGrid's order,
    # docs/specifications/same-date-order.md), so rank 3 reaches its MPI_Barrier first and its report ends the run.
    assert re.search(r"^mpisim: rank 3: MPI_Barrier called before MPI_Init", done.stderr, re.M), done.stderr


def test_calls_allowed_after_finalize_keep_working(program):
    done = run(program, "ok")  # MPI_Finalized after MPI_Finalize: main returns 0 only if it said 1
    assert done.returncode == 0, done.stderr


# Requests pending at MPI_Finalize ----------------------------------------------------------------------------------

def test_requests_pending_at_finalize_are_warned_about(program, tmp_path):
    done, summary = run_json(program, tmp_path, "pending")
    assert done.returncode == 0, done.stderr  # a warning: the run still succeeds
    warning = ("rank 0 called MPI_Finalize with 5 requests pending: send to rank 1, tag 7, on MPI_COMM_WORLD "
               "(complete, never waited for or freed); receive from any rank, tag 8, on MPI_COMM_WORLD (no matching "
               "send); receive from any rank, tag 9, on MPI_COMM_WORLD (no matching send); and 2 more")
    assert summary["warnings"] == [warning]
    assert "mpisim: warning: " + warning + "\n" in done.stderr
    assert summary["outcome"] == "ok"
    result = mpisim.run(program, args=["pending"], np=4, platform="cluster:4", no_compute_time=True)
    assert result.warnings == [warning] and result.outcome == "ok"


# Stack overflows --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["recursion", "frame"])
def test_stack_overflow_is_named_with_the_option_to_raise(program, tmp_path, case):
    # recursion: 1 KiB frames until the guard region under the stack; frame: one frame of 300 KiB, more than the stack.
    done, summary = run_json(program, tmp_path, case, options=("--stack-size", "256KiB"))
    assert done.returncode == 128 + 11, done.stderr
    assert re.search(rf"^mpisim: rank 1 overflowed its stack \(--stack-size 256KiB\) {DATE}: run with a larger "
                     r"--stack-size, such as --stack-size 1MiB$", done.stderr, re.M), done.stderr
    assert "Segmentation fault" not in done.stderr
    assert (summary["outcome"], summary["exit_status"], summary["application_status"]) == ("crash", 139, None)


def test_the_smallest_stack_size_starts_a_rank(program):
    done = run(program, "ok", options=("--quiet", "--stack-size", "64KiB"))
    assert done.returncode == 0, done.stderr
    done = run(program, "ok", options=("--quiet", "--stack-size", "63KiB"))
    assert done.returncode == 2 and "below the minimum, 64KiB" in done.stderr, done.stderr


def test_a_null_pointer_is_still_a_plain_crash(tmp_path):
    crash = str(tmp_path / "crash")
    assert cli("cc", repo_path("tests", "online", "crash.c"), "-o", crash).returncode == 0
    done, summary = run_json(crash, tmp_path)
    assert done.returncode == 139
    assert "mpisim: rank 2 received signal 11 (Segmentation fault)" in done.stderr and "stack" not in done.stderr
    assert summary["outcome"] == "crash"
