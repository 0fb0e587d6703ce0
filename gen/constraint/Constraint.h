//===- Constraint.h - The constraint language of target descriptions -------===//
//
// A target description states what an accelerator accepts as expressions:
//
//   stride_h in [1, 4] && stride_w in [1, 4]
//   input(0).dtype in {i8, u8} && !input(1).per_channel
//   input(0).scale * input(1).scale < output(0).scale
//   conv.stride_h <= 2 && act.input(0).zero_point == conv.output(0).zero_point
//
// This module parses and type-checks such an expression against the scope it
// is written in (the operator's declared attributes and operand counts, or a
// fusion pattern's captures) and derives everything the generator needs from
// it: the C++ check that explains a rejection with the observed values, the
// expression in words for documentation, and the boundary values tests probe.
// The same language, with a numeric result, states cost estimates
// (`select(stride_h > 1, macs / 256, macs / 512)`); those become C++
// functions computing the value. The language is documented in
// docs/constraint-language.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_CONSTRAINT_H
#define ACCELGEN_GEN_CONSTRAINT_CONSTRAINT_H

#include "constraint/Expr.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {
namespace constraint {

/// What names mean where a constraint is written.
struct Scope {
  /// The operator's attributes, referenced unqualified (`stride_h`).
  std::vector<AttrInfo> Attrs;
  /// Operand and result counts; `input(N)` needs N < NumOperands.
  unsigned NumOperands = 0;
  unsigned NumResults = 0;
  /// For fusion patterns: capture name to that operator's scope, referenced
  /// qualified (`conv.stride_h`).
  std::map<std::string, Scope> Captures;
};

/// A syntax or type error at a 1-based column of the expression text.
class ParseError : public llvm::ErrorInfo<ParseError> {
public:
  static char ID;

  ParseError(unsigned Column, std::string Message)
      : Column(Column), Message(std::move(Message)) {}
  /// An "unknown attribute" error: \p Attr is not declared by the operator
  /// the scope (or its capture \p Capture, when not empty) stands for.
  static llvm::Error unknownAttribute(unsigned Column, std::string Attr,
                                      std::string Capture);
  /// The 1-based column within the expression text.
  unsigned column() const { return Column; }
  /// For an "unknown attribute" error, the attribute; empty otherwise.
  const std::string &unknownAttr() const { return UnknownAttr; }
  /// For an "unknown attribute" error, the capture that qualified it ("" for
  /// an unqualified name).
  const std::string &unknownAttrCapture() const { return UnknownCapture; }
  /// The message, without location ("unknown attribute 'x'").
  std::string message() const override { return Message; }
  /// Prints "column N: message".
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  unsigned Column;
  std::string Message;
  std::string UnknownAttr, UnknownCapture;
};

/// Parses and type-checks \p Text in \p S; the result is a bool expression.
/// Errors are ParseErrors.
llvm::Expected<std::unique_ptr<Expr>> parse(llvm::StringRef Text,
                                            const Scope &S);

/// Parses and type-checks \p Text in \p S as a value: the result is an int
/// or float expression, such as a cost estimate. Errors are ParseErrors.
llvm::Expected<std::unique_ptr<Expr>> parseValue(llvm::StringRef Text,
                                                 const Scope &S);

/// Parses and type-checks \p Text in \p S as an int value, such as a size in
/// bytes (`ceil` or `floor` turn a float into one). Errors are ParseErrors.
llvm::Expected<std::unique_ptr<Expr>> parseIntValue(llvm::StringRef Text,
                                                    const Scope &S);

/// The expression in the language's own syntax, canonically spaced and
/// parenthesized ("stride_h in [1, 4] && stride_w in [1, 4]").
std::string print(const Expr &E);

/// The expression in words for documentation ("stride_h in [1, 4] and
/// stride_w in [1, 4]").
std::string describe(const Expr &E);

/// What a generated check receives besides the graph.
enum class CheckKind {
  /// `const accelgen::ir::Operator &Op`: the operator being checked.
  Operator,
  /// `const accelgen::target::Captures &C`: a fusion-pattern match.
  Pattern
};

/// The name of the check function for constraint \p Id: "check_" followed by
/// the id with every character other than a letter or digit made '_'.
std::string checkFunctionName(llvm::StringRef Id);

/// The signature of a check function named \p Name:
/// "bool NAME(const accelgen::ir::Graph &G, const accelgen::ir::Operator &Op,
/// std::string &Message)", or with `const accelgen::target::Captures &C` in
/// place of Op for CheckKind::Pattern.
std::string checkSignature(llvm::StringRef Name, CheckKind Kind);

/// Writes the body (the statements between the braces) of the check function
/// of constraint \p Id: it returns true when \p E holds; otherwise it sets
/// Message to the observed values and the requirement and returns false.
/// The code needs "target/ConstraintRuntime.h".
void emitCheck(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Id,
               llvm::StringRef Summary, CheckKind Kind = CheckKind::Operator);

/// Writes the body of a check decided by the C++ function \p Function, called
/// as `Function(G, Op)` (or `Function(G, C)` for patterns); on failure
/// Message is \p Summary.
void emitFunctionCheck(llvm::raw_ostream &OS, llvm::StringRef Function,
                       llvm::StringRef Id, llvm::StringRef Summary,
                       CheckKind Kind = CheckKind::Operator);

/// Writes a whole check function definition named checkFunctionName(Id),
/// preceded by a comment with the id and summary.
void emitCheckDefinition(llvm::raw_ostream &OS, const Expr &E,
                         llvm::StringRef Id, llvm::StringRef Summary,
                         CheckKind Kind = CheckKind::Operator);

/// Writes the body of a function of `const accelgen::ir::Graph &G` and
/// `const accelgen::ir::Operator &Op` returning the value of the numeric
/// expression \p E as a double. \p Label names the expression in the
/// leading comment and in fatal errors. The code needs
/// "target/ConstraintRuntime.h".
void emitValue(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Label);

/// As emitValue, for an int expression \p E returned as an int64_t.
void emitIntValue(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Label);

/// One value a boundary test sets, and whether the constraint then holds.
struct BoundaryCase {
  /// The reference as written canonically ("stride_h", "input(0).rank").
  std::string Ref;
  int64_t Value = 0;
  bool Accept = false;
  /// The same reference, structured, for test generators.
  Reference Subject;
};

/// The accept/reject values at each boundary of the integer terms of \p E,
/// assuming every other term holds. Only terms of a top-level conjunction
/// that compare a probeable reference (Reference::isProbeable) with
/// constants are considered (never a term with a function call), and only
/// references every term of which is of that form. Cases are grouped by
/// reference in first-use order, values ascending; rank, dim and channels
/// values below 0 are left out.
std::vector<BoundaryCase> boundaryCases(const Expr &E);

/// The enumerator of \p T in ir::DType ("I8").
llvm::StringRef dtypeEnumerator(ir::DType T);

/// The shortest C++ double literal that reads back as \p V exactly ("0.5",
/// "1.0", "1e-05").
std::string cppDouble(double V);

/// A value a probe gives a reference: the member of its type is meaningful
/// (Int for int, Float for float, Bool, Str for string, DT for dtype, where
/// std::nullopt is `none`, the absent operand).
struct ProbeValue {
  Type Ty = Type::Int;
  int64_t Int = 0;
  double Float = 0;
  bool Bool = false;
  std::string Str;
  std::optional<ir::DType> DT;

  /// The value as a rejection message shows it ("5", "0.5", "\"VALID\"").
  std::string format() const;
  bool operator==(const ProbeValue &O) const;
};

/// One case of a probe: a value for every reference, and the verdict.
struct ProbeCase {
  std::vector<ProbeValue> Values; ///< In ProbeSet::Refs order.
  bool Accept = false;
  /// What the case exercises: "base", "stride_h = 5", "only `a` holds".
  std::string Label;
  /// Why an operator reading as Values cannot be built; empty when it can.
  std::string NotConstructible;
};

/// The cases probing one constraint.
struct ProbeSet {
  /// Every reference of the constraint, in first-use order.
  std::vector<Reference> Refs;
  /// Cases[0] is the base case, which the constraint accepts; every other
  /// case changes it: one reference at a time to each value on either side
  /// of the constants it is compared with, and, for each top-level `||`
  /// term, the references of that term so that exactly one side holds, and
  /// so that none does.
  std::vector<ProbeCase> Cases;
  /// Why the constraint has no cases (empty when it has).
  std::string NotProbed;
};

/// The probe cases of \p E, their verdicts computed by evaluating \p E with
/// the constraint language's semantics. Not probed: expressions with a
/// function call, or reading `macs`, or that no buildable combination of
/// candidate values satisfies.
ProbeSet probeCases(const Expr &E);

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_CONSTRAINT_H
