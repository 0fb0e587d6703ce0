//===- CppExpr.h - Constraint expressions as C++
//----------------------------===//
//
// The pieces of a generated check: a local variable per distinct reference
// (and per fusion-pattern capture), initialized through the runtime accessors
// of target/ConstraintRuntime.h, and the condition as one C++ expression over
// those locals. Integer arithmetic and the built-in functions go through
// rt::add, rt::div, rt::align, rt::ceil, ... so that no model can make a
// check or a cost overflow or divide by zero.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_CPPEXPR_H
#define ACCELGEN_GEN_CONSTRAINT_CPPEXPR_H

#include "constraint/Constraint.h"
#include "constraint/Escape.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {
namespace constraint {

using gen::commentText;
using gen::cppStringLiteral;

/// The locals a check declares and the C++ text of its condition.
class CppExprWriter {
public:
  /// A local holding the value of one reference.
  struct Local {
    std::string Name;
    std::string Spelling; ///< The reference as written ("input(0).rank").
    std::string CppType;  ///< "int64_t", "double", ...
    std::string Init;     ///< The accessor call.
  };
  /// A fusion-pattern capture: `const accelgen::ir::Operator &Name`.
  struct CaptureVar {
    std::string Name;
    std::string Capture;
  };

  /// Collects the references of \p E. \p Id names the constraint in fatal
  /// errors about references that \p Kind cannot evaluate.
  CppExprWriter(const Expr &E, CheckKind Kind, llvm::StringRef Id);

  const std::vector<CaptureVar> &captures() const { return Captures; }
  /// One local per distinct reference, in first-use order.
  const std::vector<Local> &locals() const { return Locals; }
  /// True when some local reads the graph: an operand or result property, or
  /// the multiply-accumulate count.
  bool readsTensors() const { return ReadsTensors; }
  /// The C++ condition for \p E.
  std::string condition(const Expr &E) const;

private:
  std::vector<CaptureVar> Captures;
  std::vector<Local> Locals;
  std::map<std::string, size_t> LocalBySpelling;
  std::map<std::string, std::string> CaptureNames;
  std::set<std::string> Taken;
  bool ReadsTensors = false;

  std::string unique(std::string Base);
  void addLocal(const Reference &R, CheckKind Kind, llvm::StringRef Id);

  struct Text {
    std::string S;
    int Prec;
  };
  Text emit(const Expr &E) const;
  Text binary(const BinaryExpr &B) const;
  Text call(const CallExpr &C) const;
  Text in(const InExpr &In) const;
};

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_CPPEXPR_H
