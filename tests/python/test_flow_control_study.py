"""`mpisim study flow-control` (the S4BXI thesis's section 7.1) on a small case: its reference without flooding against
the NIC model's equations, and the shape the thesis reports (the per-process limit is the per-node limit shifted by the
number of flooding processes)."""

from __future__ import annotations

import csv

import pytest

from test_online import mpisim


def test_flow_control_study(tmp_path):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path / "fc.csv"
    done = mpisim("study", "flow-control", "--processes", "2", "--limits", "1,2,4", "--flood", "32", "-q",
                  "-o", str(out), "--plot", str(tmp_path / "fc.png"), "--workdir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    rows = {(r["kind"], int(r["limit"])): float(r["latency_us"]) for r in csv.DictReader(out.open())}
    # No flooding: one 1 MiB Put-WaitAck on the default parameters, four 100 ns cables (docs/bxi.md's table):
    # issue 0.15 + 64 B / 12.5 GB/s = 0.15512; TX 0.12; DMA max(0.15 + 83.88608, 0.15 + 0.04096 + 83.8912) = 84.08216;
    # route 0.4; RX 0.12 + 0.04096 (last packet); ACK 0.12 + 0.00512 + 0.4 + 0.12: 85.56336 us.
    assert rows["no-flood", 0] == pytest.approx(85.56336, abs=2e-3)
    flooded = rows["no-flow-control", 0]
    assert flooded > 2.5 * rows["no-flood", 0]  # 2 x 32 flooding Puts share the link with the measured ones
    # The strictest limit per node leaves one flooding message at a time: the measured Put gets about half the link.
    assert rows["node", 1] == pytest.approx(2 * rows["no-flood", 0], rel=0.03)
    # Two flooding processes: a limit L per process is a limit 2L per node.
    assert rows["process", 1] == pytest.approx(rows["node", 2], rel=1e-6)
    assert rows["process", 2] == pytest.approx(rows["node", 4], rel=1e-6)
    assert rows["node", 1] < rows["node", 2] < rows["node", 4] <= flooded * 1.000001
    assert "latency us" in done.stdout and (tmp_path / "fc.png").stat().st_size > 0
