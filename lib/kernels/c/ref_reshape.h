/*===- ref_reshape.h - RESHAPE, SQUEEZE and EXPAND_DIMS -------------------===*
 *
 * Operators that only relabel the shape of a row-major tensor: the bytes are
 * unchanged. The memory planner normally aliases input and output and emits
 * no call; where it cannot, this copy is the kernel.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_RESHAPE_H
#define ACCELGEN_REF_RESHAPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies `bytes` bytes from input to output; the two may be the same buffer
 * (then nothing is done) but must not otherwise overlap. */
void ref_reshape(size_t bytes, const void *input, void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_RESHAPE_H */
