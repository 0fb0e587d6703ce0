/*===- ref_activations.h - Standalone activation reference kernels --------===*
 *
 * RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, HARD_SWISH, LOGISTIC and TANH as
 * operators of their own, elementwise over `count` elements. (Activations
 * fused into another operator are its act_min / act_max clamp.)
 *
 * Quantized RELU family: requantize, then clamp to the activation's range in
 * the output's quantization:
 *   out = clamp(MBQM(x - input_zero_point, m, s) + output_zero_point,
 *               act_min, act_max)
 * With equal input and output quantization m, s is exactly 1 and this is a
 * plain clamp.
 *
 * LOGISTIC and TANH follow TensorFlow Lite's reference fixed-point path: the
 * centred input is scaled into Q4.27 by input_multiplier * 2^input_left_shift,
 * the function is evaluated in gemmlowp fixed point to Q0.31, and rounded to
 * the fixed output quantization (LOGISTIC: scale 1/256, zero point -128 int8
 * or 0 uint8; TANH: scale 1/128, zero point 0 int8 or 128 uint8). Inputs at
 * or beyond +/-input_range_radius saturate directly.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_ACTIVATIONS_H
#define ACCELGEN_REF_ACTIVATIONS_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RELU, RELU6, RELU_N1_TO_1. */
typedef struct ref_relu_params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  /* input_scale / output_scale. */
  int32_t output_multiplier;
  int32_t output_left_shift;
  /* Quantized clamp: the activation's range in the output quantization. */
  int32_t act_min;
  int32_t act_max;
  /* float32 clamp. */
  float act_min_f;
  float act_max_f;
} ref_relu_params;

void ref_relu_i8(const ref_relu_params *params, int32_t count,
                 const int8_t *input, int8_t *output);
void ref_relu_u8(const ref_relu_params *params, int32_t count,
                 const uint8_t *input, uint8_t *output);
void ref_relu_f32(const ref_relu_params *params, int32_t count,
                  const float *input, float *output);

/* LEAKY_RELU: x >= 0 ? x : alpha * x. */
typedef struct ref_leaky_relu_params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  /* input_scale / output_scale, for x >= 0. */
  int32_t identity_multiplier;
  int32_t identity_left_shift;
  /* input_scale * alpha / output_scale, for x < 0. */
  int32_t alpha_multiplier;
  int32_t alpha_left_shift;
  /* float32 only. */
  float alpha;
} ref_leaky_relu_params;

void ref_leaky_relu_i8(const ref_leaky_relu_params *params, int32_t count,
                       const int8_t *input, int8_t *output);
void ref_leaky_relu_u8(const ref_leaky_relu_params *params, int32_t count,
                       const uint8_t *input, uint8_t *output);
void ref_leaky_relu_f32(const ref_leaky_relu_params *params, int32_t count,
                        const float *input, float *output);

/* HARD_SWISH: x * relu6(x + 3) / 6, in TensorFlow Lite's int16 fixed-point
 * formulation: the input is moved to a "hi-res" scale (input_scale / 128),
 * a "reluish" factor in [0, 1] is computed on a scale where 3.0 is 2^15, and
 * the two are multiplied on the output scale. Multipliers are int16. */
typedef struct ref_hard_swish_params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  /* (input_scale / 128) / (3 / 32768): any left shift. */
  int16_t reluish_multiplier;
  int32_t reluish_left_shift;
  /* (input_scale / 128) / output_scale: left shift <= 0. */
  int16_t output_multiplier;
  int32_t output_left_shift;
} ref_hard_swish_params;

void ref_hard_swish_i8(const ref_hard_swish_params *params, int32_t count,
                       const int8_t *input, int8_t *output);
void ref_hard_swish_u8(const ref_hard_swish_params *params, int32_t count,
                       const uint8_t *input, uint8_t *output);
void ref_hard_swish_f32(const ref_hard_swish_params *params, int32_t count,
                        const float *input, float *output);

/* LOGISTIC and TANH. */
typedef struct ref_sigmoid_params {
  int32_t input_zero_point;
  /* |x - input_zero_point| at which the output saturates. */
  int32_t input_range_radius;
  /* input_scale * 2^(31 - 4): left shift >= 0. */
  int32_t input_multiplier;
  int32_t input_left_shift;
} ref_sigmoid_params;

void ref_logistic_i8(const ref_sigmoid_params *params, int32_t count,
                     const int8_t *input, int8_t *output);
void ref_logistic_u8(const ref_sigmoid_params *params, int32_t count,
                     const uint8_t *input, uint8_t *output);
void ref_logistic_f32(const ref_sigmoid_params *params, int32_t count,
                      const float *input, float *output);

void ref_tanh_i8(const ref_sigmoid_params *params, int32_t count,
                 const int8_t *input, int8_t *output);
void ref_tanh_u8(const ref_sigmoid_params *params, int32_t count,
                 const uint8_t *input, uint8_t *output);
void ref_tanh_f32(const ref_sigmoid_params *params, int32_t count,
                  const float *input, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_ACTIVATIONS_H */
