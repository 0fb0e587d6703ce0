//===- Targets.cpp - The targets the accelgen CLI knows -------------------===//
//
// Each in-tree target's library (built by accelgen_add_target) provides
// createTargetInfo(); this file registers them under their names.
//
//===----------------------------------------------------------------------===//
#include "Targets.h"

#include "llvm/ADT/StringExtras.h"

namespace accelgen {
namespace targets {
namespace demo {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace demo
namespace ref {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace ref
namespace mdla {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace mdla
} // namespace targets

namespace cli {

void registerTargets() {
  static bool Done = false;
  if (Done)
    return;
  Done = true;
  target::TargetRegistry::add("demo", targets::demo::createTargetInfo);
  target::TargetRegistry::add("ref", targets::ref::createTargetInfo);
  target::TargetRegistry::add("mdla", targets::mdla::createTargetInfo);
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
      Label.str().c_str(),
      llvm::join(knownTargetLabels(), ", ").c_str());
}

} // namespace cli
} // namespace accelgen
