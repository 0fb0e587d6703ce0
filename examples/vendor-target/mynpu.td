//===- mynpu.td - A template accelerator description ----------------------===//
//
// Copy, rename and edit. Each section is one kind of fact about the hardware;
// accelgen's own descriptions (targets/npu/npu.td, targets/mdla/mdla.td in
// the accelgen sources) show every feature at full size; docs/targets.md
// describes every class.
//
//===----------------------------------------------------------------------===//

// The operator vocabulary (ops.td) and the reference kernel families
// (kernels.td), installed with accelgen in share/accelgen/defs.
include "kernels.td"

//===----------------------------------------------------------------------===//
// 1. Versions and the target
//===----------------------------------------------------------------------===//

// Versions in release order; a fact declared for one version holds for the
// later ones until restated.
def MyNpu1 : Version<"1">;
def MyNpu2 : Version<"2">;

def MyNpu : Target<"mynpu", [MyNpu1, MyNpu2]> {
  let Description = "A template NPU: int8 convolutions, pools and fully "
                    "connected layers";
  // Cycles to hand one tensor between the CPU and the NPU.
  let SwitchCycles = 500;
  // The NPU computes what TensorFlow Lite computes, so its programs run on
  // accelgen's functional model with the reference kernels: `accelgen
  // compile` and `accelgen run` work for it (section 4).
  let Backend = FunctionalModelPrograms;
}

//===----------------------------------------------------------------------===//
// 2. Legality: which operators, types and attribute ranges
//===----------------------------------------------------------------------===//

// A constraint: an id, a condition in the constraint language
// (docs/constraint-language.md), what a rejected operator is told, and a
// hint.
def MyStride : Constraint<"mynpu_stride",
    "stride_h in [1, 2] && stride_w in [1, 2]",
    "stride must be 1 or 2",
    "a larger stride runs on the CPU">;
def MyChannels : Constraint<"mynpu_channels",
    "input(0).channels <= 256",
    "at most 256 input channels">;

def : Legal<Conv2D, MyNpu, MyNpu1, [i8], [MyStride, MyChannels]>;
def : Legal<DepthwiseConv2D, MyNpu, MyNpu1, [i8], [MyStride]>;
// Version 2 adds average pools, with a window of at most 256 elements.
def : Legal<AveragePool2D, MyNpu, MyNpu2, [i8], [
  Constraint<"mynpu_pool_window", "filter_h * filter_w <= 256",
             "the pool window must have at most 256 elements">,
]>;
def : Legal<FullyConnected, MyNpu, MyNpu1, [i8]>;

//===----------------------------------------------------------------------===//
// 3. Cost model (optional): estimated cycles per operator and version
//===----------------------------------------------------------------------===//

def : Cost<Conv2D, MyNpu, MyNpu1, "macs / 64.0">;
def : Cost<DepthwiseConv2D, MyNpu, MyNpu1, "macs / 16.0">;
def : Cost<FullyConnected, MyNpu, MyNpu1, "macs / 64.0">;
def : Cost<AveragePool2D, MyNpu, MyNpu2,
           "output(0).num_elements * filter_h * filter_w / 8.0">;
