//===- demo.td - A small accelerator that uses every feature of the DSL ---===//
//
// "demo" is not real hardware. It exists to exercise the description
// language end to end: three versions with inheritance and overrides, typed
// constraints with hints, a C++ escape hatch, attribute mappings, every kind
// of quantization rule, fusion patterns with captures and an operator set,
// a kernel list, cost estimates and device semantics. The same description is
// written in demo.yaml; both must generate identical files.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def V1_0 : Version<"1.0">;
def V2_0 : Version<"2.0">;
def V3_0 : Version<"3.0">;

def Demo : Target<"demo", [V1_0, V2_0, V3_0]> {
  let Description = "Demonstration accelerator for the description language";
  let SwitchCycles = 100;
}

// Accelerator operators.
def DemoConv : TargetOp<Demo, "DEMO_CONV_2D", [Input, Filter, OptionalBias],
                        [PaddingAttr, StrideHAttr, StrideWAttr, DilationHAttr,
                         DilationWAttr, FusedActivationAttr]>;
def DemoDepthwise : TargetOp<Demo, "DEMO_DEPTHWISE_CONV_2D",
                             [Input, Filter, OptionalBias],
                             [PaddingAttr, StrideHAttr, StrideWAttr,
                              DilationHAttr, DilationWAttr,
                              DepthMultiplierAttr, FusedActivationAttr]>;
def DemoGroupConv : TargetOp<Demo, "DEMO_GROUP_CONV_2D",
                             [Input, Filter, OptionalBias],
                             [PaddingAttr, StrideHAttr, StrideWAttr,
                              DilationHAttr, DilationWAttr,
                              FusedActivationAttr]>;
def DemoConvAdd : TargetOp<Demo, "DEMO_CONV_ADD",
                           [Input, Filter, OptionalBias, Input2],
                           [PaddingAttr, StrideHAttr, StrideWAttr,
                            DilationHAttr, DilationWAttr,
                            FusedActivationAttr]>;

// Shared constraints.
def StrideAtMost4 : Constraint<"stride_at_most_4",
    "stride_h in [1, 4] && stride_w in [1, 4]",
    "stride must be in [1, 4]">;
def WeightsConstant : Constraint<"weights_constant",
    "input(1).is_constant", "weights must be constant">;
def Rank4 : Constraint<"input_rank_4", "input(0).rank == 4",
    "input must be 4-D (NHWC)">;

def : Legal<Conv2D, Demo, V1_0, [i8, u8], [
  Rank4, WeightsConstant, StrideAtMost4,
  Constraint<"conv_no_dilation", "dilation_h == 1 && dilation_w == 1",
             "dilation is not supported", "legal from demo2.0">,
  Constraint<"conv_channels", "input(0).channels <= 256",
             "input channels must be at most 256">,
]> {
  let WeightSchemes = [SymmetricPerChannel, AsymmetricPerTensor];
}
// 2.0 adds dilation up to 4 and more channels; stride rule is inherited.
def : Legal<Conv2D, Demo, V2_0, [], [
  Constraint<"conv_dilation", "dilation_h in [1, 4] && dilation_w in [1, 4]",
             "dilation must be in [1, 4]">,
  Constraint<"conv_channels", "input(0).channels <= 1024",
             "input channels must be at most 1024">,
]> {
  let Drops = ["conv_no_dilation"];
}
// 3.0 adds int16 activations.
def : Legal<Conv2D, Demo, V3_0, [i8, u8, i16]>;

def : Legal<DepthwiseConv2D, Demo, V1_0, [i8, u8], [
  Rank4, WeightsConstant, StrideAtMost4,
  Constraint<"dw_multiplier_1", "depth_multiplier == 1",
             "depth multiplier must be 1">,
  CppConstraint<"dw_filter_square", "accelgen::demo::isSquareFilter",
                "filter must be square">,
]>;

def : Legal<FullyConnected, Demo, V1_0, [i8], [
  WeightsConstant,
  Constraint<"fc_per_tensor", "!input(1).per_channel",
             "weights must be quantized per tensor">,
  Constraint<"fc_depth", "input(1).dim(1) in [1, 2048]",
             "input depth must be in [1, 2048]">,
]>;

def : Legal<AveragePool2D, Demo, V1_0, [i8], [
  Rank4, StrideAtMost4,
  Constraint<"pool_filter", "filter_h * filter_w <= 64",
             "pool window must have at most 64 elements">,
]>;
def : Legal<MaxPool2D, Demo, V1_0, [i8], [Rank4, StrideAtMost4]>;

def : Legal<Add, Demo, V1_0, [i8], [
  Constraint<"add_same_shape",
             "input(0).rank == input(1).rank && input(0).num_elements == input(1).num_elements",
             "operands must have the same shape (no broadcasting)",
             "broadcasting is legal from demo2.0">,
]>;
def : Legal<Add, Demo, V2_0, [i8, i16]> { let Drops = ["add_same_shape"]; }

def : Legal<Softmax, Demo, V2_0, [i8], [
  Constraint<"softmax_beta", "beta == 1.0", "beta must be 1">,
]>;
def : Legal<Relu, Demo, V1_0, [i8, u8]>;
def : Legal<Reshape, Demo, V1_0, [i8, u8, i16]>;
def : Legal<Logistic, Demo, V1_0, [i8]>;
def : Removed<Logistic, Demo, V3_0>;

// Attribute conversion: a grouped CONV_2D (input channels a multiple of the
// filter's) becomes a depthwise conv when each group has one input channel,
// a group conv otherwise; a plain CONV_2D becomes DEMO_CONV_2D.
def : Mapping<Conv2D, DemoDepthwise, Demo, [
  Constraint<"map_dw", "input(1).dim(3) == 1 && input(0).channels > 1",
             "each group has one input channel">,
], 3> {
  let SetAttrs = ["depth_multiplier=1"];
}
def : Mapping<Conv2D, DemoGroupConv, Demo, [
  Constraint<"map_group", "input(0).channels != input(1).dim(3)",
             "more than one group">,
], 2>;
def : Mapping<Conv2D, DemoConv, Demo>;
def : Mapping<DepthwiseConv2D, DemoDepthwise, Demo>;

// Quantization rules.
def : QuantRule<Conv2D, Demo, BiasScaleProduct, Reject>;
def : QuantRule<MaxPool2D, Demo, SameScale, InsertRequantizeBefore>;
def : QuantRule<Reshape, Demo, ForwardOutputToInputs>;
def : QuantRule<Softmax, Demo, FixedOutput> {
  let Scale = "0.00390625";
  let ZeroPoint = -128;
}
def : QuantRule<FullyConnected, Demo, QuantCheck, InsertRequantizeAfter> {
  let Until = V1_0;
  let Check = Constraint<"fc_scale_ratio",
      "input(0).scale * input(1).scale < output(0).scale",
      "input scale x weight scale must be below the output scale">;
}

// Fusion: a plain or depthwise convolution followed by RELU becomes the
// demo layer of that convolution; convolution + ADD (2.0 on).
/// The convolutions a RELU fuses into, and the layer each becomes.
def ReluFusable : OpSet<"RELU_FUSABLE", [Conv2D, DepthwiseConv2D],
                        [DemoConv, DemoDepthwise]>;
def ConvRelu : Pattern<Demo,
    (Relu:$act (ReluFusable:$conv $x, $w, $b)),
    (ReluFusable:$conv $x, $w, $b),
    [Constraint<"conv_relu_no_act", "conv.fused_activation == \"NONE\"",
                "the convolution has no fused activation yet">], 2>;
def ConvAdd : Pattern<Demo,
    (Add:$add (Conv2D:$conv $x, $w, $b), $y),
    (DemoConvAdd $x, $w, $b, $y),
    [Constraint<"conv_add_same_scale",
                "add.input(0).scale == add.input(1).scale",
                "both addends share a scale">]> {
  let Since = V2_0;
}

// Cost estimates for partitioning. 2.0 doubles the MAC array; the target
// convolutions read input channels in groups of 16.
def : Cost<Conv2D, Demo, V1_0, "macs / 256">;
def : Cost<Conv2D, Demo, V2_0, "macs / 512">;
def : Cost<DepthwiseConv2D, Demo, V1_0,
           "select(stride_h > 1, macs / 64, macs / 128)">;
def : Cost<FullyConnected, Demo, V1_0, "max(macs / 256, 16)">;
def : Cost<AveragePool2D, Demo, V1_0,
           "ceil(min(filter_h * filter_w, 64) * output(0).num_elements / 64.0)">;
def : Cost<Add, Demo, V1_0, "floor(output(0).num_elements / 32.0) + 1">;
def : Cost<DemoConv, Demo, V1_0,
           "output(0).num_elements * input(1).dim(1) * input(1).dim(2) * align(input(1).dim(3), 16) / 256">;
def : Cost<DemoConv, Demo, V2_0,
           "output(0).num_elements * input(1).dim(1) * input(1).dim(2) * align(input(1).dim(3), 16) / 512">;
def : Cost<DemoConvAdd, Demo, V2_0,
           "output(0).num_elements * input(1).dim(1) * input(1).dim(2) * align(input(1).dim(3), 16) / 512 + output(0).num_elements / 32">;

// Device semantics. Activations are plain NHWC on 1.0; 2.0 adds a 16C
// layout (channels padded to 16 bytes). The pools compute in 16C only, and
// MAX_POOL_2D takes both layouts again from 3.0 (a rule naming an operator
// wins over the rule for every operator, and a later one for the same
// operators replaces it). Asymmetric int8 is stored as uint8 on 1.0 only.
// Fused intermediates stay in the device from 2.0, except a CONV_2D's from
// 3.0. The demo names no backend: it can only be explained, and no functional
// model runs its programs.
def DemoNhwc : Layout<"NHWC">;
def Demo16C : Layout<"16C"> { let ChannelBytes = 16; }
def : DeviceLayout<Demo, V1_0, [], [DemoNhwc]>;
def : DeviceLayout<Demo, V2_0, [], [DemoNhwc, Demo16C]>;
def : DeviceLayout<Demo, V1_0, [AveragePool2D, MaxPool2D], [Demo16C]>;
def : DeviceLayout<Demo, V3_0, [MaxPool2D], [DemoNhwc, Demo16C]>;
def : DeviceStorage<Demo, V1_0, i8, AsymmetricPerTensor, u8>;
def : DeviceStorage<Demo, V2_0, i8, AsymmetricPerTensor, i8>;
def : DeviceResidency<Demo, V2_0, [], FusedIntermediates>;
def : DeviceResidency<Demo, V3_0, [Conv2D], NoIntermediates>;
