"""`mpisim run --huge-pages yes|no` (docs/online.md, "Huge pages for the heap"): by default the runner starts glibc's
malloc with glibc.malloc.hugetlb=1, so that a program's large allocations are backed by transparent huge pages; `no`
leaves glibc's default pages; a user's GLIBC_TUNABLES is extended, and their own glibc.malloc.hugetlb kept. The JSON
summary's host.huge_pages says which ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from test_online import _environment, mpisim

THP_MODES = "/sys/kernel/mm/transparent_hugepage/enabled"

# Rank 0 allocates and writes 64 MiB, then prints how much of the process's anonymous memory is in huge pages and
# the tunables the process started with.
PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    size_t bytes = (size_t)64 << 20;
    char* block = malloc(bytes);
    memset(block, 1, bytes);
    FILE* smaps = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    long huge_kib = -1;
    while (smaps && fgets(line, sizeof line, smaps))
      if (sscanf(line, "AnonHugePages: %ld kB", &huge_kib) == 1)
        break;
    if (smaps)
      fclose(smaps);
    const char* tunables = getenv("GLIBC_TUNABLES");
    printf("huge_kib %ld sum %d\ntunables %s\n", huge_kib, block[12345] + block[bytes - 1], tunables ? tunables : "");
    free(block);
  }
  MPI_Finalize();
  return 0;
}
"""


def thp_mode() -> str:
    """The kernel's transparent huge page mode: the bracketed word of always/madvise/never, "" when unknown."""
    try:
        with open(THP_MODES) as modes:
            text = modes.read()
    except OSError:
        return ""
    return text[text.find("[") + 1:text.find("]")] if "[" in text else ""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    folder = tmp_path_factory.mktemp("huge_pages")
    (folder / "huge_heap.c").write_text(PROGRAM)
    built = mpisim("cc", "-o", str(folder / "huge_heap"), str(folder / "huge_heap.c"))
    if built.returncode != 0:
        pytest.skip("mpisim cc cannot build programs here: " + built.stderr.strip()[-200:])
    return str(folder / "huge_heap")


def run(program, tmp_path, *options, tunables=None):
    """(huge KiB, the process's GLIBC_TUNABLES, the summary's host.huge_pages) of one run."""
    env = _environment()
    env.pop("GLIBC_TUNABLES", None)
    if tunables is not None:
        env["GLIBC_TUNABLES"] = tunables
    summary = tmp_path / "summary.json"
    done = subprocess.run([sys.executable, "-m", "mpisim", "run", "-np", "2", "--platform", "cluster:2",
                           "--no-compute-time", "--json", "--summary", str(summary), *options, program],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["huge_kib"].endswith(" sum 2")
    return int(lines["huge_kib"].split()[0]), lines["tunables"].strip(), json.loads(summary.read_text())["host"]


def test_the_heap_is_in_huge_pages_by_default(program, tmp_path):
    if thp_mode() not in ("always", "madvise"):
        pytest.skip(f"transparent huge pages are '{thp_mode()}' in {THP_MODES}")
    huge_kib, tunables, host = run(program, tmp_path)
    assert tunables == "glibc.malloc.hugetlb=1"
    assert host["huge_pages"] is True
    assert huge_kib >= 32 * 1024  # most of the 64 MiB (the block's ends may lie in 4 KiB pages)


def test_no_leaves_the_pages_to_the_kernel(program, tmp_path):
    huge_kib, tunables, host = run(program, tmp_path, "--huge-pages", "no")
    assert tunables == ""
    assert host["huge_pages"] is False
    if thp_mode() == "madvise":  # nothing asks for them: none
        assert huge_kib == 0


def test_a_users_tunables_are_extended_and_their_choice_kept(program, tmp_path):
    _, tunables, host = run(program, tmp_path, tunables="glibc.malloc.tcache_count=5")
    assert tunables == "glibc.malloc.tcache_count=5:glibc.malloc.hugetlb=1"
    assert host["huge_pages"] is (thp_mode() in ("always", "madvise"))
    huge_kib, tunables, host = run(program, tmp_path, tunables="glibc.malloc.hugetlb=0")
    assert tunables == "glibc.malloc.hugetlb=0"
    assert host["huge_pages"] is False
    if thp_mode() == "madvise":
        assert huge_kib == 0


def test_the_python_api_takes_the_option(program):
    import mpisim as api
    assert "tunables glibc.malloc.hugetlb=1" in api.run(program, np=2, platform="cluster:2", no_compute_time=True).stdout
    quiet = api.run(program, np=2, platform="cluster:2", no_compute_time=True, huge_pages="no")
    assert "glibc.malloc.hugetlb" not in quiet.stdout
