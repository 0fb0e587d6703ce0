/*===- ref_quantize.c - QUANTIZE, DEQUANTIZE and requantize kernels -------===*/
#include "ref_quantize.h"

#include <math.h>

/* round(x / scale) + zero_point, clamped to [lo, hi]. roundf rounds half away
 * from zero, like TensorFlow Lite's TfLiteRound. Values beyond the int32
 * range saturate instead of overflowing the conversion (undefined in C). */
static int32_t quantize_one(const ref_quantize_params *p, float x, int32_t lo,
                            int32_t hi) {
  const float r = roundf(x / p->scale);
  int64_t v;
  if (r != r)
    v = 0; /* NaN: TensorFlow Lite's conversion is undefined; use zero */
  else if (r < -2147483648.0f)
    v = INT32_MIN;
  else if (r >= 2147483648.0f)
    v = INT32_MAX;
  else
    v = (int32_t)r;
  v += p->zero_point;
  return v < lo ? lo : (v > hi ? hi : (int32_t)v);
}

void ref_quantize_f32_i8(const ref_quantize_params *params, int32_t count,
                         const float *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (int8_t)quantize_one(params, input[i], INT8_MIN, INT8_MAX);
}

void ref_quantize_f32_u8(const ref_quantize_params *params, int32_t count,
                         const float *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (uint8_t)quantize_one(params, input[i], 0, UINT8_MAX);
}

void ref_dequantize_i8_f32(const ref_dequantize_params *params, int32_t count,
                           const int8_t *input, float *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (float)(params->scale * (input[i] - params->zero_point));
}

void ref_dequantize_u8_f32(const ref_dequantize_params *params, int32_t count,
                           const uint8_t *input, float *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (float)(params->scale * (input[i] - params->zero_point));
}

static int32_t requantize_one(const ref_requantize_params *p, int32_t q) {
  return ref_multiply_by_quantized_multiplier(q - p->input_zero_point,
                                              p->multiplier, p->left_shift) +
         p->output_zero_point;
}

void ref_requantize_i8_i8(const ref_requantize_params *params, int32_t count,
                          const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_i8(requantize_one(params, input[i]));
}

void ref_requantize_i8_u8(const ref_requantize_params *params, int32_t count,
                          const int8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_u8(requantize_one(params, input[i]));
}

void ref_requantize_u8_i8(const ref_requantize_params *params, int32_t count,
                          const uint8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_i8(requantize_one(params, input[i]));
}

void ref_requantize_u8_u8(const ref_requantize_params *params, int32_t count,
                          const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_u8(requantize_one(params, input[i]));
}
