//===- ConstraintProbeTests.h - One test per generated constraint probe ---===//
//
// The test harness of a target's generated constraint tests, installed as
// <accelgen/testing/ConstraintProbeTests.h>; accelgen_add_constraint_tests()
// (cmake/AccelgenTarget.cmake) writes the program that includes it. Included
// by a target's test program after its ConstraintTests.inc tables
// (GET_CONSTRAINT_TESTS_DECL and GET_CONSTRAINT_TESTS_IMPL), with
// ACCELGEN_PROBE_TARGET naming the target ("demo") and
// ACCELGEN_PROBE_NAMESPACE its generated namespace: declares one doctest test
// case "<target>/<constraint>" per line of the file's
// GET_CONSTRAINT_TEST_CASES section, which runs that constraint's cases
// through target::runConstraintProbe. A case the table calls not
// constructible is reported (a doctest MESSAGE), not failed.
//
//===----------------------------------------------------------------------===//
#include "target/ConstraintProbe.h"

#include <doctest/doctest.h>

#define ACCELGEN_PROBE_STR2(X) #X
#define ACCELGEN_PROBE_STR(X) ACCELGEN_PROBE_STR2(X)

#define ACCELGEN_CONSTRAINT_TEST(Name, Index)                                  \
  TEST_CASE(ACCELGEN_PROBE_STR(ACCELGEN_PROBE_TARGET) "/" #Name) {             \
    const accelgen::target::ConstraintProbe &P =                               \
        ACCELGEN_PROBE_NAMESPACE::ConstraintProbes[Index];                     \
    accelgen::target::ProbeResult R = accelgen::target::runConstraintProbe(P); \
    CHECK(R.Run > 0);                                                          \
    for (const std::string &F : R.Failures)                                    \
      FAIL_CHECK(F);                                                           \
    for (const std::string &N : R.NotConstructible)                            \
      MESSAGE(N);                                                              \
  }
#define GET_CONSTRAINT_TEST_CASES
#include "ConstraintTests.inc"
#undef ACCELGEN_CONSTRAINT_TEST
