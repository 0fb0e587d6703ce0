//===- accelgen.td - Base classes of the accelerator description language -===//
//
// Every target description includes this file. It defines the vocabulary a
// vendor uses to describe an accelerator: element types and quantization
// schemes, operators and their attributes, hardware versions, constraints,
// legality, attribute mappings, quantization rules, fusion patterns, kernels
// and cost estimates. accelgen-tblgen reads the records built from these
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
def f16  : DType<"f16">;
def f32  : DType<"f32">;

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
  /// code tflite.td lists; 0 for one of accelgen's own (REQUANTIZE). Only
  /// -gen-op-vocabulary reads it; target operators are never builtins.
  bit IsBuiltin = 1;
}

//===----------------------------------------------------------------------===//
// Targets and hardware versions
//===----------------------------------------------------------------------===//

/// A hardware version, named by dotted numbers ("1.5", "2.0"). A target lists
/// its versions oldest first; a rule declared for a version holds for every
/// later one until a later rule overrides it.
class Version<string name> { string Name = name; }

/// An accelerator (or the CPU) that operators can be placed on.
class Target<string name, list<Version> versions> {
  string Name = name;
  list<Version> Versions = versions;
  string Description = "";
  /// Estimated cycles of moving one tensor between this target and the CPU,
  /// paid for every tensor crossing a partition boundary (see Cost).
  int SwitchCycles = 0;
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

/// A dag of operators with captures, replaced by one target operator. In
/// `Source`, `(Relu:$act (Conv2D:$conv $x, $w, $b))` matches a RELU reading a
/// CONV_2D; `$x` names an operand, `:$conv` names a matched operator. The
/// intermediate results must have no other user. `Result` is
/// `(TargetOperator $x, $w, $b)`. Constraints use capture names as prefixes
/// (`conv.stride_h`). Patterns are tried by descending benefit, then by name.
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

/// Template `template` (a file in templates/) instantiates the kernel of `op`
/// on `target` for each of `types`.
class Kernel<Op op, Target target, string template, list<DType> types> {
  Op Operator = op;
  Target OnTarget = target;
  string Template = template;
  list<DType> Types = types;
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
