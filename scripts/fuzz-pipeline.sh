#!/usr/bin/env bash
# Fuzzes the whole compiler with structured model mutations, in two halves:
#
#   - accelgen-pipeline-fuzzer, for SECONDS (default 60): import, ref
#     emitter, mdla2.0 partition, program and emitter, mdla1.5 and cpu with
#     cascades; every stage may refuse a model, none may crash;
#   - accelgen-diff-fuzzer, for DIFF_SECONDS (default SECONDS): each model
#     ref runs is built and run on every target and --cpu variant this
#     machine runs (Cortex-M under QEMU when installed), whose outputs must
#     equal ref's byte for byte (tests/fuzz/DiffFuzzer.cpp).
#
# Configures build-fuzz/ with clang and -DACCELGEN_FUZZ=ON (as scripts/fuzz.sh
# does), builds both and seeds them with the bundled example (written by
# accelgen-make-example into the build tree) and the shared models no larger
# than -max_len (those in its folders too, seanet-int16's int16 layers), read
# in place. The corpora grow in
# build-fuzz/fuzz/{pipeline,diff}-corpus; findings go to
# build-fuzz/fuzz/{pipeline,diff}-artifacts/<run>/; the differential
# fuzzer's built objects are kept in build-fuzz/fuzz/diff-cache (or
# $ACCELGEN_DIFF_CACHE: CI points it at the plain test build's program cache,
# whose kernels and CMSIS-NN libraries the tests have built). Prints
# executions, exec/s, coverage, the differential fuzzer's comparisons per
# variant and findings; exits non-zero on a finding.
#
# Environment: ACCELGEN_FUZZ_FOLDER_SEEDS=1 (also seed with the models in
# the shared models' folders), ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_FUZZ_MAX_LEN (default 100000 bytes), ACCELGEN_JOBS (default 2).
set -euo pipefail

seconds=${1:-60}
diff_seconds=${2:-$seconds}
for s in "$seconds" "$diff_seconds"; do
  if ! [[ "$s" =~ ^[0-9]+$ ]] || [ "$s" -eq 0 ]; then
    echo "usage: scripts/fuzz-pipeline.sh [SECONDS [DIFF_SECONDS]]" >&2
    exit 2
  fi
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}
max_len=${ACCELGEN_FUZZ_MAX_LEN:-100000}
jobs=${ACCELGEN_JOBS:-2}

. "$root/scripts/sanitized-build.sh"
configure_sanitized_build "$root" "$build" "$shared"
ninja -C "$build" -j "$jobs" accelgen-pipeline-fuzzer accelgen-diff-fuzzer \
  example_model

# Seeds are read in place: the example from the build tree, the shared
# models that fit in -max_len (libFuzzer would cut a longer one).
work="$build/fuzz"
seeds=("$build/examples/tiny_convnet_int8.tflite")
if [ -d "$shared/models" ]; then
  # With ACCELGEN_FUZZ_FOLDER_SEEDS=1 the folders' models too (seanet-int16:
  # the int16 layers; 46 more seeds, minutes of start-up on twenty variants,
  # so not in CI's smoke).
  folders=""
  [ "${ACCELGEN_FUZZ_FOLDER_SEEDS:-0}" = 1 ] && folders="$shared/models/*/*.tflite"
  # shellcheck disable=SC2086
  for model in "$shared"/models/*.tflite $folders; do
    [ -f "$model" ] || continue
    if [ "$(stat -c %s "$model")" -le "$max_len" ]; then
      seeds+=("$model")
    fi
  done
fi
# libFuzzer takes folders or files; -seed_inputs names files read in place.
seed_list=$(IFS=,; echo "${seeds[*]}")
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ACCELGEN_DIFF_CACHE=${ACCELGEN_DIFF_CACHE:-$work/diff-cache}
findings=0

# fuzz_one NAME SECONDS TIMEOUT REGRESSIONS: runs accelgen-NAME-fuzzer.
fuzz_one() {
  local name=$1 secs=$2 timeout=$3 regressions=$4
  local fuzzer="$build/tests/fuzz/accelgen-$name-fuzzer"
  local corpus="$work/$name-corpus"
  local run="run-$(date +%Y%m%d-%H%M%S)"
  local artifacts="$work/$name-artifacts/$run"
  local log="$work/$name-$run.log"
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz-$name: $secs s, -max_len=$max_len, ${#seeds[@]} seed models," \
    "$(ls "$corpus" | wc -l) corpus inputs, log $log"
  local status=0
  # The hard stop, for a fuzzer that hangs: libFuzzer reads its whole
  # corpus before -max_total_time applies, which takes minutes once the
  # corpus has grown (the differential fuzzer runs each input on every
  # variant), so it allows 20 minutes beyond the run.
  timeout --kill-after=30 $((secs + 2 * timeout + 1200)) \
    "$fuzzer" "$corpus" "$regressions" \
    -seed_inputs="$seed_list" \
    -max_total_time="$secs" -max_len="$max_len" \
    -timeout="$timeout" -report_slow_units="$timeout" -rss_limit_mb=3072 \
    -print_final_stats=1 \
    -artifact_prefix="$artifacts/" </dev/null >"$log" 2>&1 || status=$?

  final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
  local last
  last=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
  echo "fuzz-$name: executions $(final_stat number_of_executed_units)," \
    "$(final_stat average_exec_per_sec) exec/s," \
    "coverage $(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last") edges," \
    "$(final_stat new_units_added) new inputs, peak RSS $(final_stat peak_rss_mb) MB"
  # The differential fuzzer's count per variant.
  grep -aE '^diff: ' "$log" | grep -v FINDING | sed "s/^/fuzz-$name: /" || true
  # An input slower than the timeout on a busy machine (slow-unit-*) is
  # kept and named, not a finding; crashes, leaks, timeouts and differences
  # are.
  local found slow
  slow=$(find "$artifacts" -type f -name 'slow-unit-*' | sort)
  found=$(find "$artifacts" -type f ! -name 'slow-unit-*' | sort)
  if [ -n "$slow" ]; then
    echo "fuzz-$name: slow inputs (kept, not findings):"
    sed 's/^/  /' <<<"$slow"
  fi
  if [ -n "$found" ]; then
    echo "fuzz-$name: FINDINGS (fuzzer exit status $status):"
    sed 's/^/  /' <<<"$found"
    { grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|diff: FINDING)' \
        "$log" || true; } | head -20 | sed 's/^/  /'
    findings=1
    return
  fi
  if [ "$status" -ne 0 ]; then
    echo "fuzz-$name: the fuzzer exited with status $status and no artifact; see $log"
    tail -20 "$log"
    findings=1
    return
  fi
  [ -n "$slow" ] || rmdir "$artifacts"
  echo "fuzz-$name: findings: none"
}

fuzz_one pipeline "$seconds" 20 "$root/tests/fuzz/pipeline-regressions"
# The first input builds the kernels, the functional model and CMSIS-NN
# (three times for Cortex-M) into the cache: a minute or two, once.
fuzz_one diff "$diff_seconds" 600 "$root/tests/fuzz/diff-regressions"
exit "$findings"
