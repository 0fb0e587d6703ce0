/*===- ref_reduce.h - MEAN reference kernels ------------------------------===*
 *
 * The mean over a set of axes (a bit mask over the input's dimensions). The
 * output holds the kept dimensions in order; whether the reduced ones stay as
 * 1s (keep_dims) does not change the layout.
 *
 * Quantized, as TensorFlow Lite Micro's MEAN:
 *  - equal input and output quantization: the int32 sum of the raw values
 *    divided by the count, truncating toward zero (C division);
 *  - otherwise: out = clamp(MBQM(sum - count * input_zero_point, m, s)
 *    + output_zero_point), where m, s fold input_scale / output_scale and
 *    1 / count together (KernelParams computes them for the count).
 * The int32 sum holds up to 2^23 8-bit values.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_REDUCE_H
#define ACCELGEN_REF_REDUCE_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one MEAN. */
typedef struct ref_mean_params {
  /* Bit d set: dimension d of the input is reduced. */
  uint32_t axis_mask;
  /* Non-zero: equal input and output quantization (integer division). */
  int32_t same_quantization;
  int32_t input_zero_point;
  int32_t output_zero_point;
  /* (input_scale / output_scale) / count, otherwise. */
  int32_t multiplier;
  int32_t left_shift;
} ref_mean_params;

void ref_mean_i8(const ref_mean_params *params, const ref_shape *input_shape,
                 const int8_t *input, int8_t *output);
void ref_mean_u8(const ref_mean_params *params, const ref_shape *input_shape,
                 const uint8_t *input, uint8_t *output);
/* float32: the sum in input order, divided by the count. */
void ref_mean_f32(const ref_mean_params *params, const ref_shape *input_shape,
                  const float *input, float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_REDUCE_H */
