//===- Verifier.h - Structural checks of the Graph IR ----------------------===//
//
// Checks that a graph is well formed before any stage relies on it: tensor
// indices in range, shapes sane, constant data of the right size, quantization
// parameters consistent with the shape, every tensor written at most once, and
// operators in an order where each reads only what is already written (no
// cycles), and names valid UTF-8 (later stages print them as JSON). Each
// problem is reported with where it is.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_VERIFIER_H
#define ACCELGEN_IR_VERIFIER_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace accelgen {
namespace ir {

/// Limits the verifier enforces on every tensor.
constexpr unsigned MaxRank = 8;
constexpr int64_t MaxElements = (int64_t(1) << 31) - 1;

/// Returns one message per problem found in \p G, each naming its location
/// ("operator 3 (CONV_2D): ..."); empty when \p G is well formed.
std::vector<std::string> verifyGraph(const Graph &G);

/// Verifies every graph of \p M; the error lists all problems found.
llvm::Error verifyModel(const Model &M);

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_VERIFIER_H
