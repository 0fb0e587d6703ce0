//===- LegalityEmitter.cpp - Legality.inc
//----------------------------------===//
//
// Emits one check function per constraint and, per legal operator, a table of
// what it must satisfy at each version (types, weight schemes, constraints
// with hints). The library's evaluateLegality() runs the tables.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

class LegalityEmitter {
public:
  explicit LegalityEmitter(const TargetModel &M) : M(M), Names(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-legality");
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_LEGALITY_DECL
#undef GET_LEGALITY_DECL
namespace {0} {{

/// Legality tables of every operator the target supports, by name order.
extern const accelgen::target::OpLegalityTable *const LegalityTables[];
extern const unsigned NumLegalityTables;

)",
                  NS);
    for (const ConstraintDef *C : Names.unique())
      if (!isPatternConstraint(*C))
        OS << formatv(
            "bool {0}(const accelgen::ir::Graph &G, "
            "const accelgen::ir::Operator &Op, std::string &Message);\n",
            Names(*C));
    OS << formatv(R"(
} // namespace {0}
#endif // GET_LEGALITY_DECL

#ifdef GET_LEGALITY_IMPL
#undef GET_LEGALITY_IMPL
namespace {0} {{

)",
                  NS);
    for (const ConstraintDef *C : Names.unique())
      if (!isPatternConstraint(*C))
        emitCheckFunction(OS, Names(*C), *C);
    OS << "namespace {\n\n";
    for (const OpLegality &L : M.Legality)
      emitTable(OS, L);
    OS << "} // namespace\n\n";
    OS << "const accelgen::target::OpLegalityTable *const LegalityTables[] = "
          "{\n";
    for (const OpLegality &L : sortedByName())
      OS << formatv("    &{0}_legality,\n", L.Op->Decl.Key);
    OS << formatv(R"(};
const unsigned NumLegalityTables = {1};

} // namespace {0}
#endif // GET_LEGALITY_IMPL
)",
                  NS, M.Legality.size());
  }

private:
  const TargetModel &M;
  CheckNames Names;

  bool isPatternConstraint(const ConstraintDef &C) const {
    for (const PatternDef &P : M.Patterns)
      if (llvm::is_contained(P.Constraints, &C))
        return true;
    return false;
  }

  std::vector<OpLegality> sortedByName() const {
    std::vector<OpLegality> Sorted = M.Legality;
    std::sort(Sorted.begin(), Sorted.end(),
              [](const OpLegality &A, const OpLegality &B) {
                return A.Op->name() < B.Op->name();
              });
    return Sorted;
  }

  static std::string stringArray(const std::vector<std::string> &Items) {
    std::string S;
    for (const std::string &I : Items)
      S += (S.empty() ? "" : ", ") + cppString(I);
    return S;
  }

  void emitTable(raw_ostream &OS, const OpLegality &L) {
    const std::string &Key = L.Op->Decl.Key;
    OS << formatv("// {0}\n", commentText(L.Op->name()));
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      if (!L.PerVersion[V])
        continue;
      const LegalAt &At = *L.PerVersion[V];
      std::string Prefix = formatv("{0}_v{1}", Key, V).str();
      // An operator without operands (CALL_ONCE) declares no type.
      if (!At.Types.empty())
        OS << formatv("const char *const {0}_types[] = {{{1}};\n", Prefix,
                      stringArray(At.Types));
      if (!At.WeightSchemes.empty())
        OS << formatv("const char *const {0}_schemes[] = {{{1}};\n", Prefix,
                      stringArray(At.WeightSchemes));
      if (!At.Constraints.empty()) {
        OS << formatv("const accelgen::target::ConstraintEntry "
                      "{0}_constraints[] = {{\n",
                      Prefix);
        for (const ConstraintDef *C : At.Constraints)
          OS << formatv("    {{{0}, {1}, {2}},\n", cppString(C->id()),
                        Names(*C), cppString(constraintHint(M, L, V, *C)));
        OS << "};\n";
      }
      OS << formatv("const accelgen::target::LegalityAt {0} = {{\n"
                    "    {7}, {1}, {2},\n"
                    "    {3}, {4},\n"
                    "    {5}, {6}};\n",
                    Prefix, At.Types.size(), cppString(typeHint(M, L, V)),
                    At.WeightSchemes.empty() ? "nullptr" : Prefix + "_schemes",
                    At.WeightSchemes.size(),
                    At.Constraints.empty() ? "nullptr"
                                           : Prefix + "_constraints",
                    At.Constraints.size(),
                    At.Types.empty() ? "nullptr" : Prefix + "_types");
    }
    std::string Versions, Hints;
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      Versions += L.PerVersion[V] ? formatv("&{0}_v{1}, ", Key, V).str()
                                  : std::string("nullptr, ");
      Hints +=
          cppString(L.PerVersion[V] ? "" : unavailableHint(M, L, V)) + ", ";
    }
    OS << formatv("const accelgen::target::LegalityAt *const "
                  "{0}_versions[] = {{{1}};\n"
                  "const char *const {0}_unavailable[] = {{{2}};\n"
                  "const accelgen::target::OpLegalityTable {0}_legality = {{\n"
                  "    {3}, {0}_versions, {4}, {0}_unavailable};\n\n",
                  Key, StringRef(Versions).drop_back(2),
                  StringRef(Hints).drop_back(2), cppString(L.Op->name()),
                  M.Versions.size());
  }
};

} // namespace

void emitLegality(const TargetModel &M, raw_ostream &OS) {
  LegalityEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
