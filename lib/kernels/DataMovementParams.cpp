//===- DataMovementParams.cpp - RESHAPE, PAD, CONCATENATION, MEAN, ... ----===//
//
// Parameters of the operators that move or reduce data: RESHAPE / SQUEEZE /
// EXPAND_DIMS, PAD / PADV2, CONCATENATION, MEAN, TRANSPOSE, STRIDED_SLICE.
// Their shape operands (paddings, axes, permutation, slice bounds) must be
// constant and are folded into the parameters.
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

namespace accelgen {
namespace kernels {
namespace detail {

using ir::DType;
using ir::Tensor;

// --- Data movement -----------------------------------------------------------

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
  ref_reshape_params P{};
  P.bytes = static_cast<size_t>(In->byteSize());
  Call.Params = P;
  Call.DataInputs = {Ctx.op().input(0)};
  return Call;
}

llvm::Expected<KernelCall> padOp(const OpContext &Ctx) {
  const bool V2 = Ctx.op().code() == ir::OpCode::PadV2;
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Paddings, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  // And TensorFlow Lite Micro's plain int32, padded with 0 or the value.
  const bool Int32 = In->Type == DType::I32;
  if (!Int32)
    if (llvm::Error E = requireKernelType(Ctx, *In))
      return std::move(E);
  if (In->rank() > REF_MAX_RANK || Out->rank() != In->rank())
    return Ctx.error("input and output ranks differ or exceed the maximum");
  ACCELGEN_TRY(Pads, Ctx.constInts(*Paddings, "paddings"));
  if (Pads.size() != 2 * In->rank())
    return Ctx.error(llvm::formatv("paddings hold {0} values for rank {1}",
                                   Pads.size(), In->rank()));
  ref_pad_params P{};
  for (unsigned D = 0; D < In->rank(); ++D) {
    int64_t Before = Pads[2 * D], After = Pads[2 * D + 1];
    if (Before < 0 || After < 0 ||
        In->Shape[D] + Before + After != Out->Shape[D])
      return Ctx.error(llvm::formatv("padding [{0}, {1}] of dimension {2} does "
                                     "not give the output's {3}",
                                     Before, After, D, Out->Shape[D]));
    P.before[D] = static_cast<int32_t>(Before);
    P.after[D] = static_cast<int32_t>(After);
  }
  ACCELGEN_TRY(Value, Ctx.optionalInput(2));
  if (!V2 && Value)
    return Ctx.error("PAD takes no padding value");
  if (In->Type != DType::F32 && !Int32) {
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
    else if (In->Type == DType::I16 && Value->Data.size() >= 2)
      P.pad_value = static_cast<int16_t>(Value->Data[0] | Value->Data[1] << 8);
    else if (Int32 && Value->Data.size() >= 4)
      P.pad_value = static_cast<int32_t>(
          uint32_t(Value->Data[0]) | uint32_t(Value->Data[1]) << 8 |
          uint32_t(Value->Data[2]) << 16 | uint32_t(Value->Data[3]) << 24);
    else
      P.pad_value = Value->Data[0];
  }
  return makeCall(P, {Ctx.op().input(0)});
}

namespace {

/// PACK: inputs of one shape stacked along a new output dimension, which
/// the concatenation kernel copies as it joins slices (each input's slice
/// is its elements after the axis). TensorFlow Lite Micro's types and
/// TensorFlow Lite's uint8; the quantization must be the output's (the
/// bytes are copied).
llvm::Expected<KernelCall> packOp(const OpContext &Ctx, const Tensor &Out) {
  if (Out.Type != DType::I8 && Out.Type != DType::U8 &&
      Out.Type != DType::I16 && Out.Type != DType::I32 &&
      Out.Type != DType::I64 && Out.Type != DType::F32)
    return Ctx.error(llvm::formatv("output '{0}' is {1}; the kernels take "
                                   "int8, uint8, int16, int32, int64 or "
                                   "float32",
                                   Out.Name, ir::dtypeName(Out.Type)));
  const int64_t Rank = Out.rank();
  int64_t Axis = Ctx.attr(ir::attr::Axis, 0);
  if (Axis < 0)
    Axis += Rank;
  if (Axis < 0 || Axis >= Rank || Rank > REF_MAX_RANK)
    return Ctx.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                   Ctx.attr(ir::attr::Axis, 0), Rank));
  std::vector<int32_t> Slice = Out.Shape;
  Slice.erase(Slice.begin() + Axis);
  if (Out.Shape[size_t(Axis)] != int32_t(Ctx.op().Inputs.size()))
    return Ctx.error(llvm::formatv("{0} inputs stacked, but the output's "
                                   "axis holds {1}",
                                   Ctx.op().Inputs.size(),
                                   Out.Shape[size_t(Axis)]));
  FamilyParams<ref_concat_params> P;
  P.Scalars.axis = static_cast<int32_t>(Axis);
  KernelCall Call;
  for (unsigned I = 0; I < Ctx.op().Inputs.size(); ++I) {
    ACCELGEN_TRY(In, Ctx.input(I));
    if (llvm::Error E = requireSameType(Ctx, *In, Out))
      return E;
    if (In->Shape != Slice)
      return Ctx.error(llvm::formatv("input '{0}' {1} is not the output {2} "
                                     "without its axis",
                                     In->Name, ir::formatShape(In->Shape),
                                     ir::formatShape(Out.Shape)));
    if (llvm::Error E = requireKeptQuant(Ctx, *In, Out))
      return E;
    Call.DataInputs.push_back(Ctx.op().input(I));
  }
  P.Scalars.num_inputs = static_cast<int32_t>(Call.DataInputs.size());
  Call.Params = std::move(P);
  return Call;
}

} // namespace

llvm::Expected<KernelCall> concatOp(const OpContext &Ctx) {
  ACCELGEN_TRY(Out, Ctx.output());
  if (Ctx.op().code() == ir::OpCode::Pack)
    return packOp(Ctx, *Out);
  // TensorFlow Lite Micro's types: those of the quantized and float kernels,
  // and bool, int32 and int64, whose stored values are copied.
  const bool Raw = Out->Type == DType::Bool || Out->Type == DType::I32 ||
                   Out->Type == DType::I64;
  if (!Raw)
    if (llvm::Error E = requireKernelType(Ctx, *Out))
      return std::move(E);
  if (Ctx.activation() != "NONE")
    return Ctx.error("a fused activation on CONCATENATION is not supported");
  const int64_t Rank = Out->rank();
  int64_t Axis = Ctx.attr(ir::attr::Axis, 0);
  if (Axis < 0)
    Axis += Rank;
  if (Axis < 0 || Axis >= Rank || Rank > REF_MAX_RANK)
    return Ctx.error(llvm::formatv("axis {0} is out of range for rank {1}",
                                   Ctx.attr(ir::attr::Axis, 0), Rank));
  FamilyParams<ref_concat_params> P;
  P.Scalars.axis = static_cast<int32_t>(Axis);
  KernelCall Call;
  bool Rescale = false;
  std::optional<TensorQuant> OutQ;
  if (Out->Type != DType::F32 && !Raw) {
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
      return Ctx.error("input '" + In->Name +
                       "' has another rank than the "
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
      P.input_scale.push_back(InQ.Scale);
      P.input_zero_point.push_back(InQ.ZeroPoint);
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
    return Ctx.error(llvm::formatv("{0} inputs must share the output's "
                                   "quantization",
                                   ir::dtypeName(Out->Type)));
  if (!Rescale) {
    P.input_scale.clear();
    P.input_zero_point.clear();
  }
  // With ONNX's arithmetic a copy of 8-bit values computes it too.
  Call.Variant = Rescale ? "rescale"
                 : Ctx.arithmetic() == ir::Arithmetic::ONNX &&
                         isQuantized8(Out->Type) && !Raw
                     ? "onnx"
                     : "";
  Call.Params = std::move(P);
  return Call;
}

llvm::Expected<KernelCall> meanOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(AxisT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  const bool All = Ctx.op().code() == ir::OpCode::ReduceAll;
  if (All != (In->Type == DType::Bool))
    return unsupportedInput(Ctx, *In, All ? "bool" : "numbers");
  if (!All)
    if (llvm::Error E = requireKernelType(Ctx, *In))
      return std::move(E);
  if (In->rank() > REF_MAX_RANK)
    return Ctx.error("rank exceeds the maximum");
  ACCELGEN_TRY(Axes, Ctx.constInts(*AxisT, "axis"));
  ref_mean_params P{};
  int64_t Count = 1, Kept = 1;
  for (int64_t A : Axes) {
    int64_t D = A < 0 ? A + In->rank() : A;
    if (D < 0 || D >= In->rank())
      return Ctx.error(llvm::formatv("axis {0} is out of range for rank {1}", A,
                                     In->rank()));
    P.axis_mask |= 1u << D;
  }
  for (unsigned D = 0; D < In->rank(); ++D)
    ((P.axis_mask >> D) & 1u ? Count : Kept) *= In->Shape[D];
  if (Kept != Out->numElements())
    return Ctx.error(llvm::formatv("output {0} does not hold the {1} kept "
                                   "elements",
                                   ir::formatShape(Out->Shape), Kept));
  // SUM is MEAN without the division by the count.
  const bool Sum = Ctx.op().code() == ir::OpCode::Sum;
  P.divide = !Sum;
  if (All) {
    // Nothing but the axes.
  } else if (Ctx.op().code() == ir::OpCode::ReduceMax ||
             Ctx.op().code() == ir::OpCode::ReduceMin) {
    // The elements themselves: one quantization in and out, as TensorFlow
    // Lite Micro requires.
    if (In->Type != DType::F32) {
      ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
      ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
      if (llvm::Error E = requireSameQuant(Ctx, InQ, OutQ))
        return std::move(E);
    }
  } else if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    P.input_zero_point = InQ.ZeroPoint;
    P.output_zero_point = OutQ.ZeroPoint;
    if (Count > 0) {
      // input_scale / output_scale, then 1 / Count folded in: the multiplier
      // is shifted up by floor(log2(Count)) bits (at most 32, and keeping the
      // final shift >= -31) and divided by Count, truncating. Equal input and
      // output quantization is no special case (TensorFlow Lite Micro's
      // QuantizedMeanOrSum).
      ACCELGEN_TRY(M, Ctx.multiplier(double(InQ.Scale) / double(OutQ.Scale),
                                     "input scale / output scale"));
      int Shift = Sum ? 0
                      : static_cast<int>(
                            llvm::Log2_64(static_cast<uint64_t>(Count)));
      Shift = std::min(Shift, 32);
      Shift = std::min(Shift, 31 + M.LeftShift);
      P.multiplier = static_cast<int32_t>(
          (static_cast<int64_t>(M.Multiplier) << Shift) / (Sum ? 1 : Count));
      P.left_shift = M.LeftShift - Shift;
      if (P.left_shift > 30)
        return Ctx.error("the rescaling factor is too large");
    }
  }
  return makeCall(P, {Ctx.op().input(0)});
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
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> spaceDepthOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (llvm::Error E = requireRank(Ctx, *In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Out, 4, "output"))
    return E;
  const int64_t Block = Ctx.attr(ir::attr::BlockSize, 0);
  if (Block <= 0 || Block > 32767)
    return Ctx.error(llvm::formatv("block size {0} must be 1 to 32767", Block));
  // The spatial side [N, H*b, W*b, C] and the channel side [N, H, W, b*b*C].
  const bool ToDepth = Ctx.op().code() == ir::OpCode::SpaceToDepth;
  const Tensor &Spatial = ToDepth ? *In : *Out, &Depth = ToDepth ? *Out : *In;
  const int64_t B = Block;
  if (Spatial.Shape[0] != Depth.Shape[0] ||
      Spatial.Shape[1] != Depth.Shape[1] * B ||
      Spatial.Shape[2] != Depth.Shape[2] * B ||
      int64_t(Depth.Shape[3]) != int64_t(Spatial.Shape[3]) * B * B)
    return Ctx.error(llvm::formatv(
        "input {0} and output {1} are not {2}x{2} blocks of each other",
        ir::formatShape(In->Shape), ir::formatShape(Out->Shape), Block));
  ref_space_depth_params P{};
  P.block_size = static_cast<int32_t>(Block);
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> mirrorPadOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Paddings, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->rank() > REF_MAX_RANK || Out->rank() != In->rank())
    return Ctx.error("input and output ranks differ or exceed the maximum");
  const std::string Mode = Ctx.op().getString(ir::attr::Mode, "");
  if (Mode != "REFLECT" && Mode != "SYMMETRIC")
    return Ctx.error("the mode must be REFLECT or SYMMETRIC, not '" + Mode +
                     "'");
  ACCELGEN_TRY(Pads, Ctx.constInts(*Paddings, "paddings"));
  if (Pads.size() != 2 * In->rank())
    return Ctx.error(llvm::formatv("paddings hold {0} values for rank {1}",
                                   Pads.size(), In->rank()));
  ref_mirror_pad_params P{};
  P.offset = Mode == "REFLECT" ? 1 : 0;
  for (unsigned D = 0; D < In->rank(); ++D) {
    const int64_t Before = Pads[2 * D], After = Pads[2 * D + 1];
    // A mirror image holds at most the dimension (less its edge when
    // reflecting).
    const int64_t Most = In->Shape[D] - P.offset;
    if (Before < 0 || After < 0 || Before > Most || After > Most)
      return Ctx.error(llvm::formatv(
          "padding [{0}, {1}] of dimension {2} must be 0 to {3} for {4}",
          Before, After, D, Most, Mode));
    if (In->Shape[D] + Before + After != Out->Shape[D])
      return Ctx.error(llvm::formatv("padding [{0}, {1}] of dimension {2} does "
                                     "not give the output's {3}",
                                     Before, After, D, Out->Shape[D]));
    P.before[D] = static_cast<int32_t>(Before);
    P.after[D] = static_cast<int32_t>(After);
  }
  if (llvm::Error E = requireKeptQuant(Ctx, *In, *Out))
    return E;
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> batchSpaceOp(const OpContext &Ctx) {
  const bool ToBatch = Ctx.op().code() == ir::OpCode::SpaceToBatchND;
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(BlockT, Ctx.input(1));
  ACCELGEN_TRY(PadT, Ctx.input(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  const unsigned Rank = In->rank();
  if ((Rank != 3 && Rank != 4) || Out->rank() != Rank)
    return Ctx.error("input and output must both be 3-D or 4-D");
  ACCELGEN_TRY(Block, Ctx.constInts(*BlockT, "block shape"));
  ACCELGEN_TRY(Pads, Ctx.constInts(*PadT, ToBatch ? "paddings" : "crops"));
  const unsigned Spatial = Rank - 2;
  if (Block.size() != Spatial || Pads.size() != 2 * Spatial)
    return Ctx.error(llvm::formatv(
        "a rank-{0} tensor takes {1} block sizes and {2} {3}", Rank, Spatial,
        2 * Spatial, ToBatch ? "paddings" : "crops"));
  // [N, H, C] reads as [N, H, 1, C].
  int64_t B[2] = {Block[0], Spatial == 2 ? Block[1] : 1};
  int64_t Before[2] = {Pads[0], Spatial == 2 ? Pads[2] : 0};
  int64_t After[2] = {Pads[1], Spatial == 2 ? Pads[3] : 0};
  const Tensor &Space = ToBatch ? *In : *Out, &Batch = ToBatch ? *Out : *In;
  auto Dim = [](const Tensor &T, unsigned I) -> int64_t {
    return T.rank() == 3 && I == 2 ? 1 : T.Shape[I == 3 ? T.rank() - 1 : I];
  };
  bool Fits = Dim(Batch, 0) == Dim(Space, 0) * B[0] * B[1] &&
              Dim(Batch, 3) == Dim(Space, 3);
  for (unsigned I = 0; I < 2; ++I) {
    if (B[I] <= 0 || B[I] > 32767 || Before[I] < 0 || After[I] < 0)
      return Ctx.error(llvm::formatv(
          "block sizes must be 1 to 32767 and {0} not negative",
          ToBatch ? "paddings" : "crops"));
    const int64_t Padded = ToBatch ? Dim(Space, 1 + I) + Before[I] + After[I]
                                   : Dim(Batch, 1 + I) * B[I];
    const int64_t Other = ToBatch ? Dim(Batch, 1 + I) * B[I]
                                  : Dim(Space, 1 + I) + Before[I] + After[I];
    Fits = Fits && Padded == Other;
  }
  if (!Fits)
    return Ctx.error(llvm::formatv(
        "input {0} and output {1} do not match the block shape and {2}",
        ir::formatShape(In->Shape), ir::formatShape(Out->Shape),
        ToBatch ? "paddings" : "crops"));
  ref_batch_space_params P{};
  P.block_h = static_cast<int32_t>(B[0]);
  P.block_w = static_cast<int32_t>(B[1]);
  P.pad_top = static_cast<int32_t>(Before[0]);
  P.pad_left = static_cast<int32_t>(Before[1]);
  if (In->Type != DType::F32) {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    if (llvm::Error E = requireSameQuant(Ctx, InQ, OutQ))
      return E;
    // Padding reads as real 0, as TensorFlow Lite pads (TensorFlow Lite
    // Micro never sets its pad value, which its zeroed arena leaves at 0).
    if (ToBatch && ir::dtypeSize(In->Type) == 1)
      P.pad_byte = static_cast<int32_t>(OutQ.ZeroPoint & 0xff);
    else if (ToBatch && OutQ.ZeroPoint != 0)
      return Ctx.error("padding a type wider than 8 bits needs zero point 0");
  }
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> argMinMaxOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(AxisT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->Type != DType::I8 && In->Type != DType::F32)
    return unsupportedInput(Ctx, *In, "int8 or float32");
  if (Out->Type != DType::I32)
    return Ctx.error(llvm::formatv("output '{0}' is {1}; the kernels write "
                                   "int32",
                                   Out->Name, ir::dtypeName(Out->Type)));
  if (AxisT->Type != DType::I32)
    return Ctx.error(llvm::formatv("the axis operand is {0}, not i32",
                                   ir::dtypeName(AxisT->Type)));
  ACCELGEN_TRY(Axes, Ctx.constInts(*AxisT, "axis"));
  const int64_t Rank = In->rank();
  if (Axes.size() != 1 || Rank < 1 || Rank > REF_MAX_RANK)
    return Ctx.error("the axis operand must hold one value, the input a rank "
                     "of 1 to 6");
  const int64_t Axis = Axes[0] < 0 ? Axes[0] + Rank : Axes[0];
  if (Axis < 0 || Axis >= Rank)
    return Ctx.error(llvm::formatv("axis {0} is outside rank {1}", Axes[0],
                                   Rank));
  std::vector<int32_t> Kept = In->Shape;
  Kept.erase(Kept.begin() + Axis);
  if (Kept != Out->Shape)
    return Ctx.error(llvm::formatv("output {0} is not the input {1} without "
                                   "dimension {2}",
                                   ir::formatShape(Out->Shape),
                                   ir::formatShape(In->Shape), Axis));
  ref_arg_min_max_params P{};
  P.axis = static_cast<int32_t>(Axis);
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> selectOp(const OpContext &Ctx) {
  ACCELGEN_TRY(Cond, Ctx.input(0));
  ACCELGEN_TRY(X, Ctx.input(1));
  ACCELGEN_TRY(Y, Ctx.input(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (Cond->Type != DType::Bool)
    return Ctx.error(llvm::formatv("the condition '{0}' is {1}, not bool",
                                   Cond->Name, ir::dtypeName(Cond->Type)));
  if (llvm::Error E = requireSameType(Ctx, *X, *Y))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *X, *Out))
    return E;
  if (X->Type != DType::I8 && X->Type != DType::I16 && X->Type != DType::F32)
    return unsupportedInput(Ctx, *X, "int8, int16 or float32");
  // The elements are copied: x and y must mean what the output means.
  if (llvm::Error E = requireKeptQuant(Ctx, *X, *Out))
    return E;
  if (llvm::Error E = requireKeptQuant(Ctx, *Y, *Out))
    return E;
  // Each operand broadcasts to the output, whose every dimension is one
  // of theirs.
  ref_select_params P{};
  bool Fits =
      broadcastStrides(Cond->Shape, Out->Shape, P.condition_stride, P.dims) &&
      broadcastStrides(X->Shape, Out->Shape, P.x_stride) &&
      broadcastStrides(Y->Shape, Out->Shape, P.y_stride);
  for (size_t D = 0; Fits && D < REF_MAX_RANK; ++D)
    Fits = P.dims[D] == 0 || P.dims[D] == 1 || P.condition_stride[D] ||
           P.x_stride[D] || P.y_stride[D];
  if (!Fits)
    return Ctx.error(llvm::formatv("shapes {0}, {1} and {2} do not broadcast "
                                   "to {3}",
                                   ir::formatShape(Cond->Shape),
                                   ir::formatShape(X->Shape),
                                   ir::formatShape(Y->Shape),
                                   ir::formatShape(Out->Shape)));
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1),
                      Ctx.op().input(2)});
}

llvm::Expected<KernelCall> gatherOp(const OpContext &Ctx) {
  // EMBEDDING_LOOKUP: rows of its value (input 1) by its lookup (input 0),
  // TensorFlow Lite Micro's float32 and int8 copies.
  const bool Lookup = Ctx.op().code() == ir::OpCode::EmbeddingLookup;
  ACCELGEN_TRY(In, Ctx.input(Lookup ? 1 : 0));
  ACCELGEN_TRY(Idx, Ctx.input(Lookup ? 0 : 1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (Lookup) {
    if (In->Type != DType::I8 && In->Type != DType::F32)
      return unsupportedInput(Ctx, *In, "int8 or float32");
    if (Idx->rank() != 1 || In->rank() < 2)
      return Ctx.error("the lookup must be 1-D and the value at least 2-D");
    if (Idx->Type != DType::I32)
      return Ctx.error(llvm::formatv("the lookup is {0}, not i32",
                                     ir::dtypeName(Idx->Type)));
    std::vector<int32_t> Want = In->Shape;
    Want[0] = Idx->Shape[0];
    if (Want != Out->Shape)
      return Ctx.error(llvm::formatv("output {0} is not the {1} rows looked "
                                     "up in {2}",
                                     ir::formatShape(Out->Shape),
                                     Idx->Shape[0],
                                     ir::formatShape(In->Shape)));
    if (In->Type == DType::I8 && Out->Type == DType::F32) {
      // Micro's hybrid lookup: int8 rows (zero point 0) times the scale.
      ACCELGEN_TRY(Q, Ctx.quant(*In, "value"));
      if (Q.ZeroPoint != 0)
        return Ctx.error("int8 rows dequantized to float32 must have zero "
                         "point 0");
      ref_embedding_dequantize_params P{};
      P.rows = In->Shape[0];
      P.columns = static_cast<int32_t>(In->numElements() /
                                       std::max<int64_t>(1, In->Shape[0]));
      P.count = Idx->Shape[0];
      P.scale = Q.Scale;
      return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
    }
  }
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (Idx->Type != DType::I32)
    return Ctx.error(llvm::formatv("the indices are {0}, not i32",
                                   ir::dtypeName(Idx->Type)));
  const int64_t Rank = In->rank(), IdxRank = Idx->rank();
  int64_t Axis = Ctx.attr(ir::attr::Axis, 0);
  int64_t BatchDims = Ctx.attr(ir::attr::BatchDims, 0);
  if (Axis < 0)
    Axis += Rank;
  if (BatchDims < 0)
    BatchDims += IdxRank;
  if (Axis < 0 || Axis >= Rank || BatchDims < 0 || BatchDims > Axis ||
      BatchDims > IdxRank)
    return Ctx.error(llvm::formatv("axis {0} and batch_dims {1} do not fit "
                                   "input rank {2} and indices rank {3}",
                                   Ctx.attr(ir::attr::Axis, 0),
                                   Ctx.attr(ir::attr::BatchDims, 0), Rank,
                                   IdxRank));
  // The output: the input's dimensions before the axis, the indices' after
  // the batch, the input's after the axis.
  std::vector<int32_t> Want(In->Shape.begin(), In->Shape.begin() + Axis);
  Want.insert(Want.end(), Idx->Shape.begin() + BatchDims, Idx->Shape.end());
  Want.insert(Want.end(), In->Shape.begin() + Axis + 1, In->Shape.end());
  bool BatchesMatch = true;
  for (int64_t D = 0; D < BatchDims; ++D)
    BatchesMatch = BatchesMatch && In->Shape[D] == Idx->Shape[D];
  if (!BatchesMatch || Want != Out->Shape)
    return Ctx.error(llvm::formatv(
        "output {0} is not what input {1} gathered by indices {2} gives",
        ir::formatShape(Out->Shape), ir::formatShape(In->Shape),
        ir::formatShape(Idx->Shape)));
  auto Product = [](const std::vector<int32_t> &S, int64_t From, int64_t To) {
    int64_t N = 1;
    for (int64_t D = From; D < To; ++D)
      N *= S[size_t(D)];
    return N;
  };
  ref_gather_params P{};
  P.batch = static_cast<int32_t>(Product(In->Shape, 0, BatchDims));
  P.outer = static_cast<int32_t>(Product(In->Shape, BatchDims, Axis));
  P.axis = In->Shape[size_t(Axis)];
  P.count = static_cast<int32_t>(Product(Idx->Shape, BatchDims, IdxRank));
  P.inner = static_cast<int32_t>(Product(In->Shape, Axis + 1, Rank));
  if (llvm::Error E = requireKeptQuant(Ctx, *In, *Out))
    return E;
  return makeCall(P, {Ctx.op().input(Lookup ? 1 : 0),
                      Ctx.op().input(Lookup ? 0 : 1)});
}

llvm::Expected<KernelCall> broadcastToOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(ShapeT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (llvm::Error E = requireKeptQuant(Ctx, *In, *Out))
    return E;
  ACCELGEN_TRY(Dims, Ctx.constInts(*ShapeT, "shape"));
  if (std::vector<int64_t>(Out->Shape.begin(), Out->Shape.end()) != Dims)
    return Ctx.error(llvm::formatv("the shape operand does not give the "
                                   "output's shape {0}",
                                   ir::formatShape(Out->Shape)));
  ref_broadcast_to_params P{};
  if (!broadcastStrides(In->Shape, Out->Shape, P.stride, P.dims))
    return Ctx.error(llvm::formatv("{0} does not broadcast to {1}{2}",
                                   ir::formatShape(In->Shape),
                                   ir::formatShape(Out->Shape),
                                   Out->rank() > REF_MAX_RANK
                                       ? " within rank 6"
                                       : ""));
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> gatherNdOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Idx, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->Type != DType::I8 && In->Type != DType::F32)
    return unsupportedInput(Ctx, *In, "int8 or float32");
  if (Idx->Type != DType::I32)
    return Ctx.error(llvm::formatv("the indices are {0}, not i32",
                                   ir::dtypeName(Idx->Type)));
  if (llvm::Error E = requireKeptQuant(Ctx, *In, *Out))
    return E;
  const size_t Rank = In->rank(), IdxRank = Idx->rank();
  if (Rank < 1 || IdxRank < 1 || Rank > REF_MAX_RANK)
    return Ctx.error("params and indices must have a rank of 1 or more");
  const int32_t Depth = Idx->Shape[IdxRank - 1];
  if (Depth < 0 || size_t(Depth) > Rank)
    return Ctx.error(llvm::formatv("indices of depth {0} into rank {1}",
                                   Depth, Rank));
  // indices.shape[:-1] + params.shape[depth:]
  std::vector<int32_t> Want(Idx->Shape.begin(), Idx->Shape.end() - 1);
  Want.insert(Want.end(), In->Shape.begin() + Depth, In->Shape.end());
  if (Want != Out->Shape)
    return Ctx.error(llvm::formatv(
        "output {0} is not what params {1} gathered by indices {2} gives",
        ir::formatShape(Out->Shape), ir::formatShape(In->Shape),
        ir::formatShape(Idx->Shape)));
  ref_gather_nd_params P{};
  P.slices = 1;
  for (size_t D = 0; D + 1 < IdxRank; ++D)
    P.slices *= Idx->Shape[D];
  P.index_depth = Depth;
  P.slice_size = 1;
  for (size_t D = size_t(Depth); D < Rank; ++D)
    P.slice_size *= In->Shape[D];
  P.input_size = static_cast<int32_t>(In->numElements());
  int32_t Stride = P.input_size;
  for (int32_t D = 0; D < Depth; ++D) {
    Stride = In->Shape[size_t(D)] ? Stride / In->Shape[size_t(D)] : 0;
    P.stride[D] = Stride;
  }
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

llvm::Expected<KernelCall> dynamicUpdateSliceOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Update, Ctx.input(1));
  ACCELGEN_TRY(Start, Ctx.input(2));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Update))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (In->Type != DType::I8 && In->Type != DType::I16 &&
      In->Type != DType::I32 && In->Type != DType::F32)
    return unsupportedInput(Ctx, *In, "int8, int16, int32 or float32");
  if (llvm::Error E = requireKeptQuant(Ctx, *Update, *Out))
    return E;
  if (llvm::Error E = requireKeptQuant(Ctx, *In, *Out))
    return E;
  const size_t Rank = In->rank();
  if (Start->Type != DType::I32 && Start->Type != DType::I64)
    return Ctx.error(llvm::formatv("the start indices are {0}, not i32 or "
                                   "i64",
                                   ir::dtypeName(Start->Type)));
  if (Rank < 1 || Rank > REF_MAX_RANK || Update->rank() != Rank ||
      In->Shape != Out->Shape || Start->numElements() != int64_t(Rank))
    return Ctx.error("operand, update and output must share a rank of 1 to "
                     "6, the output the operand's shape, and the start "
                     "indices hold one per dimension");
  ref_dynamic_update_slice_params P{};
  P.rank = static_cast<int32_t>(Rank);
  P.wide_indices = Start->Type == DType::I64;
  for (size_t D = 0; D < Rank; ++D) {
    if (Update->Shape[D] > In->Shape[D])
      return Ctx.error(llvm::formatv("update {0} does not fit in {1}",
                                     ir::formatShape(Update->Shape),
                                     ir::formatShape(In->Shape)));
    P.dims[D] = In->Shape[D];
    P.update_dims[D] = Update->Shape[D];
  }
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1),
                      Ctx.op().input(2)});
}

llvm::Expected<KernelCall> shapeOfOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Out, Ctx.output());
  if (Out->Type != DType::I32)
    return Ctx.error(llvm::formatv("output '{0}' is {1}; the kernel writes "
                                   "int32",
                                   Out->Name, ir::dtypeName(Out->Type)));
  if (In->rank() > REF_MAX_RANK || Out->numElements() != int64_t(In->rank()))
    return Ctx.error(llvm::formatv("output {0} does not hold the {1} "
                                   "dimensions of the input",
                                   ir::formatShape(Out->Shape), In->rank()));
  ref_shape_of_params P{};
  P.rank = static_cast<int32_t>(In->rank());
  for (size_t D = 0; D < In->rank(); ++D)
    P.dims[D] = In->Shape[D];
  return makeCall(P, {Ctx.op().input(0)});
}

llvm::Expected<KernelCall> broadcastArgsOp(const OpContext &Ctx) {
  ACCELGEN_TRY(A, Ctx.input(0));
  ACCELGEN_TRY(B, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (A->Type != DType::I32 && A->Type != DType::I64)
    return unsupportedInput(Ctx, *A, "int32 or int64");
  if (llvm::Error E = requireSameType(Ctx, *A, *B))
    return E;
  if (llvm::Error E = requireSameType(Ctx, *A, *Out))
    return E;
  if (A->rank() != 1 || B->rank() != 1 || Out->rank() != 1 ||
      Out->Shape[0] != std::max(A->Shape[0], B->Shape[0]))
    return Ctx.error("the shapes and the output must be 1-D, the output as "
                     "long as the longer shape");
  ref_broadcast_args_params P{};
  P.rank1 = A->Shape[0];
  P.rank2 = B->Shape[0];
  P.rank = Out->Shape[0];
  P.wide = A->Type == DType::I64;
  return makeCall(P, {Ctx.op().input(0), Ctx.op().input(1)});
}

llvm::Expected<KernelCall> fillOp(const OpContext &Ctx) {
  ACCELGEN_TRY(Out, Ctx.output());
  ref_fill_params P{};
  KernelCall Call;
  if (Ctx.op().code() == ir::OpCode::ZerosLike) {
    ACCELGEN_TRY(In, Ctx.input(0));
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
    if (In->Shape != Out->Shape)
      return Ctx.error("the output must have the input's shape");
    P.zeros = 1;
    Call.DataInputs = {Ctx.op().input(0)};
  } else {
    ACCELGEN_TRY(DimsT, Ctx.input(0));
    ACCELGEN_TRY(Value, Ctx.input(1));
    if (Value->Type != Out->Type || Value->rank() != 0)
      return Ctx.error("the value must be a scalar of the output's type");
    ACCELGEN_TRY(Dims, Ctx.constInts(*DimsT, "dims"));
    if (!std::equal(Dims.begin(), Dims.end(), Out->Shape.begin(),
                    Out->Shape.end()))
      return Ctx.error(llvm::formatv("the dims operand does not give the "
                                     "output's shape {0}",
                                     ir::formatShape(Out->Shape)));
    if (Value->Quant || Out->Quant) {
      ACCELGEN_TRY(ValueQ, Ctx.quant(*Value, "value"));
      ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
      if (llvm::Error E = requireSameQuant(Ctx, ValueQ, OutQ))
        return E;
    }
    Call.DataInputs = {Ctx.op().input(1)};
  }
  Call.Params = P;
  return Call;
}

llvm::Expected<KernelCall> resizeOp(const OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(SizeT, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (llvm::Error E = requireRank(Ctx, *In, 4, "input"))
    return E;
  if (llvm::Error E = requireRank(Ctx, *Out, 4, "output"))
    return E;
  if (SizeT->Type != ir::DType::I32)
    return Ctx.error(llvm::formatv("the size operand is {0}, not i32",
                                   ir::dtypeName(SizeT->Type)));
  ACCELGEN_TRY(Size, Ctx.constInts(*SizeT, "size"));
  if (Size.size() != 2 || Size[0] != Out->Shape[1] ||
      Size[1] != Out->Shape[2] || Out->Shape[0] != In->Shape[0] ||
      Out->Shape[3] != In->Shape[3])
    return Ctx.error(llvm::formatv(
        "the output {0} is not the input {1} resized to the size operand",
        ir::formatShape(Out->Shape), ir::formatShape(In->Shape)));
  if (Size[0] <= 0 || Size[1] <= 0 || In->Shape[1] <= 0 || In->Shape[2] <= 0)
    return Ctx.error("heights and widths must be positive");
  if (In->Shape[1] >= (1 << 20) || In->Shape[2] >= (1 << 20) ||
      Size[0] >= (1 << 20) || Size[1] >= (1 << 20))
    return Ctx.error("heights and widths must be below 2^20 (the integer "
                     "kernel's positions are Q10 in int32)");
  ref_resize_params P{};
  P.align_corners = Ctx.op().getBool(ir::attr::AlignCorners, false);
  P.half_pixel_centers = Ctx.op().getBool(ir::attr::HalfPixelCenters, false);
  if (P.align_corners && P.half_pixel_centers)
    return Ctx.error("align_corners and half_pixel_centers exclude each "
                     "other");
  return makeCall(P, {Ctx.op().input(0)});
}

namespace {

/// The call of a slice whose per-dimension start, stop and stride are in
/// \p P, once its element count is checked against the output's.
llvm::Expected<KernelCall> sliceCall(const OpContext &Ctx,
                                     const ref_strided_slice_params &P,
                                     const Tensor &In, const Tensor &Out,
                                     unsigned InputIndex = 0) {
  int64_t Total = 1;
  for (unsigned D = 0; D < In.rank(); ++D) {
    const int64_t Stride = P.stride[D];
    const int64_t Count =
        Stride > 0 ? (int64_t(P.stop[D]) - P.start[D] + Stride - 1) / Stride
                   : (int64_t(P.start[D]) - P.stop[D] - Stride - 1) / -Stride;
    Total *= Count > 0 ? Count : 0;
  }
  if (Total != Out.numElements())
    return Ctx.error(llvm::formatv("the slice has {0} elements, the output "
                                   "{1}",
                                   Total, Out.numElements()));
  return makeCall(P, {Ctx.op().input(InputIndex)});
}

/// SLICE: begin and size per dimension (size -1: to the end), as
/// TensorFlow Lite's GetBeginAndSizeVectors reads them.
llvm::Expected<KernelCall> sliceOp(const OpContext &Ctx, const Tensor &In,
                                   const Tensor &Out) {
  ACCELGEN_TRY(BeginT, Ctx.input(1));
  ACCELGEN_TRY(SizeT, Ctx.input(2));
  ACCELGEN_TRY(Begin, Ctx.constInts(*BeginT, "begin"));
  ACCELGEN_TRY(Size, Ctx.constInts(*SizeT, "size"));
  const unsigned Rank = In.rank();
  if (Rank > REF_MAX_RANK || Begin.size() != Rank || Size.size() != Rank)
    return Ctx.error("begin and size must have one value per input "
                     "dimension");
  ref_strided_slice_params P{};
  for (unsigned D = 0; D < Rank; ++D) {
    const int64_t Dim = In.Shape[D];
    const int64_t Len = Size[D] == -1 ? Dim - Begin[D] : Size[D];
    if (Begin[D] < 0 || Begin[D] > Dim || Len < 0 || Begin[D] + Len > Dim)
      return Ctx.error(llvm::formatv(
          "dimension {0}: begin {1} and size {2} leave the input's {3}", D,
          Begin[D], Size[D], Dim));
    P.start[D] = static_cast<int32_t>(Begin[D]);
    P.stop[D] = static_cast<int32_t>(Begin[D] + Len);
    P.stride[D] = 1;
  }
  return sliceCall(Ctx, P, In, Out);
}

/// REVERSE_V2: every dimension named by the axis operand runs backwards.
llvm::Expected<KernelCall> reverseOp(const OpContext &Ctx, const Tensor &In,
                                     const Tensor &Out) {
  ACCELGEN_TRY(AxisT, Ctx.input(1));
  if (AxisT->Type != ir::DType::I32)
    return Ctx.error(llvm::formatv("the axis operand is {0}, not i32",
                                   ir::dtypeName(AxisT->Type)));
  ACCELGEN_TRY(Axes, Ctx.constInts(*AxisT, "axis"));
  const int64_t Rank = In.rank();
  if (Rank > REF_MAX_RANK || In.Shape != Out.Shape)
    return Ctx.error("the output must have the input's shape, of rank 6 or "
                     "less");
  ref_strided_slice_params P{};
  for (int64_t D = 0; D < Rank; ++D) {
    P.start[D] = 0;
    P.stop[D] = In.Shape[size_t(D)];
    P.stride[D] = 1;
  }
  for (int64_t A : Axes) {
    const int64_t D = A < 0 ? A + Rank : A;
    if (D < 0 || D >= Rank)
      return Ctx.error(llvm::formatv("axis {0} is outside rank {1}", A, Rank));
    if (P.stride[D] < 0)
      return Ctx.error(llvm::formatv("axis {0} is named twice", A));
    P.start[D] = In.Shape[size_t(D)] - 1;
    P.stop[D] = -1;
    P.stride[D] = -1;
  }
  return sliceCall(Ctx, P, In, Out);
}

/// SPLIT, SPLIT_V and UNPACK: result Ctx.result() is the slice of the
/// input along the axis that follows the results before it. Every result's
/// shape is checked in each call, so each call alone says whether the
/// operator runs.
llvm::Expected<KernelCall> splitOp(const OpContext &Ctx) {
  const ir::OpCode Code = Ctx.op().code();
  const unsigned InIndex = Code == ir::OpCode::Split ? 1 : 0;
  ACCELGEN_TRY(In, Ctx.input(InIndex));
  const unsigned Result = Ctx.result();
  const int64_t Rank = In->rank();
  if (Rank > REF_MAX_RANK)
    return Ctx.error("the input must have at most 6 dimensions");
  int64_t Axis = Ctx.attr(ir::attr::Axis, 0);
  if (Code != ir::OpCode::Unpack) {
    ACCELGEN_TRY(AxisT, Ctx.input(Code == ir::OpCode::Split ? 0 : 2));
    if (AxisT->Type != ir::DType::I32)
      return Ctx.error(llvm::formatv("the axis operand is {0}, not i32",
                                     ir::dtypeName(AxisT->Type)));
    ACCELGEN_TRY(Values, Ctx.constInts(*AxisT, "axis"));
    if (Values.size() != 1)
      return Ctx.error(llvm::formatv("the axis operand holds {0} values, "
                                     "not one",
                                     Values.size()));
    Axis = Values[0];
  }
  if (Axis < -Rank || Axis >= Rank)
    return Ctx.error(llvm::formatv("axis {0} is outside rank {1}", Axis,
                                   Rank));
  if (Axis < 0)
    Axis += Rank;
  const size_t N = Ctx.op().Outputs.size();
  if (Code != ir::OpCode::Unpack &&
      Ctx.attr(ir::attr::NumSplits, int64_t(N)) != int64_t(N))
    return Ctx.error(llvm::formatv("num_splits is {0}, but it has {1} "
                                   "results",
                                   Ctx.attr(ir::attr::NumSplits, 0), N));
  // Each result's extent along the axis, from its shape (as the reference
  // kernels read it), the other dimensions the input's.
  std::vector<int64_t> Sizes;
  const Tensor *Out = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    ACCELGEN_TRY(O, Ctx.output(I));
    if (llvm::Error E = requireSameType(Ctx, *In, *O))
      return E;
    if (llvm::Error E = requireKeptQuant(Ctx, *In, *O))
      return E;
    std::vector<int32_t> Want = In->Shape;
    if (Code == ir::OpCode::Unpack) {
      Want.erase(Want.begin() + Axis);
      Sizes.push_back(1);
    } else if (O->rank() == unsigned(Rank)) {
      Want[size_t(Axis)] = O->Shape[size_t(Axis)];
      Sizes.push_back(O->Shape[size_t(Axis)]);
    }
    if (O->Shape != Want)
      return Ctx.error(llvm::formatv(
          "result {0} has shape {1}; slices of the input along axis {2} "
          "have its other dimensions{3}",
          I, ir::formatShape(O->Shape), Axis,
          Code == ir::OpCode::Unpack ? " and lack the axis" : ""));
    if (I == Result)
      Out = O;
  }
  const int64_t Extent = In->Shape[size_t(Axis)];
  int64_t Total = 0;
  for (int64_t S : Sizes)
    Total += S;
  if (Total != Extent)
    return Ctx.error(llvm::formatv("the results' sizes along axis {0} add "
                                   "up to {1}, the input's is {2}",
                                   Axis, Total, Extent));
  if (Code == ir::OpCode::Split && N && Sizes.front() * int64_t(N) != Extent)
    return Ctx.error("the results of a SPLIT must be of equal size");
  if (Code == ir::OpCode::SplitV) {
    // size_splits as the results have them, one -1 standing for the rest.
    ACCELGEN_TRY(SizesT, Ctx.input(1));
    ACCELGEN_TRY(Declared, Ctx.constInts(*SizesT, "size_splits"));
    if (Declared.size() != N)
      return Ctx.error(llvm::formatv("size_splits holds {0} sizes for {1} "
                                     "results",
                                     Declared.size(), N));
    if (llvm::count(Declared, -1) > 1)
      return Ctx.error("size_splits holds -1 more than once");
    for (size_t I = 0; I < N; ++I)
      if (Declared[I] != -1 && Declared[I] != Sizes[I])
        return Ctx.error(llvm::formatv("size_splits says {0} for result {1}, "
                                       "whose size along the axis is {2}",
                                       Declared[I], I, Sizes[I]));
  }
  int64_t Offset = 0;
  for (unsigned I = 0; I < Result; ++I)
    Offset += Sizes[I];
  ref_strided_slice_params P{};
  for (int64_t D = 0; D < Rank; ++D) {
    P.start[D] = 0;
    P.stop[D] = In->Shape[size_t(D)];
    P.stride[D] = 1;
  }
  P.start[Axis] = static_cast<int32_t>(Offset);
  P.stop[Axis] = static_cast<int32_t>(Offset + Sizes[Result]);
  return sliceCall(Ctx, P, *In, *Out, InIndex);
}

} // namespace

llvm::Expected<KernelCall> stridedSliceOp(const OpContext &Ctx) {
  if (Ctx.op().code() == ir::OpCode::Split ||
      Ctx.op().code() == ir::OpCode::SplitV ||
      Ctx.op().code() == ir::OpCode::Unpack)
    return splitOp(Ctx);
  ACCELGEN_TRY(In, Ctx.input(0));
  if (Ctx.op().code() == ir::OpCode::Slice ||
      Ctx.op().code() == ir::OpCode::ReverseV2) {
    ACCELGEN_TRY(Out, Ctx.output());
    if (llvm::Error E = requireSameType(Ctx, *In, *Out))
      return E;
    return Ctx.op().code() == ir::OpCode::Slice ? sliceOp(Ctx, *In, *Out)
                                                : reverseOp(Ctx, *In, *Out);
  }
  ACCELGEN_TRY(BeginT, Ctx.input(1));
  ACCELGEN_TRY(EndT, Ctx.input(2));
  ACCELGEN_TRY(StridesT, Ctx.input(3));
  ACCELGEN_TRY(Out, Ctx.output());
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;
  if (Ctx.attr(ir::attr::EllipsisMask, 0) != 0 ||
      Ctx.attr(ir::attr::NewAxisMask, 0) != 0)
    return Ctx.error("ellipsis and new-axis masks are not supported");
  ACCELGEN_TRY(Begin, Ctx.constInts(*BeginT, "begin"));
  ACCELGEN_TRY(End, Ctx.constInts(*EndT, "end"));
  ACCELGEN_TRY(Strides, Ctx.constInts(*StridesT, "strides"));
  const unsigned Rank = In->rank();
  if (Rank > REF_MAX_RANK || Begin.size() != Rank || End.size() != Rank ||
      Strides.size() != Rank)
    return Ctx.error("begin, end and strides must have one value per input "
                     "dimension");
  const int64_t BeginMask = Ctx.attr(ir::attr::BeginMask, 0);
  const int64_t EndMask = Ctx.attr(ir::attr::EndMask, 0);
  const int64_t ShrinkMask = Ctx.attr(ir::attr::ShrinkAxisMask, 0);
  const bool Offset = Ctx.op().getBool(ir::attr::Offset, false);
  ref_strided_slice_params P{};
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
    P.start[D] = static_cast<int32_t>(Start);
    P.stop[D] = static_cast<int32_t>(Stop);
    P.stride[D] = static_cast<int32_t>(Stride);
  }
  return sliceCall(Ctx, P, *In, *Out);
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
