"""`mpisim sweep`: every run of a campaign (mpisim.campaign) on Dask, one task per simulation, the results streamed
into one Parquet file with a row per run (docs/sweep.md).

The client expands the campaign, submits the runs not yet in the results (a bounded window of them, so a campaign
of a million runs does not flood the scheduler), and stores each finished row: rows are written as a part file
(RESULTS.parquet.parts/part-NNNNNN.parquet) at least once a second and whenever the campaign stops, then the parts
are merged into RESULTS.parquet ordered by run number. A failed run is a row with status "failed" and its
error; it never stops the campaign. Each finished row is also appended at once to a journal of JSON lines next
to the parts, so that a crash of the client loses only the runs in flight (`--resume` reads parts and journals)."""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Sequence

from mpisim import campaign as campaigns

# The native core runs one simulation at a time in a process: a worker with several threads takes turns.
_CORE_LOCK = threading.Lock()

REPLAY_RANK_FIGURES = ("compute", "communicate", "wait", "sleep", "finish")
RUN_RANK_FIGURES = ("compute", "mpi", "finish")
FLUSH_SECONDS = 1.0
PARTS_SUFFIX = ".parts"


# -- one run, in a worker --

def run_task(task: Dict[str, object]) -> Dict[str, object]:
    """Run one simulation and return its row: the inputs, then `status` ("ok" or "failed"), `error`, and what the
    campaign collects. Never raises for a failed simulation: its error is the row's."""
    row = {"run": task["run"], "run_key": task["key"], **task["inputs"], "status": "ok", "error": None}
    start = time.perf_counter()
    try:
        with _CORE_LOCK, tempfile.TemporaryDirectory(prefix="mpisim-sweep-") as folder:
            row.update(_simulate(task, folder))
    except Exception as error:  # noqa: BLE001 (any failure of one run is its row, the campaign goes on)
        row.update(status="failed", error=f"{type(error).__name__}: {error}".strip())
    row["task_seconds"] = time.perf_counter() - start
    return row


def _simulate(task: Dict[str, object], folder: str) -> Dict[str, object]:
    import mpisim

    arguments = dict(task["arguments"])
    collect = task["collect"]
    timeline = os.path.join(folder, "calls.csv") if "collectives" in collect else None
    if timeline:
        arguments["timeline"] = timeline
    if task["kind"] == "program":
        program, args = arguments.pop("program"), arguments.pop("args", [])
        result = mpisim.run(program, args, **arguments)
        figures, counted = RUN_RANK_FIGURES, {"calls": sum(r.calls for r in result.ranks)}
    else:
        if task["kind"] == "collective":
            arguments["trace"] = _write_collective_trace(folder, task["collective_line"], arguments["np"])
        result = mpisim.replay(**arguments)
        figures, counted = REPLAY_RANK_FIGURES, {"actions": result.actions}
    out: Dict[str, object] = {"simulated_time": result.simulated_time, **counted,
                              "fingerprint": f"{result.fingerprint:016x}", "wall_seconds": result.wall_seconds}
    if "ranks" in collect:
        for figure in figures:
            out[f"rank_{figure}"] = [float(getattr(r, figure)) for r in result.ranks]
    if timeline:
        out.update(_collective_times(timeline, len(result.ranks)))
    return out


def _write_collective_trace(folder: str, line: str, ranks: int) -> str:
    """A trace of one collective call on `ranks` ranks (a single file holding every rank)."""
    path = os.path.join(folder, "collective.txt")
    with open(path, "w") as out:
        for step in ("init", line, "finalize"):
            out.writelines(f"{rank} {step}\n" for rank in range(ranks))
    return path


def _collective_operations() -> frozenset:
    import mpisim

    return frozenset(a["operation"] for a in mpisim.collective_algorithms())


def _collective_times(timeline_csv: str, ranks: int) -> Dict[str, float]:
    """Per collective operation, from the run's CSV timeline: `coll_time.OP`, the time a rank spent in its calls
    (mean over ranks), and `coll_calls.OP`, its calls per rank (mean)."""
    operations = _collective_operations()
    seconds: Dict[str, float] = {}
    calls: Dict[str, int] = {}
    with open(timeline_csv) as stream:
        for row in csv.DictReader(line for line in stream if not line.startswith("#")):
            operation = row["operation"]
            if operation in operations:
                seconds[operation] = seconds.get(operation, 0.0) + float(row["duration"])
                calls[operation] = calls.get(operation, 0) + 1
    out: Dict[str, float] = {}
    for operation in sorted(seconds):
        out[f"coll_time.{operation}"] = seconds[operation] / ranks
        out[f"coll_calls.{operation}"] = calls[operation] / ranks
    return out


# -- the tasks of a campaign, on the client --

def tasks(campaign: campaigns.Campaign) -> List[Dict[str, object]]:
    """One task per run: its inputs (the row's columns) and the keywords of mpisim.replay / mpisim.run."""
    return [_task(campaign, index, run) for index, run in enumerate(campaign.runs)]


def _task(campaign: campaigns.Campaign, index: int, run: Dict[str, object]) -> Dict[str, object]:
    arguments: Dict[str, object] = {}
    params = [(c.split(".", 1)[1], v) for c, v in run.items() if c.startswith("params.") and v is not None]
    coll = {c.split(".", 1)[1]: v for c, v in run.items() if c.startswith("coll.") and v is not None}
    if params:
        arguments["params"] = params
    if coll:
        arguments["coll"] = coll
    for key in ("np", "model", "coll_selector", "placement", "fail", "fail_mtbf", "seed"):
        if run.get(key) is not None:
            arguments[key] = run[key]
    for key in ("hostfile", "params_file"):
        if run.get(key) is not None:
            arguments[key] = campaigns.resolve_path(campaign, str(run[key]))
    arguments["platform"] = campaigns.platform_argument(campaign, str(run["platform"]))
    task = {"run": index, "key": campaigns.run_key(run), "inputs": dict(run), "collect": list(campaign.collect)}
    if run.get("program") is not None:
        task["kind"] = "program"
        arguments["program"] = campaigns.resolve_path(campaign, str(run["program"]))
        arguments["args"] = json.loads(run["args"]) if run.get("args") else []
        if run.get("compute_time") is False:
            arguments["no_compute_time"] = True
        if "np" in arguments:
            arguments["np"] = int(arguments["np"])
    elif run.get("collective") is not None:
        task["kind"] = "collective"
        task["collective_line"] = campaigns.COLLECTIVE_LINES[str(run["collective"])].format(bytes=run.get("bytes"))
    else:
        task["kind"] = "trace"
        arguments["trace"] = campaigns.resolve_path(campaign, str(run["trace"]))
    task["arguments"] = arguments
    return task


# -- results: part files while running, one Parquet file at the end --

class ResultStore:
    """Rows kept as they come: each appended to a journal (one JSON line, written at once, so a crash of the client
    loses only the runs in flight), and at least once a second the rows since the last part written as a Parquet
    part file, after which that journal is removed. At the end the parts are merged into one Parquet file."""

    def __init__(self, output: str, campaign: campaigns.Campaign):
        self.output, self.campaign = output, campaign
        self.parts = output + PARTS_SUFFIX
        self.buffer: List[Dict[str, object]] = []
        self.last_flush = time.monotonic()
        self.journal = None
        self.number = 0

    def start(self, resume: bool) -> None:
        if not resume:
            shutil.rmtree(self.parts, ignore_errors=True)
        os.makedirs(self.parts, exist_ok=True)
        numbers = [int(name.split("-")[1].split(".")[0]) for name in os.listdir(self.parts)
                   if name.startswith(("part-", "journal-"))]
        self.number = max(numbers, default=-1) + 1
        self._open_journal()

    def _open_journal(self) -> None:
        self.journal_path = os.path.join(self.parts, f"journal-{self.number:06d}.jsonl")
        self.journal = open(self.journal_path, "a")

    def done_keys(self, retry_failed: bool) -> set:
        rows = read_rows(self.output)
        if rows is None:
            return set()
        if retry_failed:
            rows = rows[rows["status"] == "ok"]
        return set(rows["run_key"])

    def add(self, row: Dict[str, object]) -> None:
        self.journal.write(json.dumps(row) + "\n")
        self.journal.flush()
        self.buffer.append(row)
        if len(self.buffer) == 1:  # a part holds the rows of a second from its first
            self.last_flush = time.monotonic()
        elif time.monotonic() - self.last_flush >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """The rows since the last part as the part of the current journal's number; then a new journal."""
        self.last_flush = time.monotonic()
        if not self.buffer:
            return
        import pandas as pd
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = os.path.join(self.parts, f"part-{self.number:06d}.parquet")
        # every column of every row (pyarrow's from_pylist would keep the first row's only)
        pq.write_table(pa.Table.from_pandas(pd.DataFrame(self.buffer), preserve_index=False), path + ".tmp")
        os.replace(path + ".tmp", path)  # a part is whole or absent
        self.buffer = []
        self.close()
        os.remove(self.journal_path)  # its rows are in the part now
        self.number += 1
        self._open_journal()

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def merge(self):
        """Every row (earlier results, then the parts), the last of each run kept, the rows of runs the campaign
        no longer has dropped; written to the output in run order, the parts removed."""
        frame = read_rows(self.output)
        keys = {campaigns.run_key(run): index for index, run in enumerate(self.campaign.runs)}
        if frame is None:
            frame = _empty_frame(self.campaign)
        stale = ~frame["run_key"].isin(keys)
        if stale.any():
            print(f"mpisim sweep: {int(stale.sum())} rows of runs no longer in the campaign dropped", file=sys.stderr)
            frame = frame[~stale]
        frame = frame.assign(run=frame["run_key"].map(keys)).drop_duplicates("run", keep="last")
        frame = _ordered(frame.sort_values("run", kind="stable").reset_index(drop=True), self.campaign)
        _write_parquet(frame, self.output, self.campaign)
        shutil.rmtree(self.parts, ignore_errors=True)
        return load_sweep(self.output)  # as read back: missing values as Parquet gives them


def read_rows(output: str):
    """The rows of a results file and of its part files (a campaign stopped before merging), or None."""
    import pandas as pd

    frames = []
    if os.path.exists(output):
        frames.append(pd.read_parquet(output))
    parts = output + PARTS_SUFFIX
    if os.path.isdir(parts):
        for name in sorted(os.listdir(parts)):
            if name.endswith(".parquet"):
                frames.append(pd.read_parquet(os.path.join(parts, name)))
            elif name.endswith(".jsonl"):
                frames.append(pd.DataFrame(_journal_rows(os.path.join(parts, name))))
    frames = [f for f in frames if len(f)]
    if not frames:
        return None
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def _journal_rows(path: str) -> List[Dict[str, object]]:
    """The rows of a journal; a last line cut short by a crash is left out."""
    rows = []
    with open(path) as stream:
        for line in stream:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                break
    return rows


OUTPUT_ORDER = ("status", "error", "simulated_time", "actions", "calls", "fingerprint")
HOST_COLUMNS = ("wall_seconds", "task_seconds")  # what the machine adds: the only columns that differ between runs


def _empty_frame(campaign: campaigns.Campaign):
    import pandas as pd

    return pd.DataFrame({c: [] for c in ["run", "run_key", *campaign.columns, "status", "error"]})


def _ordered(frame, campaign: campaigns.Campaign):
    """Columns: run, run_key, the inputs, status and error, the figures, per-rank lists, per-collective, host."""
    first = ["run", "run_key", *campaign.columns, *[c for c in OUTPUT_ORDER if c in frame.columns]]
    ranks = sorted(c for c in frame.columns if c.startswith("rank_"))
    collectives = sorted(c for c in frame.columns if c.startswith("coll_time.") or c.startswith("coll_calls."))
    host = [c for c in HOST_COLUMNS if c in frame.columns]
    rest = [c for c in frame.columns if c not in {*first, *ranks, *collectives, *host}]
    for column in first:
        if column not in frame.columns:
            frame[column] = None
    return frame[first + rest + ranks + collectives + host]


def _write_parquet(frame, output: str, campaign: campaigns.Campaign) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mpisim import __version__

    table = pa.Table.from_pandas(frame, preserve_index=False)
    provenance = {"mpisim_version": __version__, "campaign": os.path.abspath(campaign.path),
                  "campaign_text": campaign.text, "collect": campaign.collect}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"mpisim": json.dumps(provenance).encode()})
    folder = os.path.dirname(os.path.abspath(output))
    os.makedirs(folder, exist_ok=True)
    pq.write_table(table, output + ".tmp")
    os.replace(output + ".tmp", output)


# -- progress on stderr --

class Progress:
    """`sweep NAME: D/T done, F failed, R running, ETA ...` on stderr: redrawn in place on a terminal, otherwise a
    line every 10 % and at the end."""

    def __init__(self, name: str, total: int, already: int, stream=sys.stderr):
        self.name, self.total, self.already, self.stream = name, total, already, stream
        self.done = self.failed = 0
        self.start = time.monotonic()
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.shown_step = -1
        self.last_draw = 0.0

    def update(self, running: int, finished_row: Optional[Dict[str, object]] = None, final: bool = False) -> None:
        if finished_row is not None:
            self.done += 1
            self.failed += finished_row["status"] != "ok"
        todo = self.total - self.already
        step = int(10 * self.done / todo) if todo else 10
        now = time.monotonic()
        if self.tty:
            if not final and now - self.last_draw < 0.2 and self.done != todo:
                return
        elif not final and step == self.shown_step:
            return
        self.shown_step, self.last_draw = step, now
        elapsed = now - self.start
        remaining = todo - self.done
        eta = _duration(elapsed / self.done * remaining) if self.done and remaining else "-"
        line = (f"sweep {self.name}: {self.already + self.done}/{self.total} done, {self.failed} failed, "
                f"{running} running, ETA {eta}, elapsed {_duration(elapsed)}")
        self.stream.write(line.ljust(100) + ("\r" if self.tty and not final else "\n"))
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(math.ceil(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


# -- Dask --

def _client(campaign: campaigns.Campaign, scheduler: Optional[str], workers: Optional[int]):
    """A Dask client: the scheduler given, else a jobqueue cluster the campaign describes, else a local cluster of
    one single-threaded worker process per core (or `workers`)."""
    import dask
    from distributed import Client, LocalCluster

    scheduler = scheduler or campaign.cluster.get("scheduler")
    if scheduler:
        return Client(scheduler), None
    workers = workers or campaign.cluster.get("workers")
    jobqueue = campaign.cluster.get("jobqueue")
    if jobqueue:
        cluster = _jobqueue_cluster(dict(jobqueue), workers)
        return Client(cluster), cluster
    # A worker killed by a run (a crash of the native core, memory exhausted) costs that run only: no retry of it
    # (which would kill more workers), and no run waiting on that worker behind it (each worker holds as many runs
    # as it has threads), which Dask would count as suspect too.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0, "distributed.scheduler.worker-saturation": 1.0}):
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
    return Client(cluster), cluster


def _jobqueue_cluster(options: Dict[str, object], workers: Optional[int], scale: bool = True):
    """SLURMCluster or PBSCluster (dask-jobqueue, imported only here) with the campaign's options, one
    single-threaded worker process per core of a job unless `processes` says otherwise, scaled to `jobs` jobs
    (default: `workers`, else 1)."""
    kind = options.pop("kind")
    jobs = int(options.pop("jobs", workers or 1))
    try:
        import dask_jobqueue
    except ImportError:
        raise ValueError("cluster.jobqueue needs dask-jobqueue: pip install 'mpisim[jobqueue]'") from None
    cluster_class = {"slurm": dask_jobqueue.SLURMCluster, "pbs": dask_jobqueue.PBSCluster}[kind]
    if "cores" in options:
        options.setdefault("processes", options["cores"])
    try:
        cluster = cluster_class(**options)
    except (TypeError, ValueError) as error:
        raise ValueError(f"cluster.jobqueue: {cluster_class.__name__}: {error}") from None
    if scale:
        cluster.scale(jobs=jobs)
    return cluster


def job_script(campaign: campaigns.Campaign) -> Optional[str]:
    """The batch script of the campaign's jobqueue cluster (what each job runs), or None without one."""
    jobqueue = campaign.cluster.get("jobqueue")
    if not jobqueue:
        return None
    cluster = _jobqueue_cluster(dict(jobqueue), None, scale=False)
    try:
        return cluster.job_script()
    finally:
        cluster.close()


def _threads(client) -> int:
    threads = sum(client.nthreads().values())
    return max(threads, 1)


def execute(campaign: campaigns.Campaign, output: str, scheduler: Optional[str] = None,
            workers: Optional[int] = None, resume: bool = False, retry_failed: bool = False,
            progress: bool = True):
    """Run the campaign's runs not yet in `output` (with `resume`) and return every row as a DataFrame."""
    store = ResultStore(output, campaign)
    done = store.done_keys(retry_failed) if resume else set()
    if not resume and os.path.exists(output):
        os.remove(output)
    store.start(resume)
    pending = [t for t in tasks(campaign) if t["key"] not in done]
    shown = Progress(campaign.name, len(campaign.runs), len(campaign.runs) - len(pending)) if progress else None
    try:
        if pending:
            _run_on_dask(campaign, pending, store, shown, scheduler, workers)
        elif shown:
            shown.update(0, final=True)
    finally:
        store.flush()
        store.close()
    return store.merge()


def _run_on_dask(campaign, pending: Sequence[Dict[str, object]], store: ResultStore, shown: Optional[Progress],
                 scheduler: Optional[str], workers: Optional[int]) -> None:
    from distributed import as_completed

    client, cluster = _client(campaign, scheduler, workers)
    try:
        threads = _threads(client)
        window = 4 * threads + 8  # enough queued to keep every worker busy, few enough for a huge campaign
        waiting = iter(pending)
        by_key: Dict[str, Dict[str, object]] = {}

        def submit(tasks_now: List[Dict[str, object]]) -> list:
            keys = [f"mpisim-run-{t['run']}-{t['key']}" for t in tasks_now]
            by_key.update(zip(keys, tasks_now))
            return client.map(run_task, tasks_now, key=keys, pure=False)

        # The first window in one graph: Dask then sees a large group of independent tasks and queues them on the
        # scheduler, handing each worker only what it runs (a worker lost takes no queued run with it).
        queue = as_completed(submit([t for _, t in zip(range(window), waiting)]))
        for future in queue:
            task = by_key.pop(future.key)
            try:
                row = future.result()
            except Exception as error:  # noqa: BLE001 (a worker lost while running it: that run failed)
                row = {"run": task["run"], "run_key": task["key"], **task["inputs"], "status": "failed",
                       "error": _lost_run_message(error)}
            future.release()
            store.add(row)
            queue.update(submit([t for _, t in zip(range(1), waiting)]))
            if shown:
                shown.update(min(len(by_key), threads), row, final=not by_key)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _lost_run_message(error: Exception) -> str:
    if type(error).__name__ == "KilledWorker":
        return ("KilledWorker: the worker process died while running it (a crash of the simulator, or memory "
                "exhausted)")
    return f"{type(error).__name__}: {error}".strip()


# -- the Python API --

def sweep(campaign: str, output: Optional[str] = None, scheduler: Optional[str] = None,
          workers: Optional[int] = None, resume: bool = False, retry_failed: bool = False,
          overrides: Optional[Dict[str, object]] = None, progress: bool = False):
    """Run every combination of a campaign file (docs/sweep.md) on Dask and return the results as a pandas
    DataFrame, one row per run in run order: the inputs, `status`/`error`, `simulated_time`, `actions` (replay) or
    `calls` (programs), `fingerprint`, per-rank lists `rank_*` (collect: ranks), `coll_time.OP`/`coll_calls.OP`
    (collect: collectives), `wall_seconds`. `output`: the Parquet file (default: a temporary one, removed);
    `overrides`: top-level keys replaced before parsing ({"np": [4]}). A bad campaign raises CampaignError (a
    ValueError) `FILE:LINE: what is wrong` before any run."""
    parsed = campaigns.load(campaign, overrides)
    if output is not None:
        return execute(parsed, output, scheduler, workers, resume, retry_failed, progress)
    with tempfile.TemporaryDirectory(prefix="mpisim-sweep-") as folder:
        return execute(parsed, os.path.join(folder, "results.parquet"), scheduler, workers, False, False, progress)


def load_sweep(path: str):
    """The rows of a results file of `mpisim sweep` (with those of its part files, if a campaign stopped before
    writing it) as a pandas DataFrame in run order; its provenance (mpisim version, campaign text) in `.attrs`."""
    rows = read_rows(path)
    if rows is None:
        raise ValueError(f"{path}: no results (neither the file nor its part files exist)")
    rows = rows.drop_duplicates("run", keep="last").sort_values("run", kind="stable").reset_index(drop=True)
    if os.path.exists(path):
        import pyarrow.parquet as pq

        metadata = pq.read_schema(path).metadata or {}
        if b"mpisim" in metadata:
            rows.attrs["mpisim"] = json.loads(metadata[b"mpisim"])
    return rows
