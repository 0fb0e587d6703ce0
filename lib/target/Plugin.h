//===- Plugin.h - Targets loaded from shared libraries at run time --------===//
//
// A vendor target built with `accelgen_add_target(<name> <desc> PLUGIN)` is
// also a loadable module, `accelgen-<name>.so`, that the installed accelgen
// loads with `--load <module>` or from the folders in ACCELGEN_PLUGIN_PATH.
// The module is self-contained (it carries its own copy of the target
// library) and exports one C symbol, accelgenPluginInfo, returning a
// PluginInfo: the plugin ABI, accelgen version and ABI fingerprint (a hash of
// the SDK headers, target/AbiFingerprint.h) it was built against, the
// target's name, its factory and the kernel families its description
// declares. accelgen refuses a module built against other headers (the
// classes it shares with the module must be laid out alike), and a target
// whose name is already registered. It registers the module's kernel
// families in its own registry (the module's copy of the kernel library has
// a registry of its own, which accelgen never reads): a family the registry
// refuses refuses the module.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_PLUGIN_H
#define ACCELGEN_TARGET_PLUGIN_H

#include "kernels/KernelParams.h"
#include "target/AbiFingerprint.h"
#include "target/TargetInfo.h"
#include "target/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace accelgen {
namespace target {

/// The layout of PluginInfo; raised whenever that layout changes, so that a
/// module of another layout is refused before any of its fields is read
/// beyond the first two.
constexpr uint32_t PluginAbiVersion = 3;

/// What a plugin module describes of itself.
struct PluginInfo {
  /// PluginAbiVersion of the headers the module was compiled with.
  uint32_t AbiVersion;
  /// ACCELGEN_VERSION_STRING of the headers the module was compiled with.
  const char *AccelgenVersion;
  /// ACCELGEN_ABI_FINGERPRINT of the headers the module was compiled with:
  /// it must be accelgen's own, since the classes they declare (TargetInfo,
  /// OpSetup, ...) cross the module boundary.
  const char *AbiFingerprint;
  /// The name of the target it adds ("acme").
  const char *Target;
  /// Builds the target's tables.
  TargetRegistry::Factory Create;
  /// The kernel families its description declares (Kernels.inc).
  std::vector<kernels::KernelFamilyRegistration> (*KernelFamilies)();
};

/// The name of the symbol a plugin module exports.
constexpr const char *PluginEntryPoint = "accelgenPluginInfo";

/// The signature of that symbol.
using PluginEntryFn = const PluginInfo *();

/// Loads the module at \p Path and registers its target, with \p Path as its
/// origin, and its kernel families. Errors (one line each): the file cannot
/// be loaded as a module, it lacks the entry point, it was built against
/// another accelgen version or plugin ABI, its target's name is registered
/// already, or the kernel family registry refuses one of its families.
llvm::Error loadPlugin(llvm::StringRef Path);

/// Loads every `accelgen-*.so` in the folders of \p SearchPath (separated by
/// ':', as PATH), in name order within a folder; empty entries are skipped.
/// A folder that does not exist is an error, as is any module that fails.
llvm::Error loadPluginsFromPath(llvm::StringRef SearchPath);

} // namespace target
} // namespace accelgen

/// Registers a plugin's kernel families in the module's own copy of the
/// kernel registry (a module links its own copy of accelgen's libraries,
/// hidden): the target's legality checks run in the module and compute its
/// operators' kernel calls there. accelgen registers the same families in
/// its registry when it loads the module and refuses the module, saying
/// why, if it refuses one; so what this copy refuses is not reported twice.
namespace accelgen::target {
inline bool registerModuleKernelFamilies(
    std::vector<kernels::KernelFamilyRegistration> (*Families)()) {
  std::vector<kernels::KernelFamilyRegistration> New;
  for (kernels::KernelFamilyRegistration &R : Families())
    if (!kernels::findRegisteredFamily(R.Family.Name))
      New.push_back(std::move(R));
  llvm::consumeError(kernels::registerKernelFamilies(std::move(New)));
  return true;
}
} // namespace accelgen::target

/// Defines the entry point of the plugin module of target \p NAME, whose
/// factory is accelgen::targets::NAME::createTargetInfo and kernel families
/// accelgen::targets::NAME::kernelFamilies (as target/GeneratedTarget.h
/// defines them). accelgen_add_target's generated plugin source is this one
/// line.
#define ACCELGEN_DEFINE_TARGET_PLUGIN(NAME)                                    \
  namespace accelgen::targets::NAME {                                          \
  std::unique_ptr<accelgen::target::TargetInfo> createTargetInfo();            \
  std::vector<accelgen::kernels::KernelFamilyRegistration> kernelFamilies();   \
  }                                                                            \
  extern "C" __attribute__((visibility("default")))                            \
  const accelgen::target::PluginInfo *                                         \
  accelgenPluginInfo() {                                                       \
    static const bool Registered =                                             \
        accelgen::target::registerModuleKernelFamilies(                        \
            &accelgen::targets::NAME::kernelFamilies);                         \
    (void)Registered;                                                          \
    static const accelgen::target::PluginInfo Info = {                         \
        accelgen::target::PluginAbiVersion, ACCELGEN_VERSION_STRING,           \
        ACCELGEN_ABI_FINGERPRINT,           #NAME,                             \
        &accelgen::targets::NAME::createTargetInfo,                            \
        &accelgen::targets::NAME::kernelFamilies};                             \
    return &Info;                                                              \
  }

#endif // ACCELGEN_TARGET_PLUGIN_H
