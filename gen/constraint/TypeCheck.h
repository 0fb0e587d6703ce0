//===- TypeCheck.h - Typing rules of the constraint language ---------------===//
//
// The parser builds the tree bottom-up and calls assignType on each operator
// node once its operands are built, so every node is typed as soon as it
// exists and type errors are reported in source order.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_TYPECHECK_H
#define ACCELGEN_GEN_CONSTRAINT_TYPECHECK_H

#include "constraint/Expr.h"

#include "llvm/Support/Error.h"

namespace accelgen {
namespace gen {
namespace constraint {

/// Sets the type of the unary, binary, `in` or call node \p E from its
/// typed operands; a ParseError when they do not fit the operator.
llvm::Error assignType(Expr &E);

/// Checks argument \p Index of a call of \p F, starting at \p Column, as
/// soon as it is parsed; assignType checks them all again.
llvm::Error checkCallArgument(CallExpr::Fn F, size_t Index, const Expr &Arg,
                              unsigned Column);

/// Checks that the whole constraint \p E, starting at \p Column, is bool.
llvm::Error checkConstraintType(const Expr &E, unsigned Column);

/// Checks that the value expression \p E, starting at \p Column, is an int
/// or a float.
llvm::Error checkNumericType(const Expr &E, unsigned Column);

/// Checks that the value expression \p E, starting at \p Column, is an int.
llvm::Error checkIntType(const Expr &E, unsigned Column);

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_TYPECHECK_H
