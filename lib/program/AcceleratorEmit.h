//===- AcceleratorEmit.h - The accelerator's part of an emitted model -*- C++
//-*-===//
//
// What `accelgen compile --target <accelerator>` (mdla2.0, ...) adds to the C
// the emitter writes
// for the CPU: the serialized program as an aligned `static const` array in
// model.c, the functional model's sources, a scratch buffer, and one call
// into the functional model per accelerator subgraph in place of its
// operators' kernel calls; plus per-operator placement and the estimated
// cycles for report.json.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PROGRAM_ACCELERATOREMIT_H
#define ACCELGEN_PROGRAM_ACCELERATOREMIT_H

#include "emit/ModelEmitter.h"
#include "program/ProgramBuilder.h"

#include "llvm/Support/Error.h"

namespace accelgen {
namespace program {

/// The emitter's Offload for \p M, whose graph (M.Graph) is the one to emit
/// with symbol prefix \p Name. The serialized program is read back and
/// checked first, so a program the functional model would refuse is an
/// error here, not at run time.
llvm::Expected<emit::Offload> makeOffload(const AcceleratedModel &M,
                                          llvm::StringRef Name);

} // namespace program
} // namespace accelgen

#endif // ACCELGEN_PROGRAM_ACCELERATOREMIT_H
