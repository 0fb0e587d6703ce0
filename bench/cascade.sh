#!/bin/sh
# bench/cascade.sh - working memory, extra MACs and latency of cascading.
#
# For MobileNetV2-224 (the shared Coral model), VWW and person_detect: compile
# with `accelgen compile --target ref --main` layer at a time and with
# --cascade (the least working memory), build both with the system C compiler,
# and time both on seed 1's inputs. Prints one Markdown table row per model:
# the arenas, TensorFlow Lite Micro's arena (tflm_arena.txt) where there is
# one, the cascades, the model's MACs and the extra MACs cascading computes,
# the bytes the windows move per invocation, and the mean latency of both;
# then the arena and latency with --cascade --inputs-in-place (the graph input
# read in the caller's buffer, which the harness passes).
#
# Then MobileNetV2-224 under --memory-budget 176128 with its input in the
# arena (tiles for its first cascade: docs/cascading.md, "Tiles"): its
# arena, extra MACs and latency, against the layer-at-a-time program's.
#
# TARGET=cpu times target cpu instead (its specialised kernels, which its
# cascades call stripe by stripe), with CPU as its --cpu value (default
# generic, the portable kernels) and -O3 -march=native as the default CFLAGS.
#
# Usage: bench/cascade.sh [BUILD_DIR]          (default: build)
# Environment: SHARED (default ../shared), REPEAT (default 10), TARGET
# (default ref), CPU, CC, CFLAGS (default -O2 for ref).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
REPEAT=${REPEAT:-10}
TARGET=${TARGET:-ref}
CPU=${CPU:-generic}
CC=${CC:-cc}
if [ "$TARGET" = ref ]; then
  CFLAGS=${CFLAGS:--O2}
  TARGET_ARGS="--target ref"
else
  CFLAGS=${CFLAGS:--O3 -march=native}
  TARGET_ARGS="--target $TARGET --cpu $CPU"
fi

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-cascade.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PIN=""
if command -v taskset >/dev/null 2>&1; then PIN="taskset -c 0"; fi

# The value of "key" in a one-level JSON object printed by python3.
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "| model | layer arena B | cascaded arena B | TFLM arena B | cascades | MACs | extra MACs | moved B | layer us | cascaded us | cascaded, input in place B | its us |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for NAME in coral_mobilenet_v2_10_224_quant_uint8 \
            mlperf_tiny_vww_mobilenetv1_025_96_int8 tflm_person_detect_int8_qdimfix; do
  MODEL=$SHARED/models/$NAME.tflite
  IN=$SHARED/vectors/$NAME/seed1
  for MODE in layer cascaded inplace; do
    D=$WORK/$NAME/$MODE
    mkdir -p "$D/out"
    EXTRA=""
    [ "$MODE" = cascaded ] && EXTRA=--cascade
    [ "$MODE" = inplace ] && EXTRA="--cascade --inputs-in-place"
    "$ACCELGEN" compile "$MODEL" $TARGET_ARGS -o "$D/src" --main $EXTRA >/dev/null 2>&1
    $CC -std=c99 $CFLAGS -o "$D/prog" "$D"/src/*.c -lm
    $PIN "$D/prog" "$IN" "$D/out" --repeat "$REPEAT" |
      awk '{ for (i = 1; i < NF; ++i) if ($i == "mean_us") printf "%.0f", $(i + 1) }' >"$D/us"
  done
  R=$WORK/$NAME/cascaded/src/report.json
  for MODE in cascaded inplace; do
    cmp -s "$WORK/$NAME/layer/out/output_0.bin" "$WORK/$NAME/$MODE/out/output_0.bin" ||
      { echo "error: $NAME: $MODE output differs" >&2; exit 1; }
  done
  P=$WORK/$NAME/inplace/src/report.json
  TFLM=$(sed -n 's/^arena_used=//p' "$SHARED/vectors/$NAME/tflm_arena.txt" 2>/dev/null || true)
  echo "| $NAME | $(json "$R" "r['cascading']['layer_arena_bytes']") | $(json "$R" "r['cascading']['arena_bytes']") | ${TFLM:-n/a} | $(json "$R" "len(r['cascading']['cascades'])") | $(json "$R" "r['cascading']['macs']") | $(json "$R" "r['cascading']['extra_macs']") | $(json "$R" "r['cascading']['moved_bytes']") | $(cat "$WORK/$NAME/layer/us") | $(cat "$WORK/$NAME/cascaded/us") | $(json "$P" "r['cascading']['arena_bytes']") | $(cat "$WORK/$NAME/inplace/us") |"
done

# MobileNetV2-224 within 176,128 bytes, its input copied into the arena.
NAME=coral_mobilenet_v2_10_224_quant_uint8
D=$WORK/$NAME/budget
mkdir -p "$D/out"
"$ACCELGEN" compile "$SHARED/models/$NAME.tflite" $TARGET_ARGS -o "$D/src" --main \
  --memory-budget 176128 >/dev/null 2>&1
$CC -std=c99 $CFLAGS -o "$D/prog" "$D"/src/*.c -lm
$PIN "$D/prog" "$SHARED/vectors/$NAME/seed1" "$D/out" --repeat "$REPEAT" |
  awk '{ for (i = 1; i < NF; ++i) if ($i == "mean_us") printf "%.0f", $(i + 1) }' >"$D/us"
cmp -s "$WORK/$NAME/layer/out/output_0.bin" "$D/out/output_0.bin" ||
  { echo "error: $NAME: the output under the budget differs" >&2; exit 1; }
R=$D/src/report.json
echo
echo "| model | budget B | arena B | tiled cascades | MACs | extra MACs | layer us | budget us |"
echo "|---|---|---|---|---|---|---|---|"
echo "| $NAME | 176128 | $(json "$R" "r['arena']['bytes']") | $(json "$R" "sum(1 for c in r['cascading']['cascades'] if c['tile_columns'] > 0)") | $(json "$R" "r['cascading']['macs']") | $(json "$R" "r['cascading']['extra_macs']") | $(cat "$WORK/$NAME/layer/us") | $(cat "$D/us") |"
