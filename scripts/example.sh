#!/usr/bin/env bash
# From a fresh checkout to the bundled example compiled, run and explained.
#
# Installs the Debian packages (scripts/setup.sh), builds only what the example
# needs into build/ (the `accelgen` CLI and the example model with its input:
# Release, ccache when installed, one job per core; no tests), then runs
# scripts/example-flow.sh: compile for ref, run, run for mdla2.0 and compare
# bit for bit, explain the partition. Run from anywhere.
#
# Environment: ACCELGEN_JOBS (default: the number of cores), ACCELGEN_BUILD_DIR
# (default build/).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs=${ACCELGEN_JOBS:-$(nproc)}
build=${ACCELGEN_BUILD_DIR:-build}

bash scripts/setup.sh
start=$SECONDS
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
if command -v ccache >/dev/null; then
  cmake_args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
echo "example: building accelgen and the example model in $build/ ($jobs jobs)"
cmake -S . -B "$build" "${cmake_args[@]}" >/dev/null
# Ninja's step-by-step lines go to a log, shown only if the build fails.
log=$build/example-build.log
if ! cmake --build "$build" --target accelgen example_model -- -j "$jobs" >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "example: the build failed; whole log in $log" >&2
  exit 1
fi
echo "example: built in $((SECONDS - start)) s"
bash scripts/example-flow.sh "$build"
