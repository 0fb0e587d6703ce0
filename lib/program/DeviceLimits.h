//===- DeviceLimits.h - What every functional-model accelerator needs -----===//
//
// A target's description states what its hardware runs; the accelerator
// program and the functional model that runs it (lib/program) have limits of
// their own, the same for every target. They are checked here, during
// legalization, so that an operator beyond them stays on the CPU with its
// reason (`explain` shows it) instead of failing when the program is checked:
//
//  - device_tensor_bytes: every tensor an operator reads or writes holds at
//    most 2^31 - 1 bytes (the program's tensors; read_tensor in
//    accel_functional.c);
//  - device_empty_reduction: a reduction (MEAN, SUM, REDUCE_MAX) with a
//    non-empty output reduces at least one element (the kernel divides by
//    the count; check_geometry's FAM_mean);
//  - device_accumulator_range: an 8-bit convolution or fully connected
//    operator's accumulator, shifted left by its requantization, stays
//    inside the device's int32 requantize (check_params' accumulator_ok);
//  - device_kernel: once those pass, the functional model itself checks the
//    reference kernel the program would name, with its parameters
//    (accel_check_kernel: the same checks a program's operator gets before
//    it runs), so nothing it would refuse reaches a program.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PROGRAM_DEVICELIMITS_H
#define ACCELGEN_PROGRAM_DEVICELIMITS_H

#include "target/OpSetup.h"

namespace accelgen {
namespace program {

/// Appends one Rejection per device limit \p Op of \p G exceeds (ids above);
/// true when it exceeds none.
/// A target description naming the functional-model backend has its
/// generated device rules point at this (DeviceRulesDesc::Limits), so that
/// legalization asks it without lib/target knowing the functional model.
bool checkDeviceLimits(const ir::Graph &G, const ir::Operator &Op,
                       std::vector<target::Rejection> &Why);

} // namespace program
} // namespace accelgen

#endif // ACCELGEN_PROGRAM_DEVICELIMITS_H
