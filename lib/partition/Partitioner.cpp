//===- Partitioner.cpp - Placing operators on an accelerator or the CPU ---===//
#include "partition/Partitioner.h"

#include "analysis/ModelStats.h"
#include "kernels/KernelParams.h"
#include "target/PatternMatcher.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

namespace accelgen {
namespace partition {

size_t PartitionResult::numOnAccelerator() const {
  return llvm::count_if(Ops, [](const PlacedOp &Op) {
    return Op.Placement == Device::Accelerator;
  });
}

double PartitionResult::acceleratorCycles() const {
  double Total = 0;
  for (const Subgraph &S : Subgraphs)
    Total += S.Cycles + S.SwitchCycles;
  return Total;
}

namespace {

/// True when every kernel call running \p Op belongs to a kernel family
/// registered at run time (a plugin's own).
bool runsOnRegisteredKernel(const ir::Graph &G, const ir::Operator &Op) {
  llvm::Expected<std::vector<kernels::KernelCall>> Calls =
      kernels::computeKernelCalls(G, Op);
  if (!Calls) {
    llvm::consumeError(Calls.takeError());
    return false;
  }
  return !Calls->empty() &&
         llvm::all_of(*Calls, [](const kernels::KernelCall &C) {
           return std::holds_alternative<kernels::DynamicParams>(C.Params);
         });
}

/// True when \p T's legality, and the device limits of a target with a
/// functional model, accept \p Op at \p Version.
bool isLegal(const target::TargetInfo &T, const ir::Graph &G,
             const ir::Operator &Op, unsigned Version) {
  const target::OpSetup *S = T.opSetup(Op.Type);
  std::vector<target::Rejection> Ignored;
  return S && S->IsSupported(G, Op, Version, Ignored) &&
         T.withinDeviceLimits(G, Op, Ignored);
}

/// Why target \p T does not run \p Op of \p G because of the arithmetic
/// \p G computes: every target description states TensorFlow Lite's
/// requantization, so in a graph computing ONNX's the quantized operators
/// run on the CPU's kernels (which compute either), unless \p T is the CPU.
std::optional<target::Rejection>
arithmeticRejection(const target::TargetInfo &T, const ir::Graph &G,
                    const ir::Operator &Op, const PartitionOptions &Opts) {
  if (G.Computes != ir::Arithmetic::ONNX || Opts.Cpu == &T ||
      !kernels::readsQuantized(G, Op))
    return std::nullopt;
  return target::Rejection{
      "arithmetic",
      llvm::formatv("the model's quantized operators compute ONNX's "
                    "arithmetic (requantization in float32, rounding half "
                    "to even); target {0}'s description states TensorFlow "
                    "Lite's fixed-point requantization",
                    T.name())
          .str(),
      ""};
}

/// The CPU's estimate for \p Op: the CPU target's cost model, else one cycle
/// per MAC, or per output element for operators without MACs.
double cpuCycles(const PartitionOptions &Opts, const ir::Graph &G,
                 const ir::Operator &Op) {
  if (Opts.Cpu)
    if (std::optional<double> C = Opts.Cpu->estimateCycles(G, Op, 0))
      return *C;
  int64_t Macs = analysis::operatorMacs(G, Op);
  if (Macs > 0)
    return static_cast<double>(Macs);
  int32_t Out = Op.output(0);
  return G.isValidTensor(Out) ? static_cast<double>(std::max<int64_t>(
                                    G.tensor(Out).numElements(), 1))
                              : 1.0;
}

class Partitioner {
public:
  Partitioner(const ir::Graph &G, const target::TargetInfo &T, unsigned Version,
              const PartitionOptions &Opts)
      : Input(G), T(T), Version(Version), Opts(Opts) {
    R.Graph = G;
    R.Target = T.versionLabel(Version);
  }

  PartitionResult run() {
    std::vector<std::vector<int64_t>> Sources = fuse();
    // Operators the arithmetic keeps off the target are not legalized: no
    // quantization rule inserts a requantization around them.
    target::LegalizeReport L = target::legalize(
        R.Graph, T, Version,
        [&](const ir::Operator &Op) {
          return arithmeticRejection(T, R.Graph, Op, Opts).has_value();
        },
        Opts.Allowed);
    for (size_t I = 0; I < L.Ops.size(); ++I) {
      const target::OpLegalization &Op = L.Ops[I];
      PlacedOp P;
      if (Op.OriginalIndex >= 0)
        P.Sources = Sources[static_cast<size_t>(Op.OriginalIndex)];
      const ir::Operator &Now = R.Graph.Operators[I];
      P.SourceType = Now.hasAttr(target::FusedOpsAttr)
                         ? Now.getString(target::FusedOpsAttr)
                         : Op.OriginalType;
      P.Type = Op.Type;
      P.Placement = Op.Legal ? Device::Accelerator : Device::Cpu;
      P.Quant = Op.Quant;
      P.Why = Op.Why;
      if (Op.Legal)
        P.Cycles = estimate(P, Now);
      R.Ops.push_back(std::move(P));
    }
    // The arithmetic decides before any other reason.
    for (size_t I = 0; I < R.Ops.size(); ++I)
      if (std::optional<target::Rejection> Why =
              arithmeticRejection(T, R.Graph, R.Graph.Operators[I], Opts)) {
        if (R.Ops[I].Placement == Device::Accelerator)
          moveToCpu(I, std::move(*Why));
        else
          R.Ops[I].Why = {std::move(*Why)};
        R.Ops[I].Why.erase(R.Ops[I].Why.begin(), R.Ops[I].Why.end() - 1);
        R.Ops[I].Cycles.reset();
      }
    if (Opts.Review)
      for (size_t I = 0; I < R.Ops.size(); ++I)
        if (R.Ops[I].Placement == Device::Accelerator &&
            R.Ops[I].Sources.size() == 1)
          if (std::optional<target::Rejection> Why = Opts.Review(
                  Input, static_cast<size_t>(R.Ops[I].Sources[0]))) {
            moveToCpu(I, std::move(*Why));
            R.Ops[I].Cycles.reset();
          }
    formSubgraphs();
    if (Opts.UseCostModel && T.library().empty())
      applyCosts();
    explainCpuFallback();
    return std::move(R);
  }

private:
  const ir::Graph &Input;
  const target::TargetInfo &T;
  unsigned Version;
  const PartitionOptions &Opts;
  PartitionResult R;

  /// Applies the target's patterns over legal operators; returns, per
  /// operator of the fused graph, the input graph operators it stands for.
  std::vector<std::vector<int64_t>> fuse() {
    ir::Graph &G = R.Graph;
    std::vector<target::MatchRejection> Rejected;
    std::vector<target::FoundMatch> Matches = target::findMatches(
        G, T.patterns(), Version, &Rejected, [&](size_t OpIndex) {
          return !arithmeticRejection(T, G, G.Operators[OpIndex], Opts) &&
                 isLegal(T, G, G.Operators[OpIndex], Version);
        });
    for (const target::MatchRejection &M : Rejected)
      R.RejectedFusions.push_back({M.Pattern->Name, M.Why});

    std::vector<std::vector<int64_t>> Sources(G.Operators.size());
    for (size_t I = 0; I < G.Operators.size(); ++I)
      Sources[I] = {static_cast<int64_t>(I)};
    std::set<int64_t> Erased;
    for (const target::FoundMatch &M : Matches) {
      std::vector<int64_t> Group(M.Match.Nodes.begin(), M.Match.Nodes.end());
      std::sort(Group.begin(), Group.end());
      int64_t Root = M.Match.Nodes.front();
      Sources[static_cast<size_t>(Root)] = Group;
      for (int64_t N : Group)
        if (N != Root)
          Erased.insert(N);
    }
    target::applyMatches(G, Matches);
    std::vector<std::vector<int64_t>> Kept;
    for (size_t I = 0; I < Sources.size(); ++I)
      if (!Erased.count(static_cast<int64_t>(I)))
        Kept.push_back(Sources[I]);
    return Kept;
  }

  /// Runs of consecutive accelerator operators, with their boundary tensors.
  void formSubgraphs() {
    R.Subgraphs.clear();
    for (PlacedOp &P : R.Ops)
      P.Subgraph = -1;
    for (size_t I = 0; I < R.Ops.size(); ++I) {
      if (R.Ops[I].Placement != Device::Accelerator)
        continue;
      if (I == 0 || R.Ops[I - 1].Placement != Device::Accelerator)
        R.Subgraphs.emplace_back();
      R.Subgraphs.back().Ops.push_back(I);
      R.Ops[I].Subgraph = static_cast<int32_t>(R.Subgraphs.size() - 1);
    }
    const ir::Graph &G = R.Graph;
    // Who reads each tensor, so that finding a subgraph's outputs stays
    // linear in the graph's size.
    std::vector<std::vector<size_t>> Readers(G.Tensors.size());
    for (size_t I = 0; I < G.Operators.size(); ++I)
      for (int32_t In : G.Operators[I].Inputs)
        if (G.isValidTensor(In))
          Readers[static_cast<size_t>(In)].push_back(I);
    std::vector<bool> IsGraphOutput(G.Tensors.size(), false);
    for (int32_t Out : G.Outputs)
      if (G.isValidTensor(Out))
        IsGraphOutput[static_cast<size_t>(Out)] = true;
    for (size_t Index = 0; Index < R.Subgraphs.size(); ++Index) {
      Subgraph &S = R.Subgraphs[Index];
      auto UsedOutside = [&](int32_t Tensor) {
        if (!G.isValidTensor(Tensor))
          return false;
        if (IsGraphOutput[static_cast<size_t>(Tensor)])
          return true;
        return llvm::any_of(
            Readers[static_cast<size_t>(Tensor)], [&](size_t Reader) {
              return R.Ops[Reader].Subgraph != static_cast<int32_t>(Index);
            });
      };
      std::set<int32_t> Written, Read;
      for (size_t I : S.Ops) {
        for (int32_t In : G.Operators[I].Inputs)
          if (G.isValidTensor(In) && !G.tensor(In).IsConstant)
            Read.insert(In);
        for (int32_t Out : G.Operators[I].Outputs)
          Written.insert(Out);
        S.Cycles += R.Ops[I].Cycles.value_or(0.0);
      }
      for (int32_t In : Read)
        if (!Written.count(In))
          S.Inputs.push_back(In);
      for (int32_t Out : Written)
        if (UsedOutside(Out))
          S.Outputs.push_back(Out);
      S.SwitchCycles = T.switchCycles() *
                       static_cast<double>(S.Inputs.size() + S.Outputs.size());
    }
  }

  /// The target's estimate for \p Now; for a fused or mapped operator
  /// without one, the sum of the estimates of the operators it replaced.
  std::optional<double> estimate(const PlacedOp &P, const ir::Operator &Now) {
    if (std::optional<double> C = T.estimateCycles(R.Graph, Now, Version))
      return C;
    if (P.Sources.empty() ||
        (P.Sources.size() == 1 && Now.Type == P.SourceType))
      return std::nullopt;
    double Sum = 0;
    for (int64_t S : P.Sources) {
      std::optional<double> C = T.estimateCycles(
          Input, Input.Operators[static_cast<size_t>(S)], Version);
      if (!C)
        return std::nullopt;
      Sum += *C;
    }
    return Sum;
  }

  /// What operator \p I of the partitioned graph would cost on the CPU: its
  /// input operators as they were (a fused or mapped operator is priced as
  /// the framework operators it replaced), or itself when inserted.
  double cpuCyclesOf(size_t I) const {
    const PlacedOp &P = R.Ops[I];
    if (P.Sources.empty())
      return cpuCycles(Opts, R.Graph, R.Graph.Operators[I]);
    double Sum = 0;
    for (int64_t S : P.Sources)
      Sum += cpuCycles(Opts, Input, Input.Operators[static_cast<size_t>(S)]);
    return Sum;
  }

  /// Moves back to the CPU every subgraph that does not pay for itself.
  void applyCosts() {
    bool Moved = false;
    for (const Subgraph &S : R.Subgraphs) {
      bool AllEstimated = llvm::all_of(
          S.Ops, [&](size_t I) { return R.Ops[I].Cycles.has_value(); });
      if (!AllEstimated)
        continue;
      double Cpu = 0;
      for (size_t I : S.Ops)
        Cpu += cpuCyclesOf(I);
      double Acc = S.Cycles + S.SwitchCycles;
      if (Acc < Cpu)
        continue;
      std::string Message = llvm::formatv(
          "{0:F0} accelerator cycles + {1:F0} switch cycles >= {2:F0} on the "
          "CPU",
          S.Cycles, S.SwitchCycles, Cpu);
      for (size_t I : S.Ops)
        moveToCpu(I, {"cost", Message, ""});
      Moved = true;
    }
    if (Moved)
      formSubgraphs();
  }

  /// Puts operator \p I back as the framework operator it was.
  void moveToCpu(size_t I, target::Rejection Why) {
    PlacedOp &P = R.Ops[I];
    P.Placement = Device::Cpu;
    P.Why.push_back(std::move(Why));
    // The converted operator keeps operands and results; only its type
    // changes back. A fused group stays fused: the CPU target decides.
    if (P.Sources.size() <= 1 && P.SourceType.find('+') == std::string::npos)
      R.Graph.Operators[I].Type = P.SourceType;
    P.Type = R.Graph.Operators[I].Type;
  }

  /// Adds the CPU target's reasons to CPU operators it cannot run either.
  void explainCpuFallback() {
    if (!Opts.Cpu)
      return;
    for (size_t I = 0; I < R.Ops.size(); ++I) {
      PlacedOp &P = R.Ops[I];
      const ir::Operator &Op = R.Graph.Operators[I];
      if (P.Placement != Device::Cpu) {
        // A target that is its own CPU runs these on the CPU's kernels too
        // (a fused group's members were checked before it was fused).
        if (Opts.Cpu == &T && Opts.CpuKernel &&
            !Op.hasAttr(target::FusedOpsAttr))
          if (std::optional<target::Rejection> W = Opts.CpuKernel(R.Graph, I))
            P.Why.push_back(std::move(*W));
        continue;
      }
      const target::OpSetup *S = Opts.Cpu->opSetup(Op.Type);
      std::vector<target::Rejection> Why;
      // An operator a plugin's kernel family computes is the CPU's to run
      // when its kernels run there (its description cannot declare it).
      if (!S && Opts.CpuKernel && runsOnRegisteredKernel(R.Graph, Op)) {
        if (std::optional<target::Rejection> W = Opts.CpuKernel(R.Graph, I))
          P.Why.push_back(std::move(*W));
        continue;
      }
      if (!S) {
        P.Why.push_back({"cpu_unsupported",
                         llvm::formatv("operator {0} is not supported by "
                                       "target {1} either",
                                       Op.Type, Opts.Cpu->name()),
                         ""});
        continue;
      }
      if (!S->IsSupported(R.Graph, Op, 0, Why)) {
        for (target::Rejection &W : Why) {
          W.ConstraintId = Opts.Cpu->name() + ":" + W.ConstraintId;
          P.Why.push_back(std::move(W));
        }
      } else if (Opts.CpuKernel) {
        if (std::optional<target::Rejection> W = Opts.CpuKernel(R.Graph, I))
          P.Why.push_back(std::move(*W));
      }
    }
  }
};

} // namespace

PartitionResult partition(const ir::Graph &G, const target::TargetInfo &T,
                          unsigned Version, const PartitionOptions &Opts) {
  return Partitioner(G, T, Version, Opts).run();
}

} // namespace partition
} // namespace accelgen
