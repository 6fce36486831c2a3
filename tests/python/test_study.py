"""`mpisim study coll`: size and range parsing, timings checked on closed-form cases, the CSV and the plot, and bad
arguments (one line, exit 2)."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest

from mpisim.study import parse_range, parse_size

STAR = "cluster:8,bw=1GBps,lat=0s"  # with the fluid model a lone message of S bytes takes S / 1e9 s


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_sizes_and_ranges():
    assert parse_size("32KiB") == 32768
    assert parse_size("2MiB") == 2 * 1024 * 1024
    assert parse_size("1MB") == 1000000
    assert parse_size("1e6") == 1000000
    assert parse_range("32KiB:256KiB", parse_size) == [32768, 65536, 131072, 262144]
    assert parse_range("1:1024") == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert parse_range("3:20") == [3, 4, 8, 16, 20]  # the ends, and the powers of two between
    assert parse_range("5,2,9") == [2, 5, 9]
    with pytest.raises(ValueError):
        parse_size("12 parsecs")
    with pytest.raises(ValueError):
        parse_range("64:2")


# On the star, 1e6-B blocks on 8 ranks: pairwise alltoall is 7 steps of 1 ms, bruck 3 steps of 4 ms; on 2 ranks
# both are one 1 ms exchange. Time per byte divides by the block size.
def test_study_times_match_closed_forms(tmp_path):
    out = tmp_path / "study.csv"
    plot = tmp_path / "study.png"
    code, stdout, stderr = run_cli("study", "coll", "alltoall", "--platform", STAR, "--model", "fluid",
                                   "--sizes", "1000000", "--nodes", "2,8", "--algorithms", "pair,bruck",
                                   "-o", str(out), "--plot", str(plot))
    assert code == 0, stderr
    rows = list(csv.DictReader(open(out)))
    times = {(r["algorithm"], int(r["ranks"])): float(r["time"]) for r in rows}
    assert times[("pair", 8)] == pytest.approx(7e-3, rel=1e-9)
    assert times[("bruck", 8)] == pytest.approx(12e-3, rel=1e-9)
    assert times[("pair", 2)] == pytest.approx(1e-3, rel=1e-9)
    assert times[("bruck", 2)] == pytest.approx(1e-3, rel=1e-9)
    per_byte = {(r["algorithm"], int(r["ranks"])): float(r["time_per_byte"]) for r in rows}
    assert per_byte[("pair", 8)] == pytest.approx(7e-9, rel=1e-9)
    assert "fastest (grid points won): pair 2" in stdout  # pair wins on 8 ranks and ties (listed first) on 2
    assert "4/4" in stderr  # the progress bar reached the end

    from PIL import Image  # matplotlib's dependency

    image = Image.open(plot)
    assert image.size[0] > 400 and image.size[1] > 300
    assert sum(1 for count in image.convert("L").histogram() if count) > 10, "the plot is not blank"


def test_selectors_are_choices_too(tmp_path):
    out = tmp_path / "study.csv"
    code, _, stderr = run_cli("study", "coll", "bcast", "--platform", STAR, "--sizes", "1KiB", "--nodes", "4",
                              "--algorithms", "binomial_tree,default", "-o", str(out), "-q")
    assert code == 0, stderr
    rows = list(csv.DictReader(open(out)))
    assert [(r["algorithm"], r["kind"]) for r in rows] == [("binomial_tree", "algorithm"), ("default", "selector")]
    assert rows[0]["time"] == rows[1]["time"]  # SimGrid's default bcast is the binomial tree


@pytest.mark.parametrize("args,words", [
    (["alltoal"], ["unknown collective operation 'alltoal'"]),
    (["alltoall", "--algorithms", "brook"], ["'brook' is neither an algorithm of alltoall nor a selector", "bruck"]),
    (["alltoall", "--sizes", "2MiB:32KiB"], ["bad size range"]),
    (["alltoall", "--nodes", "0:4"], ["at least 1 rank"]),
])
def test_bad_arguments(tmp_path, args, words):
    code, stdout, stderr = run_cli("study", "coll", *args, "--platform", STAR, "-o", str(tmp_path / "x.csv"))
    assert code == 2, (stdout, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for word in words:
        assert word in lines[0]


# --coll-selector automatic: on the star, an alltoall of 1e6-B blocks on 8 ranks; the replay reports the decision
# with every candidate's time alone (pair 7 ms, bruck 12 ms) and runs the fastest.
def test_automatic_selector_reports_its_decisions(tmp_path):
    import json

    from tracegen import write_trace

    index = write_trace(str(tmp_path / "trace"), [["alltoall 1000000 1000000"] for _ in range(8)])
    code, stdout, stderr = run_cli("replay", index, "--platform", STAR, "--model", "fluid", "--coll-selector",
                                   "automatic", "--json")
    assert code == 0, stderr
    result = json.loads(stdout)
    [decision] = result["collective_decisions"]
    assert list(decision) == ["operation", "comm_size", "bytes", "chosen", "calls", "candidates"]
    assert decision["operation"] == "alltoall" and decision["comm_size"] == 8 and decision["calls"] == 8
    times = dict(decision["candidates"])
    assert times["pair"] == pytest.approx(7e-3) and times["bruck"] == pytest.approx(12e-3)
    assert times[decision["chosen"]] == min(times.values())
    assert result["simulated_time"] == pytest.approx(min(times.values()))
    code, stdout, _ = run_cli("replay", index, "--platform", STAR, "--model", "fluid", "--coll-selector", "automatic")
    assert "Automatic collective selection" in stdout and "alltoall on 8 ranks, 1000000 B, 8 rank-calls" in stdout


def test_io_study_point_follows_the_storage_equations(tmp_path):
    """`mpisim study io`: one client (node-0) writing one 64 KiB record to one server (node-9, the platform's last)
    takes docs/io.md's sum; the CSV and the plot are written; more servers never slow large records down."""
    from conftest import repo_path

    output, picture = tmp_path / "io.csv", tmp_path / "io.png"
    done = subprocess.run([sys.executable, "-m", "mpisim", "study", "io", "--platform",
                           repo_path("platforms", "pio-cluster-10.xml"), "--clients", "1,2", "--servers", "1,2",
                           "--records", "64KiB,4MiB", "--block", "4MiB", "-o", str(output), "--plot", str(picture),
                           "-q"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(open(output)))
    assert len(rows) == 2 * 2 * 2 * 2 and picture.stat().st_size > 0

    def message(size):  # two 50 us Gigabit Ethernet links
        return 100e-6 + size / 125e6

    record = 64 * 1024
    per_record = message(256) + message(record) + 20e-6 + record / 5e9 + message(256)  # cached write
    seconds = (2 * message(256) + 200e-6) + 64 * per_record + (2 * message(256) + 100e-6)
    one = next(r for r in rows if (r["clients"], r["servers"], r["record"], r["direction"]) == ("1", "1", "65536",
                                                                                              "write"))
    assert float(one["seconds"]) == pytest.approx(seconds, rel=1e-9)
    assert float(one["MiB/s"]) == pytest.approx(4 / seconds, rel=1e-9)
    for clients in ("1", "2"):
        bandwidth = {r["servers"]: float(r["MiB/s"]) for r in rows
                     if r["clients"] == clients and r["record"] == str(4 << 20) and r["direction"] == "write"}
        assert bandwidth["2"] >= bandwidth["1"] * 0.999, bandwidth
