//===- GraphBuilder.h - One-operator graphs for the kernel tests ----------===//
//
// Builds small Graph IR graphs by hand (tensors with quantization and
// constant data, one or a few operators) and runs them through KernelParams
// and the C kernels, so each operator can be checked on inputs chosen for it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_KERNELS_GRAPHBUILDER_H
#define ACCELGEN_TESTS_KERNELS_GRAPHBUILDER_H

#include "ModelRunner.h"
#include "TestSupport.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace test {

/// Builds a graph one tensor and operator at a time.
class GraphBuilder {
public:
  /// A non-constant tensor; quantized when \p Scale is given.
  int32_t tensor(ir::DType T, std::vector<int32_t> Shape,
                 std::optional<float> Scale = std::nullopt,
                 int64_t ZeroPoint = 0) {
    ir::Tensor X;
    X.Name = "t" + std::to_string(G.Tensors.size());
    X.Type = T;
    X.Shape = std::move(Shape);
    if (Scale) {
      ir::QuantParams Q;
      Q.Scales = {*Scale};
      Q.ZeroPoints = {ZeroPoint};
      X.Quant = Q;
    }
    G.Tensors.push_back(std::move(X));
    return static_cast<int32_t>(G.Tensors.size() - 1);
  }

  /// A constant tensor holding \p Values (element type \p T, little-endian).
  template <typename V>
  int32_t constant(ir::DType T, std::vector<int32_t> Shape,
                   const std::vector<V> &Values,
                   std::optional<float> Scale = std::nullopt,
                   int64_t ZeroPoint = 0) {
    int32_t I = tensor(T, std::move(Shape), Scale, ZeroPoint);
    ir::Tensor &X = G.Tensors[I];
    X.IsConstant = true;
    const auto *Bytes = reinterpret_cast<const uint8_t *>(Values.data());
    X.Data.assign(Bytes, Bytes + Values.size() * sizeof(V));
    return I;
  }

  /// Per-channel quantization along \p Axis for tensor \p T.
  void perChannel(int32_t T, std::vector<float> Scales, int32_t Axis) {
    ir::QuantParams Q;
    Q.ZeroPoints.assign(Scales.size(), 0);
    Q.Scales = std::move(Scales);
    Q.Axis = Axis;
    G.Tensors[T].Quant = Q;
  }

  ir::Operator &op(std::string Type, std::vector<int32_t> Inputs,
                   std::vector<int32_t> Outputs) {
    ir::Operator O;
    O.Type = std::move(Type);
    O.Inputs = std::move(Inputs);
    O.Outputs = std::move(Outputs);
    G.Operators.push_back(std::move(O));
    return G.Operators.back();
  }

  ir::Graph G;
};

/// Runs the single operator of \p G on \p Inputs (tensor index, bytes) and
/// returns the bytes of its output; fails the test on any error.
inline std::vector<uint8_t>
runSingle(const ir::Graph &G,
          const std::vector<std::pair<int32_t, std::vector<uint8_t>>> &Inputs) {
  auto R = ModelRunner::create(G);
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  TensorBuffers B = R->initialBuffers();
  for (const auto &[T, Bytes] : Inputs)
    B[T] = Bytes;
  llvm::Error E = R->runOperator(0, B);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  return B[G.Operators[0].output(0)];
}

/// The bytes of a vector of scalars.
template <typename V> std::vector<uint8_t> bytesOf(const std::vector<V> &Vs) {
  std::vector<uint8_t> B(Vs.size() * sizeof(V));
  std::memcpy(B.data(), Vs.data(), B.size());
  return B;
}

/// The scalars in a byte buffer.
template <typename V> std::vector<V> valuesOf(const std::vector<uint8_t> &B) {
  std::vector<V> Vs(B.size() / sizeof(V));
  std::memcpy(Vs.data(), B.data(), Vs.size() * sizeof(V));
  return Vs;
}

/// The error message computeKernelCall gives for operator 0 of \p G (empty
/// on success).
inline std::string kernelError(const ir::Graph &G) {
  auto Call = kernels::computeKernelCall(G, G.Operators.at(0));
  if (Call)
    return "";
  return llvm::toString(Call.takeError());
}

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_KERNELS_GRAPHBUILDER_H
