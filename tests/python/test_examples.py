"""Every example runs and gives the output its README promises. Expected figures come from SimGrid 3.32 runs of the
same files (quoted in each README), not from mpisim."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

from conftest import repo_path


def mpisim_json(*args):
    done = subprocess.run([sys.executable, "-m", "mpisim", *args, "--json"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_replay_basic_matches_simgrid():
    folder = repo_path("examples", "replay-basic")
    result = mpisim_json("replay", f"{folder}/index.txt", "--platform", f"{folder}/cluster4.xml")
    # SimGrid 3.32: "Simulation time 2.595399"; per-action log: rank 1's recv ends at 1.015491, bcast at 2.016524,
    # allreduce at 2.091735, barrier at 2.094154, alltoall at 2.095399.
    assert abs(result["simulated_time"] - 2.595399) < 1e-6
    finishes = [r["finish"] for r in result["ranks"]]
    assert all(abs(f - 2.095399) < 1e-6 for f in finishes[1:]), finishes
    assert result["actions"] == 36
    assert result["inputs"]["model"] == "smpi" and result["model_parameters"]["weight-S"] == "8775"


def test_same_inputs_give_the_same_output_bit_for_bit():
    trace = repo_path("data", "traces", "npb", "lu.S.16.txt")
    platform = repo_path("platforms", "graphene.xml")
    first = mpisim_json("replay", trace, "--platform", platform)
    second = mpisim_json("replay", trace, "--platform", platform)
    # "host" (the real time taken) is what the machine adds: the one entry that differs (docs/replay.md)
    assert first.pop("host").keys() == second.pop("host").keys() == {"wall_seconds"}
    assert first == second
    assert first["fingerprint"] == second["fingerprint"]
    other = mpisim_json("replay", trace, "--platform", platform, "--model", "hybrid")
    assert other["fingerprint"] != first["fingerprint"]


def test_the_demo_compares_every_model_and_each_row_is_that_models_replay():
    """`make demo`: compare-models without --models lists every registered model, each with the time a replay under
    that model alone gives (the same figures, printed to 6 decimals)."""
    trace = repo_path("data", "traces", "npb", "lu.S.4.txt")
    platform = repo_path("platforms", "graphene.xml")
    done = subprocess.run([sys.executable, "-m", "mpisim", "compare-models", trace, "--platform", platform],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[2:]}
    from mpisim.api import network_models

    assert list(rows) == [model["name"] for model in network_models()]
    assert {"smpi", "hybrid", "loggps", "fluid", "xsim"} <= rows.keys()
    for name in ("smpi", "xsim"):
        alone = mpisim_json("replay", trace, "--platform", platform, "--model", name)
        assert rows[name] == [f"{alone['simulated_time']:.6f}", str(alone["actions"])]


def test_resilience_study_of_a_trace_prints_the_table_of_its_readme(tmp_path):
    """The trace section of examples/resilience/README.md: replay's checkpoint/restart under the same sweep; the
    measured columns are mpisim's deterministic output (a regression record), the failure-free figures of the text are
    checked against a replay with checkpoints and no failure (F + n C), and the replay it shows as it says."""
    import shlex

    folder = repo_path("examples", "resilience")
    with open(f"{folder}/README.md") as stream:
        text = stream.read()
    command = next(line.strip() for line in text.splitlines()
                   if line.strip().startswith("mpisim study resilience") and "stencil.txt" in line)
    expected = text.split("```\n")[3]
    arguments = shlex.split(command)[1:]
    arguments[2] = f"{folder}/stencil.txt"
    done = subprocess.run([sys.executable, "-m", "mpisim", *arguments], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(expected), done.stdout
    assert (tmp_path / "resilience-trace.png").stat().st_size > 0
    for interval, checkpoints in ((0.5, 33), (1, 20), (2, 10)):
        replayed = subprocess.run([sys.executable, "-m", "mpisim", "replay", f"{folder}/stencil.txt", "--platform",
                                   "cluster:4", "--checkpoint-interval", str(interval), "--checkpoint-cost", "0.25",
                                   "--json"], capture_output=True, text=True, timeout=300)
        result = json.loads(replayed.stdout)
        assert len(result["checkpoints"]) == checkpoints
        assert result["simulated_time"] == pytest.approx(20.105113 + checkpoints * 0.25, abs=1e-6)
    replay = next(line.strip() for line in text.splitlines() if line.strip().startswith("mpisim replay"))
    arguments = shlex.split(replay)[1:]
    arguments[1] = f"{folder}/stencil.txt"
    shown = json.loads(subprocess.run([sys.executable, "-m", "mpisim", *arguments, "--json"], capture_output=True,
                                      text=True, timeout=300).stdout)
    assert (len(shown["failures"]), len(shown["attempts"]), len(shown["checkpoints"])) == (4, 5, 10)
    # Time lost, from the run's failure dates (its MTBF draws, the one thing taken from the run) by the rule of
    # docs/failures.md: an iteration takes p = F / 100, and the 2 s interval is first reached at the 10th allreduce
    # after a checkpoint (9 p < 2 <= 10 p), so an attempt starting at s completes one every L = 10 p + C; a failure at
    # f rolls back to the last one complete, s + floor((f - s) / L) L (one being written is lost with the attempt), and
    # the next attempt starts at f + R.
    work, cost, restart = 20.105113, 0.25, 0.5
    p = work / 100
    assert 9 * p < 2 <= 10 * p
    period = 10 * p + cost
    lost, start = 0.0, 0.0
    for failure in shown["failures"]:
        f = failure["time"]
        lost += f - (start + math.floor((f - start) / period) * period) + restart
        start = f + restart
    # To within the few microseconds by which the ranks leave a cut's allreduce apart (a restart starts them together).
    assert shown["time_lost"] == pytest.approx(lost, abs=1e-4)
    assert [a["start"] for a in shown["attempts"][1:]] == pytest.approx(
        [f["time"] + restart for f in shown["failures"]], abs=1e-9)
    # Completion = work + checkpoints + time lost; the README's sentence states both figures.
    assert shown["simulated_time"] == pytest.approx(work + 10 * cost + lost, abs=1e-4)
    stated = re.search(r"ends at ([0-9.]+) s after 4 failures and 5 attempts: .* and ([0-9.]+) s lost", " ".join(
        text.split()))
    assert stated, "the README's sentence on the replay's attempts"
    assert float(stated.group(1)) == pytest.approx(work + 10 * cost + lost, abs=5e-4)
    assert float(stated.group(2)) == pytest.approx(lost, abs=5e-4)


def test_resilience_study_prints_the_table_of_its_readme(tmp_path):
    """SimGrid has no failure study: the measured columns are mpisim's own deterministic output, kept as a regression
    record (a change in the failure draws or the restart accounting shows here); the Young and Daly columns are checked
    against their closed forms below."""
    import shlex

    folder = repo_path("examples", "resilience")
    with open(f"{folder}/README.md") as stream:
        text = stream.read()
    command = next(line.strip() for line in text.splitlines() if line.strip().startswith("mpisim study resilience"))
    expected = text.split("```\n", 2)[1]
    program = str(tmp_path / "checkpointing")
    built = subprocess.run([sys.executable, "-m", "mpisim", "cc", f"{folder}/checkpointing.c", "-o", program, "-lm"],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    arguments = shlex.split(command)[1:]
    arguments[2] = program
    done = subprocess.run([sys.executable, "-m", "mpisim", *arguments], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(expected), done.stdout
    assert (tmp_path / "resilience.png").stat().st_size > 0
    # The optimal-interval columns follow from the closed forms, computed here from the study's inputs (checkpoint
    # cost C = 0.25 s, system MTBF M = per-rank MTBF / 4 ranks): Young sqrt(2CM); Daly sqrt(2CM)(1 + sqrt(C/2M)/3 +
    # C/18M) - C.
    for row in expected.splitlines()[1:]:
        fields = row.split()
        rank_mtbf = {"20 s": 20, "1.33 min": 80}[" ".join(fields[:2])]  # --mtbf 20s:80s:2
        cost, mtbf = 0.25, rank_mtbf / 4
        young = (2 * cost * mtbf) ** 0.5
        daly = young * (1 + (cost / (2 * mtbf)) ** 0.5 / 3 + cost / (18 * mtbf)) - cost
        assert float(fields[-2]) == pytest.approx(young, abs=6e-4), row
        assert float(fields[-1]) == pytest.approx(daly, abs=6e-4), row


def test_ior_example_prints_the_outputs_of_its_readme(tmp_path):
    """examples/io/README.md: every command's output line for line (deterministic runs), the 1-client times against
    docs/io.md's equations, and each bandwidth against its own bytes and time."""
    import re
    import shlex

    folder = repo_path("examples", "io")
    text = open(f"{folder}/README.md").read()
    program = str(tmp_path / "ior")
    built = subprocess.run([sys.executable, "-m", "mpisim", "cc", f"{folder}/ior.c", "-o", program],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    commands = [line.strip() for line in text.splitlines() if line.strip().startswith("mpisim run")]
    blocks = text.split("```\n")[1::2]
    outputs = []
    for command in commands:
        arguments = shlex.split(command)[2:]
        arguments[arguments.index("./ior")] = program
        arguments[arguments.index("--platform") + 1] = repo_path("platforms", "pio-cluster-10.xml")
        done = subprocess.run([sys.executable, "-m", "mpisim", "run", *arguments], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == blocks[0]
    assert "".join(outputs[1:]) == blocks[1]
    # One client, loopback messages (256 B requests, 10 GB/s), open 200 us, 20 us per request, 5 GB/s cache, close
    # 100 us, and MPI_Wtime's 10 ns.
    loop = 256 / 10e9
    size = 64 * 1024
    write = (2 * loop + 200e-6) + (loop + size / 10e9 + 20e-6 + size / 5e9 + loop) + (2 * loop + 100e-6) + 10e-9
    read = (2 * loop + 200e-6) + (loop + 20e-6 + size / 5e9 + size / 10e9) + (2 * loop + 100e-6) + 10e-9
    times = [float(t) for t in re.findall(r"MiB/s\s+([0-9.]+) s", blocks[0])]
    assert times == pytest.approx([write, read], abs=1e-9)
    for block in blocks:
        header = None  # the MiB all clients move
        for line in block.splitlines():
            if line.startswith("ior:"):
                fields = re.match(r"ior: (\d+) clients, block (\d+) (KiB|MiB)", line).groups()
                header = int(fields[0]) * int(fields[1]) / (1024 if fields[2] == "KiB" else 1)
            elif line.startswith(("write", "read")):
                _, bandwidth, _, seconds, _ = line.split()
                assert float(bandwidth) == pytest.approx(header / float(seconds), abs=0.006), line
            else:
                assert line == "check 0 wrong bytes"
