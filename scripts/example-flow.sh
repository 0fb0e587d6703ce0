#!/usr/bin/env bash
# The bundled example, end to end, with tools already built (scripts/example.sh
# builds them first; CTest runs this as ExampleFlow so it cannot silently break):
#
#   1. compiles build/examples/tiny_convnet_int8.tflite for `ref` into OUT/ref
#      and shows the files and the entry point from model.h;
#   2. runs it on build/examples/input/input_0.bin (a test pattern written by
#      accelgen-make-example) with every operator's output dumped, and checks
#      all of them against accelgen-make-example's own evaluation of the model
#      (tools/make-example/ExampleReference.cpp: integer arithmetic written
#      there from TensorFlow Lite's int8 semantics, sharing no code with the
#      generated C);
#   3. runs it for mdla2.0 (CPU + the MDLA functional model) and compares the
#      two outputs bit for bit;
#   4. explains the mdla2.0 partition and names the drawing (Graphviz).
#
#   scripts/example-flow.sh [BUILD_DIR [OUT_DIR]]   default build/, BUILD_DIR/example
#
# Installs and builds nothing. Exits 1 on any failure or mismatch.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="${2:-$build/example}"
accelgen="$build/tools/accelgen/accelgen"
make_example="$build/tools/make-example/accelgen-make-example"
model="$build/examples/tiny_convnet_int8.tflite"
input="$build/examples/input"
for f in "$accelgen" "$make_example" "$model" "$input/input_0.bin"; do
  [ -e "$f" ] || { echo "example: $f is missing: build first (scripts/example.sh)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }
# Runs accelgen, showing the command with paths shortened to file names.
ag() {
  echo "\$ accelgen $*" | sed -e "s|$out/||g" -e "s|$build/examples/||g"
  "$accelgen" "$@"
}

step "1. compile the example for the CPU reference target"
ag compile "$model" --target ref -o "$out/ref"
(cd "$out/ref" && ls | sort | paste -sd' ' | fold -s -w 76 | sed 's/^/   /')
sig=$(grep -E '^int [A-Za-z0-9_]+_run\(' "$out/ref/model.h" || true)
[ -n "$sig" ] || { echo "example: no entry point in $out/ref/model.h" >&2; exit 1; }
echo "   entry point (model.h): $sig"

step "2. run it on a test pattern, check every layer against an independent evaluation"
ag run "$model" --target ref --inputs "$input" --outputs "$out/ref-out" --dump-layers
ref_out="$out/ref-out/output_0.bin"
echo "   output_0.bin (int8 probabilities): $(od -An -v -t d1 "$ref_out" | xargs)"
"$make_example" --check "$out/ref-out"

step "3. the same on mdla2.0 (CPU + MDLA functional model), compared with ref"
ag run "$model" --target mdla2.0 --inputs "$input" --outputs "$out/mdla-out"
if cmp -s "$ref_out" "$out/mdla-out/output_0.bin"; then
  echo "   OK: mdla2.0 output equals ref bit for bit ($(wc -c <"$ref_out") bytes)"
else
  echo "   MISMATCH: mdla2.0 output differs from ref:" >&2
  cmp -l "$ref_out" "$out/mdla-out/output_0.bin" >&2 || true
  exit 1
fi

step "4. where each operator runs on mdla2.0, and why"
ag explain "$model" --target mdla2.0 --dot "$out/partition.dot"
if [ -e "$out/partition.dot.svg" ]; then
  echo "   picture: $out/partition.dot.svg (source $out/partition.dot)"
else
  echo "   picture: $out/partition.dot (no SVG: install Graphviz to render it)"
fi
