//===- Legality.h - Generated legality tables and their evaluation ---------===//
//
// accelgen-tblgen emits, per target, one OpLegalityTable per operator: for
// each hardware version, the element types, weight quantization schemes and
// constraints (each a generated check function) that decide whether the
// operator runs there. evaluateLegality() runs every entry, not just up to
// the first failure, so a rejection lists all reasons at once.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_LEGALITY_H
#define ACCELGEN_TARGET_LEGALITY_H

#include "target/OpSetup.h"

#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// A generated constraint check: true when it holds; otherwise fills Message
/// with the observed values and what is required.
using CheckFn = bool (*)(const ir::Graph &G, const ir::Operator &Op,
                         std::string &Message);

/// One constraint of an operator at one version.
struct ConstraintEntry {
  const char *Id;
  CheckFn Check;
  /// What would make the operator legal; "" when nothing is known.
  const char *Hint;
};

/// Everything an operator must satisfy at one version.
struct LegalityAt {
  /// Element types allowed for input 0 ("i8").
  const char *const *Types;
  unsigned NumTypes;
  /// Hint for a type outside Types ("i16 is legal from demo3.0"), or "".
  const char *TypeHint;
  /// Weight (input 1) quantization schemes; none listed means any.
  const char *const *WeightSchemes;
  unsigned NumWeightSchemes;
  const ConstraintEntry *Constraints;
  unsigned NumConstraints;
};

/// An operator's legality across a target's versions.
struct OpLegalityTable {
  const char *Op;
  /// One per version; null where the operator is not available.
  const LegalityAt *const *PerVersion;
  unsigned NumVersions;
  /// Per version: why it is not available there ("legal from demo2.0"), or "".
  const char *const *UnavailableHints;
};

/// The quantization scheme of a weight tensor: "symmetric_per_channel",
/// "asymmetric_per_tensor", ...; "none" when it is not quantized.
std::string weightScheme(const ir::Tensor &T);

/// Evaluates every check of \p Table at \p Version; appends one Rejection per
/// failure (ids "dtype", "weight_scheme", "not_available" for the built-in
/// checks) and returns true when there is none.
bool evaluateLegality(const ir::Graph &G, const ir::Operator &Op,
                      const OpLegalityTable &Table, unsigned Version,
                      const std::string &VersionLabel,
                      std::vector<Rejection> &Why);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_LEGALITY_H
