/*===- accel_functional.h - A functional model of an accelerator ----------===*
 *
 * Runs the subgraphs of an accelerator program (lib/program/
 * accel_program.fbs) the way the program says the accelerator computes them
 * (its target's device semantics, recorded per tensor and operator), with the
 * reference kernels of lib/kernels/c doing the arithmetic, so that what an
 * accelerator would produce can be checked bit for bit on any host:
 *
 *  - every layer runs the input model's operators it stands for, in order,
 *    each with the kernel and parameters the program names (a fused
 *    requantize is the requantize after the convolution, exactly);
 *  - tensors the accelerator stores in another format are converted where
 *    the program says: asymmetric int8 stored as asymmetric uint8 (q + 128,
 *    zero point + 128; MDLA 1.5 does) from the subgraph's inputs to its
 *    outputs, and every kernel reads and writes it through that exact shift;
 *  - operators running in the 16C layout compute on activations whose
 *    channels are padded to a multiple of 16 bytes, then unpadded;
 *  - the estimated cycles of the layers run and of the subgraph's device
 *    switches are added up;
 *  - a striped subgraph (a cascade's operators, docs/cascading.md) runs one
 *    stripe of rows of one operator at a time (accel_run_stripe), its
 *    tensors held as windows of rows that the host slides.
 *
 * The program is read with a small bounds-checked FlatBuffers reader: every
 * offset, length, memory range and operand shape is checked before use, and
 * a malformed program is an error code, never an out-of-bounds access.
 * Little-endian hosts only (the program's constants are used in place).
 * Nothing is allocated: the caller provides the arena the tensors' offsets
 * refer to and the scratch memory the program asks for.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ACCELGEN_ACCEL_FUNCTIONAL_H
#define ACCELGEN_ACCEL_FUNCTIONAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define ACCEL_OK 0
/* The program is malformed: a bad offset, length, index, shape or field. */
#define ACCEL_ERR_PROGRAM 1
/* A tensor lies outside the arena or the scratch memory given. */
#define ACCEL_ERR_MEMORY 2
/* A kernel, conversion or layout this model does not implement, or a
 * big-endian host. */
#define ACCEL_ERR_UNSUPPORTED 3
/* A null pointer or a subgraph index out of range. */
#define ACCEL_ERR_ARGUMENT 4

/* Called after each operator for its result, in the model's own format:
 * the input model's operator index, tensor index, the bytes and their size.
 * Has the signature of an emitted model's <name>_trace. */
typedef void (*accel_trace_fn)(int32_t op, int32_t tensor, const void *data,
                               size_t bytes);

/* The memory a subgraph runs in. */
typedef struct accel_memory {
  /* The host's static arena, which the tensors' arena offsets index. */
  uint8_t *arena;
  size_t arena_bytes;
  /* At least the program's scratch_bytes; 8-byte aligned. */
  uint8_t *scratch;
  size_t scratch_bytes;
  /* The graph inputs the caller keeps in its own buffers (an emitted model
   * compiled with --inputs-in-place), by input index: the tensors whose
   * `input` the program sets are read there. May be null (0 inputs) when
   * the program reads none. */
  const void *const *inputs;
  size_t input_count;
} accel_memory;

/* Runs subgraph `subgraph` of the program of `program_bytes` bytes at
 * `program` (8-byte aligned): reads its inputs from the arena, writes its
 * outputs there. Calls `trace` (may be null) after every operator and adds
 * the subgraph's estimated cycles to *cycles (may be null). Returns ACCEL_OK
 * or an error status; on error the arena's contents are unspecified. A
 * striped subgraph runs only through accel_run_stripe (ACCEL_ERR_ARGUMENT). */
int accel_run_subgraph(const uint8_t *program, size_t program_bytes,
                       int32_t subgraph, const accel_memory *memory,
                       accel_trace_fn trace, double *cycles);

/* How an operator maps rows when it runs stripe by stripe
 * (accel_stripe_rows). */
#define ACCEL_ROWS_NONE (-1)  /* it cannot: it reads whole tensors */
#define ACCEL_ROWS_SAME 0     /* every operand has the result's rows */
#define ACCEL_ROWS_WINDOW 1   /* input 0's rows through a window (conv, pool) */
#define ACCEL_ROWS_SHIFTED 2  /* input 0's rows shifted by padding (PAD) */

/* How the operators of kernel `kernel` map rows in a stripe. */
int accel_stripe_rows(const char *kernel);

/* The mask of data operands of kernel `kernel` whose bytes its result may
 * take in a stripe (bit i: operand i); 0 for an unknown kernel. */
unsigned accel_stripe_overlays(const char *kernel);

/* One stripe of one operator of a striped subgraph: it computes the rows
 * [out_begin, out_end) of its result; a WINDOW or SHIFTED operator reads the
 * rows [in_begin, in_end) of its input 0 with pad_top rows of padding above
 * them (exactly the rows those result rows need), the other operands have
 * the result's rows. first_row[i] is the first row the arena holds of data
 * operand i (the operator's inputs in the program's order, then its result;
 * `operands` of them): 0 for a whole tensor, the row its window starts with
 * for a tensor held as a window of rows. */
typedef struct accel_stripe {
  int32_t out_begin, out_end;
  int32_t in_begin, in_end;
  int32_t pad_top;
  const int32_t *first_row;
  int32_t operands;
} accel_stripe;

/* Runs one stripe of operator `op` (counted through the layers) of striped
 * subgraph `subgraph`: the host runs a striped subgraph's operators a stripe
 * at a time, interleaved with its own, moving the windows' rows. Its
 * inputs and outputs are read and written in the model's format, its
 * intermediates in the accelerator's. Calls `trace` (may be null) for the
 * stripe's rows of the result and adds their share of the layer's estimated
 * cycles to *cycles (may be null), and the subgraph's switch cycles with
 * each stripe of its first operator. Returns ACCEL_OK or an error status;
 * ACCEL_ERR_ARGUMENT for a stripe that is not one the operator's geometry
 * gives or whose rows its operands' buffers do not hold. */
int accel_run_stripe(const uint8_t *program, size_t program_bytes,
                     int32_t subgraph, int32_t op, const accel_stripe *stripe,
                     const accel_memory *memory, accel_trace_fn trace,
                     double *cycles);

/* Checks the whole program without computing anything, for an arena of
 * `arena_bytes` and scratch memory of `scratch_bytes`: everything
 * accel_run_subgraph would check, for every subgraph. */
int accel_check_program(const uint8_t *program, size_t program_bytes,
                        size_t arena_bytes, size_t scratch_bytes);

/* One operand of accel_check_kernel: its element type (the program's DType
 * code), its shape (rank -1: an omitted optional operand) and, for a
 * constant, its bytes (null otherwise). */
typedef struct accel_operand {
  int32_t dtype;
  int32_t rank;
  const int32_t *dims;
  const uint8_t *constant;
} accel_operand;

/* Checks, without a program, what the functional model checks of one
 * operator before running it: kernel `kernel` (see accel_kernel_name) with
 * its parameter struct `params` of `params_bytes` bytes (its pointer fields
 * set), on `count` data inputs and a result. Returns ACCEL_OK, or
 * ACCEL_ERR_PROGRAM (the device would reject the operator) or
 * ACCEL_ERR_UNSUPPORTED (no such kernel) with *why (may be null) set to a
 * sentence saying why, or ACCEL_ERR_ARGUMENT for null pointers or a
 * parameter struct of the wrong size. */
int accel_check_kernel(const char *kernel, const void *params,
                       size_t params_bytes, const accel_operand *inputs,
                       int32_t count, const accel_operand *output,
                       const char **why);

/* The number of subgraphs of a program, or -1 if it is malformed. */
int32_t accel_subgraph_count(const uint8_t *program, size_t program_bytes);

/* "ok", "malformed program", ... */
const char *accel_status_name(int status);

/* The name of the index-th kernel the model can call, or null past the last
 * one. */
const char *accel_kernel_name(int32_t index);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ACCELGEN_ACCEL_FUNCTIONAL_H */
