//===- SupportedOpsEmitter.cpp - SupportedOps.md
//---------------------------===//
//
// Documents, per operator: the versions it is legal at with their data types
// and weight schemes, every constraint in words with the versions it applies
// to, and the mappings and quantization rules; then the operator sets and
// fusion patterns, and
// the estimated cycles of each operator with the versions each estimate
// holds for; and the device semantics: layouts, the layouts operators
// compute in, intermediates kept in the device, storage conversions.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"
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
      OS << markdownText(M.Description) << ".\n\n";
    std::vector<std::string> Labels;
    for (unsigned V = 0; V < M.Versions.size(); ++V)
      Labels.push_back(M.versionLabel(V));
    OS << formatv("Versions, oldest first: {0}. A rule holds from the version "
                  "it names until a later version changes it.\n\n",
                  join(Labels));
    if (M.Backend.empty())
      OS << "It names no backend: accelgen can explain models for it, not "
            "compile them.\n\n";
    else
      OS << formatv("Its operators are compiled by the `{0}` backend{1}.\n\n",
                    M.Backend,
                    M.CpuFallback.empty()
                        ? std::string()
                        : formatv("; the rest run as on target `{0}`",
                                  M.CpuFallback)
                              .str());
    for (const OpLegality &L : M.Legality)
      emitOp(OS, L);
    emitOpSets(OS);
    emitPatterns(OS);
    emitCosts(OS);
    emitScratch(OS);
    emitDevice(OS);
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
      OS << formatv("| {0} | {1} | {2} |\n", M.versionLabel(V),
                    At.Types.empty() ? "none (no operands)" : join(At.Types),
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
      OS << "| constraint | versions | condition | meaning "
            "|\n|---|---|---|---|\n";
      for (const auto &[C, R] : Runs)
        OS << formatv("| {0} | {1} | {2} | {3} |\n", markdownCode(C->id()),
                      versionRange(M, R.first, R.second),
                      markdownCell(describeConstraint(*C)),
                      markdownCell(C->Decl.Summary));
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
                    !Conds.empty() ? " when " + join(Conds, " and ")
                    : Conditional  ? std::string(" otherwise")
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
      OS << formatv("| {0} | {1} | {2} | {3} | {4} | {5} |\n",
                    markdownCode(P.Name), versionsFrom(M, P.Since),
                    join(Ops, " -> "), markdownCode(P.resultLabel()),
                    markdownCell(join(Conds, "; ")), P.Benefit);
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
      OS << formatv("| `{0}` | {1} | {2} |\n", Set->name(), join(Members, ", "),
                    Results.empty() ? "-" : join(Results, ", "));
    }
    OS << "\n";
  }

  void emitCosts(raw_ostream &OS) {
    if (M.Costs.empty() && M.SwitchCycles == 0)
      return;
    OS << "## Estimated cycles\n\n";
    if (M.Library.empty())
      OS << formatv("Moving one tensor between {0} and the CPU takes an "
                    "estimated {1} cycles. ",
                    M.Name, M.SwitchCycles);
    else
      // Its calls run on the CPU: nothing moves, and the costs do not weigh
      // it against the fallback's kernels.
      OS << formatv("{0}'s functions run on the CPU itself; their costs "
                    "choose among them. ",
                    M.Library);
    OS << "Where every target operator a layer's mappings allow has a cost, "
          "the cheapest runs it (of equal ones, the mapping of higher "
          "benefit); otherwise the mapping of highest benefit.\n\n";
    if (M.Costs.empty())
      return;
    OS << "| operator | versions | cycles |\n|---|---|---|\n";
    for (const OpValues &C : M.Costs)
      for (size_t I = 0; I < C.Steps.size(); ++I)
        OS << formatv(
            "| {0} | {1} | {2} |\n", C.Op->name(),
            versionRange(M, C.Steps[I].Since, C.until(I, M.Versions.size())),
            markdownCell(constraint::describe(*C.Steps[I].Parsed)));
    OS << "\n";
  }

  void emitScratch(raw_ostream &OS) {
    if (M.Scratch.empty())
      return;
    OS << "## Scratch memory\n\n"
          "The bytes of scratch memory each function needs: a buffer the "
          "memory plan places with the tensors, live only while the call "
          "runs (while its cascade does; the calls of one cascade share "
          "one).\n\n"
          "| operator | versions | bytes |\n|---|---|---|\n";
    for (const OpValues &S : M.Scratch)
      for (size_t I = 0; I < S.Steps.size(); ++I)
        OS << formatv(
            "| {0} | {1} | {2} |\n", S.Op->name(),
            versionRange(M, S.Steps[I].Since, S.until(I, M.Versions.size())),
            markdownCell(constraint::describe(*S.Steps[I].Parsed)));
    OS << "\n";
  }

  /// The layouts and residency of one operator (null: every operator
  /// without rules of its own) at version \p V, in words.
  std::pair<std::string, std::string> deviceAt(const OpDef *Op,
                                               unsigned V) const {
    const DeviceAt &At = M.Device[V];
    const std::vector<unsigned> *Layouts = &At.Layouts;
    bool Keeps = At.KeepsFused;
    for (const DeviceAt::OpRule &R : At.Ops)
      if (R.Op == Op) {
        Layouts = &R.Layouts;
        Keeps = R.KeepsFused;
      }
    std::vector<std::string> Names;
    for (unsigned I : *Layouts)
      Names.push_back(M.Layouts[I].Name);
    return {Names.empty() ? "NHWC (none declared)" : join(Names),
            Keeps ? "yes" : "no"};
  }

  void emitDevice(raw_ostream &OS) {
    if (!M.FunctionalModel && M.Layouts.empty() &&
        llvm::all_of(M.Device, [](const DeviceAt &At) {
          return At.Ops.empty() && At.Conversions.empty() && !At.KeepsFused;
        }))
      return;
    OS << "## Device semantics\n\n";
    OS << (M.FunctionalModel
               ? formatv("Programs of {0} run on the functional model.\n\n",
                         M.Name)
               : formatv("No functional model runs programs of {0}.\n\n",
                         M.Name));
    if (!M.Layouts.empty()) {
      OS << "| layout of 4-D activations | channels | channels padded to |\n"
            "|---|---|---|\n";
      for (const LayoutDef &L : M.Layouts) {
        std::vector<std::string> Pads;
        if (L.ChannelPixels)
          Pads.push_back(formatv("{0} elements", L.ChannelPixels).str());
        if (L.ChannelBytes)
          Pads.push_back(formatv("{0} bytes", L.ChannelBytes).str());
        OS << formatv("| {0} | {1} | {2} |\n", L.Name,
                      L.MaxChannels
                          ? formatv("at most {0}", L.MaxChannels).str()
                          : std::string("any"),
                      Pads.empty() ? "not padded" : join(Pads, " and "));
      }
      OS << "\n";
    }
    // Operators named by rules, each with the runs of versions it is legal
    // at and its rules do not change over; operators with the same runs
    // share a row.
    std::vector<const OpDef *> Named;
    if (!M.Device.empty())
      for (const DeviceAt::OpRule &R : M.Device.front().Ops)
        Named.push_back(R.Op);
    using Run =
        std::tuple<unsigned, unsigned, std::pair<std::string, std::string>>;
    auto RunsOf = [&](const OpDef *Op) {
      std::vector<Run> Runs;
      const OpLegality *L = nullptr;
      for (const OpLegality &Legal : M.Legality)
        if (Legal.Op == Op)
          L = &Legal;
      for (unsigned V = 0; V < M.Versions.size(); ++V) {
        if (Op && (!L || !L->PerVersion[V]))
          continue;
        auto At = deviceAt(Op, V);
        if (!Runs.empty() && std::get<1>(Runs.back()) + 1 == V &&
            std::get<2>(Runs.back()) == At)
          std::get<1>(Runs.back()) = V;
        else
          Runs.push_back({V, V, At});
      }
      return Runs;
    };
    std::vector<std::pair<std::vector<Run>, std::vector<std::string>>> Rows;
    Rows.push_back({RunsOf(nullptr), {"every other operator"}});
    for (const OpDef *Op : Named) {
      std::vector<Run> Runs = RunsOf(Op);
      auto It = llvm::find_if(Rows, [&](const auto &R) {
        return R.first == Runs && R.second.front() != "every other operator";
      });
      if (It != Rows.end())
        It->second.push_back(Op->name());
      else
        Rows.push_back({Runs, {Op->name()}});
    }
    OS << "| operators | versions | compute in | fused intermediates stay in "
          "the device |\n|---|---|---|---|\n";
    for (const auto &[Runs, Ops] : Rows)
      for (const auto &[From, To, At] : Runs)
        OS << formatv("| {0} | {1} | {2} | {3} |\n", join(Ops),
                      versionRange(M, From, To), At.first, At.second);
    OS << "\n";
    bool AnyConversion = false;
    for (unsigned V = 0; V < M.Device.size(); ++V)
      for (const DeviceAt::Storage &S : M.Device[V].Conversions) {
        if (!AnyConversion)
          OS << "| version | activations | stored as |\n|---|---|---|\n";
        AnyConversion = true;
        OS << formatv("| {0} | {1}, {2} | {3} |\n", M.versionLabel(V), S.Type,
                      S.Scheme, S.StoredAs);
      }
    if (AnyConversion)
      OS << "\nConverted at the accelerator's inputs and outputs; other "
            "activations are stored as the model holds them.\n\n";
  }
};

} // namespace

void emitSupportedOps(const TargetModel &M, raw_ostream &OS) {
  SupportedOpsEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
