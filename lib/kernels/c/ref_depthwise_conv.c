/*===- ref_depthwise_conv.c - DEPTHWISE_CONV_2D reference kernels ---------===*
 *
 * Loop order: batch, output row, output column, input channel, multiplier,
 * then the filter window. The valid window is computed once per output row
 * and column; taps outside the input are skipped.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_depthwise_conv.h"

#include "ref_window.h"

typedef struct dw_geometry {
  int32_t batches, in_h, in_w, in_c;
  int32_t filter_h, filter_w;
  int32_t out_h, out_w, out_c;
} dw_geometry;

static dw_geometry dw_geometry_of(const ref_shape *input_shape,
                                  const ref_shape *filter_shape,
                                  const ref_shape *output_shape) {
  dw_geometry g;
  g.batches = input_shape->dims[0];
  g.in_h = input_shape->dims[1];
  g.in_w = input_shape->dims[2];
  g.in_c = input_shape->dims[3];
  g.filter_h = filter_shape->dims[1];
  g.filter_w = filter_shape->dims[2];
  g.out_h = output_shape->dims[1];
  g.out_w = output_shape->dims[2];
  g.out_c = output_shape->dims[3];
  return g;
}

/* int8 core: `multiplier`/`left_shift` advance by `mstride` per output
 * channel (1 for per-channel arrays, 0 for a per-tensor scalar). */
static void dw_i8(const ref_depthwise_conv2d_params *p,
                  const ref_shape *input_shape, const int8_t *input,
                  const ref_shape *filter_shape, const int8_t *filter,
                  const int32_t *bias, const ref_shape *output_shape,
                  int8_t *output, const int32_t *multiplier,
                  const int32_t *left_shift, int32_t mstride) {
  const dw_geometry g = dw_geometry_of(input_shape, filter_shape, output_shape);
  const int32_t dm = p->depth_multiplier;
  int32_t b, oy, ox, ic, m, ky, kx;
  for (b = 0; b < g.batches; ++b) {
    const int8_t *in_b = input + (size_t)b * g.in_h * g.in_w * g.in_c;
    for (oy = 0; oy < g.out_h; ++oy) {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      int32_t ky_begin, ky_end;
      ref_window_taps(iy0, p->dilation_h, g.filter_h, g.in_h, &ky_begin,
                      &ky_end);
      for (ox = 0; ox < g.out_w; ++ox) {
        const int32_t ix0 = ox * p->stride_w - p->pad_left;
        int8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.out_c;
        int32_t kx_begin, kx_end;
        ref_window_taps(ix0, p->dilation_w, g.filter_w, g.in_w, &kx_begin,
                        &kx_end);
        for (ic = 0; ic < g.in_c; ++ic) {
          for (m = 0; m < dm; ++m) {
            const int32_t oc = ic * dm + m;
            int32_t acc = 0;
            for (ky = ky_begin; ky < ky_end; ++ky) {
              const int32_t iy = iy0 + p->dilation_h * ky;
              for (kx = kx_begin; kx < kx_end; ++kx) {
                const int32_t ix = ix0 + p->dilation_w * kx;
                const int32_t in_v =
                    in_b[((size_t)iy * g.in_w + ix) * g.in_c + ic];
                const int32_t f_v =
                    filter[((size_t)ky * g.filter_w + kx) * g.out_c + oc];
                acc += f_v * (in_v + p->input_offset);
              }
            }
            if (bias)
              acc += bias[oc];
            acc = ref_multiply_by_quantized_multiplier(
                acc, multiplier[oc * mstride], left_shift[oc * mstride]);
            acc += p->output_offset;
            out_px[oc] = (int8_t)ref_clamp_i32(acc, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

void ref_depthwise_conv2d_i8_per_channel(
    const ref_depthwise_conv2d_params *params, const ref_shape *input_shape,
    const int8_t *input, const ref_shape *filter_shape, const int8_t *filter,
    const int32_t *bias, const ref_shape *output_shape, int8_t *output) {
  dw_i8(params, input_shape, input, filter_shape, filter, bias, output_shape,
        output, params->per_channel_multiplier, params->per_channel_left_shift,
        1);
}

void ref_depthwise_conv2d_i8(const ref_depthwise_conv2d_params *params,
                             const ref_shape *input_shape, const int8_t *input,
                             const ref_shape *filter_shape,
                             const int8_t *filter, const int32_t *bias,
                             const ref_shape *output_shape, int8_t *output) {
  dw_i8(params, input_shape, input, filter_shape, filter, bias, output_shape,
        output, &params->output_multiplier, &params->output_left_shift, 0);
}

void ref_depthwise_conv2d_u8(const ref_depthwise_conv2d_params *p,
                             const ref_shape *input_shape, const uint8_t *input,
                             const ref_shape *filter_shape,
                             const uint8_t *filter, const int32_t *bias,
                             const ref_shape *output_shape, uint8_t *output) {
  const dw_geometry g = dw_geometry_of(input_shape, filter_shape, output_shape);
  const int32_t dm = p->depth_multiplier;
  int32_t b, oy, ox, ic, m, ky, kx;
  for (b = 0; b < g.batches; ++b) {
    const uint8_t *in_b = input + (size_t)b * g.in_h * g.in_w * g.in_c;
    for (oy = 0; oy < g.out_h; ++oy) {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      int32_t ky_begin, ky_end;
      ref_window_taps(iy0, p->dilation_h, g.filter_h, g.in_h, &ky_begin,
                      &ky_end);
      for (ox = 0; ox < g.out_w; ++ox) {
        const int32_t ix0 = ox * p->stride_w - p->pad_left;
        uint8_t *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.out_c;
        int32_t kx_begin, kx_end;
        ref_window_taps(ix0, p->dilation_w, g.filter_w, g.in_w, &kx_begin,
                        &kx_end);
        for (ic = 0; ic < g.in_c; ++ic) {
          for (m = 0; m < dm; ++m) {
            const int32_t oc = ic * dm + m;
            int32_t acc = 0;
            for (ky = ky_begin; ky < ky_end; ++ky) {
              const int32_t iy = iy0 + p->dilation_h * ky;
              for (kx = kx_begin; kx < kx_end; ++kx) {
                const int32_t ix = ix0 + p->dilation_w * kx;
                const int32_t in_v =
                    in_b[((size_t)iy * g.in_w + ix) * g.in_c + ic];
                const int32_t f_v =
                    filter[((size_t)ky * g.filter_w + kx) * g.out_c + oc];
                acc += (f_v + p->filter_offset) * (in_v + p->input_offset);
              }
            }
            if (bias)
              acc += bias[oc];
            acc = ref_multiply_by_quantized_multiplier(
                acc, p->output_multiplier, p->output_left_shift);
            acc += p->output_offset;
            out_px[oc] = (uint8_t)ref_clamp_i32(acc, p->act_min, p->act_max);
          }
        }
      }
    }
  }
}

void ref_depthwise_conv2d_f32(const ref_depthwise_conv2d_params *p,
                              const ref_shape *input_shape, const float *input,
                              const ref_shape *filter_shape,
                              const float *filter, const float *bias,
                              const ref_shape *output_shape, float *output) {
  const dw_geometry g = dw_geometry_of(input_shape, filter_shape, output_shape);
  const int32_t dm = p->depth_multiplier;
  int32_t b, oy, ox, ic, m, ky, kx;
  for (b = 0; b < g.batches; ++b) {
    const float *in_b = input + (size_t)b * g.in_h * g.in_w * g.in_c;
    for (oy = 0; oy < g.out_h; ++oy) {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      int32_t ky_begin, ky_end;
      ref_window_taps(iy0, p->dilation_h, g.filter_h, g.in_h, &ky_begin,
                      &ky_end);
      for (ox = 0; ox < g.out_w; ++ox) {
        const int32_t ix0 = ox * p->stride_w - p->pad_left;
        float *out_px =
            output + (((size_t)b * g.out_h + oy) * g.out_w + ox) * g.out_c;
        int32_t kx_begin, kx_end;
        ref_window_taps(ix0, p->dilation_w, g.filter_w, g.in_w, &kx_begin,
                        &kx_end);
        for (ic = 0; ic < g.in_c; ++ic) {
          for (m = 0; m < dm; ++m) {
            const int32_t oc = ic * dm + m;
            float acc = 0.0f;
            float v;
            for (ky = ky_begin; ky < ky_end; ++ky) {
              const int32_t iy = iy0 + p->dilation_h * ky;
              for (kx = kx_begin; kx < kx_end; ++kx) {
                const int32_t ix = ix0 + p->dilation_w * kx;
                acc += in_b[((size_t)iy * g.in_w + ix) * g.in_c + ic] *
                       filter[((size_t)ky * g.filter_w + kx) * g.out_c + oc];
              }
            }
            v = acc + (bias ? bias[oc] : 0.0f);
            v = v < p->act_min_f ? p->act_min_f : v;
            v = v > p->act_max_f ? p->act_max_f : v;
            out_px[oc] = v;
          }
        }
      }
    }
  }
}
