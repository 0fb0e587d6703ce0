/*===- ref_transpose.c - TRANSPOSE reference kernel -----------------------===*
 *
 * The permutation walk of ref_permute.h.
 *
 *===----------------------------------------------------------------------===*/
#include "ref_transpose.h"

#include "ref_permute.h"

void ref_transpose(const ref_transpose_params *p, size_t element_size,
                   const ref_shape *input_shape, const void *input,
                   const ref_shape *output_shape, void *output) {
  ref_permute(p->perm, element_size, input_shape, input, output_shape, output);
}
