#!/usr/bin/env python3
"""Bit-identity of two builds: replays replay_bench.py's stencil traces with two `mpisim` commands (main's build and a
branch's) under each model, and compares their `--json` outputs minus the wall time (`host.wall_seconds`): the
documents, their texts line for line, and the engine fingerprints (reported apart: a change of the same-date order may
change it alone). Exit status 1 when a document or text differs.

    .venv/bin/python bench/same_results.py --base /path/to/main/.venv/bin/mpisim [--ranks 64,1024,16384]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay_bench  # noqa: E402  (the bench's trace, platform and hostfile writers)

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def replay_json(mpisim: str, folder: str, model: str) -> str:
    return subprocess.run([mpisim, "replay", "index.txt", "--platform", "../cluster.xml", "--hostfile", "../hosts.txt",
                           "--json", "--model", model], cwd=os.path.join(folder, "trace"), capture_output=True,
                          text=True, check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="mpisim command of the reference build (main's)")
    parser.add_argument("--branch", default=os.path.join(PROJECT_ROOT, ".venv", "bin", "mpisim"))
    parser.add_argument("--ranks", default="64,1024,16384")
    parser.add_argument("--models", default="xsim,smpi")
    parser.add_argument("--workdir", help="folder for the traces (default: a temporary one)")
    args = parser.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="same_results_")
    identical = True
    for ranks in (int(r) for r in args.ranks.split(",")):
        folder = os.path.join(workdir, f"n{ranks}")
        app = replay_bench.Stencil(iterations=replay_bench.DEFAULT_ITERATIONS.get(ranks, max(3, 40000 // ranks)))
        replay_bench.write_stencil_trace(os.path.join(folder, "trace"), ranks, app)
        replay_bench.write_platform(os.path.join(folder, "cluster.xml"), ranks)
        replay_bench.write_hostfile(os.path.join(folder, "hosts.txt"), ranks)
        for model in args.models.split(","):
            texts = [replay_json(mpisim, folder, model) for mpisim in (args.base, args.branch)]
            documents = [json.loads(text) for text in texts]
            for document in documents:
                document["host"].pop("wall_seconds", None)
            lines = [[line for line in text.splitlines() if '"wall_seconds"' not in line] for text in texts]
            same_document, same_text = documents[0] == documents[1], lines[0] == lines[1]
            same_fingerprint = documents[0]["fingerprint"] == documents[1]["fingerprint"]
            print(f"{ranks:>7} {model:>6}: document {'same' if same_document else 'DIFFERS'}, text "
                  f"{'same' if same_text else 'DIFFERS'}, fingerprint {'same' if same_fingerprint else 'differs'}, "
                  f"simulated time {documents[1]['simulated_time']!r}", flush=True)
            identical = identical and same_document and same_text
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
