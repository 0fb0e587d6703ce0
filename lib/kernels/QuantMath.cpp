//===- QuantMath.cpp - TensorFlow Lite's parameter arithmetic -------------===//
//
// See QuantMath.h. The float-versus-double details are deliberate: where
// TensorFlow Lite computes in float (the activation clamp), so does this
// file.
//
//===----------------------------------------------------------------------===//
#include "kernels/QuantMath.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

namespace accelgen {
namespace kernels {

static llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

QuantizedMultiplier quantizeMultiplier(double Real) {
  QuantizedMultiplier Q;
  if (Real == 0.0 || !std::isfinite(Real))
    return Q;
  int Exponent = 0;
  const double Significand = std::frexp(Real, &Exponent);
  // std::round rounds half away from zero, as TfLiteRound.
  int64_t Fixed = static_cast<int64_t>(std::round(Significand * (1LL << 31)));
  if (Fixed == (1LL << 31)) {
    Fixed /= 2;
    ++Exponent;
  }
  if (Exponent < -31) {
    // Every product would shift out: TensorFlow Lite flushes to zero.
    Exponent = 0;
    Fixed = 0;
  }
  Q.Multiplier = static_cast<int32_t>(Fixed);
  Q.LeftShift = Exponent;
  return Q;
}

llvm::Expected<PaddedDim> computePadding(llvm::StringRef Padding,
                                         int32_t InSize, int32_t FilterSize,
                                         int32_t Stride, int32_t Dilation) {
  if (Stride <= 0 || Dilation <= 0 || FilterSize <= 0)
    return makeError(llvm::formatv("stride {0}, dilation {1} and filter size "
                                   "{2} must all be positive",
                                   Stride, Dilation, FilterSize));
  // int64 throughout: a hostile model's sizes must not overflow.
  const int64_t Effective = int64_t(FilterSize - 1) * Dilation + 1;
  int64_t Out;
  if (Padding == "SAME")
    Out = (int64_t(InSize) + Stride - 1) / Stride;
  else if (Padding == "VALID")
    Out = (int64_t(InSize) + Stride - Effective) / Stride;
  else
    return makeError("padding '" + Padding + "' is not SAME or VALID");
  if (Out < 0)
    Out = 0;
  int64_t Total = (Out - 1) * Stride + Effective - InSize;
  if (Total < 0)
    Total = 0;
  PaddedDim D;
  D.OutSize = static_cast<int32_t>(Out);
  D.PadBefore = static_cast<int32_t>(Total / 2);
  return D;
}

int32_t quantizedMin(ir::DType T) {
  switch (T) {
  case ir::DType::I8:
    return std::numeric_limits<int8_t>::min();
  case ir::DType::I16:
    return std::numeric_limits<int16_t>::min();
  case ir::DType::I32:
    return std::numeric_limits<int32_t>::min();
  default:
    return 0;
  }
}

int32_t quantizedMax(ir::DType T) {
  switch (T) {
  case ir::DType::I8:
    return std::numeric_limits<int8_t>::max();
  case ir::DType::U8:
    return std::numeric_limits<uint8_t>::max();
  case ir::DType::I16:
    return std::numeric_limits<int16_t>::max();
  default:
    return std::numeric_limits<int32_t>::max();
  }
}

llvm::Error activationRangeQuantized(llvm::StringRef Activation, ir::DType T,
                                     float Scale, int32_t ZeroPoint,
                                     int32_t &Min, int32_t &Max) {
  const int32_t QMin = quantizedMin(T), QMax = quantizedMax(T);
  // zero_point + round(f / scale), in float as TensorFlow Lite does; the
  // rounded value is clamped to int32 before conversion.
  auto Quantize = [&](float F) -> int64_t {
    const float R = std::round(F / Scale);
    if (!(R > -2147483648.0f))
      return std::numeric_limits<int32_t>::min();
    if (R >= 2147483648.0f)
      return std::numeric_limits<int32_t>::max();
    return int64_t(ZeroPoint) + static_cast<int32_t>(R);
  };
  auto Clamp = [](int64_t V, int32_t Lo, int32_t Hi) {
    return static_cast<int32_t>(V < Lo ? Lo : (V > Hi ? Hi : V));
  };
  if (Activation == "NONE") {
    Min = QMin;
    Max = QMax;
  } else if (Activation == "RELU") {
    Min = Clamp(Quantize(0.0f), QMin, QMax);
    Max = QMax;
  } else if (Activation == "RELU6") {
    Min = Clamp(Quantize(0.0f), QMin, QMax);
    Max = Clamp(Quantize(6.0f), QMin, QMax);
  } else if (Activation == "RELU_N1_TO_1") {
    Min = Clamp(Quantize(-1.0f), QMin, QMax);
    Max = Clamp(Quantize(1.0f), QMin, QMax);
  } else {
    return makeError("fused activation " + Activation +
                     " is not supported by the reference kernels");
  }
  if (Min > Max)
    return makeError(llvm::formatv("fused activation {0} has an empty range "
                                   "[{1}, {2}] in the output quantization",
                                   Activation, Min, Max));
  return llvm::Error::success();
}

llvm::Error activationRangeFloat(llvm::StringRef Activation, float &Min,
                                 float &Max) {
  if (Activation == "NONE") {
    Min = std::numeric_limits<float>::lowest();
    Max = std::numeric_limits<float>::max();
  } else if (Activation == "RELU") {
    Min = 0.0f;
    Max = std::numeric_limits<float>::max();
  } else if (Activation == "RELU6") {
    Min = 0.0f;
    Max = 6.0f;
  } else if (Activation == "RELU_N1_TO_1") {
    Min = -1.0f;
    Max = 1.0f;
  } else {
    return makeError("fused activation " + Activation +
                     " is not supported by the reference kernels");
  }
  return llvm::Error::success();
}

int32_t calculateInputRadius(int32_t IntegerBits, int32_t LeftShift,
                             int32_t TotalSignedBits) {
  const double MaxInputRescaled =
      1.0 * ((1 << IntegerBits) - 1) *
      std::ldexp(1.0, TotalSignedBits - IntegerBits) /
      std::ldexp(1.0, LeftShift);
  const double Floor = std::floor(MaxInputRescaled);
  return Floor >= 2147483647.0 ? std::numeric_limits<int32_t>::max()
                               : static_cast<int32_t>(Floor);
}

int32_t checkedLog2(float X, bool &Exact) {
  const float Log2 = std::log(X) * (1.0f / std::log(2.0f));
  const float Rounded = std::round(Log2);
  Exact = std::abs(Log2 - Rounded) < 1e-3f;
  return static_cast<int32_t>(Rounded);
}

} // namespace kernels
} // namespace accelgen
