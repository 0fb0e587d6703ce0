//===- npu.td - An Arm Ethos-U class NPU (U55-128, U65-256) ---------------===//
//
// A small microcontroller NPU modelled on Arm's Ethos-U55 and Ethos-U65 as
// the Vela compiler drives them: the operators Vela places on the NPU and the
// limits its supported-operator checks state (TFLite semantic and
// supported-operator checks, "SUPPORTED_OPS.md"), restricted to int8. Two
// versions: "55" (Ethos-U55, 128 MACs/cycle) and "65" (Ethos-U65, 256
// MACs/cycle); Vela checks both against the same operator rules, so "65"
// changes the cost model only. README.md says where each fact comes from.
//
// It is the smallest complete accelerator of the tree: no C++, no C; every
// artifact, the registration and the functional model's programs come from
// this file. In order:
//
//   1. versions, the target and its own operators;
//   2. shared constraints (Vela's generic and convolution checks);
//   3. legality, by operator;
//   4. the fused activation (a convolution followed by RELU or RELU6);
//   5. cost model;
//   6. device semantics: the 16-channel brick layout (NHCWB16), fused
//      intermediates kept in the NPU.
//
// npu.yaml is the same description in the YAML form; both generate
// identical files (the golden tests check it).
//
//===----------------------------------------------------------------------===//

include "kernels.td"

//===----------------------------------------------------------------------===//
// 1. Versions, target, target operators
//===----------------------------------------------------------------------===//

def U55 : Version<"55">;
def U65 : Version<"65">;

def NPU : Target<"npu", [U55, U65]> {
  let Description =
      "An Arm Ethos-U class microcontroller NPU (Ethos-U55 with 128 MACs "
      "per cycle, Ethos-U65 with 256) under Vela's operator rules, int8 "
      "only. Activations are NHWC or 16-channel bricks (NHCWB16); operators "
      "Vela leaves on the CPU fall back to the reference kernels";
  // The NPU shares the host's SRAM and flash: a switch is the Cortex-M
  // driver starting a command stream and taking its interrupt, no copy. 2,000
  // cycles per boundary tensor is our assumption (section 6).
  let SwitchCycles = 2000;
  // Every NPU operator computes what the TFLite operator it stands for
  // computes (Vela's outputs are bit-exact with TFLite's int8 reference), so
  // the functional model runs its programs with the reference kernels.
  let Backend = FunctionalModelPrograms;
}

/// A CONV_2D with a RELU or RELU6 that followed it fused into its output
/// stage (section 4).
def NpuConv2D : TargetOp<NPU, "NPU_CONV_2D", [Input, Filter, OptionalBias],
                         ConvAttrs>;
/// The same for DEPTHWISE_CONV_2D.
def NpuDepthwiseConv2D
    : TargetOp<NPU, "NPU_DEPTHWISE_CONV_2D", [Input, Filter, OptionalBias],
               !listconcat(ConvAttrs, [DepthMultiplierAttr])>;

//===----------------------------------------------------------------------===//
// 2. Shared constraints
//===----------------------------------------------------------------------===//

/// Vela: "Stride values for both width and height must be in the range
/// [1, 3]".
def NpuStride : Constraint<"npu_stride",
    "stride_h in [1, 3] && stride_w in [1, 3]",
    "stride must be in [1, 3] in both height and width",
    "larger strides run on the CPU; a strided convolution can often be "
    "rewritten as a stride-1 one followed by a pool">;
/// Vela: "Dilation factor values for both width and height must be in the
/// range [1, 2]".
def NpuDilation : Constraint<"npu_dilation",
    "dilation_h in [1, 2] && dilation_w in [1, 2]",
    "dilation must be in [1, 2] in both height and width">;
/// Vela: "Dilated kernel height must be in the range [1, 64]" and "Product
/// of dilated kernel width and height must be in the range [1, 4096]". The
/// filter is [out, kh, kw, in] (depthwise: [1, kh, kw, c]).
defvar DilatedH = "((input(1).dim(1) - 1) * dilation_h + 1)";
defvar DilatedW = "((input(1).dim(2) - 1) * dilation_w + 1)";
def NpuDilatedHeight : Constraint<"npu_dilated_height",
    DilatedH # " <= 64",
    "dilated kernel height must be at most 64">;
def NpuDilatedProduct : Constraint<"npu_dilated_product",
    !strconcat(DilatedH, " * ", DilatedW, " <= 4096"),
    "dilated kernel width x height must be at most 4096">;
/// Vela: "Weight tensor must be 8-bit" and "Weight tensor must be constant"
/// (weights are compressed and streamed from flash at compile time).
def NpuWeights : Constraint<"npu_weights",
    "input(1).is_constant && input(1).dtype in {i8, u8}",
    "weights must be constant and 8-bit",
    "the NPU streams compressed weights prepared at compile time">;
/// Vela: "Optional Bias tensor must be of type: int32, int64".
def NpuBias : Constraint<"npu_bias", "input(2).dtype in {i32, i64, none}",
    "the bias, if any, must be int32 or int64">;
/// Vela: "IFM Tensor batch size must be 1" (convolutions, pools).
def NpuBatch : Constraint<"npu_batch",
    "input(0).rank == 4 && input(0).dim(0) == 1",
    "input must be 4-D NHWC with batch size 1", "split the batch">;
/// Vela: "Tensor dimensions must be in the range [1, 65535]" (checked here
/// on the input's height, width and channels).
def NpuDims : Constraint<"npu_dims",
    "input(0).dim(1) in [1, 65535] && input(0).dim(2) in [1, 65535] && "
    "input(0).channels in [1, 65535]",
    "input height, width and channels must be in [1, 65535]">;
/// Vela: "The fused activation function (if present) must be one of type:
/// RELU, RELU6, RELU_N1_TO_1, SIGMOID, TANH" (SIGMOID is not a TFLite fused
/// activation; SIGN_BIT is rejected).
def NpuFusedActivation : Constraint<"npu_fused_activation",
    "fused_activation in {\"NONE\", \"RELU\", \"RELU6\", \"RELU_N1_TO_1\", "
    "\"TANH\"}",
    "the fused activation must be NONE, RELU, RELU6, RELU_N1_TO_1 or TANH">;
/// Vela: "Per-axis quantization is only supported for the following op
/// types: CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV".
def NpuPerTensorWeights : Constraint<"npu_per_tensor_weights",
    "!input(1).per_channel",
    "weights must be quantized per tensor (per-axis quantization is for "
    "convolutions only)">;
/// Vela: "Batch size must be 1 for Input tensors with more than 2
/// dimensions" (element-wise operators).
def NpuElementwiseBatch : Constraint<"npu_elementwise_batch",
    "(input(0).rank <= 2 || input(0).dim(0) == 1) && "
    "(input(1).rank <= 2 || input(1).dim(0) == 1)",
    "inputs of more than 2 dimensions must have batch size 1">;

defvar ConvChecks = [NpuBatch, NpuDims, NpuStride, NpuDilation,
                     NpuDilatedHeight, NpuDilatedProduct, NpuWeights, NpuBias,
                     NpuFusedActivation];

//===----------------------------------------------------------------------===//
// 3. Legality (int8 only)
//===----------------------------------------------------------------------===//

defvar Int8 = [i8];

def : Legal<Conv2D, NPU, U55, Int8, ConvChecks>;
def : Legal<DepthwiseConv2D, NPU, U55, Int8, !listconcat(ConvChecks, [
  // Vela: "For depth multipliers > 1, IFM channels must be 1 and OFM
  // channels must be equal to the depth multiplier".
  Constraint<"npu_depth_multiplier",
             "depth_multiplier == 1 || (input(0).channels == 1 && "
             "output(0).channels == depth_multiplier)",
             "a depth multiplier above 1 needs one input channel and as many "
             "output channels as the multiplier">,
])>;
def : Legal<FullyConnected, NPU, U55, Int8,
            [NpuWeights, NpuBias, NpuPerTensorWeights, NpuFusedActivation]>;

// Pools. Vela: "Kernel filter values for both width and height must be in
// the range [1, 8]" for an AVERAGE_POOL_2D with SAME padding; with VALID
// padding, and for MAX_POOL_2D, "Kernel filter height must be in the range
// [1, 256]" and "Product of kernel filter width and height must be in the
// range [1, 65536]".
def NpuPoolWindow : Constraint<"npu_pool_window",
    "filter_h in [1, 256] && filter_w >= 1 && filter_h * filter_w <= 65536",
    "the window height must be in [1, 256] and width x height at most 65536">;
def : Legal<AveragePool2D, NPU, U55, Int8, [
  NpuBatch, NpuDims, NpuStride, NpuFusedActivation, NpuPoolWindow,
  Constraint<"npu_avgpool_same_window",
             "padding != \"SAME\" || (filter_h in [1, 8] && "
             "filter_w in [1, 8])",
             "with SAME padding the window must be at most 8 x 8",
             "use VALID padding (an explicit PAD) for larger windows">,
]>;
def : Legal<MaxPool2D, NPU, U55, Int8,
            [NpuBatch, NpuDims, NpuStride, NpuFusedActivation, NpuPoolWindow]>;

// Element-wise arithmetic. Vela also requires broadcasting along dimensions
// of size 1 only, which every valid TFLite model satisfies.
def : Legal<Add, NPU, U55, Int8, [NpuElementwiseBatch, NpuFusedActivation]>;
def : Legal<Sub, NPU, U55, Int8, [NpuElementwiseBatch, NpuFusedActivation]>;
def : Legal<Mul, NPU, U55, Int8, [NpuElementwiseBatch, NpuFusedActivation]>;

// Activations (Vela's npu_post_ops: run as the output stage of an
// elementwise pass, LOGISTIC and TANH through a lookup table) and SOFTMAX
// (Vela's semantic checks: "Beta value needs to be positive").
foreach op = [Relu, Relu6, ReluN1To1, Logistic, Tanh] in
  def : Legal<op, NPU, U55, Int8>;
def : Legal<Softmax, NPU, U55, Int8, [
  Constraint<"npu_softmax_beta", "beta >= 0.0", "beta must not be negative">,
]>;

// Memory-only: Vela "Shape must be constant" for RESHAPE.
def : Legal<Reshape, NPU, U55, Int8, [
  Constraint<"npu_reshape_shape_constant",
             "num_inputs < 2 || input(1).dtype == none || input(1).is_constant",
             "the new shape must be constant">,
]>;

//===----------------------------------------------------------------------===//
// 4. The fused activation
//===----------------------------------------------------------------------===//

// The NPU applies an activation in the output stage of the pass that
// computes a convolution, so a RELU or RELU6 reading a convolution (that has
// no fused activation of its own) runs inside it; Vela fuses such
// activations into the preceding NPU operator. The intermediate result never
// leaves the NPU (section 6).
def NpuConvs : OpSet<"NPU_CONV", [Conv2D, DepthwiseConv2D],
                     [NpuConv2D, NpuDepthwiseConv2D]>;
def NpuRelus : OpSet<"NPU_RELU", [Relu, Relu6]>;
def NpuConvRelu : Pattern<NPU, (NpuRelus:$act (NpuConvs:$conv $x, $w, $b)),
                          (NpuConvs:$conv $x, $w, $b), [
  Constraint<"npu_conv_no_activation", "conv.fused_activation == \"NONE\"",
             "the convolution has no fused activation of its own">,
], 2>;

//===----------------------------------------------------------------------===//
// 5. Cost model
//===----------------------------------------------------------------------===//
//
// Assumptions, stated so they can be refined (Vela's own performance model
// is far more detailed: blocks, memory bandwidth, weight decoding):
//   - convolutions and FULLY_CONNECTED at the MAC array's peak, 128
//     MACs/cycle on U55, 256 on U65, at 8 bits;
//   - DEPTHWISE_CONV_2D at a quarter of it (one input channel per output
//     channel leaves most of the array's depth unused);
//   - pools one window element of 8 (U55) or 16 (U65) output elements per
//     cycle; element-wise operators and activations 8 (U55) or 16 (U65)
//     output elements per cycle; SOFTMAX, which Vela lowers to about twenty
//     element-wise and lookup passes, twenty times an element-wise pass;
//   - RESHAPE is a view and costs nothing;
//   - memory traffic is not priced; a switch costs SwitchCycles per
//     boundary tensor.

def : Cost<Conv2D, NPU, U55, "macs / 128.0">;
def : Cost<Conv2D, NPU, U65, "macs / 256.0">;
def : Cost<FullyConnected, NPU, U55, "macs / 128.0">;
def : Cost<FullyConnected, NPU, U65, "macs / 256.0">;
def : Cost<DepthwiseConv2D, NPU, U55, "macs / 32.0">;
def : Cost<DepthwiseConv2D, NPU, U65, "macs / 64.0">;
defvar PoolWork = "output(0).num_elements * filter_h * filter_w";
foreach op = [AveragePool2D, MaxPool2D] in {
  def : Cost<op, NPU, U55, PoolWork # " / 8.0">;
  def : Cost<op, NPU, U65, PoolWork # " / 16.0">;
}
foreach op = [Add, Sub, Mul, Relu, Relu6, ReluN1To1, Logistic, Tanh] in {
  def : Cost<op, NPU, U55, "output(0).num_elements / 8.0">;
  def : Cost<op, NPU, U65, "output(0).num_elements / 16.0">;
}
def : Cost<Softmax, NPU, U55, "output(0).num_elements * 20 / 8.0">;
def : Cost<Softmax, NPU, U65, "output(0).num_elements * 20 / 16.0">;
def : Cost<Reshape, NPU, U55, "0">;

//===----------------------------------------------------------------------===//
// 6. Device semantics
//===----------------------------------------------------------------------===//

// The NPU reads and writes feature maps as NHWC or as NHCWB16, bricks of 16
// channels (channels padded to 16 bytes). Vela stores a tensor produced and
// consumed on the NPU in NHCWB16 unless a user needs NHWC, so the brick
// layout is defined first (preferred).
def NpuBrick16 : Layout<"16C"> { let ChannelBytes = 16; }
def NpuNhwc : Layout<"NHWC">;

// Every operator reads and writes both formats.
def : DeviceLayout<NPU, U55, [], [NpuBrick16, NpuNhwc]>;
// Pools and element-wise operators work through the feature map one
// 16-channel brick at a time; they are held to the brick layout and compute
// on channels padded to 16.
defvar BrickOnly = [AveragePool2D, MaxPool2D, Add, Sub, Mul];
def : DeviceLayout<NPU, U55, BrickOnly, [NpuBrick16]>;
// RESHAPE is a view of the bytes: only an NHWC tensor can be reinterpreted
// with another shape, so Vela keeps reshaped tensors NHWC.
def : DeviceLayout<NPU, U55, [Reshape], [NpuNhwc]>;

// A fused activation is applied in the convolution's output stage: the
// convolution's raw result never leaves the NPU.
def : DeviceResidency<NPU, U55, [], FusedIntermediates>;
