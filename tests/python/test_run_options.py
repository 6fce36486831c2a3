"""The run options are declared once, in the native core (src/mpi/RunOptions.cpp, src/timeline/TimelineOptionTable.cpp,
src/online/options/RunnerOptions.cpp), and every front end reads them from there: `mpisim replay`'s argparse options,
`mpisim run`'s native parser, and `mpisim.run`'s keywords. `mpisim.run` gives what `mpisim run --json` prints."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys

import pytest

import mpisim
from conftest import repo_path
from test_online import mpisim as mpisim_cli

CLUSTER4 = repo_path("examples", "replay-basic", "cluster4.xml")
TRACE = repo_path("examples", "replay-basic", "index.txt")


def words(text: str) -> str:
    """Text without its spaces and line breaks (argparse wraps help texts, also after hyphens)."""
    return "".join(text.split())


def options_of(front_end: str):
    return [o for o in mpisim.run_options() if front_end in o["front_ends"]]


def test_the_table_declares_each_option_once_with_its_type_and_front_ends():
    options = mpisim.run_options()
    names = [o["name"] for o in options]
    assert len(names) == len(set(names))
    shared = {o["name"] for o in options if o["front_ends"] == ["replay", "run"]}
    assert shared == {"--platform", "--model", "--param", "--model-params", "--hostfile", "--map", "--coll-selector",
                      "--coll", "--timeline", "--timeline-format", "--timeline-internals", "--timeline-links",
                      "--fail", "--fail-mtbf", "--seed", "--switch", "--restart", "--restart-cost"}
    by_name = {o["name"]: o for o in options}
    assert by_name["--cpu-threshold"]["type"] == "time" and by_name["--cpu-threshold"]["default"] == 1e-6
    assert by_name["--stack-size"]["default"] == 8 * 2**20 and by_name["--host-speed"]["type"] == "speed"
    assert by_name["--host-speed"]["simgrid"] == ["smpi/host-speed"]
    assert by_name["--map"]["choices"] == ["platform", "sorted"] and by_name["--map"]["keyword"] == "placement"
    assert by_name["--json"]["keyword"] is None  # mpisim.run asks for the JSON summary itself


def test_help_of_replay_and_run_shows_each_option_with_the_tables_text():
    replay = subprocess.run([sys.executable, "-m", "mpisim", "replay", "--help"], capture_output=True, text=True)
    run = mpisim_cli("run", "--help")
    assert replay.returncode == 0 and run.returncode == 0, (replay.stderr, run.stderr)
    for option in options_of("replay"):
        assert option["name"] in replay.stdout
        assert words(option["description"]) in words(replay.stdout), option["name"]
    for option in options_of("run"):
        assert option["name"] in run.stdout
        assert words(option["description"]) in words(run.stdout), option["name"]
    for option in options_of("run"):
        if "replay" not in option["front_ends"] and option["name"] not in ("--json", "--help", "-np"):
            assert option["name"] + " " not in replay.stdout, option["name"]  # run's own stay out of replay's help


def test_replays_keyword_defaults_are_the_tables():
    parameters = inspect.signature(mpisim.replay).parameters
    for option in options_of("replay"):
        keyword = option["keyword"]
        if option["type"] == "flag":
            assert parameters[keyword].default is False, keyword
        elif option["default"] is not None:
            assert parameters[keyword].default == option["default"], keyword


def test_an_unknown_option_is_the_same_one_line_in_both_front_ends():
    replay = subprocess.run([sys.executable, "-m", "mpisim", "replay", TRACE, "--platform", CLUSTER4, "--frob"],
                            capture_output=True, text=True)
    run = mpisim_cli("run", "--platform", CLUSTER4, "--frob", "./app")
    assert replay.returncode == run.returncode == 2
    assert replay.stdout == run.stdout == ""
    assert replay.stderr == "mpisim replay: unknown option --frob (`mpisim replay --help` lists the options)\n"
    assert run.stderr == replay.stderr.replace("replay", "run")


@pytest.mark.parametrize("option,value,message", [
    ("--map", "random", "--map: unknown order 'random' (platform, sorted)"),
    ("--param", "novalue", "--param expects NAME=VALUE, got 'novalue'"),
    ("--coll", "alltoall=bruck,bcast", "--coll expects OP=ALGO[,...], got 'bcast'"),
])
def test_a_bad_value_is_the_same_error_in_both_front_ends(option, value, message):
    replay = subprocess.run([sys.executable, "-m", "mpisim", "replay", TRACE, "--platform", CLUSTER4, option, value],
                            capture_output=True, text=True)
    run = mpisim_cli("run", "--platform", CLUSTER4, option, value, "./app")
    assert replay.returncode == run.returncode == 2
    assert replay.stderr == f"mpisim: {message}\n"
    assert run.stderr == f"mpisim run: {message}\n"


def test_the_python_api_checks_values_against_the_table():
    with pytest.raises(mpisim.InputError, match=r"^placement: unknown order 'random' \(platform, sorted\)$"):
        mpisim.replay(TRACE, platform=CLUSTER4, placement="random")
    with pytest.raises(TypeError, match="unexpected keyword argument 'hostspeed'"):
        mpisim.run("./app", platform=CLUSTER4, hostspeed="2Gf")
    with pytest.raises(mpisim.InputError, match=r"^host_speed: unknown unit 'Gx'"):
        mpisim.run("./app", platform=CLUSTER4, host_speed="2Gx")
    with pytest.raises(mpisim.InputError, match=r"^np expects an integer, got 2\.5$"):
        mpisim.run("./app", platform=CLUSTER4, np=2.5)
    with pytest.raises(mpisim.InputError, match=r"^coll_selector expects text, got 3$"):
        mpisim.replay(TRACE, platform=CLUSTER4, coll_selector=3)
    with pytest.raises(mpisim.InputError, match="need --timeline FILE"):
        mpisim.run("./app", platform=CLUSTER4, timeline_links=True)


# ------------------------------------------------------------------------------------------ mpisim.run

@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    probe = mpisim_cli("cc", "-show", "probe.c")
    if probe.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(probe.stderr)
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("run-api")
    paths = {}
    for name in ("ring", "deadlock", "exit", "abort"):
        paths[name] = str(out / name)
        done = mpisim_cli("cc", "-O1", repo_path("tests", "online", name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def test_run_gives_what_the_command_line_prints(programs, tmp_path):
    summary = tmp_path / "summary.json"
    cli = mpisim_cli("run", "-np", "4", "--platform", CLUSTER4, "--no-compute-time", "--coll", "bcast=NTSB",
                     "--param", "bw-factor=0:0.9", "--json", "--summary", str(summary), programs["ring"])
    assert cli.returncode == 0, cli.stderr
    printed = json.loads(summary.read_text())
    result = mpisim.run(programs["ring"], np=4, platform=CLUSTER4, no_compute_time=True, coll={"bcast": "NTSB"},
                        params={"bw-factor": "0:0.9"})
    assert isinstance(result, mpisim.api.Result)
    assert result.simulated_time == printed["simulated_time"] and result.simulated_time > 0
    # written as the shortest text that reads back as the same double (Python's repr), not rounded to ns
    assert f'"simulated_time": {printed["simulated_time"]!r},' in summary.read_text()
    assert f"{result.fingerprint:016x}" == printed["fingerprint"]  # the same event sequence, written as replay does
    assert [vars(r) for r in result.ranks] == printed["ranks"]
    assert result.model_parameters == printed["model_parameters"] and result.model_parameters["bw-factor"] == "0:0.9"
    assert result.exit_status == 0 and result.stdout == cli.stdout == "token after 2 laps on 4 ranks: 12\n"
    assert result.inputs["program"] == programs["ring"] and result.inputs["np"] == 4
    assert result.inputs["platform"] == CLUSTER4 and result.inputs["model"] == "smpi"
    assert result.inputs["coll"] == {"bcast": "NTSB"} and result.inputs["compute_time"] is False
    assert result.inputs["privatization"] in ("dlopen", "swap")
    provenance = result.to_dict()
    assert provenance["mpisim_version"] == mpisim.__version__
    assert provenance["fingerprint"] == printed["fingerprint"]
    assert list(result.to_dataframe().index) == [0, 1, 2, 3]


def test_run_raises_as_replay_does(programs, tmp_path):
    with pytest.raises(mpisim.DeadlockError, match="^deadlock at simulated time") as failure:
        mpisim.run(programs["deadlock"], np=2, platform=CLUSTER4, no_compute_time=True)
    assert failure.value.exit_status == 124 and "rank 0 waits for receive from rank 1" in str(failure.value)
    # Told by the report, not by the status: exit(4) and MPI_Abort(..., 7) are the program's failures.
    with pytest.raises(mpisim.SimulationError, match=r"^rank 2 exited with status 4 \(called exit\) at simulated time") as failure:
        mpisim.run(programs["exit"], np=4, platform=CLUSTER4, no_compute_time=True)
    assert failure.value.exit_status == 4 and not isinstance(failure.value, mpisim.DeadlockError)
    with pytest.raises(mpisim.SimulationError, match="called MPI_Abort with error code 7") as failure:
        mpisim.run(programs["abort"], np=4, platform=CLUSTER4, no_compute_time=True)
    assert failure.value.exit_status == 7
    not_a_program = tmp_path / "app.txt"
    not_a_program.write_text("hello\n")
    with pytest.raises(mpisim.InputError):
        mpisim.run(str(not_a_program), platform=CLUSTER4, no_compute_time=True)


def test_the_hand_written_tables_name_every_option():
    """README's replay table and docs/online.md's run table explain the options in prose; none may be missing."""
    with open(repo_path("README.md")) as readme, open(repo_path("docs", "online.md")) as online:
        replay_table, run_table = readme.read().split("## Replay a trace", 1)[1], online.read()
    assert [o["name"] for o in options_of("replay")
            if f"| `{o['name']} " not in replay_table and f"| `{o['name']}`" not in replay_table] == []
    assert [o["name"] for o in options_of("run") if f"`{o['name']}" not in run_table and o["name"] != "--help"] == []
