//===- Pattern.h - Fusion pattern tables and matches -----------------------===//
//
// A fusion pattern is a small dag of operators that one target operator
// replaces. accelgen-tblgen emits each target's patterns as constant tables
// of these structures (Patterns.inc); the matcher (PatternMatcher.h) runs
// them on the Graph IR. Node 0 of a pattern is its root, the last operator
// of the chain; each operand of a node is either another node of the pattern
// (whose result must have no other user) or a value capture that binds any
// tensor. A node matches one operator type, or any member of an operator set
// (PatternOpSet, the description's `OpSet`); a pattern's result is one
// operator type, or the one a set lists for the member a node matched.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_PATTERN_H
#define ACCELGEN_TARGET_PATTERN_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"

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

/// A named set of operator types one pattern node matches.
struct PatternOpSet {
  const char *Name; ///< The set's name ("ACT1").
  uint16_t NumMembers;
  const char *const *Members; ///< Operator types, sorted.
  /// Per member, the operator type a result naming the set becomes; null
  /// when the set lists no results.
  const char *const *Results;

  /// The index of \p Type among Members, or -1.
  int find(llvm::StringRef Type) const;
};

/// One operator of a pattern's source dag.
struct PatternNodeDesc {
  const char *Op; ///< Operator type to match ("CONV_2D"); null with a Set.
  const PatternOpSet *Set; ///< Set whose members match; null with an Op.
  const char *Capture;     ///< Capture name ("conv"), or "" if unnamed.
  uint16_t NumOperands;
  const PatternOperand *Operands;

  /// Whether an operator of type \p Type matches this node.
  bool matches(llvm::StringRef Type) const {
    return Set ? Set->find(Type) >= 0 : Type == Op;
  }
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
  /// The result operator type; null when ResultSet and ResultNode pick it.
  const char *ResultOp;
  /// With a null ResultOp: the set whose result for the operator matched at
  /// node ResultNode (always a member) is the result operator type.
  const PatternOpSet *ResultSet;
  int16_t ResultNode;
  uint16_t NumResultOperands;
  const int16_t *ResultOperands; ///< Value capture index per result operand.
  /// Evaluates the pattern's constraints on a structural match; appends the
  /// failing ones' messages to \p Why. Null when there are none.
  bool (*Check)(const ir::Graph &G, const PatternMatch &M,
                std::vector<std::string> &Why);

  /// The type of the operator that replaces match \p M in \p G.
  llvm::StringRef resultOp(const ir::Graph &G, const PatternMatch &M) const;
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_PATTERN_H
