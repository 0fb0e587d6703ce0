//===- PatternsEmitter.cpp - Patterns.inc
//----------------------------------===//
//
// Emits the target's fusion patterns as the constant tables the library's
// matcher runs (target/Pattern.h): per pattern its node and operand arrays,
// its value-capture names, the check that evaluates its constraints on a
// structural match, and a typed capture struct naming what a match bound.
// Operator sets the patterns use are data: one row of sorted member names
// (and of results, when the set has them) per set, which the library's
// PatternOpSet::find searches. Patterns appear in the model's order: by
// descending benefit, then name.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

/// \p S made a C++ identifier (letters, digits and '_').
std::string identifier(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += isAlnum(C) ? C : '_';
  if (Out.empty() || isDigit(Out[0]))
    Out.insert(Out.begin(), '_');
  return Out;
}

class PatternsEmitter {
public:
  explicit PatternsEmitter(const TargetModel &M) : M(M), Names(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-patterns");
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_PATTERNS_DECL
#undef GET_PATTERNS_DECL
namespace {0} {{

/// The target's fusion patterns, in the order the matcher tries them.
extern const accelgen::target::PatternDesc *const Patterns;
extern const unsigned NumPatterns;

)",
                  NS);
    for (unsigned I = 0; I < M.Patterns.size(); ++I)
      emitCaptureStruct(OS, M.Patterns[I], I);
    OS << formatv(R"(} // namespace {0}
#endif // GET_PATTERNS_DECL

#ifdef GET_PATTERNS_IMPL
#undef GET_PATTERNS_IMPL
namespace {0} {{

)",
                  NS);
    for (const PatternDef &P : M.Patterns)
      emitCaptureFrom(OS, P);
    OS << "namespace {\n\n";
    for (const ConstraintDef *C : Names.unique())
      if (isPatternConstraint(*C))
        emitCheckFunction(OS, Names(*C), *C, constraint::CheckKind::Pattern);
    for (const OpSetDef *Set : usedSets())
      emitSet(OS, *Set);
    for (const PatternDef &P : M.Patterns)
      emitTables(OS, P);
    if (M.Patterns.empty()) {
      OS << formatv(R"(} // namespace

const accelgen::target::PatternDesc *const Patterns = nullptr;
const unsigned NumPatterns = 0;

} // namespace {0}
#endif // GET_PATTERNS_IMPL
)",
                    NS);
      return;
    }
    OS << "const accelgen::target::PatternDesc PatternTable[] = {\n";
    for (const PatternDef &P : M.Patterns)
      emitDesc(OS, P);
    OS << formatv(R"(};

} // namespace

const accelgen::target::PatternDesc *const Patterns = PatternTable;
const unsigned NumPatterns = {1};

} // namespace {0}
#endif // GET_PATTERNS_IMPL
)",
                  NS, M.Patterns.size());
  }

private:
  const TargetModel &M;
  CheckNames Names;

  bool isPatternConstraint(const ConstraintDef &C) const {
    for (const PatternDef &P : M.Patterns)
      if (is_contained(P.Constraints, &C))
        return true;
    return false;
  }

  /// The operator sets some pattern matches or names in its result, in
  /// declaration order.
  std::vector<const OpSetDef *> usedSets() const {
    std::vector<const OpSetDef *> Used;
    for (const auto &Set : M.OpSets)
      if (any_of(M.Patterns, [&](const PatternDef &P) {
            return P.ResultSet == Set.get() ||
                   any_of(P.Nodes, [&](const PatternNodeDef &N) {
                     return N.Set == Set.get();
                   });
          }))
        Used.push_back(Set.get());
    return Used;
  }

  static std::string setName(const OpSetDef &Set) {
    return "OpSet_" + identifier(Set.Decl.Key);
  }

  /// The set's member names sorted (the order PatternOpSet::find searches),
  /// with their results in the same order.
  void emitSet(raw_ostream &OS, const OpSetDef &Set) {
    std::vector<size_t> Order(Set.Members.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    llvm::sort(Order, [&](size_t A, size_t B) {
      return Set.Members[A]->name() < Set.Members[B]->name();
    });
    std::string Members, Results;
    for (size_t I : Order) {
      Members += cppString(Set.Members[I]->name()) + ", ";
      if (!Set.Results.empty())
        Results += cppString(Set.Results[I]->name()) + ", ";
    }
    std::string Id = setName(Set);
    OS << formatv("// Op set {0} ({1})\n"
                  "const char *const {2}_members[] = {{{3}};\n",
                  Set.name(), Set.Decl.Key, Id,
                  StringRef(Members).drop_back(2));
    if (!Set.Results.empty())
      OS << formatv("const char *const {0}_results[] = {{{1}};\n", Id,
                    StringRef(Results).drop_back(2));
    OS << formatv("const accelgen::target::PatternOpSet {0} = {{{1}, {2}, "
                  "{0}_members, {3}};\n\n",
                  Id, cppString(Set.name()), Set.Members.size(),
                  Set.Results.empty() ? "nullptr" : Id + "_results");
  }

  /// The pattern as written: "(RELU:$act (CONV_2D:$conv $x, $w, $b))".
  std::string source(const PatternDef &P, unsigned Node) const {
    const PatternNodeDef &N = P.Nodes[Node];
    std::string S = "(" + N.name();
    if (!N.Capture.empty())
      S += ":$" + N.Capture;
    for (unsigned I = 0; I < N.Args.size(); ++I) {
      S += I ? ", " : " ";
      const PatternNodeDef::Arg &A = N.Args[I];
      if (A.Node >= 0)
        S += source(P, static_cast<unsigned>(A.Node));
      else if (A.Value >= 0)
        S += "$" + P.Values[A.Value];
      else
        S += "?";
    }
    return S + ")";
  }

  std::string result(const PatternDef &P) const {
    std::string S = "(" + P.resultName();
    if (!P.Result)
      S += ":$" + P.Nodes[P.ResultNode].Capture;
    for (unsigned I = 0; I < P.ResultArgs.size(); ++I)
      S += (I ? ", $" : " $") + P.Values[P.ResultArgs[I]];
    return S + ")";
  }

  static std::string structName(const PatternDef &P) {
    return identifier(P.Name) + "Match";
  }

  /// The member naming node \p I: its capture, or node<I> when unnamed.
  static std::string nodeMember(const PatternDef &P, unsigned I) {
    return P.Nodes[I].Capture.empty() ? formatv("node{0}", I).str()
                                      : identifier(P.Nodes[I].Capture);
  }

  void emitCaptureStruct(raw_ostream &OS, const PatternDef &P, unsigned Index) {
    OS << formatv("/// Pattern {0}: {1} -> {2}", commentText(P.Name),
                  commentText(source(P, 0)), commentText(result(P)));
    if (P.Since)
      OS << formatv(", from {0}", M.versionLabel(P.Since));
    OS << formatv(".\n/// What a match of Patterns[{0}] bound: operator "
                  "indices, then tensor\n/// indices (-1 for an omitted "
                  "optional operand).\n",
                  Index);
    OS << formatv("struct {0} {{\n", structName(P));
    for (unsigned I = 0; I < P.Nodes.size(); ++I)
      OS << formatv("  int32_t {0}; ///< {1}\n", nodeMember(P, I),
                    P.Nodes[I].name());
    for (const std::string &V : P.Values)
      OS << formatv("  int32_t {0}; ///< ${1}\n", identifier(V), V);
    OS << formatv(R"(
  /// The captures of \p M, a match of this pattern.
  static {0} from(const accelgen::target::PatternMatch &M);
};

)",
                  structName(P));
  }

  void emitCaptureFrom(raw_ostream &OS, const PatternDef &P) {
    std::string S = structName(P);
    OS << formatv("{0} {0}::from(const accelgen::target::PatternMatch &M) {{\n"
                  "  {0} C;\n",
                  S);
    for (unsigned I = 0; I < P.Nodes.size(); ++I)
      OS << formatv("  C.{0} = M.Nodes[{1}];\n", nodeMember(P, I), I);
    for (unsigned I = 0; I < P.Values.size(); ++I)
      OS << formatv("  C.{0} = M.Values[{1}];\n", identifier(P.Values[I]), I);
    if (P.Values.empty() && P.Nodes.empty())
      OS << "  (void)M;\n";
    OS << "  return C;\n}\n\n";
  }

  void emitTables(raw_ostream &OS, const PatternDef &P) {
    std::string Id = identifier(P.Name);
    OS << formatv("// {0}: {1} -> {2}\n", commentText(P.Name),
                  commentText(source(P, 0)), commentText(result(P)));
    for (unsigned I = 0; I < P.Nodes.size(); ++I) {
      const PatternNodeDef &N = P.Nodes[I];
      if (N.Args.empty())
        continue;
      std::string Ops;
      for (const PatternNodeDef::Arg &A : N.Args)
        Ops += formatv("{{{0}, {1}}, ", A.Node, A.Value).str();
      OS << formatv("const accelgen::target::PatternOperand {0}_n{1}[] = "
                    "{{{2}};\n",
                    Id, I, StringRef(Ops).drop_back(2));
    }
    OS << formatv("const accelgen::target::PatternNodeDesc {0}_nodes[] = {{\n",
                  Id);
    for (unsigned I = 0; I < P.Nodes.size(); ++I) {
      const PatternNodeDef &N = P.Nodes[I];
      OS << formatv("    {{{0}, {1}, {2}, {3}, {4}},\n",
                    N.Set ? "nullptr" : cppString(N.Op->name()),
                    N.Set ? "&" + setName(*N.Set) : "nullptr",
                    cppString(N.Capture), N.Args.size(),
                    N.Args.empty() ? std::string("nullptr")
                                   : formatv("{0}_n{1}", Id, I).str());
    }
    OS << "};\n";
    if (!P.Values.empty()) {
      std::string Values;
      for (const std::string &V : P.Values)
        Values += cppString(V) + ", ";
      OS << formatv("const char *const {0}_values[] = {{{1}};\n", Id,
                    StringRef(Values).drop_back(2));
    }
    if (!P.ResultArgs.empty()) {
      std::string Args;
      for (int A : P.ResultArgs)
        Args += formatv("{0}, ", A).str();
      OS << formatv("const int16_t {0}_result[] = {{{1}};\n", Id,
                    StringRef(Args).drop_back(2));
    }
    if (!P.Constraints.empty())
      emitPatternCheck(OS, P);
    OS << "\n";
  }

  /// `<Name>_check`: binds the named nodes and runs every constraint of the
  /// pattern, collecting each failing one's message.
  void emitPatternCheck(raw_ostream &OS, const PatternDef &P) {
    OS << formatv("bool {0}_check(const accelgen::ir::Graph &G,\n"
                  "    const accelgen::target::PatternMatch &M, "
                  "std::vector<std::string> &Why) {{\n"
                  "  accelgen::target::Captures C;\n",
                  identifier(P.Name));
    for (unsigned I = 0; I < P.Nodes.size(); ++I)
      if (!P.Nodes[I].Capture.empty())
        OS << formatv("  C.bind({0}, M.Nodes[{1}]);\n",
                      cppString(P.Nodes[I].Capture), I);
    OS << "  bool Holds = true;\n  std::string Message;\n";
    for (const ConstraintDef *C : P.Constraints)
      OS << formatv(R"(  if (!{0}(G, C, Message)) {{
    Why.push_back({1} + (": " + Message));
    Holds = false;
  }
)",
                    Names(*C), cppString(C->id()));
    OS << "  return Holds;\n}\n";
  }

  void emitDesc(raw_ostream &OS, const PatternDef &P) {
    std::string Id = identifier(P.Name);
    OS << formatv(
        "    {{{0}, {1}, {2},\n"
        "     {3}, {4}_nodes,\n"
        "     {5}, {6},\n"
        "     {7}, {11}, {12}, {8}, {9},\n"
        "     {10}},\n",
        cppString(P.Name), P.Benefit, P.Since, P.Nodes.size(), Id,
        P.Values.size(), P.Values.empty() ? "nullptr" : Id + "_values",
        P.Result ? cppString(P.Result->name()) : "nullptr", P.ResultArgs.size(),
        P.ResultArgs.empty() ? "nullptr" : Id + "_result",
        P.Constraints.empty() ? "nullptr" : Id + "_check",
        P.ResultSet ? "&" + setName(*P.ResultSet) : "nullptr", P.ResultNode);
  }
};

} // namespace

void emitPatterns(const TargetModel &M, raw_ostream &OS) {
  PatternsEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
