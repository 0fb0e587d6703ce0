/*===- ref_window.h - Sliding-window bounds shared by conv and pooling ----===*
 *
 * The range of filter taps that land inside the input for one output position,
 * so that the inner loops run without per-tap bounds checks. Taps outside the
 * input contribute nothing (TensorFlow Lite skips them rather than reading a
 * padding value).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_WINDOW_H
#define ACCELGEN_REF_WINDOW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For taps origin + dilation * k, 0 <= k < filter_size, sets [*begin, *end)
 * to the k with 0 <= origin + dilation * k < input_size (dilation >= 1).
 * Scans the taps: filter sizes are small and this runs once per output row
 * or column, not per element. */
static inline void ref_window_taps(int32_t origin, int32_t dilation,
                                   int32_t filter_size, int32_t input_size,
                                   int32_t *begin, int32_t *end) {
  int32_t k = 0;
  while (k < filter_size && origin + dilation * k < 0)
    ++k;
  *begin = k;
  while (k < filter_size && origin + dilation * k < input_size)
    ++k;
  *end = k;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_WINDOW_H */
