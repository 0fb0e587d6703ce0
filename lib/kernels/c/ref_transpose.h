/*===- ref_transpose.h - TRANSPOSE reference kernel -----------------------===*
 *
 * Permutes the dimensions of a tensor: output dimension d is input dimension
 * perm[d]. Any element size; at most REF_MAX_RANK dimensions.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_TRANSPOSE_H
#define ACCELGEN_REF_TRANSPOSE_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TRANSPOSE: ref_transpose_params (ref_params.h) holds perm, as many entries
 * as the input has dimensions. */
/* `element_size` bytes per element (1 for int8 / uint8, 4 for float32). */
void ref_transpose(const ref_transpose_params *params, size_t element_size,
                   const ref_shape *input_shape, const void *input,
                   const ref_shape *output_shape, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_TRANSPOSE_H */
