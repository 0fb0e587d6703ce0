/*===- ref_space_depth.c - SPACE_TO_DEPTH and DEPTH_TO_SPACE kernels -------===*
 *
 * Both are one 6-D transpose: [N, H, b, W, b, C] (the spatial side, each
 * spatial dimension split into blocks and the row or column within one) and
 * [N, H, W, b, b, C] (the channel side) are each other with dimensions 2 and
 * 3 swapped.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_space_depth.h"

#include "ref_permute.h"

#include <assert.h>

/* The 6-D views of the spatial side (n, h, w, c of the blocks' grid) and of
 * the channel side, then the swap of dimensions 2 and 3. */
static void swap_blocks(int32_t b, int32_t n, int32_t h, int32_t w, int32_t c,
                        int to_depth, size_t element_size, const void *input,
                        void *output) {
  const ref_shape spatial = {6, {n, h, b, w, b, c}};
  const ref_shape depth = {6, {n, h, w, b, b, c}};
  static const int32_t swap[6] = {0, 1, 3, 2, 4, 5};
  ref_permute(swap, element_size, to_depth ? &spatial : &depth, input,
              to_depth ? &depth : &spatial, output);
}

void ref_space_to_depth(const ref_space_depth_params *p, size_t element_size,
                        const ref_shape *input_shape, const void *input,
                        const ref_shape *output_shape, void *output) {
  assert(input_shape->rank == 4 && output_shape->rank == 4 &&
         p->block_size > 0);
  swap_blocks(p->block_size, output_shape->dims[0], output_shape->dims[1],
              output_shape->dims[2], input_shape->dims[3], 1, element_size,
              input, output);
}

void ref_depth_to_space(const ref_space_depth_params *p, size_t element_size,
                        const ref_shape *input_shape, const void *input,
                        const ref_shape *output_shape, void *output) {
  assert(input_shape->rank == 4 && output_shape->rank == 4 &&
         p->block_size > 0);
  swap_blocks(p->block_size, input_shape->dims[0], input_shape->dims[1],
              input_shape->dims[2], output_shape->dims[3], 0, element_size,
              input, output);
}
