/*===- accel_functional.c - A functional model of an accelerator ----------===*
 *
 * Three parts: a bounds-checked reader for the accelerator program's
 * FlatBuffers (tables, scalars, vectors, strings; field numbers follow the
 * order of lib/program/accel_program.fbs), the decoding of one operator
 * (tensors, kernel, parameters, and the checks that make the kernel's view of
 * memory safe; the kernel families, their parameter fields, operands and
 * calls come from the kernel table generated from defs/kernels.td,
 * ref_kernel_table.inc, after the target's own families' rows,
 * accel_target_kernels.inc), and the execution of a subgraph (conversions, 16C padding,
 * kernel calls, traces, cycles). Errors are sticky in the reader: the first
 * one is kept and every later read returns a default, so the code checks the
 * status at a few points rather than after every read.
 *
 *===----------------------------------------------------------------------===*/
#include "accel_functional.h"
#include "accel_program_fields.h"

#include "ref_kernels.h"
/* The target's own kernel families (none unless accelgen wrote them). */
#define ACCEL_TARGET_KERNEL_HEADERS
#include "accel_target_kernels.inc"

#include <string.h>

/*===----------------------------------------------------------------------===*
 * The FlatBuffers reader
 *===----------------------------------------------------------------------===*/

typedef struct reader {
  const uint8_t *p;
  size_t n;
  int status;
} reader;

static void fail(reader *r, int status) {
  if (r->status == ACCEL_OK)
    r->status = status;
}

/* The bytes [pos, pos + size) are inside the buffer. */
static int in_buffer(reader *r, size_t pos, size_t size) {
  if (pos > r->n || r->n - pos < size) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  return 1;
}

static uint32_t rd_u32(reader *r, size_t pos) {
  uint32_t v = 0;
  if (in_buffer(r, pos, 4))
    memcpy(&v, r->p + pos, 4);
  return v;
}

static uint16_t rd_u16(reader *r, size_t pos) {
  uint16_t v = 0;
  if (in_buffer(r, pos, 2))
    memcpy(&v, r->p + pos, 2);
  return v;
}

/* A table: its position, its vtable's position and both sizes; pos 0 is an
 * absent table (no table can start at 0, where the root offset is). */
typedef struct fb_table {
  size_t pos, vt;
  uint32_t vt_len, len;
} fb_table;

static fb_table fb_table_at(reader *r, size_t pos) {
  fb_table t = {0, 0, 0, 0};
  int64_t vt;
  if (r->status || pos == 0)
    return t;
  vt = (int64_t)pos - (int64_t)(int32_t)rd_u32(r, pos);
  if (vt < 0 || (uint64_t)vt >= r->n) {
    fail(r, ACCEL_ERR_PROGRAM);
    return t;
  }
  t.vt = (size_t)vt;
  t.vt_len = rd_u16(r, t.vt);
  t.len = rd_u16(r, t.vt + 2);
  if (r->status || t.vt_len < 4 || (t.vt_len & 1u) ||
      !in_buffer(r, t.vt, t.vt_len) || t.len < 4 || !in_buffer(r, pos, t.len))
    return t;
  t.pos = pos;
  return t;
}

/* The position of field `id` holding `size` bytes, or 0 when absent. */
static size_t fb_field(reader *r, const fb_table *t, int id, size_t size) {
  const size_t vo = 4 + 2 * (size_t)id;
  uint16_t o;
  if (r->status || !t->pos || vo + 2 > t->vt_len)
    return 0;
  o = rd_u16(r, t->vt + vo);
  if (!o)
    return 0;
  if ((size_t)o + size > t->len) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  return t->pos + o;
}

#define FB_SCALAR(name, type)                                                  \
  static type name(reader *r, const fb_table *t, int id, type def) {           \
    type v = def;                                                              \
    size_t p = fb_field(r, t, id, sizeof(type));                               \
    if (p)                                                                     \
      memcpy(&v, r->p + p, sizeof(type));                                      \
    return v;                                                                  \
  }
FB_SCALAR(fb_i8, int8_t)
FB_SCALAR(fb_i32, int32_t)
FB_SCALAR(fb_i64, int64_t)
FB_SCALAR(fb_f64, double)
#undef FB_SCALAR

/* The target of the offset in field `id`, or 0 when absent. */
static size_t fb_ref(reader *r, size_t at) {
  uint32_t off;
  if (!at)
    return 0;
  off = rd_u32(r, at);
  if (r->status)
    return 0;
  if (off == 0 || off > r->n - at) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  return at + off;
}

/* A vector (or string): where its elements start and how many there are. */
typedef struct fb_vec {
  size_t data;
  uint32_t len;
} fb_vec;

static fb_vec fb_vector_at(reader *r, size_t pos, size_t elem) {
  fb_vec v = {0, 0};
  uint32_t len;
  if (!pos)
    return v;
  len = rd_u32(r, pos);
  if (r->status)
    return v;
  if ((size_t)len > (r->n - pos - 4) / elem) {
    fail(r, ACCEL_ERR_PROGRAM);
    return v;
  }
  v.data = pos + 4;
  v.len = len;
  return v;
}

static fb_vec fb_vector(reader *r, const fb_table *t, int id, size_t elem) {
  return fb_vector_at(r, fb_ref(r, fb_field(r, t, id, 4)), elem);
}

static int32_t vec_i32(reader *r, fb_vec v, uint32_t i) {
  int32_t x = 0;
  if (i < v.len && in_buffer(r, v.data + 4 * (size_t)i, 4))
    memcpy(&x, r->p + v.data + 4 * (size_t)i, 4);
  return x;
}

static fb_table vec_table(reader *r, fb_vec v, uint32_t i) {
  fb_table none = {0, 0, 0, 0};
  if (i >= v.len) {
    fail(r, ACCEL_ERR_PROGRAM);
    return none;
  }
  return fb_table_at(r, fb_ref(r, v.data + 4 * (size_t)i));
}

/* A vector of int32 or float used in place: non-null, aligned, and of
 * exactly `expected` elements. */
static const void *vec_in_place(reader *r, fb_vec v, uint32_t expected) {
  if (r->status)
    return NULL;
  if (v.len != expected || ((uintptr_t)(r->p + v.data) & 3u)) {
    fail(r, ACCEL_ERR_PROGRAM);
    return NULL;
  }
  return r->p + v.data;
}

/* True if the string `v` is `s`. */
static int str_eq(reader *r, fb_vec v, const char *s) {
  const size_t n = strlen(s);
  return !r->status && v.len == n && memcmp(r->p + v.data, s, n) == 0;
}

/*===----------------------------------------------------------------------===*
 * Field numbers and enum values (generated from accel_program.fbs)
 *===----------------------------------------------------------------------===*/

/* accel_program_fields.h, generated from accel_program.fbs, numbers every
 * table's fields (ACCEL_FB_<TABLE>_<FIELD>) and the enums' values; the
 * short names below are this file's. */
enum { P_SUBGRAPHS = ACCEL_FB_PROGRAM_SUBGRAPHS, P_BUFFERS = ACCEL_FB_PROGRAM_BUFFERS };
enum { B_DATA = ACCEL_FB_BUFFER_DATA };
enum {
  S_TENSORS = ACCEL_FB_SUBGRAPH_TENSORS,
  S_INPUTS = ACCEL_FB_SUBGRAPH_INPUTS,
  S_OUTPUTS = ACCEL_FB_SUBGRAPH_OUTPUTS,
  S_CONVERT_IN = ACCEL_FB_SUBGRAPH_CONVERT_IN,
  S_CONVERT_OUT = ACCEL_FB_SUBGRAPH_CONVERT_OUT,
  S_LAYERS = ACCEL_FB_SUBGRAPH_LAYERS,
  S_SWITCH_CYCLES = ACCEL_FB_SUBGRAPH_SWITCH_CYCLES,
  S_SCRATCH_BYTES = ACCEL_FB_SUBGRAPH_SCRATCH_BYTES,
  S_STRIPED = ACCEL_FB_SUBGRAPH_STRIPED
};
enum { L_OPS = ACCEL_FB_LAYER_OPS, L_CYCLES = ACCEL_FB_LAYER_CYCLES };
enum {
  O_SOURCE_INDEX = ACCEL_FB_OP_SOURCE_INDEX,
  O_KERNEL = ACCEL_FB_OP_KERNEL,
  O_PARAMS = ACCEL_FB_OP_PARAMS,
  O_INPUTS = ACCEL_FB_OP_INPUTS,
  O_OUTPUTS = ACCEL_FB_OP_OUTPUTS,
  O_CHANNEL_ALIGN = ACCEL_FB_OP_CHANNEL_ALIGN
};
enum {
  T_ID = ACCEL_FB_TENSOR_ID,
  T_DTYPE = ACCEL_FB_TENSOR_DTYPE,
  T_SHAPE = ACCEL_FB_TENSOR_SHAPE,
  T_DEVICE_DTYPE = ACCEL_FB_TENSOR_DEVICE_DTYPE,
  T_BYTES = ACCEL_FB_TENSOR_BYTES,
  T_ARENA_OFFSET = ACCEL_FB_TENSOR_ARENA_OFFSET,
  T_MEMORY = ACCEL_FB_TENSOR_MEMORY,
  T_DEVICE_OFFSET = ACCEL_FB_TENSOR_DEVICE_OFFSET,
  T_BUFFER = ACCEL_FB_TENSOR_BUFFER,
  T_HELD_ROWS = ACCEL_FB_TENSOR_HELD_ROWS,
  T_INPUT = ACCEL_FB_TENSOR_INPUT
};

/* Element types and memories, as in the schema. */
enum {
  DT_I8 = ACCEL_FB_DTYPE_I8,
  DT_U8 = ACCEL_FB_DTYPE_U8,
  DT_I16 = ACCEL_FB_DTYPE_I16,
  DT_I32 = ACCEL_FB_DTYPE_I32,
  DT_I64 = ACCEL_FB_DTYPE_I64,
  DT_F16 = ACCEL_FB_DTYPE_F16,
  DT_F32 = ACCEL_FB_DTYPE_F32,
  DT_BOOL = ACCEL_FB_DTYPE_BOOL,
  DT_U32 = ACCEL_FB_DTYPE_U32
};
#define DT_ANY (-1)
/* The C type of each element type of the kernel table. */
#define CT_I8 int8_t
#define CT_U8 uint8_t
#define CT_I16 int16_t
#define CT_I32 int32_t
#define CT_I64 int64_t
#define CT_F32 float
#define CT_BOOL uint8_t
#define CT_U32 uint32_t
#define CT_ANY void
enum {
  MEM_ARENA = ACCEL_FB_MEMORY_ARENA,
  MEM_SCRATCH = ACCEL_FB_MEMORY_SCRATCH,
  MEM_CONSTANT = ACCEL_FB_MEMORY_CONSTANT
};

static size_t dtype_size(int t) {
  switch (t) {
  case DT_I8:
  case DT_U8:
  case DT_BOOL:
    return 1;
  case DT_I16:
  case DT_F16:
    return 2;
  case DT_I32:
  case DT_U32:
  case DT_F32:
    return 4;
  case DT_I64:
    return 8;
  default:
    return 0;
  }
}

/*===----------------------------------------------------------------------===*
 * The kernels
 *===----------------------------------------------------------------------===*/

/* Kernel families, numbered from 1 in the kernel table's order. */
enum {
  FAM_NONE = 0,
#define REF_KERNEL_FAMILY(name, st, header, builder, by_value, may_alias)     \
  FAM_##name,
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  FAM_COUNT
};

/* How many families are the target's own (FAM_1 to FAM_TARGET_FAMILIES):
 * their rows come first. */
enum {
  FAM_TARGET_FAMILIES = 0
#define REF_KERNEL_FAMILY(name, st, header, builder, by_value, may_alias)     \
  +1
#include "accel_target_kernels.inc"
#undef REF_KERNEL_FAMILY
};

/* How many data operands each family's kernels read. */
typedef struct family_info {
  int32_t min_operands, max_operands;
  /* Any number of operands up to ACCEL_MAX_OPERANDS, all of one type. */
  int variadic;
} family_info;

static const family_info families[FAM_COUNT] = {
    {0, 0, 0},
#define REF_KERNEL_OPERANDS(name, min, max, variadic) {min, max, variadic},
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
};

/* Argument kinds of the kernel table's ARG rows. */
enum {
  ARGK_PARAMS,
  ARGK_FIELDS,
  ARGK_SHAPE,
  ARGK_DATA,
  ARGK_OUTPUT_SHAPE,
  ARGK_OUTPUT,
  ARGK_COUNT,
  ARGK_ELEMENT_SIZE,
  ARGK_INPUT_SHAPES,
  ARGK_INPUTS,
  ARGK_STATE,
  ARGK_RESULT,
  ARGK_SCRATCH
};

/* False for a family whose kernels write several results at once or need
 * working memory: a program operator has one result and no scratch of its
 * own. */
static int family_runs_here(int family) {
#define REF_KERNEL_ARG(fam, st, kind, operand, name)                           \
  if (family == FAM_##fam &&                                                   \
      (ARGK_##kind == ARGK_RESULT || ARGK_##kind == ARGK_SCRATCH))             \
    return 0;
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  return 1;
}

static int family_may_alias(int family) {
  switch (family) {
#define REF_KERNEL_FAMILY(name, st, header, builder, by_value, may_alias)     \
  case FAM_##name:                                                             \
    return may_alias;
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  default:
    return 0;
  }
}

/* Every kernel: its family and the element types of data operands 0 to 2
 * (input, weights or second operand, bias) and of the result. DT_ANY:
 * unused, or kernels that move bytes. */
enum {
#define REF_KERNEL_FUNCTION(name, fam, st, type, out, variant, t0, t1, t2,    \
                            res)                                               \
  K_##name,
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  K_COUNT
};

typedef struct kernel_info {
  const char *name;
  int family;
  int in_type, weight_type, bias_type, out_type;
  /* A variant ("per_channel", "rescale", "onnx") reads pointer fields of its
   * family, which must then be given (pointers_bound says which). */
  int reads_pointers;
  const char *variant;
} kernel_info;

static const kernel_info kernels[K_COUNT] = {
#define REF_KERNEL_FUNCTION(name, fam, st, type, out, variant, t0, t1, t2,     \
                            res)                                               \
  {#name,    FAM_##fam,           DT_##t0, DT_##t1, DT_##t2,                   \
   DT_##res, sizeof(variant) > 1, variant},
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
};

/* How each kernel runs on a stripe of rows (ACCEL_ROWS_*), and the mask of
 * data operands whose bytes its result may take: the Rows and
 * OutputOverlays of the operators it computes in defs/ops.td, as the kernel
 * table carries them. */
typedef struct kernel_stripe {
  int rows;
  unsigned overlays;
} kernel_stripe;

#define STRIPE_ROWS_whole ACCEL_ROWS_NONE
#define STRIPE_ROWS_identity ACCEL_ROWS_SAME
#define STRIPE_ROWS_window ACCEL_ROWS_WINDOW
#define STRIPE_ROWS_shifted ACCEL_ROWS_SHIFTED
/* The functional model runs a kernel that sums over its input's rows on the
 * whole input. */
#define STRIPE_ROWS_accumulate ACCEL_ROWS_NONE
static const kernel_stripe stripes[K_COUNT] = {
#define REF_KERNEL_STRIPE(name, rows, overlays) {STRIPE_ROWS_##rows, overlays},
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
};
#undef STRIPE_ROWS_whole
#undef STRIPE_ROWS_identity
#undef STRIPE_ROWS_window
#undef STRIPE_ROWS_shifted
#undef STRIPE_ROWS_accumulate
const char *accel_kernel_name(int32_t index) {
  return index >= 0 && index < K_COUNT ? kernels[index].name : NULL;
}

/*===----------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------===*/

/* The largest operand count of one operator (CONCATENATION's inputs). */
#define ACCEL_MAX_OPERANDS 64
/* The largest tensor count of one subgraph. */
#define ACCEL_MAX_TENSORS 1000000u
#define NO_OFFSET ((size_t)-1)

/* One tensor of a subgraph, decoded and checked. */
typedef struct tensor {
  /* Its index in the subgraph, and in the input model. */
  int32_t index;
  int32_t id;
  int dtype;
  /* Stored by the accelerator as uint8, q + 128, for int8 q. */
  int shifted;
  ref_shape shape;
  size_t bytes;
  /* Rows of a tensor held as a window in a striped subgraph (0: whole), and
   * the bytes the arena holds of it. */
  int32_t held_rows;
  size_t held_bytes;
  /* The graph input whose caller's buffer holds the host copy (at offset
   * `host` in it), or -1 for the arena. */
  int32_t input;
  /* The host copy in the arena, or NO_OFFSET. */
  size_t host;
  /* The accelerator's copy: a memory and an offset, or constant data. */
  int memory;
  size_t device;
  const uint8_t *constant;
} tensor;

/* Everything one subgraph run needs. */
typedef struct machine {
  reader r;
  fb_vec buffers;
  fb_vec tensors;
  /* Null while only checking. */
  uint8_t *arena;
  uint8_t *scratch;
  size_t arena_bytes, scratch_bytes;
  /* Scratch memory above the subgraph's tensors: per-operator temporaries. */
  size_t temp_base, temp_top;
  accel_trace_fn trace;
  /* The subgraph runs stripe by stripe (accel_run_stripe); the stripe being
   * run, null while only checking. */
  int striped;
  const accel_stripe *stripe;
  /* The subgraph's inputs and outputs. */
  fb_vec sub_inputs, sub_outputs;
  /* The graph inputs in the caller's buffers (null while checking). */
  const void *const *inputs;
  size_t input_count;
} machine;

static int check_range(machine *m, size_t off, size_t bytes, size_t limit) {
  if (off > limit || limit - off < bytes) {
    fail(&m->r, ACCEL_ERR_MEMORY);
    return 0;
  }
  return 1;
}

/* Reads tensor `index` of the subgraph. */
static int read_tensor(machine *m, int32_t index, tensor *t) {
  reader *r = &m->r;
  fb_table tt;
  fb_vec shape;
  int device_dtype;
  int64_t bytes, host, device;
  size_t elements = 1, size;
  uint32_t i;
  memset(t, 0, sizeof(*t));
  if (index < 0 || (uint32_t)index >= m->tensors.len) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  tt = vec_table(r, m->tensors, (uint32_t)index);
  t->index = index;
  t->id = fb_i32(r, &tt, T_ID, 0);
  t->held_rows = fb_i32(r, &tt, T_HELD_ROWS, 0);
  t->input = fb_i32(r, &tt, T_INPUT, -1);
  t->dtype = fb_i8(r, &tt, T_DTYPE, DT_I8);
  device_dtype = fb_i8(r, &tt, T_DEVICE_DTYPE, DT_I8);
  shape = fb_vector(r, &tt, T_SHAPE, 4);
  bytes = fb_i64(r, &tt, T_BYTES, 0);
  host = fb_i64(r, &tt, T_ARENA_OFFSET, -1);
  t->memory = fb_i8(r, &tt, T_MEMORY, MEM_ARENA);
  device = fb_i64(r, &tt, T_DEVICE_OFFSET, -1);
  if (r->status)
    return 0;
  size = dtype_size(t->dtype);
  if (!tt.pos || !size || shape.len > REF_MAX_RANK || bytes < 0 ||
      host < -1 || device < -1) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  t->shape.rank = (int32_t)shape.len;
  for (i = 0; i < shape.len; ++i) {
    int32_t d = vec_i32(r, shape, i);
    if (d < 0 || (d > 0 && elements > ((size_t)INT32_MAX / size) / (size_t)d)) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    t->shape.dims[i] = d;
    elements *= (size_t)d;
  }
  t->bytes = elements * size;
  if ((uint64_t)bytes != t->bytes) {
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  /* A window holds rows of a batch-one image, at most all of them. */
  t->held_bytes = t->bytes;
  if (t->held_rows != 0) {
    if (t->held_rows < 0 || t->shape.rank != 4 || t->shape.dims[0] != 1 ||
        t->held_rows > t->shape.dims[1] || t->memory != MEM_ARENA) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    t->held_bytes = t->bytes / (size_t)t->shape.dims[1] * (size_t)t->held_rows;
  }
  /* The only conversion the accelerator makes in memory: int8 stored as
   * uint8 with the offset 128. */
  if (device_dtype != t->dtype) {
    if (t->dtype != DT_I8 || device_dtype != DT_U8 ||
        t->memory == MEM_CONSTANT) {
      fail(r, ACCEL_ERR_UNSUPPORTED);
      return 0;
    }
    t->shifted = 1;
  }
  t->host = host < 0 ? NO_OFFSET : (size_t)host;
  /* A graph input read in the caller's buffer: the whole of it, whose
   * buffer the caller must have given when running. */
  if (t->input != -1) {
    if (t->input < 0 || t->host != 0 || t->held_rows ||
        t->memory == MEM_CONSTANT) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    if (m->arena && ((size_t)t->input >= m->input_count || !m->inputs ||
                     !m->inputs[t->input])) {
      fail(r, ACCEL_ERR_ARGUMENT);
      return 0;
    }
  } else if (t->host != NO_OFFSET &&
             !check_range(m, t->host, t->held_bytes, m->arena_bytes)) {
    return 0;
  }
  switch (t->memory) {
  case MEM_ARENA:
    if (t->host == NO_OFFSET) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    t->device = t->host;
    break;
  case MEM_SCRATCH:
    if (device < 0) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    t->device = (size_t)device;
    if (!check_range(m, t->device, t->bytes, m->scratch_bytes))
      return 0;
    break;
  case MEM_CONSTANT: {
    int32_t b = fb_i32(r, &tt, T_BUFFER, -1);
    fb_table bt;
    fb_vec data;
    if (b < 0 || (uint32_t)b >= m->buffers.len) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    bt = vec_table(r, m->buffers, (uint32_t)b);
    data = fb_vector(r, &bt, B_DATA, 1);
    if (r->status)
      return 0;
    /* Kernels read constants in place: enough bytes, aligned. */
    if (data.len < t->bytes || ((uintptr_t)(r->p + data.data) % size)) {
      fail(r, ACCEL_ERR_PROGRAM);
      return 0;
    }
    t->constant = r->p + data.data;
    break;
  }
  default:
    fail(r, ACCEL_ERR_PROGRAM);
    return 0;
  }
  return r->status == ACCEL_OK;
}

/* The host memory `t` is in: the arena, or the caller's input buffer
 * (null while checking). Inputs are only read. */
static uint8_t *host_base(const machine *m, const tensor *t) {
  if (!m->arena)
    return NULL;
  return t->input >= 0 ? (uint8_t *)(uintptr_t)m->inputs[t->input] : m->arena;
}

/* Where the accelerator's copy of `t` is (null while checking). */
static uint8_t *device_ptr(const machine *m, const tensor *t) {
  if (t->memory == MEM_CONSTANT)
    return (uint8_t *)(uintptr_t)t->constant;
  if (t->memory == MEM_ARENA)
    return m->arena ? host_base(m, t) + t->device : NULL;
  return m->scratch ? m->scratch + t->device : NULL;
}

static uint8_t *host_ptr(const machine *m, const tensor *t) {
  return m->arena ? host_base(m, t) + t->host : NULL;
}

/* Copies `bytes` bytes, converting int8 to and from uint8 (q ^ 0x80 is
 * q + 128 modulo 256 either way) when `shift`; dst may equal src. */
static void convert(uint8_t *dst, const uint8_t *src, size_t bytes, int shift) {
  size_t i;
  if (!shift) {
    if (dst != src)
      memmove(dst, src, bytes);
    return;
  }
  for (i = 0; i < bytes; ++i)
    dst[i] = (uint8_t)(src[i] ^ 0x80u);
}

/* Scratch memory for one operator; 0 on exhaustion. */
static size_t temp_alloc(machine *m, size_t bytes) {
  size_t at = (m->temp_top + 15u) & ~(size_t)15u;
  if (at < m->temp_top || !check_range(m, at, bytes, m->scratch_bytes))
    return NO_OFFSET;
  m->temp_top = at + bytes;
  return at;
}

/*===----------------------------------------------------------------------===*
 * Parameters
 *===----------------------------------------------------------------------===*/

/* The parameters of any kernel family, one member per family. */
typedef union params {
#define REF_KERNEL_PARAMS_BEGIN(family, st) st family;
#define REF_KERNEL_SCALAR(family, st, field, ctype)
#define REF_KERNEL_ARRAY(family, st, field, ctype, length)
#define REF_KERNEL_POINTER(family, st, field, ctype)
#define REF_KERNEL_PARAMS_END(family, st)
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  uint8_t none;
} params;

/* Pointer fields are bound after the shapes say how long their arrays are:
 * the program's vectors, in field order. */
#define MAX_POINTER_FIELDS 4
typedef struct pointer_fields {
  fb_vec v[MAX_POINTER_FIELDS];
  int count;
} pointer_fields;

/* ParamValue's vectors: one per storage of the C field types. */
enum { PV_INTS = 0, PV_LONGS = 1, PV_FLOATS = 2, PV_DOUBLES = 3 };
#define PV_int8_t PV_INTS
#define PV_int16_t PV_INTS
#define PV_int32_t PV_INTS
#define PV_uint8_t PV_INTS
#define PV_uint16_t PV_INTS
#define PV_uint32_t PV_INTS
#define PV_int64_t PV_LONGS
#define PV_uint64_t PV_LONGS
#define PV_size_t PV_LONGS
#define PV_float PV_FLOATS
#define PV_double PV_DOUBLES

/* The vector of storage `kind` of parameter `index`. */
static fb_vec param_vector(reader *r, fb_vec values, uint32_t index,
                           int kind) {
  fb_table t = vec_table(r, values, index);
  return fb_vector(r, &t, kind,
                   kind == PV_INTS || kind == PV_FLOATS ? 4u : 8u);
}

/* Element `i` of a parameter vector of storage `kind`, as a double (exact
 * for every value of 32 bits or less, and for floats and doubles) and as an
 * integer (exact for integers). */
typedef struct param_number {
  double f;
  int64_t i;
} param_number;

static param_number param_element(reader *r, fb_vec v, uint32_t i, int kind) {
  param_number x = {0.0, 0};
  const size_t size = kind == PV_INTS || kind == PV_FLOATS ? 4u : 8u;
  const size_t at = v.data + size * (size_t)i;
  if (i >= v.len || !in_buffer(r, at, size)) {
    fail(r, ACCEL_ERR_PROGRAM);
    return x;
  }
  if (kind == PV_INTS) {
    int32_t y;
    memcpy(&y, r->p + at, 4);
    x.i = y;
    x.f = y;
  } else if (kind == PV_LONGS) {
    memcpy(&x.i, r->p + at, 8);
    x.f = (double)x.i;
  } else if (kind == PV_FLOATS) {
    float y;
    memcpy(&y, r->p + at, 4);
    x.f = y;
  } else {
    memcpy(&x.f, r->p + at, 8);
  }
  return x;
}

/* A scalar field: a vector of exactly one element. */
static param_number param_scalar(reader *r, fb_vec values, uint32_t index,
                                 int kind) {
  fb_vec v = param_vector(r, values, index, kind);
  param_number none = {0.0, 0};
  if (v.len != 1) {
    fail(r, ACCEL_ERR_PROGRAM);
    return none;
  }
  return param_element(r, v, 0, kind);
}

/* The C value of a param_number for a field of C type `ctype`. */
#define PARAM_AS_int8_t(x) ((int8_t)(x).i)
#define PARAM_AS_int16_t(x) ((int16_t)(x).i)
#define PARAM_AS_int32_t(x) ((int32_t)(x).i)
#define PARAM_AS_uint8_t(x) ((uint8_t)(x).i)
#define PARAM_AS_uint16_t(x) ((uint16_t)(x).i)
#define PARAM_AS_uint32_t(x) ((uint32_t)(x).i)
#define PARAM_AS_int64_t(x) ((int64_t)(x).i)
#define PARAM_AS_uint64_t(x) ((uint64_t)(x).i)
#define PARAM_AS_size_t(x) ((size_t)(x).i)
#define PARAM_AS_float(x) ((float)(x).f)
#define PARAM_AS_double(x) ((double)(x).f)

/* Decodes the family's fields, in the order of the kernel table, from the
 * operator's params; pointer fields' vectors are kept for
 * bind_pointer_fields. */
static void decode_params(reader *r, int family, fb_vec values, params *p,
                          pointer_fields *ptrs) {
  uint32_t n = 0;
  memset(p, 0, sizeof(*p));
  ptrs->count = 0;
  switch (family) {
#define REF_KERNEL_PARAMS_BEGIN(family, st) case FAM_##family: {
#define REF_KERNEL_SCALAR(family, st, field, ctype)                            \
  p->family.field = PARAM_AS_##ctype(param_scalar(r, values, n++, PV_##ctype));
#define REF_KERNEL_ARRAY(family, st, field, ctype, length)                     \
  {                                                                            \
    fb_vec v = param_vector(r, values, n++, PV_##ctype);                       \
    uint32_t k;                                                                \
    if (v.len != (uint32_t)(length))                                           \
      fail(r, ACCEL_ERR_PROGRAM);                                               \
    for (k = 0; k < (uint32_t)(length) && !r->status; ++k)                     \
      p->family.field[k] =                                                     \
          PARAM_AS_##ctype(param_element(r, v, k, PV_##ctype));                \
  }
#define REF_KERNEL_POINTER(family, st, field, ctype)                           \
  if (ptrs->count < MAX_POINTER_FIELDS)                                        \
    ptrs->v[ptrs->count++] = param_vector(r, values, n++, PV_##ctype);         \
  else                                                                         \
    fail(r, ACCEL_ERR_PROGRAM);
#define REF_KERNEL_PARAMS_END(family, st)                                      \
  break;                                                                       \
  }
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  default:
    fail(r, ACCEL_ERR_PROGRAM);
  }
  if (n != values.len)
    fail(r, ACCEL_ERR_PROGRAM);
}

/* Whether pointer field `f` holds one entry per byte value (256): softmax's
 * exp_table (one per difference from a row's maximum) and LOGISTIC's
 * lookup_table (one per input byte). */
#define BYTE_TABLE_POINTER(f)                                                  \
  (strcmp(f, "exp_table") == 0 || strcmp(f, "lookup_table") == 0)

/* Points the pointer fields the program gives at their arrays, each of
 * `count` entries (the byte tables: 256), used in place; the others are
 * null (pointers_bound then says whether the kernel reads them). */
static void bind_pointer_fields(reader *r, int family, params *p,
                                const pointer_fields *ptrs, uint32_t count) {
  int j = 0;
  switch (family) {
#define REF_KERNEL_PARAMS_BEGIN(family, st) case FAM_##family:
#define REF_KERNEL_SCALAR(family, st, field, ctype)
#define REF_KERNEL_ARRAY(family, st, field, ctype, length)
#define REF_KERNEL_POINTER(family, st, field, ctype)                           \
  p->family.field =                                                            \
      ptrs->v[j].data                                                          \
          ? (const ctype *)vec_in_place(                                       \
                r, ptrs->v[j], BYTE_TABLE_POINTER(#field) ? 256 : count)       \
          : NULL;                                                              \
  ++j;
#define REF_KERNEL_PARAMS_END(family, st) break;
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  default:
    break;
  }
}

/*===----------------------------------------------------------------------===*
 * Operand checks: what each kernel assumes of its shapes
 *===----------------------------------------------------------------------===*/

static int32_t shape_elements(const ref_shape *s) {
  return ref_shape_size(s);
}

static int same_shape(const ref_shape *a, const ref_shape *b) {
  int32_t d;
  if (a->rank != b->rank)
    return 0;
  for (d = 0; d < a->rank; ++d)
    if (a->dims[d] != b->dims[d])
      return 0;
  return 1;
}

/* The index of each operand: 0.. data inputs, then the result. */
typedef struct operands {
  int32_t count; /* data inputs */
  tensor in[ACCEL_MAX_OPERANDS];
  int present[ACCEL_MAX_OPERANDS];
  tensor out;
} operands;

static int check_geometry(reader *r, int family, const params *p,
                          const operands *o, uint32_t *channels) {
  const ref_shape *in = &o->in[0].shape, *out = &o->out.shape;
  int32_t d, i;
  *channels = 0;
  switch (family) {
  case FAM_conv2d: {
    const ref_shape *f = &o->in[1].shape;
    if (in->rank != 4 || f->rank != 4 || out->rank != 4 ||
        in->dims[0] != out->dims[0] || f->dims[0] != out->dims[3] ||
        f->dims[3] <= 0 || in->dims[3] % f->dims[3] != 0 ||
        in->dims[3] == 0 || out->dims[3] % (in->dims[3] / f->dims[3]) != 0 ||
        p->conv2d.stride_h < 1 || p->conv2d.stride_w < 1 ||
        p->conv2d.dilation_h < 1 || p->conv2d.dilation_w < 1)
      return 0;
    *channels = (uint32_t)out->dims[3];
    break;
  }
  case FAM_depthwise_conv2d: {
    const ref_shape *f = &o->in[1].shape;
    if (in->rank != 4 || f->rank != 4 || out->rank != 4 ||
        in->dims[0] != out->dims[0] || f->dims[0] != 1 ||
        f->dims[3] != out->dims[3] || p->depthwise_conv2d.depth_multiplier < 1 ||
        (int64_t)in->dims[3] * p->depthwise_conv2d.depth_multiplier != out->dims[3] ||
        p->depthwise_conv2d.stride_h < 1 || p->depthwise_conv2d.stride_w < 1 || p->depthwise_conv2d.dilation_h < 1 ||
        p->depthwise_conv2d.dilation_w < 1)
      return 0;
    *channels = (uint32_t)out->dims[3];
    break;
  }
  case FAM_transpose_conv2d: {
    const ref_shape *f = &o->in[1].shape;
    if (in->rank != 4 || f->rank != 4 || out->rank != 4 ||
        in->dims[0] != out->dims[0] || f->dims[0] != out->dims[3] ||
        f->dims[3] != in->dims[3] || p->transpose_conv2d.stride_h < 1 ||
        p->transpose_conv2d.stride_w < 1)
      return 0;
    *channels = (uint32_t)out->dims[3];
    break;
  }
  case FAM_fully_connected: {
    const ref_shape *f = &o->in[1].shape;
    int32_t units, depth;
    if (f->rank < 2)
      return 0;
    units = f->dims[0];
    depth = f->dims[f->rank - 1];
    if (units <= 0 || shape_elements(out) % units != 0 ||
        (int64_t)(shape_elements(out) / units) * depth !=
            shape_elements(in) ||
        (int64_t)units * depth != shape_elements(f))
      return 0;
    *channels = (uint32_t)units;
    break;
  }
  case FAM_pool2d:
    if (in->rank != 4 || out->rank != 4 || in->dims[0] != out->dims[0] ||
        in->dims[3] != out->dims[3] || p->pool2d.stride_h < 1 ||
        p->pool2d.stride_w < 1 || p->pool2d.filter_h < 1 || p->pool2d.filter_w < 1)
      return 0;
    break;
  case FAM_elementwise:
    for (i = 0; i < 2; ++i) {
      const ref_shape *s = &o->in[i].shape;
      if (s->rank > out->rank)
        return 0;
      for (d = 0; d < s->rank; ++d) {
        int32_t n = ref_shape_dim_from_end(s, d);
        if (n != 1 && n != ref_shape_dim_from_end(out, d))
          return 0;
      }
    }
    break;
  case FAM_softmax:
    if (!same_shape(in, out))
      return 0;
    break;
  case FAM_quantize:
  case FAM_dequantize:
    /* Per channel: one scale and zero point per element of the last axis
     * of the quantized operand. */
    if (shape_elements(in) != shape_elements(out))
      return 0;
    {
      const ref_shape *q = family == FAM_quantize ? out : in;
      *channels = q->rank > 0 ? (uint32_t)q->dims[q->rank - 1] : 1u;
    }
    break;
  case FAM_requantize:
  case FAM_relu:
  case FAM_leaky_relu:
  case FAM_hard_swish:
  case FAM_sigmoid:
    if (shape_elements(in) != shape_elements(out))
      return 0;
    break;
  case FAM_pad:
    if (in->rank != out->rank)
      return 0;
    for (d = 0; d < in->rank; ++d)
      if (p->pad.before[d] < 0 || p->pad.after[d] < 0 ||
          (int64_t)in->dims[d] + p->pad.before[d] + p->pad.after[d] !=
              out->dims[d])
        return 0;
    break;
  case FAM_concat: {
    int64_t total = 0;
    const int32_t axis = p->concat.axis;
    if (p->concat.num_inputs != o->count || axis < 0 || axis >= out->rank)
      return 0;
    for (i = 0; i < o->count; ++i) {
      const ref_shape *s = &o->in[i].shape;
      if (s->rank != out->rank)
        return 0;
      for (d = 0; d < s->rank; ++d)
        if (d != axis && s->dims[d] != out->dims[d])
          return 0;
      total += s->dims[axis];
    }
    if (total != out->dims[axis])
      return 0;
    *channels = (uint32_t)o->count;
    break;
  }
  case FAM_mean: {
    int64_t kept = 1, reduced = 1;
    if (in->rank < 32 && (p->mean.axis_mask >> in->rank) != 0)
      return 0;
    for (d = 0; d < in->rank; ++d) {
      if ((p->mean.axis_mask >> d) & 1u)
        reduced *= in->dims[d];
      else
        kept *= in->dims[d];
    }
    /* The kernel divides by the reduced count. */
    if (kept != shape_elements(out) || (reduced == 0 && kept != 0))
      return 0;
    break;
  }
  case FAM_transpose: {
    int seen[REF_MAX_RANK] = {0};
    if (in->rank != out->rank || o->in[0].dtype != o->out.dtype)
      return 0;
    for (d = 0; d < in->rank; ++d) {
      const int32_t q = p->transpose.perm[d];
      if (q < 0 || q >= in->rank || seen[q] || out->dims[d] != in->dims[q])
        return 0;
      seen[q] = 1;
    }
    break;
  }
  case FAM_strided_slice: {
    int64_t count = 1;
    if (o->in[0].dtype != o->out.dtype)
      return 0;
    for (d = 0; d < in->rank; ++d) {
      const int64_t start = p->strided_slice.start[d], stop = p->strided_slice.stop[d];
      const int64_t step = p->strided_slice.stride[d];
      int64_t n;
      if (step == 0)
        return 0;
      n = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                   : (stop < start ? (start - stop - step - 1) / -step : 0);
      if (n > 0 && (start < 0 || start >= in->dims[d] ||
                    start + (n - 1) * step < 0 ||
                    start + (n - 1) * step >= in->dims[d]))
        return 0;
      count *= n;
    }
    if (count != shape_elements(out))
      return 0;
    break;
  }
  case FAM_reshape:
    if ((size_t)p->reshape.bytes != o->in[0].bytes ||
        (size_t)p->reshape.bytes != o->out.bytes)
      return 0;
    break;
  default:
    /* A target's own family: the model knows its operands' element types
     * and counts only; its pointer fields hold one value per channel of the
     * result (its last dimension). */
    if (family < 1 || family > FAM_TARGET_FAMILIES)
      return 0;
    *channels = out->rank > 0 ? (uint32_t)out->dims[out->rank - 1] : 1u;
    break;
  }
  /* Biases hold one value per output channel. */
  if ((family == FAM_conv2d || family == FAM_depthwise_conv2d ||
       family == FAM_transpose_conv2d || family == FAM_fully_connected) &&
      o->present[2] && shape_elements(&o->in[2].shape) != (int32_t)*channels)
    return 0;
  (void)r;
  return 1;
}

/*===----------------------------------------------------------------------===*
 * Parameter checks: the kernels' arithmetic preconditions
 *===----------------------------------------------------------------------===*/

/* The exponent of a quantized multiplier: the kernels shift by at most 31
 * either way. */
static int shift_ok(int32_t s) { return s >= -31 && s <= 31; }

/* Zero points and offsets: 8-bit activations and weights take at most 256
 * either way (their products stay far inside int32); others 2^16. */
static int offset8_ok(int32_t v) { return v >= -256 && v <= 256; }
static int offset_ok(int32_t v) { return v >= -65536 && v <= 65536; }

static int shifts_ok(const int32_t *shifts, uint32_t n) {
  uint32_t i;
  for (i = 0; shifts && i < n; ++i)
    if (!shift_ok(shifts[i]))
      return 0;
  return 1;
}

/* A window walk, (out - 1) * stride + (filter - 1) * dilation past the
 * padding, stays far inside int32. */
static int window_ok(int32_t out, int32_t stride, int32_t dilation,
                     int32_t filter, int32_t pad) {
  int64_t reach;
  if (stride < 1 || dilation < 1 || filter < 1 || pad < -(1 << 24) ||
      pad > (1 << 24))
    return 0;
  reach = (int64_t)(out > 0 ? out - 1 : 0) * stride +
          (int64_t)(filter - 1) * dilation + (pad < 0 ? -(int64_t)pad : pad);
  return reach < ((int64_t)1 << 30);
}

/* The largest |v + offset| for v of 8-bit type `t`. */
static int64_t max_offset_value(int t, int32_t offset) {
  const int64_t lo = t == DT_U8 ? 0 : -128, hi = t == DT_U8 ? 255 : 127;
  const int64_t a = lo + offset < 0 ? -(lo + offset) : lo + offset;
  const int64_t b = hi + offset < 0 ? -(hi + offset) : hi + offset;
  return a > b ? a : b;
}

/* The largest |bias| of a convolution or fully connected operator. */
static int64_t max_bias(const uint8_t *bias, int32_t n) {
  int64_t most = 0;
  int32_t i, v;
  for (i = 0; bias && i < n; ++i) {
    memcpy(&v, bias + 4 * (size_t)i, 4);
    if ((int64_t)v * (v < 0 ? -1 : 1) > most)
      most = (int64_t)v * (v < 0 ? -1 : 1);
  }
  return most;
}

/* The int32 accumulator of an 8-bit convolution or fully connected operator
 * holds bias plus taps products (the fully connected kernel sums four kinds
 * of terms separately), shifted left by the largest positive exponent, with
 * room for the output offset. */
static int accumulator_ok(const operands *o, int64_t taps, int terms,
                          int32_t input_offset, int32_t filter_offset,
                          int32_t output_shift, const int32_t *shifts,
                          uint32_t channels, int32_t bias_count) {
  const int t = o->in[0].dtype;
  int64_t bound;
  int32_t shift = output_shift;
  uint32_t i;
  if (t != DT_I8 && t != DT_U8)
    return 1; /* float */
  for (i = 0; shifts && i < channels; ++i)
    if (shifts[i] > shift)
      shift = shifts[i];
  bound = taps * terms * max_offset_value(t, input_offset) *
              max_offset_value(o->in[1].dtype, filter_offset) +
          (o->present[2] ? max_bias(o->in[2].constant, bias_count) : 0);
  if (shift > 31)
    return 0;
  if (shift > 0)
    bound <<= shift;
  return bound < ((int64_t)1 << 31) - ((int64_t)1 << 17);
}

/* A per-channel conversion's (variants per_channel, onnx_per_channel)
 * channel count is the quantized operand's last dimension, and its zero
 * points fit their type; the others read neither. */
static int channels_ok(int32_t count, const int32_t *zero_points,
                       const kernel_info *k, uint32_t channels) {
  uint32_t c;
  if (!strstr(k->variant, "per_channel"))
    return 1;
  if (count < 1 || (uint32_t)count != channels || !zero_points)
    return 0;
  for (c = 0; c < channels; ++c)
    if (!offset_ok(zero_points[c]))
      return 0;
  return 1;
}

/* Whether pointer field `f` belongs to ONNX's functions (variant "onnx"). */
#define ONNX_POINTER(f) (strcmp(f, "float_scale") == 0 || BYTE_TABLE_POINTER(f))

/* Every pointer field kernel `k` reads is set: ONNX's functions read theirs
 * (float_scale, exp_table), the other variants every other pointer field of
 * their family. */
static int pointers_bound(const kernel_info *k, const params *p) {
  const int onnx = strcmp(k->variant, "onnx") == 0;
  switch (k->family) {
#define REF_KERNEL_PARAMS_BEGIN(family, st)                                    \
  case FAM_##family:                                                           \
    return 1
#define REF_KERNEL_SCALAR(family, st, field, ctype)
#define REF_KERNEL_ARRAY(family, st, field, ctype, length)
#define REF_KERNEL_POINTER(family, st, field, ctype)                           \
  &&(p->family.field != NULL || ONNX_POINTER(#field) != onnx)
#define REF_KERNEL_PARAMS_END(family, st) ;
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  default:
    return 1;
  }
}

/* What TensorFlow Lite's parameter code guarantees and the kernels assume:
 * shifts in range, offsets of the element type's size, windows and
 * accumulators inside int32, a radius that can be negated. */
static int check_params(const kernel_info *k, const params *p,
                        const operands *o, uint32_t channels) {
  const ref_shape *f = &o->in[1].shape, *out = &o->out.shape;
  if (k->reads_pointers && !pointers_bound(k, p))
    return 0;
  switch (k->family) {
  case FAM_conv2d:
    if (!window_ok(out->dims[1], p->conv2d.stride_h, p->conv2d.dilation_h,
                   f->dims[1], p->conv2d.pad_top) ||
        !window_ok(out->dims[2], p->conv2d.stride_w, p->conv2d.dilation_w,
                   f->dims[2], p->conv2d.pad_left) ||
        !accumulator_ok(o, (int64_t)f->dims[1] * f->dims[2] * f->dims[3], 1,
                        p->conv2d.input_offset, p->conv2d.filter_offset,
                        p->conv2d.output_left_shift,
                        p->conv2d.per_channel_left_shift, channels,
                        out->dims[3]))
      return 0;
    return shift_ok(p->conv2d.output_left_shift) &&
           offset8_ok(p->conv2d.input_offset) &&
           offset8_ok(p->conv2d.filter_offset) &&
           offset_ok(p->conv2d.output_offset) &&
           shifts_ok(p->conv2d.per_channel_left_shift, channels);
  case FAM_transpose_conv2d:
    /* Each output element sums at most the filter's taps; the gather's
     * indices stay within the output's and input's sizes. */
    if (!accumulator_ok(o, (int64_t)f->dims[1] * f->dims[2] * f->dims[3], 1,
                        p->transpose_conv2d.input_offset, 0, 0,
                        p->transpose_conv2d.per_channel_left_shift, channels,
                        out->dims[3]) ||
        p->transpose_conv2d.pad_top < 0 || p->transpose_conv2d.pad_left < 0 ||
        p->transpose_conv2d.pad_top > f->dims[1] ||
        p->transpose_conv2d.pad_left > f->dims[2])
      return 0;
    return offset8_ok(p->transpose_conv2d.input_offset) &&
           offset_ok(p->transpose_conv2d.output_offset) &&
           shifts_ok(p->transpose_conv2d.per_channel_left_shift, channels);
  case FAM_depthwise_conv2d:
    if (!window_ok(out->dims[1], p->depthwise_conv2d.stride_h, p->depthwise_conv2d.dilation_h, f->dims[1],
                   p->depthwise_conv2d.pad_top) ||
        !window_ok(out->dims[2], p->depthwise_conv2d.stride_w, p->depthwise_conv2d.dilation_w, f->dims[2],
                   p->depthwise_conv2d.pad_left) ||
        !accumulator_ok(o, (int64_t)f->dims[1] * f->dims[2], 1,
                        p->depthwise_conv2d.input_offset, p->depthwise_conv2d.filter_offset,
                        p->depthwise_conv2d.output_left_shift, p->depthwise_conv2d.per_channel_left_shift,
                        channels, out->dims[3]))
      return 0;
    return shift_ok(p->depthwise_conv2d.output_left_shift) &&
           offset8_ok(p->depthwise_conv2d.input_offset) && offset8_ok(p->depthwise_conv2d.filter_offset) &&
           offset_ok(p->depthwise_conv2d.output_offset) &&
           shifts_ok(p->depthwise_conv2d.per_channel_left_shift, channels);
  case FAM_fully_connected:
    if (!accumulator_ok(o, f->dims[f->rank - 1], 4, p->fully_connected.input_offset,
                        p->fully_connected.filter_offset, p->fully_connected.output_left_shift,
                        p->fully_connected.per_channel_left_shift, channels,
                        (int32_t)channels))
      return 0;
    return shift_ok(p->fully_connected.output_left_shift) &&
           offset8_ok(p->fully_connected.input_offset) && offset8_ok(p->fully_connected.filter_offset) &&
           offset_ok(p->fully_connected.output_offset) &&
           shifts_ok(p->fully_connected.per_channel_left_shift, channels);
  case FAM_pool2d:
    return window_ok(out->dims[1], p->pool2d.stride_h, 1, p->pool2d.filter_h,
                     p->pool2d.pad_top) &&
           window_ok(out->dims[2], p->pool2d.stride_w, 1, p->pool2d.filter_w,
                     p->pool2d.pad_left);
  case FAM_elementwise:
    /* ADD and SUB scale each input down before summing; MUL multiplies two
     * offset inputs (at most 2^18) and scales once. */
    return offset8_ok(p->elementwise.input1_offset) &&
           offset8_ok(p->elementwise.input2_offset) && offset_ok(p->elementwise.output_offset) &&
           p->elementwise.input_left_shift >= 0 && p->elementwise.input_left_shift <= 20 &&
           p->elementwise.input1_left_shift >= -31 && p->elementwise.input1_left_shift <= 0 &&
           p->elementwise.input2_left_shift >= -31 && p->elementwise.input2_left_shift <= 0 &&
           p->elementwise.output_left_shift >= -31 &&
           p->elementwise.output_left_shift <= (strncmp(k->name, "ref_mul", 7) ? 0 : 12);
  case FAM_softmax:
    /* A row's maximum must count (diff 0 >= diff_min), so no row sums to 0. */
    return p->softmax.input_left_shift >= 0 &&
           p->softmax.input_left_shift <= 31 && p->softmax.diff_min <= 0;
  case FAM_quantize:
    return offset_ok(p->quantize.zero_point) &&
           channels_ok(p->quantize.channels, p->quantize.channel_zero_point, k,
                       channels);
  case FAM_dequantize:
    return offset_ok(p->dequantize.zero_point) &&
           channels_ok(p->dequantize.channels, p->dequantize.channel_zero_point,
                       k, channels);
  /* These scale a value of at most 2^17 and add a zero point: at most 13
   * left. */
  case FAM_requantize:
    return offset_ok(p->requantize.input_zero_point) &&
           offset_ok(p->requantize.output_zero_point) &&
           shift_ok(p->requantize.left_shift) && p->requantize.left_shift <= 13;
  case FAM_relu:
    return offset_ok(p->relu.input_zero_point) &&
           offset_ok(p->relu.output_zero_point) &&
           shift_ok(p->relu.output_left_shift) &&
           p->relu.output_left_shift <= 13;
  case FAM_leaky_relu:
    return offset_ok(p->leaky_relu.input_zero_point) &&
           offset_ok(p->leaky_relu.output_zero_point) &&
           shift_ok(p->leaky_relu.identity_left_shift) &&
           shift_ok(p->leaky_relu.alpha_left_shift) &&
           p->leaky_relu.identity_left_shift <= 13 &&
           p->leaky_relu.alpha_left_shift <= 13 &&
           p->leaky_relu.alpha_multiplier != INT32_MIN; /* negated */
  case FAM_hard_swish:
    /* Two-step saturating int16 shifts: at most 16 left; the final shift
     * only rounds right. */
    return offset_ok(p->hard_swish.input_zero_point) &&
           offset_ok(p->hard_swish.output_zero_point) &&
           p->hard_swish.reluish_left_shift >= -31 &&
           p->hard_swish.reluish_left_shift <= 16 &&
           p->hard_swish.output_left_shift >= -31 &&
           p->hard_swish.output_left_shift <= 0;
  case FAM_sigmoid:
    return offset_ok(p->sigmoid.input_zero_point) &&
           shift_ok(p->sigmoid.input_left_shift) &&
           p->sigmoid.input_range_radius >= 0;
  case FAM_mean:
    return offset_ok(p->mean.input_zero_point) &&
           offset_ok(p->mean.output_zero_point) &&
           shift_ok(p->mean.left_shift);
  default:
    return 1;
  }
}

/* Why the kernel cannot take the element types or shapes of its operands,
 * or null when it can; sets *channels (check_geometry). */
static const char *check_operands(const kernel_info *k, const params *p,
                                  const operands *o, uint32_t *channels) {
  const family_info *f = &families[k->family];
  int32_t i;
  for (i = 0; i < o->count; ++i) {
    int want = i == 0 ? k->in_type
               : f->variadic ? k->in_type
               : i == 1 ? k->weight_type
                        : k->bias_type;
    if (o->present[i] && want != DT_ANY && o->in[i].dtype != want)
      return "an operand's element type is not the kernel's";
  }
  if (k->out_type != DT_ANY && o->out.dtype != k->out_type)
    return "the result's element type is not the kernel's";
  if (!check_geometry(NULL, k->family, p, o, channels))
    return "the operand shapes or the shape parameters are not ones the "
           "kernel takes";
  return NULL;
}

/* The size of the parameter struct of `family`, 0 for none. */
static size_t params_size(int family) {
  switch (family) {
#define REF_KERNEL_PARAMS_BEGIN(family, st)                                    \
  case FAM_##family:                                                           \
    return sizeof(st);
#define REF_KERNEL_SCALAR(family, st, field, ctype)
#define REF_KERNEL_ARRAY(family, st, field, ctype, length)
#define REF_KERNEL_POINTER(family, st, field, ctype)
#define REF_KERNEL_PARAMS_END(family, st)
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
  default:
    return 0;
  }
}

int accel_check_kernel(const char *kernel, const void *kernel_params,
                       size_t params_bytes, const accel_operand *inputs,
                       int32_t count, const accel_operand *output,
                       const char **why) {
  const kernel_info *k = NULL;
  const family_info *f;
  operands o;
  params p;
  uint32_t channels = 0;
  const char *problem = NULL;
  int32_t i, d;
  if (why)
    *why = NULL;
  if (!kernel || !kernel_params || !output || (count > 0 && !inputs))
    return ACCEL_ERR_ARGUMENT;
  for (i = 0; i < K_COUNT; ++i)
    if (strcmp(kernel, kernels[i].name) == 0)
      k = &kernels[i];
  if (!k) {
    if (why)
      *why = "the functional model has no such kernel";
    return ACCEL_ERR_UNSUPPORTED;
  }
  if (!family_runs_here(k->family)) {
    if (why)
      *why = "the kernel writes several results or needs working memory, "
             "which a program operator does not have";
    return ACCEL_ERR_UNSUPPORTED;
  }
  f = &families[k->family];
  if (params_bytes != params_size(k->family))
    return ACCEL_ERR_ARGUMENT;
  memset(&o, 0, sizeof(o));
  if (count < f->min_operands || count < 1 ||
      count > (f->variadic ? ACCEL_MAX_OPERANDS : f->max_operands))
    problem = "the kernel takes another number of operands";
  for (i = 0; !problem && i <= count; ++i) {
    const accel_operand *a = i < count ? &inputs[i] : output;
    tensor *t = i < count ? &o.in[i] : &o.out;
    size_t elements = 1;
    if (i < count)
      o.present[i] = a->rank >= 0;
    if (a->rank < 0) {
      if (i == count || !(i == 2 && !f->variadic))
        problem = "only a bias may be omitted";
      continue;
    }
    t->dtype = a->dtype;
    t->constant = a->constant;
    t->memory = a->constant ? MEM_CONSTANT : MEM_ARENA;
    if (a->rank > REF_MAX_RANK || !dtype_size(a->dtype) ||
        (a->rank > 0 && !a->dims)) {
      problem = "an operand's rank or element type is not one the device "
                "holds";
      continue;
    }
    t->shape.rank = a->rank;
    for (d = 0; d < a->rank; ++d) {
      const int32_t n = a->dims[d];
      if (n < 0 || (n > 0 && elements > ((size_t)INT32_MAX /
                                         dtype_size(a->dtype)) / (size_t)n)) {
        problem = "an operand holds more bytes than the device addresses";
        break;
      }
      t->shape.dims[d] = n;
      elements *= (size_t)n;
    }
    t->bytes = elements * dtype_size(a->dtype);
  }
  o.count = count;
  if (!problem) {
    memcpy(&p, kernel_params, params_bytes);
    problem = check_operands(k, &p, &o, &channels);
  }
  if (!problem && !check_params(k, &p, &o, channels))
    problem = "its fixed-point parameters (zero points, rescaling shifts, "
              "window reach or accumulator bound) are beyond the device's "
              "range";
  if (why)
    *why = problem;
  return problem ? ACCEL_ERR_PROGRAM : ACCEL_OK;
}

/*===----------------------------------------------------------------------===*
 * Running an operator
 *===----------------------------------------------------------------------===*/

/* The shape with its last dimension rounded up to a multiple of `align`. */
static ref_shape padded_shape(const ref_shape *s, int32_t align) {
  ref_shape p = *s;
  if (p.rank > 0)
    p.dims[p.rank - 1] =
        (p.dims[p.rank - 1] + align - 1) / align * align;
  return p;
}

/* Copies rows of `from` channels into rows of `to` channels (the rest of a
 * wider row zeroed), converting when `shift`. */
static void copy_rows(uint8_t *dst, const uint8_t *src, size_t rows,
                      size_t from, size_t to, size_t elem, int shift) {
  size_t i;
  const size_t n = (from < to ? from : to) * elem;
  for (i = 0; i < rows; ++i) {
    convert(dst + i * to * elem, src + i * from * elem, n, shift);
    if (to > from)
      memset(dst + i * to * elem + n, 0, (to - from) * elem);
  }
}

/* True if two byte ranges of one memory overlap. */
static int overlap(const tensor *a, const tensor *b) {
  return a->memory == b->memory && a->memory != MEM_CONSTANT &&
         (a->memory == MEM_SCRATCH || a->input == b->input) &&
         a->device < b->device + b->held_bytes &&
         b->device < a->device + a->held_bytes;
}

/*===----------------------------------------------------------------------===*
 * Stripes
 *===----------------------------------------------------------------------===*/

/* How the operators of a kernel family map rows in a stripe. */
unsigned accel_stripe_overlays(const char *kernel) {
  int32_t i;
  if (!kernel)
    return 0;
  for (i = 0; i < K_COUNT; ++i)
    if (strcmp(kernel, kernels[i].name) == 0)
      return stripes[i].overlays;
  return 0;
}

int accel_stripe_rows(const char *kernel) {
  int32_t i;
  if (!kernel)
    return ACCEL_ROWS_NONE;
  for (i = 0; i < K_COUNT; ++i)
    if (strcmp(kernel, kernels[i].name) == 0)
      return stripes[i].rows;
  return ACCEL_ROWS_NONE;
}

/* True if `list` (a subgraph's inputs or outputs) holds tensor `index`. */
static int listed(reader *r, fb_vec list, int32_t index) {
  uint32_t i;
  for (i = 0; i < list.len; ++i)
    if (vec_i32(r, list, i) == index)
      return 1;
  return 0;
}

/* The rows of input 0 that rows [out_begin, out_end) of the result read,
 * and the padding rows above them, as the cascade planner computes them:
 * a window `extent` rows tall every `stride` rows from row -pad (convolutions
 * and pools), or rows shifted down by `pad` (PAD). True if `s` says exactly
 * these, so that the kernel sees the whole layer's geometry. */
static int stripe_input_ok(const accel_stripe *s, int kind, int64_t in_rows,
                           int64_t stride, int64_t extent, int64_t pad) {
  const int64_t first = (int64_t)s->out_begin * stride - pad;
  int64_t lo, hi, top;
  if (kind == ACCEL_ROWS_SHIFTED) {
    const int64_t last = (int64_t)s->out_end - pad;
    lo = first < 0 ? 0 : first > in_rows ? in_rows : first;
    hi = last < 0 ? 0 : last > in_rows ? in_rows : last;
    if (hi < lo)
      hi = lo;
    top = lo - first > 0 ? lo - first : 0;
  } else {
    const int64_t last = (int64_t)(s->out_end - 1) * stride + extent - pad;
    lo = first < 0 ? 0 : first;
    hi = last < in_rows ? last : in_rows;
    top = lo - first;
    /* Every result row reads some input row. */
    if (lo >= hi)
      return 0;
  }
  return s->in_begin == lo && s->in_end == hi && s->pad_top == top;
}

/* True if the family's kernels compute each output element from the same
 * element of their inputs, read before it is written, so that the result
 * may be written over an input it has the shape of (element-wise
 * arithmetic, activations, (re)quantization). */
/* Narrows `t` to its rows [begin, end), its buffer holding rows from
 * `base`; false if the buffer does not hold them. */
static int narrow(tensor *t, int32_t begin, int32_t end, int32_t base) {
  const int32_t held = t->held_rows ? t->held_rows : t->shape.dims[1];
  size_t row, off;
  if (begin < 0 || begin > end || end > t->shape.dims[1] || base < 0 ||
      base > begin || end - base > held)
    return 0;
  row = t->bytes / (size_t)t->shape.dims[1];
  off = (size_t)(begin - base) * row;
  t->host += off;
  t->device += off;
  t->shape.dims[1] = end - begin;
  t->bytes = t->held_bytes = (size_t)(end - begin) * row;
  t->held_rows = 0;
  return 1;
}

/* A striped subgraph's operator: checks it can run stripe by stripe and,
 * when a stripe is given, narrows its operands to the stripe's rows and its
 * padding to the stripe's. The subgraph's inputs and outputs stay in the
 * model's format in the arena (the device converts a stripe's rows as it
 * loads and stores them, which the kernels' own reads undo); its
 * intermediates, held as windows, in the device's. */
static void stripe_operands(machine *m, const kernel_info *k, params *p,
                            operands *o) {
  reader *r = &m->r;
  const accel_stripe *s = m->stripe;
  const int family = k->family;
  const int kind = stripes[k - kernels].rows;
  int32_t i;
  if (kind == ACCEL_ROWS_NONE) {
    fail(r, ACCEL_ERR_UNSUPPORTED);
    return;
  }
  if (family == FAM_concat && p->concat.axis < 2) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  for (i = 0; i <= o->count; ++i) {
    tensor *t = i < o->count ? &o->in[i] : &o->out;
    if (i < o->count && !o->present[i])
      continue;
    if (t->memory == MEM_CONSTANT) {
      /* Filters and biases; a constant operand of a row-wise operator is
       * broadcast along the rows. */
      if (kind == ACCEL_ROWS_SAME && t->shape.rank == 4 &&
          t->shape.dims[1] != 1) {
        fail(r, ACCEL_ERR_PROGRAM);
        return;
      }
      continue;
    }
    if (t->memory != MEM_ARENA || t->shape.rank != 4 ||
        t->shape.dims[0] != 1 || t->shape.dims[1] < 1 ||
        (kind != ACCEL_ROWS_SAME && i > 0 && i < o->count)) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    if (listed(r, m->sub_inputs, t->index) ||
        listed(r, m->sub_outputs, t->index))
      t->shifted = 0;
  }
  if (!s || r->status)
    return;
  if (s->operands != o->count + 1 || !s->first_row || s->out_begin < 0 ||
      s->out_begin >= s->out_end || s->out_end > o->out.shape.dims[1]) {
    fail(r, ACCEL_ERR_ARGUMENT);
    return;
  }
  if (kind != ACCEL_ROWS_SAME) {
    int64_t stride = 1, extent = 1, pad = 0;
    int32_t *pad_field = NULL;
    switch (family) {
    case FAM_conv2d:
      stride = p->conv2d.stride_h;
      extent = (int64_t)(o->in[1].shape.dims[1] - 1) * p->conv2d.dilation_h + 1;
      pad = p->conv2d.pad_top;
      pad_field = &p->conv2d.pad_top;
      break;
    case FAM_depthwise_conv2d:
      stride = p->depthwise_conv2d.stride_h;
      extent = (int64_t)(o->in[1].shape.dims[1] - 1) *
                   p->depthwise_conv2d.dilation_h + 1;
      pad = p->depthwise_conv2d.pad_top;
      pad_field = &p->depthwise_conv2d.pad_top;
      break;
    case FAM_pool2d:
      stride = p->pool2d.stride_h;
      extent = p->pool2d.filter_h;
      pad = p->pool2d.pad_top;
      pad_field = &p->pool2d.pad_top;
      break;
    default: /* FAM_pad */
      pad = p->pad.before[1];
      pad_field = &p->pad.before[1];
      break;
    }
    if (!stripe_input_ok(s, kind, o->in[0].shape.dims[1], stride, extent,
                         pad)) {
      fail(r, ACCEL_ERR_ARGUMENT);
      return;
    }
    *pad_field = s->pad_top;
  }
  for (i = 0; i <= o->count; ++i) {
    tensor *t = i < o->count ? &o->in[i] : &o->out;
    const int window = kind != ACCEL_ROWS_SAME && i == 0;
    if ((i < o->count && !o->present[i]) || t->memory == MEM_CONSTANT)
      continue;
    if (!narrow(t, window ? s->in_begin : s->out_begin,
                window ? s->in_end : s->out_end, s->first_row[i])) {
      fail(r, ACCEL_ERR_ARGUMENT);
      return;
    }
  }
}

/* A striped subgraph's operator reads no bytes its result writes, except
 * an element-wise one writing over exactly the rows of an input (a
 * cascade's last operator taking over its operand's bytes). Checked on the
 * stripe's operands, or the whole ones while checking the program. */
static void stripe_overlaps(machine *m, const kernel_info *k,
                            const operands *o) {
  int32_t i;
  for (i = 0; i < o->count; ++i) {
    const tensor *t = &o->in[i];
    if (!o->present[i] || !overlap(t, &o->out))
      continue;
    if (i >= 32 || !(stripes[k - kernels].overlays & (1u << i)) ||
        t->device != o->out.device ||
        t->held_bytes != o->out.held_bytes ||
        t->shifted != o->out.shifted) {
      fail(&m->r, ACCEL_ERR_PROGRAM);
      return;
    }
  }
}

/* The arguments of the kernel table's calls, in run_op's variables. */
#define REF_KERNEL_ARG_PARAMS(family) &p.family
#define REF_KERNEL_ARG_FIELD(family, field) p.family.field
#define REF_KERNEL_ARG_SHAPE(i) &shapes[i]
#define REF_KERNEL_ARG_DATA(i, type) (const CT_##type *)data[i]
/* Accelerator programs hold no variable tensors: a kernel with state reads
 * operands that may not be omitted past the bias, which the operand checks
 * reject before any call. */
#define REF_KERNEL_ARG_STATE(i, type) (CT_##type *)NULL
#define REF_KERNEL_ARG_OUTPUT_SHAPE &out_shape
#define REF_KERNEL_ARG_OUTPUT(type) (CT_##type *)out
#define REF_KERNEL_ARG_COUNT count
#define REF_KERNEL_ARG_ELEMENT_SIZE elem
#define REF_KERNEL_ARG_INPUT_SHAPES shape_ptrs
#define REF_KERNEL_ARG_INPUTS(type) inputs_##type
/* Kernels writing several results or needing working memory never run
 * here: family_runs_here refuses them before any call. */
#define REF_KERNEL_ARG_RESULT(k, type) (CT_##type *)NULL
#define REF_KERNEL_ARG_SCRATCH NULL

/* Decodes, checks and (unless only checking) runs one operator. */
static void run_op(machine *m, const fb_table *op) {
  reader *r = &m->r;
  fb_vec kernel_name = fb_vector(r, op, O_KERNEL, 1);
  fb_vec inputs = fb_vector(r, op, O_INPUTS, 4);
  fb_vec outputs = fb_vector(r, op, O_OUTPUTS, 4);
  fb_vec values = fb_vector(r, op, O_PARAMS, 4);
  const int32_t align = fb_i32(r, op, O_CHANNEL_ALIGN, 0);
  const int32_t source = fb_i32(r, op, O_SOURCE_INDEX, 0);
  operands o;
  const kernel_info *k = NULL;
  int kid = -1;
  params p;
  pointer_fields ptrs;
  const family_info *f;
  uint32_t channels;
  ref_shape shapes[ACCEL_MAX_OPERANDS], out_shape;
  const ref_shape *shape_ptrs[ACCEL_MAX_OPERANDS];
  const void *data[ACCEL_MAX_OPERANDS];
  void *out = NULL;
  size_t out_temp = NO_OFFSET, elem;
  /* Every data operand again, typed, for the kernels taking them all. */
  const int8_t *inputs_I8[ACCEL_MAX_OPERANDS];
  const uint8_t *inputs_U8[ACCEL_MAX_OPERANDS];
  const int16_t *inputs_I16[ACCEL_MAX_OPERANDS];
  const int32_t *inputs_I32[ACCEL_MAX_OPERANDS];
  const int64_t *inputs_I64[ACCEL_MAX_OPERANDS];
  const float *inputs_F32[ACCEL_MAX_OPERANDS];
  const uint8_t *inputs_BOOL[ACCEL_MAX_OPERANDS];
  int32_t i, count;
  int skip = 0;

  if (r->status)
    return;
  for (i = 0; i < K_COUNT; ++i)
    if (str_eq(r, kernel_name, kernels[i].name)) {
      kid = i;
      k = &kernels[i];
      break;
    }
  if (!k || !values.data) {
    fail(r, k || r->status ? ACCEL_ERR_PROGRAM : ACCEL_ERR_UNSUPPORTED);
    return;
  }
  if (!family_runs_here(k->family)) {
    fail(r, ACCEL_ERR_UNSUPPORTED);
    return;
  }
  decode_params(r, k->family, values, &p, &ptrs);
  f = &families[k->family];

  /* Operands. */
  if (inputs.len < (uint32_t)f->min_operands || inputs.len < 1 ||
      inputs.len > (uint32_t)(f->variadic ? ACCEL_MAX_OPERANDS
                                          : f->max_operands) ||
      outputs.len != 1) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  o.count = (int32_t)inputs.len;
  for (i = 0; i < o.count; ++i) {
    const int32_t idx = vec_i32(r, inputs, (uint32_t)i);
    /* Only a bias may be omitted. */
    o.present[i] = idx >= 0;
    if (idx < 0 && !(i == 2 && !f->variadic)) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    if (idx >= 0 && !read_tensor(m, idx, &o.in[i]))
      return;
  }
  for (; i < 3; ++i)
    o.present[i] = 0;
  if (!read_tensor(m, vec_i32(r, outputs, 0), &o.out))
    return;
  if (o.out.memory == MEM_CONSTANT || o.out.input >= 0) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  /* Windows of rows only in striped subgraphs. */
  if (!m->striped) {
    for (i = 0; i < o.count; ++i)
      if (o.present[i] && o.in[i].held_rows) {
        fail(r, ACCEL_ERR_PROGRAM);
        return;
      }
    if (o.out.held_rows) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
  }

  if (check_operands(k, &p, &o, &channels)) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  bind_pointer_fields(r, k->family, &p, &ptrs, channels);
  if (r->status)
    return;
  if (!check_params(k, &p, &o, channels)) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  /* The byte-moving kernels' element: the result's (a SELECT_V2's input 0
   * is its one-byte condition). */
  elem = dtype_size(o.out.dtype);

  /* A RESHAPE whose result shares its input's bytes moves nothing. */
  if (family_may_alias(k->family) && o.in[0].memory == o.out.memory &&
      o.in[0].input == o.out.input && o.in[0].device == o.out.device) {
    if (o.in[0].shifted != o.out.shifted) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    skip = 1;
  } else if (!m->striped) { /* stripe_operands checks a stripe's */
    for (i = 0; i < o.count; ++i)
      if (o.present[i] && overlap(&o.in[i], &o.out)) {
        fail(r, ACCEL_ERR_PROGRAM);
        return;
      }
  }

  if (m->striped) {
    if (skip) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    stripe_operands(m, k, &p, &o);
    if (!r->status)
      stripe_overlaps(m, k, &o);
    /* Checking the program only: the temporaries are a stripe's, checked
     * with each stripe. */
    if (r->status || !m->stripe)
      return;
  }

  /* 16C: channel-wise operators on padded channels. */
  if (align != 0) {
    if (align < 0 || align > 64 || skip ||
        !(k->family == FAM_pool2d ||
          (k->family == FAM_mean && o.in[0].shape.rank > 0 &&
           !((p.mean.axis_mask >> (o.in[0].shape.rank - 1)) & 1u))) ||
        o.out.shape.rank == 0 ||
        o.out.shape.dims[o.out.shape.rank - 1] !=
            o.in[0].shape.dims[o.in[0].shape.rank - 1]) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
  }

  /* Operands as the kernel reads them: converted from the accelerator's
   * format, padded to 16C. An omitted bias is a null pointer. */
  m->temp_top = m->temp_base;
  data[1] = data[2] = NULL;
  for (i = 0; i < o.count; ++i) {
    const tensor *t = &o.in[i];
    shapes[i] = t->shape;
    shape_ptrs[i] = &shapes[i];
    data[i] = NULL;
    if (!o.present[i])
      continue;
    data[i] = device_ptr(m, t);
    if (skip)
      continue;
    if (i == 0 && align) {
      const int32_t c = t->shape.dims[t->shape.rank - 1];
      const size_t rows = c ? t->bytes / elem / (size_t)c : 0;
      size_t at;
      shapes[0] = padded_shape(&t->shape, align);
      at = temp_alloc(m, (size_t)shape_elements(&shapes[0]) * elem);
      if (at == NO_OFFSET)
        return;
      if (m->scratch) {
        copy_rows(m->scratch + at, (const uint8_t *)data[0], rows, (size_t)c,
                  (size_t)shapes[0].dims[shapes[0].rank - 1], elem, t->shifted);
        data[0] = m->scratch + at;
      }
    } else if (t->shifted) {
      size_t at = temp_alloc(m, t->bytes);
      if (at == NO_OFFSET)
        return;
      if (m->scratch) {
        convert(m->scratch + at, (const uint8_t *)data[i], t->bytes, 1);
        data[i] = m->scratch + at;
      }
    }
  }
  out_shape = o.out.shape;
  out = device_ptr(m, &o.out);
  if (align && !skip) {
    out_shape = padded_shape(&o.out.shape, align);
    out_temp = temp_alloc(m, (size_t)shape_elements(&out_shape) * elem);
    if (out_temp == NO_OFFSET)
      return;
    out = m->scratch ? m->scratch + out_temp : NULL;
  }
  if (r->status || !m->arena)
    return; /* only checking */

  count = shape_elements(&out_shape);
  for (i = 0; i < o.count; ++i) {
    inputs_I8[i] = (const int8_t *)data[i];
    inputs_U8[i] = (const uint8_t *)data[i];
    inputs_I16[i] = (const int16_t *)data[i];
    inputs_I32[i] = (const int32_t *)data[i];
    inputs_I64[i] = (const int64_t *)data[i];
    inputs_F32[i] = (const float *)data[i];
    inputs_BOOL[i] = (const uint8_t *)data[i];
  }
  if (!skip) {
    switch (kid) {
#define REF_KERNEL_CALL(name, family, st, ...)                                 \
  case K_##name:                                                               \
    name(__VA_ARGS__);                                                         \
    break;
#include "accel_target_kernels.inc"
#include "ref_kernel_table.inc"
    default:
      fail(r, ACCEL_ERR_UNSUPPORTED);
      return;
    }
  }
  (void)count;

  /* The result: unpadded, traced in the model's format, then stored in the
   * accelerator's. */
  {
    uint8_t *dst = device_ptr(m, &o.out);
    if (out_temp != NO_OFFSET) {
      const int32_t c = o.out.shape.dims[o.out.shape.rank - 1];
      copy_rows(dst, m->scratch + out_temp, c ? o.out.bytes / elem / (size_t)c : 0,
                (size_t)out_shape.dims[out_shape.rank - 1], (size_t)c, elem, 0);
    }
    if (m->trace) {
      if (skip && o.out.shifted) {
        size_t at = temp_alloc(m, o.out.bytes);
        if (at == NO_OFFSET || !m->scratch)
          return;
        convert(m->scratch + at, dst, o.out.bytes, 1);
        m->trace(source, o.out.id, m->scratch + at, o.out.bytes);
      } else {
        m->trace(source, o.out.id, dst, o.out.bytes);
      }
    }
    if (!skip && o.out.shifted)
      convert(dst, dst, o.out.bytes, 1);
  }
}

/*===----------------------------------------------------------------------===*
 * Running a subgraph
 *===----------------------------------------------------------------------===*/

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  uint8_t first;
  memcpy(&first, &one, 1);
  return first == 1;
}

/* Opens the program: the root table and its vectors. */
static fb_table open_program(reader *r, const uint8_t *program, size_t bytes,
                             fb_vec *subgraphs, fb_vec *buffers) {
  fb_table root = {0, 0, 0, 0};
  r->p = program;
  r->n = bytes;
  r->status = ACCEL_OK;
  if (!program || bytes < 8) {
    fail(r, program ? ACCEL_ERR_PROGRAM : ACCEL_ERR_ARGUMENT);
    return root;
  }
  if (!host_is_little_endian() || ((uintptr_t)program & 7u)) {
    fail(r, ACCEL_ERR_UNSUPPORTED);
    return root;
  }
  if (memcmp(program + 4, "AGPR", 4) != 0) {
    fail(r, ACCEL_ERR_PROGRAM);
    return root;
  }
  root = fb_table_at(r, rd_u32(r, 0));
  if (!root.pos)
    fail(r, ACCEL_ERR_PROGRAM);
  *subgraphs = fb_vector(r, &root, P_SUBGRAPHS, 4);
  *buffers = fb_vector(r, &root, P_BUFFERS, 4);
  return root;
}

/* Runs (arena non-null) or checks one subgraph. */
static void run_subgraph(machine *m, const fb_table *sub, double *cycles) {
  reader *r = &m->r;
  fb_vec convert_in = fb_vector(r, sub, S_CONVERT_IN, 4);
  fb_vec convert_out = fb_vector(r, sub, S_CONVERT_OUT, 4);
  fb_vec layers = fb_vector(r, sub, S_LAYERS, 4);
  const int64_t declared = fb_i64(r, sub, S_SCRATCH_BYTES, 0);
  double total = fb_f64(r, sub, S_SWITCH_CYCLES, 0);
  uint32_t i, j;
  tensor t;

  m->tensors = fb_vector(r, sub, S_TENSORS, 4);
  m->sub_inputs = fb_vector(r, sub, S_INPUTS, 4);
  m->sub_outputs = fb_vector(r, sub, S_OUTPUTS, 4);
  m->striped = fb_i8(r, sub, S_STRIPED, 0) != 0;
  m->stripe = NULL;
  if (r->status)
    return;
  /* A striped subgraph runs one stripe of one operator at a time, its
   * conversions per stripe, nothing in scratch memory but temporaries. */
  if (m->striped && m->arena) {
    fail(r, ACCEL_ERR_ARGUMENT);
    return;
  }
  if (m->striped && (convert_in.len || convert_out.len)) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }
  if (declared < 0 || (uint64_t)declared > m->scratch_bytes ||
      m->tensors.len > ACCEL_MAX_TENSORS) {
    fail(r, declared < 0 || m->tensors.len > ACCEL_MAX_TENSORS
                ? ACCEL_ERR_PROGRAM
                : ACCEL_ERR_MEMORY);
    return;
  }
  /* Temporaries go above the tensors kept in scratch memory. */
  m->temp_base = 0;
  for (i = 0; i < m->tensors.len; ++i) {
    if (!read_tensor(m, (int32_t)i, &t))
      return;
    if (t.memory == MEM_SCRATCH && t.device + t.bytes > m->temp_base)
      m->temp_base = t.device + t.bytes;
  }
  if (m->striped && m->temp_base) {
    fail(r, ACCEL_ERR_PROGRAM);
    return;
  }

  /* The accelerator's inputs, converted to its formats. */
  for (i = 0; i < convert_in.len; ++i) {
    if (!read_tensor(m, vec_i32(r, convert_in, i), &t))
      return;
    if (t.host == NO_OFFSET || t.memory == MEM_CONSTANT) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    if (m->arena)
      convert(device_ptr(m, &t), host_ptr(m, &t), t.bytes, t.shifted);
  }

  for (i = 0; i < layers.len && !r->status; ++i) {
    fb_table layer = vec_table(r, layers, i);
    fb_vec ops = fb_vector(r, &layer, L_OPS, 4);
    const double c = fb_f64(r, &layer, L_CYCLES, -1);
    if (!layer.pos)
      fail(r, ACCEL_ERR_PROGRAM);
    for (j = 0; j < ops.len && !r->status; ++j) {
      fb_table op = vec_table(r, ops, j);
      if (!op.pos)
        fail(r, ACCEL_ERR_PROGRAM);
      run_op(m, &op);
    }
    if (c > 0)
      total += c;
  }

  /* Its outputs, converted back to the model's formats. */
  for (i = 0; i < convert_out.len && !r->status; ++i) {
    if (!read_tensor(m, vec_i32(r, convert_out, i), &t))
      return;
    if (t.host == NO_OFFSET || t.memory == MEM_CONSTANT || t.input >= 0) {
      fail(r, ACCEL_ERR_PROGRAM);
      return;
    }
    if (m->arena)
      convert(host_ptr(m, &t), device_ptr(m, &t), t.bytes, t.shifted);
  }
  if (cycles && !r->status)
    *cycles += total;
}

/* Starts a run of subgraph `subgraph` in `memory` (arena and scratch memory
 * still null: the run checks first): the machine, *sub; or a status. */
static int start_run(machine *m, const uint8_t *program, size_t program_bytes,
                     int32_t subgraph, const accel_memory *memory,
                     accel_trace_fn trace, fb_table *sub) {
  fb_vec subgraphs;
  memset(m, 0, sizeof(*m));
  if (!memory || !memory->arena ||
      (!memory->scratch && memory->scratch_bytes != 0) ||
      ((uintptr_t)memory->scratch & 7u))
    return ACCEL_ERR_ARGUMENT;
  open_program(&m->r, program, program_bytes, &subgraphs, &m->buffers);
  if (m->r.status)
    return m->r.status;
  if (subgraph < 0 || (uint32_t)subgraph >= subgraphs.len)
    return ACCEL_ERR_ARGUMENT;
  m->arena_bytes = memory->arena_bytes;
  m->scratch_bytes = memory->scratch_bytes;
  m->trace = trace;
  m->inputs = memory->inputs;
  m->input_count = memory->input_count;
  *sub = vec_table(&m->r, subgraphs, (uint32_t)subgraph);
  if (!sub->pos)
    fail(&m->r, ACCEL_ERR_PROGRAM);
  return m->r.status;
}

int accel_run_subgraph(const uint8_t *program, size_t program_bytes,
                      int32_t subgraph, const accel_memory *memory,
                      accel_trace_fn trace, double *cycles) {
  machine m;
  fb_table sub;
  const int status =
      start_run(&m, program, program_bytes, subgraph, memory, trace, &sub);
  if (status)
    return status;
  /* Check everything first, so that a malformed program writes nothing. */
  run_subgraph(&m, &sub, NULL);
  if (m.r.status)
    return m.r.status;
  m.arena = memory->arena;
  m.scratch = memory->scratch;
  run_subgraph(&m, &sub, cycles);
  return m.r.status;
}

int accel_run_stripe(const uint8_t *program, size_t program_bytes,
                     int32_t subgraph, int32_t op, const accel_stripe *stripe,
                     const accel_memory *memory, accel_trace_fn trace,
                     double *cycles) {
  machine m;
  fb_vec layers, ops = {0, 0};
  fb_table sub, layer = {0, 0, 0, 0}, found;
  uint32_t i;
  int32_t left = op;
  double layer_cycles = -1;
  int last_of_layer = 0;
  int status;
  if (!stripe || op < 0)
    return ACCEL_ERR_ARGUMENT;
  status = start_run(&m, program, program_bytes, subgraph, memory, trace, &sub);
  if (status)
    return status;
  m.tensors = fb_vector(&m.r, &sub, S_TENSORS, 4);
  m.sub_inputs = fb_vector(&m.r, &sub, S_INPUTS, 4);
  m.sub_outputs = fb_vector(&m.r, &sub, S_OUTPUTS, 4);
  m.striped = fb_i8(&m.r, &sub, S_STRIPED, 0) != 0;
  layers = fb_vector(&m.r, &sub, S_LAYERS, 4);
  if (m.r.status)
    return m.r.status;
  if (!m.striped || fb_i64(&m.r, &sub, S_SCRATCH_BYTES, 0) < 0 ||
      (uint64_t)fb_i64(&m.r, &sub, S_SCRATCH_BYTES, 0) > m.scratch_bytes)
    return m.striped ? ACCEL_ERR_MEMORY : ACCEL_ERR_ARGUMENT;
  /* Operator `op` of the subgraph, counting through its layers. */
  for (i = 0; i < layers.len && !m.r.status; ++i) {
    layer = vec_table(&m.r, layers, i);
    ops = fb_vector(&m.r, &layer, L_OPS, 4);
    if (!layer.pos)
      fail(&m.r, ACCEL_ERR_PROGRAM);
    if ((uint32_t)left < ops.len)
      break;
    left -= (int32_t)ops.len;
  }
  if (m.r.status)
    return m.r.status;
  if (i == layers.len)
    return ACCEL_ERR_ARGUMENT;
  layer_cycles = fb_f64(&m.r, &layer, L_CYCLES, -1);
  last_of_layer = (uint32_t)left + 1 == ops.len;
  found = vec_table(&m.r, ops, (uint32_t)left);
  if (!found.pos)
    fail(&m.r, ACCEL_ERR_PROGRAM);
  /* Temporaries only: a striped subgraph keeps no tensor in scratch. */
  m.temp_base = 0;
  m.stripe = stripe;
  /* Check first, so that a malformed program or stripe writes nothing. */
  run_op(&m, &found);
  if (m.r.status)
    return m.r.status;
  m.arena = memory->arena;
  m.scratch = memory->scratch;
  run_op(&m, &found);
  if (m.r.status)
    return m.r.status;
  /* The cycles: the subgraph's device switches with each stripe of its
   * first operator, and each layer's share of its rows with its last
   * operator's. */
  if (cycles) {
    fb_vec outputs = fb_vector(&m.r, &found, O_OUTPUTS, 4);
    tensor t;
    if (op == 0)
      *cycles += fb_f64(&m.r, &sub, S_SWITCH_CYCLES, 0);
    if (last_of_layer && layer_cycles > 0 &&
        read_tensor(&m, vec_i32(&m.r, outputs, 0), &t) &&
        t.shape.rank == 4 && t.shape.dims[1] > 0)
      *cycles += layer_cycles * (double)(stripe->out_end - stripe->out_begin) /
                 (double)t.shape.dims[1];
  }
  return m.r.status;
}

int accel_check_program(const uint8_t *program, size_t program_bytes,
                       size_t arena_bytes, size_t scratch_bytes) {
  machine m;
  fb_vec subgraphs;
  uint32_t i;
  memset(&m, 0, sizeof(m));
  open_program(&m.r, program, program_bytes, &subgraphs, &m.buffers);
  m.arena_bytes = arena_bytes;
  m.scratch_bytes = scratch_bytes;
  for (i = 0; i < subgraphs.len && !m.r.status; ++i) {
    fb_table sub = vec_table(&m.r, subgraphs, i);
    if (!sub.pos)
      fail(&m.r, ACCEL_ERR_PROGRAM);
    run_subgraph(&m, &sub, NULL);
  }
  return m.r.status;
}

int32_t accel_subgraph_count(const uint8_t *program, size_t program_bytes) {
  reader r;
  fb_vec subgraphs, buffers;
  open_program(&r, program, program_bytes, &subgraphs, &buffers);
  return r.status ? -1 : (int32_t)subgraphs.len;
}

const char *accel_status_name(int status) {
  switch (status) {
  case ACCEL_OK:
    return "ok";
  case ACCEL_ERR_PROGRAM:
    return "malformed program";
  case ACCEL_ERR_MEMORY:
    return "tensor outside the memory given";
  case ACCEL_ERR_UNSUPPORTED:
    return "unsupported by the functional model";
  case ACCEL_ERR_ARGUMENT:
    return "bad argument";
  default:
    return "unknown status";
  }
}
