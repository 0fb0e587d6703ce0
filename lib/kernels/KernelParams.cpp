//===- KernelParams.cpp - Reference kernel parameters from the IR ---------===//
//
// One function per operator family reads the operator's tensors and
// attributes, checks what the kernel assumes, and fills its parameters the way
// TensorFlow Lite's Prepare functions do (TensorFlow Lite Micro's where the two
// differ, since its reference kernels define the expected outputs). Every
// check that fails becomes an error naming the operator.
//
//===----------------------------------------------------------------------===//
#include "kernels/KernelParams.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace accelgen {
namespace kernels {

using ir::DType;
using ir::Tensor;

ref_conv2d_params Conv2DParams::c() const {
  ref_conv2d_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_depthwise_conv2d_params DepthwiseConv2DParams::c() const {
  ref_depthwise_conv2d_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_fully_connected_params FullyConnectedParams::c() const {
  ref_fully_connected_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_concat_params ConcatParams::c() const {
  ref_concat_params P = Scalars;
  P.input_scale = InputScales.empty() ? nullptr : InputScales.data();
  P.input_zero_point = InputZeroPoints.empty() ? nullptr : InputZeroPoints.data();
  return P;
}

llvm::Expected<ref_shape> toRefShape(llvm::ArrayRef<int32_t> Shape) {
  if (Shape.size() > REF_MAX_RANK)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("rank {0} exceeds the reference kernels' maximum of {1}",
                      Shape.size(), REF_MAX_RANK)
            .str());
  ref_shape S{};
  S.rank = static_cast<int32_t>(Shape.size());
  for (size_t I = 0; I < Shape.size(); ++I)
    S.dims[I] = Shape[I];
  return S;
}

namespace {

/// A tensor's per-tensor quantization.
struct TensorQuant {
  float Scale = 0;
  int32_t ZeroPoint = 0;
};

/// The operator being prepared: operand access and errors that name it.
class OpContext {
public:
  OpContext(const ir::Graph &G, const ir::Operator &Op) : G(G), Op(Op) {
    if (!G.Operators.empty() && &Op >= &G.Operators.front() &&
        &Op <= &G.Operators.back())
      Index = static_cast<int64_t>(&Op - &G.Operators.front());
  }

  const ir::Operator &op() const { return Op; }

  llvm::Error error(const llvm::Twine &Msg) const {
    std::string Where = Index >= 0 ? llvm::formatv("operator {0} ({1})", Index,
                                                   Op.Type)
                                         .str()
                                   : "operator " + Op.Type;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Where + ": " + Msg.str());
  }

  /// Input \p I, which must be present.
  llvm::Expected<const Tensor *> input(unsigned I) const {
    int32_t T = Op.input(I);
    if (T < 0)
      return error(llvm::formatv("input {0} is missing", I));
    if (!G.isValidTensor(T))
      return error(llvm::formatv("input {0} names tensor {1}, which does not "
                                 "exist",
                                 I, T));
    return &G.tensor(T);
  }

  /// Input \p I, or null when omitted (index -1 or past the end).
  llvm::Expected<const Tensor *> optionalInput(unsigned I) const {
    if (Op.input(I) < 0)
      return nullptr;
    return input(I);
  }

  /// Output \p I, which must be present.
  llvm::Expected<const Tensor *> output(unsigned I = 0) const {
    int32_t T = Op.output(I);
    if (T < 0 || !G.isValidTensor(T))
      return error(llvm::formatv("output {0} is missing", I));
    return &G.tensor(T);
  }

  /// The per-tensor quantization of \p T (named \p Role in errors).
  llvm::Expected<TensorQuant> quant(const Tensor &T,
                                    llvm::StringRef Role) const {
    if (!T.Quant || T.Quant->Scales.empty())
      return error(Role + " tensor '" + T.Name + "' is not quantized");
    if (T.Quant->Scales.size() != 1)
      return error(llvm::formatv("{0} tensor '{1}' has {2} scales; the kernel "
                                 "needs one per tensor",
                                 Role, T.Name, T.Quant->Scales.size()));
    TensorQuant Q;
    Q.Scale = T.Quant->Scales.front();
    if (llvm::Error E = checkScale(Q.Scale, T, Role))
      return E;
    int64_t ZP = T.Quant->zeroPoint();
    if (ZP < quantizedMin(T.Type) || ZP > quantizedMax(T.Type))
      return error(llvm::formatv("{0} tensor '{1}' has zero point {2}, outside "
                                 "its type {3}",
                                 Role, T.Name, ZP, ir::dtypeName(T.Type)));
    Q.ZeroPoint = static_cast<int32_t>(ZP);
    return Q;
  }

  llvm::Error checkScale(float Scale, const Tensor &T,
                         llvm::StringRef Role) const {
    if (!(Scale > 0.0f) || !std::isfinite(Scale))
      return error(llvm::formatv("{0} tensor '{1}' has scale {2}; scales must "
                                 "be positive and finite",
                                 Role, T.Name, Scale));
    return llvm::Error::success();
  }

  /// The C shape of \p T.
  llvm::Expected<ref_shape> shape(const Tensor &T) const {
    auto S = toRefShape(T.Shape);
    if (!S)
      return error("tensor '" + T.Name + "': " + llvm::toString(S.takeError()));
    return *S;
  }

  /// The values of a constant integer tensor (int32 or int64).
  llvm::Expected<std::vector<int64_t>> constInts(const Tensor &T,
                                                 llvm::StringRef Role) const {
    if (!T.IsConstant)
      return error(Role + " tensor '" + T.Name +
                   "' must be constant for the reference kernels");
    std::vector<int64_t> Values;
    size_t N = static_cast<size_t>(T.numElements());
    if (T.Type == DType::I32 && T.Data.size() == N * 4) {
      for (size_t I = 0; I < N; ++I)
        Values.push_back(static_cast<int32_t>(
            llvm::support::endian::read32le(T.Data.data() + 4 * I)));
    } else if (T.Type == DType::I64 && T.Data.size() == N * 8) {
      for (size_t I = 0; I < N; ++I)
        Values.push_back(static_cast<int64_t>(
            llvm::support::endian::read64le(T.Data.data() + 8 * I)));
    } else {
      return error(Role + " tensor '" + T.Name + "' must hold int32 or int64 "
                   "values");
    }
    return Values;
  }

  int64_t attr(llvm::StringRef Name, int64_t Default) const {
    return Op.getInt(Name, Default);
  }
  std::string activation() const {
    return Op.getString("fused_activation", "NONE");
  }

private:
  const ir::Graph &G;
  const ir::Operator &Op;
  int64_t Index = -1;
};

/// The kernel-name suffix of a data type the kernels implement.
const char *typeSuffix(DType T) {
  switch (T) {
  case DType::I8:
    return "i8";
  case DType::U8:
    return "u8";
  case DType::F32:
    return "f32";
  default:
    return nullptr;
  }
}

bool isQuantized8(DType T) { return T == DType::I8 || T == DType::U8; }

/// The suffix of \p T, or an error if the kernels do not implement it.
llvm::Expected<std::string> suffixOf(const OpContext &Ctx, const Tensor &T) {
  if (const char *S = typeSuffix(T.Type))
    return std::string(S);
  return Ctx.error(llvm::formatv("element type {0} of tensor '{1}' is not "
                                 "supported (int8, uint8 and float32 are)",
                                 ir::dtypeName(T.Type), T.Name)
                       .str());
}

llvm::Error requireSameType(const OpContext &Ctx, const Tensor &A,
                            const Tensor &B) {
  if (A.Type == B.Type)
    return llvm::Error::success();
  return Ctx.error(llvm::formatv("tensors '{0}' ({1}) and '{2}' ({3}) must "
                                 "have the same element type",
                                 A.Name, ir::dtypeName(A.Type), B.Name,
                                 ir::dtypeName(B.Type)));
}

llvm::Error requireRank(const OpContext &Ctx, const Tensor &T, unsigned Rank,
                        llvm::StringRef Role) {
  if (T.rank() == Rank)
    return llvm::Error::success();
  return Ctx.error(llvm::formatv("{0} tensor '{1}' has shape {2}; expected "
                                 "rank {3}",
                                 Role, T.Name, ir::formatShape(T.Shape), Rank));
}

llvm::Error requireSameQuant(const OpContext &Ctx, const TensorQuant &In,
                             const TensorQuant &Out) {
  if (In.Scale == Out.Scale && In.ZeroPoint == Out.ZeroPoint)
    return llvm::Error::success();
  return Ctx.error(llvm::formatv(
      "input quantization (scale {0}, zero point {1}) differs from the "
      "output's (scale {2}, zero point {3}); the kernel keeps it unchanged",
      In.Scale, In.ZeroPoint, Out.Scale, Out.ZeroPoint));
}

/// Checks a bias operand: int32 for quantized kernels, float for float ones,
/// one value per output channel.
llvm::Error checkBias(const OpContext &Ctx, const Tensor *Bias, DType DataType,
                      int32_t Channels) {
  if (!Bias)
    return llvm::Error::success();
  DType Want = DataType == DType::F32 ? DType::F32 : DType::I32;
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
void perChannelMultipliers(float InputScale, llvm::ArrayRef<float> FilterScales,
                           float OutputScale, std::vector<int32_t> &Mult,
                           std::vector<int32_t> &Shift) {
  for (float FS : FilterScales) {
    QuantizedMultiplier Q = quantizeMultiplier(
        double(InputScale) * double(FS) / double(OutputScale));
    Mult.push_back(Q.Multiplier);
    Shift.push_back(Q.LeftShift);
  }
}

/// The legacy per-tensor multiplier (GetQuantizedConvolutionMultipler): the
/// input and filter scales multiplied in float, then divided in double.
QuantizedMultiplier legacyMultiplier(float InputScale, float FilterScale,
                                     float OutputScale) {
  const float Product = InputScale * FilterScale;
  return quantizeMultiplier(double(Product) / double(OutputScale));
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
  int32_t ActMin = 0, ActMax = 0;
  float ActMinF = 0, ActMaxF = 0;
};

/// \p PerTensorDouble selects how a per-tensor int8 multiplier is computed:
/// in double like the per-channel ones (CONV_2D, DEPTHWISE_CONV_2D in
/// TensorFlow Lite Micro) or with the legacy float product (FULLY_CONNECTED,
/// and every uint8 operator).
llvm::Expected<ConvLikeQuant>
convLikeQuant(const OpContext &Ctx, const Tensor &In, const Tensor &Filter,
              const Tensor &Out, int32_t Channels, int32_t ChannelAxis,
              bool PerTensorDouble) {
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
  if (!isQuantized8(In.Type) || Filter.Type != In.Type || Out.Type != In.Type)
    return Ctx.error(llvm::formatv(
        "input {0}, filter {1} and output {2}: the kernels take int8 or uint8 "
        "throughout",
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
  if (In.Type == DType::U8) {
    if (FQ->PerChannel)
      return Ctx.error("uint8 kernels take per-tensor filters only");
    R.PerTensor = legacyMultiplier(InQ->Scale, FQ->Scales[0], OutQ->Scale);
  } else if (FQ->PerChannel) {
    R.PerChannel = true;
    perChannelMultipliers(InQ->Scale, FQ->Scales, OutQ->Scale, R.Multipliers,
                          R.LeftShifts);
  } else if (PerTensorDouble) {
    std::vector<int32_t> M, S;
    perChannelMultipliers(InQ->Scale, FQ->Scales, OutQ->Scale, M, S);
    R.PerTensor.Multiplier = M[0];
    R.PerTensor.LeftShift = S[0];
  } else {
    R.PerTensor = legacyMultiplier(InQ->Scale, FQ->Scales[0], OutQ->Scale);
  }
  if (llvm::Error E =
          activationRangeQuantized(Ctx.activation(), Out.Type, OutQ->Scale,
                                   OutQ->ZeroPoint, R.ActMin, R.ActMax))
    return Ctx.error(llvm::toString(std::move(E)));
  return R;
}

/// The kernel function name for a conv-like operator.
std::string convLikeName(llvm::StringRef Base, DType T, bool PerChannel) {
  std::string Name = ("ref_" + Base + "_").str() + typeSuffix(T);
  if (PerChannel)
    Name += "_per_channel";
  return Name;
}

/// Spatial geometry of conv / depthwise / pool: checks the output shape.
llvm::Error spatialPadding(const OpContext &Ctx, const Tensor &In,
                           const Tensor &Out, int32_t FilterH, int32_t FilterW,
                           int32_t StrideH, int32_t StrideW, int32_t DilationH,
                           int32_t DilationW, int32_t &PadTop,
                           int32_t &PadLeft) {
  std::string Padding = Ctx.op().getString("padding", "");
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
        Out.Name, Out.Shape[1], Out.Shape[2], Padding, In.Shape[1],
        In.Shape[2], H->OutSize, W->OutSize));
  PadTop = H->PadBefore;
  PadLeft = W->PadBefore;
  return llvm::Error::success();
}

/// Reads a positive integer attribute (TensorFlow Lite's strides, dilations,
/// filter sizes) into int32.
llvm::Expected<int32_t> positiveAttr(const OpContext &Ctx,
                                     llvm::StringRef Name) {
  int64_t V = Ctx.attr(Name, 1);
  if (V <= 0 || V > (1 << 20))
    return Ctx.error(llvm::formatv("attribute {0} = {1} is out of range",
                                   Name, V));
  return static_cast<int32_t>(V);
}

#define ACCELGEN_TRY(Var, Expr)                                                \
  auto Var##OrErr = (Expr);                                                    \
  if (!Var##OrErr)                                                             \
    return Var##OrErr.takeError();                                             \
  auto &Var = *Var##OrErr

// --- CONV_2D, DEPTHWISE_CONV_2D ----------------------------------------------

llvm::Expected<KernelCall> conv2D(const OpContext &Ctx, bool Depthwise) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Filter, Ctx.input(1));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireRank(Ctx, *In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Filter, 4, "filter"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Out, 4, "output"))
    return E;
  const int32_t InC = In->Shape[3], OutC = Out->Shape[3];
  if (In->Shape[0] != Out->Shape[0])
    return Ctx.error("input and output batch sizes differ");
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
    if (FilterC <= 0 || InC % FilterC != 0 ||
        OutC % (InC / FilterC) != 0)
      return Ctx.error(llvm::formatv(
          "input depth {0}, filter depth {1} and {2} output channels do not "
          "form whole groups",
          InC, FilterC, OutC));
  }
  ACCELGEN_TRY(StrideH, positiveAttr(Ctx, "stride_h"));
  ACCELGEN_TRY(StrideW, positiveAttr(Ctx, "stride_w"));
  ACCELGEN_TRY(DilationH, positiveAttr(Ctx, "dilation_h"));
  ACCELGEN_TRY(DilationW, positiveAttr(Ctx, "dilation_w"));
  int32_t PadTop = 0, PadLeft = 0;
  if (llvm::Error E = spatialPadding(Ctx, *In, *Out, Filter->Shape[1],
                                     Filter->Shape[2], StrideH, StrideW,
                                     DilationH, DilationW, PadTop, PadLeft))
    return E;
  if (llvm::Error E = checkBias(Ctx, Bias, In->Type, OutC))
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
  if (Depthwise) {
    DepthwiseConv2DParams P;
    Fill(P.Scalars);
    P.Scalars.depth_multiplier = DepthMultiplier;
    P.Multipliers = Q.Multipliers;
    P.LeftShifts = Q.LeftShifts;
    Call.Function = convLikeName("depthwise_conv2d", In->Type, Q.PerChannel);
    Call.Params = std::move(P);
  } else {
    Conv2DParams P;
    Fill(P.Scalars);
    P.Multipliers = Q.Multipliers;
    P.LeftShifts = Q.LeftShifts;
    Call.Function = convLikeName("conv2d", In->Type, Q.PerChannel);
    Call.Params = std::move(P);
  }
  return Call;
}

// --- FULLY_CONNECTED ----------------------------------------------------------

llvm::Expected<KernelCall> fullyConnected(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Filter, Ctx.input(1));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (Ctx.attr("weights_format", 0) != 0)
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
  if (llvm::Error E = checkBias(Ctx, Bias, In->Type, Units))
    return E;
  ACCELGEN_TRY(Q, convLikeQuant(Ctx, *In, *Filter, *Out, Units, 0,
                                /*PerTensorDouble=*/false));
  FullyConnectedParams P;
  P.Scalars.input_offset = Q.InputOffset;
  P.Scalars.filter_offset = Q.FilterOffset;
  P.Scalars.output_offset = Q.OutputOffset;
  P.Scalars.output_multiplier = Q.PerTensor.Multiplier;
  P.Scalars.output_left_shift = Q.PerTensor.LeftShift;
  P.Scalars.act_min = Q.ActMin;
  P.Scalars.act_max = Q.ActMax;
  P.Scalars.act_min_f = Q.ActMinF;
  P.Scalars.act_max_f = Q.ActMaxF;
  P.Multipliers = Q.Multipliers;
  P.LeftShifts = Q.LeftShifts;
  KernelCall Call;
  Call.Function = convLikeName("fully_connected", In->Type, Q.PerChannel);
  Call.Params = std::move(P);
  Call.DataInputs = {Ctx.op().input(0), Ctx.op().input(1),
                     Bias ? Ctx.op().input(2) : -1};
  return Call;
}

// --- AVERAGE_POOL_2D, MAX_POOL_2D ---------------------------------------------

llvm::Expected<KernelCall> pool2D(const OpContext &Ctx, bool Average) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireRank(Ctx, *In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Out, 4, "output"))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *In));
  if (In->Shape[0] != Out->Shape[0] || In->Shape[3] != Out->Shape[3])
    return Ctx.error("pooling keeps batches and channels, but input " +
                     ir::formatShape(In->Shape) + " and output " +
                     ir::formatShape(Out->Shape) + " differ");
  ref_pool2d_params P{};
  ACCELGEN_TRY(StrideH, positiveAttr(Ctx, "stride_h"));
  ACCELGEN_TRY(StrideW, positiveAttr(Ctx, "stride_w"));
  ACCELGEN_TRY(FilterH, positiveAttr(Ctx, "filter_h"));
  ACCELGEN_TRY(FilterW, positiveAttr(Ctx, "filter_w"));
  P.stride_h = StrideH;
  P.stride_w = StrideW;
  P.filter_h = FilterH;
  P.filter_w = FilterW;
  if (llvm::Error E = spatialPadding(Ctx, *In, *Out, FilterH, FilterW, StrideH,
                                     StrideW, 1, 1, P.pad_top, P.pad_left))
    return E;
  if (In->Type == DType::F32) {
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), P.act_min_f, P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    if (llvm::Error E = requireSameQuant(Ctx, InQ, OutQ))
      return E;
    if (llvm::Error E =
            activationRangeQuantized(Ctx.activation(), Out->Type, OutQ.Scale,
                                     OutQ.ZeroPoint, P.act_min, P.act_max))
      return Ctx.error(llvm::toString(std::move(E)));
  }
  KernelCall Call;
  Call.Function =
      std::string(Average ? "ref_average_pool2d_" : "ref_max_pool2d_") + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

// --- ADD, SUB, MUL --------------------------------------------------------------

/// Checks that \p A and \p B broadcast to \p Out.
llvm::Error checkBroadcast(const OpContext &Ctx, const Tensor &A,
                           const Tensor &B, const Tensor &Out) {
  if (Out.rank() > REF_MAX_RANK || A.rank() > Out.rank() ||
      B.rank() > Out.rank())
    return Ctx.error(llvm::formatv("shapes {0} and {1} do not broadcast to "
                                   "{2} within rank {3}",
                                   ir::formatShape(A.Shape),
                                   ir::formatShape(B.Shape),
                                   ir::formatShape(Out.Shape), REF_MAX_RANK));
  for (unsigned I = 0; I < Out.rank(); ++I) {
    int32_t O = Out.Shape[Out.rank() - 1 - I];
    int32_t DA = I < A.rank() ? A.Shape[A.rank() - 1 - I] : 1;
    int32_t DB = I < B.rank() ? B.Shape[B.rank() - 1 - I] : 1;
    if ((DA != 1 && DA != O) || (DB != 1 && DB != O) ||
        (O != std::max(DA, DB) && !(DA == 1 && DB == 1 && O == 1)))
      return Ctx.error(llvm::formatv("shapes {0} and {1} do not broadcast to "
                                     "{2}",
                                     ir::formatShape(A.Shape),
                                     ir::formatShape(B.Shape),
                                     ir::formatShape(Out.Shape)));
  }
  return llvm::Error::success();
}

llvm::Expected<KernelCall> elementwise(const OpContext &Ctx,
                                       llvm::StringRef Name) {
  ACCELGEN_TRY(A, Ctx.input(0));
  ACCELGEN_TRY(B, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *A, *B))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *A, *Out))
    return E;
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *A));
  if (llvm::Error E = checkBroadcast(Ctx, *A, *B, *Out))
    return E;
  ref_elementwise_params P{};
  if (A->Type == DType::F32) {
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), P.act_min_f, P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else {
    ACCELGEN_TRY(AQ, Ctx.quant(*A, "input 0"));
    ACCELGEN_TRY(BQ, Ctx.quant(*B, "input 1"));
    ACCELGEN_TRY(OQ, Ctx.quant(*Out, "output"));
    P.input1_offset = -AQ.ZeroPoint;
    P.input2_offset = -BQ.ZeroPoint;
    P.output_offset = OQ.ZeroPoint;
    if (Name == "mul") {
      QuantizedMultiplier M = quantizeMultiplier(
          double(AQ.Scale) * double(BQ.Scale) / double(OQ.Scale));
      P.output_multiplier = M.Multiplier;
      P.output_left_shift = M.LeftShift;
    } else {
      // Both inputs to a common scale (twice the larger input scale) with
      // 20 bits of headroom, then to the output.
      P.input_left_shift = 20;
      const double TwiceMax = 2 * double(std::max(AQ.Scale, BQ.Scale));
      const QuantizedMultiplier M1 = quantizeMultiplier(double(AQ.Scale) /
                                                        TwiceMax);
      const QuantizedMultiplier M2 = quantizeMultiplier(double(BQ.Scale) /
                                                        TwiceMax);
      const QuantizedMultiplier MO = quantizeMultiplier(
          TwiceMax / (double(1 << P.input_left_shift) * double(OQ.Scale)));
      if (M1.LeftShift > 0 || M2.LeftShift > 0 || MO.LeftShift > 0)
        return Ctx.error(llvm::formatv(
            "output scale {0} is too small for input scales {1} and {2} (the "
            "rescaling multipliers must stay below 1)",
            OQ.Scale, AQ.Scale, BQ.Scale));
      P.input1_multiplier = M1.Multiplier;
      P.input1_left_shift = M1.LeftShift;
      P.input2_multiplier = M2.Multiplier;
      P.input2_left_shift = M2.LeftShift;
      P.output_multiplier = MO.Multiplier;
      P.output_left_shift = MO.LeftShift;
    }
    if (llvm::Error E =
            activationRangeQuantized(Ctx.activation(), Out->Type, OQ.Scale,
                                     OQ.ZeroPoint, P.act_min, P.act_max))
      return Ctx.error(llvm::toString(std::move(E)));
  }
  KernelCall Call;
  Call.Function = ("ref_" + Name + "_").str() + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0), Ctx.op().input(1)};
  return Call;
}

// --- SOFTMAX --------------------------------------------------------------------

llvm::Expected<KernelCall> softmax(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *In));
  if (In->Shape != Out->Shape)
    return Ctx.error("input and output shapes differ");
  ref_softmax_params P{};
  const double Beta = Ctx.op().getFloat("beta", 1.0);
  P.beta = static_cast<float>(Beta);
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    const int32_t WantZP = In->Type == DType::I8 ? -128 : 0;
    if (OutQ.ZeroPoint != WantZP ||
        std::fabs(OutQ.Scale - 1.0f / 256) > 0.001f / 256)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) must be scale "
          "1/256, zero point {2}",
          OutQ.Scale, OutQ.ZeroPoint, WantZP));
    // beta * input_scale in Q5.26 terms, capped below 2^31
    // (PreprocessSoftmaxScaling), as a multiplier above one.
    constexpr int ScaledDiffIntegerBits = 5;
    const double Real =
        std::min(Beta * double(InQ.Scale) *
                     double(1 << (31 - ScaledDiffIntegerBits)),
                 double((1LL << 31) - 1));
    if (!(Real > 1.0))
      return Ctx.error(llvm::formatv("beta * input scale = {0} is too small "
                                     "for the fixed-point softmax",
                                     Beta * InQ.Scale));
    QuantizedMultiplier M = quantizeMultiplier(Real);
    P.input_multiplier = M.Multiplier;
    P.input_left_shift = M.LeftShift;
    P.diff_min = -calculateInputRadius(ScaledDiffIntegerBits, M.LeftShift);
  }
  KernelCall Call;
  Call.Function = "ref_softmax_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

// --- QUANTIZE, DEQUANTIZE --------------------------------------------------------

llvm::Expected<KernelCall> quantizeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  if (!isQuantized8(Out->Type))
    return Ctx.error(llvm::formatv("quantizing to {0} is not supported (int8 "
                                   "and uint8 are)",
                                   ir::dtypeName(Out->Type)));
  ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
  KernelCall Call;
  Call.DataInputs = {Ctx.op().input(0)};
  if (In->Type == DType::F32) {
    ref_quantize_params P{};
    P.scale = OutQ.Scale;
    P.zero_point = OutQ.ZeroPoint;
    Call.Function = std::string("ref_quantize_f32_") + typeSuffix(Out->Type);
    Call.Params = P;
    return Call;
  }
  if (!isQuantized8(In->Type))
    return Ctx.error(llvm::formatv("quantizing from {0} is not supported",
                                   ir::dtypeName(In->Type)));
  ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
  ref_requantize_params P{};
  QuantizedMultiplier M =
      quantizeMultiplier(double(InQ.Scale) / double(OutQ.Scale));
  P.input_zero_point = InQ.ZeroPoint;
  P.output_zero_point = OutQ.ZeroPoint;
  P.multiplier = M.Multiplier;
  P.left_shift = M.LeftShift;
  if (M.LeftShift > 30)
    return Ctx.error("the rescaling factor is too large");
  Call.Function = std::string("ref_requantize_") + typeSuffix(In->Type) + "_" +
                  typeSuffix(Out->Type);
  Call.Params = P;
  return Call;
}

llvm::Expected<KernelCall> dequantizeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  if (!isQuantized8(In->Type) || Out->Type != DType::F32)
    return Ctx.error(llvm::formatv("dequantizing {0} to {1} is not supported "
                                   "(int8 or uint8 to float32 is)",
                                   ir::dtypeName(In->Type),
                                   ir::dtypeName(Out->Type)));
  ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
  ref_dequantize_params P{};
  P.scale = double(InQ.Scale);
  P.zero_point = InQ.ZeroPoint;
  KernelCall Call;
  Call.Function = std::string("ref_dequantize_") + typeSuffix(In->Type) + "_f32";
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

// --- Activations -------------------------------------------------------------------

/// Shared checks of the unary elementwise operators: same type and size.
llvm::Expected<std::string> unaryPrologue(const OpContext &Ctx, const Tensor &In,
                                          const Tensor &Out) {
  if (llvm::Error E = requireSameType(Ctx, In, Out))
    return E;
  if (In.numElements() != Out.numElements())
    return Ctx.error("input and output sizes differ");
  return suffixOf(Ctx, In);
}

llvm::Expected<KernelCall> reluOp(const OpContext &Ctx,
                                  llvm::StringRef Activation) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  ACCELGEN_TRY(Suffix, unaryPrologue(Ctx, *In, *Out));
  ref_relu_params P{};
  if (In->Type == DType::F32) {
    if (llvm::Error E = activationRangeFloat(Activation, P.act_min_f,
                                             P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    QuantizedMultiplier M =
        quantizeMultiplier(double(InQ.Scale) / double(OutQ.Scale));
    if (M.LeftShift > 30)
      return Ctx.error("the rescaling factor is too large");
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    P.output_multiplier = M.Multiplier;
    P.output_left_shift = M.LeftShift;
    if (llvm::Error E =
            activationRangeQuantized(Activation, Out->Type, OutQ.Scale,
                                     OutQ.ZeroPoint, P.act_min, P.act_max))
      return Ctx.error(llvm::toString(std::move(E)));
  }
  KernelCall Call;
  Call.Function = "ref_relu_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> leakyReluOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  ACCELGEN_TRY(Suffix, unaryPrologue(Ctx, *In, *Out));
  ref_leaky_relu_params P{};
  const float Alpha = static_cast<float>(Ctx.op().getFloat("alpha", 0.2));
  P.alpha = Alpha;
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // Both products in float, as TensorFlow Lite computes them.
    const float AlphaScale = InQ.Scale * Alpha / OutQ.Scale;
    const float IdentityScale = InQ.Scale / OutQ.Scale;
    if (!(AlphaScale >= 0.0f) || !std::isfinite(AlphaScale))
      return Ctx.error(llvm::formatv("alpha {0} must be non-negative for the "
                                     "quantized kernel",
                                     Alpha));
    QuantizedMultiplier MA = quantizeMultiplier(double(AlphaScale));
    QuantizedMultiplier MI = quantizeMultiplier(double(IdentityScale));
    if (MA.LeftShift > 30 || MI.LeftShift > 30)
      return Ctx.error("the rescaling factor is too large");
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    P.alpha_multiplier = MA.Multiplier;
    P.alpha_left_shift = MA.LeftShift;
    P.identity_multiplier = MI.Multiplier;
    P.identity_left_shift = MI.LeftShift;
  }
  KernelCall Call;
  Call.Function = "ref_leaky_relu_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

/// DownScaleInt32ToInt16Multiplier: the int16 multiplier nearest to an int32
/// one (rounding half up), saturated at INT16_MAX.
int16_t downscaleMultiplier(int32_t M) {
  constexpr int32_t RoundingOffset = 1 << 15;
  if (M >= std::numeric_limits<int32_t>::max() - RoundingOffset)
    return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((M + RoundingOffset) >> 16);
}

llvm::Expected<KernelCall> hardSwishOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  ACCELGEN_TRY(Suffix, unaryPrologue(Ctx, *In, *Out));
  ref_hard_swish_params P{};
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // All in float, as TensorFlow Lite's HardSwishPrepare.
    const float HiresInputScale = (1.0f / 128.0f) * InQ.Scale;
    const float ReluishScale = 3.0f / 32768.0f;
    QuantizedMultiplier MO =
        quantizeMultiplier(double(HiresInputScale / OutQ.Scale));
    QuantizedMultiplier MR =
        quantizeMultiplier(double(HiresInputScale / ReluishScale));
    if (MO.LeftShift > 0)
      return Ctx.error("the output scale must exceed input scale / 128");
    if (MR.LeftShift > 15 || MR.LeftShift < -31)
      return Ctx.error("the input scale is out of range for the kernel");
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    P.output_multiplier = downscaleMultiplier(MO.Multiplier);
    P.output_left_shift = MO.LeftShift;
    P.reluish_multiplier = downscaleMultiplier(MR.Multiplier);
    P.reluish_left_shift = MR.LeftShift;
  }
  KernelCall Call;
  Call.Function = "ref_hard_swish_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> sigmoidOp(const OpContext &Ctx, bool Tanh) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  ACCELGEN_TRY(Suffix, unaryPrologue(Ctx, *In, *Out));
  ref_sigmoid_params P{};
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // The output quantization is fixed by the kernel.
    const float WantScale = Tanh ? 1.0f / 128 : 1.0f / 256;
    const int32_t WantZP = In->Type == DType::I8 ? (Tanh ? 0 : -128)
                                                  : (Tanh ? 128 : 0);
    if (OutQ.ZeroPoint != WantZP || OutQ.Scale != WantScale)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) must be scale "
          "{2}, zero point {3}",
          OutQ.Scale, OutQ.ZeroPoint, WantScale, WantZP));
    constexpr int InputIntegerBits = 4;
    QuantizedMultiplier M = quantizeMultiplier(
        double(InQ.Scale) * double(1 << (31 - InputIntegerBits)));
    if (M.LeftShift < 0 || M.LeftShift > 30)
      return Ctx.error(llvm::formatv("input scale {0} is out of range for the "
                                     "fixed-point kernel",
                                     InQ.Scale));
    P.input_zero_point = InQ.ZeroPoint;
    P.input_multiplier = M.Multiplier;
    P.input_left_shift = M.LeftShift;
    P.input_range_radius = calculateInputRadius(InputIntegerBits, M.LeftShift);
  }
  KernelCall Call;
  Call.Function = std::string(Tanh ? "ref_tanh_" : "ref_logistic_") + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

// --- Data movement -------------------------------------------------------------------

llvm::Expected<KernelCall> reshapeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->numElements() != Out->numElements())
    return Ctx.error(llvm::formatv("input {0} and output {1} hold different "
                                   "numbers of elements",
                                   ir::formatShape(In->Shape),
                                   ir::formatShape(Out->Shape)));
  if (In->Quant && Out->Quant &&
      (In->Quant->Scales != Out->Quant->Scales ||
       In->Quant->ZeroPoints != Out->Quant->ZeroPoints))
    return Ctx.error("input and output quantization differ");
  KernelCall Call;
  Call.Function = "ref_reshape";
  Call.Params = ReshapeParams{static_cast<size_t>(In->byteSize())};
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> padOp(const OpContext &Ctx, bool V2) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Paddings, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *In));
  if (In->rank() > REF_MAX_RANK || Out->rank() != In->rank())
    return Ctx.error("input and output ranks differ or exceed the maximum");
  ACCELGEN_TRY(Pads, Ctx.constInts(*Paddings, "paddings"));
  if (Pads.size() != 2 * In->rank())
    return Ctx.error(llvm::formatv("paddings hold {0} values for rank {1}",
                                   Pads.size(), In->rank()));
  ref_pad_params P{};
  for (unsigned D = 0; D < In->rank(); ++D) {
    int64_t Before = Pads[2 * D], After = Pads[2 * D + 1];
    if (Before < 0 || After < 0 || In->Shape[D] + Before + After != Out->Shape[D])
      return Ctx.error(llvm::formatv("padding [{0}, {1}] of dimension {2} does "
                                     "not give the output's {3}",
                                     Before, After, D, Out->Shape[D]));
    P.before[D] = static_cast<int32_t>(Before);
    P.after[D] = static_cast<int32_t>(After);
  }
  ACCELGEN_TRY(Value, Ctx.optionalInput(2));
  if (!V2 && Value)
    return Ctx.error("PAD takes no padding value");
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    if (llvm::Error E = requireSameQuant(Ctx, InQ, OutQ))
      return E;
    // Real zero unless PADV2 gives a value (in the input's quantization).
    P.pad_value = OutQ.ZeroPoint;
  }
  if (Value) {
    if (Value->Type != In->Type || Value->numElements() != 1 ||
        !Value->IsConstant || Value->Data.empty())
      return Ctx.error("the padding value must be a constant scalar of the "
                       "input's type");
    if (In->Type == DType::F32)
      std::memcpy(&P.pad_value_f, Value->Data.data(), sizeof(float));
    else if (In->Type == DType::I8)
      P.pad_value = static_cast<int8_t>(Value->Data[0]);
    else
      P.pad_value = Value->Data[0];
  }
  KernelCall Call;
  Call.Function = "ref_pad_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> concatOp(const OpContext &Ctx) {
  ACCELGEN_TRY(Out, Ctx.output());
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *Out));
  if (Ctx.activation() != "NONE")
    return Ctx.error("a fused activation on CONCATENATION is not supported");
  const int64_t Rank = Out->rank();
  int64_t Axis = Ctx.attr("axis", 0);
  if (Axis < 0)
    Axis += Rank;
  if (Axis < 0 || Axis >= Rank || Rank > REF_MAX_RANK)
    return Ctx.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                   Ctx.attr("axis", 0), Rank));
  ConcatParams P;
  P.Scalars.axis = static_cast<int32_t>(Axis);
  KernelCall Call;
  bool Rescale = false;
  std::optional<TensorQuant> OutQ;
  if (Out->Type != DType::F32) {
    auto Q = Ctx.quant(*Out, "output");
    if (!Q)
      return Q.takeError();
    OutQ = *Q;
    P.Scalars.output_scale = OutQ->Scale;
    P.Scalars.output_zero_point = OutQ->ZeroPoint;
  }
  int64_t AxisSum = 0;
  for (unsigned I = 0; I < Ctx.op().Inputs.size(); ++I) {
    ACCELGEN_TRY(In, Ctx.input(I));
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
    if (In->rank() != Out->rank())
      return Ctx.error("input '" + In->Name + "' has another rank than the "
                       "output");
    for (unsigned D = 0; D < In->rank(); ++D)
      if (int64_t(D) != Axis && In->Shape[D] != Out->Shape[D])
        return Ctx.error("input '" + In->Name + "' " +
                         ir::formatShape(In->Shape) +
                         " does not match the output " +
                         ir::formatShape(Out->Shape) + " off the axis");
    AxisSum += In->Shape[Axis];
    if (OutQ) {
      ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
      P.InputScales.push_back(InQ.Scale);
      P.InputZeroPoints.push_back(InQ.ZeroPoint);
      if (InQ.Scale != OutQ->Scale || InQ.ZeroPoint != OutQ->ZeroPoint)
        Rescale = true;
    }
    Call.DataInputs.push_back(Ctx.op().input(I));
  }
  if (AxisSum != Out->Shape[Axis])
    return Ctx.error("the inputs do not add up to the output along the axis");
  if (Call.DataInputs.empty())
    return Ctx.error("no inputs");
  P.Scalars.num_inputs = static_cast<int32_t>(Call.DataInputs.size());
  if (Rescale && Out->Type != DType::U8)
    return Ctx.error("int8 inputs must share the output's quantization");
  if (!Rescale) {
    P.InputScales.clear();
    P.InputZeroPoints.clear();
  }
  Call.Function = "ref_concat_" + Suffix + (Rescale ? "_rescale" : "");
  Call.Params = std::move(P);
  return Call;
}

llvm::Expected<KernelCall> meanOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(AxisT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Suffix, suffixOf(Ctx, *In));
  if (In->rank() > REF_MAX_RANK)
    return Ctx.error("rank exceeds the maximum");
  ACCELGEN_TRY(Axes, Ctx.constInts(*AxisT, "axis"));
  ref_mean_params P{};
  int64_t Count = 1, Kept = 1;
  for (int64_t A : Axes) {
    int64_t D = A < 0 ? A + In->rank() : A;
    if (D < 0 || D >= In->rank())
      return Ctx.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                     A, In->rank()));
    P.axis_mask |= 1u << D;
  }
  for (unsigned D = 0; D < In->rank(); ++D)
    ((P.axis_mask >> D) & 1u ? Count : Kept) *= In->Shape[D];
  if (Kept != Out->numElements())
    return Ctx.error(llvm::formatv("output {0} does not hold the {1} kept "
                                   "elements",
                                   ir::formatShape(Out->Shape), Kept));
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    if (InQ.Scale == OutQ.Scale && InQ.ZeroPoint == OutQ.ZeroPoint) {
      P.same_quantization = 1;
    } else if (Count > 0) {
      // input_scale / output_scale, then 1 / Count folded in: the multiplier
      // is shifted up by floor(log2(Count)) bits (at most 32, and keeping the
      // final shift >= -31) and divided by Count, truncating.
      QuantizedMultiplier M =
          quantizeMultiplier(double(InQ.Scale) / double(OutQ.Scale));
      int Shift = static_cast<int>(llvm::Log2_64(static_cast<uint64_t>(Count)));
      Shift = std::min(Shift, 32);
      Shift = std::min(Shift, 31 + M.LeftShift);
      P.multiplier = static_cast<int32_t>(
          (static_cast<int64_t>(M.Multiplier) << Shift) / Count);
      P.left_shift = M.LeftShift - Shift;
      if (P.left_shift > 30)
        return Ctx.error("the rescaling factor is too large");
    }
  }
  KernelCall Call;
  Call.Function = "ref_mean_" + Suffix;
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> transposeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(PermT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Perm, Ctx.constInts(*PermT, "permutation"));
  if (In->rank() > REF_MAX_RANK || Perm.size() != In->rank() ||
      Out->rank() != In->rank())
    return Ctx.error("the permutation does not match the input's rank");
  ref_transpose_params P{};
  unsigned Seen = 0;
  for (unsigned D = 0; D < Perm.size(); ++D) {
    if (Perm[D] < 0 || Perm[D] >= In->rank() || (Seen >> Perm[D]) & 1u ||
        Out->Shape[D] != In->Shape[Perm[D]])
      return Ctx.error("the permutation is invalid or does not give the "
                       "output's shape");
    Seen |= 1u << Perm[D];
    P.perm[D] = static_cast<int32_t>(Perm[D]);
  }
  KernelCall Call;
  Call.Function = "ref_transpose";
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> stridedSliceOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(BeginT, Ctx.input(1));
  ACCELGEN_TRY(EndT, Ctx.input(2));
  ACCELGEN_TRY(StridesT, Ctx.input(3));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (Ctx.attr("ellipsis_mask", 0) != 0 || Ctx.attr("new_axis_mask", 0) != 0)
    return Ctx.error("ellipsis and new-axis masks are not supported");
  ACCELGEN_TRY(Begin, Ctx.constInts(*BeginT, "begin"));
  ACCELGEN_TRY(End, Ctx.constInts(*EndT, "end"));
  ACCELGEN_TRY(Strides, Ctx.constInts(*StridesT, "strides"));
  const unsigned Rank = In->rank();
  if (Rank > REF_MAX_RANK || Begin.size() != Rank || End.size() != Rank ||
      Strides.size() != Rank)
    return Ctx.error("begin, end and strides must have one value per input "
                     "dimension");
  const int64_t BeginMask = Ctx.attr("begin_mask", 0);
  const int64_t EndMask = Ctx.attr("end_mask", 0);
  const int64_t ShrinkMask = Ctx.attr("shrink_axis_mask", 0);
  const bool Offset = Ctx.op().getBool("offset", false);
  ref_strided_slice_params P{};
  int64_t Total = 1;
  for (unsigned D = 0; D < Rank; ++D) {
    const int64_t Size = In->Shape[D], Stride = Strides[D];
    if (Stride == 0)
      return Ctx.error(llvm::formatv("stride of dimension {0} is 0", D));
    auto Clamp = [](int64_t V, int64_t Lo, int64_t Hi) {
      return V < Lo ? Lo : (V > Hi ? Hi : V);
    };
    // TensorFlow Lite's StartForAxis / StopForAxis.
    int64_t Start = Begin[D];
    if ((BeginMask >> D) & 1)
      Start = Stride > 0 ? std::numeric_limits<int32_t>::lowest()
                         : std::numeric_limits<int32_t>::max();
    if (Start < 0)
      Start += Size;
    Start = Stride > 0 ? Clamp(Start, 0, Size) : Clamp(Start, -1, Size - 1);
    int64_t Stop = Offset ? Begin[D] + End[D] : End[D];
    if ((ShrinkMask >> D) & 1) {
      Stop = Start + 1;
    } else {
      if ((EndMask >> D) & 1)
        Stop = Stride > 0 ? std::numeric_limits<int32_t>::max()
                          : std::numeric_limits<int32_t>::lowest();
      if (Stop < 0)
        Stop += Size;
      Stop = Stride > 0 ? Clamp(Stop, 0, Size) : Clamp(Stop, -1, Size - 1);
    }
    if (Size == 0)
      Start = Stop = 0;
    int64_t Count = Stride > 0 ? (Stop - Start + Stride - 1) / Stride
                               : (Start - Stop - Stride - 1) / -Stride;
    Total *= Count > 0 ? Count : 0;
    P.start[D] = static_cast<int32_t>(Start);
    P.stop[D] = static_cast<int32_t>(Stop);
    P.stride[D] = static_cast<int32_t>(Stride);
  }
  if (Total != Out->numElements())
    return Ctx.error(llvm::formatv("the slice has {0} elements, the output "
                                   "{1}",
                                   Total, Out->numElements()));
  KernelCall Call;
  Call.Function = "ref_strided_slice";
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

} // namespace

llvm::Expected<KernelCall> computeKernelCall(const ir::Graph &G,
                                             const ir::Operator &Op) {
  OpContext Ctx(G, Op);
  if (Op.Opaque)
    return Ctx.error("the operator is not known to the importer, so no "
                     "reference kernel runs it");
  if (Op.Outputs.size() != 1)
    return Ctx.error(llvm::formatv("{0} outputs; the reference kernels write "
                                   "one",
                                   Op.Outputs.size()));
  const std::string &T = Op.Type;
  if (T == "CONV_2D")
    return conv2D(Ctx, /*Depthwise=*/false);
  if (T == "DEPTHWISE_CONV_2D")
    return conv2D(Ctx, /*Depthwise=*/true);
  if (T == "FULLY_CONNECTED")
    return fullyConnected(Ctx);
  if (T == "AVERAGE_POOL_2D")
    return pool2D(Ctx, /*Average=*/true);
  if (T == "MAX_POOL_2D")
    return pool2D(Ctx, /*Average=*/false);
  if (T == "ADD")
    return elementwise(Ctx, "add");
  if (T == "SUB")
    return elementwise(Ctx, "sub");
  if (T == "MUL")
    return elementwise(Ctx, "mul");
  if (T == "SOFTMAX")
    return softmax(Ctx);
  if (T == "QUANTIZE")
    return quantizeOp(Ctx);
  if (T == "DEQUANTIZE")
    return dequantizeOp(Ctx);
  if (T == "RELU")
    return reluOp(Ctx, "RELU");
  if (T == "RELU6")
    return reluOp(Ctx, "RELU6");
  if (T == "RELU_N1_TO_1")
    return reluOp(Ctx, "RELU_N1_TO_1");
  if (T == "LEAKY_RELU")
    return leakyReluOp(Ctx);
  if (T == "HARD_SWISH")
    return hardSwishOp(Ctx);
  if (T == "LOGISTIC")
    return sigmoidOp(Ctx, /*Tanh=*/false);
  if (T == "TANH")
    return sigmoidOp(Ctx, /*Tanh=*/true);
  if (T == "RESHAPE" || T == "SQUEEZE" || T == "EXPAND_DIMS")
    return reshapeOp(Ctx);
  if (T == "PAD")
    return padOp(Ctx, /*V2=*/false);
  if (T == "PADV2")
    return padOp(Ctx, /*V2=*/true);
  if (T == "CONCATENATION")
    return concatOp(Ctx);
  if (T == "MEAN")
    return meanOp(Ctx);
  if (T == "TRANSPOSE")
    return transposeOp(Ctx);
  if (T == "STRIDED_SLICE")
    return stridedSliceOp(Ctx);
  return Ctx.error("no reference kernel implements this operator");
}

} // namespace kernels
} // namespace accelgen
