//===- OpContext.cpp - Shared pieces of the kernel parameter code ---------===//
#include "kernels/OpContext.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>

namespace accelgen {
namespace kernels {
namespace detail {

using ir::DType;
using ir::Tensor;

std::string formatReal(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g", V);
  return Buf;
}

OpContext::OpContext(const ir::Graph &G, const ir::Operator &Op,
                     unsigned Result)
    : G(G), Op(Op), Result(Result) {
  if (!G.Operators.empty() && &Op >= &G.Operators.front() &&
      &Op <= &G.Operators.back())
    Index = static_cast<int64_t>(&Op - &G.Operators.front());
}

llvm::Error OpContext::error(const llvm::Twine &Msg) const {
  std::string Where =
      Index >= 0 ? llvm::formatv("operator {0} ({1})", Index, Op.Type).str()
                 : "operator " + Op.Type;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Where + ": " + Msg.str());
}

llvm::Expected<const Tensor *> OpContext::input(unsigned I) const {
  int32_t T = Op.input(I);
  if (T < 0)
    return error(llvm::formatv("input {0} is missing", I));
  if (!G.isValidTensor(T))
    return error(llvm::formatv("input {0} names tensor {1}, which does not "
                               "exist",
                               I, T));
  return &G.tensor(T);
}

llvm::Expected<const Tensor *> OpContext::optionalInput(unsigned I) const {
  if (Op.input(I) < 0)
    return nullptr;
  return input(I);
}

llvm::Expected<const Tensor *> OpContext::output(unsigned I) const {
  int32_t T = Op.output(I);
  if (T < 0 || !G.isValidTensor(T))
    return error(llvm::formatv("output {0} is missing", I));
  return &G.tensor(T);
}

llvm::Expected<TensorQuant> OpContext::quant(const Tensor &T,
                                             llvm::StringRef Role,
                                             bool AsymmetricInt16) const {
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
  // int16 activations are symmetric (TensorFlow Lite's 16x8 scheme).
  if (T.Type == DType::I16 && ZP != 0 && !AsymmetricInt16)
    return error(llvm::formatv("{0} tensor '{1}' is int16 with zero point {2}; "
                               "int16 tensors are symmetric (zero point 0)",
                               Role, T.Name, ZP));
  Q.ZeroPoint = static_cast<int32_t>(ZP);
  return Q;
}

llvm::Error OpContext::checkScale(float Scale, const Tensor &T,
                                  llvm::StringRef Role) const {
  if (!(Scale > 0.0f) || !std::isfinite(Scale))
    return error(llvm::formatv("{0} tensor '{1}' has scale {2}; scales must "
                               "be positive and finite",
                               Role, T.Name, formatReal(Scale)));
  return llvm::Error::success();
}

llvm::Expected<QuantizedMultiplier>
OpContext::multiplier(double Real, llvm::StringRef What,
                      int MaxLeftShift) const {
  if (!std::isfinite(Real) || Real < 0)
    return error(llvm::formatv("{0} = {1} is not a finite non-negative "
                               "multiplier",
                               What, formatReal(Real)));
  QuantizedMultiplier M = quantizeMultiplier(Real);
  if (M.LeftShift > MaxLeftShift || M.LeftShift < -31)
    return error(llvm::formatv("{0} = {1} needs a left shift of {2}; the "
                               "kernels take -31 to {3} (the quantization "
                               "scales are out of range)",
                               What, formatReal(Real), M.LeftShift,
                               MaxLeftShift));
  return M;
}

llvm::Expected<std::vector<int64_t>>
OpContext::constInts(const Tensor &T, llvm::StringRef Role) const {
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
    return error(Role + " tensor '" + T.Name +
                 "' must hold int32 or int64 values");
  }
  for (size_t I = 0; I < Values.size(); ++I)
    if (Values[I] < INT32_MIN || Values[I] > INT32_MAX)
      return error(llvm::formatv("{0} tensor '{1}' holds {2} at index {3}, "
                                 "outside the int32 range of the kernels' "
                                 "parameters",
                                 Role, T.Name, Values[I], I));
  return Values;
}

const char *typeSuffix(DType T) {
  switch (T) {
  case DType::I8:
    return "i8";
  case DType::U8:
    return "u8";
  case DType::I16:
    return "i16";
  case DType::F32:
    return "f32";
  default:
    return nullptr;
  }
}

bool isQuantized8(DType T) { return T == DType::I8 || T == DType::U8; }

/// The suffix of \p T, or an error if the kernels do not implement it.
llvm::Error requireKernelType(const OpContext &Ctx, const Tensor &T) {
  if (typeSuffix(T.Type))
    return llvm::Error::success();
  return Ctx.error(llvm::formatv("element type {0} of tensor '{1}' is not "
                                 "supported (int8, uint8, int16 and float32 are)",
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

llvm::Error requireShape(const OpContext &Ctx, const Tensor &T, unsigned I,
                         llvm::StringRef Role,
                         const std::vector<int32_t> &Shape) {
  if (T.Shape == Shape)
    return llvm::Error::success();
  return Ctx.error(llvm::formatv("{0} (input {1}) '{2}' has shape {3}; "
                                 "expected {4}",
                                 Role, I, T.Name, ir::formatShape(T.Shape),
                                 ir::formatShape(Shape)));
}

llvm::Error requireWideSumsFit(const OpContext &Ctx, const Tensor *Bias,
                               int64_t Depth) {
  const int64_t Limit = int64_t(1) << 47;
  const int64_t Room = Limit - Depth * (int64_t(1) << 22);
  if (Room <= 0)
    return Ctx.error(llvm::formatv("{0} products per sum could pass 2^47, "
                                   "beyond the 16x8 requantization's range",
                                   Depth));
  if (!Bias || Bias->Type != DType::I64)
    return llvm::Error::success();
  for (size_t I = 0; I + 8 <= Bias->Data.size(); I += 8) {
    const int64_t V = static_cast<int64_t>(
        llvm::support::endian::read64le(Bias->Data.data() + I));
    if (V >= Room || V <= -Room)
      return Ctx.error(llvm::formatv(
          "bias '{0}' holds {1}: with {2} products per sum the sum could "
          "pass 2^47, beyond the 16x8 requantization's range",
          Bias->Name, V, Depth));
  }
  return llvm::Error::success();
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
      formatReal(In.Scale), In.ZeroPoint, formatReal(Out.Scale),
      Out.ZeroPoint));
}

llvm::Error requireKeptQuant(const OpContext &Ctx, const Tensor &In,
                             const Tensor &Out) {
  // Only the 8- and 16-bit types carry a quantization that must be kept.
  if (In.Type != ir::DType::I8 && In.Type != ir::DType::U8 &&
      In.Type != ir::DType::I16)
    return llvm::Error::success();
  ACCELGEN_TRY(InQ, Ctx.quant(In, "input"));
  ACCELGEN_TRY(OutQ, Ctx.quant(Out, "output"));
  return requireSameQuant(Ctx, InQ, OutQ);
}

bool broadcastStrides(llvm::ArrayRef<int32_t> In, llvm::ArrayRef<int32_t> Out,
                      int32_t *Strides, int32_t *Dims) {
  if (Out.size() > REF_MAX_RANK || In.size() > Out.size())
    return false;
  int32_t Running = 1;
  for (size_t I = 0; I < REF_MAX_RANK; ++I) {
    const size_t D = REF_MAX_RANK - 1 - I;
    const int32_t O = I < Out.size() ? Out[Out.size() - 1 - I] : 1;
    const int32_t N = I < In.size() ? In[In.size() - 1 - I] : 1;
    if (N != 1 && N != O)
      return false;
    Strides[D] = N == 1 ? 0 : Running;
    if (Dims)
      Dims[D] = O;
    Running *= N;
  }
  return true;
}

llvm::Error unsupportedInput(const OpContext &Ctx, const Tensor &T,
                             llvm::StringRef Types) {
  return Ctx.error(llvm::formatv("input '{0}' is {1}; the kernels take {2}",
                                 T.Name, ir::dtypeName(T.Type), Types));
}

KernelCall makeCall(AnyParams P, std::vector<int32_t> DataInputs) {
  KernelCall Call;
  Call.Params = std::move(P);
  Call.DataInputs = std::move(DataInputs);
  return Call;
}

/// Checks a bias operand: int32 for quantized kernels, float for float ones,
} // namespace detail
} // namespace kernels
} // namespace accelgen
