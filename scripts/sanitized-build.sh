# Sourced by scripts/test.sh --asan, scripts/fuzz.sh and
# scripts/fuzz-pipeline.sh: the one sanitized build they share, so that the
# test suite and the fuzzers are compiled once. clang-14 (libFuzzer),
# -DACCELGEN_FUZZ=ON: everything compiled with ASan+UBSan and coverage
# instrumentation, the fuzzers linked with libFuzzer; line tables only for
# the sanitizers' stack traces (full debug information would double the
# build's time); -O1, the level AddressSanitizer's documentation suggests,
# which compiles faster than -O2 and keeps its reports' stacks closer to
# the source.
#
# configure_sanitized_build ROOT BUILD SHARED [CMAKE_ARG...]
configure_sanitized_build() {
  local root=$1 build=$2 shared=$3
  shift 3
  [ -d "$shared" ] && shared=$(cd "$shared" && pwd)
  local cc=${ACCELGEN_FUZZ_CC:-clang-14} cxx=${ACCELGEN_FUZZ_CXX:-clang++-14}
  local flags="-O1 -gline-tables-only -DNDEBUG"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
    -DACCELGEN_FUZZ=ON -DACCELGEN_SANITIZE=ON \
    -DACCELGEN_SHARED_DIR="$shared" "$@" >/dev/null
}
