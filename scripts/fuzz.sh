#!/usr/bin/env bash
# Fuzzes the TensorFlow Lite importer for SECONDS (default 60).
#
# Configures build-fuzz/ with clang and -DACCELGEN_FUZZ=ON, builds
# accelgen-import-fuzzer, copies the shared models (../shared/models) that fit
# in -max_len into a seed folder in the build tree, and runs the fuzzer over
# the growing corpus (build-fuzz/fuzz/corpus, kept between runs), the seeds and
# tests/fuzz/regressions. Prints executions, exec/s, corpus size and findings;
# exits non-zero if the run found a crash, leak, undefined behaviour, timeout
# or out-of-memory. Findings are kept in build-fuzz/fuzz/artifacts/<run>/.
#
# Environment: ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_FUZZ_MAX_LEN (default 400000 bytes), ACCELGEN_JOBS (default 2).
set -euo pipefail

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS]" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}
max_len=${ACCELGEN_FUZZ_MAX_LEN:-400000}
jobs=${ACCELGEN_JOBS:-2}
cc=${ACCELGEN_FUZZ_CC:-clang-14}
cxx=${ACCELGEN_FUZZ_CXX:-clang++-14}

if [ ! -d "$shared/models" ]; then
  echo "fuzz: no models in $shared/models (set ACCELGEN_SHARED_DIR)" >&2
  exit 2
fi
shared=$(cd "$shared" && pwd)

# Tests are off here: the fuzz build needs only the fuzzer, and
# fuzz-import-regressions runs in scripts/test.sh builds.
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DACCELGEN_FUZZ=ON -DACCELGEN_BUILD_TESTS=OFF \
  -DACCELGEN_SHARED_DIR="$shared" >/dev/null
ninja -C "$build" -j "$jobs" accelgen-import-fuzzer
fuzzer="$build/tests/fuzz/accelgen-import-fuzzer"

# Seeds are rebuilt every run from the shared models, never stored in the
# repository. libFuzzer would cut a longer file at -max_len, so such a model
# would seed only a truncated, invalid FlatBuffer: leave it out.
work="$build/fuzz"
seeds="$work/seeds"
corpus="$work/corpus"
run="run-$(date +%Y%m%d-%H%M%S)"
artifacts="$work/artifacts/$run"
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$artifacts"
for model in "$shared"/models/*.tflite; do
  size=$(stat -c %s "$model")
  if [ "$size" -le "$max_len" ]; then
    cp "$model" "$seeds/"
  else
    echo "fuzz: not seeding $(basename "$model") ($size bytes > -max_len=$max_len)"
  fi
done

log="$work/$run.log"
echo "fuzz: $seconds s, -max_len=$max_len, $(ls "$seeds" | wc -l) seed models," \
  "$(ls "$corpus" | wc -l) corpus inputs, log $log"
# Stack traces for UBSan reports; a report stops the run (the build uses
# -fno-sanitize-recover=all).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
# -max_total_time ends the run; timeout is only a guard against a wedged
# process. One fuzzing process: the machine has two cores and ninja may share.
timeout --kill-after=30 $((seconds + 300)) \
  "$fuzzer" "$corpus" "$seeds" "$root/tests/fuzz/regressions" \
  -max_total_time="$seconds" -max_len="$max_len" \
  -dict="$root/tests/fuzz/tflite.dict" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" </dev/null >"$log" 2>&1 || status=$?

final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
execs=$(final_stat number_of_executed_units)
rate=$(final_stat average_exec_per_sec)
added=$(final_stat new_units_added)
rss=$(final_stat peak_rss_mb)
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corpus_files=$(find "$corpus" -type f | wc -l)
corpus_kb=$(du -sk "$corpus" | cut -f1)

echo "fuzz: executions ${execs:-?}, ${rate:-?} exec/s, coverage ${cov:-?} edges" \
  "${ft:-?} features, ${added:-?} new inputs, peak RSS ${rss:-?} MB"
echo "fuzz: corpus $corpus_files files, $corpus_kb KB ($corpus)"

findings=$(find "$artifacts" -type f | sort)
if [ -n "$findings" ]; then
  echo "fuzz: FINDINGS (fuzzer exit status $status):"
  sed 's/^/  /' <<<"$findings"
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -20 | sed 's/^/  /'
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz: the fuzzer exited with status $status and no artifact; see $log"
  tail -20 "$log"
  exit 1
fi
rmdir "$artifacts"
echo "fuzz: findings: none"
