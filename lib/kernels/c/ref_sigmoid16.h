/*===- ref_sigmoid16.h - int16 sigmoid and tanh by table interpolation ---===*
 *
 * TensorFlow Lite's int16 LOGISTIC and TANH (and the int16 gates of its
 * integer LSTM) interpolate one table of sigmoid(i / 24), i = 0..255, in
 * unsigned Q0.16; TANH reads it through tanh(x) = 2 sigmoid(2x) - 1. The
 * entries are not all the nearest Q0.16 values (no closed formula gives
 * them all), so the table is what TensorFlow Lite Micro computes: each entry
 * was read off the oracle's int16 TANH, where an input on an entry returns
 * that entry less 32768 (tests/e2e/Int16OracleTest.cpp checks every entry
 * that way on every target).
 *
 * The input reaches the table's scale, 1 / (3 * 4096) (2^17 is 10.7), as
 * (x * multiplier + round) >> right_shift: a Q3.12 input is multiplier 3,
 * shift 0. Right shifts of negative values are arithmetic.
 *
 *===----------------------------------------------------------------------===*/
#ifndef REF_SIGMOID16_H
#define REF_SIGMOID16_H

#include <stdint.h>

static const uint16_t ref_sigmoid16_table[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841,
    39498, 40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102,
    45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464,
    50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755,
    55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007,
    58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036,
    62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968,
    64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494,
    64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337,
    65345, 65352, 65360, 65367, 65374, 65381, 65387, 65393, 65399, 65404,
    65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479,
    65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511,
    65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520,
    65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525, 65525,
    65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531,
    65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65535};

static inline int32_t ref_sigmoid16_input(int16_t x, int32_t multiplier,
                                          int32_t right_shift) {
  const int32_t round = right_shift > 0 ? (int32_t)1 << (right_shift - 1) : 0;
  return ((int32_t)x * multiplier + round) >> right_shift;
}

/* |v| interpolated in the table with `bits` fractional bits of index: the
 * result has 16 + bits fractional bits; `saturated` past the last entry.
 * |v| < 2^31 here (|x * multiplier| < 2^30). */
static inline uint32_t ref_sigmoid16_lookup(int32_t v, int bits,
                                            uint32_t saturated) {
  const uint32_t magnitude = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
  const uint32_t index = magnitude >> bits;
  const uint32_t fraction = magnitude & ((1u << bits) - 1u);
  uint32_t low, high;
  if (index >= 255)
    return saturated;
  low = ref_sigmoid16_table[index];
  high = ref_sigmoid16_table[index + 1];
  return (low << bits) + fraction * (high - low);
}

/* sigmoid(x) in Q0.15: the table at 9 fractional index bits (the scale's
 * factor 4 folded in), rounded back to 16 bits; a negative input mirrors,
 * 1 - sigmoid(|x|). */
static inline int16_t ref_sigmoid16(int16_t x, int32_t multiplier,
                                    int32_t right_shift) {
  const int32_t v = ref_sigmoid16_input(x, multiplier, right_shift);
  uint32_t r = ref_sigmoid16_lookup(v, 9, 0x7FFFu << 10);
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int16_t)(r >> 10);
}

/* tanh(x) = 2 sigmoid(2x) - 1 in Q0.15: the table at 8 fractional index
 * bits, recentred and rounded back to 16 bits; odd in x. */
static inline int16_t ref_tanh16(int16_t x, int32_t multiplier,
                                 int32_t right_shift) {
  const int32_t v = ref_sigmoid16_input(x, multiplier, right_shift);
  const int32_t r = (int32_t)ref_sigmoid16_lookup(v, 8, 0xFFFFu << 8);
  const int32_t centred =
      v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)(centred >> 8);
}

#endif /* REF_SIGMOID16_H */
