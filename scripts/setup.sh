#!/usr/bin/env bash
# Installs everything accelgen needs to build and test, from Debian packages only
# (graphviz renders the drawing of `accelgen explain --dot`; the Arm
# toolchain and QEMU build and run the cmsis-nn target on Cortex-M; Node.js
# and npm, unless a Node.js with npm is installed already, fetch TensorFlow
# Lite's own interpreter for the tests, scripts/native-oracle.sh; the ONNX
# library and protobuf read .onnx models, and ONNX's node tests test that).
# Safe to run more than once; does nothing that needs a network other than apt.
set -euo pipefail

packages=(
  build-essential cmake ninja-build
  llvm-14-dev llvm-14-tools
  clang-14 libclang-rt-14-dev
  libyaml-cpp-dev libflatbuffers-dev flatbuffers-compiler
  libonnx-dev libprotobuf-dev libonnx-testdata
  doctest-dev
  graphviz
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
)
# A Node.js from elsewhere (NodeSource's package) brings its own npm, which
# Debian's npm package would conflict with.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
