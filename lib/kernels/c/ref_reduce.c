/*===- ref_reduce.c - MEAN reference kernels ------------------------------===*
 *
 * The input's dimensions are split into kept ones (the output's) and reduced
 * ones; an odometer walks the kept dimensions, and for each output element a
 * second odometer walks the reduced ones in row-major order, which is the
 * order TensorFlow Lite accumulates in (it matters for float). No scratch
 * buffer and no index division.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_reduce.h"

/* Dimensions and strides of one group (kept or reduced). */
typedef struct dim_group {
  int32_t n;
  int32_t dims[REF_MAX_RANK];
  int32_t strides[REF_MAX_RANK];
} dim_group;

static void split_dims(const ref_mean_params *p, const ref_shape *shape,
                       dim_group *kept, dim_group *reduced) {
  int32_t strides[REF_MAX_RANK];
  int32_t stride = 1;
  int32_t d;
  for (d = shape->rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape->dims[d];
  }
  kept->n = reduced->n = 0;
  for (d = 0; d < shape->rank; ++d) {
    dim_group *g = (p->axis_mask >> d) & 1u ? reduced : kept;
    g->dims[g->n] = shape->dims[d];
    g->strides[g->n] = strides[d];
    ++g->n;
  }
}

/* Steps the odometer `idx` over group `g`, keeping `*offset` in step; returns
 * 0 after the last position. */
static int group_next(const dim_group *g, int32_t *idx, int32_t *offset) {
  int32_t d;
  for (d = g->n - 1; d >= 0; --d) {
    ++idx[d];
    *offset += g->strides[d];
    if (idx[d] < g->dims[d])
      return 1;
    *offset -= g->strides[d] * g->dims[d];
    idx[d] = 0;
  }
  return 0;
}

static int32_t group_size(const dim_group *g) {
  int32_t n = 1, d;
  for (d = 0; d < g->n; ++d)
    n *= g->dims[d];
  return n;
}

/* Generates the 8-bit kernels; T is the element type, LO / HI its range. */
#define REF_MEAN_8BIT(T, LO, HI)                                               \
  do {                                                                         \
    dim_group kept, reduced;                                                   \
    int32_t kidx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};                           \
    int32_t base = 0, count, out_i = 0;                                        \
    split_dims(params, input_shape, &kept, &reduced);                          \
    count = group_size(&reduced);                                              \
    if (group_size(&kept) == 0 || count == 0)                                  \
      return;                                                                  \
    do {                                                                       \
      int32_t ridx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};                         \
      int32_t off = 0, sum = 0, v;                                             \
      do                                                                       \
        sum += input[base + off];                                              \
      while (group_next(&reduced, ridx, &off));                                \
      if (params->same_quantization)                                           \
        v = sum / count;                                                       \
      else                                                                     \
        v = ref_multiply_by_quantized_multiplier(                              \
                sum - count * params->input_zero_point, params->multiplier,    \
                params->left_shift) +                                          \
            params->output_zero_point;                                         \
      output[out_i++] = (T)ref_clamp_i32(v, LO, HI);                           \
    } while (group_next(&kept, kidx, &base));                                  \
  } while (0)

void ref_mean_i8(const ref_mean_params *params, const ref_shape *input_shape,
                 const int8_t *input, int8_t *output) {
  REF_MEAN_8BIT(int8_t, INT8_MIN, INT8_MAX);
}

void ref_mean_u8(const ref_mean_params *params, const ref_shape *input_shape,
                 const uint8_t *input, uint8_t *output) {
  REF_MEAN_8BIT(uint8_t, 0, UINT8_MAX);
}

void ref_mean_f32(const ref_mean_params *params, const ref_shape *input_shape,
                  const float *input, float *output) {
  dim_group kept, reduced;
  int32_t kidx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
  int32_t base = 0, count, out_i = 0;
  split_dims(params, input_shape, &kept, &reduced);
  count = group_size(&reduced);
  if (group_size(&kept) == 0 || count == 0)
    return;
  do {
    int32_t ridx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};
    int32_t off = 0;
    float sum = 0.0f;
    do
      sum += input[base + off];
    while (group_next(&reduced, ridx, &off));
    output[out_i++] = sum / (float)count;
  } while (group_next(&kept, kidx, &base));
}
