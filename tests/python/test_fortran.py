"""Fortran programs online (docs/online.md, "Fortran"): tests/online/fortran77.f (mpif.h), fortran90.f90 (`use mpi`),
fortran_callbacks.f90 (attribute and generalized request callbacks, info strings), fortran_intercomm.f90
(intercommunicators) and fortran2008.f90 (`use mpi_f08`) built by `mpisim fc` print, under both privatization
mechanisms, the same lines as under Open MPI (`mpif90`, `mpirun --oversubscribe`), among them the COMMON, module and
SAVE values each rank must keep its own and values the callbacks compute; a wrong handle is returned as MPI_ERR_COMM
under MPI_ERRORS_RETURN and ends the run with the rank and the call otherwise. Skipped when gfortran is absent."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from test_online import SOURCES, mpisim

PROGRAMS = {"fortran77": "fortran77.f", "fortran90": "fortran90.f90", "fortran_callbacks": "fortran_callbacks.f90",
            "fortran2008": "fortran2008.f90", "fortran_intercomm": "fortran_intercomm.f90"}
BAD_HANDLE = """program bad_handle
  use mpi
  implicit none
  integer :: rank, n, ierr, error_class
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_COMM_SIZE(12345, n, ierr)
  call MPI_ERROR_CLASS(ierr, error_class, ierr)
  print '(A,I2,A,L2)', 'rank', rank, ' MPI_ERR_COMM returned', error_class == MPI_ERR_COMM
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 2) call MPI_SEND(rank, 1, 777, 0, 0, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
end program bad_handle
"""


# MPI_COMM_SPAWN with the sentinels of mpif.h (fixed form) and of mpi_f08: refused with MPI_ERR_SPAWN, MPI_COMM_NULL
SPAWN_F77 = """      PROGRAM SPAWN
      INCLUDE 'mpif.h'
      INTEGER IERR, CHILD, ECLASS
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_COMM_SPAWN('./worker', MPI_ARGV_NULL, 2, MPI_INFO_NULL,
     &     0, MPI_COMM_WORLD, CHILD, MPI_ERRCODES_IGNORE, IERR)
      CALL MPI_ERROR_CLASS(IERR, ECLASS, IERR)
      PRINT *, 'SPAWN', ECLASS .EQ. MPI_ERR_SPAWN, CHILD .EQ. MPI_COMM_NULL
      CALL MPI_FINALIZE(IERR)
      END
"""
SPAWN_F08 = """program spawn
  use mpi_f08
  implicit none
  type(MPI_Comm) :: child
  integer :: ierr, eclass
  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_spawn_multiple(1, ['./worker'], MPI_ARGVS_NULL, [2], [MPI_INFO_NULL], 0, MPI_COMM_WORLD, child, &
                               MPI_ERRCODES_IGNORE, ierr)
  call MPI_Error_class(ierr, eclass)
  print *, 'spawn_multiple', eclass == MPI_ERR_SPAWN, child == MPI_COMM_NULL
  call MPI_Finalize()
end program spawn
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("gfortran") is None:
        pytest.skip("gfortran is not installed")
    out = tmp_path_factory.mktemp("fortran")
    (out / "bad_handle.f90").write_text(BAD_HANDLE)
    (out / "spawn_f77.f").write_text(SPAWN_F77)
    (out / "spawn_f08.f90").write_text(SPAWN_F08)
    sources = {name: os.path.join(SOURCES, source) for name, source in PROGRAMS.items()}
    sources["bad_handle"] = str(out / "bad_handle.f90")
    sources["spawn_f77"] = str(out / "spawn_f77.f")
    sources["spawn_f08"] = str(out / "spawn_f08.f90")
    paths = {}
    for name, source in sources.items():
        paths[name] = str(out / name)
        done = mpisim("fc", "-O1", source, "-J", str(out), "-o", paths[name])  # -J: module files there
        assert done.returncode == 0, done.stderr
    return paths


def run_lines(built, name, mode, np=4):
    done = mpisim("run", "-np", str(np), "--platform", f"cluster:{np}", "--quiet", "--privatization", mode,
                  built[name])
    assert done.returncode == 0, done.stdout + done.stderr
    return sorted(done.stdout.splitlines())


def open_mpi_lines(tmp_path, name, np=4):
    if shutil.which("mpif90") is None or shutil.which("mpirun") is None:
        pytest.skip("no real MPI with Fortran to compare with")
    binary = str(tmp_path / name)
    subprocess.run(["mpif90", "-O1", "-fallow-argument-mismatch", os.path.join(SOURCES, PROGRAMS[name]), "-J",
                    str(tmp_path), "-o", binary], check=True, capture_output=True)
    done = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(np), binary],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return sorted(done.stdout.splitlines())


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_common_and_save_are_each_ranks_own(built, mode):
    # Rank r writes 100 r into a COMMON block and calls a routine with a SAVE counter r + 1 times before a barrier:
    # shared storage would show the last writer's values (and a counter of 10) on every rank.
    lines = run_lines(built, "fortran77", mode)
    for r in range(4):
        assert f"rank {r} common{100 * r:4d} shared{0.5 * r:5.2f} saved{r + 1:2d}" in lines, lines
    assert "gathered  0.00 10.00 20.00 30.00 complex sum  6.00 -6.00" in lines  # 10 r from rank r; sum of r - r i
    assert "rank 1 ring got 0.25 from 0 tag 10 count 1" in lines  # status fields at MPI_SOURCE, MPI_TAG
    assert "rank 3 bottom got 1002" in lines  # MPI_BOTTOM with an absolute address, from rank 3 xor 1
    assert "rank 0 sub rank 1 sub sum 2 congruent T name [parity copy] length 11 padded T" in lines


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_module_variables_and_save_are_each_ranks_own(built, mode):
    lines = run_lines(built, "fortran90", mode)
    for r in range(4):  # r + 1 calls of a function counting in a module variable and a SAVE variable
        assert f"rank {r} ticket{r + 1:3d} calls{r + 1:3d} history{10.0 * r:6.1f}" in lines, lines
    assert "rank 1 probed source 0 tag 42 count 3 sum  7.5" in lines
    assert "rank 0 info found T valuelen 14 value [blue and green] keys 1" in lines
    # gfortran's kinds: real(15,307) 8 bytes (twice), (6,-) 4, complex(15,-) 16, integer(18) 8, (2) 1, real(-,4931) 16
    assert "kinds sizes  8  8  4 16  8  1 16 same handle T envelope 2 0 0 T contents  15 307" in lines
    # 4 x 1.5, 0 + 1 + 2 + 3, 1 + 1/2 + 1/4 + 1/8; 3e9 x (1 + 2 + 3 + 4) beyond a default INTEGER
    assert "kinds sums  6.000  6.000  1.875  30000000000" in lines
    assert "kinds refused p 40, r 39, free T T T" in lines


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_attribute_and_request_callbacks_are_fortran_procedures(built, mode):
    lines = run_lines(built, "fortran_callbacks", mode)
    for r in range(4):
        # copy on dup: 100 r + 1 plus the extra state 10; the odd extra state declines; the predefined DUP_FN keeps a
        # value beyond a default INTEGER, NULL_COPY_FN drops it; two calls of the program's copy procedure
        assert f"rank {r} dup add T{100 * r + 11:5d} odd F null F dup T{5000000000 + r:12d} copies 2" in lines, lines
        # delete on free (100 r + 11), on replacing (100 r + 1), MPI_COMM_DELETE_ATTR (100 r + 2), free again (7)
        assert f"rank {r} after free deletes 1 sum{100 * r + 11:6d}" in lines
        assert f"rank {r} after replace and delete deletes 3 sum{300 * r + 14:6d}" in lines
        assert f"rank {r} after comm free deletes 4 sum{300 * r + 21:6d} keyval invalid T" in lines
        assert f"rank {r} failing copy fails dup T" in lines
        # MPI-1 default INTEGERs: -(40 + r) - 3 by the program's procedure, -12345 - r kept by MPI_DUP_FN
        assert f"rank {r} mpi1 negate T{-43 - r:5d}" in lines and f"rank {r} mpi1 dup T{-12345 - r:8d}" in lines
        # datatypes: 1000 + extra 2 r on the dup, both values deleted; the window's 30 + r deleted on MPI_WIN_FREE
        assert f"rank {r} type dup T{1000 + 2 * r:6d} copies 1 deletes 2 sum{2000 + 2 * r:6d}" in lines
        assert f"rank {r} win attr T{30 + r:4d} deletes 3 sum{2030 + 3 * r:6d}" in lines
        # the query procedure's status from extra state 5 + r (source, tag, count 5 + r, 6 + r, 7 + r); freed once,
        # the free procedure's -1 written into the program's extra state variable
        assert f"rank {r} greq source{5 + r:3d} tag{6 + r:3d} count{7 + r:3d} frees{5 + r:3d} extra -1 null T" in lines
    assert "info keys 1 [spaced key] valuelen  9 found T absent F [untouched]" in lines  # blanks stripped
    assert "info truncated T [two                 ]" in lines  # VALUELEN 3, blank-padded to the 20 characters


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_mpi_f08_module(built, mode):
    lines = run_lines(built, "fortran2008", mode)
    for r in range(4):
        left = (r + 3) % 4
        # status%MPI_SOURCE, status%MPI_TAG (7 + sender) and the count of the ring's two doubles
        assert f"rank {r} got{left + 0.5:6.1f}{10.0 * left:6.1f} from {left} tag{7 + left:3d} count 2" in lines, lines
        # 1 + 2 + 3 + 4 in place; rank 3's pair broadcast through a derived type of 16 bytes, then freed to null
        assert f"rank {r} sum  10.0 bcast   3.0  -3.0 size 16 freed T" in lines
        # split by parity, ordered by -rank; the copy callback adds the extra state 100 and the rank in `half`
        half_rank = 1 if r < 2 else 0
        assert f"rank {r} half rank {half_rank} attr T{1000 * (r + 1) + 100 + half_rank:6d}" in lines
        assert f"rank {r} half disconnected T" in lines  # MPI_Comm_disconnect sets the handle to MPI_COMM_NULL
        assert f"rank {r} waitany index in 1..2 T null T{left + 0.5:6.1f}" in lines
    assert "info valuelen  4 [blue] null T" in lines and "bad rank returns MPI_ERR_RANK T" in lines
    assert "f90 real(12) size  8" in lines  # through mpi_f08's interface, without ierror
    assert "port found by name T" in lines  # MPI_Open_port, Publish_name, Lookup_name: strings both ways


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_lines_as_open_mpi(built, tmp_path, name):
    expected = open_mpi_lines(tmp_path, name)
    assert len(expected) == {"fortran77": 41, "fortran90": 28, "fortran_callbacks": 42, "fortran2008": 28,
                             "fortran_intercomm": 8}[name]
    for mode in ("swap", "dlopen"):
        assert run_lines(built, name, mode) == expected


@pytest.mark.parametrize("mode", ["swap", "dlopen"])
def test_intercommunicator_from_fortran(built, mode):
    # 4 ranks: the even ranks {0, 2} and the odd ones {1, 3}; local rank r swaps with remote rank r; the merge puts
    # the odd ranks first (the evens pass high = .true.).
    lines = run_lines(built, "fortran_intercomm", mode)
    assert "rank 1 inter T remote size 2 remote world ranks 0 2" in lines
    assert "rank 3 got 2 from 1 merged rank 1" in lines and "rank 0 got 1 from 0 merged rank 2" in lines


def test_wrong_handle_returns_or_ends_the_run_naming_rank_and_call(built):
    done = mpisim("run", "-np", "4", "--platform", "cluster:4", "--quiet", built["bad_handle"])
    assert done.returncode == 1, done.stdout + done.stderr
    # printed before the fatal error: gfortran's output is unbuffered under mpisim run, nothing is lost
    assert sorted(done.stdout.splitlines()) == [f"rank {r} MPI_ERR_COMM returned T" for r in range(4)]
    assert "mpisim: rank 2: MPI_Send: MPI_ERR_TYPE: invalid datatype 777" in done.stderr


def test_fc_aliases_and_show():
    for command in ("fc", "f77", "f90"):
        done = mpisim(command, "-show", "x.f90", "-o", "x")
        if done.returncode != 0:
            pytest.skip(done.stderr.strip())
        words = done.stdout.split()
        assert words[0] == "gfortran" and "-fallow-argument-mismatch" in words and "-lmpisim-mpi" in words


@pytest.mark.parametrize("name,line", [("spawn_f77", "SPAWN T T"), ("spawn_f08", "spawn_multiple T T")])
def test_spawn_is_refused_from_fortran(built, name, line):
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--quiet", built[name])
    assert done.returncode == 0, done.stderr
    assert [" ".join(text.split()) for text in done.stdout.splitlines()] == [line, line]
