//===- ConstraintFuzzer.cpp - libFuzzer entry point for constraints -------===//
//
// Feeds arbitrary text to the constraint language (gen/constraint) as a
// constraint and as a cost value, in a scope with attributes of every kind,
// three operands, one result and a fusion-pattern capture. A rejected text
// must come back as a ParseError with a column inside the text (or just past
// it); an accepted one is printed, described, emitted as a C++ check and
// probed, and its printed form must parse again to the same printed form.
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

constraint::Scope makeScope() {
  using constraint::AttrInfo;
  constraint::Scope S;
  S.Attrs = {{"stride_h", AttrInfo::Int},   {"stride_w", AttrInfo::Int},
             {"alpha", AttrInfo::Float},    {"fused", AttrInfo::Bool},
             {"padding", AttrInfo::String}, {"dims", AttrInfo::Ints}};
  S.NumOperands = 3;
  S.NumResults = 1;
  constraint::Scope Conv = S;
  S.Captures["conv"] = Conv;
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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const constraint::Scope S = makeScope();
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto E = constraint::parse(Text, S);
  if (!E) {
    checkRejected(E.takeError(), Size);
  } else {
    std::string Printed = constraint::print(**E);
    (void)constraint::describe(**E);
    std::string Code;
    llvm::raw_string_ostream OS(Code);
    constraint::emitCheckDefinition(OS, **E, "fuzz", "summary");
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
  auto V = constraint::parseValue(Text, S);
  if (!V) {
    checkRejected(V.takeError(), Size);
  } else {
    std::string Code;
    llvm::raw_string_ostream OS(Code);
    constraint::emitValue(OS, **V, "fuzz");
  }
  return 0;
}
