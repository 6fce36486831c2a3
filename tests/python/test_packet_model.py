"""The packet model end to end (docs/models.md "packet"): listed with its parameters and source, and a replayed trace
timed against the fluid model on routes of one and three links."""

from __future__ import annotations

import json
import subprocess
import sys


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def replay_json(*args):
    code, out, err = run_cli("replay", *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    del result["host"]  # wall time: the only part that may differ between two runs
    return result


# a -> b over one link, a -> c over three; every link 125 MB/s, 50 us.
PLATFORM = """<?xml version='1.0'?>
<platform version="4.1">
<zone id="z" routing="Full">
  <host id="a" speed="1Gf"/>
  <host id="b" speed="1Gf"/>
  <host id="c" speed="1Gf"/>
  <link id="ab" bandwidth="125MBps" latency="50us"/>
  <link id="l1" bandwidth="125MBps" latency="50us"/>
  <link id="l2" bandwidth="125MBps" latency="50us"/>
  <link id="l3" bandwidth="125MBps" latency="50us"/>
  <route src="a" dst="b"><link_ctn id="ab"/></route>
  <route src="a" dst="c"><link_ctn id="l1"/><link_ctn id="l2"/><link_ctn id="l3"/></route>
</zone>
</platform>
"""

# Rank 0 (on a) sends 1e8 B to rank 1 (on b), then 1e8 B to rank 2 (on c): both rendezvous under both models.
TRACE = "0 init\n1 init\n2 init\n0 send 1 0 1e8\n1 recv 0 0 1e8\n0 send 2 0 1e8\n2 recv 0 0 1e8\n"


def test_models_lists_packet_with_its_parameters_and_source():
    code, out, err = run_cli("models")
    assert code == 0, err
    block = out[out.index("packet:"):]
    block = block[:block.index("\n", block.index("receive-overhead="))]
    assert "Kunkel et al." in block and "PIOsimHD" in block
    for parameter in ("packet-size=<B, > 0>  default 102400B", "eager-thresh=", "send-overhead=", "receive-overhead="):
        assert parameter in block


def test_replay_under_packet_against_fluid(tmp_path):
    """A lone stream keeps its bandwidth-delay product in flight, so over one link the link never idles and the packet
    model gives the fluid model's L + S / B: 50e-6 + 1e8 / 125e6 = 0.80005 s for rank 1. Over three equal links, each
    link after the first starts one whole packet later than the one before it (store and forward): the second
    message takes the fluid 3 x 50e-6 + 1e8 / 125e6 = 0.80015 s plus (3 - 1) x 102400 / 125e6 = 0.0016384 s, so rank
    2 (and rank 0, released when its rendezvous send has arrived) ends at 0.80005 + 0.80015 + 0.0016384 =
    1.6018384 s, against the fluid model's 1.6002 s. The output is the same run after run."""
    platform = tmp_path / "p.xml"
    platform.write_text(PLATFORM)
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    packet = replay_json(str(trace), "--platform", str(platform), "--model", "packet")
    assert replay_json(str(trace), "--platform", str(platform), "--model", "packet") == packet
    fluid = replay_json(str(trace), "--platform", str(platform), "--model", "fluid")
    finish = {"packet": [rank["finish"] for rank in packet["ranks"]],
              "fluid": [rank["finish"] for rank in fluid["ranks"]]}
    assert abs(finish["fluid"][1] - 0.80005) < 1e-12
    assert abs(finish["packet"][1] - finish["fluid"][1]) < 1e-9 * 0.80005
    assert abs(finish["fluid"][2] - 1.6002) < 1e-12
    assert abs(finish["packet"][2] - (1.6002 + 2 * 102400 / 125e6)) < 1e-9 * 1.6018384
    assert finish["packet"][0] == finish["packet"][2]
    assert packet["model_parameters"]["packet-size"] == "102400B"
