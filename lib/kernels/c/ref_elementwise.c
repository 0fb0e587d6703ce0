/*===- ref_elementwise.c - ADD, SUB and MUL reference kernels -------------===*
 *
 * Each operator is a scalar function of two int32 (or float) values; one
 * broadcasting walk applies it. The walk runs the last dimension as a tight
 * loop with fixed input strides (0 for a broadcast operand) and steps the
 * outer dimensions with an odometer, so no index is ever divided.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_elementwise.h"

enum { OP_ADD, OP_SUB, OP_MUL };

/* One quantized result from two raw inputs. */
static int32_t quantized_op(const ref_elementwise_params *p, int op, int32_t x1,
                            int32_t x2) {
  int32_t raw;
  if (op == OP_MUL) {
    raw = ref_multiply_by_quantized_multiplier(
        (x1 + p->input1_offset) * (x2 + p->input2_offset), p->output_multiplier,
        p->output_left_shift);
  } else {
    const int32_t a = ref_multiply_by_quantized_multiplier(
        (x1 + p->input1_offset) * (1 << p->input_left_shift),
        p->input1_multiplier, p->input1_left_shift);
    const int32_t b = ref_multiply_by_quantized_multiplier(
        (x2 + p->input2_offset) * (1 << p->input_left_shift),
        p->input2_multiplier, p->input2_left_shift);
    raw = ref_multiply_by_quantized_multiplier(op == OP_ADD ? a + b : a - b,
                                               p->output_multiplier,
                                               p->output_left_shift);
  }
  return ref_clamp_i32(raw + p->output_offset, p->act_min, p->act_max);
}

static float float_op(const ref_elementwise_params *p, int op, float x1,
                      float x2) {
  float v = op == OP_ADD ? x1 + x2 : (op == OP_SUB ? x1 - x2 : x1 * x2);
  v = v < p->act_min_f ? p->act_min_f : v;
  return v > p->act_max_f ? p->act_max_f : v;
}

/* The broadcasting walk, once per element type. */
#define REF_ELEMENTWISE_WALK(T, APPLY)                                         \
  do {                                                                         \
    ref_broadcast bc;                                                          \
    int32_t idx[REF_MAX_RANK] = {0, 0, 0, 0, 0, 0};                            \
    int32_t o1 = 0, o2 = 0, i;                                                 \
    const int32_t inner = output_shape->rank > 0                               \
                              ? output_shape->dims[output_shape->rank - 1]     \
                              : 1;                                             \
    T *out = output;                                                           \
    if (ref_shape_size(output_shape) == 0)                                     \
      return;                                                                  \
    ref_broadcast_init(&bc, input1_shape, input2_shape, output_shape);         \
    do {                                                                       \
      const int32_t s1 = bc.stride1[REF_MAX_RANK - 1];                         \
      const int32_t s2 = bc.stride2[REF_MAX_RANK - 1];                         \
      for (i = 0; i < inner; ++i)                                              \
        out[i] = APPLY(input1[o1 + i * s1], input2[o2 + i * s2]);              \
      out += inner;                                                            \
    } while (ref_broadcast_next_row(&bc, idx, &o1, &o2));                      \
  } while (0)

#define APPLY_I8(a, b) (int8_t) quantized_op(params, op, (a), (b))
#define APPLY_U8(a, b) (uint8_t) quantized_op(params, op, (a), (b))
#define APPLY_F32(a, b) float_op(params, op, (a), (b))

static void walk_i8(const ref_elementwise_params *params, int op,
                    const ref_shape *input1_shape, const int8_t *input1,
                    const ref_shape *input2_shape, const int8_t *input2,
                    const ref_shape *output_shape, int8_t *output) {
  REF_ELEMENTWISE_WALK(int8_t, APPLY_I8);
}

static void walk_u8(const ref_elementwise_params *params, int op,
                    const ref_shape *input1_shape, const uint8_t *input1,
                    const ref_shape *input2_shape, const uint8_t *input2,
                    const ref_shape *output_shape, uint8_t *output) {
  REF_ELEMENTWISE_WALK(uint8_t, APPLY_U8);
}

static void walk_f32(const ref_elementwise_params *params, int op,
                     const ref_shape *input1_shape, const float *input1,
                     const ref_shape *input2_shape, const float *input2,
                     const ref_shape *output_shape, float *output) {
  REF_ELEMENTWISE_WALK(float, APPLY_F32);
}

void ref_add_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output) {
  walk_i8(params, OP_ADD, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_add_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output) {
  walk_u8(params, OP_ADD, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_add_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output) {
  walk_f32(params, OP_ADD, input1_shape, input1, input2_shape, input2,
           output_shape, output);
}

void ref_sub_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output) {
  walk_i8(params, OP_SUB, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_sub_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output) {
  walk_u8(params, OP_SUB, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_sub_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output) {
  walk_f32(params, OP_SUB, input1_shape, input1, input2_shape, input2,
           output_shape, output);
}

void ref_mul_i8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const int8_t *input1,
                const ref_shape *input2_shape, const int8_t *input2,
                const ref_shape *output_shape, int8_t *output) {
  walk_i8(params, OP_MUL, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_mul_u8(const ref_elementwise_params *params,
                const ref_shape *input1_shape, const uint8_t *input1,
                const ref_shape *input2_shape, const uint8_t *input2,
                const ref_shape *output_shape, uint8_t *output) {
  walk_u8(params, OP_MUL, input1_shape, input1, input2_shape, input2,
          output_shape, output);
}

void ref_mul_f32(const ref_elementwise_params *params,
                 const ref_shape *input1_shape, const float *input1,
                 const ref_shape *input2_shape, const float *input2,
                 const ref_shape *output_shape, float *output) {
  walk_f32(params, OP_MUL, input1_shape, input1, input2_shape, input2,
           output_shape, output);
}
