# bench/cortex-m-common.sh - sourced by the Cortex-M benchmarks. Needs SHARED
# and WORK.
#   qemu_machine CPU   prints the QEMU machine that emulates CPU (as
#                      targets/cmsis-nn/CmsisNn.cpp's cpus() names it).
# For each entry of MODELS (a model's name under SHARED/models, or a .tflite
# file's path):
#   model_file ENTRY   sets FILE to the model's path and MODEL to its name;
#   model_seed         sets SEED to the folder of its seed-1 inputs and
#                      expected_<i>.bin outputs: the shared vectors where
#                      they exist, otherwise what TensorFlow Lite Micro's
#                      oracle (tflm_runner --seed 1) gives, made once in
#                      $WORK/oracle.

model_file() {
  case $1 in
    *.tflite) FILE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
              MODEL=$(basename "$1" .tflite) ;;
    *) FILE=$SHARED/models/$1.tflite
       MODEL=$1 ;;
  esac
}

model_seed() {
  SEED=$SHARED/vectors/$MODEL/seed1
  [ -d "$SEED" ] && return 0
  SEED=$WORK/oracle/$MODEL
  [ -d "$SEED" ] && return 0
  mkdir -p "$SEED/out"
  "$SHARED/tools/tflm-oracle/tflm_runner" "$FILE" "$SEED" "$SEED/out" \
    --seed 1 >/dev/null
  for f in "$SEED"/out/output_*.bin; do
    mv "$f" "$SEED/expected_${f##*/output_}"
  done
}

qemu_machine() {
  case $1 in
    cortex-m55) echo mps3-an547 ;;
    cortex-m3) echo mps2-an385 ;;
    cortex-m0) echo microbit ;;
    *) echo mps2-an386 ;;
  esac
}
