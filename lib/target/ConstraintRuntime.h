//===- ConstraintRuntime.h - What generated constraint checks call --------===//
//
// accelgen-tblgen turns each constraint expression of a target description
// into a C++ check function. Those functions read the operator through the
// accessors below and format what they observed with `format` for the
// rejection message; fusion-pattern checks find their operators through a
// Captures map. Nothing here may fail on a malformed model:
//
//  - a missing attribute (or one stored with another kind) reads as 0, 0.0,
//    false or ""; a float attribute stored as an integer reads as its value;
//  - an absent operand or result (index past the end, -1 for an omitted
//    optional operand, or an invalid tensor index) reads as dtype "none"
//    (unequal to every type), rank 0, every dim 0, channels 0,
//    num_elements 0, is_constant false, scale 0.0, zero_point 0 and
//    per_channel false;
//  - dim(i) with i outside [-rank, rank) reads as 0, and so does channels
//    (the last dim) of a scalar;
//  - integer arithmetic wraps on overflow, and division or remainder by zero
//    gives 0 (division truncates toward zero, as in C++);
//  - the built-in functions follow suit: align wraps, ceil and floor of a
//    float outside the int64 range saturate (NaN gives 0), and the
//    multiply-accumulate count saturates at INT64_MAX.
//
// Cost estimates, which the description states in the same language, are
// generated as functions over the same accessors.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_CONSTRAINTRUNTIME_H
#define ACCELGEN_TARGET_CONSTRAINTRUNTIME_H

#include "ir/DType.h"
#include "ir/Graph.h"
#include "target/Pattern.h"
#include "target/ValueFormat.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace target {

/// The operators a fusion-pattern match bound, by capture name.
class Captures {
public:
  Captures() = default;
  /// Binds the capture name of every named node of \p P to its operator in
  /// \p M.
  Captures(const PatternDesc &P, const PatternMatch &M);

  /// Binds \p Name to operator \p OpIndex of the graph (rebinding replaces).
  void bind(llvm::StringRef Name, int32_t OpIndex);
  /// The operator index bound to \p Name, or -1.
  int32_t index(llvm::StringRef Name) const;
  /// The operator bound to \p Name; an operator with no attributes, operands
  /// or results when the name is unbound or the index invalid.
  const ir::Operator &op(const ir::Graph &G, llvm::StringRef Name) const;

private:
  std::vector<std::pair<std::string, int32_t>> Bound;
};

namespace rt {

using DType = ir::DType;
/// The dtype of an operand; std::nullopt when the operand is absent.
using MaybeDType = std::optional<ir::DType>;

/// Integer attribute \p Name of \p Op, 0 when missing.
int64_t attrInt(const ir::Operator &Op, llvm::StringRef Name);
/// Float attribute \p Name of \p Op, 0.0 when missing.
double attrFloat(const ir::Operator &Op, llvm::StringRef Name);
/// Boolean attribute \p Name of \p Op, false when missing.
bool attrBool(const ir::Operator &Op, llvm::StringRef Name);
/// String attribute \p Name of \p Op, "" when missing.
std::string attrString(const ir::Operator &Op, llvm::StringRef Name);

/// The type of \p Op ("CONV_2D"): `op` in the constraint language.
inline std::string opType(const ir::Operator &Op) { return Op.Type; }

/// The number of operand slots of \p Op, omitted optional ones included.
inline int64_t numInputs(const ir::Operator &Op) {
  return static_cast<int64_t>(Op.Inputs.size());
}
/// The number of results of \p Op.
inline int64_t numOutputs(const ir::Operator &Op) {
  return static_cast<int64_t>(Op.Outputs.size());
}

/// Operand \p I of \p Op, or null when it is absent.
const ir::Tensor *inputTensor(const ir::Graph &G, const ir::Operator &Op,
                              unsigned I);
/// Result \p I of \p Op, or null when it is absent.
const ir::Tensor *outputTensor(const ir::Graph &G, const ir::Operator &Op,
                               unsigned I);

/// Properties of a tensor that may be absent (null), as described above.
MaybeDType tensorDType(const ir::Tensor *T);
int64_t tensorRank(const ir::Tensor *T);
int64_t tensorDim(const ir::Tensor *T, int64_t Axis);
int64_t tensorChannels(const ir::Tensor *T);
int64_t tensorNumElements(const ir::Tensor *T);
bool tensorIsConstant(const ir::Tensor *T);
double tensorScale(const ir::Tensor *T);
int64_t tensorZeroPoint(const ir::Tensor *T);
bool tensorPerChannel(const ir::Tensor *T);

// The accessors generated checks call: input(I).P and output(I).P.
#define ACCELGEN_RT_PROPERTY(RESULT, NAME, CALL)                               \
  inline RESULT input##NAME(const ir::Graph &G, const ir::Operator &Op,        \
                            unsigned I) {                                      \
    return CALL(inputTensor(G, Op, I));                                        \
  }                                                                            \
  inline RESULT output##NAME(const ir::Graph &G, const ir::Operator &Op,       \
                             unsigned I) {                                     \
    return CALL(outputTensor(G, Op, I));                                       \
  }
ACCELGEN_RT_PROPERTY(MaybeDType, DType, tensorDType)
ACCELGEN_RT_PROPERTY(int64_t, Rank, tensorRank)
ACCELGEN_RT_PROPERTY(int64_t, Channels, tensorChannels)
ACCELGEN_RT_PROPERTY(int64_t, NumElements, tensorNumElements)
ACCELGEN_RT_PROPERTY(bool, IsConstant, tensorIsConstant)
ACCELGEN_RT_PROPERTY(double, Scale, tensorScale)
ACCELGEN_RT_PROPERTY(int64_t, ZeroPoint, tensorZeroPoint)
ACCELGEN_RT_PROPERTY(bool, PerChannel, tensorPerChannel)
#undef ACCELGEN_RT_PROPERTY

/// Dimension \p Axis of operand \p I (negative counts from the end).
inline int64_t inputDim(const ir::Graph &G, const ir::Operator &Op, unsigned I,
                        int64_t Axis) {
  return tensorDim(inputTensor(G, Op, I), Axis);
}
/// Dimension \p Axis of result \p I (negative counts from the end).
inline int64_t outputDim(const ir::Graph &G, const ir::Operator &Op, unsigned I,
                         int64_t Axis) {
  return tensorDim(outputTensor(G, Op, I), Axis);
}

/// The multiply-accumulate count of \p Op (analysis::operatorMacs): 0 for
/// operators without weights, and for operators analysis does not know.
int64_t macs(const ir::Graph &G, const ir::Operator &Op);

/// The smaller and the larger of two ints.
inline int64_t min(int64_t A, int64_t B) { return A < B ? A : B; }
inline int64_t max(int64_t A, int64_t B) { return A < B ? B : A; }
/// The smaller and the larger of two floats; a NaN loses to a number.
double fmin(double A, double B);
double fmax(double A, double B);
/// The smallest int not below \p X and the largest not above it, saturated
/// to the int64 range; 0 for NaN.
int64_t ceil(double X);
int64_t floor(double X);
/// \p X rounded up to a multiple of \p N, wrapping on overflow; \p X itself
/// when \p N <= 0.
inline int64_t align(int64_t X, int64_t N) {
  if (N <= 0)
    return X;
  int64_t R = X % N; // N > 0: no trap; R has the sign of X.
  if (R == 0)
    return X;
  return R > 0 ? add(X, N - R) : X - R;
}

} // namespace rt
} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_CONSTRAINTRUNTIME_H
