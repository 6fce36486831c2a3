"""Running SimGrid 3.32's `smpirun -replay` as the reference, on the same inputs as mpisim."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import List, Optional

import pytest

SIMULATION_TIME = re.compile(r"Simulation time ([0-9.eE+-]+)")


def require_smpirun() -> str:
    """smpirun's path; the agreement tests are mandatory in CI (which installs SimGrid), skipped elsewhere."""
    path = shutil.which("smpirun")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("smpirun is not installed: CI must install libsimgrid-dev (scripts/install-deps.sh)")
        pytest.skip("smpirun (SimGrid 3.32) is not installed")
    return path


def write_hostfile(path: str, hosts: List[str]) -> str:
    with open(path, "w") as out:
        out.write("\n".join(hosts) + "\n")
    return path


def smpi_replay_time(index: str, platform: str, np: int, hostfile: str, cfg: Optional[List[str]] = None) -> float:
    """Simulated time printed by `smpirun -replay` (run from the index's folder: SimGrid resolves the per-rank paths
    from the current directory only)."""
    command = [require_smpirun(), "-np", str(np), "-platform", os.path.abspath(platform), "-hostfile",
               os.path.abspath(hostfile), "-replay", os.path.basename(index), "--log=root.thresh:warning",
               "--log=smpi_replay.thresh:info"]
    command += [f"--cfg={item}" for item in (cfg or [])]
    done = subprocess.run(command, cwd=os.path.dirname(os.path.abspath(index)), capture_output=True, text=True,
                          timeout=600)
    match = SIMULATION_TIME.search(done.stdout + done.stderr)
    if done.returncode != 0 or match is None:
        raise RuntimeError(f"smpirun failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return float(match.group(1))
