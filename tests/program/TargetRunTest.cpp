//===- TargetRunTest.cpp - Every functional-model target on every model ---===//
//
// The proof that a target is only its folder: every target the build
// registers (target::registerBuiltinTargets(), generated from the targets
// accelgen_add_target recorded) whose description says FunctionalModel must,
// at each of its versions, compile (`accelgen compile --target <label>`) and
// run (`accelgen run`) every shared model the ref target runs, bit for bit:
// every output of every seed equal to expected_<i>.bin. The uint8 Coral
// MobileNetV2 has only TensorFlow Lite 2.9's outputs, which the reference
// arithmetic differs from by a known set of bytes (tests/e2e/ModelRunTest.cpp);
// its outputs must equal the ref target's instead.
//
// One test case per model, looping over the targets, so that adding a target
// needs no edit here. Targets with a run test of their own (MdlaRunTest, which
// also compares every layer) are named by the build in
// ACCELGEN_OWN_RUN_TESTS and left to it, so no model runs twice.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <set>
#include <string>
#include <vector>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// The labels ("npu55") of every version of every registered target with a
/// functional model and no run test of its own.
std::vector<std::string> functionalLabels() {
  llvm::SmallVector<llvm::StringRef, 4> Own;
  llvm::StringRef(ACCELGEN_OWN_RUN_TESTS).split(Own, ',', -1, false);
  return functionalModelLabels(Own);
}

/// `accelgen run MODEL --target LABEL` on the inputs in \p In.
test::RunResult runOn(const std::string &Model, const std::string &Label,
                      const std::string &In, const std::string &Out) {
  return runAccelgen({"run", Model, "--target", Label, "--inputs", In,
                      "--outputs", Out, "--cache-dir", ACCELGEN_E2E_CACHE_DIR});
}

/// Compiles and runs model \p Name on every functional-model target version.
void checkModel(const std::string &Name) {
  requireSharedDir();
  const ir::Graph G = importGraph(Name);
  const std::vector<std::string> Seeds = seedDirs(Name);
  REQUIRE_MESSAGE(!Seeds.empty(), "no seed folders for " << Name);
  for (const std::string &Label : functionalLabels()) {
    INFO(Name << " " << Label);
    {
      test::TempDir Out;
      test::RunResult R = runAccelgen(
          {"compile", modelPath(Name), "--target", Label, "-o", Out.path()});
      REQUIRE_MESSAGE(R.ExitCode == 0, "accelgen compile failed: "
                                           << R.Stderr << R.ErrorMessage);
      CHECK(exists(pathJoin(Out.path(), "model.c")));
    }
    for (const std::string &Seed : Seeds) {
      INFO(llvm::sys::path::filename(Seed).str());
      test::TempDir Out;
      test::RunResult R = runOn(modelPath(Name), Label, Seed, Out.path());
      REQUIRE_MESSAGE(R.ExitCode == 0,
                      "accelgen run failed: " << R.Stderr << R.ErrorMessage);
      // Without expected outputs (Coral), the ref target's are the reference.
      std::string WantDir = Seed;
      test::TempDir Ref;
      if (!exists(pathJoin(Seed, "expected_0.bin"))) {
        R = runOn(modelPath(Name), "ref", Seed, Ref.path());
        REQUIRE_MESSAGE(R.ExitCode == 0, "accelgen run --target ref failed: "
                                             << R.Stderr << R.ErrorMessage);
        WantDir = Ref.path();
      }
      for (size_t I = 0; I < G.Outputs.size(); ++I) {
        const std::string Want =
            pathJoin(WantDir, (WantDir == Seed ? "expected_" : "output_") +
                                  std::to_string(I) + ".bin");
        REQUIRE_MESSAGE(exists(Want), Want << " is missing");
        const auto Got = test::readFileBytes(
            pathJoin(Out.path(), "output_" + std::to_string(I) + ".bin"));
        const auto WantBytes = test::readFileBytes(Want);
        CHECK_MESSAGE(Got == WantBytes,
                      "output " << I << ": "
                                << describeDiff(Got, WantBytes,
                                                G.tensor(G.Outputs[I]).Type));
      }
    }
  }
}

} // namespace

TEST_CASE("every model the ref target runs has a test case") {
  // The cases below add their models (ACCELGEN_COVER_MODEL).
  std::set<std::string> Runnable(runnableModels().begin(),
                                 runnableModels().end());
  CHECK(test::coveredModels() == Runnable);
}

TEST_CASE("the build registers a functional-model target to run") {
  // The npu target (targets/npu) is the in-tree one without its own run test;
  // an empty list would make every case below pass without running anything.
  CHECK_FALSE(functionalLabels().empty());
}

#define TARGET_MODEL_TEST(Model)                                               \
  ACCELGEN_COVER_MODEL(Model)                                                  \
  TEST_CASE(Model) { checkModel(Model); }

TARGET_MODEL_TEST("coral_mobilenet_v2_10_224_quant_uint8")
TARGET_MODEL_TEST("mlperf_tiny_ad_autoencoder_int8")
TARGET_MODEL_TEST("mlperf_tiny_ic_resnet8_int8")
TARGET_MODEL_TEST("mlperf_tiny_kws_dscnn_int8")
TARGET_MODEL_TEST("mlperf_tiny_vww_mobilenetv1_025_96_int8")
TARGET_MODEL_TEST("tflm_hello_world_int8")
TARGET_MODEL_TEST("tflm_micro_speech_int8")
TARGET_MODEL_TEST("tflm_person_detect_int8")
TARGET_MODEL_TEST("tflm_person_detect_int8_qdimfix")
TARGET_MODEL_TEST("tflm_simple_add")
TARGET_MODEL_TEST("tflm_mnist_lstm_int8")
TARGET_MODEL_TEST("coral_keras_lstm_mnist_ptq")
