/*===- ref_batch_space.c - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND --------===*
 *
 * Both walk the tensor of many batches (SPACE_TO_BATCH_ND's output,
 * BATCH_TO_SPACE_ND's input) pixel by pixel and find the pixel of the
 * spatial tensor it corresponds to; a pixel's channels are contiguous and
 * move with one copy.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_batch_space.h"

#include <string.h>

/* Height, width and channels of an NHWC shape, or of [N, H, C]. */
static void nhwc(const ref_shape *s, int32_t *h, int32_t *w, int32_t *c) {
  *h = s->dims[1];
  *w = s->rank == 4 ? s->dims[2] : 1;
  *c = s->dims[s->rank - 1];
}

/* Walks the batched tensor `batched` pixel by pixel. SPACE_TO_BATCH_ND
 * (`to_space` 0) reads `input` as the spatial tensor and writes `output`,
 * the batched one, padding where a pixel falls outside; BATCH_TO_SPACE_ND
 * reads the batched `input` and writes the pixels that fall inside. */
static void walk(const ref_batch_space_params *p, size_t elem,
                 const ref_shape *batched, const ref_shape *spatial,
                 const unsigned char *input, unsigned char *output,
                 int to_space) {
  int32_t bh, bw, c, sh, sw, sc, b, y, x;
  const int32_t n = spatial->dims[0];
  size_t pixel;
  nhwc(batched, &bh, &bw, &c);
  nhwc(spatial, &sh, &sw, &sc);
  pixel = (size_t)c * elem;
  for (b = 0; b < batched->dims[0]; ++b) {
    const int32_t image = b % n, block = b / n;
    const int32_t dy = block / p->block_w, dx = block % p->block_w;
    for (y = 0; y < bh; ++y) {
      const int32_t sy = y * p->block_h + dy - p->pad_top;
      for (x = 0; x < bw; ++x) {
        const int32_t sx = x * p->block_w + dx - p->pad_left;
        const size_t at =
            (((size_t)b * (size_t)bh + (size_t)y) * (size_t)bw + (size_t)x) *
            pixel;
        const int inside = sy >= 0 && sy < sh && sx >= 0 && sx < sw;
        const size_t there =
            inside ? (((size_t)image * (size_t)sh + (size_t)sy) * (size_t)sw +
                      (size_t)sx) *
                         pixel
                   : 0;
        if (to_space) {
          if (inside)
            memcpy(output + there, input + at, pixel);
        } else if (inside) {
          memcpy(output + at, input + there, pixel);
        } else {
          memset(output + at, p->pad_byte, pixel);
        }
      }
    }
  }
}

void ref_space_to_batch_nd(const ref_batch_space_params *p,
                           size_t element_size, const ref_shape *input_shape,
                           const void *input, const ref_shape *output_shape,
                           void *output) {
  walk(p, element_size, output_shape, input_shape,
       (const unsigned char *)input, (unsigned char *)output, 0);
}

void ref_batch_to_space_nd(const ref_batch_space_params *p,
                           size_t element_size, const ref_shape *input_shape,
                           const void *input, const ref_shape *output_shape,
                           void *output) {
  walk(p, element_size, input_shape, output_shape,
       (const unsigned char *)input, (unsigned char *)output, 1);
}
