"""`mpisim replay --json` writes json.dumps(result, indent=2)'s exact text, its per-rank list through the C encoder
(mpisim.cli.result_json): the same text for every shape of result, the plain encoder's where the fast path cannot
be sure."""

import json
import math

import pytest

from mpisim.cli import result_json


def _rank(i: int, **more) -> dict:
    return {"rank": i, "compute": 0.1 * i + 1e-17, "sleep": 0.0, "communicate": 1 / 3, "wait": 2.5e-300,
            "finish": 1e21 * i, "actions": 10 ** 20 + i, "failed": i % 2 == 1, **more}


DOCUMENTS = [
    {"simulated_time": 1.5, "ranks": [_rank(i) for i in range(5)], "failures": [], "host": {"wall_seconds": 0.1}},
    {"ranks": [_rank(0, checkpoint=0.25)], "attempts": [{"attempt": 1, "outcome": "ok"}], "time_lost": None},
    {"ranks": [_rank(0, compute=math.inf), _rank(1, wait=-math.inf), _rank(2, sleep=math.nan)]},
    {"ranks": []},
    {"inputs": {"trace": "/a/é\"x\\y\n"}, "ranks": [{"rank": 0, "note": "}, {"}, {"rank": 1, "note": "[x]"}]},
    {"ranks": [{"rank": 0, "nested": {"a": [1, 2]}}, {"rank": 1, "nested": {}}]},
    {"ranks": "not a list"},
    {"no_ranks": True},
]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_same_text_as_json_dumps_indent_2(document):
    assert result_json(document) == json.dumps(document, indent=2)


def test_the_list_breaks_are_the_indented_ones():
    # Two flat ranks, laid out by hand as indent=2 lays them out.
    text = result_json({"ranks": [{"rank": 0, "x": 1.5}, {"rank": 1, "x": True}]})
    assert text == ('{\n  "ranks": [\n    {\n      "rank": 0,\n      "x": 1.5\n    },\n'
                    '    {\n      "rank": 1,\n      "x": true\n    }\n  ]\n}')
