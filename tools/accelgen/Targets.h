//===- Targets.h - The targets the accelgen CLI knows ---------------------===//
#ifndef ACCELGEN_TOOLS_TARGETS_H
#define ACCELGEN_TOOLS_TARGETS_H

#include "target/TargetInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace cli {

/// Registers every in-tree target with target::TargetRegistry (once).
void registerTargets();

/// Every label resolveTarget accepts with a version, sorted by target.
std::vector<std::string> knownTargetLabels();

/// The target and version index named by \p Label ("mdla2.0", or "ref" for
/// its newest version); an error listing the known labels otherwise.
llvm::Expected<std::pair<const target::TargetInfo *, unsigned>>
resolveTarget(llvm::StringRef Label);

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_TARGETS_H
