//===- OperatorChecks.h - What the importer checks of each operator -------===//
//
// After the IR verifier has checked the structure of a graph (indices, writes,
// order), the importer checks each operator it interprets against what
// defs/ops.td and the format say of it: its operand and result counts, its
// version, the ranges of its attributes (strides, dilations and filter sizes
// positive, axes inside the rank, finite floats) and, for a RESHAPE with a
// constant shape, that the shape agrees with its tensors. A model failing one
// of these is malformed, so it is rejected with the operator named, before
// any target looks at it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_OPERATORCHECKS_H
#define ACCELGEN_IMPORT_OPERATORCHECKS_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

namespace accelgen {
namespace tflite {

/// The largest operator version accepted. TensorFlow Lite's builtins are at
/// versions below 16; a larger one is a damaged file, not a newer model.
constexpr int32_t MaxOperatorVersion = 64;

/// Checks every operator of \p G as above; the error names the first
/// operator that fails ("operator 3 (STRIDED_SLICE): ...").
llvm::Error checkOperators(const ir::Graph &G);

} // namespace tflite
} // namespace accelgen

#endif // ACCELGEN_IMPORT_OPERATORCHECKS_H
