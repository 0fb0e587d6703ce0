/*===- ref_permute.h - Dimension permutation of any element size ---------===*
 *
 * The walk TRANSPOSE is, shared with SPACE_TO_DEPTH and DEPTH_TO_SPACE
 * (a 6-D permutation each): the output in order with an odometer; the
 * matching input offset moves by the input stride of the permuted
 * dimension, so no index is divided.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_PERMUTE_H
#define ACCELGEN_REF_PERMUTE_H

#include "ref_common.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Output dimension d is input dimension perm[d]; `element_size` bytes per
 * element; at most REF_MAX_RANK dimensions. */
static inline void ref_permute(const int32_t *perm, size_t element_size,
                               const ref_shape *input_shape, const void *input,
                               const ref_shape *output_shape, void *output) {
  const int32_t rank = output_shape->rank;
  const unsigned char *in = (const unsigned char *)input;
  unsigned char *out = (unsigned char *)output;
  int32_t in_stride[REF_MAX_RANK], step[REF_MAX_RANK];
  int32_t idx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
  int32_t stride = 1, d;
  size_t in_off = 0;
  if (ref_shape_size(output_shape) == 0)
    return;
  for (d = input_shape->rank - 1; d >= 0; --d) {
    in_stride[d] = stride;
    stride *= input_shape->dims[d];
  }
  for (d = 0; d < rank; ++d)
    step[d] = in_stride[perm[d]];
  for (;;) {
    memcpy(out, in + in_off * element_size, element_size);
    out += element_size;
    for (d = rank - 1; d >= 0; --d) {
      ++idx[d];
      in_off += (size_t)step[d];
      if (idx[d] < output_shape->dims[d])
        break;
      in_off -= (size_t)step[d] * (size_t)output_shape->dims[d];
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_PERMUTE_H */
