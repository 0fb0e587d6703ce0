/* The vend target's clamp with per-channel offsets (vend.td). */
#ifndef VEND_CLAMP_OFFSET_H
#define VEND_CLAMP_OFFSET_H

#include "vend_params.h"

#include <stdint.h>

void vend_clamp_offset_i8(const vend_clamp_offset_params *params,
                          int32_t count, const int8_t *input, int8_t *output);

#endif
