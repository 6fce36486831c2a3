"""Reading timelines into pandas DataFrames: Chrome trace-event JSON, Paje, and CSV, as ``mpisim replay --timeline``
writes them (and ``mpisim record``'s ``timeline.json``, SimGrid's Paje traces, other tools' Chrome traces).

``read_timeline(path)`` returns a :class:`Timeline` with

- ``calls``: one row per call (or computation, or sleep): ``rank``, ``operation``, ``start``, ``end``, ``duration``
  (seconds), ``peer`` (-1: none), ``bytes``, ``tag``, ``communicator`` (NaN or -1 where the format does not say),
  ``actions`` (how many trace lines the call produced: ``mpisim record``'s ``args.actions``, 1 elsewhere);
- ``messages``: one row per message: ``source``, ``destination``, ``start``, ``end`` (seconds: the arrow's ends, from
  the sending call's start to the receiving call's end; in CSV timelines, from posting to arrival), ``bytes``, ``tag``;
- ``links``: the bandwidth use of each link over time, when the file has it (``--timeline-links``): one row per
  change: ``link`` (its name), ``time`` (seconds), ``used`` (bytes per second from then on), ``flows`` (how many
  transfers share it; -1 where the format does not say), ``capacity`` (bytes per second; NaN where the format does
  not say). Empty without ``--timeline-links``;
- ``provenance``: what produced the file (mpisim version, inputs), when it says.

Files are read line by line into compact columns, so a million events fit in a few hundred megabytes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

FORMATS = {"chrome": (".json",), "paje": (".paje", ".trace"), "csv": (".csv",)}
CALL_COLUMNS = ["rank", "operation", "start", "end", "duration", "peer", "bytes", "tag", "communicator", "actions"]
MESSAGE_COLUMNS = ["source", "destination", "start", "end", "bytes", "tag"]
LINK_COLUMNS = ["link", "time", "used", "flows", "capacity"]
# Process failures and restarted runs' attempts (docs/timelines.md): event is "failure", "attempt-start" or
# "attempt-end"; rank (failures) and attempt (attempts) are -1 where they do not apply.
EVENT_COLUMNS = ["event", "time", "rank", "attempt", "outcome"]


@dataclass
class Timeline:
    path: str
    format: str
    calls: "object"  # pandas.DataFrame
    messages: "object"  # pandas.DataFrame
    provenance: Dict[str, str] = field(default_factory=dict)
    links: "object" = None  # pandas.DataFrame (LINK_COLUMNS); set to an empty one when None
    events: "object" = None  # pandas.DataFrame (EVENT_COLUMNS), in date order; set to an empty one when None
    # The NIC tracks of a bxi run (CALL_COLUMNS, "rank" being the node, "operation" the step: PTL_PUT, ...), or None
    nics: "object" = None

    def __post_init__(self):
        if self.links is None:
            self.links = _Links().frame()
        if self.events is None:
            self.events = _Events().frame()

    @property
    def ranks(self) -> List[int]:
        return sorted(int(r) for r in self.calls["rank"].unique())

    @property
    def span(self) -> Tuple[float, float]:
        if len(self.calls) == 0:
            return 0.0, 0.0
        return float(self.calls["start"].min()), float(self.calls["end"].max())


def format_of(path: str) -> str:
    """The format a file name's extension says: chrome, paje or csv."""
    lower = path.lower()
    for name, extensions in FORMATS.items():
        if lower.endswith(extensions):
            return name
    valid = ", ".join(f"{e} ({n})" for n, es in FORMATS.items() for e in es)
    raise ValueError(f"{path}: cannot tell the timeline format from the file name: use one of {valid}")


def read_timeline(path: str, format: Optional[str] = None) -> Timeline:
    """Reads a timeline file; the format is the one its extension says unless named."""
    name = format or format_of(path)
    readers = {"chrome": read_chrome, "paje": read_paje, "csv": read_csv}
    if name not in readers:
        raise ValueError(f"unknown timeline format '{name}' (valid formats: {', '.join(sorted(readers))})")
    return readers[name](path)


# ------------------------------------------------------------------------------------------------- shared pieces

class Progress:
    """A progress line on stderr for long work: silent for the first two seconds, then updated twice a second."""

    def __init__(self, label: str, total: float):
        self.label, self.total = label, max(total, 1)
        self.started = self.shown = time.monotonic()
        self.visible = False

    def update(self, done: float) -> None:
        now = time.monotonic()
        if now - self.started < 2 or now - self.shown < 0.5:
            return
        self.shown, self.visible = now, True
        print(f"\r{self.label}: {min(100.0, 100.0 * done / self.total):5.1f}%", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.visible:
            print(f"\r{self.label}: done  ", file=sys.stderr, flush=True)


def _numpy(values: array, dtype):
    import numpy as np

    return np.frombuffer(values, dtype=dtype).copy() if len(values) else np.zeros(0, dtype=dtype)


class _Calls:
    """Call rows as typed arrays (8 bytes a value) and operation codes, turned into a DataFrame at the end."""

    def __init__(self):
        self.rank, self.code = array("q"), array("i")
        self.start, self.end, self.bytes = array("d"), array("d"), array("d")
        self.peer, self.tag = array("q"), array("q")
        self.communicator: list = []
        self.actions = array("q")  # TI lines each call produced (mpisim record's timelines); 1 elsewhere
        self.operations: Dict[str, int] = {}

    def codes(self, operations) -> array:
        """Codes of a sequence of operation names, new names added."""
        known = self.operations
        return array("i", [known[o] if o in known else known.setdefault(o, len(known)) for o in operations])

    def extend(self, rank, codes, start, end, peer, size, tag, communicator) -> None:
        """Appends numpy columns (int64 ranks, peers and tags; float64 dates and sizes) and an array of codes."""
        self.rank.frombytes(rank.tobytes())
        self.code.extend(codes)
        self.start.frombytes(start.tobytes())
        self.end.frombytes(end.tobytes())
        self.peer.frombytes(peer.tobytes())
        self.bytes.frombytes(size.tobytes())
        self.tag.frombytes(tag.tobytes())
        self.communicator.extend(communicator)
        self.actions.extend([1] * len(codes))

    def add(self, rank, operation, start, end, peer=-1, size=float("nan"), tag=-1, communicator=-1, actions=1):
        code = self.operations.get(operation)
        if code is None:
            code = self.operations[operation] = len(self.operations)
        self.rank.append(int(rank))
        self.code.append(code)
        self.start.append(start)
        self.end.append(end)
        self.peer.append(int(peer) if peer is not None else -1)
        self.bytes.append(float(size) if size is not None else float("nan"))
        self.tag.append(int(tag) if tag is not None else -1)
        self.communicator.append(communicator)
        self.actions.append(int(actions) if actions is not None else 1)

    def frame(self):
        import numpy as np
        import pandas as pd

        names = sorted(self.operations, key=self.operations.get)
        start, end = _numpy(self.start, np.float64), _numpy(self.end, np.float64)
        return pd.DataFrame({
            "rank": _numpy(self.rank, np.int64),
            "operation": pd.Categorical.from_codes(_numpy(self.code, np.int32), categories=names),
            "start": start,
            "end": end,
            "duration": end - start,
            "peer": _numpy(self.peer, np.int64),
            "bytes": _numpy(self.bytes, np.float64),
            "tag": _numpy(self.tag, np.int64),
            "communicator": pd.Series(self.communicator, dtype="object").infer_objects(),
            "actions": _numpy(self.actions, np.int64),
        })


class _Messages:
    def __init__(self):
        self.source, self.destination, self.tag = array("q"), array("q"), array("q")
        self.start, self.end, self.bytes = array("d"), array("d"), array("d")

    def add(self, source, destination, start, end, size=float("nan"), tag=-1):
        self.source.append(int(source))
        self.destination.append(int(destination))
        self.start.append(start)
        self.end.append(end)
        self.bytes.append(float(size) if size is not None else float("nan"))
        self.tag.append(int(tag) if tag is not None else -1)

    def frame(self):
        import numpy as np
        import pandas as pd

        return pd.DataFrame({
            "source": _numpy(self.source, np.int64),
            "destination": _numpy(self.destination, np.int64),
            "start": _numpy(self.start, np.float64),
            "end": _numpy(self.end, np.float64),
            "bytes": _numpy(self.bytes, np.float64),
            "tag": _numpy(self.tag, np.int64),
        })


class _Links:
    """Link bandwidth changes, in file order (each link's rows are in date order)."""

    def __init__(self):
        self.names: Dict[str, int] = {}
        self.code = array("i")
        self.time, self.used, self.capacity = array("d"), array("d"), array("d")
        self.flows = array("q")

    def add(self, name: str, time: float, used: float, flows=-1, capacity=float("nan")) -> None:
        self.code.append(self.names.setdefault(name, len(self.names)))
        self.time.append(float(time))
        self.used.append(float(used))
        self.flows.append(int(flows) if flows is not None else -1)
        self.capacity.append(float(capacity) if capacity is not None else float("nan"))

    def frame(self):
        import numpy as np
        import pandas as pd

        names = sorted(self.names, key=self.names.get)
        return pd.DataFrame({
            "link": pd.Categorical.from_codes(_numpy(self.code, np.int32), categories=names),
            "time": _numpy(self.time, np.float64),
            "used": _numpy(self.used, np.float64),
            "flows": _numpy(self.flows, np.int64),
            "capacity": _numpy(self.capacity, np.float64),
        })


class _Events:
    def __init__(self):
        self.rows: List[Tuple] = []

    def add(self, event: str, time: float, rank: int = -1, attempt: int = -1, outcome: str = "") -> None:
        self.rows.append((event, float(time), int(rank), int(attempt), outcome or ""))

    def frame(self):
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=EVENT_COLUMNS)
        frame = frame.astype({"event": str, "time": float, "rank": "int64", "attempt": "int64", "outcome": str})
        return frame.sort_values("time", kind="stable").reset_index(drop=True)


def _lines(path: str):
    """The file's lines, with a progress line on stderr for big files."""
    total = os.path.getsize(path)
    progress = Progress(f"reading {os.path.basename(path)}", total)
    done = 0
    with open(path, "r", encoding="utf-8", errors="replace") as stream:
        for count, line in enumerate(stream):
            done += len(line)
            if count % 65536 == 0:
                progress.update(done)
            yield line
    progress.close()


# ------------------------------------------------------------------------------------------------------ chrome

# Events as mpisim writes them (one per line) are read a block at a time with regular expressions (re.split gives
# the fields of every matching line and the text of the others); other lines go through json.loads.
_X_LINES = re.compile(r'^,?\{"name":"[^"\\\n]*","cat":"[^"\\\n]*","ph":"X","pid":(-?\d+),"tid":(-?\d+),'
                      r'"ts":(-?[\d.]+),"dur":(-?[\d.]+),"args":\{"operation":"([^"\\\n]*)","peer":(-?\d+),'
                      r'"bytes":([-+\d.eE]+),"tag":(-?\d+),"communicator":(-?\d+)[,}][^\n]*\n?', re.M)
_FLOW_LINES = re.compile(r'^,?\{"name":"([^"\\\n]*)","cat":"([^"\\\n]*)","ph":"([sf])",(?:"bp":"e",)?"id":(\d+),'
                         r'"pid":-?\d+,"tid":(-?\d+),"ts":(-?[\d.]+)(?:,"args":\{"destination":-?\d+,'
                         r'"bytes":([-+\d.eE]+),"tag":(-?\d+)\})?\}[^\n]*\n?', re.M)


def _split(pattern, text: str) -> Tuple[List[Tuple], str]:
    """The groups of every line `pattern` matches (as columns), and the text of the other lines."""
    parts = pattern.split(text)
    width = pattern.groups + 1
    return [parts[1 + j::width] for j in range(pattern.groups)], "".join(parts[0::width])


class _ChromeEvents:
    """Complete events (X), begin/end pairs (B/E) and flow pairs (s/f) of a Chrome trace."""

    def __init__(self):
        self.calls = _Calls()
        self.pids = array("q")
        self.tids = array("q")
        self.open: Dict[Tuple, List] = {}  # (pid, tid) -> stack of B events
        self.provenance: Dict[str, str] = {}
        self.thread_ids: Dict[object, int] = {}
        # Flow points (s and f), paired at the end: phase, (category, name) code, id, date, thread, bytes, tag.
        self.flow_phase, self.flow_kind, self.flow_id = array("b"), array("q"), array("q")
        self.flow_ts, self.flow_tid, self.flow_bytes, self.flow_tag = array("d"), array("q"), array("d"), array("q")
        self.flow_kinds: Dict[Tuple, int] = {}
        self.flow_names: Dict[object, int] = {}
        self.links = _Links()  # counter events named "link NAME" (mpisim's --timeline-links)
        self.nic_pid: Optional[int] = None  # the process named "NICs" (mpisim's NIC tracks), kept apart
        self.events = _Events()  # instant events of categories failure and attempt

    def _thread(self, value) -> int:
        if isinstance(value, int):
            return value
        try:
            return int(value)
        except (TypeError, ValueError):
            return self.thread_ids.setdefault(value, len(self.thread_ids))

    # --- the fast path
    def block(self, text: str) -> str:
        """Takes the lines of a block in mpisim's layout; returns the other lines."""
        import numpy as np

        columns, text = _split(_X_LINES, text)
        if columns[0]:
            pid, tid, ts, dur, operation, peer, size, tag, communicator = columns
            start = np.array(ts, dtype=np.float64)
            end = start + np.array(dur, dtype=np.float64)
            ranks = np.array(tid, dtype=np.int64)
            self.calls.extend(ranks, self.calls.codes(operation), start * 1e-6, end * 1e-6,
                              np.array(peer, dtype=np.int64), np.array(size, dtype=np.float64),
                              np.array(tag, dtype=np.int64), np.array(communicator, dtype=np.int64).tolist())
            self.pids.frombytes(np.array(pid, dtype=np.int64).tobytes())
            self.tids.frombytes(ranks.tobytes())
        columns, text = _split(_FLOW_LINES, text)
        if columns[0]:
            name, category, phase, identifier, tid, ts, size, tag = columns
            kinds = self.flow_kinds
            self.flow_phase.extend(0 if p == "s" else 1 for p in phase)
            self.flow_kind.extend(kinds.setdefault(k, len(kinds)) for k in zip(category, name))
            self.flow_id.frombytes(np.array(identifier, dtype=np.int64).tobytes())
            self.flow_ts.frombytes((np.array(ts, dtype=np.float64) * 1e-6).tobytes())
            self.flow_tid.frombytes(np.array(tid, dtype=np.int64).tobytes())
            self.flow_bytes.frombytes(np.array([v or "nan" for v in size], dtype=np.float64).tobytes())
            self.flow_tag.frombytes(np.array([v or "-1" for v in tag], dtype=np.int64).tobytes())
        return text

    # --- any event
    def _call(self, event, start_us, duration_us, args) -> None:
        pid, tid = self._thread(event.get("pid", 0)), self._thread(event.get("tid", 0))
        self.pids.append(pid)
        self.tids.append(tid)
        operation = args.get("operation") or event.get("name", "?")
        communicator = args.get("communicator", args.get("comm", -1))
        self.calls.add(tid, operation, start_us * 1e-6, (start_us + duration_us) * 1e-6, args.get("peer", -1),
                       args.get("bytes"), args.get("tag", -1), communicator, args.get("actions", 1))

    def _flow(self, phase, category, name, identifier, ts_us, tid, size, tag) -> None:
        self.flow_phase.append(0 if phase == "s" else 1)
        self.flow_kind.append(self.flow_kinds.setdefault((category, name), len(self.flow_kinds)))
        if not isinstance(identifier, int):
            identifier = self.flow_names.setdefault(identifier, -1 - len(self.flow_names))
        self.flow_id.append(identifier)
        self.flow_ts.append(ts_us * 1e-6)
        self.flow_tid.append(tid)
        self.flow_bytes.append(float(size) if size is not None else float("nan"))
        self.flow_tag.append(int(tag) if tag is not None else -1)

    def add(self, event: dict) -> None:
        phase = event.get("ph")
        if phase == "X":
            self._call(event, float(event["ts"]), float(event.get("dur", 0)), event.get("args") or {})
        elif phase == "B":
            key = (event.get("pid", 0), event.get("tid", 0))
            self.open.setdefault(key, []).append(event)
        elif phase == "E":
            key = (event.get("pid", 0), event.get("tid", 0))
            stack = self.open.get(key)
            if stack:
                begin = stack.pop()
                args = dict(begin.get("args") or {})
                args.update(event.get("args") or {})
                self._call(begin, float(begin["ts"]), float(event["ts"]) - float(begin["ts"]), args)
        elif phase == "M" and event.get("name") == "process_name" and (event.get("args") or {}).get("name") == "NICs":
            self.nic_pid = self._thread(event.get("pid", 0))
        elif phase == "C" and str(event.get("name", "")).startswith("link "):
            args = event.get("args") or {}
            self.links.add(event["name"][5:], float(event["ts"]) * 1e-6, args.get("used", 0.0), args.get("flows"))
        elif phase == "i" and event.get("cat") == "failure":
            self.events.add("failure", float(event["ts"]) * 1e-6, self._thread(event.get("tid", 0)))
        elif phase == "i" and event.get("cat") == "attempt":
            args = event.get("args") or {}
            ends = str(event.get("name", "")).endswith(" ends")
            self.events.add("attempt-end" if ends else "attempt-start", float(event["ts"]) * 1e-6, -1,
                            args.get("attempt", -1), args.get("outcome", ""))
        elif phase in ("s", "f"):
            args = event.get("args") or {}
            self._flow(phase, event.get("cat"), event.get("name"), event.get("id"), float(event["ts"]),
                       self._thread(event.get("tid", 0)), args.get("bytes"), args.get("tag"))

    def add_document(self, document) -> None:
        events = document.get("traceEvents", []) if isinstance(document, dict) else document
        for event in events:
            if isinstance(event, dict):
                self.add(event)
        if isinstance(document, dict) and isinstance(document.get("otherData"), dict):
            self.provenance.update({k: v if isinstance(v, str) else json.dumps(v)
                                    for k, v in document["otherData"].items()})

    def _messages(self):
        """Pairs each flow start with the end of the same category, name and id (ids may be reused: the n-th start
        goes with the n-th end)."""
        import pandas as pd

        points = pd.DataFrame({"phase": _numpy(self.flow_phase, "int8"), "kind": _numpy(self.flow_kind, "int64"),
                               "id": _numpy(self.flow_id, "int64"), "ts": _numpy(self.flow_ts, "float64"),
                               "tid": _numpy(self.flow_tid, "int64"), "bytes": _numpy(self.flow_bytes, "float64"),
                               "tag": _numpy(self.flow_tag, "int64")})
        points["nth"] = points.groupby(["phase", "kind", "id"]).cumcount()
        starts = points[points["phase"] == 0]
        ends = points[points["phase"] == 1]
        pairs = starts.merge(ends, on=["kind", "id", "nth"], suffixes=("", "_end")).sort_values(
            ["ts_end", "id"], kind="stable")
        return pd.DataFrame({"source": pairs["tid"].to_numpy(), "destination": pairs["tid_end"].to_numpy(),
                             "start": pairs["ts"].to_numpy(), "end": pairs["ts_end"].to_numpy(),
                             "bytes": pairs["bytes"].to_numpy(), "tag": pairs["tag"].to_numpy()})

    def timeline(self, path: str) -> Timeline:
        calls = self.calls.frame()
        nics = None
        if self.nic_pid is not None:
            on_nic = _numpy(self.pids, "int64") == self.nic_pid
            nics = calls[on_nic].reset_index(drop=True)
            calls = calls[~on_nic].reset_index(drop=True)
            kept = array("q", _numpy(self.pids, "int64")[~on_nic].tolist())
            self.pids, self.tids = kept, array("q", _numpy(self.tids, "int64")[~on_nic].tolist())
        # One process per rank (and a single thread each) rather than one thread per rank: ranks are the pids.
        if len(set(self.tids)) == 1 and len(set(self.pids)) > 1:
            calls["rank"] = _numpy(self.pids, "int64")
        return Timeline(path, "chrome", calls, self._messages(), self.provenance, self.links.frame(),
                        self.events.frame(), nics)


def _blocks(path: str, size: int = 8 << 20):
    """The file in blocks of whole lines, with a progress line on stderr for big files."""
    progress = Progress(f"reading {os.path.basename(path)}", os.path.getsize(path))
    done = 0
    with open(path, "r", encoding="utf-8", errors="replace") as stream:
        while True:
            block = stream.read(size)
            if not block:
                break
            block += stream.readline()
            done += len(block)
            progress.update(done)
            yield block
    progress.close()


def read_chrome(path: str) -> Timeline:
    """A Chrome trace-event file. Files with one event per line (mpisim's, and most tools') are streamed; others are
    parsed whole."""
    events = _ChromeEvents()
    decoder = json.JSONDecoder()
    streamed = True
    for block in _blocks(path):
        for line in events.block(block).splitlines():
            text = line.strip().strip(",")
            if text.startswith('"otherData":'):
                try:
                    other, _ = decoder.raw_decode(text, len('"otherData":'))
                    events.add_document({"otherData": other})
                except ValueError:
                    pass
                continue
            if not (text.startswith("{") and text.endswith("}")):
                continue
            try:
                event = json.loads(text)
            except ValueError:
                streamed = False
                break
            if "traceEvents" in event:
                events.add_document(event)
            else:
                events.add(event)
        if not streamed:
            break
    if not streamed or (len(events.calls.start) == 0 and os.path.getsize(path) > 0):
        events = _ChromeEvents()
        with open(path) as stream:
            try:
                document = json.load(stream)
            except ValueError as error:
                raise ValueError(f"{path}: not a Chrome trace-event file ({error})") from error
        events.add_document(document)
    return events.timeline(path)


# -------------------------------------------------------------------------------------------------------- paje

_RANK_NUMBER = re.compile(r"(\d+)\D*$")


def read_paje(path: str) -> Timeline:
    """A Paje trace: the event definitions in its header say each event's fields. States become calls (their
    container's number is the rank), links become messages."""
    definitions: Dict[str, Tuple[str, Dict[str, int]]] = {}  # event id -> (event name, field -> position in line)
    current: Optional[Tuple[str, str, List[str]]] = None
    names: Dict[str, str] = {}  # alias -> name (containers, entity values)
    rank_of: Dict[str, int] = {}
    stacks: Dict[Tuple[str, str], List[Tuple[float, str]]] = {}
    links: Dict[str, Tuple] = {}
    link_ends: Dict[str, Tuple] = {}
    calls, messages, variables, events = _Calls(), _Messages(), _Links(), _Events()
    attempts = [0]  # Paje's attempt marks carry no number: they are counted
    provenance: Dict[str, str] = {}

    def container_rank(alias: str) -> int:
        rank = rank_of.get(alias)
        if rank is None:
            match = _RANK_NUMBER.search(names.get(alias, alias))
            rank = int(match.group(1)) if match else len(rank_of)
            rank_of[alias] = rank
        return rank

    def finish_state(key: Tuple[str, str], end: float) -> None:
        stack = stacks.get(key)
        if stack:
            start, value = stack.pop()
            calls.add(container_rank(key[0]), names.get(value, value), start, end)

    def link(key: str, point: Tuple, starts: bool) -> None:
        mine, other = (links, link_ends) if starts else (link_ends, links)
        match = other.pop(key, None)
        if match is None:
            mine[key] = point
            return
        first, last = (point, match) if starts else (match, point)
        messages.add(container_rank(first[1]), container_rank(last[1]), first[0], last[0],
                     float(first[2]) if first[2] is not None else None)

    for number, line in enumerate(_lines(path), 1):
        if line.startswith("%"):
            words = line[1:].split()
            if words and words[0] == "EventDef":
                current = (words[2], words[1], [])
            elif words and words[0] == "EndEventDef":
                if current:
                    definitions[current[0]] = (current[1], {f: i + 1 for i, f in enumerate(current[2])})
                current = None
            elif words and current:
                current[2].append(words[0])
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].strip().partition(": ")
            if sep and " " not in key:
                provenance[key] = value
            continue
        fields = line.split() if '"' not in line else shlex.split(line)
        if not fields:
            continue
        definition = definitions.get(fields[0])
        if definition is None:
            raise ValueError(f"{path}:{number}: event id {fields[0]} is not defined in the header")
        event, at = definition
        try:
            if event == "PajePushState":
                stacks.setdefault((fields[at["Container"]], fields[at["Type"]]), []).append(
                    (float(fields[at["Time"]]), fields[at["Value"]]))
            elif event == "PajePopState":
                finish_state((fields[at["Container"]], fields[at["Type"]]), float(fields[at["Time"]]))
            elif event == "PajeSetState":
                key, when = (fields[at["Container"]], fields[at["Type"]]), float(fields[at["Time"]])
                finish_state(key, when)
                stacks[key] = [(when, fields[at["Value"]])]
            elif event == "PajeStartLink":
                size = fields[at["Size"]] if "Size" in at else None
                link(fields[at["Key"]], (float(fields[at["Time"]]), fields[at["StartContainer"]], size), True)
            elif event == "PajeEndLink":
                link(fields[at["Key"]], (float(fields[at["Time"]]), fields[at["EndContainer"]], None), False)
            elif event == "PajeSetVariable":  # link bandwidth (mpisim's --timeline-links): by container name
                container = fields[at["Container"]]
                variables.add(names.get(container, container), float(fields[at["Time"]]), float(fields[at["Value"]]))
            elif event == "PajeNewEvent" and fields[at["Type"]] in ("FAIL", "ATTEMPT"):  # mpisim's marks
                when, value = float(fields[at["Time"]]), fields[at["Value"]]
                if fields[at["Type"]] == "FAIL":
                    events.add("failure", when, container_rank(fields[at["Container"]]))
                elif value == "start":
                    attempts[0] += 1
                    events.add("attempt-start", when, -1, attempts[0])
                else:
                    events.add("attempt-end", when, -1, attempts[0])
            elif event in ("PajeDefineEntityValue", "PajeCreateContainer"):
                names[fields[at["Alias"]]] = fields[at["Name"]]
            elif event == "PajeDestroyContainer":
                # States still open (a SetState's last value, say) last until their container goes away.
                for key, stack in list(stacks.items()):
                    while key[0] == fields[at["Name"]] and stack:
                        finish_state(key, float(fields[at["Time"]]))
        except (KeyError, IndexError, ValueError) as error:
            raise ValueError(f"{path}:{number}: malformed {event} event ({error})") from error
    return Timeline(path, "paje", calls.frame(), messages.frame(), provenance, variables.frame(), events.frame())


# --------------------------------------------------------------------------------------------------------- csv

def _csv_provenance(path: str) -> Dict[str, str]:
    provenance = {}
    with open(path) as stream:
        for line in stream:
            if not line.startswith("#"):
                break
            key, sep, value = line[1:].strip().partition(": ")
            if sep and " " not in key:
                provenance[key] = value
    return provenance


def messages_path(path: str) -> str:
    """Where a CSV timeline's messages are: run.csv -> run.messages.csv."""
    return (path[:-4] if path.lower().endswith(".csv") else path) + ".messages.csv"


def read_csv(path: str) -> Timeline:
    """A CSV timeline (FILE.csv, and FILE.messages.csv when present)."""
    import pandas as pd

    calls = pd.read_csv(path, comment="#")
    missing = [c for c in ("rank", "operation", "start", "end") if c not in calls.columns]
    if missing:
        raise ValueError(f"{path}: not an mpisim CSV timeline (no column {', '.join(missing)})")
    calls["operation"] = calls["operation"].astype("category")
    if "duration" not in calls.columns:
        calls["duration"] = calls["end"] - calls["start"]
    for column, default in (("peer", -1), ("bytes", float("nan")), ("tag", -1), ("communicator", -1), ("actions", 1)):
        if column not in calls.columns:
            calls[column] = default
    other = messages_path(path)
    if os.path.exists(other):
        raw = pd.read_csv(other, comment="#")
        messages = pd.DataFrame({"source": raw["source"], "destination": raw["destination"],
                                 "start": raw["posted"], "end": raw["arrived"], "bytes": raw["bytes"],
                                 "tag": raw["tag"]})
    else:
        messages = _Messages().frame()
    return Timeline(path, "csv", calls, messages, _csv_provenance(path), _csv_links(path), _csv_events(path))


PORTALS_CSV_HEADER = "type,nid,peer_nid,process,peer_process,bytes,start,end,operation"


def is_portals_csv(path: str) -> bool:
    """A file written by `mpisim run --portals-csv`."""
    try:
        with open(path) as stream:
            return stream.readline().strip() == PORTALS_CSV_HEADER
    except (OSError, UnicodeDecodeError):
        return False


def read_portals_csv(path: str) -> Timeline:
    """The NIC model's Portals-level operations (`--portals-csv`) as a timeline whose tracks are the NICs: "rank" is the
    node (NID), "operation" the step's type (PTL_PUT, PCI_DMA_PAYLOAD, ...), "peer" the other node."""
    import pandas as pd

    raw = pd.read_csv(path)
    calls = pd.DataFrame({"rank": raw["nid"], "operation": raw["type"].astype("category"), "start": raw["start"],
                          "end": raw["end"], "duration": raw["end"] - raw["start"], "peer": raw["peer_nid"],
                          "bytes": raw["bytes"], "tag": -1, "communicator": -1, "actions": 1})
    return Timeline(path, "portals-csv", calls, _Messages().frame())


def nic_timeline(timeline: Timeline) -> Optional[Timeline]:
    """The NIC tracks of a timeline (a bxi run's --timeline), as a timeline of their own; None when it has none."""
    if timeline.nics is None or len(timeline.nics) == 0:
        return None
    return Timeline(timeline.path, "nic", timeline.nics, _Messages().frame())


def links_path(path: str) -> str:
    """Where a CSV timeline's link bandwidth is: run.csv -> run.links.csv."""
    return (path[:-4] if path.lower().endswith(".csv") else path) + ".links.csv"


def _csv_links(path: str):
    import pandas as pd

    other = links_path(path)
    if not os.path.exists(other):
        return _Links().frame()
    raw = pd.read_csv(other, comment="#", dtype={"link": str})
    return pd.DataFrame({"link": raw["link"].astype("category"), "time": raw["time"].astype(float),
                         "used": raw["used"].astype(float), "flows": raw["flows"].astype("int64"),
                         "capacity": raw["capacity"].astype(float)})


def events_path(path: str) -> str:
    """Where a CSV timeline's failures and attempts are: run.csv -> run.events.csv (written only when there are)."""
    return (path[:-4] if path.lower().endswith(".csv") else path) + ".events.csv"


def _csv_events(path: str):
    import pandas as pd

    other = events_path(path)
    events = _Events()
    if os.path.exists(other):
        raw = pd.read_csv(other, comment="#", dtype={"event": str, "outcome": str}, keep_default_na=False)
        for row in raw.itertuples(index=False):
            events.add(row.event, row.time, row.rank, row.attempt, row.outcome)
    return events.frame()
