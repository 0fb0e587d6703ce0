//===- EmitterSupport.h - Pieces every emitter shares
//----------------------===//
#ifndef ACCELGEN_GEN_EMITTERS_EMITTERSUPPORT_H
#define ACCELGEN_GEN_EMITTERS_EMITTERSUPPORT_H

#include "model/TargetModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace accelgen {
namespace gen {

/// The banner every generated file opens with: generator, action, source
/// target and (optionally) template. \p Comment is "//" or "<!--".
void emitBanner(llvm::raw_ostream &OS, const TargetModel &M,
                llvm::StringRef Action, llvm::StringRef Comment = "//");

/// \p S as a C++ string literal, quotes included (cppStringLiteral of
/// constraint/Escape.h, where every escaping function lives).
std::string cppString(llvm::StringRef S);

/// The C++ namespace generated code of \p M lives in:
/// accelgen::targets::<name>.
std::string targetNamespace(const TargetModel &M);

/// Names of the generated check functions: `check_<id>`, with a numeric
/// suffix for a later, different definition of the same id (an override).
class CheckNames {
public:
  explicit CheckNames(const TargetModel &M);
  const std::string &operator()(const ConstraintDef &C) const {
    return Names.at(&C);
  }
  /// One constraint per generated function, in model order.
  const std::vector<const ConstraintDef *> &unique() const { return Unique; }

private:
  std::map<const ConstraintDef *, std::string> Names;
  std::vector<const ConstraintDef *> Unique;
};

/// Writes the C++ function checking \p C, named \p Name, with the signature
/// of constraint::checkSignature for \p Kind.
void emitCheckFunction(
    llvm::raw_ostream &OS, llvm::StringRef Name, const ConstraintDef &C,
    constraint::CheckKind Kind = constraint::CheckKind::Operator);

/// What would make \p Op legal at \p Version when constraint \p C fails: the
/// description's hint, or the first later version that drops or changes it.
std::string constraintHint(const TargetModel &M, const OpLegality &Op,
                           unsigned Version, const ConstraintDef &C);

/// For a type outside the list at \p Version: the later versions that add
/// types ("i16 is legal from demo3.0"), or "".
std::string typeHint(const TargetModel &M, const OpLegality &Op,
                     unsigned Version);

/// Why \p Op is not available at \p Version ("legal from demo2.0").
std::string unavailableHint(const TargetModel &M, const OpLegality &Op,
                            unsigned Version);

/// The constraint in words for documentation.
std::string describeConstraint(const ConstraintDef &C);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_EMITTERS_EMITTERSUPPORT_H
