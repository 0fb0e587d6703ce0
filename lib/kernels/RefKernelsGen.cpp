//===- RefKernelsGen.cpp - Renders the reference kernel templates ---------===//
//
// A build-time tool: instantiates one template of templates/ref/ for the rows
// of the instantiation table (<build>/kernels/instances.txt, generated from
// the kernel families of defs/kernels.td by accelgen-tblgen) that name its
// family, and writes the C file with a banner naming the template:
//
//   accelgen-ref-kernels TABLE TEMPLATE NAME OUTPUT
//
// TEMPLATE is `<family>.c.in` or `<family>.h.in`; NAME is how the banner and
// errors call it ("templates/ref/conv.c.in"). The template is rendered once,
// with the family's rows in table order (KERNELS) and the element types
// (DT), as template/KernelTemplate.h describes.
//
// The output is rewritten only when its text changes. Errors are reported as
// `file:line:col: error: message` (the table's or the template's).
//
//===----------------------------------------------------------------------===//
#include "template/KernelTemplate.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;
using namespace accelgen::tmpl;

namespace {

int fail(const Twine &Message) {
  errs() << Message << "\n";
  return 1;
}

/// The rows of \p Table naming \p Family, each a map of its KEY=VALUE words;
/// an error at the table's line for a malformed word.
Expected<Value::List> familyRows(StringRef Table, StringRef TablePath,
                                 StringRef Family) {
  Value::List Rows;
  SmallVector<StringRef, 128> Lines;
  Table.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I].split('#').first.trim();
    if (Line.empty())
      continue;
    SmallVector<StringRef, 8> Words;
    SplitString(Line, Words);
    if (Words.front() != Family)
      continue;
    Value::Map Row;
    for (StringRef W : makeArrayRef(Words).drop_front()) {
      auto [Key, Val] = W.split('=');
      if (Key.empty() || Val.empty() || !W.contains('='))
        return createStringError(inconvertibleErrorCode(),
                                 "%s:%zu: error: expected KEY=VALUE, got '%s'",
                                 TablePath.str().c_str(), I + 1,
                                 W.str().c_str());
      if (!Row.emplace(Key.str(), Val.str()).second)
        return createStringError(
            inconvertibleErrorCode(), "%s:%zu: error: '%s' is given twice",
            TablePath.str().c_str(), I + 1, Key.str().c_str());
    }
    Rows.push_back(Value(std::move(Row)));
  }
  if (Rows.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: error: no row instantiates family '%s'",
                             TablePath.str().c_str(), Family.str().c_str());
  return Rows;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5)
    return fail("usage: accelgen-ref-kernels TABLE TEMPLATE NAME OUTPUT");
  const StringRef TablePath = argv[1], TemplatePath = argv[2], Name = argv[3],
                  Output = argv[4];

  auto Table = MemoryBuffer::getFile(TablePath);
  if (!Table)
    return fail("error: cannot read " + TablePath + ": " +
                Table.getError().message());
  auto Text = MemoryBuffer::getFile(TemplatePath);
  if (!Text)
    return fail("error: cannot read " + TemplatePath + ": " +
                Text.getError().message());

  // conv.c.in -> family "conv".
  const StringRef Family = sys::path::filename(TemplatePath).split('.').first;
  Expected<Value::List> Rows =
      familyRows((*Table)->getBuffer(), TablePath, Family);
  if (!Rows)
    return fail(toString(Rows.takeError()));

  Expected<std::string> Rendered =
      renderKernelTemplate((*Text)->getBuffer(), Name, std::move(*Rows));
  if (!Rendered)
    return fail(toString(Rendered.takeError()));
  const std::string &Out = *Rendered;

  // Rewrite the output only when it changes.
  if (auto Old = MemoryBuffer::getFile(Output))
    if ((*Old)->getBuffer() == Out)
      return 0;
  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC)
    return fail("error: cannot write " + Output + ": " + EC.message());
  OS << Out;
  return 0;
}
