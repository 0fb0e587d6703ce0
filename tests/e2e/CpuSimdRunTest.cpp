//===- CpuSimdRunTest.cpp - Target cpu's x86-64 SIMD kernels --------------===//
//
// Every shared model without state, on every seed, with target cpu's AVX2
// (`--cpu x86-64-v3`), AVX-512 (`x86-64-v4`) and AVX-512 VNNI (`znver4`)
// kernels: every output byte for byte against expected_<i>.bin and seed 1's
// every layer against the layer vectors, as CpuRunTest checks the portable
// kernels; the uint8 Coral MobileNetV2 against target ref's outputs. A case
// whose instructions this processor lacks says so and passes without
// running (the programs could not run here).
//
// And that the SIMD kernels are the ones running: every CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED kernel of cpu_kernels.c uses the
// vector primitives; the generated sources build under strict C99 with gcc
// and clang-14 given the --cpu value's flags, and stop with an error naming
// those flags without them; --cpu's errors.
//
//===----------------------------------------------------------------------===//

#include "E2ESupport.h"

#include "cpu/CpuIsa.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// The --cpu values tested, one per SIMD kernel variant.
const char *const SimdCpus[] = {"x86-64-v3", "x86-64-v4", "znver4"};

/// The choice of --cpu \p Name; fails the test for an unknown one.
cpu::CpuChoice cpuChoice(const std::string &Name) {
  llvm::Expected<cpu::CpuChoice> C = cpu::resolveCpu(Name);
  REQUIRE_MESSAGE(bool(C), llvm::toString(C.takeError()));
  return *C;
}

/// The stateless model \p Name on target cpu with --cpu \p Cpu, as
/// CpuRunTest checks it without (\p LayersFrom as checkModel's).
void checkWithCpu(const std::string &Cpu, const std::string &Name,
                  const std::string &LayersFrom = "") {
  if (!hostRuns(Cpu))
    return;
  if (Name == "coral_mobilenet_v2_10_224_quant_uint8") {
    checkAgainstRef(Name, {"--cpu", Cpu});
    return;
  }
  checkModel(Name, LayersFrom, true,
             [&](const std::string &Model, const std::string &In,
                 const std::string &Out, bool Layers) {
               return runModelOn("cpu", {"--cpu", Cpu}, Model, In, Out, Layers);
             });
}

/// `accelgen compile MODEL --target cpu --cpu CPU` into \p Out.
void compileWithCpu(const std::string &Model, const std::string &Cpu,
                    const test::TempDir &Out) {
  test::RunResult R = runAccelgen({"compile", modelPath(Model), "--target",
                                   "cpu", "--cpu", Cpu, "-o", Out.path()});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
}

} // namespace

TEST_CASE("every shared model without state has a test case") {
  CHECK(test::coveredModels() == statelessModels());
}

TEST_CASE("convolutions and fully connected layers run the SIMD kernels") {
  requireSharedDir();
  for (const std::string &Name : convolutionalModels()) {
    for (const char *Cpu : SimdCpus) {
      INFO(Name << " --cpu " << std::string(Cpu));
      const ir::Graph G = importGraph(Name);
      test::TempDir Out;
      compileWithCpu(Name, Cpu, Out);
      const std::string Text = test::readFileText(Out.file("cpu_kernels.c"));
      const llvm::StringRef T(Text);
      CHECK(T.contains(cpuChoice(Cpu).Flags));
      CHECK(T.contains(cpu::isaName(cpuChoice(Cpu).Level).str() +
                       " kernels of --cpu"));
      size_t Simd = 0;
      for (size_t I = 0; I < G.Operators.size(); ++I) {
        const std::string &Type = G.Operators[I].Type;
        if (Type != "CONV_2D" && Type != "DEPTHWISE_CONV_2D" &&
            Type != "FULLY_CONNECTED")
          continue;
        // The kernel's text: from its comment (its tables, helpers and
        // function follow) to the next kernel's.
        const std::string Head = "/* operator " + std::to_string(I) + ": ";
        const size_t Begin = Text.find(Head);
        REQUIRE_MESSAGE(Begin != std::string::npos,
                        "operator " << I << " has no kernel");
        const size_t End = Text.find("\n/* operator ", Begin + 1);
        const llvm::StringRef Body =
            T.substr(Begin, End == std::string::npos ? End : End - Begin);
        INFO("operator " << I << " (" << Type << ")");
        CHECK(Body.contains("void model_op" + std::to_string(I) + "("));
        CHECK(Body.contains("cpu_requantize("));
        // Depthwise layers take dot products of four taps with VNNI.
        if (Type != "DEPTHWISE_CONV_2D" ||
            cpuChoice(Cpu).Level == cpu::CpuIsaLevel::Avx512Vnni)
          CHECK(Body.contains("cpu_dot("));
        ++Simd;
      }
      CHECK(Simd > 0);
    }
  }
}

TEST_CASE("the SIMD kernels build strictly with their flags, and only so") {
  requireSharedDir();
  for (const char *Cpu : SimdCpus) {
    for (const char *Compiler : {"gcc", "clang-14"}) {
      INFO("--cpu " << std::string(Cpu) << " with " << std::string(Compiler));
      auto CC = llvm::sys::findProgramByName(Compiler);
      REQUIRE_MESSAGE(bool(CC), Compiler << " is not installed");
      test::TempDir Out;
      compileWithCpu("mlperf_tiny_kws_dscnn_int8", Cpu, Out);
      std::vector<std::string> Args = {"-std=c99", "-O2",
                                       "-Wall",    "-Wextra",
                                       "-Werror",  "-pedantic",
                                       "-c",       "-I",
                                       Out.path(), Out.file("cpu_kernels.c"),
                                       "-o",       Out.file("k.o")};
      test::RunResult Plain = test::runProgram(*CC, Args, 280);
      CHECK(Plain.ExitCode != 0);
      CHECK_MESSAGE(llvm::StringRef(Plain.Stderr)
                        .contains("build it with " + cpuChoice(Cpu).Flags),
                    Plain.Stderr);
      const std::string AllFlags = cpuChoice(Cpu).Flags;
      llvm::SmallVector<llvm::StringRef, 4> Flags;
      llvm::StringRef(AllFlags).split(Flags, ' ', -1, false);
      for (llvm::StringRef F : Flags)
        Args.insert(Args.begin(), F.str());
      test::RunResult Built = test::runProgram(*CC, Args, 280);
      CHECK_MESSAGE(Built.ExitCode == 0, Built.Stderr << Built.ErrorMessage);
      CHECK_MESSAGE(Built.Stderr.empty(), Built.Stderr);
    }
  }
}

TEST_CASE("--cpu errors") {
  requireSharedDir();
  const std::string Model = modelPath("mlperf_tiny_kws_dscnn_int8");
  test::TempDir Out;
  test::RunResult R = runAccelgen({"compile", Model, "--target", "cpu", "--cpu",
                                   "pentium", "-o", Out.path()});
  CHECK(R.ExitCode != 0);
  CHECK(R.Stderr ==
        "error: unknown --cpu 'pentium' (known: " + cpu::cpuNames() + ")\n");
  R = runAccelgen({"compile", Model, "--target", "ref", "--cpu", "x86-64-v3",
                   "-o", Out.path()});
  CHECK(R.ExitCode != 0);
  CHECK(R.Stderr == "error: --cpu does not apply to target 'ref': neither "
                    "its backend (ref-kernels) nor a CPU fallback takes one\n");
  R = runAccelgen({"run", Model, "--target", "cpu", "--cpu", "pentium",
                   "--inputs", Out.path(), "--outputs", Out.path()});
  CHECK(R.ExitCode != 0);
  CHECK(llvm::StringRef(R.Stderr).startswith(
      "error: unknown --cpu 'pentium' (known: " + cpu::cpuNames()));
  // native says what it chose.
  R = runAccelgen({"compile", Model, "--target", "cpu", "--cpu", "native", "-o",
                   Out.path()});
  CHECK(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stderr).startswith("note: --cpu native: "));
}

#define SIMD_MODEL_TEST(Model)                                                 \
  ACCELGEN_COVER_MODEL(Model)                                                  \
  TEST_CASE("x86-64-v3 " Model) { checkWithCpu("x86-64-v3", Model); }          \
  TEST_CASE("x86-64-v4 " Model) { checkWithCpu("x86-64-v4", Model); }          \
  TEST_CASE("znver4 " Model) { checkWithCpu("znver4", Model); }

SIMD_MODEL_TEST("coral_mobilenet_v2_10_224_quant_uint8")
SIMD_MODEL_TEST("mlperf_tiny_ad_autoencoder_int8")
SIMD_MODEL_TEST("mlperf_tiny_ic_resnet8_int8")
SIMD_MODEL_TEST("mlperf_tiny_kws_dscnn_int8")
SIMD_MODEL_TEST("mlperf_tiny_vww_mobilenetv1_025_96_int8")
SIMD_MODEL_TEST("tflm_hello_world_int8")
SIMD_MODEL_TEST("tflm_micro_speech_int8")
SIMD_MODEL_TEST("tflm_person_detect_int8_qdimfix")
SIMD_MODEL_TEST("tflm_simple_add")

// The unmodified model's layers are its qdimfix copy's (ModelRunTest).
ACCELGEN_COVER_MODEL("tflm_person_detect_int8")
TEST_CASE("x86-64-v3 tflm_person_detect_int8") {
  checkWithCpu("x86-64-v3", "tflm_person_detect_int8",
               "tflm_person_detect_int8_qdimfix");
}
TEST_CASE("x86-64-v4 tflm_person_detect_int8") {
  checkWithCpu("x86-64-v4", "tflm_person_detect_int8",
               "tflm_person_detect_int8_qdimfix");
}
TEST_CASE("znver4 tflm_person_detect_int8") {
  checkWithCpu("znver4", "tflm_person_detect_int8",
               "tflm_person_detect_int8_qdimfix");
}
