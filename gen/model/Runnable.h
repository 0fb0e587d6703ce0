//===- Runnable.h - What a target declares must run -------------*- C++ -*-===//
//
// Every layer a target places runs on a kernel of defs/kernels.td: the CPU
// path's directly, an accelerator's through the functional model, which runs
// its programs with the same kernels. A Legal declaration of an operator for
// an element type that no kernel computes is therefore a promise compile
// cannot keep. The generator checks each declaration of a target that
// compiles against the kernel families in the description's records: an
// operator or element type without a kernel is an error at the declaration.
// A target without a backend only explains, and is not checked.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_RUNNABLE_H
#define ACCELGEN_GEN_MODEL_RUNNABLE_H

#include "model/Description.h"
#include "model/Diagnostics.h"
#include "model/KernelLibrary.h"
#include "model/TargetModel.h"

namespace accelgen {
namespace gen {

/// Checks the Legal declarations of \p D (resolved in \p M) against the
/// kernels of \p K, the errors in \p Diags.
void checkDeclaredRunnable(const TargetDecl &D, const TargetModel &M,
                           const KernelLibraryModel &K, Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_RUNNABLE_H
