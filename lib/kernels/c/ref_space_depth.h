/*===- ref_space_depth.h - SPACE_TO_DEPTH and DEPTH_TO_SPACE kernels -------===*
 *
 * Moves block_size x block_size spatial blocks of an NHWC tensor into its
 * channels (SPACE_TO_DEPTH: [N, H*b, W*b, C] -> [N, H, W, b*b*C]) or back
 * (DEPTH_TO_SPACE), the channel of a block's element (y, x) being
 * (y * b + x) * C + c, as TensorFlow Lite's kernels order them. Any element
 * size.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_SPACE_DEPTH_H
#define ACCELGEN_REF_SPACE_DEPTH_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `element_size` bytes per element; input and output shapes are 4-D. */
void ref_space_to_depth(const ref_space_depth_params *params,
                        size_t element_size, const ref_shape *input_shape,
                        const void *input, const ref_shape *output_shape,
                        void *output);
void ref_depth_to_space(const ref_space_depth_params *params,
                        size_t element_size, const ref_shape *input_shape,
                        const void *input, const ref_shape *output_shape,
                        void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_SPACE_DEPTH_H */
