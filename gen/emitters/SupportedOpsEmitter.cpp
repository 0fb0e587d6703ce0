//===- SupportedOpsEmitter.cpp - SupportedOps.md ---------------------------===//
//
// Documents, per operator: the versions it is legal at with their data types
// and weight schemes, every constraint in words with the versions it applies
// to, and the mappings and quantization rules; then the operator sets and
// fusion patterns, and
// the estimated cycles of each operator with the versions each estimate
// holds for.
//
//===----------------------------------------------------------------------===//
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

std::string join(const std::vector<std::string> &Items, StringRef Sep = ", ") {
  return llvm::join(Items.begin(), Items.end(), Sep);
}

/// "demo1.0-demo3.0" or "demo2.0" for a run of versions.
std::string versionRange(const TargetModel &M, unsigned From, unsigned To) {
  if (From == To)
    return M.versionLabel(From);
  return M.versionLabel(From) + "-" + M.versionLabel(To);
}

std::string versionsFrom(const TargetModel &M, unsigned Since,
                         std::optional<unsigned> Until = std::nullopt) {
  return versionRange(M, Since, Until ? *Until : M.Versions.size() - 1);
}

class SupportedOpsEmitter {
public:
  explicit SupportedOpsEmitter(const TargetModel &M) : M(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-supported-ops", "<!--");
    OS << formatv("# Operators supported by {0}\n\n", M.Name);
    if (!M.Description.empty())
      OS << M.Description << ".\n\n";
    std::vector<std::string> Labels;
    for (unsigned V = 0; V < M.Versions.size(); ++V)
      Labels.push_back(M.versionLabel(V));
    OS << formatv("Versions, oldest first: {0}. A rule holds from the version "
                  "it names until a later version changes it.\n\n",
                  join(Labels));
    for (const OpLegality &L : M.Legality)
      emitOp(OS, L);
    emitOpSets(OS);
    emitPatterns(OS);
    emitCosts(OS);
  }

private:
  const TargetModel &M;

  void emitOp(raw_ostream &OS, const OpLegality &L) {
    OS << formatv("## {0}\n\n", L.Op->name());
    OS << "| version | input types | weight schemes |\n|---|---|---|\n";
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      if (!L.PerVersion[V]) {
        OS << formatv("| {0} | not available | |\n", M.versionLabel(V));
        continue;
      }
      const LegalAt &At = *L.PerVersion[V];
      OS << formatv("| {0} | {1} | {2} |\n", M.versionLabel(V), join(At.Types),
                    At.WeightSchemes.empty() ? "any" : join(At.WeightSchemes));
    }
    OS << "\n";
    // Each distinct constraint with the run of versions it applies to.
    std::vector<std::pair<const ConstraintDef *, std::pair<unsigned, unsigned>>>
        Runs;
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      if (!L.PerVersion[V])
        continue;
      for (const ConstraintDef *C : L.PerVersion[V]->Constraints) {
        auto It = llvm::find_if(Runs, [&](const auto &R) {
          return R.first == C && R.second.second + 1 == V;
        });
        if (It != Runs.end())
          It->second.second = V;
        else
          Runs.push_back({C, {V, V}});
      }
    }
    if (!Runs.empty()) {
      OS << "| constraint | versions | condition | meaning |\n|---|---|---|---|\n";
      for (const auto &[C, R] : Runs)
        OS << formatv("| `{0}` | {1} | {2} | {3} |\n", C->id(),
                      versionRange(M, R.first, R.second),
                      escape(describeConstraint(*C)), escape(C->Decl.Summary));
      OS << "\n";
    }
    bool Conditional = false;
    for (const MappingDef &Map : M.Mappings) {
      if (Map.From != L.Op)
        continue;
      std::vector<std::string> Conds;
      for (const ConstraintDef *C : Map.Constraints)
        Conds.push_back(describeConstraint(*C));
      OS << formatv("- Becomes `{0}` on {1}{2}.\n", Map.To->name(),
                    versionsFrom(M, Map.Since),
                    !Conds.empty()  ? " when " + join(Conds, " and ")
                    : Conditional ? std::string(" otherwise")
                                  : std::string(""));
      Conditional = Conditional || !Conds.empty();
    }
    for (const QuantRuleDef &Q : M.QuantRules) {
      if (Q.Op != L.Op)
        continue;
      std::string What = Q.Relation;
      if (Q.Check)
        What = describeConstraint(*Q.Check);
      else if (Q.Relation == "fixed_output")
        What = formatv("output scale {0}, zero point {1}", Q.ScaleText,
                       Q.ZeroPoint)
                   .str();
      OS << formatv("- Quantization on {0}: {1}; otherwise {2}.\n",
                    versionsFrom(M, Q.Since, Q.Until), What, Q.OnFail);
    }
    OS << "\n";
  }

  void emitPatterns(raw_ostream &OS) {
    if (M.Patterns.empty())
      return;
    OS << "## Fusion patterns\n\n| pattern | versions | matches | becomes | "
          "conditions | benefit |\n|---|---|---|---|---|---|\n";
    for (const PatternDef &P : M.Patterns) {
      std::vector<std::string> Ops, Conds;
      for (auto It = P.Nodes.rbegin(); It != P.Nodes.rend(); ++It)
        Ops.push_back(It->name());
      for (const ConstraintDef *C : P.Constraints)
        Conds.push_back(describeConstraint(*C));
      OS << formatv("| `{0}` | {1} | {2} | `{3}` | {4} | {5} |\n", P.Name,
                    versionsFrom(M, P.Since), join(Ops, " -> "),
                    P.resultLabel(), escape(join(Conds, "; ")), P.Benefit);
    }
    OS << "\n";
  }

  /// The operator sets, each with its members and what each becomes in a
  /// result naming the set.
  void emitOpSets(raw_ostream &OS) {
    if (M.OpSets.empty())
      return;
    OS << "## Operator sets\n\nA pattern node naming a set matches any of "
          "its members. A result naming a set and a capture becomes what the "
          "set lists for the member that capture matched.\n\n"
          "| set | members | becomes |\n|---|---|---|\n";
    for (const auto &Set : M.OpSets) {
      std::vector<std::string> Members, Results;
      for (size_t I = 0; I < Set->Members.size(); ++I) {
        Members.push_back(Set->Members[I]->name());
        if (!Set->Results.empty())
          Results.push_back(Set->Members[I]->name() + " -> " +
                            Set->Results[I]->name());
      }
      OS << formatv("| `{0}` | {1} | {2} |\n", Set->name(),
                    join(Members, ", "),
                    Results.empty() ? "-" : join(Results, ", "));
    }
    OS << "\n";
  }

  void emitCosts(raw_ostream &OS) {
    if (M.Costs.empty() && M.SwitchCycles == 0)
      return;
    OS << "## Estimated cycles\n\n";
    OS << formatv("Moving one tensor between {0} and the CPU takes an "
                  "estimated {1} cycles.\n\n",
                  M.Name, M.SwitchCycles);
    if (M.Costs.empty())
      return;
    OS << "| operator | versions | cycles |\n|---|---|---|\n";
    for (const OpCosts &C : M.Costs)
      for (size_t I = 0; I < C.Steps.size(); ++I)
        OS << formatv(
            "| {0} | {1} | {2} |\n", C.Op->name(),
            versionRange(M, C.Steps[I].Since, C.until(I, M.Versions.size())),
            escape(constraint::describe(*C.Steps[I].Parsed)));
    OS << "\n";
  }

  static std::string escape(StringRef S) {
    std::string Out;
    for (char C : S)
      Out += C == '|' ? std::string("\\|") : std::string(1, C);
    return Out;
  }
};

} // namespace

void emitSupportedOps(const TargetModel &M, raw_ostream &OS) {
  SupportedOpsEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
