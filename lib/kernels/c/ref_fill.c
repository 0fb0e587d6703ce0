/*===- ref_fill.c - FILL and ZEROS_LIKE reference kernel ------------------===*/
#include "ref_fill.h"

#include <string.h>

void ref_fill(const ref_fill_params *p, size_t element_size, int32_t count,
              const void *value, void *output) {
  unsigned char *out = (unsigned char *)output;
  int32_t i;
  if (p->zeros) {
    memset(out, 0, (size_t)count * element_size);
    return;
  }
  for (i = 0; i < count; ++i)
    memcpy(out + (size_t)i * element_size, value, element_size);
}
