//===- ExampleCheckTest.cpp - accelgen-make-example --input and --check ---===//
//
// The example's own evaluation (tools/make-example/ExampleReference.cpp)
// against `accelgen run --target ref --dump-layers` on the input the tool
// writes: every layer agrees; a layer changed by one step is caught, except
// the softmax output, which the evaluation computes in double and accepts
// within one step, and not within two.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

using namespace accelgen;

namespace {

/// Adds \p Delta to byte \p At of the file \p Path.
void nudge(const std::string &Path, size_t At, int Delta) {
  std::vector<uint8_t> Bytes = test::readFileBytes(Path);
  REQUIRE(At < Bytes.size());
  Bytes[At] = static_cast<uint8_t>(int8_t(Bytes[At]) + Delta);
  test::writeFileBytes(Path, Bytes);
}

test::RunResult check(const std::string &Dir) {
  return test::runProgram(ACCELGEN_TEST_MAKE_EXAMPLE, {"--check", Dir});
}

} // namespace

TEST_CASE(
    "accelgen-make-example --check compares a run with its own evaluation") {
  test::TempDir In, Out;
  test::RunResult W = test::runProgram(ACCELGEN_TEST_MAKE_EXAMPLE,
                                       {"--input", In.file("input_0.bin")});
  REQUIRE(W.ExitCode == 0);
  CHECK(test::readFileBytes(In.file("input_0.bin")).size() == 16 * 16 * 3);
  test::RunResult R = test::runAccelgen(
      {"run", test::exampleModelPath(), "--target", "ref", "--inputs",
       In.path(), "--outputs", Out.path(), "--dump-layers"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);

  test::RunResult C = check(Out.path());
  CHECK(C.ExitCode == 0);
  CHECK(C.Stdout == "   OK: all 6 tensors equal the independent evaluation "
                    "bit for bit\n");

  // Layer 0 is the graph output (the softmax), layer 1 the convolution's.
  std::string Softmax = Out.file("layers/output_0.bin");
  std::string Conv = Out.file("layers/output_1.bin");
  nudge(Softmax, 3, 1);
  C = check(Out.path());
  CHECK(C.ExitCode == 0);
  CHECK(C.Stdout == "   OK: 5 of 6 tensors equal the independent evaluation "
                    "bit for bit, the softmax output (evaluated in double) is "
                    "within one step\n");
  nudge(Softmax, 3, 1);
  C = check(Out.path());
  CHECK(C.ExitCode == 1);
  CHECK(C.Stdout.find("probabilities (" + Softmax +
                      "): differs from the reference by up to 2\n") !=
        std::string::npos);
  nudge(Softmax, 3, -2);
  nudge(Conv, 0, 1);
  C = check(Out.path());
  CHECK(C.ExitCode == 1);
  CHECK(C.Stdout == "   conv/Relu (" + Conv +
                        "): differs from the reference by up to 1\n"
                        "   MISMATCH: 1 of 6 tensors differ from the "
                        "independent reference\n");
}
