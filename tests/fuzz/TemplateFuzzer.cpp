//===- TemplateFuzzer.cpp - libFuzzer entry point for the template engine -===//
//
// Feeds arbitrary text to the template engine (lib/template) as a template,
// and renders what parses with bindings of every kind under small limits. A
// rejected template or a failed rendering must come back as an error naming
// the template; a rendering must respect the output limit. Hangs are caught
// by libFuzzer's -timeout, so every unit of work must count against the step
// limit.
//
//===----------------------------------------------------------------------===//
#include "template/Template.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace accelgen;

namespace {

void check(bool Condition, const char *What) {
  if (Condition)
    return;
  llvm::errs() << "template fuzzer: invariant violated: " << What << "\n";
  std::abort();
}

void checkError(llvm::Error Err) {
  std::string Message = llvm::toString(std::move(Err));
  check(llvm::StringRef(Message).startswith("fuzz.in"),
        "error does not name the template");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<tmpl::Template> T = tmpl::Template::parse(Text, "fuzz.in");
  if (!T) {
    checkError(T.takeError());
    return 0;
  }
  tmpl::Bindings B;
  B["N"] = 4;
  B["DTYPE"] = "int8";
  B["FLAG"] = true;
  B["LIST"] = tmpl::Value::List{1, "two", false};
  tmpl::Value::Map M;
  M["k"] = 3;
  B["MAP"] = tmpl::Value(M);
  tmpl::RenderLimits Limits;
  Limits.MaxSteps = 200000;
  Limits.MaxOutputBytes = 1 << 20;
  Limits.MaxStringBytes = 1 << 18;
  llvm::Expected<std::string> Out = T->render(B, Limits);
  if (!Out)
    checkError(Out.takeError());
  else
    check(Out->size() <= Limits.MaxOutputBytes, "output past its limit");
  return 0;
}
