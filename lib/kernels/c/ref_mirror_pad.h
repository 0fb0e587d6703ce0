/*===- ref_mirror_pad.h - MIRROR_PAD reference kernel ---------------------===*
 *
 * Pads each dimension with `before[d]` and `after[d]` elements mirrored
 * from the input: REFLECT (offset 1) leaves the edge element out of the
 * mirror image, SYMMETRIC (offset 0) repeats it. At most REF_MAX_RANK
 * dimensions; output dims[d] = input dims[d] + before[d] + after[d]. Any
 * element size.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_MIRROR_PAD_H
#define ACCELGEN_REF_MIRROR_PAD_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

void ref_mirror_pad(const ref_mirror_pad_params *params, size_t element_size,
                    const ref_shape *input_shape, const void *input,
                    const ref_shape *output_shape, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_MIRROR_PAD_H */
