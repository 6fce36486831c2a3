"""Online simulation: MPI programs from tests/online/ built with `mpisim cc` and run with `mpisim run`. The
deterministic ones print the same lines as a real run under Debian's Open MPI (`mpirun --oversubscribe`); one
ping-pong has a closed-form simulated time; deadlocks, MPI_Abort, crashes and invalid arguments end the run with a
report and a non-zero exit status."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import repo_path

SOURCES = repo_path("tests", "online")
PROGRAMS = ["coll_timing", "datatypes", "ring", "halo", "collectives", "privacy", "pingpong", "deadlock", "abort",
            "crash", "errors", "compute", "exit"]
PROGRAMS += ["persistent", "p2p_modes", "mprobe_cancel", "completion"]  # point-to-point (see the tests at the end)


def _environment():
    """A source checkout whose package has its native core next to it (a development build) runs its own sources;
    otherwise the installed package runs."""
    env = dict(os.environ)
    if any(name.startswith("_core") for name in os.listdir(repo_path("src", "mpisim"))):
        env["PYTHONPATH"] = repo_path("src") + os.pathsep + os.environ.get("PYTHONPATH", "")
    return env


def mpisim(*args, timeout=120):
    env = _environment()
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every test program, compiled once by `mpisim cc`."""
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        reason = probe.stderr.strip().splitlines()[-1]
        if os.environ.get("CI"):  # the package build must provide them: never skipped in CI
            pytest.fail(f"mpisim cc unavailable: {reason}")
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("online")
    paths = {}
    for name in PROGRAMS:
        paths[name] = str(out / name)
        done = mpisim("cc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def run(built, name, *args, np=4, platform="cluster:8", options=("--quiet",)):
    return mpisim("run", "-np", str(np), "--platform", platform, *options, built[name], *args)


def real_mpirun_lines(tmp_path, name, np):
    if shutil.which("mpicc") is None or shutil.which("mpirun") is None:
        pytest.skip("no real MPI to compare with")
    binary = str(tmp_path / name)
    subprocess.run(["mpicc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", binary], check=True)
    done = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(np), binary],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return sorted(done.stdout.splitlines())


@pytest.mark.parametrize("name,np", [("ring", 4), ("halo", 4), ("collectives", 5), ("privacy", 4),
                                     ("datatypes", 4), ("datatypes", 1)])
def test_output_matches_real_mpi(built, tmp_path, name, np):
    done = run(built, name, np=np)
    assert done.returncode == 0, done.stderr
    # Ranks print in a different order in separate processes (MPI_ANY_SOURCE): compare the sets of lines.
    assert sorted(done.stdout.splitlines()) == real_mpirun_lines(tmp_path, name, np)


@pytest.mark.parametrize("np", [1, 2, 3, 8])
def test_collectives_on_other_sizes(built, np):
    done = run(built, "collectives", np=np)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "0 failures"


@pytest.mark.parametrize("np", [6, 512])
def test_globals_statics_thread_locals_are_private(built, np):
    done = run(built, "privacy", np=np, platform=f"cluster:{np}")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == np and all("SHARED" not in line for line in lines), done.stdout


def test_pingpong_closed_form_with_fluid_model(built, tmp_path):
    # fluid: time = L + S / B per message. Hosts 0 and 1 are joined by their two cluster links: L = 2 x 10 us,
    # B = 1 GB/s. 1 MB goes there and back: 2 x (20e-6 + 1e6 / 1e9) = 2.040 ms, measured by MPI_Wtime and as the
    # simulated time of the run (computation not timed, MPI_Wtime costing nothing).
    summary = tmp_path / "summary.json"
    done = run(built, "pingpong", "1000000", np=2, platform="cluster:2,bw=1GBps,lat=10us",
               options=("--model", "fluid", "--no-compute-time", "--wtime-delay", "0", "--json", "--summary",
                        str(summary)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "round trip of 1000000 bytes: 0.002040000 s\n"
    result = json.loads(summary.read_text())
    assert result["simulated_time"] == pytest.approx(2.04e-3, rel=1e-9)
    assert [r["rank"] for r in result["ranks"]] == [0, 1]
    assert result["inputs"]["model"] == "fluid" and result["inputs"]["compute_time"] is False


def test_wtime_grows_with_message_size(built):
    times = []
    for size in ("1000", "10000000"):
        done = run(built, "pingpong", size, np=2, platform="cluster:2")
        assert done.returncode == 0, done.stderr
        times.append(float(done.stdout.split()[-2]))
    assert 0 < times[0] < times[1]


def test_computation_becomes_simulated_time(built):
    # About 50 ms of CPU per rank, on a host as fast as the simulated one: about 50 ms of simulated time.
    done = run(built, "compute", np=2, platform="cluster:2,speed=1Gf", options=("--host-speed", "1Gf"))
    assert done.returncode == 0, done.stderr
    simulated = float(done.stdout.split()[2])
    assert 0.04 < simulated < 0.2, done.stdout
    assert "Simulated time:" not in done.stdout  # the summary goes to stderr, not into the application's output
    done = run(built, "compute", np=2, platform="cluster:2,speed=1Gf", options=("--no-compute-time", "--quiet"))
    assert float(done.stdout.split()[2]) == 0


def test_text_summary_lists_every_rank(built):
    done = run(built, "ring", np=3, options=())
    assert done.returncode == 0
    assert "Simulated time:" in done.stderr
    assert [line.split()[0] for line in done.stderr.splitlines()[2:]] == ["0", "1", "2"]


def test_deadlock_is_reported_per_rank(built):
    done = run(built, "deadlock", np=2)
    assert done.returncode == 3
    assert "deadlock at simulated time" in done.stderr
    assert "rank 0 waits for receive from rank 1, tag 5" in done.stderr
    assert "rank 1 waits for receive from rank 0, tag 5" in done.stderr


def test_abort_ends_the_run_with_its_error_code(built):
    done = run(built, "abort", np=4)
    assert done.returncode == 7
    assert done.stdout == "rank 1 aborting\n"
    assert "mpisim: rank 1 called MPI_Abort with error code 7 at simulated time" in done.stderr


def test_crashing_rank_is_named(built):
    done = run(built, "crash", np=4)
    assert done.returncode == 128 + 11
    assert "mpisim: rank 2 received signal 11 (Segmentation fault) at simulated time" in done.stderr


def test_invalid_arguments_raise_error_classes(built):
    done = run(built, "errors", np=4)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["send to rank 4: MPI_ERR_RANK", "negative count: MPI_ERR_COUNT",
                                        "bcast root 7: MPI_ERR_ROOT", "bad datatype: MPI_ERR_TYPE"]
    done = run(built, "errors", "fatal", np=4)
    assert done.returncode == 1
    assert "mpisim: rank 0: MPI_Send: MPI_ERR_RANK: invalid rank 4 in a communicator of 4 ranks" in done.stderr


def test_program_not_built_for_mpisim(tmp_path):
    script = tmp_path / "app"
    script.write_text("#!/bin/sh\n")
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", str(script))
    assert done.returncode == 2
    assert "cannot load the program (build it with `mpisim cc`)" in done.stderr


def test_compile_only_and_show(tmp_path):
    done = mpisim("cc", "-c", os.path.join(SOURCES, "ring.c"), "-o", str(tmp_path / "ring.o"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ring.o").exists()
    done = mpisim("cc", "-show", "app.c", "-o", "app")
    assert "-shared" in done.stdout and "-lmpisim-mpi" in done.stdout


def test_cxx_program(tmp_path):
    binary = str(tmp_path / "hello")
    done = mpisim("cxx", "-O1", os.path.join(SOURCES, "hello.cpp"), "-o", binary)
    assert done.returncode == 0, done.stderr
    done = mpisim("run", "-np", "3", "--platform", "cluster:3", "--quiet", binary)
    assert done.returncode == 0, done.stderr
    # sum over ranks of (size * rank + 1) = 3 * (0 + 1 + 2) + 3
    assert done.stdout == "hello from C++ on 3 ranks: total 12\n"


def test_hostfile_gives_the_rank_count_and_hosts(built, tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("node-1:2\nnode-3\n")
    done = mpisim("run", "--platform", "cluster:4", "--hostfile", str(hostfile), "--json", built["ring"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "token after 2 laps on 3 ranks: 6\n"
    assert len(json.loads(done.stderr)["ranks"]) == 3


def test_tag_output_prefixes_lines_with_the_writing_rank(built):
    done = run(built, "abort", np=4, options=("--tag-output",))
    assert done.returncode == 7
    assert done.stdout == "[1] rank 1 aborting\n"
    done = run(built, "halo", np=3, options=("--tag-output", "--quiet"))
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 3 and all(line.startswith("[0] rank ") for line in done.stdout.splitlines())


@pytest.mark.parametrize("program,argument", [("pingpong", "1000"), ("pingpong", "100000"), ("pingpong", "10000000"),
                                              ("coll_timing", "100"), ("coll_timing", "100000")])
def test_times_agree_with_smpirun(built, tmp_path, program, argument):
    # The same program under SimGrid 3.32's smpirun, computation not simulated on either side: the durations
    # measured by MPI_Wtime agree (ping-pong: eager, detached and rendezvous sizes; allreduce, bcast, alltoall with
    # the default selector), under the default smpi model.
    if shutil.which("smpicc") is None or shutil.which("smpirun") is None:
        pytest.skip("SimGrid's smpicc/smpirun not installed")
    platform = repo_path("examples", "replay-basic", "cluster4.xml")
    np = 2 if program == "pingpong" else 4
    binary = str(tmp_path / program)
    subprocess.run(["smpicc", "-O1", os.path.join(SOURCES, program + ".c"), "-o", binary], check=True,
                   capture_output=True)
    smpi = subprocess.run(["smpirun", "-np", str(np), "-platform", platform, "--cfg=smpi/simulate-computation:no",
                           binary, argument], capture_output=True, text=True, timeout=120)
    assert smpi.returncode == 0, smpi.stderr
    ours = run(built, program, argument, np=np, platform=platform, options=("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == smpi.stdout


def test_runs_are_reproducible(built, tmp_path):
    # Computation not timed: the same program gives the same event sequence, hence the same fingerprint.
    results = []
    for attempt in range(2):
        summary = tmp_path / f"run{attempt}.json"
        done = run(built, "collectives", np=6, options=("--no-compute-time", "--json", "--summary", str(summary)))
        assert done.returncode == 0, done.stderr
        results.append(json.loads(summary.read_text()))
    assert results[0]["fingerprint"] == results[1]["fingerprint"] != 0
    assert results[0]["simulated_time"] == results[1]["simulated_time"]


@pytest.mark.parametrize("options", [(), ("--tag-output",)])
def test_exit_from_a_rank_ends_the_run_and_says_so(built, options):
    done = run(built, "exit", np=4, options=options)
    assert done.returncode == 4
    assert done.stdout == ("[2] " if options else "") + "rank 2 exits\n"
    assert "mpisim: rank 2 called exit() at simulated time" in done.stderr


# Every selector's choices move the right data: the collectives program checks each result itself (blocking and
# non-blocking forms, in place, derived datatypes, a user operation, split communicators), on a prime size and on 16
# ranks with 4 per host (SMP-aware and two-level algorithms).
@pytest.mark.parametrize("selector", ["default", "ompi", "mpich", "mvapich2", "impi", "automatic"])
@pytest.mark.parametrize("np,platform", [(5, "cluster:8"), (16, "cluster:4")])
def test_collectives_under_every_selector(built, selector, np, platform):
    done = run(built, "collectives", np=np, platform=platform, options=("--quiet", "--coll-selector", selector))
    assert done.returncode == 0, done.stderr
    assert "0 failures" in done.stdout


# Point-to-point: persistent requests, matched probes, cancellation, statuses, completion calls. Each program checks
# its own results; the lines agree with a real Open MPI run, on 2 and 5 ranks.
@pytest.mark.parametrize("name", ["persistent", "mprobe_cancel", "completion"])
@pytest.mark.parametrize("np", [2, 5])
def test_point_to_point_matches_real_mpi(built, tmp_path, name, np):
    done = run(built, name, np=np)
    assert done.returncode == 0, done.stderr
    ours = sorted(done.stdout.splitlines())
    assert ours and not any(line.endswith(("FAILED", ": no")) for line in ours), done.stdout
    assert ours == real_mpirun_lines(tmp_path, name, np)


# Send modes seen through MPI_Wtime (rank 1 receives late). Timing-dependent, so not compared with a real run on a
# loaded machine; Open MPI prints the same lines except the MPI_ERR_BUFFER one (it does not check the room left).
@pytest.mark.parametrize("np", [2, 4])
def test_send_modes_seen_through_wtime(built, np):
    done = run(built, "p2p_modes", np=np)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "MPI_Send of 4 bytes returned before the receive was posted: yes",
        "MPI_Ssend of 4 bytes returned after the receive was posted: yes",
        "MPI_Issend of 4 bytes stayed incomplete until the receive was posted: yes",
        "MPI_Issend of 4 bytes completed after the receive was posted: yes",
        "MPI_Bsend of 1 MB returned before the receive was posted: yes",
        "MPI_Buffer_detach returned after the receive was posted: yes",
        "the buffered message carried the data of the call: yes",
        "MPI_Bsend beyond the attached buffer raised MPI_ERR_BUFFER: yes",
        "MPI_Irsend and MPI_Ibsend delivered: yes"]


def test_unmatched_send_is_cancelled(built):
    # mpisim cancels a send no receive has matched (Open MPI never cancels sends); the receiver then never sees it.
    done = run(built, "mprobe_cancel", "report", np=3)
    assert done.returncode == 0, done.stderr
    assert "rank 1: send cancelled: yes" in done.stdout and "rank 2: send cancelled: yes" in done.stdout
    assert "rank 0: the receiver sees exactly the sends not cancelled: yes" in done.stdout


def test_persistent_request_misuse_raises_error_classes(built):
    done = run(built, "persistent", "errors", np=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "send_init to rank 2: MPI_ERR_RANK", "recv_init with tag -5: MPI_ERR_TAG",
        "send_init with count -1: MPI_ERR_COUNT", "start of an active request: MPI_ERR_REQUEST",
        "start of a non-persistent request: MPI_ERR_REQUEST", "start of MPI_REQUEST_NULL: MPI_ERR_REQUEST",
        "mprobe from rank 2: MPI_ERR_RANK", "mrecv of MPI_MESSAGE_NULL: MPI_ERR_REQUEST",
        "cancel of an invalid request: MPI_ERR_REQUEST", "waitall with an invalid request: MPI_ERR_REQUEST",
        "issend with tag -3: MPI_ERR_TAG"]


def test_ssend_waits_for_the_late_receive_as_under_smpirun(built, tmp_path):
    # A 4-byte MPI_Ssend to a receiver that polls MPI_Wtime for 1 ms first: it returns once the transfer that starts
    # at the receive has ended, as under SimGrid 3.32 (a synchronous send is never detached); same dates.
    if shutil.which("smpicc") is None or shutil.which("smpirun") is None:
        pytest.skip("SimGrid's smpicc/smpirun not installed")
    platform = repo_path("examples", "replay-basic", "cluster4.xml")
    binary = str(tmp_path / "p2p_modes")
    subprocess.run(["smpicc", "-O1", os.path.join(SOURCES, "p2p_modes.c"), "-o", binary], check=True,
                   capture_output=True)
    smpi = subprocess.run(["smpirun", "-np", "2", "-platform", platform, "--cfg=smpi/simulate-computation:no",
                           binary, "timing"], capture_output=True, text=True, timeout=120)
    assert smpi.returncode == 0, smpi.stderr
    ours = run(built, "p2p_modes", "timing", np=2, platform=platform, options=("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == smpi.stdout
    # Not before the receive: one transfer of 4 (+16) bytes on cluster4 later, T = 600e-6 * 2.01467 + 20 / (125e6 *
    # 0.812084) = 0.001209 s (mpi_p2p_modes_test.cpp gives the model's formula).
    assert float(ours.stdout.split()[-4]) == pytest.approx(0.001209, abs=1e-6)
