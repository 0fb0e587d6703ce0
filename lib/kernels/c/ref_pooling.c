/*===- ref_pooling.c - AVERAGE_POOL_2D and MAX_POOL_2D reference kernels --===*
 *
 * Loop order: batch, output row, output column, then the window, with the
 * channels innermost so that every load is contiguous. One division per
 * output element (the average), none per tap.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_pooling.h"

#include "ref_window.h"

#include <float.h>

/* The largest channel count pooled in one pass: per-channel accumulators live
 * on the stack. Wider tensors are processed in slices of this many
 * channels. */
#define POOL_CHANNEL_BLOCK 256

typedef struct pool_geometry {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
} pool_geometry;

static pool_geometry pool_geometry_of(const ref_shape *input_shape,
                                      const ref_shape *output_shape) {
  pool_geometry g;
  g.batches = input_shape->dims[0];
  g.in_h = input_shape->dims[1];
  g.in_w = input_shape->dims[2];
  g.depth = input_shape->dims[3];
  g.out_h = output_shape->dims[1];
  g.out_w = output_shape->dims[2];
  return g;
}

/* The valid window of output position (oy, ox): [*y0, *y1) x [*x0, *x1) in
 * input coordinates. */
static void pool_window(const ref_pool2d_params *p, const pool_geometry *g,
                        int32_t oy, int32_t ox, int32_t *y0, int32_t *y1,
                        int32_t *x0, int32_t *x1) {
  const int32_t iy = oy * p->stride_h - p->pad_top;
  const int32_t ix = ox * p->stride_w - p->pad_left;
  int32_t kb, ke;
  ref_window_taps(iy, 1, p->filter_h, g->in_h, &kb, &ke);
  *y0 = iy + kb;
  *y1 = iy + ke;
  ref_window_taps(ix, 1, p->filter_w, g->in_w, &kb, &ke);
  *x0 = ix + kb;
  *x1 = ix + ke;
}

/* Rounded integer average of `sum` over `count` taps (count >= 1), half away
 * from zero. */
static int32_t pool_round_div(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

void ref_average_pool2d_i8(const ref_pool2d_params *p,
                           const ref_shape *input_shape, const int8_t *input,
                           const ref_shape *output_shape, int8_t *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  int32_t acc[POOL_CHANNEL_BLOCK];
  int32_t b, oy, ox, y, x, c, c0;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1, count;
        int8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        count = (y1 - y0) * (x1 - x0);
        for (c0 = 0; c0 < g.depth; c0 += POOL_CHANNEL_BLOCK) {
          const int32_t cn = g.depth - c0 < POOL_CHANNEL_BLOCK
                                 ? g.depth - c0
                                 : POOL_CHANNEL_BLOCK;
          for (c = 0; c < cn; ++c)
            acc[c] = 0;
          for (y = y0; y < y1; ++y)
            for (x = x0; x < x1; ++x) {
              const int8_t *in_px =
                  input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth +
                  c0;
              for (c = 0; c < cn; ++c)
                acc[c] += in_px[c];
            }
          for (c = 0; c < cn; ++c)
            out_px[c0 + c] = (int8_t)ref_clamp_i32(
                count > 0 ? pool_round_div(acc[c], count) : 0, p->act_min,
                p->act_max);
        }
      }
}

void ref_average_pool2d_u8(const ref_pool2d_params *p,
                           const ref_shape *input_shape, const uint8_t *input,
                           const ref_shape *output_shape, uint8_t *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  int32_t acc[POOL_CHANNEL_BLOCK];
  int32_t b, oy, ox, y, x, c, c0;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1, count;
        uint8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        count = (y1 - y0) * (x1 - x0);
        for (c0 = 0; c0 < g.depth; c0 += POOL_CHANNEL_BLOCK) {
          const int32_t cn = g.depth - c0 < POOL_CHANNEL_BLOCK
                                 ? g.depth - c0
                                 : POOL_CHANNEL_BLOCK;
          for (c = 0; c < cn; ++c)
            acc[c] = 0;
          for (y = y0; y < y1; ++y)
            for (x = x0; x < x1; ++x) {
              const uint8_t *in_px =
                  input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth +
                  c0;
              for (c = 0; c < cn; ++c)
                acc[c] += in_px[c];
            }
          /* The sum is never negative: (sum + n/2) / n. */
          for (c = 0; c < cn; ++c)
            out_px[c0 + c] = (uint8_t)ref_clamp_i32(
                count > 0 ? pool_round_div(acc[c], count) : 0, p->act_min,
                p->act_max);
        }
      }
}

void ref_average_pool2d_f32(const ref_pool2d_params *p,
                            const ref_shape *input_shape, const float *input,
                            const ref_shape *output_shape, float *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  float acc[POOL_CHANNEL_BLOCK];
  int32_t b, oy, ox, y, x, c, c0;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1;
        float count;
        float *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        count = (float)((y1 - y0) * (x1 - x0));
        for (c0 = 0; c0 < g.depth; c0 += POOL_CHANNEL_BLOCK) {
          const int32_t cn = g.depth - c0 < POOL_CHANNEL_BLOCK
                                 ? g.depth - c0
                                 : POOL_CHANNEL_BLOCK;
          for (c = 0; c < cn; ++c)
            acc[c] = 0.0f;
          for (y = y0; y < y1; ++y)
            for (x = x0; x < x1; ++x) {
              const float *in_px =
                  input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth +
                  c0;
              for (c = 0; c < cn; ++c)
                acc[c] += in_px[c];
            }
          for (c = 0; c < cn; ++c) {
            float v = acc[c] / count;
            v = v < p->act_min_f ? p->act_min_f : v;
            v = v > p->act_max_f ? p->act_max_f : v;
            out_px[c0 + c] = v;
          }
        }
      }
}

void ref_max_pool2d_i8(const ref_pool2d_params *p, const ref_shape *input_shape,
                       const int8_t *input, const ref_shape *output_shape,
                       int8_t *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  int32_t b, oy, ox, y, x, c;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1;
        int8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        for (c = 0; c < g.depth; ++c)
          out_px[c] = INT8_MIN;
        for (y = y0; y < y1; ++y)
          for (x = x0; x < x1; ++x) {
            const int8_t *in_px =
                input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth;
            for (c = 0; c < g.depth; ++c)
              if (in_px[c] > out_px[c])
                out_px[c] = in_px[c];
          }
        for (c = 0; c < g.depth; ++c)
          out_px[c] = (int8_t)ref_clamp_i32(out_px[c], p->act_min, p->act_max);
      }
}

void ref_max_pool2d_u8(const ref_pool2d_params *p, const ref_shape *input_shape,
                       const uint8_t *input, const ref_shape *output_shape,
                       uint8_t *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  int32_t b, oy, ox, y, x, c;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1;
        uint8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        for (c = 0; c < g.depth; ++c)
          out_px[c] = 0;
        for (y = y0; y < y1; ++y)
          for (x = x0; x < x1; ++x) {
            const uint8_t *in_px =
                input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth;
            for (c = 0; c < g.depth; ++c)
              if (in_px[c] > out_px[c])
                out_px[c] = in_px[c];
          }
        for (c = 0; c < g.depth; ++c)
          out_px[c] = (uint8_t)ref_clamp_i32(out_px[c], p->act_min, p->act_max);
      }
}

void ref_max_pool2d_f32(const ref_pool2d_params *p,
                        const ref_shape *input_shape, const float *input,
                        const ref_shape *output_shape, float *output) {
  const pool_geometry g = pool_geometry_of(input_shape, output_shape);
  int32_t b, oy, ox, y, x, c;
  for (b = 0; b < g.batches; ++b)
    for (oy = 0; oy < g.out_h; ++oy)
      for (ox = 0; ox < g.out_w; ++ox) {
        int32_t y0, y1, x0, x1;
        float *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.depth;
        pool_window(p, &g, oy, ox, &y0, &y1, &x0, &x1);
        for (c = 0; c < g.depth; ++c)
          out_px[c] = -FLT_MAX;
        for (y = y0; y < y1; ++y)
          for (x = x0; x < x1; ++x) {
            const float *in_px =
                input + (((size_t)b * g.in_h + y) * g.in_w + x) * g.depth;
            for (c = 0; c < g.depth; ++c)
              if (in_px[c] > out_px[c])
                out_px[c] = in_px[c];
          }
        for (c = 0; c < g.depth; ++c) {
          float v = out_px[c];
          v = v < p->act_min_f ? p->act_min_f : v;
          v = v > p->act_max_f ? p->act_max_f : v;
          out_px[c] = v;
        }
      }
}
