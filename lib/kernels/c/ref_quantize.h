/*===- ref_quantize.h - QUANTIZE, DEQUANTIZE and requantize kernels -------===*
 *
 * Conversions between float32 and 8-bit quantized values, and between two
 * 8-bit quantizations, elementwise over `count` elements:
 *
 *   quantize:   q = clamp(round(x / scale) + zero_point)     (float division,
 *               round half away from zero, like TensorFlow Lite's
 *               AffineQuantize)
 *   dequantize: x = (float)(scale * (q - zero_point))        (in double)
 *   requantize: q' = clamp(MBQM(q - input_zero_point, m, left_shift)
 *                          + output_zero_point)
 *
 * The requantize kernels serve QUANTIZE between integer types (int8 <-> uint8
 * and rescaling within a type) and the requantize operators a target inserts.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_QUANTIZE_H
#define ACCELGEN_REF_QUANTIZE_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float32 -> 8-bit. */
typedef struct ref_quantize_params {
  float scale;
  int32_t zero_point;
} ref_quantize_params;

void ref_quantize_f32_i8(const ref_quantize_params *params, int32_t count,
                         const float *input, int8_t *output);
void ref_quantize_f32_u8(const ref_quantize_params *params, int32_t count,
                         const float *input, uint8_t *output);

/* 8-bit -> float32. The scale is the tensor's float scale widened to
 * double, as TensorFlow Lite computes the product in double. */
typedef struct ref_dequantize_params {
  double scale;
  int32_t zero_point;
} ref_dequantize_params;

void ref_dequantize_i8_f32(const ref_dequantize_params *params, int32_t count,
                           const int8_t *input, float *output);
void ref_dequantize_u8_f32(const ref_dequantize_params *params, int32_t count,
                           const uint8_t *input, float *output);

/* 8-bit -> 8-bit: multiplier = input_scale / output_scale. */
typedef struct ref_requantize_params {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int32_t left_shift;
} ref_requantize_params;

void ref_requantize_i8_i8(const ref_requantize_params *params, int32_t count,
                          const int8_t *input, int8_t *output);
void ref_requantize_i8_u8(const ref_requantize_params *params, int32_t count,
                          const int8_t *input, uint8_t *output);
void ref_requantize_u8_i8(const ref_requantize_params *params, int32_t count,
                          const uint8_t *input, int8_t *output);
void ref_requantize_u8_u8(const ref_requantize_params *params, int32_t count,
                          const uint8_t *input, uint8_t *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_QUANTIZE_H */
