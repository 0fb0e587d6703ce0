//===- main.cpp - The accelgen command-line tool
//---------------------------===//
//
// accelgen reads neural-network models, partitions them between an
// accelerator and the CPU, and emits C that runs them. This file holds the
// command table and the conventions every subcommand shares: `--help` and
// `--version`, `--load` of target plugins (anywhere on the command line),
// exit code 0 on success and 1 on a user error with one `error:` line.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileModel.h"
#include "Targets.h"

#include "support/CommandLine.h"
#include "support/TerminalText.h"
#include "target/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace accelgen {
namespace cli {

cl::OptionCategory &category() {
  static cl::OptionCategory Category("accelgen options");
  return Category;
}

// Messages are one line, whatever a path or a name in them holds
// (support::terminalText).
int reportError(const Twine &File, const Twine &Message) {
  std::string Line = "error: ";
  if (!File.isTriviallyEmpty() && !File.str().empty())
    Line += File.str() + ": ";
  Line += Message.str();
  errs() << support::terminalText(Line, /*KeepNewlines=*/false) << "\n";
  return 1;
}

void printSafely(function_ref<void(raw_ostream &)> Print) {
  std::string Text;
  raw_string_ostream OS(Text);
  Print(OS);
  outs() << support::terminalText(OS.str(), /*KeepNewlines=*/true);
}

void reportWarning(const Twine &File, const Twine &Message) {
  errs() << support::terminalText(
                ("warning: " + File + ": " + Message).str(),
                /*KeepNewlines=*/false)
         << "\n";
}

} // namespace cli
} // namespace accelgen

using namespace accelgen::cli;

static const Command Commands[] = {
    {&InspectCommand, runInspect}, {&CompileCommand, runCompile},
    {&RunCommand, runRun},         {&ExplainCommand, runExplain},
    {&TargetsCommand, runTargets},
};

// Shown by --help in every subcommand; the values are taken out of the
// command line before it is parsed (takeLoadOptions), so that the targets
// are known when it is.
static cl::list<std::string>
    LoadHelp("load",
             cl::desc("Load a target plugin module (accelgen-<name>.so); "
                      "repeatable. ACCELGEN_PLUGIN_PATH names folders whose "
                      "accelgen-*.so are loaded too"),
             cl::value_desc("module"), cl::sub(*cl::AllSubCommands),
             cl::cat(category()));

/// Removes `--load M`, `--load=M` (and the one-dash forms) from \p Args and
/// returns the modules; an error when `--load` ends the command line.
static Expected<std::vector<std::string>>
takeLoadOptions(SmallVectorImpl<const char *> &Args) {
  std::vector<std::string> Modules;
  SmallVector<const char *, 16> Rest;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (I > 0 && (A == "--load" || A == "-load")) {
      if (I + 1 == Args.size())
        return createStringError(inconvertibleErrorCode(),
                                 "--load needs a module path");
      Modules.push_back(Args[++I]);
    } else if (I > 0 &&
               (A.consume_front("--load=") || A.consume_front("-load="))) {
      Modules.push_back(A.str());
    } else {
      Rest.push_back(Args[I]);
    }
  }
  Args.assign(Rest.begin(), Rest.end());
  return Modules;
}

/// \p RC, or 1 after one error line when standard output could not be
/// written (a full disk, a closed pipe): never LLVM's fatal "IO failure on
/// output stream" and a stack dump.
static int checkedOutput(int RC) {
  outs().flush();
  if (!outs().has_error())
    return RC;
  std::error_code EC = outs().error();
  outs().clear_error();
  return reportError("", "cannot write the standard output: " + EC.message());
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(category());
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "accelgen " << ACCELGEN_VERSION_STRING << "\n"; });

  SmallVector<const char *, 16> Args(argv, argv + argc);
  Expected<std::vector<std::string>> Modules = takeLoadOptions(Args);
  if (!Modules)
    return reportError("", toString(Modules.takeError()));
  if (Error E = loadPlugins(*Modules))
    return reportError("", toString(std::move(E)));
  // The backends' own options join the command line before it is parsed.
  if (Error E = addBackendOptions())
    return reportError("", toString(std::move(E)));
  addOnnxArithmeticOption();
  addLibraryCallsOnlyOption();

  // The overview lists the targets registered now, plugins included.
  std::string Overview =
      "accelgen: retargetable code generator for neural-network "
      "accelerators\n\n"
      "  accelgen inspect MODEL [--json]   describe a TensorFlow Lite model\n"
      "  accelgen compile MODEL --target T -o DIR [--name NAME] [--main]\n"
      "                                    generate C99 for the model\n"
      "  accelgen run MODEL --target T --inputs DIR --outputs DIR "
      "[--dump-layers]\n"
      "                                    build the generated C and run it\n"
      "  accelgen explain MODEL --target T [--json] [--dot FILE]\n"
      "                                    where each operator runs on T, and "
      "why\n"
      "  accelgen targets [--json]         the targets, their versions and "
      "abilities\n\n"
      "Targets (T): " +
      llvm::join(knownTargetLabels(), ", ") +
      "\nA target plugin: --load MODULE, or "
      "ACCELGEN_PLUGIN_PATH=DIR[:DIR...]\n";

  // Option mistakes are reported in our own one-line format rather than
  // LLVM's, which takes several lines.
  if (std::optional<std::string> Mistake = accelgen::support::parseOptions(
          static_cast<int>(Args.size()), Args.data(), Overview))
    return reportError("", *Mistake + " (see 'accelgen --help')");

  for (const Command &C : Commands)
    if (*C.Sub)
      return checkedOutput(C.Run());
  return reportError("", "no command given (see 'accelgen --help')");
}
