//===- ProgramBuilder.h - A partitioned model as an accelerator program -*- C++ -*-===//
//
// Turns a model partitioned for an accelerator into what the emitted C
// runs: the input graph with its operators in execution order (the
// partitioned graph's order, each fused group's operators together), one
// memory plan for all of it, and the accelerator program whose subgraphs
// stand for the runs of operators the partitioner placed on the accelerator.
//
// A layer lists the input model's operators it replaced (PlacedOp::Sources),
// each with the reference kernel and parameters that compute it, taken from
// the input graph: a fused operator's own attributes merge its members' and
// cannot be run. Every operator's result has its place in the plan, fused
// intermediates included, so layer dumps see every operator.
//
// What the device computes and stores differently is what the target's
// description declares (TargetInfo::deviceRules): the layouts operators
// compute in, the types stored converted, the intermediates kept in the
// device.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PROGRAM_PROGRAMBUILDER_H
#define ACCELGEN_PROGRAM_PROGRAMBUILDER_H

#include "partition/Partitioner.h"
#include "plan/Cascade.h"
#include "plan/MemoryPlan.h"
#include "program/Program.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace accelgen {
namespace program {

/// A model ready to emit for an accelerator.
struct AcceleratedModel {
  /// The input graph, operators in execution order.
  ir::Graph Graph;
  /// For each operator of Graph, its index in the input graph.
  std::vector<int64_t> SourceIndex;
  partition::PartitionResult Partition;
  plan::MemoryPlan Plan;
  Program Prog;
  /// For each program subgraph, the operators of Graph it runs:
  /// [first, first + count).
  std::vector<std::pair<size_t, size_t>> Regions;
  /// The cascades, when built with them: Plan is then their memory plan,
  /// and each accelerator run inside a cascade is a subgraph of its own,
  /// striped (Subgraph::Striped).
  std::optional<plan::CascadePlan> Cascading;
};

/// Partitions \p G for version \p Version of \p T (with \p Opts) and builds
/// the program, with cascades when \p Cascading enables them (or keeps the
/// inputs in place). Fails, naming the operator, when the result cannot be
/// run exactly: an operator the partitioner inserted (the functional model
/// runs the input model's operators), one without a reference kernel, or a
/// kernel the functional model lacks.
///
/// Cascades take an accelerator's fused layers whole and run no operator the
/// functional model cannot stripe. Layer at a time no output takes an
/// operand's bytes (the device's order of reads and writes is not the
/// plan's); a cascade's last operator may, stripe by stripe, where it is
/// element-wise (the functional model checks each stripe).
llvm::Expected<AcceleratedModel>
buildAcceleratedModel(const ir::Graph &G, const target::TargetInfo &T,
                      unsigned Version, const partition::PartitionOptions &Opts,
                      llvm::StringRef Generator,
                      const plan::CascadeOptions &Cascading = {});

} // namespace program
} // namespace accelgen

#endif // ACCELGEN_PROGRAM_PROGRAMBUILDER_H
