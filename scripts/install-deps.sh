#!/usr/bin/env bash
# Installs the Debian packages mpisim needs (as root, or through sudo), skipping those already present.
# Usage: scripts/install-deps.sh [--with-test-tools]
#   --with-test-tools: also SimGrid 3.32 (the reference the agreement tests compare against), Open MPI (real runs for
#   the trace recorder: it is built when an MPI library is found), pajeng (checks Paje timelines), clang-format
#   (`make format-check`, part of `make test`) and clang-tidy (`make tidy`, part of `make check`), clang with its
#   libFuzzer runtime (the fuzz targets of tests/fuzz: `make fuzz`, and a short run of each in `make test`), and
#   gfortran (`mpisim fc`: the build compiles the `mpi` module when it finds gfortran; tests/python/test_fortran.py).
set -euo pipefail

packages=(build-essential cmake g++ python3-venv python3-dev libboost-context-dev libpugixml-dev libgtest-dev
          libotf2-trace-dev pkg-config)
if [[ "${1:-}" == "--with-test-tools" || "${1:-}" == "--with-simgrid" ]]; then
  packages+=(libsimgrid-dev openmpi-bin libopenmpi-dev pajeng clang-format clang-tidy clang libclang-rt-14-dev
             gfortran otf2-tools)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi
echo "installing Debian packages: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
