/*===- ref_pad.h - PAD and PADV2 reference kernels ------------------------===*
 *
 * Pads each dimension with `before[d]` and `after[d]` elements of one value:
 * the output zero point for quantized PAD (so padding reads as real 0), the
 * given constant for PADV2, 0.0 for float. Shapes have at most REF_MAX_RANK
 * dimensions; output dims[d] = input dims[d] + before[d] + after[d].
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_PAD_H
#define ACCELGEN_REF_PAD_H

#include "ref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of one PAD; `before` and `after` have the input's rank. */
typedef struct ref_pad_params {
  int32_t before[REF_MAX_RANK];
  int32_t after[REF_MAX_RANK];
  /* The padding value: quantized (int8 / uint8) or float. */
  int32_t pad_value;
  float pad_value_f;
} ref_pad_params;

void ref_pad_i8(const ref_pad_params *params, const ref_shape *input_shape,
                const int8_t *input, const ref_shape *output_shape,
                int8_t *output);
void ref_pad_u8(const ref_pad_params *params, const ref_shape *input_shape,
                const uint8_t *input, const ref_shape *output_shape,
                uint8_t *output);
void ref_pad_f32(const ref_pad_params *params, const ref_shape *input_shape,
                 const float *input, const ref_shape *output_shape,
                 float *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_PAD_H */
