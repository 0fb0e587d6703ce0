//===- CpuRunTest.cpp - Target cpu against the reference vectors ----------===//
//
// One test per shared model: `accelgen run --target cpu` on every seed,
// every output byte for byte against expected_<i>.bin and seed 1's every
// layer against the layer vectors, as ModelRunTest checks target ref. The
// uint8 Coral MobileNetV2 has no expected outputs; target cpu must give
// target ref's outputs there (every seed). The LSTM models are left to
// ModelRunTest: cpu runs their operators with ref's kernels.
//
// And the specialisation itself: in the models with convolutions, every
// CONV_2D, DEPTHWISE_CONV_2D (depth multiplier 1 in all of them),
// FULLY_CONNECTED and ADD / SUB / MUL without broadcasting must run a kernel
// of cpu_kernels.c, not a reference kernel, or the tests above would prove
// nothing about it. The uint8 MobileNetV2 is among them: its kernels take
// the offsets of both operands as the values are widened.
//
//===----------------------------------------------------------------------===//

#include "E2ESupport.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// checkModel with the cpu target.
void checkOnCpu(const std::string &Name, const std::string &LayersFrom = "") {
  checkModel(Name, LayersFrom, true,
             [](const std::string &Model, const std::string &In,
                const std::string &Out, bool Layers) {
               return runModelOn("cpu", {}, Model, In, Out, Layers);
             });
}

/// The kernel report.json names for each operator of \p Name compiled for
/// target cpu, by operator index.
std::vector<std::string> cpuKernels(const std::string &Name) {
  test::TempDir Out;
  test::RunResult R = runAccelgen(
      {"compile", modelPath(Name), "--target", "cpu", "-o", Out.path()});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(
      test::readFileText(pathJoin(Out.path(), "report.json")));
  REQUIRE_MESSAGE(bool(V), llvm::toString(V.takeError()));
  std::vector<std::string> Kernels;
  for (const llvm::json::Value &Op : *V->getAsObject()->getArray("operators"))
    Kernels.push_back(
        Op.getAsObject()->getString("kernel").getValueOr("").str());
  CHECK(exists(pathJoin(Out.path(), "cpu_kernels.c")));
  return Kernels;
}

} // namespace

TEST_CASE("every shared model without state has a test case") {
  CHECK(test::coveredModels() == statelessModels());
}

TEST_CASE("covered operators run their specialised kernels") {
  requireSharedDir();
  for (const std::string &Name : convolutionalModels()) {
    INFO(Name);
    const ir::Graph G = importGraph(Name);
    const std::vector<std::string> Kernels = cpuKernels(Name);
    REQUIRE(Kernels.size() == G.Operators.size());
    size_t Specialised = 0;
    for (size_t I = 0; I < G.Operators.size(); ++I) {
      const std::string &Type = G.Operators[I].Type;
      const ir::Operator &Op = G.Operators[I];
      const int64_t Count = G.tensor(Op.Outputs[0]).numElements();
      const bool Elementwise =
          (Type == "ADD" || Type == "SUB" || Type == "MUL") &&
          G.tensor(Op.Inputs[0]).numElements() == Count &&
          G.tensor(Op.Inputs[1]).numElements() == Count;
      const bool Covered = Type == "CONV_2D" || Type == "DEPTHWISE_CONV_2D" ||
                           Type == "FULLY_CONNECTED" || Elementwise;
      const std::string Special = "model_op" + std::to_string(I);
      INFO("operator " << I << " (" << Type << "): " << Kernels[I]);
      CHECK((Kernels[I] == Special) == Covered);
      Specialised += Covered;
    }
    CHECK(Specialised > 0);
  }
}

TEST_CASE("a depthwise convolution with a depth multiplier runs its "
          "specialised kernel") {
  // micro_speech's one DEPTHWISE_CONV_2D makes 8 channels of its 1; its
  // results are checked layer by layer below.
  requireSharedDir();
  const std::string Name = "tflm_micro_speech_int8";
  const ir::Graph G = importGraph(Name);
  const std::vector<std::string> Kernels = cpuKernels(Name);
  REQUIRE(Kernels.size() == G.Operators.size());
  size_t Found = 0;
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    const ir::Operator &Op = G.Operators[I];
    if (Op.Type != "DEPTHWISE_CONV_2D")
      continue;
    CHECK(Op.getInt(ir::attr::DepthMultiplier, 1) == 8);
    CHECK(Kernels[I] == "model_op" + std::to_string(I));
    ++Found;
  }
  CHECK(Found == 1);
}

#define CPU_MODEL_TEST(Model)                                                  \
  ACCELGEN_COVER_MODEL(Model)                                                  \
  TEST_CASE(Model) { checkOnCpu(Model); }

CPU_MODEL_TEST("mlperf_tiny_ad_autoencoder_int8")
CPU_MODEL_TEST("mlperf_tiny_ic_resnet8_int8")
CPU_MODEL_TEST("mlperf_tiny_kws_dscnn_int8")
CPU_MODEL_TEST("mlperf_tiny_vww_mobilenetv1_025_96_int8")
CPU_MODEL_TEST("tflm_hello_world_int8")
CPU_MODEL_TEST("tflm_micro_speech_int8")
CPU_MODEL_TEST("tflm_person_detect_int8_qdimfix")
CPU_MODEL_TEST("tflm_simple_add")

// The unmodified model's layers are its qdimfix copy's (ModelRunTest).
ACCELGEN_COVER_MODEL("tflm_person_detect_int8")
TEST_CASE("tflm_person_detect_int8") {
  checkOnCpu("tflm_person_detect_int8", "tflm_person_detect_int8_qdimfix");
}

ACCELGEN_COVER_MODEL("coral_mobilenet_v2_10_224_quant_uint8")
TEST_CASE("coral_mobilenet_v2_10_224_quant_uint8") {
  checkAgainstRef("coral_mobilenet_v2_10_224_quant_uint8", {});
}
