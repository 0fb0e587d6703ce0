//===- TestTargets.h - The built-in targets, as tests get them ---*- C++ -*-===//
//
// Tests take the in-tree targets from the registry, as the CLI does, rather
// than declaring each target's factory: the registry is the one list of
// targets (target/BuiltinTargets.h).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_TESTTARGETS_H
#define ACCELGEN_TESTS_TESTTARGETS_H

#include "target/TargetInfo.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace accelgen {
namespace test {

/// A new instance of built-in target \p Name ("mdla"), made by its
/// registered factory; fails the test when this build has no such target.
std::unique_ptr<target::TargetInfo> builtinTarget(llvm::StringRef Name);

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_TESTTARGETS_H
