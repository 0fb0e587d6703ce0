//===- ConstraintChecks.h - Checks generated for ConstraintCheckTest -------===//
//
// At build time, emit-test-constraints (EmitConstraintsMain.cpp) emits the
// C++ checks of a fixed list of constraints, and the boundary cases of each,
// into GeneratedConstraintChecks.cpp; these tables are what it defines.
// ConstraintCheckTest runs them on hand-built graphs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_UNIT_CONSTRAINTCHECKS_H
#define ACCELGEN_TESTS_UNIT_CONSTRAINTCHECKS_H

#include "ir/Graph.h"
#include "target/ConstraintRuntime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace accelgen {
namespace test {

/// A generated check of one operator.
struct OperatorCheck {
  const char *Id;
  bool (*Check)(const ir::Graph &G, const ir::Operator &Op,
                std::string &Message);
};

/// A generated check of a fusion-pattern match.
struct PatternCheck {
  const char *Id;
  bool (*Check)(const ir::Graph &G, const target::Captures &C,
                std::string &Message);
};

/// One boundary case: set one value, and the check accepts or rejects.
struct BoundaryRow {
  enum Kind { Attr, Rank, Dim, Channels };
  const char *Id;
  /// The reference as written ("conv.input(0).rank").
  const char *Ref;
  /// The capture the value belongs to, "" for operator checks.
  const char *Capture;
  Kind What;
  /// For Attr: the attribute name.
  const char *AttrName;
  /// For Rank, Dim and Channels: the tensor and axis.
  bool IsOutput;
  unsigned Index;
  int64_t Axis;
  int64_t Value;
  bool Accept;
};

extern const OperatorCheck OperatorChecks[];
extern const size_t NumOperatorChecks;
extern const PatternCheck PatternChecks[];
extern const size_t NumPatternChecks;
extern const BoundaryRow BoundaryRows[];
extern const size_t NumBoundaryRows;

/// The C++ function constraint `dw_square` names: a square filter.
bool isSquareFilter(const ir::Graph &G, const ir::Operator &Op);
/// The C++ function constraint `conv_first` names: conv is operator 0.
bool convComesFirst(const ir::Graph &G, const target::Captures &C);

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_UNIT_CONSTRAINTCHECKS_H
