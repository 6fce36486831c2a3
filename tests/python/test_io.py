"""MPI-IO in online runs (docs/io.md): programs of tests/online/io_*.c under `mpisim run`. The data read back are
checked by the programs; the file left behind and the lines printed are the same as under Open MPI (skipped when
mpirun is absent); a write's simulated time is the hand-computed sum of docs/io.md's worked example; names never
escape the I/O root; bad storage descriptions are input errors."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys

import pytest

from conftest import repo_path
from test_online import SOURCES, _environment, mpisim

PAPER_CLUSTER = repo_path("platforms", "pio-cluster-10.xml")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("io")
    paths = {}
    for name in ("io_basic", "io_timing", "io_paths", "io_views", "io_manage", "io_stream", "io_atomic", "io_datarep"):
        paths[name] = str(out / name)
        done = mpisim("cc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


EXPECTED_BASIC = sorted(
    ["open of a missing file: MPI_ERR_NO_SUCH_FILE", "read-only creation: MPI_ERR_AMODE", "size after region 1: 128",
     "region 2 in file order: ok", "shared pointer after ordered writes: 10", "read at the end: count 0; size 312",
     "filetype of 3 bytes over an int etype: MPI_ERR_ARG", "write to a read-only file: MPI_ERR_READ_ONLY"]
    + [f"rank {r}: block of rank {(r + 1) % 4} read back: ok" for r in range(4)]
    + [f"rank {r}: interleaved write_all and read_all: ok" for r in range(4)]
    + [f"rank {r}: non-blocking read of rank {(r + 1) % 4}'s int: ok" for r in range(4)])


def expected_basic_file() -> bytes:
    """io_basic.dat as the program defines it (4 ranks, N = 8 ints each)."""
    ints = [r * 100 + i for r in range(4) for i in range(8)]  # region 1: blocks at explicit offsets
    ints += [1000 + k for k in range(32)]  # region 2: interleaved, in file order
    ints += [5000 + r for r in range(4) for _ in range(r + 1)]  # region 3: ordered, rank r writes r + 1 ints
    ints += [7000 + r for r in range(4)]  # non-blocking writes past the end
    return b"".join(i.to_bytes(4, "little", signed=True) for i in ints)


# cluster:4: every rank is an aggregator; cluster:2: two of the four (ranks sharing a host), the others only send and
# receive.
@pytest.mark.parametrize("platform", ["cluster:4", "cluster:2", PAPER_CLUSTER])
def test_data_read_back_and_file_contents(built, tmp_path, platform):
    root = tmp_path / "root"
    done = mpisim("run", "-np", "4", "--platform", platform, "--io-root", str(root), "--quiet", built["io_basic"])
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == EXPECTED_BASIC
    assert (root / "io_basic.dat").read_bytes() == expected_basic_file()


@pytest.mark.parametrize("model", ["loggps", "xsim", "hybrid"])
def test_every_network_model_carries_the_storage_traffic(built, tmp_path, model):
    # loggps: delays without sharing; xsim: arrivals dated when the receiver matches (the servers are its ranks 4 ..).
    root = tmp_path / "root"
    done = mpisim("run", "-np", "4", "--platform", repo_path("platforms", "io-nvme.xml"), "--model", model,
                  "--io-root", str(root), "--quiet", built["io_basic"])
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == EXPECTED_BASIC
    assert (root / "io_basic.dat").read_bytes() == expected_basic_file()


def test_same_output_and_file_as_open_mpi(built, tmp_path):
    if shutil.which("mpicc") is None or shutil.which("mpirun") is None:
        pytest.skip("no real MPI to compare with")
    real = tmp_path / "real"
    real.mkdir()
    binary = str(real / "io_basic")
    subprocess.run(["mpicc", "-O1", os.path.join(SOURCES, "io_basic.c"), "-o", binary], check=True)
    done = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "4", binary],
                          capture_output=True, text=True, timeout=120, cwd=real)
    assert done.returncode == 0, done.stderr
    root = tmp_path / "root"
    ours = mpisim("run", "-np", "4", "--platform", "cluster:4", "--io-root", str(root), "--quiet", built["io_basic"])
    assert ours.returncode == 0, ours.stderr
    assert sorted(ours.stdout.splitlines()) == sorted(done.stdout.splitlines())
    assert (root / "io_basic.dat").read_bytes() == (real / "io_basic.dat").read_bytes()


def run_timing(built, tmp_path, *args):
    done = mpisim("run", "-np", "2", "--platform", PAPER_CLUSTER, "--model", "fluid", "--no-compute-time",
                  "--io-root", str(tmp_path / "root"), "--quiet", built["io_timing"], *args)
    assert done.returncode == 0, done.stderr
    return float(done.stdout.split(":")[1].split()[0])


def test_write_time_is_the_worked_example(built, tmp_path):
    # docs/io.md: node-1 writes 1 MiB to a file on node-0 alone (striping_factor 1), which takes it into its
    # write-behind cache: request, data, 20 us of request overhead, a copy at 5 GB/s, acknowledgement, over Gigabit
    # Ethernet (125e6 B/s, 2 x 50 us). MPI_Wtime adds its 10 ns after reading the start.
    message = 100e-6 + 256 / 125e6
    expected = 2 * message + 100e-6 + 1048576 / 125e6 + 20e-6 + 1048576 / 5e9
    assert run_timing(built, tmp_path) == pytest.approx(expected + 1e-8, abs=1e-9)


def disks_platform(tmp_path) -> str:
    """Two hosts, each with a SimGrid <disk> writing at 50 MB/s, no file servers."""
    platform = tmp_path / "disks.xml"
    hosts = "".join(f'<host id="h{i}" speed="1Gf"><disk id="d{i}" read_bw="100MBps" write_bw="50MBps"/></host>'
                    for i in range(2))
    platform.write_text('<?xml version="1.0"?><platform version="4.1"><zone id="z" routing="Full">' + hosts +
                        '<link id="l" bandwidth="125MBps" latency="50us"/>'
                        '<route src="h0" dst="h1"><link_ctn id="l"/></route></zone></platform>')
    return str(platform)


def test_simgrid_disks_without_file_servers(built, tmp_path):
    # SimGrid's <disk> on each host, no io/servers: a rank's file is on its own host's disk, no network; a write of
    # 1 MiB takes 1048576 / write_bw (a disk without props has no latency), as SMPI times a lone access.
    done = mpisim("run", "-np", "2", "--platform", disks_platform(tmp_path), "--no-compute-time", "--io-root",
                  str(tmp_path / "root"), "--quiet", built["io_timing"])
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.split(":")[1].split()[0]) == pytest.approx(1048576 / 50e6 + 1e-8, abs=1e-9)


def run_atomic(built, tmp_path, flag: str) -> list[tuple[float, float]]:
    """The (start, end) of each rank's write in io_atomic, by rank."""
    done = mpisim("run", "-np", "2", "--platform", disks_platform(tmp_path), "--no-compute-time", "--io-root",
                  str(tmp_path / f"root{flag}"), "--quiet", built["io_atomic"], flag)
    assert done.returncode == 0, done.stderr
    assert "overlap holds the bytes of one rank: ok" in done.stdout
    lines = sorted(line for line in done.stdout.splitlines() if line.startswith("rank "))
    assert [line.split(":")[1].strip() for line in lines] == [f"atomicity {flag}"] * 2
    return [(float(line.split()[6]), float(line.split()[8])) for line in lines]


@pytest.mark.parametrize("flag", ["0", "1"])
def test_atomic_mode_serializes_overlapping_writes(built, tmp_path, flag):
    # Each rank writes 1 MiB on its own host's disk (no file servers) at 50 MB/s: 1048576 / 50e6 s, MPI_Wtime adding
    # its 10 ns between the two readings. Without atomicity both writes run at once; in atomic mode the ranges
    # overlap, so the later one starts when the earlier one ends: it ends one write time after it.
    write = 1048576 / 50e6
    (start0, end0), (start1, end1) = run_atomic(built, tmp_path, flag)
    first, second = sorted([(end0, start0), (end1, start1)])
    assert first[0] - first[1] == pytest.approx(write + 1e-8, abs=1e-9)
    if flag == "0":
        assert second[0] - second[1] == pytest.approx(write + 1e-8, abs=1e-9)
    else:
        assert second[0] - first[0] == pytest.approx(write, abs=1e-9)


def test_striping_over_two_servers_takes_less_time(built, tmp_path):
    # Half of the 1 MiB goes to node-0 over the network, half to node-1, the client's own host (its loopback):
    # shorter than sending all of it over Ethernet.
    one = run_timing(built, tmp_path)
    two = run_timing(built, tmp_path, "1048576", "2")
    assert two < 0.6 * one


def test_names_stay_inside_the_io_root(built, tmp_path):
    root = tmp_path / "root"
    outside = tmp_path / "escape.dat"
    names = ["plain.dat", "/abs/dir/file.dat", "ufs:prefixed.dat", "a/../b.dat", "../escape.dat", "a/../../escape.dat"]
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--io-root", str(root), "--quiet", built["io_paths"],
                  *names)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "plain.dat: opened", "/abs/dir/file.dat: opened", "ufs:prefixed.dat: opened", "a/../b.dat: opened",
        "../escape.dat: MPI_ERR_BAD_FILE", "a/../../escape.dat: MPI_ERR_BAD_FILE"]
    assert (root / "plain.dat").read_bytes() == b"plain.dat"
    assert (root / "abs" / "dir" / "file.dat").read_bytes() == b"/abs/dir/file.dat"
    assert (root / "prefixed.dat").exists() and (root / "b.dat").exists()
    assert not outside.exists()


def test_default_io_root_is_a_temporary_folder_removed_at_the_end(built, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env_tmp = dict(_environment(), TMPDIR=str(scratch))
    done = subprocess.run([sys.executable, "-m", "mpisim", "run", "-np", "2", "--platform", "cluster:2", "--quiet", built["io_paths"],
                           "kept.dat"], capture_output=True, text=True, env=env_tmp, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["kept.dat: opened"]
    assert not any(path.name.startswith("mpisim-io-") for path in scratch.iterdir())
    # An abrupt end (MPI_Abort) removes it too.
    aborted = subprocess.run([sys.executable, "-m", "mpisim", "run", "-np", "2", "--platform", "cluster:2", "--quiet",
                              built["io_paths"], "kept.dat", "--abort"], capture_output=True, text=True, env=env_tmp,
                             timeout=120)
    assert aborted.returncode == 3, aborted.stderr
    assert not any(path.name.startswith("mpisim-io-") for path in scratch.iterdir())


def test_platform_naming_a_missing_server_is_bad_input(built, tmp_path):
    platform = tmp_path / "bad.xml"
    platform.write_text(open(PAPER_CLUSTER).read().replace('value="node-0,node-1,', 'value="node-0,node-99,'))
    done = mpisim("run", "-np", "2", "--platform", str(platform), "--quiet", built["io_paths"], "x.dat")
    assert done.returncode == 2
    assert f"{platform}:12: io/servers: no host 'node-99' in the platform" in done.stderr


EXPECTED_VIEWS = sorted(["arrays in file order: ok ok"] + [f"rank {r}: {kind} tile read back: ok" for r in range(4)
                                                             for kind in ("subarray", "darray")])


def expected_views_file(grid=8) -> bytes:
    return b"".join(k.to_bytes(4, "little") for k in list(range(grid * grid)) * 2)


@pytest.mark.parametrize("platform,buffer", [("cluster:4", "16777216"), ("cluster:1", "16777216"),
                                             ("cluster:2", "16"), ("cluster:4", "24")])
def test_subarray_and_darray_views_in_one_or_several_cycles(built, tmp_path, platform, buffer):
    # One aggregator (cluster:1), two or four: the 8 x 8 ints (256 bytes, the ranks' ranges interleave) make file
    # domains of 256, 128 or 64 bytes; a cb_buffer_size of 16 or 24 bytes makes the aggregators work through theirs in
    # 8 or 3 cycles.
    root = tmp_path / "root"
    done = mpisim("run", "-np", "4", "--platform", platform, "--io-root", str(root), "--quiet", built["io_views"], "8",
                  "collective", "-", buffer)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == EXPECTED_VIEWS
    assert (root / "views.dat").read_bytes() == expected_views_file()


def test_subarray_and_darray_views_as_open_mpi(built, tmp_path):
    if shutil.which("mpicc") is None or shutil.which("mpirun") is None:
        pytest.skip("no real MPI to compare with")
    real = tmp_path / "real"
    real.mkdir()
    subprocess.run(["mpicc", "-O1", os.path.join(SOURCES, "io_views.c"), "-o", str(real / "io_views")], check=True)
    ompi = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "4", str(real / "io_views")],
                          capture_output=True, text=True, timeout=120, cwd=real)
    assert ompi.returncode == 0, ompi.stderr
    assert sorted(ompi.stdout.splitlines()) == EXPECTED_VIEWS
    assert (real / "views.dat").read_bytes() == expected_views_file()


# "external32" views (tests/online/io_datarep.c): the file's bytes big-endian, as MPI-3.1 section 13.5.2 defines them
def expected_datarep_file() -> bytes:
    ints = [100 * ((j // 2) % 4) + 2 * (j // 8) + j % 2 for j in range(24)]  # ranks' ints two by two, in file order
    return (struct.pack(">24i", *ints) + struct.pack(">id", 7, 1.5) + struct.pack(">id", -2, -0.25)
            + struct.pack(">3d", 1.0, -2.5, 1e100) + struct.pack(">3h", 1, -1, 0x1234)
            + struct.pack(">2i", 0x01020304, 5) + struct.pack(">f", 0.5))


def expected_datarep_lines() -> list[str]:
    data = expected_datarep_file()
    dump = [f"{line:03d}:" + "".join(f" {byte:02x}" for byte in data[line:line + 16]) for line in range(0, len(data), 16)]
    checks = [f"rank {r}: interleaved ints read back: ok" for r in range(4)]
    checks += ["rank 0: structs read back: ok", "rank 1: doubles read back: ok",
               "rank 2: shorts, a pair and a float read back: ok"]
    return sorted(dump + checks + ["view datarep external32"])


@pytest.mark.parametrize("platform", ["cluster:4", "cluster:2"])
def test_external32_views_write_big_endian_and_read_back(built, tmp_path, platform):
    """Collective (two-phase, with two or four aggregators), independent and non-blocking accesses."""
    root = tmp_path / "root"
    done = mpisim("run", "-np", "4", "--platform", platform, "--io-root", str(root), "--quiet", built["io_datarep"])
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == expected_datarep_lines()
    assert (root / "datarep.dat").read_bytes() == expected_datarep_file()


def test_external32_views_as_open_mpi(tmp_path):
    if shutil.which("mpicc") is None or shutil.which("mpirun") is None:
        pytest.skip("no real MPI to compare with")
    subprocess.run(["mpicc", "-O1", os.path.join(SOURCES, "io_datarep.c"), "-o", str(tmp_path / "io_datarep")],
                   check=True)
    ompi = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "4", str(tmp_path / "io_datarep")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ompi.returncode == 0, ompi.stderr
    assert sorted(ompi.stdout.splitlines()) == expected_datarep_lines()
    assert (tmp_path / "datarep.dat").read_bytes() == expected_datarep_file()


def test_data_representations_refused_and_internal(built, tmp_path):
    """What external32 sizes otherwise than this machine (long) is refused; "internal" holds the native bytes."""
    done = mpisim("run", "-np", "1", "--platform", "cluster:1", "--io-root", str(tmp_path), "--quiet",
                  built["io_datarep"], "errors")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "set_view bogus: MPI_ERR_UNSUPPORTED_DATAREP", "external32 view of longs: MPI_ERR_UNSUPPORTED_DATAREP",
        "write of a long through external32: MPI_ERR_TYPE", "external32 extent of a long: MPI_ERR_TYPE",
        "external32 extent of a double: 8", "internal view: MPI_SUCCESS",
        "first byte of 1 written through internal: 1"]


def test_collective_buffering_beats_many_small_independent_writes(built, tmp_path):
    # A 256 x 256 int array in 2 x 2 blocks: independently without data sieving ("naive"), each rank writes its 128
    # rows of 512 bytes one after the other (128 requests over Gigabit Ethernet); with data sieving (the default),
    # one read-modify-write of the extent of its rows; collectively, one aggregator per host writes a contiguous
    # quarter. The file is the same each time.
    def took(mode):
        done = mpisim("run", "-np", "4", "--platform", PAPER_CLUSTER, "--model", "fluid", "--no-compute-time",
                      "--io-root", str(tmp_path / mode), "--quiet", built["io_views"], "256", mode, "time")
        assert done.returncode == 0, done.stderr
        line = next(line for line in done.stdout.splitlines() if line.startswith("write took"))
        return float(line.split()[2])

    collective, sieved, naive = took("collective"), took("independent"), took("naive")
    # Rank 0 (node-0) times its write. Naively, its 128 rows are 128 accesses in turn; the file's 64 KiB stripe
    # units put rows 0-63 on node-0's own server (loopback) and rows 64-127 on node-1's: 64 accesses of at least
    # three messages (request, data, acknowledgement) of 2 x 50 us latency each.
    assert naive > 64 * 3 * 100e-6
    assert collective < naive / 10
    # Sieved (docs/specifications/data-sieving.md): the extent [0, 127 x 1024 + 512) fits one 512 KiB buffer. The file
    # is new and rank 0 locks its chunk first (rank 1's extent overlaps it and waits): nothing is read past the file's
    # end, so the chunk is only written, into the write-behind caches, one request per server in parallel. The
    # remote one (node-1, unit 1: 65024 bytes) ends last: request, data and acknowledgement messages of 100 us
    # latency each (256 B, 65024 B, 256 B at 1 Gb/s), the request overhead (20 us) and the copy into the cache at
    # 5 GB/s. (Before the end of file was taken into account, the chunk was read from the disks first: 13 ms more.)
    # MPI_Wtime adds its 10 ns (--wtime-delay) after reading the start; the program prints to the nanosecond.
    expected = 3 * 100e-6 + (256 + 65024 + 256) / 125e6 + 20e-6 + 65024 / 5e9
    assert sieved == pytest.approx(expected + 1e-8, abs=1e-9) and sieved < naive
    files = [(tmp_path / mode / "views.dat").read_bytes() for mode in ("collective", "independent", "naive")]
    assert files[0] == files[1] == files[2]


def test_fortran_binding(tmp_path):
    # The Fortran routines generated from mpi.h know MPI_File (the mpi module, MPI_OFFSET_KIND offsets).
    binary = str(tmp_path / "io_fortran")
    done = mpisim("fc", os.path.join(SOURCES, "io_fortran.f90"), "-o", binary)
    if done.returncode != 0 and "gfortran" in done.stderr:
        pytest.skip("no Fortran compiler")
    assert done.returncode == 0, done.stderr
    run = mpisim("run", "-np", "4", "--platform", "cluster:4", "--io-root", str(tmp_path / "root"), "--quiet", binary)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["read", "back:", "0", "1", "2", "3"]


def test_management_and_inquiries(built, tmp_path):
    # The values MPI-3.1 defines. Open MPI 4.1 (ompio) prints the same lines but two: it puts MPI_SEEK_END through a
    # view with holes at etype 1 (ROMIO and mpisim count the etypes before the end: 7 whole tiles of 12 bytes after
    # the 8-byte displacement, then the int at 92..96, so 8), and it reads at a negative offset without an error.
    done = mpisim("run", "-np", "4", "--platform", "cluster:4", "--io-root", str(tmp_path / "root"), "--quiet",
                  built["io_manage"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "amode is CREATE|RDWR: 1; group identical to the world's: 1",
        "after preallocate(1000): 1000",
        "after set_size(100): 100",
        "byte offset of etype 2: 32; view: disp 8, etype is MPI_INT 1, filetype extent 12, native; "
        "extent of MPI_DOUBLE in the file: 8",
        "position after seek(3, SET), seek(-1, CUR): 2",
        "position at the end of the 100-byte file through the view: 8",
        "atomicity: 1",
        "shared pointer after one write_shared per rank: 1",
        "negative offset: handler called 1 time(s) with MPI_ERR_ARG 1, returned MPI_ERR_ARG 1; handler kept 1",
        "f2c(c2f(fh)) is fh: 1",
        "closed handle is MPI_FILE_NULL: 1",
        "EXCL on an existing file: MPI_ERR_FILE_EXISTS 1",
        "delete: 1; delete again: MPI_ERR_NO_SUCH_FILE 1",
        "DELETE_ON_CLOSE file gone after close: 1"]


def test_memory_does_not_grow_with_the_data_written(built, tmp_path):
    # 4 ranks stream 1 MiB blocks through two-phase I/O: 32 MiB, then 256 MiB. The runner's peak memory (maximum
    # resident set of mpisim-run alone, measured by a parent that runs nothing else) grows by less than 32 MiB: the
    # bytes are in the file, not in the simulator.
    from mpisim.online import native_dir

    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.stdout.strip())")

    def peak(blocks):
        root = tmp_path / f"root{blocks}"
        runner = [str(native_dir() / "mpisim-run"), "-np", "4", "--platform", "cluster:4", "--io-root", str(root),
                  "--quiet", built["io_stream"], str(blocks)]
        done = subprocess.run([sys.executable, "-c", measure, *runner], capture_output=True, text=True, timeout=300,
                              env=_environment())
        status, kib, printed = done.stdout.strip().split(maxsplit=2)
        assert status == "0" and printed == f"{blocks * 4 * 1048576} bytes", done.stdout + done.stderr
        shutil.rmtree(root)
        return int(kib)

    small, large = peak(8), peak(64)
    assert large < small + 32 * 1024, (small, large)


def test_data_sieving_hints_in_effect(tmp_path):
    # ROMIO's names and defaults (docs/specifications/data-sieving.md): a wrong value is ignored.
    binary = str(tmp_path / "io_hints")
    done = mpisim("cc", "-O1", os.path.join(SOURCES, "io_hints.c"), "-o", binary)
    if done.returncode != 0:
        pytest.skip(done.stderr.strip().splitlines()[-1])
    done = mpisim("run", "-np", "2", "--platform", PAPER_CLUSTER, "--io-root", str(tmp_path / "root"), "--quiet",
                  binary)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["romio_ds_read = disable", "romio_ds_write = automatic",
                                        "ind_rd_buffer_size = 4194304", "ind_wr_buffer_size = 1048576"]
