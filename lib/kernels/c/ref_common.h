/*===- ref_common.h - Shapes and shared pieces of the reference kernels ---===*
 *
 * The shape type every kernel takes, and the few helpers more than one
 * operator family uses (element counts, broadcast strides). Tensors are dense,
 * row-major (the last dimension varies fastest); 4-D activations are NHWC.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_COMMON_H
#define ACCELGEN_REF_COMMON_H

#include "ref_fixedpoint.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest rank any kernel accepts (TensorFlow Lite's limit for
 * broadcasting, transposing and slicing). */
#define REF_MAX_RANK 6

/* A tensor shape: `rank` dimensions in dims[0 .. rank-1], each >= 0. */
typedef struct ref_shape {
  int32_t rank;
  int32_t dims[REF_MAX_RANK];
} ref_shape;

/* The number of elements of a shape (1 for rank 0). */
static inline int32_t ref_shape_size(const ref_shape *shape) {
  int32_t n = 1;
  int32_t i;
  for (i = 0; i < shape->rank; ++i)
    n *= shape->dims[i];
  return n;
}

/* Dimension `i` counted from the end (0 is the last), 1 past the rank: how
 * lower-rank shapes line up with higher-rank ones when broadcasting. */
static inline int32_t ref_shape_dim_from_end(const ref_shape *shape,
                                             int32_t i) {
  return i < shape->rank ? shape->dims[shape->rank - 1 - i] : 1;
}

/* An output shape with the element strides of two inputs broadcast to it,
 * all padded to REF_MAX_RANK dimensions (leading ones); a broadcast
 * dimension has stride 0. */
typedef struct ref_broadcast {
  int32_t dims[REF_MAX_RANK];
  int32_t stride1[REF_MAX_RANK];
  int32_t stride2[REF_MAX_RANK];
} ref_broadcast;

/* Fills `b` for inputs of shapes `in1`, `in2` and output `out`. Every input
 * dimension is 1 or equal to the output's (the caller's contract). */
static inline void ref_broadcast_init(ref_broadcast *b, const ref_shape *in1,
                                      const ref_shape *in2,
                                      const ref_shape *out) {
  int32_t s1 = 1, s2 = 1;
  int32_t i;
  for (i = 0; i < REF_MAX_RANK; ++i) {
    const int32_t d = REF_MAX_RANK - 1 - i;
    const int32_t n1 = ref_shape_dim_from_end(in1, i);
    const int32_t n2 = ref_shape_dim_from_end(in2, i);
    b->dims[d] = ref_shape_dim_from_end(out, i);
    b->stride1[d] = n1 == 1 ? 0 : s1;
    b->stride2[d] = n2 == 1 ? 0 : s2;
    s1 *= n1;
    s2 *= n2;
  }
}

/* Advances the multi-index `idx` over `b->dims` past its last dimension
 * (which the caller iterates itself) and returns the input offsets of the new
 * row in *o1 and *o2; returns 0 when the iteration is over. */
static inline int ref_broadcast_next_row(const ref_broadcast *b, int32_t *idx,
                                         int32_t *o1, int32_t *o2) {
  int32_t d;
  for (d = REF_MAX_RANK - 2; d >= 0; --d) {
    ++idx[d];
    *o1 += b->stride1[d];
    *o2 += b->stride2[d];
    if (idx[d] < b->dims[d])
      return 1;
    *o1 -= b->stride1[d] * b->dims[d];
    *o2 -= b->stride2[d] * b->dims[d];
    idx[d] = 0;
  }
  return 0;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_COMMON_H */
