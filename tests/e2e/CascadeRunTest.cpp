//===- CascadeRunTest.cpp - Cascaded models against the reference vectors -===//
//
// Every shared model without state, run with cascading (docs/cascading.md)
// at two budgets: the smallest one that works, which a budget of one byte's
// error names (and one byte less must fail), and the midpoint between it and
// the layer-at-a-time arena; and at the smallest budget with the graph
// inputs read in the caller's buffers (--inputs-in-place). Every seed's outputs
// must equal expected_<i>.bin byte for byte; the uint8 Coral MobileNetV2, which
// has none (see ModelRunTest), must give exactly the layer-at-a-time program's
// outputs. The arena report.json states must fit the budget, with no extra
// MACs but in tiled cascades (which a budget no stripes fit makes), and the
// cascaded model.c of the smallest budget must build without a
// warning under strict C99 (gcc and clang-14). Target cpu runs every such
// model cascaded too, with its specialised kernels in the stripes (portable,
// and the SIMD ones where this processor has the instructions), some of them
// layer by layer.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "cpu/CpuIsa.h"
#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "plan/Cascade.h"
#include "plan/MemoryPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"


using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// `accelgen run` of \p Name on seed folder \p Seed into \p Out, with the
/// extra arguments \p Extra.
test::RunResult runWith(const std::string &Name, const std::string &Seed,
                        const std::string &Out,
                        const std::vector<std::string> &Extra) {
  std::vector<std::string> Args = {"run",         modelPath(Name),
                                   "--target",    "ref",
                                   "--inputs",    Seed,
                                   "--outputs",   Out,
                                   "--cache-dir", ACCELGEN_E2E_CACHE_DIR};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runAccelgen(Args);
}


/// Compiles \p Name with \p Extra; with \p Strict, model.c must build
/// without a warning under strict C99 with gcc and clang-14. Returns the
/// arena report.json gives.
int64_t compileCascaded(const std::string &Name,
                        const std::vector<std::string> &Extra, bool Strict) {
  test::TempDir Out;
  std::vector<std::string> Args = {
      "compile", modelPath(Name), "--target", "ref", "-o", Out.path()};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  test::RunResult R = runAccelgen(Args);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  for (const char *CC : {"gcc", "clang-14"}) {
    if (!Strict)
      break;
    auto Path = llvm::sys::findProgramByName(CC);
    REQUIRE_MESSAGE(bool(Path), CC << " is not installed");
    test::RunResult C = test::runProgram(
        *Path, {"-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
                "-c", pathJoin(Out.path(), "model.c"), "-o",
                pathJoin(Out.path(), std::string("model-") + CC + ".o")});
    CHECK_MESSAGE(C.ExitCode == 0, CC << ": " << C.Stderr);
  }
  auto V = llvm::json::parse(
      test::readFileText(pathJoin(Out.path(), "report.json")));
  REQUIRE(bool(V));
  const llvm::json::Object *Cascading =
      V->getAsObject()->getObject("cascading");
  REQUIRE(Cascading);
  // Line buffers compute every row once; tiles, under a budget no stripes
  // fit, some twice, which the total counts.
  int64_t Twice = 0;
  for (const llvm::json::Value &C : *Cascading->getArray("cascades")) {
    const llvm::json::Object &O = *C.getAsObject();
    const int64_t E = O.getInteger("extra_macs").getValueOr(-1);
    if (O.getInteger("tile_columns").getValueOr(-1) == 0)
      CHECK(E == 0);
    else // a chain of 1 x 1 windows recomputes nothing
      CHECK(E >= 0);
    Twice += E;
  }
  CHECK(Cascading->getInteger("extra_macs").getValueOr(-1) == Twice);
  return V->getAsObject()->getObject("arena")->getInteger("bytes").getValueOr(
      -1);
}

/// Runs every seed of \p Name cascaded under \p Budget and compares.
void checkAtBudget(const std::string &Name, int64_t Budget,
                   const std::vector<std::string> &Extra, bool Strict) {
  const ir::Graph G = importGraph(Name);
  std::vector<std::string> Budgeted = {"--memory-budget",
                                       std::to_string(Budget)};
  Budgeted.insert(Budgeted.end(), Extra.begin(), Extra.end());
  CHECK(compileCascaded(Name, Budgeted, Strict) <= Budget);
  for (const std::string &Seed : seedDirs(Name)) {
    INFO(Name << " " << llvm::sys::path::filename(Seed).str() << " budget "
              << Budget);
    test::TempDir Out;
    test::RunResult R = runWith(Name, Seed, Out.path(), Budgeted);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    const bool HasExpected = exists(pathJoin(Seed, "expected_0.bin"));
    test::TempDir Layered;
    if (!HasExpected) {
      test::RunResult L = runWith(Name, Seed, Layered.path(), {});
      REQUIRE_MESSAGE(L.ExitCode == 0, L.Stderr << L.ErrorMessage);
    }
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      const std::string File = "output_" + std::to_string(I) + ".bin";
      const std::string Want =
          HasExpected ? pathJoin(Seed, "expected_" + std::to_string(I) + ".bin")
                      : pathJoin(Layered.path(), File);
      const auto Got = test::readFileBytes(pathJoin(Out.path(), File));
      const auto WantBytes = test::readFileBytes(Want);
      CHECK_MESSAGE(Got == WantBytes,
                    "output " << I << ": "
                              << describeDiff(Got, WantBytes,
                                              G.tensor(G.Outputs[I]).Type));
    }
  }
}

/// The smallest budget: one byte less fails, it works, and bit-exact;
/// \p Extra adds options (--inputs-in-place).
void checkSmallest(const std::string &Name,
                   const std::vector<std::string> &Extra = {}) {
  requireSharedDir();
  REQUIRE_FALSE(test::sharedModelHasState(Name));
  const int64_t Smallest = smallestBudget("ref", Name, Extra);
  CHECK(Smallest <= plan::planMemory(importGraph(Name)).ArenaBytes);
  test::TempDir Out;
  std::vector<std::string> Args = {"--memory-budget",
                                   std::to_string(Smallest - 1)};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  test::RunResult R = runWith(Name, seedDirs(Name).front(), Out.path(), Args);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("the smallest budget that works is " +
                      std::to_string(Smallest) + " bytes") !=
        std::string::npos);
  // Strict C99 once per model, for the code of the smallest budget. Not for
  // the 3.6 MB MobileNetV2, whose two optimized builds alone take minutes on
  // a loaded machine; its cascades are made of the same statements as the
  // other models' (CompileTest checks its layer-at-a-time code).
  checkAtBudget(Name, Smallest, Extra,
                Extra.empty() &&
                    Name != "coral_mobilenet_v2_10_224_quant_uint8");
}

/// Halfway between the smallest budget and the layer-at-a-time arena.
void checkHalfway(const std::string &Name) {
  requireSharedDir();
  const int64_t Smallest = smallestBudget("ref", Name);
  const int64_t Layer = plan::planMemory(importGraph(Name)).ArenaBytes;
  checkAtBudget(Name, (Smallest + Layer) / 2, {}, /*Strict=*/false);
}

/// Every seed of \p Name on \p Target with --cascade (the least working
/// memory), and seed 1's every layer, dumped stripe by stripe, against the
/// vectors; the plan must cascade, and a residual ADD must write its sum over
/// the block's input inside one cascade when \p WantOverlay.
void checkCascadedLayers(const std::string &Target, const std::string &Name,
                         bool WantOverlay) {
  requireSharedDir();
  plan::CascadeOptions O;
  O.Enabled = true;
  const ir::Graph G = importGraph(Name);
  llvm::Expected<plan::CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  CHECK_FALSE(P->Cascades.empty());
  if (WantOverlay)
    CHECK(llvm::any_of(P->Cascades,
                       [](const plan::Cascade &C) { return C.Overlaid >= 0; }));
  checkModel(Name, Name, /*CompareLayers=*/true,
             [&](const std::string &Model, const std::string &In,
                 const std::string &Out, bool Layers) {
               return runModelOn(Target, {"--cascade"}, Model, In, Out, Layers);
             });
}

/// Every seed of \p Name on target cpu with --cascade (its specialised
/// kernels stripe by stripe), and seed 1's every layer, against the vectors
/// (person_detect's layers are its fixed twin's); the uint8 Coral
/// MobileNetV2 against target ref's outputs.
void checkCpuCascaded(const std::string &Name) {
  requireSharedDir();
  if (Name == "coral_mobilenet_v2_10_224_quant_uint8") {
    checkAgainstRef(Name, {"--cascade"});
    return;
  }
  checkCascadedOn("cpu", Name);
}

/// Compiles \p Name for target cpu with --cascade and --cpu \p Cpu: every
/// member of a cascade that is a CONV_2D, DEPTHWISE_CONV_2D or ADD must call
/// its specialised kernel (report.json's "kernel" is no reference kernel),
/// there must be such members, and cpu_kernels.c, stripe variants included,
/// must build without a warning under strict C99 with gcc and clang-14 given
/// the --cpu value's flags.
void checkCpuStripeKernels(const std::string &Name, const std::string &Cpu) {
  requireSharedDir();
  test::TempDir Out;
  test::RunResult R =
      runAccelgen({"compile", modelPath(Name), "--target", "cpu", "--cpu", Cpu,
                   "--cascade", "-o", Out.path()});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  llvm::Expected<cpu::CpuChoice> Choice = cpu::resolveCpu(Cpu);
  REQUIRE_MESSAGE(bool(Choice), llvm::toString(Choice.takeError()));
  for (const char *CC : {"gcc", "clang-14"}) {
    auto Path = llvm::sys::findProgramByName(CC);
    REQUIRE_MESSAGE(bool(Path), CC << " is not installed");
    std::vector<std::string> Flags = {"-std=c99", "-O1",     "-Wall",
                                      "-Wextra",  "-Werror", "-pedantic"};
    for (llvm::StringRef F : llvm::split(Choice->Flags, ' '))
      if (!F.empty())
        Flags.push_back(F.str());
    Flags.insert(Flags.end(), {"-c", pathJoin(Out.path(), "cpu_kernels.c"),
                               "-o", pathJoin(Out.path(), "k.o")});
    test::RunResult C = test::runProgram(*Path, Flags);
    CHECK_MESSAGE(C.ExitCode == 0, CC << " " << Cpu << ": " << C.Stderr);
  }
  auto V = llvm::json::parse(
      test::readFileText(pathJoin(Out.path(), "report.json")));
  REQUIRE(bool(V));
  const llvm::json::Array *Ops = V->getAsObject()->getArray("operators");
  REQUIRE(Ops);
  int Specialised = 0;
  for (const llvm::json::Value &O : *Ops) {
    const llvm::json::Object &Op = *O.getAsObject();
    if (!Op.getInteger("cascade"))
      continue;
    const std::string Type = Op.getString("type").getValueOr("").str();
    const std::string Kernel = Op.getString("kernel").getValueOr("").str();
    if (Type != "CONV_2D" && Type != "DEPTHWISE_CONV_2D" && Type != "ADD")
      continue;
    INFO(Name << " operator " << Op.getInteger("index").getValueOr(-1) << " ("
              << Type << ")");
    CHECK_MESSAGE(llvm::StringRef(Kernel).startswith("model_op"), Kernel);
    ++Specialised;
  }
  CHECK(Specialised > 0);
}

/// ic_resnet8 with its second convolution's SAME padding made a PAD of one
/// row and column on each side and the convolution VALID: the same
/// arithmetic (PAD fills the input zero point, which the reference's SAME
/// convolution skips, contributing (zp + input_offset) * w = 0), so the same
/// outputs. Written to \p Path; returns the PAD's operator index.
size_t writePaddedResnet8(const std::string &Path) {
  llvm::Expected<tflite::ImportResult> M =
      tflite::importModelFile(modelPath("mlperf_tiny_ic_resnet8_int8"));
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  ir::Graph &G = M->Model->main();
  const size_t At = 1;
  REQUIRE(G.Operators[At].Type == "CONV_2D");
  REQUIRE(G.Operators[At].getString(ir::attr::Padding) == "SAME");
  REQUIRE(G.Operators[At].getInt(ir::attr::StrideH, 0) == 1);
  const int32_t In = G.Operators[At].Inputs[0];
  REQUIRE(G.tensor(G.Operators[At].Inputs[1]).Shape[1] == 3);
  ir::Tensor Padded = G.tensor(In);
  Padded.Name += "_padded";
  Padded.Shape[1] += 2;
  Padded.Shape[2] += 2;
  G.Tensors.push_back(std::move(Padded));
  const int32_t PaddedId = static_cast<int32_t>(G.Tensors.size() - 1);
  G.Tensors.push_back(
      test::int32Constant("paddings", {4, 2}, {0, 0, 1, 1, 1, 1, 0, 0}));
  ir::Operator Pad;
  Pad.Type = "PAD";
  Pad.Inputs = {In, static_cast<int32_t>(G.Tensors.size() - 1)};
  Pad.Outputs = {PaddedId};
  G.Operators[At].Inputs[0] = PaddedId;
  G.Operators[At].setAttr(ir::attr::Padding, std::string("VALID"));
  G.Operators.insert(G.Operators.begin() + At, std::move(Pad));
  REQUIRE_FALSE(llvm::errorToBool(tflite::writeModelFile(*M->Model, Path)));
  return At;
}

} // namespace

TEST_CASE("a PAD runs stripe by stripe, on ref and cpu, bit-exact") {
  requireSharedDir();
  test::TempDir Dir;
  const std::string Model = Dir.file("resnet8_pad.tflite");
  const size_t Pad = writePaddedResnet8(Model);
  llvm::Expected<tflite::ImportResult> M = tflite::importModelFile(Model);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  plan::CascadeOptions O;
  O.Enabled = true;
  llvm::Expected<plan::CascadePlan> P =
      plan::planCascades(M->Model->main(), O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  REQUIRE_MESSAGE(P->cascadeOf(static_cast<int32_t>(Pad)),
                  "the least-memory plan does not cascade the PAD");
  for (const char *Target : {"ref", "cpu"})
    for (const std::string &Seed : seedDirs("mlperf_tiny_ic_resnet8_int8")) {
      INFO(Target << " " << llvm::sys::path::filename(Seed).str());
      test::TempDir Out;
      test::RunResult R =
          runModelOn(Target, {"--cascade"}, Model, Seed, Out.path(), false);
      REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
      const auto Got =
          test::readFileBytes(pathJoin(Out.path(), "output_0.bin"));
      const auto Want = test::readFileBytes(pathJoin(Seed, "expected_0.bin"));
      CHECK_MESSAGE(Got == Want, describeDiff(Got, Want, ir::DType::I8));
    }
}

TEST_CASE("MobileNetV2-224 within 176,128 bytes with its input in the arena: "
          "tiles, every layer on ref and cpu as layer at a time") {
  requireSharedDir();
  const std::string Name = "coral_mobilenet_v2_10_224_quant_uint8";
  const std::vector<std::string> Budget = {"--memory-budget", "176128"};
  // The plan: the arena within the budget, its first cascade in tiles, at
  // most 1.1 times the MACs.
  const llvm::json::Object Report =
      compiledInTiles(modelPath(Name), "ref", 176128);
  CHECK(Report.getObject("cascading")
            ->getArray("cascades")
            ->front()
            .getAsObject()
            ->getInteger("first_op")
            .getValueOr(-1) == 0);
  // Every layer, dumped tile by tile, equals layer at a time.
  const std::string Seed = seedDirs(Name).front();
  test::TempDir Layer;
  test::RunResult L =
      runModelOn("ref", {}, modelPath(Name), Seed, Layer.path(), true);
  REQUIRE_MESSAGE(L.ExitCode == 0, L.Stderr << L.ErrorMessage);
  for (const char *Target : {"ref", "cpu"}) {
    INFO(Target);
    test::TempDir Out;
    test::RunResult T =
        runModelOn(Target, Budget, modelPath(Name), Seed, Out.path(), true);
    REQUIRE_MESSAGE(T.ExitCode == 0, T.Stderr << T.ErrorMessage);
    CHECK(test::readFileBytes(pathJoin(Out.path(), "output_0.bin")) ==
          test::readFileBytes(pathJoin(Layer.path(), "output_0.bin")));
    int Layers = 0;
    for (int K = 0;; ++K) {
      const std::string File =
          pathJoin("layers", "output_" + std::to_string(K) + ".bin");
      if (!exists(pathJoin(Layer.path(), File)))
        break;
      CHECK_MESSAGE(test::readFileBytes(pathJoin(Out.path(), File)) ==
                        test::readFileBytes(pathJoin(Layer.path(), File)),
                    File);
      ++Layers;
    }
    CHECK(Layers == 66);
  }
}

TEST_CASE("cmsis-nn refuses inputs in place, saying why") {
  requireSharedDir();
  test::TempDir Out;
  test::RunResult R = runAccelgen(
      {"compile", modelPath("mlperf_tiny_ic_resnet8_int8"), "--target",
       "cmsis-nn55", "--cascade", "--inputs-in-place", "-o", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("--inputs-in-place does not work on target "
                              "cmsis-nn: its calls read every tensor in the "
                              "arena") != std::string::npos,
                R.Stderr);
}

TEST_CASE("layers dumped stripe by stripe: ic_resnet8 cascaded on ref") {
  checkCascadedLayers("ref", "mlperf_tiny_ic_resnet8_int8", false);
}

TEST_CASE("layers dumped stripe by stripe: VWW cascaded on ref") {
  checkCascadedLayers("ref", "mlperf_tiny_vww_mobilenetv1_025_96_int8", false);
}

TEST_CASE("target cpu cascades: ic_resnet8 and VWW, every layer bit-exact") {
  checkCascadedLayers("cpu", "mlperf_tiny_ic_resnet8_int8", false);
  checkCascadedLayers("cpu", "mlperf_tiny_vww_mobilenetv1_025_96_int8", false);
}

TEST_CASE("target cpu's stripes run its specialised kernels") {
  for (const char *Name :
       {"mlperf_tiny_ic_resnet8_int8", "mlperf_tiny_vww_mobilenetv1_025_96_int8",
        "tflm_person_detect_int8"})
    for (const char *Cpu : {"generic", "x86-64-v3", "x86-64-v4", "znver4"})
      checkCpuStripeKernels(Name, Cpu);
}

TEST_CASE("target cpu cascades with the SIMD kernels, every layer bit-exact") {
  for (const char *Cpu : {"x86-64-v3", "znver4"}) {
    if (!hostRuns(Cpu))
      continue;
    for (const char *Name : {"mlperf_tiny_ic_resnet8_int8",
                             "mlperf_tiny_vww_mobilenetv1_025_96_int8"})
      checkModel(Name, Name, /*CompareLayers=*/true,
                 [&](const std::string &Model, const std::string &In,
                     const std::string &Out, bool Layers) {
                   return runModelOn("cpu", {"--cascade", "--cpu", Cpu}, Model,
                                     In, Out, Layers);
                 });
  }
}

TEST_CASE("every stateless shared model has a cascaded test") {
  size_t Stateless = 0;
  for (const std::string &Name : test::sharedModelNames())
    Stateless += !test::sharedModelHasState(Name);
  // One test case per model below.
  CHECK(Stateless == 10);
}

#define CASCADED(NAME)                                                         \
  TEST_CASE(NAME " at the smallest budget") { checkSmallest(NAME); }           \
  TEST_CASE(NAME " halfway to layer at a time") { checkHalfway(NAME); }        \
  TEST_CASE(NAME " with inputs in place at the smallest budget") {             \
    checkSmallest(NAME, {"--inputs-in-place"});                                \
  }                                                                            \
  TEST_CASE(NAME " on target cpu with --cascade") { checkCpuCascaded(NAME); }

CASCADED("coral_mobilenet_v2_10_224_quant_uint8")
CASCADED("mlperf_tiny_ad_autoencoder_int8")
CASCADED("mlperf_tiny_ic_resnet8_int8")
CASCADED("mlperf_tiny_kws_dscnn_int8")
CASCADED("mlperf_tiny_vww_mobilenetv1_025_96_int8")
CASCADED("tflm_hello_world_int8")
CASCADED("tflm_micro_speech_int8")
CASCADED("tflm_person_detect_int8")
CASCADED("tflm_person_detect_int8_qdimfix")
CASCADED("tflm_simple_add")
