"""The xsim model end to end (docs/models.md "xsim", docs/platforms.md "hierarchy:"): listed with its parameters and
source, the bundled 16-node platform in both forms, bad hierarchy specs, and the paper's IS scaling result
(examples/xsim-is)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import repo_path

SPEC_FILE = repo_path("platforms", "xsim-16node.spec")
XML_FILE = repo_path("platforms", "xsim-16node.xml")
EXAMPLE = repo_path("examples", "xsim-is", "is_like.py")


def run_cli(*args, timeout=120):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def replay_json(*args):
    code, out, err = run_cli("replay", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def is_example():
    spec = importlib.util.spec_from_file_location("is_like", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_models_lists_xsim_with_its_parameters_and_source():
    code, out, err = run_cli("models")
    assert code == 0, err
    block = out[out.index("xsim:"):]
    assert "Engelmann et al." in block and "Sec. 3.1, 3.2, 4.1, 4.2" in block
    for parameter in ("rdv=", "contention=", "capacity="):
        assert parameter in block


def test_the_spec_generates_the_bundled_xml():
    """platforms/xsim-16node.xml is the text the spec of platforms/xsim-16node.spec generates (same hosts, same
    links, same properties): the two are one platform."""
    spec = [line for line in open(SPEC_FILE) if line.strip() and not line.startswith("#")]
    assert len(spec) == 1
    assert spec[0].strip() in open(XML_FILE).read()
    for platform in (SPEC_FILE, XML_FILE):
        code, out, err = run_cli("replay", repo_path("examples", "replay-basic", "index.txt"), "--platform", platform,
                                 "--json")
        assert code == 0, err


@pytest.mark.parametrize("model", ["xsim", "smpi"])
def test_both_forms_give_the_same_results(tmp_path, model):
    """An IS-like trace of 32 ranks (two cores on each node), under xsim and a flow model: the spec file and the XML
    give the same per-rank figures to the last bit."""
    example = is_example()
    index = example.write_is_trace(str(tmp_path / "is"), 32)
    hostfile = example.write_hostfile(str(tmp_path / "hosts.txt"), 2)
    results = [replay_json(index, "--platform", platform, "--hostfile", hostfile, "--model", model)
               for platform in (SPEC_FILE, XML_FILE)]
    assert results[0]["simulated_time"] > 0
    assert results[0]["simulated_time"] == results[1]["simulated_time"]
    assert results[0]["ranks"] == results[1]["ranks"]


def test_is_stops_scaling_with_contention_and_keeps_scaling_without():
    """The paper's Fig. 2 (Sec. 3.3), with IS-like class C traces on the 16 nodes at 1, 2, 4, 8 cores per node.

    With c cores per node (P = 16 c ranks, node by node), each rank sends P - c blocks of 2^27 / P^2 keys of 4 bytes
    off its node per iteration, so a node's card carries c (P - c) 2^29 / P^2 = 15 x 2^29 / 256 = 31.46 MB per
    iteration whatever c is: 10 iterations at 944.146 Mbps take at least 2.666 s. With contention (the platform's:
    the processors and the node share one access point) every run pays that bound, and doubling the cores from 4 to
    8 gains little; without contention each rank has the full bandwidth, and the time keeps falling (less than half
    the bound at 8 cores per node).
    """
    import tempfile

    example = is_example()
    with tempfile.TemporaryDirectory() as workdir:
        times = example.study(workdir)
    on, off = times["contention"], times["no contention"]
    card_bound = 10 * 15 * 2 ** 29 / 256 / (944.146e6 / 8)
    assert abs(card_bound - 2.6657) < 1e-3
    assert all(t >= card_bound for t in on), on
    assert on[3] / on[2] > 0.8, on                       # 4 -> 8 cores per node: under 20 % better
    assert off[3] / off[2] < 0.6 and off[2] / off[1] < 0.6 and off[1] / off[0] < 0.6, off
    assert off[3] < card_bound / 2, off
    assert all(a > b for a, b in zip(off, off[1:])) and all(a > b for a, b in zip(on, on[1:]))


@pytest.mark.parametrize("spec,words", [
    ("hierarchy:16x2x4,lat=48us/1us,bw=1Gbps", ["lat has 2 values for 3 levels"]),
    ("hierarchy:16x0x4,lat=1us,bw=1Gbps", ["level count '0' is not a positive integer"]),
    ("hierarchy:16xtwo,lat=1us,bw=1Gbps", ["level count 'two'"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps/0Gbps", ["bw of level 1", "must be > 0"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps/-5Gbps", ["bw of level 1"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps/8Gbps,capacity=-/4Gbps", ["capacity of level 1 (4Gbps) is below its "
                                                                 "point-to-point bandwidth (8Gbps)"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps,contention=yes/yes", ["contention of level 0 is yes"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps,contention=no/maybe", ["contention of level 1 is 'maybe'"]),
    ("hierarchy:4x2,lat=1us,bw=1Gbps,levels=3", ["unknown option 'levels'"]),
    ("hierarchy:4x2,bw=1Gbps", ["option lat is missing"]),
    ("hierarchy:4x2,lat=1,bw=1Gbps", ["lat of level 0", "needs a unit"]),
    ("hierarchy:100000x100000x100000,lat=1us,bw=1Gbps", ["GiB"]),
])
def test_bad_hierarchy_specs_give_one_line_and_exit_2(spec, words):
    code, out, err = run_cli("replay", repo_path("examples", "replay-basic", "index.txt"), "--platform", spec,
                             "--model", "xsim", timeout=60)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert spec in lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def test_bad_spec_file_names_the_file(tmp_path):
    spec = tmp_path / "bad.spec"
    spec.write_text("# two levels, three latencies\nhierarchy:4x2,lat=1us/1us/1us,bw=1Gbps\n")
    code, out, err = run_cli("replay", repo_path("examples", "replay-basic", "index.txt"), "--platform", str(spec))
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and str(spec) in err and "lat has 3 values for 2 levels" in err


def test_bad_zone_properties_are_bad_input(tmp_path):
    """The XML form is checked too: the xsim model reads xsim/ properties as the spec's values."""
    xml = open(XML_FILE).read().replace('<prop id="xsim/bw" value="944.146Mbps"/>',
                                        '<prop id="xsim/bw" value="0Mbps"/>', 1)
    platform = tmp_path / "bad.xml"
    platform.write_text(xml)
    code, out, err = run_cli("replay", repo_path("examples", "replay-basic", "index.txt"), "--platform",
                             str(platform), "--model", "xsim")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "zone 'hierarchy': property xsim/bw" in err


def test_the_xml_form_is_a_simgrid_platform(tmp_path):
    """SimGrid 3.32 loads platforms/xsim-16node.xml, and its SMPI model agrees with mpisim's `smpi` on it: the
    example trace of four ranks on cores of two processors and two nodes (SimGrid printed 2.557692)."""
    from smpi import smpi_replay_time, write_hostfile

    index = repo_path("examples", "replay-basic", "index.txt")
    hostfile = write_hostfile(str(tmp_path / "hosts.txt"), ["c0.0.0", "c0.0.1", "c1.0.0", "c1.1.3"])
    simgrid = smpi_replay_time(index, XML_FILE, 4, hostfile)
    ours = replay_json(index, "--platform", XML_FILE, "--hostfile", hostfile)["simulated_time"]
    assert abs(simgrid - 2.557692) < 1e-6
    assert abs(ours - simgrid) < 1e-6


def test_online_run_under_xsim(tmp_path):
    """`mpisim run --model xsim`: collectives and point-to-point move the real data (the sums agree with the flow
    model's run), including rendezvous-sized messages whose sender is released before the data arrives."""
    binary = str(tmp_path / "app")
    code, out, err = run_cli("cc", "-O1", repo_path("tests", "online", "xsim_collectives.c"), "-o", binary)
    assert code == 0, err
    outputs = {}
    for model in ("xsim", "smpi"):
        code, out, err = run_cli("run", "-np", "32", "--platform", SPEC_FILE, "--model", model, "--no-compute-time",
                                 "--quiet", binary)
        assert code == 0, err
        outputs[model] = out
    # Rank r receives from rank s the ints s 10^6 + r n + j, j < n = 2^16; the allreduce sums (value mod 7) over
    # every rank: whole periods of 7 give 21 each, then the n mod 7 = 2 values left.
    n = 65536

    def block(base):
        return (n // 7) * 21 + sum((base + n - n % 7 + k) % 7 for k in range(n % 7))

    total = sum(block(s * 1000000 + r * n) for r in range(32) for s in range(32))
    assert outputs["xsim"] == outputs["smpi"] == f"total {total} token 31 got 30\n"
