#!/usr/bin/env bash
# Builds accelgen and runs its test suite with CTest.
#
#   scripts/test.sh           build/       the ordinary build
#   scripts/test.sh --asan    build-fuzz/  the sanitized build the fuzzers
#                                          share (scripts/sanitized-build.sh):
#                                          everything compiled with
#                                          ASan+UBSan by clang-14, any report
#                                          fails the test that hit it; every
#                                          test but the model sweeps through
#                                          `accelgen run` (label model-runs,
#                                          not built there:
#                                          tests/CMakeLists.txt says why)
#                                          and CKernelsCompileTest (gcc's
#                                          and clang's check of the kernel
#                                          files, the plain suite's)
#
# Installs what is missing first (scripts/setup.sh), configures with Ninja,
# builds and runs `ctest --output-on-failure`; its summary line is the result.
# The plain build's compiler is CMake's default (GCC on Debian; LLVM 14's
# static libraries link with it); CC/CXX choose another on a fresh build dir.
# Nothing is suppressed in the sanitizers.
#
# Environment: ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_JOBS (default 2), ACCELGEN_BUILD_DIR (overrides the build folder).
set -euo pipefail

asan=0
for arg in "$@"; do
  case "$arg" in
    --asan) asan=1 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/test.sh [--asan]" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${ACCELGEN_JOBS:-2}
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}

"$root/scripts/setup.sh"

shared_abs=$shared
[ -d "$shared" ] && shared_abs=$(cd "$shared" && pwd)
if [ "$asan" -eq 1 ]; then
  build=${ACCELGEN_BUILD_DIR:-$root/build-fuzz}
  # Leaks count as failures; a UBSan report stops the program
  # (-fno-sanitize-recover=all) with a stack trace.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  echo "test: ASan+UBSan build in $build"
  . "$root/scripts/sanitized-build.sh"
  configure_sanitized_build "$root" "$build" "$shared_abs" \
    -DACCELGEN_BUILD_TESTS=ON -DACCELGEN_MODEL_RUN_TESTS=OFF
else
  build=${ACCELGEN_BUILD_DIR:-$root/build}
  # A fresh folder builds Release (no debug information: half the build
  # time), as scripts/example.sh does, so the two share it; an existing one
  # keeps its build type.
  cmake_args=(-G Ninja -DACCELGEN_BUILD_TESTS=ON -DACCELGEN_SANITIZE=OFF
    -DACCELGEN_MODEL_RUN_TESTS=ON -DACCELGEN_SHARED_DIR="$shared_abs")
  [ -f "$build/CMakeCache.txt" ] || cmake_args+=(-DCMAKE_BUILD_TYPE=Release)
  echo "test: plain build in $build"
  cmake -S "$root" -B "$build" "${cmake_args[@]}" >/dev/null
fi
ninja -C "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs"
