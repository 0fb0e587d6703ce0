//===- CpuIsa.cpp - The x86-64 instruction sets of target cpu -------------===//
//
// x86-64-v4 is the psABI level (AVX-512 F, BW, CD, DQ, VL) without VNNI, so
// it gets the AVX-512 kernels that multiply int16 pairs (vpmaddwd); the VNNI
// rows add -mavx512vnni for vpdpbusd. gcc 12 and clang 14 do not know
// -march=znver4, so that row names the instruction sets and tunes for Zen 3.
//
//===----------------------------------------------------------------------===//
#include "cpu/CpuIsa.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace cpu {

ArrayRef<CpuIsa> cpuIsas() {
  static const CpuIsa Table[] = {
      {"generic", CpuIsaLevel::Portable, "",
       "portable C the compiler vectorises for any x86-64 (the default)"},
      {"x86-64-v3", CpuIsaLevel::Avx2, "-march=x86-64-v3",
       "AVX2 kernels (Haswell, Zen 1 and later)"},
      {"x86-64-v4", CpuIsaLevel::Avx512, "-march=x86-64-v4",
       "AVX-512 kernels without VNNI (Skylake-X and later)"},
      {"icelake-server", CpuIsaLevel::Avx512Vnni, "-march=icelake-server",
       "AVX-512 VNNI kernels (Ice Lake and later Xeons)"},
      {"znver4", CpuIsaLevel::Avx512Vnni,
       "-march=x86-64-v4 -mavx512vnni -mtune=znver3",
       "AVX-512 VNNI kernels (AMD Zen 4)"},
  };
  return Table;
}

StringRef isaName(CpuIsaLevel Level) {
  switch (Level) {
  case CpuIsaLevel::Portable:
    return "portable";
  case CpuIsaLevel::Avx2:
    return "avx2";
  case CpuIsaLevel::Avx512:
    return "avx512";
  case CpuIsaLevel::Avx512Vnni:
    return "avx512vnni";
  }
  llvm_unreachable("unknown ISA level");
}

ArrayRef<const char *> isaMacros(CpuIsaLevel Level) {
  static const char *const Avx2[] = {"__AVX2__", "__FMA__"};
  static const char *const Avx512[] = {"__AVX512F__", "__AVX512BW__",
                                       "__AVX512VL__", "__AVX512DQ__"};
  static const char *const Vnni[] = {"__AVX512F__", "__AVX512BW__",
                                     "__AVX512VL__", "__AVX512DQ__",
                                     "__AVX512VNNI__"};
  switch (Level) {
  case CpuIsaLevel::Portable:
    return {};
  case CpuIsaLevel::Avx2:
    return Avx2;
  case CpuIsaLevel::Avx512:
    return Avx512;
  case CpuIsaLevel::Avx512Vnni:
    return Vnni;
  }
  llvm_unreachable("unknown ISA level");
}

bool hostSupports(CpuIsaLevel Level) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool V3 = __builtin_cpu_supports("avx2") &&
                  __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("bmi2");
  const bool V4 = V3 && __builtin_cpu_supports("avx512f") &&
                  __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512cd") &&
                  __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
  switch (Level) {
  case CpuIsaLevel::Portable:
    return true;
  case CpuIsaLevel::Avx2:
    return V3;
  case CpuIsaLevel::Avx512:
    return V4;
  case CpuIsaLevel::Avx512Vnni:
    return V4 && __builtin_cpu_supports("avx512vnni");
  }
  return false;
#else
  return Level == CpuIsaLevel::Portable;
#endif
}

std::string cpuNames() {
  std::string S;
  for (const CpuIsa &I : cpuIsas())
    S += std::string(I.Name) + ", ";
  return S + "native";
}

Expected<CpuChoice> resolveCpu(StringRef Name) {
  CpuChoice C;
  if (Name.empty() || Name == "generic")
    return C;
  if (Name == "native") {
    C.Name = "native";
    C.Flags = "-march=native";
    for (const CpuIsa &I : cpuIsas())
      if (hostSupports(I.Level) && I.Level > C.Level)
        C.Level = I.Level;
    return C;
  }
  for (const CpuIsa &I : cpuIsas())
    if (Name == I.Name) {
      C.Name = I.Name;
      C.Level = I.Level;
      C.Flags = I.Flags;
      return C;
    }
  return createStringError(
      inconvertibleErrorCode(),
      formatv("unknown --cpu '{0}' (known: {1})", Name, cpuNames()).str());
}

} // namespace cpu
} // namespace accelgen
