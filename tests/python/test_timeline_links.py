"""`mpisim replay --timeline-links`: the bandwidth each link carries over time, in every timeline format.

Closed form. Four hosts; the routes h0 -> h2 and h1 -> h3 both cross one link `shared` of B = 100 MB/s and no
latency; the `fluid` model (no correction factor, no envelope, no cross-traffic). Rank 0 sends 1e8 bytes to rank 2
and rank 1 sends 2e8 bytes to rank 3, both receives posted at 0, so both flows start at 0:

- 0 <= t < 2: two flows, each gets B / 2 = 5e7 B/s; the link carries B = 1e8 B/s. The first flow's 1e8 bytes take
  1e8 / 5e7 = 2 s.
- 2 <= t < 3: the second flow alone gets B; it has 2e8 - 2 x 5e7 = 1e8 bytes left: 1 s more.
- t = 3: the link is idle.

So the link's reports are (0 s, 1e8 B/s, 2 flows), (2 s, 1e8 B/s, 1 flow), (3 s, 0, 0): the share changed at 2 s even
though the total did not.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <host id="h2" speed="1Gf"/>
    <host id="h3" speed="1Gf"/>
    <link id="shared" bandwidth="100MBps" latency="0"/>
    <route src="h0" dst="h2"><link_ctn id="shared"/></route>
    <route src="h1" dst="h3"><link_ctn id="shared"/></route>
  </zone>
</platform>
"""
TRACE = "0 send 2 0 100000000\n1 send 3 0 200000000\n2 recv 0 0 100000000\n3 recv 1 0 200000000\n"
B = 1e8
EXPECTED = [(0.0, B, 2), (2.0, B, 1), (3.0, 0.0, 0)]  # (date s, used B/s, flows)


@pytest.fixture
def inputs(tmp_path):
    (tmp_path / "shared.xml").write_text(PLATFORM)
    (tmp_path / "trace.txt").write_text(TRACE)
    return str(tmp_path / "trace.txt"), str(tmp_path / "shared.xml")


def replay(inputs, timeline, *extra, model="fluid"):
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", inputs[0], "--platform", inputs[1], "--model",
                           model, "--timeline", str(timeline), *extra], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_chrome_counters(inputs, tmp_path):
    code, out, err = replay(inputs, tmp_path / "run.json", "--timeline-links")
    assert code == 0, err
    assert "Simulated time: 3.000000 s" in out
    events = json.loads((tmp_path / "run.json").read_text())["traceEvents"]
    counters = [e for e in events if e["ph"] == "C"]
    assert {e["name"] for e in counters} == {"link shared"} and {e["pid"] for e in counters} == {1}
    assert [(e["ts"] * 1e-6, e["args"]["used"], e["args"]["flows"]) for e in counters] == EXPECTED
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert names == {0: "mpisim", 1: "links"}
    # The flows' ends bear the shares out: the receive of 1e8 bytes ends at 2 s, that of 2e8 bytes at 3 s.
    receives = sorted((e["tid"], e["ts"] + e["dur"]) for e in events if e["ph"] == "X" and e["name"] == "recv")
    assert receives == [(2, 2e6), (3, 3e6)]


def test_csv_rows(inputs, tmp_path):
    code, _, err = replay(inputs, tmp_path / "run.csv", "--timeline-links")
    assert code == 0, err
    lines = [l for l in (tmp_path / "run.links.csv").read_text().splitlines() if not l.startswith("#")]
    assert lines == ["link,time,used,capacity,flows", "shared,0,100000000,100000000,2",
                     "shared,2,100000000,100000000,1", "shared,3,0,100000000,0"]


def test_paje_variables(inputs, tmp_path):
    code, _, err = replay(inputs, tmp_path / "run.paje", "--timeline-links")
    assert code == 0, err
    text = (tmp_path / "run.paje").read_text()
    assert '6 0.000000000 l0 LINK root "shared"' in text
    sets = [l.split() for l in text.splitlines() if l.startswith("8 ")]
    assert [(float(s[1]), s[3], float(s[4])) for s in sets] == [(t, "l0", used) for t, used, _ in EXPECTED]
    if shutil.which("pj_dump"):
        dump = subprocess.run(["pj_dump", str(tmp_path / "run.paje")], capture_output=True, text=True, check=True)
        variables = [l for l in dump.stdout.splitlines() if l.startswith("Variable")]
        assert variables[0].startswith("Variable, shared, bandwidth used, 0.000000, 2.000000")


def test_off_by_default_and_needs_a_timeline(inputs, tmp_path):
    code, _, err = replay(inputs, tmp_path / "run.json")
    assert code == 0, err
    assert not [e for e in json.loads((tmp_path / "run.json").read_text())["traceEvents"] if e["ph"] == "C"]
    done = subprocess.run([sys.executable, "-m", "mpisim", "replay", inputs[0], "--platform", inputs[1],
                           "--timeline-links"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "need --timeline FILE" in done.stderr


def test_delay_model_reports_no_link(inputs, tmp_path):
    code, _, err = replay(inputs, tmp_path / "run.json", "--timeline-links", model="loggps")
    assert code == 0, err
    assert not [e for e in json.loads((tmp_path / "run.json").read_text())["traceEvents"] if e["ph"] == "C"]
