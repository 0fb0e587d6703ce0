//===- accelgen-tblgen.cpp - The target description generator
//--------------===//
//
// Reads one target description, `.td` (TableGen, with the classes of defs/)
// or `.yaml` (also `.yml`, in any case; the same content), builds its
// validated model and runs the emitter the action names. The actions are one table below. TableGen's own
// driver handles `-o`, `-d` (depfile), `-I` and `--write-if-changed`; a
// `.yaml` input is read after TableGen has parsed the operator vocabulary.
// Inputs are read within accelgen::support::MaxDescriptionBytes.
//
//===----------------------------------------------------------------------===//
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"
#include "frontend/RecordFrontend.h"
#include "frontend/VocabularyFrontend.h"
#include "frontend/YamlFrontend.h"
#include "model/Runnable.h"
#include "model/TargetModel.h"
#include "support/CommandLine.h"
#include "support/InputFile.h"
#include "template/KernelTemplate.h"
#include "template/TemplateError.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <cstring>
#include <new>
#include <optional>
#include <set>

#include <algorithm>
#include <map>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;
using namespace accelgen::gen;

namespace {

enum ActionType {
  GenOpSetups,
  GenLegality,
  GenPatterns,
  GenSupportedOps,
  GenVersionDiff,
  GenConstraintTests,
  GenDeviceRules,
  DumpModel,
  GenKernelParams,
  GenKernelInstances,
  GenKernelTable,
  GenOpVocabulary,
  GenKernelRegistration,
  GenOwnKernelFiles,
};

cl::opt<ActionType> Action(
    cl::desc("Action to perform:"),
    cl::values(
        clEnumValN(GenOpSetups, "gen-op-setups",
                   "OpSetup converter classes (C++)"),
        clEnumValN(GenLegality, "gen-legality",
                   "Legality checks of every constraint (C++)"),
        clEnumValN(GenPatterns, "gen-patterns",
                   "Fusion pattern tables and capture structs (C++)"),
        clEnumValN(GenSupportedOps, "gen-supported-ops",
                   "Supported operators by version, type and constraint "
                   "(Markdown)"),
        clEnumValN(GenVersionDiff, "gen-version-diff",
                   "What changes between consecutive versions (Markdown)"),
        clEnumValN(GenConstraintTests, "gen-constraint-tests",
                   "Accept/reject boundary cases of every constraint (C++)"),
        clEnumValN(GenDeviceRules, "gen-device-rules",
                   "Device semantics: layouts, storage, residency (C++)"),
        clEnumValN(DumpModel, "dump-model",
                   "Print the validated target model (for debugging)"),
        clEnumValN(GenKernelParams, "gen-kernel-params",
                   "The kernel families' parameter structs (C header)"),
        clEnumValN(GenKernelInstances, "gen-kernel-instances",
                   "The kernel templates' instantiation rows"),
        clEnumValN(GenKernelTable, "gen-kernel-table",
                   "Fields, arguments, functions and operators of every "
                   "kernel family (X-macro rows)"),
        clEnumValN(GenOpVocabulary, "gen-op-vocabulary",
                   "The Graph IR's operator vocabulary, from defs/ops.td "
                   "(C++ X-macro rows)"),
        clEnumValN(GenKernelRegistration, "gen-kernel-registration",
                   "The target's own kernel families, with their files, as "
                   "accelgen registers them (C++)"),
        clEnumValN(GenOwnKernelFiles, "gen-own-kernel-files",
                   "The parameter structs of the target's own kernel "
                   "families, <target>_params.h (C), and the sources "
                   "rendered from their templates (into --own-kernels-dir), "
                   "for compiling them with the target")));

cl::opt<std::string>
    TemplateDir("template-dir",
                cl::desc("Folder of the kernel templates (checked to exist for "
                         "-gen-kernel-*)"),
                cl::value_desc("dir"));
cl::opt<std::string> OwnKernelsDir(
    "own-kernels-dir",
    cl::desc("Folder -gen-own-kernel-files writes the sources rendered from "
             "the target's own kernel templates into"),
    cl::value_desc("dir"));

cl::opt<std::string> KernelSourceDir(
    "kernel-source-dir",
    cl::desc("Folder of the plain C kernel sources (checked to exist for "
             "-gen-kernel-*)"),
    cl::value_desc("dir"));

bool isKernelLibraryAction() {
  return Action == GenKernelParams || Action == GenKernelInstances ||
         Action == GenKernelTable;
}

/// Set when the input is a `.yaml` description (the positional input, never
/// the value of an option such as `-o X.yaml`); TableGen then parses a
/// stand-in `.td` that includes only what the description language declares.
std::string YamlInput;

/// The input named on the command line, for the message of an exhausted
/// memory.
std::string InputForMessages;

/// The kernel library actions read the kernel families only: the
/// KernelFamily records of a `.td`, or the `kernel_families` of a `.yaml`
/// library.
bool runKernelLibraryAction(raw_ostream &OS, RecordKeeper &Records) {
  Diagnostics Diags;
  TargetDecl Decl;
  readOperatorRecords(Records, Decl);
  if (YamlInput.empty())
    readKernelFamilyRecords(Records, Decl);
  else if (!readYamlKernelLibrary(YamlInput, Decl, Diags))
    return true;
  std::unique_ptr<KernelLibraryModel> Model = buildKernelLibrary(
      Decl, KernelSourceDirs{TemplateDir, KernelSourceDir}, Diags);
  if (!Model)
    return true;
  switch (Action) {
  case GenKernelParams:
    emitKernelParams(*Model, OS);
    break;
  case GenKernelInstances:
    emitKernelInstances(*Model, OS);
    break;
  default:
    emitKernelTable(*Model, OS);
    break;
  }
  return false;
}

/// -gen-op-vocabulary reads the operator vocabulary itself, not a target.
bool runVocabularyAction(raw_ostream &OS, RecordKeeper &Records) {
  Diagnostics Diags;
  std::optional<Vocabulary> V =
      buildVocabulary(readVocabularyRecords(Records), Diags);
  if (!V)
    return true;
  std::string Input = Records.getInputFilename();
  emitOpVocabulary(*V, sys::path::filename(Input), OS);
  return false;
}

bool runAction(raw_ostream &OS, RecordKeeper &Records) {
  if (isKernelLibraryAction())
    return runKernelLibraryAction(OS, Records);
  if (Action == GenOpVocabulary)
    return runVocabularyAction(OS, Records);
  Diagnostics Diags;
  TargetDecl Decl;
  if (YamlInput.empty()) {
    if (!readTargetRecords(Records, Decl, Diags))
      return true;
    readKernelFamilyRecords(Records, Decl);
  } else {
    readOperatorRecords(Records, Decl);
    readKernelFamilyRecords(Records, Decl);
    if (!readYamlTarget(YamlInput, Decl, Diags))
      return true;
  }
  if (Diags.errorCount())
    return true;
  std::unique_ptr<TargetModel> Model = buildTargetModel(Decl, Diags);
  if (!Model)
    return true;
  // A target's own families are registered when accelgen loads it: they
  // are named after the target, so that nothing of them can be the
  // reference kernels', and their files are beside the description (plain
  // C, or templates rendered here).
  bool HasOwn = false;
  // The target's name as a C identifier ("cmsis_nn").
  std::string Lib = Decl.Name;
  std::replace(Lib.begin(), Lib.end(), '-', '_');
  for (const KernelFamilyDecl &F : Decl.KernelFamilies) {
    if (F.InLibrary)
      continue;
    HasOwn = true;
    if (F.Library != Lib)
      Diags.error(F.At,
                  formatv("kernel family '{0}' is target {1}'s own, so its "
                          "library must be the target's name, '{2}' (it is "
                          "'{3}'): its struct, functions and files are then "
                          "{2}_..., never the reference kernels'",
                          F.Key, Decl.Name, Lib, F.Library));
  }
  if (Diags.errorCount())
    return true;
  // What it declares must run: checked against the portable library's
  // families (every description includes kernels.td) and its own.
  std::unique_ptr<KernelLibraryModel> Kernels =
      buildKernelLibrary(Decl, KernelSourceDirs{}, Diags);
  if (!Kernels)
    return true;
  // An own family computes operators no other family does: accelgen's
  // registry refuses one that would change what an operator computes.
  std::map<std::string, const KernelFamilyDef *> ComputedBy;
  for (const auto &F : Kernels->Families) {
    bool Reported = false;
    for (const auto &[Op, Fn] : F->Rows) {
      auto [It, New] = ComputedBy.try_emplace(Op, F.get());
      if (New || It->second == F.get() || !F->Own || Reported)
        continue;
      Diags.error(F->At, formatv("kernel family '{0}' computes {1}, which "
                                 "kernel family '{2}' computes already; a "
                                 "target's own family computes operators no "
                                 "other family does",
                                 F->Key, Kernels->opName(Op),
                                 It->second->Key));
      Reported = true;
    }
  }
  if (Diags.errorCount())
    return true;
  checkDeclaredRunnable(Decl, *Model, *Kernels, Diags);
  if (Diags.errorCount())
    return true;
  if (Action == GenKernelRegistration || Action == GenOwnKernelFiles) {
    // The files the own families need: their parameter structs, and each
    // one's header and source from the kernel source folder (by default
    // the description's).
    std::vector<std::pair<std::string, std::string>> Files;
    if (HasOwn) {
      TargetDecl OwnDecl = Decl;
      llvm::erase_if(OwnDecl.KernelFamilies, [](const KernelFamilyDecl &F) {
        return F.InLibrary;
      });
      std::unique_ptr<KernelLibraryModel> Own =
          buildKernelLibrary(OwnDecl, KernelSourceDirs{}, Diags);
      if (!Own)
        return true;
      std::string Params;
      raw_string_ostream PS(Params);
      emitKernelParams(*Own, PS);
      Files.push_back({Lib + "_params.h", PS.str()});
      SmallString<256> Dir(KernelSourceDir);
      if (Dir.empty())
        Dir = sys::path::parent_path(InputForMessages);
      auto Read = [&](const KernelFamilyDef &F, StringRef Name)
          -> std::optional<std::string> {
        SmallString<256> Path(Dir);
        sys::path::append(Path, Name);
        auto Text = accelgen::support::readInputFile(
            Path, accelgen::support::MaxDescriptionBytes);
        if (!Text) {
          Diags.error(F.At, formatv("kernel family '{0}': {1}: {2}", F.Key,
                                    Path, toString(Text.takeError())));
          return std::nullopt;
        }
        return (*Text)->getBuffer().str();
      };
      // Plain files as they are; a template (<lib>_<template>.{h,c}.in)
      // rendered once for the functions of every family naming it.
      std::vector<std::string> Rendered;
      for (const auto &F : Own->Families) {
        const std::string Stem = StringRef(F->header()).drop_back(2).str();
        if (!F->Rendered) {
          for (const std::string &Name : {Stem + ".h", Stem + ".c"})
            if (std::optional<std::string> Text = Read(*F, Name))
              Files.push_back({Name, std::move(*Text)});
          continue;
        }
        if (llvm::is_contained(Rendered, Stem))
          continue;
        Rendered.push_back(Stem);
        accelgen::tmpl::Value::List Rows;
        for (const auto &G : Own->Families)
          if (G->Rendered && G->header() == F->header())
            for (const KernelFunctionDef &Fn : G->Functions) {
              accelgen::tmpl::Value::Map Row;
              for (auto &[Key, Value] : Fn.instanceWords())
                Row.emplace(Key, Value);
              Rows.push_back(accelgen::tmpl::Value(std::move(Row)));
            }
        for (const std::string &Name : {Stem + ".h", Stem + ".c"}) {
          std::optional<std::string> Text = Read(*F, Name + ".in");
          if (!Text)
            continue;
          Expected<std::string> Out =
              accelgen::tmpl::renderKernelTemplate(*Text, Name + ".in", Rows);
          if (!Out) {
            // Located in the template's file, the family named.
            SmallString<256> Path(Dir);
            sys::path::append(Path, Name + ".in");
            Loc At = F->At;
            std::string Msg;
            handleAllErrors(
                Out.takeError(),
                [&](const accelgen::tmpl::TemplateError &E) {
                  At = Loc{Path.str().str(), E.line(), E.column()};
                  Msg = E.text();
                },
                [&](const ErrorInfoBase &E) { Msg = E.message(); });
            Diags.error(At, formatv("{0} (kernel family '{1}')", Msg, F->Key));
            continue;
          }
          Files.push_back({Name, std::move(*Out)});
        }
      }
      if (Diags.errorCount())
        return true;
      if (Action == GenOwnKernelFiles) {
        // The parameter structs to the output, the rendered sources beside
        // it, each rewritten only when it changes.
        OS << Files.front().second;
        if (!Rendered.empty() && OwnKernelsDir.empty()) {
          errs() << InputForMessages << ": target " << Decl.Name
                 << " renders kernel templates, and -gen-own-kernel-files "
                    "needs --own-kernels-dir for their sources\n";
          return true;
        }
        for (const auto &[Name, Text] : Files) {
          if (!llvm::is_contained(Rendered,
                                  StringRef(Name).drop_back(2).str()))
            continue;
          SmallString<256> Path(OwnKernelsDir);
          sys::path::append(Path, Name);
          if (auto Old = MemoryBuffer::getFile(Path);
              Old && (*Old)->getBuffer() == Text)
            continue;
          std::error_code EC;
          raw_fd_ostream Out(Path, EC, sys::fs::OF_None);
          if (EC) {
            errs() << Path << ": cannot write: " << EC.message() << "\n";
            return true;
          }
          Out << Text;
        }
        return false;
      }
    }
    if (Action == GenOwnKernelFiles) {
      errs() << InputForMessages << ": target " << Decl.Name
             << " declares no kernel families of its own\n";
      return true;
    }
    emitKernelRegistration(*Kernels, Decl.Name, targetNamespace(*Model),
                           Files, OS);
    return false;
  }
  switch (Action) {
  case GenOpSetups:
    emitOpSetups(*Model, OS);
    break;
  case GenLegality:
    emitLegality(*Model, OS);
    break;
  case GenPatterns:
    emitPatterns(*Model, OS);
    break;
  case GenSupportedOps:
    emitSupportedOps(*Model, OS);
    break;
  case GenVersionDiff:
    emitVersionDiff(*Model, OS);
    break;
  case GenConstraintTests:
    emitConstraintTests(*Model, OS);
    break;
  case GenDeviceRules:
    emitDeviceRules(*Model, OS);
    break;
  case DumpModel:
    dumpModel(*Model, OS);
    break;
  default:
    break; // Handled above.
  }
  return false;
}

/// The folder of defs/ next to an installed tool, or in the source tree.
std::string defsDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&defsDir);
  SmallString<256> Installed(
      sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "share", "accelgen", "defs");
  if (sys::fs::exists(Installed))
    return std::string(Installed);
  return ACCELGEN_SOURCE_DEFS_DIR;
}

/// The input file TableGen's driver parsed from the command line (its only
/// positional option, "-" for standard input).
cl::opt<std::string> *inputOption() {
  for (cl::Option *O : cl::TopLevelSubCommand->PositionalOpts)
    return static_cast<cl::opt<std::string> *>(O);
  return nullptr;
}

/// Prints "error: Message" and returns 1.
int fail(const Twine &Message) {
  errs() << "error: " << Message << "\n";
  return 1;
}

/// A stand-in `.td` that TableGen parses in place of the input; removed when
/// the tool returns.
struct StandIn {
  std::string Path;
  ~StandIn() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
  /// Creates the file with \p Text; false after printing an error.
  bool create(StringRef Text) {
    SmallString<128> P;
    int FD;
    if (std::error_code EC =
            sys::fs::createTemporaryFile("accelgen-input", "td", FD, P)) {
      fail("cannot create a temporary file: " + EC.message());
      return false;
    }
    Path = std::string(P);
    sys::RemoveFileOnSignal(Path);
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      fail("cannot write a temporary file " + Path + ": " +
           Out.error().message());
      Out.clear_error();
      return false;
    }
    return true;
  }
};

/// The value of TableGen's driver's string option \p Name ("o", "d").
std::string driverOption(StringRef Name) {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Name);
  return It == Options.end()
             ? std::string()
             : static_cast<cl::opt<std::string> *>(It->second)->getValue();
}

/// TableGen's driver writes the output and the dependency file through LLVM
/// streams, which end the process with a fatal error when a write fails (a
/// full disk): instead one `error:` line naming the files, the partial ones
/// removed (the interrupt handlers remove every file registered with
/// RemoveFileOnSignal, never a device), exit 1.
void fatalError(void *, const char *Reason, bool) {
  StringRef R(Reason);
  if (R.consume_front("IO failure on output stream: ")) {
    const std::string Dep = driverOption("d");
    errs() << "error: " << driverOption("o")
           << (Dep.empty() ? "" : " or " + Dep) << ": cannot write: " << R
           << "\n";
  } else {
    errs() << "error: " << R << "\n";
  }
  sys::RunInterruptHandlers();
  ::_exit(1);
}

/// TableGen's `-I` folders (its driver's option).
std::vector<std::string> includeDirs() {
  std::vector<std::string> Dirs;
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("I");
  if (It != Options.end())
    for (const std::string &D :
         *static_cast<cl::list<std::string> *>(It->second))
      Dirs.push_back(D);
  return Dirs;
}

/// The deepest nesting of brackets a description may have: deeper, TableGen's
/// recursive parser could overflow the stack (an `!if` nested 5,000 deep
/// did). The descriptions in the tree nest fewer than 10.
constexpr unsigned MaxNesting = 256;

/// The longest chain of classes a class may inherit through: TableGen
/// copies every ancestor's fields into each class, so a chain of 10,000
/// took a minute and a gigabyte. The descriptions in the tree inherit
/// through fewer than 10.
constexpr unsigned MaxClassDepth = 1000;

/// Reads the class declared after `class` at \p At of \p Text (its name,
/// template arguments and the parents after ':'), records in \p Depths how
/// many classes deep it is (1 plus its deepest known parent's) and returns
/// that. Strings are skipped; what is not a declaration counts 0.
unsigned classDepth(StringRef Text, size_t At,
                    StringMap<unsigned> &Depths) {
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_'; };
  size_t I = At;
  while (I < Text.size() && isSpace(Text[I]))
    ++I;
  const size_t NameStart = I;
  while (I < Text.size() && IsIdent(Text[I]))
    ++I;
  const StringRef Name = Text.slice(NameStart, I);
  if (Name.empty())
    return 0;
  unsigned Angle = 0, Deepest = 0;
  bool Parents = false;
  for (; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '"') {
      for (++I; I < Text.size() && Text[I] != '"' && Text[I] != '\n'; ++I)
        if (Text[I] == '\\')
          ++I;
    } else if (C == '<') {
      ++Angle;
    } else if (C == '>') {
      Angle -= Angle > 0;
    } else if (Angle == 0 && (C == '{' || C == ';')) {
      break;
    } else if (Angle == 0 && C == ':') {
      Parents = true;
    } else if (Angle == 0 && Parents && IsIdent(C) && !isDigit(C)) {
      const size_t Start = I;
      while (I + 1 < Text.size() && IsIdent(Text[I + 1]))
        ++I;
      auto It = Depths.find(Text.slice(Start, I + 1));
      if (It != Depths.end())
        Deepest = std::max(Deepest, It->second);
    }
  }
  return Depths[Name] = Deepest + 1;
}

/// Checks, before TableGen reads them, the files \p Text (the contents of
/// \p Path) includes, and theirs in turn: each must be a regular file within
/// the size limit, since TableGen reads whatever an include names to its end
/// (`include "/dev/zero"` never ends). Looks for `include "NAME"` outside
/// comments and resolves NAME as TableGen does: as given, then in each `-I`
/// folder. A name found nowhere is left to TableGen, which reports it where
/// it is included. A file that includes itself, directly or through others,
/// is an error too: TableGen would include it until its stack overflowed.
/// \p Open holds the real paths of \p Path and the files including it.
/// False after printing a located error.
bool checkIncludes(StringRef Path, StringRef Text,
                   const std::vector<std::string> &Dirs,
                   std::set<std::string> &Seen,
                   std::vector<std::string> &Open,
                   StringMap<unsigned> &ClassDepth) {
  size_t Line = 1, LineStart = 0;
  // Brackets open outside strings, comments and code: TableGen's parser
  // recurses once per level.
  unsigned Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '\n') {
      ++Line;
      LineStart = I + 1;
    } else if (Text.substr(I).startswith("[{")) {
      // A code fragment, C++ TableGen does not parse.
      const size_t End = std::min(Text.find("}]", I + 2), Text.size());
      for (; I < End; ++I)
        if (Text[I] == '\n') {
          ++Line;
          LineStart = I + 1;
        }
      ++I;
    } else if (C == '(' || C == '[') {
      if (++Depth > MaxNesting) {
        errs() << Path << ":" << Line << ":" << (I - LineStart + 1)
               << ": error: brackets nested deeper than " << MaxNesting
               << " levels\n";
        return false;
      }
    } else if (C == ')' || C == ']') {
      Depth -= Depth > 0;
    } else if (Text.substr(I).startswith("//")) {
      I = std::min(Text.find('\n', I), Text.size()) - 1;
    } else if (Text.substr(I).startswith("/*")) {
      const size_t End = std::min(Text.find("*/", I + 2), Text.size());
      for (; I < End; ++I)
        if (Text[I] == '\n') {
          ++Line;
          LineStart = I + 1;
        }
      ++I;
    } else if (C == '"') {
      for (++I; I < Text.size() && Text[I] != '"' && Text[I] != '\n'; ++I)
        if (Text[I] == '\\')
          ++I;
    } else if (Text.substr(I).startswith("class") && I + 5 < Text.size() &&
               isSpace(Text[I + 5]) &&
               (I == 0 || !(isAlnum(Text[I - 1]) || Text[I - 1] == '_'))) {
      unsigned Depth = classDepth(Text, I + 5, ClassDepth);
      if (Depth > MaxClassDepth) {
        errs() << Path << ":" << Line << ":" << (I - LineStart + 1)
               << ": error: the class inherits through more than "
               << MaxClassDepth << " classes\n";
        return false;
      }
    } else if (Text.substr(I).startswith("include") &&
               (I == 0 || !(isAlnum(Text[I - 1]) || Text[I - 1] == '_'))) {
      const size_t Col = I - LineStart + 1;
      size_t Q = I + 7;
      while (Q < Text.size() && (Text[Q] == ' ' || Text[Q] == '\t'))
        ++Q;
      const size_t Close = Q < Text.size() && Text[Q] == '"'
                               ? Text.find_first_of("\"\n", Q + 1)
                               : StringRef::npos;
      if (Close == StringRef::npos || Text[Close] != '"')
        continue; // Not an include TableGen would accept; it says so.
      const std::string Name = Text.slice(Q + 1, Close).str();
      I = Close;
      std::vector<std::string> Candidates = {Name};
      for (const std::string &D : Dirs)
        Candidates.push_back(D + "/" + Name);
      for (const std::string &Found : Candidates) {
        if (!sys::fs::exists(Found))
          continue;
        auto Where = [&] {
          return (Path + ":" + Twine(Line) + ":" + Twine(Col) +
                  ": error: included file '" + Name + "'")
              .str();
        };
        sys::fs::file_status St;
        if (sys::fs::status(Found, St) ||
            St.type() != sys::fs::file_type::regular_file) {
          errs() << Where() << " is not a regular file\n";
          return false;
        }
        SmallString<256> Real;
        if (sys::fs::real_path(Found, Real))
          Real = Found;
        if (llvm::is_contained(Open, std::string(Real))) {
          errs() << Where() << " includes itself"
                 << (Open.back() == std::string(Real)
                         ? std::string()
                         : " through '" + sys::path::filename(Path).str() +
                               "'")
                 << " (an include cycle)\n";
          return false;
        }
        if (!Seen.insert(std::string(Real)).second)
          break;
        auto Buf = accelgen::support::readInputFile(
            Found, accelgen::support::MaxDescriptionBytes);
        if (!Buf) {
          errs() << Where() << ": " << toString(Buf.takeError()) << "\n";
          return false;
        }
        Open.push_back(std::string(Real));
        const bool Ok = checkIncludes(Found, (*Buf)->getBuffer(), Dirs, Seen,
                                      Open, ClassDepth);
        Open.pop_back();
        if (!Ok)
          return false;
        break;
      }
    }
  }
  return true;
}


/// The memory a description may take to evaluate: TableGen evaluates what
/// it is told, and a few lines doubling a string forty times would take
/// the machine's memory. Not under AddressSanitizer, which reserves far more
/// address space than it uses.
constexpr rlim_t MaxMemoryBytes = rlim_t(4) << 30;


[[noreturn]] void outOfMemory() {
  // Nothing may be allocated here.
  const char *Head = "error: ";
  const char *Tail = ": evaluating the description takes more than 4 GiB of "
                     "memory (a string or list doubled many times?)\n";
  (void)!::write(2, Head, std::strlen(Head));
  (void)!::write(2, InputForMessages.data(), InputForMessages.size());
  (void)!::write(2, Tail, std::strlen(Tail));
  ::_exit(1);
}

void boundMemory() {
#if defined(__SANITIZE_ADDRESS__)
  return;
#else
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  return;
#endif
#endif
  struct rlimit L;
  if (::getrlimit(RLIMIT_AS, &L) == 0 &&
      (L.rlim_cur == RLIM_INFINITY || L.rlim_cur > MaxMemoryBytes)) {
    L.rlim_cur = MaxMemoryBytes;
    ::setrlimit(RLIMIT_AS, &L);
  }
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { outOfMemory(); });
#endif
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  boundMemory();
  install_fatal_error_handler(fatalError);
  // Arguments as given, plus the defs/ include folder.
  // The include folder goes first, so that an option missing its value at
  // the end of the line cannot take it.
  std::vector<std::string> Args = {argv[0], "-I", defsDir(argv[0])};
  Args.insert(Args.end(), argv + 1, argv + argc);
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());
  // Option mistakes are one `error:` line; LLVM's own report is several
  // lines and exits before temporary files could be removed.
  if (std::optional<std::string> Mistake = accelgen::support::parseOptions(
          static_cast<int>(CArgs.size()), CArgs.data(),
          "accelgen-tblgen: generate code, checks and docs from a target "
          "description\n"))
    return fail(*Mistake + " (see 'accelgen-tblgen --help')");

  // The input, read here within the size limit. A `.yaml` description is read
  // by the YAML front end after TableGen has parsed a stand-in that includes
  // the operator vocabulary; a `.td` that is not a regular file (a pipe,
  // standard input) is handed to TableGen as a stand-in copy.
  cl::opt<std::string> *Input = inputOption();
  assert(Input && "TableGen's driver declares the input file");
  std::string Path = Input->getValue();
  InputForMessages = Path;
  StandIn Temp;
  const std::string Extension = sys::path::extension(Path).lower();
  if (Extension == ".yaml" || Extension == ".yml") {
    YamlInput = Path;
    // A target sees the portable kernel library; a kernel library declares
    // its own families and sees only the operators.
    if (!Temp.create(isKernelLibraryAction() ? "include \"ops.td\"\n"
                                             : "include \"kernels.td\"\n"))
      return 1;
    Input->setValue(Temp.Path);
  } else {
    sys::fs::file_status St;
    bool Regular = Path != "-" && !sys::fs::status(Path, St) &&
                   St.type() == sys::fs::file_type::regular_file;
    if (Regular && St.getSize() > accelgen::support::MaxDescriptionBytes)
      return fail(Path + ": " +
                  accelgen::support::tooLargeMessage(
                      accelgen::support::MaxDescriptionBytes));
    if (!Regular && Path != "-" && !sys::fs::exists(Path))
      return fail(Path + ": cannot read file: No such file or directory");
    auto Buf = accelgen::support::readInputFile(
        Path == "-" ? "/dev/stdin" : Path,
        accelgen::support::MaxDescriptionBytes);
    if (!Buf)
      return fail(Path + ": " + toString(Buf.takeError()));
    std::set<std::string> Seen;
    std::vector<std::string> Open;
    SmallString<256> Real;
    if (Regular && !sys::fs::real_path(Path, Real))
      Open.push_back(std::string(Real));
    StringMap<unsigned> ClassDepth;
    if (!checkIncludes(Path, (*Buf)->getBuffer(), includeDirs(), Seen, Open,
                       ClassDepth))
      return 1;
    if (!Regular) {
      if (!Temp.create((*Buf)->getBuffer()))
        return 1;
      Input->setValue(Temp.Path);
    }
  }
  return TableGenMain(argv[0], &runAction);
}
