//===- TypeCheck.cpp - Typing rules of the constraint language -------------===//
//
// int and float mix freely in arithmetic and comparisons (the result is
// float when either side is); `%` takes ints only; ordering comparisons and
// ranges take numbers; == and != take two values of one type (or two
// numbers); && || ! take bools. A division or remainder by a constant zero
// and a constant range whose upper bound is below its lower one are errors.
// Functions: `min` and `max` take two numbers and give an int when both are
// ints, a float otherwise; `ceil` and `floor` take a number and give an int;
// `align` takes two ints; `select` takes a bool and two numbers, typed like
// `min`.
//
//===----------------------------------------------------------------------===//
#include "constraint/TypeCheck.h"

#include "constraint/Constraint.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

bool isNumeric(Type T) { return T == Type::Int || T == Type::Float; }

/// Whether == can compare values of types \p A and \p B.
bool comparable(Type A, Type B) {
  return A == B || (isNumeric(A) && isNumeric(B));
}

llvm::Error error(unsigned Column, const llvm::Twine &Msg) {
  return llvm::make_error<ParseError>(Column, Msg.str());
}

std::string quoted(Type T) { return "'" + typeName(T).str() + "'"; }

llvm::Error checkUnary(UnaryExpr &U) {
  Type T = U.operand().type();
  if (U.op() == UnaryExpr::Op::Not) {
    if (T != Type::Bool)
      return error(U.column(), "operator '!' needs a bool operand, found " +
                                   quoted(T));
    U.setType(Type::Bool);
    return llvm::Error::success();
  }
  if (!isNumeric(T))
    return error(U.column(), "operator '-' needs a numeric operand, found " +
                                 quoted(T));
  U.setType(T);
  return llvm::Error::success();
}

llvm::Error checkBinary(BinaryExpr &B) {
  using Op = BinaryExpr::Op;
  Type L = B.lhs().type(), R = B.rhs().type();
  llvm::StringRef Spelling = opSpelling(B.op());
  if (B.op() == Op::And || B.op() == Op::Or) {
    if (L != Type::Bool || R != Type::Bool)
      return error(B.column(),
                   llvm::formatv("operator '{0}' needs bool operands, found {1}",
                                 Spelling, quoted(L != Type::Bool ? L : R)));
    B.setType(Type::Bool);
    return llvm::Error::success();
  }
  if (isComparison(B.op())) {
    if (!comparable(L, R))
      return error(B.column(),
                   llvm::formatv("type mismatch in comparison ({0} vs {1})",
                                 quoted(L), quoted(R)));
    if (B.op() != Op::Eq && B.op() != Op::Ne && !isNumeric(L))
      return error(B.column(),
                   llvm::formatv("operator '{0}' needs numeric operands, "
                                 "found {1}",
                                 Spelling, quoted(L)));
    B.setType(Type::Bool);
    return llvm::Error::success();
  }
  if (B.op() == Op::Rem) {
    if (L != Type::Int || R != Type::Int)
      return error(B.column(),
                   "operator '%' needs int operands, found " +
                       quoted(L != Type::Int ? L : R));
  } else if (!isNumeric(L) || !isNumeric(R)) {
    return error(B.column(),
                 llvm::formatv("operator '{0}' needs numeric operands, found {1}",
                               Spelling, quoted(!isNumeric(L) ? L : R)));
  }
  if ((B.op() == Op::Div || B.op() == Op::Rem) && R == Type::Int &&
      constantInt(B.rhs()) == std::optional<int64_t>(0))
    return error(B.column(), "division by zero");
  B.setType(L == Type::Float || R == Type::Float ? Type::Float : Type::Int);
  return llvm::Error::success();
}

llvm::Error checkIn(InExpr &In) {
  Type S = In.subject().type();
  if (In.isRange()) {
    if (!isNumeric(S))
      return error(In.column(),
                   "a range needs a numeric value, found " + quoted(S));
    for (const ExprPtr &Bound : In.items())
      if (!isNumeric(Bound->type()))
        return error(Bound->column(), "range bounds must be numeric, found " +
                                          quoted(Bound->type()));
    std::optional<int64_t> Lo = constantInt(*In.items()[0]);
    std::optional<int64_t> Hi = constantInt(*In.items()[1]);
    if (Lo && Hi && *Lo > *Hi)
      return error(In.column(),
                   llvm::formatv("range [{0}, {1}] is empty", std::to_string(*Lo),
                                 std::to_string(*Hi)));
  } else {
    for (const ExprPtr &Member : In.items())
      if (!comparable(S, Member->type()))
        return error(Member->column(),
                     llvm::formatv("type mismatch in set ({0} vs {1})",
                                   quoted(S), quoted(Member->type())));
  }
  In.setType(Type::Bool);
  return llvm::Error::success();
}

llvm::Error checkCall(CallExpr &C) {
  bool AnyFloat = false;
  for (size_t I = 0; I < C.args().size(); ++I) {
    if (llvm::Error Err =
            checkCallArgument(C.fn(), I, C.arg(I), C.argColumn(I)))
      return Err;
    AnyFloat = AnyFloat || C.arg(I).type() == Type::Float;
  }
  switch (C.fn()) {
  case CallExpr::Fn::Ceil:
  case CallExpr::Fn::Floor:
  case CallExpr::Fn::Align:
    C.setType(Type::Int);
    break;
  case CallExpr::Fn::Min:
  case CallExpr::Fn::Max:
  case CallExpr::Fn::Select:
    C.setType(AnyFloat ? Type::Float : Type::Int);
    break;
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error checkCallArgument(CallExpr::Fn F, size_t Index, const Expr &Arg,
                              unsigned Column) {
  using Fn = CallExpr::Fn;
  Type T = Arg.type();
  if (F == Fn::Select && Index == 0) {
    if (T == Type::Bool)
      return llvm::Error::success();
    return error(Column, "function 'select' needs a bool condition, found " +
                             quoted(T));
  }
  if (F == Fn::Align) {
    if (T == Type::Int)
      return llvm::Error::success();
    return error(Column,
                 "function 'align' needs int arguments, found " + quoted(T));
  }
  if (isNumeric(T))
    return llvm::Error::success();
  llvm::StringRef Wanted = F == Fn::Select ? "numeric values"
                           : F == Fn::Ceil || F == Fn::Floor
                               ? "a numeric argument"
                               : "numeric arguments";
  return error(Column, llvm::formatv("function '{0}' needs {1}, found {2}",
                                     functionName(F), Wanted, quoted(T)));
}

llvm::Error assignType(Expr &E) {
  if (auto *U = llvm::dyn_cast<UnaryExpr>(&E))
    return checkUnary(*U);
  if (auto *B = llvm::dyn_cast<BinaryExpr>(&E))
    return checkBinary(*B);
  if (auto *In = llvm::dyn_cast<InExpr>(&E))
    return checkIn(*In);
  if (auto *C = llvm::dyn_cast<CallExpr>(&E))
    return checkCall(*C);
  return llvm::Error::success();
}

llvm::Error checkConstraintType(const Expr &E, unsigned Column) {
  if (E.type() == Type::Bool)
    return llvm::Error::success();
  return error(Column, "constraint must be a boolean expression, found " +
                           typeName(E.type()));
}

llvm::Error checkNumericType(const Expr &E, unsigned Column) {
  if (isNumeric(E.type()))
    return llvm::Error::success();
  return error(Column, "expression must be numeric (int or float), found " +
                           typeName(E.type()));
}

llvm::Error checkIntType(const Expr &E, unsigned Column) {
  if (E.type() == Type::Int)
    return llvm::Error::success();
  return error(Column,
               "expression must be an int, found " + typeName(E.type()));
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
