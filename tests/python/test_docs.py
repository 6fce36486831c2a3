"""Documentation generated from declarations stays in step with them."""

from conftest import repo_path
from mpisim.cli import collectives_markdown, models_markdown


def test_model_parameter_reference_is_up_to_date():
    with open(repo_path("docs", "model-parameters.md")) as committed:
        assert committed.read() == models_markdown(), "run: .venv/bin/mpisim models --markdown > docs/model-parameters.md"


def test_collective_algorithm_reference_is_up_to_date():
    with open(repo_path("docs", "collective-algorithms.md")) as committed:
        assert committed.read() == collectives_markdown(), \
            "run: .venv/bin/mpisim collectives --markdown > docs/collective-algorithms.md"
