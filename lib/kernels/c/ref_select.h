/*===- ref_select.h - SELECT_V2 reference kernel --------------------------===*
 *
 * Each output element is x's where the condition (bool, one byte) is
 * non-zero, else y's. The three operands broadcast to the output: the
 * parameters hold its dimensions and each operand's element strides in
 * them (0 along a broadcast dimension), so the walk divides nothing. The
 * elements are copied as bytes, so any type moves; the parameter builder
 * asks that x, y and the output share one quantization.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_REF_SELECT_H
#define ACCELGEN_REF_SELECT_H

#include "ref_common.h"
#include "ref_params.h"

#ifdef __cplusplus
extern "C" {
#endif

void ref_select_v2(const ref_select_params *params, size_t element_size,
                   const void *condition, const void *x, const void *y,
                   void *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_REF_SELECT_H */
