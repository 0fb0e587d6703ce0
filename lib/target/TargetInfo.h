//===- TargetInfo.h - What a generated target provides
//---------------------===//
//
// A target's generated code fills one TargetInfo: its name and versions, an
// OpSetup per supported operator, its fusion pattern table and its device
// semantics (DeviceRules.h). Targets
// register themselves by name in the TargetRegistry, so the CLI and passes can
// find "demo2.0" without knowing the target at compile time.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_TARGETINFO_H
#define ACCELGEN_TARGET_TARGETINFO_H

#include "target/DeviceRules.h"
#include "target/OpSetup.h"
#include "target/Pattern.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// Which target operator replaces a framework operator, and of what.
struct OperationChoice {
  /// One target operator the mappings allow, with the description's cost
  /// estimate for it at the version (nullopt where it states none).
  struct Candidate {
    std::string Type;
    std::optional<double> Cycles;
  };
  /// The chosen operator; the framework operator itself when no mapping
  /// holds.
  ir::Operator Chosen;
  /// Every target operator the mappings allow, by benefit, each once;
  /// Candidates[Index] was chosen.
  std::vector<Candidate> Candidates;
  size_t Index = 0;
  /// True when the estimates decided: more than one candidate, each with a
  /// cost. Otherwise the mapping of highest benefit decided.
  bool ByCost = false;
};

/// One target's generated tables.
class TargetInfo {
public:
  TargetInfo(std::string Name, std::vector<std::string> Versions)
      : Name(std::move(Name)), Versions(std::move(Versions)) {}

  const std::string &name() const { return Name; }
  const std::vector<std::string> &versions() const { return Versions; }
  /// "demo2.0" for version index 1 of target "demo" with versions 1.0, 2.0.
  std::string versionLabel(unsigned V) const { return Name + Versions.at(V); }
  /// The index of version \p Label ("demo2.0" or "2.0"), if it exists.
  std::optional<unsigned> findVersion(llvm::StringRef Label) const;

  /// Registers the converter of one operator; the table owns it.
  void addOpSetup(std::unique_ptr<OpSetup> Setup);
  /// The converter of \p OpName, or null if the target does not know it.
  const OpSetup *opSetup(llvm::StringRef OpName) const;
  /// Names of every operator with a converter, sorted.
  std::vector<std::string> opNames() const;

  void setPatterns(llvm::ArrayRef<PatternDesc> P) { Patterns = P; }
  llvm::ArrayRef<PatternDesc> patterns() const { return Patterns; }

  /// Estimated cycles of one operator at a version; nullopt when the target
  /// has no estimate for it.
  using CostFn = std::optional<double> (*)(const ir::Graph &G,
                                           const ir::Operator &Op,
                                           unsigned Version);
  void setCostModel(CostFn Fn) { Cost = Fn; }
  /// The estimated cycles of \p Op at \p Version, or nullopt without a cost
  /// model or an estimate for its type.
  std::optional<double> estimateCycles(const ir::Graph &G,
                                       const ir::Operator &Op,
                                       unsigned Version) const {
    return Cost ? Cost(G, Op, Version) : std::nullopt;
  }
  /// The target operator that replaces \p Op at \p Version: where the
  /// description states a cost for every candidate its mappings allow, the
  /// cheapest (of equal ones, the mapping of higher benefit); otherwise the
  /// mapping of highest benefit. \p Op itself when no mapping holds (or the
  /// target has no converter for it). With \p Allowed, only the target
  /// operators it accepts are candidates (a compilation's restriction, such
  /// as library calls only).
  OperationChoice
  chooseOperation(const ir::Graph &G, const ir::Operator &Op, unsigned Version,
                  llvm::function_ref<bool(llvm::StringRef)> Allowed = {}) const;
  /// Scratch bytes the function running one operator needs at a version;
  /// nullopt when the target declares no size for it.
  using ScratchFn = std::optional<int64_t> (*)(const ir::Graph &G,
                                               const ir::Operator &Op,
                                               unsigned Version);
  void setScratchModel(ScratchFn Fn) { Scratch = Fn; }
  /// The scratch bytes of \p Op (a target operator, as its mapping creates
  /// it) at \p Version, or nullopt without a size for its type.
  std::optional<int64_t> scratchBytes(const ir::Graph &G,
                                      const ir::Operator &Op,
                                      unsigned Version) const {
    return Scratch ? Scratch(G, Op, Version) : std::nullopt;
  }
  /// Cycles to move one tensor between this target and the CPU.
  void setSwitchCycles(double C) { SwitchCycles = C; }
  double switchCycles() const { return SwitchCycles; }

  /// Sets the device semantics the description declares (DeviceRules.inc).
  void setDeviceRules(const DeviceRulesDesc *D) { Device = D; }
  /// How version \p Version of the device computes and stores differently
  /// from the model; no difference for a target declaring none.
  DeviceRules deviceRules(unsigned Version) const {
    return DeviceRules(Device, Version);
  }
  /// For a library-call target, the library its operators call
  /// ("CMSIS-NN"); empty for an accelerator.
  void setLibrary(std::string L) { Library = std::move(L); }
  const std::string &library() const { return Library; }

  /// The backend that compiles this target's operators, as the description
  /// names it (`Backend` in defs/accelgen.td; "functional-model"); empty when
  /// the target names none and can only be explained.
  void setBackend(std::string B) { Backend = std::move(B); }
  const std::string &backend() const { return Backend; }
  /// The label of the target whose rules and backend take the operators this
  /// one does not run ("cpu"); empty for a target that runs every operator
  /// on the host CPU itself.
  void setCpuFallback(std::string L) { CpuFallback = std::move(L); }
  const std::string &cpuFallback() const { return CpuFallback; }

  /// Whether this target's programs run on the functional model.
  bool hasFunctionalModel() const { return Device && Device->Limits; }
  /// True when \p Op of \p G is within the device limits of a target with a
  /// functional model (DeviceRulesDesc::Limits), appending to \p Why each
  /// limit it exceeds; always true for any other target.
  bool withinDeviceLimits(const ir::Graph &G, const ir::Operator &Op,
                          std::vector<Rejection> &Why) const {
    return !hasFunctionalModel() || Device->Limits(G, Op, Why);
  }

private:
  std::string Name;
  std::vector<std::string> Versions;
  std::map<std::string, std::unique_ptr<OpSetup>, std::less<>> Setups;
  llvm::ArrayRef<PatternDesc> Patterns;
  CostFn Cost = nullptr;
  ScratchFn Scratch = nullptr;
  std::string Library;
  std::string Backend;
  std::string CpuFallback;
  double SwitchCycles = 0;
  const DeviceRulesDesc *Device = nullptr;
};

/// The targets linked into this program, by name.
class TargetRegistry {
public:
  using Factory = std::unique_ptr<TargetInfo> (*)();
  /// Registers \p Make under \p Name; generated code calls this once.
  /// \p Origin is the path of the plugin module that provides the target,
  /// empty for a target built into the program.
  static void add(llvm::StringRef Name, Factory Make,
                  llvm::StringRef Origin = "");
  /// Whether a target named \p Name is registered.
  static bool contains(llvm::StringRef Name);
  /// The plugin module target \p Name came from; empty when built in.
  static std::string origin(llvm::StringRef Name);
  /// The target named \p Name ("demo"), or null.
  static const TargetInfo *get(llvm::StringRef Name);
  /// A new instance of target \p Name from its factory (for a caller that
  /// changes it, as tests do), or null.
  static std::unique_ptr<TargetInfo> create(llvm::StringRef Name);
  /// Resolves "demo2.0" (target name followed by a version) to the target
  /// and version index; the newest version when only the name is given.
  /// Nothing when no registered target has that name and version.
  static std::optional<std::pair<const TargetInfo *, unsigned>>
  resolve(llvm::StringRef Label);
  /// The registered target names, sorted.
  static std::vector<std::string> names();
  /// Every label resolve() accepts with a version ("demo1.0", "demo2.0"),
  /// by target name, then version order; for "unknown target" messages.
  static std::vector<std::string> labels();
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_TARGETINFO_H
