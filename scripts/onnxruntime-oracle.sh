#!/usr/bin/env bash
# Installs ONNX Runtime's Node.js package (onnxruntime-node, npm registry)
# into OUT_DIR with the runner tests/tools/onnxruntime_runner.js beside it:
# the oracle for ONNX models computed with ONNX's arithmetic.
#
#   scripts/onnxruntime-oracle.sh SOURCE_DIR OUT_DIR
#
# The package brings the CPU library for linux x64; its install script,
# which would fetch more (GPU libraries), is not run
# (ONNXRUNTIME_NODE_INSTALL=skip, --ignore-scripts). Needs node and npm.
# On failure it says why and exits 0 without the runner: the tests that
# need it then fail, saying it is missing.
set -uo pipefail

source=$1
out=$2
runner=$out/onnxruntime_runner.js
version=1.30.0

fail() {
  echo "onnxruntime-oracle: $* (the tests that compare with ONNX Runtime will fail)" >&2
  rm -f "$runner"
  exit 0
}

command -v npm >/dev/null 2>&1 || fail "npm is not installed (scripts/setup.sh installs it)"
command -v node >/dev/null 2>&1 || fail "node is not installed (scripts/setup.sh installs it)"
mkdir -p "$out" || fail "cannot create $out"
if ! (cd "$out" && node -e "require('onnxruntime-node')" >/dev/null 2>&1); then
  (cd "$out" && ONNXRUNTIME_NODE_INSTALL=skip npm install --ignore-scripts \
     --no-audit --no-fund --no-save --loglevel=error \
     onnxruntime-node@$version >npm.log 2>&1) ||
    fail "npm install onnxruntime-node@$version failed (see $out/npm.log)"
fi
cp "$source/tests/tools/onnxruntime_runner.js" "$runner" ||
  fail "cannot copy the runner"
(cd "$out" && node -e "require('onnxruntime-node')") >/dev/null 2>&1 ||
  fail "onnxruntime-node does not load (see $out/npm.log)"
echo "onnxruntime-oracle: $runner"
