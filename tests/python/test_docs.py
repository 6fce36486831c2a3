"""Documentation generated from declarations stays in step with them."""

from conftest import repo_path
from mpisim.cli import collectives_markdown, models_markdown, run_options_markdown


def test_model_parameter_reference_is_up_to_date():
    with open(repo_path("docs", "model-parameters.md")) as committed:
        assert committed.read() == models_markdown(), "run: .venv/bin/mpisim models --markdown > docs/model-parameters.md"


def test_collective_algorithm_reference_is_up_to_date():
    with open(repo_path("docs", "collective-algorithms.md")) as committed:
        assert committed.read() == collectives_markdown(), \
            "run: .venv/bin/mpisim collectives --markdown > docs/collective-algorithms.md"


def test_run_option_reference_is_up_to_date():
    with open(repo_path("docs", "run-options.md")) as committed:
        assert committed.read() == run_options_markdown(), \
            "run: .venv/bin/mpisim options --markdown > docs/run-options.md"


# ------------------------------------------------------------------------------------------ docs/workflow.md

def workflow_commands():
    """The command lines of docs/workflow.md's "The commands" section, in order."""
    import re

    with open(repo_path("docs", "workflow.md")) as stream:
        text = stream.read()
    section = text.split("## The commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^    \$ (.+)$", section, re.M)


def test_workflow_commands_run(tmp_path):
    """Runs the documented workflow (record with Open MPI, replay, gantt, compare), writing into tmp_path."""
    import os
    import shlex
    import shutil
    import subprocess
    import sys

    import pytest

    from mpisim.record import RecordError, find_library

    commands = workflow_commands()
    assert [c.split()[:2] for c in commands] == [["mpicc", "-O2"], ["mpisim", "record"], ["mpisim", "replay"],
                                                 ["mpisim", "gantt"], ["mpisim", "compare"]]
    missing = [tool for tool in ("mpicc", "mpirun") if shutil.which(tool) is None]
    try:
        find_library()
    except RecordError as error:
        missing.append(str(error))
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install Open MPI and build libmpisim-trace.so: {missing}")
        pytest.skip(f"needs Open MPI and libmpisim-trace.so: {missing}")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for command in commands:
        words = [w.replace("/tmp/", f"{tmp_path}/").replace("docs/workflow-gantt.png", f"{tmp_path}/gantt.png")
                 for w in shlex.split(command)]
        if words[0] == "mpisim":
            words = [sys.executable, "-m", "mpisim"] + words[1:]
        done = subprocess.run(words, cwd=repo_path(), capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    assert (tmp_path / "gantt.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "1644 calls matched" in done.stdout
    assert os.path.getsize(repo_path("docs", "workflow-gantt.png")) < 200_000
