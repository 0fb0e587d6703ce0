/*===- ref_mirror_pad.c - MIRROR_PAD reference kernel ---------------------===*
 *
 * Each output index of a dimension maps to one input index (the mirror of
 * the padding, or the input itself); an odometer over the output sums the
 * input offsets of the dimensions, so no index is ever divided.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_mirror_pad.h"

#include <string.h>

/* The input index of output index `o` of dimension `d` (TensorFlow Lite's
 * GetInputDimension). */
static int32_t source(const ref_mirror_pad_params *p, int32_t d, int32_t o,
                      int32_t size) {
  if (o < p->before[d]) {
    const int32_t edge = p->before[d] + p->offset - 1;
    const int32_t back = o < edge - p->offset ? o : edge - p->offset;
    return edge - back;
  }
  o -= p->before[d];
  if (o >= size) {
    const int32_t edge = size - 1 - p->offset;
    o -= size;
    return edge - (o < edge ? o : edge);
  }
  return o;
}

void ref_mirror_pad(const ref_mirror_pad_params *p, size_t element_size,
                    const ref_shape *input_shape, const void *input,
                    const ref_shape *output_shape, void *output) {
  const int32_t rank = input_shape->rank;
  const unsigned char *in = (const unsigned char *)input;
  unsigned char *out = (unsigned char *)output;
  int32_t stride[REF_MAX_RANK], idx[REF_MAX_RANK];
  int32_t d, s = 1;
  if (ref_shape_size(output_shape) == 0)
    return;
  if (rank == 0) {
    memcpy(out, in, element_size);
    return;
  }
  for (d = rank - 1; d >= 0; --d) {
    stride[d] = s;
    s *= input_shape->dims[d];
    idx[d] = 0;
  }
  for (;;) {
    size_t off = 0;
    for (d = 0; d < rank; ++d)
      off += (size_t)source(p, d, idx[d], input_shape->dims[d]) *
             (size_t)stride[d];
    memcpy(out, in + off * element_size, element_size);
    out += element_size;
    for (d = rank - 1; d >= 0; --d) {
      if (++idx[d] < output_shape->dims[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}
