//===- ProgramWriter.cpp - Serializing an accelerator program -------------===//
//
// Builds the FlatBuffers form of a Program with the code flatc generates
// from accel_program.fbs. Kernel parameters go field for field into their
// table of the Params union; constant buffers are aligned to 16 bytes, so the
// functional model can hand them to the kernels in place.
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "accel_program_generated.h"

#include <type_traits>

namespace accelgen {
namespace program {

namespace {

namespace fbs = accelgen::program::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

fbs::DType toFb(ir::DType T) { return static_cast<fbs::DType>(T); }

template <size_t N>
Offset<flatbuffers::Vector<int32_t>> dims(FlatBufferBuilder &B,
                                          const int32_t (&A)[N]) {
  return B.CreateVector(A, N);
}

/// A vector, or no field at all when \p V is empty (the kernels' null
/// pointer).
template <typename T>
Offset<flatbuffers::Vector<T>> optionalVector(FlatBufferBuilder &B,
                                              const std::vector<T> &V) {
  return V.empty() ? 0 : B.CreateVector(V);
}

/// The Params union member for \p Params.
std::pair<fbs::Params, Offset<void>> params(FlatBufferBuilder &B,
                                            const kernels::AnyParams &Params) {
  return std::visit(
      [&](const auto &P) -> std::pair<fbs::Params, Offset<void>> {
        using T = std::decay_t<decltype(P)>;
        if constexpr (std::is_same_v<T, kernels::Conv2DParams>) {
          const ref_conv2d_params &S = P.Scalars;
          return {fbs::Params::Conv2DParams,
                  fbs::CreateConv2DParams(
                      B, S.stride_h, S.stride_w, S.dilation_h, S.dilation_w,
                      S.pad_top, S.pad_left, S.input_offset, S.filter_offset,
                      S.output_offset, S.output_multiplier,
                      S.output_left_shift, optionalVector(B, P.Multipliers),
                      optionalVector(B, P.LeftShifts), S.act_min, S.act_max,
                      S.act_min_f, S.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, kernels::DepthwiseConv2DParams>) {
          const ref_depthwise_conv2d_params &S = P.Scalars;
          return {fbs::Params::DepthwiseConv2DParams,
                  fbs::CreateDepthwiseConv2DParams(
                      B, S.stride_h, S.stride_w, S.dilation_h, S.dilation_w,
                      S.pad_top, S.pad_left, S.depth_multiplier, S.input_offset,
                      S.filter_offset, S.output_offset, S.output_multiplier,
                      S.output_left_shift, optionalVector(B, P.Multipliers),
                      optionalVector(B, P.LeftShifts), S.act_min, S.act_max,
                      S.act_min_f, S.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, kernels::FullyConnectedParams>) {
          const ref_fully_connected_params &S = P.Scalars;
          return {fbs::Params::FullyConnectedParams,
                  fbs::CreateFullyConnectedParams(
                      B, S.input_offset, S.filter_offset, S.output_offset,
                      S.output_multiplier, S.output_left_shift,
                      optionalVector(B, P.Multipliers),
                      optionalVector(B, P.LeftShifts), S.act_min, S.act_max,
                      S.act_min_f, S.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_pool2d_params>) {
          return {fbs::Params::Pool2DParams,
                  fbs::CreatePool2DParams(B, P.stride_h, P.stride_w,
                                          P.filter_h, P.filter_w, P.pad_top,
                                          P.pad_left, P.act_min, P.act_max,
                                          P.act_min_f, P.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_elementwise_params>) {
          return {fbs::Params::ElementwiseParams,
                  fbs::CreateElementwiseParams(
                      B, P.input1_offset, P.input2_offset, P.output_offset,
                      P.input_left_shift, P.input1_multiplier,
                      P.input1_left_shift, P.input2_multiplier,
                      P.input2_left_shift, P.output_multiplier,
                      P.output_left_shift, P.act_min, P.act_max, P.act_min_f,
                      P.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_softmax_params>) {
          return {fbs::Params::SoftmaxParams,
                  fbs::CreateSoftmaxParams(B, P.input_multiplier,
                                           P.input_left_shift, P.diff_min,
                                           P.beta)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_quantize_params>) {
          return {fbs::Params::QuantizeParams,
                  fbs::CreateQuantizeParams(B, P.scale, P.zero_point).Union()};
        } else if constexpr (std::is_same_v<T, ref_dequantize_params>) {
          return {fbs::Params::DequantizeParams,
                  fbs::CreateDequantizeParams(B, P.scale, P.zero_point)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_requantize_params>) {
          return {fbs::Params::RequantizeParams,
                  fbs::CreateRequantizeParams(B, P.input_zero_point,
                                              P.output_zero_point,
                                              P.multiplier, P.left_shift)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_relu_params>) {
          return {fbs::Params::ReluParams,
                  fbs::CreateReluParams(B, P.input_zero_point,
                                        P.output_zero_point,
                                        P.output_multiplier,
                                        P.output_left_shift, P.act_min,
                                        P.act_max, P.act_min_f, P.act_max_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_leaky_relu_params>) {
          return {fbs::Params::LeakyReluParams,
                  fbs::CreateLeakyReluParams(
                      B, P.input_zero_point, P.output_zero_point,
                      P.identity_multiplier, P.identity_left_shift,
                      P.alpha_multiplier, P.alpha_left_shift, P.alpha)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_hard_swish_params>) {
          return {fbs::Params::HardSwishParams,
                  fbs::CreateHardSwishParams(
                      B, P.input_zero_point, P.output_zero_point,
                      P.reluish_multiplier, P.reluish_left_shift,
                      P.output_multiplier, P.output_left_shift)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_sigmoid_params>) {
          return {fbs::Params::SigmoidParams,
                  fbs::CreateSigmoidParams(B, P.input_zero_point,
                                           P.input_range_radius,
                                           P.input_multiplier,
                                           P.input_left_shift)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_pad_params>) {
          return {fbs::Params::PadParams,
                  fbs::CreatePadParams(B, dims(B, P.before), dims(B, P.after),
                                       P.pad_value, P.pad_value_f)
                      .Union()};
        } else if constexpr (std::is_same_v<T, kernels::ConcatParams>) {
          const ref_concat_params &S = P.Scalars;
          return {fbs::Params::ConcatParams,
                  fbs::CreateConcatParams(B, S.axis, S.num_inputs,
                                          optionalVector(B, P.InputScales),
                                          optionalVector(B, P.InputZeroPoints),
                                          S.output_scale, S.output_zero_point)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_mean_params>) {
          return {fbs::Params::MeanParams,
                  fbs::CreateMeanParams(B, P.axis_mask, P.same_quantization,
                                        P.input_zero_point,
                                        P.output_zero_point, P.multiplier,
                                        P.left_shift)
                      .Union()};
        } else if constexpr (std::is_same_v<T, ref_transpose_params>) {
          return {fbs::Params::TransposeParams,
                  fbs::CreateTransposeParams(B, dims(B, P.perm)).Union()};
        } else if constexpr (std::is_same_v<T, ref_strided_slice_params>) {
          return {fbs::Params::StridedSliceParams,
                  fbs::CreateStridedSliceParams(B, dims(B, P.start),
                                                dims(B, P.stop),
                                                dims(B, P.stride))
                      .Union()};
        } else {
          static_assert(std::is_same_v<T, kernels::ReshapeParams>,
                        "a kernel parameter type without a table");
          return {fbs::Params::ReshapeParams,
                  fbs::CreateReshapeParams(B, P.Bytes).Union()};
        }
      },
      Params);
}

Offset<fbs::Quantization> quantization(FlatBufferBuilder &B,
                                       const std::optional<ir::QuantParams> &Q) {
  if (!Q)
    return 0;
  return fbs::CreateQuantization(B, B.CreateVector(Q->Scales),
                                 B.CreateVector(Q->ZeroPoints), Q->Axis);
}

Offset<fbs::Tensor> tensor(FlatBufferBuilder &B, const Tensor &T) {
  return fbs::CreateTensor(
      B, T.Id, B.CreateString(T.Name), toFb(T.Type), B.CreateVector(T.Shape),
      quantization(B, T.Quant), toFb(T.DeviceType),
      quantization(B, T.DeviceQuant), static_cast<fbs::Layout>(T.TensorLayout),
      T.Bytes, T.ArenaOffset, static_cast<fbs::Memory>(T.Where),
      T.DeviceOffset, T.Buffer, T.Layer, T.Internal);
}

Offset<fbs::Op> op(FlatBufferBuilder &B, const Op &O) {
  auto [Type, Params] = params(B, O.Params);
  return fbs::CreateOp(B, O.SourceIndex, B.CreateString(O.Type),
                       B.CreateString(O.Kernel), Type, Params,
                       B.CreateVector(O.Inputs), B.CreateVector(O.Outputs),
                       O.ChannelAlign);
}

Offset<fbs::Layer> layer(FlatBufferBuilder &B, const Layer &L) {
  std::vector<Offset<fbs::Op>> Ops;
  for (const Op &O : L.Ops)
    Ops.push_back(op(B, O));
  return fbs::CreateLayer(B, B.CreateString(L.Type),
                          B.CreateString(L.SourceType), L.Index,
                          B.CreateVector(Ops), L.Cycles.value_or(-1.0));
}

Offset<fbs::Subgraph> subgraph(FlatBufferBuilder &B, const Subgraph &S) {
  std::vector<Offset<fbs::Tensor>> Tensors;
  for (const Tensor &T : S.Tensors)
    Tensors.push_back(tensor(B, T));
  std::vector<Offset<fbs::Layer>> Layers;
  for (const Layer &L : S.Layers)
    Layers.push_back(layer(B, L));
  return fbs::CreateSubgraph(
      B, S.Index, B.CreateVector(Tensors), B.CreateVector(S.Inputs),
      B.CreateVector(S.Outputs), B.CreateVector(S.ConvertIn),
      B.CreateVector(S.ConvertOut), B.CreateVector(Layers), S.Cycles,
      S.SwitchCycles, S.ScratchBytes);
}

} // namespace

std::vector<uint8_t> writeProgram(const Program &P) {
  FlatBufferBuilder B(1024);
  std::vector<Offset<fbs::Buffer>> Buffers;
  for (const std::vector<uint8_t> &Data : P.Buffers) {
    B.ForceVectorAlignment(Data.size(), 1, 16);
    Buffers.push_back(fbs::CreateBuffer(B, B.CreateVector(Data)));
  }
  std::vector<Offset<fbs::Subgraph>> Subgraphs;
  for (const Subgraph &S : P.Subgraphs)
    Subgraphs.push_back(subgraph(B, S));
  auto Root = fbs::CreateProgram(
      B, B.CreateString(P.Target), B.CreateString(P.Version),
      B.CreateString(P.Generator), B.CreateVector(Subgraphs),
      B.CreateVector(Buffers), P.ArenaBytes, P.ScratchBytes);
  fbs::FinishProgramBuffer(B, Root);
  return std::vector<uint8_t>(B.GetBufferPointer(),
                              B.GetBufferPointer() + B.GetSize());
}

llvm::StringRef layoutName(Layout L) {
  switch (L) {
  case Layout::NHWC:
    return "NHWC";
  case Layout::C4:
    return "4C";
  case Layout::C16:
    return "16C";
  }
  return "?";
}

} // namespace program
} // namespace accelgen
