/*===- ref_concat.c - CONCATENATION reference kernels ---------------------===*
 *
 * The output is `outer` slices (the product of the dimensions before the
 * axis); each slice is the inputs' slices one after another.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_concat.h"

#include <math.h>
#include <string.h>

/* The product of the dimensions of `shape` from `axis` on. */
static size_t inner_size(const ref_shape *shape, int32_t axis) {
  size_t n = 1;
  int32_t d;
  for (d = axis; d < shape->rank; ++d)
    n *= (size_t)shape->dims[d];
  return n;
}

static void concat_bytes(const ref_concat_params *p,
                         const ref_shape *const *input_shapes,
                         const void *const *inputs,
                         const ref_shape *output_shape, void *output,
                         size_t elem) {
  size_t outer = 1;
  size_t o;
  int32_t d, i;
  unsigned char *out = (unsigned char *)output;
  for (d = 0; d < p->axis; ++d)
    outer *= (size_t)output_shape->dims[d];
  for (o = 0; o < outer; ++o)
    for (i = 0; i < p->num_inputs; ++i) {
      const size_t bytes = inner_size(input_shapes[i], p->axis) * elem;
      memcpy(out, (const unsigned char *)inputs[i] + o * bytes, bytes);
      out += bytes;
    }
}

void ref_concat_i8(const ref_concat_params *params,
                   const ref_shape *const *input_shapes,
                   const int8_t *const *inputs, const ref_shape *output_shape,
                   int8_t *output) {
  concat_bytes(params, input_shapes, (const void *const *)inputs, output_shape,
               output, 1);
}

void ref_concat_u8(const ref_concat_params *params,
                   const ref_shape *const *input_shapes,
                   const uint8_t *const *inputs, const ref_shape *output_shape,
                   uint8_t *output) {
  concat_bytes(params, input_shapes, (const void *const *)inputs, output_shape,
               output, 1);
}

void ref_concat_f32(const ref_concat_params *params,
                    const ref_shape *const *input_shapes,
                    const float *const *inputs, const ref_shape *output_shape,
                    float *output) {
  concat_bytes(params, input_shapes, (const void *const *)inputs, output_shape,
               output, sizeof(float));
}

void ref_concat_u8_rescale(const ref_concat_params *p,
                           const ref_shape *const *input_shapes,
                           const uint8_t *const *inputs,
                           const ref_shape *output_shape, uint8_t *output) {
  const float inverse_output_scale = 1.0f / p->output_scale;
  size_t outer = 1;
  size_t o, j;
  int32_t d, i;
  for (d = 0; d < p->axis; ++d)
    outer *= (size_t)output_shape->dims[d];
  for (o = 0; o < outer; ++o)
    for (i = 0; i < p->num_inputs; ++i) {
      const size_t n = inner_size(input_shapes[i], p->axis);
      const uint8_t *in = inputs[i] + o * n;
      if (p->input_zero_point[i] == p->output_zero_point &&
          p->input_scale[i] == p->output_scale) {
        memcpy(output, in, n);
      } else {
        const float scale = p->input_scale[i] * inverse_output_scale;
        const float bias = -(float)p->input_zero_point[i] * scale;
        for (j = 0; j < n; ++j) {
          const int32_t v = (int32_t)roundf((float)in[j] * scale + bias) +
                            p->output_zero_point;
          output[j] = ref_saturate_u8(v);
        }
      }
      output += n;
    }
}
