//===- DeviceLimits.cpp - What every functional-model accelerator needs ---===//
//
// Each check restates, on the Graph IR, a condition under which the
// functional model (lib/program/c/accel_functional.c) refuses a program; the
// comment of each names the C function it mirrors, which must change with it.
//
//===----------------------------------------------------------------------===//
#include "program/DeviceLimits.h"

#include "accel_functional.h"
#include "kernels/KernelParams.h"
#include "target/PatternMatcher.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace accelgen {
namespace program {

using target::FusedOpsAttr;
using target::Rejection;

namespace {

constexpr int64_t MaxTensorBytes = INT32_MAX;

/// read_tensor: a tensor's element count times its element size fits int32.
void checkTensorBytes(const ir::Graph &G, const ir::Operator &Op,
                      std::vector<Rejection> &Why) {
  auto Check = [&](int32_t T) {
    if (!G.isValidTensor(T))
      return;
    const ir::Tensor &X = G.tensor(T);
    if (X.byteSize() > MaxTensorBytes)
      Why.push_back({"device_tensor_bytes",
                     llvm::formatv("tensor {0} '{1}' holds {2} bytes; the "
                                   "accelerator program addresses at most {3}",
                                   T, X.Name, X.byteSize(), MaxTensorBytes),
                     ""});
  };
  for (int32_t T : Op.Inputs)
    Check(T);
  for (int32_t T : Op.Outputs)
    Check(T);
}

/// The values of constant integer tensor \p T; empty when it is not one.
std::vector<int64_t> constInts(const ir::Tensor &T) {
  std::vector<int64_t> V;
  if (!T.IsConstant)
    return V;
  if (T.Type == ir::DType::I32)
    for (size_t I = 0; I + 4 <= T.Data.size(); I += 4)
      V.push_back(static_cast<int32_t>(
          llvm::support::endian::read32le(T.Data.data() + I)));
  else if (T.Type == ir::DType::I64)
    for (size_t I = 0; I + 8 <= T.Data.size(); I += 8)
      V.push_back(static_cast<int64_t>(
          llvm::support::endian::read64le(T.Data.data() + I)));
  return V;
}

/// check_geometry (FAM_mean): a reduction with a non-empty output reduces a
/// non-empty set of elements; the kernel divides by its count.
void checkEmptyReduction(const ir::Graph &G, const ir::Operator &Op,
                         std::vector<Rejection> &Why) {
  const ir::OpCode C = Op.code();
  if (C != ir::OpCode::Mean && C != ir::OpCode::Sum &&
      C != ir::OpCode::ReduceMax)
    return;
  if (!G.isValidTensor(Op.input(0)) || !G.isValidTensor(Op.input(1)) ||
      !G.isValidTensor(Op.output(0)))
    return;
  const ir::Tensor &In = G.tensor(Op.input(0));
  const int64_t Rank = In.rank();
  if (G.tensor(Op.output(0)).numElements() == 0)
    return;
  for (int64_t Axis : constInts(G.tensor(Op.input(1)))) {
    const int64_t A = Axis < 0 ? Axis + Rank : Axis;
    if (A >= 0 && A < Rank && In.Shape[A] == 0)
      Why.push_back({"device_empty_reduction",
                     llvm::formatv("axis {0} of input '{1}' has size 0, so "
                                   "each output element would reduce nothing",
                                   Axis, In.Name),
                     ""});
  }
}

/// The left shift of TensorFlow Lite's QuantizeMultiplier for \p Real.
int leftShift(double Real) {
  if (!(Real > 0) || !std::isfinite(Real))
    return 0;
  int Exponent = 0;
  const double Q = std::frexp(Real, &Exponent);
  if (std::round(Q * double(1LL << 31)) == double(1LL << 31))
    ++Exponent;
  return Exponent < -31 ? 0 : Exponent;
}

/// accumulator_ok: the int32 accumulator of an 8-bit convolution or fully
/// connected operator, bias plus taps products of offset values, shifted
/// left by the largest requantization shift, stays below 2^31 - 2^17.
void checkAccumulator(const ir::Graph &G, const ir::Operator &Op,
                      std::vector<Rejection> &Why) {
  const ir::OpCode C = Op.code();
  if (C != ir::OpCode::Conv2D && C != ir::OpCode::DepthwiseConv2D &&
      C != ir::OpCode::FullyConnected)
    return;
  const int32_t InT = Op.input(0), FT = Op.input(1), OutT = Op.output(0);
  if (!G.isValidTensor(InT) || !G.isValidTensor(FT) || !G.isValidTensor(OutT))
    return;
  const ir::Tensor &In = G.tensor(InT), &F = G.tensor(FT),
                   &Out = G.tensor(OutT);
  auto Is8 = [](ir::DType T) {
    return T == ir::DType::I8 || T == ir::DType::U8;
  };
  if (!Is8(In.Type) || !Is8(F.Type) || !In.Quant || !F.Quant || !Out.Quant ||
      In.Quant->Scales.empty() || Out.Quant->Scales.empty() || F.Shape.empty())
    return;
  // Taps per output value and the kinds of terms summed separately.
  int64_t Taps = 0, Terms = 1;
  if (C == ir::OpCode::FullyConnected) {
    Taps = F.Shape.back();
    Terms = 4;
  } else if (F.rank() == 4) {
    Taps = int64_t(F.Shape[1]) * F.Shape[2] *
           (C == ir::OpCode::Conv2D ? F.Shape[3] : 1);
  } else {
    return;
  }
  const float InScale = In.Quant->Scales[0], OutScale = Out.Quant->Scales[0];
  int Shift = INT32_MIN;
  for (float FS : F.Quant->Scales) {
    // Per channel in double, or the legacy float product: the larger.
    Shift = std::max(
        {Shift, leftShift(double(InScale) * double(FS) / double(OutScale)),
         leftShift(double(InScale * FS) / double(OutScale))});
  }
  auto MaxOffsetValue = [](ir::DType T, int64_t ZeroPoint) {
    const int64_t Lo = T == ir::DType::U8 ? 0 : -128;
    const int64_t Hi = T == ir::DType::U8 ? 255 : 127;
    return std::max(std::llabs(Lo - ZeroPoint), std::llabs(Hi - ZeroPoint));
  };
  int64_t MaxBias = 0;
  if (G.isValidTensor(Op.input(2)))
    for (int64_t B : constInts(G.tensor(Op.input(2))))
      MaxBias = std::max<int64_t>(MaxBias, std::llabs(B));
  const int64_t FilterZero =
      F.Quant->ZeroPoints.empty() ? 0 : F.Quant->ZeroPoints[0];
  const int64_t InZero =
      In.Quant->ZeroPoints.empty() ? 0 : In.Quant->ZeroPoints[0];
  const int64_t Bound = Taps * Terms * MaxOffsetValue(In.Type, InZero) *
                            MaxOffsetValue(F.Type, FilterZero) +
                        MaxBias;
  const int64_t Limit = (int64_t(1) << 31) - (int64_t(1) << 17);
  const bool Fits = Shift <= 31 && (static_cast<__int128>(Bound)
                                    << std::max(Shift, 0)) < Limit;
  if (!Fits)
    Why.push_back(
        {"device_accumulator_range",
         llvm::formatv("the accumulator may reach {0} before requantization, "
                       "shifted left by {1} (input, filter and output scales "
                       "{2}, {3}, {4}); the device's int32 requantize takes "
                       "less than 2^31 - 2^17",
                       Bound, std::max(Shift, 0), llvm::format("%g", InScale),
                       llvm::format("%g", F.Quant->Scales[0]),
                       llvm::format("%g", OutScale)),
         ""});
}

/// Why the functional model cannot run \p Call of a kernel family
/// registered at run time, or null: the family must bring rows for the
/// functional model, and the operands have the element types of the
/// function's row (the emitted functional model checks the rest).
const char *registeredKernelProblem(const ir::Graph &G,
                                    const kernels::KernelCall &Call) {
  const kernels::KernelFunctionInfo *Fn =
      kernels::findKernelFunction(Call.Function);
  if (!Fn || !kernels::registeredProgramRows(*Fn->Family))
    return "its kernel family is registered at run time without rows for "
           "the functional model";
  auto Differs = [&](int32_t T, const std::optional<ir::DType> &Want) {
    return T >= 0 && Want && G.tensor(T).Type != *Want;
  };
  for (size_t I = 0; I < Call.DataInputs.size() && I < 3; ++I)
    if (Differs(Call.DataInputs[I], Fn->OperandTypes[I]))
      return "an operand's element type is not the kernel's";
  if (Differs(Call.Output, Fn->Result))
    return "the result's element type is not the kernel's";
  return nullptr;
}

/// run_op: the reference kernel the program would name for \p Op, checked by
/// the functional model itself (accel_check_kernel: element types, shapes,
/// zero points, shifts, window reach, accumulator bound) with the parameters
/// the program would carry, so that whatever the model would refuse in a
/// program is refused here first, with its reason.
void checkKernel(const ir::Graph &G, const ir::Operator &Op,
                 std::vector<Rejection> &Why) {
  // A fused operator is its members, each checked before it was fused.
  if (Op.hasAttr(FusedOpsAttr))
    return;
  auto Reject = [&](const llvm::Twine &Reason) {
    Why.push_back(
        {"device_kernel",
         ("the accelerator's functional model cannot run it: " + Reason).str(),
         ""});
  };
  llvm::Expected<std::vector<kernels::KernelCall>> Calls =
      kernels::computeKernelCalls(G, Op);
  if (!Calls)
    return Reject(
        kernels::kernelCallReason(llvm::toString(Calls.takeError()), Op.Type));
  auto Describe = [&](int32_t T) {
    accel_operand A{0, -1, nullptr, nullptr};
    if (T < 0 || !G.isValidTensor(T))
      return A;
    const ir::Tensor &X = G.tensor(T);
    A.dtype = static_cast<int32_t>(X.Type);
    A.rank = static_cast<int32_t>(X.Shape.size());
    A.dims = X.Shape.data();
    A.constant = X.IsConstant ? X.Data.data() : nullptr;
    return A;
  };
  // One program operator per call (a SPLIT's results are one each).
  for (const kernels::KernelCall &Call : *Calls) {
    if (Call.DataInputs.empty() || Call.DataInputs.front() < 0)
      return Reject("its kernel reads no data");
    std::vector<accel_operand> Inputs;
    for (int32_t In : Call.DataInputs)
      Inputs.push_back(Describe(In));
    const accel_operand Output = Describe(Call.Output);
    const char *Problem = nullptr;
    const int Status = std::visit(
        [&](const auto &P) {
          if constexpr (std::is_same_v<std::decay_t<decltype(P)>,
                                       kernels::DynamicParams>) {
            // A registered family runs on the functional model emitted with
            // its rows, which checks it there; here, what its rows say.
            Problem = registeredKernelProblem(G, Call);
            return Problem ? ACCEL_ERR_UNSUPPORTED : ACCEL_OK;
          } else {
            const auto C = P.c();
            return accel_check_kernel(
                Call.Function.c_str(), &C, sizeof(C), Inputs.data(),
                static_cast<int32_t>(Inputs.size()), &Output, &Problem);
          }
        },
        Call.Params);
    if (Status != ACCEL_OK)
      return Reject(llvm::formatv("{0} ({1})", Problem ? Problem : "rejected",
                                  Call.Function)
                        .str());
  }
}

} // namespace

bool checkDeviceLimits(const ir::Graph &G, const ir::Operator &Op,
                       std::vector<Rejection> &Why) {
  const size_t Before = Why.size();
  checkTensorBytes(G, Op, Why);
  checkEmptyReduction(G, Op, Why);
  checkAccumulator(G, Op, Why);
  // The functional model's own checks, once the restated ones pass: their
  // reasons say more than its.
  if (Why.size() == Before)
    checkKernel(G, Op, Why);
  return Why.size() == Before;
}

} // namespace program
} // namespace accelgen
