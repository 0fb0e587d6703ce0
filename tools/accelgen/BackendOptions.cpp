//===- BackendOptions.cpp - The options the backends define ---------------===//
//
// The command line names no backend: `--cpu` (of compile and run) means what
// the target's backend makes of it, and its help lists what each registered
// backend takes; the options a backend reads when it runs a model (CMSIS-NN's
// source tree, QEMU's time limit, ...) are the backend's own
// (driver::Backend::runOptions), added to `run` here before the command line
// is parsed and handed back by name in driver::RunOptions::Values.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "driver/Backend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <list>
#include <memory>
#include <vector>

using namespace llvm;

namespace accelgen {
namespace cli {

namespace {
/// One option added to the command line, with the texts it refers to.
struct AddedOption {
  std::string Name, Help, ValueDesc;
  std::unique_ptr<cl::opt<std::string>> Opt;
};

/// Every option added, `--cpu` first; a list, so that the texts stay where
/// the options point.
std::list<AddedOption> &addedOptions() {
  static std::list<AddedOption> Options;
  return Options;
}

/// Adds option \p Name to run, and to compile when \p AlsoCompile (created
/// at run time: the SubCommands of other files may not be constructed yet
/// when this file's statics are).
void addOption(std::string Name, std::string Help, std::string ValueDesc,
               bool AlsoCompile) {
  AddedOption &A = addedOptions().emplace_back();
  A.Name = std::move(Name);
  A.Help = std::move(Help);
  A.ValueDesc = std::move(ValueDesc);
  if (AlsoCompile)
    A.Opt = std::make_unique<cl::opt<std::string>>(
        StringRef(A.Name), cl::desc(A.Help), cl::value_desc(A.ValueDesc),
        cl::cat(category()), cl::sub(CompileCommand), cl::sub(RunCommand));
  else
    A.Opt = std::make_unique<cl::opt<std::string>>(
        StringRef(A.Name), cl::desc(A.Help), cl::value_desc(A.ValueDesc),
        cl::cat(category()), cl::sub(RunCommand));
}
} // namespace

Error addBackendOptions() {
  driver::registerBuiltinBackends();
  std::vector<std::string> CpuHelp;
  for (const std::string &Name : driver::BackendRegistry::names())
    if (std::string Help = driver::BackendRegistry::get(Name)->cpuHelp();
        !Help.empty())
      CpuHelp.push_back(formatv("for backend {0}, {1}", Name, Help));
  addOption("cpu",
            "The CPU the target's backend (or its CPU fallback's) builds "
            "for: " +
                join(CpuHelp, "; ") + " (docs/compile.md)",
            "name", /*AlsoCompile=*/true);
  for (const std::string &Name : driver::BackendRegistry::names())
    for (const driver::BackendOption &O :
         driver::BackendRegistry::get(Name)->runOptions()) {
      if (cl::getRegisteredOptions(RunCommand).count(O.Name))
        return createStringError(
            inconvertibleErrorCode(),
            formatv("backend {0} defines option --{1}, which run has already",
                    Name, O.Name));
      addOption(O.Name, O.Help + " (backend " + Name + ")", O.ValueDesc,
                /*AlsoCompile=*/false);
    }
  return Error::success();
}

std::string cpuOption() { return *addedOptions().front().Opt; }

std::map<std::string, std::string> backendOptionValues() {
  std::map<std::string, std::string> Values;
  for (const AddedOption &O : llvm::drop_begin(addedOptions()))
    if (O.Opt->getNumOccurrences())
      Values[O.Name] = *O.Opt;
  return Values;
}

} // namespace cli
} // namespace accelgen
