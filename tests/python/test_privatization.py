"""Privatization of the ranks' globals (`mpisim run --privatization auto|dlopen|swap`, docs/online.md): both
mechanisms give each rank its own globals, statics and thread-locals and the same run; auto picks swap for small C
programs and dlopen for large data or programs with constructors; swap refuses what it cannot serve."""

from __future__ import annotations

import json
import os

import pytest
from test_online import SOURCES, mpisim



@pytest.fixture(scope="module")
def built(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"mpisim cc unavailable: {probe.stderr}")
        pytest.skip(probe.stderr.strip())
    out = tmp_path_factory.mktemp("privatization")
    paths = {}
    for name, driver, source in [("swap_globals", "cc", "swap_globals.c"), ("privacy", "cc", "privacy.c"),
                                 ("hello", "cxx", "hello.cpp")]:
        paths[name] = str(out / name)
        done = mpisim(driver, "-O1", os.path.join(SOURCES, source), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def run_json(built, tmp_path, name, np, *options):
    summary = tmp_path / f"{name}-{'-'.join(options) or 'default'}.json"
    done = mpisim("run", "-np", str(np), "--platform", f"cluster:{np}", "--no-compute-time", "--json", "--summary",
                  str(summary), *options, built[name])
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, json.loads(summary.read_text())


def test_swap_delivers_between_globals_as_dlopen_does(built, tmp_path):
    # Messages from and into static arrays, received while other ranks' values are in place (a 160 kB rendezvous
    # read from the sender's data, an eager one), a non-blocking collective's user operation counting in a global,
    # a thread-local: the same lines, simulated time and event sequence under both mechanisms.
    runs = {mode: run_json(built, tmp_path, "swap_globals", 5, "--privatization", mode) for mode in ("swap", "dlopen")}
    for mode, (stdout, summary) in runs.items():
        assert summary["inputs"]["privatization"] == mode
        assert stdout.splitlines()[-1] == "20 operation calls in all: PASSED", stdout
        assert all(f"rank {r}: 0 errors, 4 operation calls, thread mark {1000 + r}" in stdout for r in range(5))
    (swap_out, swap), (dlopen_out, dlopen) = runs["swap"], runs["dlopen"]
    assert sorted(swap_out.splitlines()) == sorted(dlopen_out.splitlines())
    assert (swap["simulated_time"], swap["fingerprint"]) == (dlopen["simulated_time"], dlopen["fingerprint"])


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_globals_statics_thread_locals_private_under_each_mode(built, tmp_path, mode):
    stdout, summary = run_json(built, tmp_path, "privacy", 6, "--privatization", mode)
    assert summary["inputs"]["privatization"] == mode
    lines = stdout.splitlines()
    assert len(lines) == 6 and all("SHARED" not in line for line in lines), stdout


def test_auto_chooses_by_data_size_and_constructors(built, tmp_path):
    # privacy.c: a few hundred bytes of data -> swap; swap_globals.c: 320 kB of static arrays, above the 16 KiB
    # auto limit -> dlopen; hello.cpp: a C++ static constructor (iostream) -> dlopen.
    assert run_json(built, tmp_path, "privacy", 3)[1]["inputs"]["privatization"] == "swap"
    assert run_json(built, tmp_path, "swap_globals", 3)[1]["inputs"]["privatization"] == "dlopen"
    stdout, summary = run_json(built, tmp_path, "hello", 3)
    assert summary["inputs"]["privatization"] == "dlopen"
    assert stdout == "hello from C++ on 3 ranks: total 12\n"


def test_swap_refuses_a_program_with_constructors(built):
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--privatization", "swap", built["hello"])
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"mpisim run: {built['hello']}: --privatization swap cannot load this program: it runs static constructors "
        "at load time (C++ globals, __attribute__((constructor))): what they allocate would be shared by all ranks; "
        "use --privatization dlopen"]


def test_unknown_privatization_mode_is_refused(built):
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--privatization", "mmap", built["privacy"])
    assert done.returncode == 2
    assert done.stderr.strip() == "mpisim run: --privatization: unknown mode 'mmap' (auto, dlopen, swap)"
