//===- TestTargets.cpp - The built-in targets, as tests get them ----------===//
#include "TestTargets.h"

#include "target/BuiltinTargets.h"

#include <doctest/doctest.h>

namespace accelgen {
namespace test {

std::unique_ptr<target::TargetInfo> builtinTarget(llvm::StringRef Name) {
  target::registerBuiltinTargets();
  std::unique_ptr<target::TargetInfo> T = target::TargetRegistry::create(Name);
  REQUIRE_MESSAGE(T != nullptr, "no built-in target " << Name.str());
  return T;
}

} // namespace test
} // namespace accelgen
