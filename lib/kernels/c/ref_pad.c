/*===- ref_pad.c - PAD and PADV2 reference kernels ------------------------===*
 *
 * One byte-level walk serves every element type: the output is first filled
 * with the padding value, then each innermost input row is copied to its
 * place with memcpy. Rows are found with an odometer over the outer
 * dimensions, never by dividing an index.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_pad.h"

#include <string.h>

static void pad_copy_rows(const ref_pad_params *p, const ref_shape *in_shape,
                          const unsigned char *input,
                          const ref_shape *out_shape, unsigned char *output,
                          size_t elem) {
  const int32_t rank = in_shape->rank;
  int32_t out_stride[REF_MAX_RANK];
  int32_t idx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
  int32_t d;
  size_t row_bytes, in_offset = 0;
  if (rank == 0) {
    memcpy(output, input, elem);
    return;
  }
  if (ref_shape_size(in_shape) == 0)
    return;
  out_stride[rank - 1] = 1;
  for (d = rank - 2; d >= 0; --d)
    out_stride[d] = out_stride[d + 1] * out_shape->dims[d + 1];
  row_bytes = (size_t)in_shape->dims[rank - 1] * elem;
  for (;;) {
    size_t out_offset = 0;
    for (d = 0; d < rank; ++d)
      out_offset += (size_t)(idx[d] + p->before[d]) * out_stride[d];
    memcpy(output + out_offset * elem, input + in_offset, row_bytes);
    in_offset += row_bytes;
    /* Next row: advance the outer dimensions. */
    for (d = rank - 2; d >= 0; --d) {
      if (++idx[d] < in_shape->dims[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

void ref_pad_i8(const ref_pad_params *params, const ref_shape *input_shape,
                const int8_t *input, const ref_shape *output_shape,
                int8_t *output) {
  memset(output, (int8_t)params->pad_value,
         (size_t)ref_shape_size(output_shape));
  pad_copy_rows(params, input_shape, (const unsigned char *)input, output_shape,
                (unsigned char *)output, 1);
}

void ref_pad_u8(const ref_pad_params *params, const ref_shape *input_shape,
                const uint8_t *input, const ref_shape *output_shape,
                uint8_t *output) {
  memset(output, (uint8_t)params->pad_value,
         (size_t)ref_shape_size(output_shape));
  pad_copy_rows(params, input_shape, (const unsigned char *)input, output_shape,
                (unsigned char *)output, 1);
}

void ref_pad_f32(const ref_pad_params *params, const ref_shape *input_shape,
                 const float *input, const ref_shape *output_shape,
                 float *output) {
  const int32_t n = ref_shape_size(output_shape);
  int32_t i;
  for (i = 0; i < n; ++i)
    output[i] = params->pad_value_f;
  pad_copy_rows(params, input_shape, (const unsigned char *)input, output_shape,
                (unsigned char *)output, sizeof(float));
}
