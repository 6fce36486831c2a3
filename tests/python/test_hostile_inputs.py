"""Hostile inputs (issue 13): values and files built to break the simulator. Each one gives one line on stderr and
exit status 2 (or runs, where the input is valid): never a hang, a traceback, a crash or unbounded memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import repo_path

PLATFORM = repo_path("examples", "replay-basic", "cluster4.xml")
INDEX = repo_path("examples", "replay-basic", "index.txt")


def run_cli(*args, timeout=60):
    """The command's status, stdout and stderr, read as bytes and decoded strictly (a message must be UTF-8)."""
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, timeout=timeout)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def assert_one_line_error(args, *words, timeout=60):
    """Exit status 2, nothing on stdout, one line on stderr holding every word; returns that line."""
    code, out, err = run_cli(*args, timeout=timeout)
    assert code == 2, (code, out, err)
    assert out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# 1, 2: NaN and infinity made transfers never end (100 % CPU forever); a zero or negative bandwidth factor left every
# message pending, reported as a deadlock.
@pytest.mark.parametrize("param,words", [
    ("smpi/os=0:nan", ["parameter os", "'nan' is not a finite number"]),
    ("smpi/os=0:inf", ["parameter os", "'inf' is not a finite number"]),
    ("smpi/or=0:nan", ["parameter or", "'nan'"]),
    ("smpi/bw-factor=0:inf", ["parameter bw-factor", "'inf'"]),
    ("smpi/bw-factor=0:nan", ["parameter bw-factor", "'nan'"]),
    ("smpi/bw-factor=0:0", ["parameter bw-factor", "value 0", "> 0"]),
    ("smpi/bw-factor=0:-1", ["parameter bw-factor", "value -1", "> 0"]),
    ("weight-S=nan", ["parameter weight-S", "'nan'"]),
    ("tcp-gamma=1e308YiB", ["parameter tcp-gamma", "out of range"]),
])
def test_model_parameters_out_of_range(param, words):
    assert_one_line_error(["replay", INDEX, "--platform", PLATFORM, "--param", param], "--param", *words, timeout=30)


def test_parameter_file_values_are_checked_with_file_and_line(tmp_path):
    params = tmp_path / "params.txt"
    params.write_text("# calibration\nsmpi/bw-factor = 0:0.9\nsmpi/lat-factor = 0:1;65536:inf\n")
    assert_one_line_error(["replay", INDEX, "--platform", PLATFORM, "--model-params", str(params)],
                          f"{params}:3:", "'inf'", timeout=30)


def test_platform_config_values_are_checked(tmp_path):
    platform = tmp_path / "p.xml"
    platform.write_text(open(PLATFORM).read().replace(
        '<platform version="4.1">',
        '<platform version="4.1">\n  <config><prop id="smpi/bw-factor" value="0:0"/></config>'))
    assert_one_line_error(["replay", INDEX, "--platform", str(platform)], "platform <config>", "bw-factor",
                          timeout=30)


# 3: a byte that is not UTF-8 in a file used to replace the whole message by Python's decoding error.
def test_non_utf8_trace_keeps_file_and_line(tmp_path):
    trace = tmp_path / "trace.txt"
    trace.write_bytes(b"0 init\n0 compute 1e6\xff\n0 finalize\n")
    line = assert_one_line_error(["replay", str(trace), "--platform", PLATFORM], f"{trace}:2:")
    assert "\\xff" in line, line


def test_non_utf8_parameter_file_keeps_file_and_line(tmp_path):
    params = tmp_path / "params.txt"
    params.write_bytes(b"crosstraffic = y\xffes\n")
    line = assert_one_line_error(["replay", INDEX, "--platform", PLATFORM, "--model-params", str(params)],
                                 f"{params}:1:")
    assert "y\\xffes" in line, line


def test_non_utf8_hostfile_keeps_file_and_line(tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_bytes(b"node-0\nnode-\xff1\n")
    assert_one_line_error(["replay", INDEX, "--platform", PLATFORM, "--hostfile", str(hostfile)],
                          f"{hostfile}:2:", "node-\\xff1")


def test_non_utf8_platform_keeps_file_and_line(tmp_path):
    platform = tmp_path / "p.xml"
    platform.write_bytes(b'<?xml version="1.0"?>\n<platform version="4.1">\n<zone id="z" routing="Full">\n'
                         b'<host id="h" speed="1\xffGf"/>\n</zone></platform>\n')
    assert_one_line_error(["replay", INDEX, "--platform", str(platform)], f"{platform}:4:", "\\xff")


# 4: 20 000 nested zones overflowed the stack (a segmentation fault, no message); now a bounded depth.
def nested_zones(depth):
    opening = "".join(f'<zone id="z{i}" routing="Floyd">\n' for i in range(depth - 1))
    closing = "</zone>\n" * (depth - 1)
    return ('<?xml version="1.0"?>\n<platform version="4.1">\n' + opening +
            f'<zone id="z{depth - 1}" routing="Full"><host id="h" speed="1Gf"/></zone>\n' + closing + "</platform>\n")


def test_deeply_nested_zones_are_refused_with_file_and_line(tmp_path):
    platform = tmp_path / "deep.xml"
    platform.write_text(nested_zones(20000))
    trace = tmp_path / "trace.txt"
    trace.write_text("0 init\n0 compute 1e9\n0 finalize\n")
    # the zone at depth 1001 opens on line 2 + 1001
    assert_one_line_error(["replay", str(trace), "--platform", str(platform)], f"{platform}:1003:",
                          "nested 1001 deep", "at most 1000")


def test_the_deepest_nesting_allowed_replays(tmp_path):
    platform = tmp_path / "deep.xml"
    platform.write_text(nested_zones(1000))
    trace = tmp_path / "trace.txt"
    trace.write_text("0 init\n0 compute 1e9\n0 finalize\n")
    code, out, err = run_cli("replay", str(trace), "--platform", str(platform), "--json")
    assert code == 0, err
    assert json.loads(out)["simulated_time"] == 1.0  # 1e9 flops at 1 Gf


# 5: generated platforms and files of any size used to be built or read until memory ran out.
@pytest.mark.parametrize("spec,hosts", [
    ("torus:1000x1000x1000", "1000000000 hosts"),
    ("cluster:1000000000000", "1000000000000 hosts"),
    ("torus:" + "x".join(["1000"] * 20), "more than 10^19 hosts"),
    ("fattree:3;1000,1000,1000;1,1000,1000;1,1,1", "1000000000 hosts"),
    # found by the fuzz harness (tests/fuzz): few hosts, billions of cables, sized before any link was made
    ("fattree:2;4,4;2,2;999999991,1", "16 hosts (63999999484 hosts and links)"),
    ("dragonfly:1,1;1,1;100000,1;1", "100000 hosts (10000300000 hosts and links)"),
])
def test_generated_platforms_too_large_are_refused_before_building(spec, hosts):
    line = assert_one_line_error(["replay", INDEX, "--platform", spec], f"platform spec '{spec}'", hosts,
                                 "of memory", "available", timeout=30)
    assert "GiB" in line, line


def test_torus_of_many_dimensions_counts_its_links(tmp_path):
    # 2^20 hosts with 40 links each: 43 million elements, refused whatever the memory, below the id limit
    line = assert_one_line_error(["replay", INDEX, "--platform", "torus:" + "x".join(["2"] * 20)],
                                 "1048576 hosts", "hosts and links", timeout=60)
    assert "GiB" in line, line


def test_huge_radical_range_is_refused_before_expanding(tmp_path):
    platform = tmp_path / "p.xml"
    platform.write_text('<?xml version="1.0"?>\n<platform version="4.1">\n'
                        '<cluster id="c" prefix="n" suffix="" radical="0-2000000000" speed="1Gf" bw="1GBps" '
                        'lat="1us"/>\n</platform>\n')
    assert_one_line_error(["replay", INDEX, "--platform", str(platform)], f"{platform}:3:", "2000000001 hosts",
                          timeout=30)


@pytest.mark.parametrize("option", ["--platform", "--hostfile", "--model-params", "trace"])
def test_non_regular_files_are_refused(tmp_path, option):
    def args_with(path):
        if option == "trace":
            return ["replay", path, "--platform", PLATFORM]
        return ["replay", INDEX, "--platform", PLATFORM, option, path]

    assert_one_line_error(args_with("/dev/zero"), "/dev/zero: not a regular file (a character device)", timeout=30)
    assert_one_line_error(args_with(str(tmp_path)), f"{tmp_path}: not a regular file (a directory)", timeout=30)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_one_line_error(args_with(str(fifo)), f"{fifo}: not a regular file (a FIFO)", timeout=30)


# 6: each replay rank was a fiber with a stack mapping and a guard page of its own: past vm.max_map_count (65 530 by
# default, about 32 000 ranks) the replay was refused. Replay ranks now take slices of a stack arena, a few mappings in
# all, so this 20-byte trace naming rank 60 000 runs whatever the limit: 60 001 ranks, the two with an action finish
# at time 0, the others have none.
def test_more_ranks_than_memory_mappings_for_guarded_stacks_replay(tmp_path):
    trace = tmp_path / "trace.txt"
    trace.write_text("0 init\n60000 init\n")
    code, out, err = run_cli("replay", str(trace), "--platform", "cluster:4", "--json", timeout=120)
    assert code == 0, err
    result = json.loads(out)
    assert result["inputs"]["np"] == 60001
    assert result["actions"] == 2
    assert result["simulated_time"] == 0
    assert [r["actions"] for r in result["ranks"][:2]] == [1, 0] and result["ranks"][60000]["actions"] == 1


# 7: "host:N" was expanded eagerly (a MemoryError for a 4-rank run); a count too large for a long broke the vector.
def test_huge_slot_count_is_not_expanded(tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("node-0:1000000000\n")
    code, out, err = run_cli("replay", INDEX, "--platform", "cluster:4", "--hostfile", str(hostfile), "--json",
                             timeout=30)
    assert code == 0, err
    assert json.loads(out)["inputs"]["np"] == 4


@pytest.mark.parametrize("count,words", [
    ("99999999999999999999", ["slot count '99999999999999999999' is out of range (1 to 2147483647)"]),
    ("abc", ["bad slot count 'abc'"]),
])
def test_bad_slot_counts_give_file_and_line(tmp_path, count, words):
    hostfile = tmp_path / "hosts"
    hostfile.write_text(f"node-1\nnode-0:{count}\n")
    assert_one_line_error(["replay", INDEX, "--platform", "cluster:4", "--hostfile", str(hostfile)],
                          f"{hostfile}:2:", *words, timeout=30)


# 8: --np beyond an int and output to a full disk ended in tracebacks.
@pytest.mark.parametrize("np", ["2147483648", "abc", "0", "-1", "99999999999999999999"])
def test_replay_rank_counts_are_bounded(np):
    assert_one_line_error(["replay", INDEX, "--platform", PLATFORM, "--np", np],
                          f"--np expects an integer from 1 to 2147483647, got '{np}'", timeout=30)


def test_python_api_rank_count_is_bounded():
    import mpisim

    with pytest.raises(mpisim.InputError, match="np expects an integer from 1 to 2147483647, got '2147483648'"):
        mpisim.replay(INDEX, platform=PLATFORM, np=2**31)
    with pytest.raises(mpisim.InputError, match="np expects a 64-bit integer"):
        mpisim.replay(INDEX, platform=PLATFORM, np=2**70)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_to_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mpisim", "replay", INDEX, "--platform", PLATFORM, "--json"],
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.strip().splitlines() == ["mpisim: cannot write the output: No space left on device"], err


def test_timeline_to_a_full_disk_is_one_line():
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    code, out, err = run_cli("replay", INDEX, "--platform", PLATFORM, "--timeline", "/dev/full",
                             "--timeline-format", "csv")
    assert code in (1, 2), (code, err)
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


# 9: `mpisim run`'s own checks come before the program is loaded: a program path that does not exist is enough.
@pytest.mark.parametrize("args,words", [
    (["--stack-size", "0"], ["--stack-size: '0B' is below the minimum, 64KiB"]),
    (["-np", "abc"], ["-np expects an integer from 1 to 2147483647, got 'abc'"]),
    (["-np", "99999999999"], ["got '99999999999'"]),
    (["-np", "-1"], ["got '-1'"]),
    (["-np", "0"], ["got '0'"]),
])
def test_run_options_are_bounded(args, words):
    assert_one_line_error(["run", *args, "--platform", "cluster:2", "./no-such-program"], "mpisim run: ", *words)


def test_run_hostfile_slot_count_is_checked(tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("node-0:abc\n")
    assert_one_line_error(["run", "--platform", "cluster:2", "--hostfile", str(hostfile), "./no-such-program"],
                          f"mpisim run: {hostfile}:1: bad slot count 'abc'")
