# The front door. `make` installs what is missing and builds everything; afterwards .venv/bin/mpisim works.
#   make demo   replay a bundled NAS LU trace on the bundled graphene platform under every model
#   make test   every test: C++ (ctest) and Python (pytest, one worker per core), including the agreement checks
#               against SimGrid; what CI runs
#   make check  `make test`, clang-tidy's full pass (`make tidy`) and a short run of each fuzzer (`make fuzz-smoke`):
#               run it before landing
#   make asan   the C++ tests of the solver, kernel, models, MPI layer and replay under AddressSanitizer + UBSan, and
#               the fuzz targets on every input they know (past findings, seeds, generated corpus: tests/fuzz/README.md)
#   make format apply .clang-format to every C and C++ file; `make format-check` (part of `make test`) fails on any
#               file that differs from it
#   make tidy   clang-tidy's checks of .clang-tidy over src/ (part of `make check`, not of `make test`: about 15 min
#               on 2 cores, half of CI's budget); any warning fails
#   make fuzz   each libFuzzer target over the input readers for FUZZ_SECONDS (default 60) seconds; `make check` runs
#               each for FUZZ_SMOKE_SECONDS (5) on its corpus (tests/fuzz/README.md)
VENV    := .venv
PYTHON  := $(VENV)/bin/python
BUILD   := build/python
JOBS    ?= $(shell nproc)

.PHONY: all deps venv build demo test check test-cpp test-python asan bench calibrate-check clean format format-check tidy fuzz fuzz-build \
        fuzz-smoke

all: build

deps:
	bash scripts/install-deps.sh --with-test-tools

$(PYTHON): | deps
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install -q --upgrade pip
	$(PYTHON) -m pip install -q "scikit-build-core>=0.8" "pybind11>=2.10" "pytest>=7" "pytest-xdist>=3" "pandas>=1.5" "matplotlib>=3.6"

venv: $(PYTHON)

# The package with its `sweep` extra (Dask, pyarrow, PyYAML: `mpisim sweep`), fetched once, skipped when present.
build: venv
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PYTHON) -m pip install -q --no-build-isolation ".[sweep]"

demo: build
	$(VENV)/bin/mpisim compare-models data/traces/npb/lu.S.4.txt --platform platforms/graphene.xml

test: format-check build test-cpp test-python asan

check: test tidy fuzz-smoke

# The C++ tests reuse the package's build tree (same objects), with the test targets switched on.
test-cpp: build
	cmake -S . -B $(BUILD) -DMPISIM_BUILD_TESTS=ON > /dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# One pytest worker per core, a test file per worker at a time (its module fixtures, compiled programs, built once).
# A venv made before pytest-xdist joined the list gets it here.
test-python:
	@$(PYTHON) -c "import xdist" 2>/dev/null || $(PYTHON) -m pip install -q "pytest-xdist>=3"
	$(PYTHON) -m pytest -q -n $(JOBS) --dist loadfile tests/python

asan: venv
	cmake -S . -B build/asan -DMPISIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug > /dev/null
	cmake --build build/asan -j $(JOBS) --target test_solver test_kernel test_models test_mpi test_replay \
	  fuzz_corpus_targets
	cd build/asan && LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp MPISIM_QUICK_DATA_TESTS=1 ctest --output-on-failure -R '^(MaxMinSolver|Kernel|BlockPool|PoolAllocator|models_|mpi_|replay_|Trace|StackDepth|FuzzCorpus)' -j $(JOBS)

# Every C and C++ file git tracks, except test data: the house style of .clang-format (clang-format 14, Debian 12's).
FORMATTED = git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | grep -v '^tests/cpp/data/'

format: deps
	$(FORMATTED) | xargs clang-format -i

format-check: deps
	@$(FORMATTED) | xargs clang-format --dry-run -Werror && echo "format-check: every C and C++ file follows .clang-format"

# clang-tidy reads the compile commands of a configure-only tree (nothing is built there).
tidy: deps
	cmake -S . -B build/tidy -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DMPISIM_BUILD_TESTS=OFF > /dev/null
	run-clang-tidy -p build/tidy -j $(JOBS) -quiet 'src/' > build/tidy/report.txt 2>&1 \
	  || { grep -E 'warning:|error:' build/tidy/report.txt | sort -u; echo "tidy: see build/tidy/report.txt"; exit 1; }
	@echo "tidy: no clang-tidy warning in src/"

# The fuzz tree: only the reading layers, built by clang with libFuzzer, ASan and UBSan (tests/fuzz/README.md).
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 5

fuzz-build: deps
	cmake -S . -B build/fuzz -DMPISIM_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
	cmake --build build/fuzz -j $(JOBS)

fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

bench: build
	$(PYTHON) bench/replay_bench.py

# Calibrate this machine under Open MPI, then predict two programs not used in the fit (docs/calibrate.md).
calibrate-check: build
	$(PYTHON) bench/calibrate_check.py

clean:
	rm -rf build
