//===- PartitionBench.cpp - Partitioning the shared models for MDLA -------===//
//
// For every model of the shared folder and every MDLA version: how many of
// the model's operators go to the accelerator, in how many layers and
// subgraphs, the estimated accelerator cycles (switches included), the size
// of the accelerator program, and how long partition::partition takes
// (fusion, legalization, subgraphs and the cost decision, with ref as the
// CPU), as the median and the fastest of ROUNDS runs. Importing the model and
// building the program are not timed.
//
//   accelgen-bench-partition [ROUNDS] [MODELS_DIR]   (default 21 rounds,
//                                                     the configured folder)
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteImporter.h"
#include "partition/Partitioner.h"
#include "program/Program.h"
#include "program/ProgramBuilder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace accelgen;

namespace accelgen {
namespace targets {
namespace mdla {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace mdla
namespace ref {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace ref
} // namespace targets
} // namespace accelgen

int main(int argc, char **argv) {
  const int Rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 21;
  const std::string Dir =
      argc > 2 ? argv[2] : ACCELGEN_BENCH_SHARED_DIR "/models";
  std::vector<std::string> Models;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".tflite"))
      Models.push_back(It->path());
  std::sort(Models.begin(), Models.end());
  if (Models.empty()) {
    llvm::errs() << "error: " << Dir << ": no .tflite models\n";
    return 1;
  }

  const auto Mdla = targets::mdla::createTargetInfo();
  const auto Ref = targets::ref::createTargetInfo();
  partition::PartitionOptions Opts;
  Opts.Cpu = Ref.get();

  llvm::outs() << "| model | version | operators | offloaded | layers | "
                  "subgraphs | estimated cycles | program bytes | partition "
                  "median (us) | fastest (us) |\n"
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const std::string &Path : Models) {
    auto M = tflite::importModelFile(Path);
    if (!M) {
      llvm::errs() << "error: " << Path << ": "
                   << llvm::toString(M.takeError()) << "\n";
      return 1;
    }
    const ir::Graph &G = M->Model->main();
    const std::string Name =
        llvm::sys::path::stem(llvm::sys::path::filename(Path)).str();
    for (unsigned V = 0; V < Mdla->versions().size(); ++V) {
      std::vector<double> Times;
      partition::PartitionResult R;
      for (int I = 0; I < Rounds; ++I) {
        auto Start = std::chrono::steady_clock::now();
        R = partition::partition(G, *Mdla, V, Opts);
        Times.push_back(std::chrono::duration<double, std::micro>(
                            std::chrono::steady_clock::now() - Start)
                            .count());
      }
      std::sort(Times.begin(), Times.end());
      size_t Offloaded = 0;
      for (const partition::PlacedOp &P : R.Ops)
        if (P.Placement == partition::Device::Accelerator)
          Offloaded += P.Sources.size();
      std::string ProgramBytes = "-";
      auto A = program::buildAcceleratedModel(G, *Mdla, V, Opts, "bench");
      if (A)
        ProgramBytes = std::to_string(program::writeProgram(A->Prog).size());
      else
        llvm::consumeError(A.takeError());
      llvm::outs() << llvm::formatv(
          "| {0} | {1} | {2} | {3} | {4} | {5} | {6:F0} | {7} | {8:F0} | "
          "{9:F0} |\n",
          Name, Mdla->versionLabel(V), G.Operators.size(), Offloaded,
          R.numOnAccelerator(), R.Subgraphs.size(), R.acceleratorCycles(),
          ProgramBytes, Times[Times.size() / 2], Times.front());
    }
  }
  return 0;
}
