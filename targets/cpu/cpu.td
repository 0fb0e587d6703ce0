//===- cpu.td - The fast CPU target ---------------------------------------===//
//
// "cpu" runs every operator ref runs, on the host CPU, with the same results
// byte for byte (defs/hostcpu.td, shared with ref). Its int8 convolutions,
// depthwise convolutions (depth multiplier 1) and fully connected layers are
// C functions generated for each operator from targets/cpu/templates, with every
// shape, stride, padding, zero point and multiplier a compile-time constant
// and the zero-point corrections folded into the bias
// (targets/cpu/CpuKernels.cpp); everything else calls ref's kernels. It is the
// CPU part of the accelerator targets' generated code. `--cpu` chooses the
// kernels' x86-64 instruction set (portable C, AVX2, AVX-512, AVX-512 VNNI)
// and the compiler flags, from the one table in targets/cpu/CpuIsa.cpp
// (docs/compile.md).
//
//===----------------------------------------------------------------------===//

include "hostcpu.td"

def Cpu1 : Version<"1">;
def Cpu : Target<"cpu", [Cpu1]> {
  let Description = "Shape-specialised C kernels on the host CPU";
  let Backend = CpuKernels;
  let CpuFallback = "";
}

defm : HostCpuRules<Cpu, Cpu1, "cpu">;
