//===- Pattern.h - Fusion pattern tables and matches -----------------------===//
//
// A fusion pattern is a small dag of operators that one target operator
// replaces. accelgen-tblgen emits each target's patterns as constant tables
// of these structures (Patterns.inc); the matcher (PatternMatcher.h) runs
// them on the Graph IR. Node 0 of a pattern is its root, the last operator
// of the chain; each operand of a node is either another node of the pattern
// (whose result must have no other user) or a value capture that binds any
// tensor.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_PATTERN_H
#define ACCELGEN_TARGET_PATTERN_H

#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// One operand of a pattern node.
struct PatternOperand {
  int16_t Node;  ///< Index of the node producing it, or -1.
  int16_t Value; ///< Index of the value capture binding it, or -1 (any).
};

/// One operator of a pattern's source dag.
struct PatternNodeDesc {
  const char *Op;      ///< Operator type to match ("CONV_2D").
  const char *Capture; ///< Capture name ("conv"), or "" if unnamed.
  uint16_t NumOperands;
  const PatternOperand *Operands;
};

/// The operators and tensors a match bound.
struct PatternMatch {
  /// Operator index in the graph per pattern node.
  std::vector<int32_t> Nodes;
  /// Tensor index per value capture (-1 for an omitted optional operand).
  std::vector<int32_t> Values;
};

/// A fusion pattern as a table the matcher runs.
struct PatternDesc {
  const char *Name;
  int32_t Benefit;
  uint16_t SinceVersion; ///< First version (index) the pattern applies at.
  uint16_t NumNodes;
  const PatternNodeDesc *Nodes;
  uint16_t NumValues;
  const char *const *ValueNames;
  const char *ResultOp;
  uint16_t NumResultOperands;
  const int16_t *ResultOperands; ///< Value capture index per result operand.
  /// Evaluates the pattern's constraints on a structural match; appends the
  /// failing ones' messages to \p Why. Null when there are none.
  bool (*Check)(const ir::Graph &G, const PatternMatch &M,
                std::vector<std::string> &Why);
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_PATTERN_H
