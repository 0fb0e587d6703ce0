//===- OnnxExport.h - Quantized TensorFlow Lite graphs as ONNX QDQ -*- C++
//-*-===//
//
// Writes a quantized graph read from TensorFlow Lite as an ONNX model in the
// QDQ form: int8 or uint8 values between operators, each read through a
// DequantizeLinear and written through a QuantizeLinear with its tensor's
// parameters, the operators themselves in float; weights int8 constants
// dequantized per channel (axis 0, OIHW) or per tensor, biases int32
// constants. Feature maps are NCHW, graph inputs and outputs keep their
// element types, and TensorFlow Lite's SAME padding becomes explicit pads.
// This is the form ONNX Runtime's quantizer writes; accelgen's ONNX reader
// makes it tensor-oriented again (lib/import/QuantParamsMaker.h), which is
// what tests check against the TensorFlow Lite original.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_ONNXEXPORT_H
#define ACCELGEN_TOOLS_ONNXEXPORT_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace onnxexport {

/// The serialized ModelProto (opset 13) of \p G, or an error naming the
/// first operator the exporter does not write.
llvm::Expected<std::string> exportQdq(const ir::Graph &G);

} // namespace onnxexport
} // namespace accelgen

#endif // ACCELGEN_TOOLS_ONNXEXPORT_H
