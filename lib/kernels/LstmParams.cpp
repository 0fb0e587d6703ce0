//===- LstmParams.cpp - UNIDIRECTIONAL_SEQUENCE_LSTM parameters -----------===//
//
// The builder of the lstm kernel family (defs/kernels.td): checks an
// UNIDIRECTIONAL_SEQUENCE_LSTM the way TensorFlow Lite Micro's Prepare does
// (the standard LSTM only: all four gates, biases, no peephole, projection or
// layer normalisation; variable hidden and cell state; int8 with an int16
// cell state, 16x8 (int16 activations, int8 weights, int64 biases), or
// float32) and computes what its Prepare computes for the integer kernels: each gate's two requantization multipliers to the Q3.12
// pre-activation scale, the three products between gates, the cell state's
// power-of-two exponent for its tanh, and the quantized cell clip.
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

namespace accelgen {
namespace kernels {
namespace detail {

namespace {

using ir::DType;
using ir::Tensor;

// The operands of UNIDIRECTIONAL_SEQUENCE_LSTM (TensorFlow Lite's order).
constexpr unsigned InputOperand = 0;
constexpr unsigned FirstInputWeights = 1; // 1-4: input, forget, cell, output
constexpr unsigned FirstRecurrentWeights = 5; // 5-8
constexpr unsigned FirstPeephole = 9;         // 9-11, unsupported
constexpr unsigned FirstBias = 12;            // 12-15
constexpr unsigned ProjectionWeights = 16;    // 16-17, unsupported
constexpr unsigned HiddenState = 18;
constexpr unsigned CellState = 19;
constexpr unsigned FirstLayerNorm = 20; // 20-23, unsupported
constexpr unsigned OperandCount = 24;

const char *const GateNames[4] = {"input", "forget", "cell", "output"};

/// The scale of the gates' int16 pre-activations, Q3.12, and of their
/// activations, Q0.15 (TensorFlow Lite Micro fixes both).
constexpr float PreActivationScale = 1.0f / 4096;
constexpr float ActivationScale = 1.0f / 32768;

/// Operands \p First to \p Last must be omitted: the reference kernel has no
/// \p What.
llvm::Error requireAbsent(const OpContext &Ctx, unsigned First, unsigned Last,
                          llvm::StringRef What) {
  for (unsigned I = First; I <= Last; ++I)
    if (Ctx.op().input(I) >= 0)
      return Ctx.error(llvm::formatv(
          "input {0} is present, but {1} (inputs {2}-{3}) {4} not supported: "
          "TensorFlow Lite Micro's kernel runs the standard LSTM only",
          I, What, First, Last, What.endswith("s") ? "are" : "is"));
  return llvm::Error::success();
}

/// The tensor of operand \p I, which must be present and have \p Shape.
llvm::Expected<const Tensor *> shapedInput(const OpContext &Ctx, unsigned I,
                                           llvm::StringRef Role,
                                           std::vector<int32_t> Shape) {
  ACCELGEN_TRY(T, Ctx.input(I));
  if (llvm::Error E = requireShape(Ctx, *T, I, Role, Shape))
    return std::move(E);
  return T;
}

/// The multiplier of a gate's dot product: TensorFlow Lite's legacy
/// GetQuantizedConvolutionMultipler, whose input and weight scales are
/// multiplied in float before the division in double; an error (named
/// \p What) when its shift is outside the range of the kernel's
/// multiplication (\p Wide: the 16x8 one).
llvm::Expected<QuantizedMultiplier>
gateMultiplier(const OpContext &Ctx, float InScale, float WeightScale,
               bool Wide, llvm::StringRef What) {
  return Ctx.multiplier(double(InScale * WeightScale) /
                            double(PreActivationScale),
                        What, Wide ? MaxWideLeftShift : 30);
}

/// CreateInterGateMulParams: double(a) * double(b) / double(out), checked
/// as gateMultiplier.
llvm::Expected<QuantizedMultiplier>
productMultiplier(const OpContext &Ctx, float A, float B, float Out,
                  llvm::StringRef What) {
  return Ctx.multiplier(double(A) * double(B) / double(Out), What);
}

} // namespace

llvm::Expected<KernelCall> unidirectionalSequenceLstm(const OpContext &Ctx) {
  const ir::Operator &Op = Ctx.op();
  if (Op.Inputs.size() != OperandCount)
    return Ctx.error(llvm::formatv("{0} inputs; the operator has {1}",
                                   Op.Inputs.size(), OperandCount));
  ACCELGEN_TRY(In, Ctx.input(InputOperand));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->Type != DType::I8 && In->Type != DType::I16 &&
      In->Type != DType::F32)
    return Ctx.error(llvm::formatv("input '{0}' is {1}; the kernel takes "
                                   "int8, int16 (16x8) or float32",
                                   In->Name, ir::dtypeName(In->Type)));
  if (llvm::Error E = requireRank(Ctx, *In, 3, "input"))
    return std::move(E);
  if (llvm::Error E = requireAbsent(Ctx, FirstPeephole, FirstPeephole + 2,
                                    "peephole weights"))
    return std::move(E);
  if (llvm::Error E =
          requireAbsent(Ctx, ProjectionWeights, ProjectionWeights + 1,
                        "the projection weights and bias"))
    return std::move(E);
  if (llvm::Error E = requireAbsent(Ctx, FirstLayerNorm, FirstLayerNorm + 3,
                                    "layer normalisation coefficients"))
    return std::move(E);
  if (Op.input(FirstInputWeights) < 0 || Op.input(FirstRecurrentWeights) < 0)
    return Ctx.error("the input gate's weights (inputs 1 and 5) are missing: "
                     "the coupled input and forget gate (CIFG) is not "
                     "supported");

  const bool TimeMajor = Op.getBool(ir::attr::TimeMajor, false);
  const int32_t Batches = TimeMajor ? In->Shape[1] : In->Shape[0];
  const int32_t Steps = TimeMajor ? In->Shape[0] : In->Shape[1];
  const int32_t Features = In->Shape[2];

  ACCELGEN_TRY(Hidden, Ctx.input(HiddenState));
  ACCELGEN_TRY(Cell, Ctx.input(CellState));
  if (Hidden->rank() != 2 || Hidden->Shape[0] != Batches)
    return Ctx.error(llvm::formatv("hidden state '{0}' has shape {1}; "
                                   "expected [{2}, units]",
                                   Hidden->Name, ir::formatShape(Hidden->Shape),
                                   Batches));
  const int32_t Units = Hidden->Shape[1];
  if (Features <= 0 || Units <= 0)
    return Ctx.error(llvm::formatv("input features ({0}) and state units "
                                   "({1}) must be positive",
                                   Features, Units));
  if (Cell->Shape != Hidden->Shape)
    return Ctx.error(llvm::formatv("cell state '{0}' has shape {1}; expected "
                                   "the hidden state's {2}",
                                   Cell->Name, ir::formatShape(Cell->Shape),
                                   ir::formatShape(Hidden->Shape)));
  for (const Tensor *State : {Hidden, Cell})
    if (!State->IsVariable || State->IsConstant)
      return Ctx.error(llvm::formatv("state tensor '{0}' must be a variable "
                                     "tensor without data (the kernel updates "
                                     "it in place)",
                                     State->Name));
  const std::vector<int32_t> WantOut = {In->Shape[0], In->Shape[1], Units};
  if (Out->Shape != WantOut)
    return Ctx.error(llvm::formatv("output '{0}' has shape {1}; expected {2}",
                                   Out->Name, ir::formatShape(Out->Shape),
                                   ir::formatShape(WantOut)));

  // Types: activations and hidden state alike; weights like the input
  // (int8 for 16x8); biases int32, int64 (16x8) or float; the cell state
  // int16 or float.
  const bool Quantized = In->Type != DType::F32;
  const bool Wide = In->Type == DType::I16;
  const DType WantCell = Quantized ? DType::I16 : DType::F32;
  const DType WantBias =
      Wide ? DType::I64 : Quantized ? DType::I32 : DType::F32;
  const DType WantWeights = Wide ? DType::I8 : In->Type;
  for (const Tensor *T : {Hidden, Out})
    if (llvm::Error E = requireSameType(Ctx, *In, *T))
      return std::move(E);
  if (Cell->Type != WantCell)
    return Ctx.error(llvm::formatv("cell state '{0}' is {1}; with {2} "
                                   "activations the kernel needs {3}",
                                   Cell->Name, ir::dtypeName(Cell->Type),
                                   ir::dtypeName(In->Type),
                                   ir::dtypeName(WantCell)));
  const Tensor *Weights[4], *Recurrent[4];
  for (unsigned G = 0; G < 4; ++G) {
    std::string Gate = GateNames[G];
    ACCELGEN_TRY(W, shapedInput(Ctx, FirstInputWeights + G,
                                Gate + " gate's input weights",
                                {Units, Features}));
    ACCELGEN_TRY(R, shapedInput(Ctx, FirstRecurrentWeights + G,
                                Gate + " gate's recurrent weights",
                                {Units, Units}));
    ACCELGEN_TRY(
        B, shapedInput(Ctx, FirstBias + G, Gate + " gate's bias", {Units}));
    for (const Tensor *T : {W, R, B}) {
      const DType Want = T == B ? WantBias : WantWeights;
      if (T->Type != Want)
        return Ctx.error(llvm::formatv("'{0}' is {1}; with {2} activations the "
                                       "kernel needs {3}",
                                       T->Name, ir::dtypeName(T->Type),
                                       ir::dtypeName(In->Type),
                                       ir::dtypeName(Want)));
      if (!T->IsConstant)
        return Ctx.error("'" + T->Name +
                         "' must be constant for the reference kernels");
    }
    if (Wide) {
      if (llvm::Error E = requireWideSumsFit(Ctx, B, Features))
        return std::move(E);
      if (llvm::Error E = requireWideSumsFit(Ctx, nullptr, Units))
        return std::move(E);
    }
    Weights[G] = W;
    Recurrent[G] = R;
  }

  const std::string Activation = Ctx.activation();
  if (Activation != "TANH")
    return Ctx.error("the cell gate's activation is " + Activation +
                     "; the kernel applies TANH only");
  const double CellClip = Op.getFloat(ir::attr::CellClip, 0.0);
  if (!(CellClip >= 0) || !std::isfinite(CellClip))
    return Ctx.error("cell clip " + formatReal(CellClip) +
                     " must be a finite non-negative number (0: none)");

  FamilyParams<ref_lstm_params> P;
  ref_lstm_params &S = P.Scalars;
  S.batches = Batches;
  S.time_steps = Steps;
  S.input_size = Features;
  S.state_size = Units;
  S.time_major = TimeMajor ? 1 : 0;
  S.cell_clip = -1;
  // The options hold the clip as a float.
  S.cell_clip_f = static_cast<float>(CellClip);

  if (Quantized) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(HiddenQ, Ctx.quant(*Hidden, "hidden state"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    ACCELGEN_TRY(CellQ, Ctx.quant(*Cell, "cell state"));
    if (OutQ.Scale != HiddenQ.Scale || OutQ.ZeroPoint != HiddenQ.ZeroPoint)
      return Ctx.error(llvm::formatv(
          "output quantization (scale {0}, zero point {1}) differs from the "
          "hidden state's (scale {2}, zero point {3}); the kernel copies the "
          "hidden state to the output",
          formatReal(OutQ.Scale), OutQ.ZeroPoint, formatReal(HiddenQ.Scale),
          HiddenQ.ZeroPoint));
    if (CellQ.ZeroPoint != 0)
      return Ctx.error(llvm::formatv("cell state '{0}' has zero point {1}; "
                                     "the kernel needs 0 (symmetric int16)",
                                     Cell->Name, CellQ.ZeroPoint));
    bool PowerOfTwo = false;
    const int32_t CellExponent = checkedLog2(CellQ.Scale, PowerOfTwo);
    if (!PowerOfTwo)
      return Ctx.error(llvm::formatv("cell state '{0}' has scale {1}; the "
                                     "kernel's tanh needs a power of two",
                                     Cell->Name, formatReal(CellQ.Scale)));
    for (unsigned G = 0; G < 4; ++G) {
      ACCELGEN_TRY(WQ, Ctx.quant(*Weights[G], "weights"));
      ACCELGEN_TRY(RQ, Ctx.quant(*Recurrent[G], "recurrent weights"));
      for (const auto &[T, Q] :
           {std::pair(Weights[G], WQ), std::pair(Recurrent[G], RQ)})
        if (Q.ZeroPoint != 0)
          return Ctx.error(llvm::formatv("weights '{0}' have zero point {1}; "
                                         "int8 weights must be symmetric",
                                         T->Name, Q.ZeroPoint));
      const std::string Gate = std::to_string(G);
      ACCELGEN_TRY(MI, gateMultiplier(Ctx, InQ.Scale, WQ.Scale, Wide,
                                      "gate " + Gate + "'s input rescaling"));
      S.input_multiplier[G] = MI.Multiplier;
      S.input_left_shift[G] = MI.LeftShift;
      ACCELGEN_TRY(MR,
                   gateMultiplier(Ctx, HiddenQ.Scale, RQ.Scale, Wide,
                                  "gate " + Gate + "'s recurrent rescaling"));
      S.recurrent_multiplier[G] = MR.Multiplier;
      S.recurrent_left_shift[G] = MR.LeftShift;
    }
    S.input_offset = -InQ.ZeroPoint;
    S.hidden_offset = -HiddenQ.ZeroPoint;
    ACCELGEN_TRY(MF, productMultiplier(Ctx, ActivationScale, CellQ.Scale,
                                       CellQ.Scale, "the forget product"));
    S.forget_multiplier = MF.Multiplier;
    S.forget_left_shift = MF.LeftShift;
    ACCELGEN_TRY(MU, productMultiplier(Ctx, ActivationScale, ActivationScale,
                                       CellQ.Scale, "the update product"));
    S.update_multiplier = MU.Multiplier;
    S.update_left_shift = MU.LeftShift;
    ACCELGEN_TRY(MO, productMultiplier(Ctx, ActivationScale, ActivationScale,
                                       HiddenQ.Scale, "the output product"));
    S.output_multiplier = MO.Multiplier;
    S.output_left_shift = MO.LeftShift;
    S.output_zero_point = HiddenQ.ZeroPoint;
    // tanh reads Q3.12 scaled by 3: a cell state of scale 2^e is shifted
    // left by e + 12 bits (right when negative, with rounding).
    const int32_t Shift = 15 + CellExponent - 3;
    if (Shift < 0) {
      S.cell_tanh_multiplier = 3;
      S.cell_tanh_right_shift = -Shift;
    } else if (Shift <= 12) {
      S.cell_tanh_multiplier = 3 << Shift;
      S.cell_tanh_right_shift = 0;
    } else {
      return Ctx.error(llvm::formatv("cell state '{0}' has scale {1}, too "
                                     "coarse for the kernel's tanh (at most "
                                     "2^0)",
                                     Cell->Name, formatReal(CellQ.Scale)));
    }
    if (S.cell_tanh_right_shift > 30)
      return Ctx.error(llvm::formatv("cell state '{0}' has scale {1}, too "
                                     "fine for the kernel's tanh",
                                     Cell->Name, formatReal(CellQ.Scale)));
    if (CellClip > 0)
      S.cell_clip = static_cast<int16_t>(
          std::min(std::max(static_cast<double>(static_cast<float>(CellClip)) /
                                static_cast<double>(CellQ.Scale),
                            -32768.0),
                   32767.0));
  }

  KernelCall Call;
  Call.Params = std::move(P);
  Call.DataInputs.assign(Op.Inputs.begin(), Op.Inputs.begin() + CellState + 1);
  return Call;
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
