//===- CpuKernel.h - Kernels a backend specialises per operator -*- C++ -*-===//
//
// The C emitter calls the reference kernels for the operators the CPU runs,
// unless the compilation's backend gives it a CpuKernelSpecialiser (target
// cpu's, targets/cpu/CpuKernels.h): then each operator the specialiser
// covers calls a kernel written for that operator alone, and the files the
// specialiser renders hold them. The emitter knows how to call such a kernel
// (CpuKernel), not how it is made.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_CPUKERNEL_H
#define ACCELGEN_EMIT_CPUKERNEL_H

#include "ir/Graph.h"
#include "kernels/KernelParams.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace emit {

/// One argument of a specialised kernel's call.
struct CpuKernelArg {
  enum Kind {
    /// The data of tensor Tensor (in a stripe: at the stripe's first row).
    Data,
    /// In a stripe: the first row of input 0 its data pointer holds.
    InputRow,
    /// In a stripe: the output rows [begin, end) to write.
    OutputBegin,
    OutputEnd,
    /// In a stripe: the output's element count.
    Count,
  };
  Kind K = Data;
  int32_t Tensor = -1;
};

/// One operator's specialised kernel.
struct CpuKernel {
  /// The C function: `void FUNCTION(const int8_t *input, int8_t *output)`
  /// for CONV_2D and FULLY_CONNECTED (which hold their filter as an int16
  /// table), `(input, filter, output)` for DEPTHWISE_CONV_2D, `(input1,
  /// input2, output)` for ADD, SUB and MUL. As a stripe of a cascade, the
  /// convolutions take `(input, in_lo, [filter,] output, oy0, oy1)`: the
  /// output rows [oy0, oy1) of the whole output, written from output on,
  /// from input holding the input's rows from in_lo on (every row the stripe
  /// reads); ADD, SUB and MUL take the element count last.
  std::string Function;
  /// Its prototype, for cpu_kernels.h.
  std::string Declaration;
  /// Its definition with its constant tables, for cpu_kernels.c.
  std::string Definition;
  /// What it is called with, in its parameters' order.
  std::vector<CpuKernelArg> Arguments;
  /// True if it uses the vector primitives of cpu_simd.c.in.
  bool Simd = false;
};

/// What specialises the CPU's kernels per operator for one compilation.
class CpuKernelSpecialiser {
public:
  virtual ~CpuKernelSpecialiser();

  /// The kernel of operator \p Index of \p G, whose reference call is
  /// \p Call, named \p Function; with \p Stripe, the variant a cascade
  /// calls stripe by stripe (plan/Cascade.h). std::nullopt when it does not
  /// cover the operator (which then keeps the reference kernel).
  virtual llvm::Expected<std::optional<CpuKernel>>
  specialise(const ir::Graph &G, size_t Index, const kernels::KernelCall &Call,
             llvm::StringRef Function, bool Stripe) const = 0;

  /// Why operator \p Index keeps its reference kernel \p Call when
  /// specialise() gave none, for report.json ("no specialised kernel for
  /// int16 CONV_2D", ...).
  virtual std::string referenceReason(const ir::Graph &G, size_t Index,
                                      const kernels::KernelCall &Call) const = 0;

  /// The files holding \p Kernels for the model named \p Name, as (file
  /// name, text); model.c includes the ones whose names end in ".h".
  virtual llvm::Expected<std::vector<std::pair<std::string, std::string>>>
  files(llvm::ArrayRef<CpuKernel> Kernels, llvm::StringRef Name) const = 0;
};

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_CPUKERNEL_H
