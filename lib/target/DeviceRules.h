//===- DeviceRules.h - How a target's device computes and stores ----------===//
//
// The device semantics a target description declares (defs/accelgen.td,
// "Device semantics"), as the generated DeviceRules.inc tables them: the
// layouts of activations in the device's memory, the layouts each operator
// computes in, the element types it stores converted, the intermediate
// results that stay in the device, and whether the target's programs run on
// the functional model. Every rule is already resolved per version by the
// generator; DeviceRules answers for one version.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_DEVICERULES_H
#define ACCELGEN_TARGET_DEVICERULES_H

#include "ir/DType.h"
#include "ir/Graph.h"
#include "target/OpSetup.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace accelgen {
namespace target {

/// A layout of 4-D (NHWC) activations in the device's memory.
struct LayoutDesc {
  /// What programs record: "NHWC", "4C" or "16C".
  const char *Name;
  /// The most channels it holds; 0: any.
  int32_t MaxChannels;
  /// Channels padded to a multiple of this many elements; 0: not.
  int32_t ChannelPixels;
  /// Channels padded to a multiple of this many bytes; 0: not.
  int32_t ChannelBytes;

  /// Whether it holds a tensor of \p Channels channels.
  bool holds(int64_t Channels) const {
    return MaxChannels == 0 || Channels <= MaxChannels;
  }
  /// The channel multiple, in elements of \p ElementBytes bytes, it pads
  /// to; 1 when it does not pad.
  int32_t channelAlign(unsigned ElementBytes) const;
};

/// The rules of one operator type at one version.
struct DeviceOpRule {
  const char *Op;
  /// Bit I: computes in layout I of DeviceRulesDesc::Layouts.
  uint32_t Layouts;
  /// Its results read only inside their fused layer stay in the device.
  bool KeepsFused;
};

/// Activations of Type quantized so (symmetric: every zero point 0) are
/// stored as StoredAs.
struct DeviceStorageRule {
  ir::DType Type;
  bool Symmetric;
  bool PerChannel;
  ir::DType StoredAs;
};

/// One version: the rules for every operator, those of operators named by a
/// rule (sorted by name), and the storage conversions.
struct DeviceVersionDesc {
  uint32_t Layouts;
  bool KeepsFused;
  const DeviceOpRule *Ops;
  unsigned NumOps;
  const DeviceStorageRule *Storage;
  unsigned NumStorage;
};

/// A target's device semantics, one entry per version.
struct DeviceRulesDesc {
  /// For a target whose programs run on the functional model (its backend
  /// says so): what that model cannot run, whatever the description allows
  /// (program/DeviceLimits.h); null otherwise. Appends one Rejection per
  /// limit \p Op exceeds; true when it exceeds none.
  bool (*Limits)(const ir::Graph &G, const ir::Operator &Op,
                 std::vector<Rejection> &Why);
  const LayoutDesc *Layouts;
  unsigned NumLayouts;
  const DeviceVersionDesc *Versions;
  unsigned NumVersions;
};

/// The device semantics of one version of a target. A default-constructed
/// one (a target declaring none) keeps every activation in NHWC, as the model
/// stores it, and in memory.
class DeviceRules {
public:
  DeviceRules() = default;
  /// Version \p Version of \p Desc (which may be null).
  DeviceRules(const DeviceRulesDesc *Desc, unsigned Version);

  /// The target's layouts, most preferred first.
  llvm::ArrayRef<LayoutDesc> layouts() const;
  /// The layouts \p OpType computes in, as a mask over layouts(); 0 when the
  /// target declares none.
  uint32_t layoutsOf(llvm::StringRef OpType) const;
  /// The one layout \p OpType computes in, or null when it computes in
  /// several or none.
  const LayoutDesc *onlyLayout(llvm::StringRef OpType) const;
  /// Whether results of \p OpType read only inside their fused layer stay in
  /// the device.
  bool keepsFusedIntermediates(llvm::StringRef OpType) const;
  /// The type the device stores an activation of \p Type quantized with
  /// \p Quant as (\p Type itself when it converts nothing).
  ir::DType storedAs(ir::DType Type,
                     const std::optional<ir::QuantParams> &Quant) const;

private:
  const DeviceRulesDesc *Desc = nullptr;
  const DeviceVersionDesc *At = nullptr;
  const DeviceOpRule *rule(llvm::StringRef OpType) const;
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_DEVICERULES_H
