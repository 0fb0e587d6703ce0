//===- ExplainGoldenTest.cpp - explain --json of the shared models --------===//
//
// `accelgen explain --json` of every shared model at every MDLA version must
// equal tests/golden/mdla/explain/<model>.<version>.json byte for byte:
// placement, fusion, reasons and cycle estimates are reviewed like code when
// the description or the partitioner changes (`cmake --build build --target
// update-goldens` rewrites them). One test per version.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace accelgen;

namespace {

std::vector<std::string> sharedModels() {
  std::string Dir = test::sharedDir() + "/models";
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Paths.push_back(It->path());
  std::sort(Paths.begin(), Paths.end());
  INFO("the shared conformance folder is missing or empty: "
       << Dir << " (set ACCELGEN_SHARED_DIR)");
  REQUIRE(!Paths.empty());
  return Paths;
}

void checkVersion(const std::string &Version) {
  for (const std::string &Model : sharedModels()) {
    std::string Stem = llvm::sys::path::stem(Model).str();
    CAPTURE(Stem);
    test::RunResult R = test::runAccelgen(
        {"explain", Model, "--target", "mdla" + Version, "--json"});
    INFO(R.Stderr);
    REQUIRE(R.ExitCode == 0);
    std::string Golden = std::string(ACCELGEN_SOURCE_DIR) +
                         "/tests/golden/mdla/explain/" + Stem + "." + Version +
                         ".json";
    REQUIRE_MESSAGE(llvm::sys::fs::exists(Golden), "missing golden " << Golden);
    INFO("differs from " << Golden
                         << "; if intended, run `cmake --build build "
                            "--target update-goldens` and review the diff");
    CHECK(test::readFileText(Golden) == R.Stdout);
  }
}

/// The device column of the text table's row whose operator is \p Type.
std::string deviceOf(llvm::StringRef Text, llvm::StringRef Type) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n');
  size_t Device = Lines.size() > 1 ? Lines[1].find("device") : 0;
  for (llvm::StringRef Line : Lines)
    if (Line.contains(("  " + Type + " ").str()) && Device < Line.size())
      return Line.substr(Device).split(' ').first.str();
  return "";
}

} // namespace

TEST_CASE("explain mdla1.5 of every shared model") { checkVersion("1.5"); }
TEST_CASE("explain mdla2.0 of every shared model") { checkVersion("2.0"); }
TEST_CASE("explain mdla3.0 of every shared model") { checkVersion("3.0"); }

TEST_CASE("an operator rejected on mdla1.5 is accepted on mdla2.0, as hinted") {
  std::string Model =
      test::sharedDir() + "/models/mlperf_tiny_kws_dscnn_int8.tflite";
  test::RunResult R15 =
      test::runAccelgen({"explain", Model, "--target", "mdla1.5"});
  test::RunResult R20 =
      test::runAccelgen({"explain", Model, "--target", "mdla2.0"});
  REQUIRE(R15.ExitCode == 0);
  REQUIRE(R20.ExitCode == 0);
  CHECK(deviceOf(R15.Stdout, "SOFTMAX") == "cpu");
  CHECK(R15.Stdout.find("not_available: SOFTMAX is not available on mdla1.5 "
                        "(legal from mdla2.0)") != std::string::npos);
  CHECK(deviceOf(R20.Stdout, "SOFTMAX") == "accelerator");
}
