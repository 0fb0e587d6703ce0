//===- OpContext.h - Shared pieces of the kernel parameter code -*- C++ -*-===//
//
// Internal to lib/kernels: the operator being prepared (operand access and
// errors that name it), the checks every operator family repeats, and the
// entry points of the families (ConvParams.cpp, ArithmeticParams.cpp,
// DataMovementParams.cpp) that computeKernelCall dispatches to.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_KERNELS_OPCONTEXT_H
#define ACCELGEN_KERNELS_OPCONTEXT_H

#include "kernels/KernelParams.h"
#include "kernels/QuantMath.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace kernels {
namespace detail {

/// Unwraps an llvm::Expected into a reference named \p Var, or returns its
/// error from the enclosing function.
#define ACCELGEN_TRY(Var, Expr)                                                \
  auto Var##OrErr = (Expr);                                                    \
  if (!Var##OrErr)                                                             \
    return Var##OrErr.takeError();                                             \
  auto &Var = *Var##OrErr

/// A tensor's per-tensor quantization.
struct TensorQuant {
  float Scale = 0;
  int32_t ZeroPoint = 0;
};

/// The operator being prepared: operand access and errors that name it.
class OpContext {
public:
  /// For the kernel call writing result \p Result of \p Op.
  OpContext(const ir::Graph &G, const ir::Operator &Op, unsigned Result = 0);

  const ir::Operator &op() const { return Op; }
  /// The arithmetic the operator's graph computes (ir::Graph::Computes):
  /// a builder with functions for ONNX's chooses them by it.
  ir::Arithmetic arithmetic() const { return G.Computes; }
  /// The result the call writes. An operator with several results runs as
  /// one call per result (SPLIT); a builder that writes any one of them asks
  /// which, and computeKernelCall refuses several results to one that does
  /// not ask.
  unsigned result() const {
    ResultAsked = true;
    return Result;
  }
  bool resultAsked() const { return ResultAsked; }

  /// The family whose builder runs: the one of the kernel row the operator
  /// matched (a registered family's builder makes its DynamicParams of it).
  const KernelFamilyInfo &family() const {
    assert(Family && "no family chosen yet");
    return *Family;
  }
  void setFamily(const KernelFamilyInfo &F) { Family = &F; }

  /// An error prefixed with "operator <index> (<type>): ".
  llvm::Error error(const llvm::Twine &Msg) const;

  /// Input \p I, which must be present.
  llvm::Expected<const ir::Tensor *> input(unsigned I) const;
  /// Input \p I, or null when omitted (index -1 or past the end).
  llvm::Expected<const ir::Tensor *> optionalInput(unsigned I) const;
  /// Output \p I, which must be present.
  llvm::Expected<const ir::Tensor *> output(unsigned I = 0) const;

  /// The per-tensor quantization of \p T (named \p Role in errors): one
  /// positive finite scale, a zero point inside the type, 0 for int16
  /// unless \p AsymmetricInt16 (the int16 probabilities of an int8 SOFTMAX,
  /// zero point -32768).
  llvm::Expected<TensorQuant> quant(const ir::Tensor &T, llvm::StringRef Role,
                                    bool AsymmetricInt16 = false) const;
  /// Checks that \p Scale of tensor \p T is positive and finite.
  llvm::Error checkScale(float Scale, const ir::Tensor &T,
                         llvm::StringRef Role) const;
  /// \p Real (named \p What in errors) as TensorFlow Lite's
  /// QuantizeMultiplier gives it, checked against the kernels' contract
  /// (ref_fixedpoint.h): finite and non-negative, left shift in [-31, 30],
  /// or in [-31, \p MaxLeftShift] (7 for the 64-bit multiplication of the
  /// 16x8 kernels). Every multiplier the kernel parameters hold comes from
  /// here.
  llvm::Expected<QuantizedMultiplier>
  multiplier(double Real, llvm::StringRef What, int MaxLeftShift = 30) const;
  /// The values of a constant integer tensor (int32, or int64 whose values
  /// fit int32, since the kernels' parameters are int32).
  llvm::Expected<std::vector<int64_t>> constInts(const ir::Tensor &T,
                                                 llvm::StringRef Role) const;

  int64_t attr(llvm::StringRef Name, int64_t Default) const {
    return Op.getInt(Name, Default);
  }
  /// The fused activation, "NONE" when absent.
  std::string activation() const {
    return Op.getString(ir::attr::FusedActivation, "NONE");
  }

private:
  const ir::Graph &G;
  const ir::Operator &Op;
  unsigned Result;
  mutable bool ResultAsked = false;
  const KernelFamilyInfo *Family = nullptr;
  int64_t Index = -1;
};

/// A real number for messages: "%g", so 0.1f reads 0.1 and 1.5e-05 keeps
/// its digits.
std::string formatReal(double V);

/// The kernel-name suffix of a type the kernels implement ("i8", "u8",
/// "f32"), or null.
const char *typeSuffix(ir::DType T);
/// True for int8 and uint8.
bool isQuantized8(ir::DType T);
/// An error unless the kernels take \p T's element type (int8, uint8, float32).
llvm::Error requireKernelType(const OpContext &Ctx, const ir::Tensor &T);

llvm::Error requireSameType(const OpContext &Ctx, const ir::Tensor &A,
                            const ir::Tensor &B);
llvm::Error requireRank(const OpContext &Ctx, const ir::Tensor &T,
                        unsigned Rank, llvm::StringRef Role);
/// An error unless \p T, operand \p I (named \p Role), has shape \p Shape.
llvm::Error requireShape(const OpContext &Ctx, const ir::Tensor &T,
                         unsigned I, llvm::StringRef Role,
                         const std::vector<int32_t> &Shape);
/// The 16x8 kernels' 64-bit requantization
/// (ref_multiply_by_quantized_multiplier_i64, as TensorFlow Lite's, which
/// asserts both): left shifts up to 7, sums within +-2^47.
constexpr int MaxWideLeftShift = 7;
/// An error unless every sum of a 16x8 kernel stays within +-2^47: \p Depth
/// products of an int8 weight and an int16 value (at most 2^22 in magnitude
/// each) plus any value of the int64 \p Bias (null: none; its values are
/// checked when it is constant).
llvm::Error requireWideSumsFit(const OpContext &Ctx, const ir::Tensor *Bias,
                               int64_t Depth);
/// For kernels that keep the quantization (pooling, PAD).
llvm::Error requireSameQuant(const OpContext &Ctx, const TensorQuant &In,
                             const TensorQuant &Out);
/// For kernels that move stored values: nothing for float32, otherwise
/// \p In's and \p Out's quantization, equal.
llvm::Error requireKeptQuant(const OpContext &Ctx, const ir::Tensor &In,
                             const ir::Tensor &Out);
/// The error of an input \p T whose element type no kernel of the family
/// takes; \p Types lists the ones they take ("int8 or float32").
/// The element strides of a tensor of shape \p In broadcast to \p Out,
/// into \p Strides (REF_MAX_RANK entries, both shapes aligned at their last
/// dimension and padded at the front): 0 along a dimension \p In has as 1,
/// and \p Out's dimensions into \p Dims when given. False when \p In does
/// not broadcast to \p Out or either has more than REF_MAX_RANK
/// dimensions.
bool broadcastStrides(llvm::ArrayRef<int32_t> In, llvm::ArrayRef<int32_t> Out,
                      int32_t *Strides, int32_t *Dims = nullptr);

llvm::Error unsupportedInput(const OpContext &Ctx, const ir::Tensor &T,
                             llvm::StringRef Types);
/// The call of parameters \p P on the operator inputs \p DataInputs.
KernelCall makeCall(AnyParams P, std::vector<int32_t> DataInputs);

// The builders of the kernel families: each computes one operator's
// parameters, data inputs and variant. Which builder serves which family is
// declared with the families in defs/kernels.td (a family's `Builder`).
#define REF_KERNEL_FAMILY(Family, Struct, Header, Builder, ByValue, MayAlias)  \
  llvm::Expected<KernelCall> Builder(const OpContext &Ctx);
#include "ref_kernel_table.inc"

} // namespace detail
} // namespace kernels
} // namespace accelgen

#endif // ACCELGEN_KERNELS_OPCONTEXT_H
