//===- KernelFiles.cpp - The kernel sources an emitted model needs --------===//
//
// A function is declared by the header where `void`, its name as a whole word
// and `(` follow each other; its definition lives in the .c file of the same
// stem.
// Quoted #include lines give the rest of the closure.
//
//===----------------------------------------------------------------------===//
#include "emit/KernelFiles.h"
#include "emit/EmbeddedFiles.h"

#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <map>

using namespace llvm;

namespace accelgen {
namespace emit {

namespace {

bool isWordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

/// True if \p Text declares \p Function: `void`, the name as a whole word,
/// optional blanks and `(` (every kernel returns void).
bool declares(StringRef Text, StringRef Function) {
  for (size_t Pos = Text.find(Function); Pos != StringRef::npos;
       Pos = Text.find(Function, Pos + 1)) {
    if (Pos > 0 && isWordChar(Text[Pos - 1]))
      continue;
    StringRef Before = Text.take_front(Pos).rtrim(" \t\n");
    if (!Before.endswith("void") ||
        (Before.size() > 4 && isWordChar(Before[Before.size() - 5])))
      continue;
    StringRef Rest = Text.drop_front(Pos + Function.size()).ltrim(" \t\n");
    if (Rest.startswith("("))
      return true;
  }
  return false;
}

/// The files named by `#include "..."` lines of \p Text.
std::vector<std::string> quotedIncludes(StringRef Text) {
  std::vector<std::string> Names;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.trim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("include"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("\""))
      continue;
    Names.push_back(L.take_until([](char C) { return C == '"'; }).str());
  }
  return Names;
}

} // namespace

Expected<KernelFileSet>
selectKernelFiles(const std::set<std::string> &Functions) {
  ArrayRef<EmbeddedFile> All = refKernelFiles();
  std::set<std::string> Headers, Wanted;
  for (const std::string &F : Functions) {
    bool Found = false;
    for (const EmbeddedFile &E : All) {
      StringRef Name(E.Name);
      if (!Name.endswith(".h") || !declares(E.Text, F))
        continue;
      Headers.insert(Name.str());
      Wanted.insert(Name.str());
      std::string Source = Name.drop_back(2).str() + ".c";
      if (findEmbedded(All, Source))
        Wanted.insert(Source);
      Found = true;
      break;
    }
    if (!Found)
      return createStringError(inconvertibleErrorCode(),
                               "no reference kernel header declares " + F);
  }
  // The include closure.
  std::vector<std::string> Work(Wanted.begin(), Wanted.end());
  while (!Work.empty()) {
    std::string Name = Work.back();
    Work.pop_back();
    std::optional<StringRef> Text = findEmbedded(All, Name);
    if (!Text)
      return createStringError(inconvertibleErrorCode(),
                               "reference kernel file " + Name +
                                   " is missing from this build");
    for (const std::string &Inc : quotedIncludes(*Text))
      if (Wanted.insert(Inc).second)
        Work.push_back(Inc);
  }

  KernelFileSet Set;
  Set.Headers.assign(Headers.begin(), Headers.end());
  for (const std::string &Name : Wanted) {
    StringRef Text = *findEmbedded(All, Name);
    Set.Files.push_back(
        {Name, ("/* Copied by accelgen from the reference kernels of target "
                "ref (lib/kernels/c/" +
                Name + "). */\n" + Text)
                   .str()});
  }
  return Set;
}

std::optional<StringRef> findEmbedded(ArrayRef<EmbeddedFile> Files,
                                      StringRef Name) {
  for (const EmbeddedFile &F : Files)
    if (Name == F.Name)
      return StringRef(F.Text);
  return std::nullopt;
}

} // namespace emit
} // namespace accelgen
