//===- Targets.cpp - The targets the accelgen CLI knows -------------------===//
//
// The targets the build added (accelgen_add_target), registered by the
// generated target::registerBuiltinTargets(), and those loaded from plugin
// modules (`--load`, ACCELGEN_PLUGIN_PATH), resolved by label; and
// `accelgen targets`, which lists them with where they came from and what
// the CLI can do with them.
//
//===----------------------------------------------------------------------===//
#include "Targets.h"
#include "Commands.h"

#include "driver/Backend.h"
#include "support/TerminalText.h"
#include "target/BuiltinTargets.h"
#include "target/Plugin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace accelgen {
namespace cli {

cl::SubCommand TargetsCommand("targets",
                              "List every target and version: where it "
                              "came from, its operators, what it can do");

static cl::opt<bool> TargetsJSON("json",
                                 cl::desc("Print machine-readable JSON"),
                                 cl::sub(TargetsCommand), cl::cat(category()));

void registerTargets() {
  target::registerBuiltinTargets();
  driver::registerBuiltinBackends();
}

Error loadPlugins(ArrayRef<std::string> Modules) {
  registerTargets();
  if (llvm::Optional<std::string> Path =
          sys::Process::GetEnv("ACCELGEN_PLUGIN_PATH"))
    if (Error E = target::loadPluginsFromPath(*Path))
      return E;
  for (const std::string &M : Modules)
    if (Error E = target::loadPlugin(M))
      return E;
  return Error::success();
}

std::vector<std::string> knownTargetLabels() {
  registerTargets();
  return target::TargetRegistry::labels();
}

llvm::Expected<std::pair<const target::TargetInfo *, unsigned>>
resolveTarget(llvm::StringRef Label) {
  registerTargets();
  if (auto R = target::TargetRegistry::resolve(Label))
    return *R;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "unknown target '%s' (targets: %s)",
      Label.str().c_str(), llvm::join(knownTargetLabels(), ", ").c_str());
}

TargetAbilities abilities(const target::TargetInfo &T) {
  TargetAbilities A;
  driver::registerBuiltinBackends();
  const driver::Backend *B =
      T.backend().empty() ? nullptr : driver::BackendRegistry::get(T.backend());
  if (B) {
    A.Compile = A.Run = true;
    A.How = B->summary().str();
  } else if (T.backend().empty()) {
    A.How = "explain only (no backend)";
  } else {
    A.How = "explain only (backend '" + T.backend() +
            "' is not in this accelgen)";
  }
  return A;
}

/// One row of `accelgen targets`.
struct TargetRow {
  std::string Name, Versions, Operators, Origin, Abilities;
};

int runTargets() {
  registerTargets();
  std::vector<std::string> Names = target::TargetRegistry::names();
  if (TargetsJSON) {
    json::Array Rows;
    for (const std::string &Name : Names) {
      const target::TargetInfo *T = target::TargetRegistry::get(Name);
      TargetAbilities A = abilities(*T);
      json::Array Labels;
      for (unsigned V = 0; V < T->versions().size(); ++V)
        Labels.push_back(T->versionLabel(V));
      std::string Origin = target::TargetRegistry::origin(Name);
      Rows.push_back(json::Object{
          {"name", Name},
          {"versions", std::move(Labels)},
          {"origin", Origin.empty() ? "builtin" : "plugin"},
          {"plugin",
           Origin.empty() ? json::Value(nullptr) : json::Value(Origin)},
          {"operators", static_cast<int64_t>(T->opNames().size())},
          {"backend", T->backend().empty() ? json::Value(nullptr)
                                           : json::Value(T->backend())},
          {"compile", A.Compile},
          {"run", A.Run},
      });
    }
    outs() << formatv("{0:2}", json::Value(std::move(Rows))) << "\n";
    return 0;
  }
  std::vector<TargetRow> Rows = {
      {"target", "versions", "operators", "from", "can"}};
  for (const std::string &Name : Names) {
    const target::TargetInfo *T = target::TargetRegistry::get(Name);
    std::string Origin = target::TargetRegistry::origin(Name);
    TargetAbilities A = abilities(*T);
    Rows.push_back({Name, llvm::join(T->versions(), " "),
                    std::to_string(T->opNames().size()),
                    Origin.empty() ? "built in" : Origin,
                    (A.Compile ? "explain, compile, run: " : "") + A.How});
  }
  // Columns as wide as their widest cell; the last one is not padded.
  size_t W[4] = {0, 0, 0, 0};
  for (const TargetRow &R : Rows) {
    W[0] = std::max(W[0], R.Name.size());
    W[1] = std::max(W[1], R.Versions.size());
    W[2] = std::max(W[2], R.Operators.size());
    W[3] = std::max(W[3], R.Origin.size());
  }
  // A plugin's path is anyone's text.
  for (const TargetRow &R : Rows)
    outs() << support::terminalText(
        formatv("{0}  {1}  {2}  {3}  {4}\n", left_justify(R.Name, W[0]),
                left_justify(R.Versions, W[1]),
                right_justify(R.Operators, W[2]),
                left_justify(R.Origin, W[3]), R.Abilities)
            .str(),
        /*KeepNewlines=*/true);
  return 0;
}

} // namespace cli
} // namespace accelgen
