/*===- ref_strided_slice.c - STRIDED_SLICE reference kernel ---------------===*/
#include "ref_strided_slice.h"

#include <string.h>

/* True while index i of dimension d is still inside the slice. */
static int in_range(const ref_strided_slice_params *p, int32_t d, int32_t i) {
  return p->stride[d] > 0 ? i < p->stop[d] : i > p->stop[d];
}

void ref_strided_slice(const ref_strided_slice_params *p, size_t element_size,
                       const ref_shape *input_shape, const void *input,
                       void *output) {
  const int32_t rank = input_shape->rank;
  const unsigned char *in = (const unsigned char *)input;
  unsigned char *out = (unsigned char *)output;
  int32_t in_stride[REF_MAX_RANK];
  int32_t idx[REF_MAX_RANK];
  int32_t stride = 1, d, run = 1, carry_from;
  if (rank == 0) {
    memcpy(out, in, element_size);
    return;
  }
  for (d = rank - 1; d >= 0; --d) {
    in_stride[d] = stride;
    stride *= input_shape->dims[d];
  }
  for (d = 0; d < rank; ++d) {
    if (!in_range(p, d, p->start[d]))
      return; /* an empty slice */
    idx[d] = p->start[d];
  }
  /* With a unit stride the innermost dimension's elements are contiguous:
   * one copy per row, and the odometer starts one dimension further out. */
  carry_from = rank - 1;
  if (p->stride[rank - 1] == 1) {
    run = p->stop[rank - 1] - p->start[rank - 1];
    carry_from = rank - 2;
  }
  for (;;) {
    size_t off = 0;
    for (d = 0; d < rank; ++d)
      off += (size_t)idx[d] * (size_t)in_stride[d];
    memcpy(out, in + off * element_size, (size_t)run * element_size);
    out += (size_t)run * element_size;
    for (d = carry_from; d >= 0; --d) {
      idx[d] += p->stride[d];
      if (in_range(p, d, idx[d]))
        break;
      idx[d] = p->start[d];
    }
    if (d < 0)
      return;
  }
}
