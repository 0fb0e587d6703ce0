/*===- ref_concat.h - CONCATENATION reference kernels ---------------------===*
 *
 * Joins `num_inputs` tensors along `axis`; all other dimensions agree. The
 * plain kernels copy bytes (every input shares the output's quantization,
 * which TensorFlow Lite requires for int8). The uint8 kernel with scaling
 * reproduces TensorFlow Lite's ConcatenationWithScaling for inputs whose
 * quantization differs from the output's, in float:
 *   q' = clamp(round(q * s + b) + output_zero_point, 0, 255),
 *   s = input_scale * (1 / output_scale), b = -input_zero_point * s.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_CONCAT_H
#define ACCELGEN_REF_CONCAT_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one CONCATENATION. */
typedef struct ref_concat_params {
  /* The joined dimension, in [0, rank). */
  int32_t axis;
  int32_t num_inputs;
  /* uint8 with scaling only: num_inputs scales and zero points. */
  const float *input_scale;
  const int32_t *input_zero_point;
  float output_scale;
  int32_t output_zero_point;
} ref_concat_params;

/* Same quantization everywhere (or float): a copy. */
void ref_concat_i8(const ref_concat_params *params,
                   const ref_shape *const *input_shapes,
                   const int8_t *const *inputs, const ref_shape *output_shape,
                   int8_t *output);
void ref_concat_u8(const ref_concat_params *params,
                   const ref_shape *const *input_shapes,
                   const uint8_t *const *inputs, const ref_shape *output_shape,
                   uint8_t *output);
void ref_concat_f32(const ref_concat_params *params,
                    const ref_shape *const *input_shapes,
                    const float *const *inputs, const ref_shape *output_shape,
                    float *output);
/* uint8 inputs of differing quantization, rescaled to the output's. */
void ref_concat_u8_rescale(const ref_concat_params *params,
                           const ref_shape *const *input_shapes,
                           const uint8_t *const *inputs,
                           const ref_shape *output_shape, uint8_t *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_CONCAT_H */
