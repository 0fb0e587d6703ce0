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
#   beyond        the flash beyond the model's constant tensors (weights and
#                 biases, `accelgen inspect --json`'s constant_bytes): code
#                 and parameters, ours against TFLM's flash less the same
#                 bytes (its flatbuffer holds them once)
#   RAM           .data + .bss (arena with the calls' scratch, the harness's
#                 input and output buffers) + the deepest stack use, read
#                 back from the painted stack (stack.txt)
#   stack         that deepest stack use alone (the painted high-water mark)
#   static bounds the static stack bound of one inference (model_invoke_once)
#                 and of the whole program (Reset_Handler, the image's entry:
#                 the painted mark's scope), from the call-graph files gcc
#                 writes with -fcallgraph-info=su (accelgen run
#                 --save-call-graph) summed along the deepest call chain by
#                 accelgen-stack-bound. The C library's functions the files
#                 do not cover (memcpy, memset, strlen: assembly) get the
#                 frame their code pushes, read from the disassembly; the
#                 script stops if one of them calls anything, or if a chain
#                 meets an indirect call, recursion or a dynamic frame,
#                 which would make the bound inexact
# and the peer's instructions, flash and RAM, with our / peer ratios.
#
# A model without reference vectors (MODELS may name any model under
# SHARED/models, e.g. seanet-int16/seanet_conv0, or give a .tflite file's
# path, e.g. the int8 MobileNetV2 tools/int8-model makes) runs on the inputs of
# TensorFlow Lite Micro's oracle (tflm_runner --seed 1), whose outputs it
# must then equal; a model the peer has no figures for gets "-" there.
#
# Usage: bench/cortex-m.sh [BUILD_DIR]          (default: build)
# Environment: SHARED (default ../shared beside the checkout), CMSIS_NN_PATH
# (default SHARED/third_party/CMSIS-NN), MODELS (default: the peer's six),
# OPTIONS (more options of `accelgen run`, e.g. --cascade: the least working
# memory, docs/cascading.md), CPUS (default "cortex-m55 cortex-m4"; also
# cortex-m3, on QEMU's mps2-an385, and cortex-m0, on its microbit (16 KiB of
# RAM), for which the peer has no figures: "-").
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
STACK_BOUND=$BUILD/tools/stack-bound/accelgen-stack-bound
SHARED=${SHARED:-$ROOT/../shared}
CMSIS_NN_PATH=${CMSIS_NN_PATH:-$SHARED/third_party/CMSIS-NN}
OPTIONS=${OPTIONS:-}
CPUS=${CPUS:-"cortex-m55 cortex-m4"}
MODELS=${MODELS:-"tflm_micro_speech_int8 mlperf_tiny_kws_dscnn_int8 mlperf_tiny_vww_mobilenetv1_025_96_int8 mlperf_tiny_ic_resnet8_int8 mlperf_tiny_ad_autoencoder_int8 tflm_person_detect_int8"}
PEERS=$SHARED/peers/tflm-cmsis-nn-cortex-m.md

WORK=$(mktemp -d)
. "$ROOT/bench/cortex-m-common.sh"
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

# The stack bytes leaf function $2 of image $1 reserves: 4 per register it
# pushes, 8 per double register it vpushes, plus its `sub sp` immediates.
# Fails if the function calls another.
leaf_frame() {
  arm-none-eabi-objdump -d "$1" | awk -v f="<$2>:" '
    $2 == f { p = 1; next }
    p && /^$/ { exit }
    p && /\tbl(x)?\t|\tblx\t/ { print "calls"; exit 1 }
    p && /\tpush(\.w)?\t\{/ { s = $0; sub(/.*\{/, "", s); sub(/\}.*/, "", s); n += 4 * split(s, a, ",") }
    p && /\tvpush\t\{/ { s = $0; sub(/.*\{/, "", s); sub(/\}.*/, "", s); c = split(s, a, ",");
                          n += (s ~ /d/ ? 8 : 4) * c }
    p && /\tsub(\.w)?\tsp, (sp, )?#/ { s = $0; sub(/.*#/, "", s); sub(/[^0-9].*/, "", s); n += s }
    END { print n + 0 }'
}

# "1.00" for $1 / $2.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

echo "| model | cpu | instructions | TFLM | ratio | flash | TFLM | ratio | beyond weights: ratio | RAM | TFLM | ratio | stack | static: inference | static: program |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for model in $MODELS; do
  # A path to a .tflite file, or a model's name under SHARED/models.
  model_file "$model"
  file=$FILE model=$MODEL
  short=$(echo "$model" | sed 's/^tflm_//; s/^mlperf_tiny_//; s/_int8$//; s/_96$//')
  case $short in
    vww_mobilenetv1_025) ;;
    *) short=$(echo "$short" | sed 's/_int8//') ;;
  esac
  for cpu in $CPUS; do
    c=$(echo "$cpu" | sed 's/cortex-//')
    model_seed
    seed=$SEED
    out=$WORK/$model-$cpu
    elf=$WORK/$model-$cpu.elf
    mkdir -p "$(dirname "$elf")"
    "$ACCELGEN" run "$file" --target cmsis-nn \
      --cpu "$cpu" --cmsis-nn "$CMSIS_NN_PATH" --inputs "$seed" \
      --outputs "$out" --save-image "$elf" --save-call-graph "$WORK/cg-$model-$cpu" \
      --cache-dir "$WORK/cache" $OPTIONS >/dev/null
    for want in "$seed"/expected_*.bin; do
      got=$out/output_${want##*/expected_}
      cmp -s "$got" "$want" || {
        echo "$model on $cpu: ${got##*/} differs from ${want##*/}" >&2; exit 1; }
    done
    entry=$(arm-none-eabi-nm "$elf" | awk '$3 == "model_invoke_once" { print $1 }')
    # The instruction after the call in main (bl is 4 bytes).
    call=$(arm-none-eabi-objdump -d "$elf" |
      awk '/^[0-9a-f]+ <main>:/ { m = 1; next } /^$/ { m = 0 }
           m && /bl.*<model_invoke_once>/ { sub(":", "", $1); print $1; exit }')
    ret=$(printf '%x' $((0x$call + 4)))
    (cd "$WORK" && mkdir -p run && cp "$seed"/input_*.bin run/ && cd run &&
      timeout 600 qemu-system-arm -M "$(qemu_machine "$cpu")" \
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
    cg="$WORK/cg-$model-$cpu"
    frames=""
    for f in $("$STACK_BOUND" --root Reset_Handler "$cg"/*.ci |
               sed -n 's/^  unknown frames (counted as 0): //p' | tr -d ',' |
               sed 's/^none$//'); do
      n=$(leaf_frame "$elf" "$f") || {
        echo "$model on $cpu: $f is not a leaf; the static stack bound would not be exact" >&2; exit 1; }
      frames="$frames --frame $f=$n"
    done
    # shellcheck disable=SC2086
    "$STACK_BOUND" --root model_invoke_once --root Reset_Handler $frames \
      "$cg"/*.ci > "$WORK/bound.txt"
    if grep -q 'unknown frames (counted as 0): [^n]\|indirect calls from: [^n]\|recursion (not followed): [^n]\|dynamic frames: [^n]' "$WORK/bound.txt"; then
      cat "$WORK/bound.txt" >&2
      echo "$model on $cpu: the static stack bound is not exact" >&2; exit 1
    fi
    bound_inference=$(awk '/^model_invoke_once:/ { print $2 }' "$WORK/bound.txt")
    bound_program=$(awk '/^Reset_Handler:/ { print $2 }' "$WORK/bound.txt")
    pi=$(peer "$short" "$c" 1); pf=$(peer "$short" "$c" 3); pr=$(peer "$short" "$c" 6)
    weights=$("$ACCELGEN" inspect "$file" --json 2>/dev/null |
      sed -n 's/.*"constant_bytes": *\([0-9]*\).*/\1/p' | head -1)
    beyond="-"
    case $pf in
      ''|-) ;;
      *) beyond=$(ratio $((flash - weights)) $((pf - weights))) ;;
    esac
    echo "| $short | $c | $insns | $pi | $(ratio "$insns" "$pi") | $flash | $pf | $(ratio "$flash" "$pf") | $beyond | $ram | $pr | $(ratio "$ram" "$pr") | $stack | $bound_inference | $bound_program |"
  done
done
