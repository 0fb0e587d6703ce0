//===- ExplainMemoryTest.cpp - `accelgen explain --memory` ----------------===//
//
// The working-memory view on the VWW model: its JSON is report.json's
// "cascading" object from `compile --cascade` (on ref, and on mdla1.5, whose
// plan is its program's), its first line names the
// layer-at-a-time arena the planner gives on its own and the cascaded one,
// its table has one row per operator, --memory-budget cascades less, the
// SVG has a bar pair per operator, and a budget too small is one error line.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "plan/MemoryPlan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace accelgen;

namespace {

std::string vwwModel() {
  std::string Path = test::sharedDir() +
                     "/models/mlperf_tiny_vww_mobilenetv1_025_96_int8.tflite";
  REQUIRE_MESSAGE(llvm::sys::fs::exists(Path),
                  Path << " is missing (set ACCELGEN_SHARED_DIR)");
  return Path;
}

test::RunResult explain(std::vector<std::string> Extra,
                        const std::string &Target = "ref") {
  std::vector<std::string> Args = {"explain", vwwModel(), "--target", Target,
                                   "--memory"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return test::runProgram(test::accelgenPath(), Args);
}

size_t count(llvm::StringRef Text, llvm::StringRef What) {
  return Text.count(What);
}

} // namespace

TEST_CASE("explain --memory --json is report.json's cascading object") {
  // An accelerator's plan is its program's (fused layers unsplit): on
  // mdla1.5 it differs from ref's.
  std::vector<std::string> Plans;
  for (const std::string Target : {"ref", "mdla1.5"}) {
    INFO(Target);
    test::RunResult E = explain({"--json"}, Target);
    REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
    test::TempDir Out;
    test::RunResult C = test::runProgram(
        test::accelgenPath(), {"compile", vwwModel(), "--target", Target,
                               "-o", Out.path(), "--cascade"});
    REQUIRE_MESSAGE(C.ExitCode == 0, C.Stderr);
    auto Report =
        llvm::json::parse(test::readFileText(Out.path() + "/report.json"));
    auto Explained = llvm::json::parse(E.Stdout);
    REQUIRE(bool(Report));
    REQUIRE(bool(Explained));
    const llvm::json::Object *Cascading =
        Report->getAsObject()->getObject("cascading");
    REQUIRE(Cascading);
    CHECK(llvm::json::Value(llvm::json::Object(*Cascading)) == *Explained);
    Plans.push_back(E.Stdout);
  }
  CHECK(Plans[0] != Plans[1]);
}

TEST_CASE("explain --memory: totals, one row per operator, cascades") {
  auto M = tflite::importModelFile(vwwModel());
  REQUIRE(bool(M));
  const ir::Graph &G = M->Model->main();
  const int64_t Layer = plan::planMemory(G).ArenaBytes;
  test::RunResult E = explain({});
  REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(E.Stdout).split(Lines, '\n', -1, false);
  REQUIRE(Lines.size() >= G.Operators.size() + 2);
  CHECK(Lines[0].startswith(
      "mlperf_tiny_vww_mobilenetv1_025_96_int8.tflite: working memory " +
      std::to_string(Layer) + " bytes layer at a time, "));
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    llvm::SmallVector<llvm::StringRef, 6> Cells;
    Lines[K + 2].split(Cells, ' ', -1, false);
    REQUIRE(Cells.size() >= 4);
    CHECK(Cells[0] == std::to_string(K));
    CHECK(Cells[1] == G.Operators[K].Type);
  }
  CHECK(count(E.Stdout, "\ncascade ") >= 1);
  // With room for the layer-at-a-time plan nothing is cascaded.
  test::RunResult Roomy = explain({"--memory-budget", std::to_string(Layer)});
  REQUIRE(Roomy.ExitCode == 0);
  CHECK(Roomy.Stdout.find(std::to_string(Layer) + " bytes cascaded (0 "
                                                  "cascades") !=
        std::string::npos);
}

TEST_CASE("explain --memory --svg draws both profiles") {
  test::TempDir Out;
  const std::string Svg = Out.file("memory.svg");
  test::RunResult E = explain({"--svg", Svg, "--memory-budget", "50000"});
  REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
  const std::string Text = test::readFileText(Svg);
  auto M = tflite::importModelFile(vwwModel());
  REQUIRE(bool(M));
  const size_t N = M->Model->main().Operators.size();
  CHECK(llvm::StringRef(Text).startswith("<svg "));
  CHECK(count(Text, "fill=\"#bbbbbb\"") == N);
  CHECK(count(Text, "fill=\"#3b6fd4\"") == N);
  CHECK(count(Text, "budget 50000") == 1);
  CHECK(llvm::StringRef(Text).endswith("</svg>\n"));
}

TEST_CASE("explain --memory: a budget below any schedule") {
  test::RunResult E = explain({"--memory-budget", "1000"});
  CHECK(E.ExitCode == 1);
  CHECK(E.Stdout == "");
  CHECK(llvm::StringRef(E.Stderr).count('\n') == 1);
  CHECK(E.Stderr.find("a memory budget of 1000 bytes is too small: the "
                      "smallest budget that works is ") != std::string::npos);
  CHECK(E.Stderr.find(" bytes (the working memory peaks at operator 0, "
                      "CONV_2D)\n") != std::string::npos);
}

TEST_CASE("explain --memory names the tensor a cascade's output replaces") {
  // MobileNetV2's residual ADDs end cascades and take the block input's
  // bytes (docs/cascading.md).
  std::string Model = test::sharedDir() +
                      "/models/coral_mobilenet_v2_10_224_quant_uint8.tflite";
  REQUIRE_MESSAGE(llvm::sys::fs::exists(Model),
                  Model << " is missing (set ACCELGEN_SHARED_DIR)");
  std::vector<std::string> Args = {"explain", Model,      "--target",
                                   "ref",     "--memory", "--inputs-in-place"};
  test::RunResult Text = test::runProgram(test::accelgenPath(), Args);
  REQUIRE_MESSAGE(Text.ExitCode == 0, Text.Stderr);
  CHECK(count(Text.Stdout, "; its output in place of tensor ") >= 1);
  Args.push_back("--json");
  test::RunResult Json = test::runProgram(test::accelgenPath(), Args);
  REQUIRE_MESSAGE(Json.ExitCode == 0, Json.Stderr);
  auto V = llvm::json::parse(Json.Stdout);
  REQUIRE(bool(V));
  const llvm::json::Array *Cascades = V->getAsObject()->getArray("cascades");
  REQUIRE(Cascades);
  size_t InPlace = 0;
  for (const llvm::json::Value &C : *Cascades) {
    auto Of = C.getAsObject()->getInteger("output_in_place_of");
    REQUIRE(Of.hasValue());
    InPlace += *Of >= 0;
  }
  CHECK(InPlace == count(Text.Stdout, "; its output in place of tensor "));
}

TEST_CASE("explain --memory on cmsis-nn: each call's scratch in the plan") {
  // The calls' scratch is part of the arena (report.json's scratch_bytes and
  // scratch_offset per operator), live at its operator, shared in a
  // cascade; the targets without library scratch print no such line.
  test::RunResult E = explain({"--memory-budget", "40000"}, "cmsis-nn4");
  REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
  CHECK_MESSAGE(E.Stdout.find("\nkernel scratch: ") != std::string::npos,
                E.Stdout);
  CHECK(E.Stdout.find("each live at its operator or cascade\n") !=
        std::string::npos);
  CHECK(E.Stdout.find("bytes, shared by its calls") != std::string::npos);
  test::RunResult Ref = explain({"--memory-budget", "40000"});
  REQUIRE_MESSAGE(Ref.ExitCode == 0, Ref.Stderr);
  CHECK(Ref.Stdout.find("scratch") == std::string::npos);
  // The largest buffer named is the largest any compiled call has.
  test::TempDir Out;
  test::RunResult C = test::runProgram(
      test::accelgenPath(), {"compile", vwwModel(), "--target", "cmsis-nn4",
                             "-o", Out.path(), "--memory-budget", "40000"});
  REQUIRE_MESSAGE(C.ExitCode == 0, C.Stderr);
  auto Report = llvm::json::parse(test::readFileText(Out.file("report.json")));
  REQUIRE(bool(Report));
  int64_t Most = 0;
  for (const llvm::json::Value &Op :
       *Report->getAsObject()->getArray("operators"))
    Most = std::max(
        Most, Op.getAsObject()->getInteger("scratch_bytes").getValueOr(0));
  CHECK(Most > 0);
  CHECK(E.Stdout.find("up to " + std::to_string(Most) + " bytes") !=
        std::string::npos);
}
