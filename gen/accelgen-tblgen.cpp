//===- accelgen-tblgen.cpp - The target description generator
//--------------===//
//
// Reads one target description, `.td` (TableGen, with the classes of defs/)
// or `.yaml` (the same content), builds its validated model and runs the
// emitter the action names. The actions are one table below. TableGen's own
// driver handles `-o`, `-d` (depfile), `-I` and `--write-if-changed`; a
// `.yaml` input is read after TableGen has parsed the operator vocabulary.
//
//===----------------------------------------------------------------------===//
#include "emitters/Emitters.h"
#include "frontend/RecordFrontend.h"
#include "frontend/VocabularyFrontend.h"
#include "frontend/YamlFrontend.h"
#include "model/TargetModel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

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
                   "(C++ X-macro rows)")));

cl::opt<std::string>
    TemplateDir("template-dir",
                cl::desc("Folder of the kernel templates (checked to exist for "
                         "-gen-kernel-*)"),
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

/// The kernel library actions read the KernelFamily records only.
bool runKernelLibraryAction(raw_ostream &OS, RecordKeeper &Records) {
  Diagnostics Diags;
  std::unique_ptr<KernelLibraryModel> Model = buildKernelLibrary(
      Records, KernelSourceDirs{TemplateDir, KernelSourceDir}, Diags);
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

/// Set when the input is a `.yaml` description; TableGen then parses a
/// stand-in `.td` that includes only the operator vocabulary.
std::string YamlInput;

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
  } else {
    readOperatorRecords(Records, Decl);
    if (!readYamlTarget(YamlInput, Decl, Diags))
      return true;
  }
  if (Diags.errorCount())
    return true;
  std::unique_ptr<TargetModel> Model = buildTargetModel(Decl, Diags);
  if (!Model)
    return true;
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

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // Arguments as given, plus the defs/ include folder; a `.yaml` input is
  // swapped for a stand-in `.td` that includes the operator vocabulary.
  std::vector<std::string> Args(argv, argv + argc);
  std::string StandIn;
  for (std::string &A : Args) {
    if (StringRef(A).endswith(".yaml") && !StringRef(A).startswith("-")) {
      YamlInput = A;
      SmallString<128> Path;
      int FD;
      if (std::error_code EC =
              sys::fs::createTemporaryFile("accelgen-yaml", "td", FD, Path)) {
        errs() << "error: cannot create a temporary file: " << EC.message()
               << "\n";
        return 1;
      }
      raw_fd_ostream Out(FD, /*shouldClose=*/true);
      Out << "include \"kernels.td\"\n";
      StandIn = std::string(Path);
      A = StandIn;
    }
  }
  Args.push_back("-I");
  Args.push_back(defsDir(argv[0]));
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());
  int CArgc = static_cast<int>(CArgs.size());
  cl::ParseCommandLineOptions(CArgc, CArgs.data(),
                              "accelgen-tblgen: generate code, checks and "
                              "docs from a target description\n");
  int RC = TableGenMain(argv[0], &runAction);
  if (!StandIn.empty())
    sys::fs::remove(StandIn);
  return RC;
}
