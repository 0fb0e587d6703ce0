//===- ChainBench.cpp - Partitioning a long chain of operators ------------===//
//
// Partitioning must stay near-linear in the number of operators. This builds
// int8 chains of N RELUs (every one legal on MDLA, so all land in one
// subgraph), writes each as a .tflite model and times what `accelgen explain
// --target mdla2.0` does with it: import, then partition::partition with ref
// as the CPU. Prints one row per length, the fastest of ROUNDS runs.
//
//   accelgen-bench-chain [ROUNDS] [LENGTH...]   (default 3 rounds;
//                                                1000 2000 4000 8000)
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "partition/Partitioner.h"
#include "target/TargetInfo.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
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

namespace {

/// input -> RELU -> RELU -> ... (\p Length operators), int8 1x8x8x8.
ir::Model reluChain(int Length) {
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.emplace_back();
  ir::Graph &G = M.Graphs.front();
  G.Name = "chain";
  for (int I = 0; I <= Length; ++I) {
    ir::Tensor T;
    T.Name = "t" + std::to_string(I);
    T.Type = ir::DType::I8;
    T.Shape = {1, 8, 8, 8};
    ir::QuantParams Q;
    Q.Scales = {0.05f};
    Q.ZeroPoints = {-128};
    T.Quant = Q;
    G.Tensors.push_back(std::move(T));
  }
  for (int I = 0; I < Length; ++I) {
    ir::Operator Op;
    Op.Type = "RELU";
    Op.BuiltinCode = 19;
    Op.Inputs = {I};
    Op.Outputs = {I + 1};
    G.Operators.push_back(std::move(Op));
  }
  G.Inputs = {0};
  G.Outputs = {Length};
  return M;
}

} // namespace

int main(int argc, char **argv) {
  const int Rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  std::vector<int> Lengths;
  for (int I = 2; I < argc; ++I)
    Lengths.push_back(std::max(1, std::atoi(argv[I])));
  if (Lengths.empty())
    Lengths = {1000, 2000, 4000, 8000};

  const auto Mdla = targets::mdla::createTargetInfo();
  const auto Ref = targets::ref::createTargetInfo();
  partition::PartitionOptions Opts;
  Opts.Cpu = Ref.get();
  unsigned V20 = 0;
  for (unsigned V = 0; V < Mdla->versions().size(); ++V)
    if (Mdla->versionLabel(V) == "mdla2.0")
      V20 = V;

  llvm::outs() << "| RELUs | offloaded | subgraphs | import (ms) | partition "
                  "mdla2.0 (ms) |\n|---:|---:|---:|---:|---:|\n";
  for (int Length : Lengths) {
    const std::vector<uint8_t> Bytes = tflite::writeModel(reluChain(Length));
    double BestImport = std::numeric_limits<double>::max(),
           BestPartition = std::numeric_limits<double>::max();
    size_t Offloaded = 0, Subgraphs = 0;
    for (int R = 0; R < Rounds; ++R) {
      auto T0 = std::chrono::steady_clock::now();
      auto M = tflite::importModel(Bytes);
      auto T1 = std::chrono::steady_clock::now();
      if (!M) {
        llvm::errs() << "error: " << llvm::toString(M.takeError()) << "\n";
        return 1;
      }
      partition::PartitionResult P =
          partition::partition(M->Model->main(), *Mdla, V20, Opts);
      auto T2 = std::chrono::steady_clock::now();
      BestImport =
          std::min(BestImport,
                   std::chrono::duration<double, std::milli>(T1 - T0).count());
      BestPartition =
          std::min(BestPartition,
                   std::chrono::duration<double, std::milli>(T2 - T1).count());
      Offloaded = P.numOnAccelerator();
      Subgraphs = P.Subgraphs.size();
    }
    llvm::outs() << llvm::formatv("| {0} | {1} | {2} | {3:F1} | {4:F1} |\n",
                                  Length, Offloaded, Subgraphs, BestImport,
                                  BestPartition);
  }
  return 0;
}
