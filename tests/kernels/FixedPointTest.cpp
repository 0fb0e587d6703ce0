//===- FixedPointTest.cpp - The fixed-point helpers and parameter math ----===//
//
// ref_fixedpoint.h against independent definitions (exact rational rounding
// in 64-bit or long double arithmetic, libm's exp / tanh), ref_softmax16.h's
// tables recomputed, and QuantMath against values worked out by hand from
// TensorFlow Lite's definitions.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "kernels/QuantMath.h"
#include "kernels/c/ref_fixedpoint.h"
#include "kernels/c/ref_softmax16.h"

#include <cmath>
#include <random>

using namespace accelgen;
using namespace accelgen::kernels;

namespace {

/// n / 2^e rounded to nearest, ties away from zero, in exact integer math.
int64_t roundShift(__int128 N, int E) {
  if (E == 0)
    return static_cast<int64_t>(N);
  const __int128 Half = __int128(1) << (E - 1);
  const __int128 Mag = N < 0 ? -N : N;
  const __int128 Q = (Mag + Half) >> E;
  return static_cast<int64_t>(N < 0 ? -Q : Q);
}

/// n / 2^e rounded to nearest, ties toward +infinity (floor(n / 2^e + 1/2)).
int64_t roundShiftUp(__int128 N, int E) {
  const __int128 Half = __int128(1) << (E - 1);
  const __int128 S = N + Half;
  // Arithmetic shift of a negative __int128 floors, as wanted.
  return static_cast<int64_t>(S >> E);
}

/// A mix of edge values and random ones.
std::vector<int32_t> sampleInt32(size_t Random, uint32_t Seed) {
  std::vector<int32_t> V = {0,
                            1,
                            -1,
                            2,
                            -2,
                            3,
                            -3,
                            INT32_MAX,
                            INT32_MIN,
                            INT32_MIN + 1,
                            1 << 30,
                            -(1 << 30),
                            (1 << 30) - 1,
                            12345,
                            -12345};
  std::mt19937 Gen(Seed);
  std::uniform_int_distribution<int32_t> D(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int32_t> Small(-70000, 70000);
  for (size_t I = 0; I < Random; ++I)
    V.push_back(I % 2 ? D(Gen) : Small(Gen));
  return V;
}

} // namespace

TEST_CASE("srdhm rounds a*b/2^31 to nearest, ties toward +infinity") {
  const std::vector<int32_t> A = sampleInt32(300, 1), B = sampleInt32(300, 2);
  for (int32_t X : A)
    for (int32_t Y : B) {
      if (X == INT32_MIN && Y == INT32_MIN) {
        CHECK(ref_srdhm_i32(X, Y) == INT32_MAX);
        continue;
      }
      const int64_t Want = roundShiftUp(__int128(X) * Y, 31);
      REQUIRE_MESSAGE(ref_srdhm_i32(X, Y) == Want, X << " * " << Y);
    }
  CHECK(ref_srdhm_i32(1, -(1 << 30)) == 0);  // -0.5
  CHECK(ref_srdhm_i32(1, 1 << 30) == 1);     // +0.5
  CHECK(ref_srdhm_i32(3, -(1 << 30)) == -1); // -1.5
}

TEST_CASE("rounding divide by a power of two") {
  for (int32_t X : sampleInt32(2000, 3))
    for (int E = 0; E <= 31; ++E)
      REQUIRE_MESSAGE(ref_rounding_divide_by_pot(X, E) == roundShift(X, E),
                      X << " / 2^" << E);
  // Ties go away from zero.
  CHECK(ref_rounding_divide_by_pot(5, 1) == 3);
  CHECK(ref_rounding_divide_by_pot(-5, 1) == -3);
  CHECK(ref_rounding_divide_by_pot(-6, 2) == -2); // -1.5
  CHECK(ref_rounding_divide_by_pot(-7, 2) == -2); // -1.75
}

TEST_CASE("multiply by quantized multiplier rounds twice") {
  // 0.75 = 1610612736 / 2^31; left shift 0.
  CHECK(ref_multiply_by_quantized_multiplier(100, 1610612736, 0) == 75);
  CHECK(ref_multiply_by_quantized_multiplier(-100, 1610612736, 0) == -75);
  // x * 0.5 * 2^-1 = x / 4, ties away from zero.
  CHECK(ref_multiply_by_quantized_multiplier(6, 1 << 30, -1) == 2);
  CHECK(ref_multiply_by_quantized_multiplier(-6, 1 << 30, -1) == -2);
  CHECK(ref_multiply_by_quantized_multiplier(10, 1 << 30, -1) == 3);
  CHECK(ref_multiply_by_quantized_multiplier(-10, 1 << 30, -1) == -3);
  // Double rounding: 1 * 0.4 is 0.8 * 2^-1; 0.8 rounds to 1, 1 / 2 to 1.
  CHECK(ref_multiply_by_quantized_multiplier(1, 1717986918, -1) == 1);
  // Left shifts multiply first: 3 * 2^4 * 0.5 = 24.
  CHECK(ref_multiply_by_quantized_multiplier(3, 1 << 30, 4) == 24);
  // The double rounding: x * m / 2^31 is first rounded to an integer (ties
  // up), then divided by 2^right with a second rounding (ties away from
  // zero). The two-step result can differ from rounding once; check it is
  // exactly the two steps.
  for (int32_t X : sampleInt32(500, 4))
    for (int Shift = -12; Shift <= 0; ++Shift) {
      const int32_t M = 1518500250; // ~ 0.7071 * 2^31
      const int64_t High = roundShiftUp(__int128(X) * M, 31);
      REQUIRE(ref_multiply_by_quantized_multiplier(X, M, Shift) ==
              roundShift(High, -Shift));
    }
}

TEST_CASE("the branchless multiply by quantized multiplier is the same") {
  // Every shift the contract allows, multipliers at the ends of their range
  // (0, 2^30, 2^31 - 1, and INT32_MIN for the saturating case) and random
  // ones, and edge and random accumulators: the same integer each time.
  std::vector<int32_t> Multipliers = {0,         1,         1 << 30,
                                      INT32_MAX, INT32_MIN, 1518500250};
  for (int32_t M : sampleInt32(40, 9))
    Multipliers.push_back(M);
  size_t Compared = 0;
  for (int32_t X : sampleInt32(400, 5))
    for (int32_t M : Multipliers)
      for (int Shift = -31; Shift <= 30; ++Shift) {
        // Left shifts only where x * 2^shift fits (the contract).
        const int32_t In = Shift > 0 ? X / (int32_t(1) << Shift) : X;
        INFO(In << " " << M << " " << Shift);
        REQUIRE(ref_multiply_by_quantized_multiplier_branchless(In, M, Shift) ==
                ref_multiply_by_quantized_multiplier(In, M, Shift));
        ++Compared;
      }
  CHECK(Compared == 415 * 61 * 62);
}

TEST_CASE("exp on negative values") {
  for (int IntegerBits : {4, 5}) {
    const double One = std::ldexp(1.0, 31 - IntegerBits);
    CHECK(ref_exp_on_negative_values(0, IntegerBits) == INT32_MAX);
    double MaxErr = 0;
    for (int I = 0; I <= 4000; ++I) {
      // Inputs from 0 down to -(2^IntegerBits - 1), in raw steps of odd size.
      const double X = -double(I) / 4000.0 * (std::ldexp(1.0, IntegerBits) - 1);
      const int32_t Raw = static_cast<int32_t>(std::llround(X * One));
      const double Got =
          ref_exp_on_negative_values(Raw, IntegerBits) / std::ldexp(1.0, 31);
      MaxErr = std::max(MaxErr, std::fabs(Got - std::exp(Raw / One)));
    }
    CHECK_MESSAGE(MaxErr < 4e-7, "Q" << IntegerBits << ": " << MaxErr);
  }
}

TEST_CASE("logistic, tanh and the reciprocals in fixed point") {
  const double Q0 = std::ldexp(1.0, 31), Q4 = std::ldexp(1.0, 27);
  double LogisticErr = 0, TanhErr = 0;
  for (int I = -8000; I <= 8000; ++I) {
    const double X = I / 500.0; // [-16, 16]
    const int32_t Raw = static_cast<int32_t>(
        std::max(-2147483647.0, std::min(2147483647.0, X * Q4)));
    LogisticErr =
        std::max(LogisticErr, std::fabs(ref_logistic_q4(Raw) / Q0 -
                                        1 / (1 + std::exp(-Raw / Q4))));
    TanhErr = std::max(TanhErr,
                       std::fabs(ref_tanh_q4(Raw) / Q0 - std::tanh(Raw / Q4)));
  }
  CHECK_MESSAGE(LogisticErr < 4e-7, LogisticErr);
  CHECK_MESSAGE(TanhErr < 4e-7, TanhErr);
  CHECK(ref_logistic_q4(0) == 1 << 30);
  CHECK(ref_tanh_q4(0) == 0);
  for (int I = 0; I <= 1000; ++I) {
    const double A = I / 1000.0;
    const int32_t Raw = static_cast<int32_t>(std::min(A * Q0, 2147483647.0));
    CHECK(std::fabs(ref_one_over_one_plus_x(Raw) / Q0 - 1 / (1 + Raw / Q0)) <
          1e-8);
    CHECK(std::fabs(ref_one_minus_x_over_one_plus_x(Raw) / Q0 -
                    (1 - Raw / Q0) / (1 + Raw / Q0)) < 1e-8);
  }
}

TEST_CASE("int16 helpers and leading zeros") {
  CHECK(ref_srdhm_i16(INT16_MIN, INT16_MIN) == INT16_MAX);
  CHECK(ref_srdhm_i16(16384, 16384) == 8192); // 0.5 * 0.5
  CHECK(ref_srdhm_i16(3, 16384) == 2);        // 1.5: ties up
  CHECK(ref_srdhm_i16(-3, 16384) == -1);      // -1.5: ties up
  CHECK(ref_sdhm_i16(3, 16384) == 1);         // truncates
  CHECK(ref_sdhm_i16(-3, 16384) == -1);
  CHECK(ref_saturating_left_shift_i16(20000, 1) == INT16_MAX);
  CHECK(ref_saturating_left_shift_i16(-20000, 1) == INT16_MIN);
  CHECK(ref_saturating_left_shift_i16(100, 3) == 800);
  CHECK(ref_count_leading_zeros_u32(0) == 32);
  CHECK(ref_count_leading_zeros_u32(1) == 31);
  CHECK(ref_count_leading_zeros_u32(0x80000000u) == 0);
  CHECK(ref_count_leading_zeros_u32(0x00010000u) == 15);
  CHECK(ref_saturating_rounding_mul_by_pot(1 << 29, 2) == INT32_MAX);
  CHECK(ref_saturating_rounding_mul_by_pot(-(1 << 29), 2) == INT32_MIN);
  CHECK(ref_saturating_rounding_mul_by_pot((1 << 29) - 1, 2) ==
        ((1 << 29) - 1) * 4);
  CHECK(ref_saturating_rounding_mul_by_pot(6, -2) == 2);
  CHECK(ref_rounding_half_sum(INT32_MAX, INT32_MAX) == INT32_MAX);
  CHECK(ref_rounding_half_sum(3, 0) == 2);
  CHECK(ref_rounding_half_sum(-3, 0) == -2);
}

TEST_CASE("quantizeMultiplier follows frexp and rounds the significand") {
  auto Q = [](double R) {
    QuantizedMultiplier M = quantizeMultiplier(R);
    return std::make_pair(M.Multiplier, M.LeftShift);
  };
  CHECK(Q(0.5) == std::make_pair(1 << 30, 0));
  CHECK(Q(1.0) == std::make_pair(1 << 30, 1));
  CHECK(Q(0.75) == std::make_pair(1610612736, 0));
  CHECK(Q(3.0) == std::make_pair(1610612736, 2));
  CHECK(Q(0.0) == std::make_pair(0, 0));
  // The significand rounds up to 2^31: renormalised to 2^30, one more shift.
  CHECK(Q(1.0 - std::ldexp(1.0, -40)) == std::make_pair(1 << 30, 1));
  // Below 2^-32 every product shifts out: flushed to zero.
  CHECK(Q(std::ldexp(1.0, -33)) == std::make_pair(0, 0));
  CHECK(Q(std::ldexp(1.0, -32)) == std::make_pair(1 << 30, -31));
  // Half-way significands round away from zero (std::round).
  CHECK(Q(0.5 + std::ldexp(1.0, -32)).first == (1 << 30) + 1);
}

TEST_CASE("SAME and VALID padding as ComputePaddingHeightWidth") {
  auto P = [](const char *Pad, int In, int K, int S, int D) {
    auto R = computePadding(Pad, In, K, S, D);
    REQUIRE(static_cast<bool>(R));
    return std::make_pair(R->OutSize, R->PadBefore);
  };
  CHECK(P("SAME", 224, 3, 2, 1) == std::make_pair(112, 0)); // total 1
  CHECK(P("SAME", 96, 3, 2, 1) == std::make_pair(48, 0));
  CHECK(P("SAME", 5, 3, 1, 1) == std::make_pair(5, 1));
  CHECK(P("SAME", 49, 10, 2, 1) == std::make_pair(25, 4)); // total 9
  CHECK(P("SAME", 7, 3, 1, 2) == std::make_pair(7, 2));    // dilated 5
  CHECK(P("VALID", 5, 3, 2, 1) == std::make_pair(2, 0));
  CHECK(P("VALID", 7, 3, 1, 3) == std::make_pair(1, 0));
  CHECK(P("VALID", 2, 3, 1, 1) == std::make_pair(0, 0));
  CHECK_FALSE(static_cast<bool>(computePadding("FULL", 5, 3, 1, 1)));
  llvm::consumeError(computePadding("FULL", 5, 3, 1, 1).takeError());
  auto Zero = computePadding("SAME", 5, 3, 0, 1);
  CHECK_FALSE(static_cast<bool>(Zero));
  llvm::consumeError(Zero.takeError());
}

TEST_CASE("activation ranges in the output quantization") {
  int32_t Min = 0, Max = 0;
  REQUIRE(
      !activationRangeQuantized("RELU6", ir::DType::I8, 0.05f, -20, Min, Max));
  CHECK(Min == -20);
  CHECK(Max == 100); // -20 + round(6 / 0.05)
  REQUIRE(
      !activationRangeQuantized("RELU6", ir::DType::I8, 0.01f, -128, Min, Max));
  CHECK(Max == 127); // 600 steps, clamped to the type
  REQUIRE(
      !activationRangeQuantized("RELU", ir::DType::U8, 0.1f, 130, Min, Max));
  CHECK(Min == 130);
  CHECK(Max == 255);
  REQUIRE(!activationRangeQuantized("RELU_N1_TO_1", ir::DType::I8, 0.25f, 0,
                                    Min, Max));
  CHECK(Min == -4);
  CHECK(Max == 4);
  REQUIRE(!activationRangeQuantized("NONE", ir::DType::U8, 1.0f, 0, Min, Max));
  CHECK(Min == 0);
  CHECK(Max == 255);
  llvm::Error E =
      activationRangeQuantized("TANH", ir::DType::I8, 1.0f, 0, Min, Max);
  CHECK(llvm::toString(std::move(E)) ==
        "fused activation TANH is not supported by the reference kernels");
}

TEST_CASE("input radius") {
  // ((1 << 5) - 1) * 2^26 / 2^20 = 31 * 64.
  CHECK(calculateInputRadius(5, 20) == 1984);
  // ((1 << 4) - 1) * 2^27 / 2^22 = 15 * 32.
  CHECK(calculateInputRadius(4, 22) == 480);
  // Large radii saturate instead of overflowing.
  CHECK(calculateInputRadius(5, -10) == INT32_MAX);
}

namespace {

/// A 513-entry int16 table of \p F over the int16 range read with scale
/// \p InScale and zero point \p InZp, output scale \p OutScale, in float as
/// TensorFlow Lite prepares it: each of 512 samples less half the rounded
/// error of interpolating to its interval's midpoint, then the end point.
template <typename Fn>
std::vector<int16_t> lut16(float InScale, int InZp, float OutScale, Fn F) {
  const float InMin = InScale * float(-32768 - InZp);
  const float InMax = InScale * float(32767 - InZp);
  const float OutMin = OutScale * -32768.0f, OutMax = OutScale * 32767.0f;
  const float Step = (InMax - InMin) / 512, Half = Step / 2;
  const float Inv = 65536.0f / (OutMax - OutMin);
  auto Clamp = [](float V) {
    return int16_t(std::min(std::max(V, -32768.0f), 32767.0f));
  };
  std::vector<int16_t> T;
  for (int I = 0; I < 512; ++I) {
    const float V = F(InMin + float(I) * Step);
    const float Mid = F(InMin + float(I) * Step + Half);
    const float Next = F(InMin + float(I + 1) * Step);
    const float Interp = std::round((Next * Inv + std::round(V * Inv)) / 2);
    const float Bias = std::round((Interp - std::round(Mid * Inv)) / 2);
    T.push_back(Clamp(std::round(V * Inv) - Bias));
  }
  T.push_back(Clamp(std::round(F(InMax) * Inv)));
  return T;
}

} // namespace

TEST_CASE("the int16 softmax tables are exp and 1 / (1 + x) as prepared in "
          "float") {
  const float Range = 65535.0f;
  const auto Exp = lut16(10.0f / Range, 32767, 2.0f / Range,
                         [](float X) { return std::exp(X); });
  const auto Recip = lut16(1.0f / Range, -32768, 2.0f / Range,
                           [](float X) { return 1.0f / (1.0f + X); });
  REQUIRE(Exp.size() == REF_LUT16_SIZE);
  size_t ExpSame = 0, RecipSame = 0;
  for (size_t I = 0; I < REF_LUT16_SIZE; ++I) {
    ExpSame += Exp[I] == ref_softmax16_exp_lut[I];
    RecipSame += Recip[I] == ref_softmax16_recip_lut[I];
    // Within two steps of the function itself (32768 is 1).
    const double X = double(I) / 512;
    CHECK(std::fabs(ref_softmax16_exp_lut[I] - 32767.5 * std::exp(10 * X - 10)) <
          2.5);
    CHECK(std::fabs(ref_softmax16_recip_lut[I] - 32767.5 / (1 + X)) < 2.5);
  }
  CHECK(ExpSame == REF_LUT16_SIZE);
  CHECK(RecipSame == REF_LUT16_SIZE);
  // The lookup interpolates: halfway between two entries, their mean.
  const int16_t Mid = ref_lut16_lookup(64, ref_softmax16_exp_lut);
  CHECK(Mid == ref_softmax16_exp_lut[256] +
                   ((ref_softmax16_exp_lut[257] - ref_softmax16_exp_lut[256]) *
                        64 +
                    64) /
                       128);
}
