//===- main.cpp - The accelgen command-line tool
//---------------------------===//
//
// accelgen reads neural-network models, partitions them between an
// accelerator and the CPU, and emits C that runs them. This file holds the
// command table and the conventions every subcommand shares: `--help` and
// `--version`, exit code 0 on success and 1 on a user error with one
// `error:` line.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "support/CommandLine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

#ifndef ACCELGEN_VERSION
#define ACCELGEN_VERSION "unknown"
#endif

using namespace llvm;

namespace accelgen {
namespace cli {

cl::OptionCategory &category() {
  static cl::OptionCategory Category("accelgen options");
  return Category;
}

int reportError(const Twine &File, const Twine &Message) {
  errs() << "error: ";
  if (!File.isTriviallyEmpty() && !File.str().empty())
    errs() << File << ": ";
  errs() << Message << "\n";
  return 1;
}

void reportWarning(const Twine &File, const Twine &Message) {
  errs() << "warning: " << File << ": " << Message << "\n";
}

} // namespace cli
} // namespace accelgen

using namespace accelgen::cli;

static const Command Commands[] = {
    {&InspectCommand, runInspect},
    {&CompileCommand, runCompile},
    {&RunCommand, runRun},
    {&ExplainCommand, runExplain},
};

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(category());
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "accelgen " << ACCELGEN_VERSION << "\n"; });

  // Option mistakes are reported in our own one-line format rather than
  // LLVM's, which takes several lines.
  if (std::optional<std::string> Mistake = accelgen::support::parseOptions(
          argc, argv,
          "accelgen: retargetable code generator for neural-network "
          "accelerators\n\n"
          "  accelgen inspect MODEL [--json]   describe a TensorFlow Lite "
          "model\n"
          "  accelgen compile MODEL --target T -o DIR [--name NAME] [--main]\n"
          "                                    generate C99 for the model\n"
          "  accelgen run MODEL --target T --inputs DIR --outputs DIR "
          "[--dump-layers]\n"
          "                                    build the generated C and run "
          "it\n"
          "  accelgen explain MODEL --target T [--json] [--dot FILE]\n"
          "                                    where each operator runs on T, "
          "and why\n"))
    return reportError("", *Mistake + " (see 'accelgen --help')");

  for (const Command &C : Commands)
    if (*C.Sub)
      return C.Run();
  return reportError("", "no command given (see 'accelgen --help')");
}
