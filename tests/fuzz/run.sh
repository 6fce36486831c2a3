#!/usr/bin/env bash
# Runs the fuzz targets built in build/fuzz (README.md in this folder), one after the other.
# Usage: tests/fuzz/run.sh SECONDS [TARGET...]   (default: every target, SECONDS each)
# Each target first replays its regression inputs (tests/fuzz/regressions/TARGET/: past findings, once each), then
# fuzzes from its corpus (build/fuzz/corpus/TARGET: the seeds make_corpus.py generates, then what the fuzzer keeps)
# and the hand-made seeds (tests/fuzz/seeds/TARGET). Findings go to build/fuzz/findings/TARGET/, the full output to
# build/fuzz/logs/TARGET.log. Prints one line per target; exits 1 if any target found something (or the corpus
# could not be generated), 2 when FuzzTargets.cmake gives no target list.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${FUZZ_BUILD:-$root/build/fuzz}
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
targets=("$@")
((${#targets[@]})) || read -ra targets <<< "$(sed -n 's/^set(MPISIM_FUZZ_TARGETS \(.*\))$/\1/p' "$here/FuzzTargets.cmake")"
((${#targets[@]})) || { echo "run.sh: no MPISIM_FUZZ_TARGETS line in $here/FuzzTargets.cmake" >&2; exit 2; }

# Limits that turn a runaway input into a finding: 10 s for one input, 1 GiB in one allocation, 2 GiB resident.
limits=(-timeout=10 -malloc_limit_mb=1024 -rss_limit_mb=2048)
# Leaks of the OTF2 library itself (not instrumented, Debian's) are not findings: lsan.supp.
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The OTF2 library allocates what a record's counts ask for (a group of 2^32 members: 32 GiB) and gives up when the
# allocation fails, as it does outside the fuzzer: for its target, a failed allocation returns null instead of being
# a finding.
declare -A target_limits=([otf2_archive]="-malloc_limit_mb=1048576")
declare -A target_asan=([otf2_archive]="allocator_may_return_null=1")
given_asan=${ASAN_OPTIONS:-}

python3 "$here/make_corpus.py" "$build/corpus" > /dev/null || exit 1
mkdir -p "$build/logs"
failed=0
for target in "${targets[@]}"; do
  exe=$build/tests/fuzz/fuzz_$target
  log=$build/logs/$target.log
  findings=$build/findings/$target
  mkdir -p "$findings" "$build/corpus/$target"
  seeds=()
  [[ -d $here/seeds/$target ]] && seeds+=("$here/seeds/$target")
  read -ra own_limits <<< "${target_limits[$target]:-}"
  export ASAN_OPTIONS="${target_asan[$target]:-}${given_asan:+:$given_asan}"

  regressions=("$here/regressions/$target"/*)
  if [[ -e ${regressions[0]} ]] &&
     ! "$exe" "${limits[@]}" "${own_limits[@]}" -artifact_prefix="$findings/" "${regressions[@]}" > "$log.regressions" 2>&1; then
    echo "$target: a past finding fails again (see $log.regressions)"
    failed=1
    continue
  fi

  "$exe" "${limits[@]}" "${own_limits[@]}" -max_total_time="$seconds" -print_final_stats=1 -dict="$here/dict/$target.dict" \
    -artifact_prefix="$findings/" "$build/corpus/$target" "${seeds[@]}" > "$log" 2>&1
  status=$?
  executions=$(grep -oP 'stat::number_of_executed_units: \K[0-9]+' "$log" | tail -1)
  coverage=$(grep -oP '^#[0-9]+.*\bcov: \K[0-9]+ ft: [0-9]+' "$log" | tail -1)
  corpus=$(find "$build/corpus/$target" -type f | wc -l)
  if ((status != 0)); then
    failed=1
    echo "$target: FINDING after ${executions:-?} executions: $(grep -m1 -E 'ERROR|finding|Timeout|out-of-memory' "$log")"
    echo "  input: $(grep -oP 'Test unit written to \K.*' "$log" | tail -1); log: $log"
  else
    echo "$target: ${executions:-?} executions in ${seconds}s, cov: ${coverage:-?}, corpus: $corpus inputs, no finding"
  fi
done
exit $failed
