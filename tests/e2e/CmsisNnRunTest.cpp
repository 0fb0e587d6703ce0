//===- CmsisNnRunTest.cpp - The cmsis-nn target against the vectors -------===//
//
// Every shared int8 model without LSTM state, emitted for target cmsis-nn
// (CMSIS-NN calls where its description maps an operator to an arm_*
// function, the reference kernels elsewhere) and built for the host against
// CMSIS-NN's plain C paths from the source tree in CMSIS_NN_PATH (the shared
// snapshot by default), must give every seed's expected_<i>.bin and, for
// seed 1, every layer of the reference byte for byte. The list of models is
// test::sharedModelNames() without the LSTM models and the uint8 one, which
// CMSIS-NN has no kernels for.
//
// The same models as bare-metal images for Cortex-M55 (Helium) and Cortex-M4
// (DSP), built with arm-none-eabi-gcc and run under qemu-system-arm, must
// match the same way, every seed and seed 1's every layer. Where the
// toolchain or QEMU is not installed those cases pass with a message saying
// so (scripts/setup.sh installs them).
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

#ifndef ACCELGEN_CMSIS_NN_PATH
#error "ACCELGEN_CMSIS_NN_PATH must name a CMSIS-NN source tree"
#endif

namespace {

/// The models CMSIS-NN's int8 functions apply to.
std::vector<std::string> cmsisModels() {
  std::vector<std::string> Models;
  for (const std::string &M : test::sharedModelNames())
    if (!test::sharedModelHasState(M) &&
        M != "coral_mobilenet_v2_10_224_quant_uint8")
      Models.push_back(M);
  return Models;
}

test::RunResult runOnHost(const std::string &Model, const std::string &In,
                          const std::string &Out, bool Layers) {
  return runModelOn("cmsis-nn", {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}, Model,
                    In, Out, Layers);
}

/// The person detection model without layer vectors of its own uses its
/// qdimfix copy's (ModelRunTest says why).
std::string layersOf(const std::string &Model) {
  return Model == "tflm_person_detect_int8" ? "tflm_person_detect_int8_qdimfix"
                                            : "";
}

/// True if the Cortex-M toolchain and QEMU are installed; otherwise says
/// what is missing.
bool haveCortexM() {
  for (const char *Tool : {"arm-none-eabi-gcc", "qemu-system-arm", "timeout"})
    if (!llvm::sys::findProgramByName(Tool)) {
      MESSAGE("skipped: " << Tool
                          << " is not installed (scripts/setup.sh installs "
                             "gcc-arm-none-eabi, libnewlib-arm-none-eabi and "
                             "qemu-system-arm)");
      return false;
    }
  return true;
}

/// Every seed of \p Model on Cortex-M \p Cpu under QEMU.
void checkOnCpu(const std::string &Model, const std::string &Cpu) {
  REQUIRE(llvm::is_contained(cmsisModels(), Model));
  if (!haveCortexM())
    return;
  checkModel(Model, layersOf(Model), /*CompareLayers=*/true,
             [&](const std::string &M, const std::string &In,
                 const std::string &Out, bool Layers) {
               return runModelOn(
                   "cmsis-nn",
                   {"--cpu", Cpu, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}, M, In,
                   Out, Layers);
             });
}

} // namespace

// The models with Cortex-M cases, listed once.
#define CORTEX_M_MODELS(X)                                                     \
  X("mlperf_tiny_ad_autoencoder_int8")                                         \
  X("mlperf_tiny_ic_resnet8_int8")                                             \
  X("mlperf_tiny_kws_dscnn_int8")                                              \
  X("mlperf_tiny_vww_mobilenetv1_025_96_int8")                                 \
  X("tflm_hello_world_int8")                                                   \
  X("tflm_micro_speech_int8")                                                  \
  X("tflm_person_detect_int8")                                                 \
  X("tflm_person_detect_int8_qdimfix")                                         \
  X("tflm_simple_add")

// One case per model and CPU, so that CTest runs them in parallel.
#define CORTEX_M_CASE(MODEL, CPU)                                              \
  TEST_CASE(MODEL " on " CPU " under QEMU") { checkOnCpu(MODEL, CPU); }
#define CORTEX_M_CASES(MODEL)                                                  \
  CORTEX_M_CASE(MODEL, "cortex-m55")                                           \
  CORTEX_M_CASE(MODEL, "cortex-m4")
CORTEX_M_MODELS(CORTEX_M_CASES)

TEST_CASE("every cmsis-nn model has Cortex-M cases") {
#define CORTEX_M_NAME(MODEL) MODEL,
  const std::vector<std::string> Listed = {CORTEX_M_MODELS(CORTEX_M_NAME)};
#undef CORTEX_M_NAME
  CHECK(Listed == cmsisModels());
}

TEST_CASE("the emitted C is strict C99 at every CPU family") {
  requireSharedDir();
  for (const char *Family : {"cmsis-nn3", "cmsis-nn4", "cmsis-nn55"})
    for (const char *Model :
         {"mlperf_tiny_kws_dscnn_int8", "tflm_micro_speech_int8",
          "mlperf_tiny_ic_resnet8_int8"}) {
      INFO(Family << " " << Model);
      test::TempDir Out;
      const std::string Dir = pathJoin(Out.path(), "c");
      test::RunResult R = runAccelgen(
          {"compile", modelPath(Model), "--target", Family, "-o", Dir});
      REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
      const std::string ModelC = pathJoin(Dir, "model.c");
      // The CMSIS-NN calls are there (the models are mostly convolutions).
      CHECK(test::readFileText(ModelC).find("arm_") != std::string::npos);
      for (const char *Compiler : {"gcc", "clang-14"}) {
        auto CC = llvm::sys::findProgramByName(Compiler);
        REQUIRE_MESSAGE(bool(CC), Compiler << " is not installed");
        test::RunResult C = test::runProgram(
            *CC,
            {"-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
             "-isystem", std::string(ACCELGEN_CMSIS_NN_PATH) + "/Include", "-I",
             Dir, "-c", ModelC, "-o", pathJoin(Out.path(), "model.o")},
            120);
        CHECK_MESSAGE(C.ExitCode == 0, Compiler << ": " << C.Stderr);
      }
    }
}

TEST_CASE("the cmsis-nn models are every int8 model without state") {
  const std::vector<std::string> Models = cmsisModels();
  CHECK(Models.size() == test::sharedModelNames().size() - 3);
  CHECK(llvm::is_contained(Models, "mlperf_tiny_kws_dscnn_int8"));
}

TEST_CASE("every int8 model on the host through CMSIS-NN") {
  for (const std::string &M : cmsisModels()) {
    INFO(M);
    checkModel(M, layersOf(M), /*CompareLayers=*/true, runOnHost);
  }
}

TEST_CASE("the backend's own run options apply to its targets only") {
  requireSharedDir();
  const std::string Name = "mlperf_tiny_kws_dscnn_int8";
  const std::string Model = modelPath(Name);
  const std::string In = seedDirs(Name).front();
  test::TempDir Out;
  // --cmsis-nn is the cmsis-nn-calls backend's: ref neither reads it nor
  // silently ignores it.
  test::RunResult R = runAccelgen(
      {"run", Model, "--target", "ref", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH,
       "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("--cmsis-nn does not apply to target 'ref': "
                      "neither its backend (ref-kernels) nor a CPU fallback "
                      "reads it") != std::string::npos);
  // An option no backend defines is an unknown option.
  R = runAccelgen({"run", Model, "--target", "cmsis-nn", "--no-such-option",
                   "1", "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith("error: "));
  // Its values are checked where it reads them.
  R = runAccelgen({"run", Model, "--target", "cmsis-nn", "--cpu", "cortex-m4",
                   "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH, "--timeout", "soon",
                   "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("--timeout 'soon' is not a number of seconds") !=
        std::string::npos);
}
