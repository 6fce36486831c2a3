#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into OUT/<target>/ from the repository's own inputs: the traces of
data/, the platforms of platforms/, examples/ and tests/cpp/data/, the specs quoted in docs/platforms.md, the model
parameters of docs/model-parameters.md, plus a line of every trace action. Seeds are made, not committed: the
sources stay where they are. Usage: make_corpus.py OUT"""

import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEPARATOR = "\n%%\n"  # between the files of one input (FuzzInput.hpp, split_files)
HEAD_LINES = 40  # of each trace file: enough for every action it has near its start, small enough to mutate fast
TRACE_LINE_WORLD = 16  # trace_line.cpp's kWorldSize: the length of v-collective arrays


def trace_lines_of_every_action():
    """One line per action of replay/ActionParser.cpp's table, in a trace of TRACE_LINE_WORLD ranks."""
    counts = " ".join(str(i + 1) for i in range(TRACE_LINE_WORLD))
    displs = " ".join(str(i * 4) for i in range(TRACE_LINE_WORLD))
    return [
        "0 init", "0 init 1", "0 finalize", "0 compute 1e6", "0 sleep 0.5", "0 send 1 7 1024", "0 isend 1 7 1024 0",
        "0 recv 1 7 1024", "0 irecv 1 7 -1 6", "0 sendRecv 10 1 20 2 6 0", "0 test 0 1 7", "0 wait 1 0 7",
        "0 waitall", "0 waitall 3", "0 barrier", "0 bcast 100 3 0", "0 reduce 100 1e3 2 0", "0 allreduce 10 5 0",
        "0 alltoall 8 8 6 6", f"0 alltoallv 136 {counts} 136 {counts} 0 0", "0 gather 4 4 1 6 6",
        f"0 gatherv 4 {counts} 0 6 6", "0 scatter 4 4 0", f"0 scatterv {counts} 4 2 0 0", "0 allgather 3 3 0 0",
        f"0 allgatherv 4 {counts} 0 0 {displs}", f"0 reducescatter {counts} 100 0", "0 scan 5 1 0", "0 exscan 5 1",
        "0 comm_size 16", "0 comm_split", "0 comm_dup", "0 location main.c 42",
    ]


def write(folder, name, content):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(content.encode() if isinstance(content, str) else content)


def head(path, lines=HEAD_LINES):
    with open(path, encoding="utf-8", errors="replace") as text:
        return "".join(line for _, line in zip(range(lines), text))


def trace_indexes():
    """Each trace set of data/ and examples/: (name, [its per-rank files]) for sets of up to 16 ranks."""
    for index in sorted([*ROOT.glob("data/traces/**/*.txt"), *ROOT.glob("examples/*/index.txt")]):
        if "_files" in index.parts[-2] or index.parent.name == "ti":
            continue
        listed = [line.strip() for line in index.read_text().splitlines() if line.strip()]
        files = [index.parent / entry for entry in listed]
        if 1 < len(files) <= 16 and all(f.is_file() for f in files):
            yield index.stem, files


def trace_line_seeds(out):
    for number, line in enumerate(trace_lines_of_every_action()):
        write(out / "trace_line", f"action-{number:02d}", line)
    seen = set()
    for _, files in trace_indexes():
        for line in head(files[0]).splitlines():
            action = line.split()[1] if len(line.split()) > 1 else ""
            if action not in seen:
                seen.add(action)
                write(out / "trace_line", f"data-{action}", line.replace(line.split()[0], "0", 1))


def trace_set_seeds(out):
    for name, files in trace_indexes():
        index = "\n".join(f"r{rank}" for rank in range(len(files))) + "\n"
        parts = [index] + [head(f) for f in files]
        write(out / "trace_set", f"{name}-index", SEPARATOR.join(parts))
        shared = "".join(head(f, 10) for f in files)  # one file holding every rank: a shared trace
        write(out / "trace_set", f"{name}-shared", shared)
        write(out / "trace_set", f"{name}-shared-index", "r0\n" + SEPARATOR + shared)


def platform_xml_seeds(out):
    for pattern in ("platforms/*.xml", "examples/*/*.xml", "tests/cpp/data/platforms/*.xml"):
        for path in sorted(ROOT.glob(pattern)):
            write(out / "platform_xml", f"{path.parent.name}-{path.name}", path.read_bytes())


def platform_spec_seeds(out):
    kinds = "cluster|torus|fattree|dragonfly"
    specs = set(re.findall(rf"\b(?:{kinds}):[^\s`'\"|)]+", (ROOT / "docs/platforms.md").read_text()))
    for number, spec in enumerate(sorted(specs)):
        write(out / "platform_spec", f"doc-{number:02d}", spec.rstrip(".,"))


def model_parameter_seeds(out):
    """A parameter file per model table of docs/model-parameters.md (every parameter at its default, under its name
    and under its SimGrid names), and the same as --param arguments."""
    rows = re.findall(r"^\| `([^`]+)` \|[^|]*\|[^|]*\| `([^`]*)` \|[^|]*\|([^|]*)\|", (ROOT / "docs/model-parameters.md")
                      .read_text(), re.MULTILINE)
    by_name = [f"{name} = {default}" for name, default, _ in rows]
    by_alias = [f"{alias} = {default}" for _, default, aliases in rows for alias in re.findall(r"`([^`]+)`", aliases)]
    write(out / "model_parameters", "defaults", "\n".join(by_name) + "\n")
    write(out / "model_parameters", "simgrid-names", "# SimGrid's names\n" + "\n".join(by_alias) + "\n")
    arguments = "\n".join(line.replace(" = ", "=") for line in by_name[:8])
    write(out / "model_parameters", "param-arguments", SEPARATOR.lstrip("\n") + arguments)


def otf2_archive_seeds(out):
    """The archives tests/python/otf2/write_fixture.c writes through the OTF2 writer API (each variant), as
    otf2_archive.cpp takes them (its anchor file is the plain variant's): global definitions, then each location's
    events and local definitions. None when the compiler or the OTF2 headers are missing."""
    if shutil.which("cc") is None or shutil.which("pkg-config") is None:
        return
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "otf2"], capture_output=True, text=True)
    if flags.returncode != 0:
        return
    with tempfile.TemporaryDirectory() as scratch:
        program = pathlib.Path(scratch) / "write_fixture"
        subprocess.run(["cc", "-O1", "-o", str(program), str(ROOT / "tests/python/otf2/write_fixture.c"),
                        *flags.stdout.split(), "-lm"], check=True)
        for variant in ("plain", "communicators", "no-regions", "rma"):
            folder = pathlib.Path(scratch) / variant
            folder.mkdir()
            subprocess.run([str(program), str(folder), "trace", "1e9"] + ([] if variant == "plain" else [variant]),
                           check=True)
            parts = [(folder / "trace.def").read_bytes()]
            for location in range(4):
                parts += [(folder / "trace" / f"{location}.evt").read_bytes(),
                          (folder / "trace" / f"{location}.def").read_bytes()]
            write(out / "otf2_archive", variant, SEPARATOR.encode().join(parts))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    trace_line_seeds(out)
    trace_set_seeds(out)
    platform_xml_seeds(out)
    platform_spec_seeds(out)
    model_parameter_seeds(out)
    otf2_archive_seeds(out)
    for target in sorted(p for p in out.iterdir() if p.is_dir()):
        print(f"{target.name}: {sum(1 for _ in target.iterdir())} seeds")


if __name__ == "__main__":
    main()
