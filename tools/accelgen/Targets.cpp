//===- Targets.cpp - The targets the accelgen CLI knows -------------------===//
//
// The targets the build added (accelgen_add_target), registered by the
// generated target::registerBuiltinTargets(), resolved by label.
//
//===----------------------------------------------------------------------===//
#include "Targets.h"

#include "target/BuiltinTargets.h"

#include "llvm/ADT/StringExtras.h"

namespace accelgen {
namespace cli {

void registerTargets() { target::registerBuiltinTargets(); }

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

} // namespace cli
} // namespace accelgen
