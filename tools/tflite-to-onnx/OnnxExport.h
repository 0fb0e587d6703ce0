//===- OnnxExport.h - Quantized TensorFlow Lite graphs as ONNX -*- C++ -*-===//
//
// Writes a quantized graph read from TensorFlow Lite as an ONNX model, in
// the QDQ form (int8 or uint8 values between operators, each read through a
// DequantizeLinear and written through a QuantizeLinear with its tensor's
// parameters, the operators themselves in float; what ONNX Runtime's
// quantizer writes by default) or the QOperator form (quantized operators
// reading and writing the 8-bit values with their parameters as operands;
// see Form). Weights are int8 constants quantized per channel (axis 0,
// OIHW) or per tensor, biases int32 constants. Feature maps are NCHW,
// graph inputs and outputs keep their element types, and TensorFlow Lite's
// SAME padding becomes explicit pads. accelgen's ONNX reader makes either
// form tensor-oriented again (lib/import/QOperatorForms.h,
// QuantParamsMaker.h), which is what tests check against the TensorFlow
// Lite original.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_ONNXEXPORT_H
#define ACCELGEN_TOOLS_ONNXEXPORT_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace onnxexport {

/// How quantized operators are written.
enum class Form {
  /// Float operators between DequantizeLinear and QuantizeLinear.
  QDQ,
  /// Quantized operators where ONNX or ONNX Runtime's com.microsoft domain
  /// has one (QLinearConv, QGemm, QLinearAveragePool, QLinearAdd,
  /// QLinearMul, QLinearConcat, QLinearSoftmax; MaxPool and layout changes on
  /// the 8-bit
  /// values themselves), the QDQ form for the rest (SUB, and a fused
  /// activation narrowing its result's range, which QOperator nodes lack).
  QOperator,
};

/// The serialized ModelProto (opset 13; com.microsoft 1 in the QOperator
/// form) of \p G, or an error naming the first operator the exporter does
/// not write.
llvm::Expected<std::string> exportOnnx(const ir::Graph &G, Form F);

} // namespace onnxexport
} // namespace accelgen

#endif // ACCELGEN_TOOLS_ONNXEXPORT_H
