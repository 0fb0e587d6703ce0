/*===- ref_select.c - SELECT_V2 reference kernel --------------------------===*/
#include "ref_select.h"

#include <string.h>

void ref_select_v2(const ref_select_params *p, size_t element_size,
                   const void *condition, const void *x, const void *y,
                   void *output) {
  const uint8_t *cond = (const uint8_t *)condition;
  const unsigned char *xs = (const unsigned char *)x;
  const unsigned char *ys = (const unsigned char *)y;
  unsigned char *out = (unsigned char *)output;
  int32_t idx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
  int32_t oc = 0, ox = 0, oy = 0, d;
  const int32_t last = REF_MAX_RANK - 1;
  for (d = 0; d < REF_MAX_RANK; ++d)
    if (p->dims[d] == 0)
      return;
  for (;;) {
    int32_t i;
    for (i = 0; i < p->dims[last]; ++i) {
      const unsigned char *from =
          cond[oc + i * p->condition_stride[last]]
              ? xs + (size_t)(ox + i * p->x_stride[last]) * element_size
              : ys + (size_t)(oy + i * p->y_stride[last]) * element_size;
      memcpy(out, from, element_size);
      out += element_size;
    }
    /* The next row: step the outer dimensions as an odometer. */
    for (d = last - 1; d >= 0; --d) {
      ++idx[d];
      oc += p->condition_stride[d];
      ox += p->x_stride[d];
      oy += p->y_stride[d];
      if (idx[d] < p->dims[d])
        break;
      oc -= p->condition_stride[d] * p->dims[d];
      ox -= p->x_stride[d] * p->dims[d];
      oy -= p->y_stride[d] * p->dims[d];
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}
