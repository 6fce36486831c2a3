"""OTF2 traces in and out (docs/otf2.md): an archive written through the OTF2 writer API by otf2/write_fixture.c
(4 ranks: blocking and non-blocking point-to-point, MPI_Sendrecv on a sub-communicator, bcast, allreduce, alltoall,
gatherv, barrier, computation gaps; the `communicators` variant adds collectives on a sub-communicator and on
MPI_COMM_SELF, and an alltoallv), next to the time-independent trace the documented mapping turns it into."""

import os
import subprocess
import sys

import pytest

import mpisim
from smpi import require_smpirun, smpi_replay_time, write_hostfile

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORM = os.path.join(HERE, "..", "..", "examples", "replay-basic", "cluster4.xml")
SPEED = 1e9


def _fixture(tmp_path, variant=None, speed=SPEED):
    program = tmp_path / "write_fixture"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "otf2"], check=True, capture_output=True,
                           text=True).stdout.split()
    subprocess.run(["cc", "-O1", "-o", str(program), os.path.join(HERE, "otf2", "write_fixture.c"), *flags, "-lm"],
                   check=True)
    out = tmp_path / "fixture"
    out.mkdir()
    subprocess.run([str(program), str(out), "trace", repr(speed)] + ([variant] if variant else []), check=True)
    return str(out / "trace.otf2"), str(out / "ti" / "index.txt")


def test_otf2_replays_as_its_time_independent_equivalent(tmp_path):
    archive, ti = _fixture(tmp_path)
    from_otf2 = mpisim.replay(archive, platform=PLATFORM, otf2_host_speed="1Gf")
    from_ti = mpisim.replay(ti, platform=PLATFORM)
    assert from_otf2.simulated_time == from_ti.simulated_time
    assert [r.finish for r in from_otf2.ranks] == [r.finish for r in from_ti.ranks]
    # the computation gaps: rank r computes (r+1) ms + 2 + 0.5 + 0.1 + 0.1 + 0.2 + 1 ms at 1 Gf/s
    for r in from_otf2.ranks:
        assert r.compute == pytest.approx(((r.rank + 1) + 3.9) * 1e-3, rel=1e-12)


def test_collectives_on_sub_communicators_and_alltoallv_sizes(tmp_path):
    archive, ti = _fixture(tmp_path, "communicators")
    # the bcast on {2, 3} from its rank 1 is the one message 3 -> 2; MPI_COMM_SELF's allreduce is nothing; the
    # alltoallv's per-peer sizes are s_j v_i / sum(v), which keep each rank's recorded totals
    from_otf2 = mpisim.replay(archive, platform=PLATFORM, otf2_host_speed="1Gf")
    from_ti = mpisim.replay(ti, platform=PLATFORM)
    assert from_otf2.simulated_time == from_ti.simulated_time
    assert [r.finish for r in from_otf2.ranks] == [r.finish for r in from_ti.ranks]
    # a trace with collectives on a communicator SimGrid's format cannot name is not converted
    done = subprocess.run([sys.executable, "-m", "mpisim", "convert", archive, "-o", str(tmp_path / "ti-out")],
                          capture_output=True, text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and archive in lines[0] and "other than MPI_COMM_WORLD" in lines[0]
    assert not (tmp_path / "ti-out").exists()


def test_host_speed_option_comes_from_the_table(tmp_path):
    option = {o["name"]: o for o in mpisim.run_options()}["--otf2-host-speed"]
    assert option["front_ends"] == ["replay"] and option["type"] == "speed" and option["group"] == "trace_format"
    for command in ("replay", "convert"):
        shown = subprocess.run([sys.executable, "-m", "mpisim", command, "--help"], capture_output=True,
                               text=True).stdout
        assert "".join(option["description"].split()) in "".join(shown.split()), command
    archive, _ = _fixture(tmp_path)
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", archive, "--platform", PLATFORM,
                           "--otf2-host-speed", "0f"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.strip() == \
        "mpisim: --otf2-host-speed: the host speed must be a positive number of flop/s"


def test_host_speed_scales_the_computation(tmp_path):
    archive, _ = _fixture(tmp_path)
    # recorded on a machine of half the platform's 1 Gf/s: half the flops, half the time here
    fast = mpisim.replay(archive, platform=PLATFORM, otf2_host_speed="0.5Gf")
    assert fast.ranks[0].compute == pytest.approx(0.5 * 4.9e-3, rel=1e-12)
    default = mpisim.replay(archive, platform=PLATFORM)  # each rank's host speed: gaps last what they lasted
    assert default.ranks[0].compute == pytest.approx(4.9e-3, rel=1e-12)


def test_convert_writes_a_trace_mpisim_and_smpirun_replay(tmp_path):
    archive, ti = _fixture(tmp_path)
    converted = tmp_path / "converted"
    assert mpisim.convert(archive, str(converted), otf2_host_speed="1Gf") == 58
    expected = mpisim.replay(ti, platform=PLATFORM).simulated_time
    assert mpisim.replay(str(converted / "index.txt"), platform=PLATFORM).simulated_time == expected
    require_smpirun()
    hosts = mpisim.platform_hosts(PLATFORM)[:4]
    hostfile = write_hostfile(str(tmp_path / "hostfile"), hosts)
    smpi = smpi_replay_time(str(converted / "index.txt"), PLATFORM, 4, hostfile)
    assert smpi == pytest.approx(expected, rel=0.01)


def test_timeline_otf2_is_read_by_otf2_print_and_round_trips(tmp_path):
    archive, _ = _fixture(tmp_path)
    timeline = tmp_path / "sim.otf2"
    first = mpisim.replay(archive, platform=PLATFORM, timeline=str(timeline))
    printed = subprocess.run(["otf2-print", str(timeline)], check=True, capture_output=True, text=True).stdout
    counts = {name: sum(1 for line in printed.splitlines() if line.startswith(name + " "))
              for name in ("ENTER", "LEAVE", "MPI_SEND", "MPI_RECV", "MPI_ISEND", "MPI_ISEND_COMPLETE",
                           "MPI_IRECV_REQUEST", "MPI_IRECV", "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END")}
    # 4 ranks x (init + finalize + 5 collectives + 5 or 6 computations) + p2p calls: sends from rank 0 and the two
    # halves of the sendrecvs, the isend/irecv and their waits
    assert counts["ENTER"] == counts["LEAVE"]
    assert counts["MPI_COLLECTIVE_BEGIN"] == counts["MPI_COLLECTIVE_END"] == 4 * 5
    assert counts["MPI_ISEND"] == 3 and counts["MPI_ISEND_COMPLETE"] == 3  # rank 0's, and the two sendrecv halves
    assert counts["MPI_IRECV_REQUEST"] == 3 and counts["MPI_IRECV"] == 3
    assert counts["MPI_SEND"] == 1 and counts["MPI_RECV"] == 1
    again = mpisim.replay(str(timeline), platform=PLATFORM)
    assert again.simulated_time == first.simulated_time


@pytest.mark.parametrize("variant", ["rma", "truncated"])
def test_bad_archive_is_one_line_and_exit_2(tmp_path, variant):
    archive, _ = _fixture(tmp_path, "rma" if variant == "rma" else None)
    if variant == "truncated":
        events = os.path.join(os.path.dirname(archive), "trace", "2.evt")
        with open(events, "r+b") as f:
            f.truncate(os.path.getsize(events) // 2)
    command = [sys.executable, "-m", "mpisim", "replay", archive, "--platform", PLATFORM]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].count(archive) == 1
    assert ("unsupported record RmaPut" in lines[0]) if variant == "rma" else ("not a readable OTF2 archive" in lines[0])
