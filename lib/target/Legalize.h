//===- Legalize.h - Turning framework operators into target operators -----===//
//
// The legalization pass decides, for one target and hardware version, which
// operators of a graph the accelerator runs, and rewrites those into target
// operators. For each operator in order:
//
//  1. With no OpSetup for its type, it is rejected as "unsupported_operator".
//  2. OpSetup::IsSupported evaluates every legality constraint; any failure
//     rejects it, with all failing constraints listed.
//  3. OpSetup::SetupQuantParam applies the quantization rules, which may fill
//     in parameters, insert requantize operators around it, or reject it. It
//     runs on the framework operator, before conversion, because the rules
//     are written against it. A rejection here undoes everything the rules
//     changed, so a rejected operator is left exactly as it was.
//  4. TargetInfo::chooseOperation replaces it by the target operator its
//     mappings allow (the cheapest where the description costs each).
//
// Requantize operators a rule inserted are legalized in turn (steps 1, 2 and
// 4; rules do not apply to them). Operators a fusion pattern produced (they
// carry FusedOpsAttr) are target operators already and are kept as legal.
// The report has one entry per operator of the resulting graph, in order, for
// `accelgen explain` and the partitioner.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_LEGALIZE_H
#define ACCELGEN_TARGET_LEGALIZE_H

#include "target/OpSetup.h"
#include "target/TargetInfo.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// What legalization decided for one operator of the legalized graph.
struct OpLegalization {
  /// The operator's index before legalization; -1 for a requantize a
  /// quantization rule inserted.
  int64_t OriginalIndex = -1;
  /// Its type before legalization ("CONV_2D").
  std::string OriginalType;
  /// Its type now: the target operator's when legal ("DEMO_CONV_2D").
  std::string Type;
  /// True when the target runs it.
  bool Legal = false;
  /// What its quantization rules did; Unchanged when they did not run.
  QuantOutcome Quant = QuantOutcome::Unchanged;
  /// Every reason it is not legal; empty when legal.
  std::vector<Rejection> Why;
};

/// The outcome of legalizing one graph for one target version.
struct LegalizeReport {
  /// The target version label ("demo2.0").
  std::string Target;
  /// One entry per operator of the legalized graph, in operator order.
  std::vector<OpLegalization> Ops;

  /// The number of operators the target runs.
  size_t numLegal() const;
};

/// Legalizes \p G for \p T at version index \p Version as described above.
/// Operators \p Leave is true of are left as they are, not legal and without
/// a reason (the caller has one), their quantization rules not applied.
/// \p Allowed, when given, restricts the target operators a mapping may
/// produce (TargetInfo::chooseOperation).
LegalizeReport
legalize(ir::Graph &G, const TargetInfo &T, unsigned Version,
         const std::function<bool(const ir::Operator &)> &Leave = nullptr,
         const std::function<bool(llvm::StringRef)> &Allowed = nullptr);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_LEGALIZE_H
