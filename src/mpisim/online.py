"""Online simulation of unmodified MPI programs: `mpisim cc`, `mpisim cxx`, `mpisim fc` and `mpisim run`
(docs/online.md).

The compiler wrappers build the application as a position-independent shared object against mpisim's own `mpi.h`
and `libmpisim-mpi.so`; `mpisim run` hands it to the native runner `mpisim-run`, which loads one private copy per
rank and runs every rank as a fiber of one process, in simulated time. The native pieces are installed with the
package (`mpisim/_online/`), or found in the build tree of a source checkout.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

RUNNER = "mpisim-run"
LIBRARY = "libmpisim-mpi.so"

# Options that make the compiler stop before linking: no shared object, no MPI library.
_NO_LINK_OPTIONS = {"-c", "-E", "-S", "-M", "-MM"}

# The runner maps one copy of the shared object per rank, so each of its segments costs a memory mapping (Linux
# allows 65 530 per process by default) and at least one resident page per rank. Headers, read-only data and code in
# one segment, and no separate read-only-after-relocation segment, make two segments instead of five: 8 KiB instead of
# 16 KiB per rank for a small program, and four mappings fewer (hardening against GOT overwrites does not matter for
# a program running in a simulator).
_LINK_OPTIONS = ["-Wl,-z,noseparate-code", "-Wl,-z,norelro"]


def native_dir() -> Path:
    """Where mpisim-run, libmpisim-mpi.so and include/mpi.h are."""
    package = Path(__file__).resolve().parent
    candidates = []
    if os.environ.get("MPISIM_ONLINE_DIR"):
        candidates.append(Path(os.environ["MPISIM_ONLINE_DIR"]))
    # Installed package; source checkout built by cmake (build/) or by pip's build tree (build/python/).
    candidates += [package / "_online", package.parents[1] / "build" / "src" / "online",
                   package.parents[1] / "build" / "python" / "src" / "online"]
    for candidate in candidates:
        if (candidate / RUNNER).exists() and (candidate / LIBRARY).exists():
            return candidate
    raise FileNotFoundError("mpisim's online runtime is not built: none of "
                            + ", ".join(str(c) for c in candidates) + f" holds {RUNNER} and {LIBRARY}")


# The compiler of each language: the environment variable that overrides it, and its default.
COMPILERS = {"cc": ("MPISIM_CC", "gcc"), "cxx": ("MPISIM_CXX", "g++"), "fc": ("MPISIM_FC", "gfortran")}
# `mpisim f77` and `mpisim f90` are `mpisim fc` (as mpif77 and mpif90 are mpifort).
LANGUAGE_OF_COMMAND = {"cc": "cc", "cxx": "cxx", "fc": "fc", "f77": "fc", "f90": "fc"}


def compiler_command(arguments: List[str], language: str) -> List[str]:
    """The real compiler's command line for `mpisim cc/cxx/fc ARGUMENTS`. The include directory holds mpi.h, and for
    Fortran mpif.h and the mpi module (gfortran looks for .mod files along -I)."""
    native = native_dir()
    variable, default = COMPILERS[language]
    compiler = os.environ.get(variable, default)
    command = shlex.split(compiler) + [f"-I{native / 'include'}", "-fPIC"]
    if language == "fc" and Path(shlex.split(compiler)[0]).name.startswith("gfortran"):
        # mpif.h declares no interfaces: a choice buffer is any type, which gfortran 10 and later refuse between two
        # calls of one file unless told (MPICH's mpifort adds this flag too)
        command.append("-fallow-argument-mismatch")
    if _NO_LINK_OPTIONS.intersection(arguments):
        return command + arguments
    # Linked as a shared object the runner loads once per rank; main stays exported. -Bsymbolic: the program's own
    # globals and functions are the ones its code uses, as in an executable, even where the C library (already
    # loaded) has a symbol of that name (MPICH's test suite has a global `int err`; err() is in libc).
    # --no-undefined makes a call to an MPI function mpisim lacks a link error ("undefined reference to
    # `MPI_Win_create'"), as with a real mpicc.
    return (command + ["-shared", "-Wl,-Bsymbolic"] + arguments + _LINK_OPTIONS
            + [f"-L{native}", "-lmpisim-mpi", f"-Wl,-rpath,{native}", "-Wl,--no-undefined"])


def compile_main(arguments: List[str], language: str) -> int:
    if "-show" in arguments:  # as mpicc -show
        print(shlex.join(compiler_command([a for a in arguments if a != "-show"], language)))
        return 0
    return subprocess.call(compiler_command(arguments, language))


def run_main(arguments: List[str]) -> int:
    """Runs mpisim-run with the arguments; its output passes through; its exit status is returned (128 + signal
    when it is killed)."""
    status = subprocess.call([str(native_dir() / RUNNER)] + arguments)
    return 128 - status if status < 0 else status


def dispatch(argv: List[str]) -> Optional[int]:
    """Runs `cc`, `cxx`, `fc` (`f77`, `f90`) and `run` (whose arguments belong to the compiler or the runner, not to
    argparse); None for any other command."""
    if not argv:
        return None
    command, rest = argv[0], argv[1:]
    if command != "run" and command not in LANGUAGE_OF_COMMAND:
        return None
    try:
        return run_main(rest) if command == "run" else compile_main(rest, LANGUAGE_OF_COMMAND[command])
    except FileNotFoundError as error:  # the native runtime, or the compiler, is missing
        print(f"mpisim {command}: {error}", file=sys.stderr)
        return 2


def add_online_commands(sub) -> None:
    """Listed in `mpisim --help`; their arguments are parsed by the compiler and by mpisim-run."""
    sub.add_parser("cc", help="compile an MPI C program for `mpisim run` (arguments as gcc's)", add_help=False)
    sub.add_parser("cxx", help="compile an MPI C++ program for `mpisim run` (arguments as g++'s)", add_help=False)
    sub.add_parser("fc", help="compile an MPI Fortran program for `mpisim run` (arguments as gfortran's; aliases: "
                   "f77, f90)", add_help=False)
    sub.add_parser("f77", help="same as fc", add_help=False)
    sub.add_parser("f90", help="same as fc", add_help=False)
    sub.add_parser("run", help="simulate an MPI program built by `mpisim cc`: run -np N --platform P ./app ARGS",
                   add_help=False)


if __name__ == "__main__":
    sys.exit(dispatch(sys.argv[1:]) or 0)
