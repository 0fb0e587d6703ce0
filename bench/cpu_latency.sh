#!/bin/sh
# bench/cpu_latency.sh - whole-model latency of targets cpu (portable and
# with --cpu's SIMD kernels) and ref against native TensorFlow Lite 2.9,
# interleaved in one run.
#
# For every shared model without state (the LSTM ones are left out, as in
# latency.sh): compile it with `accelgen compile --target ref --main`,
# `--target cpu --main` and `--target cpu --cpu SIMD --main`, build the three
# with the same compiler and flags, and
# time them single-threaded on seed 1's inputs together with native
# TensorFlow Lite 2.9 (the oracle of ../shared/tools/oracle, one thread, its
# built-in kernels). The four run in turn, ROUNDS times, each round timing
# REPEAT invocations after a warm-up; the figure is the median over the
# rounds of each round's mean, so a burst of load from other processes hits
# all four alike. Prints one Markdown row per model: its multiply-
# accumulates (report.json), the four latencies in microseconds, the ratios
# cpu / TensorFlow Lite, SIMD / TensorFlow Lite and ref / TensorFlow Lite,
# whether the goal holds
# (cpu at most 0.5x TensorFlow Lite on models above one million MACs), and the
# code size: `size` text of cpu_kernels.o against the reference kernel
# objects cpu replaces, and of the whole program's kernels for each target.
#
# A model without reference vectors (MODELS may name any model under
# SHARED/models, e.g. seanet-int16/seanet_conv0) runs on the inputs of
# TensorFlow Lite Micro's oracle (tflm_runner --seed 1).
#
# Usage: bench/cpu_latency.sh [BUILD_DIR]          (default: build)
# Environment:
#   ORACLE   the oracle's tflite_c_runner (see latency.sh; built when unset)
#   SHARED   the shared folder (default: ../shared beside the checkout)
#   ROUNDS   interleaved rounds (default 5); REPEAT runs per round (default 10)
#   CC       the C compiler (default cc); CFLAGS (default -O3 -march=native)
#   MODELS   a blank-separated subset of model names (default: all)
#   SIMD     the --cpu value of the SIMD build (default native; the default
#            CFLAGS must then let the compiler use its instructions)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-10}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O3 -march=native}
SIMD=${SIMD:-native}

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
[ -d "$SHARED/models" ] || { echo "error: $SHARED/models is missing (set SHARED)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-cpu-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

. "$ROOT/bench/oracle.sh"

PIN=""
if command -v taskset >/dev/null 2>&1; then PIN="taskset -c 0"; fi

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# text of the objects given.
text() { size "$@" | awk 'NR > 1 { t += $1 } END { print t + 0 }'; }

if [ -z "${MODELS:-}" ]; then
  MODELS=$(for M in "$SHARED"/models/*.tflite; do basename "$M" .tflite; done)
fi

echo "| model | MACs | ref us | cpu us | cpu --cpu $SIMD us | TFLite 2.9 us | cpu / TFLite | SIMD / TFLite | ref / TFLite | goal | cpu_kernels.o text B, portable / SIMD | ref kernels it replaces, text B | all kernels text B, ref / cpu |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
for NAME in $MODELS; do
  case $NAME in *lstm*) continue ;; esac
  MODEL=$SHARED/models/$NAME.tflite
  IN=$SHARED/vectors/$NAME/seed1
  D=$WORK/$NAME
  if [ ! -d "$IN" ]; then
    IN=$D/in
    mkdir -p "$IN" "$D/want"
    "$SHARED/tools/tflm-oracle/tflm_runner" "$MODEL" "$IN" "$D/want" \
      --seed 1 >/dev/null
  fi
  for T in ref cpu simd; do
    mkdir -p "$D/$T/obj" "$D/$T/out"
    case $T in
      simd) OPTS="--target cpu --cpu $SIMD" ;;
      *) OPTS="--target $T" ;;
    esac
    "$ACCELGEN" compile "$MODEL" $OPTS -o "$D/$T/src" --main >/dev/null 2>"$D/$T/warnings"
    for C in "$D/$T"/src/*.c; do
      $CC -std=c99 $CFLAGS -c "$C" -o "$D/$T/obj/$(basename "$C" .c).o"
    done
    $CC -o "$D/$T/prog" "$D/$T"/obj/*.o -lm
  done
  MACS=$(sed -n 's/^  "macs": \([0-9]*\),*$/\1/p' "$D/cpu/src/report.json" | head -n 1)
  mkdir -p "$D/tflite"
  TFL_OK=1
  for R in $(seq "$ROUNDS"); do
    for T in ref cpu simd; do
      $PIN "$D/$T/prog" "$IN" "$D/$T/out" --repeat "$REPEAT" |
        awk '{ for (i = 1; i < NF; ++i) if ($i == "mean_us") print $(i + 1) }' >>"$D/$T.us"
    done
    if [ $TFL_OK = 1 ] && $PIN "$ORACLE" "$MODEL" "$IN" "$D/tflite" --repeat "$REPEAT" \
         --threads 1 >/dev/null 2>"$D/oracle.err"; then
      sed -n 's/.*"avg_inference_ms": *\([0-9.]*\).*/\1/p' "$D/tflite/io.json" |
        awk '{ print $1 * 1000 }' >>"$D/tflite.us"
    else
      TFL_OK=0
    fi
  done
  REF=$(median <"$D/ref.us")
  CPU=$(median <"$D/cpu.us")
  SIMDUS=$(median <"$D/simd.us")
  # The reference kernel objects whose functions cpu_kernels.o replaces.
  CPU_TEXT=$(text "$D/cpu/obj/cpu_kernels.o" 2>/dev/null || echo 0)
  SIMD_TEXT=$(text "$D/simd/obj/cpu_kernels.o" 2>/dev/null || echo 0)
  REPLACED=0
  for K in conv depthwise_conv fully_connected; do
    if [ -f "$D/ref/obj/ref_$K.o" ] && [ ! -f "$D/cpu/obj/ref_$K.o" ]; then
      REPLACED=$((REPLACED + $(text "$D/ref/obj/ref_$K.o")))
    fi
  done
  ALL_REF=$(text $(ls "$D"/ref/obj/ref_*.o))
  ALL_CPU=$(text $(ls "$D"/cpu/obj/ref_*.o "$D"/cpu/obj/cpu_kernels.o 2>/dev/null))
  if [ $TFL_OK = 1 ]; then
    TFL=$(median <"$D/tflite.us")
    RC=$(awk -v a="$CPU" -v b="$TFL" 'BEGIN { printf "%.2f", a / b }')
    RS=$(awk -v a="$SIMDUS" -v b="$TFL" 'BEGIN { printf "%.2f", a / b }')
    RR=$(awk -v a="$REF" -v b="$TFL" 'BEGIN { printf "%.2f", a / b }')
    GOAL=$(awk -v r="$RC" -v m="$MACS" 'BEGIN { if (m <= 1000000) print "n/a (<= 1 M MACs)"; else if (r <= 0.5) print "met"; else print "not met" }')
    TFL=$(printf "%.1f" "$TFL")
  else
    echo "$NAME: the oracle failed: $(tail -n 1 "$D/oracle.err")" >&2
    TFL="failed"; RC="-"; RS="-"; RR="-"; GOAL="-"
  fi
  printf "| %s | %s | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s | %s / %s | %s | %s / %s |\n" \
    "$NAME" "$MACS" "$REF" "$CPU" "$SIMDUS" "$TFL" "$RC" "$RS" "$RR" "$GOAL" \
    "$CPU_TEXT" "$SIMD_TEXT" "$REPLACED" "$ALL_REF" "$ALL_CPU"
done
