"""mpisim sweep: campaign files (ranges, cases, errors before any run), runs on a local Dask cluster of 2 worker
processes, rows equal to direct mpisim.replay calls, a failed run as a row, --resume, plots, the examples."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import repo_path

pytest.importorskip("dask.distributed")
pytest.importorskip("pyarrow")
pytest.importorskip("yaml")

import mpisim  # noqa: E402
from mpisim import campaign as campaigns  # noqa: E402

LU4 = repo_path("data", "traces", "npb", "lu.S.4.txt")
IS4 = repo_path("data", "traces", "npb", "is.S.4.txt")
HOST_COLUMNS = ["wall_seconds", "task_seconds"]


def write(tmp_path, text: str, name: str = "campaign.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def sweep_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mpisim", "sweep", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


# -- parsing --

def test_braces_expand_as_a_shell_does():
    assert campaigns.expand_braces("torus:{4,8,16}x8x8") == ["torus:4x8x8", "torus:8x8x8", "torus:16x8x8"]
    assert campaigns.expand_braces("{1..4}") == ["1", "2", "3", "4"]
    assert campaigns.expand_braces("{2..10..4}") == ["2", "6", "10"]
    assert campaigns.expand_braces("a{1,2}b{x,y}") == ["a1bx", "a1by", "a2bx", "a2by"]
    assert campaigns.expand_braces("fattree:2;4,4;1,{1,2};1,1") == ["fattree:2;4,4;1,1;1,1", "fattree:2;4,4;1,2;1,1"]
    for empty in ("{}", "x{4..1}", "{a,}"):
        with pytest.raises(ValueError, match="empty"):
            campaigns.expand_braces(empty)


def test_every_combination_in_file_order_the_last_key_fastest(tmp_path):
    path = write(tmp_path, f"""\
        trace: {LU4}
        platform: "torus:{{2,4}}x2x1"
        model: [smpi, fluid]
        cases:
          - {{seed: 1}}
          - {{coll: {{allreduce: [rdb, lr]}}, params: {{send-is-detached-thresh: 1KiB}}}}
        """)
    parsed = campaigns.load(path)
    assert len(parsed.runs) == 2 * 2 * 3
    assert parsed.columns == ["trace", "platform", "model", "seed", "params.send-is-detached-thresh", "coll.allreduce"]
    first = parsed.runs[:3]
    assert [(r["platform"], r["model"], r["seed"], r["coll.allreduce"]) for r in first] == [
        ("torus:2x2x1", "smpi", 1, None), ("torus:2x2x1", "smpi", None, "rdb"), ("torus:2x2x1", "smpi", None, "lr")]
    assert parsed.runs[3]["model"] == "fluid" and parsed.runs[6]["platform"] == "torus:4x2x1"
    assert parsed.runs[1]["params.send-is-detached-thresh"] == "1KiB"


@pytest.mark.parametrize("body, message", [
    ("trace: {lu}\nplatform: cluster:4\nmodels: [smpi]\n", ":3: unknown key 'models'"),
    ("trace: {lu}\nplatform: cluster:4\nnp: []\n", ":3: np: empty list"),
    ("trace: {lu}\nplatform: 'torus:{{}}x2'\n", ":2: platform: 'torus:{}x2': empty choice"),
    ("trace: {lu}\nplatform: 'torus:{{4..2}}x2'\n", ":2: platform: 'torus:{4..2}x2': empty range"),
    ("trace: {lu}\nplatform: [cluster:4, 'torus:4xQ']\n", ":2: platform 'torus:4xQ': "),
    ("trace: {lu}\nplatform: cluster:4\nmodel: [smpi, fast]\n", ":3: model: unknown 'fast'"),
    ("trace: {lu}\nplatform: cluster:4\ncoll: {{alltoall: quick}}\n", ":3: coll: no algorithm 'quick' for 'alltoall'"),
    ("trace: {lu}\nplatform: cluster:4\nmodel: fluid\nparams: {{bw-factor: '0:1'}}\n",
     ":4: params: model 'fluid' has no parameter 'bw-factor'"),
    ("trace: {lu}\nplatform: cluster:4\nnp: four\n", ":3: np: bad value 'four'"),
    ("trace: missing.txt\nplatform: cluster:4\n", ":1: trace: missing.txt: no such file"),
    ("platform: cluster:4\n", ": give exactly one of trace, program, collective per run (what it simulates): run 0 "
                             "has none"),
    ("trace: {lu}\nplatform: cluster:4\ncases: [{{np: 2}}, {{collective: barrier, np: 2}}]\n",
     ": give exactly one of trace, program, collective per run (what it simulates): run 1 has trace and collective"),
    ("trace: {lu}\nplatform: cluster:4\nnp: 4.5\n", ":3: np: bad value 4.5"),
    ("trace: {lu}\nplatform: cluster:4\ncluster: {{workers: 0}}\n", ":3: cluster.workers: a whole number >= 1"),
    ("trace: {lu}\nplatform: cluster:4\ncollect: [time]\n", ":3: collect: unknown 'time'"),
    ("trace: {lu}\nplatform: [cluster:4\n", ":3: not valid YAML"),
])
def test_a_bad_campaign_is_one_line_naming_file_and_line_exit_2_before_any_run(tmp_path, body, message):
    path = write(tmp_path, body.format(lu=LU4))
    output = tmp_path / "out.parquet"
    done = sweep_cli(path, "-o", str(output))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"mpisim: {path}{message}"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not output.exists() and not os.path.exists(f"{output}.parts")


# -- running --

SMALL = f"""\
    name: small
    trace: [{LU4}, {IS4}]
    platform: "cluster:{{4,8}}"
    collect: [simulated_time, ranks, collectives]
    cases:
      - {{model: smpi, params: {{bw-factor: "0:0.9"}}}}
      - {{model: fluid}}
    """


def small_campaign(tmp_path, failing: bool = True) -> str:
    text = SMALL.rstrip(" ") + ('      - {model: smpi, fail: "0@0.001"}\n' if failing else "")
    return write(tmp_path, text)


def direct_replay(row):
    kwargs = {"trace": row["trace"], "platform": row["platform"], "model": row["model"]}
    if isinstance(row.get("params.bw-factor"), str):
        kwargs["params"] = [("bw-factor", row["params.bw-factor"])]
    return mpisim.replay(**kwargs)


def test_small_campaign_on_two_workers_rows_equal_direct_replays_and_a_failure_is_a_row(tmp_path):
    path = small_campaign(tmp_path)
    output = tmp_path / "results.parquet"
    done = sweep_cli(path, "-o", str(output), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "12 runs in" in done.stdout and "(4 failed)" in done.stdout
    assert "sweep small: 12/12 done, 4 failed, 0 running" in done.stderr  # the progress line's last state
    rows = mpisim.load_sweep(str(output))
    assert list(rows["run"]) == list(range(12))
    assert rows.attrs["mpisim"]["campaign"] == path
    failed = rows[rows["status"] == "failed"]
    assert list(failed["run"]) == [2, 5, 8, 11]
    assert all(e.startswith("DeadlockError: deadlock at simulated time") and "rank 0 failed at simulated time "
               "0.001" in e for e in failed["error"])
    assert failed["simulated_time"].isna().all()
    for _, row in rows[rows["status"] == "ok"].iterrows():
        expected = direct_replay(row)
        assert row["simulated_time"] == expected.simulated_time
        assert row["fingerprint"] == f"{expected.fingerprint:016x}"
        assert row["actions"] == expected.actions
        assert list(row["rank_wait"]) == [r.wait for r in expected.ranks]
        assert list(row["rank_finish"]) == [r.finish for r in expected.ranks]
    lu = rows[(rows["status"] == "ok") & rows["trace"].str.endswith("lu.S.4.txt")]
    assert (lu["coll_calls.allreduce"] == 10).all()  # LU class S: 10 allreduce per rank (see the trace)
    assert ((lu["coll_time.allreduce"] > 0) & (lu["coll_time.allreduce"] < lu["simulated_time"])).all()


def test_resume_skips_the_rows_done_and_runs_the_rest(tmp_path):
    import pandas as pd

    path = small_campaign(tmp_path)
    output = str(tmp_path / "results.parquet")
    first = mpisim.sweep(path, output, workers=2)
    # A campaign stopped after 5 runs: the rows of runs 0..4 in a part file, no merged file.
    os.makedirs(output + ".parts")
    first[first["run"] < 5].to_parquet(output + ".parts/part-000000.parquet")
    os.remove(output)
    resumed = mpisim.sweep(path, output, workers=2, resume=True)
    assert list(resumed["run"]) == list(range(12)) and not os.path.exists(output + ".parts")
    kept = resumed["run"] < 5
    # the rows kept were not run again (the host's figures of a run are never equal twice), the others were
    pd.testing.assert_frame_equal(resumed[kept][HOST_COLUMNS], first[kept][HOST_COLUMNS])
    assert (resumed[~kept]["task_seconds"] != first[~kept]["task_seconds"]).all()
    # same inputs, same simulated values
    pd.testing.assert_frame_equal(resumed.drop(columns=HOST_COLUMNS), first.drop(columns=HOST_COLUMNS))
    # everything done: nothing runs; --retry-failed runs the 4 failed rows only
    again = mpisim.sweep(path, output, workers=2, resume=True)
    pd.testing.assert_frame_equal(again, resumed)
    retried = mpisim.sweep(path, output, workers=2, resume=True, retry_failed=True)
    changed = retried["task_seconds"] != resumed["task_seconds"]
    assert list(retried[changed]["run"]) == [2, 5, 8, 11]


def test_api_returns_the_dataframe_with_inputs_and_outputs(tmp_path):
    rows = mpisim.sweep(small_campaign(tmp_path, failing=False), workers=2, overrides={"platform": "cluster:4"})
    assert list(rows.columns[:7]) == ["run", "run_key", "trace", "platform", "model", "params.bw-factor", "status"]
    for column in ("error", "simulated_time", "actions", "fingerprint", "rank_compute", "rank_communicate",
                   "rank_wait", "rank_sleep", "rank_finish", "coll_time.allreduce", "coll_calls.bcast",
                   "wall_seconds"):
        assert column in rows.columns, column
    assert len(rows) == 4 and (rows["status"] == "ok").all()
    assert rows["error"].isna().all()
    assert rows.loc[1, "model"] == "fluid"
    assert rows.loc[1, "simulated_time"] == direct_replay(rows.loc[1]).simulated_time


def test_plot_writes_a_png(tmp_path):
    output = str(tmp_path / "results.parquet")
    mpisim.sweep(small_campaign(tmp_path), output, workers=2)
    image = tmp_path / "plot.png"
    done = subprocess.run([sys.executable, "-m", "mpisim", "sweep", "plot", output, "--x", "trace", "--y",
                           "simulated_time", "--hue", "model,params.bw-factor", "--col", "platform", "-o", str(image)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and image.stat().st_size > 10000
    wrong = subprocess.run([sys.executable, "-m", "mpisim", "sweep", "plot", output, "--x", "ranks", "-o",
                            str(image)], capture_output=True, text=True, timeout=300)
    assert wrong.returncode == 2 and wrong.stderr.startswith("mpisim: sweep plot: no column 'ranks'")


# -- the examples --

def test_example_alltoall_selection_parses_and_a_reduced_version_runs(tmp_path):
    folder = repo_path("examples", "sweeps")
    dry = sweep_cli("alltoall-selection.yaml", "-o", str(tmp_path / "a.parquet"), "--dry-run", cwd=folder)
    assert dry.returncode == 0 and "700 runs" in dry.stdout, dry.stderr
    rows = mpisim.sweep(os.path.join(folder, "alltoall-selection.yaml"), workers=2,
                        overrides={"np": [2, 32], "bytes": "256KiB"})
    assert len(rows) == 20 and (rows["status"] == "ok").all()
    at32 = rows[rows["np"] == 32].set_index(rows[rows["np"] == 32]["coll.alltoall"].fillna(
        rows[rows["np"] == 32]["coll_selector"]))["simulated_time"]
    # The paper's finding on graphene (section 7.5): 2dmesh, 3dmesh and rdb are far slower than basic_linear
    for slow in ("2dmesh", "3dmesh", "rdb"):
        assert at32[slow] > 5 * at32["basic_linear"], at32.to_dict()
    # ... and the libraries' choices are near the fastest forced algorithm
    fastest = at32[["2dmesh", "3dmesh", "rdb", "ring", "basic_linear", "bruck"]].min()
    for library in ("impi", "mpich", "mvapich2", "ompi"):
        assert fastest <= at32[library] < 1.5 * fastest, at32.to_dict()
    # a one-call trace: the run is the call
    assert (rows["coll_calls.alltoall"] == 1).all()


def readme_table(folder: str) -> list:
    """The rows of the table in the example's README (between ``` lines after "Simulated times")."""
    with open(os.path.join(folder, "README.md")) as stream:
        text = stream.read().split("Simulated times", 1)[1]
    return [line.split() for line in text.split("```\n")[1].splitlines()[1:]]


def test_example_lu_network_whatif_gives_the_table_of_its_readme(tmp_path):
    folder = repo_path("examples", "sweeps")
    dry = sweep_cli("lu-network-whatif.yaml", "-o", str(tmp_path / "lu.parquet"), "--dry-run", cwd=folder)
    assert dry.returncode == 0 and "12 runs" in dry.stdout, dry.stderr
    output = str(tmp_path / "lu.parquet")
    done = sweep_cli("lu-network-whatif.yaml", "-o", output, "--workers", "2", cwd=folder)
    assert done.returncode == 0 and "12 runs in" in done.stdout and "(0 failed)" in done.stdout, done.stderr
    rows = mpisim.load_sweep(output)
    table = [[str(r["run"]), r["model"], r["tags.oversubscription"], r["tags.link"], f"{r['simulated_time']:.6f}"]
             for _, r in rows.iterrows()]
    assert table == readme_table(folder)
    rows = rows[rows["model"] == "smpi"]
    times = {(r["tags.link"], int(r["tags.oversubscription"])): r["simulated_time"] for _, r in rows.iterrows()}
    for link in ("1Gbps", "10Gbps"):  # fewer uplinks, more contention: never faster
        assert times[(link, 1)] <= times[(link, 2)] <= times[(link, 4)], times
    for ratio in (1, 2, 4):
        assert times[("10Gbps", ratio)] < times[("1Gbps", ratio)], times


def test_a_killed_campaign_loses_only_the_runs_in_flight_and_resume_completes_it(tmp_path):
    import signal
    import time

    path = write(tmp_path, f"""\
        name: killed
        trace: {LU4}
        platform: "cluster:{{4..43}}"
        """)
    output = str(tmp_path / "results.parquet")
    from mpisim.sweeps import read_rows

    # Killed workers cannot remove their runs' temporary folders: keep them in tmp_path rather than in /tmp.
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    client = subprocess.Popen([sys.executable, "-m", "mpisim", "sweep", path, "-o", output, "--workers", "2", "-q"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                              env={**os.environ, "TMPDIR": str(scratch)})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and client.poll() is None:
            on_disk = read_rows(output) if os.path.isdir(output + ".parts") else None
            if on_disk is not None and len(on_disk) >= 3:
                break
            time.sleep(0.02)
    finally:
        os.killpg(client.pid, signal.SIGKILL)  # the client and its local cluster, as a crash would
        client.wait()
    assert not os.path.exists(output), "killed before the end: no merged file"
    kept = read_rows(output)
    assert kept is not None and 3 <= len(kept) < 40, "the finished runs are on disk"
    journal_rows = dict(zip(kept["run"], kept["task_seconds"]))
    done = sweep_cli(path, "-o", output, "--workers", "2", "--resume", "-q")
    assert done.returncode == 0, done.stderr
    rows = mpisim.load_sweep(output)
    assert list(rows["run"]) == list(range(40)) and (rows["status"] == "ok").all()
    for run, seconds in journal_rows.items():  # not run again
        assert rows.loc[run, "task_seconds"] == seconds
    assert rows.loc[39, "platform"] == "cluster:43"


def test_placement_hostfile_failures_and_parameter_files_reach_the_simulator(tmp_path):
    (tmp_path / "hosts.txt").write_text("graphene-40\ngraphene-2\ngraphene-104\ngraphene-3\n")
    (tmp_path / "fast.params").write_text("bw-factor = 0:1\nlat-factor = 0:1\n")
    platform = repo_path("platforms", "graphene.xml")
    path = write(tmp_path, f"""\
        trace: {IS4}
        platform: {platform}
        params_file: [fast.params]
        cases:
          - {{hostfile: hosts.txt}}
          - {{placement: [platform, sorted]}}
          - {{fail_mtbf: 50ms, seed: "{{1..3}}"}}
        """)
    rows = mpisim.sweep(path, workers=2)
    assert len(rows) == 6
    params_file = str(tmp_path / "fast.params")
    calls = [dict(hostfile=str(tmp_path / "hosts.txt")), dict(placement="platform"), dict(placement="sorted"),
             *[dict(fail_mtbf=0.05, seed=seed) for seed in (1, 2, 3)]]
    for (_, row), call in zip(rows.iterrows(), calls):
        try:
            expected = mpisim.replay(IS4, platform=platform, params_file=params_file, **call)
        except mpisim.DeadlockError as error:  # a failure the draw injected: the same row error
            assert row["status"] == "failed" and row["error"] == f"DeadlockError: {error}", (call, row["error"])
            continue
        assert row["status"] == "ok" and row["simulated_time"] == expected.simulated_time, call
    assert rows.loc[1, "simulated_time"] != rows.loc[2, "simulated_time"]  # graphene-1,10,100,101 vs 1,2,3,4
    assert rows.loc[5, "fail_mtbf"] == 0.05 and rows.loc[5, "seed"] == 3


PROGRAM = r"""
#include <mpi.h>
#include <stdlib.h>

/* Broadcasts then allreduces argv[1] bytes; a negative size aborts (a failed run). */
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int bytes = atoi(argv[1]);
  if (bytes < 0)
    MPI_Abort(MPI_COMM_WORLD, 3);
  char *buffer = calloc(bytes > 0 ? bytes : 1, 1);
  MPI_Bcast(buffer, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, buffer, bytes, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  free(buffer);
  MPI_Finalize();
  return 0;
}
"""


def test_programs_run_online_with_their_arguments(tmp_path):
    (tmp_path / "bcast.c").write_text(PROGRAM)
    built = subprocess.run([sys.executable, "-m", "mpisim", "cc", str(tmp_path / "bcast.c"), "-o",
                            str(tmp_path / "bcast")], capture_output=True, text=True, timeout=300)
    if built.returncode != 0:
        pytest.skip(f"mpisim cc unavailable: {built.stderr.strip()[-200:]}")
    path = write(tmp_path, """\
        program: bcast
        args: [["1000"], ["100000"], ["-1"]]
        np: 4
        platform: cluster:4
        compute_time: false
        collect: [simulated_time, ranks, collectives]
        """)
    rows = mpisim.sweep(path, workers=2)
    assert list(rows["args"]) == ['["1000"]', '["100000"]', '["-1"]']
    assert list(rows["status"]) == ["ok", "ok", "failed"]
    assert rows.loc[2, "error"].startswith("SimulationError: rank 0 called MPI_Abort with error code 3")
    for run, size in ((0, "1000"), (1, "100000")):
        expected = mpisim.run(str(tmp_path / "bcast"), [size], np=4, platform="cluster:4", no_compute_time=True)
        assert rows.loc[run, "simulated_time"] == expected.simulated_time
        assert list(rows.loc[run, "rank_mpi"]) == [r.mpi for r in expected.ranks]
        assert rows.loc[run, "calls"] == sum(r.calls for r in expected.ranks)
        assert rows.loc[run, "coll_calls.bcast"] == rows.loc[run, "coll_calls.allreduce"] == 1
    assert rows.loc[1, "coll_time.bcast"] > rows.loc[0, "coll_time.bcast"]


def test_docs_describe_every_key_of_a_campaign():
    with open(repo_path("docs", "sweep.md")) as stream:
        text = stream.read()
    for key in (*campaigns.TOP_KEYS, *campaigns.CLUSTER_KEYS, *campaigns.COLLECT, *campaigns.COLLECTIVE_LINES):
        assert f"`{key}`" in text, key


def test_a_jobqueue_campaign_shows_its_batch_script_or_says_what_it_needs(tmp_path):
    path = write(tmp_path, f"""\
        trace: {LU4}
        platform: cluster:4
        cluster:
          jobqueue: {{kind: slurm, jobs: 3, cores: 8, memory: 16GB, queue: batch, walltime: "01:00:00"}}
        """)
    done = sweep_cli(path, "-o", str(tmp_path / "out.parquet"), "--dry-run")
    try:
        import dask_jobqueue  # noqa: F401
    except ImportError:
        assert done.returncode == 2
        assert done.stderr == "mpisim: cluster.jobqueue needs dask-jobqueue: pip install 'mpisim[jobqueue]'\n"
        return
    assert done.returncode == 0, done.stderr
    for line in ("#SBATCH -p batch", "#SBATCH --cpus-per-task=8", "#SBATCH -t 01:00:00", "--nthreads 1",
                 "--nworkers 8"):
        assert line in done.stdout, done.stdout
    bad = write(tmp_path, f"trace: {LU4}\nplatform: cluster:4\ncluster: {{jobqueue: {{kind: pbs, cpus: 8}}}}\n",
                "bad.yaml")
    done = sweep_cli(bad, "-o", str(tmp_path / "out.parquet"), "--dry-run")
    assert done.returncode == 2 and done.stderr.startswith("mpisim: cluster.jobqueue: PBSCluster: "), done.stderr


def test_an_existing_scheduler_with_multithreaded_workers(tmp_path):
    """--scheduler ADDRESS: the runs go to that cluster; two threads per worker take turns on the native core."""
    from distributed import LocalCluster

    path = small_campaign(tmp_path, failing=False)
    output = str(tmp_path / "results.parquet")
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        done = sweep_cli(path, "-o", output, "--scheduler", cluster.scheduler_address)
    assert done.returncode == 0, done.stderr
    rows = mpisim.load_sweep(output)
    assert len(rows) == 8 and (rows["status"] == "ok").all()
    for _, row in rows.iterrows():
        assert row["simulated_time"] == direct_replay(row).simulated_time


def crash_on_run_1(task):
    """run_task, except that run 1 kills its worker process (as a crash of the native core would)."""
    from mpisim.sweeps import run_task

    if task["run"] == 1:
        os._exit(9)
    return run_task(task)


def test_a_worker_dying_in_a_run_fails_that_run_only(tmp_path, monkeypatch):
    from mpisim import sweeps

    monkeypatch.setattr(sweeps, "run_task", crash_on_run_1)
    rows = mpisim.sweep(small_campaign(tmp_path, failing=False), workers=2)
    assert list(rows["status"]) == ["ok", "failed"] + ["ok"] * 6
    assert rows.loc[1, "error"] == ("KilledWorker: the worker process died while running it (a crash of the "
                                    "simulator, or memory exhausted)")
