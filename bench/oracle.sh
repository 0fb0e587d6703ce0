# bench/oracle.sh - sourced by the latency benchmarks: sets ORACLE to native
# TensorFlow Lite 2.9's tflite_c_runner. When ORACLE is unset, builds one in
# $WORK/oracle from a copy of $SHARED/tools/oracle (needs node, npm and the
# npm registry, see its README). Needs WORK and SHARED; exits on failure.

if [ -z "${ORACLE:-}" ]; then
  echo "building the TensorFlow Lite 2.9 oracle in $WORK/oracle ..." >&2
  cp -r "$SHARED/tools/oracle" "$WORK/oracle"
  chmod -R u+w "$WORK/oracle"
  (cd "$WORK/oracle" && npm ci --no-audit --no-fund >/dev/null 2>&1 &&
     sh build_native.sh >/dev/null) ||
    { echo "error: cannot build the oracle (see $SHARED/tools/oracle/README.md)" >&2; exit 1; }
  ORACLE=$WORK/oracle/build/tflite_c_runner
fi
[ -x "$ORACLE" ] || { echo "error: $ORACLE is not an executable" >&2; exit 1; }
