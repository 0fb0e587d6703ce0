//===- E2ESupport.h - Shared pieces of the end-to-end tests -----*- C++ -*-===//
//
// Where the shared models and vectors are, which models the C emitter must
// run, running `accelgen compile` / `accelgen run` with the tests' own
// program cache, and describing how two byte buffers differ.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_E2E_E2ESUPPORT_H
#define ACCELGEN_TESTS_E2E_E2ESUPPORT_H

#include "TestSupport.h"

#include "cpu/CpuIsa.h"
#include "emit/ModelEmitter.h"
#include "ir/Graph.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace accelgen {
namespace e2e {

/// \p A and \p B joined as a path.
std::string pathJoin(llvm::StringRef A, llvm::StringRef B);

/// The shared models and vectors folders.
std::string modelsDir();
std::string vectorsDir();
/// The shared model file called \p Name (without ".tflite").
std::string modelPath(llvm::StringRef Name);

/// Fails the current test case, saying what is missing and how to point the
/// build at it, unless the shared folder is there.
void requireSharedDir();

/// The models the ref target runs: every shared model
/// (test::sharedModelNames()).
const std::vector<std::string> &runnableModels();

/// The shared models without state (no variable tensors), the ones the
/// fast CPU kernels run.
std::set<std::string> statelessModels();

/// Shared models whose convolutions, depthwise convolutions and fully
/// connected layers the fast CPU kernels cover, int8 and uint8.
const std::vector<std::string> &convolutionalModels();

/// The seed folders of model \p Name's vectors (seed1, seed2, ...), sorted.
std::vector<std::string> seedDirs(llvm::StringRef Name);

/// The main graph of shared model \p Name; fails the test if it does not
/// import.
ir::Graph importGraph(llvm::StringRef Name);

/// The model of \p B's graph, named "main", with graph inputs \p Inputs and
/// outputs \p Outputs (schema version 3, as the oracle wants it).
ir::Model modelOf(ir::GraphBuilder &B, const std::vector<int32_t> &Inputs,
                  const std::vector<int32_t> &Outputs);

/// Runs the built accelgen with \p Args, with a timeout fit for building the
/// largest model.
test::RunResult runAccelgen(const std::vector<std::string> &Args);

/// `accelgen run MODEL --target ref --inputs IN --outputs OUT` with the
/// tests' program cache, plus --dump-layers when \p Layers.
test::RunResult runModel(const std::string &Model, const std::string &In,
                         const std::string &Out, bool Layers);

/// `accelgen run MODEL --target TARGET EXTRA... --inputs IN --outputs OUT`
/// with the tests' program cache, plus --dump-layers when \p Layers.
test::RunResult runModelOn(const std::string &Target,
                           const std::vector<std::string> &Extra,
                           const std::string &Model, const std::string &In,
                           const std::string &Out, bool Layers);

/// Runs model \p Model on one seed's inputs (IN, OUT, whether to dump the
/// layers).
using RunFn = std::function<test::RunResult(
    const std::string &, const std::string &, const std::string &, bool)>;

/// Runs every seed of shared int8 model \p Name with \p Run: every output
/// must equal expected_<i>.bin byte for byte, and with \p CompareLayers seed
/// 1's every layer must equal \p LayersFrom's (or the model's own)
/// seed1/layers, the failure naming the first diverging operator.
void checkModel(const std::string &Name, const std::string &LayersFrom,
                bool CompareLayers, const RunFn &Run);

/// As checkModel, but every seed's outputs only: for the model compiled from
/// another form (ONNX), whose operator list differs where that form folds.
void checkModelOutputs(const std::string &Name, const RunFn &Run);

/// `accelgen run --target cpu EXTRA...` on every seed of shared model \p Name
/// (one without expected outputs, such as the uint8 Coral MobileNetV2):
/// every output must equal target ref's byte for byte.
void checkAgainstRef(const std::string &Name,
                     const std::vector<std::string> &Extra);

/// Every seed of shared int8 model \p Name on \p Target with --cascade (and
/// \p Extra), and seed 1's every layer, dumped stripe by stripe, against the
/// vectors (person_detect's layers are its fixed twin's).
void checkCascadedOn(const std::string &Target, const std::string &Name,
                     const std::vector<std::string> &Extra = {});

/// The smallest working-memory budget that works for shared model \p Name
/// on \p Target with \p Extra, from the error a budget of one byte gets,
/// which must be the last line `accelgen run` prints.
int64_t smallestBudget(const std::string &Target, const std::string &Name,
                       const std::vector<std::string> &Extra = {});

/// Compiles \p Model for \p Target under `--memory-budget` \p Budget and
/// checks the plan report.json gives: the arena within the budget, its
/// first cascade in tiles, some MACs computed twice but at most a tenth
/// more. Returns report.json.
llvm::json::Object compiledInTiles(const std::string &Model,
                                   const std::string &Target, int64_t Budget);

/// Emits \p G with \p Opts and a host main.c into \p Dir; the paths of the C
/// sources written. Fails the test if the emitter does.
std::vector<std::string> writeProgram(const ir::Graph &G,
                                      const emit::EmitOptions &Opts,
                                      const test::TempDir &Dir);

/// True if the Cortex-M toolchain and QEMU are installed; otherwise false,
/// after saying what is missing (a test case then passes without running
/// Cortex-M images).
bool haveCortexM();

/// False, after saying why, when this processor cannot run the programs of
/// target cpu's `--cpu` \p Cpu (a test case then passes without running
/// them); fails the test for an unknown value.
bool hostRuns(const std::string &Cpu);

/// The choice of `--cpu` \p Cpu when this processor runs its programs;
/// otherwise std::nullopt, after saying why (as hostRuns).
std::optional<cpu::CpuChoice> hostCpu(const std::string &Cpu);

/// How \p Got differs from \p Want, read as elements of \p T: "3 of 640
/// bytes differ, first at 17 (got -5, want -4), largest step 1", or
/// "identical".
std::string describeDiff(const std::vector<uint8_t> &Got,
                         const std::vector<uint8_t> &Want, ir::DType T);

/// Every label ("npu55") of every version of every registered target with a
/// functional model, by target name, then version; targets named in \p Except
/// left out.
std::vector<std::string>
functionalModelLabels(llvm::ArrayRef<llvm::StringRef> Except = {});

/// Every target label, as an "unknown target" error lists them.
std::string targetLabelList();

/// Pseudo-random choices of the layer sweeps, from a seed.
class Picker {
public:
  explicit Picker(uint32_t Seed) : Gen(Seed) {}
  /// A value in [Lo, Hi].
  int32_t pick(int32_t Lo, int32_t Hi) {
    return std::uniform_int_distribution<int32_t>(Lo, Hi)(Gen);
  }
  bool coin() { return pick(0, 1) == 1; }

protected:
  std::mt19937 Gen;
};

/// True if a file or folder exists at \p Path.
bool exists(llvm::StringRef Path);

/// Builds the C program \p Source (plus \p Extra sources and flags) with
/// \p Compiler ("gcc", "clang-14") and the strict flags (C99, -Wall -Wextra
/// -Werror -pedantic), runs it with \p Args, and returns its stdout; fails
/// the test if either step fails.
std::string buildAndRun(const std::string &Compiler, const std::string &Source,
                        const std::vector<std::string> &Extra = {},
                        const std::vector<std::string> &Args = {});

/// Graph \p G emitted for target ref as model \p Name into folder \p Dir:
/// the files' names, the paths of its C sources with the include flags to
/// build them (buildAndRun's Extra), and the host main's text. Fails the
/// test if it does not emit.
struct EmittedProgram {
  std::set<std::string> Files;
  std::vector<std::string> Extra;
  std::string Main;
};
EmittedProgram emitProgram(const ir::Graph &G, llvm::StringRef Name,
                           llvm::StringRef Dir);

} // namespace e2e
} // namespace accelgen

#endif // ACCELGEN_TESTS_E2E_E2ESUPPORT_H
