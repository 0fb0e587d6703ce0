//===- AcceleratorCascadeTest.cpp - Accelerator targets cascaded ----------===//
//
// The accelerator targets with a functional model run cascades too: their
// operators inside a cascade go stripe by stripe through striped program
// subgraphs (accel_run_stripe), the CPU's between them. Every label of every
// such target, on every stateless shared model, cascaded for the least
// working memory: each output bit-exact against expected_<i>.bin (the uint8
// Coral MobileNetV2, which has none, against the same target's layer-at-a-
// time outputs), and where cascading pays on the CPU alone, some label must
// put accelerator operators in cascades. mdla1.5 (int8 stored as uint8, converted per stripe) and npu55
// also compare every layer, dumped stripe by stripe, and run at the smallest
// budget and halfway to the layer-at-a-time arena. The generated model.c
// must build without a warning under strict C99, and run bit-exact under
// ASan+UBSan.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "plan/Cascade.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// What a compiled model's report.json says of its cascades.
struct CascadeReport {
  int64_t Arena = -1;
  int64_t LayerArena = -1;
  int64_t ExtraMacs = -1;
  /// Accelerator operators inside cascades, and striped subgraphs.
  int AcceleratorInCascades = 0;
  int StripedSubgraphs = 0;
};

/// Compiles \p Name for \p Label with \p Extra into \p Dir and reads the
/// report.
CascadeReport compileOn(const std::string &Label, const std::string &Name,
                        const std::vector<std::string> &Extra,
                        const test::TempDir &Dir) {
  std::vector<std::string> Args = {"compile", modelPath(Name), "--target",
                                   Label,     "-o",            Dir.path()};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  test::RunResult R = runAccelgen(Args);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  auto V = llvm::json::parse(
      test::readFileText(pathJoin(Dir.path(), "report.json")));
  REQUIRE(bool(V));
  const llvm::json::Object &Top = *V->getAsObject();
  CascadeReport Out;
  Out.Arena = Top.getObject("arena")->getInteger("bytes").getValueOr(-1);
  const llvm::json::Object *C = Top.getObject("cascading");
  REQUIRE(C);
  Out.LayerArena = C->getInteger("layer_arena_bytes").getValueOr(-1);
  Out.ExtraMacs = C->getInteger("extra_macs").getValueOr(-1);
  for (const llvm::json::Value &O : *Top.getArray("operators")) {
    const llvm::json::Object &Op = *O.getAsObject();
    Out.AcceleratorInCascades +=
        Op.getString("placement").getValueOr("") == "accelerator" &&
        Op.getInteger("cascade").hasValue();
  }
  const llvm::json::Object *A = Top.getObject("accelerator");
  REQUIRE(A);
  for (const llvm::json::Value &S : *A->getArray("subgraphs"))
    Out.StripedSubgraphs +=
        S.getAsObject()->getBoolean("striped").getValueOr(false);
  return Out;
}

/// Runs seed \p Seed of \p Name on \p Label with \p Extra; every output must
/// equal expected_<i>.bin, or without those the same target's
/// layer-at-a-time outputs.
void checkSeed(const std::string &Label, const std::string &Name,
               const std::string &Seed, const std::vector<std::string> &Extra) {
  const ir::Graph G = importGraph(Name);
  INFO(Name << " on " << Label << ", "
            << llvm::sys::path::filename(Seed).str());
  test::TempDir Out, Layered;
  test::RunResult R =
      runModelOn(Label, Extra, modelPath(Name), Seed, Out.path(), false);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  const bool HasExpected = exists(pathJoin(Seed, "expected_0.bin"));
  if (!HasExpected) {
    R = runModelOn(Label, {}, modelPath(Name), Seed, Layered.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  }
  for (size_t I = 0; I < G.Outputs.size(); ++I) {
    const std::string File = "output_" + std::to_string(I) + ".bin";
    const auto Got = test::readFileBytes(pathJoin(Out.path(), File));
    const auto Want = test::readFileBytes(
        HasExpected ? pathJoin(Seed, "expected_" + std::to_string(I) + ".bin")
                    : pathJoin(Layered.path(), File));
    CHECK_MESSAGE(Got == Want,
                  "output " << I << ": "
                            << describeDiff(Got, Want,
                                            G.tensor(G.Outputs[I]).Type));
  }
}

/// Model \p Name cascaded for the least memory on every functional-model
/// label: the first seed bit-exact on each, and some label must put
/// accelerator operators in cascades.
void checkEveryLabel(const std::string &Name) {
  requireSharedDir();
  REQUIRE_FALSE(test::sharedModelHasState(Name));
  int Striped = 0;
  for (const std::string &Label : functionalModelLabels()) {
    test::TempDir Dir;
    const CascadeReport Report = compileOn(Label, Name, {"--cascade"}, Dir);
    CHECK(Report.Arena <= Report.LayerArena);
    CHECK(Report.ExtraMacs == 0);
    Striped += Report.StripedSubgraphs > 0 && Report.AcceleratorInCascades > 0;
    checkSeed(Label, Name, seedDirs(Name).front(), {"--cascade"});
  }
  // Where cascading pays on the CPU alone, it must on an accelerator too,
  // with the operators the functional model can stripe: it runs an
  // operator that sums over its input's rows (FULLY_CONNECTED) whole.
  plan::CascadeOptions O;
  O.Enabled = true;
  const ir::Graph G = importGraph(Name);
  for (size_t K = 0; K < G.Operators.size(); ++K)
    if (ir::rowMap(G.Operators[K].code()).Kind == ir::RowKind::Accumulate)
      O.NotStripable[static_cast<int32_t>(K)] = "the functional model";
  llvm::Expected<plan::CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  if (!P->Cascades.empty())
    CHECK_MESSAGE(Striped > 0, "no label cascades accelerator operators");
}


/// \p Name on \p Label: every layer of seed 1 dumped stripe by stripe with
/// --cascade, then every seed at the smallest budget (one byte less fails)
/// and halfway to the layer-at-a-time arena.
void checkBudgets(const std::string &Label, const std::string &Name) {
  requireSharedDir();
  checkCascadedOn(Label, Name);
  const int64_t Smallest = smallestBudget(Label, Name);
  test::TempDir Dir;
  const CascadeReport Layer = compileOn(Label, Name, {"--cascade"}, Dir);
  CHECK(Layer.AcceleratorInCascades > 0);
  {
    test::TempDir Out;
    test::RunResult R = runModelOn(
        Label, {"--memory-budget", std::to_string(Smallest - 1)},
        modelPath(Name), seedDirs(Name).front(), Out.path(), false);
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr.find("the smallest budget that works is " +
                        std::to_string(Smallest) + " bytes") !=
          std::string::npos);
  }
  for (int64_t Budget : {Smallest, (Smallest + Layer.LayerArena) / 2}) {
    const std::vector<std::string> Extra = {"--memory-budget",
                                            std::to_string(Budget)};
    test::TempDir Budgeted;
    CHECK(compileOn(Label, Name, Extra, Budgeted).Arena <= Budget);
    for (const std::string &Seed : seedDirs(Name))
      checkSeed(Label, Name, Seed, Extra);
  }
}

} // namespace

TEST_CASE("every stateless shared model is tested cascaded on the "
          "accelerators") {
  size_t Stateless = 0;
  for (const std::string &Name : test::sharedModelNames())
    Stateless += !test::sharedModelHasState(Name);
  // One test case per model below.
  CHECK(Stateless == 10);
}

#define ON_EVERY_LABEL(NAME)                                                   \
  TEST_CASE(NAME " cascaded on every accelerator label") {                     \
    checkEveryLabel(NAME);                                                     \
  }

ON_EVERY_LABEL("coral_mobilenet_v2_10_224_quant_uint8")
ON_EVERY_LABEL("mlperf_tiny_ad_autoencoder_int8")
ON_EVERY_LABEL("mlperf_tiny_ic_resnet8_int8")
ON_EVERY_LABEL("mlperf_tiny_kws_dscnn_int8")
ON_EVERY_LABEL("mlperf_tiny_vww_mobilenetv1_025_96_int8")
ON_EVERY_LABEL("tflm_hello_world_int8")
ON_EVERY_LABEL("tflm_micro_speech_int8")
ON_EVERY_LABEL("tflm_person_detect_int8")
ON_EVERY_LABEL("tflm_person_detect_int8_qdimfix")
ON_EVERY_LABEL("tflm_simple_add")

TEST_CASE("mdla1.5 cascades under budgets, every layer bit-exact") {
  for (const char *Name :
       {"mlperf_tiny_ic_resnet8_int8", "mlperf_tiny_vww_mobilenetv1_025_96_int8",
        "tflm_person_detect_int8"})
    checkBudgets("mdla1.5", Name);
}

TEST_CASE("npu55 cascades under budgets, every layer bit-exact") {
  for (const char *Name : {"mlperf_tiny_ic_resnet8_int8",
                           "mlperf_tiny_vww_mobilenetv1_025_96_int8"})
    checkBudgets("npu55", Name);
}

TEST_CASE("accelerators read the graph inputs in the caller's buffers") {
  requireSharedDir();
  const std::string VWW = "mlperf_tiny_vww_mobilenetv1_025_96_int8";
  for (const char *Label : {"mdla1.5", "mdla2.0", "npu55"}) {
    test::TempDir Copied, InPlace;
    const int64_t Arena = compileOn(Label, VWW, {"--cascade"}, Copied).Arena;
    const CascadeReport R =
        compileOn(Label, VWW, {"--cascade", "--inputs-in-place"}, InPlace);
    CHECK(R.Arena < Arena);
    CHECK(R.StripedSubgraphs > 0);
    // The 96x96 input is read by the first operator, on the accelerator.
    CHECK(test::readFileText(pathJoin(InPlace.path(), "model.c"))
              .find("accel_inputs[0] = io->input0;") != std::string::npos);
    for (const std::string &Seed : seedDirs(VWW)) {
      checkSeed(Label, VWW, Seed, {"--inputs-in-place"});
      checkSeed(Label, VWW, Seed, {"--cascade", "--inputs-in-place"});
    }
  }
}

TEST_CASE("MobileNetV2-224 on mdla1.5 within 172 kB, inputs in place") {
  requireSharedDir();
  const std::string Name = "coral_mobilenet_v2_10_224_quant_uint8";
  const std::vector<std::string> Extra = {"--cascade", "--inputs-in-place"};
  test::TempDir Dir;
  const CascadeReport R = compileOn("mdla1.5", Name, Extra, Dir);
  CHECK(R.Arena <= 172000);
  CHECK(R.ExtraMacs == 0);
  CHECK(R.AcceleratorInCascades > 0);
  checkSeed("mdla1.5", Name, seedDirs(Name).front(), Extra);
}

TEST_CASE("striped model.c builds without a warning under strict C99") {
  requireSharedDir();
  for (const char *Label : {"mdla1.5", "npu55"})
  for (const std::vector<std::string> &Extra :
       {std::vector<std::string>{"--cascade"},
        std::vector<std::string>{"--cascade", "--inputs-in-place"}}) {
    test::TempDir Dir;
    const CascadeReport Report =
        compileOn(Label, "mlperf_tiny_ic_resnet8_int8", Extra, Dir);
    REQUIRE(Report.StripedSubgraphs > 0);
    for (const char *CC : {"gcc", "clang-14"}) {
      auto Path = llvm::sys::findProgramByName(CC);
      REQUIRE_MESSAGE(bool(Path), CC << " is not installed");
      test::RunResult C = test::runProgram(
          *Path, {"-std=c99", "-O1", "-Wall", "-Wextra", "-Werror",
                  "-pedantic", "-c", pathJoin(Dir.path(), "model.c"), "-o",
                  pathJoin(Dir.path(), std::string("model-") + CC + ".o")});
      CHECK_MESSAGE(C.ExitCode == 0, Label << " " << CC << ": " << C.Stderr);
    }
  }
}

TEST_CASE("striped programs run under ASan+UBSan, bit-exact") {
  requireSharedDir();
  // `run` builds with $CC; the sanitizers stop the program at the first
  // report, which `run` shows as a failure of the compiled model.
  const char *Old = std::getenv("CC");
  const std::string Saved = Old ? Old : "";
  REQUIRE(setenv("CC",
                 "cc -fsanitize=address,undefined -fno-sanitize-recover=all "
                 "-fno-omit-frame-pointer",
                 1) == 0);
  for (const char *Label : {"mdla1.5", "npu55"})
    for (const char *Name : {"mlperf_tiny_ic_resnet8_int8",
                             "mlperf_tiny_vww_mobilenetv1_025_96_int8"}) {
      test::TempDir Dir;
      REQUIRE(compileOn(Label, Name, {"--cascade"}, Dir).StripedSubgraphs > 0);
      checkSeed(Label, Name, seedDirs(Name).front(), {"--cascade"});
    }
  if (Old)
    setenv("CC", Saved.c_str(), 1);
  else
    unsetenv("CC");
}
