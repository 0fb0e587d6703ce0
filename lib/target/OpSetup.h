//===- OpSetup.h - Per-operator converters generated for each target
//-------===//
//
// For every operator a target supports, accelgen-tblgen generates an OpSetup
// subclass (in the target's OpSetups.inc) from the target description:
//
//  - IsSupported evaluates every legality constraint for a hardware version
//    and reports each one that fails, with its id, a message naming the
//    observed values, and a hint where the description gives one;
//  - CandidateOperations gives every target operator the description's
//    mappings (attribute conversions) turn the framework operator into at a
//    version, by benefit; CreateOperation the first of them, and
//    TargetInfo::chooseOperation the cheapest where the description states
//    each one's cost;
//  - SetupQuantParam applies the quantization rules: it checks how the
//    operator's quantization parameters relate and, where a rule says so,
//    inserts a requantize, or rejects the operator.
//
// The generated classes register into a TargetInfo (TargetInfo.h), which is
// what the legalization and partitioning passes consult.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_OPSETUP_H
#define ACCELGEN_TARGET_OPSETUP_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// Why an operator cannot go to a target (one failing constraint).
struct Rejection {
  /// The constraint's stable id.
  std::string ConstraintId;
  /// What was observed and what is required: "stride_h = 5, must be in [1, 4]".
  std::string Message;
  /// What would make it legal ("legal from demo2.0"); may be empty.
  std::string Hint;
};

/// What SetupQuantParam did to the graph.
enum class QuantOutcome {
  Unchanged,          ///< Every rule held as it was.
  UpdatedParams,      ///< Missing parameters were filled in; nothing inserted.
  InsertedRequantize, ///< A requantize was inserted to make a rule hold.
  Rejected,           ///< A rule failed and says to reject.
};

/// Converter of one framework operator for one target.
class OpSetup {
public:
  virtual ~OpSetup();

  /// The framework operator this converts ("CONV_2D").
  virtual llvm::StringRef opName() const = 0;

  /// Evaluates every legality constraint at hardware version \p Version (an
  /// index into the target's versions) and appends one Rejection per failing
  /// constraint; true when all hold.
  virtual bool IsSupported(const ir::Graph &G, const ir::Operator &Op,
                           unsigned Version,
                           std::vector<Rejection> &Why) const = 0;

  /// The target operators that may replace \p Op at \p Version: one per
  /// mapping whose constraints hold, by benefit (highest first), each with
  /// the mapping's type and attributes; empty without one. Operands and
  /// results are unchanged.
  virtual std::vector<ir::Operator>
  CandidateOperations(const ir::Graph &G, const ir::Operator &Op,
                      unsigned Version) const = 0;

  /// The first of CandidateOperations(), or \p Op itself without one.
  ir::Operator CreateOperation(const ir::Graph &G, const ir::Operator &Op,
                               unsigned Version) const;

  /// Applies the quantization rules of operator \p OpIndex of \p G at
  /// \p Version, inserting requantize operators where a rule says so.
  virtual QuantOutcome SetupQuantParam(ir::Graph &G, size_t OpIndex,
                                       unsigned Version,
                                       std::vector<Rejection> &Why) const = 0;
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_OPSETUP_H
