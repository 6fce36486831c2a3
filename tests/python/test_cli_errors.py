"""Bad input gives one line `FILE:LINE: what is wrong` and exit status 2; a deadlock gives exit status 124 and lists
what each blocked rank waits for. Never a crash, a hang or a partial result presented as one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import repo_path

PLATFORM = repo_path("examples", "replay-basic", "cluster4.xml")


def run_cli(*args, cwd=None):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def write(path, text):
    with open(path, "w") as out:
        out.write(text)
    return str(path)


def single_trace(tmp_path, text):
    return write(tmp_path / "trace.txt", text)


def assert_input_error(args, expected_location, expected_words):
    code, out, err = run_cli(*args)
    assert code == 2, (code, out, err)
    assert out == "", "no partial result on stdout"
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("mpisim: " + expected_location), lines[0]
    for word in expected_words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("text,line,words", [
    ("0 init\n0 frobnicate 3\n", 2, ["frobnicate"]),
    ("0 init\n0 compute\n", 2, ["compute"]),
    ("0 init\n0 compute 12x\n", 2, ["12x"]),
    ("0 init\n1 init\n0 send 7 0 100\n1 recv 0 0 100\n", 3, ["7"]),
    ("0 init\n0 send 0 0 100 99\n", 2, ["99"]),
])
def test_bad_trace_lines(tmp_path, text, line, words):
    trace = single_trace(tmp_path, text)
    assert_input_error(["replay", trace, "--platform", PLATFORM], f"{trace}:{line}:", words)


def test_missing_trace_file(tmp_path):
    missing = str(tmp_path / "nope.txt")
    assert_input_error(["replay", missing, "--platform", PLATFORM], missing, [])


def test_index_naming_a_missing_rank_file(tmp_path):
    index = write(tmp_path / "index.txt", "rank0.txt\nrank1.txt\n")
    write(tmp_path / "rank0.txt", "0 init\n")
    assert_input_error(["replay", index, "--platform", PLATFORM], index + ":2:", ["rank1.txt"])


def test_too_many_ranks_for_the_trace(tmp_path):
    index = repo_path("examples", "replay-basic", "index.txt")
    code, out, err = run_cli("replay", index, "--platform", PLATFORM, "--np", "9")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, err)
    assert "9" in err


def test_missing_platform_file(tmp_path):
    trace = single_trace(tmp_path, "0 init\n0 compute 1e9\n")
    missing = str(tmp_path / "missing.xml")
    assert_input_error(["replay", trace, "--platform", missing], missing, [])


def test_malformed_platform_xml(tmp_path):
    trace = single_trace(tmp_path, "0 init\n")
    platform = write(tmp_path / "bad.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <zone id=\"z\" "
                                           "routing=\"Full\">\n    <host id=\"a\" speed=\"1Gf\">\n  </zone>\n"
                                           "</platform>\n")
    code, out, err = run_cli("replay", trace, "--platform", platform)
    assert code == 2 and out == "", (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mpisim: {platform}:"), err


def test_unknown_link_in_a_route(tmp_path):
    trace = single_trace(tmp_path, "0 init\n")
    platform = write(tmp_path / "p.xml", """<?xml version='1.0'?>
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="1us"/>
    <route src="a" dst="b"><link_ctn id="nosuchlink"/></route>
  </zone>
</platform>
""")
    assert_input_error(["replay", trace, "--platform", platform], f"{platform}:7:", ["nosuchlink"])


def test_unknown_host_in_hostfile(tmp_path):
    trace = single_trace(tmp_path, "0 init\n")
    hostfile = write(tmp_path / "hosts", "node-0\nnode-77\n")
    assert_input_error(["replay", trace, "--platform", PLATFORM, "--hostfile", hostfile], f"{hostfile}:2:",
                       ["node-77"])


def test_missing_route(tmp_path):
    trace = single_trace(tmp_path, "0 init\n1 init\n0 send 1 0 10\n1 recv 0 0 10\n")
    platform = write(tmp_path / "p.xml", """<?xml version='1.0'?>
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
  </zone>
</platform>
""")
    code, out, err = run_cli("replay", trace, "--platform", platform)
    assert code == 2 and out == "", (code, err)
    assert len(err.strip().splitlines()) == 1 and "a" in err and "b" in err, err


def test_unknown_model_lists_the_valid_ones(tmp_path):
    trace = single_trace(tmp_path, "0 init\n")
    code, out, err = run_cli("replay", trace, "--platform", PLATFORM, "--model", "warp")
    assert code == 2 and "warp" in err and "smpi" in err and "loggps" in err, err


def test_bad_model_parameter(tmp_path):
    trace = single_trace(tmp_path, "0 init\n")
    code, out, err = run_cli("replay", trace, "--platform", PLATFORM, "--param", "weight-S=lots")
    assert code == 2 and "lots" in err, err


def test_truncated_receive_names_the_receive_line(tmp_path):
    trace = single_trace(tmp_path, "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 10\n")
    assert_input_error(["replay", trace, "--platform", PLATFORM], f"{trace}:4:", ["MPI_ERR_TRUNCATE", "1000"])


def test_deadlock_lists_every_blocked_rank(tmp_path):
    trace = single_trace(tmp_path, "0 init\n1 init\n2 init\n0 compute 1e9\n0 recv 1 0 10\n1 recv 0 0 10\n"
                                   "2 irecv 0 4 10\n2 wait 0 2 4\n")
    code, out, err = run_cli("replay", trace, "--platform", PLATFORM)
    assert code == 124, (code, out, err)  # as `mpisim run`'s deadlocks (docs/online.md, "Exit status and reports")
    assert out == ""
    assert "deadlock at simulated time 1 s: 3 blocked" in err, err
    assert "rank 0 waits for receive from rank 1, tag 0" in err, err
    assert "rank 1 waits for receive from rank 0, tag 0" in err, err
    assert "rank 2 waits for receive from rank 0, tag 4" in err, err
