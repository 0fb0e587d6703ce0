//===- QuantRules.cpp - Applying one quantization rule to one operator ----===//
//
// Each relation is evaluated to an empty string when it holds or a message
// naming the observed parameters when it does not. A failing relation under a
// requantize action is turned into a plan (which inputs to requantize before
// the operator, which outputs after it, to which parameters), the plan is
// applied, and the relation is evaluated again; a rule that ends in a
// rejection leaves the graph as it found it.
//
//===----------------------------------------------------------------------===//
#include "target/QuantRules.h"
#include "target/Quantize.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>

namespace accelgen {
namespace target {

llvm::StringRef relationName(QuantRelation R) {
  switch (R) {
#define ACCELGEN_QUANT_RELATION(Enumerator, Name)                              \
  case QuantRelation::Enumerator:                                              \
    return Name;
#include "ir/OpVocabulary.inc"
  }
  return "unknown";
}

llvm::StringRef actionName(QuantAction A) {
  switch (A) {
#define ACCELGEN_QUANT_ACTION(Enumerator, Name)                                \
  case QuantAction::Enumerator:                                                \
    return Name;
#include "ir/OpVocabulary.inc"
  }
  return "unknown";
}

QuantOutcome combine(QuantOutcome A, QuantOutcome B) {
  // The enumerators are declared from weakest to strongest.
  return static_cast<int>(A) >= static_cast<int>(B) ? A : B;
}

namespace {

/// Which operands to requantize, and to what.
struct RequantizePlan {
  std::vector<std::pair<unsigned, ir::QuantParams>> Before; ///< Input pos.
  std::vector<std::pair<unsigned, ir::QuantParams>> After;  ///< Output pos.

  bool empty() const { return Before.empty() && After.empty(); }
};

std::string inputName(unsigned Pos) {
  return llvm::formatv("input({0})", Pos).str();
}
std::string outputName(unsigned Pos) {
  return llvm::formatv("output({0})", Pos).str();
}

/// One application of one rule to one operator.
class RuleApplier {
public:
  RuleApplier(ir::Graph &G, size_t &OpIndex, QuantRelation R,
              const QuantRuleParams &P)
      : G(G), OpIndex(OpIndex), R(R), P(P) {}

  QuantOutcome run(QuantAction A, std::vector<Rejection> &Why) {
    QuantCheckpoint Start(G, OpIndex);
    bool Filled = R == QuantRelation::ForwardOutputToInputs && fillInputs();
    std::string Failure = evaluate();
    if (Failure.empty())
      return Filled ? QuantOutcome::UpdatedParams : QuantOutcome::Unchanged;
    if (A == QuantAction::Reject)
      return reject(Start, Failure, Why);

    RequantizePlan Plan;
    std::string Cannot = plan(A, Plan);
    if (Cannot.empty() && Plan.empty())
      Cannot = "no operand differs from the reference parameters";
    if (!Cannot.empty())
      return reject(Start,
                    llvm::formatv("{0} ({1} cannot apply: {2})", Failure,
                                  actionName(A), Cannot),
                    Why);
    apply(Plan);
    std::string After = evaluate();
    if (!After.empty())
      return reject(Start,
                    llvm::formatv("{0} (still fails after {1}: {2})", Failure,
                                  actionName(A), After),
                    Why);
    return QuantOutcome::InsertedRequantize;
  }

private:
  ir::Graph &G;
  size_t &OpIndex;
  QuantRelation R;
  const QuantRuleParams &P;

  const ir::Operator &op() const { return G.Operators[OpIndex]; }
  const ir::Tensor &in(unsigned Pos) const {
    return G.tensor(op().Inputs[Pos]);
  }
  const ir::Tensor &out(unsigned Pos) const {
    return G.tensor(op().Outputs[Pos]);
  }

  QuantOutcome reject(const QuantCheckpoint &Start, std::string Message,
                      std::vector<Rejection> &Why) {
    Start.restore(G, OpIndex);
    std::string Id = "quant_" + relationName(R).str();
    if (R == QuantRelation::Check && !P.CheckId.empty())
      Id = P.CheckId;
    Why.push_back({std::move(Id), std::move(Message), ""});
    return QuantOutcome::Rejected;
  }

  /// Inputs that take part in the relation: not omitted, and quantized or of
  /// output 0's element type; each tensor once, at its first position.
  std::vector<unsigned> participatingInputs(bool NonConstantOnly) const {
    std::vector<unsigned> Result;
    std::vector<int32_t> Seen;
    int32_t Out0 = op().output(0);
    for (unsigned Pos = 0; Pos < op().Inputs.size(); ++Pos) {
      int32_t T = op().Inputs[Pos];
      if (T < 0 || llvm::is_contained(Seen, T))
        continue;
      const ir::Tensor &Tensor = G.tensor(T);
      if (NonConstantOnly && Tensor.IsConstant)
        continue;
      if (Tensor.Quant || (Out0 >= 0 && Tensor.Type == G.tensor(Out0).Type)) {
        Result.push_back(Pos);
        Seen.push_back(T);
      }
    }
    return Result;
  }

  std::vector<unsigned> allOutputs() const {
    std::vector<unsigned> Result;
    for (unsigned Pos = 0; Pos < op().Outputs.size(); ++Pos)
      Result.push_back(Pos);
    return Result;
  }

  /// The operands a relation requires to share parameters.
  struct EqualSet {
    std::vector<unsigned> Inputs;
    std::vector<unsigned> Outputs;
  };

  EqualSet equalSet() const {
    switch (R) {
    case QuantRelation::SameScale:
      return {participatingInputs(/*NonConstantOnly=*/false), allOutputs()};
    case QuantRelation::ForwardOutputToInputs:
      return {participatingInputs(/*NonConstantOnly=*/true),
              op().Outputs.empty() ? std::vector<unsigned>()
                                   : std::vector<unsigned>{0}};
    default:
      // A generated predicate says nothing about which parameters satisfy
      // it; the requantize actions try making the operator itself scale
      // neutral, moving all rescaling into the requantize operators.
      return {participatingInputs(/*NonConstantOnly=*/true), allOutputs()};
    }
  }

  /// ForwardOutputToInputs: copies output 0's parameters to the set's
  /// inputs that have none; true if any was filled in.
  bool fillInputs() {
    if (op().Outputs.empty() || !out(0).Quant)
      return false;
    bool Filled = false;
    ir::QuantParams Q = *out(0).Quant;
    for (unsigned Pos : participatingInputs(/*NonConstantOnly=*/true)) {
      ir::Tensor &T = G.tensor(op().Inputs[Pos]);
      if (!T.Quant && quantFits(T, Q)) {
        T.Quant = Q;
        Filled = true;
      }
    }
    return Filled;
  }

  std::string evaluate() const {
    switch (R) {
    case QuantRelation::SameScale:
      return evaluateEqual(equalSet());
    case QuantRelation::ForwardOutputToInputs:
      if (op().Outputs.empty() || !out(0).Quant)
        return "";
      return evaluateEqual(equalSet());
    case QuantRelation::BiasScaleProduct:
      return evaluateBias();
    case QuantRelation::FixedOutput:
      return evaluateFixed();
    case QuantRelation::Check:
      return evaluateCheck();
    }
    return "";
  }

  /// Every operand of \p S compared with output 0 (or, without outputs, the
  /// first input).
  std::string evaluateEqual(const EqualSet &S) const {
    std::string RefName;
    const ir::Tensor *Ref = nullptr;
    if (!S.Outputs.empty()) {
      RefName = outputName(S.Outputs.front());
      Ref = &out(S.Outputs.front());
    } else if (!S.Inputs.empty()) {
      RefName = inputName(S.Inputs.front());
      Ref = &in(S.Inputs.front());
    } else {
      return "";
    }
    std::string Differing;
    for (unsigned Pos : S.Inputs)
      if (!sameQuant(in(Pos), *Ref))
        Differing += describeQuant(inputName(Pos), in(Pos)) + "; ";
    for (unsigned Pos : S.Outputs)
      if (!sameQuant(out(Pos), *Ref))
        Differing += describeQuant(outputName(Pos), out(Pos)) + "; ";
    if (Differing.empty())
      return "";
    return Differing + describeQuant(RefName, *Ref) +
           "; must have the same scale and zero point";
  }

  /// The bias parameters input(0) and input(1) require, or nothing when the
  /// relation does not apply.
  std::optional<ir::QuantParams> requiredBias(std::string &Mismatch) const {
    int32_t In = op().input(0), W = op().input(1), B = op().input(2);
    if (In < 0 || W < 0 || B < 0 || !G.tensor(In).Quant || !G.tensor(W).Quant)
      return std::nullopt;
    const ir::QuantParams &WQ = *G.tensor(W).Quant;
    double InScale = G.tensor(In).Quant->scale();
    const ir::Tensor &Bias = G.tensor(B);
    // Per-tensor weights allow a per-channel bias with equal scales.
    size_t Channels = WQ.Scales.size();
    if (Channels == 1 && Bias.Quant)
      Channels = Bias.Quant->Scales.size();
    ir::QuantParams Q;
    for (size_t C = 0; C < Channels; ++C) {
      double WScale = WQ.Scales[WQ.Scales.size() == 1 ? 0 : C];
      Q.Scales.push_back(static_cast<float>(InScale * WScale));
      Q.ZeroPoints.push_back(0);
    }
    if (Channels > 1)
      Q.Axis = 0;
    if (Bias.Quant && Bias.Quant->Scales.size() != Channels)
      Mismatch = llvm::formatv("input(2) has {0} scales, input(1) has {1}; "
                               "bias and weights must have as many",
                               Bias.Quant->Scales.size(), WQ.Scales.size());
    return Q;
  }

  std::string evaluateBias() const {
    std::string Mismatch;
    std::optional<ir::QuantParams> Q = requiredBias(Mismatch);
    if (!Q)
      return "";
    if (!Mismatch.empty())
      return Mismatch;
    const ir::Tensor &Bias = in(2);
    if (!Bias.Quant)
      return "input(2) is not quantized; must have scale input(0).scale * "
             "input(1).scale";
    const ir::QuantParams &WQ = *in(1).Quant;
    double InScale = in(0).Quant->scale();
    size_t Bad = 0;
    std::string First;
    for (size_t C = 0; C < Q->Scales.size(); ++C) {
      size_t WC = WQ.Scales.size() == 1 ? 0 : C;
      double Expected = InScale * WQ.Scales[WC];
      double Actual = Bias.Quant->Scales[C];
      if (scalesClose(Actual, Expected))
        continue;
      if (Bad++ == 0) {
        std::string BC =
            Q->isPerChannel() ? llvm::formatv("[{0}]", C).str() : std::string();
        std::string WCs = WQ.isPerChannel() ? llvm::formatv("[{0}]", WC).str()
                                            : std::string();
        First =
            llvm::formatv("input(2).scale{0} = {1}, must be input(0).scale * "
                          "input(1).scale{2} = {3} * {4} = {5}",
                          BC, formatScale(Actual), WCs, formatScale(InScale),
                          formatScale(WQ.Scales[WC]), formatScale(Expected));
      }
    }
    if (Bad > 1)
      First += llvm::formatv(" ({0} channels differ)", Bad).str();
    return First;
  }

  ir::QuantParams fixedParams() const {
    ir::QuantParams Q;
    Q.Scales = {static_cast<float>(P.Scale)};
    Q.ZeroPoints = {P.ZeroPoint};
    return Q;
  }

  std::string evaluateFixed() const {
    if (op().Outputs.empty() || !out(0).Quant)
      return "";
    ir::QuantParams Q = fixedParams();
    if (sameQuantParams(*out(0).Quant, Q))
      return "";
    return llvm::formatv("{0}; must be {1}", describeQuant("output(0)", out(0)),
                         describeQuant("output(0)", Q));
  }

  std::string evaluateCheck() const {
    assert(P.Check && "a check rule without a predicate");
    if (!P.Check)
      return "";
    std::string Message;
    if (P.Check(G, op(), Message))
      return "";
    if (Message.empty())
      Message = "the quantization check " +
                (P.CheckId.empty() ? std::string("") : P.CheckId + " ") +
                "does not hold";
    return Message;
  }

  /// Fills \p Plan for action \p A; returns why it cannot, or "".
  std::string plan(QuantAction A, RequantizePlan &Plan) const {
    switch (R) {
    case QuantRelation::BiasScaleProduct: {
      if (A == QuantAction::InsertRequantizeAfter)
        return "the rule constrains an input (the bias)";
      if (!in(2).Quant)
        return "input(2) is not quantized";
      std::string Mismatch;
      ir::QuantParams Q = *requiredBias(Mismatch);
      if (!quantFits(in(2), Q))
        return "the required bias parameters do not fit input(2)";
      Plan.Before.emplace_back(2, std::move(Q));
      return "";
    }
    case QuantRelation::FixedOutput:
      if (A == QuantAction::InsertRequantizeBefore)
        return "the rule constrains the output";
      Plan.After.emplace_back(0, fixedParams());
      return "";
    default:
      return planEqual(equalSet(), A, Plan);
    }
  }

  std::string planEqual(const EqualSet &S, QuantAction A,
                        RequantizePlan &Plan) const {
    bool Before = A == QuantAction::InsertRequantizeBefore;
    if (Before ? S.Outputs.empty() : S.Inputs.empty())
      return Before ? "the operator has no output to take parameters from"
                    : "the operator has no input to take parameters from";
    std::string RefName =
        Before ? outputName(S.Outputs.front()) : inputName(S.Inputs.front());
    const ir::Tensor &Ref =
        Before ? out(S.Outputs.front()) : in(S.Inputs.front());
    if (!Ref.Quant)
      return RefName + " is not quantized";
    auto Add = [&](const ir::Tensor &T, const std::string &Name, unsigned Pos,
                   std::vector<std::pair<unsigned, ir::QuantParams>> &To)
        -> std::string {
      if (sameQuant(T, Ref))
        return "";
      if (!T.Quant)
        return Name + " is not quantized";
      if (!quantFits(T, *Ref.Quant))
        return llvm::formatv("the parameters of {0} do not fit {1} (shape {2})",
                             RefName, Name, ir::formatShape(T.Shape));
      To.emplace_back(Pos, *Ref.Quant);
      return "";
    };
    for (unsigned Pos : S.Inputs)
      if (std::string E = Add(in(Pos), inputName(Pos), Pos, Plan.Before);
          !E.empty())
        return E;
    for (unsigned Pos : S.Outputs)
      if (std::string E = Add(out(Pos), outputName(Pos), Pos, Plan.After);
          !E.empty())
        return E;
    return "";
  }

  void apply(const RequantizePlan &Plan) {
    std::string Rule = relationName(R).str();
    for (const auto &[Pos, Q] : Plan.Before)
      insertRequantizeBefore(G, OpIndex, Pos, Q, Rule);
    for (const auto &[Pos, Q] : Plan.After)
      insertRequantizeAfter(G, OpIndex, Pos, Q, Rule);
  }
};

} // namespace

QuantOutcome applyQuantRule(ir::Graph &G, size_t &OpIndex, QuantRelation R,
                            QuantAction A, const QuantRuleParams &Params,
                            std::vector<Rejection> &Why) {
  assert(OpIndex < G.Operators.size() && "operator index out of range");
  return RuleApplier(G, OpIndex, R, Params).run(A, Why);
}

} // namespace target
} // namespace accelgen
