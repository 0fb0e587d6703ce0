//===- Commands.h - Subcommands of the accelgen CLI ------------------------===//
//
// Each subcommand declares its `cl::SubCommand` and options in its own file and
// exposes a run function; main() dispatches on the chosen subcommand. A run
// function returns the process exit code: 0 on success, 1 on a user error
// (after printing one `error:` line through reportError).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_COMMANDS_H
#define ACCELGEN_TOOLS_COMMANDS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace accelgen {
namespace cli {

/// The options category every subcommand's options belong to, so that
/// `--help` shows ours and not LLVM's internal ones.
llvm::cl::OptionCategory &category();

/// Prints "error: <file>: <message>" (or "error: <message>" when \p File is
/// empty) to stderr and returns the user-error exit code, 1.
int reportError(const llvm::Twine &File, const llvm::Twine &Message);

/// Prints "warning: <file>: <message>" to stderr.
void reportWarning(const llvm::Twine &File, const llvm::Twine &Message);

/// Prints to stdout what \p Print writes, every control character in it (a
/// tensor name's escape sequence) spelt out (support::terminalText).
void printSafely(llvm::function_ref<void(llvm::raw_ostream &)> Print);

/// One subcommand: its LLVM `SubCommand` and what runs it.
struct Command {
  llvm::cl::SubCommand *Sub;
  int (*Run)();
};

/// Registers the built-in backends, gives `--cpu` (of compile and run) its
/// help from them and adds each backend's run options (Backend::runOptions)
/// to `run`; an error when two backends define one option.
llvm::Error addBackendOptions();
/// `--cpu` as given, "" without it.
std::string cpuOption();
/// The backends' run options given on the command line, by name.
std::map<std::string, std::string> backendOptionValues();

extern llvm::cl::SubCommand InspectCommand;
int runInspect();
extern llvm::cl::SubCommand CompileCommand;
int runCompile();
extern llvm::cl::SubCommand RunCommand;
int runRun();
extern llvm::cl::SubCommand ExplainCommand;
int runExplain();
extern llvm::cl::SubCommand TargetsCommand;
int runTargets();

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_COMMANDS_H
