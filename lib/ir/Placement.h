//===- Placement.h - Where an operator runs: the report vocabulary --------===//
//
// The two places an operator of a compiled model runs, and the words reports
// (report.json, `accelgen explain`) use for them. Every emitter and the
// partitioner name a placement through deviceName(), so the vocabulary is
// written once.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_PLACEMENT_H
#define ACCELGEN_IR_PLACEMENT_H

namespace accelgen {
namespace ir {

/// The accelerator a target describes, or the host CPU (reference kernels,
/// specialised kernels or library calls: whatever the target's CPU fallback
/// or own backend runs).
enum class Device { Accelerator, Cpu };

/// The report's word for \p D: "accelerator" or "cpu".
inline const char *deviceName(Device D) {
  return D == Device::Accelerator ? "accelerator" : "cpu";
}

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_PLACEMENT_H
