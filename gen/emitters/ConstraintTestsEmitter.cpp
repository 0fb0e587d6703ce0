//===- ConstraintTestsEmitter.cpp - ConstraintTests.inc
//--------------------===//
//
// Emits the accept/reject cases of every operator constraint
// (constraint::probeCases) as ConstraintProbe tables
// (target/ConstraintProbe.h), and one ACCELGEN_CONSTRAINT_TEST(name, index)
// line per probed constraint so that a test program can declare one test per
// constraint. A case no operator can be built for stays in its table with the
// reason, and the test reports it instead of running it. Constraints without
// cases (C++ functions, function calls, `macs`, unsatisfiable ones) are
// listed in a comment, grouped by reason.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <limits>
#include <map>

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

using constraint::ProbeSet;
using constraint::ProbeValue;
using constraint::Reference;

/// A constraint's probe cases and the name its tables are emitted under.
struct Probe {
  const ConstraintDef *C = nullptr;
  std::string Name; ///< The check's name without "check_".
  ProbeSet Set;
};

/// \p V as a C++ expression of type int64_t.
std::string intLiteral(int64_t V) {
  if (V == std::numeric_limits<int64_t>::min())
    return "INT64_MIN";
  return std::to_string(V);
}

/// The ProbeRef kind of \p R.
std::string probeKind(const Reference &R) {
  if (R.K == Reference::Kind::Attr) {
    switch (R.AttrKind) {
    case constraint::AttrInfo::Float:
      return "AttrFloat";
    case constraint::AttrInfo::Bool:
      return "AttrBool";
    case constraint::AttrInfo::String:
      return "AttrString";
    default:
      return "AttrInt";
    }
  }
  if (R.K == Reference::Kind::NumInputs)
    return "NumInputs";
  if (R.K == Reference::Kind::NumOutputs)
    return "NumOutputs";
  switch (R.P) {
  case Reference::Prop::DType:
    return "DType";
  case Reference::Prop::Rank:
    return "Rank";
  case Reference::Prop::Dim:
    return "Dim";
  case Reference::Prop::Channels:
    return "Channels";
  case Reference::Prop::IsConstant:
    return "IsConstant";
  case Reference::Prop::Scale:
    return "Scale";
  case Reference::Prop::ZeroPoint:
    return "ZeroPoint";
  case Reference::Prop::NumElements:
    return "NumElements";
  default:
    return "PerChannel";
  }
}

/// \p V as a ProbeValue initializer.
std::string valueInit(const ProbeValue &V) {
  switch (V.Ty) {
  case constraint::Type::Float:
    return formatv("{{0, {0}}", constraint::cppDouble(V.Float)).str();
  case constraint::Type::Bool:
    return V.Bool ? "{1}" : "{0}";
  case constraint::Type::String:
    return formatv("{{0, 0, {0}}", cppString(V.Str)).str();
  case constraint::Type::DType:
    if (!V.DT)
      return "{pt::ProbeDTypeNone}";
    return formatv("{{int64_t(accelgen::ir::DType::{0})}",
                   constraint::dtypeEnumerator(*V.DT))
        .str();
  case constraint::Type::Int:
    break;
  }
  return "{" + intLiteral(V.Int) + "}";
}

class ConstraintTestsEmitter {
public:
  explicit ConstraintTestsEmitter(const TargetModel &M) : M(M), Names(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-constraint-tests");
    std::vector<Probe> Probes;
    // Not probed, by reason.
    std::map<std::string, std::vector<std::string>> Skipped;
    for (const ConstraintDef *C : Names.unique()) {
      if (isPatternConstraint(*C))
        continue;
      Probe P;
      P.C = C;
      P.Name = StringRef(Names(*C)).drop_front(strlen("check_")).str();
      if (!C->Parsed) {
        Skipped["it is decided by a C++ function"].push_back(
            C->id() + " (" + C->Decl.CppFunction + ")");
        continue;
      }
      P.Set = constraint::probeCases(*C->Parsed);
      if (!P.Set.NotProbed.empty()) {
        Skipped[P.Set.NotProbed].push_back(C->id());
        continue;
      }
      Probes.push_back(std::move(P));
    }
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_CONSTRAINT_TESTS_DECL
#undef GET_CONSTRAINT_TESTS_DECL
namespace {0} {{
/// Accept/reject cases of the target's constraints, for runConstraintProbe().
extern const accelgen::target::ConstraintProbe *const ConstraintProbes;
extern const unsigned NumConstraintProbes;
} // namespace {0}
#endif // GET_CONSTRAINT_TESTS_DECL

#ifdef GET_CONSTRAINT_TESTS_IMPL
#undef GET_CONSTRAINT_TESTS_IMPL
namespace {0} {{

)",
                  NS);
    if (!Skipped.empty()) {
      OS << "// Constraints not probed, by reason:\n";
      for (const auto &[Why, Ids] : Skipped) {
        OS << "//   " << Why << ":\n";
        for (const std::string &Id : Ids)
          OS << "//     " << Id << "\n";
      }
      OS << "\n";
    }
    if (Probes.empty()) {
      OS << formatv(
          R"(const accelgen::target::ConstraintProbe *const ConstraintProbes = nullptr;
const unsigned NumConstraintProbes = 0;

} // namespace {0}
#endif // GET_CONSTRAINT_TESTS_IMPL

#ifdef GET_CONSTRAINT_TEST_CASES
#undef GET_CONSTRAINT_TEST_CASES
#endif // GET_CONSTRAINT_TEST_CASES
)",
          NS);
      return;
    }
    OS << "namespace {\n\nnamespace pt = accelgen::target;\n\n";
    for (const Probe &P : Probes)
      emitTables(OS, P);
    OS << "const pt::ConstraintProbe ProbeTable[] = {\n";
    for (const Probe &P : Probes)
      OS << formatv("    {{{0},\n     {1},\n     {2}, {3}, {4}_refs, {5}, "
                    "{4}_cases, {4}_values},\n",
                    cppString(P.C->id()),
                    cppString(constraint::print(*P.C->Parsed)), Names(*P.C),
                    P.Set.Refs.size(), P.Name, P.Set.Cases.size());
    OS << formatv(R"(};

} // namespace

const accelgen::target::ConstraintProbe *const ConstraintProbes = ProbeTable;
const unsigned NumConstraintProbes = {1};

} // namespace {0}
#endif // GET_CONSTRAINT_TESTS_IMPL

#ifdef GET_CONSTRAINT_TEST_CASES
#undef GET_CONSTRAINT_TEST_CASES
)",
                  NS, Probes.size());
    for (unsigned I = 0; I < Probes.size(); ++I)
      OS << formatv("ACCELGEN_CONSTRAINT_TEST({0}, {1})\n", Probes[I].Name, I);
    OS << "#endif // GET_CONSTRAINT_TEST_CASES\n";
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

  void emitTables(raw_ostream &OS, const Probe &P) const {
    OS << formatv("// {0}: {1}\n", commentText(P.C->id()),
                  commentText(constraint::print(*P.C->Parsed)));
    OS << formatv("const pt::ProbeRef {0}_refs[] = {{\n", P.Name);
    for (const Reference &R : P.Set.Refs) {
      bool Attr = R.K == Reference::Kind::Attr;
      OS << formatv(
          "    {{pt::ProbeRef::{0}, {1}, {2}, {3}, {4}, {5}},\n", probeKind(R),
          R.K == Reference::Kind::Output ? "true" : "false",
          Attr ? cppString(R.Attr) : std::string("nullptr"), Attr ? 0 : R.Index,
          R.P == Reference::Prop::Dim && !Attr ? R.Axis : 0,
          cppString(R.spelling()));
    }
    OS << "};\n";
    OS << formatv("const pt::ProbeValue {0}_values[] = {{\n", P.Name);
    for (const constraint::ProbeCase &Case : P.Set.Cases) {
      std::vector<std::string> Inits;
      for (const ProbeValue &V : Case.Values)
        Inits.push_back(valueInit(V));
      OS << "    " << join(Inits, ", ") << ",\n";
    }
    OS << "};\n";
    OS << formatv("const pt::ProbeCase {0}_cases[] = {{\n", P.Name);
    size_t First = 0;
    for (const constraint::ProbeCase &Case : P.Set.Cases) {
      OS << formatv("    {{{0}, {1}, {2},\n     {3}},\n", First,
                    Case.Accept ? "true" : "false", cppString(Case.Label),
                    Case.NotConstructible.empty()
                        ? std::string("nullptr")
                        : cppString(Case.NotConstructible));
      First += Case.Values.size();
    }
    OS << "};\n\n";
  }
};

} // namespace

void emitConstraintTests(const TargetModel &M, raw_ostream &OS) {
  ConstraintTestsEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
