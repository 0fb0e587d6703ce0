//===- ConvParams.cpp - CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, pools ===//
//
// Parameters of the sliding-window and matrix operators: requantization
// multipliers (per channel in double, or the legacy float product), zero-point
// offsets, SAME / VALID padding and the fused-activation clamp.
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace accelgen {
namespace kernels {
namespace detail {

using ir::DType;
using ir::Tensor;

namespace {

/// The bias of a convolution-like operator: its type and size, and for
/// 16x8 (sums of \p Depth products at most) its values.
llvm::Error checkBias(const OpContext &Ctx, const Tensor *Bias, DType DataType,
                      int32_t Channels, int64_t Depth) {
  if (DataType == DType::I16)
    if (llvm::Error E = requireWideSumsFit(
            Ctx, Bias && Bias->Type == DType::I64 ? Bias : nullptr, Depth))
      return E;
  if (!Bias)
    return llvm::Error::success();
  // 16x8 kernels accumulate in 64 bits; their bias is int64.
  DType Want = DataType == DType::F32   ? DType::F32
               : DataType == DType::I16 ? DType::I64
                                        : DType::I32;
  if (Bias->Type != Want)
    return Ctx.error(llvm::formatv("bias '{0}' is {1}; the kernel needs {2}",
                                   Bias->Name, ir::dtypeName(Bias->Type),
                                   ir::dtypeName(Want)));
  if (Bias->numElements() != Channels)
    return Ctx.error(llvm::formatv("bias '{0}' has {1} elements for {2} output "
                                   "channels",
                                   Bias->Name, Bias->numElements(), Channels));
  return llvm::Error::success();
}

/// Requantization of a convolution-like operator's accumulator: per channel
/// double(input_scale) * double(filter_scale[c]) / double(output_scale), as
/// TensorFlow Lite's PopulateConvolutionQuantizationParams.
llvm::Error perChannelMultipliers(const OpContext &Ctx, float InputScale,
                                  llvm::ArrayRef<float> FilterScales,
                                  float OutputScale, std::vector<int32_t> &Mult,
                                  std::vector<int32_t> &Shift) {
  for (float FS : FilterScales) {
    ACCELGEN_TRY(
        Q, Ctx.multiplier(double(InputScale) * double(FS) / double(OutputScale),
                          "input scale * filter scale / output scale"));
    Mult.push_back(Q.Multiplier);
    Shift.push_back(Q.LeftShift);
  }
  return llvm::Error::success();
}

/// The legacy per-tensor multiplier (GetQuantizedConvolutionMultipler): the
/// input and filter scales multiplied in float, then divided in double.
llvm::Expected<QuantizedMultiplier> legacyMultiplier(const OpContext &Ctx,
                                                     float InputScale,
                                                     float FilterScale,
                                                     float OutputScale) {
  const float Product = InputScale * FilterScale;
  return Ctx.multiplier(double(Product) / double(OutputScale),
                        "input scale * filter scale / output scale");
}

/// The filter's scales and the filter zero point, checked for a kernel with
/// \p Channels output channels along \p ChannelAxis.
struct FilterQuant {
  std::vector<float> Scales;
  int32_t ZeroPoint = 0;
  bool PerChannel = false;
};

llvm::Expected<FilterQuant> filterQuant(const OpContext &Ctx, const Tensor &F,
                                        int32_t Channels, int32_t ChannelAxis) {
  if (!F.Quant || F.Quant->Scales.empty())
    return Ctx.error("filter tensor '" + F.Name + "' is not quantized");
  FilterQuant Q;
  Q.Scales = F.Quant->Scales;
  for (float S : Q.Scales)
    if (llvm::Error E = Ctx.checkScale(S, F, "filter"))
      return E;
  Q.PerChannel = Q.Scales.size() > 1;
  if (Q.PerChannel) {
    if (static_cast<int64_t>(Q.Scales.size()) != Channels ||
        F.Quant->Axis != ChannelAxis)
      return Ctx.error(llvm::formatv(
          "filter '{0}' has {1} scales along axis {2}; per-channel "
          "quantization needs {3} along axis {4}",
          F.Name, Q.Scales.size(), F.Quant->Axis, Channels, ChannelAxis));
    for (int64_t ZP : F.Quant->ZeroPoints)
      if (ZP != 0)
        return Ctx.error("per-channel filter '" + F.Name +
                         "' has a non-zero zero point");
  } else {
    int64_t ZP = F.Quant->zeroPoint();
    if (ZP < quantizedMin(F.Type) || ZP > quantizedMax(F.Type))
      return Ctx.error(llvm::formatv("filter '{0}' has zero point {1}, outside "
                                     "its type",
                                     F.Name, ZP));
    Q.ZeroPoint = static_cast<int32_t>(ZP);
    if (F.Type == DType::I8 && Q.ZeroPoint != 0)
      return Ctx.error("int8 filter '" + F.Name +
                       "' has a non-zero zero point (int8 weights are "
                       "symmetric)");
  }
  return Q;
}

/// What conv, depthwise conv and fully connected share: types, quantization
/// of input and output, requantization multipliers and the clamp.
struct ConvLikeQuant {
  int32_t InputOffset = 0, FilterOffset = 0, OutputOffset = 0;
  QuantizedMultiplier PerTensor;
  std::vector<int32_t> Multipliers, LeftShifts;
  bool PerChannel = false;
  /// ONNX's arithmetic: the float32 requantization scale of each channel,
  /// and the functions that take it (the "onnx" variant).
  std::vector<float> FloatScales;
  bool Onnx = false;
  /// The int32 sums are the output (ONNX's ConvInteger, MatMulInteger):
  /// the "integer" variant, requantized by nothing.
  bool Integer = false;
  int32_t ActMin = 0, ActMax = 0;
  float ActMinF = 0, ActMaxF = 0;

  /// The variant of the family's functions these parameters are for.
  const char *variant() const {
    return Integer      ? "integer"
           : Onnx       ? "onnx"
           : PerChannel ? "per_channel"
                        : "";
  }
};

/// The int32 sums of uint8 operands written as they are: the output must
/// be int32 of scale input scale * filter scale (their float product) and
/// zero point 0, so that it means what the sums mean, with no activation.
llvm::Expected<ConvLikeQuant>
integerSums(const OpContext &Ctx, const Tensor &In, const Tensor &Filter,
            const Tensor &Out, int32_t Channels, int32_t ChannelAxis) {
  if (In.Type != DType::U8 || Filter.Type != DType::U8)
    return Ctx.error(llvm::formatv(
        "input {0} and filter {1} into int32 sums: the kernels take uint8 "
        "input and filter only",
        ir::dtypeName(In.Type), ir::dtypeName(Filter.Type)));
  auto InQ = Ctx.quant(In, "input");
  if (!InQ)
    return InQ.takeError();
  auto FQ = filterQuant(Ctx, Filter, Channels, ChannelAxis);
  if (!FQ)
    return FQ.takeError();
  if (FQ->PerChannel)
    return Ctx.error("int32 sums take a per-tensor filter only");
  const float Scale = InQ->Scale * FQ->Scales[0];
  if (!Out.Quant || Out.Quant->Scales.size() != 1 ||
      Out.Quant->Scales[0] != Scale || Out.Quant->zeroPoint() != 0)
    return Ctx.error(llvm::formatv(
        "int32 output '{0}' holds the sums unscaled, so it must be quantized "
        "with scale {1} (input scale * filter scale) and zero point 0",
        Out.Name, formatReal(Scale)));
  if (Ctx.activation() != "NONE")
    return Ctx.error("int32 sums take no fused activation");
  ConvLikeQuant R;
  R.Integer = true;
  R.InputOffset = -InQ->ZeroPoint;
  R.FilterOffset = -FQ->ZeroPoint;
  return R;
}

/// \p PerTensorDouble selects how a per-tensor int8 multiplier is computed:
/// in double like the per-channel ones (CONV_2D, DEPTHWISE_CONV_2D in
/// TensorFlow Lite Micro) or with the legacy float product (FULLY_CONNECTED,
/// and every uint8 operator).
llvm::Expected<ConvLikeQuant>
convLikeQuant(const OpContext &Ctx, const Tensor &In, const Tensor &Filter,
              const Tensor &Out, int32_t Channels, int32_t ChannelAxis,
              bool PerTensorDouble) {
  if (Out.Type == DType::I32)
    return integerSums(Ctx, In, Filter, Out, Channels, ChannelAxis);
  ConvLikeQuant R;
  if (In.Type == DType::F32) {
    if (Filter.Type != DType::F32 || Out.Type != DType::F32)
      return Ctx.error("float input needs float filter and output (hybrid "
                       "quantization is not supported)");
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), R.ActMinF, R.ActMaxF))
      return Ctx.error(llvm::toString(std::move(E)));
    return R;
  }
  // 16x8: int16 activations, int8 weights.
  const bool Wide = In.Type == DType::I16;
  if (!(isQuantized8(In.Type) || Wide) ||
      Filter.Type != (Wide ? DType::I8 : In.Type) || Out.Type != In.Type)
    return Ctx.error(llvm::formatv(
        "input {0}, filter {1} and output {2}: the kernels take int8 or uint8 "
        "throughout, or int16 activations with int8 weights",
        ir::dtypeName(In.Type), ir::dtypeName(Filter.Type),
        ir::dtypeName(Out.Type)));
  auto InQ = Ctx.quant(In, "input");
  if (!InQ)
    return InQ.takeError();
  auto OutQ = Ctx.quant(Out, "output");
  if (!OutQ)
    return OutQ.takeError();
  auto FQ = filterQuant(Ctx, Filter, Channels, ChannelAxis);
  if (!FQ)
    return FQ.takeError();
  R.InputOffset = -InQ->ZeroPoint;
  R.FilterOffset = -FQ->ZeroPoint;
  R.OutputOffset = OutQ->ZeroPoint;
  if (Ctx.arithmetic() == ir::Arithmetic::ONNX && !Wide) {
    // As ONNX Runtime's QLinearConv and QGemm: input scale times filter
    // scale, divided by the output scale, in float32.
    R.Onnx = true;
    for (int32_t C = 0; C < Channels; ++C) {
      const float Product =
          InQ->Scale * FQ->Scales[FQ->PerChannel ? size_t(C) : 0];
      const float Scale = Product / OutQ->Scale;
      if (!(Scale > 0.0f) || !std::isfinite(Scale))
        return Ctx.error(llvm::formatv(
            "channel {0}: input scale * filter scale / output scale is {1}, "
            "not a positive finite float",
            C, Scale));
      R.FloatScales.push_back(Scale);
    }
  } else if (In.Type == DType::U8) {
    if (FQ->PerChannel)
      return Ctx.error("uint8 kernels take per-tensor filters only");
    ACCELGEN_TRY(M,
                 legacyMultiplier(Ctx, InQ->Scale, FQ->Scales[0], OutQ->Scale));
    R.PerTensor = M;
  } else if (FQ->PerChannel) {
    R.PerChannel = true;
    if (llvm::Error E =
            perChannelMultipliers(Ctx, InQ->Scale, FQ->Scales, OutQ->Scale,
                                  R.Multipliers, R.LeftShifts))
      return std::move(E);
  } else if (PerTensorDouble) {
    std::vector<int32_t> M, S;
    if (llvm::Error E = perChannelMultipliers(Ctx, InQ->Scale, FQ->Scales,
                                              OutQ->Scale, M, S))
      return std::move(E);
    R.PerTensor.Multiplier = M[0];
    R.PerTensor.LeftShift = S[0];
  } else {
    ACCELGEN_TRY(M,
                 legacyMultiplier(Ctx, InQ->Scale, FQ->Scales[0], OutQ->Scale));
    R.PerTensor = M;
  }
  // The 16x8 kernels always take one multiplier per channel: a per-tensor
  // filter's, repeated.
  if (Wide && !R.PerChannel) {
    R.PerChannel = true;
    R.Multipliers.assign(size_t(Channels), R.PerTensor.Multiplier);
    R.LeftShifts.assign(size_t(Channels), R.PerTensor.LeftShift);
  }
  // Their 64-bit requantization shifts left by 7 bits at most.
  for (size_t C = 0; Wide && C < R.LeftShifts.size(); ++C)
    if (R.LeftShifts[C] > MaxWideLeftShift)
      return Ctx.error(llvm::formatv(
          "channel {0}: input scale * filter scale / output scale needs a "
          "left shift of {1}; the 16x8 kernels take -31 to {2} (the "
          "quantization scales are out of range)",
          C, R.LeftShifts[C], MaxWideLeftShift));
  if (llvm::Error E =
          activationRangeQuantized(Ctx.activation(), Out.Type, OutQ->Scale,
                                   OutQ->ZeroPoint, R.ActMin, R.ActMax))
    return Ctx.error(llvm::toString(std::move(E)));
  return R;
}

/// TensorFlow Lite Micro keeps a convolution's strides, dilations and depth
/// multiplier, and every padding (of pools too), as int16_t (ConvParams,
/// DepthwiseParams, PaddingValues): a value past 32767 wraps there, and the
/// oracle computes another layer than the model describes. Such a layer is
/// refused, each value named.
llvm::Error
requireInt16Geometry(const OpContext &Ctx,
                     std::initializer_list<std::pair<const char *, int64_t>>
                         Values) {
  for (const auto &[Name, V] : Values)
    if (V > INT16_MAX || V < INT16_MIN)
      return Ctx.error(llvm::formatv(
          "{0} {1} does not fit the int16 TensorFlow Lite Micro keeps it in "
          "(it would wrap): at most 32767",
          Name, V));
  return llvm::Error::success();
}

/// Spatial geometry of conv / depthwise / pool: checks the output shape.
llvm::Error spatialPadding(const OpContext &Ctx, const Tensor &In,
                           const Tensor &Out, int32_t FilterH, int32_t FilterW,
                           int32_t StrideH, int32_t StrideW, int32_t DilationH,
                           int32_t DilationW, int32_t &PadTop,
                           int32_t &PadLeft) {
  std::string Padding = Ctx.op().getString(ir::attr::Padding, "");
  auto H = computePadding(Padding, In.Shape[1], FilterH, StrideH, DilationH);
  if (!H)
    return Ctx.error(llvm::toString(H.takeError()));
  auto W = computePadding(Padding, In.Shape[2], FilterW, StrideW, DilationW);
  if (!W)
    return Ctx.error(llvm::toString(W.takeError()));
  if (H->OutSize != Out.Shape[1] || W->OutSize != Out.Shape[2])
    return Ctx.error(llvm::formatv(
        "output '{0}' is {1}x{2}, but {3} padding of a {4}x{5} input gives "
        "{6}x{7}",
        Out.Name, Out.Shape[1], Out.Shape[2], Padding, In.Shape[1], In.Shape[2],
        H->OutSize, W->OutSize));
  PadTop = H->PadBefore;
  PadLeft = W->PadBefore;
  return requireInt16Geometry(Ctx, {{"padding top", PadTop},
                                    {"padding left", PadLeft}});
}

/// Input, filter and output of a convolution-like operator: 4-D, one batch
/// size.
llvm::Error requireConvShapes(const OpContext &Ctx, const Tensor &In,
                              const Tensor &Filter, const Tensor &Out) {
  if (llvm::Error E = requireRank(Ctx, In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, Filter, 4, "filter"))
    return E;
  if (llvm::Error E = requireRank(Ctx, Out, 4, "output"))
    return E;
  if (In.Shape[0] != Out.Shape[0])
    return Ctx.error("input and output batch sizes differ");
  return llvm::Error::success();
}

/// Reads a positive integer attribute (TensorFlow Lite's strides, dilations,
/// filter sizes) into int32.
llvm::Expected<int32_t> positiveAttr(const OpContext &Ctx,
                                     llvm::StringRef Name) {
  int64_t V = Ctx.attr(Name, 1);
  if (V <= 0 || V > (1 << 20))
    return Ctx.error(
        llvm::formatv("attribute {0} = {1} is out of range", Name, V));
  return static_cast<int32_t>(V);
}

} // namespace

// --- CONV_2D, DEPTHWISE_CONV_2D ----------------------------------------------

namespace {

llvm::Expected<KernelCall> conv2D(const OpContext &Ctx, bool Depthwise) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Filter, Ctx.input(1));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireConvShapes(Ctx, *In, *Filter, *Out))
    return E;
  const int32_t InC = In->Shape[3], OutC = Out->Shape[3];
  int32_t DepthMultiplier = 1;
  if (Depthwise) {
    if (Filter->Shape[0] != 1 || Filter->Shape[3] != OutC)
      return Ctx.error(llvm::formatv("filter shape {0} does not fit {1} output "
                                     "channels ([1, kh, kw, Cout] expected)",
                                     ir::formatShape(Filter->Shape), OutC));
    if (InC <= 0 || OutC % InC != 0)
      return Ctx.error(llvm::formatv("{0} output channels are not a multiple "
                                     "of {1} input channels",
                                     OutC, InC));
    // The channel counts define the multiplier; the attribute can be stale.
    DepthMultiplier = OutC / InC;
  } else {
    const int32_t FilterC = Filter->Shape[3];
    if (Filter->Shape[0] != OutC)
      return Ctx.error(llvm::formatv("filter shape {0} does not fit {1} output "
                                     "channels",
                                     ir::formatShape(Filter->Shape), OutC));
    if (FilterC <= 0 || InC % FilterC != 0 || InC / FilterC == 0 ||
        OutC % (InC / FilterC) != 0)
      return Ctx.error(llvm::formatv(
          "input depth {0}, filter depth {1} and {2} output channels do not "
          "form whole groups",
          InC, FilterC, OutC));
  }
  ACCELGEN_TRY(StrideH, positiveAttr(Ctx, ir::attr::StrideH));
  ACCELGEN_TRY(StrideW, positiveAttr(Ctx, ir::attr::StrideW));
  ACCELGEN_TRY(DilationH, positiveAttr(Ctx, ir::attr::DilationH));
  ACCELGEN_TRY(DilationW, positiveAttr(Ctx, ir::attr::DilationW));
  int32_t PadTop = 0, PadLeft = 0;
  if (llvm::Error E = requireInt16Geometry(
          Ctx, {{"stride_h", StrideH},
                {"stride_w", StrideW},
                {"dilation_h", DilationH},
                {"dilation_w", DilationW},
                {"depth multiplier", DepthMultiplier}}))
    return E;
  if (llvm::Error E = spatialPadding(Ctx, *In, *Out, Filter->Shape[1],
                                     Filter->Shape[2], StrideH, StrideW,
                                     DilationH, DilationW, PadTop, PadLeft))
    return E;
  const int64_t Taps = int64_t(Filter->Shape[1]) * Filter->Shape[2];
  if (llvm::Error E = checkBias(Ctx, Bias, In->Type, OutC,
                                Depthwise ? Taps : Taps * Filter->Shape[3]))
    return E;
  ACCELGEN_TRY(Q, convLikeQuant(Ctx, *In, *Filter, *Out, OutC,
                                Depthwise ? 3 : 0, /*PerTensorDouble=*/true));

  KernelCall Call;
  Call.DataInputs = {Ctx.op().input(0), Ctx.op().input(1),
                     Bias ? Ctx.op().input(2) : -1};
  auto Fill = [&](auto &S) {
    S.stride_h = StrideH;
    S.stride_w = StrideW;
    S.dilation_h = DilationH;
    S.dilation_w = DilationW;
    S.pad_top = PadTop;
    S.pad_left = PadLeft;
    S.input_offset = Q.InputOffset;
    S.filter_offset = Q.FilterOffset;
    S.output_offset = Q.OutputOffset;
    S.output_multiplier = Q.PerTensor.Multiplier;
    S.output_left_shift = Q.PerTensor.LeftShift;
    S.act_min = Q.ActMin;
    S.act_max = Q.ActMax;
    S.act_min_f = Q.ActMinF;
    S.act_max_f = Q.ActMaxF;
  };
  Call.Variant = Q.variant();
  if (Depthwise) {
    FamilyParams<ref_depthwise_conv2d_params> P;
    Fill(P.Scalars);
    P.Scalars.depth_multiplier = DepthMultiplier;
    P.per_channel_multiplier = Q.Multipliers;
    P.per_channel_left_shift = Q.LeftShifts;
    P.float_scale = Q.FloatScales;
    Call.Params = std::move(P);
  } else {
    FamilyParams<ref_conv2d_params> P;
    Fill(P.Scalars);
    P.per_channel_multiplier = Q.Multipliers;
    P.per_channel_left_shift = Q.LeftShifts;
    P.float_scale = Q.FloatScales;
    Call.Params = std::move(P);
  }
  return Call;
}

} // namespace

llvm::Expected<KernelCall> conv2DOp(const OpContext &Ctx) {
  return conv2D(Ctx, /*Depthwise=*/false);
}

llvm::Expected<KernelCall> depthwiseConv2DOp(const OpContext &Ctx) {
  return conv2D(Ctx, /*Depthwise=*/true);
}

// --- TRANSPOSE_CONV -----------------------------------------------------------

llvm::Expected<KernelCall> transposeConv2DOp(const OpContext &Ctx) {
  // Operand 0 is the output shape, which the output tensor's shape is.
  ACCELGEN_TRY(Filter, Ctx.input(1));
  ACCELGEN_TRY(In, Ctx.input(2));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(3));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireConvShapes(Ctx, *In, *Filter, *Out))
    return E;
  const int32_t OutC = Out->Shape[3];
  if (Filter->Shape[0] != OutC || Filter->Shape[3] != In->Shape[3])
    return Ctx.error(llvm::formatv("filter shape {0} does not fit input depth "
                                   "{1} and {2} output channels ([Cout, kh, "
                                   "kw, Cin] expected)",
                                   ir::formatShape(Filter->Shape),
                                   In->Shape[3], OutC));
  ACCELGEN_TRY(StrideH, positiveAttr(Ctx, ir::attr::StrideH));
  ACCELGEN_TRY(StrideW, positiveAttr(Ctx, ir::attr::StrideW));
  // The padding of the convolution this one transposes: from the output's
  // size to the input's (TensorFlow Lite computes it so, dilation 1).
  const std::string Padding = Ctx.op().getString(ir::attr::Padding, "");
  auto H = computePadding(Padding, Out->Shape[1], Filter->Shape[1], StrideH, 1);
  if (!H)
    return Ctx.error(llvm::toString(H.takeError()));
  auto W = computePadding(Padding, Out->Shape[2], Filter->Shape[2], StrideW, 1);
  if (!W)
    return Ctx.error(llvm::toString(W.takeError()));
  if (llvm::Error E = requireInt16Geometry(Ctx, {{"stride_h", StrideH},
                                                 {"stride_w", StrideW},
                                                 {"padding top", H->PadBefore},
                                                 {"padding left",
                                                  W->PadBefore}}))
    return E;
  // An output sums at most every tap of every input channel.
  if (llvm::Error E = checkBias(Ctx, Bias, In->Type, OutC,
                                int64_t(Filter->Shape[1]) * Filter->Shape[2] *
                                    Filter->Shape[3]))
    return E;
  FamilyParams<ref_transpose_conv2d_params> P;
  ref_transpose_conv2d_params &S = P.Scalars;
  S.stride_h = StrideH;
  S.stride_w = StrideW;
  S.pad_top = H->PadBefore;
  S.pad_left = W->PadBefore;
  KernelCall Call;
  Call.DataInputs = {Ctx.op().input(2), Ctx.op().input(1),
                     Bias ? Ctx.op().input(3) : -1};
  if (In->Type == DType::F32) {
    if (Filter->Type != DType::F32 || Out->Type != DType::F32)
      return Ctx.error("a float32 transposed convolution needs float32 "
                       "weights and output");
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), S.act_min_f, S.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
    Call.Params = std::move(P);
    return Call;
  }
  if (In->Type == DType::U8)
    return Ctx.error(llvm::formatv("{0} transposed convolutions are not "
                                   "supported (float32, int8 and 16x8 are)",
                                   ir::dtypeName(In->Type)));
  ACCELGEN_TRY(Q, convLikeQuant(Ctx, *In, *Filter, *Out, OutC, 0,
                                /*PerTensorDouble=*/true));
  S.input_offset = Q.InputOffset;
  S.output_offset = Q.OutputOffset;
  S.act_min = Q.ActMin;
  S.act_max = Q.ActMax;
  // Always one multiplier per channel: a per-tensor filter's, repeated.
  P.per_channel_multiplier = Q.PerChannel
                                 ? Q.Multipliers
                                 : std::vector<int32_t>(
                                       size_t(OutC), Q.PerTensor.Multiplier);
  P.per_channel_left_shift = Q.PerChannel
                                 ? Q.LeftShifts
                                 : std::vector<int32_t>(
                                       size_t(OutC), Q.PerTensor.LeftShift);
  Call.Variant = "per_channel";
  Call.Params = std::move(P);
  return Call;
}

// --- FULLY_CONNECTED ---------------------------------------------------------

llvm::Expected<KernelCall> batchMatMulOp(const OpContext &Ctx) {
  ACCELGEN_TRY(L, Ctx.input(0));
  ACCELGEN_TRY(R, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *L, *R))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *L, *Out))
    return E;
  // ONNX's QLinearMatMul of batches: int8 and uint8.
  const bool Onnx =
      Ctx.arithmetic() == ir::Arithmetic::ONNX && isQuantized8(L->Type);
  if (L->Type != DType::I8 && L->Type != DType::I16 && L->Type != DType::F32 &&
      !Onnx)
    return unsupportedInput(Ctx, *L,
                            "int8, int16 or float32 (uint8 with ONNX's "
                            "arithmetic)");
  const size_t LR = L->rank(), RR = R->rank();
  const size_t Rank = std::max(LR, RR);
  if (LR < 2 || RR < 2 || Rank > 6)
    return Ctx.error("both operands need a rank of 2 to 6");
  ref_batch_matmul_params P{};
  P.adj_x = Ctx.op().getBool(ir::attr::AdjX, false);
  P.adj_y = Ctx.op().getBool(ir::attr::AdjY, false);
  P.rows = L->Shape[LR - (P.adj_x ? 1 : 2)];
  P.depth = L->Shape[LR - (P.adj_x ? 2 : 1)];
  P.cols = R->Shape[RR - (P.adj_y ? 2 : 1)];
  if (R->Shape[RR - (P.adj_y ? 1 : 2)] != P.depth)
    return Ctx.error(llvm::formatv("{0} and {1} do not multiply (adj_x {2}, "
                                   "adj_y {3})",
                                   ir::formatShape(L->Shape),
                                   ir::formatShape(R->Shape), P.adj_x,
                                   P.adj_y));
  // The batch dimensions broadcast; the output is them, then rows x cols.
  std::vector<int32_t> Want(Rank - 2);
  int32_t LStride = 1, RStride = 1;
  for (size_t I = 0; I < 4; ++I) {
    const size_t D = 3 - I;
    const int32_t NL = I + 2 < LR ? L->Shape[LR - 3 - I] : 1;
    const int32_t NR = I + 2 < RR ? R->Shape[RR - 3 - I] : 1;
    if (NL != NR && NL != 1 && NR != 1)
      return Ctx.error(llvm::formatv("batch dimensions of {0} and {1} do not "
                                     "broadcast",
                                     ir::formatShape(L->Shape),
                                     ir::formatShape(R->Shape)));
    P.batch[D] = std::max(NL, NR);
    P.lhs_stride[D] = NL == 1 ? 0 : LStride;
    P.rhs_stride[D] = NR == 1 ? 0 : RStride;
    LStride *= NL;
    RStride *= NR;
    if (I + 2 < Rank)
      Want[Rank - 3 - I] = P.batch[D];
  }
  Want.push_back(P.rows);
  Want.push_back(P.cols);
  if (Want != Out->Shape)
    return Ctx.error(llvm::formatv("output {0} is not the product's {1}",
                                   ir::formatShape(Out->Shape),
                                   ir::formatShape(Want)));
  if (L->Type != DType::F32) {
    ACCELGEN_TRY(LQ, Ctx.quant(*L, "lhs"));
    ACCELGEN_TRY(RQ, Ctx.quant(*R, "rhs"));
    // (int16 tensors have zero point 0: Ctx.quant refuses others.)
    ACCELGEN_TRY(OQ, Ctx.quant(*Out, "output"));
    P.lhs_offset = -LQ.ZeroPoint;
    P.rhs_offset = -RQ.ZeroPoint;
    P.output_offset = OQ.ZeroPoint;
    if (Onnx) {
      // As ONNX Runtime's QLinearMatMul: lhs scale times rhs scale, divided
      // by the output scale, in float32.
      P.onnx_scale = LQ.Scale * RQ.Scale / OQ.Scale;
      if (!(P.onnx_scale > 0.0f) || !std::isfinite(P.onnx_scale))
        return Ctx.error(llvm::formatv(
            "lhs scale * rhs scale / output scale is {0}, not a positive "
            "finite float",
            formatReal(P.onnx_scale)));
    } else {
      // GetQuantizedConvolutionMultipler, the lhs as the input.
      ACCELGEN_TRY(M, legacyMultiplier(Ctx, LQ.Scale, RQ.Scale, OQ.Scale));
      P.output_multiplier = M.Multiplier;
      P.output_left_shift = M.LeftShift;
    }
  }
  KernelCall Call = makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
  if (Onnx)
    Call.Variant = "onnx";
  return Call;
}

llvm::Expected<KernelCall> fullyConnected(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Filter, Ctx.input(1));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (Ctx.attr(ir::attr::WeightsFormat, 0) != 0)
    return Ctx.error("shuffled weights are not supported");
  if (llvm::Error E = requireRank(Ctx, *Filter, 2, "filter"))
    return E;
  const int32_t Units = Filter->Shape[0], Depth = Filter->Shape[1];
  if (Units <= 0 || Depth <= 0 || In->numElements() % Depth != 0)
    return Ctx.error(llvm::formatv("input {0} is not a whole number of rows "
                                   "of the filter's depth {1}",
                                   ir::formatShape(In->Shape), Depth));
  const int64_t Batches = In->numElements() / Depth;
  if (Out->numElements() != Batches * Units)
    return Ctx.error(llvm::formatv("output {0} does not hold {1} rows of {2} "
                                   "units",
                                   ir::formatShape(Out->Shape), Batches,
                                   Units));
  if (llvm::Error E = checkBias(Ctx, Bias, In->Type, Units, Depth))
    return E;
  ACCELGEN_TRY(Q, convLikeQuant(Ctx, *In, *Filter, *Out, Units, 0,
                                /*PerTensorDouble=*/false));
  FamilyParams<ref_fully_connected_params> P;
  P.Scalars.input_offset = Q.InputOffset;
  P.Scalars.filter_offset = Q.FilterOffset;
  P.Scalars.output_offset = Q.OutputOffset;
  P.Scalars.output_multiplier = Q.PerTensor.Multiplier;
  P.Scalars.output_left_shift = Q.PerTensor.LeftShift;
  P.Scalars.act_min = Q.ActMin;
  P.Scalars.act_max = Q.ActMax;
  P.Scalars.act_min_f = Q.ActMinF;
  P.Scalars.act_max_f = Q.ActMaxF;
  P.per_channel_multiplier = Q.Multipliers;
  P.per_channel_left_shift = Q.LeftShifts;
  P.float_scale = Q.FloatScales;
  KernelCall Call;
  Call.Variant = Q.variant();
  Call.Params = std::move(P);
  Call.DataInputs = {Ctx.op().input(0), Ctx.op().input(1),
                     Bias ? Ctx.op().input(2) : -1};
  return Call;
}

// --- AVERAGE_POOL_2D, MAX_POOL_2D --------------------------------------------

llvm::Expected<KernelCall> pool2D(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireRank(Ctx, *In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Out, 4, "output"))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (llvm::Error E = requireKernelType(Ctx, *In))
    return std::move(E);
  if (Ctx.op().code() == ir::OpCode::L2Pool2D && In->Type != DType::F32)
    return Ctx.error(llvm::formatv("input '{0}' is {1}; the L2 pooling kernel "
                                   "takes float32",
                                   In->Name, ir::dtypeName(In->Type)));
  if (In->Shape[0] != Out->Shape[0] || In->Shape[3] != Out->Shape[3])
    return Ctx.error("pooling keeps batches and channels, but input " +
                     ir::formatShape(In->Shape) + " and output " +
                     ir::formatShape(Out->Shape) + " differ");
  ref_pool2d_params P{};
  ACCELGEN_TRY(StrideH, positiveAttr(Ctx, ir::attr::StrideH));
  ACCELGEN_TRY(StrideW, positiveAttr(Ctx, ir::attr::StrideW));
  ACCELGEN_TRY(FilterH, positiveAttr(Ctx, ir::attr::FilterH));
  ACCELGEN_TRY(FilterW, positiveAttr(Ctx, ir::attr::FilterW));
  P.stride_h = StrideH;
  P.stride_w = StrideW;
  P.filter_h = FilterH;
  P.filter_w = FilterW;
  if (llvm::Error E = spatialPadding(Ctx, *In, *Out, FilterH, FilterW, StrideH,
                                     StrideW, 1, 1, P.pad_top, P.pad_left))
    return E;
  bool Onnx = false;
  if (In->Type == DType::F32) {
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), P.act_min_f, P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // ONNX's 8-bit average (QLinearAveragePool) requantizes, so its input
    // and output quantization may differ; every other one keeps it (an
    // 8-bit maximum computes ONNX's arithmetic as TensorFlow Lite's).
    Onnx = Ctx.arithmetic() == ir::Arithmetic::ONNX && In->Type != DType::I16;
    if (!Onnx || Ctx.op().code() != ir::OpCode::AveragePool2D)
      if (llvm::Error E = requireSameQuant(Ctx, InQ, OutQ))
        return E;
    P.input_offset = -InQ.ZeroPoint;
    P.output_offset = OutQ.ZeroPoint;
    P.input_scale = InQ.Scale;
    P.output_scale = OutQ.Scale;
    if (llvm::Error E =
            activationRangeQuantized(Ctx.activation(), Out->Type, OutQ.Scale,
                                     OutQ.ZeroPoint, P.act_min, P.act_max))
      return Ctx.error(llvm::toString(std::move(E)));
  }
  KernelCall Call;
  if (Onnx)
    Call.Variant = "onnx";
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
