//===- BuiltinTargets.h - The targets built into a program ----------*- C++
//-*-===//
//
// Every target a build adds with accelgen_add_target
// (cmake/AccelgenTarget.cmake) and links into a program through the
// `accelgen_builtin_targets` library is registered by one generated function,
// so no program keeps a list of targets: adding a target folder is all it
// takes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_BUILTINTARGETS_H
#define ACCELGEN_TARGET_BUILTINTARGETS_H

namespace accelgen {
namespace target {

/// Registers every built-in target in the TargetRegistry; calling it again
/// does nothing. Generated (targets/CMakeLists.txt).
void registerBuiltinTargets();

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_BUILTINTARGETS_H
