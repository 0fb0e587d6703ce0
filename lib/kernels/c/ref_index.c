/*===- ref_index.c - Index and shape reference kernels --------------------===*/
#include "ref_index.h"

#include <string.h>

void ref_broadcast_to(const ref_broadcast_to_params *p, size_t element_size,
                      const void *input, void *output) {
  const unsigned char *in = (const unsigned char *)input;
  unsigned char *out = (unsigned char *)output;
  int32_t idx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
  int32_t at = 0, d, i;
  const int32_t last = REF_MAX_RANK - 1;
  for (d = 0; d < REF_MAX_RANK; ++d)
    if (p->dims[d] == 0)
      return;
  for (;;) {
    for (i = 0; i < p->dims[last]; ++i) {
      memcpy(out, in + (size_t)(at + i * p->stride[last]) * element_size,
             element_size);
      out += element_size;
    }
    for (d = last - 1; d >= 0; --d) {
      ++idx[d];
      at += p->stride[d];
      if (idx[d] < p->dims[d])
        break;
      at -= p->stride[d] * p->dims[d];
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

void ref_embedding_dequantize(const ref_embedding_dequantize_params *p,
                              const void *lookup, const void *value,
                              void *output) {
  const int32_t *index = (const int32_t *)lookup;
  const int8_t *rows = (const int8_t *)value;
  float *out = (float *)output;
  int32_t i, c;
  for (i = 0; i < p->count; ++i, out += p->columns) {
    const int32_t r = index[i];
    for (c = 0; c < p->columns; ++c)
      out[c] = r >= 0 && r < p->rows
                   ? (float)rows[(size_t)r * (size_t)p->columns + (size_t)c] *
                         p->scale
                   : 0.0f;
  }
}

void ref_gather_nd(const ref_gather_nd_params *p, size_t element_size,
                   const void *input, const void *indices, void *output) {
  const unsigned char *in = (const unsigned char *)input;
  const int32_t *index = (const int32_t *)indices;
  unsigned char *out = (unsigned char *)output;
  const size_t slice_bytes = (size_t)p->slice_size * element_size;
  int32_t s, j;
  for (s = 0; s < p->slices; ++s) {
    int64_t from = 0;
    for (j = 0; j < p->index_depth; ++j)
      from += (int64_t)index[(size_t)s * (size_t)p->index_depth + (size_t)j] *
              p->stride[j];
    if (from < 0 || from + p->slice_size > p->input_size)
      memset(out, 0, slice_bytes);
    else
      memcpy(out, in + (size_t)from * element_size, slice_bytes);
    out += slice_bytes;
  }
}

void ref_dynamic_update_slice(const ref_dynamic_update_slice_params *p,
                              size_t element_size, const void *operand,
                              const void *update, const void *start,
                              void *output) {
  const unsigned char *up = (const unsigned char *)update;
  unsigned char *out = (unsigned char *)output;
  int32_t begin[REF_MAX_RANK], ostride[REF_MAX_RANK], idx[REF_MAX_RANK];
  int32_t d, rows = 1, row_elems;
  size_t operand_n = 1, update_n = 1, at = 0;
  for (d = 0; d < p->rank; ++d) {
    operand_n *= (size_t)p->dims[d];
    update_n *= (size_t)p->update_dims[d];
  }
  if (operand_n == update_n) {
    memcpy(out, up, update_n * element_size);
    return;
  }
  if (operand != output)
    memcpy(out, operand, operand_n * element_size);
  if (update_n == 0)
    return;
  for (d = p->rank - 1; d >= 0; --d) {
    const int64_t raw = p->wide_indices ? ((const int64_t *)start)[d]
                                        : ((const int32_t *)start)[d];
    const int64_t hi = (int64_t)p->dims[d] - p->update_dims[d];
    begin[d] = (int32_t)(raw < 0 ? 0 : raw > hi ? hi : raw);
    ostride[d] = d == p->rank - 1 ? 1 : ostride[d + 1] * p->dims[d + 1];
    idx[d] = 0;
  }
  for (d = 0; d < p->rank; ++d)
    at += (size_t)begin[d] * (size_t)ostride[d];
  row_elems = p->update_dims[p->rank - 1];
  for (d = 0; d + 1 < p->rank; ++d)
    rows *= p->update_dims[d];
  /* One row of the update per step; the outer indices as an odometer. */
  while (rows-- > 0) {
    memcpy(out + at * element_size, up, (size_t)row_elems * element_size);
    up += (size_t)row_elems * element_size;
    for (d = p->rank - 2; d >= 0; --d) {
      ++idx[d];
      at += (size_t)ostride[d];
      if (idx[d] < p->update_dims[d])
        break;
      at -= (size_t)ostride[d] * (size_t)p->update_dims[d];
      idx[d] = 0;
    }
  }
}

void ref_shape_of(const ref_shape_of_params *p, const void *input,
                  void *output) {
  int32_t *out = (int32_t *)output;
  int32_t d;
  (void)input;
  for (d = 0; d < p->rank; ++d)
    out[d] = p->dims[d];
}

void ref_broadcast_args(const ref_broadcast_args_params *p,
                        const void *shape1, const void *shape2, void *output) {
  int32_t i;
  for (i = 0; i < p->rank; ++i) {
    const int32_t i1 = p->rank1 - 1 - i, i2 = p->rank2 - 1 - i;
    const int64_t d1 = i1 < 0               ? 1
                       : p->wide            ? ((const int64_t *)shape1)[i1]
                                            : ((const int32_t *)shape1)[i1];
    const int64_t d2 = i2 < 0               ? 1
                       : p->wide            ? ((const int64_t *)shape2)[i2]
                                            : ((const int32_t *)shape2)[i2];
    const int64_t d = d1 == 1 ? d2 : d1;
    if (p->wide)
      ((int64_t *)output)[p->rank - 1 - i] = d;
    else
      ((int32_t *)output)[p->rank - 1 - i] = (int32_t)d;
  }
}
