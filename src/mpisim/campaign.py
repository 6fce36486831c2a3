"""Campaign files of `mpisim sweep`: what varies, what to collect, where to run (docs/sweep.md).

A campaign file is YAML. Every key of a simulation (trace, platform, model, ...) takes one value or a list; text
values expand braces as a shell does (`torus:{4,8,16}x8x8`, `{1..4}`); `params` and `coll` take a mapping whose values
vary the same way, or a list of mappings; `cases` lists sets of keys that vary together. The runs are every
combination, in file order (the last key varies fastest), numbered from 0. Everything is checked before any run
starts: a mistake is one line `FILE:LINE: what is wrong` (a ValueError, exit status 2 from the command line)."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

# The keys of a run: what each is, in the order its column comes in the results.
WORKLOAD_KEYS = ("trace", "program", "collective")
RUN_KEYS = ("trace", "program", "args", "collective", "bytes", "platform", "np", "model", "params", "params_file",
            "coll_selector", "coll", "placement", "hostfile", "fail", "fail_mtbf", "seed", "compute_time", "tags")
# A mapping of names to values: one column per name (`params.bw-factor`). `tags` are columns of the campaign's own
# (what a case stands for, to plot by), not given to the simulator.
MAPPING_KEYS = ("params", "coll", "tags")
TOP_KEYS = ("name", "description", "collect", "cluster", "cases") + RUN_KEYS
CLUSTER_KEYS = ("workers", "scheduler", "jobqueue")
JOBQUEUE_KINDS = ("slurm", "pbs")
COLLECT = ("simulated_time", "ranks", "collectives")
PLACEMENTS = ("platform", "sorted")

# The one-call traces a `collective` run replays: each rank's line after `init` (sizes in bytes: MPI_BYTE, the
# default datatype after a bare `init`, docs/replay.md). For alltoall, allgather: the block per peer.
COLLECTIVE_LINES = {
    "alltoall": "alltoall {bytes} {bytes}",
    "allgather": "allgather {bytes} {bytes}",
    "bcast": "bcast {bytes} 0",
    "reduce": "reduce {bytes} 0 0",
    "allreduce": "allreduce {bytes} 0",
    "barrier": "barrier",
}


class CampaignError(ValueError):
    """A campaign file that cannot run: `FILE:LINE: what is wrong`."""


class _Located(dict):
    """A YAML mapping that remembers the line of each key."""

    def __init__(self):
        super().__init__()
        self.lines: Dict[str, int] = {}


def _yaml_loader():
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node):
        loader.flatten_mapping(node)
        result = _Located()
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, str):
                raise CampaignError(f"{loader.name}:{line}: keys are names, got {key!r}")
            if key in result:
                raise CampaignError(f"{loader.name}:{line}: '{key}' given twice (first on line {result.lines[key]})")
            result[key] = loader.construct_object(value_node, deep=True)
            result.lines[key] = line
        return result

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    return Loader


def read_yaml(path: str) -> _Located:
    import yaml

    try:
        with open(path) as stream:
            text = stream.read()
    except OSError as error:
        raise CampaignError(f"{path}: {error.strerror}") from None
    loader = _yaml_loader()(text)
    loader.name = path
    try:
        document = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise CampaignError(f"{path}:{mark.line + 1}: not valid YAML: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise CampaignError(f"{path}: not valid YAML: {error}") from None
    finally:
        loader.dispose()
    if not isinstance(document, _Located):
        raise CampaignError(f"{path}:1: a campaign is a mapping of keys ({', '.join(TOP_KEYS)})")
    return document


# Brace expansion, as a shell does it: `a{1,2}b` -> a1b a2b, `{1..4}` -> 1 2 3 4, `{2..16..2}`, nested braces.
_SEQUENCE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$")


def _closing_brace(text: str, start: int) -> int:
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    raise ValueError(f"'{text}': '{{' at position {start + 1} is never closed")


def _split_top_level(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += (char == "{") - (char == "}")
        current += char
    return parts + [current]


def expand_braces(text: str) -> List[str]:
    """Every text `text` stands for; ValueError for an empty range (`{}`, `{4..1..1}`) or an unclosed brace."""
    start = text.find("{")
    if start < 0:
        if "}" in text:
            raise ValueError(f"'{text}': '}}' without '{{'")
        return [text]
    end = _closing_brace(text, start)
    inside, before, after = text[start + 1:end], text[:start], text[end + 1:]
    sequence = _SEQUENCE.match(inside)
    if sequence:
        low, high = int(sequence.group(1)), int(sequence.group(2))
        step = int(sequence.group(3) or 1)
        if step <= 0 or low > high:
            raise ValueError(f"'{text}': empty range {{{inside}}} (write LOW..HIGH[..STEP], LOW <= HIGH, STEP > 0)")
        choices = [str(v) for v in range(low, high + 1, step)]
    else:
        choices = [c for part in _split_top_level(inside) for c in expand_braces(part)]
        if not inside.strip() or any(not c.strip() for c in _split_top_level(inside)):
            raise ValueError(f"'{text}': empty choice in {{{inside}}}")
    return [b + c + a for c in choices for a in expand_braces(after) for b in [before]]


@dataclass
class Campaign:
    """A parsed campaign: its runs (flat dicts of column -> value, None where the campaign sets nothing), what to
    collect, where to run. `runs[i]` is run i."""

    path: str
    name: str
    runs: List[Dict[str, object]]
    columns: List[str]
    collect: List[str]
    cluster: Dict[str, object] = field(default_factory=dict)
    text: str = ""  # the file as read (provenance in the results)

    @property
    def folder(self) -> str:
        return os.path.dirname(os.path.abspath(self.path))


def run_key(run: Dict[str, object]) -> str:
    """What identifies a run's inputs (--resume skips a run whose key is already in the results)."""
    text = json.dumps({k: v for k, v in run.items() if v is not None}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class _Parser:
    def __init__(self, path: str):
        self.path = path

    def fail(self, line: Optional[int], message: str) -> CampaignError:
        return CampaignError(f"{self.path}:{line}: {message}" if line else f"{self.path}: {message}")

    # -- one key's values -> a list of partial runs ({column: value}) --

    def values(self, key: str, value, line: int) -> List[Dict[str, object]]:
        if key in MAPPING_KEYS:
            return self.mapping_values(key, value, line)
        if key == "args":  # a list of texts is one argument list; a list of lists, several
            lists = value if isinstance(value, list) and value and all(isinstance(v, list) for v in value) else [value]
            if value == [] or any(not isinstance(v, list) or not all(isinstance(a, (str, int, float)) for a in v)
                                  for v in lists):
                raise self.fail(line, "args: a list of arguments, or a list of such lists")
            return [{key: json.dumps([str(a) for a in v])} for v in lists]
        items = value if isinstance(value, list) else [value]
        if not items:
            raise self.fail(line, f"{key}: empty list: give at least one value")
        out = []
        for item in items:
            if isinstance(item, (dict, list)) or item is None:
                raise self.fail(line, f"{key}: expected a value or a list of values, got {item!r}")
            for text in self.expand(key, item, line):
                out.append({key: self.typed(key, text, line)})
        return out

    def expand(self, key: str, item, line: int) -> List[object]:
        if not isinstance(item, str):
            return [item]
        try:
            return expand_braces(item)
        except ValueError as error:
            raise self.fail(line, f"{key}: {error}") from None

    def mapping_values(self, key: str, value, line: int) -> List[Dict[str, object]]:
        mappings = value if isinstance(value, list) else [value]
        if not mappings:
            raise self.fail(line, f"{key}: empty list: give at least one mapping")
        out = []
        for mapping in mappings:
            if not isinstance(mapping, dict) or not mapping:
                raise self.fail(line, f"{key}: expected a mapping of names to values (`{key}: {{NAME: VALUE}}`) or "
                                      f"a list of them, got {mapping!r}")
            axes = []
            for name, given in mapping.items():
                where = getattr(mapping, "lines", {}).get(name, line)
                items = given if isinstance(given, list) else [given]
                if not items:
                    raise self.fail(where, f"{key}.{name}: empty list: give at least one value")
                if any(isinstance(item, (dict, list)) or item is None for item in items):
                    raise self.fail(where, f"{key}.{name}: expected a value or a list of values, got {given!r}")
                texts = [str(t) for item in items for t in self.expand(f"{key}.{name}", str(item), where)]
                axes.append([(f"{key}.{name}", t) for t in texts])
            out += [dict(combination) for combination in itertools.product(*axes)]
        return out

    def typed(self, key: str, text, line: int):
        """A value in its column's type: whole numbers for np and seed, seconds for fail_mtbf, bytes for bytes."""
        try:
            if key in ("np", "seed"):
                if isinstance(text, (bool, float)):
                    raise ValueError
                number = text if isinstance(text, int) else int(str(text), 10)
                if number < (1 if key == "np" else 0):
                    raise ValueError
                return number
            if key == "bytes":
                from mpisim.study import parse_size

                return text if isinstance(text, int) and text >= 0 else parse_size(str(text))
            if key == "fail_mtbf":
                from mpisim.resilience import parse_time

                return float(text) if isinstance(text, (int, float)) else parse_time(str(text), "fail_mtbf")
            if key == "compute_time":
                if not isinstance(text, bool):
                    raise ValueError
                return text
        except ValueError:
            raise self.fail(line, f"{key}: bad value {text!r} ({_EXPECTED[key]})") from None
        return str(text)

    # -- the whole file --

    def parse(self, document: _Located) -> Campaign:
        for key in document:
            if key not in TOP_KEYS:
                raise self.fail(document.lines.get(key), f"unknown key '{key}' (valid: {', '.join(TOP_KEYS)})")
        axes = [self.values(key, document[key], document.lines.get(key)) for key in RUN_KEYS if key in document]
        if "cases" in document:
            axes.append(self.cases(document["cases"], document.lines.get("cases")))
        runs = _combinations(axes)
        for index, run in enumerate(runs):
            given = [k for k in WORKLOAD_KEYS if k in run]
            if len(given) != 1:
                what = f"run {index} has {' and '.join(given)}" if given else f"run {index} has none"
                raise self.fail(None, f"give exactly one of {', '.join(WORKLOAD_KEYS)} per run (what it simulates): "
                                      f"{what}")
        columns = _columns(runs)
        runs = [{c: run.get(c) for c in columns} for run in runs]
        collect = self.collect(document.get("collect", ["simulated_time", "ranks"]), document.lines.get("collect"))
        cluster = self.cluster(document.get("cluster", {}), document.lines.get("cluster"))
        name = str(document.get("name") or os.path.splitext(os.path.basename(self.path))[0])
        with open(self.path) as stream:
            text = stream.read()
        return Campaign(self.path, name, runs, columns, collect, cluster, text)

    def cases(self, value, line: int) -> List[Dict[str, object]]:
        if not isinstance(value, list) or not value:
            raise self.fail(line, "cases: a non-empty list of mappings, each setting keys that vary together")
        out = []
        for case in value:
            if not isinstance(case, dict) or not case:
                raise self.fail(line, f"cases: each case is a mapping of run keys, got {case!r}")
            lines = getattr(case, "lines", {})
            for key in case:
                if key not in RUN_KEYS:
                    raise self.fail(lines.get(key, line), f"cases: unknown key '{key}' (valid: {', '.join(RUN_KEYS)})")
            out += _combinations([self.values(key, case[key], lines.get(key, line)) for key in RUN_KEYS if key in case])
        return out

    def collect(self, value, line: Optional[int]) -> List[str]:
        items = value if isinstance(value, list) else [value]
        if not items:
            raise self.fail(line, f"collect: empty list (valid: {', '.join(COLLECT)})")
        for item in items:
            if item not in COLLECT:
                raise self.fail(line, f"collect: unknown '{item}' (valid: {', '.join(COLLECT)})")
        return list(dict.fromkeys(items))

    def cluster(self, value, line: Optional[int]) -> Dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(line, f"cluster: a mapping ({', '.join(CLUSTER_KEYS)}), got {value!r}")
        lines = getattr(value, "lines", {})
        for key in value:
            if key not in CLUSTER_KEYS:
                raise self.fail(lines.get(key, line),
                                f"cluster: unknown key '{key}' (valid: {', '.join(CLUSTER_KEYS)})")
        workers = value.get("workers")
        if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
            raise self.fail(lines.get("workers", line), f"cluster.workers: a whole number >= 1, got {workers!r}")
        jobqueue = value.get("jobqueue")
        if jobqueue is not None:
            where = lines.get("jobqueue", line)
            if not isinstance(jobqueue, dict) or jobqueue.get("kind") not in JOBQUEUE_KINDS:
                raise self.fail(where, f"cluster.jobqueue: a mapping with kind: {' or '.join(JOBQUEUE_KINDS)}, "
                                       "the cluster's options (cores, memory, queue, ...) and jobs: N")
        return dict(value)


def _combinations(axes: Sequence[List[Dict[str, object]]]) -> List[Dict[str, object]]:
    """Every choice of one partial run per axis, merged, the last axis varying fastest."""
    runs = []
    for combination in itertools.product(*axes):
        run: Dict[str, object] = {}
        for part in combination:
            run.update(part)
        runs.append(run)
    return runs


_EXPECTED = {"np": "a whole number >= 1", "seed": "a whole number >= 0", "bytes": "a size: 4096, 32KiB, 2MiB",
             "fail_mtbf": "a time: 30s, 10m, 1.5h", "compute_time": "true or false"}


def _columns(runs: Sequence[Dict[str, object]]) -> List[str]:
    """The input columns, run keys first in RUN_KEYS order, then `params.*` and `coll.*` in order of appearance."""
    seen = list(dict.fromkeys(c for run in runs for c in run))
    plain = [k for k in RUN_KEYS if k in seen and k not in MAPPING_KEYS]
    nested = [c for c in seen if "." in c]
    return plain + nested


# -- checks against the simulator, before any run --

def resolve_path(campaign: Campaign, path: str) -> str:
    """A path of the campaign file, relative to the file's folder unless absolute."""
    return path if os.path.isabs(path) else os.path.join(campaign.folder, path)


def platform_argument(campaign: Campaign, spec: str) -> str:
    """A platform as the simulator takes it: a file relative to the campaign, or a generator spec."""
    candidate = resolve_path(campaign, spec)
    return candidate if os.path.exists(candidate) else spec


def check(campaign: Campaign, document: _Located) -> None:
    """Every value the simulator would refuse, told before any run: unknown model, selector, algorithm, parameter,
    a platform spec that does not parse, a missing file."""
    import mpisim
    from mpisim import _core

    parser = _Parser(campaign.path)
    lines = _key_lines(document)

    def values_of(column: str) -> List[object]:
        return list(dict.fromkeys(run[column] for run in campaign.runs if run.get(column) is not None))

    models = {m["name"]: m for m in mpisim.network_models()}
    algorithms = {(a["operation"], a["name"]) for a in mpisim.collective_algorithms()}
    selectors = [s["name"] for s in mpisim.collective_selectors()]
    for model in values_of("model"):
        if model not in models:
            raise parser.fail(lines("model"), f"model: unknown '{model}' (valid: {', '.join(models)})")
    for selector in values_of("coll_selector"):
        if selector not in selectors:
            raise parser.fail(lines("coll_selector"), f"coll_selector: unknown '{selector}' (valid: "
                                                      f"{', '.join(selectors)})")
    for column in campaign.columns:
        kind, _, name = column.partition(".")
        if kind == "params":
            _check_parameter(parser, lines(column), name, campaign.runs, column, models)
        for value in values_of(column) if kind in MAPPING_KEYS else []:
            if kind == "coll" and (name, value) not in algorithms:
                known = sorted(a for op, a in algorithms if op == name)
                raise parser.fail(lines(column), f"coll: no algorithm '{value}' for '{name}'" +
                                  (f" (valid: {', '.join(known)})" if known else " (not a collective operation)"))
    for placement in values_of("placement"):
        if placement not in PLACEMENTS:
            raise parser.fail(lines("placement"), f"placement: '{placement}' (valid: {', '.join(PLACEMENTS)})")
    for key in ("trace", "program", "hostfile", "params_file"):
        for path in values_of(key):
            resolved = resolve_path(campaign, str(path))
            if not os.path.isfile(resolved):
                raise parser.fail(lines(key), f"{key}: {path}: no such file")
            if key == "program" and not os.access(resolved, os.X_OK):
                raise parser.fail(lines(key), f"program: {path}: not executable (build it with `mpisim cc`)")
    for operation in values_of("collective"):
        if operation not in COLLECTIVE_LINES:
            raise parser.fail(lines("collective"), f"collective: '{operation}' (valid: "
                                                   f"{', '.join(COLLECTIVE_LINES)})")
    for run in campaign.runs:
        if run.get("collective") is not None and run.get("np") is None:
            raise parser.fail(lines("collective"), "collective: give np, the ranks of the generated call")
        if run.get("collective") not in (None, "barrier") and run.get("bytes") is None:
            raise parser.fail(lines("collective"), "collective: give bytes, the size of the generated call")
    if not values_of("platform"):
        raise parser.fail(None, "platform: every run needs one (a file or a spec such as torus:4x4x4)")
    for spec in values_of("platform"):
        try:
            _core.describe_platform(platform_argument(campaign, str(spec)))
        except (_core.InputError, ValueError, OSError) as error:
            raise parser.fail(lines("platform"), f"platform '{spec}': {error}") from None


def _check_parameter(parser: _Parser, line: Optional[int], name: str, runs, column: str, models) -> None:
    """A model parameter every model it is given with declares (under its name or a SimGrid alias)."""
    for model in dict.fromkeys(str(run.get("model") or "smpi") for run in runs if run.get(column) is not None):
        if model not in models:
            continue
        names = {n for p in models[model]["parameters"] for n in [p["name"], *p["aliases"]]}
        if name not in names:
            raise parser.fail(line, f"params: model '{model}' has no parameter '{name}' (`mpisim models` lists them; "
                                    "give parameters with their model in `cases`)")


def _key_lines(document: _Located):
    """The line of a column's key: `params.bw-factor` -> the line of bw-factor under params, else of params."""

    def line(column: str) -> Optional[int]:
        key, _, name = column.partition(".")
        for mapping in [document, *[c for c in document.get("cases") or [] if isinstance(c, _Located)]]:
            if key in mapping:
                nested = mapping[key]
                for candidate in nested if isinstance(nested, list) else [nested]:
                    if name and isinstance(candidate, _Located) and name in candidate.lines:
                        return candidate.lines[name]
                return mapping.lines.get(key)
        return None

    return line


def apply_overrides(document: _Located, overrides: Dict[str, object]) -> None:
    """`--set KEY=VALUE` / `overrides=`: replace a top-level key before parsing (a reduced run of a campaign)."""
    for key, value in overrides.items():
        if key not in TOP_KEYS:
            raise CampaignError(f"override: unknown key '{key}' (valid: {', '.join(TOP_KEYS)})")
        document[key] = value
        document.lines[key] = None  # an error in it is not the file's line


def load(path: str, overrides: Optional[Dict[str, object]] = None) -> Campaign:
    """Parse and check a campaign file; CampaignError (a ValueError) names the file, the line and the mistake."""
    document = read_yaml(path)
    if overrides:
        apply_overrides(document, overrides)
    campaign = _Parser(path).parse(document)
    check(campaign, document)
    return campaign


def parse_override(text: str) -> Tuple[str, object]:
    """`KEY=VALUE` of --set, VALUE read as YAML (`np=[4,8]`, `model=smpi`), except a text starting with a brace,
    which is a range (`bytes={32KiB,2MiB}`), not a YAML mapping."""
    import yaml

    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise CampaignError(f"--set: expected KEY=VALUE, got '{text}'")
    if value.lstrip().startswith("{") and key.strip() not in MAPPING_KEYS:
        return key.strip(), value.strip()
    try:
        return key.strip(), yaml.load(value, Loader=_yaml_loader())
    except yaml.YAMLError as error:
        raise CampaignError(f"--set {key}: not a YAML value: {error}") from None
