#!/bin/sh
# bench/layers.sh - per-layer time of target cpu's SIMD kernels against
# XNNPACK, interleaved in one run.
#
# For each model (default: VWW, ResNet-8 and the Coral MobileNetV2): compile
# it with `accelgen compile --target cpu --cpu CPU --main`, build it with
# bench/layer_trace.c (each operator's time as the gap between the model's
# trace calls), and time it single-threaded on seed 1's inputs; in turn, run
# build/bench/accelgen-bench-xnnpack, which makes every CONV_2D,
# DEPTHWISE_CONV_2D and FULLY_CONNECTED of the model an XNNPACK operator
# with the same shapes and quantization and times it alone. Both are pinned
# to one core (taskset -c 0) and alternate ROUNDS times, REPEAT runs each;
# a layer's figure is the median over the rounds. Prints, per model and
# layer type (and the 1x1 convolutions apart): the layers, their MACs, the
# time of each side, the ratio cpu / XNNPACK against the goal (at most 0.7),
# GMAC/s and the fraction of the int8 peak, 64 MAC per cycle (one 512-bit
# vpdpbusd) at the clock of /proc/cpuinfo's first "cpu MHz" (the nominal
# clock a virtual machine reports; set MHZ to override).
#
# Usage: bench/layers.sh [BUILD_DIR]          (default: build)
# Environment:
#   SHARED   the shared folder (default: ../shared beside the checkout)
#   CPU      the --cpu value (default native)
#   ROUNDS   interleaved rounds (default 5); REPEAT runs per round (default 20)
#   CC       the C compiler (default cc); CFLAGS (default -O3 -march=native)
#   MODELS   model names (default: the three above); MHZ the clock
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
XNN=$BUILD/bench/accelgen-bench-xnnpack
SHARED=${SHARED:-$ROOT/../shared}
CPU=${CPU:-native}
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-20}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O3 -march=native}
MODELS=${MODELS:-mlperf_tiny_vww_mobilenetv1_025_96_int8 mlperf_tiny_ic_resnet8_int8 coral_mobilenet_v2_10_224_quant_uint8}
MHZ=${MHZ:-$(sed -n 's/^cpu MHz[^:]*: *//p' /proc/cpuinfo | head -n 1)}

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
[ -x "$XNN" ] || { echo "error: $XNN not built: XNNPACK is not installed (apt-get install libxnnpack-dev) or the build predates it" >&2; exit 1; }
[ -d "$SHARED/models" ] || { echo "error: $SHARED/models is missing (set SHARED)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-layer-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PIN=""
if command -v taskset >/dev/null 2>&1; then PIN="taskset -c 0"; fi

echo "clock ${MHZ} MHz, int8 peak $(awk -v m="$MHZ" 'BEGIN { printf "%.1f", 64 * m / 1000 }') GMAC/s; --cpu $CPU; $ROUNDS rounds of $REPEAT runs; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| model | layers | count | MACs | cpu us | XNNPACK us | cpu / XNNPACK | goal (<= 0.7) | cpu GMAC/s | cpu % of peak | XNNPACK GMAC/s | XNNPACK % of peak |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
for NAME in $MODELS; do
  MODEL=$SHARED/models/$NAME.tflite
  IN=$SHARED/vectors/$NAME/seed1
  D=$WORK/$NAME
  mkdir -p "$D/obj" "$D/out"
  "$ACCELGEN" compile "$MODEL" --target cpu --cpu "$CPU" -o "$D/src" --main >/dev/null 2>"$D/warnings"
  for C in "$D"/src/*.c; do
    B=$(basename "$C" .c)
    case $B in
      main) X="-Dmodel_reset=bench_main_reset -Dmodel_trace=bench_main_trace" ;;
      model) X="-DMODEL_TRACE" ;;
      *) X="" ;;
    esac
    $CC -std=c99 $CFLAGS $X -c "$C" -o "$D/obj/$B.o"
  done
  $CC -std=c99 $CFLAGS -I"$D/src" -c "$ROOT/bench/layer_trace.c" -o "$D/obj/layer_trace.o"
  $CC -o "$D/prog" "$D"/obj/*.o -lm
  for R in $(seq "$ROUNDS"); do
    $PIN "$D/prog" "$IN" "$D/out" --repeat "$REPEAT" | awk -v r="$R" '$1 == "op" { print r, $2, $3 }' >>"$D/cpu.txt"
    $PIN "$XNN" "$MODEL" "$REPEAT" 2>>"$D/xnn.err" | awk -v r="$R" '$1 == "op" { print r, $2, $3, $4, $5, $6 }' >>"$D/xnn.txt"
  done
  # Per layer: the medians over the rounds, then per layer type the sums.
  awk -v name="$NAME" -v mhz="$MHZ" '
    function median(s,   n, a, i, j, t) {
      n = split(s, a, " ")
      for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    FNR == 1 { file++ }
    file == 1 { cpu[$2] = cpu[$2] " " $3; next }
    { type[$2] = $3; win[$2] = $4; macs[$2] = $5; xnn[$2] = xnn[$2] " " $6 }
    END {
      for (op in type) {
        if (!(op in cpu)) continue
        c = median(cpu[op]); x = median(xnn[op])
        k = type[op] == "CONV_2D" ? "conv" : type[op] == "DEPTHWISE_CONV_2D" ? "depthwise" : "fully connected"
        n[k]++; m[k] += macs[op]; cs[k] += c; xs[k] += x
        if (k == "conv" && win[op] == "1x1") { k = "conv 1x1 (of conv)"; n[k]++; m[k] += macs[op]; cs[k] += c; xs[k] += x }
        k = "all three"; n[k]++; m[k] += macs[op]; cs[k] += c; xs[k] += x
      }
      peak = 64 * mhz / 1000
      split("conv|conv 1x1 (of conv)|depthwise|fully connected|all three", order, "|")
      for (i = 1; i <= 5; ++i) {
        k = order[i]
        if (!(k in n)) continue
        r = cs[k] / xs[k]
        goal = k == "conv 1x1 (of conv)" ? "-" : (r <= 0.7 ? "met" : "not met")
        gc = m[k] / cs[k] / 1000; gx = m[k] / xs[k] / 1000
        printf "| %s | %s | %d | %d | %.1f | %.1f | %.2f | %s | %.1f | %.1f%% | %.1f | %.1f%% |\n", name, k, n[k], m[k], cs[k], xs[k], r, goal, gc, 100 * gc / peak, gx, 100 * gx / peak
      }
    }' "$D/cpu.txt" "$D/xnn.txt"
  if [ -s "$D/xnn.err" ]; then sort -u "$D/xnn.err" | sed "s/^/$NAME: /" >&2; fi
done
