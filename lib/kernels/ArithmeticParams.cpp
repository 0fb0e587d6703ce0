//===- ArithmeticParams.cpp - Elementwise, SOFTMAX, quantize, activations -===//
//
// Parameters of ADD / SUB / MUL (with broadcasting), SOFTMAX, QUANTIZE,
// DEQUANTIZE and the standalone activations, each computed with the float or
// double arithmetic TensorFlow Lite uses when it prepares the operator.
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace accelgen {
namespace kernels {
namespace detail {

using ir::DType;
using ir::Tensor;

namespace {

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

/// Shared checks of the unary elementwise operators: same type and size.
llvm::Error unaryPrologue(const OpContext &Ctx, const Tensor &In,
                          const Tensor &Out) {
  if (llvm::Error E = requireSameType(Ctx, In, Out))
    return E;
  if (In.numElements() != Out.numElements())
    return Ctx.error("input and output sizes differ");
  return requireKernelType(Ctx, In);
}

/// DownScaleInt32ToInt16Multiplier: the int16 multiplier nearest to an int32
/// one (rounding half up), saturated at INT16_MAX.
int16_t downscaleMultiplier(int32_t M) {
  constexpr int32_t RoundingOffset = 1 << 15;
  if (M >= std::numeric_limits<int32_t>::max() - RoundingOffset)
    return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((M + RoundingOffset) >> 16);
}

/// The int16 LOGISTIC and TANH input rescaling (TensorFlow Lite Micro's
/// prepare, folded): the kernel computes (x * Multiplier + round) >> LeftShift
/// (LeftShift is a right shift here, >= 0) onto the sigmoid table's scale of
/// 1 / (3 * 4096). A power-of-two input scale of 2^-12 (or 2^-11 for TANH)
/// multiplies by 3 (6) exactly; any other scale by the largest int16
/// multiplier of the form scale * 3 * 4096 * 2^n.
llvm::Expected<QuantizedMultiplier>
sigmoidInt16Multiplier(const OpContext &Ctx, float InScale, bool Tanh) {
  constexpr int InputIntegerBits = 3;
  bool Pot = false;
  const int32_t Log2 = checkedLog2(InScale, Pot);
  const int PotShift = (15 - InputIntegerBits) + Log2;
  if (Pot && (PotShift == 0 || (Tanh && PotShift == 1)))
    return QuantizedMultiplier{3 << PotShift, 0};
  double Multiplier = double(InScale) * 4096.0 * 3.0;
  int Shift = 0;
  while (Multiplier <= 32767.0 / 2.0 && Shift <= 30) {
    ++Shift;
    Multiplier *= 2.0;
  }
  if (!(Multiplier <= 32767.0))
    return Ctx.error(llvm::formatv("int16 input scale {0} is too large for "
                                   "the sigmoid table (at most 32767 / "
                                   "12288)",
                                   formatReal(InScale)));
  if (static_cast<int32_t>(Multiplier) == 0)
    return Ctx.error(llvm::formatv("int16 input scale {0} is too small for "
                                   "the sigmoid table",
                                   formatReal(InScale)));
  return QuantizedMultiplier{static_cast<int32_t>(Multiplier), Shift};
}

/// The unclamped activation range of an int32 result, as TensorFlow Lite's
/// CalculateActivationRange<int32_t>.
llvm::Error activationRangeInt32(const OpContext &Ctx, int32_t &Min,
                                 int32_t &Max) {
  float MinF, MaxF;
  if (llvm::Error E = activationRangeFloat(Ctx.activation(), MinF, MaxF))
    return Ctx.error(llvm::toString(std::move(E)));
  Min = MinF == std::numeric_limits<float>::lowest()
            ? std::numeric_limits<int32_t>::lowest()
            : static_cast<int32_t>(MinF);
  Max = MaxF == std::numeric_limits<float>::max()
            ? std::numeric_limits<int32_t>::max()
            : static_cast<int32_t>(MaxF);
  return llvm::Error::success();
}

/// PRELU: int8 (the alpha quantized apart) or float32.
llvm::Expected<KernelCall> preluOp(const OpContext &Ctx, const Tensor &In,
                                   const Tensor &Alpha, const Tensor &Out) {
  if (In.Type != DType::I8 && In.Type != DType::I16 && In.Type != DType::F32)
    return unsupportedInput(Ctx, In, "int8, int16 or float32");
  // int16 takes an int8 alpha, the others one of their own type.
  if (Alpha.Type != (In.Type == DType::I16 ? DType::I8 : In.Type))
    return Ctx.error(llvm::formatv("alpha '{0}' is {1}; {2} PRELU takes {3}",
                                   Alpha.Name, ir::dtypeName(Alpha.Type),
                                   ir::dtypeName(In.Type),
                                   In.Type == DType::I16
                                       ? "int8"
                                       : ir::dtypeName(In.Type)));
  if (llvm::Error E = checkBroadcast(Ctx, In, Alpha, Out))
    return E;
  ref_elementwise_params P{};
  if (In.Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(In, "input"));
    ACCELGEN_TRY(AlphaQ, Ctx.quant(Alpha, "alpha"));
    ACCELGEN_TRY(OutQ, Ctx.quant(Out, "output"));
    // CalculatePreluParams, in double: the input's own scale for x >= 0,
    // times alpha's below.
    ACCELGEN_TRY(M1, Ctx.multiplier(double(InQ.Scale) / double(OutQ.Scale),
                                    "input scale / output scale"));
    ACCELGEN_TRY(M2, Ctx.multiplier(double(InQ.Scale) * double(AlphaQ.Scale) /
                                        double(OutQ.Scale),
                                    "input scale * alpha scale / output "
                                    "scale"));
    P.input1_offset = -InQ.ZeroPoint;
    P.input2_offset = -AlphaQ.ZeroPoint;
    P.output_offset = OutQ.ZeroPoint;
    P.input1_multiplier = M1.Multiplier;
    P.input1_left_shift = M1.LeftShift;
    P.output_multiplier = M2.Multiplier;
    P.output_left_shift = M2.LeftShift;
    P.act_min = In.Type == DType::I16 ? -32768 : -128;
    P.act_max = In.Type == DType::I16 ? 32767 : 127;
  }
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

/// DIV, SQUARED_DIFFERENCE, FLOOR_DIV and FLOOR_MOD, in TensorFlow Lite
/// Micro's types (the inputs' and output's type checked equal).
llvm::Expected<KernelCall> divisionLikeOp(const OpContext &Ctx, const Tensor &A,
                                          const Tensor &B, const Tensor &Out) {
  const ir::OpCode Code = Ctx.op().code();
  const bool Div = Code == ir::OpCode::Div;
  const bool SquaredDiff = Code == ir::OpCode::SquaredDifference;
  const bool Typed =
      A.Type == DType::F32 || (!Div && !SquaredDiff)
          ? A.Type == DType::F32
          : (A.Type == DType::I8 || A.Type == DType::I32 ||
             (SquaredDiff && A.Type == DType::I16));
  if (!Typed)
    return unsupportedInput(Ctx, A,
                            Div           ? "int8, int32 or float32"
                            : SquaredDiff ? "int8, int16, int32 or float32"
                                          : "float32");
  if (llvm::Error E = checkBroadcast(Ctx, A, B, Out))
    return E;
  ref_elementwise_params P{};
  if (A.Type == DType::F32) {
    if (llvm::Error E =
            activationRangeFloat(Ctx.activation(), P.act_min_f, P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else if (A.Type == DType::I32) {
    // Plain integers (TensorFlow Lite Micro refuses quantized int32 DIV).
    if (A.Quant || B.Quant || Out.Quant)
      return Ctx.error("int32 operands must not be quantized");
    if (llvm::Error E = activationRangeInt32(Ctx, P.act_min, P.act_max))
      return E;
  } else {
    ACCELGEN_TRY(AQ, Ctx.quant(A, "input 0"));
    ACCELGEN_TRY(BQ, Ctx.quant(B, "input 1"));
    ACCELGEN_TRY(OQ, Ctx.quant(Out, "output"));
    P.input1_offset = -AQ.ZeroPoint;
    P.input2_offset = -BQ.ZeroPoint;
    P.output_offset = OQ.ZeroPoint;
    if (Div) {
      // The ratio in float, then widened (CalculateOpDataDiv). The quotient
      // is normalised to at least 2^23 before the multiplier, so a left
      // shift above 23 could leave int32.
      ACCELGEN_TRY(M, Ctx.multiplier(double(AQ.Scale / (BQ.Scale * OQ.Scale)),
                                     "input 0 scale / (input 1 scale * "
                                     "output scale)",
                                     /*MaxLeftShift=*/23));
      P.output_multiplier = M.Multiplier;
      P.output_left_shift = M.LeftShift;
      if (llvm::Error E =
              activationRangeQuantized(Ctx.activation(), Out.Type, OQ.Scale,
                                       OQ.ZeroPoint, P.act_min, P.act_max))
        return Ctx.error(llvm::toString(std::move(E)));
    } else {
      // SQUARED_DIFFERENCE (int16 symmetric, as Ctx.quant checks): both
      // inputs to twice the larger input scale with 7 bits of headroom (0
      // for int16), the output from its square (PrepareQuantized: in
      // double but for the output scale's float product).
      P.input_left_shift = A.Type == DType::I16 ? 0 : 7;
      const double TwiceMax = 2.0 * double(std::max(AQ.Scale, BQ.Scale));
      ACCELGEN_TRY(M1, Ctx.multiplier(double(AQ.Scale) / TwiceMax,
                                      "input 0 scale / common scale"));
      ACCELGEN_TRY(M2, Ctx.multiplier(double(BQ.Scale) / TwiceMax,
                                      "input 1 scale / common scale"));
      const float Shifted = float(1 << (2 * P.input_left_shift)) * OQ.Scale;
      ACCELGEN_TRY(MO, Ctx.multiplier(TwiceMax * TwiceMax / double(Shifted),
                                      "squared common scale / output scale"));
      P.input1_multiplier = M1.Multiplier;
      P.input1_left_shift = M1.LeftShift;
      P.input2_multiplier = M2.Multiplier;
      P.input2_left_shift = M2.LeftShift;
      P.output_multiplier = MO.Multiplier;
      P.output_left_shift = MO.LeftShift;
      P.act_min = A.Type == DType::I16 ? std::numeric_limits<int16_t>::min()
                                       : std::numeric_limits<int8_t>::min();
      P.act_max = A.Type == DType::I16 ? std::numeric_limits<int16_t>::max()
                                       : std::numeric_limits<int8_t>::max();
    }
  }
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

/// The int8 rescaling of ADD_N and CUMSUM (their Prepare): inputs of
/// \p In's quantization to a common scale of twice the input scale with 20
/// bits of headroom, the sums to \p Out's; both multipliers below 1.
template <typename ParamsT>
llvm::Error sumRescaling(const OpContext &Ctx, const Tensor &In,
                         const Tensor &Out, ParamsT &P) {
  ACCELGEN_TRY(InQ, Ctx.quant(In, "input"));
  ACCELGEN_TRY(OutQ, Ctx.quant(Out, "output"));
  P.input_offset = -InQ.ZeroPoint;
  P.output_offset = OutQ.ZeroPoint;
  P.left_shift = 20;
  const double TwiceMax = 2 * double(InQ.Scale);
  ACCELGEN_TRY(MI, Ctx.multiplier(double(InQ.Scale) / TwiceMax,
                                  "input scale / common scale", 0));
  ACCELGEN_TRY(MO, Ctx.multiplier(TwiceMax / (double(1 << P.left_shift) *
                                              double(OutQ.Scale)),
                                  "common scale / output scale", 0));
  P.input_multiplier = MI.Multiplier;
  P.input_left_shift = MI.LeftShift;
  P.output_multiplier = MO.Multiplier;
  P.output_left_shift = MO.LeftShift;
  return llvm::Error::success();
}

/// The input scaling of the 8-bit SOFTMAX and LOG_SOFTMAX.
struct SoftmaxScaling {
  QuantizedMultiplier M;
  int32_t DiffMin;
};

/// PreprocessSoftmaxScaling: beta * input_scale in Q5.26 terms, capped
/// below 2^31, as a multiplier above one (so its left shift is 1 to 31: the
/// 8-bit softmax kernels' multiply takes 31, the reference's
/// GreaterThanOne form); and -CalculateInputRadius, the most negative
/// difference that still counts.
llvm::Expected<SoftmaxScaling>
softmaxScaling(const OpContext &Ctx, double Beta, float InputScale) {
  constexpr int ScaledDiffIntegerBits = 5;
  const double Real = std::min(Beta * double(InputScale) *
                                   double(1 << (31 - ScaledDiffIntegerBits)),
                               double((1LL << 31) - 1));
  if (!(Real > 1.0))
    return Ctx.error(llvm::formatv("beta * input scale = {0} is too small "
                                   "for the fixed-point softmax",
                                   formatReal(Beta * InputScale)));
  const QuantizedMultiplier M = quantizeMultiplier(Real);
  return SoftmaxScaling{
      M, -calculateInputRadius(ScaledDiffIntegerBits, M.LeftShift)};
}

} // namespace

// --- ADD, SUB, MUL -----------------------------------------------------------

/// ONNX Runtime's QLinearAdd on x86 with AVX2 (MLAS): each input's scale
/// over the output's, in float32, as integers with 22 significant bits for
/// the larger (lrint of the ratio times 2^shift), and the shift by which
/// their sum of products is divided, rounding half away from zero.
static llvm::Error onnxAddScaling(const OpContext &Ctx, const TensorQuant &AQ,
                                  const TensorQuant &BQ, const TensorQuant &OQ,
                                  ref_elementwise_params &P) {
  const float RatioA = AQ.Scale / OQ.Scale;
  const float RatioB = BQ.Scale / OQ.Scale;
  int Exponent = 0;
  std::frexp(std::max(RatioA, RatioB), &Exponent);
  // frexp's exponent is one above the float's own (m in [0.5, 1)).
  const int Shift = 21 - (Exponent - 1);
  if (RatioA < 0x1.0p-14f || RatioB < 0x1.0p-14f || RatioA >= 256.0f ||
      RatioB >= 256.0f || Shift < 13 || Shift > 31)
    return Ctx.error(llvm::formatv(
        "input scales {0} and {1} over output scale {2} are outside the "
        "ratios ONNX Runtime's QLinearAdd computes ([2^-14, 256), the larger "
        "at least 2^-10)",
        formatReal(AQ.Scale), formatReal(BQ.Scale), formatReal(OQ.Scale)));
  P.input1_multiplier =
      static_cast<int32_t>(std::lrint(std::ldexp(RatioA, Shift)));
  P.input2_multiplier =
      static_cast<int32_t>(std::lrint(std::ldexp(RatioB, Shift)));
  P.input_left_shift = Shift;
  return llvm::Error::success();
}

llvm::Expected<KernelCall> elementwise(const OpContext &Ctx) {
  const bool Mul = Ctx.op().code() == ir::OpCode::Mul;
  ACCELGEN_TRY(A, Ctx.input(0));
  ACCELGEN_TRY(B, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *A, *Out))
    return E;
  // PRELU checks its alpha's type itself (int16 takes int8).
  if (Ctx.op().code() == ir::OpCode::Prelu)
    return preluOp(Ctx, *A, *B, *Out);
  if (llvm::Error E = requireSameType(Ctx, *A, *B))
    return E;
  switch (Ctx.op().code()) {
  case ir::OpCode::Div:
  case ir::OpCode::SquaredDifference:
  case ir::OpCode::FloorDiv:
  case ir::OpCode::FloorMod:
    return divisionLikeOp(Ctx, *A, *B, *Out);
  default:
    break;
  }
  // MAXIMUM and MINIMUM: TensorFlow Lite Micro compares the stored values
  // of the output's type and writes them unchanged (no quantization, no
  // activation).
  if (Ctx.op().code() == ir::OpCode::Maximum ||
      Ctx.op().code() == ir::OpCode::Minimum) {
    if (A->Type != DType::I8 && A->Type != DType::I16 &&
        A->Type != DType::I32 && A->Type != DType::I64 &&
        A->Type != DType::F32)
      return unsupportedInput(Ctx, *A,
                              "int8, int16, int32, int64 or float32");
    if (llvm::Error E = checkBroadcast(Ctx, *A, *B, *Out))
      return E;
    return makeCall(ref_elementwise_params{}, {Ctx.op().input(0), Ctx.op().input(1)});
  }
  if (A->Type == DType::I32) {
    // Plain integers, as TensorFlow Lite Micro's int32 kernels: SUB and MUL
    // clamp to the fused activation, ADD to the whole int32 range (its
    // int32 kernel ignores the activation).
    if (A->Quant || B->Quant || Out->Quant)
      return Ctx.error("int32 operands must not be quantized");
    if (llvm::Error E = checkBroadcast(Ctx, *A, *B, *Out))
      return E;
    ref_elementwise_params P{};
    P.act_min = std::numeric_limits<int32_t>::min();
    P.act_max = std::numeric_limits<int32_t>::max();
    if (Ctx.op().code() != ir::OpCode::Add)
      if (llvm::Error E = activationRangeInt32(Ctx, P.act_min, P.act_max))
        return E;
    return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
  }
  if (llvm::Error E = requireKernelType(Ctx, *A))
    return std::move(E);
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
    if (Ctx.arithmetic() == ir::Arithmetic::ONNX && A->Type != DType::I16) {
      P.input1_scale = AQ.Scale;
      P.input2_scale = BQ.Scale;
      P.output_scale = OQ.Scale;
      if (Ctx.op().code() == ir::OpCode::Add)
        if (llvm::Error E = onnxAddScaling(Ctx, AQ, BQ, OQ, P))
          return E;
      if (llvm::Error E =
              activationRangeQuantized(Ctx.activation(), Out->Type, OQ.Scale,
                                       OQ.ZeroPoint, P.act_min, P.act_max))
        return Ctx.error(llvm::toString(std::move(E)));
      KernelCall Call = makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
      Call.Variant = "onnx";
      return Call;
    }
    if (Mul) {
      ACCELGEN_TRY(M, Ctx.multiplier(double(AQ.Scale) * double(BQ.Scale) /
                                         double(OQ.Scale),
                                     "input scales' product / output scale"));
      P.output_multiplier = M.Multiplier;
      P.output_left_shift = M.LeftShift;
    } else {
      // Both inputs to a common scale (twice the larger input scale) with
      // 20 bits of headroom (15 for int16), then to the output. ADD divides
      // in double (add_common.cc); SUB divides in float and widens the
      // quotients (sub_common.cc), which changes the last bit of some
      // multipliers.
      P.input_left_shift = Out->Type == DType::I16 ? 15 : 20;
      const float TwiceMaxF = 2 * std::max(AQ.Scale, BQ.Scale);
      const double TwiceMax = double(TwiceMaxF);
      // SUB's multipliers are computed in float, then widened, ADD's in
      // double (TensorFlow Lite Micro's PrepareSub and PrepareAdd).
      const bool Sub = Ctx.op().code() == ir::OpCode::Sub;
      ACCELGEN_TRY(M1, Ctx.multiplier(Sub ? double(AQ.Scale / TwiceMaxF)
                                          : double(AQ.Scale) / TwiceMax,
                                      "input 0 scale / common scale"));
      ACCELGEN_TRY(M2, Ctx.multiplier(Sub ? double(BQ.Scale / TwiceMaxF)
                                          : double(BQ.Scale) / TwiceMax,
                                      "input 1 scale / common scale"));
      ACCELGEN_TRY(MO,
                   Ctx.multiplier(
                       Sub ? double(TwiceMaxF /
                                    (float(1 << P.input_left_shift) * OQ.Scale))
                           : TwiceMax / (double(1 << P.input_left_shift) *
                                         double(OQ.Scale)),
                       "common scale / output scale"));
      if (M1.LeftShift > 0 || M2.LeftShift > 0 || MO.LeftShift > 0)
        return Ctx.error(llvm::formatv(
            "output scale {0} is too small for input scales {1} and {2} (the "
            "rescaling multipliers must stay below 1)",
            formatReal(OQ.Scale), formatReal(AQ.Scale), formatReal(BQ.Scale)));
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
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

// --- ABS, NEG, SQRT, RSQRT, SQUARE -------------------------------------------

llvm::Expected<KernelCall> eluOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  ref_elu_params P{};
  if (In->Type == DType::I8) {
    // PopulateLookupTable, in float as TensorFlow Lite Micro computes it.
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    const float InverseScale = 1 / OutQ.Scale;
    for (int32_t V = -128; V <= 127; ++V) {
      const float X = InQ.Scale * float(V - InQ.ZeroPoint);
      const float Y = X < 0.0f ? std::exp(X) - 1.0f : X;
      const float Rescaled = std::round(Y * InverseScale);
      const int32_t Q = static_cast<int32_t>(Rescaled + float(OutQ.ZeroPoint));
      P.table[uint8_t(int8_t(V))] = static_cast<int8_t>(std::clamp(Q, -128, 127));
    }
  } else if (In->Type != DType::F32) {
    return unsupportedInput(Ctx, *In, "int8 or float32");
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> l2NormOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->Shape != Out->Shape || In->rank() > 4)
    return Ctx.error("the output must have the input's shape, of rank 4 or "
                     "less");
  if (Ctx.activation() != "NONE")
    return Ctx.error("a fused activation on L2_NORMALIZATION is not "
                     "supported");
  ref_l2norm_params P{};
  if (In->Type == DType::I8) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // The kernel writes multiples of 1/128 (TensorFlow Lite's fixed output
    // quantization).
    if (OutQ.Scale != 1.0f / 128 || OutQ.ZeroPoint != 0)
      return Ctx.error(llvm::formatv(
          "output scale {0} and zero point {1} must be 1/128 and 0",
          formatReal(OutQ.Scale), OutQ.ZeroPoint));
    P.input_zero_point = InQ.ZeroPoint;
  } else if (In->Type != DType::F32) {
    return unsupportedInput(Ctx, *In, "int8 or float32");
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> addNOp(const OpContext &Ctx) {
  ACCELGEN_TRY(First, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (First->Type != DType::I8 && First->Type != DType::F32)
    return unsupportedInput(Ctx, *First, "int8 or float32");
  ref_add_n_params P{};
  std::vector<int32_t> Inputs;
  for (unsigned I = 0; I < Ctx.op().Inputs.size(); ++I) {
    ACCELGEN_TRY(In, Ctx.input(I));
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
    if (In->Shape != Out->Shape)
      return Ctx.error(llvm::formatv("input '{0}' {1} is not the output's "
                                     "shape {2}",
                                     In->Name, ir::formatShape(In->Shape),
                                     ir::formatShape(Out->Shape)));
    // One quantization for every input, as TensorFlow Lite requires.
    if (In->Type == DType::I8)
      if (llvm::Error E = requireKeptQuant(Ctx, *First, *In))
        return E;
    Inputs.push_back(Ctx.op().input(I));
  }
  if (Inputs.size() < 2)
    return Ctx.error("ADD_N takes at least two inputs");
  P.num_inputs = static_cast<int32_t>(Inputs.size());
  if (First->Type == DType::I8)
    if (llvm::Error E = sumRescaling(Ctx, *First, *Out, P))
      return std::move(E);
  return makeCall(P, std::move(Inputs));
}

llvm::Expected<KernelCall> cumsumOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(AxisT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->Type != DType::I8 && In->Type != DType::F32)
    return unsupportedInput(Ctx, *In, "int8 or float32");
  if (In->Shape != Out->Shape)
    return Ctx.error("the output must have the input's shape");
  if (AxisT->Type != DType::I32)
    return Ctx.error(llvm::formatv("the axis operand is {0}, not i32",
                                   ir::dtypeName(AxisT->Type)));
  ACCELGEN_TRY(Axes, Ctx.constInts(*AxisT, "axis"));
  const int64_t Rank = In->rank();
  if (Axes.size() != 1 || Rank < 1)
    return Ctx.error("the axis operand must hold one value, the input a rank "
                     "of 1 or more");
  const int64_t Axis = Axes[0] < 0 ? Axes[0] + Rank : Axes[0];
  if (Axis < 0 || Axis >= Rank)
    return Ctx.error(llvm::formatv("axis {0} is outside rank {1}", Axes[0],
                                   Rank));
  ref_cumsum_params P{};
  P.before = P.depth = P.after = 1;
  for (int64_t D = 0; D < Rank; ++D)
    (D < Axis ? P.before : D > Axis ? P.after : P.depth) *= In->Shape[D];
  P.exclusive = Ctx.op().getBool(ir::attr::Exclusive, false);
  P.reverse = Ctx.op().getBool(ir::attr::Reverse, false);
  if (In->Type == DType::I8)
    if (llvm::Error E = sumRescaling(Ctx, *In, *Out, P))
      return std::move(E);
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> compareOp(const OpContext &Ctx) {
  ACCELGEN_TRY(A, Ctx.input(0));
  ACCELGEN_TRY(B, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *A, *B))
    return E;
  if (Out->Type != DType::Bool)
    return Ctx.error(llvm::formatv("output '{0}' is {1}; the kernels write "
                                   "bool",
                                   Out->Name, ir::dtypeName(Out->Type)));
  const ir::OpCode Code = Ctx.op().code();
  const bool Logical =
      Code == ir::OpCode::LogicalAnd || Code == ir::OpCode::LogicalOr;
  const bool Equality =
      Code == ir::OpCode::Equal || Code == ir::OpCode::NotEqual;
  // TensorFlow Lite Micro's types: bool for the logical operators and the
  // equalities, int8, int32, int64 and float32 for every comparison.
  const bool Numeric = A->Type == DType::I8 || A->Type == DType::I32 ||
                       A->Type == DType::I64 || A->Type == DType::F32;
  if (Logical ? A->Type != DType::Bool
              : !(Numeric || (Equality && A->Type == DType::Bool)))
    return unsupportedInput(Ctx, *A,
                            Logical    ? "bool"
                            : Equality ? "bool, int8, int32, int64 or float32"
                                       : "int8, int32, int64 or float32");
  if (llvm::Error E = checkBroadcast(Ctx, *A, *B, *Out))
    return E;
  ref_compare_params P{};
  if (A->Type == DType::I8) {
    // ComparisonsPrepare: each input at its own scale (a multiplier below
    // 1) after 8 bits of headroom.
    ACCELGEN_TRY(AQ, Ctx.quant(*A, "input 0"));
    ACCELGEN_TRY(BQ, Ctx.quant(*B, "input 1"));
    ACCELGEN_TRY(M1, Ctx.multiplier(double(AQ.Scale), "input 0 scale", 0));
    ACCELGEN_TRY(M2, Ctx.multiplier(double(BQ.Scale), "input 1 scale", 0));
    P.input1_offset = -AQ.ZeroPoint;
    P.input2_offset = -BQ.ZeroPoint;
    P.left_shift = 8;
    P.input1_multiplier = M1.Multiplier;
    P.input1_left_shift = M1.LeftShift;
    P.input2_multiplier = M2.Multiplier;
    P.input2_left_shift = M2.LeftShift;
  }
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

llvm::Expected<KernelCall> unaryMathOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  if (Ctx.op().code() == ir::OpCode::Cast) {
    // The stored values converted, quantization ignored, as TensorFlow Lite
    // Micro's static_cast (uint8: TensorFlow Lite's).
    auto Castable = [](DType T) {
      return T == DType::I8 || T == DType::U8 || T == DType::I16 ||
             T == DType::I32 || T == DType::U32 || T == DType::F32;
    };
    if (!(Castable(In->Type) || In->Type == DType::Bool) ||
        !Castable(Out->Type) || In->Type == Out->Type)
      return Ctx.error(llvm::formatv(
          "a cast from {0} to {1}; the kernels convert between two different "
          "types of int8, uint8, int16, int32, uint32 and float32, and from "
          "bool to each",
          ir::dtypeName(In->Type), ir::dtypeName(Out->Type)));
    return makeCall(ref_unary_math_params{}, {Ctx.op().input(0)});
  }
  if (Ctx.op().code() == ir::OpCode::LogicalNot) {
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
    if (In->Type != DType::Bool)
      return unsupportedInput(Ctx, *In, "bool");
    return makeCall(ref_unary_math_params{}, {Ctx.op().input(0)});
  }
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  const bool Abs = Ctx.op().code() == ir::OpCode::Abs;
  ref_unary_math_params P{};
  if (In->Type == DType::F32) {
    // Nothing to compute.
  } else if (Abs && In->Type == DType::I16 && !In->Quant) {
    // TensorFlow Lite Micro's raw int16 ABS (std::abs, cast back).
    P.raw = 1;
  } else if (Abs && (In->Type == DType::I8 || In->Type == DType::I16)) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    // SetAbsOutputMultiplier: the ratio in float, then widened.
    if (InQ.Scale != OutQ.Scale) {
      ACCELGEN_TRY(M, Ctx.multiplier(double(InQ.Scale / OutQ.Scale),
                                     "input scale / output scale"));
      P.rescale = 1;
      P.multiplier = M.Multiplier;
      P.left_shift = M.LeftShift;
    }
  } else if (Ctx.op().code() == ir::OpCode::Rsqrt && In->Type == DType::I8) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    // SetRsqrtOutputMultiplier: the root and product in float, the
    // reciprocal in double.
    ACCELGEN_TRY(M, Ctx.multiplier(1.0 / double(std::sqrt(InQ.Scale) *
                                                OutQ.Scale),
                                   "1 / (sqrt(input scale) * output scale)"));
    P.multiplier = M.Multiplier;
    P.left_shift = M.LeftShift;
  } else {
    const ir::OpCode Code = Ctx.op().code();
    return unsupportedInput(Ctx, *In,
                            Abs ? "float32, int8 or int16"
                            : Code == ir::OpCode::Rsqrt ? "float32 or int8"
                                                        : "float32");
  }
  return makeCall(P, {Ctx.op().input(0)});
}

// --- SOFTMAX -----------------------------------------------------------------

/// ONNX Runtime's QLinearSoftmax table for an input of scale \p Scale and
/// rows of \p Depth: entry d is exp(-d * scale) scaled up by as much as the
/// float32 sum of a row allows (e^(log(FLT_MAX / depth) - 5)), computed in
/// double and stored as float32, for d = max - x in [0, 255].
static std::vector<float> onnxSoftmaxTable(float Scale, int32_t Depth) {
  double Lift =
      std::log(std::numeric_limits<float>::max() / static_cast<float>(Depth));
  Lift = std::max(0.0, Lift - 5.0) / Scale;
  std::vector<float> Table(256);
  for (int D = 0; D < 256; ++D)
    Table[D] = static_cast<float>(
        std::exp((Lift - static_cast<double>(D)) * static_cast<double>(Scale)));
  return Table;
}

llvm::Expected<KernelCall> softmax(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  // int8 probabilities may be written as int16 (16 fractional bits).
  const bool Widened = In->Type == DType::I8 && Out->Type == DType::I16;
  if (!Widened)
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
  if (llvm::Error E = requireKernelType(Ctx, *In))
    return std::move(E);
  if (In->Shape != Out->Shape)
    return Ctx.error("input and output shapes differ");
  ref_softmax_params P{};
  const double Beta = Ctx.op().getFloat(ir::attr::Beta, 1.0);
  P.beta = static_cast<float>(Beta);
  if (In->Type == DType::I16) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    if (std::fabs(OutQ.Scale - 1.0f / 32768) > 0.001f / 32768)
      return Ctx.error(llvm::formatv("int16 output scale {0} must be 1/32768",
                                     formatReal(OutQ.Scale)));
    // The differences onto the exp table's input, [-65535, 0] for [-10, 0].
    ACCELGEN_TRY(M, Ctx.multiplier(double(InQ.Scale) * Beta / (10.0 / 65535.0),
                                   "beta * input scale / (10 / 65535)"));
    P.input_multiplier = M.Multiplier;
    P.input_left_shift = M.LeftShift;
  } else if (In->Type != DType::F32 && !Widened &&
             Ctx.arithmetic() == ir::Arithmetic::ONNX) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    if (Beta != 1.0)
      return Ctx.error(llvm::formatv("beta {0}: ONNX's softmax has none (1)",
                                     formatReal(Beta)));
    const int32_t Depth = In->Shape.empty() ? 1 : In->Shape.back();
    if (Depth < 1)
      return Ctx.error("an empty softmax row");
    FamilyParams<ref_softmax_params> F;
    F.Scalars = P;
    F.Scalars.output_steps = std::floor(1.0f / OutQ.Scale);
    F.Scalars.output_offset = OutQ.ZeroPoint;
    F.exp_table = onnxSoftmaxTable(InQ.Scale, Depth);
    KernelCall Call = makeCall(std::move(F), {Ctx.op().input(0)});
    Call.Variant = "onnx";
    return Call;
  } else if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output", Widened));
    const int32_t WantZP = Widened ? -32768 : In->Type == DType::I8 ? -128 : 0;
    const float WantScale = Widened ? 1.0f / 65536 : 1.0f / 256;
    if (OutQ.ZeroPoint != WantZP ||
        std::fabs(OutQ.Scale - WantScale) > 0.001f * WantScale)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) must be scale "
          "1/{2}, zero point {3}",
          formatReal(OutQ.Scale), OutQ.ZeroPoint, Widened ? 65536 : 256,
          WantZP));
    ACCELGEN_TRY(S, softmaxScaling(Ctx, Beta, InQ.Scale));
    P.input_multiplier = S.M.Multiplier;
    P.input_left_shift = S.M.LeftShift;
    P.diff_min = S.DiffMin;
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> logSoftmaxOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->Type != DType::I8 && In->Type != DType::F32)
    return unsupportedInput(Ctx, *In, "int8 or float32");
  if (In->Shape != Out->Shape)
    return Ctx.error("input and output shapes differ");
  ref_log_softmax_params P{};
  if (In->Type == DType::I8) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // LogSoftmax's Prepare asks for exactly this output quantization.
    if (OutQ.Scale != 16.0f / 256 || OutQ.ZeroPoint != 127)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) must be scale "
          "16/256, zero point 127",
          formatReal(OutQ.Scale), OutQ.ZeroPoint));
    // PreprocessLogSoftmaxScalingExp with beta 1: SOFTMAX's scaling, and
    // its reverse as a multiplier below one.
    ACCELGEN_TRY(S, softmaxScaling(Ctx, 1.0, InQ.Scale));
    ACCELGEN_TRY(R, Ctx.multiplier(double(1LL << (31 - S.M.LeftShift)) /
                                       double(S.M.Multiplier),
                                   "the reverse scaling divisor", 0));
    P.input_multiplier = S.M.Multiplier;
    P.input_left_shift = S.M.LeftShift;
    P.reverse_scaling_divisor = R.Multiplier;
    P.reverse_scaling_left_shift = R.LeftShift;
    P.diff_min = S.DiffMin;
  }
  return makeCall(P, {Ctx.op().input(0)});
}

// --- QUANTIZE, DEQUANTIZE ----------------------------------------------------

/// The per-channel parameters of QUANTIZE's output or DEQUANTIZE's input
/// \p T, along its last axis (the kernels' channels).
template <typename Struct>
llvm::Expected<FamilyParams<Struct>>
channelQuant(const OpContext &Ctx, const ir::Tensor &T, llvm::StringRef Role) {
  const ir::QuantParams &Q = *T.Quant;
  const int32_t Last = static_cast<int32_t>(T.Shape.size()) - 1;
  if (Q.Axis != Last ||
      T.Shape[Last] != static_cast<int32_t>(Q.Scales.size()) ||
      Q.ZeroPoints.size() != Q.Scales.size())
    return Ctx.error(llvm::formatv(
        "{0} '{1}' has {2} scales along axis {3}; the kernels take them along "
        "the last axis, one per element of it",
        Role, T.Name, Q.Scales.size(), Q.Axis));
  FamilyParams<Struct> P;
  P.Scalars.channels = T.Shape[Last];
  for (size_t C = 0; C < Q.Scales.size(); ++C) {
    if (llvm::Error E = Ctx.checkScale(Q.Scales[C], T, Role))
      return std::move(E);
    if (Q.ZeroPoints[C] < quantizedMin(T.Type) ||
        Q.ZeroPoints[C] > quantizedMax(T.Type))
      return Ctx.error(llvm::formatv("{0} '{1}' has zero point {2}, outside "
                                     "its type",
                                     Role, T.Name, Q.ZeroPoints[C]));
    P.channel_scale.push_back(Q.Scales[C]);
    P.channel_zero_point.push_back(static_cast<int32_t>(Q.ZeroPoints[C]));
  }
  return P;
}

llvm::Expected<KernelCall> quantizeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  // int32 is an output of requantizing only (int8 or int16 to int32).
  const bool ToInt32 = Out->Type == DType::I32 && In->Type != DType::F32;
  if (!isQuantized8(Out->Type) && Out->Type != DType::I16 && !ToInt32)
    return Ctx.error(llvm::formatv("quantizing {0} to {1} is not supported "
                                   "(to int8, uint8 and int16 is, and int8 "
                                   "or int16 to int32)",
                                   ir::dtypeName(In->Type),
                                   ir::dtypeName(Out->Type)));
  if (Out->Quant && Out->Quant->isPerChannel()) {
    // TensorFlow Lite's PerChannelQuantize or ONNX's QuantizeLinear with
    // an axis, from float32 into 8 bits.
    if (In->Type != DType::F32 || !isQuantized8(Out->Type))
      return Ctx.error(llvm::formatv(
          "output '{0}' is quantized per channel: the kernels quantize "
          "float32 into int8 or uint8 so",
          Out->Name));
    ACCELGEN_TRY(P, channelQuant<ref_quantize_params>(Ctx, *Out, "output"));
    KernelCall Call = makeCall(std::move(P), {Ctx.op().input(0)});
    Call.Variant = Ctx.arithmetic() == ir::Arithmetic::ONNX ? "onnx_per_channel"
                                                            : "per_channel";
    return Call;
  }
  ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
  KernelCall Call;
  Call.DataInputs = {Ctx.op().input(0)};
  // ONNX's QuantizeLinear (and DequantizeLinear before it, between
  // quantized types) into 8 bits: the onnx functions.
  const bool Onnx = Ctx.arithmetic() == ir::Arithmetic::ONNX &&
                    isQuantized8(Out->Type) &&
                    (In->Type == DType::F32 || isQuantized8(In->Type));
  if (Onnx)
    Call.Variant = "onnx";
  if (In->Type == DType::F32) {
    ref_quantize_params P{};
    P.scale = OutQ.Scale;
    P.zero_point = OutQ.ZeroPoint;
    Call.Params = P;
    return Call;
  }
  if (!isQuantized8(In->Type) && In->Type != DType::I16 &&
      In->Type != DType::I32)
    return Ctx.error(llvm::formatv("quantizing from {0} is not supported",
                                   ir::dtypeName(In->Type)));
  ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
  ref_requantize_params P{};
  ACCELGEN_TRY(M, Ctx.multiplier(double(InQ.Scale) / double(OutQ.Scale),
                                 "input scale / output scale"));
  P.input_zero_point = InQ.ZeroPoint;
  P.output_zero_point = OutQ.ZeroPoint;
  P.multiplier = M.Multiplier;
  P.left_shift = M.LeftShift;
  P.input_scale = InQ.Scale;
  P.output_scale = OutQ.Scale;
  if (M.LeftShift > 30 && !Onnx)
    return Ctx.error("the rescaling factor is too large");
  Call.Params = P;
  return Call;
}

llvm::Expected<KernelCall> dequantizeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->numElements() != Out->numElements())
    return Ctx.error("input and output sizes differ");
  if ((!isQuantized8(In->Type) && In->Type != DType::I16) ||
      Out->Type != DType::F32)
    return Ctx.error(llvm::formatv("dequantizing {0} to {1} is not supported "
                                   "(int8, uint8 or int16 to float32 is)",
                                   ir::dtypeName(In->Type),
                                   ir::dtypeName(Out->Type)));
  if (In->Quant && In->Quant->isPerChannel()) {
    if (!isQuantized8(In->Type))
      return Ctx.error(llvm::formatv("input '{0}' is {1} quantized per "
                                     "channel: the kernels take 8-bit values",
                                     In->Name, ir::dtypeName(In->Type)));
    ACCELGEN_TRY(P, channelQuant<ref_dequantize_params>(Ctx, *In, "input"));
    KernelCall Call = makeCall(std::move(P), {Ctx.op().input(0)});
    Call.Variant = "per_channel";
    return Call;
  }
  ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
  ref_dequantize_params P{};
  P.scale = double(InQ.Scale);
  P.zero_point = InQ.ZeroPoint;
  return makeCall(P, {Ctx.op().input(0)});
}

// --- Activations -------------------------------------------------------------

llvm::Expected<KernelCall> reluOp(const OpContext &Ctx) {
  // RELU, RELU6 and RELU_N1_TO_1 clamp as the fused activation of that name.
  const llvm::StringRef Activation = Ctx.op().Type;
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = unaryPrologue(Ctx, *In, *Out))
    return std::move(E);
  ref_relu_params P{};
  if (In->Type == DType::F32) {
    if (llvm::Error E =
            activationRangeFloat(Activation, P.act_min_f, P.act_max_f))
      return Ctx.error(llvm::toString(std::move(E)));
  } else {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // int8 and int16 RELU6 as TensorFlow Lite Micro runs them
    // (Relu6Quantized): the raw input clamped to the input quantization's 0
    // and 6, whatever the output's quantization; here as the identity
    // multiplier (2^30, left shift 1, exact on every int16 difference) with
    // the input's parameters.
    const bool RawClamp =
        (In->Type == DType::I8 || In->Type == DType::I16) &&
        Ctx.op().code() == ir::OpCode::Relu6;
    const TensorQuant ClampQ = RawClamp ? InQ : OutQ;
    // The scale ratio in float, then widened (CalculateReluOpData).
    QuantizedMultiplier M{1 << 30, 1};
    if (!RawClamp) {
      ACCELGEN_TRY(Ratio, Ctx.multiplier(double(InQ.Scale / OutQ.Scale),
                                         "input scale / output scale"));
      M = Ratio;
    }
    if (M.LeftShift > 30)
      return Ctx.error("the rescaling factor is too large");
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = ClampQ.ZeroPoint;
    P.output_multiplier = M.Multiplier;
    P.output_left_shift = M.LeftShift;
    if (llvm::Error E =
            activationRangeQuantized(Activation, Out->Type, ClampQ.Scale,
                                     ClampQ.ZeroPoint, P.act_min, P.act_max))
      return Ctx.error(llvm::toString(std::move(E)));
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> leakyReluOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = unaryPrologue(Ctx, *In, *Out))
    return std::move(E);
  ref_leaky_relu_params P{};
  const float Alpha =
      static_cast<float>(Ctx.op().getFloat(ir::attr::Alpha, 0.2));
  P.alpha = Alpha;
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // Both products in float, as TensorFlow Lite computes them.
    const float AlphaScale = InQ.Scale * Alpha / OutQ.Scale;
    const float IdentityScale = InQ.Scale / OutQ.Scale;
    if (!std::isfinite(AlphaScale))
      return Ctx.error(llvm::formatv("alpha {0} gives no finite rescaling "
                                     "factor",
                                     formatReal(Alpha)));
    // A negative alpha gives a negative multiplier (the kernel negates the
    // rounded magnitude); its shift is that of the magnitude, checked here.
    ACCELGEN_TRY(Magnitude,
                 Ctx.multiplier(std::fabs(double(AlphaScale)),
                                "|input scale * alpha / output scale|"));
    (void)Magnitude;
    const QuantizedMultiplier MA = quantizeMultiplier(double(AlphaScale));
    ACCELGEN_TRY(MI, Ctx.multiplier(double(IdentityScale),
                                    "input scale / output scale"));
    if (MA.LeftShift > 30 || MI.LeftShift > 30 ||
        MA.Multiplier == std::numeric_limits<int32_t>::min())
      return Ctx.error("the rescaling factor is too large");
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    P.alpha_multiplier = MA.Multiplier;
    P.alpha_left_shift = MA.LeftShift;
    P.identity_multiplier = MI.Multiplier;
    P.identity_left_shift = MI.LeftShift;
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> hardSwishOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = unaryPrologue(Ctx, *In, *Out))
    return std::move(E);
  ref_hard_swish_params P{};
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // All in float, as TensorFlow Lite's HardSwishPrepare.
    const float HiresInputScale = (1.0f / 128.0f) * InQ.Scale;
    const float ReluishScale = 3.0f / 32768.0f;
    ACCELGEN_TRY(MO, Ctx.multiplier(double(HiresInputScale / OutQ.Scale),
                                    "input scale / 128 / output scale"));
    ACCELGEN_TRY(MR, Ctx.multiplier(double(HiresInputScale / ReluishScale),
                                    "input scale / 128 / (3 / 32768)"));
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
  return makeCall(P, {Ctx.op().input(0)});
}

/// ONNX Runtime's logistic approximation (MLAS's, the rational polynomial
/// Eigen uses) as its FMA3 kernel computes it on x86-64: x clamped to
/// [-18, 18], p(x^2) and q(x^2) by fused multiply-adds, x * p / q + 0.5,
/// no lower than 0.
static float mlasLogistic(float X) {
  X = std::min(18.0f, std::max(-18.0f, X));
  const float X2 = X * X;
  float P = std::fma(X2, 4.37031012579801e-11f, 1.15627324459942e-07f);
  P = std::fma(X2, P, 6.08574864600143e-05f);
  P = std::fma(X2, P, 8.51377133304701e-03f);
  P = std::fma(X2, P, 2.48287947061529e-01f);
  float Q = std::fma(X2, 6.10247389755681e-13f, 5.76102136993427e-09f);
  Q = std::fma(X2, Q, 6.29106785017040e-06f);
  Q = std::fma(X2, Q, 1.70198817374094e-03f);
  Q = std::fma(X2, Q, 1.16817656904453e-01f);
  Q = std::fma(X2, Q, 9.93151921023180e-01f);
  return std::max(0.0f, X * P / Q + 0.5f);
}

/// ONNX Runtime's QLinearSigmoid table: each input byte dequantized in
/// float32, its logistic, quantized as QuantizeLinear (x / scale clamped to
/// the type less the zero point, ties to even, plus the zero point).
static std::vector<int32_t> onnxLogisticTable(DType Type, const TensorQuant &In,
                                              const TensorQuant &Out) {
  const int32_t Lo = quantizedMin(Type), Hi = quantizedMax(Type);
  std::vector<int32_t> Table(256);
  for (int32_t B = 0; B < 256; ++B) {
    const int32_t Q = Type == DType::I8 ? int32_t(int8_t(uint8_t(B))) : B;
    const float X = In.Scale * static_cast<float>(Q - In.ZeroPoint);
    float V = mlasLogistic(X) / Out.Scale;
    V = std::min(static_cast<float>(Hi - Out.ZeroPoint),
                 std::max(static_cast<float>(Lo - Out.ZeroPoint), V));
    Table[size_t(B)] = static_cast<int32_t>(std::nearbyint(V)) + Out.ZeroPoint;
  }
  return Table;
}

llvm::Expected<KernelCall> sigmoidOp(const OpContext &Ctx) {
  const bool Tanh = Ctx.op().code() == ir::OpCode::Tanh;
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = unaryPrologue(Ctx, *In, *Out))
    return std::move(E);
  ref_sigmoid_params P{};
  if (!Tanh && isQuantized8(In->Type) &&
      Ctx.arithmetic() == ir::Arithmetic::ONNX) {
    // QLinearSigmoid: any output quantization, one table.
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    FamilyParams<ref_sigmoid_params> F;
    F.lookup_table = onnxLogisticTable(In->Type, InQ, OutQ);
    KernelCall Call = makeCall(std::move(F), {Ctx.op().input(0)});
    Call.Variant = "onnx";
    return Call;
  }
  if (In->Type == DType::I16) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    bool OutPot = false;
    if (checkedLog2(OutQ.Scale, OutPot) != -15 || !OutPot)
      return Ctx.error(llvm::formatv("int16 output scale {0} must be 2^-15",
                                     formatReal(OutQ.Scale)));
    ACCELGEN_TRY(M, sigmoidInt16Multiplier(Ctx, InQ.Scale, Tanh));
    P.input_multiplier = M.Multiplier;
    P.input_left_shift = M.LeftShift;
  } else if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // The output quantization is fixed by the kernel.
    const float WantScale = Tanh ? 1.0f / 128 : 1.0f / 256;
    const int32_t WantZP =
        In->Type == DType::I8 ? (Tanh ? 0 : -128) : (Tanh ? 128 : 0);
    if (OutQ.ZeroPoint != WantZP || OutQ.Scale != WantScale)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) must be scale "
          "{2}, zero point {3}",
          formatReal(OutQ.Scale), OutQ.ZeroPoint, formatReal(WantScale),
          WantZP));
    constexpr int InputIntegerBits = 4;
    ACCELGEN_TRY(M, Ctx.multiplier(double(InQ.Scale) *
                                       double(1 << (31 - InputIntegerBits)),
                                   "input scale * 2^27"));
    if (M.LeftShift < 0 || M.LeftShift > 30)
      return Ctx.error(llvm::formatv("input scale {0} is out of range for the "
                                     "fixed-point kernel",
                                     formatReal(InQ.Scale)));
    P.input_zero_point = InQ.ZeroPoint;
    P.input_multiplier = M.Multiplier;
    P.input_left_shift = M.LeftShift;
    P.input_range_radius = calculateInputRadius(InputIntegerBits, M.LeftShift);
  }
  return makeCall(P, {Ctx.op().input(0)});
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
