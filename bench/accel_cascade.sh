#!/bin/sh
# bench/accel_cascade.sh - cascading on the accelerator targets.
#
# For MobileNetV2-224 (the shared Coral model), VWW, person_detect,
# ic_resnet8 and kws on every functional-model label (`accelgen targets`):
# compile layer at a time and with --cascade (the least working memory) and
# print one Markdown table row per model and label: the two arenas,
# TensorFlow Lite Micro's arena where the vectors have one, the cascades,
# the accelerator operators inside them and the striped subgraphs, the extra
# MACs, and the estimated accelerator cycles of both (the target's cost
# model; a striped subgraph switches the device once per stripe, and the
# switch share of the cascaded figure is given); then the arena and cycles
# with --cascade --inputs-in-place (the graph input read in the caller's
# buffer). Runs all three on seed 1 (`accelgen run`, the functional model)
# and stops if an output differs from the layer-at-a-time one.
#
# Usage: bench/accel_cascade.sh [BUILD_DIR]          (default: build)
# Environment: SHARED (default ../shared), LABELS (default: every label of
# mdla and npu).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
LABELS=${LABELS:-mdla1.5 mdla2.0 mdla3.0 npu55 npu65}

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-accel-cascade.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Evaluates a Python expression over report.json as r.
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "| model | label | layer arena B | cascaded arena B | TFLM arena B | cascades | accelerator ops in cascades | striped subgraphs | extra MACs | layer cycles | cascaded cycles | of them switches | in place arena B | its cycles |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for NAME in coral_mobilenet_v2_10_224_quant_uint8 \
            mlperf_tiny_vww_mobilenetv1_025_96_int8 tflm_person_detect_int8_qdimfix \
            mlperf_tiny_ic_resnet8_int8 mlperf_tiny_kws_dscnn_int8; do
  MODEL=$SHARED/models/$NAME.tflite
  IN=$SHARED/vectors/$NAME/seed1
  TFLM=$(sed -n 's/^arena_used=//p' "$SHARED/vectors/$NAME/tflm_arena.txt" 2>/dev/null || true)
  for LABEL in $LABELS; do
    for MODE in layer cascaded inplace; do
      D=$WORK/$NAME/$LABEL/$MODE
      mkdir -p "$D"
      EXTRA=""
      [ "$MODE" = cascaded ] && EXTRA=--cascade
      [ "$MODE" = inplace ] && EXTRA="--cascade --inputs-in-place"
      "$ACCELGEN" compile "$MODEL" --target "$LABEL" -o "$D/src" $EXTRA >/dev/null 2>&1
      "$ACCELGEN" run "$MODEL" --target "$LABEL" --inputs "$IN" --outputs "$D/out" \
        --cache-dir "$WORK/cache" $EXTRA >/dev/null 2>&1
    done
    L=$WORK/$NAME/$LABEL/layer
    C=$WORK/$NAME/$LABEL/cascaded
    P=$WORK/$NAME/$LABEL/inplace
    for F in "$L"/out/output_*.bin; do
      for D in "$C" "$P"; do
        cmp -s "$F" "$D/out/$(basename "$F")" ||
          { echo "error: $NAME on $LABEL: $(basename "$D") $(basename "$F") differs" >&2; exit 1; }
      done
    done
    R=$C/src/report.json
    echo "| $NAME | $LABEL | $(json "$L/src/report.json" "r['arena']['bytes']") | $(json "$R" "r['arena']['bytes']") | ${TFLM:-n/a} | $(json "$R" "len(r['cascading']['cascades'])") | $(json "$R" "sum(1 for o in r['operators'] if o['placement'] == 'accelerator' and 'cascade' in o)") | $(json "$R" "sum(1 for s in r['accelerator']['subgraphs'] if s['striped'])") | $(json "$R" "r['cascading']['extra_macs']") | $(json "$L/src/report.json" "round(r['accelerator']['estimated_cycles'])") | $(json "$R" "round(r['accelerator']['estimated_cycles'])") | $(json "$R" "round(r['accelerator']['switch_cycles'])") | $(json "$P/src/report.json" "r['arena']['bytes']") | $(json "$P/src/report.json" "round(r['accelerator']['estimated_cycles'])") |"
  done
done
