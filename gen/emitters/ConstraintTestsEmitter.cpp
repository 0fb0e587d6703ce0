//===- ConstraintTestsEmitter.cpp - ConstraintTests.inc --------------------===//
//
// Emits the accept/reject boundary cases of every operator constraint as
// ConstraintProbe tables (target/ConstraintProbe.h), and one
// ACCELGEN_CONSTRAINT_TEST(name, index) line per probed constraint so that a
// test program can declare one test per constraint. A constraint is probed
// when its verdict is decided by the references boundaryCases() probes:
// every reference in it is an integer attribute or an operand's or result's
// rank, dim or channels, compared with constants under a top-level `&&`.
// Other constraints are listed in a comment with the reason.
//
//===----------------------------------------------------------------------===//
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <limits>

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

using constraint::BoundaryCase;
using constraint::Reference;

/// A constraint's probe: its references in first-use order and its cases.
struct Probe {
  const ConstraintDef *C = nullptr;
  std::string Name; ///< The check's name without "check_".
  std::vector<const BoundaryCase *> Refs;
  std::vector<int64_t> Accepted;
  std::vector<BoundaryCase> Cases;
};

/// \p V as a C++ expression of type int64_t.
std::string intLiteral(int64_t V) {
  if (V == std::numeric_limits<int64_t>::min())
    return "INT64_MIN";
  return std::to_string(V);
}

std::string probeKind(const Reference &R) {
  if (R.K == Reference::Kind::Attr)
    return "Attr";
  std::string Side = R.K == Reference::Kind::Input ? "Input" : "Output";
  switch (R.P) {
  case Reference::Prop::Rank:
    return Side + "Rank";
  case Reference::Prop::Dim:
    return Side + "Dim";
  default:
    return Side + "Channels";
  }
}

class ConstraintTestsEmitter {
public:
  explicit ConstraintTestsEmitter(const TargetModel &M) : M(M), Names(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-constraint-tests");
    std::vector<Probe> Probes;
    std::vector<std::string> Skipped;
    for (const ConstraintDef *C : Names.unique()) {
      if (isPatternConstraint(*C))
        continue;
      std::string Why;
      Probe P = probe(*C, Why);
      if (Why.empty())
        Probes.push_back(std::move(P));
      else
        Skipped.push_back(formatv("{0}: {1}", C->id(), Why).str());
    }
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_CONSTRAINT_TESTS_DECL
#undef GET_CONSTRAINT_TESTS_DECL
namespace {0} {{
/// Boundary cases of the target's constraints, for runConstraintProbe().
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
      OS << "// Constraints without boundary cases:\n";
      for (const std::string &S : Skipped)
        OS << "//   " << S << "\n";
      OS << "\n";
    }
    if (Probes.empty()) {
      OS << formatv(R"(const accelgen::target::ConstraintProbe *const ConstraintProbes = nullptr;
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
    OS << "namespace {\n\n";
    for (const Probe &P : Probes)
      emitTables(OS, P);
    OS << "const accelgen::target::ConstraintProbe ProbeTable[] = {\n";
    for (const Probe &P : Probes)
      OS << formatv("    {{{0},\n     {1},\n     {2}, {3}, {4}_refs, {5}, "
                    "{4}_cases},\n",
                    cppString(P.C->id()), cppString(constraint::print(*P.C->Parsed)),
                    Names(*P.C), P.Refs.size(), P.Name, P.Cases.size());
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

  /// The probe of \p C; sets \p Why when \p C cannot be probed.
  Probe probe(const ConstraintDef &C, std::string &Why) const {
    Probe P;
    P.C = &C;
    P.Name = StringRef(Names(C)).drop_front(strlen("check_")).str();
    if (!C.Parsed) {
      Why = "decided by C++ function " + C.Decl.CppFunction;
      return P;
    }
    P.Cases = constraint::boundaryCases(*C.Parsed);
    for (const BoundaryCase &Case : P.Cases)
      if (none_of(P.Refs,
                  [&](const BoundaryCase *R) { return R->Ref == Case.Ref; }))
        P.Refs.push_back(&Case);
    P.Accepted.assign(P.Refs.size(), 0);
    for (size_t I = 0; I < P.Refs.size(); ++I) {
      auto Accept = find_if(P.Cases, [&](const BoundaryCase &Case) {
        return Case.Ref == P.Refs[I]->Ref && Case.Accept;
      });
      if (Accept == P.Cases.end()) {
        Why = "no value of " + P.Refs[I]->Ref + " satisfies it";
        return P;
      }
      P.Accepted[I] = Accept->Value;
    }
    if (P.Cases.empty()) {
      Why = "no integer attribute or shape compared with constants";
      return P;
    }
    constraint::forEachRef(*C.Parsed, [&](const constraint::RefExpr &R) {
      if (!Why.empty())
        return;
      std::string S = R.ref().spelling();
      if (none_of(P.Refs, [&](const BoundaryCase *B) { return B->Ref == S; }))
        Why = S + " is not probed, so the cases do not decide it";
    });
    return P;
  }

  void emitTables(raw_ostream &OS, const Probe &P) const {
    OS << formatv("// {0}: {1}\n", P.C->id(), constraint::print(*P.C->Parsed));
    OS << formatv("const accelgen::target::ProbeRef {0}_refs[] = {{\n", P.Name);
    for (size_t I = 0; I < P.Refs.size(); ++I) {
      const Reference &R = P.Refs[I]->Subject;
      OS << formatv("    {{accelgen::target::ProbeRef::{0}, {1}, {2}, {3}, {4}, "
                    "{5}},\n",
                    probeKind(R),
                    R.K == Reference::Kind::Attr ? cppString(R.Attr)
                                                 : std::string("nullptr"),
                    R.K == Reference::Kind::Attr ? 0 : R.Index,
                    R.P == Reference::Prop::Dim ? R.Axis : 0,
                    intLiteral(P.Accepted[I]),
                    cppString(P.Refs[I]->Ref));
    }
    OS << "};\n";
    OS << formatv("const accelgen::target::ProbeCase {0}_cases[] = {{\n", P.Name);
    for (const BoundaryCase &Case : P.Cases) {
      size_t Ref = find_if(P.Refs, [&](const BoundaryCase *R) {
                     return R->Ref == Case.Ref;
                   }) -
                   P.Refs.begin();
      OS << formatv("    {{{0}, {1}, {2}},\n", Ref, intLiteral(Case.Value),
                    Case.Accept ? "true" : "false");
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
