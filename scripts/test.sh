#!/usr/bin/env bash
# Builds accelgen and runs its test suite with CTest.
#
#   scripts/test.sh           build/       the ordinary build
#   scripts/test.sh --asan    build-asan/  -DACCELGEN_SANITIZE=ON: everything
#                                          compiled with ASan+UBSan, any
#                                          report fails the test that hit it
#
# Installs what is missing first (scripts/setup.sh), configures with Ninja,
# builds and runs `ctest --output-on-failure`; its summary line is the result.
# The compiler is CMake's default (GCC on Debian; LLVM 14's static libraries
# link with it, sanitized or not); CC/CXX choose another on a fresh build dir.
# Nothing is suppressed in the sanitizers.
#
# Environment: ACCELGEN_SHARED_DIR (default ../shared beside the checkout),
# ACCELGEN_JOBS (default 2), ACCELGEN_BUILD_DIR (overrides the build folder).
set -euo pipefail

asan=0
for arg in "$@"; do
  case "$arg" in
    --asan) asan=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/test.sh [--asan]" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${ACCELGEN_JOBS:-2}
shared=${ACCELGEN_SHARED_DIR:-$root/../shared}

"$root/scripts/setup.sh"

# The build type is left to the cache (RelWithDebInfo on a fresh folder), so
# that a build folder shared with scripts/example.sh is not rebuilt.
cmake_args=(-G Ninja -DACCELGEN_BUILD_TESTS=ON)
if [ -d "$shared" ]; then
  cmake_args+=(-DACCELGEN_SHARED_DIR="$(cd "$shared" && pwd)")
fi
if [ "$asan" -eq 1 ]; then
  build=${ACCELGEN_BUILD_DIR:-$root/build-asan}
  cmake_args+=(-DACCELGEN_SANITIZE=ON)
  # Leaks count as failures; a UBSan report stops the program
  # (-fno-sanitize-recover=all) with a stack trace.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  label="ASan+UBSan"
else
  build=${ACCELGEN_BUILD_DIR:-$root/build}
  cmake_args+=(-DACCELGEN_SANITIZE=OFF)
  label="plain"
fi

echo "test: $label build in $build"
cmake -S "$root" -B "$build" "${cmake_args[@]}" >/dev/null
ninja -C "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs"
