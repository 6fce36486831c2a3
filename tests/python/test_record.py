"""Recording real MPI runs with libmpisim-trace.so (src/record/) and replaying what it records (docs/record.md).

Each test compiles a small C MPI program with mpicc, records it with
`mpisim record -o DIR -- mpirun --oversubscribe -np 4 ./program`, then checks
- the index and every rank's trace, line by line where the program fixes them (the `compute` lines are measured,
  so they are only checked for form);
- that `mpisim replay DIR/index.txt --platform cluster:4` and SimGrid 3.32's `smpirun -replay` both replay it;
- that DIR/timeline.json is a Chrome trace with one complete event per MPI call the program made, whose `actions`
  argument adds up to the rank's trace lines.

Needs Open MPI's mpicc and mpirun (Debian: openmpi-bin libopenmpi-dev) and a built libmpisim-trace.so: the tests are
skipped where these are missing, and fail instead in CI (CI set), which must install them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from conftest import repo_path
from smpi import require_smpirun, smpi_replay_time, write_hostfile

NP = 4
PLATFORM_XML = repo_path("examples", "replay-basic", "cluster4.xml")  # hosts node-0 .. node-3
# Open MPI refuses to run as root without these; harmless otherwise.
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}: CI must install Open MPI (openmpi-bin libopenmpi-dev) and build libmpisim-trace.so")
    pytest.skip(what)


@pytest.fixture(scope="module")
def mpicc() -> str:
    for tool in ("mpicc", "mpirun"):
        if shutil.which(tool) is None:
            _missing(f"{tool} is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev)")
    from mpisim.record import RecordError, find_library

    try:
        find_library()
    except RecordError as error:
        _missing(str(error))
    return shutil.which("mpicc")


def build(mpicc: str, tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    done = subprocess.run([mpicc, "-O1", "-o", str(tmp_path / name), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return str(tmp_path / name)


def mpisim(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=300,
                          env=MPI_ENV, cwd=cwd)


def record(program: str, tmp_path: Path, *options: str, np: int = NP) -> Path:
    out = tmp_path / "trace"
    done = mpisim("record", "-o", str(out), *options, "--", "mpirun", "--oversubscribe", "-np", str(np), program,
                  cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Recorded {np} ranks" in done.stdout, done.stdout
    return out


def actions(directory: Path, rank: int, keep_compute: bool = False) -> List[str]:
    """Rank's action lines without the rank field; `compute` lines checked for form and left out."""
    lines = []
    for line in (directory / f"rank-{rank}.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        assert line.startswith(f"{rank} "), line
        action = line[len(f"{rank} "):]
        if action.startswith("compute "):
            assert re.fullmatch(r"compute \d+", action), line
            if not keep_compute:
                continue
        lines.append(action)
    return lines


def comments(directory: Path, rank: int) -> List[str]:
    return [line[2:] for line in (directory / f"rank-{rank}.txt").read_text().splitlines() if line.startswith("# ")]


def check_index(directory: Path) -> None:
    assert (directory / "index.txt").read_text().split() == [f"rank-{r}.txt" for r in range(NP)]
    for r in range(NP):
        lines = actions(directory, r)
        assert lines[0] == "init" and lines[-1] == "finalize", lines


def timeline_events(directory: Path) -> Dict[int, List[dict]]:
    """The complete events per rank, after checking the Chrome trace-event schema and the per-rank files' merge."""
    document = json.loads((directory / "timeline.json").read_text())
    assert not list(directory.glob("rank-*.json")), "fragments are merged then removed"
    assert document["otherData"]["ranks"] == NP
    per_rank: Dict[int, List[dict]] = {r: [] for r in range(NP)}
    for event in document["traceEvents"]:
        assert event["ph"] in ("X", "M") and event["pid"] == 0, event
        if event["ph"] == "M":
            continue
        assert event["name"].startswith("MPI_") and event["ts"] >= 0 and event["dur"] >= 0, event
        per_rank[event["tid"]].append(event)
    for rank, events in per_rank.items():
        assert events[0]["name"] in ("MPI_Init", "MPI_Init_thread") and events[-1]["name"] == "MPI_Finalize"
        assert all(a["ts"] <= b["ts"] for a, b in zip(events, events[1:])), "events in call order"
        # Every action line of the trace comes from exactly one recorded call.
        assert sum(e["args"]["actions"] for e in events) == len(actions(directory, rank))
    return per_rank


def replay_everywhere(directory: Path) -> dict:
    """Replays the recording with mpisim and with SimGrid 3.32; returns mpisim's JSON result."""
    done = mpisim("replay", str(directory / "index.txt"), "--platform", f"cluster:{NP}", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert len(result["ranks"]) == NP and result["simulated_time"] > 0
    require_smpirun()
    hostfile = write_hostfile(str(directory.parent / "hosts.txt"), [f"node-{i}" for i in range(NP)])
    assert smpi_replay_time(str(directory / "index.txt"), PLATFORM_XML, NP, hostfile) > 0
    return result


# ------------------------------------------------------------------------------------------------------- programs

RING = r"""
#include <mpi.h>
#include <stdio.h>
static double work(int n) { double x = 0; for (int i = 0; i < n; ++i) x += i * 0.5; return x; }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  double out[1000] = {0}, in[1000], sink = 0;
  for (int it = 0; it < 3; ++it) {
    sink += work(2000000);
    MPI_Request req[2];
    MPI_Irecv(in, 1000, MPI_DOUBLE, (rank + size - 1) % size, it, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, 1000, MPI_DOUBLE, (rank + 1) % size, it, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  if (sink < 0) printf("%g\n", sink);
  MPI_Finalize();
  return 0;
}
"""


def test_ring_with_isend_irecv_waitall(mpicc, tmp_path):
    trace = record(build(mpicc, tmp_path, "ring", RING), tmp_path)
    check_index(trace)
    for r in range(NP):
        expected = ["init", "comm_size 4"]
        for it in range(3):
            # MPI_DOUBLE is TI datatype 0; the waitall covers every pending request, so it is written as one.
            expected += [f"irecv {(r - 1) % NP} {it} 1000 0", f"isend {(r + 1) % NP} {it} 1000 0", "waitall"]
        assert actions(trace, r) == expected + ["finalize"]
        # The 2e6-iteration loop before each exchange is a measured computation burst (about 2e6 flops at 1Gf).
        with_compute = actions(trace, r, keep_compute=True)
        bursts = [int(a.split()[1]) for a in with_compute if a.startswith("compute")]
        assert sum(b > 100000 for b in bursts) >= 3, with_compute
    header = comments(trace, 0)
    assert header[0].startswith("mpisim-trace") and "rank 0 of 4" in header[0]
    assert "thread CPU time x 1e+09 flop/s" in header[2]

    events = timeline_events(trace)
    for r in range(NP):
        names = [e["name"] for e in events[r]]
        assert names == ["MPI_Init", "MPI_Comm_size"] + ["MPI_Irecv", "MPI_Isend", "MPI_Waitall"] * 3 + \
            ["MPI_Finalize"]
        isend = events[r][3]
        assert isend["args"] == {"peer": (r + 1) % NP, "bytes": 8000, "tag": 0, "comm": "world", "actions": 1}
    replay_everywhere(trace)


HALO = r"""
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double edge[512] = {0}, ghost[512];
  for (int it = 0; it < 2; ++it) {
    MPI_Sendrecv(edge, 512, MPI_DOUBLE, right, 0, ghost, 512, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(edge, 512, MPI_DOUBLE, left, 0, ghost, 512, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Sendrecv(edge, 100, MPI_INT, (rank + 1) % size, 7, ghost, 100, MPI_INT, (rank + size - 1) % size, 7,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
"""


def test_halo_exchange_with_sendrecv(mpicc, tmp_path):
    trace = record(build(mpicc, tmp_path, "halo", HALO), tmp_path)
    check_index(trace)
    # Tag-0 exchanges are the replay's sendRecv; MPI_PROC_NULL halves become plain sends or receives; an exchange
    # with another tag keeps it as isend + recv + wait (the replay's sendRecv always uses tag 0).
    tagged = {r: [f"isend {(r + 1) % NP} 7 100 1", f"recv {(r - 1) % NP} 7 100 1", f"wait {r} {(r + 1) % NP} 7"]
              for r in range(NP)}
    assert actions(trace, 0) == ["init", "comm_size 4"] + ["send 1 0 512 0", "recv 1 0 512 0"] * 2 + tagged[0] + \
        ["finalize"]
    assert actions(trace, 1) == ["init", "comm_size 4"] + ["sendRecv 512 2 512 0 0 0", "sendRecv 512 0 512 2 0 0"] \
        * 2 + tagged[1] + ["finalize"]
    assert actions(trace, 3) == ["init", "comm_size 4"] + ["recv 2 0 512 0", "send 2 0 512 0"] * 2 + tagged[3] + \
        ["finalize"]
    events = timeline_events(trace)
    assert [e["name"] for e in events[2]].count("MPI_Sendrecv") == 5
    replay_everywhere(trace)


COLLECTIVES = r"""
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[4096] = {0}, b[4096 * 8];
  int counts[64], displs[64], scounts[64];
  for (int i = 0; i < size; ++i) { counts[i] = i + 1; displs[i] = i * 8; scounts[i] = (rank + i) % 3 + 1; }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(a, 100, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Reduce(a, b, 50, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD);
  MPI_Allreduce(a, b, 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, a, 10, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Alltoall(a, 16, MPI_DOUBLE, b, 16, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoallv(a, scounts, displs, MPI_DOUBLE, b, scounts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gather(a, 4, MPI_INT, b, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv(a, rank + 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatter(a, 4, MPI_INT, b, 4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgather(a, 8, MPI_DOUBLE, b, 8, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Allgatherv(a, rank + 1, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(a, b, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(a, b, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Datatype pair; MPI_Type_contiguous(2, MPI_DOUBLE, &pair); MPI_Type_commit(&pair);
  MPI_Bcast(a, 10, pair, 0, MPI_COMM_WORLD);
  MPI_Type_free(&pair);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hsize; MPI_Comm_size(half, &hsize);
  MPI_Allreduce(a, b, 64, MPI_DOUBLE, MPI_SUM, half);
  MPI_Bcast(a, 32, MPI_DOUBLE, 0, half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Bcast(a, 8, MPI_DOUBLE, 3, dup);
  MPI_Comm_disconnect(&dup);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* the library may give it the disconnected one's handle */
  MPI_Bcast(a, 4, MPI_DOUBLE, 2, dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
"""


def expected_collectives(r: int) -> List[str]:
    """SimGrid's TI writer format (reference section 2.2), datatype ids 0 MPI_DOUBLE, 1 MPI_INT, 6 MPI_BYTE."""
    sends = [(r + i) % 3 + 1 for i in range(NP)]
    at_root = lambda values: values if r == 0 else [0] * NP  # noqa: E731 (v-counts only exist at the root)
    join = lambda values: " ".join(map(str, values))  # noqa: E731
    return [
        "init", "comm_size 4", "barrier", "bcast 100 1 0", "reduce 50 0 2 1", "allreduce 100 0 0",
        "allreduce 10 0 0", "alltoall 16 16 0 0",
        f"alltoallv {sum(sends)} {join(sends)} {sum(sends)} {join(sends)} 0 0",
        "gather 4 4 0 1 1",
        f"gatherv {r + 1} {join(at_root([1, 2, 3, 4]))} 0 0 0",
        "scatter 4 4 0 1 1",
        f"scatterv {join(at_root([1, 2, 3, 4]))} {r + 1} 0 0 0",
        "allgather 8 8 0 0", f"allgatherv {r + 1} 1 2 3 4 0 0", "reducescatter 1 2 3 4 0 0",
        "scan 10 0 0", "exscan 10 0 0",
        "bcast 160 0 6",  # a derived datatype is written in bytes: 10 x 16 bytes, MPI_BYTE
        # The split's halves each run their collectives: written as MPI_COMM_WORLD collectives (SimGrid's
        # convention), roots in the sub-communicator's numbering.
        "comm_split", "comm_size 2", "allreduce 64 0 0", "bcast 32 0 0",
        # A dup spans the world: an ordinary collective, root in world ranks.
        "comm_dup", "bcast 8 3 0",
        "comm_dup", "bcast 4 2 0",
        "finalize",
    ]


def test_collectives_including_split_communicator(mpicc, tmp_path):
    trace = record(build(mpicc, tmp_path, "collectives", COLLECTIVES), tmp_path, "--subcomm", "world")
    check_index(trace)
    for r in range(NP):
        assert actions(trace, r) == expected_collectives(r)
        notes = comments(trace, r)
        members = " ".join(str(w) for w in range(NP) if w % 2 == r % 2)
        assert f"world.1@{r % 2} = MPI_Comm_split(color {r % 2}, key {r}) of world: 2 ranks (world ranks: " \
               f"{members})" in notes
        assert f"MPI_Allreduce on world.1@{r % 2} (2 ranks): written as an MPI_COMM_WORLD collective (no " \
               "communicator in the TI format)" in notes
        assert any(n.startswith("note: collectives on sub-communicators written as MPI_COMM_WORLD") for n in notes)
    events = timeline_events(trace)
    bcast = [e for e in events[0] if e["name"] == "MPI_Bcast"]
    assert [e["args"]["comm"] for e in bcast] == ["world", "world", "world.1@0", "world.2", "world.3"]
    assert bcast[0]["args"]["peer"] == 1 and bcast[3]["args"]["peer"] == 3  # roots, in world ranks
    released = [(e["name"], e["args"]["comm"]) for e in events[0] if e["name"] in ("MPI_Comm_free", "MPI_Comm_disconnect")]
    assert released == [("MPI_Comm_disconnect", "world.2"), ("MPI_Comm_free", "world.3"), ("MPI_Comm_free", "world.1@0")]
    replay_everywhere(trace)


SUBCOMM = r"""
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half; MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  int hrank, hsize; MPI_Comm_rank(half, &hrank); MPI_Comm_size(half, &hsize);
  double a[1024] = {0}, b[1024 * 8];
  int counts[16], displs[16];
  for (int i = 0; i < hsize; ++i) { counts[i] = 10 * (i + 1); displs[i] = 100 * i; }
  if (rank % 2 == 0) {
    MPI_Gatherv(a, counts[hrank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, half);
    MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, counts[hrank], MPI_DOUBLE, 1, half);
    MPI_Allgatherv(a, counts[hrank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, half);
    MPI_Alltoall(a, 5, MPI_DOUBLE, b, 5, MPI_DOUBLE, half);
    MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, half);
    MPI_Scan(a, b, 3, MPI_DOUBLE, MPI_SUM, half);
    MPI_Barrier(half);
    MPI_Bcast(a, 100, MPI_DOUBLE, 1, half);
    MPI_Reduce(a, b, 100, MPI_DOUBLE, MPI_SUM, 0, half);
  }
  MPI_Allreduce(a, b, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
"""


def test_subcommunicator_collectives_as_point_to_point(mpicc, tmp_path):
    # Only the even half communicates, with v-collectives, on a sub-communicator whose order is reversed (key =
    # size - rank: local rank 0 is world rank 2). As MPI_COMM_WORLD collectives this could not replay; with
    # --subcomm p2p each becomes the messages of a simple algorithm between world ranks 0 and 2.
    trace = record(build(mpicc, tmp_path, "subcomm", SUBCOMM), tmp_path, "--subcomm", "p2p")
    check_index(trace)
    message = re.compile(r"(?:send|recv|isend) (?P<peer>\d+) (?P<tag>\d+) \d+ 6")
    wait = re.compile(r"wait (?P<me>\d+) (?P<peer>\d+) (?P<tag>\d+)")
    for r in (0, 2):
        lines = actions(trace, r)
        lowered = [m for m in (message.fullmatch(a) or wait.fullmatch(a) for a in lines) if m]
        assert len(lowered) >= 9, lines
        for match in lowered:
            # The only partner is the other even rank, on the tag reserved for that communicator.
            assert int(match["peer"]) == 2 - r and match["tag"] == lowered[0]["tag"], match.string
        assert [a for a in lines if not (message.fullmatch(a) or wait.fullmatch(a))] == \
            ["init", "comm_size 4", "comm_split", "comm_size 2", "barrier", "finalize"]
    # Gatherv to local root 0 = world rank 2: rank 0 (local 1) sends its 20 doubles.
    assert actions(trace, 0)[4].startswith("send 2 ") and actions(trace, 0)[4].endswith(" 160 6")
    for r in (1, 3):
        assert actions(trace, r) == ["init", "comm_size 4", "comm_split", "comm_size 2", "barrier", "finalize"]
    assert "MPI_Allreduce on self (1 rank): no communication" in comments(trace, 1)
    timeline_events(trace)
    replay_everywhere(trace)


WILDCARD = r"""
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int value = rank, got[64];
  if (rank == 0) {
    MPI_Request reqs[64];
    for (int i = 1; i < size; ++i)
      MPI_Irecv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[i - 1]);
    int flag = 0;
    MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 1; k < size; ++k) { int index; MPI_Waitany(size - 1, reqs, &index, MPI_STATUS_IGNORE); }
    for (int i = 1; i < size; ++i) {
      MPI_Status status;
      MPI_Recv(&got[0], 1, MPI_INT, MPI_ANY_SOURCE, 42, MPI_COMM_WORLD, &status);
    }
  } else {
    MPI_Send(&value, 1, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&value, 1, MPI_INT, 0, 42, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
"""


def test_wildcard_receives_name_the_actual_source_and_tag(mpicc, tmp_path):
    trace = record(build(mpicc, tmp_path, "wildcard", WILDCARD), tmp_path)
    check_index(trace)
    lines = actions(trace, 0)
    # Which sender each MPI_ANY_SOURCE/MPI_ANY_TAG receive matched depends on arrival order; the trace names the
    # one it actually matched (sender s sends tag 10 + s), and the waits use the same keys.
    irecvs = [a.split() for a in lines if a.startswith("irecv")]
    assert sorted((int(a[1]), int(a[2])) for a in irecvs) == [(1, 11), (2, 12), (3, 13)]
    assert [a[3:] for a in irecvs] == [["1", "1"]] * 3
    tests = [a.split() for a in lines if a.startswith("test ")]
    assert len(tests) == 1 and lines.index(" ".join(tests[0])) < lines.index("barrier")
    assert tests[0][2] == "0" and int(tests[0][3]) == 10 + int(tests[0][1])
    # One wait per completed receive (MPI_Waitany, or the MPI_Test if it found its request complete).
    waits = [a for a in lines if a.startswith("wait ")]
    assert sorted(waits) == ["wait 1 0 11", "wait 2 0 12", "wait 3 0 13"]
    assert sorted(a for a in lines if a.startswith("recv")) == ["recv 1 42 1 1", "recv 2 42 1 1", "recv 3 42 1 1"]
    assert not any("ANY" in a or "\x01" in a or "\x02" in a for a in lines)
    for r in (1, 2, 3):
        assert actions(trace, r) == ["init", "comm_size 4", f"send 0 {10 + r} 1 1", "barrier", "send 0 42 1 1",
                                     "finalize"]
    timeline_events(trace)
    replay_everywhere(trace)


REQUESTS = r"""
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static double out[20000], in[20000];
  MPI_Request p[2];
  MPI_Recv_init(in, 256, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &p[0]);
  MPI_Send_init(out, 256, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &p[1]);
  for (int it = 0; it < 2; ++it) { MPI_Startall(2, p); MPI_Waitall(2, p, MPI_STATUSES_IGNORE); }
  MPI_Request_free(&p[0]); MPI_Request_free(&p[1]);
  MPI_Request r[2]; int flag = 0;
  MPI_Irecv(in, 20000, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[0]);
  MPI_Issend(out, 20000, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r[1]);
  while (!flag) MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  MPI_Irecv(in, 10, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(out, 10, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &r[1]);
  int done = 0, outcount, idx[2];
  while (done < 2) { MPI_Waitsome(2, r, &outcount, idx, MPI_STATUSES_IGNORE); done += outcount; }
  MPI_Request a, b;
  MPI_Irecv(in, 1, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &a);
  MPI_Isend(out, 1, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &b);
  MPI_Waitall(1, &b, MPI_STATUSES_IGNORE);
  MPI_Wait(&a, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(out, 4, MPI_DOUBLE, right, 0, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0) MPI_Ssend(out, 2, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Status st;
    MPI_Probe(0, 9, MPI_COMM_WORLD, &st);
    MPI_Recv(in, 2, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &st);
  }
  MPI_Request ib; MPI_Ibarrier(MPI_COMM_WORLD, &ib); MPI_Wait(&ib, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
"""


def test_persistent_requests_polling_and_partial_waits(mpicc, tmp_path):
    trace = record(build(mpicc, tmp_path, "requests", REQUESTS), tmp_path)
    check_index(trace)
    for r in range(NP):
        right, left = (r + 1) % NP, (r - 1) % NP
        text = "\n".join(actions(trace, r))
        persistent = f"irecv {left} 3 256 0\nisend {right} 3 256 0\nwaitall\n"
        # A polling loop writes one `test` per MPI_Testall (how many depends on timing), then a wait per request.
        polling = f"irecv {left} 4 20000 0\nisend {right} 4 20000 0\n(test {left} {r} 4\n)+" \
                  f"wait {left} {r} 4\nwait {r} {right} 4\n"
        waitsome = f"irecv {left} 5 10 0\nisend {right} 5 10 0\n(wait {left} {r} 5\nwait {r} {right} 5|" \
                   f"wait {r} {right} 5\nwait {left} {r} 5)\n"
        # MPI_Waitall on a subset of what is pending: one wait per request, not `waitall`.
        partial = f"irecv {left} 6 1 0\nisend {right} 6 1 0\nwait {r} {right} 6\nwait {left} {r} 6\n"
        ssend = {0: "send 1 9 2 0\n", 1: "recv 0 9 2 0\n"}.get(r, "")
        pattern = "init\ncomm_size 4\n" + persistent * 2 + polling + waitsome + partial + \
                  f"sendRecv 4 {right} 4 {left} 0 0\n" + ssend + "barrier\nfinalize"
        assert re.fullmatch(pattern, text), text
        assert any("non-blocking collectives written as blocking ones" in c for c in comments(trace, r))
    events = timeline_events(trace)
    assert "MPI_Probe" in [e["name"] for e in events[1]]
    replay_everywhere(trace)


def test_speed_threshold_and_counter_options(mpicc, tmp_path):
    program = build(mpicc, tmp_path, "ring", RING)
    trace = record(program, tmp_path, "--speed", "2.5Gf", "--min-compute", "1ms")
    header = comments(trace, 0)
    assert "thread CPU time x 2.5e+09 flop/s" in header[2] and "bursts under 0.001 s skipped" in header[2]
    for r in range(NP):
        bursts = [int(a.split()[1]) for a in actions(trace, r, keep_compute=True) if a.startswith("compute")]
        assert len(bursts) >= 3 and min(bursts) >= 2.5e9 * 1e-3  # nothing under 1 ms at 2.5 Gflop/s

    trace = record(program, tmp_path, "--counter", "instructions")
    header, notes = comments(trace, 0)[2], comments(trace, 0)
    fell_back = any("hardware instruction counts unavailable" in n for n in notes)
    # Where perf events work the computation is in instructions; elsewhere (most virtual machines) it falls back
    # to CPU time and says so.
    assert header.startswith("compute: thread CPU time" if fell_back else "compute: instructions")
    replay_everywhere(trace)


def test_bad_options_are_input_errors(tmp_path):
    done = mpisim("record", "-o", str(tmp_path / "t"), "--speed", "fast", "--", "true")
    assert done.returncode == 2 and "--speed 'fast': expected a speed such as 1Gf" in done.stderr, done.stderr
    done = mpisim("record", "-o", str(tmp_path / "t"))
    assert done.returncode == 2 and "no command to record" in done.stderr, done.stderr


def test_record_replay_example(mpicc, tmp_path):
    """examples/record-replay/README.md, step by step: the MPI calls and TI actions it shows do not vary."""
    program = str(tmp_path / "jacobi")
    done = subprocess.run([mpicc, "-O2", "-o", program, repo_path("examples", "record-replay", "jacobi.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    trace = record(program, tmp_path)
    # 100 iterations of 2 MPI_Irecv + 2 MPI_Isend + MPI_Waitall, 10 MPI_Allreduce, 1 MPI_Gather, plus MPI_Init,
    # MPI_Comm_size and MPI_Finalize. End ranks have an MPI_PROC_NULL neighbour: those calls leave no action.
    events = timeline_events(trace)
    for r in range(NP):
        assert len(events[r]) == 514
        inner = 0 < r < NP - 1
        lines = actions(trace, r)
        assert len(lines) == (514 if inner else 314)
        assert lines.count("waitall") == 100 and lines.count("allreduce 1 0 0") == 10
        assert lines[-2] == "gather 1 1 0 0 0"
        # The update loop between exchanges is measured computation: a compute line in (nearly) every iteration.
        assert len(actions(trace, r, keep_compute=True)) - len(lines) >= 90
    result = replay_everywhere(trace)
    assert result["actions"] >= 2 * 514 + 2 * 314


IO_PROGRAM = r"""
#include <mpi.h>
#include <string.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char block[1000];
  memset(block, 'a' + rank, sizeof block);
  MPI_File shared, own;
  MPI_File_open(MPI_COMM_WORLD, "shared.bin", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &shared);
  MPI_File_write_at(shared, rank * 1000, block, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_write_at_all(shared, 4000 + rank * 1000, block, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_sync(shared);
  MPI_File_seek(shared, 2000, MPI_SEEK_SET);
  MPI_Status status;
  MPI_File_read(shared, block, 1000, MPI_CHAR, &status);
  MPI_File_read_at_all(shared, 7000, block, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&shared);
  char name[32] = "own-0.bin";
  name[4] = (char)('0' + rank);
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &own);
  MPI_File_set_size(own, 10);
  MPI_File_write(own, block, 100, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&own);
  MPI_Finalize();
  return 0;
}
"""


def test_mpi_io_calls_become_file_actions(mpicc, tmp_path):
    """MPI-IO calls of an Open MPI run appear as the trace extension's actions (docs/replay.md), and replay."""
    trace = record(build(mpicc, tmp_path, "io", IO_PROGRAM), tmp_path)
    for r in range(NP):
        lines = [line for line in actions(trace, r) if line.startswith("file_")]
        assert lines == [
            "file_open shared.bin world",
            f"file_write_at shared.bin {r * 1000} 1000",
            f"file_write_at_all shared.bin {4000 + r * 1000} 1000",
            "file_sync shared.bin",
            "file_seek shared.bin 2000",
            "file_read_at shared.bin 2000 1000",
            "file_read_at_all shared.bin 7000 1000",
            "file_close shared.bin",
            f"file_open own-{r}.bin self",
            f"file_set_size own-{r}.bin 10",
            f"file_write_at own-{r}.bin 0 100",
            f"file_close own-{r}.bin",
        ], lines
    done = mpisim("replay", str(trace / "index.txt"), "--platform", repo_path("platforms", "pio-cluster-10.xml"),
                  "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["simulated_time"] > 0


IO_MORE_PROGRAM = r"""
#include <mpi.h>
#include <string.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char block[200], back[200];
  memset(block, 'a' + rank, sizeof block);
  MPI_Status status;
  MPI_Request requests[2];
  MPI_File f;
  MPI_File_open(MPI_COMM_WORLD, "more.bin", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f);
  MPI_File_write_shared(f, block, 100, MPI_CHAR, &status);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_write_ordered(f, block, 200, MPI_CHAR, &status);
  MPI_File_seek_shared(f, 0, MPI_SEEK_SET);
  MPI_File_read_ordered(f, back, 100, MPI_CHAR, &status);
  MPI_File_iwrite_at(f, 2000 + rank * 100, block, 100, MPI_CHAR, &requests[0]);
  MPI_File_iread_at(f, rank * 100, back, 100, MPI_CHAR, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  MPI_File_seek(f, 3000 + rank * 10, MPI_SEEK_SET);
  MPI_File_iwrite(f, block, 10, MPI_CHAR, &requests[0]);
  MPI_Wait(&requests[0], &status);
  MPI_File_iwrite_shared(f, block, 50, MPI_CHAR, &requests[0]);
  int done = 0;
  while (!done)
    MPI_Test(&requests[0], &done, &status);
  MPI_File_iwrite_at_all(f, 4000 + rank * 100, block, 100, MPI_CHAR, &requests[0]);
  MPI_Wait(&requests[0], &status);
  MPI_File_write_at_all_begin(f, 5000 + rank * 100, block, 100, MPI_CHAR);
  MPI_File_write_at_all_end(f, block, &status);
  MPI_File_read_at_all_begin(f, rank * 100, back, 100, MPI_CHAR);
  MPI_File_read_at_all_end(f, back, &status);
  MPI_File_write_ordered_begin(f, block, 10, MPI_CHAR);
  MPI_File_write_ordered_end(f, block, &status);
  MPI_File_iwrite_at(f, 6000 + rank * 10, block, 10, MPI_CHAR, &requests[0]);
  MPI_File_iwrite_at(f, 6100 + rank * 10, block, 10, MPI_CHAR, &requests[1]);
  int index, flag = 0;
  MPI_Waitany(2, requests, &index, &status);
  while (!flag)
    MPI_Testall(2, requests, &flag, MPI_STATUSES_IGNORE);
  MPI_File_close(&f);
  MPI_Finalize();
  return 0;
}
"""


# The same computation twice: 2 x ITERATIONS blocks back to back (one burst between two barriers: no MPI call, no
# recorder inside), then ITERATIONS times `block, MPI_Allreduce, block, MPI_Irecv + MPI_Isend + MPI_Waitall`.
MEASURED_LOOP = r"""
#include <mpi.h>
#include <stdio.h>
#define ITERATIONS 500
#define PHASES 10
static double cells[2];
static void block(void) { /* in registers: a block's time does not depend on what the caches hold */
  double x = cells[0];
  for (int i = 0; i < 2500; i++) x = x * 0.999999 + 1.0;
  cells[0] = x;
}
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  double in = 0, out = 1; char token_in = 0, token_out = 1;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int phase = 0; phase < PHASES; phase++) {
    for (int it = 0; it < 2 * ITERATIONS / PHASES; it++) block();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int it = 0; it < ITERATIONS; it++) {
    block();
    MPI_Allreduce(&out, &in, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    block();
    MPI_Request req[2];
    MPI_Irecv(&token_in, 1, MPI_CHAR, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&token_out, 1, MPI_CHAR, (rank + 1) % size, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("%g\n", cells[rank] + in + token_in);
  MPI_Finalize();
  return 0;
}
"""


def test_mpi_io_shared_ordered_nonblocking_split_calls(mpicc, tmp_path):
    """The shared-pointer, ordered, non-blocking and split collective calls of an Open MPI run as the trace
    extension's actions (docs/record.md); they replay, and the recorded timeline matches the replay's call by call
    (`mpisim compare`)."""
    trace = record(build(mpicc, tmp_path, "iomore", IO_MORE_PROGRAM), tmp_path)
    for r in range(NP):
        lines = [line for line in actions(trace, r) if line.startswith("file_")]
        assert lines == [
            "file_open more.bin world",
            "file_write_shared more.bin 100",
            "file_write_ordered more.bin 200",
            "file_seek_shared more.bin 0",
            "file_read_ordered more.bin 100",
            f"file_iwrite_at more.bin {2000 + r * 100} 100",
            f"file_iread_at more.bin {r * 100} 100",
            "file_wait more.bin 0",
            "file_wait more.bin 1",
            f"file_seek more.bin {3000 + r * 10}",
            f"file_iwrite_at more.bin {3000 + r * 10} 10",
            "file_wait more.bin 2",
            "file_iwrite_shared more.bin 50",
            "file_wait more.bin 3",
            f"file_iwrite_at_all more.bin {4000 + r * 100} 100",
            "file_wait more.bin 4",
            f"file_iwrite_at_all more.bin {5000 + r * 100} 100",
            "file_wait more.bin 5",
            f"file_iread_at_all more.bin {r * 100} 100",
            "file_wait more.bin 6",
            "file_iwrite_ordered more.bin 10",
            "file_wait more.bin 7",
            f"file_iwrite_at more.bin {6000 + r * 10} 10",
            f"file_iwrite_at more.bin {6100 + r * 10} 10",
            lines[-3],  # MPI_Waitany completed either one, MPI_Testall the other
            lines[-2],
            "file_close more.bin",
        ], lines
        assert sorted(lines[-3:-1]) == ["file_wait more.bin 8", "file_wait more.bin 9"], lines
    events = timeline_events(trace)
    for r in range(NP):
        by_name = {e["name"]: e["args"]["actions"] for e in events[r]}
        assert by_name["MPI_File_write_at_all_end"] == 1 and by_name["MPI_File_write_ordered_end"] == 1
        assert by_name["MPI_Waitall"] == 2 and by_name["MPI_File_iwrite_at_all"] == 1
    sim = tmp_path / "sim.csv"
    done = mpisim("replay", str(trace / "index.txt"), "--platform", repo_path("platforms", "pio-cluster-10.xml"),
                  "--timeline", str(sim))
    assert done.returncode == 0, done.stderr
    done = mpisim("compare", str(trace / "timeline.json"), str(sim), "--json", "--top", "0")
    assert done.returncode == 0, done.stderr
    matched = json.loads(done.stdout)
    operations = {row["name"]: row["calls"] for row in matched["per_operation"]}
    # 20 file calls with a line each (the split collectives' `_end` their `file_wait`); the
    # completions of file accesses matched with their `file_wait` lines (the two MPI_Wait included, not the tests
    # that found nothing complete), the barrier with the replay's.
    assert sum(calls for name, calls in operations.items() if name.startswith("file_")) == NP * 20, operations
    assert [operations[name] for name in ("waitall", "wait", "test", "waitany", "testall", "barrier")] == [
        NP, 2 * NP, NP, NP, NP, NP]


def test_recorded_computation_excludes_the_recorders_own_work(mpicc, tmp_path):
    """The computation recorded between MPI calls is the program's, not the recorder's (docs/record.md).

    The same 1000 blocks (about 4 us each, a chain of multiply-adds in registers) are timed twice in one run of 2
    ranks: back to back, in 10 bursts of 100 blocks with no MPI call (hence no recorder work) inside, and one by one
    between 2000 recorded calls. The typical block between calls (the median burst) must take what a block takes back
    to back (the median of the 10 bursts, per block): the recorder's cost per call (its clock reads, trace and
    timeline lines: about 0.6 us of in-call time) would add 15 % and more to every burst if it were counted
    (measured with 0.6 us of CPU spent by the program after each call instead: +36 %), and the clock's own cost is
    subtracted once per burst. What remains is about 0.15 us per burst, the wrapper's path and the first iterations
    after a call: +3 to +7 % (measured at load 2 to 10, beside memory-streaming processes or a simulated NAS LU).
    Medians and a block that uses no memory, because a few bursts in a thousand are hit by an interrupt or a page
    fault, and a block over an array (a first version of this test) is slowed after every call by the caches the
    processes that ran meanwhile emptied: its median +10 % once in CI. Machine speed does not enter: both are of the
    same loop in the same run. On a machine whose cores are taken by other work, the bursts between calls are the ones
    preempted (+14 % seen beside a build on 2 cores): the recording is made again, up to three times, and one whose
    ranks all fall in the bounds is enough; the recorder's own cost would be in every one."""
    program = build(mpicc, tmp_path, "measured", MEASURED_LOOP)
    attempts = []
    for attempt in range(3):
        folder = tmp_path / f"attempt-{attempt}"
        folder.mkdir()
        ratios = [burst_ratio(record(program, folder, np=2), r) for r in range(2)]
        attempts.append(ratios)
        if all(0.97 <= ratio <= 1.12 for ratio, _ in ratios):
            return
    pytest.fail(f"burst ratios (rank 0, rank 1) of each attempt: {attempts}")


def burst_ratio(trace: Path, rank: int):
    """(median burst between calls / median block back to back, the back-to-back blocks) of `rank` in the trace of
    MEASURED_LOOP."""
    phases = 10
    barriers = 0
    back_to_back, between_calls = [], []
    for action in actions(trace, rank, keep_compute=True):
        if action == "barrier":
            barriers += 1
        elif action.startswith("compute ") and 1 <= barriers <= phases:
            back_to_back.append(int(action.split()[1]) / (1000 / phases))
        elif action.startswith("compute ") and barriers == phases + 1:
            between_calls.append(int(action.split()[1]))
    assert len(back_to_back) == phases, back_to_back
    # One burst per block (the threshold, 1 us, is far below a block); a few more where an interrupt or a page
    # fault between two calls took over 1 us (seen: 3 in 20 runs at load 11), or before the last barrier.
    assert 1000 <= len(between_calls) <= 1010, len(between_calls)
    return statistics.median(between_calls) / statistics.median(back_to_back), back_to_back
