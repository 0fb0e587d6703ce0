//===- toy.td - A target built as a plugin module for the CLI tests --------===//
//
// The smallest runnable accelerator: int8 convolutions, depthwise included,
// computed by the reference kernel families on the functional model. Built
// with accelgen_add_target(toy toy.td PLUGIN), so accelgen knows it only
// when it loads accelgen-toy.so.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def Toy1 : Version<"1">;
def Toy : Target<"toy", [Toy1]> {
  let Description = "A toy accelerator loaded as a plugin";
  let Backend = FunctionalModelPrograms;
}

def : Legal<Conv2D, Toy, Toy1, [i8], [
  Constraint<"toy_stride", "stride_h in [1, 2] && stride_w in [1, 2]",
             "stride must be 1 or 2">,
]>;
def : Legal<DepthwiseConv2D, Toy, Toy1, [i8]>;
