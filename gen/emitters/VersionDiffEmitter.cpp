//===- VersionDiffEmitter.cpp - VersionDiff.md -----------------------------===//
//
// For each version after the first: the operators it adds and removes, the
// data types and constraints that change for operators legal on both sides,
// the mappings, quantization rules and patterns that start or end there, and
// the cost estimates it adds or changes.
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

class VersionDiffEmitter {
public:
  explicit VersionDiffEmitter(const TargetModel &M) : M(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-version-diff", "<!--");
    OS << formatv("# What changes between versions of {0}\n\n", M.Name);
    for (unsigned V = 1; V < M.Versions.size(); ++V) {
      OS << formatv("## {0} -> {1}\n\n", M.versionLabel(V - 1),
                    M.versionLabel(V));
      std::vector<std::string> Lines;
      diffOps(V, Lines);
      for (const MappingDef &Map : M.Mappings)
        if (Map.Since == V)
          Lines.push_back(formatv("mapping {0} -> {1} applies",
                                  Map.From->name(), Map.To->name()));
      for (const QuantRuleDef &Q : M.QuantRules) {
        if (Q.Since == V)
          Lines.push_back(formatv("{0}: quantization rule {1} applies",
                                  Q.Op->name(), Q.Relation));
        if (Q.Until && *Q.Until + 1 == V)
          Lines.push_back(formatv("{0}: quantization rule {1} no longer "
                                  "applies",
                                  Q.Op->name(), Q.Relation));
      }
      for (const PatternDef &P : M.Patterns)
        if (P.Since == V)
          Lines.push_back(formatv("fusion pattern `{0}` ({1}) applies",
                                  P.Name, P.resultLabel()));
      diffCosts(V, Lines);
      diffScratch(V, Lines);
      if (Lines.empty())
        OS << "No change.\n\n";
      for (const std::string &L : Lines)
        OS << "- " << L << "\n";
      if (!Lines.empty())
        OS << "\n";
    }
  }

private:
  const TargetModel &M;

  void diffCosts(unsigned V, std::vector<std::string> &Lines) {
    for (const OpValues &C : M.Costs) {
      const ValueStep *After = C.at(V);
      const ValueStep *Before = C.at(V - 1);
      if (!After || After == Before)
        continue;
      std::string Words = constraint::describe(*After->Parsed);
      if (!Before)
        Lines.push_back(
            formatv("{0}: cost estimate added ({1})", C.Op->name(), Words));
      else
        Lines.push_back(formatv("{0}: cost estimate changed: {1} -> {2}",
                                C.Op->name(),
                                constraint::describe(*Before->Parsed), Words));
    }
  }

  void diffScratch(unsigned V, std::vector<std::string> &Lines) {
    for (const OpValues &S : M.Scratch) {
      const ValueStep *After = S.at(V);
      const ValueStep *Before = S.at(V - 1);
      if (!After || After == Before)
        continue;
      std::string Words = constraint::describe(*After->Parsed);
      if (!Before)
        Lines.push_back(formatv("{0}: scratch size added ({1} bytes)",
                                S.Op->name(), Words));
      else
        Lines.push_back(formatv("{0}: scratch size changed: {1} -> {2} bytes",
                                S.Op->name(),
                                constraint::describe(*Before->Parsed), Words));
    }
  }

  void diffOps(unsigned V, std::vector<std::string> &Lines) {
    for (const OpLegality &L : M.Legality) {
      const auto &Before = L.PerVersion[V - 1];
      const auto &After = L.PerVersion[V];
      const std::string &Name = L.Op->name();
      if (!Before && After) {
        Lines.push_back(formatv("{0}: added ({1})", Name,
                                join(After->Types, ", ")));
        continue;
      }
      if (Before && !After) {
        Lines.push_back(formatv("{0}: removed", Name));
        continue;
      }
      if (!Before)
        continue;
      for (const std::string &T : After->Types)
        if (!is_contained(Before->Types, T))
          Lines.push_back(formatv("{0}: type {1} added", Name, T));
      for (const std::string &T : Before->Types)
        if (!is_contained(After->Types, T))
          Lines.push_back(formatv("{0}: type {1} removed", Name, T));
      if (Before->WeightSchemes != After->WeightSchemes)
        Lines.push_back(formatv("{0}: weight schemes now {1}", Name,
                                After->WeightSchemes.empty()
                                    ? std::string("any")
                                    : join(After->WeightSchemes, ", ")));
      for (const ConstraintDef *C : Before->Constraints) {
        auto It = find_if(After->Constraints, [&](const ConstraintDef *X) {
          return X->id() == C->id();
        });
        if (It == After->Constraints.end())
          Lines.push_back(formatv("{0}: constraint `{1}` dropped ({2})", Name,
                                  C->id(), describeConstraint(*C)));
        else if (*It != C)
          Lines.push_back(formatv("{0}: constraint `{1}` changed: {2} -> {3}",
                                  Name, C->id(), describeConstraint(*C),
                                  describeConstraint(**It)));
      }
      for (const ConstraintDef *C : After->Constraints)
        if (none_of(Before->Constraints, [&](const ConstraintDef *X) {
              return X->id() == C->id();
            }))
          Lines.push_back(formatv("{0}: constraint `{1}` added ({2})", Name,
                                  C->id(), describeConstraint(*C)));
    }
  }
};

} // namespace

void emitVersionDiff(const TargetModel &M, raw_ostream &OS) {
  VersionDiffEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
