//===- ExampleReference.h - An independent evaluation of the example ------===//
//
// Evaluates the example model's graph on one input with integer arithmetic
// written here from TensorFlow Lite's documented int8 semantics, without
// lib/kernels or any generated code, so that the C accelgen generates can be
// checked against something it does not share code with. It covers exactly
// the operators and options the example uses; softmax is evaluated in
// double precision (TensorFlow Lite's fixed-point exponential is not
// reproduced), so its result may differ from the reference kernels' by one
// quantization step.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_MAKE_EXAMPLE_EXAMPLEREFERENCE_H
#define ACCELGEN_TOOLS_MAKE_EXAMPLE_EXAMPLEREFERENCE_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace accelgen {
namespace example {

/// Every tensor's int8 value after running \p G on \p Input (its one graph
/// input), indexed like G.Tensors; constants and non-int8 tensors are empty.
llvm::Expected<std::vector<std::vector<int8_t>>>
evaluate(const ir::Graph &G, const std::vector<int8_t> &Input);

} // namespace example
} // namespace accelgen

#endif // ACCELGEN_TOOLS_MAKE_EXAMPLE_EXAMPLEREFERENCE_H
