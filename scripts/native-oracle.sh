#!/usr/bin/env bash
# Builds the native TensorFlow Lite 2.9 oracle of ../shared/tools/oracle
# (tflite_c_runner: TensorFlow Lite's own interpreter through its C API) into
# OUT_DIR, for what TensorFlow Lite Micro's runner cannot run: resource
# variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE), which it refuses
# without a resource-variable store.
#
#   scripts/native-oracle.sh SHARED_DIR OUT_DIR
#
# The C API library comes from the npm package tfjs-tflite-node@0.0.2,
# installed into OUT_DIR (its install scripts are not run); the runner's
# source is compiled where it is, in SHARED_DIR. Needs npm and a C compiler.
# On failure it says why and exits 0 without the runner: the tests that
# need it then fail, saying it is missing.
set -uo pipefail

shared=$1
out=$2
runner=$out/tflite_c_runner
source=$shared/tools/oracle/tflite_c_runner.c
deps=$out/node_modules/tfjs-tflite-node/cc_deps

fail() {
  echo "native-oracle: $* (the tests that compare with TensorFlow Lite's own interpreter will fail)" >&2
  rm -f "$runner"
  exit 0
}

[ -f "$source" ] || fail "$source is missing"
command -v npm >/dev/null 2>&1 || fail "npm is not installed (scripts/setup.sh installs it)"
mkdir -p "$out" || fail "cannot create $out"
if [ ! -f "$deps/linux_amd64/libtensorflowlite_c.so" ]; then
  (cd "$out" && npm install --ignore-scripts --no-audit --no-fund --no-save \
     --loglevel=error tfjs-tflite-node@0.0.2 >npm.log 2>&1) ||
    fail "npm install tfjs-tflite-node@0.0.2 failed (see $out/npm.log)"
fi
"${CC:-cc}" -O2 -o "$runner" "$source" -I"$deps/include" \
  -L"$deps/linux_amd64" -ltensorflowlite_c \
  -Wl,-rpath,"$(cd "$deps/linux_amd64" && pwd)" ||
  fail "cannot compile $source"
echo "native-oracle: built $runner"
