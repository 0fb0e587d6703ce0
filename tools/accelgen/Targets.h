//===- Targets.h - The targets the accelgen CLI knows ---------------------===//
#ifndef ACCELGEN_TOOLS_TARGETS_H
#define ACCELGEN_TOOLS_TARGETS_H

#include "target/TargetInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace cli {

/// Registers every built-in target with target::TargetRegistry and every
/// built-in backend with driver::BackendRegistry (once).
void registerTargets();

/// Registers the built-in targets, then loads the plugin modules in the
/// folders of ACCELGEN_PLUGIN_PATH and then \p Modules (`--load`); the first
/// module that fails stops it with a one-line error.
llvm::Error loadPlugins(llvm::ArrayRef<std::string> Modules);

/// Every label resolveTarget accepts with a version, sorted by target.
std::vector<std::string> knownTargetLabels();

/// The target and version index named by \p Label ("mdla2.0", or "ref" for
/// its newest version); an error listing the known labels otherwise.
llvm::Expected<std::pair<const target::TargetInfo *, unsigned>>
resolveTarget(llvm::StringRef Label);

/// What the CLI can do with a target besides `explain`.
struct TargetAbilities {
  bool Compile = false;
  bool Run = false;
  /// How its code runs, for people ("CPU kernels", ...).
  std::string How;
};

/// \p T's abilities: a target whose backend this accelgen has compiles and
/// runs.
TargetAbilities abilities(const target::TargetInfo &T);

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_TARGETS_H
