/*===- ref_elementwise.h - ADD, SUB and MUL reference kernels -------------===*
 *
 * Binary elementwise operators with NumPy-style broadcasting as TensorFlow
 * Lite supports it: shapes are aligned at their last dimension, missing
 * leading dimensions count as 1, and every input dimension is 1 or equal to
 * the output's (at most REF_MAX_RANK dimensions).
 *
 * Quantized ADD / SUB (TensorFlow Lite's general 8-bit path): both inputs are
 * moved to a common scale with 20 bits of headroom, then summed, then
 * rescaled to the output:
 *   a  = MBQM((x1 + input1_offset) * 2^input_left_shift, m1, s1)   (int32)
 *   b  = MBQM((x2 + input2_offset) * 2^input_left_shift, m2, s2)
 *   out = clamp(MBQM(a +/- b, mo, so) + output_offset, act_min, act_max)
 * with s1, s2, so <= 0 and (x + offset) * 2^20 < 2^29, so nothing overflows.
 *
 * Quantized MUL:
 *   out = clamp(MBQM((x1 + input1_offset) * (x2 + input2_offset), m, s)
 *               + output_offset, act_min, act_max)
 * The product of two 9-bit values fits easily in int32.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_ELEMENTWISE_H
#define ACCELGEN_REF_ELEMENTWISE_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one ADD, SUB or MUL. */
typedef struct ref_elementwise_params {
  /* -input1_zero_point, -input2_zero_point, +output_zero_point. */
  int32_t input1_offset;
  int32_t input2_offset;
  int32_t output_offset;
  /* ADD / SUB: common-scale headroom (20 for 8-bit types) and the input
   * multipliers (left shifts <= 0). Unused by MUL. */
  int32_t input_left_shift;
  int32_t input1_multiplier;
  int32_t input1_left_shift;
  int32_t input2_multiplier;
  int32_t input2_left_shift;
  /* Output requantization. */
  int32_t output_multiplier;
  int32_t output_left_shift;
  /* Quantized clamp. */
  int32_t act_min;
  int32_t act_max;
  /* float32 clamp. */
  float act_min_f;
  float act_max_f;
} ref_elementwise_params;

void ref_add_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output);
void ref_add_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output);
void ref_add_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output);

void ref_sub_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output);
void ref_sub_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output);
void ref_sub_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output);

void ref_mul_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output);
void ref_mul_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output);
void ref_mul_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_ELEMENTWISE_H */
