//===- GraphBuilder.h - Building a Graph IR graph by hand -----------------===//
//
// Adds tensors (quantized or not, constant with their bytes) and operators
// to a graph one at a time: what tests, fuzzers and the example generator
// write instead of a model file. It checks nothing; run verifyGraph() on the
// result where that matters.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_GRAPHBUILDER_H
#define ACCELGEN_IR_GRAPHBUILDER_H

#include "ir/Graph.h"

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace ir {

/// Per-tensor quantization: one scale and zero point.
QuantParams perTensor(float Scale, int64_t ZeroPoint);
/// Per-channel quantization along \p Axis, every zero point 0.
QuantParams perChannel(std::vector<float> Scales, int32_t Axis);

/// Builds \p G tensor by tensor and operator by operator. Tensors are named
/// by the caller or, when created from their type first, "t<index>".
class GraphBuilder {
public:
  /// A tensor named \p Name.
  int32_t tensor(std::string Name, std::vector<int32_t> Shape,
                 std::optional<QuantParams> Q = std::nullopt,
                 DType Type = DType::I8);
  /// A constant tensor named \p Name, every byte zero.
  int32_t constant(std::string Name, std::vector<int32_t> Shape,
                   std::optional<QuantParams> Q = std::nullopt,
                   DType Type = DType::I8);
  /// A constant tensor named \p Name holding \p Values, stored as their
  /// bytes in host order (little-endian, as the IR's constants are).
  template <typename V>
  int32_t constant(std::string Name, std::vector<int32_t> Shape,
                   std::optional<QuantParams> Q, DType Type,
                   const std::vector<V> &Values) {
    int32_t I = tensor(std::move(Name), std::move(Shape), std::move(Q), Type);
    setData(I, Values.data(), Values.size() * sizeof(V));
    return I;
  }

  /// A tensor named "t<index>", per-tensor quantized when \p Scale is given.
  int32_t tensor(DType Type, std::vector<int32_t> Shape,
                 std::optional<float> Scale = std::nullopt,
                 int64_t ZeroPoint = 0);
  /// A constant tensor named "t<index>" holding \p Values, stored as their
  /// bytes in host order (little-endian, as the IR's constants are).
  template <typename V>
  int32_t constant(DType Type, std::vector<int32_t> Shape,
                   const std::vector<V> &Values,
                   std::optional<float> Scale = std::nullopt,
                   int64_t ZeroPoint = 0) {
    int32_t I = tensor(Type, std::move(Shape), Scale, ZeroPoint);
    setData(I, Values.data(), Values.size() * sizeof(V));
    return I;
  }
  /// Makes tensor \p T constant with the \p Bytes bytes at \p Data.
  void setData(int32_t T, const void *Data, size_t Bytes);
  /// Quantizes tensor \p T per channel along \p Axis (zero points 0).
  void perChannel(int32_t T, std::vector<float> Scales, int32_t Axis);

  /// Appends an operator; the reference is valid until the next op().
  Operator &op(std::string Type, std::vector<int32_t> Inputs,
               std::vector<int32_t> Outputs,
               std::map<std::string, AttrValue> Attrs = {});

  /// A VAR_HANDLE naming variable \p SharedName (container ""); returns the
  /// resource handle it writes, "handle_<name>".
  int32_t varHandle(const std::string &SharedName);
  GraphBuilder &inputs(std::vector<int32_t> T) {
    G.Inputs = std::move(T);
    return *this;
  }
  GraphBuilder &outputs(std::vector<int32_t> T) {
    G.Outputs = std::move(T);
    return *this;
  }

  Graph G;
};

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_GRAPHBUILDER_H
