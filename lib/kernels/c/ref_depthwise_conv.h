/*===- ref_depthwise_conv.h - DEPTHWISE_CONV_2D reference kernels ---------===*
 *
 * Depthwise 2-D convolution, NHWC input [N, H, W, Cin], filter
 * [1, Kh, Kw, Cin * depth_multiplier], int32 bias [Cout] (optional), NHWC
 * output [N, Ho, Wo, Cout] with Cout = Cin * depth_multiplier. Output channel
 * c reads input channel c / depth_multiplier only.
 *
 * Quantized arithmetic, as TensorFlow Lite's reference kernels:
 *   acc = sum over the window (filter + filter_offset) * (input + input_offset)
 *       + bias                                                   (int32)
 *   out = clamp(MultiplyByQuantizedMultiplier(acc, m, left_shift)
 *               + output_offset, act_min, act_max)
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_DEPTHWISE_CONV_H
#define ACCELGEN_REF_DEPTHWISE_CONV_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one DEPTHWISE_CONV_2D. */
typedef struct ref_depthwise_conv2d_params {
  int32_t stride_h;
  int32_t stride_w;
  int32_t dilation_h;
  int32_t dilation_w;
  /* Padding before the first row / column. */
  int32_t pad_top;
  int32_t pad_left;
  /* Output channels per input channel (any value >= 1). */
  int32_t depth_multiplier;
  /* Quantized: -input_zero_point, -filter_zero_point (0 for int8 filters),
   * +output_zero_point. */
  int32_t input_offset;
  int32_t filter_offset;
  int32_t output_offset;
  /* Per-tensor requantization (int8 per-tensor, uint8). */
  int32_t output_multiplier;
  int32_t output_left_shift;
  /* Per-channel requantization (int8 per-channel): Cout entries each. */
  const int32_t *per_channel_multiplier;
  const int32_t *per_channel_left_shift;
  /* Quantized clamp: fused activation intersected with the output type. */
  int32_t act_min;
  int32_t act_max;
  /* float32 clamp. */
  float act_min_f;
  float act_max_f;
} ref_depthwise_conv2d_params;

/* int8 activations and filter, per-output-channel multipliers. */
void ref_depthwise_conv2d_i8_per_channel(
    const ref_depthwise_conv2d_params *params, const ref_shape *input_shape,
    const int8_t *input, const ref_shape *filter_shape, const int8_t *filter,
    const int32_t *bias, const ref_shape *output_shape, int8_t *output);

/* int8 activations and filter, one multiplier for the whole tensor. */
void ref_depthwise_conv2d_i8(const ref_depthwise_conv2d_params *params,
                             const ref_shape *input_shape, const int8_t *input,
                             const ref_shape *filter_shape,
                             const int8_t *filter, const int32_t *bias,
                             const ref_shape *output_shape, int8_t *output);

/* uint8 activations and filter (asymmetric, with a filter zero point). */
void ref_depthwise_conv2d_u8(const ref_depthwise_conv2d_params *params,
                             const ref_shape *input_shape, const uint8_t *input,
                             const ref_shape *filter_shape,
                             const uint8_t *filter, const int32_t *bias,
                             const ref_shape *output_shape, uint8_t *output);

/* float32; bias is float too. Sums rows, then columns, then adds the bias. */
void ref_depthwise_conv2d_f32(const ref_depthwise_conv2d_params *params,
                              const ref_shape *input_shape, const float *input,
                              const ref_shape *filter_shape,
                              const float *filter, const float *bias,
                              const ref_shape *output_shape, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_DEPTHWISE_CONV_H */
