#!/usr/bin/env bash
# Fuzzes the whole compiler (import, ref emitter, mdla2.0 partition, program
# and emitter, mdla1.5 and cpu with cascades) for SECONDS (default 60) with
# structured model mutations.
#
# Configures build-fuzz/ with clang and -DACCELGEN_FUZZ=ON (as scripts/fuzz.sh
# does), builds accelgen-pipeline-fuzzer and seeds it with the bundled example
# (written by accelgen-make-example into the build tree) and the shared models
# no larger than -max_len, read in place. The corpus grows in
# build-fuzz/fuzz/pipeline-corpus; findings go to
# build-fuzz/fuzz/pipeline-artifacts/<run>/. Prints executions, exec/s,
# coverage and findings; exits non-zero on a finding.
#
# Environment: ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_FUZZ_MAX_LEN (default 100000 bytes), ACCELGEN_JOBS (default 2).
set -euo pipefail

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: scripts/fuzz-pipeline.sh [SECONDS]" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}
max_len=${ACCELGEN_FUZZ_MAX_LEN:-100000}
jobs=${ACCELGEN_JOBS:-2}

. "$root/scripts/sanitized-build.sh"
configure_sanitized_build "$root" "$build" "$shared"
ninja -C "$build" -j "$jobs" accelgen-pipeline-fuzzer example_model
fuzzer="$build/tests/fuzz/accelgen-pipeline-fuzzer"

# Seeds are read in place: the example from the build tree, the shared
# models that fit in -max_len (libFuzzer would cut a longer one).
work="$build/fuzz"
corpus="$work/pipeline-corpus"
run="run-$(date +%Y%m%d-%H%M%S)"
artifacts="$work/pipeline-artifacts/$run"
mkdir -p "$corpus" "$artifacts"
seeds=("$build/examples/tiny_convnet_int8.tflite")
if [ -d "$shared/models" ]; then
  for model in "$shared"/models/*.tflite; do
    if [ "$(stat -c %s "$model")" -le "$max_len" ]; then
      seeds+=("$model")
    fi
  done
fi
# libFuzzer takes folders or files; -seed_inputs names files read in place.
seed_list=$(IFS=,; echo "${seeds[*]}")

log="$work/pipeline-$run.log"
echo "fuzz-pipeline: $seconds s, -max_len=$max_len, ${#seeds[@]} seed models," \
  "$(ls "$corpus" | wc -l) corpus inputs, log $log"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
timeout --kill-after=30 $((seconds + 300)) \
  "$fuzzer" "$corpus" "$root/tests/fuzz/pipeline-regressions" \
  -seed_inputs="$seed_list" \
  -max_total_time="$seconds" -max_len="$max_len" \
  -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" </dev/null >"$log" 2>&1 || status=$?

final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
last=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
echo "fuzz-pipeline: executions $(final_stat number_of_executed_units)," \
  "$(final_stat average_exec_per_sec) exec/s," \
  "coverage $(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last") edges," \
  "$(final_stat new_units_added) new inputs, peak RSS $(final_stat peak_rss_mb) MB"
findings=$(find "$artifacts" -type f | sort)
if [ -n "$findings" ]; then
  echo "fuzz-pipeline: FINDINGS (fuzzer exit status $status):"
  sed 's/^/  /' <<<"$findings"
  grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -20 | sed 's/^/  /'
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz-pipeline: the fuzzer exited with status $status and no artifact; see $log"
  tail -20 "$log"
  exit 1
fi
rmdir "$artifacts"
echo "fuzz-pipeline: findings: none"
