/*===- ref_fill.h - FILL and ZEROS_LIKE reference kernel ------------------===*
 *
 * Writes `count` elements of `element_size` bytes: each a copy of the one
 * element at `value` (FILL), or all bits zero (ZEROS_LIKE, whose integer
 * zeros are raw 0 whatever the quantization, as TensorFlow Lite Micro's).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_FILL_H
#define ACCELGEN_REF_FILL_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

void ref_fill(const ref_fill_params *params, size_t element_size,
              int32_t count, const void *value, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_FILL_H */
