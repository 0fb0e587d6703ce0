//===- ConstraintFuzzer.cpp - libFuzzer entry point for constraints -------===//
//
// Feeds arbitrary text to the constraint language (gen/constraint) as an
// operator's constraint (a scope with attributes of every kind, three
// operands and one result), as a fusion pattern's (one capture of such an
// operator, and nothing else, as the target model scopes patterns), and as
// a cost value. A rejected text must come back as a ParseError with a column
// inside the text (or just past it); an accepted one is printed, described,
// emitted as a C++ check of its kind and probed, and its printed form must
// parse again to the same printed form.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace accelgen::gen;

namespace {

void check(bool Condition, const char *What) {
  if (Condition)
    return;
  llvm::errs() << "constraint fuzzer: invariant violated: " << What << "\n";
  std::abort();
}

/// An operator's scope: attributes of every kind, three operands, one
/// result.
constraint::Scope operatorScope() {
  using constraint::AttrInfo;
  constraint::Scope S;
  S.Attrs = {{"stride_h", AttrInfo::Int},   {"stride_w", AttrInfo::Int},
             {"alpha", AttrInfo::Float},    {"fused", AttrInfo::Bool},
             {"padding", AttrInfo::String}, {"dims", AttrInfo::Ints}};
  S.NumOperands = 3;
  S.NumResults = 1;
  return S;
}

/// A fusion pattern's scope: one capture of such an operator and nothing
/// else, as the target model builds it (a pattern's constraints name
/// captured operators only).
constraint::Scope patternScope() {
  constraint::Scope S;
  S.Captures["conv"] = operatorScope();
  return S;
}

/// Checks a failed parse and consumes its error.
void checkRejected(llvm::Error Err, size_t Length) {
  llvm::handleAllErrors(std::move(Err), [&](const constraint::ParseError &E) {
    check(E.column() >= 1 && E.column() <= Length + 1,
          "error column outside the text");
    check(!E.message().empty(), "error without a message");
  });
}

/// Parses \p Text as a constraint in \p S: a rejection must be a
/// ParseError inside the text; an accepted constraint is printed, described,
/// emitted as a check of kind \p Kind and probed, and its printed form must
/// parse again to the same printed form.
void fuzzConstraint(const std::string &Text, const constraint::Scope &S,
                    constraint::CheckKind Kind) {
  auto E = constraint::parse(Text, S);
  if (!E) {
    checkRejected(E.takeError(), Text.size());
    return;
  }
  std::string Printed = constraint::print(**E);
  (void)constraint::describe(**E);
  std::string Code;
  llvm::raw_string_ostream OS(Code);
  constraint::emitCheckDefinition(OS, **E, "fuzz", "summary", Kind);
  (void)constraint::boundaryCases(**E);
  (void)constraint::probeCases(**E);
  auto Again = constraint::parse(Printed, S);
  check(bool(Again), "the printed form does not parse");
  if (Again)
    check(constraint::print(**Again) == Printed,
          "the printed form does not print the same");
  else
    llvm::consumeError(Again.takeError());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const constraint::Scope Operator = operatorScope();
  static const constraint::Scope Pattern = patternScope();
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  fuzzConstraint(Text, Operator, constraint::CheckKind::Operator);
  fuzzConstraint(Text, Pattern, constraint::CheckKind::Pattern);
  // Cost values are an operator's.
  auto V = constraint::parseValue(Text, Operator);
  if (!V) {
    checkRejected(V.takeError(), Size);
  } else {
    std::string Code;
    llvm::raw_string_ostream OS(Code);
    constraint::emitValue(OS, **V, "fuzz");
  }
  return 0;
}
