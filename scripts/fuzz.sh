#!/usr/bin/env bash
# Fuzzes every input format accelgen reads, SECONDS in all (default 60),
# split evenly between the targets (at least 5 s each):
#
#   import      TensorFlow Lite models (lib/import)
#   onnx        ONNX models (lib/import/ONNXImporter)
#   td          `.td` target descriptions, through TableGen and the model
#   yaml        `.yaml` target descriptions, through yaml-cpp and the model
#   constraint  the constraint language (gen/constraint)
#   template    the template engine (lib/template)
#   program     accelerator programs (lib/program)
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Configures build-fuzz/ with clang and -DACCELGEN_FUZZ=ON, builds the
# accelgen-<target>-fuzzer binaries, builds each target's seed folder in the
# build tree (never stored in the repository) and runs each fuzzer over its
# growing corpus (build-fuzz/fuzz/<target>/corpus, kept between runs), its
# seeds and its regression inputs (tests/fuzz/regressions[/<target>]).
# Seeds: import, the shared models that fit in -max_len; onnx, the models
# of ONNX's node tests (Debian's libonnx-testdata); td and yaml, the
# in-tree descriptions (targets/); constraint, every constraint expression
# written in them; template, every template in the tree (*.in); program, the
# programs `accelgen compile` embeds for the in-tree example model on each
# MDLA version (when build/ holds a built accelgen).
# Prints, per target, executions, exec/s, coverage and findings; exits
# non-zero if any run found a crash, leak, undefined behaviour, timeout or
# out-of-memory. Findings are kept in build-fuzz/fuzz/<target>/artifacts/<run>/.
#
# Environment: ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_FUZZ_MAX_LEN (default 400000 bytes, for the importer),
# ACCELGEN_JOBS (default 2).
set -euo pipefail

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi
shift || true
all_targets=(import onnx td yaml constraint template program)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if ! [[ " ${all_targets[*]} " == *" $t "* ]]; then
    echo "fuzz: unknown target '$t' (targets: ${all_targets[*]})" >&2
    exit 2
  fi
done
per_target=$((seconds / ${#targets[@]}))
[ "$per_target" -ge 5 ] || per_target=5

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}
max_len=${ACCELGEN_FUZZ_MAX_LEN:-400000}
jobs=${ACCELGEN_JOBS:-2}

if [[ " ${targets[*]} " == *" import "* ]]; then
  if [ ! -d "$shared/models" ]; then
    echo "fuzz: no models in $shared/models (set ACCELGEN_SHARED_DIR)" >&2
    exit 2
  fi
  shared=$(cd "$shared" && pwd)
fi

# Tests are off here: the fuzz build needs only the fuzzers, and the
# fuzz-*-regressions tests run in scripts/test.sh builds.
. "$root/scripts/sanitized-build.sh"
configure_sanitized_build "$root" "$build" "$shared"
ninja -C "$build" -j "$jobs" $(printf 'accelgen-%s-fuzzer ' "${targets[@]}")

# Fills folder $2 with the seeds of target $1.
seed() {
  local target=$1 seeds=$2 i=0
  case $target in
  import)
    for model in "$shared"/models/*.tflite; do
      size=$(stat -c %s "$model")
      # libFuzzer would cut a longer file at -max_len: an invalid FlatBuffer.
      if [ "$size" -le "$max_len" ]; then
        cp "$model" "$seeds/"
      else
        echo "fuzz: not seeding $(basename "$model") ($size bytes > -max_len=$max_len)"
      fi
    done ;;
  onnx)
    for model in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
      [ -f "$model" ] || continue
      cp "$model" "$seeds/$(basename "$(dirname "$model")").onnx"
    done ;;
  td) cp "$root"/targets/*/*.td "$seeds/" ;;
  yaml) cp "$root"/targets/*/*.yaml "$seeds/" ;;
  constraint)
    # The expression of every Constraint<"id", "expr", ...> in the tree.
    grep -ohE 'Constraint<"[^"]*", *"([^"\\]|\\.)*"' "$root"/targets/*/*.td "$root"/defs/*.td |
      sed -E 's/^Constraint<"[^"]*", *"//; s/"$//; s/\\"/"/g' | sort -u |
      while IFS= read -r expr; do
        printf '%s' "$expr" >"$seeds/expr-$i.txt"
        i=$((i + 1))
      done ;;
  template)
    find "$root/templates" "$root/lib" "$root/tests/template" -name '*.in' |
      while IFS= read -r t; do cp "$t" "$seeds/$(basename "$t").$i"; i=$((i + 1)); done ;;
  program)
    local accelgen="$root/build/tools/accelgen/accelgen"
    local model="$root/build/examples/tiny_convnet_int8.tflite"
    if [ -x "$accelgen" ] && [ -f "$model" ]; then
      for version in 1.5 2.0 3.0; do
        out="$seeds/compile-$version"
        "$accelgen" compile "$model" --target "mdla$version" -o "$out" >/dev/null 2>&1 || continue
        # The program bytes model.c embeds, as decimal numbers.
        sed -n '/accel_program = {.bytes = {/,/}/p' "$out/model.c" | tail -n +2 |
          perl -ne 'print pack("C*", /\d+/g)' >"$seeds/mdla$version.agpr"
        rm -rf "$out"
      done
    else
      echo "fuzz: no program seeds (build accelgen and its example into build/ first)"
    fi ;;
  esac
}

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
for target in "${targets[@]}"; do
  fuzzer="$build/tests/fuzz/accelgen-$target-fuzzer"
  work="$build/fuzz/$target"
  [ "$target" = import ] && work="$build/fuzz"
  seeds="$work/seeds" corpus="$work/corpus"
  run="run-$(date +%Y%m%d-%H%M%S)"
  artifacts="$work/artifacts/$run"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$corpus" "$artifacts"
  seed "$target" "$seeds"
  regressions="$root/tests/fuzz/regressions"
  [ "$target" = import ] || regressions="$regressions/$target"
  flags=(-max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048
    -print_final_stats=1 -artifact_prefix="$artifacts/")
  case $target in
  import) flags+=(-max_len="$max_len" -dict="$root/tests/fuzz/tflite.dict") ;;
  # TableGen's fatal errors are abandoned with longjmp (FuzzTableGen.h):
  # what they allocated is leaked on purpose.
  # A whole description (mdla.td) takes about a second under ASan on an idle
  # core, so their per-input limit is 60 s rather than 10: on a loaded
  # machine 10 s was reached by the unmodified seed; a hang still is not.
  td | yaml) flags+=(-max_len=65536 -detect_leaks=0 -timeout=60) ;;
  *) flags+=(-max_len=65536) ;;
  esac
  log="$work/$run.log"
  echo "fuzz: $target: $per_target s, $(ls "$seeds" | wc -l) seeds," \
    "$(ls "$corpus" | wc -l) corpus inputs, log $log"
  status=0
  # -max_total_time ends the run; timeout guards against a wedged process.
  timeout --kill-after=30 $((per_target + 300)) \
    "$fuzzer" "$corpus" "$seeds" "$regressions" "${flags[@]}" \
    </dev/null >"$log" 2>&1 || status=$?

  final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
  execs=$(final_stat number_of_executed_units)
  rate=$(final_stat average_exec_per_sec)
  added=$(final_stat new_units_added)
  rss=$(final_stat peak_rss_mb)
  last=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  echo "fuzz: $target: executions ${execs:-?}, ${rate:-?} exec/s, coverage ${cov:-?} edges" \
    "${ft:-?} features, ${added:-?} new inputs, peak RSS ${rss:-?} MB," \
    "corpus $(find "$corpus" -type f | wc -l) files"

  findings=$(find "$artifacts" -type f | sort)
  if [ -n "$findings" ]; then
    echo "fuzz: $target: FINDINGS (fuzzer exit status $status):"
    sed 's/^/  /' <<<"$findings"
    grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -20 | sed 's/^/  /'
    failed=1
  elif [ "$status" -ne 0 ]; then
    echo "fuzz: $target: the fuzzer exited with status $status and no artifact; see $log"
    tail -20 "$log"
    failed=1
  else
    rmdir "$artifacts"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: findings: see above"
  exit 1
fi
echo "fuzz: findings: none"
