//===- Legalize.cpp - Turning framework operators into target operators ---===//
//
// The quantization rules of one operator may insert requantize operators
// right before and after it, so after its SetupQuantParam the operator sits
// somewhere in a block of adjacent operators that starts where it was. The
// inserted ones carry QuantRuleAttr; the operator itself never does, as rules
// are not applied to inserted requantizes.
//
//===----------------------------------------------------------------------===//
#include "target/Legalize.h"
#include "target/PatternMatcher.h"
#include "target/QuantRules.h"
#include "target/Quantize.h"

#include "llvm/Support/FormatVariadic.h"

#include <cassert>

namespace accelgen {
namespace target {

size_t LegalizeReport::numLegal() const {
  size_t N = 0;
  for (const OpLegalization &Op : Ops)
    N += Op.Legal;
  return N;
}

namespace {

class Legalizer {
public:
  Legalizer(ir::Graph &G, const TargetInfo &T, unsigned Version,
            const std::function<bool(const ir::Operator &)> &Leave,
            const std::function<bool(llvm::StringRef)> &Allowed)
      : G(G), T(T), Version(Version), Leave(Leave), Allowed(Allowed) {}

  LegalizeReport run() {
    LegalizeReport Report;
    Report.Target = T.versionLabel(Version);
    int64_t Original = 0;
    for (size_t I = 0; I < G.Operators.size(); ++Original)
      I = legalizeOriginal(I, Original, Report.Ops);
    return Report;
  }

private:
  ir::Graph &G;
  const TargetInfo &T;
  unsigned Version;
  const std::function<bool(const ir::Operator &)> &Leave;
  const std::function<bool(llvm::StringRef)> &Allowed;

  /// Steps 1 and 2: the operator's OpSetup if the target can run it;
  /// otherwise \p Entry says why not.
  const OpSetup *check(size_t I, OpLegalization &Entry) {
    const ir::Operator &Op = G.Operators[I];
    Entry.OriginalType = Op.Type;
    Entry.Type = Op.Type;
    const OpSetup *Setup = T.opSetup(Op.Type);
    if (!Setup) {
      Entry.Why.push_back(
          {"unsupported_operator",
           llvm::formatv("operator {0} is not supported by target {1}: no "
                         "rule of its description names this operator",
                         Op.Type, T.name()),
           ""});
      return nullptr;
    }
    if (!Setup->IsSupported(G, Op, Version, Entry.Why)) {
      // A converter that returns false must say why; make sure the report
      // never shows a rejected operator without a reason.
      if (Entry.Why.empty())
        Entry.Why.push_back({"unsupported", "rejected by the target", ""});
      return nullptr;
    }
    // What the accelerator program and its functional model cannot hold,
    // whatever the description allows (program/DeviceLimits.h).
    if (!T.withinDeviceLimits(G, Op, Entry.Why))
      return nullptr;
    return Setup;
  }

  /// Step 4.
  void convert(size_t I, OpLegalization &Entry) {
    ir::Operator New =
        T.chooseOperation(
             G, G.Operators[I], Version,
             Allowed ? llvm::function_ref<bool(llvm::StringRef)>(Allowed)
                     : llvm::function_ref<bool(llvm::StringRef)>())
            .Chosen;
    assert(New.Inputs == G.Operators[I].Inputs &&
           New.Outputs == G.Operators[I].Outputs &&
           "a mapping must keep operands and results");
    G.Operators[I] = std::move(New);
    Entry.Type = G.Operators[I].Type;
    Entry.Legal = true;
  }

  /// An operator a rule inserted: steps 1, 2 and 4.
  void legalizeInserted(size_t I, std::vector<OpLegalization> &Out) {
    OpLegalization Entry;
    if (check(I, Entry))
      convert(I, Entry);
    Out.push_back(std::move(Entry));
  }

  /// Legalizes original operator \p Original, now at \p I, and whatever its
  /// rules insert; returns the index of the next original operator.
  size_t legalizeOriginal(size_t I, int64_t Original,
                          std::vector<OpLegalization> &Out) {
    OpLegalization Entry;
    Entry.OriginalIndex = Original;
    const ir::Operator &Op = G.Operators[I];
    if (Leave && Leave(Op)) {
      Entry.OriginalType = Entry.Type = Op.Type;
      Out.push_back(std::move(Entry));
      return I + 1;
    }
    if (Op.hasAttr(FusedOpsAttr)) {
      Entry.OriginalType = Entry.Type = Op.Type;
      Entry.Legal = true;
      Out.push_back(std::move(Entry));
      return I + 1;
    }
    const OpSetup *Setup = check(I, Entry);
    if (!Setup) {
      Out.push_back(std::move(Entry));
      return I + 1;
    }
    if (isInsertedRequantize(Op)) {
      convert(I, Entry);
      Out.push_back(std::move(Entry));
      return I + 1;
    }

    QuantCheckpoint Start(G, I);
    Entry.Quant = Setup->SetupQuantParam(G, I, Version, Entry.Why);
    if (Entry.Quant == QuantOutcome::Rejected) {
      Start.restore(G, I);
      Out.push_back(std::move(Entry));
      return I + 1;
    }
    size_t End = I + Start.numInserted(G) + 1;
    size_t Self = End;
    for (size_t J = I; J < End; ++J)
      if (!isInsertedRequantize(G.Operators[J])) {
        assert(Self == End && "two operators that no rule inserted");
        Self = J;
      }
    assert(Self != End && "the operator is missing from its block");
    for (size_t J = I; J < End; ++J) {
      if (J != Self) {
        legalizeInserted(J, Out);
        continue;
      }
      convert(J, Entry);
      Out.push_back(std::move(Entry));
    }
    return End;
  }
};

} // namespace

LegalizeReport legalize(ir::Graph &G, const TargetInfo &T, unsigned Version,
                        const std::function<bool(const ir::Operator &)> &Leave,
                        const std::function<bool(llvm::StringRef)> &Allowed) {
  return Legalizer(G, T, Version, Leave, Allowed).run();
}

} // namespace target
} // namespace accelgen
