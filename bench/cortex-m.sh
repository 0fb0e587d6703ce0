#!/bin/sh
# bench/cortex-m.sh - instructions, flash and RAM of target cmsis-nn on
# Cortex-M55 and Cortex-M4 under QEMU, beside TensorFlow Lite Micro's.
#
# For each model of ../shared/peers/tflm-cmsis-nn-cortex-m.md and each CPU:
# `accelgen run --target cmsis-nn --cpu CPU` builds the bare-metal image
# (arm-none-eabi-gcc, CMSIS-NN at -O2) and runs it on seed 1 (the outputs are
# checked against expected_0.bin); the image then runs again under
# qemu-system-arm with the qemu-insncount plugin counting the executed
# instructions from the entry of model_invoke_once to the return address of
# its call in main, as the peer figures were counted. Prints one Markdown
# table row per model and CPU:
#   instructions  exact executed instructions of one inference
#   flash         .vectors + .text (code, weights, parameters) + .ARM.exidx
#                 + .data (arm-none-eabi-size)
#   RAM           .data + .bss (arena with its scratch area, the harness's
#                 input and output buffers) + the deepest stack use, read
#                 back from the painted stack (stack.txt)
#   stack         that deepest stack use alone
# and the peer's instructions, flash and RAM, with our / peer ratios.
#
# Usage: bench/cortex-m.sh [BUILD_DIR]          (default: build)
# Environment: SHARED (default ../shared beside the checkout), CMSIS_NN_PATH
# (default SHARED/third_party/CMSIS-NN), MODELS (default: the peer's six).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
CMSIS_NN_PATH=${CMSIS_NN_PATH:-$SHARED/third_party/CMSIS-NN}
MODELS=${MODELS:-"tflm_micro_speech_int8 mlperf_tiny_kws_dscnn_int8 mlperf_tiny_vww_mobilenetv1_025_96_int8 mlperf_tiny_ic_resnet8_int8 mlperf_tiny_ad_autoencoder_int8 tflm_person_detect_int8"}
PEERS=$SHARED/peers/tflm-cmsis-nn-cortex-m.md

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
gcc -O2 -shared -fPIC -o "$WORK/libinsncount.so" \
  "$SHARED/tools/qemu-insncount/insncount.c"

# The peer's row for model short name $1 and cpu $2 (m55, m4), field $3
# (1-based after the cpu: 1 TFLM instructions, 3 TFLM flash, 6 TFLM RAM).
peer() {
  awk -F'|' -v m="$1" -v c="$2" -v f="$3" '
    { gsub(/ /, "", $2); gsub(/ /, "", $3) }
    $2 == m && $3 == c { v = $(3 + f); gsub(/[ ,]/, "", v); print v }' "$PEERS"
}

# "1.00" for $1 / $2.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

echo "| model | cpu | instructions | TFLM | ratio | flash | TFLM | ratio | RAM | TFLM | ratio | stack |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for model in $MODELS; do
  short=$(echo "$model" | sed 's/^tflm_//; s/^mlperf_tiny_//; s/_int8$//; s/_96$//')
  case $short in
    vww_mobilenetv1_025) ;;
    *) short=$(echo "$short" | sed 's/_int8//') ;;
  esac
  for cpu in cortex-m55 cortex-m4; do
    c=$(echo "$cpu" | sed 's/cortex-//')
    seed=$SHARED/vectors/$model/seed1
    out=$WORK/$model-$cpu
    elf=$WORK/$model-$cpu.elf
    "$ACCELGEN" run "$SHARED/models/$model.tflite" --target cmsis-nn \
      --cpu "$cpu" --cmsis-nn "$CMSIS_NN_PATH" --inputs "$seed" \
      --outputs "$out" --save-image "$elf" --cache-dir "$WORK/cache" >/dev/null
    cmp -s "$out/output_0.bin" "$seed/expected_0.bin" || {
      echo "$model on $cpu: output differs from expected_0.bin" >&2; exit 1; }
    entry=$(arm-none-eabi-nm "$elf" | awk '$3 == "model_invoke_once" { print $1 }')
    # The instruction after the call in main (bl is 4 bytes).
    call=$(arm-none-eabi-objdump -d "$elf" |
      awk '/^[0-9a-f]+ <main>:/ { m = 1; next } /^$/ { m = 0 }
           m && /bl.*<model_invoke_once>/ { sub(":", "", $1); print $1; exit }')
    ret=$(printf '%x' $((0x$call + 4)))
    (cd "$WORK" && mkdir -p run && cp "$seed"/input_*.bin run/ && cd run &&
      timeout 600 qemu-system-arm -M "$(case $cpu in cortex-m55) echo mps3-an547;; *) echo mps2-an386;; esac)" \
        -nographic -monitor none -semihosting-config enable=on,target=native \
        -plugin "$WORK/libinsncount.so,start=0x$entry,stop=0x$ret" \
        -d plugin -D "$WORK/count.log" -kernel "$elf" >/dev/null)
    insns=$(sed -n 's/.*marked=\([0-9]*\).*/\1/p' "$WORK/count.log" | tail -1)
    flash=$(arm-none-eabi-size -A "$elf" |
      awk '$1 == ".vectors" || $1 == ".text" || $1 == ".ARM.exidx" || $1 == ".data" { s += $2 } END { print s }')
    static=$(arm-none-eabi-size -A "$elf" |
      awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { print s }')
    stack=$(awk '{ print $2 }' "$out/stack.txt")
    ram=$((static + stack))
    pi=$(peer "$short" "$c" 1); pf=$(peer "$short" "$c" 3); pr=$(peer "$short" "$c" 6)
    echo "| $short | $c | $insns | $pi | $(ratio "$insns" "$pi") | $flash | $pf | $(ratio "$flash" "$pf") | $ram | $pr | $(ratio "$ram" "$pr") | $stack |"
  done
done
