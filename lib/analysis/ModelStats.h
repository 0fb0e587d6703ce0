//===- ModelStats.h - Work and memory figures of a graph -------------------===//
//
// Multiply-accumulate counts per operator and the activation memory a graph
// needs when every tensor has its own buffer (the figure a memory planner
// improves on). Counts saturate at INT64_MAX rather than overflow.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_ANALYSIS_MODELSTATS_H
#define ACCELGEN_ANALYSIS_MODELSTATS_H

#include "ir/Graph.h"

#include <cstdint>

namespace accelgen {
namespace analysis {

/// Multiply-accumulates \p Op performs once, from its operand shapes: one per
/// weight applied to one input value. Operators without weights count 0.
int64_t operatorMacs(const ir::Graph &G, const ir::Operator &Op);

/// Sum of operatorMacs over the graph.
int64_t graphMacs(const ir::Graph &G);

/// Bytes of all non-constant tensors, as if each had a buffer of its own.
int64_t activationBytes(const ir::Graph &G);

/// Bytes of all constant tensors.
int64_t constantBytes(const ir::Graph &G);

} // namespace analysis
} // namespace accelgen

#endif // ACCELGEN_ANALYSIS_MODELSTATS_H
