//===- Description.h - A target description as written
//---------------------===//
//
// What a front end reads from a `.td` or `.yaml` target description, before
// any name is resolved or anything checked: plain names and values, each with
// the location it was written at. Both front ends fill these structures; the
// model builder (TargetModel.h) is the one place that validates them, so both
// forms of a description get the same checks and the same messages.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_DESCRIPTION_H
#define ACCELGEN_GEN_MODEL_DESCRIPTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {

/// A place in a description file; Line and Col are 1-based, 0 if unknown.
struct Loc {
  std::string File;
  unsigned Line = 0;
  unsigned Col = 0;
};

struct AttrDecl {
  std::string Name;
  std::string Kind; ///< "int", "float", "bool", "string", "ints"
};

struct OperandDecl {
  std::string Name;
  bool Optional = false;
};

/// An operator: canonical (Target empty) or a target's own.
struct OpDecl {
  std::string Key;  ///< The name descriptions refer to it by (`Conv2D`).
  std::string Name; ///< The operator name in the IR (`CONV_2D`).
  std::vector<OperandDecl> Operands;
  std::vector<AttrDecl> Attrs;
  unsigned NumResults = 1;
  bool Variadic = false;
  /// Run by the generated code itself, without a kernel (`RunByHost`).
  bool RunByHost = false;
  /// How it runs on a stripe of output rows (`Rows`: "whole", "identity",
  /// "shifted", "window"), and the mask of the operands whose bytes its
  /// output may take (`OutputOverlays`, the first 32).
  std::string Rows = "whole";
  unsigned Overlays = 0;
  std::string Target;
  Loc At;
};

struct ConstraintDecl {
  std::string Id;
  std::string Expr;
  std::string Summary;
  std::string Hint;
  std::string CppFunction;
  Loc At;
  /// Where the text of Expr starts, when the description writes it verbatim
  /// on one line (so column N of the expression is N - 1 columns further);
  /// unknown (Line 0) otherwise.
  Loc ExprAt;
};

struct LegalDecl {
  std::string Op;
  std::string Since;
  std::vector<std::string> Types;
  std::vector<std::string> WeightSchemes;
  std::vector<ConstraintDecl> Constraints;
  std::vector<std::string> Drops;
  bool Removed = false; ///< A `Removed` declaration: not legal from Since on.
  Loc At;
};

struct MappingDecl {
  std::string From;
  std::string To;
  std::string Since; ///< Empty: every version.
  std::vector<ConstraintDecl> Constraints;
  int64_t Benefit = 1;
  std::vector<std::string> SetAttrs; ///< "name=value"
  Loc At;
};

struct QuantRuleDecl {
  std::string Op;
  std::string Since; ///< Empty: from the first version.
  std::string Until; ///< Empty: no end.
  std::string Relation;
  std::string OnFail;
  bool HasCheck = false;
  ConstraintDecl Check;
  std::string Scale;
  int64_t ZeroPoint = 0;
  Loc At;
};

/// A named set of operators one pattern node can match (`OpSet`).
struct OpSetDecl {
  std::string Key;  ///< The name patterns refer to it by (`Act1`).
  std::string Name; ///< Its name in docs and generated tables (`ACT1`).
  std::vector<std::string> Members; ///< Operator keys.
  /// Per member, the key of the operator it becomes in a pattern result
  /// naming the set; empty when the set has no results.
  std::vector<std::string> Results;
  Loc At;
};

/// An operand of a pattern node: a nested node or a named value (`$x`).
struct PatternArgDecl {
  int Node = -1;       ///< Index into PatternDecl::Nodes, or -1.
  std::string Capture; ///< Value name when Node == -1 (may be empty: any).
};

struct PatternNodeDecl {
  std::string Op; ///< The key of an operator or of an operator set.
  std::string Capture; ///< Name of the matched operator (`conv`), optional.
  std::vector<PatternArgDecl> Args;
};

struct PatternDecl {
  std::string Name;
  std::string Since;
  /// Source nodes; Nodes[0] is the root (the last operator of the chain).
  std::vector<PatternNodeDecl> Nodes;
  /// The key of the result operator, or of an operator set with results.
  std::string ResultOp;
  /// When ResultOp names a set: the capture of the source node whose matched
  /// member picks the result (`(Conv:$conv $x, $w, $b)`).
  std::string ResultCapture;
  std::vector<std::string> ResultArgs; ///< Value capture names.
  std::vector<ConstraintDecl> Constraints;
  int64_t Benefit = 1;
  Loc At;
};


/// Estimated cycles of an operator from a version on: an int or float
/// expression in the operator's scope.
struct CostDecl {
  std::string Op;
  std::string Since;
  std::string Cycles;
  Loc At;
  /// Where the text of Cycles starts, as ConstraintDecl::ExprAt.
  Loc CyclesAt;
};

/// The scratch bytes an operator's function needs from a version on: an int
/// expression in the operator's scope.
struct ScratchDecl {
  std::string Op;
  std::string Since;
  std::string Bytes;
  Loc At;
  /// Where the text of Bytes starts, as ConstraintDecl::ExprAt.
  Loc BytesAt;
};

/// A layout of 4-D activations in the device's memory.
struct LayoutDecl {
  std::string Key;  ///< The name rules refer to it by (`Mdla16C`).
  std::string Name; ///< What programs record: "NHWC", "4C", "16C".
  int64_t MaxChannels = 0;
  int64_t ChannelPixels = 0;
  int64_t ChannelBytes = 0;
  Loc At;
};

/// Operators (every one when Ops is empty) compute in Layouts from Since on.
struct DeviceLayoutDecl {
  std::string Since;
  std::vector<std::string> Ops;
  std::vector<std::string> Layouts; ///< Layout keys.
  Loc At;
};

/// Activations of Type quantized in Scheme are stored as StoredAs from Since.
struct DeviceStorageDecl {
  std::string Since;
  std::string Type;
  std::string Scheme;
  std::string StoredAs;
  Loc At;
};

/// Which results of Ops (every operator when empty) stay in the device.
struct DeviceResidencyDecl {
  std::string Since;
  std::vector<std::string> Ops;
  std::string Keeps; ///< "fused_intermediates" or "none".
  Loc At;
};

/// One field of a kernel family's parameter struct (`KernelField`).
struct KernelFieldDecl {
  std::string Name;
  std::string CType;
  std::string Doc;
  /// Non-empty: a fixed array of this length (a C constant expression).
  std::string Length;
  bool Pointer = false;
};

/// One argument of a kernel family's functions (`KernelArg`).
struct KernelArgDecl {
  std::string Kind;
  std::string Name;
  int64_t Operand = -1;
  std::string Elem;
  bool Optional = false;
};

/// One function of a kernel family (`KernelInstance`): element type names
/// are "" where unset (AnyElement).
struct KernelInstanceDecl {
  std::string Op; ///< The key of the operator it computes.
  std::string Stem;
  std::string Type, Out, Variant, Weights, Acc;
};

/// A calling convention of a kernel library (`KernelFamily`).
struct KernelFamilyDecl {
  std::string Key;
  std::string Library = "ref";
  std::string Name;
  std::string Template;
  bool Rendered = true;
  std::string Builder;
  std::string Doc;
  bool MayAlias = false;
  bool AnyArithmetic = false;
  std::vector<KernelFieldDecl> Fields;
  std::vector<KernelArgDecl> Args;
  std::vector<KernelInstanceDecl> Instances;
  /// Declared by the portable kernel library (defs/kernels.td), which is
  /// compiled into accelgen; false for a family a target description
  /// declares.
  bool InLibrary = false;
  Loc At;
};

/// One target description: the operators it may refer to and its rules, in
/// declaration order.
struct TargetDecl {
  std::string Name;
  std::string Description;
  /// The library of a library-call target ("CMSIS-NN"); empty otherwise.
  std::string Library;
  std::vector<std::string> Versions;
  /// Where each of Versions is named; may be empty (then At stands for all).
  std::vector<Loc> VersionsAt;
  /// Cycles of moving one tensor between the accelerator and the CPU.
  int64_t SwitchCycles = 0;
  /// The backend that compiles the target's operators (a `Backend` record's
  /// name; empty for none), and whether it is the functional model's.
  std::string Backend;
  bool FunctionalModel = false;
  /// Where the backend is named; At when it is not.
  Loc BackendAt;
  /// The target whose rules and backend take the operators this one does not
  /// run; empty for a target running every operator on the host CPU itself.
  std::string CpuFallback;
  /// The backends the description language declares (`Backend` records), by
  /// name, with whether each is the functional model's; the YAML front end
  /// resolves `backend:` against them.
  std::vector<std::pair<std::string, bool>> KnownBackends;
  /// The quantization relations and actions the description language
  /// declares (`QuantRelation`, `QuantAction` records), by name, in
  /// definition order; the target model checks a rule's names against them.
  std::vector<std::string> KnownQuantRelations, KnownQuantActions;
  /// The element type names the description language declares (`DType`
  /// records, "i8", "f32", ...), for the kernel families' functions.
  std::vector<std::string> KnownElementTypes;
  Loc At;
  std::vector<OpDecl> Ops;
  std::vector<LegalDecl> Legals;
  std::vector<MappingDecl> Mappings;
  std::vector<QuantRuleDecl> QuantRules;
  std::vector<OpSetDecl> OpSets;
  std::vector<PatternDecl> Patterns;
  std::vector<CostDecl> Costs;
  std::vector<ScratchDecl> Scratch;
  std::vector<LayoutDecl> Layouts;
  std::vector<DeviceLayoutDecl> DeviceLayouts;
  std::vector<DeviceStorageDecl> DeviceStorage;
  std::vector<DeviceResidencyDecl> DeviceResidency;
  /// The kernel families in view: the portable library's (every description
  /// includes it) and any the description declares itself.
  std::vector<KernelFamilyDecl> KernelFamilies;
};

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_DESCRIPTION_H
