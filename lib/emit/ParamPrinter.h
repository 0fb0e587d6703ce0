//===- ParamPrinter.h - Kernel parameters as C declarations -----*- C++ -*-===//
//
// Prints the parameters kernels::computeKernelCall computed for one operator
// as `static const` C: the params struct with every field initialized by
// name, and the per-channel arrays its pointer fields aim at as static arrays
// of their own. Which fields a struct has comes from the kernel families'
// declaration (defs/kernels.td, through the generated ref_kernel_table.inc),
// the same one the C structs are generated from, so the printer never falls
// behind them.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_PARAMPRINTER_H
#define ACCELGEN_EMIT_PARAMPRINTER_H

#include "kernels/KernelParams.h"

#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace emit {

/// The C form of one operator's parameters.
struct PrintedParams {
  /// File-scope declarations: arrays, then the params struct (empty when the
  /// kernel takes no struct).
  std::string Declarations;
  /// The parameters as arguments: "&op3_params", or for a family that takes
  /// its fields by value their values, comma-separated.
  std::string Argument;
};

/// Prints \p Params, naming everything after \p Prefix ("op3"); an error if a
/// pointer field aims at an array the printer does not know.
llvm::Expected<PrintedParams> printParams(const kernels::AnyParams &Params,
                                          llvm::StringRef Prefix);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_PARAMPRINTER_H
