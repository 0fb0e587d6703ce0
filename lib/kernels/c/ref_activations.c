/*===- ref_activations.c - Standalone activation reference kernels --------===*/
#include "ref_activations.h"

#include <math.h>

/* --- RELU family ---------------------------------------------------------- */

static int32_t relu_one(const ref_relu_params *p, int32_t x) {
  const int32_t v =
      ref_multiply_by_quantized_multiplier(
          x - p->input_zero_point, p->output_multiplier, p->output_left_shift) +
      p->output_zero_point;
  return ref_clamp_i32(v, p->act_min, p->act_max);
}

void ref_relu_i8(const ref_relu_params *params, int32_t count,
                 const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (int8_t)relu_one(params, input[i]);
}

void ref_relu_u8(const ref_relu_params *params, int32_t count,
                 const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = (uint8_t)relu_one(params, input[i]);
}

void ref_relu_f32(const ref_relu_params *params, int32_t count,
                  const float *input, float *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    float v = input[i];
    v = v < params->act_min_f ? params->act_min_f : v;
    output[i] = v > params->act_max_f ? params->act_max_f : v;
  }
}

/* --- LEAKY_RELU ----------------------------------------------------------- */

static int32_t leaky_relu_one(const ref_leaky_relu_params *p, int32_t x) {
  const int32_t centred = x - p->input_zero_point;
  const int32_t scaled =
      centred >= 0
          ? ref_multiply_by_quantized_multiplier(
                centred, p->identity_multiplier, p->identity_left_shift)
          : ref_multiply_by_quantized_multiplier(centred, p->alpha_multiplier,
                                                 p->alpha_left_shift);
  return scaled + p->output_zero_point;
}

void ref_leaky_relu_i8(const ref_leaky_relu_params *params, int32_t count,
                       const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_i8(leaky_relu_one(params, input[i]));
}

void ref_leaky_relu_u8(const ref_leaky_relu_params *params, int32_t count,
                       const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_u8(leaky_relu_one(params, input[i]));
}

void ref_leaky_relu_f32(const ref_leaky_relu_params *params, int32_t count,
                        const float *input, float *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = input[i] > 0.0f ? input[i] : input[i] * params->alpha;
}

/* --- HARD_SWISH ----------------------------------------------------------- */

/* The unclamped int16 result before the output zero point. Invariants:
 * |x - zp| <= 255, so the hi-res value (times 2^7) fits int16; every
 * intermediate below is int16 as in TensorFlow Lite. */
static int32_t hard_swish_one(const ref_hard_swish_params *p, int32_t x) {
  const int16_t centred = (int16_t)(x - p->input_zero_point);
  const int16_t hires = (int16_t)(centred * (1 << 7));
  /* The input on the output scale, before the final right shift. */
  const int16_t preshift_output = ref_srdhm_i16(hires, p->output_multiplier);
  int16_t reluish = hires;
  int16_t preshift_result;
  /* Rescale to "3.0 is 2^15", saturating: left shifts in two steps so that
   * only the last one can saturate. */
  if (p->reluish_left_shift > 0)
    reluish = ref_saturating_left_shift_i16(reluish, p->reluish_left_shift - 1);
  reluish = ref_srdhm_i16(reluish, p->reluish_multiplier);
  if (p->reluish_left_shift > 0)
    reluish = ref_saturating_left_shift_i16(reluish, 1);
  if (p->reluish_left_shift < 0)
    reluish =
        (int16_t)ref_rounding_divide_by_pot(reluish, -p->reluish_left_shift);
  /* From [-1, 1] (Q0.15) to [0, 1]. */
  reluish = (int16_t)((reluish + (1 << 15)) >> 1);
  /* Truncating (not rounding) multiply: cancels the bias of the rounding
   * ones above, as TensorFlow Lite does. */
  preshift_result = ref_sdhm_i16(reluish, preshift_output);
  return ref_rounding_divide_by_pot(preshift_result, -p->output_left_shift) +
         p->output_zero_point;
}

void ref_hard_swish_i8(const ref_hard_swish_params *params, int32_t count,
                       const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_i8(hard_swish_one(params, input[i]));
}

void ref_hard_swish_u8(const ref_hard_swish_params *params, int32_t count,
                       const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i)
    output[i] = ref_saturate_u8(hard_swish_one(params, input[i]));
}

void ref_hard_swish_f32(const ref_hard_swish_params *params, int32_t count,
                        const float *input, float *output) {
  int32_t i;
  (void)params;
  for (i = 0; i < count; ++i) {
    const float x = input[i];
    float r = x + 3.0f;
    r = r < 0.0f ? 0.0f : (r > 6.0f ? 6.0f : r);
    output[i] = x * r / 6.0f;
  }
}

/* --- LOGISTIC and TANH ---------------------------------------------------- */

/* The Q4.27 value of a centred input strictly inside the radius. */
static int32_t sigmoid_input_q4(const ref_sigmoid_params *p, int32_t centred) {
  return ref_multiply_by_quantized_multiplier(centred, p->input_multiplier,
                                              p->input_left_shift);
}

void ref_logistic_i8(const ref_sigmoid_params *params, int32_t count,
                     const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    const int32_t centred = input[i] - params->input_zero_point;
    if (centred <= -params->input_range_radius) {
      output[i] = INT8_MIN;
    } else if (centred >= params->input_range_radius) {
      output[i] = INT8_MAX;
    } else {
      /* Q0.31 -> 8 fractional bits, then the -128 zero point. */
      const int32_t q0 = ref_logistic_q4(sigmoid_input_q4(params, centred));
      output[i] = ref_saturate_i8(ref_rounding_divide_by_pot(q0, 23) - 128);
    }
  }
}

void ref_logistic_u8(const ref_sigmoid_params *params, int32_t count,
                     const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    const int32_t centred = input[i] - params->input_zero_point;
    if (centred <= -params->input_range_radius) {
      output[i] = 0;
    } else if (centred >= params->input_range_radius) {
      output[i] = UINT8_MAX;
    } else {
      const int32_t q0 = ref_logistic_q4(sigmoid_input_q4(params, centred));
      int32_t v = ref_rounding_divide_by_pot(q0, 23);
      /* 1.0 itself (256) is not representable: 255. */
      output[i] = (uint8_t)(v == 256 ? 255 : v);
    }
  }
}

/* 1 / (1 + exp(-x)), with TensorFlow Lite's reference cut-offs: 1 above
 * 16.619047 (where the float result rounds to 1), exp(x) below -9 (where
 * 1 + exp(-x) loses exp(x)'s precision). */
void ref_logistic_f32(const ref_sigmoid_params *params, int32_t count,
                      const float *input, float *output) {
  int32_t i;
  (void)params;
  for (i = 0; i < count; ++i) {
    const float x = input[i];
    if (x > 16.619047164916992188f)
      output[i] = 1.0f;
    else if (x < -9.0f)
      output[i] = expf(x);
    else
      output[i] = 1.0f / (1.0f + expf(-x));
  }
}

void ref_tanh_i8(const ref_sigmoid_params *params, int32_t count,
                 const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    const int32_t centred = input[i] - params->input_zero_point;
    if (centred <= -params->input_range_radius) {
      output[i] = INT8_MIN;
    } else if (centred >= params->input_range_radius) {
      output[i] = INT8_MAX;
    } else {
      /* Q0.31 -> 7 fractional bits (scale 1/128, zero point 0). */
      const int32_t q0 = ref_tanh_q4(sigmoid_input_q4(params, centred));
      output[i] = ref_saturate_i8(ref_rounding_divide_by_pot(q0, 24));
    }
  }
}

void ref_tanh_u8(const ref_sigmoid_params *params, int32_t count,
                 const uint8_t *input, uint8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    const int32_t centred = input[i] - params->input_zero_point;
    if (centred <= -params->input_range_radius) {
      output[i] = 0;
    } else if (centred >= params->input_range_radius) {
      output[i] = UINT8_MAX;
    } else {
      const int32_t q0 = ref_tanh_q4(sigmoid_input_q4(params, centred));
      const int32_t v = ref_rounding_divide_by_pot(q0, 24) + 128;
      output[i] = (uint8_t)(v == 256 ? 255 : v);
    }
  }
}

void ref_tanh_f32(const ref_sigmoid_params *params, int32_t count,
                  const float *input, float *output) {
  int32_t i;
  (void)params;
  for (i = 0; i < count; ++i)
    output[i] = tanhf(input[i]);
}
