"""The C library, rank by rank, and time as the program sees it (docs/online.md, "The C library, rank by rank" and
"Time"): getopt, the random generators, strtok, errno and the environment are each rank's own under both
privatization modes; every clock (C and C++) reads the rank's simulated time, sleeps pass in simulated time, the host
name is the simulated host's and process ids are distinct; --real-clocks keeps the real clocks. Programs in
tests/online/."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import time

import pytest

from conftest import repo_path
from test_online import mpisim

SOURCES = repo_path("tests", "online")
CLUSTER4 = repo_path("examples", "replay-basic", "cluster4.xml")  # 1 Gf hosts
PROGRAMS = {"getopt": "getopt.c", "getopt_cases": "getopt_cases.c", "libc_state": "libc_state.c",
            "clocks": "clocks.c", "chrono": "chrono.cpp", "signals": "signals.c"}
GETOPT_ARGUMENTS = ["-v", "--size", "100", "input1", "-o", "out.txt", "--mode=fast", "input2", "-abc", "--verb",
                    "-x7", "--", "-notanoption"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"mpisim cc unavailable: {probe.stderr}")
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("libc")
    paths = {}
    for name, source in PROGRAMS.items():
        paths[name] = str(out / name)
        compiler = "cxx" if source.endswith(".cpp") else "cc"
        done = mpisim(compiler, "-O1", os.path.join(SOURCES, source), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def run(built, name, *args, np=4, platform=CLUSTER4, options=("--quiet",)):
    return mpisim("run", "-np", str(np), "--platform", platform, *options, built[name], *args)


def durations(stdout):
    """`NAME VALUE us` lines as {NAME: VALUE}."""
    return {line.split()[0]: float(line.split()[1]) for line in stdout.splitlines()}


# ---------------------------------------------------------------------------------------------- per-rank C library

@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_getopt_parses_every_rank_s_options(built, mode):
    # Long and short options, arguments, a flag cluster and non-options permuted to the end, on 64 ranks: each rank
    # parses all of them, also when the ranks' scans interleave (a barrier after each option).
    done = run(built, "getopt", *GETOPT_ARGUMENTS, np=64, platform="cluster:64",
               options=("--quiet", "--privatization", mode))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "64 of 64 ranks parsed every option\n"


def test_getopt_behaves_as_the_c_library_s(built, tmp_path):
    # The same cases built by plain gcc use glibc's getopt: results, optind, optarg, optopt, the permuted argv and
    # the error messages must be the same.
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    native = str(tmp_path / "getopt_cases")
    subprocess.run(["gcc", "-O1", "-w", os.path.join(SOURCES, "getopt_cases.c"), "-o", native], check=True)
    expected = subprocess.run([native], capture_output=True, text=True, timeout=60)
    done = run(built, "getopt_cases", np=1, platform="cluster:1")
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout
    assert done.stderr == expected.stderr
    assert "is ambiguous" in done.stderr and done.stdout.count("->") > 60


def c_library_draws(rank):
    """What a fresh process draws after the seeds libc_state.c gives rank `rank`."""
    libc = ctypes.CDLL("libc.so.6")
    libc.random.restype = ctypes.c_long
    libc.drand48.restype = ctypes.c_double
    libc.srand48.argtypes = [ctypes.c_long]
    libc.srand(rank + 1)
    libc.srandom(100 + rank)
    libc.srand48(1000 + rank)
    return libc.rand(), libc.rand(), libc.random(), libc.drand48()


def c_library_default_draws():
    libc = ctypes.CDLL("libc.so.6")
    libc.srand(1)  # a fresh process's state
    return libc.rand(), libc.rand()


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_generators_strtok_errno_environment_and_identity_are_per_rank(built, mode):
    env_home = os.environ.get("HOME")
    if not env_home:
        pytest.skip("HOME is not set")
    done = run(built, "libc_state", np=4, platform="cluster:4", options=("--quiet", "--privatization", mode))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 4
    first, second = c_library_default_draws()
    for rank, line in enumerate(lines):
        r1, r2, g, d = c_library_draws(rank)
        assert line == (f"rank {rank}: default {first} {second} rand {r1} {r2} random {g} drand48 {d:.17g}"
                        f" strtok r{rank} a b{rank} errno {rank} env {rank} home {'unset' if rank % 2 else 'set'}"
                        f" host node-{rank} same 1 pid {4194304 + rank}")


# ------------------------------------------------------------------------------------------------------ clocks

def test_every_clock_times_an_exchange_as_mpi_wtime_does(built):
    # A 1 MB round trip between ranks 0 and 1 timed by each clock; every computation burst dropped (shorter than
    # --cpu-threshold), so the wall clocks agree with MPI_Wtime to the reads' --wtime-delay (10 ns) and their
    # resolution (1 us for gettimeofday), and the CPU clocks see no computation at all.
    done = run(built, "clocks", "exchange", np=2, options=("--quiet", "--cpu-threshold", "1s"))
    assert done.returncode == 0, done.stderr
    times = durations(done.stdout)
    wtime = times.pop("MPI_Wtime")
    assert wtime > 1000
    for name in ["CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW", "CLOCK_BOOTTIME", "timespec_get"]:
        assert times.pop(name) == pytest.approx(wtime, abs=0.002), name
    assert times.pop("gettimeofday") == pytest.approx(wtime, abs=1.01)
    assert times == {"clock": 0, "times": 0, "getrusage": 0, "CLOCK_PROCESS_CPUTIME_ID": 0,
                     "CLOCK_THREAD_CPUTIME_ID": 0}


def test_cpp_chrono_clocks_and_sleep_for_are_simulated(built):
    start = time.monotonic()
    done = run(built, "chrono", np=2, options=("--quiet", "--no-compute-time"))
    wall = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "sleep_for 100.000000 s"
    times = durations("\n".join(lines[:-1]))
    wtime = times.pop("MPI_Wtime")
    assert wtime > 1000
    for name, value in times.items():
        assert value == pytest.approx(wtime, abs=0.002), name
    assert wall < 30


def summary_and_stdout(done):
    return json.loads(done.stderr[done.stderr.index("{"):]), done.stdout


def test_clocks_see_the_computation_they_time(built):
    # A busy loop on rank 0, simulated 4 times as fast as the machine runs it (host speed 4 Gf, hosts of 1 Gf): the
    # CPU clocks and the wall clocks read around it see the same injected computation, most of the rank's compute
    # in the summary; the real CPU time would be 4 times less.
    done = run(built, "clocks", "compute", np=2, options=("--json", "--host-speed", "4Gf"))
    assert done.returncode == 0, done.stderr
    summary, stdout = summary_and_stdout(done)
    values = dict(zip(stdout.split()[::2], map(float, stdout.split()[1::2])))
    cpu = values["cpu"]
    injected = summary["ranks"][0]["compute"]
    assert 0.7 * injected < cpu <= injected
    # Each read injects what ran since the previous one (microseconds, tens on a loaded machine) and the wall clocks'
    # reads spend 10 ns: 1 % apart at most, where the real clocks would be 4 times apart.
    for name in ["monotonic", "gettimeofday", "clock", "getrusage"]:
        assert values[name] == pytest.approx(cpu, rel=0.01), name


def test_sleeps_pass_in_simulated_time(built):
    # Computation not simulated: the real microseconds between two clock reads (more on a loaded machine) would
    # otherwise be injected and show in the sixth decimal.
    start = time.monotonic()
    done = run(built, "clocks", "sleep", np=2, options=("--json", "--no-compute-time"))
    wall = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    summary, stdout = summary_and_stdout(done)
    assert stdout == ("sleep 100.000000 (left 0) usleep 0.250000 nanosleep 0.500000 clock_nanosleep 2.000000 "
                      "absolute 3.000000\n")
    assert summary["simulated_time"] == pytest.approx(105.75, abs=1e-3)
    assert wall < 30


def test_real_time_clocks_start_at_the_epoch_unless_real_clocks(built):
    done = run(built, "clocks", "date", np=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "time 0 gettimeofday 0\n"
    real = run(built, "clocks", "date", np=2, options=("--quiet", "--real-clocks"))
    assert real.returncode == 0, real.stderr
    seconds = [int(word) for word in real.stdout.split()[1::2]]
    assert all(abs(s - time.time()) < 600 for s in seconds), real.stdout


# ------------------------------------------------------------------------------------------------------------ signals

def test_alarm_goes_off_in_simulated_time_while_the_rank_waits_in_mpi(built):
    # Ranks 1-3 wait in MPI_Barrier for rank 0, which sleeps 5 s: their alarm(2) handlers run at 2 s inside the
    # barrier, which then goes on waiting; rank 0's runs during its sleep. (On the old build the alarm was real: the
    # run ended before 2 real seconds and no handler ran, handler date -1.)
    done = run(built, "signals", "alarm", options=("--quiet", "--no-compute-time"))
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert len(lines) == 4
    for rank, line in enumerate(lines):
        assert line.startswith(f"rank {rank}: previous alarm 0, handler at 2.000000, barrier left at 5.00"), line
        assert line.endswith("alarm left 0"), line


def test_interval_timer_ticks_in_simulated_time(built):
    # setitimer(ITIMER_REAL, 1 s then every 0.5 s) during a 3.2 s usleep: ticks at 1, 1.5, 2, 2.5, 3 s; at 3.2 s the
    # next is 0.3 s away.
    done = run(built, "signals", "interval", np=2, options=("--quiet", "--no-compute-time"))
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        assert line.split(": ")[1] == "5 ticks, last at 3.000000, next in 0.300000 s, interval 0.500000 s", line


def test_alarm_left_to_its_default_ends_the_run_naming_the_rank(built):
    done = run(built, "signals", "default", options=("--quiet", "--no-compute-time"))
    assert done.returncode == 128 + 14, done.stderr
    assert done.stderr.strip().splitlines()[0] == ("mpisim: rank 1 received signal 14 (Alarm clock) at simulated "
                                                   "time 1.000000000 s")


def test_kill_between_ranks_reaches_the_rank_s_handler_at_the_sender_s_date(built):
    # Rank 0 sends SIGUSR1 to rank 1's pid at 1 s while rank 1 waits in MPI_Recv (on the old build: ESRCH, the pid
    # names no process), then to itself at 2 s, handled before kill returns.
    done = run(built, "signals", "kill", np=2, options=("--quiet", "--no-compute-time"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["rank 1: signal 10 (code user) at 1.000000", "rank 0: signal 10 (code user) at 2.000000",
                         "rank 0: after kill to itself at 2.000000"]
    assert lines[3].startswith("rank 1: received 42 at 2.00")


def test_program_s_sigsegv_handler_runs_and_dispositions_are_per_rank(built):
    # Every rank installs its handler; rank 0's sigaction still reports the default as the previous disposition (its
    # own, not another rank's). Rank 1's null write reaches its handler, which exits with 7.
    done = run(built, "signals", "segv", options=("--quiet", "--no-compute-time"))
    assert done.returncode == 7, done.stderr
    assert done.stdout.splitlines()[0] == "rank 0: SIGSEGV was default"
    assert "rank 1 caught signal 11 at 1.00" in done.stdout
    assert "mpisim: rank 1 exited with status 7 (called exit)" in done.stderr
