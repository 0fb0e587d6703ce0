/*===- ref_fully_connected.h - FULLY_CONNECTED reference kernels ----------===*
 *
 * out[b][o] = sum_d filter[o][d] * in[b][d] + bias[o], for an input of any
 * shape read as [batches, depth] (depth = the filter's second dimension),
 * filter [units, depth], int32 bias [units] (optional), output [batches,
 * units].
 *
 * Quantized arithmetic, as TensorFlow Lite's reference kernels:
 *   acc = sum (filter + filter_offset) * (input + input_offset) + bias (int32)
 *   out = clamp(MultiplyByQuantizedMultiplier(acc, m, left_shift)
 *               + output_offset, act_min, act_max)
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_FULLY_CONNECTED_H
#define ACCELGEN_REF_FULLY_CONNECTED_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one FULLY_CONNECTED. */
typedef struct ref_fully_connected_params {
  /* Quantized: -input_zero_point, -filter_zero_point, +output_zero_point. */
  int32_t input_offset;
  int32_t filter_offset;
  int32_t output_offset;
  /* Per-tensor requantization. */
  int32_t output_multiplier;
  int32_t output_left_shift;
  /* Per-channel requantization (int8 per-channel): `units` entries each. */
  const int32_t *per_channel_multiplier;
  const int32_t *per_channel_left_shift;
  /* Quantized clamp. */
  int32_t act_min;
  int32_t act_max;
  /* float32 clamp. */
  float act_min_f;
  float act_max_f;
} ref_fully_connected_params;

/* int8, one multiplier for the whole filter. */
void ref_fully_connected_i8(const ref_fully_connected_params *params,
                            const ref_shape *input_shape, const int8_t *input,
                            const ref_shape *filter_shape, const int8_t *filter,
                            const int32_t *bias, const ref_shape *output_shape,
                            int8_t *output);

/* int8, one multiplier per output unit. */
void ref_fully_connected_i8_per_channel(
    const ref_fully_connected_params *params, const ref_shape *input_shape,
    const int8_t *input, const ref_shape *filter_shape, const int8_t *filter,
    const int32_t *bias, const ref_shape *output_shape, int8_t *output);

/* uint8 (asymmetric, with a filter zero point). */
void ref_fully_connected_u8(const ref_fully_connected_params *params,
                            const ref_shape *input_shape, const uint8_t *input,
                            const ref_shape *filter_shape,
                            const uint8_t *filter, const int32_t *bias,
                            const ref_shape *output_shape, uint8_t *output);

/* float32; bias is float too. */
void ref_fully_connected_f32(const ref_fully_connected_params *params,
                             const ref_shape *input_shape, const float *input,
                             const ref_shape *filter_shape, const float *filter,
                             const float *bias, const ref_shape *output_shape,
                             float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_FULLY_CONNECTED_H */
