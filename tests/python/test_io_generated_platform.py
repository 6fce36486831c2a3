"""Storage in generated platforms (docs/platforms.md, "Generated platforms"): a spec's io_servers and disk preset
describe the same storage as the bundled file they come from, so the same trace takes the same simulated time; bad
storage options are the one-line platform spec error (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import repo_path

NVME_FILE = repo_path("platforms", "io-nvme.xml")
NVME_SPEC = "cluster:16,speed=50Gf,cores=64,bw=100Gbps,lat=1us,io_servers=4,disk=nvme"
MIB = 1024 * 1024

# Two ranks write then read 4 MiB each of one shared file striped in 1 MiB units over the 4 servers (their links and
# disks are shared), then a third rank reads it all.
TRACE = f"""0 init
1 init
2 init
0 file_open f world
1 file_open f world
2 file_open f world
0 file_write_at f 0 {4 * MIB}
1 file_write_at f {4 * MIB} {4 * MIB}
0 file_read_at f 0 {4 * MIB}
1 file_read_at f {4 * MIB} {4 * MIB}
2 file_read_at f 0 {8 * MIB}
0 file_close f
1 file_close f
2 file_close f
0 finalize
1 finalize
2 finalize
"""


def run_cli(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def simulated_time(tmp_path, platform):
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    code, out, err = run_cli("replay", str(trace), "--platform", platform, "--model", "fluid", "--json")
    assert code == 0, err
    return json.loads(out)["simulated_time"]


def without_caches(tmp_path):
    """io-nvme.xml without its servers' caches: every access reaches the drives."""
    text = "".join(line for line in open(NVME_FILE).readlines() if "io/cache-size" not in line)
    path = tmp_path / "io-nvme-no-cache.xml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("cached", [True, False])
def test_nvme_spec_times_io_as_the_bundled_file(tmp_path, cached):
    file = NVME_FILE if cached else without_caches(tmp_path)
    spec = NVME_SPEC if cached else NVME_SPEC + ",io_cache=0B"
    from_file = simulated_time(tmp_path, file)
    assert simulated_time(tmp_path, spec) == pytest.approx(from_file, rel=1e-12)
    # The storage is really there: without it, I/O takes no time and only init/finalize remain.
    no_storage = simulated_time(tmp_path, NVME_SPEC.split(",io_servers")[0])
    assert from_file > no_storage + 8 * MIB / 12.5e9


def test_preset_overrides_change_the_time(tmp_path):
    base = simulated_time(tmp_path, NVME_SPEC + ",io_cache=0B")
    # One server instead of four: the 8 MiB read by rank 2 all comes through one link and one server's drives.
    assert simulated_time(tmp_path, NVME_SPEC + ",io_cache=0B,stripe_count=1") > base
    # Hard disks are slower than the NVMe drives.
    assert simulated_time(tmp_path, NVME_SPEC.replace("disk=nvme", "disk=hdd") + ",io_cache=0B") > base


@pytest.mark.parametrize("options, words", [
    ("io_servers=0", "'0' is not a positive integer"),
    ("io_servers=-2", "'-2' is not a positive integer"),
    ("io_servers=2,disk=tape", "bad disk 'tape' (expected nvme, ssd or hdd)"),
    ("io_servers=2,disks=0", "'0' is not a positive integer"),
    ("io_servers=2,stripe_count=3", "stripe_count: 3 exceeds the 2 file servers"),
    ("stripe=1MiB", "option 'stripe' needs disk= or io_servers="),
    ("io_servers=2,stripe=0B", "option stripe: must be positive"),
    ("io_servers=18446744073709551615", "io_servers has more than 10^19 hosts"),  # would wrap the host count
])
def test_bad_storage_options_are_one_line_errors(tmp_path, options, words):
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    code, out, err = run_cli("replay", str(trace), "--platform", f"cluster:4,{options}")
    assert code == 2
    assert f"platform spec 'cluster:4,{options}'" in err and words in err
    assert len(err.strip().splitlines()) == 1


def test_other_kinds_serve_from_their_last_hosts(tmp_path):
    # torus:2x2x2 has 8 hosts; io_servers must leave one to compute.
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    code, out, err = run_cli("replay", str(trace), "--platform", "torus:2x2x2,io_servers=8")
    assert code == 2 and "8 servers leave none of the 8 hosts to compute" in err
    assert simulated_time(tmp_path, "torus:2x2x2,io_servers=4,disk=ssd") > simulated_time(tmp_path, "torus:2x2x2")
