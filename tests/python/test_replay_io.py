"""MPI-IO actions in replayed traces (docs/replay.md, "MPI-IO actions"): timed by the storage model as docs/io.md's
equations say, collective ones by the online two-phase code; bad lines are `FILE:LINE: what is wrong`, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import repo_path

PAPER_CLUSTER = repo_path("platforms", "pio-cluster-10.xml")
KIB = 1024


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def replay(tmp_path, text, *options):
    trace = tmp_path / "trace.txt"
    trace.write_text(text)
    code, out, err = run_cli("replay", str(trace), "--platform", PAPER_CLUSTER, "--model", "fluid", "--json",
                             *options)
    assert code == 0, err
    return json.loads(out)


# docs/io.md's paper cluster: Gigabit Ethernet (125 MB/s, two 50 us links between nodes), a node's own server over
# the 10 GB/s, 0 s loopback; 256-byte requests; open 200 us, close 100 us, 20 us per request; 5 GB/s cache with
# write-behind; 64 KiB stripe units over the 10 servers, a file's first unit on server (file number mod 10).
def message(size):
    return 100e-6 + size / 125e6


def loopback(size):
    return size / 10e9


def open_time():
    return 2 * loopback(256) + 200e-6


def close_time():
    return 2 * loopback(256) + 100e-6


def cached_write(size):
    return message(256) + message(size) + 20e-6 + size / 5e9 + message(256)


def cached_read(size):
    return message(256) + 20e-6 + size / 5e9 + message(size)


# Rank 0 (node-0) opens "a" alone: file 0, metadata on node-0 (its own host); unit 2 is on node-2. Rank 1 (node-1)
# opens "b": file 1, metadata on node-1, unit 2 on node-3. No link is shared: both take the same time.
INDEPENDENT = """0 init
1 init
0 file_open a self
1 file_open b self
0 file_write_at a 131072 65536
1 file_write_at b 131072 65536
0 file_read_at a 131072 65536
1 file_read_at b 131072 65536
0 file_close a
1 file_close b
0 finalize
1 finalize
"""


def test_write_then_read_takes_the_equations_time(tmp_path):
    result = replay(tmp_path, INDEPENDENT)
    expected = open_time() + cached_write(64 * KIB) + cached_read(64 * KIB) + close_time()
    assert result["simulated_time"] == pytest.approx(expected, rel=1e-9)
    # 200.0512 + 861.4912 + 759.4432 + 100.0512 us
    assert expected == pytest.approx(1921.0368e-6, rel=1e-9)


def test_the_pointer_forms_move_the_individual_pointer(tmp_path):
    # seek to unit 2, write, seek back, read: the same accesses as the explicit offsets above.
    text = INDEPENDENT.replace("0 file_write_at a 131072 65536", "0 file_seek a 131072\n0 file_write a 65536")
    text = text.replace("0 file_read_at a 131072 65536", "0 file_seek a 131072\n0 file_read a 65536")
    assert replay(tmp_path, text)["simulated_time"] == pytest.approx(replay(tmp_path, INDEPENDENT)["simulated_time"],
                                                                     rel=1e-12)
    # Without the second seek the read continues after the write, at unit 3 (node-3, another server): still a cache
    # miss there, so it takes longer than the cached read.
    text = INDEPENDENT.replace("0 file_write_at a 131072 65536", "0 file_seek a 131072\n0 file_write a 65536")
    text = text.replace("0 file_read_at a 131072 65536", "0 file_read a 65536")
    assert replay(tmp_path, text)["simulated_time"] > replay(tmp_path, INDEPENDENT)["simulated_time"] + 1e-3


def collective_trace(offset0, offset1, size, form="at_all"):
    return f"""0 init
1 init
0 file_open shared world
1 file_open shared world
0 file_write_{form} shared {offset0} {size}
1 file_write_{form} shared {offset1} {size}
0 file_read_{form} shared {offset0} {size}
1 file_read_{form} shared {offset1} {size}
0 file_close shared
1 file_close shared
"""


def test_collective_actions_run_two_phase_when_ranges_overlap(tmp_path):
    # Disjoint ranges: no aggregation (independent accesses after the exchange of ranges). Overlapping ones: two-phase
    # with one aggregator per host, data through the network, and the write's closing all-reduce: it takes longer.
    disjoint = replay(tmp_path, collective_trace(0, 64 * KIB, 64 * KIB))["simulated_time"]
    overlapping = replay(tmp_path, collective_trace(0, 32 * KIB, 64 * KIB))["simulated_time"]
    assert disjoint > 0
    assert overlapping > disjoint


@pytest.mark.parametrize("line,words", [
    ("0 file_open a both", ["file_open", "both"]),
    ("0 file_open a", ["file_open", "takes 2 arguments"]),
    ("0 file_write_at a -1 10", ["offset", "negative"]),
    ("0 file_read_at a 0 12x", ["bytes", "12x"]),
    ("0 file_write b 10", ["'b'", "not open"]),
    ("0 file_open a self", ["'a'", "already open"]),
])
def test_bad_io_lines(tmp_path, line, words):
    trace = tmp_path / "trace.txt"
    trace.write_text(f"0 init\n0 file_open a self\n{line}\n")
    code, out, err = run_cli("replay", str(trace), "--platform", PAPER_CLUSTER)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"mpisim: {trace}:3:"), lines[0]
    for word in words:
        assert word in lines[0], lines[0]


# ---------------------------------------------------------------- non-blocking, shared-pointer and ordered actions

def test_a_nonblocking_access_waited_at_once_is_the_blocking_one(tmp_path):
    text = INDEPENDENT.replace("0 file_write_at a 131072 65536", "0 file_iwrite_at a 131072 65536\n0 file_wait a 0")
    text = text.replace("0 file_read_at a 131072 65536", "0 file_iread_at a 131072 65536\n0 file_wait a 1")
    assert replay(tmp_path, text)["simulated_time"] == pytest.approx(1921.0368e-6, rel=1e-9)


def test_a_nonblocking_write_overlaps_what_follows_it(tmp_path):
    # The write (861.4912 us) runs during the 10 ms sleep: the wait returns at once.
    text = INDEPENDENT.replace("0 file_write_at a 131072 65536",
                               "0 file_iwrite_at a 131072 65536\n0 sleep 0.01\n0 file_wait a 0")
    expected = open_time() + 0.01 + cached_read(64 * KIB) + close_time()
    assert replay(tmp_path, text)["ranks"][0]["finish"] == pytest.approx(expected, rel=1e-9)


def metadata_request():  # the shared pointer on the file's metadata server, node-0: rank 0's own host
    return 2 * loopback(256) + 20e-6


def test_the_shared_pointer_is_read_and_moved_by_a_metadata_request(tmp_path):
    # seek_shared to unit 2, then a shared write lands there: the explicit-offset access plus one metadata request
    # (no barrier: a file of one opener). The read at the pointer's next place (unit 3) shows the pointer moved.
    text = INDEPENDENT.replace("0 file_write_at a 131072 65536",
                               "0 file_seek_shared a 131072\n0 file_write_shared a 65536")
    expected = open_time() + metadata_request() + cached_write(64 * KIB) + cached_read(64 * KIB) + close_time()
    assert replay(tmp_path, text)["ranks"][0]["finish"] == pytest.approx(expected, rel=1e-9)
    moved = text.replace("0 file_read_at a 131072 65536", "0 file_read_shared a 65536")
    # unit 3 (node-3) was never written: a cache miss, a hard-disk read (9 ms seek + 4.17 ms rotation at least)
    assert replay(tmp_path, moved)["ranks"][0]["finish"] > expected + 13e-3


def ordered_trace(reads):
    return f"""0 init
1 init
0 file_open f world
1 file_open f world
0 file_write_ordered f 131072
1 file_write_ordered f 65536
{reads}
0 file_close f
1 file_close f
"""


def test_ordered_accesses_place_the_ranks_in_rank_order(tmp_path):
    # Rank 0's 128 KiB at 0 (units 0 and 1), rank 1's 64 KiB after it (unit 2). Reading those units back hits the
    # servers' caches; reading unit 3, which the shared pointer now points at, misses (a disk read, > 13 ms).
    written = ordered_trace("0 file_read_at f 131072 65536\n1 file_read_at f 0 65536")
    hits = replay(tmp_path, written)["simulated_time"]
    assert hits < 5e-3
    pointer = ordered_trace("0 file_read_shared f 65536\n1 file_read_at f 0 65536")
    assert replay(tmp_path, pointer)["simulated_time"] > hits + 13e-3


@pytest.mark.parametrize("line,words", [
    ("0 file_wait a 0", ["'a'", "no pending non-blocking access number 0", "0 posted"]),
    ("0 file_wait a", ["file_wait", "takes 2 arguments"]),
    ("0 file_iwrite_at a 10", ["file_iwrite_at", "takes 3 arguments"]),
    ("0 file_write_shared a -5", ["bytes", "negative"]),
])
def test_bad_new_io_lines(tmp_path, line, words):
    test_bad_io_lines(tmp_path, line, words)
