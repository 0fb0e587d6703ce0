//===- QuantMath.h - TensorFlow Lite's parameter arithmetic -----*- C++ -*-===//
//
// The arithmetic TensorFlow Lite runs when it prepares an operator, turning
// float scales into the integer parameters its kernels take: quantized
// multipliers (QuantizeMultiplier via frexp), SAME/VALID padding
// (ComputePaddingHeightWidth), activation clamps in the output quantization
// (CalculateActivationRangeQuantized), and the input radius of the
// fixed-point softmax / logistic / tanh. Each function reproduces TensorFlow
// Lite's rounding and float-versus-double choices, because a kernel can only
// be bit-exact if its parameters are.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_KERNELS_QUANTMATH_H
#define ACCELGEN_KERNELS_QUANTMATH_H

#include "ir/DType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace accelgen {
namespace kernels {

/// A real multiplier as Multiplier * 2^(LeftShift - 31), Multiplier in
/// [2^30, 2^31) or 0.
struct QuantizedMultiplier {
  int32_t Multiplier = 0;
  int32_t LeftShift = 0;
};

/// TensorFlow Lite's QuantizeMultiplier: frexp, round the significand to 31
/// bits (half away from zero), renormalise 2^31, flush exponents below -31 to
/// zero. \p Real must be finite and non-negative.
QuantizedMultiplier quantizeMultiplier(double Real);

/// The output size and the padding before the first element of one spatial
/// dimension, as TensorFlow Lite's ComputeOutSize / ComputePaddingWithOffset.
struct PaddedDim {
  int32_t OutSize = 0;
  int32_t PadBefore = 0;
};

/// SAME or VALID padding of a dimension of \p InSize with a \p FilterSize
/// filter (dilated by \p Dilation) moved by \p Stride. Errors on an unknown
/// padding name or a non-positive stride, dilation or filter size.
llvm::Expected<PaddedDim> computePadding(llvm::StringRef Padding,
                                         int32_t InSize, int32_t FilterSize,
                                         int32_t Stride, int32_t Dilation);

/// The smallest and largest value of an 8-bit type.
int32_t quantizedMin(ir::DType T);
int32_t quantizedMax(ir::DType T);

/// The clamp of fused activation \p Activation ("NONE", "RELU", "RELU6",
/// "RELU_N1_TO_1") in the output quantization \p Scale, \p ZeroPoint of type
/// \p T: zero_point + round(f / scale) with float division, intersected with
/// the type's range.
llvm::Error activationRangeQuantized(llvm::StringRef Activation, ir::DType T,
                                     float Scale, int32_t ZeroPoint,
                                     int32_t &Min, int32_t &Max);

/// The float clamp of fused activation \p Activation.
llvm::Error activationRangeFloat(llvm::StringRef Activation, float &Min,
                                 float &Max);

/// CalculateInputRadius: the largest input magnitude (in input steps) that
/// still maps inside a Q(IntegerBits) fixed-point range after scaling by a
/// multiplier with left shift \p LeftShift.
int32_t calculateInputRadius(int32_t IntegerBits, int32_t LeftShift,
                             int32_t TotalSignedBits = 31);

/// CheckedLog2 of a float as TensorFlow Lite computes it (log(x) * (1 /
/// log(2)) in float, rounded half away from zero): the nearest integer to
/// log2(X); sets \p Exact when X is that power of two to within 10^-3 in the
/// exponent.
int32_t checkedLog2(float X, bool &Exact);

} // namespace kernels
} // namespace accelgen

#endif // ACCELGEN_KERNELS_QUANTMATH_H
