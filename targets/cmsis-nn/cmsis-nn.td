//===- cmsis-nn.td - Arm Cortex-M through CMSIS-NN ------------------------===//
//
// "cmsis-nn" runs int8 operators, and int16 ones (16x8: int8 weights, int64
// biases), on an Arm Cortex-M as direct calls of CMSIS-NN's arm_* functions
// (CMSIS-NN 7.0, Include/arm_nnfunctions.h); every other operator runs on
// the portable reference kernels of target ref. Each
// target operator below is named after the CMSIS-NN function that computes
// it (or, accelgen_*, the kernel accelgen generates per layer instead), and
// the mappings choose among them as CMSIS-NN's own wrappers
// (arm_convolve_wrapper_s8, arm_depthwise_conv_wrapper_s8) do, but where a
// generated kernel is faster, so
// `accelgen explain --target cmsis-nn` names the function per operator and,
// for an operator it cannot run, the constraint that sends it back to the
// reference kernels.
//
// The versions are the CPU families CMSIS-NN builds for, oldest first, named
// after their first Cortex-M (labels cmsis-nn3, cmsis-nn4, cmsis-nn55;
// "cmsis-nn" is cmsis-nn55):
//   3   Cortex-M0/M0+/M3: the plain C paths;
//   4   Cortex-M4/M7/M33 (ARM_MATH_DSP): SIMD multiply-accumulate paths;
//   55  Cortex-M55/M85 (ARM_MATH_MVEI): Helium paths.
// The functions and their constraints are the same on all three; where the
// wrapper chooses differently (the 3x3 depthwise path exists outside MVE
// only), a mapping says so from its version on. The scratch buffer each
// function needs per family is a Scratch record below, following the
// *_get_buffer_size functions of the same release.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def CmsisM3 : Version<"3">;
def CmsisM4 : Version<"4">;
def CmsisM55 : Version<"55">;
def CmsisNn : Target<"cmsis-nn", [CmsisM3, CmsisM4, CmsisM55]> {
  let Description = "Arm Cortex-M through CMSIS-NN calls (arm_*), the "
                    "reference kernels for the rest";
  let Library = "CMSIS-NN";
  let Backend = CmsisNnCalls;
  let CpuFallback = "ref";
}

// The target operators: one per CMSIS-NN function.
// ConvAttrs and PoolAttrs are those of defs/ops.td.
defvar ConvOperands = [Input, Filter, OptionalBias];
def ArmConvolve1x1Fast : TargetOp<CmsisNn, "arm_convolve_1x1_s8_fast",
                                  ConvOperands, ConvAttrs>;
def ArmConvolve1x1 : TargetOp<CmsisNn, "arm_convolve_1x1_s8", ConvOperands,
                              ConvAttrs>;
def ArmConvolve1xN : TargetOp<CmsisNn, "arm_convolve_1_x_n_s8", ConvOperands,
                              ConvAttrs>;
def ArmConvolve : TargetOp<CmsisNn, "arm_convolve_s8", ConvOperands,
                           ConvAttrs>;
defvar DwAttrs = !listconcat(ConvAttrs, [DepthMultiplierAttr]);
def ArmDepthwise3x3 : TargetOp<CmsisNn, "arm_depthwise_conv_3x3_s8",
                               ConvOperands, DwAttrs>;
def ArmDepthwiseOpt : TargetOp<CmsisNn, "arm_depthwise_conv_s8_opt",
                               ConvOperands, DwAttrs>;
def ArmDepthwise : TargetOp<CmsisNn, "arm_depthwise_conv_s8", ConvOperands,
                            DwAttrs>;
def ArmFullyConnected : TargetOp<CmsisNn, "arm_fully_connected_s8",
                                 ConvOperands,
                                 [FusedActivationAttr, KeepNumDimsAttr]>;
def ArmAvgPool : TargetOp<CmsisNn, "arm_avgpool_s8", [Input], PoolAttrs>;
def ArmMaxPool : TargetOp<CmsisNn, "arm_max_pool_s8", [Input], PoolAttrs>;
def ArmSoftmax : TargetOp<CmsisNn, "arm_softmax_s8", [Input], [BetaAttr]>;
def ArmAdd : TargetOp<CmsisNn, "arm_elementwise_add_s8", [Input, Input2],
                      [FusedActivationAttr, PotScaleInt16Attr]>;
def ArmMul : TargetOp<CmsisNn, "arm_elementwise_mul_s8", [Input, Input2],
                      [FusedActivationAttr]>;
// A kernel accelgen generates per layer instead of calling CMSIS-NN
// (templates/cm_depthwise_dsp.c.in): the layer's shapes, weights and
// requantization compiled in, the multiply-accumulates by the DSP
// extension's SMLABB/SMLATT. Named after the function it is not in
// CMSIS-NN; the emitted function is named after the operator.
def CmDepthwiseDsp : TargetOp<CmsisNn, "accelgen_depthwise_conv_s8_dsp",
                              ConvOperands, DwAttrs>;
def CmConvolveDsp : TargetOp<CmsisNn, "accelgen_convolve_s8_dsp",
                             ConvOperands, ConvAttrs>;
def CmFullyConnectedDsp : TargetOp<CmsisNn, "accelgen_fully_connected_s8_dsp",
                                   ConvOperands,
                                   [FusedActivationAttr, KeepNumDimsAttr]>;
def CmAddDsp : TargetOp<CmsisNn, "accelgen_elementwise_add_s8_dsp",
                        [Input, Input2], [FusedActivationAttr, PotScaleInt16Attr]>;
// Kernels generated per layer for Helium (templates/cm_*_mve.c.in): the
// multiply-accumulates by MVE's VMLADAVA, the requantization four channels
// a vector.
def CmConvolveMve : TargetOp<CmsisNn, "accelgen_convolve_s8_mve",
                             ConvOperands, ConvAttrs>;
def CmDepthwiseMve : TargetOp<CmsisNn, "accelgen_depthwise_conv_s8_mve",
                              ConvOperands, DwAttrs>;
def CmFullyConnectedMve : TargetOp<CmsisNn, "accelgen_fully_connected_s8_mve",
                                   ConvOperands,
                                   [FusedActivationAttr, KeepNumDimsAttr]>;
def CmAddMve : TargetOp<CmsisNn, "accelgen_elementwise_add_s8_mve",
                        [Input, Input2], [FusedActivationAttr, PotScaleInt16Attr]>;
// What a cascade's tiles call for their int8 convolutions and depthwise
// convolutions: CMSIS-NN's wrappers, which pick their path per call from the
// tile's shapes and padding (the generated kernels compile the whole
// layer's in). No mapping chooses them; their Scratch below is the most any
// path they may take needs.
def ArmConvolveWrapper : TargetOp<CmsisNn, "arm_convolve_wrapper_s8",
                                  ConvOperands, ConvAttrs>;
def ArmDepthwiseWrapper : TargetOp<CmsisNn, "arm_depthwise_conv_wrapper_s8",
                                   ConvOperands, DwAttrs>;
// The int16 (16x8) functions.
def ArmConvolveS16 : TargetOp<CmsisNn, "arm_convolve_wrapper_s16",
                              ConvOperands, ConvAttrs>;
def ArmDepthwiseS16 : TargetOp<CmsisNn, "arm_depthwise_conv_wrapper_s16",
                               ConvOperands, DwAttrs>;
def ArmFullyConnectedS16 : TargetOp<CmsisNn, "arm_fully_connected_s16",
                                    ConvOperands,
                                    [FusedActivationAttr, KeepNumDimsAttr]>;
def ArmAvgPoolS16 : TargetOp<CmsisNn, "arm_avgpool_s16", [Input], PoolAttrs>;
def ArmMaxPoolS16 : TargetOp<CmsisNn, "arm_max_pool_s16", [Input], PoolAttrs>;
def ArmAddS16 : TargetOp<CmsisNn, "arm_elementwise_add_s16", [Input, Input2],
                         [FusedActivationAttr, PotScaleInt16Attr]>;
def ArmMulS16 : TargetOp<CmsisNn, "arm_elementwise_mul_s16", [Input, Input2],
                         [FusedActivationAttr]>;
// A 16x8 LSTM over a whole sequence (the operator's 24 operands).
def ArmLstmS16 : TargetOp<CmsisNn, "arm_lstm_unidirectional_s16", [Input],
                          [FusedActivationAttr, CellClipAttr, ProjClipAttr,
                           TimeMajorAttr, AsymQuantInputsAttr,
                           DiagonalRecurrentTensorsAttr]> {
  let Variadic = 1;
}
// An int8 SVDF step with int16 time weights and state.
def ArmSvdfS16 : TargetOp<CmsisNn, "arm_svdf_state_s16_s8",
                          [Input, Operand<"weights_feature">,
                           Operand<"weights_time">, OptionalBias,
                           Operand<"activation_state">],
                          [RankAttr, FusedActivationAttr]>;

// What every CMSIS-NN s8 and s16 function takes (arm_nnfunctions.h): NHWC
// int8 activations with int32 biases, or int16 ones with int64 biases;
// constant int8 weights.
def Nhwc : Constraint<"cmsis_nhwc", "input(0).rank == 4 && output(0).rank == 4",
                      "input and output must be 4-D (NHWC)">;
def FilterConstant : Constraint<"cmsis_filter_constant",
    "input(1).is_constant && input(1).dtype == i8",
    "weights must be constant int8">;
def BiasType : Constraint<"cmsis_bias_type",
    "(input(2).dtype in {none, i32} && input(0).dtype == i8) || "
    "(input(2).dtype in {none, i64} && input(0).dtype == i16)",
    "biases must be int32 under int8 activations, int64 under int16 ones (or "
    "absent)">;
def OutSameType : Constraint<"cmsis_out_type", "output(0).dtype == input(0).dtype",
                       "the result must have the input's type (the s8 and "
                       "s16 functions)">;
def NoTanhAct : Constraint<"cmsis_activation",
    "fused_activation in {\"NONE\", \"RELU\", \"RELU6\", \"RELU_N1_TO_1\"}",
    "the fused activation must be a clamp (cmsis_nn_activation)">;
// arm_convolve_s8 reads input_dims->c == filter_dims->c; grouped convolutions
// have no s8 path.
def ConvNotGrouped : Constraint<"cmsis_conv_groups",
    "input(1).dim(3) == input(0).channels",
    "the filter must cover every input channel (CMSIS-NN has no grouped s8 "
    "convolution)">;
def PerChannelWeights : Constraint<"cmsis_conv_per_channel",
    "input(1).zero_point == 0",
    "weights must be symmetric (cmsis_nn_per_channel_quant_params has no "
    "filter offset)">;

def : Legal<Conv2D, CmsisNn, CmsisM3, [i8, i16],
            [Nhwc, FilterConstant, BiasType, OutSameType, NoTanhAct, ConvNotGrouped,
             PerChannelWeights]>;
def : Legal<DepthwiseConv2D, CmsisNn, CmsisM3, [i8, i16],
            [Nhwc, FilterConstant, BiasType, OutSameType, NoTanhAct,
             PerChannelWeights,
             Constraint<"cmsis_dw_channels",
                 "output(0).channels == input(0).channels * depth_multiplier",
                 "output channels must be input channels x depth "
                 "multiplier (ch_mult * in_ch = out_ch)">]>;
// arm_fully_connected_s8 takes one multiplier and shift
// (cmsis_nn_per_tensor_quant_params).
def : Legal<FullyConnected, CmsisNn, CmsisM3, [i8, i16],
            [FilterConstant, BiasType, OutSameType, NoTanhAct,
             Constraint<"cmsis_fc_per_tensor", "!input(1).per_channel",
                 "weights must be quantized per tensor "
                 "(cmsis_nn_per_tensor_quant_params)">,
             Constraint<"cmsis_fc_filter_2d", "input(1).rank == 2",
                 "weights must be 2-D [units, depth]">]>;
def : Legal<AveragePool2D, CmsisNn, CmsisM3, [i8, i16], [Nhwc, OutSameType, NoTanhAct,
            Constraint<"cmsis_pool_batch", "input(0).dim(0) == 1",
                "the batch must be 1 (cmsis_nn_dims n is not walked)">]>;
def : Legal<MaxPool2D, CmsisNn, CmsisM3, [i8, i16], [Nhwc, OutSameType, NoTanhAct,
            Constraint<"cmsis_pool_batch", "input(0).dim(0) == 1",
                "the batch must be 1 (cmsis_nn_dims n is not walked)">]>;
// arm_softmax_s8 writes int8 with TensorFlow Lite's fixed output
// quantization (scale 1/256, zero point -128).
// (int16 SOFTMAX runs on the reference kernel: arm_softmax_s16 narrows the
// normalised sum to int16 without saturating it, where TensorFlow Lite
// Micro's reference saturates, which a row summing just below a power of two
// reaches.)
def : Legal<Softmax, CmsisNn, CmsisM3, [i8], [OutSameType,
            Constraint<"cmsis_softmax_output",
                "output(0).zero_point == -128 && "
                "output(0).scale == 0.00390625",
                "the result must have scale 1/256 and zero point -128">]>;
// The element-wise functions walk one block of block_size elements: no
// broadcasting.
def SameElements : Constraint<"cmsis_no_broadcast",
    "input(0).num_elements == output(0).num_elements && "
    "input(1).num_elements == output(0).num_elements",
    "both inputs must have the result's shape (arm_elementwise_*_s8 do not "
    "broadcast)">;
def : Legal<Add, CmsisNn, CmsisM3, [i8, i16], [OutSameType, NoTanhAct, SameElements]>;
def : Legal<Mul, CmsisNn, CmsisM3, [i8, i16], [OutSameType, NoTanhAct, SameElements]>;

// Which function runs each operator: of the mappings that hold, from
// family 4 on the cheapest by the costs at the end of this file where each
// has one, otherwise (and in family 3, which states none) the one of
// highest benefit: the generated kernels, then the wrappers' own order.
// The s8 functions take int8 activations only (int16 ones take the s16
// functions, below).
def IsInt8 : Constraint<"cmsis_int8", "input(0).dtype == i8",
                        "int8 activations">;
// arm_nn_is_convolve_1x1: no padding, a 1 x 1 filter, no dilation.
def Is1x1 : Constraint<"cmsis_1x1",
    "input(1).dim(1) == 1 && input(1).dim(2) == 1 && dilation_h == 1 && "
    "dilation_w == 1",
    "a 1 x 1 filter without dilation (no padding)">;
def UnitStrides : Constraint<"cmsis_1x1_fast", "stride_h == 1 && stride_w == 1",
                            "unit strides (arm_nn_is_convolve_1x1_fast)">;
// The general paths where a faster one does the same work: with unit
// strides arm_convolve_1x1_s8_fast runs a 1 x 1 filter in 0.59-1.0 of
// arm_convolve_1x1_s8's instructions (the peer models' 31 such layers on
// Cortex-M4 and M55, bench/cortex-m-layers.sh), and arm_convolve_s8 would
// copy each pixel into an im2col column first. Stated so that the costs
// below choose only among paths CMSIS-NN's wrapper would take.
def Strided1x1 : Constraint<"cmsis_1x1_strided",
    "stride_h != 1 || stride_w != 1",
    "strides above 1 (unit strides take arm_convolve_1x1_s8_fast)">;
def NotIs1x1 : Constraint<"cmsis_not_1x1",
    "input(1).dim(1) != 1 || input(1).dim(2) != 1 || dilation_h != 1 || "
    "dilation_w != 1",
    "not a 1 x 1 filter without dilation (which takes a 1 x 1 path)">;
// arm_nn_is_convolve_1_x_n: one input row, a 1 x N filter, no horizontal
// dilation, stride_w * input channels a multiple of 4.
def Cmsis1xN : Constraint<"cmsis_1_x_n",
    "input(0).dim(1) == 1 && input(1).dim(1) == 1 && dilation_w == 1 && "
    "(stride_w * input(0).channels) % 4 == 0",
    "one input row, a 1 x N filter, stride_w x channels a multiple of 4">;
// The generated kernels fold the bias into their constants at compile
// time: a bias computed at run time keeps CMSIS-NN's function.
def CmConstantBias : Constraint<"cm_constant_bias",
    "input(2).dtype == none || input(2).is_constant",
    "a constant bias (folded into the kernel's constants)">;
def : Mapping<Conv2D, ArmConvolve1x1Fast, CmsisNn,
            [IsInt8, Is1x1, UnitStrides], 4>;
// An int8 convolution of output channels in twos may take the generated
// im2col kernel: on Cortex-M4 the convolutions of the shared models run in
// 0.55-0.84 of the instructions of arm_convolve_s8,
// arm_convolve_1x1_s8_fast and arm_convolve_1x1_s8
// (bench/cortex-m-layers.sh), and the costs below choose it there. On
// Cortex-M55 they choose among it, the generated Helium kernel below and
// CMSIS-NN's Helium paths. On family 3, which states no costs, it is the
// first choice: there it is plain C (byte columns, a 1 x 1 filter's pixels
// read in place, a byte load and an MLA per value and weight), in
// 0.38-0.77 of the instructions of CMSIS-NN's plain C paths on every
// convolution of the peer models and the single layers measured on
// Cortex-M3 (bench/cortex-m-layers.sh).
def : Mapping<Conv2D, CmConvolveDsp, CmsisNn, [
    Constraint<"cm_conv_channels",
        "input(0).dtype == i8 && output(0).channels % 2 == 0",
        "int8, output channels a multiple of 2">, CmConstantBias], 5>;
// With Helium, an int8 convolution of output channels in fours may take the
// generated Helium kernel (its column's dot products sixteen values a
// VMLADAVA, four output channels requantized in one vector), which the
// costs choose over CMSIS-NN's functions on the shared models: on
// Cortex-M55 their 1 x 1 convolutions run at 0.23-0.33 instructions per MAC
// (arm_convolve_1x1_s8_fast 0.40), ResNet-8's 3 x 3 ones at 0.18-0.23
// (arm_convolve_s8 0.21-0.40) and its first, of 3 input channels, at 0.56
// (1.42; bench/cortex-m-layers.sh).
def : Mapping<Conv2D, CmConvolveMve, CmsisNn, [
    Constraint<"cm_conv_channels4",
        "input(0).dtype == i8 && output(0).channels % 4 == 0",
        "int8, output channels a multiple of 4">, CmConstantBias], 11> {
  let Since = CmsisM55;
}
def : Mapping<Conv2D, ArmConvolve1x1Fast, CmsisNn,
            [IsInt8, Is1x1, UnitStrides], 10> {
  let Since = CmsisM55;
}
def : Mapping<Conv2D, ArmConvolve1x1, CmsisNn, [IsInt8, Is1x1, Strided1x1],
            9> {
  let Since = CmsisM55;
}
def : Mapping<Conv2D, ArmConvolve1xN, CmsisNn, [IsInt8, Cmsis1xN], 8> {
  let Since = CmsisM55;
}
def : Mapping<Conv2D, ArmConvolve, CmsisNn, [IsInt8, NotIs1x1], 7> {
  let Since = CmsisM55;
}
// A 1 x 1 filter never pads: SAME gives ceil(in / stride) outputs, and
// (out - 1) * stride + 1 <= in.
def : Mapping<Conv2D, ArmConvolve1x1, CmsisNn, [IsInt8, Is1x1, Strided1x1],
            3>;
def : Mapping<Conv2D, ArmConvolve1xN, CmsisNn, [IsInt8, Cmsis1xN], 2>;
def : Mapping<Conv2D, ArmConvolve, CmsisNn, [IsInt8, NotIs1x1]>;

// arm_depthwise_conv_wrapper_s8: depth multiplier 1, batch 1 and no
// dilation take the optimized paths; outside MVE a 3 x 3 filter (padding at
// most 1, which SAME gives a 3 x 3 filter) takes arm_depthwise_conv_3x3_s8.
def DwOpt : Constraint<"cmsis_dw_opt",
    "depth_multiplier == 1 && input(0).dim(0) == 1 && dilation_h == 1 && "
    "dilation_w == 1",
    "depth multiplier 1, batch 1, no dilation">;
// With Helium, a depthwise convolution of one input channel to several is a
// convolution (arm_depthwise_conv_to_conv_s8); its filter, [1, KH, KW, OC],
// is [OC, KH, KW, 1] transposed, which the emitted code holds in flash
// instead of transposing it at run time.
def : Mapping<DepthwiseConv2D, ArmConvolve, CmsisNn, [IsInt8,
    Constraint<"cmsis_dw_one_input_channel",
        "input(0).channels == 1 && output(0).channels > 1",
        "one input channel, several output channels">], 5> {
  let Since = CmsisM55;
}
def : Mapping<DepthwiseConv2D, ArmDepthwise3x3, CmsisNn, [IsInt8, DwOpt,
    Constraint<"cmsis_dw_3x3", "input(1).dim(1) == 3 && input(1).dim(2) == 3",
               "a 3 x 3 filter">], 3>;
// An int8 depthwise convolution of channels in fours may take the
// generated kernel on every family: on Cortex-M4 its layers of the shared
// models (3 x 3, strides 1 and 2) run in 0.49-0.84 of the instructions of
// arm_depthwise_conv_3x3_s8 (bench/cortex-m-layers.sh). On family 3,
// without the DSP extension, it is plain C (byte weights, a byte load and
// an MLA per tap and channel) and ahead of CMSIS-NN's plain C paths on
// Cortex-M3 (bench/RESULTS.md). On Cortex-M55 the costs below choose
// between it, the generated Helium kernel and arm_depthwise_conv_s8_opt.
def CmDwInt8Channels4 : Constraint<"cm_dw_int8_channels4",
    "input(0).dtype == i8 && output(0).channels % 4 == 0",
    "int8, output channels a multiple of 4">;
def : Mapping<DepthwiseConv2D, CmDepthwiseDsp, CmsisNn, [DwOpt,
    CmDwInt8Channels4, CmConstantBias], 6>;
// One input channel to several outputs, as the first layers of
// micro_speech and person_detect: the same kernel pairs the taps of a row
// (SMLAD), in 0.31-0.32 of arm_depthwise_conv_s8's instructions on
// Cortex-M4 and 0.47-0.55 of arm_convolve_s8's on Cortex-M55 there
// (bench/cortex-m-layers.sh); in plain C on family 3 one byte of input
// serves the four channels of a group.
def CmDwOneInputChannel : Constraint<"cm_dw_one_input_channel",
    "input(0).channels == 1 && output(0).channels > 1 && "
    "input(0).dim(0) == 1 && dilation_h == 1 && dilation_w == 1",
    "one input channel, several output channels, batch 1, no dilation">;
def : Mapping<DepthwiseConv2D, CmDepthwiseDsp, CmsisNn, [
    CmDwOneInputChannel, CmDwInt8Channels4, CmConstantBias], 6>;
// With Helium, such a layer runs as the convolution it is (its filter
// transposed at compile time) on the generated Helium kernel: on Cortex-M55
// person_detect's first layer in 0.75 of the DSP kernel's instructions,
// micro_speech's in 0.65 (bench/cortex-m-layers.sh).
def : Mapping<DepthwiseConv2D, CmConvolveMve, CmsisNn, [
    CmDwOneInputChannel, CmDwInt8Channels4, CmConstantBias], 10> {
  let Since = CmsisM55;
}
def : Mapping<DepthwiseConv2D, ArmDepthwiseOpt, CmsisNn, [IsInt8, DwOpt], 7> {
  let Since = CmsisM55;
}
// With Helium, a depthwise convolution of channels in eights may take the
// generated Helium kernel (eight channels' taps two vectors of products,
// VMULLB and VMULLT), which the costs choose over the kernels above on the
// shared models: on Cortex-M55 their depthwise layers run at 1.3-1.5
// instructions per MAC (arm_depthwise_conv_s8_opt 2.3-2.6,
// bench/cortex-m-layers.sh).
def : Mapping<DepthwiseConv2D, CmDepthwiseMve, CmsisNn, [DwOpt,
    Constraint<"cm_dw_int8_channels8",
        "input(0).dtype == i8 && output(0).channels % 8 == 0",
        "int8, output channels a multiple of 8">, CmConstantBias], 9> {
  let Since = CmsisM55;
}
def : Mapping<DepthwiseConv2D, ArmDepthwiseOpt, CmsisNn, [IsInt8, DwOpt], 2>;
def : Mapping<DepthwiseConv2D, ArmDepthwise, CmsisNn, [IsInt8]>;

def : Mapping<FullyConnected, ArmFullyConnected, CmsisNn, [IsInt8]>;
// An int8 fully connected layer may take the generated kernel (four
// weight rows at a time; ad_autoencoder's layers on Cortex-M4,
// bench/cortex-m-layers.sh); on Cortex-M55 the costs choose among it,
// arm_fully_connected_s8 and the Helium kernel below; on family 3 it is
// the first choice, in plain C as the convolution: 0.32-0.76 of
// arm_fully_connected_s8's instructions on Cortex-M3.
def : Mapping<FullyConnected, CmFullyConnectedDsp, CmsisNn, [
    Constraint<"cm_fc_int8", "input(0).dtype == i8", "int8">,
    CmConstantBias], 2>;
def : Mapping<FullyConnected, ArmFullyConnected, CmsisNn, [IsInt8], 3> {
  let Since = CmsisM55;
}
// With Helium, an int8 fully connected layer of units in fours may take the
// generated Helium convolution's kernel, its rows 1 x 1 images:
// ad_autoencoder's layers at 0.18 instructions per MAC on Cortex-M55
// (arm_fully_connected_s8 0.56, bench/cortex-m-layers.sh).
def : Mapping<FullyConnected, CmFullyConnectedMve, CmsisNn, [
    Constraint<"cm_fc_int8_units4",
        "input(0).dtype == i8 && input(1).dim(0) % 4 == 0",
        "int8, units a multiple of 4">, CmConstantBias], 4> {
  let Since = CmsisM55;
}
def : Mapping<AveragePool2D, ArmAvgPool, CmsisNn, [IsInt8]>;
def : Mapping<MaxPool2D, ArmMaxPool, CmsisNn, [IsInt8]>;
def : Mapping<Softmax, ArmSoftmax, CmsisNn, [IsInt8]>;
def : Mapping<Add, ArmAdd, CmsisNn, [IsInt8]>;
// An int8 ADD may take the generated kernel (its offsets, multipliers and
// shifts compiled in) on every family: ResNet-8's additions in 0.26 of
// arm_elementwise_add_s8's instructions on Cortex-M4, in plain C on
// Cortex-M3 in 0.37-0.38 (bench/cortex-m-layers.sh); on Cortex-M55 the
// costs choose between it, the Helium kernel below and the call.
def : Mapping<Add, CmAddDsp, CmsisNn, [
    Constraint<"cm_add_int8", "input(0).dtype == i8", "int8">], 2>;
def : Mapping<Add, ArmAdd, CmsisNn, [IsInt8], 3> {
  let Since = CmsisM55;
}
// With Helium, an int8 ADD may take the generated Helium kernel (its
// constants compiled in, four elements a step): ResNet-8's additions in
// 0.40 of arm_elementwise_add_s8's instructions on Cortex-M55
// (bench/cortex-m-layers.sh).
def : Mapping<Add, CmAddMve, CmsisNn, [
    Constraint<"cm_add_int8", "input(0).dtype == i8", "int8">], 4> {
  let Since = CmsisM55;
}
def : Mapping<Mul, ArmMul, CmsisNn, [IsInt8]>;

// arm_svdf_state_s16_s8: int8 input and output, constant int8 feature and
// int16 time weights, an int32 bias or none, the int16 state (zero point 0,
// as every int16 tensor). Its shapes are the operator's own: input [batches,
// input size], feature weights [filters, input size], time weights
// [filters, memory], state [batches, filters * memory].
def : Legal<Svdf, CmsisNn, CmsisM3, [i8], [
    Constraint<"cmsis_svdf_weights",
        "input(1).is_constant && input(1).dtype == i8 && "
        "input(2).is_constant && input(2).dtype == i16",
        "weights must be constant: int8 feature weights, int16 time weights">,
    Constraint<"cmsis_svdf_bias", "input(3).dtype in {none, i32}",
               "the bias must be int32 (or absent)">,
    Constraint<"cmsis_svdf_state", "input(4).dtype == i16",
               "the state must be int16 (arm_svdf_state_s16_s8)">,
    Constraint<"cmsis_svdf_shapes",
        "input(0).rank == 2 && input(1).rank == 2 && input(2).rank == 2 && "
        "output(0).dtype == i8",
        "input and weights must be 2-D, the output int8">]>;
def : Mapping<Svdf, ArmSvdfS16, CmsisNn>;

// arm_lstm_unidirectional_s16 clamps the cell state to +-cell_clip; without
// a clip the reference saturates it to [-32768, 32767], which no clip value
// reproduces (32767 loses -32768, 32768 wraps). Its gates add the recurrent
// product to the input one before clamping them to int16, where the
// reference clamps each first; CmsisNn.cpp sends a layer whose products
// could differ so to the reference kernel, with its reason.
def : Legal<UnidirectionalSequenceLSTM, CmsisNn, CmsisM3, [i16], [
    Constraint<"cmsis_lstm_cell_clip", "cell_clip > 0",
        "the cell state must be clipped (arm_lstm_unidirectional_s16 clamps "
        "it to +-cell_clip; the reference saturates an unclipped one to "
        "[-32768, 32767])">]>;
def : Mapping<UnidirectionalSequenceLSTM, ArmLstmS16, CmsisNn>;

// int16 activations take the s16 functions, before every s8 choice. Their
// convolutions and fully connected layers accumulate in int32 before adding
// the int64 bias (where TensorFlow Lite Micro's reference accumulates in
// int64): a layer whose weights could take that sum out of int32 (per
// output channel, the absolute weights' sum times 2^15 reaches 2^31) runs on
// the reference kernel instead, with that reason (CmsisNn.cpp).
def IsInt16 : Constraint<"cmsis_int16", "input(0).dtype == i16",
                         "int16 activations">;
def : Mapping<Conv2D, ArmConvolveS16, CmsisNn, [IsInt16], 20>;
def : Mapping<DepthwiseConv2D, ArmDepthwiseS16, CmsisNn, [IsInt16], 20>;
def : Mapping<FullyConnected, ArmFullyConnectedS16, CmsisNn, [IsInt16], 20>;
def : Mapping<AveragePool2D, ArmAvgPoolS16, CmsisNn, [IsInt16], 20>;
def : Mapping<MaxPool2D, ArmMaxPoolS16, CmsisNn, [IsInt16], 20>;
def : Mapping<Add, ArmAddS16, CmsisNn, [IsInt16], 20>;
def : Mapping<Mul, ArmMulS16, CmsisNn, [IsInt16], 20>;

// The scratch buffer of each function, as the *_get_buffer_size functions
// of CMSIS-NN 7.0 compute it (arm_convolve_get_buffer_sizes_s8.c,
// arm_depthwise_conv_get_buffer_sizes_s8.c,
// arm_avgpool_get_buffer_sizes_s8.c). The plain C and DSP formula holds from
// Cortex-M3 on: the host and Cortex-M3 builds run the plain C paths, which
// need no more. For the 55 family the size is the larger of it and the
// Helium formula, so one image also runs the other paths. Operators without
// a Scratch need none.
defvar InC = "input(0).channels";
defvar Taps = "input(1).dim(1) * input(1).dim(2)";
defvar ConvCols = !strconcat(Taps, " * ", InC);
// arm_convolve_s8_get_buffer_size: two int16 im2col columns, the column
// length rounded up to a multiple of 4.
defvar ConvDsp = !strconcat("2 * align(", ConvCols, ", 4) * 2");
// arm_convolve_s8_get_buffer_size_mve: four columns of whole 16-byte lanes.
defvar ConvMve = !strconcat("4 * align(", ConvCols, ", 16)");
// The generated depthwise kernel: the KH input rows of one output row,
// padded to the width its windows span (with one input channel, 3 bytes
// more: the last word of a row's taps reads past it).
def : Scratch<CmDepthwiseDsp, CmsisNn, CmsisM3,
              "input(1).dim(1) * ((output(0).dim(2) - 1) * stride_w + "
              "input(1).dim(2)) * input(0).channels + "
              "select(input(0).channels == 1, 3, 0)">;
// The generated Helium depthwise kernel: the KH input rows of one output
// row, padded to the width its windows span.
def : Scratch<CmDepthwiseMve, CmsisNn, CmsisM55,
              "input(1).dim(1) * ((output(0).dim(2) - 1) * stride_w + "
              "input(1).dim(2)) * input(0).channels">;
def : Scratch<ArmConvolve, CmsisNn, CmsisM3, ConvDsp>;
// The generated convolution: in plain C two columns of bytes, none for a
// 1 x 1 filter over input channels in fours (its columns are the input
// pixels, whole words); with the DSP extension two int16 columns, as
// arm_convolve_s8's.
def : Scratch<CmConvolveDsp, CmsisNn, CmsisM3,
              !strconcat("select(", Taps, " == 1 && ", InC,
                         " % 4 == 0, 0, 2 * align(", ConvCols, ", 4))")>;
def : Scratch<CmConvolveDsp, CmsisNn, CmsisM4, ConvDsp>;
def : Scratch<ArmConvolve, CmsisNn, CmsisM55,
              !strconcat("max(", ConvDsp, ", ", ConvMve, ")")>;
// The generated Helium convolution: one column of whole 16-byte lanes,
// none for a 1 x 1 filter (its column is the input pixel).
def : Scratch<CmConvolveMve, CmsisNn, CmsisM55,
              !strconcat("select(", Taps, " == 1, 0, align(", ConvCols,
                         ", 16))")>;

// arm_convolve_1_x_n_s8_get_buffer_size_mve: when the output columns split
// into those with right padding, those with left padding and the rest, one
// input row with its padding; otherwise what arm_convolve_s8 needs. The
// padding is TensorFlow Lite's (SAME: half the total, rounded down; VALID:
// none), the total padding as CMSIS-NN computes it (negative for a VALID
// window that leaves input columns unread).
defvar KX = "input(1).dim(2)";
defvar OutX = "output(0).dim(2)";
defvar TotalPad = !strconcat("((", OutX, " - 1) * stride_w + ", KX,
                             " - input(0).dim(2))");
defvar PadX = !strconcat("(max(", TotalPad, ", 0) / 2)");
defvar AsymPad = !strconcat("(", TotalPad, " % 2)");
defvar RightPads = !strconcat("select(", PadX, " + ", AsymPad,
                              " != 0, max(1, (", PadX, " + ", AsymPad,
                              " + stride_w - 1) / stride_w), 0)");
defvar LeftPads = !strconcat("select(", PadX, " != 0, max(1, (", PadX,
                             " + stride_w - 1) / stride_w), 0)");
defvar Row1xN = !strconcat("max(", KX, " * ", InC, " + ", PadX, " * ", InC,
                           ", (", KX, " - 1) * ", InC, " + select(", AsymPad,
                           " != 0, ", RightPads, " * ", InC, ", ", PadX,
                           " * ", InC, "))");
def : Scratch<ArmConvolve1xN, CmsisNn, CmsisM3, ConvDsp>;
def : Scratch<ArmConvolve1xN, CmsisNn, CmsisM55,
              !strconcat("max(", ConvDsp, ", select(", RightPads, " + ",
                         LeftPads, " <= ", OutX, ", ", Row1xN, ", ", ConvMve,
                         "))")>;

// arm_convolve_1x1_s8_fast_get_buffer_size_dsp: two int16 rows (Arm
// Compiler 6's path; gcc's needs none, the buffer is kept for it).
def : Scratch<ArmConvolve1x1Fast, CmsisNn, CmsisM3,
              !strconcat("2 * ", InC, " * 2")>;

// arm_depthwise_conv_s8_opt_get_buffer_size: an int16 im2col of every tap
// and channel; _mve: four blocks of CH_IN_BLOCK_MVE (124) channels' taps.
defvar DwDsp = !strconcat(InC, " * ", Taps, " * 2");
def : Scratch<ArmDepthwiseOpt, CmsisNn, CmsisM3, DwDsp>;
def : Scratch<ArmDepthwiseOpt, CmsisNn, CmsisM55,
              !strconcat("max(", DwDsp, ", 4 * 124 * ", Taps, ")")>;

// The wrappers in tiles: the largest of their paths' sizes at any tile (the
// 1 x 1 fast path's, arm_convolve_s8's, and for the 1 x N one's row, whose
// padding depends on the tile's columns, twice the filter's row; the
// depthwise _opt path's, the others need none).
def : Scratch<ArmConvolveWrapper, CmsisNn, CmsisM3,
              !strconcat("max(", ConvDsp, ", 2 * ", InC, " * 2)")>;
def : Scratch<ArmConvolveWrapper, CmsisNn, CmsisM55,
              !strconcat("max(max(", ConvDsp, ", 2 * ", InC, " * 2), max(",
                         ConvMve, ", 2 * ", KX, " * ", InC, "))")>;
def : Scratch<ArmDepthwiseWrapper, CmsisNn, CmsisM3, DwDsp>;
def : Scratch<ArmDepthwiseWrapper, CmsisNn, CmsisM55,
              !strconcat("max(", DwDsp, ", 4 * 124 * ", Taps, ")")>;

// arm_avgpool_s8_get_buffer_size: an int32 sum per channel.
def : Scratch<ArmAvgPool, CmsisNn, CmsisM3, !strconcat(InC, " * 4")>;

// arm_convolve_s16_get_buffer_size: two int16 im2col columns; _mve: four
// columns of whole 8-lane int16 vectors.
defvar Conv16Dsp = !strconcat("2 * ", ConvCols, " * 2");
def : Scratch<ArmConvolveS16, CmsisNn, CmsisM3, Conv16Dsp>;
def : Scratch<ArmConvolveS16, CmsisNn, CmsisM55,
              !strconcat("max(", Conv16Dsp, ", 4 * align(", ConvCols,
                         ", 8) * 2)")>;
// arm_depthwise_conv_wrapper_s16_get_buffer_size: with depth multiplier 1,
// no dilation and fewer than 512 taps the fast path's int16 im2col of every
// tap and channel (_mve: four of them, and 8 bytes read past the end);
// otherwise none.
defvar Dw16Fast = !strconcat("depth_multiplier == 1 && dilation_h == 1 && ",
                             "dilation_w == 1 && ", Taps, " < 512");
defvar Dw16Dsp = !strconcat(InC, " * ", Taps, " * 2");
def : Scratch<ArmDepthwiseS16, CmsisNn, CmsisM3,
              !strconcat("select(", Dw16Fast, ", ", Dw16Dsp, ", 0)")>;
def : Scratch<ArmDepthwiseS16, CmsisNn, CmsisM55,
              !strconcat("select(", Dw16Fast, ", 4 * ", Dw16Dsp, " + 8, 0)")>;
// arm_avgpool_s16_get_buffer_size_dsp: an int32 sum per channel (none on
// Helium).
def : Scratch<ArmAvgPoolS16, CmsisNn, CmsisM3, !strconcat(InC, " * 4")>;
// arm_svdf_state_s16_s8 takes two int32 buffers: a time dot product per
// batch and filter, then a sum per batch and unit (filters / rank); the call
// splits one area between them.
// arm_lstm_unidirectional_s16: two int16 vectors of the gates' values, a
// batch's (batch major) or a step's batches (time major) each.
def : Scratch<ArmLstmS16, CmsisNn, CmsisM3,
              "input(18).dim(0) * input(18).dim(1) * 2 * 2">;
def : Scratch<ArmSvdfS16, CmsisNn, CmsisM3,
              "input(0).dim(0) * (input(1).dim(0) + input(1).dim(0) / "
              "max(rank, 1)) * 4">;

// What each function costs: the instructions QEMU counts for one call
// (bench/cortex-m-layers.sh), on Cortex-M4 for family 4 and Cortex-M55 for
// family 55, fitted to 635 calls: the layers of the six peer models
// (../shared/peers/tflm-cmsis-nn-cortex-m.md), hello_world and 13 single
// layers of other shapes (bench/CostShapes.cpp), each run with the mappings
// above and in variants of them that make other functions run the same
// layers (without the generated kernels' mappings; without
// arm_convolve_1x1_s8_fast; with arm_depthwise_conv_s8_opt and
// arm_depthwise_conv_3x3_s8 swapped; on Cortex-M55 without the Helium
// mappings, so the DSP kernels). Least squares of the relative error over
// non-negative terms: half the calls within 3% of their estimate, 90%
// within 10%, all within 28%. Where more than one function ran the same
// layer (210 layers), the cheapest by these costs was the one measured
// fastest on all but one, where the two were within 1%. Where every
// function a layer may call has a cost, the cheapest runs it
// (TargetInfo::chooseOperation; the mappings' benefit breaks ties). Family
// 3 states none: its layers take the mappings' order, the generated
// kernels first (in plain C, faster than CMSIS-NN's plain C paths on every
// layer measured there), then CMSIS-NN's wrappers' order.
// The terms: the multiply-accumulates, Helium's 16-lane dot products (a
// column rounded up to 16 values per output), outputs, output pixels, and
// the im2col column's loads (none for a 1 x 1 filter, read in place) in
// words or in 16-byte vectors.
defvar Outputs = "output(0).num_elements";
defvar Pixels = "(output(0).num_elements / output(0).channels)";
defvar ConvMacs = !strconcat(Outputs, " * ", ConvCols);
defvar ConvLanes = !strconcat(Outputs, " * ((", ConvCols, " + 15) / 16)");
defvar ConvIm2col4 = !strconcat("select(", Taps, " == 1, 0, ", Pixels, " * ",
                                Taps, " * ((", InC, " + 3) / 4))");
defvar ConvIm2col16 = !strconcat("select(", Taps, " == 1, 0, ", Pixels,
                                 " * ", Taps, " * ((", InC, " + 15) / 16))");
defvar DwMacs = !strconcat(Outputs, " * ", Taps);
defvar FcMacs = !strconcat(Outputs, " * input(1).dim(1)");
defvar FcLanes = !strconcat(Outputs, " * ((input(1).dim(1) + 15) / 16)");
// One cost per form: the coefficients of its terms, in instructions; the
// terms of coefficient 0 are left out.
class Term<string coeff, string expr> {
  string T = !if(!eq(coeff, "0"), "0", !strconcat(coeff, " * ", expr));
}
class CmCost<TargetOp op, Version since, list<string> terms>
    : Cost<op, CmsisNn, since, !interleave(!filter(t, terms, !ne(t, "0")),
                                           " + ")>;
class ConvCost<TargetOp op, Version since, string macs, string outputs,
               string pixels, string im2col, string once>
    : CmCost<op, since, [Term<macs, ConvMacs>.T, Term<outputs, Outputs>.T,
                         Term<pixels, Pixels>.T, Term<im2col, ConvIm2col4>.T,
                         once]>;
class ConvCostMve<TargetOp op, Version since, string lanes, string outputs,
                  string pixels, string im2col, string once>
    : CmCost<op, since, [Term<lanes, ConvLanes>.T, Term<outputs, Outputs>.T,
                         Term<pixels, Pixels>.T, Term<im2col, ConvIm2col16>.T,
                         once]>;
class DwCost<TargetOp op, Version since, string macs, string outputs,
             string pixels, string once>
    : CmCost<op, since, [Term<macs, DwMacs>.T, Term<outputs, Outputs>.T,
                         Term<pixels, Pixels>.T, once]>;
class FcCost<TargetOp op, Version since, string macs, string outputs,
             string once>
    : CmCost<op, since, [Term<macs, FcMacs>.T, Term<outputs, Outputs>.T,
                         once]>;
class FcCostMve<TargetOp op, Version since, string lanes, string outputs,
                string once>
    : CmCost<op, since, [Term<lanes, FcLanes>.T, Term<outputs, Outputs>.T,
                         once]>;
class AddCost<TargetOp op, Version since, string outputs, string once>
    : CmCost<op, since, [Term<outputs, Outputs>.T, once]>;
// The DSP kernels and arm_depthwise_conv_3x3_s8 run the same code on
// Cortex-M55 (their family-4 costs held there within 15%), and so does
// arm_depthwise_conv_s8, not measured there (the two peer-model layers it
// runs on Cortex-M4 take a convolution on Cortex-M55).
// arm_convolve_1_x_n_s8 ran on no layer of the peer models (none has one
// input row) and states no cost: a layer it may run takes the mappings'
// order.
// Family 4: the function, the family, the coefficients of the form's terms.
def : ConvCost<CmConvolveDsp, CmsisM4, "0.989", "11.3", "26.2", "10.1", "600">;
def : DwCost<CmDepthwiseDsp, CmsisM4, "1.29", "18.8", "0", "746">;
def : AddCost<CmAddDsp, CmsisM4, "21", "31.9">;
def : FcCost<CmFullyConnectedDsp, CmsisM4, "1.81", "13.3", "25.2">;
def : ConvCost<ArmConvolve1x1Fast, CmsisM4, "1.64", "29.5", "168", "0", "1700">;
def : ConvCost<ArmConvolve1x1, CmsisM4, "2.16", "29.4", "70.3", "0", "1570">;
def : ConvCost<ArmConvolve, CmsisM4, "1.57", "59.5", "360", "13.4", "2120">;
def : DwCost<ArmDepthwise3x3, CmsisM4, "7.51", "0", "92.5", "0">;
def : DwCost<ArmDepthwiseOpt, CmsisM4, "11.7", "0", "472", "0">;
def : DwCost<ArmDepthwise, CmsisM4, "3.71", "68", "0", "0">;
def : FcCost<ArmFullyConnected, CmsisM4, "1.88", "50.9", "131">;
def : AddCost<ArmAdd, CmsisM4, "81.3", "2080">;
// Family 55.
def : ConvCostMve<CmConvolveMve, CmsisM55, "2.38", "5.73", "15.3", "6.69", "0">;
def : DwCost<CmDepthwiseMve, CmsisM55, "0.818", "5.9", "0", "361">;
def : AddCost<CmAddMve, CmsisM55, "5.38", "1500">;
def : FcCostMve<CmFullyConnectedMve, CmsisM55, "2.41", "5.26", "28.5">;
def : ConvCostMve<ArmConvolve1x1Fast, CmsisM55,
                  "2.9", "13.5", "12.8", "0", "294">;
def : ConvCostMve<ArmConvolve1x1, CmsisM55, "4.82", "10", "35.1", "0", "267">;
def : ConvCostMve<ArmConvolve, CmsisM55, "2.19", "22.6", "0", "21.7", "2350">;
def : DwCost<ArmDepthwiseOpt, CmsisM55, "2", "0", "224", "3000">;
def : FcCostMve<ArmFullyConnected, CmsisM55, "7.76", "12.2", "203">;
def : AddCost<ArmAdd, CmsisM55, "13.7", "112">;
