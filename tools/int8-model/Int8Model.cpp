//===- Int8Model.cpp - uint8 models rewritten with int8 tensors -----------===//
#include "Int8Model.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

using namespace llvm;

namespace accelgen {
namespace int8model {

namespace {

Error fail(const ir::Graph &G, int32_t T, const Twine &Why) {
  return createStringError(
      inconvertibleErrorCode(),
      formatv("tensor {0} '{1}': {2}", T, G.tensor(T).Name, Why.str()).str());
}

/// The weight operand's output-channel axis for operator \p Op, or -1 when
/// its input 1 is not a weight to requantize per channel.
int32_t weightAxis(const ir::Operator &Op) {
  switch (Op.code()) {
  case ir::OpCode::Conv2D:
  case ir::OpCode::FullyConnected:
    return 0;
  case ir::OpCode::DepthwiseConv2D:
    return 3;
  default:
    return -1;
  }
}

/// Weight \p W (uint8, per tensor) requantized symmetric per channel along
/// \p Axis; the new scales.
std::vector<float> requantizeWeights(ir::Tensor &W, int32_t Axis) {
  const float Scale = W.Quant->scale();
  const int64_t Zero = W.Quant->zeroPoint();
  const int64_t Channels = W.Shape[Axis];
  int64_t Inner = 1;
  for (size_t D = Axis + 1; D < W.Shape.size(); ++D)
    Inner *= W.Shape[D];
  auto ChannelOf = [&](int64_t I) { return I / Inner % Channels; };
  std::vector<int64_t> Largest(Channels, 0);
  for (int64_t I = 0; I < W.numElements(); ++I)
    Largest[ChannelOf(I)] =
        std::max<int64_t>(Largest[ChannelOf(I)], std::llabs(W.Data[I] - Zero));
  std::vector<float> Scales(Channels);
  for (int64_t C = 0; C < Channels; ++C)
    // A channel of zeros keeps the old scale (any positive one would do).
    Scales[C] =
        Largest[C] ? Scale * static_cast<float>(Largest[C]) / 127.0f : Scale;
  for (int64_t I = 0; I < W.numElements(); ++I) {
    const double Real = double(Scale) * double(W.Data[I] - Zero);
    const double Q = std::nearbyint(Real / Scales[ChannelOf(I)]);
    W.Data[I] =
        static_cast<uint8_t>(static_cast<int8_t>(std::clamp(Q, -127.0, 127.0)));
  }
  W.Type = ir::DType::I8;
  W.Quant->Scales = Scales;
  W.Quant->ZeroPoints.assign(Channels, 0);
  W.Quant->Axis = Axis;
  return Scales;
}

} // namespace

Error toInt8(ir::Graph &G) {
  // The weights first, with their biases, from the input scale of their
  // operator (read before anything changes).
  std::map<int32_t, ir::OpCode> WeightOf;
  for (const ir::Operator &Op : G.Operators) {
    const int32_t Axis = weightAxis(Op);
    if (Axis < 0 || Op.Inputs.size() < 2 || Op.Inputs[1] < 0)
      continue;
    const int32_t W = Op.Inputs[1];
    ir::Tensor &WT = G.Tensors[W];
    // A weight requantized for an earlier operator (now int8).
    auto Seen = WeightOf.find(W);
    if (Seen != WeightOf.end()) {
      if (Seen->second != Op.code())
        return fail(G, W, "a weight shared by operators of different kinds");
      continue;
    }
    if (WT.Type != ir::DType::U8)
      continue;
    WeightOf.emplace(W, Op.code());
    if (!WT.IsConstant || !WT.Quant || WT.Quant->isPerChannel() ||
        WT.Data.size() != static_cast<size_t>(WT.byteSize()) ||
        static_cast<size_t>(Axis) >= WT.Shape.size())
      return fail(G, W, "not a constant uint8 weight quantized per tensor");
    const ir::Tensor &In = G.tensor(Op.Inputs[0]);
    if (!In.Quant)
      return fail(G, Op.Inputs[0], "a uint8 input without quantization");
    const double InScale = In.Quant->scale();
    const double OldScale = WT.Quant->scale();
    const std::vector<float> Scales = requantizeWeights(WT, Axis);
    if (Op.Inputs.size() < 3 || Op.Inputs[2] < 0)
      continue;
    ir::Tensor &B = G.Tensors[Op.Inputs[2]];
    if (!B.IsConstant || B.Type != ir::DType::I32 ||
        B.numElements() != static_cast<int64_t>(Scales.size()) ||
        B.Data.size() != static_cast<size_t>(B.byteSize()))
      return fail(G, Op.Inputs[2], "not a constant int32 bias per channel");
    std::vector<float> BiasScales;
    for (size_t C = 0; C < Scales.size(); ++C) {
      int32_t V;
      std::memcpy(&V, B.Data.data() + 4 * C, 4);
      const double Real = double(V) * InScale * OldScale;
      const double NewScale = InScale * double(Scales[C]);
      const double Q = std::nearbyint(Real / NewScale);
      V = static_cast<int32_t>(std::clamp(Q, -2147483648.0, 2147483647.0));
      std::memcpy(B.Data.data() + 4 * C, &V, 4);
      BiasScales.push_back(static_cast<float>(NewScale));
    }
    B.Quant =
        ir::QuantParams{BiasScales, std::vector<int64_t>(Scales.size(), 0), 0};
  }
  // Every other uint8 tensor: the same reals, 128 lower.
  for (size_t T = 0; T < G.Tensors.size(); ++T) {
    ir::Tensor &Ten = G.Tensors[T];
    if (Ten.Type != ir::DType::U8)
      continue;
    if (!Ten.Quant)
      return fail(G, static_cast<int32_t>(T),
                  "a uint8 tensor without quantization");
    for (int64_t &Z : Ten.Quant->ZeroPoints)
      Z -= 128;
    for (uint8_t &V : Ten.Data)
      V ^= 0x80;
    Ten.Type = ir::DType::I8;
  }
  return Error::success();
}

} // namespace int8model
} // namespace accelgen
