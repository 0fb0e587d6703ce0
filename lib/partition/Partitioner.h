//===- Partitioner.h - Placing operators on an accelerator or the CPU -----===//
//
// The partitioner decides, for one target and hardware version, where each
// operator of a graph runs:
//
//  1. Fusion: the target's patterns are matched and applied, only over
//     operators the target's legality accepts (a fused group never hides an
//     illegal operator).
//  2. Legalization (target/Legalize.h): every remaining operator is checked
//     against every constraint, its quantization rules applied (requantize
//     operators may be inserted) and legal ones converted to target
//     operators. Rejected ones keep all their failing constraints with hints.
//  3. Subgraphs: runs of consecutive accelerator operators (in execution
//     order, so no run depends on itself through the CPU) form accelerator
//     subgraphs; the tensors crossing a run's boundary cost a device switch
//     each.
//  4. Cost: a subgraph whose estimated accelerator cycles plus switch cycles
//     are not below what the CPU would take moves back to the CPU, every
//     operator of it with the reason "cost". CPU cycles come from a CPU
//     target's cost model when one is given, otherwise one cycle per MAC
//     (and per output element for operators without MACs), applied to the
//     input graph's operators a fused or mapped operator replaced. A subgraph
//     with any operator the target gives no cost for stays on the accelerator:
//     without an estimate there is nothing to compare. A library-call target
//     (TargetInfo::library(), such as CMSIS-NN) skips this step: its calls
//     run on the CPU itself, and its costs, in its own measure, choose among
//     its functions (TargetInfo::chooseOperation), not between it and the
//     fallback's kernels.
//
// Every operator left on the CPU must be runnable by the CPU target when one
// is given; one that is not carries that target's reasons too.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PARTITION_PARTITIONER_H
#define ACCELGEN_PARTITION_PARTITIONER_H

#include "ir/Graph.h"
#include "ir/Placement.h"
#include "target/Legalize.h"
#include "target/OpSetup.h"
#include "target/TargetInfo.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace partition {

using ir::Device;
using ir::deviceName;

/// Where one operator of the partitioned graph runs, and why.
struct PlacedOp {
  /// Indices of the input graph's operators it stands for, in execution
  /// order: one, several for a fused group, none for an inserted requantize.
  std::vector<int64_t> Sources;
  /// Its type in the input graph ("CONV_2D"; "CONV_2D+RELU" for a fused
  /// group; "REQUANTIZE" for an inserted one).
  std::string SourceType;
  /// Its type in the partitioned graph: the target operator's on the
  /// accelerator, the framework operator's on the CPU.
  std::string Type;
  Device Placement = Device::Cpu;
  /// The accelerator subgraph it belongs to, or -1.
  int32_t Subgraph = -1;
  /// What the quantization rules did.
  target::QuantOutcome Quant = target::QuantOutcome::Unchanged;
  /// Every reason it is not on the accelerator (failing constraints with
  /// their hints, or "cost"); empty on the accelerator.
  std::vector<target::Rejection> Why;
  /// Estimated accelerator cycles, when the target's cost model has them;
  /// a fused or mapped operator without an estimate of its own is estimated
  /// as the operators it replaced.
  std::optional<double> Cycles;
};

/// A run of operators the accelerator executes in one go.
struct Subgraph {
  /// Indices into PartitionResult::Ops.
  std::vector<size_t> Ops;
  /// Tensors it reads from outside and writes for use outside.
  std::vector<int32_t> Inputs;
  std::vector<int32_t> Outputs;
  /// Estimated accelerator cycles (sum over its operators; operators without
  /// an estimate count 0) and the switch cycles of its boundary tensors.
  double Cycles = 0;
  double SwitchCycles = 0;
};

struct PartitionOptions {
  /// The CPU target the rest falls back to (its legality explains operators
  /// nobody runs, and its cost model prices the CPU side); may be null.
  const target::TargetInfo *Cpu = nullptr;
  /// Disables step 4.
  bool UseCostModel = true;
  /// The target operators this compilation may use (step 2); all when
  /// empty. A library-call target's backend restricts them to the
  /// library's own functions on request (`--library-calls-only`).
  std::function<bool(llvm::StringRef)> Allowed;
  /// The backend's last word on an operator the description places on the
  /// device (input graph, the operator's index there; operators standing
  /// for one input operator only): why compile runs it on the CPU instead,
  /// or nothing. Such an operator is moved to the CPU with that reason.
  std::function<std::optional<target::Rejection>(const ir::Graph &, size_t)>
      Review;
  /// Why the CPU fallback's kernels cannot run an operator its legality
  /// accepts (the partitioned graph, the operator's index there), or
  /// nothing: added to the operator's reasons, so that explain says what
  /// compile would refuse.
  std::function<std::optional<target::Rejection>(const ir::Graph &, size_t)>
      CpuKernel;
};

struct PartitionResult {
  /// The target version label ("mdla2.0").
  std::string Target;
  /// The partitioned graph: fused, legalized, requantizes inserted.
  ir::Graph Graph;
  /// One entry per operator of Graph, in order.
  std::vector<PlacedOp> Ops;
  std::vector<Subgraph> Subgraphs;
  /// Pattern matches whose constraints failed: the pattern and the messages.
  std::vector<std::pair<std::string, std::vector<std::string>>> RejectedFusions;

  size_t numOnAccelerator() const;
  /// Estimated cycles of everything on the accelerator, switches included.
  double acceleratorCycles() const;
};

/// Partitions \p G for \p T at version index \p Version as described above.
PartitionResult partition(const ir::Graph &G, const target::TargetInfo &T,
                          unsigned Version, const PartitionOptions &Opts = {});

} // namespace partition
} // namespace accelgen

#endif // ACCELGEN_PARTITION_PARTITIONER_H
