//===- DeviceRules.h - Device semantics as program decisions -*- C++ -*-===//
//
// What the program builder decides from the device semantics a target
// declares (target/DeviceRules.h): the layout each activation is stored in
// and the channel padding an operator computes on. The target's description
// states the facts; these functions only apply them, for any target.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PROGRAM_DEVICERULES_H
#define ACCELGEN_PROGRAM_DEVICERULES_H

#include "program/Program.h"
#include "target/DeviceRules.h"

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>

namespace accelgen {
namespace program {

/// The program's name for device layout \p L.
Layout programLayout(const target::LayoutDesc &L);

/// The layout of a non-constant 4-D activation of \p Channels channels that
/// operators of the types \p Users read or write: the first of the target's
/// layouts that holds it and that every user computes in; failing that, the
/// first that holds it and some user computes in; NHWC when the target
/// declares no layout for any user.
Layout tensorLayout(const target::DeviceRules &R, int64_t Channels,
                    const std::set<std::string> &Users);

/// The channel multiple an operator of \p OpType computes on for elements of
/// \p Type: not 0 when it computes in one layout only, and that layout pads
/// channels.
int32_t channelAlign(const target::DeviceRules &R, llvm::StringRef OpType,
                     ir::DType Type);

} // namespace program
} // namespace accelgen

#endif // ACCELGEN_PROGRAM_DEVICERULES_H
