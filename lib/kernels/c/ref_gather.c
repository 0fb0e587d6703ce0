/*===- ref_gather.c - GATHER reference kernel -----------------------------===*/
#include "ref_gather.h"

#include <string.h>

void ref_gather(const ref_gather_params *p, size_t element_size,
                const void *input, const void *indices, void *output) {
  const unsigned char *in = (const unsigned char *)input;
  const int32_t *index = (const int32_t *)indices;
  unsigned char *out = (unsigned char *)output;
  const size_t slice = (size_t)p->inner * element_size;
  int32_t b, o, k;
  for (b = 0; b < p->batch; ++b)
    for (o = 0; o < p->outer; ++o) {
      const unsigned char *from =
          in + ((size_t)b * (size_t)p->outer + (size_t)o) * (size_t)p->axis *
                   slice;
      for (k = 0; k < p->count; ++k) {
        const int32_t at = index[(size_t)b * (size_t)p->count + (size_t)k];
        if (at >= 0 && at < p->axis)
          memcpy(out, from + (size_t)at * slice, slice);
        else
          memset(out, 0, slice);
        out += slice;
      }
    }
}
