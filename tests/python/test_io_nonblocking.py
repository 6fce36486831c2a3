"""Non-blocking and split collective MPI-IO overlap computation in simulated time
(docs/specifications/two-phase-io.md, "Non-blocking and split collectives"): a helper actor per rank and call runs
the blocking two-phase code while the rank computes. Online (tests/online/io_nonblocking.c), replayed
(file_iwrite_at_all ... file_wait) against the same program online (tests/online/io_iwrite_sleep.c), and recorded
from Open MPI (skipped without it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import repo_path
from test_online import SOURCES, mpisim
from test_record import mpicc  # noqa: F401 (the fixture: Open MPI and libmpisim-trace.so, else skipped)
from test_record import mpisim as record_mpisim

PAPER_CLUSTER = repo_path("platforms", "pio-cluster-10.xml")
N = 65536  # ints per rank in io_nonblocking.c
WTIME = 1e-8  # MPI_Wtime's own cost, after reading the start (test_io.py's worked example)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("io_nonblocking")
    paths = {}
    for name in ("io_nonblocking", "io_iwrite_sleep", "io_iwrite_error"):
        paths[name] = str(out / name)
        done = mpisim("cc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def one_core_cluster(tmp_path) -> str:
    """The paper cluster with one core per host: a helper actor computing would slow its rank's computation."""
    platform = tmp_path / "pio-cluster-10-one-core.xml"
    text = open(PAPER_CLUSTER).read()
    assert text.count('core="12"') == 10
    platform.write_text(text.replace('core="12"', 'core="1"'))
    return str(platform)


def run_phases(built, root, platform=PAPER_CLUSTER):
    done = mpisim("run", "-np", "4", "--platform", platform, "--model", "fluid", "--no-compute-time",
                  "--io-root", str(root), "--quiet", built["io_nonblocking"])
    assert done.returncode == 0, done.stderr
    phases = {}
    for line in done.stdout.splitlines():
        found = re.match(r"(.+): elapsed (\S+) compute (\S+)$", line)
        if found:
            phases.setdefault(found.group(1), []).append((float(found.group(2)), float(found.group(3))))
    return done.stdout, phases


# One core per host too: the engine shares a host's speed among computations (one flow each, Cas01), and the helper
# starts none, so the rank's computation still ends on time.
@pytest.mark.parametrize("cores", [12, 1])
def test_computation_hides_the_collective_and_data_stay_those_of_the_blocking_call(built, tmp_path, cores):
    root = tmp_path / "root"
    root.mkdir()
    out, phases = run_phases(built, root, PAPER_CLUSTER if cores == 12 else one_core_cluster(tmp_path))
    (write_short, _), (write_long, _) = phases["write_all"]
    [(short, short_compute)] = phases["iwrite_all, shorter compute"]
    [(long, long_compute)] = phases["iwrite_all, longer compute"]
    # Compute 0.5 T: the wait ends when the collective does, as the blocking call (same file, same servers).
    assert short_compute == pytest.approx(0.5 * write_short, abs=2e-9)
    assert short == pytest.approx(write_short, abs=1e-12)
    # Compute 2 T: the collective was done long before; the wait returns at once. Not their sum.
    assert long_compute == pytest.approx(2 * write_long, abs=2e-9)
    assert long == pytest.approx(long_compute + WTIME, abs=1e-12)
    assert long < long_compute + write_long - 0.01
    # Split collective read with compute 0.5 x the blocking read: the blocking read's time.
    [(read, _)] = phases["read_all"]
    [(split, split_compute)] = phases["read_all_begin/end, shorter compute"]
    assert split_compute == pytest.approx(0.5 * read, abs=2e-9)
    assert split == pytest.approx(read, abs=1e-12)
    # Independent iwrite_at behind 2 x the write_at's time.
    [(independent, _)] = phases["write_at"]
    [(overlapped, compute)] = phases["iwrite_at, longer compute"]
    assert overlapped == pytest.approx(compute + WTIME, abs=1e-12)
    assert compute == pytest.approx(2 * independent, abs=2e-9)
    # Reads copy into the program's buffer before the request completes; the status counts every int.
    for rank in range(4):
        for phase in ("read_all", "read_all_begin/end", "iread_at_all"):
            assert f"rank {rank}: {phase} data: ok" in out
        assert f"rank {rank}: read_all_end count {N}" in out
        assert f"rank {rank}: iwrite_all on a read-only file: MPI_ERR_READ_ONLY, no request" in out
        assert f"rank {rank}: a second split collective begun: MPI_ERR_OTHER" in out
    assert "WRONG" not in out and "iwrite_all count" not in out
    # Every collective write, blocking, overlapped or two outstanding on one file, leaves the same file: 0, 1, 2, ...
    expected = b"".join(i.to_bytes(4, "little", signed=True) for i in range(4 * N))
    for name in ("nb_blocking.dat", "nb_short.dat", "nb_long.dat", "nb_two.dat"):
        assert (root / name).read_bytes() == expected, name


def sleep_trace(form: str, seconds: float) -> str:
    """io_iwrite_sleep.c as a trace: rank r writes 64 KiB at byte 32 KiB x r, collectively, then sleeps."""
    lines = ["{r} init", "{r} file_open shared world"]
    if form == "blocking":
        lines += ["{r} file_write_at_all shared {offset} 65536", f"{{r}} sleep {seconds}"]
    else:
        lines += ["{r} file_iwrite_at_all shared {offset} 65536", f"{{r}} sleep {seconds}", "{r} file_wait shared 0"]
    lines += ["{r} file_close shared", "{r} finalize"]
    return "".join(line.format(r=r, offset=32768 * r) + "\n" for line in lines for r in range(2))


def replay_time(tmp_path, text: str) -> float:
    trace = tmp_path / "trace.txt"
    trace.write_text(text)
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", str(trace), "--platform", PAPER_CLUSTER,
                           "--model", "fluid", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["simulated_time"]


def online_time(built, tmp_path, *args) -> float:
    root = tmp_path / "root"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    done = mpisim("run", "-np", "2", "--platform", PAPER_CLUSTER, "--model", "fluid", "--no-compute-time",
                  "--io-root", str(root), "--json", "--summary", str(tmp_path / "summary.json"),
                  built["io_iwrite_sleep"], *args)
    assert done.returncode == 0, done.stderr
    return json.loads((tmp_path / "summary.json").read_text())["simulated_time"]


def test_replay_of_file_iwrite_at_all_overlaps_as_online(built, tmp_path):
    seconds = 0.01
    online = {form: online_time(built, tmp_path, str(seconds), form) for form in ("blocking", "nonblocking")}
    replayed = {form: replay_time(tmp_path, sleep_trace(form, seconds)) for form in ("blocking", "nonblocking")}
    # The collective (about 1.09 ms here) hides behind the 10 ms sleep, online and replayed alike.
    hidden = online["blocking"] - online["nonblocking"]
    assert 1e-3 < hidden < seconds
    assert replayed["blocking"] - replayed["nonblocking"] == pytest.approx(hidden, abs=1e-12)
    # MPI_File_open makes the file's hidden communicator, agreeing on its context (2 messages of 4 bytes over Gigabit
    # Ethernet, 100 us latency each: 200.064 us), and the trace's file_open pays the same: the times agree.
    for form in ("blocking", "nonblocking"):
        assert replayed[form] == pytest.approx(online[form], abs=1e-12), form


def test_recorded_nonblocking_collective_is_posted_then_waited(mpicc, tmp_path):  # noqa: F811
    program = tmp_path / "io_iwrite_sleep"
    done = subprocess.run([mpicc, "-O1", "-o", str(program), os.path.join(SOURCES, "io_iwrite_sleep.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    trace = tmp_path / "trace"
    done = record_mpisim("record", "-o", str(trace), "--", "mpirun", "--oversubscribe", "-np", "2", str(program),
                         "0.001", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for r in range(2):
        lines = [line for line in (trace / f"rank-{r}.txt").read_text().splitlines() if " file_" in line]
        assert lines == [f"{r} file_open shared world", f"{r} file_iwrite_at_all shared {32768 * r} 65536",
                         f"{r} file_wait shared 0", f"{r} file_close shared"]
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", str(trace / "index.txt"), "--platform",
                           PAPER_CLUSTER, "--model", "fluid"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def two_writes_trace(form: str) -> str:
    """Two collective writes of 64 KiB per rank on one file (the second 128 KiB further), posted together then
    waited for ("nonblocking"), or one after the other ("blocking"), or the first alone ("one")."""
    lines = ["{r} init", "{r} file_open shared world"]
    if form == "nonblocking":
        lines += ["{r} file_iwrite_at_all shared {first} 65536", "{r} file_iwrite_at_all shared {second} 65536",
                  "{r} file_wait shared 0", "{r} file_wait shared 1"]
    else:
        lines += ["{r} file_write_at_all shared {first} 65536"]
        if form == "blocking":
            lines += ["{r} file_write_at_all shared {second} 65536"]
    lines += ["{r} file_close shared", "{r} finalize"]
    return "".join(line.format(r=r, first=32768 * r, second=131072 + 32768 * r) + "\n"
                   for line in lines for r in range(2))


def test_two_outstanding_collectives_on_one_file_replay_together(tmp_path):
    # Each carries its own tags: neither takes the other's messages (a crossing would deadlock or fail the run).
    # Their transfers share the network, so together they take longer than one and less than two in a row.
    times = {form: replay_time(tmp_path, two_writes_trace(form)) for form in ("one", "nonblocking", "blocking")}
    assert times["one"] < times["nonblocking"] < times["blocking"], times


def test_an_error_during_the_access_is_the_requests(built, tmp_path):
    # The real file refuses a write at byte 2^62: found by the helper, after the call returned; the wait reports it.
    done = mpisim("run", "-np", "2", "--platform", PAPER_CLUSTER, "--io-root", str(tmp_path), "--quiet",
                  built["io_iwrite_error"])
    assert done.returncode == 0, done.stderr
    if "wait MPI_SUCCESS" in done.stdout:
        pytest.skip("this file system takes a write at byte 2^62 (ext4 and xfs refuse it)")
    for rank in range(2):
        assert f"rank {rank}: call MPI_SUCCESS, a request; wait MPI_ERR_IO" in done.stdout


def test_an_error_during_the_access_goes_through_the_files_handler(built, tmp_path):
    # The file's MPI_ERRORS_ARE_FATAL, not MPI_COMM_WORLD's MPI_ERRORS_RETURN: the run ends in the wait that found
    # the failure, the report naming it and the access, before any rank prints.
    done = mpisim("run", "-np", "2", "--platform", PAPER_CLUSTER, "--io-root", str(tmp_path), "--quiet",
                  built["io_iwrite_error"], "fatal-file")
    if done.returncode == 0 and "wait MPI_SUCCESS" in done.stdout:
        pytest.skip("this file system takes a write at byte 2^62 (ext4 and xfs refuse it)")
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert re.match(r"mpisim: rank [01]: MPI_Wait: MPI_ERR_IO: MPI_File_iwrite_at_all's access failed: ", done.stderr), \
        done.stderr
