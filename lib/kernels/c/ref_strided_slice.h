/*===- ref_strided_slice.h - STRIDED_SLICE reference kernel ---------------===*
 *
 * Takes, in each dimension d, the indices start[d], start[d] + stride[d], ...
 * while they stay before stop[d] (after it, for a negative stride). The
 * begin / end / shrink masks and negative indices are resolved beforehand
 * (KernelParams), so start and stop are plain indices; a shrunk dimension is
 * one index wide. Any element size; at most REF_MAX_RANK dimensions.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_STRIDED_SLICE_H
#define ACCELGEN_REF_STRIDED_SLICE_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* STRIDED_SLICE: ref_strided_slice_params (ref_params.h) holds start, stop
 * and stride per input dimension. */
/* `element_size` bytes per element. The output holds the selected elements in
 * row-major order; its shape (after shrinking) only sizes the buffer. */
void ref_strided_slice(const ref_strided_slice_params *params,
                       size_t element_size, const ref_shape *input_shape,
                       const void *input, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_STRIDED_SLICE_H */
