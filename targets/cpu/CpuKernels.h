//===- CpuKernels.h - Shape-specialised kernels of target cpu ---*- C++ -*-===//
//
// Target `cpu` runs int8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and
// ADD / SUB / MUL without broadcasting with one C function per operator,
// rendered from targets/cpu/templates with the operator's shapes, strides, padding,
// zero points and multipliers as constants and the input offset times each
// filter sum folded into the bias; every other operator (and every case the
// templates do not cover) calls the reference kernel computeKernelCall chose.
// The arithmetic is the reference kernels' own, so the results are the same
// bytes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_CPU_CPUKERNELS_H
#define ACCELGEN_CPU_CPUKERNELS_H

#include "cpu/CpuIsa.h"
#include "emit/CpuKernel.h"
#include "ir/Graph.h"
#include "kernels/KernelParams.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace cpu {

using emit::CpuKernel;
using emit::CpuKernelArg;

/// The specialised kernel of operator \p Index of \p G, whose reference call
/// is \p Call, named \p Function, in \p Isa's variant where it has one
/// (the GEMM and depthwise kernels) and the portable one otherwise; with
/// \p Stripe, the variant a cascade calls stripe by stripe (plan/Cascade.h).
/// std::nullopt when the templates do not cover the operator (it then keeps
/// the reference kernel). Fails only when a template fails to render.
llvm::Expected<std::optional<CpuKernel>>
specialiseCpuKernel(const ir::Graph &G, size_t Index,
                    const kernels::KernelCall &Call, llvm::StringRef Function,
                    CpuIsaLevel Isa = CpuIsaLevel::Portable,
                    bool Stripe = false);

/// Why operator \p Index of \p G keeps its reference kernel \p Call when
/// specialiseCpuKernel gives none: no specialised kernel for its function
/// (naming its element type and operator), weights or bias not constant,
/// an accumulator that could leave int32, or shapes outside the kernels'
/// cases.
std::string cpuReferenceReason(const ir::Graph &G, size_t Index,
                               const kernels::KernelCall &Call);

/// The requantization table of cpu_simd.c.in's cpu_requantize.
struct CpuRequantTable {
  /// The C initializer's elements (`{.left = {...}, ...},` lines), one
  /// `cpu_requant` per vector of columns.
  std::string Initializer;
  /// How many: the columns over the lanes, rounded up.
  int64_t Vectors = 0;
  /// True unless every left shift is 0 (cpu_requantize's any_left).
  bool AnyLeft = false;
  /// The output offset when the table does not hold it (AVX2's, or one
  /// too large to fold at some shift), else 0: cpu_requantize's offset.
  int32_t Offset = 0;
};

/// The table with which \p Isa's cpu_requantize (not Portable's) computes,
/// for column c, ref_multiply_by_quantized_multiplier(x, \p Multipliers[c],
/// \p LeftShifts[c]) + \p OutputOffset; the columns past the last of the
/// last vector have multiplier 0. AVX-512 folds the offset into the table
/// where every shift allows it. std::nullopt for what the vector code does
/// not cover: a multiplier of INT32_MIN or a shift outside [-31, 30].
std::optional<CpuRequantTable>
cpuRequantTable(llvm::ArrayRef<int32_t> Multipliers,
                llvm::ArrayRef<int32_t> LeftShifts, int32_t OutputOffset,
                CpuIsaLevel Isa);

/// The vector primitives of \p Cpu's instruction set
/// (templates/cpu_simd.c.in) that cpu_kernels.c holds, with the ones
/// named in \p Used.
llvm::Expected<std::string>
renderCpuSimdPrimitives(const CpuChoice &Cpu, llvm::ArrayRef<std::string> Used);

/// cpu_kernels.c and cpu_kernels.h holding \p Kernels, in this order; with
/// the vector primitives of \p Cpu's instruction set when a kernel uses
/// them.
llvm::Expected<std::vector<std::pair<std::string, std::string>>>
renderCpuKernelFiles(llvm::ArrayRef<CpuKernel> Kernels, llvm::StringRef Name,
                     const CpuChoice &Cpu = {});

/// Target cpu's kernels for one compilation, in the instruction set it chose
/// (`--cpu`): what the C emitter calls for the operators they cover.
class Specialiser final : public emit::CpuKernelSpecialiser {
public:
  explicit Specialiser(CpuChoice Cpu) : Cpu(std::move(Cpu)) {}
  const CpuChoice &choice() const { return Cpu; }

  llvm::Expected<std::optional<CpuKernel>>
  specialise(const ir::Graph &G, size_t Index, const kernels::KernelCall &Call,
             llvm::StringRef Function, bool Stripe) const override {
    return specialiseCpuKernel(G, Index, Call, Function, Cpu.Level, Stripe);
  }
  std::string referenceReason(const ir::Graph &G, size_t Index,
                              const kernels::KernelCall &Call) const override {
    return cpuReferenceReason(G, Index, Call);
  }
  llvm::Expected<std::vector<std::pair<std::string, std::string>>>
  files(llvm::ArrayRef<CpuKernel> Kernels,
        llvm::StringRef Name) const override {
    return renderCpuKernelFiles(Kernels, Name, Cpu);
  }

private:
  CpuChoice Cpu;
};

} // namespace cpu
} // namespace accelgen

#endif // ACCELGEN_CPU_CPUKERNELS_H
