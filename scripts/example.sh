#!/usr/bin/env bash
# Builds accelgen from this checkout and describes the bundled example model.
#
# Installs the Debian packages (scripts/setup.sh), configures and builds a
# Release build in build/, which also writes build/examples/tiny_convnet_int8.tflite,
# then runs `accelgen inspect` on that model. Run from anywhere.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
build/tools/accelgen/accelgen inspect build/examples/tiny_convnet_int8.tflite
