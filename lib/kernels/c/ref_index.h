/*===- ref_index.h - Index and shape reference kernels --------------------===*
 *
 * Kernels that move elements by computed positions, or compute shapes:
 *
 * - BROADCAST_TO copies the input to every position of the output it
 *   broadcasts to (the parameters hold the output's dimensions and the
 *   input's element strides in them, 0 along a broadcast dimension).
 * - GATHER_ND copies, for each row of int32 indices, the slice of the
 *   params tensor those indices select, as TensorFlow Lite Micro's GatherNd:
 *   the flat position is the sum of index times stride; a position that
 *   falls outside the tensor (where Micro fails) gives a zero slice.
 * - EMBEDDING_LOOKUP of int8 rows into float32 writes (v - 0) * scale per
 *   element, as Micro's Dequantize; an index outside the rows (where Micro
 *   fails) gives a zero row.
 * - DYNAMIC_UPDATE_SLICE copies the operand and writes the update at the
 *   start indices (int32 or int64 at run time), each clamped to
 *   [0, operand - update] as Micro's CalculateClampedStartIndices does; an
 *   update as large as the operand replaces it.
 * - SHAPE writes the input's dimensions (known when compiling) as int32.
 * - BROADCAST_ARGS writes the shape two int32 or int64 shapes broadcast to:
 *   per dimension from the last, the one that is not 1 (the first when
 *   both are not 1, where TensorFlow Lite leaves the result undefined).
 *
 * Elements are copied as bytes of `element_size`.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_INDEX_H
#define ACCELGEN_REF_INDEX_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

void ref_broadcast_to(const ref_broadcast_to_params *params,
                      size_t element_size, const void *input, void *output);
void ref_embedding_dequantize(const ref_embedding_dequantize_params *params,
                              const void *lookup, const void *value,
                              void *output);
void ref_gather_nd(const ref_gather_nd_params *params, size_t element_size,
                   const void *input, const void *indices, void *output);
void ref_dynamic_update_slice(const ref_dynamic_update_slice_params *params,
                              size_t element_size, const void *operand,
                              const void *update, const void *start,
                              void *output);
void ref_shape_of(const ref_shape_of_params *params, const void *input,
                  void *output);
void ref_broadcast_args(const ref_broadcast_args_params *params,
                        const void *shape1, const void *shape2, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_INDEX_H */
