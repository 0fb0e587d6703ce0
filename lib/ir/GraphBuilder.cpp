//===- GraphBuilder.cpp - Building a Graph IR graph by hand ---------------===//

#include "ir/GraphBuilder.h"

namespace accelgen {
namespace ir {

QuantParams perTensor(float Scale, int64_t ZeroPoint) {
  QuantParams Q;
  Q.Scales = {Scale};
  Q.ZeroPoints = {ZeroPoint};
  return Q;
}

QuantParams perChannel(std::vector<float> Scales, int32_t Axis) {
  QuantParams Q;
  Q.ZeroPoints.assign(Scales.size(), 0);
  Q.Scales = std::move(Scales);
  Q.Axis = Axis;
  return Q;
}

int32_t GraphBuilder::tensor(std::string Name, std::vector<int32_t> Shape,
                             std::optional<QuantParams> Q, DType Type) {
  Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = Type;
  T.Quant = std::move(Q);
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

int32_t GraphBuilder::constant(std::string Name, std::vector<int32_t> Shape,
                               std::optional<QuantParams> Q, DType Type) {
  int32_t T = tensor(std::move(Name), std::move(Shape), std::move(Q), Type);
  G.Tensors[T].IsConstant = true;
  G.Tensors[T].Data.assign(static_cast<size_t>(G.Tensors[T].byteSize()), 0);
  return T;
}

int32_t GraphBuilder::tensor(DType Type, std::vector<int32_t> Shape,
                             std::optional<float> Scale, int64_t ZeroPoint) {
  std::optional<QuantParams> Q;
  if (Scale)
    Q = perTensor(*Scale, ZeroPoint);
  return tensor("t" + std::to_string(G.Tensors.size()), std::move(Shape),
                std::move(Q), Type);
}

void GraphBuilder::setData(int32_t T, const void *Data, size_t Bytes) {
  Tensor &X = G.Tensors[T];
  X.IsConstant = true;
  X.Data.resize(Bytes);
  if (Bytes)
    std::memcpy(X.Data.data(), Data, Bytes);
}

void GraphBuilder::perChannel(int32_t T, std::vector<float> Scales,
                              int32_t Axis) {
  G.Tensors[T].Quant = ir::perChannel(std::move(Scales), Axis);
}

Operator &GraphBuilder::op(std::string Type, std::vector<int32_t> Inputs,
                           std::vector<int32_t> Outputs,
                           std::map<std::string, AttrValue> Attrs) {
  Operator O;
  O.Type = std::move(Type);
  O.Inputs = std::move(Inputs);
  O.Outputs = std::move(Outputs);
  O.Attrs = std::move(Attrs);
  G.Operators.push_back(std::move(O));
  return G.Operators.back();
}

int32_t GraphBuilder::varHandle(const std::string &SharedName) {
  const int32_t H = tensor("handle_" + SharedName, {}, std::nullopt, DType::I32);
  G.Tensors[static_cast<size_t>(H)].IsResource = true;
  op("VAR_HANDLE", {}, {H},
     {{attr::Container.str(), std::string()},
      {attr::SharedName.str(), SharedName}});
  return H;
}

} // namespace ir
} // namespace accelgen
