//===- CpuIsa.h - The x86-64 instruction sets of target cpu -----*- C++ -*-===//
//
// The one table of `--cpu` values for target cpu (and for the accelerator
// targets' CPU operators, which run its kernels): for each, the kernel
// variant templates/ renders (portable C, AVX2, AVX-512, AVX-512 VNNI),
// the C compiler flags the generated code needs, the predefined macros that
// prove a build used them, and how to tell whether the host can run it.
// `native` picks the best variant the host runs and builds with
// -march=native.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_CPU_CPUISA_H
#define ACCELGEN_CPU_CPUISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace cpu {

/// The kernel variants of templates/, each a value of the templates' ISA
/// binding.
enum class CpuIsaLevel { Portable, Avx2, Avx512, Avx512Vnni };

/// One `--cpu` value.
struct CpuIsa {
  /// As the command line names it: "x86-64-v3".
  const char *Name;
  /// The kernel variant.
  CpuIsaLevel Level;
  /// The C compiler flags the generated code needs besides -O3 (gcc 12 and
  /// clang 14 spelling), "" for none.
  const char *Flags;
  /// What it means, for --help and errors.
  const char *Description;
};

/// Every `--cpu` value but "native", in order of preference (generic first).
llvm::ArrayRef<CpuIsa> cpuIsas();

/// The template binding ISA of \p Level: "portable", "avx2", "avx512",
/// "avx512vnni".
llvm::StringRef isaName(CpuIsaLevel Level);

/// The instruction sets \p Level needs, as the C predefined macros that
/// compiler flags enable ("__AVX2__", ...); empty for Portable.
llvm::ArrayRef<const char *> isaMacros(CpuIsaLevel Level);

/// True if this host's processor runs \p Level's instructions (cpuid, via
/// __builtin_cpu_supports).
bool hostSupports(CpuIsaLevel Level);

/// What `--cpu NAME` selects: the variant, the flags and, for "native", the
/// variant detected.
struct CpuChoice {
  std::string Name = "generic";
  CpuIsaLevel Level = CpuIsaLevel::Portable;
  std::string Flags;
};

/// The choice for `--cpu` \p Name ("" is generic); an error listing the
/// valid names for an unknown one.
llvm::Expected<CpuChoice> resolveCpu(llvm::StringRef Name);

/// "generic, x86-64-v3, ..., native".
std::string cpuNames();

} // namespace cpu
} // namespace accelgen

#endif // ACCELGEN_CPU_CPUISA_H
