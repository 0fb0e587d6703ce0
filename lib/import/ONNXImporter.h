//===- ONNXImporter.h - ONNX models to Graph IR -----------------*- C++ -*-===//
//
// Reads an ONNX model (`.onnx`, a serialized ModelProto) of any opset whose
// operators' semantics it knows (each operator from some version of its
// schema on; every operator it reads is known from opset 7 at the latest)
// into the Graph IR with the ONNX library: protobuf parses the bytes, the
// ONNX checker validates the model and ONNX shape inference gives every value
// its shape. Then each node becomes the IR's operators:
//
// - Layout: ONNX feature maps are NCHW, the IR's NHWC. Every rank-4 value
//   that is not a constant is NHWC in the IR (graph inputs and outputs
//   included); constants are permuted where they meet one (convolution
//   weights to OHWI, broadcast operands), and ONNX Transpose nodes of
//   constants are folded. A reshape or flatten whose element order differs
//   between the layouts gets the TRANSPOSE the semantics needs.
// - Quantization: QuantizeLinear becomes QUANTIZE with its result's
//   parameters, DequantizeLinear of a computed value DEQUANTIZE, and of a
//   constant a quantized constant (laid out where it is used); then the
//   QuantParamsMaker pass (QuantParamsMaker.h) makes the QDQ form
//   tensor-oriented, and the graph records that its quantized operators
//   compute ONNX's arithmetic (ir::Graph::Computes).
//
// A malformed model, or one using what the reader does not take, gets a
// one-line error naming the node ("node 3 'conv1' (Conv): ..."), never a
// crash. docs/onnx.md lists the operators and attributes taken.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_ONNXIMPORTER_H
#define ACCELGEN_IMPORT_ONNXIMPORTER_H

#include "import/ImportResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace onnx {
class TensorProto;
} // namespace onnx

namespace accelgen {
namespace onnximport {

/// The ONNX element type (TensorProto.DataType) of IR type \p T; 0
/// (UNDEFINED) for one ONNX's reader here does not take.
int32_t elementTypeOf(ir::DType T);

/// True if \p Bytes read as a serialized ONNX ModelProto at the top level:
/// ir_version first, as every writer puts it, then only ModelProto's fields
/// with their wire types, to the end of the bytes or (truncated) past it.
/// A TensorFlow Lite file (a 32-bit root offset, then "TFL3") does not.
bool looksLikeModel(llvm::ArrayRef<uint8_t> Bytes);

/// Imports the ONNX model in \p Bytes, its graphs computing \p Computes
/// (ONNX's arithmetic unless TensorFlow Lite's is asked for: where an
/// operator requantizes depends on it). Errors describe what is wrong and
/// where, without a file name (the caller knows it).
llvm::Expected<ImportResult>
importModel(llvm::ArrayRef<uint8_t> Bytes,
            ir::Arithmetic Computes = ir::Arithmetic::ONNX);

/// A tensor read from a serialized ONNX TensorProto (the `.pb` files of
/// ONNX's node tests): its ONNX dimensions, type and little-endian data.
struct TensorData {
  std::vector<int64_t> Dims;
  ir::DType Type = ir::DType::F32;
  std::vector<uint8_t> Data;
};
llvm::Expected<TensorData> readTensorProto(llvm::ArrayRef<uint8_t> Bytes);
/// The same of a parsed TensorProto (the reader's, and the QOperator
/// rewriting's, QOperatorForms.h).
llvm::Expected<TensorData> readTensor(const ::onnx::TensorProto &T);

} // namespace onnximport
} // namespace accelgen

#endif // ACCELGEN_IMPORT_ONNXIMPORTER_H
