//===- QuantRules.h - Quantization rules as generated code applies them ---===//
//
// The description language states how quantization parameters must relate
// across an operator (QuantRule<Op, Target, Relation, Action> in defs/) and
// what to do when they do not. The generated SetupQuantParam bodies call
// applyQuantRule() once per rule with the enumerators below, which mirror the
// description's QuantRelation and QuantAction records one for one.
//
// The relations, with "participating inputs" being the inputs that are not
// omitted and are either quantized or of output 0's element type (this leaves
// out shape and index operands):
//
//  - SameScale: every participating input and every output has the same
//    scale and zero point as output 0.
//  - ForwardOutputToInputs: the non-constant participating inputs take output
//    0's parameters. An input with no parameters yet receives a copy of them
//    (the tensor itself is updated, for every reader; outcome UpdatedParams);
//    an input whose parameters differ is a failure. Holds trivially when
//    output 0 is not quantized. Outputs other than output 0 are not
//    constrained.
//  - BiasScaleProduct: the bias (input 2) has scale input(0).scale *
//    input(1).scale, per channel where the weights are per channel. Holds
//    trivially without a bias or when input 0 or 1 is not quantized.
//  - FixedOutput: output 0 has exactly Params.Scale and Params.ZeroPoint.
//    Holds trivially when output 0 is not quantized.
//  - Check: the generated predicate Params.Check holds.
//
// Scales are compared with a relative tolerance of a few float32 roundings
// (QuantScaleTolerance); zero points exactly. A relation over no quantized
// tensor at all holds: it constrains quantized operators only.
//
// The actions, when a relation fails:
//
//  - Reject: append a Rejection "quant_<relation>" (for Check, the check's own
//    id) naming the observed parameters.
//  - InsertRequantizeBefore: output 0's parameters are the reference; each
//    input that differs is read through a new REQUANTIZE to them. For
//    BiasScaleProduct the bias is requantized to the product.
//  - InsertRequantizeAfter: the first participating input's parameters are
//    the reference (for FixedOutput, the fixed values); each output that
//    differs is written to a new tensor with them and a REQUANTIZE maps that
//    tensor to the original output.
//
// An input on the output side of the reference still gets a requantize before
// the operator and vice versa, so either action makes a multi-operand
// relation hold. A requantize needs parameters on both ends: a differing
// tensor that is not quantized cannot be requantized. For Check, the
// non-constant participating inputs (before) or the outputs (after) take the
// reference as above and the predicate is evaluated again; if it still fails,
// the edit is undone and the operator rejected. An action that cannot apply (no
// reference parameters, BiasScaleProduct after, FixedOutput before, parameters
// that do not fit a tensor's shape) rejects, saying why.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_QUANTRULES_H
#define ACCELGEN_TARGET_QUANTRULES_H

#include "target/OpSetup.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// The string attribute marking a requantize a rule inserted; its value is
/// the relation's name ("same_scale").
constexpr const char QuantRuleAttr[] = "quant_rule";

/// A relation between an operator's quantization parameters: one per
/// QuantRelation record of defs/accelgen.td (generated, ir/OpVocabulary.inc).
enum class QuantRelation {
#define ACCELGEN_QUANT_RELATION(Enumerator, Name) Enumerator,
#include "ir/OpVocabulary.inc"
};

/// What to do when a relation does not hold: one per QuantAction record.
enum class QuantAction {
#define ACCELGEN_QUANT_ACTION(Enumerator, Name) Enumerator,
#include "ir/OpVocabulary.inc"
};

/// A generated predicate over an operator (the legality check signature):
/// true when it holds, otherwise \p Message says what was observed.
using QuantCheckFn = bool (*)(const ir::Graph &G, const ir::Operator &Op,
                              std::string &Message);

/// The arguments of one rule, as the description gives them.
struct QuantRuleParams {
  /// FixedOutput: the output's scale and zero point.
  double Scale = 0.0;
  int64_t ZeroPoint = 0;
  /// Check: the predicate and its constraint id.
  QuantCheckFn Check = nullptr;
  std::string CheckId;
};

/// Relative tolerance for equal scales: float32 keeps 24 bits, so a scale
/// written through a different but correct computation (a product rounded
/// once or twice more) differs by a few units of 2^-24 ~ 6e-8; 1e-6 accepts
/// those and still rejects any difference that would change a requantized
/// value.
constexpr double QuantScaleTolerance = 1e-6;

/// The description's name of \p R ("same_scale").
llvm::StringRef relationName(QuantRelation R);
/// The description's name of \p A ("insert_requantize_before").
llvm::StringRef actionName(QuantAction A);

/// The stronger of two outcomes (Rejected > InsertedRequantize >
/// UpdatedParams > Unchanged), to fold the rules of one operator.
QuantOutcome combine(QuantOutcome A, QuantOutcome B);

/// Applies relation \p R to operator \p OpIndex of \p G and, if it fails,
/// action \p A. A requantize inserted before the operator moves it:
/// \p OpIndex is updated to its new position. Requantize operators are
/// inserted right next to the operator, carry the attribute QuantRuleAttr,
/// and leave \p G valid for ir::verifyGraph. A rejecting rule leaves \p G as
/// it found it; earlier rules' edits stay, so a caller that rejects the
/// operator undoes them (legalize() does, with a QuantCheckpoint).
QuantOutcome applyQuantRule(ir::Graph &G, size_t &OpIndex, QuantRelation R,
                            QuantAction A, const QuantRuleParams &Params,
                            std::vector<Rejection> &Why);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_QUANTRULES_H
