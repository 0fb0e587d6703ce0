//===- QOperatorForms.h - ONNX QOperator nodes in the QDQ form --*- C++ -*-===//
//
// ONNX defines each quantized operator of the QOperator form (QLinearConv,
// QLinearMatMul, and ONNX Runtime's com.microsoft QGemm, QLinearAdd,
// QLinearMul, QLinearAveragePool, QLinearGlobalAveragePool, QLinearConcat,
// QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax) as its float operator
// between DequantizeLinear of each quantized operand and QuantizeLinear of
// its result. The reader rewrites such nodes into that QDQ form, from one
// table of the forms (which inputs are a quantized operand with its scale
// and zero point, which the result's parameters, which an int32 bias
// scaled by the product of the first two scales, and along which axis the
// second operand may be quantized per channel), before shape inference;
// the QuantParamsMaker pass then makes the QDQ form tensor-oriented as it
// does any other. Operators that move 8-bit values without arithmetic
// (MaxPool, Reshape, Transpose, Concat, ...) need no rewriting: the reader
// gives their results their operands' parameters.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_QOPERATORFORMS_H
#define ACCELGEN_IMPORT_QOPERATORFORMS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace onnx {
class GraphProto;
} // namespace onnx

namespace accelgen {
namespace onnximport {

/// True if \p Op of \p Domain is a QOperator node the reader rewrites.
bool isQOperator(llvm::StringRef Op, llvm::StringRef Domain);

/// Rewrites every QOperator node of \p G into DequantizeLinear, its float
/// operator and QuantizeLinear, in place (a model of opset \p Opset).
/// Errors name the node: an operand count the form does not have, scales
/// that are not constants where the bias needs their product, attributes
/// the float operator would read otherwise.
llvm::Error expandQOperators(::onnx::GraphProto &G, int64_t Opset);

} // namespace onnximport
} // namespace accelgen

#endif // ACCELGEN_IMPORT_QOPERATORFORMS_H
