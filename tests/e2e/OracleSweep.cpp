//===- OracleSweep.cpp - Models against TensorFlow Lite Micro, every target ===//
//
// See OracleSweep.h.
//
//===----------------------------------------------------------------------===//
#include "OracleSweep.h"

#include "E2ESupport.h"

#include "import/TFLiteWriter.h"

#include "llvm/ADT/StringExtras.h"

#ifndef ACCELGEN_CMSIS_NN_PATH
#error "ACCELGEN_CMSIS_NN_PATH must name a CMSIS-NN source tree"
#endif

namespace accelgen {
namespace e2e {

std::string oraclePath() {
  return pathJoin(test::sharedDir(), "tools/tflm-oracle/tflm_runner");
}

std::vector<std::vector<std::string>> targetPaths() {
  std::vector<std::vector<std::string>> Paths = {{"ref"}, {"cpu"}};
  // The widest instruction set this processor runs (the generic build is
  // the one above); the others differ from it only in flags.
  std::string Widest;
  for (const cpu::CpuIsa &Isa : cpu::cpuIsas())
    if (Isa.Level != cpu::CpuIsaLevel::Portable &&
        cpu::hostSupports(Isa.Level))
      Widest = Isa.Name;
  if (!Widest.empty())
    Paths.push_back({"cpu", "--cpu", Widest});
  for (const std::string &Label : functionalModelLabels())
    Paths.push_back({Label});
  Paths.push_back({"cmsis-nn", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  if (haveCortexM())
    for (const char *Cpu : {"cortex-m4", "cortex-m55"})
      Paths.push_back(
          {"cmsis-nn", "--cpu", Cpu, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  return Paths;
}

void checkAgainstOracle(const ir::Model &M, llvm::StringRef What,
                        const std::vector<std::vector<uint8_t>> &Inputs,
                        const std::vector<PathLeftOut> &LeftOut,
                        const std::string &Oracle,
                        const UnwrittenBytes &Unwritten) {
  REQUIRE_MESSAGE(exists(Oracle),
                  "the oracle " << Oracle
                                << " is missing (the shared folder beside "
                                   "the checkout brings TensorFlow Lite "
                                   "Micro's; the build makes TensorFlow "
                                   "Lite's own with scripts/native-oracle.sh)");
  test::TempDir Dir, In, Want;
  const std::string Model = Dir.file(What.str() + ".tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  std::vector<std::string> Args = {Model, In.path(), Want.path()};
  if (Inputs.empty()) {
    REQUIRE(Oracle == oraclePath());
    Args.insert(Args.end(), {"--seed", "1"});
  } else {
    for (size_t I = 0; I < Inputs.size(); ++I)
      test::writeFileBytes(In.file("input_" + std::to_string(I) + ".bin"),
                           Inputs[I]);
  }
  test::RunResult R = test::runProgram(Oracle, Args);
  REQUIRE_MESSAGE(R.ExitCode == 0, "the oracle failed: " << R.Stdout
                                                         << R.Stderr);
  const ir::Graph &G = M.main();
  std::vector<std::vector<uint8_t>> Expected;
  for (size_t I = 0; I < G.Outputs.size(); ++I)
    Expected.push_back(test::readFileBytes(
        Want.file("output_" + std::to_string(I) + ".bin")));
  if (Unwritten)
    Unwritten(Expected);
  for (const std::vector<std::string> &P : targetPaths()) {
    auto Skip = llvm::find_if(LeftOut, [&](const PathLeftOut &L) {
      return llvm::is_contained(P, L.Cpu);
    });
    if (Skip != LeftOut.end()) {
      MESSAGE(llvm::join(P, " ") << ": left out, " << Skip->Why);
      continue;
    }
    INFO(What.str() << " on " << llvm::join(P, " "));
    test::TempDir Out;
    R = runModelOn(P[0], {P.begin() + 1, P.end()}, Model, In.path(),
                   Out.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    size_t Same = 0;
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      const std::string File = "output_" + std::to_string(I) + ".bin";
      const auto Got = test::readFileBytes(Out.file(File));
      Same += Got == Expected[I];
      CHECK_MESSAGE(Got == Expected[I],
                    "output " << I << " ('" << G.tensor(G.Outputs[I]).Name
                              << "'): "
                              << describeDiff(Got, Expected[I],
                                              G.tensor(G.Outputs[I]).Type));
    }
    MESSAGE(llvm::join(P, " ") << ": " << Same << " of " << G.Outputs.size()
                               << " outputs equal the oracle's");
  }
}

std::string explainOnCmsisNn(const ir::Model &M) {
  test::TempDir Dir;
  const std::string Model = Dir.file("model.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  test::RunResult R = runAccelgen({"explain", Model, "--target", "cmsis-nn"});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  return R.Stdout;
}

} // namespace e2e
} // namespace accelgen
