//===- ref.td - The reference CPU target ----------------------------------===//
//
// "ref" runs every operator on the CPU with the C99 reference kernels
// (templates/ref and lib/kernels/c), whose integer arithmetic is TensorFlow
// Lite's reference arithmetic bit for bit. Every test compares against it.
// What it runs, and with which kernel family, is defs/hostcpu.td, which it
// shares with target cpu.
//
//===----------------------------------------------------------------------===//

include "hostcpu.td"

def Ref1 : Version<"1">;
def Ref : Target<"ref", [Ref1]> {
  let Description = "Reference C kernels on the host CPU";
  let Backend = RefKernels;
  let CpuFallback = "";
}

defm : HostCpuRules<Ref, Ref1, "ref">;
