/*===- ref_fixedpoint.h - Fixed-point arithmetic of the reference kernels -===*
 *
 * Every integer helper the reference kernels use, in one place, with the exact
 * rounding and saturation of TensorFlow Lite's reference integer kernels
 * (double-rounding MultiplyByQuantizedMultiplier, the gemmlowp fixed-point
 * exp / logistic / tanh / reciprocal evaluations), and ONNX's float32
 * requantization (ref_requantize_float). Each helper states its
 * contract; the preconditions are the ones TensorFlow Lite's own helpers
 * assume, and KernelParams only produces parameters that satisfy them.
 *
 * Shift convention, used by every params struct: a field named `*left_shift`
 * holds the power-of-two exponent of a quantized multiplier, as frexp gives it.
 * A positive value shifts left, a negative value shifts right (rounding). It is
 * never stored negated.
 *
 * A quantized multiplier is an int32 `m` in [2^30, 2^31) (or 0) standing for
 * the real number m / 2^31; with `left_shift` e the real factor applied is
 * m * 2^(e - 31).
 *
 * Assumptions on the C implementation, checked at compile time: two's
 * complement int32_t (guaranteed by <stdint.h>), and `>>` on a negative signed
 * integer shifting arithmetically (implementation-defined in C99; true of GCC,
 * Clang, MSVC and every compiler TensorFlow Lite itself supports).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_FIXEDPOINT_H
#define ACCELGEN_REF_FIXEDPOINT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fails to compile (negative array size) where `>>` is not arithmetic. */
typedef char ref_requires_arithmetic_right_shift[((-8) >> 1) == -4 ? 1 : -1];

/* --- saturation ---------------------------------------------------------- */

/* Clamps x to [lo, hi]; requires lo <= hi. */
static inline int32_t ref_clamp_i32(int32_t x, int32_t lo, int32_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* Saturates x to the int8 range [-128, 127]. */
static inline int8_t ref_saturate_i8(int32_t x) {
  return (int8_t)ref_clamp_i32(x, INT8_MIN, INT8_MAX);
}

/* Saturates x to the uint8 range [0, 255]. */
static inline uint8_t ref_saturate_u8(int32_t x) {
  return (uint8_t)ref_clamp_i32(x, 0, UINT8_MAX);
}

/* Saturates x to the int16 range. */
static inline int16_t ref_saturate_i16(int32_t x) {
  return (int16_t)ref_clamp_i32(x, INT16_MIN, INT16_MAX);
}

/* x * 2^shift with two's complement wrap-around, for 0 <= shift <= 31. The
 * callers' contracts keep the product in range (TensorFlow Lite multiplies in
 * int32 and relies on the same); going through uint32 keeps an out-of-range
 * product from being undefined behaviour. */
static inline int32_t ref_shl_i32(int32_t x, int32_t shift) {
  return (int32_t)((uint32_t)x << shift);
}

/* --- the quantized multiplier -------------------------------------------- */

/* SaturatingRoundingDoublingHighMul: the high 32 bits of 2*a*b, that is
 * a*b / 2^31 rounded to nearest with ties toward +infinity (the nudge is
 * 2^30 for a non-negative product and 1 - 2^30 for a negative one, then the
 * division truncates toward zero): round(-0.5) is 0, round(0.5) is 1.
 * Exact: the 64-bit product cannot overflow. Saturates the single
 * overflowing case a == b == INT32_MIN to INT32_MAX. */
static inline int32_t ref_srdhm_i32(int32_t a, int32_t b) {
  int64_t ab;
  int64_t nudge;
  if (a == b && a == INT32_MIN)
    return INT32_MAX;
  ab = (int64_t)a * (int64_t)b;
  nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  /* The quotient fits in int32 for every (a, b) but the case excluded
   * above. */
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from
 * zero, for 0 <= exponent <= 31. Never overflows. */
static inline int32_t ref_rounding_divide_by_pot(int32_t x, int32_t exponent) {
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* MultiplyByQuantizedMultiplier with TensorFlow Lite's default double
 * rounding: x * multiplier / 2^31 * 2^left_shift, computed as
 *   RoundingDivideByPOT(SRDHM(x * 2^max(left_shift, 0), multiplier),
 *                       max(-left_shift, 0)).
 * Contract: -31 <= left_shift <= 30, and x * 2^max(left_shift, 0) fits in
 * int32 (it wraps otherwise, as TensorFlow Lite's int32 product does). Two
 * roundings (one in SRDHM, one in the divide) is what the reference kernels
 * do; a single-rounding implementation differs by one step on some inputs. */
static inline int32_t ref_multiply_by_quantized_multiplier(int32_t x,
                                                           int32_t multiplier,
                                                           int32_t left_shift) {
  const int32_t left = left_shift > 0 ? left_shift : 0;
  const int32_t right = left_shift > 0 ? 0 : -left_shift;
  return ref_rounding_divide_by_pot(
      ref_srdhm_i32(ref_shl_i32(x, left), multiplier), right);
}

/* v rounded to the nearest integer with ties to even, as rint in the
 * default rounding mode, without libm. v is clamped to +-2^22 first (far
 * outside every quantized type, whose clamp follows), where adding and
 * subtracting 1.5 * 2^23 rounds it exactly: float32 arithmetic in the
 * default rounding mode, as C99 computes it on SSE and on single-precision
 * FPUs. The clamp also keeps a product passed in from meeting the addition
 * in one fused multiply-add, which would round once instead. */
static inline int32_t ref_round_half_even_float(float v) {
  v = v > 4194304.0f ? 4194304.0f : v;
  v = v < -4194304.0f ? -4194304.0f : v;
  return (int32_t)((v + 12582912.0f) - 12582912.0f);
}

/* ONNX's requantization (its QLinear operators, as ONNX Runtime computes
 * them): the accumulator converted to float32, times the float32 scale,
 * rounded to the nearest integer with ties to even. */
static inline int32_t ref_requantize_float(int32_t acc, float scale) {
  return ref_round_half_even_float((float)acc * scale);
}

/* ONNX's dequantization, scale * q in float32, rounded on its own: the
 * clamp (to the largest float, which no quantized value reaches) keeps the
 * product out of a fused multiply-add with the sum it goes into. */
static inline float ref_dequantize_float(int32_t q, float scale) {
  const float v = (float)q * scale;
  return v > 3.40282347e38f ? 3.40282347e38f : v;
}

/* ref_multiply_by_quantized_multiplier's result for every input, written
 * without a division, a 64-bit shift by a variable or an early return, so
 * that compilers vectorise a loop of it (the kernels of target cpu
 * requantize whole tiles of accumulators with it): the division of SRDHM
 * truncates toward zero by adding 2^31 - 1 to a negative dividend before the
 * arithmetic shift, the divide's mask is built in uint32, and the saturating
 * case is a select. */
static inline int32_t
ref_multiply_by_quantized_multiplier_branchless(int32_t x, int32_t multiplier,
                                                int32_t left_shift) {
  const int32_t left = left_shift > 0 ? left_shift : 0;
  const int32_t right = left_shift > 0 ? 0 : -left_shift;
  const int32_t xs = ref_shl_i32(x, left);
  const int64_t ab = (int64_t)xs * (int64_t)multiplier;
  const int64_t t =
      ab + (ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30)));
  const int32_t high =
      (int32_t)((t + (t < 0 ? (((int64_t)1 << 31) - 1) : 0)) >> 31);
  const int32_t h =
      xs == INT32_MIN && multiplier == INT32_MIN ? INT32_MAX : high;
  const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
  const int32_t threshold = (mask >> 1) + (h < 0 ? 1 : 0);
  return (h >> right) + ((h & mask) > threshold ? 1 : 0);
}

/* a + b modulo 2^32: an int32 accumulator's sum as TensorFlow Lite's
 * compiled kernels compute it when it leaves int32 (a bias near the type's
 * limit), without the undefined behaviour of a signed overflow, which an
 * optimising compiler may turn into another result. */
static inline int32_t ref_add_wrap_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* x * multiplier * 2^left_shift for a 64-bit accumulator (the 16x8
 * convolutions): one rounding, with the multiplier first reduced to 16 bits
 * (rounded; 0x7FFF once it would reach 2^15), as TensorFlow Lite's int64
 * MultiplyByQuantizedMultiplier does. Contract: -31 <= left_shift <= 7,
 * multiplier >= 0 and |x| < 2^47; the result is truncated to int32. */
static inline int32_t ref_multiply_by_quantized_multiplier_i64(
    int64_t x, int32_t multiplier, int32_t left_shift) {
  const int64_t reduced =
      multiplier < 0x7FFF0000 ? ((int64_t)multiplier + (1 << 15)) >> 16
                              : 0x7FFF;
  const int32_t total_shift = 15 - left_shift;
  const int64_t r = x * reduced + ((int64_t)1 << (total_shift - 1));
  return (int32_t)(r >> total_shift);
}

/* --- int16 helpers (HARD_SWISH) ------------------------------------------ */

/* SRDHM on int16 operands: (a*b)/2^15 rounded to nearest, ties toward
 * +infinity; INT16_MIN * INT16_MIN saturates to INT16_MAX. */
static inline int16_t ref_srdhm_i16(int16_t a, int16_t b) {
  int32_t ab;
  int32_t nudge;
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  ab = (int32_t)a * (int32_t)b;
  nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));
}

/* SaturatingDoublingHighMul on int16 operands: (a*b)/2^15 truncated toward
 * zero (no rounding nudge); INT16_MIN * INT16_MIN saturates to INT16_MAX. */
static inline int16_t ref_sdhm_i16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

/* value * 2^amount saturated to int16, for 0 <= amount <= 15. */
static inline int16_t ref_saturating_left_shift_i16(int16_t value,
                                                    int32_t amount) {
  return ref_saturate_i16((int32_t)value * (1 << amount));
}

/* --- gemmlowp-style fixed point ------------------------------------------
 * A Q(k) value is an int32 raw r standing for r / 2^(31 - k): k integer bits,
 * 31 - k fractional bits. Q0 "one" is INT32_MAX (1.0 itself is not
 * representable); Q2 one is 2^29. Products of Qa and Qb are Q(a+b) via SRDHM;
 * sums are plain int32 sums (operands are kept small enough not to wrap). */

/* x * 2^exponent for -31 <= exponent <= 31: a saturating left shift for a
 * positive exponent, a rounding divide for a negative one. */
static inline int32_t ref_saturating_rounding_mul_by_pot(int32_t x,
                                                         int32_t exponent) {
  if (exponent > 0) {
    const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
    if (x > threshold)
      return INT32_MAX;
    if (x < -threshold)
      return INT32_MIN;
    return ref_shl_i32(x, exponent);
  }
  if (exponent < 0)
    return ref_rounding_divide_by_pot(x, -exponent);
  return x;
}

/* (a + b) / 2 rounded half away from zero, without overflow. */
static inline int32_t ref_rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  const int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

/* exp(a) for a Q0 value a in [-1/4, 0): a fourth-order Taylor expansion
 * around -1/8. Result Q0. */
static inline int32_t ref_exp_on_interval_neg_quarter_to_0(int32_t a) {
  const int32_t exp_neg_one_eighth = 1895147668; /* exp(-1/8), Q0 */
  const int32_t one_third = 715827883;           /* 1/3, Q0 */
  const int32_t x = a + (1 << 28);               /* a + 1/8 */
  const int32_t x2 = ref_srdhm_i32(x, x);
  const int32_t x3 = ref_srdhm_i32(x2, x);
  const int32_t x4 = ref_srdhm_i32(x2, x2);
  const int32_t x4_over_4 = ref_rounding_divide_by_pot(x4, 2);
  const int32_t poly = ref_rounding_divide_by_pot(
      ref_srdhm_i32(x4_over_4 + x3, one_third) + x2, 1);
  return exp_neg_one_eighth + ref_srdhm_i32(exp_neg_one_eighth, x + poly);
}

/* exp(a) for a Q(integer_bits) value a <= 0, 1 <= integer_bits <= 5 (the
 * kernels use 4 and 5). Result Q0; exp(0) is INT32_MAX. The input splits into
 * a part in [-1/4, 0) evaluated by the polynomial and a multiple of 1/4 whose
 * bits select products with exp(-2^k) constants (a barrel shifter). */
static inline int32_t ref_exp_on_negative_values(int32_t a,
                                                 int32_t integer_bits) {
  /* exp(-2^k) in Q0 for k = -2 .. 4. */
  static const int32_t exp_neg_pot[7] = {
      1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int32_t fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_quarter =
      (a & (one_quarter - 1)) - one_quarter;
  const int32_t remainder = a_mod_quarter_minus_quarter - a;
  int32_t result =
      ref_exp_on_interval_neg_quarter_to_0(ref_saturating_rounding_mul_by_pot(
          a_mod_quarter_minus_quarter, integer_bits));
  int32_t k;
  for (k = -2; k <= 4; ++k) {
    if (integer_bits > k) {
      const int32_t bit = fractional_bits + k;
      if (remainder & ((int32_t)1 << bit))
        result = ref_srdhm_i32(result, exp_neg_pot[k + 2]);
    }
  }
  /* (gemmlowp clamps inputs below -32 to 0 only for more than 5 integer
   * bits, which the contract excludes.) */
  if (a == 0)
    result = INT32_MAX;
  return result;
}

/* Three Newton-Raphson steps on half the denominator, shared by the two
 * divisions below: returns the Q2 approximation of 1 / (1 + a). */
static inline int32_t ref_newton_reciprocal_q2(int32_t half_denominator) {
  const int32_t c48_over_17 = 1515870810;      /* 48/17, Q2 */
  const int32_t neg_c32_over_17 = -1010580540; /* -32/17, Q2 */
  const int32_t one_q2 = (int32_t)1 << 29;
  int32_t x = c48_over_17 + ref_srdhm_i32(half_denominator, neg_c32_over_17);
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = ref_srdhm_i32(half_denominator, x);
    const int32_t one_minus = one_q2 - half_denominator_times_x;
    x = x + ref_saturating_rounding_mul_by_pot(ref_srdhm_i32(x, one_minus), 2);
  }
  return x;
}

/* 1 / (1 + a) for a Q0 value a in [0, 1]. Result Q0. */
static inline int32_t ref_one_over_one_plus_x(int32_t a) {
  const int32_t x =
      ref_newton_reciprocal_q2(ref_rounding_half_sum(a, INT32_MAX));
  return ref_saturating_rounding_mul_by_pot(x, 1);
}

/* (1 - a) / (1 + a) for a Q0 value a in [0, 1]. Result Q0. */
static inline int32_t ref_one_minus_x_over_one_plus_x(int32_t a) {
  const int32_t x =
      ref_newton_reciprocal_q2(ref_rounding_half_sum(a, INT32_MAX));
  return ref_saturating_rounding_mul_by_pot(x - ((int32_t)1 << 29), 2);
}

/* The logistic function of a Q4 value; result Q0 in [0, 1). */
static inline int32_t ref_logistic_q4(int32_t a) {
  int32_t positive;
  if (a == 0)
    return (int32_t)1 << 30; /* 1/2 */
  positive =
      ref_one_over_one_plus_x(ref_exp_on_negative_values(a > 0 ? -a : a, 4));
  return a > 0 ? positive : INT32_MAX - positive;
}

/* tanh of a Q4 value; result Q0 in (-1, 1). The exponential runs on 2|a|,
 * the same raw value read as Q5. */
static inline int32_t ref_tanh_q4(int32_t a) {
  int32_t t;
  if (a == 0)
    return 0;
  t = ref_one_minus_x_over_one_plus_x(
      ref_exp_on_negative_values(a < 0 ? a : -a, 5));
  return a < 0 ? -t : t;
}

/* The number of leading zero bits of x (32 for 0). */
static inline int32_t ref_count_leading_zeros_u32(uint32_t x) {
  int32_t n = 0;
  if (x == 0)
    return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    ++n;
  }
  return n;
}

/* 1 / sqrt(x) of an integer x >= 0 as a quantized multiplier and a left
 * shift (TensorFlow Lite's GetInvSqrtQuantizedMultiplierExp with a reverse
 * shift of -1): x is normalised to [2^27, 2^29) by pairs of bits, five
 * Newton-Raphson steps of y = y * (3/2 - x/2 * y^2) run in Q3 from y = 1,
 * and the result is scaled by sqrt(2)/2. Inputs 0 and 1 give (INT32_MAX,
 * 0). */
static inline void ref_inv_sqrt_multiplier(int32_t x, int32_t *multiplier,
                                           int32_t *left_shift) {
  const int32_t one_q3 = (int32_t)1 << 28;
  const int32_t three_halves_q3 = ((int32_t)1 << 28) + ((int32_t)1 << 27);
  int32_t shift = 11, pairs, half, y, i;
  if (x <= 1) {
    *multiplier = INT32_MAX;
    *left_shift = 0;
    return;
  }
  while (x >= ((int32_t)1 << 29)) {
    x /= 4;
    ++shift;
  }
  pairs = (ref_count_leading_zeros_u32((uint32_t)x) - 1) / 2 - 1;
  shift -= pairs;
  x <<= 2 * pairs;
  /* x / 2 in Q3 (the raw value halved), then halved again, rounding. */
  half = ref_rounding_divide_by_pot(x >> 1, 1);
  y = one_q3;
  for (i = 0; i < 5; ++i) {
    /* y^3: Q3 * Q3 * Q3 is Q9, back to Q3; the step's products are Q6. */
    const int32_t y3 = ref_saturating_rounding_mul_by_pot(
        ref_srdhm_i32(ref_srdhm_i32(y, y), y), 6);
    y = ref_saturating_rounding_mul_by_pot(
        ref_srdhm_i32(three_halves_q3, y) - ref_srdhm_i32(half, y3), 3);
  }
  y = ref_srdhm_i32(y, 1518500250); /* sqrt(2)/2 in Q0 */
  if (shift < 0) {
    y = ref_shl_i32(y, -shift);
    shift = 0;
  }
  *multiplier = y;
  *left_shift = -shift;
}

/* log(x) for a Q(input_integer_bits) value x >= 1 (TensorFlow Lite's
 * log_x_for_x_greater_than_or_equal_to_1, output_integer_bits + 1 bits of
 * accumulator headroom). x = 2^z * r with r normalised twice (once by its
 * headroom, once after a sqrt(1/2) premultiply), the smaller r and its
 * larger exponent kept; log(r) comes from a rational approximation in
 * q = 2 (r - 2^(-1/4)), and log(x) = z log(2) + log(r). Result
 * Q(output_integer_bits). */
static inline int32_t ref_log_x_ge_1(int32_t x, int32_t input_integer_bits,
                                     int32_t output_integer_bits) {
  const int32_t accum_bits = output_integer_bits + 1;
  const int32_t log_2 = 1488522236;          /* log(2), Q0 */
  const int32_t sqrt_sqrt_half = 1805811301; /* 2^(-1/4) */
  const int32_t sqrt_half = 1518500250;      /* 2^(-1/2) */
  const int32_t alpha_n = 117049297;   /* 11/240 * 2^(1/4) */
  const int32_t alpha_d = 127690142;   /* 1/20 * 2^(1/4) */
  const int32_t alpha_i = 1057819769;  /* 2 / 2^(1/4) - 2^(1/4) */
  const int32_t alpha_f = 638450708;   /* 1/4 * 2^(1/4) */
  const int32_t shifted_quarter =
      ref_rounding_divide_by_pot((int32_t)1 << 29, accum_bits);
  const int32_t a_headroom_plus_1 = ref_count_leading_zeros_u32((uint32_t)x);
  const int32_t r_a_tmp =
      ref_saturating_rounding_mul_by_pot(x, a_headroom_plus_1 - 1);
  const int32_t r_a =
      ref_saturating_rounding_mul_by_pot(ref_srdhm_i32(r_a_tmp, sqrt_half), 1);
  const int64_t a_adj =
      (int64_t)ref_saturating_rounding_mul_by_pot(
          input_integer_bits - a_headroom_plus_1, 31 - accum_bits) +
      shifted_quarter;
  const int32_t z_b = ref_srdhm_i32(x, sqrt_half);
  const int32_t b_headroom = ref_count_leading_zeros_u32((uint32_t)z_b) - 1;
  const int32_t r_b = ref_saturating_rounding_mul_by_pot(x, b_headroom);
  const int64_t b_adj =
      (int64_t)ref_saturating_rounding_mul_by_pot(
          input_integer_bits - b_headroom, 31 - accum_bits) -
      shifted_quarter;
  const int32_t z_a_adj = (int32_t)(a_adj > INT32_MAX   ? INT32_MAX
                                    : a_adj < INT32_MIN ? INT32_MIN
                                                        : a_adj);
  const int32_t z_b_adj = (int32_t)(b_adj > INT32_MAX   ? INT32_MAX
                                    : b_adj < INT32_MIN ? INT32_MIN
                                                        : b_adj);
  const int32_t r = r_a < r_b ? r_a : r_b;
  const int32_t z_adj = z_a_adj > z_b_adj ? z_a_adj : z_b_adj;
  const int32_t p = ref_rounding_half_sum(r, sqrt_sqrt_half);
  const int32_t q = (int32_t)(2u * (uint32_t)(r - sqrt_sqrt_half));
  const int32_t common_sq = ref_srdhm_i32(q, q);
  const int32_t num =
      ref_add_wrap_i32(ref_srdhm_i32(q, r),
                       ref_srdhm_i32(ref_srdhm_i32(q, common_sq), alpha_n));
  const int32_t denom_minus_one = ref_add_wrap_i32(
      ref_srdhm_i32(p, ref_add_wrap_i32(ref_add_wrap_i32(alpha_i, q),
                                        ref_srdhm_i32(alpha_d, common_sq))),
      ref_srdhm_i32(alpha_f, q));
  const int32_t recip_denom = ref_one_over_one_plus_x(denom_minus_one);
  const int32_t num_scaled = ref_rounding_divide_by_pot(num, accum_bits);
  return ref_saturating_rounding_mul_by_pot(
      ref_add_wrap_i32(ref_srdhm_i32(z_adj, log_2),
                       ref_srdhm_i32(num_scaled, recip_denom)),
      accum_bits - output_integer_bits);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_FIXEDPOINT_H */
