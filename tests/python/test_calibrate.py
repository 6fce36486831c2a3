"""`mpisim calibrate`: the fit recovers a known piecewise model; the parameter file it writes makes the hybrid model
reproduce the fitted times; a real (short) calibration under Open MPI gives a file `mpisim replay` accepts; bad input
is one line and exit status 2. And the hybrid model's TCP incast option, computed by hand."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mpisim
from mpisim import calibrate as cal
from mpisim import calibrate_fit as fitting
from tracegen import write_trace

MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
DELAY = 1e-3

# The known model (seconds, bytes): asynchronous up to 4096 with a break at 1420, detached up to 65536, synchronous
# above. Each entry: (mode, largest size, os (a, b), or (a, b), T2 (a, b)).
TRUE_SEGMENTS = [
    ("asynchronous", 1420, (1.0e-6, 1.0e-10), (0.5e-6, 2.0e-10), (2.0e-6, 1 / 1.0e9)),
    ("asynchronous", 4096, (2.0e-6, 2.0e-10), (1.5e-6, 1.0e-10), (4.0e-6, 1 / 1.5e9)),
    ("detached", 65536, (4.0e-6, 5.0e-11), (0.0, 0.0), (1.0e-5, 1 / 2.0e9)),
    ("synchronous", 2**22, (0.0, 0.0), (0.0, 0.0), (2.0e-5, 1 / 5.0e9)),
]
ISEND = (3e-7, 1e-12)
LIMITER = 1.4
SPEED = 2.5e9


def true_segment(k):
    return next(s for s in TRUE_SEGMENTS if k <= s[1])


# The first transfer after a barrier is this much slower than in a loop (cold buffers; measured here 10 to 50 %
# from 4 KiB to 4 MiB): every test but the pre-posted ping-pong's warm round trips pays it.
COLD_EXCESS = 0.25


def synthetic_csv(noise=0.02, repeat=6, seed=3, preposted=False) -> str:
    """What the benchmark would measure on a machine following the hybrid model exactly (src/mpi/SendProtocol.hpp's
    rules), times multiplicative noise. With `preposted`, the pre-posted ping-pong's rows too (3 warm round trips per
    repetition, at the model's one-way time), and every other test's transfer is COLD_EXCESS slower."""
    rng = np.random.default_rng(seed)
    lines = [f"# late receiver delay: {DELAY}s", "test,size,count,seconds"]

    def row(test, k, value, count=1):
        lines.append(f"{test},{k},{count},{value * math.exp(rng.normal(0, noise)):.9e}")

    for k in cal.parse_sizes("1:4MiB"):
        mode, _, (osa, osb), (ora, orb), (la, lb) = true_segment(k)
        os_, or_, warm_t2 = osa + osb * k, ora + orb * k, la + lb * k
        t2 = warm_t2 * (1 + COLD_EXCESS) if preposted else warm_t2
        for _ in range(repeat):
            if preposted:
                warm = warm_t2 + (os_ if mode != "synchronous" else 0) + (or_ if mode == "asynchronous" else 0)
                for _ in range(cal.PREPOSTED_ROUNDS):
                    row("preposted", k, warm)
                row("preposted_first", k, warm + t2 - warm_t2)
            if mode == "asynchronous":
                row("pingpong", k, os_ + t2 + or_)
                row("send_ready", k, os_)
                row("send_late", k, os_)
                row("recv_late", k, or_)
            elif mode == "detached":
                row("pingpong", k, os_ + t2)
                row("send_ready", k, os_)
                row("send_late", k, os_)
                row("recv_late", k, t2)
            else:
                row("pingpong", k, t2)
                row("send_ready", k, t2)
                row("send_late", k, DELAY + t2)
                row("recv_late", k, t2)
            row("isend_ready", k, ISEND[0] + ISEND[1] * k)
    big = 4 * 2**20
    t_uni = 8 * big / 5e9
    for _ in range(3):
        row("unidir", big, t_uni, 8)
        row("bidir", big, 2 * t_uni / LIMITER, 8)
        lines.append(f"flops,1000,{SPEED * 0.01:.0f},0.01")
    return "\n".join(lines) + "\n"


def test_fit_recovers_breaks_modes_and_coefficients():
    """With 2 % noise and 6 repetitions: the breaks and modes exactly; each series' fitted line within 3 % of the true
    one at both ends of its segment; the bandwidths of the detached and synchronous segments (where the slope
    dominates) within 3 %; the limiter factor and the speed within 2 %."""
    m = fitting.read_measurements(synthetic_csv(), "synthetic")
    fit = fitting.fit_measurements(m)
    assert [(s.mode, s.last) for s in fit.segments] == [(mode, last) for mode, last, *_ in TRUE_SEGMENTS]
    for segment, (mode, last, os_true, or_true, t2_true) in zip(fit.segments, TRUE_SEGMENTS):
        truth = {"os": os_true, "or": or_true, "T2": t2_true, "ois": ISEND}
        assert set(segment.coefficients) == set(fitting.SERIES_OF_MODE[mode])
        for series, (a, b) in segment.coefficients.items():
            true_a, true_b = truth[series]
            for k in (segment.first, segment.last):
                assert a + b * k == pytest.approx(true_a + true_b * k, rel=0.03), (segment.last, series, k)
        if mode != "asynchronous":
            assert 1 / segment.coefficients["T2"][1] == pytest.approx(1 / t2_true[1], rel=0.03)
    assert fit.limiter_factor == pytest.approx(LIMITER, rel=0.02)
    assert fit.host_speed == pytest.approx(SPEED, rel=0.02)


def test_preposted_ping_pong_gives_the_transfer_time():
    """Measurements whose pre-posted round trips follow the model and whose other tests pay a 25 % slower (cold)
    transfer: T2 is fitted from the pre-posted ones (each segment's line within 3 % of the true one at both ends, the
    bandwidths where the slope dominates within 3 %), the modes and breaks are the same as without the excess; the
    same rows without the pre-posted test give the cold T2 (the blocking ping-pong's), 25 % above."""
    m = fitting.read_measurements(synthetic_csv(preposted=True), "synthetic")
    assert m.transfer_test() == "preposted" and len(m.samples["preposted"][65536]) == 6 * cal.PREPOSTED_ROUNDS
    fit = fitting.fit_measurements(m)
    assert fit.transfer_test == "preposted"
    assert [(s.mode, s.last) for s in fit.segments] == [(mode, last) for mode, last, *_ in TRUE_SEGMENTS]
    for segment, (mode, _, _, _, (true_a, true_b)) in zip(fit.segments, TRUE_SEGMENTS):
        a, b = segment.coefficients["T2"]
        for k in (segment.first, segment.last):
            assert a + b * k == pytest.approx(true_a + true_b * k, rel=0.03), (segment.last, k)
        if mode != "asynchronous":
            assert 1 / b == pytest.approx(1 / true_b, rel=0.03)
    # detached at 65536 B: os + T2 = (4e-6 + 5e-11 x 65536) + (1e-5 + 65536 / 2e9) = 5.00448e-5 s
    assert fit.one_way(65536) == pytest.approx(5.00448e-5, rel=0.03)

    del m.samples["preposted"]
    cold = fitting.fit_measurements(m)
    assert cold.transfer_test == "pingpong"
    for k in (65536, 1000000, 4 * 2**20):
        assert cold.predict("T2", k) / fit.predict("T2", k) == pytest.approx(1 + COLD_EXCESS, rel=0.04), k


def test_segment_count_is_chosen_by_the_penalty():
    """With 3 % noise: a straight line stays one segment (no overfitting), a kink gives two, broken at the kink."""
    ks = np.array(cal.parse_sizes("1:1MiB"), float)
    rng = np.random.default_rng(1)

    def series(values):
        noisy = values * np.exp(rng.normal(0, 0.03, len(ks)))
        return fitting.SeriesPoints(ks, noisy, 1 / noisy**2)

    line = series(1e-6 + ks / 1e9)
    options = fitting.best_segmentations([line], list(ks), 4, 3)
    assert fitting.choose_segment_count(options, len(ks), 1) == 1
    kinked = series(np.where(ks <= 8192, 1e-6 + ks / 1e9, 5e-6 + ks / 3e9))
    options = fitting.best_segmentations([kinked], list(ks), 4, 3)
    assert fitting.choose_segment_count(options, len(ks), 1) == 2
    assert ks[options[2][1][1] - 1] == 8192


@pytest.mark.parametrize("preposted", [False, True])
def test_parameter_file_makes_the_hybrid_model_reproduce_the_fit(tmp_path, preposted):
    """Replaying a 2-rank ping-pong with the written file on the written platform gives back the fitted one-way times:
    os + T2 + or (asynchronous), os + T2 (detached), T2 (synchronous), T2 = a + b k of the segment. The file says
    which ping-pong T2 comes from."""
    raw = tmp_path / "raw.csv"
    raw.write_text(synthetic_csv(preposted=preposted))
    params, spec_file = tmp_path / "m.params", tmp_path / "m.spec"
    done = run_cli("calibrate", "--from-csv", str(raw), "-o", str(params), "--plot", str(tmp_path / "m.png"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.png").stat().st_size > 10000
    text = params.read_text()
    for name in ("Sa = 4096B", "Sd = 65536B", "os = 0:", "lat-factor = 0:", "bw-factor = 0:", "# data:", "rms"):
        assert name in text
    method = "# method: T2 (lat-factor, bw-factor) from the " + ("pre-posted" if preposted else "blocking") + " ping-pong"
    assert method in text
    fit = fitting.fit_measurements(fitting.read_measurements(raw.read_text(), "raw"))
    for k in (100, 3000, 30000, 1000000):
        segment = fit.segment_for(k)
        value = {name: a + b * k for name, (a, b) in segment.coefficients.items()}
        one_way = value["T2"] + (value.get("os", 0) if segment.mode != "synchronous" else 0) + (
            value.get("or", 0) if segment.mode == "asynchronous" else 0)
        index = write_trace(str(tmp_path / f"pp{k}"), [[f"send 1 0 {k}", f"recv 1 1 {k}"],
                                                       [f"recv 0 0 {k}", f"send 0 1 {k}"]])
        result = mpisim.replay(index, platform=str(spec_file), model="hybrid", params_file=str(params))
        assert result.simulated_time == pytest.approx(2 * one_way, rel=1e-5), (k, segment.mode)


# ---------------------------------------------------------------------------------------------------------------
# concurrency: the in-flight and exchange tests, the hybrid model's concurrency-factor and duplex-factor

# By hand, a lone message of 10 us whose bandwidth term is 8 us, c = 1.5, D = 1.6: each of N flows runs at
# min(1, c / N) of a lone flow's rate one way, min(1, c / N, c D / 2N) with N each way; time 2 us + 8 us / rate.
#   in flight N = 1, 2, 4: rates 1, 0.75, 0.375 -> 10, 12.6667, 23.3333 us
#   exchange  N = 1, 2, 4: rates 1 (c D / 2 = 1.2), 0.6, 0.3 -> 10, 15.3333, 28.6667 us
HAND_IN_FLIGHT = {1: 10e-6, 2: 2e-6 + 8e-6 / 0.75, 4: 2e-6 + 8e-6 / 0.375}
HAND_EXCHANGE = {1: 10e-6, 2: 2e-6 + 8e-6 / 0.6, 4: 2e-6 + 8e-6 / 0.3}


def test_concurrency_and_duplex_recover_hand_computed_times():
    assert fitting.predicted_time(2, 10e-6, 8e-6, 1.5, None) == pytest.approx(12.6666667e-6)
    assert fitting.predicted_time(4, 10e-6, 8e-6, 1.5, 1.6) == pytest.approx(28.6666667e-6)
    c, d = fitting.concurrency_and_duplex(HAND_IN_FLIGHT, HAND_EXCHANGE, 10e-6, 8e-6)
    assert c == pytest.approx(1.5, rel=0.004) and d == pytest.approx(1.6, abs=0.005)
    # both directions as fast as one (shared memory here): no limiter at these sizes, D = 2; messages one after
    # the other on a link (N times a lone one's bandwidth term): c = 1
    serial = {n: 2e-6 + n * 8e-6 for n in (1, 2, 4)}
    assert fitting.concurrency_and_duplex(serial, serial, 10e-6, 8e-6) == (1.0, 2.0)
    # nothing measured that depends on the factors: plain sharing
    assert fitting.concurrency_and_duplex({1: 10e-6}, {}, 10e-6, 8e-6) == (1.0, 2.0)


def test_lone_message_is_what_the_file_makes_the_model_pay():
    """A fitted latency below 0 is written as 0 (hybrid_parameters), so the concurrency fit's p1 is b k, not a + b k:
    T2 = -2e-5 + 1.5e-10 k at 1 MiB gives p1 = 1.5e-10 x 1048576 = 1.572864e-4 s."""
    segment = fitting.Segment(fitting.SYNCHRONOUS, 4096, 2**24, {"ois": (7e-8, 0.0), "T2": (-2e-5, 1.5e-10)},
                              {"ois": 0.0, "T2": 0.0}, 10)
    fit = fitting.Fit([segment], {}, {}, None, None, [], None, {})
    assert fit.one_way(2**20) == pytest.approx(1.572864e-4)
    assert fit.predict("T2", 2**20) == pytest.approx(1.372864e-4)


def concurrency_rows(fit: fitting.Fit, concurrency: float, duplex: float) -> str:
    """The in-flight and exchange medians a machine following the model with these factors would give, at the
    calibration's concurrency sizes (the fit's own one-way time and bandwidth term)."""
    lines = []
    for k in cal.CONCURRENCY_SIZES:
        lone, term = fit.one_way(k), fit.segment_for(k).coefficients["T2"][1] * k
        for n in cal.CONCURRENCY_COUNTS:
            lines.append(f"inflight,{k},{n},{fitting.predicted_time(n, lone, term, concurrency, None):.12e}")
            lines.append(f"exchange,{k},{n},{fitting.predicted_time(n, lone, term, concurrency, duplex):.12e}")
    return "\n".join(lines) + "\n"


def test_parameter_file_makes_the_hybrid_model_reproduce_the_concurrency_tests(tmp_path):
    """Rows made with c = 1.5, D = 1.2: the written tables hold c and D / f (f = 1.4, the contention test's) at the
    sizes where the bandwidth term is at least half the time (1 elsewhere), and
    replaying N isends each way of 262144 B (synchronous) on the written platform takes what the model predicts,
    p1 - bk + bk / rate (isend overhead set to 0: the N flows start together)."""
    base = synthetic_csv()
    fit = fitting.fit_measurements(fitting.read_measurements(base, "synthetic"))
    raw = tmp_path / "raw.csv"
    raw.write_text(base + concurrency_rows(fit, 1.5, 1.2))
    params, spec_file = tmp_path / "m.params", tmp_path / "m.spec"
    done = run_cli("calibrate", "--from-csv", str(raw), "-o", str(params))
    assert done.returncode == 0, done.stderr
    refit = fitting.fit_measurements(fitting.read_measurements(raw.read_text(), "raw"))
    assert [p.size for p in refit.concurrency] == list(cal.CONCURRENCY_SIZES)
    # 4096 B (asynchronous: 2.7 of 10 us) and 16384 B (8.2 of 22 us) are mostly latency and overheads: not fitted
    assert [p.fitted for p in refit.concurrency] == [False, False, True, True, True]
    assert [p.bandwidth_term < p.lone / 2 for p in refit.concurrency] == [True, True, False, False, False]
    for p in refit.concurrency[2:]:
        assert p.concurrency == pytest.approx(1.5, rel=0.004) and p.duplex == pytest.approx(1.2, abs=0.005)
    tables = dict(line.split(" = ") for line in params.read_text().splitlines() if " = " in line and line[0] != "#")
    entries = [entry.split(":") for entry in tables["concurrency-factor"].split(";")]
    assert [int(t) for t, _ in entries] == [0, 2048, 8192, 32768, 131072, 524288, 2097152]
    assert [float(value) for _, value in entries[:3]] == [1, 1, 1] and float(entries[-1][1]) == 1
    assert [float(value) for _, value in entries[3:-1]] == pytest.approx([p.concurrency for p in refit.concurrency[2:]])
    duplex = [float(entry.split(":")[1]) for entry in tables["duplex-factor"].split(";")]
    assert duplex == pytest.approx([1, 1, 1] + [p.duplex / refit.limiter_factor for p in refit.concurrency[2:]] + [1])
    k = 262144
    point = next(p for p in refit.concurrency if p.size == k)
    for n in (1, 2, 4):
        lines = [[f"irecv 1 0 {k}"] * n + [f"isend 1 0 {k}"] * n + ["waitall"],
                 [f"irecv 0 0 {k}"] * n + [f"isend 0 0 {k}"] * n + ["waitall"]]
        index = write_trace(str(tmp_path / f"exchange{n}"), lines)
        result = mpisim.replay(index, platform=str(spec_file), model="hybrid", params_file=str(params),
                               params=[("ois", "0:0:0")])
        # the limiter of f B and duplex-factor D / f make D again
        expected = fitting.predicted_time(n, point.lone, point.bandwidth_term, point.concurrency, point.duplex)
        assert result.simulated_time == pytest.approx(expected, rel=1e-4), n


def run_cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, env=MPI_ENV,
                          timeout=timeout)


def test_bad_input_is_one_line_and_status_2(tmp_path):
    cases = [
        (["--mpirun", "no-such-launcher -np 2", "-o", str(tmp_path / "a.params")], "no-such-launcher"),
        (["--mpirun", "mpirun -np 2", "--mpicc", "no-such-mpicc", "-o", str(tmp_path / "a.params")],
         "no-such-mpicc"),
        (["--from-csv", str(tmp_path / "absent.csv"), "-o", str(tmp_path / "a.params")], "absent.csv"),
        (["--from-csv", str(tmp_path / "absent.csv"), "-o", "/nonexistent-folder/a.params"], "does not exist"),
    ]
    (tmp_path / "bad.csv").write_text("test,size\n1,2\n")
    cases.append((["--from-csv", str(tmp_path / "bad.csv"), "-o", str(tmp_path / "a.params")], "header line"))
    (tmp_path / "none.csv").write_text(synthetic_csv() + "inflight,65536,0,1e-5\n")
    cases.append((["--from-csv", str(tmp_path / "none.csv"), "-o", str(tmp_path / "a.params")],
                  "inflight needs at least 1 message"))
    for args, expected in cases:
        done = run_cli("calibrate", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and expected in done.stderr, done.stderr


@pytest.fixture
def open_mpi():
    for tool in ("mpicc", "mpirun"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev)")


def test_mpirun_that_fails_to_start_is_reported(open_mpi, tmp_path):
    done = run_cli("calibrate", "--mpirun", "mpirun --oversubscribe -np 1", "--sizes", "1,1024", "--repeat", "1",
                   "--cache", str(tmp_path / "cache"), "-o", str(tmp_path / "a.params"))
    assert done.returncode == 2 and "the MPI run failed" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_real_calibration_under_open_mpi(open_mpi, tmp_path):
    """Two local processes (shared memory), few sizes and repetitions; the file is accepted by replay."""
    params = tmp_path / "local.params"
    done = run_cli("calibrate", "--mpirun", "mpirun --oversubscribe -np 2", "--sizes", "1:256KiB", "--repeat", "3",
                   "--cache", str(tmp_path / "cache"), "-o", str(params), "--plot", str(tmp_path / "local.png"))
    assert done.returncode == 0, done.stderr
    assert "# mpi library: Open MPI" in params.read_text()
    rows = [line.split(",")[0] for line in (tmp_path / "local.csv").read_text().splitlines() if "," in line]
    sizes = len(cal.parse_sizes("1:256KiB"))
    assert rows.count("preposted") == 3 * sizes * cal.PREPOSTED_ROUNDS and rows.count("preposted_first") == 3 * sizes
    assert "# method: T2 (lat-factor, bw-factor) from the pre-posted ping-pong" in params.read_text()
    index = write_trace(str(tmp_path / "pp"), [["send 1 0 1000", "recv 1 1 1000"], ["recv 0 0 1000", "send 0 1 1000"]])
    result = mpisim.replay(index, platform=str(tmp_path / "local.spec"), model="hybrid", params_file=str(params))
    assert 0 < result.simulated_time < 1e-3
    refit = run_cli("calibrate", "--from-csv", str(tmp_path / "local.csv"), "-o", str(tmp_path / "again.params"))
    assert refit.returncode == 0, refit.stderr


# ---------------------------------------------------------------------------------------------------------------
# TCP incast option of the hybrid model


def test_incast_timeout_by_hand(tmp_path):
    """Ranks 1, 2, 3 each send 1 MB to rank 0 at once, on cluster:4 (bw 125 MB/s, lat 50 us per link), hybrid model
    with unit factors, no envelope, no cross-traffic, eager (Sa = 10 MB: every transfer starts at its send). Every flow crosses its own up link and
    node-0's down link: 3 flows share 125 MB/s.
      off: the three start together, 3 x 1e6 B / 125e6 B/s = 24 ms after the 100 us latency: 0.0241 s.
      incast-threshold = 2: the third flow to start finds 2 in flight and waits 200 ms more; the first two share the
        link (16 ms + 100 us), the third then has it alone: 0.2001 + 8 ms = 0.2081 s.
      incast-threshold = 1: flows 2 and 3 both wait 200 ms: flow 1 alone (8 ms + 100 us), then the other two share:
        0.2001 + 16 ms = 0.2161 s."""
    index = write_trace(str(tmp_path / "incast"), [["recv 1 0 1000000", "recv 2 0 1000000", "recv 3 0 1000000"]] + [
        ["send 0 0 1000000"]] * 3)
    base = {"bw-factor": "0:1", "lat-factor": "0:1", "envelope": "0B", "crosstraffic": "no", "Sa": "10MB", "Sd": "10MB",
            "weight-S": "0"}
    expected = {None: 0.0241, "2": 0.2081, "1": 0.2161}
    for threshold, time in expected.items():
        params = dict(base, **({"incast-threshold": threshold} if threshold else {}))
        result = mpisim.replay(index, platform="cluster:4", model="hybrid", params=[f"{n}={v}" for n, v in params.items()])
        assert result.simulated_time == pytest.approx(time, rel=1e-6), threshold
    slow = dict(base, **{"incast-threshold": "1", "incast-rto": "1s"})
    slow = mpisim.replay(index, platform="cluster:4", model="hybrid", params=[f"{n}={v}" for n, v in slow.items()])
    assert slow.simulated_time == pytest.approx(1.0161, rel=1e-6)
