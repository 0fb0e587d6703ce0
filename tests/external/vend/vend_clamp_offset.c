#include "vend_clamp_offset.h"

void vend_clamp_offset_i8(const vend_clamp_offset_params *params,
                          int32_t count, const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    int32_t v = input[i] + params->offsets[i % params->channels];
    if (v < params->lo)
      v = params->lo;
    if (v > params->hi)
      v = params->hi;
    output[i] = (int8_t)v;
  }
}
