//===- accelgen.td - Base classes of the accelerator description language -===//
//
// Every target description includes this file. It defines the vocabulary a
// vendor uses to describe an accelerator: element types and quantization
// schemes, operators and their attributes, hardware versions, constraints,
// legality, attribute mappings, quantization rules, fusion patterns, kernels,
// cost estimates and device semantics (how the accelerator computes and
// stores differently from the CPU). accelgen-tblgen reads the records built from these
// classes into one typed target model; the `.yaml` form of a target carries
// the same content.
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Element types and quantization schemes
//===----------------------------------------------------------------------===//

/// An element type; its name is the one the Graph IR and constraints use.
class DType<string name> { string Name = name; }
def i8   : DType<"i8">;
def u8   : DType<"u8">;
def i16  : DType<"i16">;
def i32  : DType<"i32">;
def i64  : DType<"i64">;
def f16  : DType<"f16">;
def f32  : DType<"f32">;
/// One byte, 0 or 1 (TensorFlow Lite's bool); kernels read any non-zero
/// byte as true.
def bool : DType<"bool">;
/// TensorFlow Lite's uint32 (CAST's, and the audio front ends').
def u32  : DType<"u32">;
/// No element type in particular: an unset type in a KernelInstance.
def AnyElement : DType<"">;

/// How a tensor's quantization parameters are laid out.
class QuantScheme<string name, bit symmetric, bit perChannel> {
  string Name = name;
  bit Symmetric = symmetric;    // zero point fixed at 0
  bit PerChannel = perChannel;  // one scale per output channel
}
def AsymmetricPerTensor : QuantScheme<"asymmetric_per_tensor", 0, 0>;
def SymmetricPerTensor  : QuantScheme<"symmetric_per_tensor", 1, 0>;
def SymmetricPerChannel : QuantScheme<"symmetric_per_channel", 1, 1>;
def AsymmetricPerChannel : QuantScheme<"asymmetric_per_channel", 0, 1>;

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// The kind of an attribute's value.
class AttrKind<string name> { string Name = name; }
def IntAttr    : AttrKind<"int">;
def FloatAttr  : AttrKind<"float">;
def BoolAttr   : AttrKind<"bool">;
def StringAttr : AttrKind<"string">;
def IntsAttr   : AttrKind<"ints">;

/// A named, typed operator attribute.
class Attr<string name, AttrKind kind> {
  string Name = name;
  AttrKind Kind = kind;
}

/// An operand of an operator; optional operands may be omitted (index -1).
class Operand<string name, bit optional = 0> {
  string Name = name;
  bit Optional = optional;
}

/// How the rows an operator reads (dimension 1 of an NHWC input) follow from
/// a stripe of the rows it writes, rows [a, b) of output 0: an affine map the
/// cascading planner (docs/cascading.md) uses to run a chain of operators
/// stripe by stripe. -gen-op-vocabulary reads it for the planner, and
/// -gen-kernel-table for the functional model (each kernel's STRIPE row).
class StripeRows<string kind> { string Kind = kind; }
/// Not stripable: the operator needs all of its input at once.
def RowsWhole : StripeRows<"whole">;
/// Rows [a, b) of every non-constant input (element-wise operators,
/// activations, CONCATENATION along a later axis, a RESHAPE keeping rows).
def RowsIdentity : StripeRows<"identity">;
/// Sums over the rows of input 0 (FULLY_CONNECTED over a flattened image):
/// the operator reads its input a stripe of rows at a time, keeping one int32
/// sum per output element, and writes its whole output once it has read the
/// last row. It can end a cascade only: the planner runs the stripes of its
/// input 0 in order, each row once, and the emitter calls the kernel's
/// `_accumulate` and `_finish` forms (docs/cascading.md).
def RowsAccumulate : StripeRows<"accumulate">;
/// Rows [a - p, b - p) of input 0, clipped to it, where p is the padding
/// before dimension 1: element [1][0] of operand 1, the constant [4][2]
/// paddings (PAD; ir::rowShift).
def RowsShifted : StripeRows<"shifted">;
/// A sliding window (convolutions, pools): rows [a*s - p, (b-1)*s + (k-1)*d
/// + 1 - p) of input 0, clipped to it. s is attribute Stride, d attribute
/// Dilation (1 when the list is empty), k attribute Kernel or else dimension 1
/// of operand KernelOperand (exactly one of the two lists holds one), p the
/// SAME padding before row 0.
class RowsWindow<Attr stride, list<Attr> dilation, list<Attr> kernel,
                 list<Operand> kernelOperand> : StripeRows<"window"> {
  Attr Stride = stride;
  list<Attr> Dilation = dilation;
  list<Attr> Kernel = kernel;
  list<Operand> KernelOperand = kernelOperand;
}

/// An operator: the canonical vocabulary of the Graph IR (TensorFlow Lite
/// builtin names), or an accelerator's own operator (see TargetOp).
class Op<string name, list<Operand> operands, list<Attr> attrs = [],
         int results = 1> {
  string Name = name;
  list<Operand> Operands = operands;
  list<Attr> Attrs = attrs;
  int NumResults = results;
  /// More operands may follow the listed ones (CONCATENATION, LSTM).
  bit Variadic = 0;
  /// A canonical operator is the TensorFlow Lite builtin of its name, whose
  /// code tflite.td lists; 0 for one of accelgen's own (REQUANTIZE) and for
  /// a TensorFlow Lite custom operator, which files name by its custom code
  /// (TFLite_Detection_PostProcess). Only
  /// -gen-op-vocabulary reads it; target operators are never builtins.
  bit IsBuiltin = 1;
  /// Which input rows a stripe of output rows reads (see StripeRows).
  StripeRows Rows = RowsWhole;
  /// Which input columns (dimension 2) a tile of output columns reads: the
  /// same transforms over the columns, whole or a window (whose kernel
  /// operand gives the kernel's width as its dimension 2), for a cascade run
  /// in tiles of rows and columns (docs/cascading.md, "Tiles").
  StripeRows Cols = RowsWhole;
  /// The operands whose bytes output 0 may take over (an in-place operator):
  /// every kernel of the operator reads each element of such an operand
  /// before it writes the same element of the output, so when the output has
  /// the operand's shape and byte size and the operator is the operand's last
  /// use, the memory planner (docs/memory-plan.md) may place the output where
  /// the operand is. Element-wise operators, activations, (re)quantization.
  /// -gen-op-vocabulary reads it for the memory planner and -gen-kernel-table
  /// for the functional model, for canonical operators.
  list<Operand> OutputOverlays = [];
  /// The generated code runs it itself, without a kernel: control flow
  /// (IF, WHILE, CALL_ONCE call other graphs of the model) and resource
  /// variables (state the model keeps across invocations). Only a target
  /// that runs every operator on the host CPU itself (CpuFallback = "")
  /// may declare one (docs/control-flow.md).
  bit RunByHost = 0;
}

//===----------------------------------------------------------------------===//
// Targets and hardware versions
//===----------------------------------------------------------------------===//

/// A hardware version, named by dotted numbers ("1.5", "2.0"). A target lists
/// its versions oldest first; a rule declared for a version holds for every
/// later one until a later rule overrides it.
class Version<string name> { string Name = name; }

/// How a target's operators become code that runs: the accelgen backend that
/// compiles them, registered under Name (lib/driver/Backend.h). `accelgen
/// compile` and `run` ask the target's backend and nothing else; a target
/// whose backend this accelgen does not have can only be explained. A plugin
/// may declare and register a backend of its own.
class Backend<string name> {
  string Name = name;
  /// Its programs run on the functional model (lib/program/c): the target's
  /// operators compute like the framework's, under the device semantics the
  /// description declares (see "Device semantics"), so the reference kernels
  /// compute them exactly and the target needs no C of its own. The device
  /// limits (DeviceRules.h) then decide legality too.
  bit FunctionalModel = 0;
}
/// No backend: the target can only be explained.
def NoBackend : Backend<"">;
/// The reference C kernels on the host CPU (lib/kernels, templates/ref).
def RefKernels : Backend<"ref-kernels">;
/// C kernels specialised per operator on the host CPU (targets/cpu).
def CpuKernels : Backend<"cpu-kernels">;
/// Direct calls of CMSIS-NN's arm_* functions on Arm Cortex-M
/// (targets/cmsis-nn).
def CmsisNnCalls : Backend<"cmsis-nn-calls">;
/// Accelerator programs (lib/program) run by the functional model.
def FunctionalModelPrograms : Backend<"functional-model"> {
  let FunctionalModel = 1;
}

/// An accelerator (or the CPU) that operators can be placed on.
class Target<string name, list<Version> versions> {
  string Name = name;
  list<Version> Versions = versions;
  string Description = "";
  /// Estimated cycles of moving one tensor between this target and the CPU,
  /// paid for every tensor crossing a partition boundary (see Cost).
  int SwitchCycles = 0;
  /// The backend that compiles the operators placed on this target.
  Backend Backend = NoBackend;
  /// The target (a label, "cpu") whose rules and backend take the operators
  /// this target does not run; empty for a target that runs every operator
  /// itself on the host CPU (ref, cpu).
  string CpuFallback = "cpu";
  /// Non-empty for a library-call target: the library whose functions its
  /// operators become ("CMSIS-NN"), named where an accelerator target says
  /// "the accelerator" (`accelgen explain`).
  string Library = "";
}

/// An operator that exists only on a target: the result of mappings and
/// fusion patterns. Its name is what the target's runtime or kernels know.
class TargetOp<Target target, string name, list<Operand> operands,
               list<Attr> attrs = [], int results = 1>
    : Op<name, operands, attrs, results> {
  Target OnTarget = target;
}

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

/// A condition on an operator, written in the constraint language: attribute
/// references (`stride_h`), operand and result properties (`input(1).dtype`,
/// `output(0).scale`, `input(0).dim(3)`, `channels`, `rank`, `is_constant`,
/// `zero_point`, `per_channel`), the multiply-accumulate count `macs`,
/// arithmetic, `min`, `max`, `ceil`, `floor`, `align`, `select`, comparisons,
/// `in [a, b]`, `in {a, b}`, `&&`, `||`, `!`. The id is stable: diagnostics,
/// docs, tests and overrides refer to it. `Hint` says what would make the
/// operator legal.
class Constraint<string id, string expr, string summary, string hint = ""> {
  string Id = id;
  string Expr = expr;
  string Summary = summary;
  string Hint = hint;
  string CppFunction = "";
}

/// The escape hatch: a constraint decided by a named C++ function
/// `bool fn(const accelgen::ir::Graph &, const accelgen::ir::Operator &)`.
class CppConstraint<string id, string function, string summary,
                    string hint = ""> : Constraint<id, "", summary, hint> {
  let CppFunction = function;
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// Operator `op` runs on `target` from version `since` on, for inputs of the
/// element types `types`, when every constraint holds. A later Legal for the
/// same operator and target overrides this one from its own version on: it
/// keeps the earlier constraints, replaces those with the same id, drops those
/// named in `Drops`, and replaces the types if it lists any.
class Legal<Op op, Target target, Version since, list<DType> types,
            list<Constraint> constraints = []> {
  Op Operator = op;
  Target OnTarget = target;
  Version Since = since;
  list<DType> Types = types;
  list<QuantScheme> WeightSchemes = [];  // empty: any scheme
  list<Constraint> Constraints = constraints;
  list<string> Drops = [];
}

/// Operator `op` is no longer available on `target` from version `since`.
class Removed<Op op, Target target, Version since> {
  Op Operator = op;
  Target OnTarget = target;
  Version Since = since;
}

//===----------------------------------------------------------------------===//
// Mappings: attribute conversion
//===----------------------------------------------------------------------===//

/// A legal `from` operator becomes the target operator `to` when the
/// constraints hold (e.g. a CONV_2D whose groups each have one input channel
/// becomes a DEPTHWISE_CONV_2D). Mappings of one operator are tried by
/// descending benefit, then in declaration order; the first that holds wins.
class Mapping<Op from, Op to, Target target, list<Constraint> constraints = [],
              int benefit = 1> {
  Op From = from;
  Op To = to;
  Target OnTarget = target;
  Version Since = ?;  // unset: every version of the target
  list<Constraint> Constraints = constraints;
  int Benefit = benefit;
  /// Attributes set on the new operator, as "name=value" (ints or strings).
  list<string> SetAttrs = [];
}

//===----------------------------------------------------------------------===//
// Quantization rules
//===----------------------------------------------------------------------===//

/// A relation between quantization parameters across an operator.
class QuantRelation<string name> { string Name = name; }
/// Inputs and output share scale and zero point.
def SameScale : QuantRelation<"same_scale">;
/// The output's parameters are forwarded to the inputs (no requantization).
def ForwardOutputToInputs : QuantRelation<"forward_output_to_inputs">;
/// bias scale == input scale * weight scale (per channel where the weights are).
def BiasScaleProduct : QuantRelation<"bias_scale_product">;
/// The output has a fixed scale and zero point (see FixedOutputRange).
def FixedOutput : QuantRelation<"fixed_output">;
/// A constraint-language condition (see `Check`).
def QuantCheck : QuantRelation<"check">;

/// What to do when a quantization rule does not hold.
class QuantAction<string name> { string Name = name; }
def Reject : QuantAction<"reject">;
def InsertRequantizeBefore : QuantAction<"insert_requantize_before">;
def InsertRequantizeAfter : QuantAction<"insert_requantize_after">;

/// How quantization parameters relate across `op` on `target`.
class QuantRule<Op op, Target target, QuantRelation relation,
                QuantAction onFail = Reject> {
  Op Operator = op;
  Target OnTarget = target;
  Version Since = ?;  // unset: every version of the target
  Version Until = ?;  // unset: no end
  QuantRelation Relation = relation;
  QuantAction OnFail = onFail;
  /// For QuantCheck: the condition.
  Constraint Check = ?;
  /// For FixedOutput: the output scale (a decimal number) and zero point.
  string Scale = "";
  int ZeroPoint = 0;
}

//===----------------------------------------------------------------------===//
// Fusion patterns
//===----------------------------------------------------------------------===//

/// A named set of operators, as a hardware guide groups them ("ACT1: RELU,
/// TANH, LOGISTIC"): a pattern node naming the set matches any member. The
/// members declare the same operands (count, names, optionality), so the
/// operands a pattern names mean the same whichever member matches. `Results`
/// is empty or lists, per member, the operator that member becomes when a
/// pattern's result names the set (see Pattern).
class OpSet<string name, list<Op> members, list<Op> results = []> {
  string Name = name;
  list<Op> Members = members;
  list<Op> Results = results;
}

/// A dag of operators with captures, replaced by one target operator. In
/// `Source`, `(Relu:$act (Conv2D:$conv $x, $w, $b))` matches a RELU reading a
/// CONV_2D; `$x` names an operand, `:$conv` names a matched operator. A node
/// may name an OpSet instead of an operator: `(Act1:$act (Conv:$conv $x, $w,
/// $b))` matches any member of Act1 reading any member of Conv. The
/// intermediate results must have no other user. `Result` is
/// `(TargetOperator $x, $w, $b)`, or, to let the matched member decide,
/// `(Conv:$conv $x, $w, $b)`: the set's result for the member the source node
/// `$conv` (a node of that set) matched. Constraints use capture names as
/// prefixes (`conv.stride_h`, `conv.op` for the matched operator's type); a
/// set's capture has the attributes all its members have. Patterns are tried
/// by descending benefit, then by name.
class Pattern<Target target, dag source, dag result,
              list<Constraint> constraints = [], int benefit = 1> {
  Target OnTarget = target;
  Version Since = ?;  // unset: every version of the target
  dag Source = source;
  dag Result = result;
  list<Constraint> Constraints = constraints;
  int Benefit = benefit;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// One field of a kernel family's parameter struct, in declaration order.
/// `CType` is one of int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
/// uint32_t, uint64_t, float, double. `Doc` is printed above the field.
class KernelField<string name, string ctype, string doc = ""> {
  string Name = name;
  string CType = ctype;
  string Doc = doc;
  /// Non-empty: a fixed array of this many elements (a C constant
  /// expression, such as REF_MAX_RANK).
  string Length = "";
  /// A pointer to a constant array whose length the operator decides (one
  /// entry per output channel, per input, ...).
  bit Pointer = 0;
}
class ArrayField<string name, string ctype, string length, string doc = "">
    : KernelField<name, ctype, doc> {
  let Length = length;
}
class PointerField<string name, string ctype, string doc = "">
    : KernelField<name, ctype, doc> {
  let Pointer = 1;
}

/// One argument of a kernel function, in order. Kinds:
///   params        `const <struct> *params`
///   fields        the parameter fields themselves, by value, in order
///   shape         `const ref_shape *<name>` of data operand `Operand`
///   data          `const T *<name>`, data operand `Operand`
///   output_shape  `const ref_shape *output_shape`
///   output        `T *output`
///   count         `int32_t count`, the output's element count
///   element_size  `size_t element_size`, bytes per element
///   input_shapes  `const ref_shape *const *input_shapes`, every data operand
///   inputs        `const T *const *inputs`, every data operand
///   state         `T *<name>`, data operand `Operand`, which the kernel
///                 reads and updates in place (a variable tensor: LSTM state)
///   result        `T *<name>`, result `Operand` (1 or more; result 0 is
///                 `output`): a call that writes every result of its
///                 operator at once, so the operator runs as one call
///   scratch       `void *scratch`, working memory for the call (8-byte
///                 aligned), of the size the family's builder gives
/// `Elem` is the element type of a data argument: "in" (the kernel's
/// DTYPE), "out" (its OUT, or DTYPE), "acc" (i32 for a quantized DTYPE, f32
/// otherwise: biases), "wide" (i16 for a quantized DTYPE, f32 otherwise: the
/// LSTM cell state) or "any" (kernels that move bytes: `void`).
class KernelArg<string kind, string name, int operand = -1, string elem = ""> {
  string Kind = kind;
  string Name = name;
  int Operand = operand;
  string Elem = elem;
  /// A data operand the operator may omit (a null pointer then).
  bit Optional = 0;
}

/// One function of a kernel family: the operator it computes, its name
/// stem, the element types it reads (`dtype`, unset for byte-moving
/// kernels) and writes (`out`, unset: the same; AnyElement is unset), and a
/// variant ("" or, for instance, "per_channel"). `weights` is the element
/// type of arguments of element `weights` (unset: `dtype`; int8 for the
/// 16x8 kernels), `acc` that of arguments of element `acc` (unset: int32,
/// float32 for float kernels; int64 for the 16x8 convolutions). Its C name
/// is `<library>_<stem>[_<dtype>][_<out>][_<variant>]`.
class KernelInstance<Op op, string stem, DType dtype = AnyElement,
                     DType out = AnyElement, string variant = "",
                     DType weights = AnyElement, DType acc = AnyElement> {
  Op Operator = op;
  string Stem = stem;
  DType Type = dtype;
  DType Out = out;
  string Variant = variant;
  DType Weights = weights;
  DType Acc = acc;
}

/// One calling convention of a kernel library: a parameter struct
/// (`<library>_<name>_params`), the arguments in order, and the functions
/// that share them. `Template` names the files that define the functions:
/// `<library>/<template>.h.in` and `.c.in` under the template folder, rendered
/// once per instance, or when `Rendered` is 0 the plain C files
/// `<library>_<template>.h` and `.c` of the kernel source folder. `Builder`
/// is the C++ function (accelgen::kernels::detail) that computes the fields
/// from an operator.
class KernelFamily<string name, string template, string builder> {
  string Library = "ref";
  string Name = name;
  string Template = template;
  bit Rendered = 1;
  string Builder = builder;
  string Doc = "";
  /// The result may share its input's bytes (the memory planner aliases
  /// them), and then nothing runs: a byte copy such as RESHAPE.
  bit MayAlias = 0;
  /// Its quantized functions round nothing (they move, select or pad
  /// values, or dequantize exactly), so they compute every arithmetic of
  /// quantized operators alike: TensorFlow Lite's and ONNX's
  /// (ir::Graph::Computes). Other families compute ONNX's only in their
  /// functions of variant "onnx".
  bit AnyArithmetic = 0;
  list<KernelField> Fields = [];
  list<KernelArg> Args = [];
  list<KernelInstance> Instances = [];
}

//===----------------------------------------------------------------------===//
// Cost estimates
//===----------------------------------------------------------------------===//

/// Operator `op` (a framework operator or a TargetOp) takes an estimated
/// `cycles` on `target` from version `since` on, until a later Cost for the
/// same operator replaces it. `cycles` is an int or float expression in the
/// constraint language, over the operator's attributes and operands, its
/// multiply-accumulate count `macs` and the functions `min`, `max`, `ceil`,
/// `floor`, `align` and `select`: "macs / 256",
/// "select(stride_h > 1, macs / 128, macs / 256)".
class Cost<Op op, Target target, Version since, string cycles> {
  Op Operator = op;
  Target OnTarget = target;
  Version Since = since;
  string Cycles = cycles;
}

//===----------------------------------------------------------------------===//
// Scratch memory
//===----------------------------------------------------------------------===//

/// The function running operator `op` (a TargetOp of a library-call target,
/// or a framework operator) on `target` needs `bytes` of scratch memory from
/// version `since` on, until a later Scratch for the same operator replaces
/// it. `bytes` is an int expression in the constraint language, over the
/// operator's attributes and operands (as the library's own
/// `*_get_buffer_size` functions compute it): "2 * align(input(0).channels,
/// 4) * 2". The generated `scratchBytes` gives it per operator; the emitter
/// plans the largest into the arena, so nothing is sized at run time. A
/// negative value counts as 0.
class Scratch<Op op, Target target, Version since, string bytes> {
  Op Operator = op;
  Target OnTarget = target;
  Version Since = since;
  string Bytes = bytes;
}

//===----------------------------------------------------------------------===//
// Device semantics
//===----------------------------------------------------------------------===//

/// A layout of 4-D (NHWC) activations in the device's memory. `name` is the
/// one accelerator programs record: "NHWC", "4C" or "16C". The channel
/// dimension is padded to a multiple of `ChannelPixels` elements and of
/// `ChannelBytes` bytes (0: no such padding); a layout with `MaxChannels`
/// above 0 holds tensors of at most that many channels. Layouts are
/// preferred in the order they are defined.
class Layout<string name> {
  string Name = name;
  int MaxChannels = 0;
  int ChannelPixels = 0;
  int ChannelBytes = 0;
}

/// Operators `ops` of `target` (every operator when `ops` is empty) compute
/// in the layouts `layouts` from version `since` on, until a later
/// DeviceLayout for the same operators replaces it; a rule naming an operator
/// wins over the rules for every operator. A 4-D activation a program reads
/// or writes is stored in the first layout that holds its channels and that
/// every operator using it computes in. An operator computing in one padded
/// layout only computes on the padded channels.
class DeviceLayout<Target target, Version since, list<Op> ops,
                   list<Layout> layouts> {
  Target OnTarget = target;
  Version Since = since;
  list<Op> Operators = ops;
  list<Layout> Layouts = layouts;
}

/// From version `since` on, `target` stores activations of element type
/// `type` quantized in `scheme` as `storedAs`, converting them at the
/// program's inputs and outputs, until a later DeviceStorage for the same
/// type and scheme replaces it. The one conversion accelerator programs make
/// is i8 stored as u8 (q + 128, zero point + 128); `storedAs` equal to
/// `type` stores the type as it is.
class DeviceStorage<Target target, Version since, DType type,
                    QuantScheme scheme, DType storedAs> {
  Target OnTarget = target;
  Version Since = since;
  DType Type = type;
  QuantScheme Scheme = scheme;
  DType StoredAs = storedAs;
}

/// Which intermediate results stay in the device instead of memory.
class Residency<string name> { string Name = name; }
/// Results read only inside the fused layer that writes them.
def FusedIntermediates : Residency<"fused_intermediates">;
/// None: every result goes to memory.
def NoIntermediates : Residency<"none">;

/// From version `since` on, the results of operators `ops` (every operator
/// when empty) that `keeps` names stay in the device of `target`, until a
/// later DeviceResidency for the same operators replaces it; a rule naming an
/// operator wins over the rules for every operator. Without any rule, every
/// result goes to memory.
class DeviceResidency<Target target, Version since, list<Op> ops,
                      Residency keeps> {
  Target OnTarget = target;
  Version Since = since;
  list<Op> Operators = ops;
  Residency Keeps = keeps;
}
