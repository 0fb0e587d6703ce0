/*===- ref_batch_space.h - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND --------===*
 *
 * SPACE_TO_BATCH_ND pads the height and width of an NHWC tensor (rank 4, or
 * rank 3 [N, H, C] read as width 1) and moves each block_h x block_w block's
 * elements into the batch: output batch (sy * block_w + sx) * N + n holds
 * the elements at rows y * block_h + sy and columns x * block_w + sx of
 * input batch n, padding reading as the byte `pad_byte`. BATCH_TO_SPACE_ND
 * is its inverse, with the crops in place of the padding: rows and columns
 * before crop_top / crop_left (or past the output) are dropped. Any element
 * size.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_BATCH_SPACE_H
#define ACCELGEN_REF_BATCH_SPACE_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `element_size` bytes per element; shapes of rank 3 or 4. */
void ref_space_to_batch_nd(const ref_batch_space_params *params,
                           size_t element_size, const ref_shape *input_shape,
                           const void *input, const ref_shape *output_shape,
                           void *output);
void ref_batch_to_space_nd(const ref_batch_space_params *params,
                           size_t element_size, const ref_shape *input_shape,
                           const void *input, const ref_shape *output_shape,
                           void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_BATCH_SPACE_H */
