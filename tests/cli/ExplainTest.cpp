//===- ExplainTest.cpp - `accelgen explain` -------------------------------===//
//
// The explain command on a conformance model with the demo target: the text
// summary, the JSON (parsed back and checked against the partitioner's
// decisions), the Graphviz drawing, and its errors.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace accelgen;

namespace {

std::string kwsModel() {
  std::string Path = test::sharedDir() + "/models/mlperf_tiny_kws_dscnn_int8.tflite";
  INFO("the shared conformance folder is missing: " << Path
       << " (set ACCELGEN_SHARED_DIR)");
  REQUIRE(llvm::sys::fs::exists(Path));
  return Path;
}

/// "(targets: demo1.0, ..., ref1)": every label of every target the build
/// registers, as error messages list them.
std::string targetList() {
  target::registerBuiltinTargets();
  return "(targets: " + llvm::join(target::TargetRegistry::labels(), ", ") +
         ")";
}

} // namespace

TEST_CASE("explain: text summary with the reasons an operator stays on the CPU") {
  test::RunResult R = test::runAccelgen({"explain", kwsModel(), "--target", "demo2.0"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).startswith(
      "mlperf_tiny_kws_dscnn_int8.tflite on demo2.0: 12 of 13 operators on the "
      "accelerator in 2 subgraphs"));
  CHECK(R.Stdout.find("stride_at_most_4: stride_h = 25, stride_w = 5: stride "
                      "must be in [1, 4]") != std::string::npos);
}

TEST_CASE("explain --json") {
  test::RunResult R =
      test::runAccelgen({"explain", kwsModel(), "--target", "demo1.0", "--json"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Object &O = *V->getAsObject();
  CHECK(*O.getString("target") == "demo1.0");
  const llvm::json::Array &Ops = *O.getArray("operators");
  REQUIRE(Ops.size() == 13);
  int64_t OnAcc = 0;
  for (const llvm::json::Value &Op : Ops) {
    const llvm::json::Object &P = *Op.getAsObject();
    bool Acc = *P.getString("device") == "accelerator";
    OnAcc += Acc;
    // Accelerator operators have a subgraph and no reasons; CPU ones the
    // opposite.
    CHECK(Acc == (*P.getInteger("subgraph") >= 0));
    CHECK(Acc == P.getArray("reasons")->empty());
  }
  CHECK(*O.getInteger("on_accelerator") == OnAcc);
  // SOFTMAX is legal from demo2.0 only.
  const llvm::json::Object &Softmax = *Ops.back().getAsObject();
  CHECK(*Softmax.getString("type") == "SOFTMAX");
  CHECK(*Softmax.getString("device") == "cpu");
  const llvm::json::Object &Why =
      *Softmax.getArray("reasons")->front().getAsObject();
  CHECK(*Why.getString("id") == "not_available");
  CHECK(*Why.getString("hint") == "legal from demo2.0");
}

TEST_CASE("explain --dot draws devices and subgraphs") {
  test::TempDir Dir;
  std::string Dot = Dir.file("kws.dot");
  test::RunResult R = test::runAccelgen(
      {"explain", kwsModel(), "--target", "demo2.0", "--dot", Dot});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  std::string Text = test::readFileText(Dot);
  CHECK(llvm::StringRef(Text).startswith("digraph \"mlperf_tiny_kws_dscnn_int8.tflite\" {"));
  CHECK(Text.find("subgraph cluster_0 {") != std::string::npos);
  CHECK(Text.find("subgraph cluster_1 {") != std::string::npos);
  CHECK(Text.find("fillcolor=\"#fdd0a2\"") != std::string::npos); // a CPU op
  CHECK(Text.find("op8 -> op9") != std::string::npos);
}

TEST_CASE("explain: errors") {
  test::RunResult R = test::runAccelgen({"explain", kwsModel(), "--target", "nope"});
  CHECK(R.ExitCode == 1);
  // Every label the build registers, the in-tree targets among them.
  CHECK(R.Stderr == "error: unknown target 'nope' " + targetList() + "\n");
  for (const char *Label : {"demo1.0", "mdla1.5", "mdla3.0", "ref1"})
    CHECK(R.Stderr.find(Label) != std::string::npos);
  R = test::runAccelgen({"explain", "/nonexistent.tflite", "--target", "demo1.0"});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith("error: /nonexistent.tflite: "));
  R = test::runAccelgen({"explain", kwsModel()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: explain needs --target, e.g. --target ref " +
                        targetList() + "\n");
}
