//===- acme.td - The ACME NPU, as its vendor describes it -----------------===//
//
// A small accelerator described outside the accelgen tree: convolutions with
// a stride limit, a fused convolution + RELU from version 2, and ADD. It
// computes what TensorFlow Lite computes, so its programs run on the
// functional model with the reference kernel families: the installed
// accelgen compiles and runs models for it once it loads accelgen-acme.so.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def A1 : Version<"1">;
def A2 : Version<"2">;
def Acme : Target<"acme", [A1, A2]> {
  let Description = "ACME NPU";
  let Backend = FunctionalModelPrograms;
}

def AcmeConvRelu : TargetOp<Acme, "ACME_CONV_RELU", [Input, Filter, OptionalBias],
                            [PaddingAttr, StrideHAttr, StrideWAttr,
                             DilationHAttr, DilationWAttr, FusedActivationAttr]>;
def AcmeConv : TargetOp<Acme, "ACME_CONV", [Input, Filter, OptionalBias],
                        [PaddingAttr, StrideHAttr, StrideWAttr, DilationHAttr,
                         DilationWAttr, FusedActivationAttr]>;

def : Legal<Conv2D, Acme, A1, [i8], [
  Constraint<"acme_stride", "stride_h in [1, 2] && stride_w in [1, 2]",
             "stride must be 1 or 2">,
]>;
def : Legal<Add, Acme, A1, [i8]>;
def : Legal<Relu, Acme, A1, [i8]>;
def : Mapping<Conv2D, AcmeConv, Acme>;

def ConvRelu : Pattern<Acme, (Relu (Conv2D $x, $w, $b)), (AcmeConvRelu $x, $w, $b)> {
  let Since = A2;
}
