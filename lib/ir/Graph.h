//===- Graph.h - accelgen's Graph IR
//---------------------------------------===//
//
// The Graph IR every stage of accelgen works on: tensors with their shapes,
// element types, constant data and quantization, and operators with typed
// attributes that read and write tensors by index. Quantization lives on the
// tensor ("tensor-oriented"): an operator finds the parameters of its operands
// on the tensors themselves.
//
// Operators are named by their canonical type, the TensorFlow Lite builtin name
// ("CONV_2D"), whose OpCode (ir/OpCode.h, generated from defs/ops.td) code()
// gives; after legalization they carry a target operator name instead
// ("MDLA_CONV_2D"), which has no OpCode. An operator the importer does not know
// is kept as an opaque node (`Operator::Opaque`) with its builtin code, version
// and raw options, so that later stages can keep it on the CPU and say why.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_GRAPH_H
#define ACCELGEN_IR_GRAPH_H

#include "ir/DType.h"
#include "ir/OpCode.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace accelgen {
namespace ir {

/// Affine quantization: real = scale * (q - zero_point), per tensor or per
/// channel along `Axis`.
struct QuantParams {
  std::vector<float> Scales;
  std::vector<int64_t> ZeroPoints;
  /// The channel axis for per-channel parameters; 0 for per-tensor ones.
  int32_t Axis = 0;

  /// True when there is one scale per channel along `Axis`.
  bool isPerChannel() const { return Scales.size() > 1; }
  float scale() const { return Scales.empty() ? 0.0f : Scales.front(); }
  int64_t zeroPoint() const {
    return ZeroPoints.empty() ? 0 : ZeroPoints.front();
  }
};

/// A value in the graph: an activation, a graph input, or a constant.
struct Tensor {
  std::string Name;
  std::vector<int32_t> Shape;
  DType Type = DType::F32;
  std::optional<QuantParams> Quant;
  /// True when the tensor has constant data (weights, biases, shapes).
  bool IsConstant = false;
  /// The constant data, little-endian, `byteSize()` bytes; empty otherwise.
  std::vector<uint8_t> Data;
  /// True for state tensors an operator updates in place (LSTM state).
  bool IsVariable = false;
  /// A constant int8 tensor the model file stores as packed int4 (two
  /// values per byte, the first in the low nibble), as TensorFlow Lite's
  /// int4 weights: Data holds one int8 in [-8, 7] per element, unpacked as
  /// the reference kernels unpack them; the writer packs it again.
  bool PackedInt4 = false;
  /// A resource handle (TensorFlow Lite's RESOURCE): an int32 scalar a
  /// VAR_HANDLE writes, naming one of the model's variables.
  bool IsResource = false;

  /// The element count; -1 for a negative dimension and INT64_MAX when the
  /// product overflows (both rejected by the verifier).
  int64_t numElements() const;
  /// The size in bytes; only meaningful on a verified tensor.
  int64_t byteSize() const { return numElements() * dtypeSize(Type); }
  /// The byte every byte of a variable tensor holds before the first
  /// invocation and after a reset: the zero point of an int8 tensor, 0
  /// otherwise, as TensorFlow Lite Micro's ResetVariableTensors sets them.
  uint8_t stateFillByte() const;
  unsigned rank() const { return static_cast<unsigned>(Shape.size()); }
  /// Element \p I of a constant int32 or int64 tensor; std::nullopt for
  /// another tensor or an index outside its data.
  std::optional<int64_t> intAt(int64_t I) const;
};

/// The value of an operator attribute.
using AttrValue =
    std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;

/// An operator: its canonical type, operands and attributes.
struct Operator {
  /// Canonical type ("CONV_2D"), or a target operator after legalization.
  std::string Type;
  /// Operator version as written by the converter (TensorFlow Lite op version).
  int32_t Version = 1;
  /// Tensor indices read, in the operator's operand order; -1 marks an omitted
  /// optional operand.
  std::vector<int32_t> Inputs;
  /// Tensor indices written.
  std::vector<int32_t> Outputs;
  /// Typed attributes by name, in a stable (sorted) order.
  std::map<std::string, AttrValue> Attrs;

  /// True for an operator the importer could not interpret.
  bool Opaque = false;
  /// The source format's operator code (TFLite builtin code), for diagnostics.
  int32_t BuiltinCode = -1;
  /// The custom operator name, for TFLite CUSTOM operators.
  std::string CustomCode;
  /// The undecoded options of an opaque operator: the options tag and bytes.
  int32_t RawOptionsTag = 0;
  std::vector<uint8_t> RawOptions;

  /// The canonical operator Type names; Unknown for an opaque operator and a
  /// target operator.
  OpCode code() const;

  bool hasAttr(llvm::StringRef Name) const;
  /// Sets attribute \p Name (an ir::attr constant for canonical operators).
  void setAttr(llvm::StringRef Name, AttrValue Value) {
    Attrs[Name.str()] = std::move(Value);
  }
  /// Integer attribute, or \p Default if absent or of another type.
  int64_t getInt(llvm::StringRef Name, int64_t Default = 0) const;
  double getFloat(llvm::StringRef Name, double Default = 0.0) const;
  bool getBool(llvm::StringRef Name, bool Default = false) const;
  std::string getString(llvm::StringRef Name,
                        llvm::StringRef Default = "") const;
  std::vector<int64_t> getInts(llvm::StringRef Name) const;

  /// Input tensor index \p I, or -1 if absent or omitted.
  int32_t input(unsigned I) const { return I < Inputs.size() ? Inputs[I] : -1; }
  int32_t output(unsigned I) const {
    return I < Outputs.size() ? Outputs[I] : -1;
  }
};

/// A dataflow graph: a TensorFlow Lite subgraph.
/// The integer arithmetic of quantized operators.
enum class Arithmetic {
  /// TensorFlow Lite's: fixed-point multipliers and shifts, rounding half
  /// away from zero.
  TFLite,
  /// ONNX's (its QLinear operators, as ONNX Runtime computes them):
  /// requantization in float32, rounding half to even.
  ONNX,
};

struct Graph {
  std::string Name;
  std::vector<Tensor> Tensors;
  std::vector<Operator> Operators;
  std::vector<int32_t> Inputs;
  std::vector<int32_t> Outputs;
  /// The arithmetic its quantized operators compute: the model's, unless
  /// the compilation is told otherwise (`--onnx-arithmetic tflite`). The
  /// kernel families' builders choose their functions by it, and targets
  /// that compute another refuse the operators (docs/onnx.md).
  Arithmetic Computes = Arithmetic::TFLite;

  const Tensor &tensor(int32_t Index) const { return Tensors.at(Index); }
  Tensor &tensor(int32_t Index) { return Tensors.at(Index); }
  bool isValidTensor(int32_t Index) const {
    return Index >= 0 && static_cast<size_t>(Index) < Tensors.size();
  }
};

/// A whole model: its graphs (the first is the main one) and metadata.
struct Model {
  std::string Description;
  uint32_t SchemaVersion = 0;
  std::vector<Graph> Graphs;

  const Graph &main() const { return Graphs.front(); }
  Graph &main() { return Graphs.front(); }
};

/// The row shift p of an operator whose stripe transform is shifted
/// (RowKind::Shifted, PAD): the padding before dimension 1, element [1][0]
/// of operand 1 (the constant [rank][2] paddings); std::nullopt when that is
/// not a constant of rank 4 x 2 with values in [0, 2^15).
std::optional<int32_t> rowShift(const Graph &G, const Operator &Op);

/// \p Count int8 values from packed int4 \p Packed (two per byte, the
/// first in the low nibble, each sign-extended), and back.
std::vector<uint8_t> unpackInt4(llvm::ArrayRef<uint8_t> Packed, int64_t Count);
std::vector<uint8_t> packInt4(llvm::ArrayRef<uint8_t> Values);

/// \p Data, elements of \p ElementSize bytes in dimensions \p Dims,
/// transposed so that result dimension I is source dimension \p Perm[I]
/// (a permutation of the dimensions; \p Data holds all the elements).
std::vector<uint8_t> transposeElements(llvm::ArrayRef<uint8_t> Data,
                                       llvm::ArrayRef<int64_t> Dims,
                                       llvm::ArrayRef<int32_t> Perm,
                                       size_t ElementSize);

/// Formats an attribute value for people: 3, 0.5, true, SAME, [1,2].
std::string formatAttr(const AttrValue &V);

/// Formats a shape as "1x96x96x3" ("scalar" for rank 0).
std::string formatShape(const std::vector<int32_t> &Shape);

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_GRAPH_H
