"""Checkpoint/restart in replay (docs/failures.md, "Checkpoint/restart in replay"): where checkpoints are taken, what
they cost, what a failure rolls back, against closed forms computed by hand.

The trace: two ranks, each computing 1 s (1 Gflop on cluster:2's 1 Gf hosts) then a barrier, four times, then 1 s
more. The barrier (ompi_two_procs: one exchange) takes both ranks the same b seconds, so the ranks stay in step and
the failure-free time is F = 5 + 4b; b (a few hundred microseconds) is read from F."""

from __future__ import annotations

import json

import pytest

import mpisim
from test_run_reports import cli

COST = 0.25  # --checkpoint-cost
RESTART = 0.5  # --restart-cost
INTERVAL = 1.5  # --checkpoint-interval
OPTIONS = dict(platform="cluster:2", coll={"barrier": "ompi_two_procs"})


def write_trace(path, per_rank):
    """A single-file trace: per_rank(r) gives rank r's actions."""
    lines = [f"{r} {action}" for r in range(2) for action in ["init", *per_rank(r), "finalize"]]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def steps(tmp_path):
    return write_trace(tmp_path / "steps.txt", lambda r: ["compute 1e9", "barrier"] * 4 + ["compute 1e9"])


def failure_free(trace):
    result = mpisim.replay(trace, **OPTIONS)
    barrier = (result.simulated_time - 5) / 4
    assert 0 < barrier < 1e-3  # the hand derivations below need the barrier short
    return result.simulated_time, barrier


def test_without_failures_each_checkpoint_adds_its_cost_and_nothing_else(steps):
    F, b = failure_free(steps)
    result = mpisim.replay(steps, checkpoint_interval=INTERVAL, checkpoint_cost=COST, **OPTIONS)
    # Barrier entries at 1, 2+b, 3+2b+C, 4+3b+C. Due at 1.5: the second barrier (cut 2+2b) checkpoints, complete at
    # 2+2b+C; due again at 3.5+2b+C: the fourth barrier (cut 4+4b+C). Two checkpoints: F + 2C.
    assert result.simulated_time == pytest.approx(F + 2 * COST, abs=1e-9)
    assert [c["cut"] for c in result.checkpoints] == pytest.approx([2 + 2 * b, 4 + 4 * b + COST], abs=1e-9)
    assert [c["date"] for c in result.checkpoints] == pytest.approx([2 + 2 * b + COST, 4 + 4 * b + 2 * COST], abs=1e-9)
    assert result.attempts == [{"attempt": 1, "start": 0.0, "end": result.simulated_time, "outcome": "ok",
                                "checkpoint": 0}]
    assert result.time_lost == 0 and result.failures == []
    assert all(r.checkpoint == pytest.approx(2 * COST) and r.compute == pytest.approx(5) for r in result.ranks)


def test_an_interval_longer_than_the_run_takes_no_checkpoint_and_costs_nothing(steps):
    F, _ = failure_free(steps)
    result = mpisim.replay(steps, checkpoint_interval=10, checkpoint_cost=COST, **OPTIONS)
    assert result.simulated_time == F and result.checkpoints == []


def test_a_failure_redoes_the_work_since_the_last_checkpoint_after_the_restart_cost(steps):
    F, b = failure_free(steps)
    fail_at = 3.5  # in the third step's computation, after the checkpoint of cut p = 2 + 2b
    result = mpisim.replay(steps, checkpoint_interval=INTERVAL, checkpoint_cost=COST, restart=1, restart_cost=RESTART,
                           fail=f"1@{fail_at}s", **OPTIONS)
    cut = 2 + 2 * b
    # Attempt 2 starts at f + R from the cut and replays the rest, F - p, taking one more checkpoint (its barriers
    # enter at f+R+1 and f+R+2+b, due at f+R+1.5: the second).
    assert result.simulated_time == pytest.approx(fail_at + RESTART + (F - cut) + COST, abs=1e-9)
    assert result.failures == [{"rank": 1, "time": fail_at, "attempt": 1}]
    assert result.attempts == [
        {"attempt": 1, "start": 0.0, "end": fail_at, "outcome": "process-failure", "checkpoint": 0},
        {"attempt": 2, "start": fail_at + RESTART, "end": result.simulated_time, "outcome": "ok", "checkpoint": 1}]
    assert [c["attempt"] for c in result.checkpoints] == [1, 2]
    assert all(list(c) == ["attempt", "cut", "date"] for c in result.checkpoints)
    # Lost: from the checkpoint's completion (p + C) to the failure, and the restart.
    assert result.time_lost == pytest.approx(fail_at + RESTART - (cut + COST), abs=1e-9)
    assert not any(r.failed for r in result.ranks)  # restarted: every rank finished the last attempt


def test_a_failure_while_the_checkpoint_is_written_rolls_back_to_the_previous_one(steps):
    F, b = failure_free(steps)
    fail_at = 2.1  # the first checkpoint (cut 2 + 2b) is being written until 2.25 + 2b: not complete
    result = mpisim.replay(steps, checkpoint_interval=INTERVAL, checkpoint_cost=COST, restart=1, restart_cost=RESTART,
                           fail=f"0@{fail_at}s", **OPTIONS)
    # From the start again at f + R: the whole replay with its two checkpoints.
    assert result.simulated_time == pytest.approx(fail_at + RESTART + F + 2 * COST, abs=1e-9)
    assert result.attempts[1]["checkpoint"] == 0
    assert [c["attempt"] for c in result.checkpoints] == [2, 2]
    assert result.time_lost == pytest.approx(fail_at + RESTART, abs=1e-9)


def test_out_of_restarts_the_failed_rank_stops_and_the_replay_deadlocks_as_without_checkpoints(steps):
    # The first failure restarts from the checkpoint at 4 s; the second, in attempt 2, has no restart left.
    with pytest.raises(mpisim.DeadlockError, match="rank 1 failed at simulated time 6.000000000 s"):
        mpisim.replay(steps, checkpoint_interval=INTERVAL, checkpoint_cost=COST, restart=1, restart_cost=RESTART,
                      fail="1@3.5s,1@6s", **OPTIONS)


def test_a_message_crossing_the_collective_or_a_pending_request_is_no_cut(tmp_path):
    # Rank 0 sends before the first barrier, rank 1 receives after it: no cut there; the second barrier is one.
    crossing = write_trace(tmp_path / "crossing.txt", lambda r: (
        ["compute 1e9", "send 1 0 1000" if r == 0 else "compute 0", "barrier", "compute 0" if r == 0 else
         "recv 0 0 1000", "compute 1e9", "barrier", "compute 1e9"]))
    # Rank 0 posts a receive before the first barrier and waits for it after: no cut there either.
    pending = write_trace(tmp_path / "pending.txt", lambda r: (
        ["compute 1e9", "irecv 1 0 1000" if r == 0 else "send 0 0 1000", "barrier",
         "wait 1 0 0" if r == 0 else "compute 0", "compute 1e9", "barrier", "compute 1e9"]))
    for trace in (crossing, pending):
        plain = mpisim.replay(trace, **OPTIONS)
        result = mpisim.replay(trace, checkpoint_interval=0.5, checkpoint_cost=COST, **OPTIONS)
        assert len(result.checkpoints) == 1 and result.checkpoints[0]["cut"] > 2, trace
        assert result.simulated_time == pytest.approx(plain.simulated_time + COST, abs=1e-9)


def test_a_trace_without_a_cut_restarts_from_its_beginning(tmp_path):
    trace = write_trace(tmp_path / "ring.txt", lambda r: ["compute 1e9", "sendRecv 1000 {0} 1000 {0}".format(1 - r),
                                                          "compute 1e9"])
    plain = mpisim.replay(trace, **OPTIONS)
    result = mpisim.replay(trace, checkpoint_interval=0.5, checkpoint_cost=COST, restart=1, restart_cost=RESTART,
                           fail="0@1.5s", **OPTIONS)
    assert result.checkpoints == []
    assert result.simulated_time == pytest.approx(1.5 + RESTART + plain.simulated_time, abs=1e-9)


def test_the_summary_and_json_list_attempts_and_time_lost(steps):
    args = ["replay", steps, "--platform", "cluster:2", "--coll", "barrier=ompi_two_procs", "--checkpoint-interval",
            "1.5s", "--checkpoint-cost", "250ms", "--restart", "1", "--restart-cost", "500ms", "--fail", "1@3.5s"]
    text = cli(*args)
    assert text.returncode == 0, text.stderr
    assert "Checkpoints: 2 taken (1 in attempt 1, 1 in attempt 2), each rank spent 0.500000 s writing them" in text.stdout
    assert "Process failure: rank 1 at 3.500000000 s (attempt 1)" in text.stdout
    assert "Attempt 1: 0.000000000 s to 3.500000000 s, process-failure (from the start of the trace)" in text.stdout
    assert "Attempt 2: 4.000000000 s to " in text.stdout and "ok (from checkpoint 1, complete at" in text.stdout
    assert "Time lost to failures: 1.7495" in text.stdout
    data = json.loads(cli(*args, "--json").stdout)
    assert [a["outcome"] for a in data["attempts"]] == ["process-failure", "ok"]
    assert data["time_lost"] == pytest.approx(1.7496, abs=1e-3) and len(data["checkpoints"]) == 2
    assert data["ranks"][0]["checkpoint"] == pytest.approx(0.5)


def test_same_seed_same_attempts_other_seed_other_ones(steps):
    def run(seed):
        return mpisim.replay(steps, checkpoint_interval=1, checkpoint_cost=0.1, restart=100, restart_cost=0.2,
                             fail_mtbf=4, seed=seed, **OPTIONS).to_dict()

    first, again, other = run(3), run(3), run(4)
    for result in (first, again, other):
        result.pop("host")
    assert first == again
    assert first["failures"] and first["attempts"][-1]["outcome"] == "ok"
    assert first["failures"] != other["failures"]


@pytest.mark.parametrize("options, message", [
    (("--checkpoint-interval", "0"), "--checkpoint-interval: expected a positive time"),
    (("--checkpoint-interval", "1s", "--checkpoint-cost=-1s"), "--checkpoint-cost"),
    (("--checkpoint-cost", "1s"), "--checkpoint-cost needs --checkpoint-interval"),
    (("--restart", "-1"), "--restart"),
])
def test_bad_checkpoint_options_are_one_line_and_status_2(steps, options, message):
    done = cli("replay", steps, "--platform", "cluster:2", *options)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_timelines_hold_every_attempt_with_its_marks(steps, tmp_path):
    path = tmp_path / "restarted.json"
    mpisim.replay(steps, checkpoint_interval=INTERVAL, checkpoint_cost=COST, restart=1, restart_cost=RESTART,
                  fail="1@3.5s", timeline=str(path), **OPTIONS)
    data = json.loads(path.read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    marks = [(e["name"], e["ts"]) for e in events if e.get("cat") in ("attempt", "failure")]
    assert sorted(marks, key=lambda m: m[1]) == [("attempt 1 starts", 0.0), ("failure", 3.5e6),
                                                 ("attempt 1 ends", 3.5e6), ("attempt 2 starts", 4.0e6)]
    # Rank 0's computations in both attempts: three in the first (the fourth, cut by the failure, did not end and is
    # not reported), and the three after the checkpoint again in the second.
    computes = [e for e in events if e.get("name") == "compute" and e.get("tid") == 0]
    assert len(computes) == 3 + 3
