/*===- ref_softmax.h - SOFTMAX reference kernels --------------------------===*
 *
 * Softmax over the last dimension; every other dimension is a batch of rows.
 *
 * The 8-bit kernels follow TensorFlow Lite's reference fixed-point path
 * exactly, per row:
 *   1. d = x - max(row)  (<= 0). Entries with d < diff_min contribute nothing
 *      and output the type's minimum.
 *   2. d is scaled by input_multiplier * 2^input_left_shift (beta * scale
 *      folded in) into a Q5.26 value (5 integer bits);
 *   3. exp(d) is evaluated in Q0.31 by ref_exp_on_negative_values;
 *   4. the exps are summed in Q12.19 (12 integer bits: up to 4096 terms of at
 *      most 1.0 without overflow), each one rounded to 12 fewer fraction bits;
 *   5. 1 / sum is a Newton-Raphson reciprocal of the sum normalised into
 *      [1, 2), with the normalisation carried as `num_bits_over_unit`;
 *   6. out = exp * (1/sum), rounded to 8 bits (scale 1/256), plus the
 *      output's zero point (-128 for int8, 0 for uint8), saturated.
 * The output quantization is fixed: scale 1/256, zero point -128 (int8) or 0
 * (uint8).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_SOFTMAX_H
#define ACCELGEN_REF_SOFTMAX_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one SOFTMAX. */
typedef struct ref_softmax_params {
  /* beta * input_scale * 2^(31 - 5) as a quantized multiplier with a
   * non-negative left shift. */
  int32_t input_multiplier;
  int32_t input_left_shift;
  /* The most negative input difference that still contributes (<= 0). */
  int32_t diff_min;
  /* float32 only. */
  float beta;
} ref_softmax_params;

void ref_softmax_i8(const ref_softmax_params *params, const ref_shape *shape,
                    const int8_t *input, int8_t *output);
void ref_softmax_u8(const ref_softmax_params *params, const ref_shape *shape,
                    const uint8_t *input, uint8_t *output);
/* exp((x - max) * beta) / sum, in float, as TensorFlow Lite's reference. */
void ref_softmax_f32(const ref_softmax_params *params, const ref_shape *shape,
                     const float *input, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_SOFTMAX_H */
