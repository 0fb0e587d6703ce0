/*===- ref_softmax.c - SOFTMAX reference kernels --------------------------===*
 *
 * The int8 and uint8 kernels share one row loop (a macro over the element
 * type); all arithmetic is on int32 differences. Each row reads its input
 * three times (max, sum, output) and evaluates exp twice rather than keeping
 * a scratch row: no allocation, and the rows are short.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_softmax.h"

#include <math.h>

/* Integer bits of the scaled difference (Q5.26) and of the sum (Q12.19). */
#define SCALED_DIFF_INTEGER_BITS 5
#define ACCUMULATION_INTEGER_BITS 12

/* The Q5.26 scaled difference of d = x - max <= 0. */
static int32_t scaled_diff(const ref_softmax_params *p, int32_t d) {
  /* MultiplyByQuantizedMultiplierGreaterThanOne: left_shift >= 0. */
  return ref_multiply_by_quantized_multiplier(d, p->input_multiplier,
                                              p->input_left_shift);
}

/* The per-row reciprocal: a Q0 value r and the exponent `num_bits_over_unit`
 * with 1/sum = r * 2^-num_bits_over_unit (sum in Q12.19). */
static int32_t reciprocal_of_sum(int32_t sum, int32_t *num_bits_over_unit) {
  const int32_t headroom_plus_one = ref_count_leading_zeros_u32((uint32_t)sum);
  /* sum * 2^headroom_plus_one lies in [2^31, 2^32): 1 + x with x in [0, 1)
   * as Q0.31 after subtracting 2^31. */
  const int32_t shifted_sum_minus_one =
      (int32_t)(((uint32_t)sum << headroom_plus_one) - ((uint32_t)1 << 31));
  *num_bits_over_unit = ACCUMULATION_INTEGER_BITS - headroom_plus_one;
  return ref_one_over_one_plus_x(shifted_sum_minus_one);
}

/* exp * (1/sum) in 8 fractional bits: the Q0 product divided by
 * 2^(num_bits_over_unit + 23), rounding. The exponent passes 31 only when the
 * row sums to 512 or more (over 512 entries within rounding of the maximum);
 * every quotient is then below one half and rounds to 0. (TensorFlow Lite
 * shifts an int32 by 32 or more there, which C leaves undefined.) */
static int32_t scaled_probability(int32_t recip, int32_t e,
                                  int32_t num_bits_over_unit) {
  const int32_t exponent = num_bits_over_unit + 31 - 8;
  const int32_t product = ref_srdhm_i32(recip, e);
  return exponent > 31 ? 0 : ref_rounding_divide_by_pot(product, exponent);
}

/* Generates the int8 and uint8 row loops: T is the element type, OUT_MIN /
 * OUT_MAX its range (OUT_MIN is also the output zero point). */
#define REF_SOFTMAX_8BIT(T, OUT_MIN, OUT_MAX)                                  \
  do {                                                                         \
    const int32_t depth = shape->rank > 0 ? shape->dims[shape->rank - 1] : 1;  \
    const int32_t rows = depth > 0 ? ref_shape_size(shape) / depth : 0;        \
    int32_t r, c;                                                              \
    for (r = 0; r < rows; ++r) {                                               \
      const T *in = input + (size_t)r * depth;                                 \
      T *out = output + (size_t)r * depth;                                     \
      int32_t max_in_row = OUT_MIN;                                            \
      int32_t sum_of_exps = 0; /* Q12.19 */                                    \
      int32_t recip, num_bits_over_unit;                                       \
      for (c = 0; c < depth; ++c)                                              \
        if (in[c] > max_in_row)                                                \
          max_in_row = in[c];                                                  \
      for (c = 0; c < depth; ++c) {                                            \
        const int32_t d = (int32_t)in[c] - max_in_row;                         \
        if (d >= params->diff_min)                                             \
          sum_of_exps += ref_rounding_divide_by_pot(                           \
              ref_exp_on_negative_values(scaled_diff(params, d),               \
                                         SCALED_DIFF_INTEGER_BITS),            \
              ACCUMULATION_INTEGER_BITS);                                      \
      }                                                                        \
      recip = reciprocal_of_sum(sum_of_exps, &num_bits_over_unit);             \
      for (c = 0; c < depth; ++c) {                                            \
        const int32_t d = (int32_t)in[c] - max_in_row;                         \
        if (d >= params->diff_min) {                                           \
          const int32_t e = ref_exp_on_negative_values(                        \
              scaled_diff(params, d), SCALED_DIFF_INTEGER_BITS);               \
          /* Q0 product, then down to 8 fractional bits. */                    \
          const int32_t unsat =                                                \
              scaled_probability(recip, e, num_bits_over_unit);                \
          out[c] = (T)ref_clamp_i32(unsat + (OUT_MIN), OUT_MIN, OUT_MAX);      \
        } else {                                                               \
          out[c] = (T)(OUT_MIN);                                               \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  } while (0)

void ref_softmax_i8(const ref_softmax_params *params, const ref_shape *shape,
                    const int8_t *input, int8_t *output) {
  REF_SOFTMAX_8BIT(int8_t, INT8_MIN, INT8_MAX);
}

void ref_softmax_u8(const ref_softmax_params *params, const ref_shape *shape,
                    const uint8_t *input, uint8_t *output) {
  REF_SOFTMAX_8BIT(uint8_t, 0, UINT8_MAX);
}

void ref_softmax_f32(const ref_softmax_params *params, const ref_shape *shape,
                     const float *input, float *output) {
  const int32_t depth = shape->rank > 0 ? shape->dims[shape->rank - 1] : 1;
  const int32_t rows = depth > 0 ? ref_shape_size(shape) / depth : 0;
  int32_t r, c;
  for (r = 0; r < rows; ++r) {
    const float *in = input + (size_t)r * depth;
    float *out = output + (size_t)r * depth;
    float max = -3.402823466e+38f;
    float sum = 0.0f;
    for (c = 0; c < depth; ++c)
      max = in[c] > max ? in[c] : max;
    for (c = 0; c < depth; ++c) {
      out[c] = expf((in[c] - max) * params->beta);
      sum += out[c];
    }
    for (c = 0; c < depth; ++c)
      out[c] = out[c] / sum;
  }
}
