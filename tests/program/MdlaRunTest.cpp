//===- MdlaRunTest.cpp - Emitted models on the MDLA functional model ------===//
//
// One test per shared model and MDLA version: `accelgen run --target
// mdlaX.Y` builds the emitted C (CPU operators as for ref, each accelerator
// subgraph one call into the functional model) and runs it on every seed;
// every output must equal expected_<i>.bin byte for byte, and for seed 1,
// with --dump-layers, every operator's output must equal the reference
// layer dump, fused intermediates included. A difference fails naming the
// first diverging layer: the operator, where it ran (the accelerator
// subgraph and layer, or the CPU) and how its output differs.
//
// The uint8 Coral MobileNetV2 has only TensorFlow Lite 2.9's outputs, which
// the reference arithmetic differs from by a known set of bytes
// (tests/e2e/ModelRunTest.cpp asserts exactly which for the ref target).
// Here its outputs and every layer must equal the ref target's, byte for
// byte, so the same known difference holds for every MDLA version.
//
// The two LSTM models run their LSTM on the CPU; having no layer vectors,
// they compare final outputs only.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "ProgramTestSupport.h"

#include "emit/ModelEmitter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>
#include <sstream>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// `accelgen run` with the tests' cache; --dump-layers when \p Layers.
test::RunResult runOn(const std::string &Model, const std::string &Target,
                      const std::string &In, const std::string &Out,
                      bool Layers) {
  std::vector<std::string> Args = {
      "run", Model,       "--target", Target,        "--inputs",
      In,    "--outputs", Out,        "--cache-dir", ACCELGEN_E2E_CACHE_DIR};
  if (Layers)
    Args.push_back("--dump-layers");
  return runAccelgen(Args);
}

/// Where each input operator ran: "on the accelerator (subgraph 0, layer 3,
/// MDLA_FUSED_CHAIN)" or "on the CPU".
std::map<int64_t, std::string> placements(const ir::Graph &G,
                                          unsigned Version) {
  std::map<int64_t, std::string> Where;
  const program::AcceleratedModel M = test::accelerate(G, Version);
  for (const program::Subgraph &S : M.Prog.Subgraphs)
    for (size_t L = 0; L < S.Layers.size(); ++L)
      for (const program::Op &O : S.Layers[L].Ops) {
        std::ostringstream OS;
        OS << "on the accelerator (subgraph " << S.Index << ", layer " << L
           << ", " << S.Layers[L].Type << ", kernel " << O.Kernel
           << (S.Tensors[O.Outputs[0]].isConverted() ? ", stored as uint8" : "")
           << (O.ChannelAlign ? ", 16C" : "") << ")";
        Where[O.SourceIndex] = OS.str();
      }
  for (size_t I = 0; I < G.Operators.size(); ++I)
    Where.emplace(static_cast<int64_t>(I), "on the CPU");
  return Where;
}

/// The operator writing each tensor of \p G.
std::map<int32_t, int64_t> producers(const ir::Graph &G) {
  std::map<int32_t, int64_t> P;
  for (size_t I = 0; I < G.Operators.size(); ++I)
    for (int32_t T : G.Operators[I].Outputs)
      P[T] = static_cast<int64_t>(I);
  return P;
}

/// Compares the layer dump in \p OutDir with the one in \p RefDir (k-th file
/// is layerDumpTensors(G)[k]); fails naming the first diverging operator in
/// execution order.
void checkLayers(const ir::Graph &G, unsigned Version,
                 const std::string &RefDir, const std::string &OutDir,
                 const std::string &What) {
  const std::vector<int32_t> Order = emit::layerDumpTensors(G);
  const std::map<int32_t, int64_t> Producer = producers(G);
  std::map<int64_t, std::string> Diverging;
  for (size_t K = 0; K < Order.size(); ++K) {
    const std::string Name = "output_" + std::to_string(K) + ".bin";
    const std::string Want = pathJoin(RefDir, Name);
    const std::string Got = pathJoin(pathJoin(OutDir, "layers"), Name);
    REQUIRE_MESSAGE(exists(Want), Want << " is missing");
    REQUIRE_MESSAGE(exists(Got), Got << " was not written");
    const auto GotBytes = test::readFileBytes(Got);
    const auto WantBytes = test::readFileBytes(Want);
    if (GotBytes == WantBytes)
      continue;
    const int32_t T = Order[K];
    auto P = Producer.find(T);
    const int64_t Op = P == Producer.end() ? -1 : P->second;
    std::ostringstream OS;
    OS << ", output tensor " << T << " ("
       << ir::dtypeName(G.tensor(T).Type).str() << " "
       << ir::formatShape(G.tensor(T).Shape) << "), layers/" << Name << ": "
       << describeDiff(GotBytes, WantBytes, G.tensor(T).Type);
    Diverging.emplace(Op, OS.str());
  }
  if (Diverging.empty())
    return;
  const auto &[Op, Rest] = *Diverging.begin();
  std::ostringstream First;
  First << "operator " << Op;
  if (Op >= 0)
    First << " (" << G.Operators[Op].Type << ") "
          << placements(G, Version).at(Op);
  FAIL_CHECK(What << ": " << Diverging.size() << " of " << Order.size()
                  << " layers differ; first diverging layer: " << First.str()
                  << Rest);
}

/// Runs every seed of model \p Name on \p Target; outputs against
/// expected_<i>.bin, seed 1's layers against \p LayersFrom's.
void checkModel(const std::string &Name, const std::string &Target,
                const std::string &LayersFrom = "") {
  requireSharedDir();
  const ir::Graph G = importGraph(Name);
  const unsigned Version = *test::mdlaTarget().findVersion(Target);
  const std::vector<std::string> Seeds = seedDirs(Name);
  REQUIRE_MESSAGE(!Seeds.empty(), "no seed folders for " << Name);
  const std::string RefLayers = pathJoin(
      pathJoin(pathJoin(vectorsDir(), LayersFrom.empty() ? Name : LayersFrom),
               "seed1"),
      "layers");
  for (const std::string &Seed : Seeds) {
    const std::string SeedName = llvm::sys::path::filename(Seed).str();
    INFO(Name << " " << Target << " " << SeedName);
    // Models without layer vectors (the LSTM ones) compare outputs only.
    const bool Layers =
        SeedName == "seed1" && exists(pathJoin(RefLayers, "map.json"));
    test::TempDir Out;
    test::RunResult R =
        runOn(modelPath(Name), Target, Seed, Out.path(), Layers);
    REQUIRE_MESSAGE(R.ExitCode == 0,
                    "accelgen run failed: " << R.Stderr << R.ErrorMessage);
    CHECK(R.Stdout.find("estimated accelerator cycles") != std::string::npos);
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      const std::string Want =
          pathJoin(Seed, "expected_" + std::to_string(I) + ".bin");
      REQUIRE_MESSAGE(exists(Want), Want << " is missing");
      const auto Got = test::readFileBytes(
          pathJoin(Out.path(), "output_" + std::to_string(I) + ".bin"));
      const ir::DType T = G.tensor(G.Outputs[I]).Type;
      CHECK_MESSAGE(Got == test::readFileBytes(Want),
                    "output "
                        << I << ": "
                        << describeDiff(Got, test::readFileBytes(Want), T));
    }
    if (Layers)
      checkLayers(G, Version, RefLayers, Out.path(), Name + " " + Target);
  }
}

/// The Coral model: outputs and seed 1's layers equal to the ref target's.
void checkCoral(const std::string &Target) {
  requireSharedDir();
  const std::string Name = "coral_mobilenet_v2_10_224_quant_uint8";
  const ir::Graph G = importGraph(Name);
  const unsigned Version = *test::mdlaTarget().findVersion(Target);
  for (const std::string &Seed : seedDirs(Name)) {
    const std::string SeedName = llvm::sys::path::filename(Seed).str();
    INFO(Name << " " << Target << " " << SeedName);
    CHECK_FALSE(exists(pathJoin(Seed, "expected_0.bin")));
    const bool Layers = SeedName == "seed1";
    test::TempDir Out, Ref;
    test::RunResult R =
        runOn(modelPath(Name), Target, Seed, Out.path(), Layers);
    REQUIRE_MESSAGE(R.ExitCode == 0,
                    "accelgen run failed: " << R.Stderr << R.ErrorMessage);
    R = runOn(modelPath(Name), "ref", Seed, Ref.path(), Layers);
    REQUIRE_MESSAGE(R.ExitCode == 0, "accelgen run --target ref failed: "
                                         << R.Stderr << R.ErrorMessage);
    const auto Got = test::readFileBytes(pathJoin(Out.path(), "output_0.bin"));
    const auto Want = test::readFileBytes(pathJoin(Ref.path(), "output_0.bin"));
    CHECK_MESSAGE(Got == Want, "output 0 against the ref target: "
                                   << describeDiff(Got, Want, ir::DType::U8));
    if (Layers)
      checkLayers(G, Version, pathJoin(Ref.path(), "layers"), Out.path(),
                  Name + " " + Target + " against the ref target");
  }
}

} // namespace

TEST_CASE("every model the ref target runs has MDLA tests") {
  // The cases below add their models (ACCELGEN_COVER_MODEL).
  std::set<std::string> Runnable(runnableModels().begin(),
                                 runnableModels().end());
  CHECK(test::coveredModels() == Runnable);
}

#define MDLA_MODEL_TESTS(Model, LayersFrom)                                    \
  ACCELGEN_COVER_MODEL(Model)                                                  \
  TEST_CASE(Model " mdla1.5") { checkModel(Model, "mdla1.5", LayersFrom); }    \
  TEST_CASE(Model " mdla2.0") { checkModel(Model, "mdla2.0", LayersFrom); }    \
  TEST_CASE(Model " mdla3.0") { checkModel(Model, "mdla3.0", LayersFrom); }

MDLA_MODEL_TESTS("mlperf_tiny_ad_autoencoder_int8", "")
// The LSTM runs on the CPU, the rest on the accelerator.
MDLA_MODEL_TESTS("tflm_mnist_lstm_int8", "")
MDLA_MODEL_TESTS("coral_keras_lstm_mnist_ptq", "")
MDLA_MODEL_TESTS("mlperf_tiny_ic_resnet8_int8", "")
MDLA_MODEL_TESTS("mlperf_tiny_kws_dscnn_int8", "")
MDLA_MODEL_TESTS("mlperf_tiny_vww_mobilenetv1_025_96_int8", "")
MDLA_MODEL_TESTS("tflm_hello_world_int8", "")
MDLA_MODEL_TESTS("tflm_micro_speech_int8", "")
MDLA_MODEL_TESTS("tflm_person_detect_int8_qdimfix", "")
// Its own layer vectors are missing; the qdimfix copy's serve (see
// tests/e2e/ModelRunTest.cpp).
MDLA_MODEL_TESTS("tflm_person_detect_int8", "tflm_person_detect_int8_qdimfix")
MDLA_MODEL_TESTS("tflm_simple_add", "")

ACCELGEN_COVER_MODEL("coral_mobilenet_v2_10_224_quant_uint8")
TEST_CASE("coral_mobilenet_v2_10_224_quant_uint8 mdla1.5") {
  checkCoral("mdla1.5");
}
TEST_CASE("coral_mobilenet_v2_10_224_quant_uint8 mdla2.0") {
  checkCoral("mdla2.0");
}
TEST_CASE("coral_mobilenet_v2_10_224_quant_uint8 mdla3.0") {
  checkCoral("mdla3.0");
}
