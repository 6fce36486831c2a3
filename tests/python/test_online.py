"""Online simulation: MPI programs from tests/online/ built with `mpisim cc` and run with `mpisim run`. The
deterministic ones print the same lines as a real run under Debian's Open MPI (`mpirun --oversubscribe`); one
ping-pong has a closed-form simulated time; deadlocks, MPI_Abort, crashes and invalid arguments end the run with a
report and a non-zero exit status."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import repo_path

SOURCES = repo_path("tests", "online")
CLUSTER4 = repo_path("examples", "replay-basic", "cluster4.xml")  # 1 Gf hosts
PROGRAMS = ["coll_timing", "datatypes", "ring", "halo", "collectives", "privacy", "pingpong", "deadlock", "abort",
            "crash", "errors", "compute", "exit"]
PROGRAMS += ["bursts"]  # short computation bursts between MPI calls, timed by the program itself
PROGRAMS += ["groups", "attributes", "topology"]  # groups, communicator creation, attributes, topologies
PROGRAMS += ["disconnect", "names"]  # MPI_Comm_disconnect; ports and the name service
PROGRAMS += ["intercomm"]  # intercommunicators
PROGRAMS += ["tool_interface"]  # MPI_T
PROGRAMS += ["sampling", "shared_malloc"]  # SMPI's annotations for large studies
PROGRAMS += ["buffer_reuse"]  # a send buffer written again as soon as the send returns
PROGRAMS += ["libc_names", "extra_types", "ibsend_cancel", "bottom", "grequest"]  # MPICH test-suite findings
PROGRAMS += ["persistent", "p2p_modes", "mprobe_cancel", "completion"]  # point-to-point (see the tests at the end)
PROGRAMS += ["request_errhandlers"]  # a request's failure raised through its own object's handler
PROGRAMS += ["rma_fence", "rma_errors", "rma_keyval", "rma_timing", "rma_sync"]  # one-sided communication (see the tests at the end)
PROGRAMS += ["rma_null", "rma_info", "rma_sync_errors", "rma_sync_timing"]  # PROC_NULL, hints, misuse, timings
PROGRAMS += ["gather_after_allgather"]  # selector state kept across calls
PROGRAMS += ["polling"]  # polling loops (see the tests at the end)
# What every comparison with smpirun runs under: SimGrid 3.32's rule for polling calls (docs/specifications/polling.md)
# and its rounds, the ranks of one date taking turns call by call (docs/specifications/same-date-order.md).
SMPI_AGREEMENT = ("--polling", "smpi", "--scheduling", "smpi")
PROGRAMS += ["fortran_types", "mpi1_legacy"]  # the C header's Fortran names and MPI-1 interface


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


def smpirun_stdout(tmp_path, name, np, *arguments, config=("--cfg=smpi/simulate-computation:no",)):
    """What tests/online/NAME.c prints when built by smpicc and run by SimGrid 3.32's smpirun on
    examples/replay-basic/cluster4.xml (computation not simulated unless `config` says otherwise)."""
    if shutil.which("smpicc") is None or shutil.which("smpirun") is None:
        if os.environ.get("CI"):
            pytest.fail("SimGrid's smpicc/smpirun must be installed in CI")
        pytest.skip("SimGrid's smpicc/smpirun not installed")
    binary = str(tmp_path / name)
    subprocess.run(["smpicc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", binary], check=True,
                   capture_output=True)
    smpi = subprocess.run(["smpirun", "-np", str(np), "-platform", CLUSTER4, *config, binary, *arguments],
                          capture_output=True, text=True, timeout=120)
    assert smpi.returncode == 0, smpi.stderr
    return smpi.stdout


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


def test_short_bursts_are_measured_in_cpu_time(built, tmp_path):
    # 2 000 bursts of 50 us of CPU per rank, an MPI_Sendrecv after each; the program times its bursts with the real
    # CPU clock (--real-clocks), hosts as fast as the machine is said to be: each rank's injected computation is the
    # CPU time of its bursts, plus what runs between a burst and the MPI library (the program's last clock read, the
    # call's entry and exit: about a microsecond per call, 2 %, up to 6 % seen on a loaded machine; 10 % allowed).
    # While a rank waits in MPI_Sendrecv its partner computes on the same thread: none of that is counted for the
    # waiting rank (runtime/ThreadCpuClock.hpp), which would double its computation.
    summary = tmp_path / "summary.json"
    done = run(built, "bursts", "2000", "50", np=4, platform="cluster:4,speed=1Gf",
               options=("--host-speed", "1Gf", "--real-clocks", "--json", "--summary", str(summary)))
    assert done.returncode == 0, done.stderr
    computed = {int(line.split()[1]): float(line.split()[3]) for line in done.stdout.splitlines()}
    assert sorted(computed) == [0, 1, 2, 3] and all(0.1 <= seconds < 0.2 for seconds in computed.values())
    for rank, account in enumerate(json.loads(summary.read_text())["ranks"]):
        assert 0.98 * computed[rank] <= account["compute"] <= 1.10 * computed[rank], (rank, account, computed)


def test_text_summary_lists_every_rank(built):
    done = run(built, "ring", np=3, options=())
    assert done.returncode == 0
    assert "Simulated time:" in done.stderr
    assert [line.split()[0] for line in done.stderr.splitlines()[2:]] == ["0", "1", "2"]


def test_deadlock_is_reported_per_rank(built):
    done = run(built, "deadlock", np=2)
    assert done.returncode == 124  # mpisim's own code for a deadlock (docs/online.md), never the program's
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
    np = 2 if program == "pingpong" else 4
    smpi = smpirun_stdout(tmp_path, program, np, argument)
    ours = run(built, program, argument, np=np, platform=CLUSTER4,
               options=SMPI_AGREEMENT + ("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == smpi


@pytest.mark.parametrize("allgather_first", [0, 1])
def test_mvapich2_gather_depends_on_an_earlier_allgather_as_in_smpirun(built, tmp_path, allgather_first):
    # 24 ranks, one per host of the fat tree, 200000 B per rank: MVAPICH2's table says two-level above 131072 B, but
    # SimGrid reads the communicator's "blocked" flag before anything computed it and runs MPICH's binomial gather;
    # after an allgather (which computes it) the table's choice runs. mpisim keeps the same state: both agree with
    # smpirun, and the two runs differ (0.47 ms and 0.85 ms).
    if shutil.which("smpicc") is None or shutil.which("smpirun") is None:
        pytest.skip("SimGrid's smpicc/smpirun not installed")
    platform = repo_path("platforms", "fattree-64.xml")
    hostfile = tmp_path / "hosts"
    hostfile.write_text("".join(f"ft-{i}\n" for i in range(24)))
    binary = str(tmp_path / "gather_after_allgather")
    subprocess.run(["smpicc", "-O1", os.path.join(SOURCES, "gather_after_allgather.c"), "-o", binary], check=True,
                   capture_output=True)
    arguments = [str(allgather_first), "200000"]
    smpi = subprocess.run(["smpirun", "-np", "24", "-platform", platform, "-hostfile", str(hostfile),
                           "--cfg=smpi/coll-selector:mvapich2", "--cfg=smpi/simulate-computation:no", binary,
                           *arguments], capture_output=True, text=True, timeout=120)
    assert smpi.returncode == 0, smpi.stderr
    ours = mpisim("run", "-np", "24", "--platform", platform, "--hostfile", str(hostfile), "--coll-selector",
                  "mvapich2", *SMPI_AGREEMENT, "--no-compute-time", "--quiet", built["gather_after_allgather"],
                  *arguments)
    assert ours.returncode == 0, ours.stderr
    reference, measured = (float(out.split()[1]) for out in (smpi.stdout, ours.stdout))
    assert abs(measured - reference) / reference <= 0.01, f"mpisim {measured} vs SimGrid {reference}"
    expected = 0.000845 if allgather_first else 0.000473
    assert abs(measured - expected) / expected < 0.01


def test_runs_are_reproducible(built, tmp_path):
    # Computation not timed: the same program gives the same event sequence, hence the same fingerprint.
    results = []
    for attempt in range(2):
        summary = tmp_path / f"run{attempt}.json"
        done = run(built, "collectives", np=6, options=("--no-compute-time", "--json", "--summary", str(summary)))
        assert done.returncode == 0, done.stderr
        results.append(json.loads(summary.read_text()))
    assert results[0]["fingerprint"] == results[1]["fingerprint"] != "0" * 16
    assert results[0]["simulated_time"] == results[1]["simulated_time"]


@pytest.mark.parametrize("options", [(), ("--tag-output",)])
def test_exit_from_a_rank_ends_the_run_and_says_so(built, options):
    done = run(built, "exit", np=4, options=options)
    assert done.returncode == 4
    assert done.stdout == ("[2] " if options else "") + "rank 2 exits\n"
    assert "mpisim: rank 2 exited with status 4 (called exit) at simulated time" in done.stderr


# Every selector's choices move the right data: the collectives program checks each result itself (blocking and
# non-blocking forms, in place, derived datatypes, a user operation, split communicators), on a prime size and on 16
# ranks with 4 per host (SMP-aware and two-level algorithms).
@pytest.mark.parametrize("selector", ["default", "ompi", "mpich", "mvapich2", "impi", "automatic"])
@pytest.mark.parametrize("np,platform", [(5, "cluster:8"), (16, "cluster:4")])
def test_collectives_under_every_selector(built, selector, np, platform):
    done = run(built, "collectives", np=np, platform=platform, options=("--quiet", "--coll-selector", selector))
    assert done.returncode == 0, done.stderr
    assert "0 failures" in done.stdout


# Groups, communicator creation, attributes, topologies ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["groups", "attributes", "topology"])
@pytest.mark.parametrize("np", [1, 4, 6])
def test_groups_attributes_topologies_match_real_mpi(built, tmp_path, name, np):
    done = run(built, name, np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert f"{name}: 0 failures" in lines, done.stdout
    apart = "on the periodic grid"  # checked against the blocking form below, not against Open MPI
    assert [line for line in lines if apart not in line] == [
        line for line in real_mpirun_lines(tmp_path, name, np) if apart not in line]


@pytest.mark.parametrize("np", [1, 4, 6])
def test_nonblocking_neighbour_alltoall_pairs_blocks_as_the_blocking_one(built, np):
    """What is sent towards +1 of a dimension arrives in the receiver's block for -1, and the reverse, also where one
    rank is both neighbours of a periodic dimension of size 1 or 2 (as the blocking form does, under Open MPI 4.1 as
    well; Open MPI 4.1's non-blocking form swaps the two blocks there)."""
    done = run(built, "topology", np=np)
    assert done.returncode == 0, done.stderr
    values = {}
    for line in done.stdout.splitlines():
        for kind, marker in (("blocking", ": neighbour alltoall gives "), ("nonblocking", "on the periodic grid gives ")):
            if marker in line:
                values[(kind, int(line.split()[1].rstrip(":")))] = line.split(marker)[1]
    for r in range(np):
        assert values[("nonblocking", r)] == values[("blocking", r)], done.stdout
    if np == 4:  # 2x2, dimension 0 periodic: rank 2 is both neighbours of rank 0 there, rank 1 its +1 in dimension 1
        assert values[("nonblocking", 0)] == "201 200 -1 102"


def test_comm_split_type_shared_groups_ranks_by_host(built, tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("node-0:3\nnode-1:2\n")
    done = mpisim("run", "--platform", "cluster:4", "--hostfile", str(hostfile), "--quiet", built["groups"], "hosts")
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == [
        "rank 0: node communicator of 3 ranks, rank 0 there", "rank 1: node communicator of 3 ranks, rank 1 there",
        "rank 2: node communicator of 3 ranks, rank 2 there", "rank 3: node communicator of 2 ranks, rank 0 there",
        "rank 4: node communicator of 2 ranks, rank 1 there"]


@pytest.mark.parametrize("name,expected", [
    ("groups", ["group size of an invalid group: MPI_ERR_GROUP", "free of an invalid group: MPI_ERR_GROUP",
                "incl of rank 4: MPI_ERR_RANK", "incl of a rank twice: MPI_ERR_RANK",
                "range with stride 0: MPI_ERR_ARG", "comm_create of a group outside the communicator: MPI_ERR_GROUP",
                "intercomm_create with itself as remote leader: MPI_ERR_ARG", "comm_remote_size: MPI_ERR_COMM",
                "comm_split_type of an unknown type: MPI_ERR_ARG"]),
    ("attributes", ["set MPI_TAG_UB: MPI_ERR_KEYVAL", "free MPI_TAG_UB: MPI_ERR_KEYVAL",
                    "get with a freed keyval: MPI_ERR_KEYVAL", "datatype keyval on a communicator: MPI_ERR_KEYVAL",
                    "communicator keyval on a datatype: MPI_ERR_KEYVAL"]),
    ("topology", ["cart_create with a negative dimension: MPI_ERR_DIMS",
                  "cart_create larger than the communicator: MPI_ERR_TOPOLOGY",
                  "cart_coords without a topology: MPI_ERR_TOPOLOGY", "dims_create(6, 2) with 4 fixed: MPI_ERR_DIMS",
                  "cart_shift in direction 1 of 1: MPI_ERR_ARG", "cart_coords of rank 1 of 1: MPI_ERR_RANK",
                  "graph_neighbors_count on a grid: MPI_ERR_TOPOLOGY"])])
def test_groups_attributes_topologies_error_classes(built, name, expected):
    done = run(built, name, "errors", np=4)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


@pytest.mark.parametrize("np", [1, 4, 5])
def test_disconnect_completes_what_is_pending_on_its_communicator_only(built, tmp_path, np):
    """Each rank disconnects a communicator with a receive and a send pending on it and a receive pending on
    MPI_COMM_WORLD that only a send after the disconnect matches (waiting for it would deadlock)."""
    done = run(built, "disconnect", np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert f"rank {np - 1}: received {10 * ((np - 2) % np) + 1} from rank {(np - 2) % np} on the disconnected " \
           f"communicator, {100 + (np - 2) % np} on MPI_COMM_WORLD" in lines
    assert lines == real_mpirun_lines(tmp_path, "disconnect", np)


def test_disconnect_lasts_until_the_pending_receive_completes(built):
    """Rank 1 disconnects with a 1 MB receive pending: the call lasts as long as a plain receive of the message and the
    request is complete after it (SMPI 3.32 returns at once and leaves it pending; Open MPI leaves the send pending)."""
    done = run(built, "disconnect", "timing", np=2)
    assert done.returncode == 0, done.stderr
    found = {}
    for line in done.stdout.splitlines():
        match = re.fullmatch(r"rank (\d): disconnect ([\d.]+) s, complete after it (\d), plain transfer ([\d.]+) s", line)
        assert match, line
        found[int(match[1])] = (float(match[2]), int(match[3]), float(match[4]))
    disconnect, complete, plain = found[1]
    assert complete == 1 and plain > 0.005  # 1 MB at 1 Gbps or less
    assert disconnect == pytest.approx(plain, rel=1e-9)
    disconnect, complete, plain = found[0]  # the sender's rendezvous ends when rank 1 takes the message
    assert complete == 1 and disconnect == pytest.approx(plain, rel=1e-3)


def test_disconnect_refuses_the_predefined_communicators(built):
    done = run(built, "disconnect", "errors", np=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["disconnect of MPI_COMM_WORLD: MPI_ERR_COMM",
                                        "disconnect of MPI_COMM_SELF: MPI_ERR_COMM",
                                        "disconnect of MPI_COMM_NULL: MPI_ERR_COMM"]


@pytest.mark.parametrize("np", [1, 3])
def test_published_port_is_found_by_every_rank(built, tmp_path, np):
    done = run(built, "names", np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert f"rank {np - 1}: lookup of ocean: MPI_SUCCESS, rank 0's port: 1" in lines
    assert f"rank {np - 1}: lookup after unpublishing: MPI_ERR_NAME" in lines
    assert lines == real_mpirun_lines(tmp_path, "names", np)


def test_names_and_ports_misused_and_connections_refused(built):
    """Open MPI 4.1 accepts a pair published twice, unpublishing what is not published and closing any port; MPI-3.1
    section 10.4.4 makes unpublishing a name not published an error of class MPI_ERR_SERVICE."""
    done = run(built, "names", "errors", np=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "ports mpisim-port-0-0 mpisim-port-0-1", "publish: MPI_SUCCESS", "publish of the same pair: MPI_ERR_SERVICE",
        "publish of a second port: MPI_SUCCESS", "lookup gives the first: 1",
        "unpublish of a pair never published: MPI_ERR_SERVICE", "lookup then gives the second: 1",
        "publish with a freed info: MPI_ERR_INFO", "close: MPI_SUCCESS", "close again: MPI_ERR_PORT",
        "spawn: MPI_ERR_SPAWN, null: 1", "spawn_multiple: MPI_ERR_SPAWN, null: 1", "accept: MPI_ERR_OTHER, null: 1",
        "connect: MPI_ERR_OTHER, null: 1", "join: MPI_ERR_OTHER, null: 1"]


def test_spawn_ends_the_run_with_a_report(built):
    done = run(built, "names", "spawn", np=2)
    assert done.returncode == 1
    assert "MPI_Comm_spawn: MPI_ERR_SPAWN: spawning processes is not simulated: mpisim simulates the ranks " \
           "`mpisim run -np` starts and makes intercommunicators with MPI_Intercomm_create only" in done.stderr


# The tool information interface (MPI-3.1 chapter 14; docs/online.md, "Tool information interface") -----------------
def test_tool_interface_variables_give_the_options_and_the_rank_statistics(built):
    """The control variables are the options given; the performance variables count 5 barriers as 5 calls,
    smpi_execute_flops(5e8) on 1 Gf hosts as 0.5 s of computation, two receives posted before their sends, and
    three messages that arrive before their receives (they come before the synchronous send rank 0 waits for)."""
    done = run(built, "tool_interface", np=2, options=("--quiet", "--no-compute-time", "--host-speed", "2Gf",
                                                       "--cpu-threshold", "1ms", "--polling", "smpi"))
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == sorted([
        "cvar mpisim_model = smpi (count 5)", "cvar mpisim_host_speed = 2e+09", "cvar mpisim_compute_time = 0",
        "cvar mpisim_cpu_threshold = 0.001", "cvar mpisim_wtime_delay = 1e-08", "cvar mpisim_polling = smpi (of 2)",
        "cvar mpisim_scheduling = run-to-block (of 2)", "cvar mpisim_real_clocks = 0",
        "category mpisim_run_options: 8 control, 0 performance variables, 0 subcategories, first pvar -1",
        "category mpisim_rank_statistics: 0 control, 5 performance variables, 0 subcategories, first pvar 0",
        "rank 0: calls 5, in MPI 1, computing 0.500000000 s, 0.500000010 s of simulated time",
        "rank 1: calls 5, in MPI 1, computing 0.500000000 s, 0.500000010 s of simulated time",
        "posted receives 2, unexpected 0", "posted receives 0, unexpected 3", "posted receives 0, unexpected 0",
        "cvar write: MPI_T_ERR_CVAR_SET_NEVER", "pvar start: MPI_T_ERR_PVAR_NO_STARTSTOP",
        "pvar start, all handles: MPI_SUCCESS", "pvar reset: MPI_T_ERR_PVAR_NO_WRITE",
        "pvar read through another session: MPI_T_ERR_INVALID_HANDLE",
        "cvar info of index 99: MPI_T_ERR_INVALID_INDEX", "cvar index of an unknown name: MPI_T_ERR_INVALID_NAME",
        "pvar index with the wrong class: MPI_T_ERR_INVALID_NAME", "enum item 5: MPI_T_ERR_INVALID_ITEM",
        "length asked for: 18", "in 8 bytes: mpisim_ (8)", "session freed to null: 1",
        "read after the last finalize: MPI_T_ERR_NOT_INITIALIZED", "finalize again: MPI_T_ERR_NOT_INITIALIZED"])


def test_tool_interface_model_and_defaults(built):
    done = run(built, "tool_interface", np=2, options=("--quiet", "--model", "fluid", "--scheduling", "smpi"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "cvar mpisim_model = fluid (count 6)" in lines
    assert "cvar mpisim_compute_time = 1" in lines and "cvar mpisim_polling = realistic (of 2)" in lines
    assert "cvar mpisim_scheduling = smpi (of 2)" in lines and "cvar mpisim_cpu_threshold = 1e-06" in lines


@pytest.mark.parametrize("np", [2, 5])
def test_intercommunicators_carry_point_to_point_and_merge_as_open_mpi(built, tmp_path, np):
    """MPI_COMM_WORLD's even and odd ranks joined by MPI_Intercomm_create: every rank sends its world rank to each
    remote rank and receives one message from each through MPI_ANY_SOURCE, whose status names the sender's rank in
    its group; pairs swap through Sendrecv and Probe; a duplicate is congruent; a split and a creation from each
    group's rank 0 join the right parts; both merges order the groups by `high`. The same lines as under Open MPI."""
    done = run(built, "intercomm", np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    evens, odds = list(range(0, np, 2)), list(range(1, np, 2))
    # rank 1 (odd, local rank 0) hears from every even rank: values sum(evens), sources 0 + 1 + ... (twice: the dup)
    assert lines.count(f"rank 1: {len(evens)} messages, values sum {sum(evens)}, sources sum "
                       f"{sum(range(len(evens)))}, tags naming their source {len(evens)}") == 2
    assert f"rank 1: remote group (world ranks): {' '.join(map(str, evens))}" in lines
    assert f"rank 1: merged evens first: rank {len(evens)} of {np}, inter 0, sum of world ranks {sum(range(np))}" \
        in lines
    assert f"rank 1: merged odds first: rank 0 of {np}, inter 0, sum of world ranks {sum(range(np))}" in lines
    assert "rank 0: partner sent 1001, then 2 doubles from source 0" in lines
    assert "rank 0: create: remote size 1, the other leader is 1" in lines
    assert lines == real_mpirun_lines(tmp_path, "intercomm", np)


def test_intercommunicators_refuse_what_mpisim_runs_on_intracommunicators_only(built):
    done = run(built, "intercomm", "errors", np=4)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "remote size of an intracommunicator: MPI_ERR_COMM", "merge of an intracommunicator: MPI_ERR_COMM",
        "send to remote rank remote size: MPI_ERR_RANK", "bcast on an intercommunicator: MPI_ERR_COMM",
        "comm_create_group on an intercommunicator: MPI_ERR_COMM", "cart_create on an intercommunicator: MPI_ERR_COMM",
        "intercomm_create with a local leader out of range: MPI_ERR_RANK",
        "intercomm_create with itself as remote leader: MPI_ERR_ARG"]


def test_a_collective_on_an_intercommunicator_ends_the_run_with_a_report(tmp_path):
    source = tmp_path / "inter.c"
    source.write_text("#include <mpi.h>\nint main(int c, char** v) { MPI_Comm half, inter; int r, x = 0;\n"
                      "MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n"
                      "MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);\n"
                      "MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - r % 2, 0, &inter);\n"
                      "MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, inter); MPI_Finalize(); }\n")
    binary = str(tmp_path / "inter")
    done = mpisim("cc", str(source), "-o", binary)
    assert done.returncode == 0, done.stderr
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", binary)
    assert done.returncode == 1
    assert "MPI_Allreduce: MPI_ERR_COMM: communicator" in done.stderr
    assert "is an intercommunicator: mpisim runs point-to-point calls, MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create, " \
           "MPI_Comm_free and MPI_Intercomm_merge on intercommunicators, not this call" in done.stderr


# SMPI's annotations for large studies (docs/online.md, "Sampling and shared memory") --------------------------------
# The sampling program checks its closed forms itself (see its header comment) with the computation between MPI
# calls not simulated, or simulated with bursts under 1 ms dropped (a sampled body of ~2 ms counted twice would show).
SAMPLING_OPTIONS = {"no-compute": ("--no-compute-time", "--host-speed", "2Gf"),
                    "compute": ("--cpu-threshold", "1ms", "--host-speed", "2Gf")}


def _sampling_expected_lines(np):
    per_rank = ["SMPI_SAMPLE_FLOPS(1e9) adds 1.000000000 s", "SMPI_SAMPLE_DELAY(0.25) adds 0.500000000 s",
                "the blocks of SMPI_SAMPLE_FLOPS and SMPI_SAMPLE_DELAY ran 0 times",
                "smpi_execute_flops(5e8) adds 0.500000000 s", "smpi_execute(0.25) adds 0.500000000 s",
                "smpi_execute_benched(0.25) adds 0.250000000 s", "smpi_usleep(250000) adds 0.250000000 s",
                "smpi_sleep(1) adds 1.000000000 s",
                "SMPI_SAMPLE_LOCAL visit 1: 20 iterations, body ran 3 times, time = iterations x mean",
                "SMPI_SAMPLE_LOCAL visit 2: 40 iterations, body ran 0 times, time = iterations x mean",
                "SMPI_SAMPLE_LOCAL visit 3: 60 iterations, body ran 0 times, time = iterations x mean",
                "SMPI_SAMPLE_LOCAL with threshold 1: body ran 2 times"]
    lines = [f"rank {rank}: {line}" for rank in range(np) for line in per_rank]
    lines.append("SMPI_SAMPLE_GLOBAL: 20 iterations per rank, body ran 5 times over all ranks, every rank's loop took "
                 "the same time")
    return sorted(lines + ["0 failures"])


@pytest.mark.parametrize("mode", sorted(SAMPLING_OPTIONS))
def test_sampling_annotations_in_closed_form(built, tmp_path, mode):
    summary = tmp_path / "summary.json"
    done = run(built, "sampling", np=4, platform=CLUSTER4,
               options=SAMPLING_OPTIONS[mode] + ("--json", "--summary", str(summary)))
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == _sampling_expected_lines(4), done.stdout
    # Injected time is computation in the summary: each rank's date is its computation, its MPI time and the 1.25 s
    # it slept.
    for rank in json.loads(summary.read_text())["ranks"]:
        assert rank["compute"] > 2.75
        assert rank["finish"] == pytest.approx(rank["compute"] + rank["mpi"] + 1.25, abs=3e-9)  # printed to 1 ns


@pytest.mark.parametrize("mode,message", [
    ("mpi-in-body", "MPI call inside the body of the sampled loop at "),
    ("nested", "entered while the one at "),
])
def test_misused_sampled_loops_end_the_run(built, mode, message):
    done = run(built, "sampling", mode, np=2, platform=CLUSTER4, options=SAMPLING_OPTIONS["no-compute"])
    assert done.returncode == 1
    assert done.stderr.startswith("mpisim: rank 0: ") and message in done.stderr and "sampling.c:" in done.stderr


def test_sampled_loop_left_by_break(built):
    done = run(built, "sampling", "break", np=2, platform=CLUSTER4, options=SAMPLING_OPTIONS["no-compute"])
    assert done.returncode == 0, done.stderr
    # 2 samples taken before the break, 3 more wanted: the next pass runs 3 bodies.
    assert sorted(done.stdout.splitlines()) == [f"rank {r}: break after 2 bodies, then the next pass ran 3 bodies"
                                                for r in range(2)]


def test_wtime_is_allowed_in_a_sampled_body(built):
    done = run(built, "sampling", "wtime-in-body", np=2, platform=CLUSTER4, options=SAMPLING_OPTIONS["no-compute"])
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == [f"rank {r}: MPI_Wtime in a sampled body: ok" for r in range(2)]


def test_shared_malloc_larger_than_the_shared_block_is_an_error(built):
    done = run(built, "shared_malloc", "grow", np=2, platform=CLUSTER4)
    assert done.returncode == 1
    assert "mpisim: rank 1: SMPI_SHARED_MALLOC at " in done.stderr
    assert ": 32 bytes asked, but the block shared there has 16 (its first allocation sets its size)" in done.stderr


@pytest.mark.parametrize("np", [1, 4, 7])
def test_shared_malloc_shares_one_buffer_per_call_site(built, np):
    done = run(built, "shared_malloc", np=np, platform=CLUSTER4)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "mpisim: the same address on every rank" in lines
    assert "SMPI_SHARED_CALL: the function ran 1 time(s) over all ranks" in lines
    assert lines[-1] == "0 failures"
    assert sum(line.startswith("rank ") for line in lines) == 5 * np


def _smpirun_lines(tmp_path, name, np, *config):
    return sorted(smpirun_stdout(tmp_path, name, np, config=config).splitlines())


def test_annotated_programs_agree_with_smpirun(built, tmp_path):
    # The same sources, built unchanged by smpicc, give the same lines under SimGrid 3.32's smpirun.
    smpi = _smpirun_lines(tmp_path, "sampling", 4, "--cfg=smpi/simulate-computation:no", "--cfg=smpi/host-speed:2Gf")
    assert smpi == _sampling_expected_lines(4)
    ours = run(built, "sampling", np=4, platform=CLUSTER4,
               options=SMPI_AGREEMENT + SAMPLING_OPTIONS["no-compute"] + ("--quiet",))
    assert sorted(ours.stdout.splitlines()) == smpi
    smpi = _smpirun_lines(tmp_path, "shared_malloc", 4, "--cfg=smpi/shared-malloc:local")
    ours = run(built, "shared_malloc", np=4, platform=CLUSTER4, options=SMPI_AGREEMENT + ("--quiet",))
    assert sorted(line for line in ours.stdout.splitlines() if not line.startswith("mpisim:")) == smpi


ANNOTATED_SOURCE = """
#include <mpisim.h>
#include <stdio.h>
static volatile double sink;
int main(void)
{
  double* buffer = (double*)MPISIM_SHARED_MALLOC(1000 * sizeof(double));
  MPISIM_SAMPLE_LOCAL(int i = 0, i < 10, i++, 2, 0.01) { sink += i; }
  if (sink > 0)
    MPISIM_SAMPLE_GLOBAL(int i = 0, i < 10, i++, 2, -1) { buffer[i] = i; }
  else
    sink = 1;
  MPISIM_SAMPLE_FLOPS(1e6) {}
  SMPI_SAMPLE_DELAY(1e-3) {}
  MPISIM_SHARED_FREE(buffer);
  printf("%g\\n", sink);
  return 0;
}
"""


@pytest.mark.parametrize("language,header", [("c", "mpisim.h"), ("cxx", "mpisim.h"), ("c", "smpi/smpi.h"),
                                             ("cxx", "mpi.h")])
def test_annotation_headers_compile_cleanly(built, tmp_path, language, header):
    # The annotations come from mpisim.h, smpi/smpi.h and mpi.h, in C and C++, without warnings; the macros are
    # single statements (an if/else around one keeps its meaning).
    source = tmp_path / ("annotated.c" if language == "c" else "annotated.cpp")
    source.write_text(ANNOTATED_SOURCE.replace("<mpisim.h>", f"<{header}>"))
    done = mpisim("cc" if language == "c" else "cxx", "-Wall", "-Wextra", "-Werror", str(source), "-o",
                  str(tmp_path / "annotated"))
    assert done.returncode == 0, done.stderr
    done = mpisim("run", "-np", "3", "--platform", "cluster:3", "--quiet", str(tmp_path / "annotated"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1\n" * 3  # the local loop ran its body for its first 2 iterations only: 0 + 1


# The macros of mpisim.h against a recording stub of the runtime: the call sequences of
# docs/specifications/annotation-macros.md, compiled as C99 and as C++ with every warning an error.
MACRO_STUB_SOURCE = r"""
#include <mpisim.h>
#include <stdio.h>

static mpisim_sample_pass the_pass;
static int samples, wanted;

static int note(const char* what, int value) { printf("%s\n", what); return value; }
static double note_amount(const char* what, double value) { printf("%s\n", what); return value; }

mpisim_sample_pass* mpisim_sample_open(int global, const char* file, int line, const char* tag, int iterations,
                                       double threshold)
{
  printf("open(%d, %s, %d, %g)%s\n", global, tag, iterations, threshold, file != NULL && line > 0 ? "" : " no site");
  wanted = iterations;
  the_pass.running = 0;
  the_pass.iterations = 0;
  the_pass.skipping = samples >= wanted;
  return &the_pass;
}
int mpisim_sample_start(mpisim_sample_pass* pass)
{
  const int more = samples < wanted;
  if (!more)
    pass->skipping = 1;
  printf("start -> %d\n", more);
  return more;
}
void mpisim_sample_stop(mpisim_sample_pass* pass)
{
  ++samples;
  pass->running = 0;
  printf("stop (%d samples)\n", samples);
}
mpisim_sample_pass* mpisim_sample_close(mpisim_sample_pass* pass)
{
  if (pass->running)
    mpisim_sample_stop(pass);
  printf("close: mean x %lld\n", pass->iterations);
  return NULL;
}
void mpisim_execute(double seconds) { printf("execute(%g)\n", seconds); }
void mpisim_execute_flops(double flops) { printf("execute_flops(%g)\n", flops); }

static int table[4];
static int* load(int n) { printf("load(%d)\n", n); return table; }
int mpisim_shared_known_call(const char* function, const char* input)
{
  printf("known_call(%s, %s) -> %d\n", function, input, samples == 100);
  return samples == 100;
}
void* mpisim_shared_get_call(const char* function, const char* input)
{
  printf("get_call(%s, %s)\n", function, input);
  return table;
}
void* mpisim_shared_set_call(const char* function, const char* input, void* data)
{
  printf("set_call(%s, %s)\n", function, input);
  samples = 100;
  return data;
}

int main(void)
{
  int x = 1;
  note("-- first pass", 0);
  SMPI_SAMPLE_LOCAL(int i = note("init", 0), note("cond", i < 5), note("step", i++), 3, -1) { note("body", 0); }
  note("-- later pass", 0);
  MPISIM_SAMPLE_LOCAL(int i = note("init", 0), note("cond", i < 4), note("step", i++), 3, -1) { note("body", 0); }
  note("-- continue and break", 0);
  samples = 0;
  SMPI_SAMPLE_GLOBAL_TAG(int i = note("init", 0), note("cond", i < 5), note("step", i++), 4, 0.5, "phase")
  {
    if (note("body", i) == 0)
      continue;
    break;
  }
  note("-- inside if/else", 0);
  samples = 0;
  if (x)
    SMPI_SAMPLE_LOCAL_TAG(int i = 0, i < 1, i++, 1, -1, "t") note("body", 0);
  else
    note("other", 0);
  note("-- flops and delay", 0);
  SMPI_SAMPLE_FLOPS(note_amount("flops argument", 1e9)) { note("flops block", 0); }
  MPISIM_SAMPLE_DELAY(note_amount("delay argument", 0.25)) note("delay block", 0);
  note("-- shared call", 0);
  samples = 0;
  int* first = (int*)SMPI_SHARED_CALL(load, "table-4", 4);
  int* second = (int*)MPISIM_SHARED_CALL(load, "table-4", 4);
  printf("same: %d\n", first == second && first == table);
  return 0;
}
"""

MACRO_STUB_EXPECTED = """-- first pass
open(0, , 3, -1)
init
cond
start -> 1
body
stop (1 samples)
step
cond
start -> 1
body
stop (2 samples)
step
cond
start -> 1
body
stop (3 samples)
step
cond
start -> 0
step
cond
step
cond
close: mean x 5
-- later pass
open(0, , 3, -1)
init
cond
step
cond
step
cond
step
cond
step
cond
close: mean x 4
-- continue and break
open(1, phase, 4, 0.5)
init
cond
start -> 1
body
stop (1 samples)
step
cond
start -> 1
body
stop (2 samples)
close: mean x 2
-- inside if/else
open(0, t, 1, -1)
start -> 1
body
stop (1 samples)
close: mean x 1
-- flops and delay
flops argument
execute_flops(1e+09)
delay argument
execute(0.25)
-- shared call
known_call(load, table-4) -> 0
load(4)
set_call(load, table-4)
known_call(load, table-4) -> 1
get_call(load, table-4)
same: 1
"""


@pytest.mark.parametrize("compiler", [["cc", "-std=c99", "-x", "c"], ["c++", "-std=c++17", "-x", "c++"]])
def test_sampling_macros_call_the_runtime_in_order(tmp_path, compiler):
    if shutil.which(compiler[0]) is None:
        pytest.skip(f"no {compiler[0]}")
    source = tmp_path / "stub.txt"
    source.write_text(MACRO_STUB_SOURCE)
    program = tmp_path / "stub"
    done = subprocess.run([*compiler, "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", repo_path("include"),
                           str(source), "-o", str(program)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == MACRO_STUB_EXPECTED


# ------------------------------------------------------------------------------------ MPICH test-suite findings

def test_program_symbols_win_over_libc_names(built, tmp_path):
    """A global `int err` (libc has err()) is the program's own, per rank: it used to resolve to libc's function
    (reads gave its code, writes crashed), as MPICH's coll/redscat2 showed."""
    done = run(built, "libc_names", np=4)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == real_mpirun_lines(tmp_path, "libc_names", 4)


# ---------------------------------------------- packing, datatype inquiries, alltoallw, info objects, error handlers
# tests/online/pack.c, type_contents.c, alltoallw.c and info_errors.c check their own results and print lines that do
# not depend on the MPI library; calls mpisim lacks fail at link time, or at load time with one line.
PROGRAMS += ["pack", "type_contents", "alltoallw", "info_errors"]
PROGRAMS += ["two_streams", "cart_sub_none"]  # tagging of both streams; Cart_sub keeping no dimension


@pytest.mark.parametrize("name", ["pack", "type_contents", "alltoallw", "info_errors"])
@pytest.mark.parametrize("np", [1, 3, 4])
def test_packing_inquiries_alltoallw_info_and_errors_match_real_mpi(built, tmp_path, name, np):
    done = run(built, name, np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert "PASSED" in lines, done.stdout
    assert lines == real_mpirun_lines(tmp_path, name, np)


@pytest.mark.parametrize("selector", ["default", "ompi", "mpich", "mvapich2", "impi", "automatic"])
def test_alltoallw_under_every_selector(built, selector):
    done = run(built, "alltoallw", np=5, options=("--quiet", "--coll-selector", selector))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "PASSED", done.stdout


UNSUPPORTED_CALL = """#include <mpi.h>
int MPI_Register_datarep(const char* datarep, void* read, void* write, void* extent, void* extra); /* not in mpisim */
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Register_datarep("mine", NULL, NULL, NULL, NULL);
  return MPI_Finalize();
}
"""


def test_unsupported_mpi_call_fails_at_link_time(tmp_path):
    source = tmp_path / "rma.c"
    source.write_text(UNSUPPORTED_CALL)
    done = mpisim("cc", str(source), "-o", str(tmp_path / "rma"))
    assert done.returncode != 0
    assert "undefined reference to `MPI_Register_datarep'" in done.stderr
    assert "-Wl,--no-undefined" in mpisim("cc", "-show", "app.c").stdout


def test_unsupported_mpi_call_is_named_when_the_program_loads(tmp_path):
    # Linked without --no-undefined (by hand): the runner's loader finds the missing function.
    source, objects, program = tmp_path / "rma.c", tmp_path / "rma.o", tmp_path / "rma"
    source.write_text(UNSUPPORTED_CALL)
    assert mpisim("cc", "-c", str(source), "-o", str(objects)).returncode == 0
    subprocess.run(["gcc", "-shared", str(objects), "-o", str(program)], check=True)
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", str(program))
    assert done.returncode == 2
    assert done.stderr == f"mpisim: {program} uses MPI_Register_datarep, which mpisim does not support\n"


def test_fatal_handler_names_an_added_error_code(tmp_path):
    source, program = tmp_path / "fatal.c", tmp_path / "fatal"
    source.write_text("""#include <mpi.h>
int main(int argc, char** argv)
{
  int error_class, code;
  MPI_Init(&argc, &argv);
  MPI_Add_error_class(&error_class);
  MPI_Add_error_code(error_class, &code);
  MPI_Add_error_string(code, "the simulated disk is full");
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
  return MPI_Finalize();
}
""")
    assert mpisim("cc", str(source), "-o", str(program)).returncode == 0
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", str(program))
    assert done.returncode == 1
    assert ": MPI_Comm_call_errhandler: error class 101: error code 102 (the simulated disk is full)" in done.stderr


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


# A completion call raises a request's failure through its communicator's or window's handler (MPI_ERRORS_RETURN),
# not MPI_COMM_WORLD's (MPI_ERRORS_ARE_FATAL): the run goes on and the calls return the classes; the same lines as
# Open MPI.
def test_request_failures_go_through_their_own_objects_handler(built, tmp_path):
    done = run(built, "request_errhandlers", np=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "MPI_Wait on a truncated receive: MPI_ERR_TRUNCATE",
        "MPI_Waitall on a truncated receive: MPI_ERR_IN_STATUS, MPI_ERROR MPI_ERR_TRUNCATE",
        "MPI_Rput outside the window: MPI_ERR_RMA_RANGE",
    ]
    assert sorted(done.stdout.splitlines()) == real_mpirun_lines(tmp_path, "request_errhandlers", 2)


# Send modes seen through MPI_Wtime (rank 1 receives late). Timing-dependent, so not compared with a real run on a
# loaded machine; Open MPI prints the same lines except the MPI_ERR_BUFFER one (it does not check the room left).
@pytest.mark.parametrize("np", [2, 4])
def test_send_modes_seen_through_wtime(built, np):
    # Computation not simulated: rank 0's real time filling and copying 1 MB (milliseconds on a loaded machine) would
    # otherwise be injected and could outlast rank 1's 1 ms wait before its receive.
    done = run(built, "p2p_modes", np=np, options=("--quiet", "--no-compute-time"))
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
    smpi = smpirun_stdout(tmp_path, "p2p_modes", 2, "timing")
    ours = run(built, "p2p_modes", "timing", np=2, platform=CLUSTER4,
               options=SMPI_AGREEMENT + ("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == smpi
    # Not before the receive: one transfer of 4 (+16) bytes on cluster4 later, T = 600e-6 * 2.01467 + 20 / (125e6 *
    # 0.812084) = 0.001209 s (mpi_p2p_modes_test.cpp gives the model's formula).
    assert float(ours.stdout.split()[-4]) == pytest.approx(0.001209, abs=1e-6)


@pytest.mark.parametrize("np", [1, 3])
def test_long_double_complex_and_cxx_types(built, tmp_path, np):
    """MPI_C_LONG_DOUBLE_COMPLEX and the MPI_CXX_* types (MPICH's allred, op_coll, cxx_types need them)."""
    done = run(built, "extra_types", np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert "MPI_C_LONG_DOUBLE_COMPLEX: 32 bytes" in lines and "MPI_CXX_BOOL: 1 bytes" in lines, lines
    assert lines == real_mpirun_lines(tmp_path, "extra_types", np)


def test_buffered_sends_can_be_cancelled_until_matched(built):
    """MPICH's pt2pt/scancel and pscancel: MPI_Ibsend and a started MPI_Bsend_init complete locally, yet their
    messages are cancelled while no receive matches them."""
    done = run(built, "ibsend_cancel", np=2)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == ["Ibsend cancelled: 1, persistent Bsend cancelled: 1",
                                                "persistent Bsend to itself completed before its receive: 42",
                                                "rank 1 received tag 7: 42; tag 5 pending: 0, tag 6 pending: 0"]


def test_mpi_bottom_with_absolute_addresses(built, tmp_path):
    """MPICH's pt2pt/bottom: MPI_BOTTOM with struct types of absolute addresses, blocking and not."""
    done = run(built, "bottom", np=2)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert lines == ["blocking: a = 7, b = 2.5, count 1", "non-blocking: pair = 11 13, count 2"], lines
    assert lines == real_mpirun_lines(tmp_path, "bottom", 2)


@pytest.mark.parametrize("np", [1, 3])
def test_generalized_requests(built, tmp_path, np):
    """MPICH's pt2pt/greq1: MPI_Grequest_start/complete, the query, free and cancel callbacks, a generalized request
    in MPI_Waitall."""
    done = run(built, "grequest", np=np)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stdout.splitlines())
    assert "rank 0: MPI_Wait: count 3 from the query function, 1 query, 1 free, handle null: 1" in lines, lines
    assert lines == real_mpirun_lines(tmp_path, "grequest", np)


def test_generalized_request_never_completed_is_a_deadlock(built):
    done = run(built, "grequest", "never", np=2)
    assert done.returncode == 124, done.stderr
    assert "generalized request (MPI_Grequest_complete not called yet)" in done.stderr, done.stderr


# One-sided communication with fence synchronization. rma_fence and rma_errors print the same lines as Open MPI 4.1
# (which cannot create a window on 1 rank: MPI_ERR_WIN); mpisim alone also says MPI_ERR_KEYVAL for setting a
# predefined window attribute (Open MPI: MPI_ERR_OTHER). rma_keyval is MPICH's keyval_double_free_win pattern, which
# Open MPI fails (MPI_ERR_OTHER at the second free).
@pytest.mark.parametrize("np", [1, 2, 3, 4, 5, 6])
def test_rma_fence_moves_the_data(built, tmp_path, np):
    done = run(built, "rma_fence", np=np)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "PASSED" and not any(line.endswith("FAILED") for line in lines), done.stdout
    if np in (2, 5):
        assert sorted(lines) == real_mpirun_lines(tmp_path, "rma_fence", np)


@pytest.mark.parametrize("np", [1, 3])
def test_rma_argument_errors(built, tmp_path, np):
    done = run(built, "rma_errors", np=np)
    assert done.returncode == 0, done.stderr
    assert "MPI_Win_set_attr on MPI_WIN_BASE: MPI_ERR_KEYVAL" in done.stdout
    ours = [line for line in done.stdout.splitlines() if not line.startswith("MPI_Win_set_attr on MPI_WIN_BASE")]
    assert ours[-1] == "PASSED", done.stdout
    if np > 1:
        assert sorted(ours) == real_mpirun_lines(tmp_path, "rma_errors", np)


@pytest.mark.parametrize("np", [1, 2, 4])
def test_keyval_freed_in_its_window_delete_callback(built, np):
    done = run(built, "rma_keyval", np=np)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "PASSED" in lines and not any(line.endswith("FAILED") for line in lines), done.stdout


RMA_MISUSE = """#include <mpi.h>
int main(int argc, char** argv)
{
  int memory[2] = {0, 0}, value = 1;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(&value, 1, MPI_INT, TARGET, 0, 1, MPI_INT, WINDOW);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  return MPI_Finalize();
}
"""


@pytest.mark.parametrize("target,window,message", [
    ("9", "win", "MPI_Put: MPI_ERR_RANK: invalid target rank 9 in a window of 2 ranks"),
    ("1", "win + 7", "MPI_Put: MPI_ERR_WIN: invalid window"),
])
def test_rma_errors_are_fatal_by_default(tmp_path, target, window, message):
    source, program = tmp_path / "rma_misuse.c", tmp_path / "rma_misuse"
    source.write_text(RMA_MISUSE.replace("TARGET", target).replace("WINDOW", window))
    assert mpisim("cc", str(source), "-o", str(program)).returncode == 0
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", str(program))
    assert done.returncode == 1
    assert done.stderr.startswith("mpisim: rank 0: " + message), done.stderr


# Passive target, PSCW, request-based operations, atomics, dynamic and shared windows (tests/online/rma_sync.c): the
# same lines as Open MPI 4.1 (which cannot make a window on 1 rank).
@pytest.mark.parametrize("np", [1, 2, 4, 5])
def test_rma_synchronizations_move_the_data(built, tmp_path, np):
    done = run(built, "rma_sync", np=np)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 10 and all(line.endswith(": ok") for line in lines), done.stdout
    if np > 1:
        assert sorted(lines) == real_mpirun_lines(tmp_path, "rma_sync", np)


def test_shared_window_on_one_host_and_refused_across_hosts(built):
    done = run(built, "rma_sync", "shared", np=4, platform="cluster:1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["shared window neighbours: ok", "shared window flavor and unified model: ok"]
    refused = run(built, "rma_sync", "shared", np=4, platform="cluster:4")
    assert refused.returncode == 1
    assert "MPI_Win_allocate_shared: MPI_ERR_RMA_SHARED: ranks 0 and 1 of the communicator run on different hosts" \
        in refused.stderr


# MPI_PROC_NULL is a valid target of every RMA call (MPI-3.1 section 11.3; MPICH's rma/rmanull): the calls succeed and
# nothing moves. Open MPI 4.1 prints the same lines, except those of a lock of MPI_PROC_NULL, which it refuses
# (MPI_ERR_RANK) and whose flush crashes it; MPICH and SMPI accept them as mpisim does.
RMA_NULL_MPISIM_ONLY = ["lock, operations, flushes and unlock of MPI_PROC_NULL: ok",
                        "MPI_PROC_NULL locked inside a lock of the caller's part: ok"]


@pytest.mark.parametrize("np", [1, 2, 3])
def test_rma_to_proc_null_succeeds_and_moves_nothing(built, tmp_path, np):
    done = run(built, "rma_null", np=np)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6 and all(line.endswith(": ok") for line in lines), done.stdout
    assert set(RMA_NULL_MPISIM_ONLY) <= set(lines)
    if np > 1:
        assert sorted(set(lines) - set(RMA_NULL_MPISIM_ONLY)) == real_mpirun_lines(tmp_path, "rma_null", np)


WINDOW_DEFAULT_HINTS = ("no_locks=false accumulate_ordering=rar,raw,war,waw accumulate_ops=same_op_no_op same_size=false "
                        "same_disp_unit=false")


def test_window_hints_in_effect(built):
    # MPI's defaults, then the hints given at creation and set since; unknown keys and invalid values ignored (as
    # MPICH). Open MPI 4.1 is no reference here: it returns the keys given at creation verbatim, unknown ones and
    # invalid values included, and MPI_Win_set_info does not add a key that creation did not give.
    done = run(built, "rma_info", np=3)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "created without hints: " + WINDOW_DEFAULT_HINTS,
        "allocated with no_locks=true, favourite_colour=blue, accumulate_ops=same_op, same_size=yes: no_locks=true "
        "accumulate_ordering=rar,raw,war,waw accumulate_ops=same_op same_size=false same_disp_unit=false",
        "set no_locks=false, accumulate_ordering=none, same_disp_unit=true: no_locks=false accumulate_ordering=none "
        "accumulate_ops=same_op same_size=false same_disp_unit=true",
        "set accumulate_ordering=rar,wrong, accumulate_ops=any_op, then accumulate_ordering=war,raw: no_locks=false "
        "accumulate_ordering=war,raw accumulate_ops=same_op same_size=false same_disp_unit=true",
        "after changing a returned info object: no_locks=false accumulate_ordering=war,raw accumulate_ops=same_op "
        "same_size=false same_disp_unit=true",
        "MPI_Win_set_info with MPI_INFO_NULL: MPI_ERR_INFO",
        "shared, allocated with alloc_shared_noncontig=true: " + WINDOW_DEFAULT_HINTS + " alloc_shared_noncontig=true",
        "dynamic: " + WINDOW_DEFAULT_HINTS,
        "hints agree on every rank: ok"]


# Misuse of passive-target, PSCW and dynamic windows under MPI_ERRORS_RETURN (tests/online/rma_sync_errors.c): the
# classes Open MPI 4.1 returns, except where it returns none or another (the lines below; the reasons are in the
# program).
RMA_SYNC_ERRORS_MPISIM_ONLY = ["MPI_Win_complete without MPI_Win_start: MPI_ERR_RMA_SYNC",
                               "MPI_Win_detach on a window that is not dynamic: MPI_ERR_RMA_FLAVOR",
                               "MPI_Put past the region attached at the target: MPI_ERR_RMA_RANGE",
                               "MPI_Win_detach of memory not attached: MPI_ERR_RMA_ATTACH"]


@pytest.mark.parametrize("np", [1, 2, 3])
def test_rma_epoch_misuse_returns_the_error_class(built, tmp_path, np):
    done = run(built, "rma_sync_errors", np=np)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "PASSED", done.stdout
    assert set(RMA_SYNC_ERRORS_MPISIM_ONLY) <= set(lines)
    if np > 1:
        ours = sorted(set(lines) - set(RMA_SYNC_ERRORS_MPISIM_ONLY))
        assert ours == real_mpirun_lines(tmp_path, "rma_sync_errors", np)


RMA_EPOCH_MISUSE = """#include <mpi.h>
int main(int argc, char** argv)
{
  int memory[2] = {0, 0}, value = 1, rank;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (rank == 1) {
    STATEMENTS;
  }
  MPI_Win_free(&win);
  return MPI_Finalize();
}
"""


@pytest.mark.parametrize("statements,message", [
    ("MPI_Win_unlock(0, win)", "MPI_Win_unlock: MPI_ERR_RMA_SYNC: rank 0 is not locked by this rank"),
    ("MPI_Get(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win)", "MPI_Get: MPI_ERR_RMA_SYNC: no access epoch to rank 0"),
    ("MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win)", "MPI_Win_lock: MPI_ERR_RANK: invalid rank 2 in a window of 2 ranks"),
    ("MPI_Win_complete(win)", "MPI_Win_complete: MPI_ERR_RMA_SYNC: no MPI_Win_start epoch is open"),
    ("MPI_Win_attach(win, &value, sizeof value)", "MPI_Win_attach: MPI_ERR_RMA_FLAVOR: the window is not dynamic"),
    ("MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win); MPI_Put(&value, 1, MPI_INT, 0, 2, 1, MPI_INT, win)",
     "MPI_Put: MPI_ERR_RMA_RANGE: the target data lies outside rank 0's window of 8 bytes"),
])
def test_rma_epoch_misuse_is_fatal_by_default_and_names_rank_and_call(tmp_path, statements, message):
    source, program = tmp_path / "rma_epoch_misuse.c", tmp_path / "rma_epoch_misuse"
    source.write_text(RMA_EPOCH_MISUSE.replace("STATEMENTS", statements))
    assert mpisim("cc", str(source), "-o", str(program)).returncode == 0
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", str(program))
    assert done.returncode == 1
    assert done.stderr.startswith("mpisim: rank 1: " + message), done.stderr


def test_rma_epochs_of_large_transfers_take_smpiruns_time(built, tmp_path):
    # 10 MB rings of puts, gets and accumulates between fences: the same algorithm as SimGrid 3.32 (data moved at
    # the call, a fence of two barriers, docs/specifications/one-sided.md), the same epochs to the nanosecond, and
    # the same MPI_Win_free (two barriers). Creation differs: mpisim makes a hidden communicator first.
    smpi = smpirun_stdout(tmp_path, "rma_timing", 4, "10000000")
    ours = run(built, "rma_timing", "10000000", np=4, platform=CLUSTER4,
               options=SMPI_AGREEMENT + ("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr

    def epochs(line):
        words = line.split()
        return {name: float(words[words.index(name) + 2]) for name in ("put", "get", "accumulate")} | {
            "free": float(words[words.index("free") + 1])}

    theirs, mine = epochs(smpi), epochs(ours.stdout)
    for name in ("put", "get", "accumulate", "free"):
        assert mine[name] == pytest.approx(theirs[name], rel=1e-6), (name, mine, theirs)


def rma_sync_epochs(line):
    """{"lock put": seconds, "lock get": ..., "lock_all put": ..., "pscw put": ...} of rma_sync_timing's line."""
    return {name: float(seconds) for name, seconds in re.findall(r"([a-z_]+ [a-z]+) ([0-9.]+)", line)}


@pytest.mark.parametrize("size", ["8", "10000000"])
def test_passive_target_and_pscw_epochs_take_smpiruns_time(built, tmp_path, size):
    # Rings on 4 ranks, each epoch after a barrier: exclusive lock + put, shared lock + get, lock_all + put, PSCW + put
    # (no target locked twice: SMPI's lock is no readers-writer lock, see docs/specifications/one-sided.md). No
    # message for the locks, the transfers, the flushes under the members' list mutexes (member by member for
    # lock_all), PSCW's "complete" receives posted by Win_wait, as SMPI 3.32; under SimGrid's rounds (--scheduling
    # smpi) the mutexes are taken in SimGrid's order, and rank 0 sees every epoch last as long as under smpirun.
    smpi = smpirun_stdout(tmp_path, "rma_sync_timing", 4, size)
    ours = run(built, "rma_sync_timing", size, np=4, platform=CLUSTER4,
               options=SMPI_AGREEMENT + ("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    theirs, mine = rma_sync_epochs(smpi), rma_sync_epochs(ours.stdout)
    assert len(mine) == 4 and mine == pytest.approx(theirs, rel=1e-6), (mine, theirs)


# Tagging of stdout and stderr (--tag-output) -------------------------------------------------------------------------

TWO_STREAMS_LINES = {"out": [f"[{r}] out {r} {when}" for r in range(3) for when in ("first", "second")],
                     "err": [f"[{r}] err {r} {when}" for r in range(3) for when in ("first", "second")]}


def test_tag_output_tags_stderr_as_stdout_and_leaves_the_summary_untagged(built):
    # Every rank writes a line on each stream, then a line on stderr in two pieces around an MPI call: each line
    # arrives whole, tagged with its rank, on its own stream; the summary follows on stderr, untagged.
    done = run(built, "two_streams", np=3, platform="cluster:3", options=("--tag-output",))
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == TWO_STREAMS_LINES["out"]
    tagged = [line for line in done.stderr.splitlines() if line.startswith("[")]
    assert sorted(tagged) == TWO_STREAMS_LINES["err"]
    rest = [line for line in done.stderr.splitlines() if not line.startswith("[")]
    assert rest[0].startswith("Simulated time: ") and rest[1].split() == ["rank", "compute", "mpi", "finish", "calls"]


@pytest.mark.parametrize("end,status,last_line,report", [
    ("abort", 5, "[1] err 1 aborting", "mpisim: rank 1 called MPI_Abort with error code 5 at simulated time "),
    ("crash", 139, "[1] err 1 crashing", "mpisim: rank 1 received signal 11 (Segmentation fault) at simulated time "),
    ("exit", 3, "[1] err 1 exiting", "mpisim: rank 1 exited with status 3 (called exit) at simulated time ")])
def test_tag_output_keeps_the_last_lines_before_an_abnormal_end(built, end, status, last_line, report):
    # What rank 1 wrote on stderr just before ending the run (a line without its newline for exit()) comes out
    # tagged; mpisim's report comes last, untagged, on the real stderr (for exit(), with the ranks left waiting).
    done = run(built, "two_streams", end, np=3, platform="cluster:3", options=("--tag-output", "--quiet"))
    assert done.returncode == status, done.stderr
    lines = done.stderr.splitlines()
    assert last_line in lines
    first = next(i for i, line in enumerate(lines) if line.startswith("mpisim: "))
    assert lines[first].startswith(report) and lines.index(last_line) < first
    assert all(line.startswith("[") for line in lines[:first]), lines
    assert all(line.startswith("  rank ") for line in lines[first + 1:]), lines
    assert all(line.startswith("[") for line in done.stdout.splitlines())


def test_cart_sub_keeping_no_dimension_gives_rank_0_a_communicator(built):
    # As MPICH and SMPI (MPICH's topo/cartsuball): a zero-dimensional grid has one process; Open MPI differs (every
    # rank gets one), so this is not compared with a real run.
    done = run(built, "cart_sub_none", np=4)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == [
        "rank 0: 1 rank(s), congruent to MPI_COMM_SELF, Cartesian 1, 0 dimensions",
        "rank 1: MPI_COMM_NULL", "rank 2: MPI_COMM_NULL", "rank 3: MPI_COMM_NULL"]


# Polling loops (docs/specifications/polling.md; tests/online/polling.c) ------------------------------------------

def _polled_time(done):
    assert done.returncode == 0, done.stderr
    return float(done.stdout.split()[-2])


@pytest.mark.parametrize("mode", ["wait", "test", "testany", "testall"])
def test_polling_pingpong_closed_form_under_realistic_polling(built, mode):
    # fluid on cluster:2 (L = 2 x 10 us, B = 1 GB/s): 1 MB takes 20e-6 + 1e6 / 1e9 = 1.020 ms each way. Blocking
    # receives: 2.040 ms per round trip. Polled ones: each completion is seen by the poll after it, 100 ns later
    # (--poll-cost), whatever the loop: 2.0402 ms.
    done = run(built, "polling", mode, "1000000", "1", np=2, platform="cluster:2,bw=1GBps,lat=10us",
               options=("--model", "fluid", "--no-compute-time", "--wtime-delay", "0", "--quiet"))
    expected = 2.040e-3 if mode == "wait" else 2.040e-3 + 2 * 100e-9
    assert _polled_time(done) == pytest.approx(expected, abs=1e-12), done.stdout


def test_test_loop_costs_the_blocking_receive_plus_one_poll(built):
    # Under the smpi network model on cluster4: three round trips of 1 MB received by MPI_Test loops take what
    # blocking receives take, plus one poll (100 ns) per receive: 6 x 100 ns. (SimGrid's rule adds 14 % here.)
    times = {}
    for mode in ("wait", "test", "iprobe"):
        times[mode] = _polled_time(run(built, "polling", mode, "1000000", "3", np=2, platform=CLUSTER4,
                                       options=("--no-compute-time", "--quiet")))
    assert times["test"] - times["wait"] == pytest.approx(6e-7, abs=1e-12), times
    assert 0 <= times["iprobe"] - times["wait"] <= 6 * 2e-7, times


def test_rank_polling_while_another_computes_is_fast_forwarded(built):
    # Rank 1 computes 1000 s then sends 1 MB; rank 0 polls with MPI_Test all along. Fluid model: the message arrives
    # at 1000 + 20e-6 + 1e-3 s, seen 100 ns later; the run takes a fraction of a second, not 1e10 polls.
    import time
    started = time.monotonic()
    done = run(built, "polling", "late", "1000000", np=2, platform="cluster:2,bw=1GBps,lat=10us",
               options=("--model", "fluid", "--no-compute-time", "--wtime-delay", "0", "--json"))
    wall = time.monotonic() - started
    assert _polled_time(done) == pytest.approx(1000 + 20e-6 + 1e-3 + 100e-9, abs=1e-9), done.stdout
    assert json.loads(done.stderr)["simulated_time"] == pytest.approx(1000.0010201, abs=1e-9)
    assert wall < 5, wall


def test_bounded_polling_loop_is_released_and_an_endless_one_is_a_deadlock(built):
    # Rank 0 probes 100 times for a message rank 1 sends only after rank 0's next send: fast-forwarded, then released
    # when both ranks wait; 100 probes of 100 ns, then the exchange. A loop probing for a message nobody sends is a
    # deadlock (a real run would spin forever).
    done = run(built, "polling", "bounded", "0", "100", np=2, options=("--no-compute-time", "--quiet"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("bounded: 100 probes found 0, exchange done after "), done.stdout
    done = run(built, "polling", "forever", np=2, options=("--no-compute-time", "--quiet"))
    assert done.returncode == 124, done.stderr
    # Found at the second stall: 2 probes, released, 1000 more, then the repeat: 1003 x 100 ns.
    assert done.stderr.startswith("mpisim: deadlock at simulated time 0.0001003 s: 1 blocked actor\n"
                                  "  rank 0 waits for probe for a message from any rank, tag 5"), done.stderr


def test_polling_loop_bounded_by_gettimeofday_stops_at_its_deadline(built):
    # The C library's clocks end a polling streak as MPI_Wtime does: rank 0 gives up after 1 ms of gettimeofday
    # time (each read spends --wtime-delay, 10 ns; each MPI_Test 100 ns), not when rank 1's message arrives after its
    # sleep(1), which a fast-forward past the deadline would show.
    done = run(built, "polling", "deadline", np=2, options=("--no-compute-time", "--quiet"))
    assert done.returncode == 0, done.stderr
    flag, waited = done.stdout.split()[2], float(done.stdout.split()[4])
    assert flag == "0" and 1e-3 <= waited < 1.01e-3, done.stdout


@pytest.mark.parametrize("mode,np,size,rounds", [("test", 2, "1000000", "3"), ("test", 2, "100000", "3"),
                                                 ("test", 2, "1000", "2"), ("testany", 2, "100000", "3"),
                                                 ("testall", 2, "1000000", "3"), ("iprobe", 2, "1000000", "3"),
                                                 ("iprobe", 2, "100000", "3"), ("workers", 4, "100000", "12"),
                                                 ("workers", 4, "1000", "20"), ("test", 2, "1000", "5"),
                                                 ("testany", 2, "1000", "5"), ("testall", 2, "1000", "5"),
                                                 ("iprobe", 2, "1000", "5"), ("testall", 2, "100000", "3"),
                                                 ("testall", 2, "100000", "5")])
def test_polling_agrees_with_smpirun_under_polling_smpi(built, tmp_path, mode, np, size, rounds):
    # SimGrid 3.32's rule: growing delays with counters shared by every rank, MPI_Iprobe charged as computation,
    # MPI_Probe a loop of them (the manager/worker program finds its workers' answers with MPI_Probe on
    # MPI_ANY_SOURCE). The times MPI_Wtime measures are the same. The small messages make both ranks' polls end at
    # one date: they resume in SimGrid's order (docs/specifications/same-date-order.md). Testall of 100000 bytes
    # needs SimGrid's rounds too: at 18.4 ms the ranks' tests alternate, and rank 1's next test reads the shared
    # counter after rank 0's failure raised it (same-date-order.md, "Rounds"; 0.0546 s when each rank runs until
    # it blocks).
    smpi = smpirun_stdout(tmp_path, "polling", np, mode, size, rounds)
    ours = run(built, "polling", mode, size, rounds, np=np, platform=CLUSTER4,
               options=SMPI_AGREEMENT + ("--no-compute-time", "--quiet"))
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == smpi


@pytest.mark.parametrize("np", [1, 2, 5])
def test_fortran_named_types_and_handle_conversions(built, np):
    """MPI_INTEGER, MPI_REAL, MPI_COMPLEX ... in C: sizes and names, reductions the standard defines on them (and
    MPI_ERR_OP for one it does not), MPI_Type_match_size, f2c/c2f of every handle kind and of a status. The program
    checks each value against the one computed by hand and prints "ok" when all match."""
    done = run(built, "fortran_types", np=np)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(done.stdout.splitlines()) == [f"rank {r}: ok" for r in range(np)], done.stdout


@pytest.mark.parametrize("np", [1, 4])
def test_mpi1_interface_removed_in_mpi3(built, np):
    """MPI_LB/MPI_UB (sticky through derived types, as MPI-1.1 section 3.12.3 says; SMPI 3.32 drops them in a type
    built from a marked type, MPICH keeps them), MPI_Type_struct/hvector/hindexed, MPI_Type_extent/lb/ub,
    MPI_Address, MPI_Errhandler_create/set/get, MPI_Keyval_create and MPI_Attr_* with the MPI-1 callbacks. Values
    computed by hand in the program."""
    done = run(built, "mpi1_legacy", np=np)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(done.stdout.splitlines()) == [f"rank {r}: ok" for r in range(np)], done.stdout


@pytest.mark.parametrize("model", ["smpi", "hybrid", "loggps", "fluid", "xsim", "packet"])
def test_send_buffer_written_after_the_send_returns(built, model):
    # loggps releases a rendezvous sender after the handshake, before the payload arrives: the payload was read from
    # the buffer at the arrival, after the sender had refilled it (every value wrong, then a crash on the freed
    # buffer). It is now taken from the sender's buffer when the sender is released.
    done = run(built, "buffer_reuse", np=2, platform="cluster:2", options=("--quiet", "--model", model))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "round 1: 0 wrong\nround 2: 0 wrong\n"
