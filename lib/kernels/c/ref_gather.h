/*===- ref_gather.h - GATHER reference kernel -----------------------------===*
 *
 * Gathers slices of the input along one axis by int32 indices: with the
 * input read as [batch, outer, axis, inner] and the indices as
 * [batch, count], output [batch, outer, count, inner] element
 * (b, o, k, i) is input element (b, o, indices[b][k], i). An index outside
 * [0, axis) writes zeros (TensorFlow Lite leaves it undefined). Any element
 * size.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_GATHER_H
#define ACCELGEN_REF_GATHER_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

void ref_gather(const ref_gather_params *params, size_t element_size,
                const void *input, const void *indices, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_GATHER_H */
