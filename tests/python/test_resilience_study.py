"""`mpisim study resilience` (docs/failures.md): the formulas, the ranges, a small sweep of
examples/resilience/checkpointing.c whose failure-free times are computed by hand, the same sweep under failures
(reproducible by seed), and a job whose ranks all fail before any detects it."""

from __future__ import annotations

import math

import pytest

import mpisim
from conftest import repo_path
from mpisim.resilience import daly_interval, log_spaced, parse_time_range, young_interval
from test_run_reports import cli


def test_young_and_daly_intervals_match_the_docs_example():
    # C = 10 s, M = 1 h: Young sqrt(2 * 10 * 3600) = 268.33 s; Daly, x = C / 2M = 1/720:
    # 268.33 * (1 + sqrt(x) / 3 + x / 9) - 10 = 261.70 s.
    assert young_interval(10, 3600) == pytest.approx(268.328, abs=1e-3)
    assert daly_interval(10, 3600) == pytest.approx(261.70, abs=1e-2)
    assert daly_interval(10, 4) == 4  # C >= 2M: the MTBF itself


def test_ranges_are_log_spaced_with_units():
    assert log_spaced(1, 100, 3) == pytest.approx([1, 10, 100])
    assert parse_time_range("1h:100h:3", "--mtbf", 5) == pytest.approx([3600, 36000, 360000])
    assert parse_time_range("2s,500ms", "--checkpoint-interval", 5) == [0.5, 2.0]
    assert len(parse_time_range("1:16", "--checkpoint-interval", 5)) == 5


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("resilience") / "checkpointing")
    done = cli("cc", "-O0", repo_path("examples", "resilience", "checkpointing.c"), "-o", path, "-lm")
    if done.returncode != 0:
        pytest.skip(done.stderr.strip())
    return path


def study(program, tmp_path, *options):
    output = tmp_path / "out.csv"
    done = cli("study", "resilience", program, "--args", "5", "-np", "2", "--run-options=--no-compute-time",
               "--checkpoint-cost", "100ms", "--restart-cost", "200ms", "-q", "-o", str(output), *options)
    assert done.returncode == 0, done.stderr
    lines = [line for line in output.read_text().splitlines() if not line.startswith("#")]
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","))) for line in lines[1:]], output.read_text()


def test_without_failures_completion_is_work_plus_checkpoints(program, tmp_path):
    # 5 s of work; interval 1 s: 5 steps, 4 checkpoints of 0.1 s: 5.4 s; interval 2 s: steps 2, 2, 1, 2
    # checkpoints: 5.2 s. Plus the allreduces and barriers (a few ms on cluster:2). A per-rank MTBF of 1e9 s: no
    # failure (every seed).
    rows, _ = study(program, tmp_path, "--mtbf", "1e9", "--checkpoint-interval", "1,2", "--runs", "2")
    assert [float(r["interval"]) for r in rows] == [1.0, 2.0]
    for row, expected in zip(rows, (5.4, 5.2)):
        assert float(row["mean"]) == pytest.approx(expected, abs=0.01)
        assert float(row["mean"]) > expected
        assert float(row["std"]) == 0 and row["completed"] == "2" and float(row["mean_failures"]) == 0


def test_under_failures_runs_restart_complete_and_are_reproducible(program, tmp_path, tmp_path_factory):
    options = ("--mtbf", "4s:16s:2", "--checkpoint-interval", "0.5,2", "--runs", "3", "--seed", "1")
    rows, text = study(program, tmp_path, *options)
    assert [(float(r["mtbf"]), float(r["interval"])) for r in rows] == [(4, 0.5), (4, 2), (16, 0.5), (16, 2)]
    for row in rows:
        assert row["completed"] == "3" and row["incomplete"] == "0"
        assert float(row["min"]) > 5  # 5 s of work at least, whatever the failures
        assert float(row["system_mtbf"]) == float(row["mtbf"]) / 2
        assert float(row["young"]) == pytest.approx(math.sqrt(2 * 0.1 * float(row["system_mtbf"])))
    assert sum(float(r["mean_failures"]) for r in rows) > 0
    # Failures cost time: the per-rank MTBF of 4 s (system 2 s) gives longer runs than 16 s, for each interval.
    assert float(rows[0]["mean"]) > float(rows[2]["mean"]) and float(rows[1]["mean"]) > float(rows[3]["mean"])
    _, again = study(program, tmp_path_factory.mktemp("again"), *options)
    assert again.split("\n", 1)[1] == text.split("\n", 1)[1]  # same seeds, same figures


def test_a_job_whose_ranks_all_fail_unseen_is_lost_and_restarted(program, tmp_path, monkeypatch):
    # Seed 3, per-rank MTBF 4 s: rank 0 fails at 0.36 s and rank 1 at 1.09 s, both in their first 2 s step.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPISIM_CHECKPOINT_INTERVAL", "2")
    base = ("run", "-np", "2", "--platform", "cluster:2", "--no-compute-time", "--fail-mtbf", "4", "--seed", "3")
    done = cli(*base, program, "5")
    assert done.returncode == 4
    assert "mpisim: every rank failed, the last (rank 1) at simulated time 1.088338093 s: the job is lost" in done.stderr
    done = cli(*base, "--restart", "100", program, "5")
    assert done.returncode == 0, done.stderr
    assert "restarting the application (attempt 2 of 101) at simulated time 1.088338093 s" in done.stderr
    assert done.stdout.startswith("completed 5.000 s of work")


@pytest.mark.parametrize("options, message", [
    (("--mtbf", "1x", "--checkpoint-interval", "1"), "--mtbf: not a time: '1x'"),
    (("--mtbf", "10:1", "--checkpoint-interval", "1"), "--mtbf: '10:1': expected 0 < A <= B and N >= 1"),
    (("--mtbf", "10", "--checkpoint-interval", "0"), "--checkpoint-interval: '0': expected positive times"),
])
def test_bad_ranges_are_one_line_and_status_2(program, options, message):
    done = cli("study", "resilience", program, *options)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_trace_is_studied_with_replays_checkpoints(tmp_path):
    # examples/replay-basic: 4 ranks; its allreduce is no cut (rank 0's irecv and rank 1's isend are pending across
    # it), the barrier after their waits is one (entered at about 2 s), the alltoall just after it comes too early for
    # either interval. So one checkpoint of 1 s. A per-rank MTBF of 1e9 s: no failure, every run is the failure-free
    # replay plus that checkpoint, on cluster:4 (the trace's ranks) by default.
    trace = repo_path("examples", "replay-basic", "index.txt")
    plain = mpisim.replay(trace, platform="cluster:4")
    output = tmp_path / "trace.csv"
    done = cli("study", "resilience", trace, "--mtbf", "1e9", "--checkpoint-interval", "1ms,1", "--checkpoint-cost",
               "1", "--runs", "2", "-q", "-o", str(output))
    assert done.returncode == 0, done.stderr
    lines = [line for line in output.read_text().splitlines() if not line.startswith("#")]
    rows = [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]
    assert [float(r["mean"]) for r in rows] == pytest.approx([plain.simulated_time + 1] * 2, abs=1e-9)
    assert all(r["completed"] == "2" and float(r["mean_failures"]) == 0 for r in rows)
    assert float(rows[0]["system_mtbf"]) == 1e9 / 4
    assert f"# failure_free_time: {plain.simulated_time!r}" in output.read_text()


def test_a_trace_takes_no_program_arguments():
    done = cli("study", "resilience", repo_path("examples", "replay-basic", "index.txt"), "--mtbf", "1h",
               "--checkpoint-interval", "60", "--args", "5")
    assert done.returncode == 2 and "is a trace: --args is for programs" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_programs_and_traces_are_told_apart(tmp_path):
    from mpisim.resilience import is_trace
    import sys

    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    executable_trace = tmp_path / "trace.txt"
    executable_trace.write_text("0 init\n")
    executable_trace.chmod(0o755)  # copied from a file system that marks everything executable
    assert not is_trace(sys.executable) and not is_trace(str(script))
    assert is_trace(str(executable_trace)) and is_trace(str(tmp_path))
    assert is_trace(repo_path("examples", "replay-basic", "index.txt"))


def test_a_trace_out_of_restarts_is_an_incomplete_run(tmp_path):
    # stencil.txt takes 20 s; a per-rank MTBF of 1 s on 4 ranks fails it at once, and no restart is allowed.
    output = tmp_path / "lost.csv"
    done = cli("study", "resilience", repo_path("examples", "resilience", "stencil.txt"), "--mtbf", "1",
               "--checkpoint-interval", "1", "--runs", "2", "--max-restarts", "0", "-q", "-o", str(output))
    assert done.returncode == 0, done.stderr
    lines = [line for line in output.read_text().splitlines() if not line.startswith("#")]
    row = dict(zip(lines[0].split(","), lines[1].split(",")))
    assert (row["completed"], row["incomplete"], row["mean"]) == ("0", "2", "nan")
