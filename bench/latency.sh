#!/bin/sh
# bench/latency.sh - latency, memory and code size of accelgen's generated C.
#
# For every shared model the ref target runs (all but the LSTM ones): compile
# it with `accelgen compile --target ref --main`, build with the system C
# compiler, and time it single-threaded on seed 1's inputs against native
# TensorFlow Lite 2.9 (the oracle of ../shared/tools/oracle, one thread, its
# built-in kernels) on the same inputs. Prints one Markdown table row per
# model: the mean latency of both in microseconds after one warm-up run, their
# ratio (generated / TensorFlow Lite), the static arena against TensorFlow Lite
# Micro's, and `size` of the compiled model.o (weights are read-only data,
# counted in text) and of the kernel objects.
#
# Usage: bench/latency.sh [BUILD_DIR]          (default: build)
# Environment:
#   ORACLE   the oracle's tflite_c_runner; without it, one is built in a
#            temporary copy of ../shared/tools/oracle (needs node, npm and the
#            npm registry, see its README)
#   SHARED   the shared folder (default: ../shared beside the checkout)
#   REPEAT   timed runs per model and runtime (default 20)
#   CC       the C compiler (default cc); CFLAGS (default -O2)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
REPEAT=${REPEAT:-20}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
[ -d "$SHARED/models" ] || { echo "error: $SHARED/models is missing (set SHARED)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

. "$ROOT/bench/oracle.sh"

# One CPU, so both runtimes see the same core (when taskset exists).
PIN=""
if command -v taskset >/dev/null 2>&1; then PIN="taskset -c 0"; fi

# text+data+bss of the objects given, as "text data bss".
sizes() { size "$@" | awk 'NR > 1 { t += $1; d += $2; b += $3 } END { print t, d, b }'; }

echo "| model | generated us | TFLite 2.9 us | ratio | arena B | TFLM arena B | model.o text/data/bss B | kernels text B |"
echo "|---|---|---|---|---|---|---|---|"
for MODEL in "$SHARED"/models/*.tflite; do
  NAME=$(basename "$MODEL" .tflite)
  case $NAME in *lstm*) continue ;; esac
  IN=$SHARED/vectors/$NAME/seed1
  D=$WORK/$NAME
  mkdir -p "$D/obj" "$D/ours" "$D/tflite"
  "$ACCELGEN" compile "$MODEL" --target ref -o "$D/src" --main >/dev/null 2>"$D/warnings"

  # Objects for `size`, then the program.
  for C in "$D"/src/*.c; do
    $CC -std=c99 $CFLAGS -c "$C" -o "$D/obj/$(basename "$C" .c).o"
  done
  $CC -o "$D/prog" "$D"/obj/*.o -lm
  MODEL_SIZE=$(sizes "$D/obj/model.o" | tr ' ' '/')
  KERNEL_TEXT=$(sizes $(ls "$D"/obj/ref_*.o) | cut -d' ' -f1)

  OURS=$($PIN "$D/prog" "$IN" "$D/ours" --repeat "$REPEAT" |
         awk '{ for (i = 1; i < NF; ++i) if ($i == "mean_us") printf "%.1f", $(i + 1) }')
  # TensorFlow Lite refuses some models (person_detect's 1-D biases with
  # quantized_dimension 3, see models/MODELS.md).
  if $PIN "$ORACLE" "$MODEL" "$IN" "$D/tflite" --repeat "$REPEAT" --threads 1 \
       >/dev/null 2>"$D/oracle.err"; then
    TFL=$(sed -n 's/.*"avg_inference_ms": *\([0-9.]*\).*/\1/p' "$D/tflite/io.json" |
          awk '{ printf "%.1f", $1 * 1000 }')
    RATIO=$(awk -v a="$OURS" -v b="$TFL" 'BEGIN { printf "%.2f", a / b }')
  else
    echo "$NAME: the oracle failed: $(tail -n 1 "$D/oracle.err")" >&2
    TFL="failed"
    RATIO="-"
  fi
  ARENA=$(sed -n 's/^    "bytes": \([0-9]*\),*$/\1/p' "$D/src/report.json" | head -n 1)
  TFLM=$(sed -n 's/^arena_used=//p' "$SHARED/vectors/$NAME/tflm_arena.txt" 2>/dev/null || true)
  echo "| $NAME | $OURS | $TFL | $RATIO | $ARENA | ${TFLM:-n/a} | $MODEL_SIZE | $KERNEL_TEXT |"
done
