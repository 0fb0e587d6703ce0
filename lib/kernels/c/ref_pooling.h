/*===- ref_pooling.h - AVERAGE_POOL_2D and MAX_POOL_2D reference kernels --===*
 *
 * NHWC input [N, H, W, C], output [N, Ho, Wo, C]. Window taps outside the
 * input are left out: an average divides by the number of taps inside.
 * Quantized pooling keeps the input's scale and zero point (TensorFlow Lite
 * requires equal input and output quantization).
 *
 * Quantized average, as TensorFlow Lite's reference kernels: the int32 sum
 * of the n taps divided by n rounding half away from zero,
 * (sum + n/2) / n for sum > 0, (sum - n/2) / n otherwise, then clamped.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_POOLING_H
#define ACCELGEN_REF_POOLING_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one pooling operator. */
typedef struct ref_pool2d_params {
  int32_t stride_h;
  int32_t stride_w;
  int32_t filter_h;
  int32_t filter_w;
  /* Padding before the first row / column. */
  int32_t pad_top;
  int32_t pad_left;
  /* Quantized clamp (fused activation intersected with the type). */
  int32_t act_min;
  int32_t act_max;
  /* float32 clamp. */
  float act_min_f;
  float act_max_f;
} ref_pool2d_params;

void ref_average_pool2d_i8(const ref_pool2d_params *params,
                           const ref_shape *input_shape, const int8_t *input,
                           const ref_shape *output_shape, int8_t *output);
void ref_average_pool2d_u8(const ref_pool2d_params *params,
                           const ref_shape *input_shape, const uint8_t *input,
                           const ref_shape *output_shape, uint8_t *output);
void ref_average_pool2d_f32(const ref_pool2d_params *params,
                            const ref_shape *input_shape, const float *input,
                            const ref_shape *output_shape, float *output);

void ref_max_pool2d_i8(const ref_pool2d_params *params,
                       const ref_shape *input_shape, const int8_t *input,
                       const ref_shape *output_shape, int8_t *output);
void ref_max_pool2d_u8(const ref_pool2d_params *params,
                       const ref_shape *input_shape, const uint8_t *input,
                       const ref_shape *output_shape, uint8_t *output);
void ref_max_pool2d_f32(const ref_pool2d_params *params,
                        const ref_shape *input_shape, const float *input,
                        const ref_shape *output_shape, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_POOLING_H */
