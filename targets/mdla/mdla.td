//===- mdla.td - MediaTek MDLA 1.5, 2.0 and 3.0 ---------------------------===//
//
// The MediaTek Deep Learning Accelerator as the NeuroPilot Neuron compiler
// drives it, from MediaTek's platform-aware model design guide for MDLA 1.5,
// 2.0 and 3.0 and from the TVM + NeuroPilot integration paper (OpSetup
// converters, the conv2d mapping, the QNN convolution pattern).
//
// One description, three versions: a rule written for 1.5 holds on 2.0 and
// 3.0 until a later Legal replaces it by constraint id. In order:
//
//   1. versions, the target and its own operators (layers the Neuron
//      compiler builds, MTK custom operators of the TFLite converter);
//   2. shared constraints: the data type matrix, NHWC/4C/16C layouts, the
//      per-channel input x weight matrix, element-wise broadcasting;
//   3. legality of every operator of the guide's tables, by version;
//   4. mappings (conv2d becomes depthwise, group or plain convolution;
//      requantize, quantize and dequantize become the layers the guide names;
//      software-only operators become MDLA_SW_* so reports show it);
//   5. quantization rules (the 1.5 requantize after CONV_2D, DEPTHWISE_CONV_2D
//      and FULLY_CONNECTED; requantize before pools; forwarding through
//      data-movement operators);
//   6. fusion patterns: rules A, C and F, deep layer fusion on 3.0, PAD into
//      the following conv or pool, quantization operators into the preceding
//      layer, the QNN conv + bias + requantize pattern;
//   7. the guide's throughput numbers, collected for a cost model;
//   8. device semantics: the 4C and 16C layouts and the operators that run
//      in 16C only, asymmetric int8 stored as uint8 on 1.5, fused
//      intermediates kept in the device.
//
// What the description language cannot say is listed in README.md.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

//===----------------------------------------------------------------------===//
// 1. Versions, target, target operators
//===----------------------------------------------------------------------===//

def Mdla1_5 : Version<"1.5">;
def Mdla2_0 : Version<"2.0">;
def Mdla3_0 : Version<"3.0">;

def MDLA : Target<"mdla", [Mdla1_5, Mdla2_0, Mdla3_0]> {
  let Description =
      "MediaTek Deep Learning Accelerator (MDLA) 1.5, 2.0 and 3.0 under the "
      "NeuroPilot Neuron compiler. Activations are NHWC. Data types in "
      "hardware: u8 (asymmetric), i8 (symmetric; asymmetric from mdla2.0), "
      "i16 (symmetric) and f16. Legal but converted in software at the "
      "accelerator's inputs and outputs: asymmetric i8 on mdla1.5 (to and "
      "from asymmetric u8) and f32 on every version (to and from f16, "
      "--relax-fp32). Operators the Neuron compiler runs in software map to "
      "MDLA_SW_* operators";
  // A device switch per boundary tensor: the guide bounds the CPU/APU cache
  // maintenance "typically under 1 ms" and gives no typical figure; 10,000
  // cycles (10 us at 1 GHz) is our assumption (see section 7).
  let SwitchCycles = 10000;
  // Every MDLA operator computes what the TFLite operator it stands for
  // computes, in the layouts and storage types of section 8, so the
  // functional model runs its programs with the reference kernels.
  let Backend = FunctionalModelPrograms;
}

// Layers the Neuron compiler builds: the results of mappings and fusions.
// Conv-like layers are variadic: after their own operands come the extra
// operands of whatever was fused into them, in execution order (the PAD's
// paddings, the PRELU's alpha). `fused_ops` names the fused operators.
def MdlaConv2D : TargetOp<MDLA, "MDLA_CONV_2D",
                          [Input, Filter, OptionalBias], ConvAttrs> {
  let Variadic = 1;
}
def MdlaDepthwiseConv2D
    : TargetOp<MDLA, "MDLA_DEPTHWISE_CONV_2D", [Input, Filter, OptionalBias],
               !listconcat(ConvAttrs, [DepthMultiplierAttr])> {
  let Variadic = 1;
}
def MdlaGroupConv2D : TargetOp<MDLA, "MDLA_GROUP_CONV_2D",
                               [Input, Filter, OptionalBias], ConvAttrs>;
def MdlaFullyConnected
    : TargetOp<MDLA, "MDLA_FULLY_CONNECTED", [Input, Filter, OptionalBias],
               [FusedActivationAttr, KeepNumDimsAttr]> {
  let Variadic = 1;
}
/// The hardware transposed convolution (mdla1.5 and mdla2.0).
def MdlaTransposeConv
    : TargetOp<MDLA, "MDLA_TRANSPOSE_CONV",
               [Operand<"output_shape">, Filter, Input, OptionalBias],
               [PaddingAttr, StrideHAttr, StrideWAttr, FusedActivationAttr]> {
  let Variadic = 1;
}
/// Pooling layers a PAD was fused into: operand 1 is the paddings.
defvar PaddedPoolOperands = [Input, Operand<"paddings", 1>];
def MdlaAveragePool2D : TargetOp<MDLA, "MDLA_AVERAGE_POOL_2D",
                                 PaddedPoolOperands, PoolAttrs>;
def MdlaMaxPool2D : TargetOp<MDLA, "MDLA_MAX_POOL_2D", PaddedPoolOperands,
                             PoolAttrs>;
def MdlaL2Pool2D : TargetOp<MDLA, "MDLA_L2_POOL_2D", PaddedPoolOperands,
                            PoolAttrs>;
def MdlaMinPool2D : TargetOp<MDLA, "MDLA_MIN_POOL_2D", PaddedPoolOperands,
                             PoolAttrs>;
/// Several fused groups run as one: two convolutions (rule C) or a deep
/// layer fusion flow (mdla3.0). Operands: the captured inputs of the fused
/// operators in execution order.
def MdlaFusedChain : TargetOp<MDLA, "MDLA_FUSED_CHAIN", [Input]> {
  let Variadic = 1;
}
/// Batch-norm add: a requantize between types of one width.
def MdlaBnAdd : TargetOp<MDLA, "MDLA_BN_ADD", [Input]>;
/// A 1 x 1 CONV_2D with a <c, 1, 1, c> identity filter the compiler creates:
/// a requantize between widths, a quantize, a dequantize.
def MdlaIdentityConv2D : TargetOp<MDLA, "MDLA_IDENTITY_CONV_2D", [Input]>;
/// ABS, NEG, MAXIMUM, MINIMUM with a requantize fused into their output.
def MdlaAbs : TargetOp<MDLA, "MDLA_ABS", [Input]>;
def MdlaNeg : TargetOp<MDLA, "MDLA_NEG", [Input]>;
def MdlaMaximum : TargetOp<MDLA, "MDLA_MAXIMUM", [Input, Input2]>;
def MdlaMinimum : TargetOp<MDLA, "MDLA_MINIMUM", [Input, Input2]>;
/// Space/depth rearrangements in hardware (mdla2.0 on) and in software.
def MdlaSpaceToDepth : TargetOp<MDLA, "MDLA_SPACE_TO_DEPTH", [Input],
                                [BlockSizeAttr]>;
def MdlaDepthToSpace : TargetOp<MDLA, "MDLA_DEPTH_TO_SPACE", [Input],
                                [BlockSizeAttr]>;
def MdlaSwSpaceToDepth : TargetOp<MDLA, "MDLA_SW_SPACE_TO_DEPTH", [Input],
                                  [BlockSizeAttr]>;
def MdlaSwDepthToSpace : TargetOp<MDLA, "MDLA_SW_DEPTH_TO_SPACE", [Input],
                                  [BlockSizeAttr]>;
def MdlaSwSpaceToBatchND
    : TargetOp<MDLA, "MDLA_SW_SPACE_TO_BATCH_ND",
               [Input, Operand<"block_shape">, Operand<"paddings">]>;

// MediaTek custom operators of the TFLite converter, and operators the guide
// lists that are not TFLite builtins. Operands follow the TensorFlow
// operators they stand for.
def MtkAbs : TargetOp<MDLA, "MTK_ABS", [Input]>;
def MtkMinPool : TargetOp<MDLA, "MTK_MIN_POOL", [Input], PoolAttrs>;
/// Also the software transposed convolution, the only one on mdla3.0.
def MtkTransposeConv
    : TargetOp<MDLA, "MTK_TRANSPOSE_CONV",
               [Operand<"output_shape">, Filter, Input, OptionalBias],
               [PaddingAttr, StrideHAttr, StrideWAttr, FusedActivationAttr]> {
  let Variadic = 1;
}
def MtkReverse : TargetOp<MDLA, "MTK_REVERSE", [Input, Operand<"axis">]>;
def MtkElu : TargetOp<MDLA, "MTK_ELU", [Input]>;
def MtkDepthToSpace : TargetOp<MDLA, "MTK_DEPTH_TO_SPACE", [Input],
                               [BlockSizeAttr]>;
def MtkCropAndResize
    : TargetOp<MDLA, "MTK_CROP_AND_RESIZE",
               [Input, Operand<"boxes">, Operand<"box_indices">,
                Operand<"crop_size">]>;
def MtkLayerNormalization : TargetOp<MDLA, "MTK_LAYER_NORMALIZATION",
                                     [Input]> {
  let Variadic = 1; // gamma, beta
}
/// TensorFlow's MaxPool3D, a custom operator in TFLite (NDHWC).
def MaxPool3D : TargetOp<MDLA, "MAX_POOL_3D", [Input],
                         [PaddingAttr, StrideDAttr, StrideHAttr, StrideWAttr,
                          Attr<"filter_d", IntAttr>, FilterHAttr, FilterWAttr]>;
/// Reciprocal (1 / x), a math operator of the MDLA with no TFLite builtin.
def Rcp : TargetOp<MDLA, "RCP", [Input]>;

//===----------------------------------------------------------------------===//
// 2. Shared constraints
//===----------------------------------------------------------------------===//

/// Activation types: u8, i8, i16, f16 in hardware; f32 (and asymmetric i8 on
/// mdla1.5) converted in software at the accelerator's boundary. Every
/// declaration is of types a kernel of defs/kernels.td computes, since the
/// functional model runs programs with those kernels and the generator
/// refuses a declaration no kernel runs. So f16 is declared nowhere (no
/// reference kernel computes it; TensorFlow Lite Micro has no f16 kernel to
/// check one against), and the operators and types the guide lists that no
/// kernel runs yet are left out where they would be declared, each saying so.
defvar ActTypes = [u8, i8, i16, f32];
/// The guide lists i16 for every operator below too, but where no kernel of
/// defs/kernels.td computes an operator on int16 the layer could not run
/// (the functional model runs programs with those kernels), so those
/// operators are declared without it: the generator refuses an int16
/// declaration that no kernel runs.
defvar ActTypesNo16 = [u8, i8, f32];

// The data type matrix has symmetric INT16 only.
def Int16Symmetric : Constraint<"int16_symmetric",
    "input(0).dtype != i16 || input(0).zero_point == 0",
    "16-bit activations must be symmetric (zero point 0)",
    "quantize 16-bit activations symmetrically">;

// Layouts. The MDLA reads NHWC activations from memory as 4C (C <= 4,
// width aligned) or 16C (channels padded to 16 bytes). These constraints
// require the NHWC rank the layouts imply and say the layout in their
// summary for reports; which layouts each operator computes in is declared
// in section 8 (device semantics).
def Nhwc4C16C : Constraint<"nhwc_4c_16c", "input(0).rank == 4",
    "input must be 4-D NHWC; the 4C and 16C layouts both feed it without a "
    "re-layout",
    "reshape the input to NHWC">;
def Nhwc16C : Constraint<"nhwc_16c", "input(0).rank == 4",
    "input must be 4-D NHWC; runs in the 16C layout only, so an input a 4C "
    "producer wrote costs a re-layout",
    "reshape the input to NHWC">;
def AtMostNhwc16C : Constraint<"nhwc_16c_at_most_4d", "input(0).rank <= 4",
    "input must be NHWC (at most 4-D); runs in the 16C layout only",
    "reshape the input to at most 4 dimensions">;

// The per-channel quantization matrix: u8 and i8 inputs take u8 or i8
// weights, i16 inputs take i16 weights, and from mdla3.0 also i8 weights.
// Float inputs with quantized weights (hybrid quantization) run in f16 with
// dequantized weights.
defvar PerChannelTypes =
    "!input(1).per_channel || input(0).dtype in {f16, f32} || "
    "(input(0).dtype in {u8, i8} && input(1).dtype in {u8, i8}) || "
    "(input(0).dtype == i16 && input(1).dtype == i16)";
/// The convolutions write the type they read: the int32 sums of ONNX's
/// ConvInteger and MatMulInteger (a uint8 CONV_2D or FULLY_CONNECTED with an
/// int32 output) have no MDLA layer and no kernel of its functional model.
def SameOutputType : Constraint<"same_output_type",
    "output(0).dtype == input(0).dtype",
    "the output must have the input's type (no int32 sums)">;
def PerChannelTypes1_5 : Constraint<"per_channel_types", PerChannelTypes,
    "per-channel weights must be u8 or i8 under u8 or i8 activations, i16 "
    "under i16 activations">;
def PerChannelTypes3_0 : Constraint<"per_channel_types",
    PerChannelTypes # " || (input(0).dtype == i16 && input(1).dtype == i8)",
    "per-channel weights must be u8 or i8 under u8 or i8 activations, i16 "
    "or i8 under i16 activations">;
// CONV_3D is new on 3.0, so it cannot take the 3.0 override of an id above.
def Conv3DPerChannelTypes : Constraint<"conv3d_per_channel_types",
    PerChannelTypes # " || (input(0).dtype == i16 && input(1).dtype == i8)",
    "per-channel weights must be u8 or i8 under u8 or i8 activations, i16 "
    "or i8 under i16 activations">;
def PerChannelSymmetric : Constraint<"per_channel_weights_symmetric",
    "!input(1).per_channel || input(1).dtype == u8 || "
    "input(1).zero_point == 0",
    "per-channel i8 and i16 weights must be symmetric (only u8 weights may "
    "have a zero point)",
    "quantize the weights symmetrically">;

// Element-wise broadcasting. Where an operand has as many elements as the
// output there is nothing to broadcast. A constant operand is broadcast in
// hardware (0-D, 1-D) or enlarged at compile time; both cost nothing at run
// time. A non-constant operand is broadcast in hardware only in the shapes
// each version names (0-D or 1-D along C from mdla2.0 for SUB, MAXIMUM and
// MINIMUM; [1, H, W, 1], along H and W, on mdla3.0); any other is broadcast
// by the Neuron compiler with extra DMA commands, which these constraints
// reject with a hint saying so.
class Broadcast<int i, list<string> extra> {
  string Operand = "input(" # i # ")";
  string Expr = "(" # Operand # ".num_elements == output(0).num_elements || "
                # Operand # ".is_constant"
                # !foldl("", extra, acc, e,
                         acc # " || " # !subst("$", Operand, e))
                # ")";
}
defvar ScalarOperand = "$.num_elements == 1";
defvar ChannelOperand =
    "($.num_elements == output(0).channels && "
    "$.channels == output(0).channels)";
defvar PlaneOperand =
    "(output(0).rank == 4 && $.channels == 1 && "
    "$.num_elements == output(0).dim(1) * output(0).dim(2))";
defvar BcastConst = Broadcast<0, []>.Expr # " && " # Broadcast<1, []>.Expr;
defvar BcastPlane = Broadcast<0, [PlaneOperand]>.Expr # " && " #
                    Broadcast<1, [PlaneOperand]>.Expr;
defvar BcastVector = Broadcast<0, [ScalarOperand, ChannelOperand]>.Expr #
                     " && " #
                     Broadcast<1, [ScalarOperand, ChannelOperand]>.Expr;
defvar BcastVectorPlane =
    Broadcast<0, [ScalarOperand, ChannelOperand, PlaneOperand]>.Expr # " && " #
    Broadcast<1, [ScalarOperand, ChannelOperand, PlaneOperand]>.Expr;
defvar DmaHint = "the Neuron compiler broadcasts it with extra DMA commands";

/// ADD and MUL: hardware broadcasts 0-D and 1-D constants on mdla1.5 and a
/// [1, H, W, 1] tensor from mdla3.0.
class ConstBroadcast<string op> : Constraint<op # "_broadcast", BcastConst,
    "an operand smaller than the output must be constant (0-D and 1-D "
    "broadcast in hardware, larger ones enlarged at compile time)",
    DmaHint # "; mdla3.0 broadcasts a [1, H, W, 1] operand in hardware">;
class PlaneBroadcast<string op> : Constraint<op # "_broadcast", BcastPlane,
    "an operand smaller than the output must be constant or [1, H, W, 1]",
    DmaHint>;
/// SUB, MAXIMUM and MINIMUM: no hardware broadcast on mdla1.5 (constants
/// are enlarged at compile time), 0-D and 1-D along C from mdla2.0,
/// [1, H, W, 1] on mdla3.0.
class NoHwBroadcast<string op> : Constraint<op # "_broadcast", BcastConst,
    "an operand smaller than the output must be constant (enlarged at "
    "compile time; no hardware broadcast)",
    DmaHint # "; mdla2.0 broadcasts 0-D and 1-D (C) operands in hardware">;
class VectorBroadcast<string op> : Constraint<op # "_broadcast", BcastVector,
    "an operand smaller than the output must be constant, 0-D or 1-D along C",
    DmaHint # "; mdla3.0 also broadcasts a [1, H, W, 1] operand">;
class VectorPlaneBroadcast<string op>
    : Constraint<op # "_broadcast", BcastVectorPlane,
    "an operand smaller than the output must be constant, 0-D, 1-D along C "
    "or [1, H, W, 1]", DmaHint>;

//===----------------------------------------------------------------------===//
// 3. Legality
//===----------------------------------------------------------------------===//

// Convolutions. CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV read 4C and
// 16C; their throughput (uRate) is in the cost block at the end.
def : Legal<Conv2D, MDLA, Mdla1_5, ActTypes, [
  Nhwc4C16C,
  Constraint<"conv_whole_groups",
             "input(1).dim(3) >= 1 && input(0).channels % input(1).dim(3) == 0",
             "input channels must be a multiple of the filter's input "
             "channels (whole groups)">,
  PerChannelTypes1_5, PerChannelSymmetric, Int16Symmetric, SameOutputType,
]>;
def : Legal<Conv2D, MDLA, Mdla3_0, [], [PerChannelTypes3_0]>;

// Dynamic (non-constant) weights are supported.
def : Legal<DepthwiseConv2D, MDLA, Mdla1_5, ActTypes, [
  Nhwc4C16C, PerChannelTypes1_5, PerChannelSymmetric, Int16Symmetric,
]>;
def : Legal<DepthwiseConv2D, MDLA, Mdla3_0, [], [PerChannelTypes3_0]>;

def : Legal<FullyConnected, MDLA, Mdla1_5, ActTypes, [
  PerChannelTypes1_5, PerChannelSymmetric, Int16Symmetric, SameOutputType,
]>;
def : Legal<FullyConnected, MDLA, Mdla3_0, [], [PerChannelTypes3_0]>;

// TRANSPOSE_CONV reads its input as operand 2; operand 0 is the output shape,
// which is what the type list checks. Hardware (1.5, 2.0) and software
// implementations exist; 3.0 has the software one only (see the mappings),
// and takes non-constant weights.
defvar TconvPerChannelTypes =
    "!input(1).per_channel || input(2).dtype in {f16, f32} || "
    "(input(2).dtype in {u8, i8} && input(1).dtype in {u8, i8}) || "
    "(input(2).dtype == i16 && input(1).dtype == i16)";
def : Legal<TransposeConv, MDLA, Mdla1_5, [i32], [
  Constraint<"tconv_nhwc_4c_16c", "input(2).rank == 4",
             "input (operand 2) must be 4-D NHWC; the 4C and 16C layouts "
             "both feed it without a re-layout",
             "reshape the input to NHWC">,
  // The guide also lists u8, f16 and f32; the kernels take i8 and i16.
  Constraint<"tconv_input_types", "input(2).dtype in {i8, i16}",
             "input (operand 2) must be i8 or i16">,
  Constraint<"tconv_per_channel_types", TconvPerChannelTypes,
             "per-channel weights must be u8 or i8 under u8 or i8 "
             "activations, i16 under i16 activations">,
  PerChannelSymmetric,
  Constraint<"tconv_int16_symmetric",
             "input(2).dtype != i16 || input(2).zero_point == 0",
             "16-bit activations must be symmetric (zero point 0)",
             "quantize 16-bit activations symmetrically">,
  Constraint<"tconv_weights_constant", "input(1).is_constant",
             "weights must be constant">,
]>;
def : Legal<TransposeConv, MDLA, Mdla3_0, [], [
  Constraint<"tconv_per_channel_types",
             TconvPerChannelTypes # " || (input(2).dtype == i16 && "
                                    "input(1).dtype == i8)",
             "per-channel weights must be u8 or i8 under u8 or i8 "
             "activations, i16 or i8 under i16 activations">,
]> {
  let Drops = ["tconv_weights_constant"];
}
def : Legal<MtkTransposeConv, MDLA, Mdla1_5, [i32], [
  Constraint<"mtk_tconv_weights_constant", "input(1).is_constant",
             "weights must be constant (the hardware cannot take dynamic "
             "weights directly)">,
]>;

// CONV_3D ("same as CONV_2D" on 3.0) is not declared: no kernel runs it.

// Element-wise arithmetic.
def : Legal<Add, MDLA, Mdla1_5, ActTypes,
            [ConstBroadcast<"add">, Int16Symmetric]>;
def : Legal<Add, MDLA, Mdla3_0, [], [PlaneBroadcast<"add">]>;
def : Legal<Mul, MDLA, Mdla1_5, ActTypes,
            [ConstBroadcast<"mul">, Int16Symmetric]>;
def : Legal<Mul, MDLA, Mdla3_0, [], [PlaneBroadcast<"mul">]>;
def : Legal<Sub, MDLA, Mdla1_5, ActTypes,
            [NoHwBroadcast<"sub">, Int16Symmetric]>;
def : Legal<Sub, MDLA, Mdla2_0, [], [VectorBroadcast<"sub">]>;
def : Legal<Sub, MDLA, Mdla3_0, [], [VectorPlaneBroadcast<"sub">]>;
// MAXIMUM, MINIMUM, DIV and SQUARED_DIFFERENCE: the kernels take no u8.
// POW is not declared: no kernel runs it.
defvar ArithTypes = [i8, f32];
def : Legal<Maximum, MDLA, Mdla1_5, ArithTypes,
            [NoHwBroadcast<"maximum">, Int16Symmetric]>;
def : Legal<Maximum, MDLA, Mdla2_0, [], [VectorBroadcast<"maximum">]>;
def : Legal<Maximum, MDLA, Mdla3_0, [], [VectorPlaneBroadcast<"maximum">]>;
def : Legal<Minimum, MDLA, Mdla1_5, ArithTypes,
            [NoHwBroadcast<"minimum">, Int16Symmetric]>;
def : Legal<Minimum, MDLA, Mdla2_0, [], [VectorBroadcast<"minimum">]>;
def : Legal<Minimum, MDLA, Mdla3_0, [], [VectorPlaneBroadcast<"minimum">]>;
def : Legal<Div, MDLA, Mdla1_5, ArithTypes, [Int16Symmetric]>;
// Runs as an element-wise SUB followed by an element-wise MUL.
def : Legal<SquaredDifference, MDLA, Mdla1_5, ArithTypes,
            [Int16Symmetric]>;

// Pooling and resizing: 16C only. Pools requantize their input when its
// scale or zero point differs from the output's (quantization rules below).
def : Legal<AveragePool2D, MDLA, Mdla1_5, ActTypes, [Nhwc16C, Int16Symmetric]>;
def : Legal<MaxPool2D, MDLA, Mdla1_5, ActTypes, [Nhwc16C, Int16Symmetric]>;
// Not declared: L2_POOL_2D (the guide's pools take u8 and i8, the kernel
// float32 only), MTK_MIN_POOL and MAX_POOL_3D (two passes of a 2-D pool on
// 3.0): no kernel runs them.
// RESIZE_BILINEAR: the kernels take no u8.
def : Legal<ResizeBilinear, MDLA, Mdla1_5, [i8, f32],
            [Nhwc16C, Int16Symmetric]>;
def : Legal<ResizeNearestNeighbor, MDLA, Mdla1_5, ActTypesNo16,
            [Nhwc16C, Int16Symmetric]>;
// MTK_CROP_AND_RESIZE is not declared: no kernel runs it.
def : Legal<Mean, MDLA, Mdla1_5, ActTypes, [AtMostNhwc16C, Int16Symmetric]>;

// Activations and math (throughputs in the cost block).
foreach op = [Relu, Relu6, Tanh, Logistic] in
  def : Legal<op, MDLA, Mdla1_5, ActTypes, [Int16Symmetric]>;
// The guide gives every one below u8, i8 and f16 too; declared are the
// types the kernels take. MTK_ELU, MTK_ABS, RCP, GELU and
// MTK_LAYER_NORMALIZATION are not declared: no kernel runs them.
def : Legal<ReluN1To1, MDLA, Mdla1_5, ActTypesNo16, [Int16Symmetric]>;
foreach op = [Elu, Prelu, Abs] in
  def : Legal<op, MDLA, Mdla1_5, [i8, f32], [Int16Symmetric]>;
def : Legal<Neg, MDLA, Mdla1_5, [f32], [Int16Symmetric]>;
def : Legal<Softmax, MDLA, Mdla2_0, ActTypes, [Int16Symmetric]>;
foreach op = [Exp, Square, Sqrt] in
  def : Legal<op, MDLA, Mdla2_0, [f32], [Int16Symmetric]>;
def : Legal<Rsqrt, MDLA, Mdla2_0, [i8, f32], [Int16Symmetric]>;

// Data movement.
foreach op = [Reshape, Squeeze, ExpandDims, Transpose, StridedSlice,
              Concatenation, Pad] in
  def : Legal<op, MDLA, Mdla1_5, ActTypes, [Int16Symmetric]>;
// MTK_DEPTH_TO_SPACE and MTK_REVERSE are not declared: no kernel runs them.
foreach op = [Slice, BatchToSpaceND, SpaceToBatchND, SpaceToDepth,
              DepthToSpace] in
  def : Legal<op, MDLA, Mdla1_5, ActTypesNo16, [Int16Symmetric]>;
// SPLIT reads the axis as operand 0 and the tensor as operand 1.
def : Legal<Split, MDLA, Mdla1_5, [i32], [
  // The guide also lists u8 and f16; the kernels take these.
  Constraint<"split_input_types", "input(1).dtype in {i8, i16, f32}",
             "the split tensor (operand 1) must be i8, i16 or f32">,
  Constraint<"split_int16_symmetric",
             "input(1).dtype != i16 || input(1).zero_point == 0",
             "16-bit activations must be symmetric (zero point 0)",
             "quantize 16-bit activations symmetrically">,
]>;
// Reflection and symmetric padding, 16C only.
def : Legal<MirrorPad, MDLA, Mdla3_0, ActTypesNo16,
            [Nhwc16C, Int16Symmetric]>;

// Quantization operators (section "Quantization support" of the guide):
// REQUANTIZE is MTK_REQUANTIZE, integer to integer.
def : Legal<Requantize, MDLA, Mdla1_5, [u8, i8], [Int16Symmetric]>;
def : Legal<Quantize, MDLA, Mdla1_5, ActTypes, [Int16Symmetric]>;
def : Legal<Dequantize, MDLA, Mdla1_5, [u8, i8, i16], [Int16Symmetric]>;

// The guide's quantized LSTM cell (TFLite's "basic" LSTM kernel: 5
// operands, u8) is not declared: no kernel runs it. No version runs
// UNIDIRECTIONAL_SEQUENCE_LSTM (a whole sequence with its state): it has no
// rule here, so it falls back to the CPU (the ref target's lstm kernels),
// and `explain` says so.

//===----------------------------------------------------------------------===//
// 4. Mappings
//===----------------------------------------------------------------------===//

// A grouped CONV_2D (input channels a multiple of the filter's) becomes a
// depthwise convolution when each group has one input and one output
// channel, a group convolution when there is more than one group, and a
// plain convolution otherwise.
def : Mapping<Conv2D, MdlaDepthwiseConv2D, MDLA, [
  Constraint<"map_depthwise",
             "input(1).dim(3) == 1 && input(0).channels > 1 && "
             "output(0).channels == input(0).channels",
             "each group has one input and one output channel">,
], 3> {
  let SetAttrs = ["depth_multiplier=1"];
}
def : Mapping<Conv2D, MdlaGroupConv2D, MDLA, [
  Constraint<"map_group_conv", "input(1).dim(3) != input(0).channels",
             "more than one group">,
], 2>;
def : Mapping<Conv2D, MdlaConv2D, MDLA>;
def : Mapping<DepthwiseConv2D, MdlaDepthwiseConv2D, MDLA>;
def : Mapping<FullyConnected, MdlaFullyConnected, MDLA>;
// 3.0 runs transposed convolutions in software only.
def : Mapping<TransposeConv, MtkTransposeConv, MDLA, [], 2> {
  let Since = Mdla3_0;
}
def : Mapping<TransposeConv, MdlaTransposeConv, MDLA>;

// MTK_REQUANTIZE without a layer to fuse into: a BN_ADD between types of one
// width, a 1 x 1 CONV_2D with a <c, 1, 1, c> filter between widths. An
// integer-to-integer QUANTIZE (TFLite's requantize) is treated alike; a
// float-to-integer QUANTIZE and a DEQUANTIZE become the 1 x 1 CONV_2D.
def SameWidth : Constraint<"requantize_same_width",
    "input(0).dtype == output(0).dtype || "
    "(input(0).dtype in {u8, i8} && output(0).dtype in {u8, i8})",
    "input and output are integers of one width">;
def : Mapping<Requantize, MdlaBnAdd, MDLA, [SameWidth], 2>;
def : Mapping<Requantize, MdlaIdentityConv2D, MDLA>;
def : Mapping<Quantize, MdlaBnAdd, MDLA, [SameWidth], 2>;
def : Mapping<Quantize, MdlaIdentityConv2D, MDLA>;
def : Mapping<Dequantize, MdlaIdentityConv2D, MDLA>;

// Software implementations: SPACE_TO_BATCH_ND always, SPACE_TO_DEPTH and
// DEPTH_TO_SPACE on 1.5 (hardware from 2.0).
def : Mapping<SpaceToBatchND, MdlaSwSpaceToBatchND, MDLA>;
def : Mapping<SpaceToDepth, MdlaSpaceToDepth, MDLA, [], 2> {
  let Since = Mdla2_0;
}
def : Mapping<SpaceToDepth, MdlaSwSpaceToDepth, MDLA>;
def : Mapping<DepthToSpace, MdlaDepthToSpace, MDLA, [], 2> {
  let Since = Mdla2_0;
}
def : Mapping<DepthToSpace, MdlaSwDepthToSpace, MDLA>;

//===----------------------------------------------------------------------===//
// 5. Quantization rules
//===----------------------------------------------------------------------===//

// mdla1.5 requantizes after CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
// when input scale x filter scale is not below the output scale.
def ScaleProductBelowOutput : Constraint<"scale_product_below_output",
    "input(0).scale * input(1).scale < output(0).scale",
    "input scale x filter scale must be below the output scale">;
foreach op = [Conv2D, DepthwiseConv2D, FullyConnected] in
  def : QuantRule<op, MDLA, QuantCheck, InsertRequantizeAfter> {
    let Until = Mdla1_5;
    let Check = ScaleProductBelowOutput;
  }

// Pools requantize their input when its scale or zero point differs from
// the output's.
foreach op = [AveragePool2D, MaxPool2D, L2Pool2D, MtkMinPool] in
  def : QuantRule<op, MDLA, SameScale, InsertRequantizeBefore>;

// Operators that move data without arithmetic take the output's parameters
// on their inputs (the QuantParamsMaker's forwarding); an input quantized
// differently is read through a requantize.
foreach op = [Reshape, Squeeze, ExpandDims, Transpose, Slice, StridedSlice,
              Split, Concatenation, Pad, BatchToSpaceND, SpaceToBatchND,
              SpaceToDepth, DepthToSpace] in
  def : QuantRule<op, MDLA, ForwardOutputToInputs, InsertRequantizeBefore>;
def : QuantRule<MirrorPad, MDLA, ForwardOutputToInputs,
                InsertRequantizeBefore> {
  let Since = Mdla3_0;
}

//===----------------------------------------------------------------------===//
// 6. Fusion patterns
//===----------------------------------------------------------------------===//
//
// The guide's operation groups, as operator sets a pattern node matches:
// CONV (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV), MATH1
// (batch norm, folded into the convolution by the converter; ABS; NEG), MATH2
// (MUL, ADD, SUB, MAXIMUM, MINIMUM), ACT1 (RELU, TANH, LOGISTIC), ACT2
// (PRELU), POOL (average, max, min, L2), RESIZE (bilinear, nearest),
// DEQUANTIZE, REQUANT. TRANSPOSE_CONV reads its input as operand 2, so it
// cannot share a set with the other convolutions and its rules are stated
// next to theirs. Every intermediate result must have no other user (the
// matcher checks). Rules whose nodes could match the same operator in two
// roles (rule C, three-convolution flows) name their operators one by one,
// so that which of two overlapping groups fuses stays as the guide lists
// them.

/// The convolutions a rule starts from, with the layer each becomes.
def Conv : OpSet<"CONV", [Conv2D, DepthwiseConv2D, FullyConnected],
                 [MdlaConv2D, MdlaDepthwiseConv2D, MdlaFullyConnected]>;
/// The convolutions a pool, a RESIZE or a PAD can meet (not FULLY_CONNECTED);
/// a result `(Conv:$conv ...)` names the layer each becomes.
def SpatialConv : OpSet<"SPATIAL_CONV", [Conv2D, DepthwiseConv2D]>;
def Math1 : OpSet<"MATH1", [Abs, Neg], [MdlaAbs, MdlaNeg]>;
def Act1 : OpSet<"ACT1", [Relu, Tanh, Logistic]>;
def Pool : OpSet<"POOL", [AveragePool2D, MaxPool2D, L2Pool2D, MtkMinPool],
                 [MdlaAveragePool2D, MdlaMaxPool2D, MdlaL2Pool2D,
                  MdlaMinPool2D]>;
def Resize : OpSet<"RESIZE", [ResizeBilinear, ResizeNearestNeighbor]>;

/// A fused CONV_2D must have one group: grouped ones are mapped instead.
class OneGroup<string conv> : Constraint<conv # "_one_group",
    conv # ".op != \"CONV_2D\" || " #
    conv # ".input(1).dim(3) == " # conv # ".input(0).channels",
    "the CONV_2D " # conv # " has one group (a grouped one is mapped to a "
    "depthwise or group convolution, not fused)">;

// Rule A (mdla1.5 on): a sequence starting with CONV, then MATH1, then ACT1
// or ACT2, then POOL, where any of the three may be skipped. A pool never
// follows a FULLY_CONNECTED. One pattern per shape; the longer the group,
// the higher its benefit.
multiclass RuleA<dag conv, dag spatial, dag res, dag resPrelu,
                 list<Constraint> checks> {
  def _MATH1 : Pattern<MDLA, (Math1:$math conv), res, checks, 2>;
  def _ACT1 : Pattern<MDLA, (Act1:$act conv), res, checks, 2>;
  def _PRELU : Pattern<MDLA, (Prelu:$act conv, $alpha), resPrelu, checks, 2>;
  def _POOL : Pattern<MDLA, (Pool:$pool spatial), res, checks, 2>;
  def _MATH1_ACT1 : Pattern<MDLA, (Act1:$act (Math1:$math conv)), res,
                            checks, 3>;
  def _MATH1_PRELU : Pattern<MDLA, (Prelu:$act (Math1:$math conv), $alpha),
                             resPrelu, checks, 3>;
  def _MATH1_POOL : Pattern<MDLA, (Pool:$pool (Math1:$math spatial)), res,
                            checks, 3>;
  def _ACT1_POOL : Pattern<MDLA, (Pool:$pool (Act1:$act spatial)), res,
                           checks, 3>;
  def _PRELU_POOL : Pattern<MDLA, (Pool:$pool (Prelu:$act spatial, $alpha)),
                            resPrelu, checks, 3>;
  def _MATH1_ACT1_POOL
      : Pattern<MDLA, (Pool:$pool (Act1:$act (Math1:$math spatial))), res,
                checks, 4>;
  def _MATH1_PRELU_POOL
      : Pattern<MDLA, (Pool:$pool (Prelu:$act (Math1:$math spatial), $alpha)),
                resPrelu, checks, 4>;
}
defm RuleA_CONV : RuleA<(Conv:$conv $x, $w, $b),
                        (SpatialConv:$conv $x, $w, $b),
                        (Conv:$conv $x, $w, $b),
                        (Conv:$conv $x, $w, $b, $alpha), [OneGroup<"conv">]>;
defm RuleA_TRANSPOSE_CONV
    : RuleA<(TransposeConv:$conv $shape, $w, $x, $b),
            (TransposeConv:$conv $shape, $w, $x, $b),
            (MdlaTransposeConv $shape, $w, $x, $b),
            (MdlaTransposeConv $shape, $w, $x, $b, $alpha), []>;

// Rule C (mdla1.5 on): a group (rule A or B) followed by a group starting
// with a CONV_2D. The hardware fuses CONV_2D + CONV_2D and DEPTHWISE_CONV_2D +
// CONV_2D, never more than two convolutions. The second convolution's stride
// is 1 or 2 and it does not pad on the left or top; both groups write the
// same type; after a RESIZE the second filter equals its stride.
class SecondConvStride<string conv> : Constraint<conv # "_stride_1_or_2",
    conv # ".stride_h in [1, 2] && " # conv # ".stride_w in [1, 2]",
    "the stride of " # conv # " must be 1 or 2">;
/// SAME padding puts the smaller half on the left and top, so a 1 x 1
/// filter never pads there; other SAME cases depend on sizes the
/// constraint cannot see and are turned down.
class NoLeftTopPad<string conv> : Constraint<conv # "_no_left_top_padding",
    conv # ".padding == \"VALID\" || (" # conv # ".input(1).dim(1) == 1 && "
    # conv # ".input(1).dim(2) == 1)",
    conv # " must not pad on the left or top (VALID padding or a 1 x 1 "
    "filter)">;
class SameOutputType<string first, string second>
    : Constraint<first # "_" # second # "_same_type",
    first # ".output(0).dtype == " # second # ".output(0).dtype",
    "the fused groups must write the same type">;
class NotDilated<string conv> : Constraint<conv # "_not_dilated",
    conv # ".dilation_h == 1 && " # conv # ".dilation_w == 1",
    "a dilated convolution must be the last one of a fused flow">;
defvar RuleCSecond = [OneGroup<"conv2">, SecondConvStride<"conv2">,
                      NoLeftTopPad<"conv2">, SameOutputType<"conv", "conv2">];

def RuleC_CONV_2D_CONV_2D : Pattern<MDLA,
    (Conv2D:$conv2 (Conv2D:$conv $x, $w, $b), $w2, $b2),
    (MdlaFusedChain $x, $w, $b, $w2, $b2),
    !listconcat([OneGroup<"conv">], RuleCSecond), 2>;
def RuleC_DEPTHWISE_CONV_2D_CONV_2D : Pattern<MDLA,
    (Conv2D:$conv2 (DepthwiseConv2D:$conv $x, $w, $b), $w2, $b2),
    (MdlaFusedChain $x, $w, $b, $w2, $b2), RuleCSecond, 2>;
def RuleC_RESIZE_CONV_2D : Pattern<MDLA,
    (Conv2D:$conv2 (Resize:$resize $x, $size), $w2, $b2),
    (MdlaFusedChain $x, $size, $w2, $b2), [
      OneGroup<"conv2">, SecondConvStride<"conv2">, NoLeftTopPad<"conv2">,
      SameOutputType<"resize", "conv2">,
      Constraint<"conv2_filter_is_stride",
                 "conv2.input(1).dim(1) == conv2.stride_h && "
                 "conv2.input(1).dim(2) == conv2.stride_w",
                 "after a RESIZE, the convolution's filter must equal its "
                 "stride">], 2>;

// Rule F (mdla3.0): CONV + RESIZE + MATH1, ACT1 or ACT2.
def Math1OrAct1 : OpSet<"MATH1_OR_ACT1", !listconcat(Math1.Members,
                                                     Act1.Members)>;
let Since = Mdla3_0 in {
  def RuleF_CONV_RESIZE_MATH1_OR_ACT1 : Pattern<MDLA,
      (Math1OrAct1:$post (Resize:$resize (SpatialConv:$conv $x, $w, $b),
                                         $size)),
      (Conv:$conv $x, $w, $b), [OneGroup<"conv">], 3>;
  def RuleF_CONV_RESIZE_PRELU : Pattern<MDLA,
      (Prelu:$post (Resize:$resize (SpatialConv:$conv $x, $w, $b), $size),
                   $alpha),
      (Conv:$conv $x, $w, $b, $alpha), [OneGroup<"conv">], 3>;
  def RuleF_TRANSPOSE_CONV_RESIZE_MATH1_OR_ACT1 : Pattern<MDLA,
      (Math1OrAct1:$post (Resize:$resize
                             (TransposeConv:$conv $shape, $w, $x, $b), $size)),
      (MdlaTransposeConv $shape, $w, $x, $b), [], 3>;
  def RuleF_TRANSPOSE_CONV_RESIZE_PRELU : Pattern<MDLA,
      (Prelu:$post (Resize:$resize (TransposeConv:$conv $shape, $w, $x, $b),
                                   $size), $alpha),
      (MdlaTransposeConv $shape, $w, $x, $b, $alpha), [], 3>;
}

// Deep layer fusion (mdla3.0) lifts rule C's limit of two convolutions: a
// flow fuses any number of groups. Its constraints: a dilated convolution
// and a TRANSPOSE_CONV must be the last convolution of the flow,
// DEPTH_TO_SPACE and SPACE_TO_DEPTH the last operator, and no rule B group
// may follow (no pattern here builds one). Spelled out: three convolutions
// (starting as rule C does), a transposed convolution last, a depth/space
// rearrangement last.
def DepthSpace : OpSet<"DEPTH_SPACE", [DepthToSpace, SpaceToDepth]>;
defvar FlowThirdConv = [OneGroup<"conv3">, SecondConvStride<"conv3">,
                        NoLeftTopPad<"conv3">, SameOutputType<"conv2", "conv3">];
let Since = Mdla3_0 in {
  def DLF_CONV_2D_CONV_2D_CONV_2D : Pattern<MDLA,
      (Conv2D:$conv3 (Conv2D:$conv2 (Conv2D:$conv $x, $w, $b), $w2, $b2),
                     $w3, $b3),
      (MdlaFusedChain $x, $w, $b, $w2, $b2, $w3, $b3),
      !listconcat([OneGroup<"conv">, NotDilated<"conv">, NotDilated<"conv2">],
                  RuleCSecond, FlowThirdConv), 3>;
  def DLF_DEPTHWISE_CONV_2D_CONV_2D_CONV_2D : Pattern<MDLA,
      (Conv2D:$conv3 (Conv2D:$conv2 (DepthwiseConv2D:$conv $x, $w, $b), $w2,
                                    $b2), $w3, $b3),
      (MdlaFusedChain $x, $w, $b, $w2, $b2, $w3, $b3),
      !listconcat([NotDilated<"conv">, NotDilated<"conv2">], RuleCSecond,
                  FlowThirdConv), 3>;
  def DLF_CONV_TRANSPOSE_CONV : Pattern<MDLA,
      (TransposeConv:$conv2 $shape, $w2, (SpatialConv:$conv $x, $w, $b), $b2),
      (MdlaFusedChain $x, $w, $b, $shape, $w2, $b2),
      [OneGroup<"conv">, NotDilated<"conv">, SameOutputType<"conv", "conv2">],
      2>;
  def DLF_CONV_DEPTH_SPACE : Pattern<MDLA,
      (DepthSpace:$last (SpatialConv:$conv $x, $w, $b)),
      (MdlaFusedChain $x, $w, $b), [OneGroup<"conv">], 2>;
}

// PAD into the following CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV or pool
// (mdla1.5 on) when it pads only H and W by at most 15; otherwise the PAD
// costs DMA operations of its own. The paddings are a constant tensor the
// constraint language cannot read: the shapes give each dimension's padding
// summed over both sides, which is held to 15.
def PadFusable : Constraint<"pad_fusable",
    "pad.input(0).rank == 4 && pad.output(0).dim(0) == pad.input(0).dim(0) && "
    "pad.output(0).channels == pad.input(0).channels && "
    "pad.output(0).dim(1) - pad.input(0).dim(1) <= 15 && "
    "pad.output(0).dim(2) - pad.input(0).dim(2) <= 15",
    "the PAD pads only H and W, by at most 15 in each (both sides together)">;
def PadInto_CONV : Pattern<MDLA,
    (SpatialConv:$conv (Pad:$pad $x, $paddings), $w, $b),
    (Conv:$conv $x, $w, $b, $paddings),
    [OneGroup<"conv">, PadFusable], 2>;
def PadInto_TRANSPOSE_CONV : Pattern<MDLA,
    (TransposeConv:$conv $shape, $w, (Pad:$pad $x, $paddings), $b),
    (MdlaTransposeConv $shape, $w, $x, $b, $paddings), [PadFusable], 2>;
def PadInto_POOL : Pattern<MDLA, (Pool:$pool (Pad:$pad $x, $paddings)),
                           (Pool:$pool $x, $paddings), [PadFusable], 2>;

// Quantization operators fuse into the preceding single-use CONV_2D or
// FULLY_CONNECTED: MTK_REQUANTIZE (REQUANTIZE), QUANTIZE, DEQUANTIZE; a
// requantize also into a preceding ABS, NEG, MAXIMUM or MINIMUM.
def QuantOp : OpSet<"QUANT", [Requantize, Quantize, Dequantize]>;
def ConvOrFc : OpSet<"CONV_2D_OR_FC", [Conv2D, FullyConnected],
                     [MdlaConv2D, MdlaFullyConnected]>;
def MaxMin : OpSet<"MAX_MIN", [Maximum, Minimum], [MdlaMaximum, MdlaMinimum]>;
def Fuse_CONV_QUANT : Pattern<MDLA,
    (QuantOp:$quant (ConvOrFc:$conv $x, $w, $b)),
    (ConvOrFc:$conv $x, $w, $b), [OneGroup<"conv">], 2>;
def Fuse_MATH1_REQUANTIZE : Pattern<MDLA,
    (Requantize:$quant (Math1:$math $x)), (Math1:$math $x), [], 2>;
def Fuse_MAX_MIN_REQUANTIZE : Pattern<MDLA,
    (Requantize:$quant (MaxMin:$math $x, $y)), (MaxMin:$math $x, $y), [], 2>;

// The QNN convolution (TVM's qnn.conv2d + bias add + qnn.requantize): a
// CONV_2D without a bias, an ADD of a constant per-channel bias and a
// requantize become one MDLA convolution carrying the bias.
def QnnConvBiasRequantize : Pattern<MDLA,
    (Requantize:$requant (Add:$add (Conv2D:$conv $x, $w), $bias)),
    (MdlaConv2D $x, $w, $bias), [
      OneGroup<"conv">,
      Constraint<"qnn_conv_no_activation", "conv.fused_activation == \"NONE\"",
                 "the convolution has no fused activation">,
      Constraint<"qnn_bias_per_channel",
                 "add.input(1).is_constant && add.input(1).rank == 1 && "
                 "add.input(1).dim(0) == conv.output(0).channels",
                 "the addend is a constant 1-D bias of one value per output "
                 "channel">,
    ], 3>;

//===----------------------------------------------------------------------===//
// 7. Cost model
//===----------------------------------------------------------------------===//
//
// Cycles per operator from the guide's throughput figures (collected below).
// Simplifications, stated so they can be refined: the small-filter uRate
// penalties have no figures in the guide and are left out; pools use one
// 16-channel output tile per cycle per window element instead of the tile
// formula; re-layout and data-conversion DMA is not priced per operator but
// through SwitchCycles at the accelerator's boundary tensors. A fused or
// mapped layer without a cost of its own is priced by the partitioner as the
// operators it replaced.

defvar Float16 = "input(0).dtype in {f16, f32}";
defvar Int16 = "input(0).dtype == i16";
// Convolution peak MAC/cycle by activation type.
defvar ConvPeak15 = !strconcat("select(", Float16, ", 256, select(", Int16, ", 512, 1024))");
defvar ConvPeak20 = !strconcat("select(", Float16, ", 512, select(", Int16, ", 512, 1024))");
defvar ConvPeak30 = !strconcat("select(", Float16, ", 512, select(", Int16, ", 512, 2048))");
// Output channels should be 4 or a multiple of 16.
defvar OcRate = "select(output(0).channels < 4, output(0).channels / 4.0, "
                "select(output(0).channels == 4, 1.0, "
                "output(0).channels / (1.0 * align(output(0).channels, 16))))";

def : Cost<Conv2D, MDLA, Mdla1_5, !strconcat("macs / (", ConvPeak15, " * ", OcRate, ")")>;
def : Cost<Conv2D, MDLA, Mdla2_0, !strconcat("macs / (", ConvPeak20, " * ", OcRate, ")")>;
def : Cost<Conv2D, MDLA, Mdla3_0, !strconcat("macs / (", ConvPeak30, " * ", OcRate, ")")>;
// Depthwise: 25% of the convolution rate.
def : Cost<DepthwiseConv2D, MDLA, Mdla1_5, !strconcat("macs / (0.25 * ", ConvPeak15, ")")>;
def : Cost<DepthwiseConv2D, MDLA, Mdla2_0, !strconcat("macs / (0.25 * ", ConvPeak20, ")")>;
def : Cost<DepthwiseConv2D, MDLA, Mdla3_0, !strconcat("macs / (0.25 * ", ConvPeak30, ")")>;
// Fully connected: the rate grows with the batch (input(0).dim(0)).
def : Cost<FullyConnected, MDLA, Mdla1_5, !strconcat("macs / (", ConvPeak15,
    " * min(max(input(0).dim(0), 1), 4) / 4.0)")>;
def : Cost<FullyConnected, MDLA, Mdla2_0, !strconcat("macs / (", ConvPeak20,
    " * min(max(input(0).dim(0), 1), 4) / 4.0)")>;
def : Cost<FullyConnected, MDLA, Mdla3_0, !strconcat("macs / (", ConvPeak30,
    " * min(max(input(0).dim(0), 1), 8) / 8.0)")>;

// Pools: 16 channels of one output pixel per window element and cycle at
// 8 bits, half that at 16 bits.
defvar PoolCycles = !strconcat("output(0).num_elements * filter_h * filter_w / "
                               "(16.0 * select(", Int16, " || ", Float16, ", 0.5, 1.0))");
def : Cost<AveragePool2D, MDLA, Mdla1_5, PoolCycles>;
def : Cost<MaxPool2D, MDLA, Mdla1_5, PoolCycles>;

// Element-wise math: output pixels over pixels/cycle (8-bit, 16-bit/fp16).
class MathCost<Op op, Version since, int rate8, int rate16>
    : Cost<op, MDLA, since, !strconcat("output(0).num_elements / (1.0 * select(",
          Int16, " || ", Float16, ", ", !cast<string>(rate16), ", ",
          !cast<string>(rate8), "))")>;
def : MathCost<Add, Mdla1_5, 8, 8>;
def : MathCost<Add, Mdla3_0, 16, 8>;
def : MathCost<Sub, Mdla1_5, 8, 8>;
def : MathCost<Sub, Mdla3_0, 16, 8>;
def : MathCost<Mul, Mdla1_5, 16, 8>;
def : MathCost<Maximum, Mdla1_5, 16, 8>;
def : MathCost<Minimum, Mdla1_5, 16, 8>;
def : MathCost<Relu, Mdla1_5, 32, 16>;
def : MathCost<Relu6, Mdla1_5, 32, 16>;
def : MathCost<ReluN1To1, Mdla1_5, 32, 16>;
def : MathCost<Tanh, Mdla1_5, 4, 4>;
def : MathCost<Tanh, Mdla2_0, 16, 4>;
def : MathCost<Logistic, Mdla1_5, 4, 4>;
def : MathCost<Logistic, Mdla2_0, 16, 4>;
def : MathCost<Exp, Mdla2_0, 16, 4>;
def : MathCost<Rsqrt, Mdla2_0, 16, 4>;
// Views cost nothing; CONCATENATION is optimized away on 1.5 and 2.0 and
// runs at one 16-byte beat per cycle on 3.0.
def : Cost<Reshape, MDLA, Mdla1_5, "0">;
def : Cost<Concatenation, MDLA, Mdla1_5, "0">;
def : Cost<Concatenation, MDLA, Mdla3_0, "output(0).num_elements / 16.0">;

// The guide's figures:
//
// MAC/cycle (convolution peak), by activation type:
//
//   version   int8   int16   fp16
//   1.5       1024   512     256
//   2.0       1024   512     512
//   3.0       2048   512     512
//
// Convolution uRate (MAC utilisation, tensors in 4C/16C, bandwidth ignored):
//   - CONV_2D: 100%. Output channels OC should be 4 or a multiple of 16;
//     otherwise uRate is at most OC / 4 (OC < 4) or OC / (16 * ceil(OC / 16)).
//     Lower for small filters, H x W x IC:
//       1.5 and 2.0: <= 32 (int8 output), <= 16 (int16 or fp16 output);
//       3.0:         <= 80 (int8 output), <= 20 (int16 or fp16 output).
//   - DEPTHWISE_CONV_2D: 25% of CONV_2D. Lower for small filters, H x W:
//       1.5 and 2.0: <= 8 (int8 output), <= 4 (int16 or fp16 output);
//       3.0:         <= 19 (int8 output), <= 9 (int16 or fp16 output).
//   - FULLY_CONNECTED by batch:      1     2     4     8
//       1.5 and 2.0:                25%   50%  100%  100%
//       3.0:                       12.5%  25%   50%  100%
//   - TRANSPOSE_CONV, hardware (1.5 and 2.0 only): 1 / (rate_h * rate_w)
//     (rate 2: 25%, rate 3: 11%); some tilings add constraints; the op reads
//     dummy activation bandwidth and needs room for it in the convolution
//     buffer.
//   - MTK_TRANSPOSE_CONV, software: about 100%, plus activation reloads.
//
// Math throughput, pixels/cycle (sym8, asym8, sym16, fp16), from the
// version named until a later row:
//   RELU, RELU6, RELU_N1_TO_1   1.5: 32 32 16 16
//   TANH, LOGISTIC, ELU         1.5:  4  4  4  4    2.0: 16 16 4 8
//   GELU, EXP, RCP, SQRT        2.0: 16 16  4  8
//   PRELU                       1.5: 16 16 16  8
//   MAX, MIN                    1.5: 16 16  8  8
//   BN_MUL                      1.5: 16 16 16  8
//   SQUARE (MUL)                2.0: 16 16 16  8
//   MUL                         1.5: 16 16  8  8
//   BN_ADD                      1.5: 16 16 16  8
//   IN_SUB                      2.0: 16 16 16  8
//   ADD, SUB                    1.5:  8  8  8  8    3.0: 16 16 8 8
//   NEG, ABS                    1.5: 16 16 16 16
// SQUARED_DIFFERENCE costs an element-wise SUB plus an element-wise MUL.
//
// Pool throughput, tiles/cycle (sym8, asym8, sym16, fp16), TP = 1 / TC:
//   AVG, MAX, MIN   TP  TP  TP/2  TP/2
//   L2              TP  TP  TP/2  (none)
//   TC = (ps_w * ps_h + (tile_w - 1) * ps_h * s_w)
//        * ((tile_h - ps_h) / s_h + 1) * (tile_c / 16)
//   with tile_h/w/c the output tile, ps_h/w the pool size, s_h/w the stride.
//   MAX_POOL_3D runs as two 2-D pool passes (H-W plane, then depth).
//
// RESIZE (bilinear): scaling up 10 points/cycle (sym8, asym8), 5 (sym16,
// fp16); scaling down is slower (the guide suggests a strided CONV_2D).
//
// Layout and re-layout:
//   - 4C: tensors with C <= 4; channel padded to 4; width aligned to 4 pixels
//     (8-bit) or 2 (16-bit).
//   - 16C: any C; channel aligned to 16 bytes (16 pixels 8-bit, 8 pixels
//     16-bit).
//   - A run-time re-layout (DMA) when a non-constant input or an output has
//     an incompatible layout, and between two devices with incompatible
//     layouts; a compile-time one for constant inputs. ADD/MUL and
//     CONCATENATION need all inputs in one layout. 16C-only operators: the
//     pools, RESIZE_*, MEAN, MAX_POOL_3D, MTK_MIN_POOL, reflect/symmetric
//     padding (3.0). SLICE/SPLIT reading C not a multiple of 16 (8-bit) or 8
//     (16-bit) in 16C, or H not a multiple of 4 (8-bit) or 2 (16-bit) in 4C,
//     reads dummy bandwidth; STRIDED_SLICE in 4C strides only along W.
//   - Data conversion at the accelerator's inputs and outputs (DMA): fp32 to
//     fp16 and back; asymmetric int8 to uint8 and back on 1.5. Both can be
//     suppressed (suppressInputConversion/suppressOutputConversion), the
//     caller then supplying and receiving the MDLA's own format.
//   - CONCATENATION costs nothing on 1.5 and 2.0 when every operand has one
//     user (optimized away); 3.0 concatenates in hardware with shared inputs.
//   - PAD not fused into the following layer costs DMA operations.
//   - SPACE_TO_BATCH_ND (all versions) and SPACE_TO_DEPTH/DEPTH_TO_SPACE
//     (1.5) run in software.
//
// Device switch (MDLA <-> another device, e.g. the CPU or a DSP): memory
// copies of temporary buffers when the memory domains differ (the MDLA and
// the DSP share one), driver initialisation, and the device's run time
// including re-layout. Cache flush/invalidate between CPU and APU (dma-buf):
// typically under 1 ms. Dynamic shapes (instruction patching, reallocation)
// and control flow (IF, WHILE, run by the runtime) cost run-time work too.

//===----------------------------------------------------------------------===//
// 8. Device semantics
//===----------------------------------------------------------------------===//

// "The MDLA uses NHWC format for the activation tensors. There are two kinds
// of data layouts for tensors in external memory": 4C, "tensors with
// C <= 4", where "channel is 4-pixels" (and width is aligned to 4 pixels for
// 8-bit, 2 for 16-bit data), and 16C, "tensors with any C", where "channel
// is 16-bytes aligned" (16 pixels for 8-bit data, 8 for 16-bit). 4C is
// preferred where it fits: it is defined first.
def Mdla4C : Layout<"4C"> {
  let MaxChannels = 4;
  let ChannelPixels = 4;
}
def Mdla16C : Layout<"16C"> { let ChannelBytes = 16; }

// CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV "support 4C/16C format";
// the guide names no layout restriction for the other operators, which
// therefore take both.
def : DeviceLayout<MDLA, Mdla1_5, [], [Mdla4C, Mdla16C]>;

// "Only supports 16C format": AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D,
// MTK_MIN_POOL, RESIZE_BILINEAR, RESIZE_NEAREST; MEAN: "HW only supports
// 16C". On 3.0, MAX_POOL_3D: "only supports 16C format", and PAD's
// "reflection and symmetric padding only support NHWC 16C format"
// (MIRROR_PAD). The compiler then stores what they read in 16C ("the
// compiler prefers to use a 16C data layout for the output tensor of
// operation A to avoid data re-layout from 4C to 16C"), and they compute on
// the channels padded to 16 bytes. (L2_POOL_2D, MTK_MIN_POOL and
// MAX_POOL_3D are not declared legal: no kernel runs them.)
defvar SixteenCOnly = [AveragePool2D, MaxPool2D, ResizeBilinear,
                       ResizeNearestNeighbor, Mean];
def : DeviceLayout<MDLA, Mdla1_5, SixteenCOnly, [Mdla16C]>;
def : DeviceLayout<MDLA, Mdla3_0, [MirrorPad], [Mdla16C]>;

// "To support asymmetric INT8 in MDLA 1.5, the MDLA compiler converts
// asymmetric INT8 to asymmetric UINT8 for each input, and converts
// asymmetric UINT8 to asymmetric INT8 for each output" (data type matrix:
// ASYM INT8 is SW on 1.5, HW from 2.0).
def : DeviceStorage<MDLA, Mdla1_5, i8, AsymmetricPerTensor, u8>;
def : DeviceStorage<MDLA, Mdla2_0, i8, AsymmetricPerTensor, i8>;

// Fused operators pass their intermediate results inside the device: "the
// output tensors of Group 1 must be used by Group 2 only" (rule C), and deep
// layer fusion on 3.0 is "replacing external bandwidth with internal data
// flow".
def : DeviceResidency<MDLA, Mdla1_5, [], FusedIntermediates>;
