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

/// Sets the type of the unary, binary or `in` node \p E from its typed
/// operands; a ParseError when they do not fit the operator.
llvm::Error assignType(Expr &E);

/// Checks that the whole constraint \p E, starting at \p Column, is bool.
llvm::Error checkConstraintType(const Expr &E, unsigned Column);

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_TYPECHECK_H
