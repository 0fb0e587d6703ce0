/*===- ref_fully_connected.c - FULLY_CONNECTED reference kernels ----------===*
 *
 * One dot product per (batch, unit); both operands are contiguous along the
 * depth. The input offset is folded out of the inner loop for int8:
 * sum f * (x + off) = sum f * x + off * sum f, exact in int32.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_fully_connected.h"

static void fc_i8(const ref_fully_connected_params *p,
                  const ref_shape *filter_shape, const int8_t *input,
                  const int8_t *filter, const int32_t *bias,
                  const ref_shape *output_shape, int8_t *output,
                  const int32_t *multiplier, const int32_t *left_shift,
                  int32_t mstride) {
  const int32_t units = filter_shape->dims[0];
  const int32_t depth = filter_shape->dims[filter_shape->rank - 1];
  const int32_t batches = ref_shape_size(output_shape) / units;
  int32_t b, o, d;
  for (b = 0; b < batches; ++b) {
    const int8_t *in_b = input + (size_t)b * depth;
    for (o = 0; o < units; ++o) {
      const int8_t *f_o = filter + (size_t)o * depth;
      int32_t dot = 0, filter_sum = 0, acc;
      for (d = 0; d < depth; ++d) {
        dot += (int32_t)f_o[d] * (int32_t)in_b[d];
        filter_sum += f_o[d];
      }
      /* filter_offset is 0 for int8 filters (symmetric); kept for
       * completeness: (f + fo)(x + xo) = fx + xo f + fo x + fo xo. */
      acc = dot + p->input_offset * filter_sum;
      if (p->filter_offset != 0) {
        int32_t input_sum = 0;
        for (d = 0; d < depth; ++d)
          input_sum += in_b[d];
        acc += p->filter_offset * input_sum +
               p->filter_offset * p->input_offset * depth;
      }
      if (bias)
        acc += bias[o];
      acc = ref_multiply_by_quantized_multiplier(acc, multiplier[o * mstride],
                                                 left_shift[o * mstride]);
      acc += p->output_offset;
      output[(size_t)b * units + o] =
          (int8_t)ref_clamp_i32(acc, p->act_min, p->act_max);
    }
  }
}

void ref_fully_connected_i8(const ref_fully_connected_params *params,
                            const ref_shape *input_shape, const int8_t *input,
                            const ref_shape *filter_shape, const int8_t *filter,
                            const int32_t *bias, const ref_shape *output_shape,
                            int8_t *output) {
  (void)input_shape;
  fc_i8(params, filter_shape, input, filter, bias, output_shape, output,
        &params->output_multiplier, &params->output_left_shift, 0);
}

void ref_fully_connected_i8_per_channel(
    const ref_fully_connected_params *params, const ref_shape *input_shape,
    const int8_t *input, const ref_shape *filter_shape, const int8_t *filter,
    const int32_t *bias, const ref_shape *output_shape, int8_t *output) {
  (void)input_shape;
  fc_i8(params, filter_shape, input, filter, bias, output_shape, output,
        params->per_channel_multiplier, params->per_channel_left_shift, 1);
}

void ref_fully_connected_u8(const ref_fully_connected_params *p,
                            const ref_shape *input_shape, const uint8_t *input,
                            const ref_shape *filter_shape,
                            const uint8_t *filter, const int32_t *bias,
                            const ref_shape *output_shape, uint8_t *output) {
  const int32_t units = filter_shape->dims[0];
  const int32_t depth = filter_shape->dims[filter_shape->rank - 1];
  const int32_t batches = ref_shape_size(output_shape) / units;
  int32_t b, o, d;
  (void)input_shape;
  for (b = 0; b < batches; ++b) {
    const uint8_t *in_b = input + (size_t)b * depth;
    for (o = 0; o < units; ++o) {
      const uint8_t *f_o = filter + (size_t)o * depth;
      int32_t acc = 0;
      for (d = 0; d < depth; ++d)
        acc += ((int32_t)f_o[d] + p->filter_offset) *
               ((int32_t)in_b[d] + p->input_offset);
      if (bias)
        acc += bias[o];
      acc = ref_multiply_by_quantized_multiplier(acc, p->output_multiplier,
                                                 p->output_left_shift);
      acc += p->output_offset;
      output[(size_t)b * units + o] =
          (uint8_t)ref_clamp_i32(acc, p->act_min, p->act_max);
    }
  }
}

void ref_fully_connected_f32(const ref_fully_connected_params *p,
                             const ref_shape *input_shape, const float *input,
                             const ref_shape *filter_shape, const float *filter,
                             const float *bias, const ref_shape *output_shape,
                             float *output) {
  const int32_t units = filter_shape->dims[0];
  const int32_t depth = filter_shape->dims[filter_shape->rank - 1];
  const int32_t batches = ref_shape_size(output_shape) / units;
  int32_t b, o, d;
  (void)input_shape;
  for (b = 0; b < batches; ++b) {
    const float *in_b = input + (size_t)b * depth;
    for (o = 0; o < units; ++o) {
      const float *f_o = filter + (size_t)o * depth;
      float acc = 0.0f;
      for (d = 0; d < depth; ++d)
        acc += in_b[d] * f_o[d];
      acc += bias ? bias[o] : 0.0f;
      acc = acc < p->act_min_f ? p->act_min_f : acc;
      acc = acc > p->act_max_f ? p->act_max_f : acc;
      output[(size_t)b * units + o] = acc;
    }
  }
}
