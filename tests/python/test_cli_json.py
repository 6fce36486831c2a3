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


# The per-rank list written by the native core (`mpisim.replay(..., ranks_json=True)`, what `mpisim replay --json`
# prints): the same text as the Python encoder's, number for number.

def test_the_native_float_text_is_pythons_repr():
    import random
    import struct

    from mpisim import _core

    chosen = [0.0, -0.0, 1e-05, 0.0001, 1.5e-05, 1e16, 9999999999999998.0, 123.0, 1e100, 5e-324, 0.1, 1 / 3,
              1.7976931348623157e308, 1e21, 1e22, 123456789012345678.0, math.inf, -math.inf, math.nan]
    draw = random.Random(15)
    any_bits = [struct.unpack("d", struct.pack("Q", draw.getrandbits(64)))[0] for _ in range(20000)]
    durations = [draw.uniform(0, 1) * 10.0 ** draw.randint(-9, 18) for _ in range(20000)]
    values = chosen + any_bits + durations
    assert _core._python_float_texts(values) == [json.dumps(v) for v in values]


def _two_rank_trace(tmp_path):
    lines = [f"{r} {action}" for r in range(2) for action in
             ["init", "compute 1e9", "barrier", "compute 3.3e8" if r else "compute 1e3", "finalize"]]
    trace = tmp_path / "two.txt"
    trace.write_text("\n".join(lines) + "\n")
    return str(trace)


@pytest.mark.parametrize("extra", [{}, {"checkpoint_interval": 0.5, "checkpoint_cost": 0.25},
                                   {"fail": "1@1.2"}])
def test_the_native_ranks_text_is_the_documents(tmp_path, extra):
    import mpisim
    from mpisim.cli import replay_result_json

    options = dict(platform="cluster:2", coll={"barrier": "ompi_two_procs"}, **extra)
    fast = mpisim.replay(_two_rank_trace(tmp_path), ranks_json=True, **options)
    plain = mpisim.replay(_two_rank_trace(tmp_path), **options)
    assert fast.ranks_json is not None and plain.ranks_json is None
    assert fast.ranks == plain.ranks
    expected = result_json(plain.to_dict())
    assert replay_result_json(fast).split('"host"')[0] == expected.split('"host"')[0]
    assert replay_result_json(plain) == expected
    assert json.loads(fast.ranks_json) == [r.to_dict() for r in fast.ranks]


# `mpisim replay` ends its process as soon as the output is written (mpisim.cli._end_process, after
# replay(teardown=False)): what it prints, and its status, are those of a replay that frees everything.

def _replay_command(arguments, output=None):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "mpisim", "replay", *arguments], stdout=output or subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.parametrize("extra", [{}, {"fail": "1@1.2"}, {"checkpoint_interval": 0.5, "restart": 1, "fail": "1@1.2"}])
def test_a_replay_left_to_the_process_end_gives_the_same_result(tmp_path, extra):
    import mpisim

    options = dict(platform="cluster:2", coll={"barrier": "ompi_two_procs"}, ranks_json=True, **extra)
    freed = mpisim.replay(_two_rank_trace(tmp_path), **options)
    kept = mpisim.replay(_two_rank_trace(tmp_path), teardown=False, **options)
    again = mpisim.replay(_two_rank_trace(tmp_path), **options)  # a replay after one left in place
    for other in (kept, again):
        assert other.ranks == freed.ranks and other.ranks_json == freed.ranks_json
        assert (other.simulated_time, other.fingerprint) == (freed.simulated_time, freed.fingerprint)


@pytest.mark.parametrize("to_file", [False, True])
def test_the_command_writes_the_whole_document_before_it_ends(tmp_path, to_file):
    import mpisim
    from mpisim.cli import replay_result_json

    trace = _two_rank_trace(tmp_path)
    arguments = [trace, "--platform", "cluster:2", "--coll", "barrier=ompi_two_procs", "--json"]
    if to_file:  # a file, block-buffered: flushed before the process ends
        with open(tmp_path / "out.json", "w") as output:
            done = _replay_command(arguments, output)
        text = (tmp_path / "out.json").read_text()
    else:
        done = _replay_command(arguments)
        text = done.stdout
    assert done.returncode == 0, done.stderr
    expected = replay_result_json(mpisim.replay(trace, platform="cluster:2", coll={"barrier": "ompi_two_procs"},
                                                ranks_json=True))
    assert text.endswith("}\n")
    assert text.split('"host"')[0] == expected.split('"host"')[0]


def test_the_command_still_reports_bad_input_and_deadlocks(tmp_path):
    missing = _replay_command([str(tmp_path / "none.txt"), "--platform", "cluster:2"])
    assert missing.returncode == 2 and missing.stderr.startswith("mpisim: ")
    lonely = tmp_path / "lonely.txt"
    lonely.write_text("0 init\n0 recv 1 0 8\n0 finalize\n1 init\n1 finalize\n")
    stuck = _replay_command([str(lonely), "--platform", "cluster:2"])
    assert stuck.returncode == 124 and "deadlock" in stuck.stderr.lower()


def test_the_per_rank_text_alone_is_the_same_document(tmp_path):
    import mpisim
    from mpisim.cli import replay_result_json

    options = dict(platform="cluster:2", coll={"barrier": "ompi_two_procs"}, ranks_json=True)
    full = mpisim.replay(_two_rank_trace(tmp_path), **options)
    text_only = mpisim.replay(_two_rank_trace(tmp_path), rank_stats=False, **options)
    assert text_only.ranks == [] and len(full.ranks) == 2
    assert text_only.ranks_json == full.ranks_json and text_only.inputs == full.inputs
    assert replay_result_json(text_only).split('"host"')[0] == replay_result_json(full).split('"host"')[0]
    with pytest.raises(ValueError, match="rank_stats=False needs ranks_json=True"):
        mpisim.replay(_two_rank_trace(tmp_path), platform="cluster:2", rank_stats=False)


@pytest.mark.parametrize("extra", [{}, {"checkpoint_interval": 0.5, "restart": 1, "fail": "1@1.2"}])
def test_the_fields_alone_print_the_results_document(tmp_path, extra):
    import mpisim
    from mpisim.api import replay_fields
    from mpisim.cli import replay_fields_json, replay_result_json

    options = dict(platform="cluster:2", coll={"barrier": "ompi_two_procs"}, ranks_json=True, **extra)
    result = mpisim.replay(_two_rank_trace(tmp_path), rank_stats=False, **options)
    fields = replay_fields(_two_rank_trace(tmp_path), rank_stats=False, **options)
    assert replay_fields_json(fields).split('"host"')[0] == replay_result_json(result).split('"host"')[0]
    assert mpisim.api.ReplayResult(**fields).to_dict().keys() == result.to_dict().keys()
    with pytest.raises(TypeError, match="unexpected keyword argument 'modle'"):
        replay_fields(_two_rank_trace(tmp_path), platform="cluster:2", modle="xsim")


def test_replay_json_starts_without_dataclasses_or_typing(tmp_path):
    # `mpisim replay --json` builds no result object: its start-up imports neither module (some 60 M instructions).
    import subprocess
    import sys

    program = ("import sys\nfrom mpisim.cli import main\n"
               f"status = main(['replay', {_two_rank_trace(tmp_path)!r}, '--platform', 'cluster:2', '--json'])\n"
               "print(status, sorted(m for m in ('dataclasses', 'typing', 'inspect') if m in sys.modules),"
               " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.stderr.strip() == "0 []"
    assert json.loads(done.stdout)["ranks"][1]["rank"] == 1


def test_the_result_types_stay_dataclasses_of_the_api():
    import dataclasses

    import mpisim

    assert dataclasses.is_dataclass(mpisim.api.ReplayResult) and dataclasses.is_dataclass(mpisim.api.RunResult)
    assert issubclass(mpisim.api.ReplayResult, mpisim.api.Result)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        mpisim.api.Nothing
