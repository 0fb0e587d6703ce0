#!/bin/sh
# bench/cortex-m-layers.sh - the instructions of every operator of target
# cmsis-nn on Cortex-M4 and Cortex-M55 under QEMU, so that a change to one
# layer's kernel shows where it gained or lost.
#
# For each model and CPU: `accelgen run --target cmsis-nn --cpu CPU
# --dump-layers --save-image` builds the bare-metal image with the trace hook
# (arm-none-eabi-gcc, CMSIS-NN at -O2) and runs it on seed 1; every output
# must equal expected_<i>.bin and every layer dump the shared vectors'
# seed1/layers/output_<k>.bin where the model has them (TensorFlow Lite
# Micro's reference kernels). A model without shared vectors (MODELS may
# give a .tflite file's path, such as the single layers of
# build/bench/accelgen-cost-shapes) runs on the inputs and outputs of
# TensorFlow Lite Micro's oracle (bench/cortex-m-common.sh). The image then
# runs again under qemu-system-arm (cortex-m0 on microbit, cortex-m3 on
# mps2-an385, cortex-m4 on
# mps2-an386, cortex-m55 on mps3-an547) with the qemu-insncount plugin
# counting from the entry of
# the hook's layer_begin to the entry of its layer_end
# (targets/cmsis-nn/templates/cortex_m_main.c.in): one count per traced
# tensor, in the order of the TRACE calls of the model.c that
# `accelgen compile --target cmsis-nn --cpu CPU` writes (the same
# emission), summed per operator. The layer dumps between the two marks are
# not counted.
#
# Prints one Markdown table per model, a row per operator: its index and
# type, its MACs (accelgen inspect; "-" where the emitted operator is not the
# model's), and per CPU what runs it (model.c's comment: the CMSIS-NN
# function, the reference kernel of a CPU fallback, or that nothing is
# computed), its instructions and instructions per MAC, and where the
# description's costs chose the function (report.json's kernel_candidates),
# its estimate as a share of the count ("1.04": 4% above), and where the
# same image built with --library-calls-only (CMSIS-NN's functions only)
# calls another function for the operator, that function, its instructions
# and ours over them; a last row sums them (the CMSIS-NN image's whole
# inference in the last columns).
# Then a table by operator type and function: per model and CPU, their operators,
# MACs, instructions, instructions per MAC and share of the inference.
# Each count includes the hook's own instructions, a dozen, the same for
# every operator: the row of an operator that computes nothing (a RESHAPE
# that only renames its input) shows how many (the first operator's also has
# the call into the inference). The whole inference without the hook is
# bench/cortex-m.sh's figure.
#
# Usage: bench/cortex-m-layers.sh [BUILD_DIR]          (default: build)
# Environment: SHARED (default ../shared beside the checkout), CMSIS_NN_PATH
# (default SHARED/third_party/CMSIS-NN), MODELS (default: the six of
# ../shared/peers/tflm-cmsis-nn-cortex-m.md), CPUS (default
# "cortex-m4 cortex-m55").
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
ACCELGEN=$BUILD/tools/accelgen/accelgen
SHARED=${SHARED:-$ROOT/../shared}
CMSIS_NN_PATH=${CMSIS_NN_PATH:-$SHARED/third_party/CMSIS-NN}
MODELS=${MODELS:-"tflm_micro_speech_int8 mlperf_tiny_kws_dscnn_int8 mlperf_tiny_vww_mobilenetv1_025_96_int8 mlperf_tiny_ic_resnet8_int8 mlperf_tiny_ad_autoencoder_int8 tflm_person_detect_int8"}
CPUS=${CPUS:-"cortex-m4 cortex-m55"}

[ -x "$ACCELGEN" ] || { echo "error: $ACCELGEN not built" >&2; exit 1; }
[ -d "$SHARED/models" ] || { echo "error: $SHARED/models is missing (set SHARED)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelgen-cortex-m-layers.XXXXXX")
. "$ROOT/bench/cortex-m-common.sh"
trap 'rm -rf "$WORK"' EXIT
gcc -O2 -shared -fPIC -o "$WORK/libinsncount.so" \
  "$SHARED/tools/qemu-insncount/insncount.c"

# The entry address of function $2 of image $1.
entry() {
  a=$(arm-none-eabi-nm "$1" | awk -v f="$2" '$3 == f { print $1; exit }')
  [ -n "$a" ] || { echo "error: no $2 in $1" >&2; exit 1; }
  echo "0x$a"
}

# Builds, checks and counts $model on CPU $1, the files tagged $2 ("" or
# "-lib"), compiled with the further options $3... (--library-calls-only).
measure() {
  cpu=$1 tag=$2
  shift 2
  quiet "$ACCELGEN" compile "$file" --target cmsis-nn \
    --cpu "$cpu" "$@" -o "$D/src-$cpu$tag" >/dev/null
  # The operator of each TRACE call, in order; and each operator's comment.
  awk '
    /^ *\/\* [0-9]+: / { s = $0; sub(/^ *\/\* /, "", s); sub(/ *\*\/ *$/, "", s)
                          i = s; sub(/:.*/, "", i); sub(/^[0-9]+: /, "", s); what[i] = s }
    /^ *TRACE\([0-9]+,/ { s = $0; sub(/^ *TRACE\(/, "", s); sub(/,.*/, "", s)
                           print s "\t" (s in what ? what[s] : "-") }' \
    "$D/src-$cpu$tag/model.c" >"$D/trace-$cpu$tag.txt"
  elf=$D/$cpu$tag.elf
  out=$D/out-$cpu$tag
  quiet "$ACCELGEN" run "$file" --target cmsis-nn \
    --cpu "$cpu" "$@" --cmsis-nn "$CMSIS_NN_PATH" --inputs "$seed" \
    --outputs "$out" --dump-layers --save-image "$elf" \
    --cache-dir "$WORK/cache" >/dev/null
  for want in "$seed"/expected_*.bin; do
    cmp -s "$out/output_${want##*/expected_}" "$want" || {
      echo "error: $model on $cpu$tag: output ${want##*/expected_} differs from TFLM's" >&2; exit 1; }
  done
  layers=0
  if [ -d "$seed/layers" ]; then
    for want in "$seed"/layers/output_*.bin; do
      got=$out/layers/${want##*/}
      cmp -s "$got" "$want" || {
        echo "error: $model on $cpu$tag: layer ${want##*/} differs from TFLM's" >&2; exit 1; }
      layers=$((layers + 1))
    done
  fi
  if [ "$layers" -gt 0 ]; then
    echo "$model on $cpu$tag: outputs and $layers layer dumps equal TFLM's" >&2
  else
    echo "$model on $cpu$tag: outputs equal TFLM's (the vectors have no layers)" >&2
  fi
  begin=$(entry "$elf" layer_begin)
  end=$(entry "$elf" layer_end)
  rm -rf "$D/run" && mkdir -p "$D/run/layers" && cp "$seed"/input_*.bin "$D/run/"
  (cd "$D/run" &&
    timeout 600 qemu-system-arm -M "$(qemu_machine "$cpu")" \
      -nographic -monitor none -semihosting-config enable=on,target=native \
      -plugin "$WORK/libinsncount.so,start=$begin,stop=$end" \
      -d plugin -D "$D/count-$cpu$tag.log" -kernel "$elf" >/dev/null)
  sed -n 's/^insncount: marked region #[0-9]*: \([0-9]*\) insns.*/\1/p' \
    "$D/count-$cpu$tag.log" >"$D/counts-$cpu$tag.txt"
  [ "$(wc -l <"$D/counts-$cpu$tag.txt")" -eq "$(wc -l <"$D/trace-$cpu$tag.txt")" ] || {
    echo "error: $model on $cpu$tag: $(wc -l <"$D/counts-$cpu$tag.txt") counts for $(wc -l <"$D/trace-$cpu$tag.txt") TRACE calls" >&2; exit 1; }
}

for entry in $MODELS; do
  model_file "$entry"
  file=$FILE model=$MODEL
  model_seed
  seed=$SEED
  D=$WORK/$model
  mkdir -p "$D"
  # accelgen's warnings (a model's own defects) go to a file, shown if it fails.
  quiet() { "$@" 2>"$D/stderr" || { cat "$D/stderr" >&2; exit 1; }; }
  quiet "$ACCELGEN" inspect "$file" --json >"$D/inspect.json"
  header="| op | type | MACs |"
  rule="|---:|---|---:|"
  for cpu in $CPUS; do
    c=$(echo "$cpu" | sed 's/cortex-//')
    header="$header $c runs as | $c instructions | $c per MAC | $c estimate | $c CMSIS-NN call | $c its instructions | $c ours / call |"
    rule="$rule---|---:|---:|---:|---|---:|---:|"
    measure "$cpu" ""
    measure "$cpu" "-lib" --library-calls-only
  done
  echo
  echo "### $model"
  echo
  echo "$header"
  echo "$rule"
  # shellcheck disable=SC2086
  python3 - "$D" $CPUS <<'EOF'
import json, sys
d, cpus = sys.argv[1], sys.argv[2:]
ops = json.load(open(d + "/inspect.json"))["subgraphs"][0]["operators"]
order, what, count = [], {}, {}
# The same model with --library-calls-only: what CMSIS-NN's call takes.
lib_what, lib_count = {}, {}
for cpu in cpus:
    trace = [l.rstrip("\n").split("\t") for l in open(f"{d}/trace-{cpu}.txt")]
    counts = [int(l) for l in open(f"{d}/counts-{cpu}.txt")]
    for (op, text), n in zip(trace, counts):
        op = int(op)
        if op not in what:
            order.append(op)
            what[op] = {}
        what[op][cpu] = text
        count[(cpu, op)] = count.get((cpu, op), 0) + n
    trace = [l.rstrip("\n").split("\t") for l in open(f"{d}/trace-{cpu}-lib.txt")]
    counts = [int(l) for l in open(f"{d}/counts-{cpu}-lib.txt")]
    for (op, text), n in zip(trace, counts):
        lib_what[(cpu, int(op))] = text
        lib_count[(cpu, int(op))] = lib_count.get((cpu, int(op)), 0) + n
# The description's estimate of the function the costs chose.
estimate = {}
for cpu in cpus:
    for o in json.load(open(f"{d}/src-{cpu}/report.json"))["operators"]:
        if o.get("kernel_chosen_by") == "cost":
            estimate[(cpu, o["index"])] = next(
                k["estimated_cycles"] for k in o["kernel_candidates"]
                if k["kernel"] == o["kernel"])
def kind(op):
    return next(iter(what[op].values())).split(":")[0]
def runs_as(op, cpu, text=None):
    # model.c's comment without the operator's type: the function called,
    # or what the operator does instead.
    text = what[op].get(cpu, "-") if text is None else text
    rest = text.split(": ", 1)[1] if ": " in text else text
    if rest.startswith(kind(op) + " as "):
        rest = rest[len(kind(op)) + 4:]
    return rest.replace("|", "/")
def macs(op):
    # The model's operator only where the emitted one is it (same type).
    if op < len(ops) and kind(op) == ops[op]["type"]:
        return ops[op]["macs"]
    return None
total = {cpu: 0 for cpu in cpus}
total_macs = 0
for op in order:
    m = macs(op)
    total_macs += m or 0
    row = [str(op), kind(op), f"{m:,}" if m is not None else "-"]
    for cpu in cpus:
        n = count.get((cpu, op), 0)
        total[cpu] += n
        e = estimate.get((cpu, op))
        row += [runs_as(op, cpu), f"{n:,}", f"{n / m:.2f}" if m else "-",
                f"{e / n:.2f}" if e is not None and n else "-"]
        # CMSIS-NN's call on the same layer, where ours is another function.
        lib = runs_as(op, cpu, lib_what.get((cpu, op), "-"))
        ln = lib_count.get((cpu, op), 0)
        if lib != runs_as(op, cpu) and ln:
            row += [lib, f"{ln:,}", f"{n / ln:.2f}"]
        else:
            row += ["-", "-", "-"]
    print("| " + " | ".join(row) + " |")
row = ["all", f"{len(order)} operators", f"{total_macs:,}"]
for cpu in cpus:
    lib_total = sum(v for (c, _), v in lib_count.items() if c == cpu)
    row += ["", f"{total[cpu]:,}", f"{total[cpu] / total_macs:.2f}" if total_macs else "-", "",
            "", f"{lib_total:,}", f"{total[cpu] / lib_total:.2f}" if lib_total else "-"]
print("| " + " | ".join(row) + " |")
# The model's rows of the summary by operator type (printed at the end).
with open(d + "/../summary.md", "a") as out:
    model = d.rstrip("/").split("/")[-1]
    for cpu in cpus:
        by = {}
        for op in order:
            # The type and the function where the comment names one.
            text = what[op].get(cpu, "")
            func = runs_as(op, cpu) if " as " in text else ""
            k = by.setdefault(kind(op) + (f" ({func})" if func else ""), [0, 0, 0])
            k[0] += 1
            k[1] += macs(op) or 0
            k[2] += count.get((cpu, op), 0)
        for t, (n, m, i) in sorted(by.items(), key=lambda kv: -kv[1][2]):
            out.write(f"| {model} | {cpu.replace('cortex-', '')} | {t} | {n} | {m:,} | {i:,} | "
                      + (f"{i / m:.2f}" if m else "-")
                      + f" | {100 * i / total[cpu]:.1f}% |\n")
EOF
done
echo
echo "### By operator type and function"
echo
echo "| model | cpu | type (function) | operators | MACs | instructions | per MAC | of the inference |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
cat "$WORK/summary.md"
