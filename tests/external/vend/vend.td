//===- vend.td - A vendor target that brings a kernel of its own ----------===//
//
// "vend" is an accelerator whose programs run on the functional model, with
// one operator accelgen does not have, VEND_CLAMP_OFFSET: an int8 input plus
// a per-channel offset (a constant int32 operand), clamped to [lo, hi]
// (attributes). Its kernel family is the target's own: C templates beside
// this file (vend_clamp_offset.h.in and .c.in, rendered for int8 and int16),
// the builder in VendTarget.cpp; the
// functional model emitted for a vend program includes it, and so can any
// CPU target's code once the plugin is loaded. Operators vend does not
// declare run on target ref.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def Vend1 : Version<"1">;
def Vend : Target<"vend", [Vend1]> {
  let Description = "An accelerator with a kernel of its own";
  let Backend = FunctionalModelPrograms;
  let CpuFallback = "ref";
}

def VendOffsets : Operand<"offsets">;
def VendClampOffset
    : TargetOp<Vend, "VEND_CLAMP_OFFSET", [Input, VendOffsets],
               [Attr<"lo", IntAttr>, Attr<"hi", IntAttr>]>;

def VendClampOffsetKernels
    : KernelFamily<"clamp_offset", "clamp_offset", "clampOffsetOp"> {
  let Library = "vend";
  let Doc = "output = clamp(input + offsets[channel], lo, hi).";
  let Fields = [
    KernelField<"lo", "int32_t", "The clamp, in stored values.">,
    KernelField<"hi", "int32_t">,
    KernelField<"channels", "int32_t", "The input's last dimension.">,
    PointerField<"offsets", "int32_t", "One per channel.">];
  let Args = [ParamsArg, CountArg, InputArg, OutputArg];
  let Instances = [KernelInstance<VendClampOffset, "clamp_offset", i8>,
                   KernelInstance<VendClampOffset, "clamp_offset", i16>];
}

def : Legal<VendClampOffset, Vend, Vend1, [i8]>;
