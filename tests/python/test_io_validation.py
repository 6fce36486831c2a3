"""Validating observed I/O performance (docs/io.md, "Validating observed I/O performance"), end to end: record
examples/io/stride.c under Open MPI, replay it on platforms/local-shm.xml (this machine's tmpfs), and check that
`mpisim compare` flags the strided accesses: every strided write, and no contiguous call.

Why those: the recorder writes each MPI_File_write_at as one contiguous range of the call's bytes, so the model
predicts a 1 MiB write at the disk's bandwidth (1 us + 1 MiB / 4.9 GB/s = 0.215 ms) for both layouts. Open MPI issues
a strided write through its file view as one pwritev per 16-byte record (65 536 system calls per call, 0.1 to 0.3 s
here: 500 to 1300 times the prediction), and the contiguous write as one (about 0.4 ms: twice the prediction). Reads
through the same view are one sieving read of the covering range (2 MiB: about 4 times the prediction), the first one
of a view slower (up to 80 times: Open MPI sets up its view then), so a strided read may be flagged too; a contiguous
call is not, at the threshold used here, 100x, unless the machine deschedules it for 21 ms.

Skipped without Open MPI's mpicc and mpirun or without libmpisim-trace.so (tests/python/test_record.py's fixture).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from conftest import repo_path
from test_record import mpicc, mpisim  # noqa: F401 (mpicc: the fixture)

RANKS = 2
STEPS = 2
MIB = 1 << 20


def test_compare_flags_the_strided_writes(mpicc, tmp_path):  # noqa: F811
    program = tmp_path / "stride"
    done = subprocess.run([mpicc, "-O2", "-o", str(program), repo_path("examples", "io", "stride.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    files = Path(tempfile.mkdtemp(prefix="mpisim-iocheck-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    try:
        done = mpisim("record", "-o", str(tmp_path / "trace"), "--", "mpirun", "--oversubscribe", "-np", str(RANKS),
                      str(program), "-s", str(STEPS), "-b", "1m", "-r", "16", "-d", str(files), cwd=tmp_path)
    finally:
        shutil.rmtree(files, ignore_errors=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check 0 wrong bytes" in done.stdout, done.stdout
    trace = tmp_path / "trace"
    # The strided writes are recorded as 1 MiB from the call's first byte: rank 1's k-th at 16 + 2 MiB k.
    lines = (trace / "rank-1.txt").read_text().splitlines()
    assert [line.split()[3:] for line in lines if line.startswith("1 file_write_at") and "strided" in line] == [
        [str(16 + 2 * MIB * k), str(MIB)] for k in range(STEPS)]

    sim = tmp_path / "sim.csv"
    done = mpisim("replay", str(trace / "index.txt"), "--platform", repo_path("platforms", "local-shm.xml"),
                  "--timeline", str(sim))
    assert done.returncode == 0, done.stderr
    table = tmp_path / "calls.csv"
    done = mpisim("compare", str(trace / "timeline.json"), str(sim), "--operations", "file_write_at,file_read_at",
                  "--slower-than", "100x", "--json", "--top", "0", "--csv", str(table))
    assert done.returncode == 0, done.stderr
    flagged = {(c["rank"], c["index"]) for c in json.loads(done.stdout)["slower_than"]["calls"]}

    with open(table) as stream:
        calls = list(csv.DictReader(line for line in stream if not line.startswith("#")))
    strided_writes, strided_reads = set(), set()
    for rank in range(RANKS):
        writes = [c for c in calls if int(c["rank"]) == rank and c["operation"] == "MPI_File_write_at"]
        reads = [c for c in calls if int(c["rank"]) == rank and c["operation"] == "MPI_File_read_at"]
        assert len(writes) == len(reads) == 2 * STEPS  # contiguous, then strided
        # The model predicts the same time for both layouts (one 1 MiB access each, alone on the disk).
        for call in writes:
            assert float(call["sim"]) >= 1e-6 + MIB / 4.9e9 * (1 - 1e-9)
        strided_writes |= {(rank, int(c["index"])) for c in writes[STEPS:]}
        strided_reads |= {(rank, int(c["index"])) for c in reads[STEPS:]}
    assert strided_writes <= flagged <= strided_writes | strided_reads, (flagged, calls)
