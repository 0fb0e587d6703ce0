//===- kernels.td - The portable C kernel library -------------------------===//
//
// The calling conventions of the reference kernels every target can run on
// the CPU (templates/ref, lib/kernels/c): each family's parameter struct,
// argument order and functions. accelgen-tblgen generates from this file the
// C parameter structs (-gen-kernel-params), the template instantiation rows
// (-gen-kernel-instances) and the tables the C emitter, the accelerator
// program and the functional models read (-gen-kernel-table). A target
// names the families that run its operators with `Kernel` records.
//
//===----------------------------------------------------------------------===//

include "ops.td"

// Arguments, shared by the families that take them.
def ParamsArg : KernelArg<"params", "params">;
def FieldsArg : KernelArg<"fields", "">;
def InputShapeArg : KernelArg<"shape", "input_shape", 0>;
def InputArg : KernelArg<"data", "input", 0, "in">;
def FilterShapeArg : KernelArg<"shape", "filter_shape", 1>;
def FilterArg : KernelArg<"data", "filter", 1, "weights">;
def BiasArg : KernelArg<"data", "bias", 2, "acc"> { let Optional = 1; }
def OutputShapeArg : KernelArg<"output_shape", "output_shape">;
def OutputArg : KernelArg<"output", "output", -1, "out">;
def CountArg : KernelArg<"count", "count">;
def ElementSizeArg : KernelArg<"element_size", "element_size">;
def AnyInputArg : KernelArg<"data", "input", 0, "any">;
def AnyOutputArg : KernelArg<"output", "output", -1, "any">;

defvar ConvArgs = [ParamsArg, InputShapeArg, InputArg, FilterShapeArg,
                   FilterArg, BiasArg, OutputShapeArg, OutputArg];
defvar UnaryArgs = [ParamsArg, CountArg, InputArg, OutputArg];
defvar WindowArgs = [ParamsArg, InputShapeArg, InputArg, OutputShapeArg,
                     OutputArg];
defvar KernelTypes = [i8, u8, f32];
/// The types of the families that also run int16 activations (symmetric,
/// zero point 0, as TensorFlow Lite Micro's 16x8 kernels).
defvar KernelTypes16 = [i8, u8, i16, f32];

/// The instances of `op` named `stem` for each of `types`.
class PerType<Op op, string stem, list<DType> types> {
  list<KernelInstance> List =
      !foreach(t, types, KernelInstance<op, stem, t>);
}

// Fields several families share.
defvar StrideFields = [KernelField<"stride_h", "int32_t">,
                       KernelField<"stride_w", "int32_t">];
defvar DilationFields = [KernelField<"dilation_h", "int32_t">,
                         KernelField<"dilation_w", "int32_t">];
defvar ConvOffsetFields = [
  KernelField<"input_offset", "int32_t",
              "Quantized: -input_zero_point, -filter_zero_point (0 for int8 "
              "filters), +output_zero_point.">,
  KernelField<"filter_offset", "int32_t">,
  KernelField<"output_offset", "int32_t">];
defvar PerTensorFields = [
  KernelField<"output_multiplier", "int32_t",
              "Per-tensor requantization (int8 per-tensor, uint8).">,
  KernelField<"output_left_shift", "int32_t">];
defvar PerChannelFields = [
  PointerField<"per_channel_multiplier", "int32_t",
               "Per-channel requantization (int8 per-channel): one entry per "
               "output channel each.">,
  PointerField<"per_channel_left_shift", "int32_t">];
defvar FloatScaleFields = [
  PointerField<"float_scale", "float",
               "ONNX's arithmetic (the onnx functions): input scale * filter "
               "scale / output scale in float32, one per output channel, by "
               "which the accumulator is requantized in float32, rounding "
               "half to even.">];
defvar ClampFields = [
  KernelField<"act_min", "int32_t",
              "Quantized clamp: fused activation intersected with the output "
              "type.">,
  KernelField<"act_max", "int32_t">,
  KernelField<"act_min_f", "float", "float32 clamp.">,
  KernelField<"act_max_f", "float">];
defvar PadFields = [
  KernelField<"pad_top", "int32_t",
              "Padding before the first row / column (TensorFlow Lite's "
              "padding.height / padding.width); the far side follows from the "
              "shapes.">,
  KernelField<"pad_left", "int32_t">];

//===----------------------------------------------------------------------===//
// Convolutions and fully connected layers
//===----------------------------------------------------------------------===//

def Conv2DKernels : KernelFamily<"conv2d", "conv", "conv2DOp"> {
  let Doc = "Parameters of one CONV_2D.";
  let Fields = !listconcat(StrideFields, DilationFields, PadFields,
                           ConvOffsetFields, PerTensorFields, PerChannelFields,
                           FloatScaleFields, ClampFields);
  let Args = ConvArgs;
  let Instances = [
    KernelInstance<Conv2D, "conv2d", i8, AnyElement, "per_channel">,
    KernelInstance<Conv2D, "conv2d", i8>,
    KernelInstance<Conv2D, "conv2d", u8>,
    // ONNX's arithmetic (ir::Graph::Computes).
    KernelInstance<Conv2D, "conv2d", i8, AnyElement, "onnx">,
    KernelInstance<Conv2D, "conv2d", u8, AnyElement, "onnx">,
    // The int32 sums themselves (ONNX's ConvInteger): no rounding at all.
    KernelInstance<Conv2D, "conv2d", u8, i32, "integer">,
    KernelInstance<Conv2D, "conv2d", f32>,
    // 16x8: int16 activations, int8 weights, int64 bias and accumulator.
    KernelInstance<Conv2D, "conv2d", i16, AnyElement, "per_channel", i8, i64>];
}

def DepthwiseConv2DKernels
    : KernelFamily<"depthwise_conv2d", "depthwise_conv", "depthwiseConv2DOp"> {
  let Doc = "Parameters of one DEPTHWISE_CONV_2D.";
  let Fields = !listconcat(StrideFields, DilationFields, PadFields,
      [KernelField<"depth_multiplier", "int32_t",
                   "Output channels per input channel (any value >= 1).">],
      ConvOffsetFields, PerTensorFields, PerChannelFields, FloatScaleFields,
      ClampFields);
  let Args = ConvArgs;
  let Instances = [
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", i8, AnyElement, "per_channel">,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", i8>,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", u8>,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", i8, AnyElement, "onnx">,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", u8, AnyElement, "onnx">,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", f32>,
    KernelInstance<DepthwiseConv2D, "depthwise_conv2d", i16, AnyElement,
                   "per_channel", i8, i64>];
}

def TransposeConv2DKernels
    : KernelFamily<"transpose_conv2d", "transpose_conv", "transposeConv2DOp"> {
  let Doc = "Parameters of one TRANSPOSE_CONV (the output shape operand is "
            "the output tensor's shape; data operands 0 to 2 are the input, "
            "the filter [Cout, kh, kw, Cin] and the optional bias).";
  let Fields = !listconcat(StrideFields, PadFields,
      [KernelField<"input_offset", "int32_t", "-input_zero_point.">,
       KernelField<"output_offset", "int32_t", "+output_zero_point.">],
      PerChannelFields,
      [KernelField<"act_min", "int32_t", "Quantized clamp.">,
       KernelField<"act_max", "int32_t">,
       KernelField<"act_min_f", "float", "float32 clamp.">,
       KernelField<"act_max_f", "float">]);
  let Args = ConvArgs;
  let Instances = [
    KernelInstance<TransposeConv, "transpose_conv2d", f32>,
    KernelInstance<TransposeConv, "transpose_conv2d", i8, AnyElement,
                   "per_channel">,
    KernelInstance<TransposeConv, "transpose_conv2d", i16, AnyElement,
                   "per_channel", i8, i64>];
}

def FullyConnectedKernels
    : KernelFamily<"fully_connected", "fully_connected",
                   "fullyConnected"> {
  let Doc = "Parameters of one FULLY_CONNECTED.";
  let Fields = !listconcat(ConvOffsetFields, PerTensorFields, PerChannelFields,
                           FloatScaleFields, ClampFields);
  let Args = ConvArgs;
  let Instances = [
    KernelInstance<FullyConnected, "fully_connected", i8>,
    KernelInstance<FullyConnected, "fully_connected", i8, AnyElement, "per_channel">,
    KernelInstance<FullyConnected, "fully_connected", u8>,
    KernelInstance<FullyConnected, "fully_connected", i8, AnyElement, "onnx">,
    KernelInstance<FullyConnected, "fully_connected", u8, AnyElement, "onnx">,
    // The int32 sums themselves (ONNX's MatMulInteger).
    KernelInstance<FullyConnected, "fully_connected", u8, i32, "integer">,
    KernelInstance<FullyConnected, "fully_connected", f32>,
    KernelInstance<FullyConnected, "fully_connected", i16, AnyElement,
                   "per_channel", i8, i64>];
}

//===----------------------------------------------------------------------===//
// Pools, element-wise arithmetic, activations, softmax
//===----------------------------------------------------------------------===//

/// TensorFlow Lite Micro's BATCH_MATMUL: float32, int8 and int16 (zero
/// points 0), both operands of the output's type; ONNX's QLinearMatMul of
/// batches on int8 and uint8.
def BatchMatMulKernels
    : KernelFamily<"batch_matmul", "batch_matmul", "batchMatMulOp"> {
  let Doc = "Parameters of one BATCH_MATMUL: the output's batch dimensions "
            "and each operand's matrix strides in them (0 where broadcast), "
            "padded to 4 at the front.";
  let Fields = [
    ArrayField<"batch", "int32_t", "4">,
    ArrayField<"lhs_stride", "int32_t", "4">,
    ArrayField<"rhs_stride", "int32_t", "4">,
    KernelField<"rows", "int32_t", "The output's rows, columns and the "
                                   "depth summed over.">,
    KernelField<"cols", "int32_t">, KernelField<"depth", "int32_t">,
    KernelField<"adj_x", "int32_t", "Non-zero: lhs is stored [depth, rows].">,
    KernelField<"adj_y", "int32_t", "Non-zero: rhs is stored [cols, depth].">,
    KernelField<"lhs_offset", "int32_t",
                "Quantized: -lhs_zero_point, -rhs_zero_point, "
                "+output_zero_point.">,
    KernelField<"rhs_offset", "int32_t">,
    KernelField<"output_offset", "int32_t">,
    KernelField<"output_multiplier", "int32_t">,
    KernelField<"output_left_shift", "int32_t">,
    KernelField<"onnx_scale", "float",
                "ONNX's arithmetic (the onnx functions): lhs scale * rhs "
                "scale / output scale in float32, the sum requantized by it "
                "with ties to even.">];
  let Args = [ParamsArg, InputArg, KernelArg<"data", "rhs", 1, "in">,
              OutputArg];
  let Instances = !listconcat(
      PerType<BatchMatMul, "batch_matmul", [i8, i16, f32]>.List,
      // ONNX's arithmetic (QLinearMatMul of batches).
      [KernelInstance<BatchMatMul, "batch_matmul", i8, AnyElement, "onnx">,
       KernelInstance<BatchMatMul, "batch_matmul", u8, AnyElement, "onnx">]);
}

def Pool2DKernels : KernelFamily<"pool2d", "pooling", "pool2D"> {
  let Doc = "Parameters of one AVERAGE_POOL_2D or MAX_POOL_2D.";
  let Fields = !listconcat(StrideFields,
      [KernelField<"filter_h", "int32_t">, KernelField<"filter_w", "int32_t">],
      PadFields, ClampFields,
      [KernelField<"input_offset", "int32_t",
                   "ONNX's arithmetic (the onnx functions): -input_zero_point, "
                   "+output_zero_point and both scales, the input's and the "
                   "output's quantization being free to differ.">,
       KernelField<"output_offset", "int32_t">,
       KernelField<"input_scale", "float">,
       KernelField<"output_scale", "float">]);
  let Args = WindowArgs;
  let Instances = !listconcat(
      PerType<AveragePool2D, "average_pool2d", KernelTypes16>.List,
      // ONNX's arithmetic (ir::Graph::Computes), as ONNX Runtime's
      // QLinearAveragePool.
      // QLinearAveragePool; MaxPool's maximum is exact, the same function.
      [KernelInstance<AveragePool2D, "average_pool2d", i8, AnyElement, "onnx">,
       KernelInstance<AveragePool2D, "average_pool2d", u8, AnyElement, "onnx">,
       KernelInstance<MaxPool2D, "max_pool2d", i8, AnyElement, "onnx">,
       KernelInstance<MaxPool2D, "max_pool2d", u8, AnyElement, "onnx">],
      PerType<MaxPool2D, "max_pool2d", KernelTypes16>.List,
      [KernelInstance<L2Pool2D, "l2_pool2d", f32>]);
}

def ElementwiseKernels
    : KernelFamily<"elementwise", "elementwise", "elementwise"> {
  let Doc = "Parameters of one ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE or "
            "PRELU (MAXIMUM, MINIMUM, FLOOR_DIV and FLOOR_MOD take none).";
  let Fields = [
    KernelField<"input1_offset", "int32_t",
                "-input1_zero_point, -input2_zero_point, +output_zero_point.">,
    KernelField<"input2_offset", "int32_t">,
    KernelField<"output_offset", "int32_t">,
    KernelField<"input_left_shift", "int32_t",
                "ADD / SUB: common-scale headroom (20 for 8-bit types) and the "
                "input multipliers (left shifts <= 0); SQUARED_DIFFERENCE the "
                "same with 7 (int8) or 0 (int16). Unused by MUL and DIV. "
                "ADD with ONNX's arithmetic (the onnx functions, as ONNX "
                "Runtime's QLinearAdd): the input multipliers are each input "
                "scale over the output's times 2^input_left_shift, and the "
                "sum of their products is divided by 2^input_left_shift.">,
    KernelField<"input1_multiplier", "int32_t">,
    KernelField<"input1_left_shift", "int32_t">,
    KernelField<"input2_multiplier", "int32_t">,
    KernelField<"input2_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int32_t", "Output requantization.">,
    KernelField<"output_left_shift", "int32_t">,
    KernelField<"act_min", "int32_t", "Quantized clamp.">,
    KernelField<"act_max", "int32_t">,
    KernelField<"act_min_f", "float", "float32 clamp.">,
    KernelField<"act_max_f", "float">,
    KernelField<"input1_scale", "float",
                "SUB and MUL with ONNX's arithmetic (the onnx functions): the "
                "three scales, in float32 as ONNX Runtime computes with them "
                "(SUB: dequantized, subtracted, quantized; MUL: the integer "
                "product times input1_scale * input2_scale / output_scale, "
                "plus the zero point, rounded half to even).">,
    KernelField<"input2_scale", "float">,
    KernelField<"output_scale", "float">];
  let Args = [ParamsArg, KernelArg<"shape", "input1_shape", 0>,
              KernelArg<"data", "input1", 0, "in">,
              KernelArg<"shape", "input2_shape", 1>,
              // The input's type but for int16 PRELU's int8 alpha.
              KernelArg<"data", "input2", 1, "weights">, OutputShapeArg,
              OutputArg];
  // The operators after MUL in TensorFlow Lite Micro's types.
  let Instances = !listconcat(PerType<Add, "add", KernelTypes16>.List,
                              // ONNX's arithmetic (ir::Graph::Computes).
                              [KernelInstance<Add, "add", i8, AnyElement, "onnx">,
                               KernelInstance<Add, "add", u8, AnyElement, "onnx">,
                               KernelInstance<Sub, "sub", i8, AnyElement, "onnx">,
                               KernelInstance<Sub, "sub", u8, AnyElement, "onnx">,
                               KernelInstance<Mul, "mul", i8, AnyElement, "onnx">,
                               KernelInstance<Mul, "mul", u8, AnyElement, "onnx">],
                              PerType<Sub, "sub", KernelTypes16>.List,
                              PerType<Mul, "mul", KernelTypes16>.List,
                              // TensorFlow Lite Micro's plain int32 ones.
                              PerType<Add, "add", [i32]>.List,
                              PerType<Sub, "sub", [i32]>.List,
                              PerType<Mul, "mul", [i32]>.List,
                              PerType<Maximum, "maximum",
                                      [i8, i16, i32, i64, f32]>.List,
                              PerType<Minimum, "minimum",
                                      [i8, i16, i32, i64, f32]>.List,
                              PerType<Div, "div", [i8, i32, f32]>.List,
                              PerType<SquaredDifference, "squared_difference",
                                      [i8, i16, i32, f32]>.List,
                              [KernelInstance<FloorDiv, "floor_div", f32>,
                               KernelInstance<FloorMod, "floor_mod", f32>],
                              PerType<Prelu, "prelu", [i8, f32]>.List,
                              [KernelInstance<Prelu, "prelu", i16, AnyElement,
                                              "", i8>]);
}

/// TensorFlow Lite Micro's ADD_N: float32 and int8.
def AddNKernels : KernelFamily<"add_n", "add_n", "addNOp"> {
  let Doc = "Parameters of one ADD_N (float32 reads num_inputs only).";
  let Fields = [
    KernelField<"num_inputs", "int32_t">,
    KernelField<"input_offset", "int32_t",
                "-zero_point, shared by every input.">,
    KernelField<"output_offset", "int32_t">,
    KernelField<"left_shift", "int32_t", "20: headroom before rescaling.">,
    KernelField<"input_multiplier", "int32_t",
                "input_scale / (2 * input_scale), left shift <= 0.">,
    KernelField<"input_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int32_t",
                "2 * input_scale / (2^20 * output_scale).">,
    KernelField<"output_left_shift", "int32_t">];
  let Args = [ParamsArg, CountArg, KernelArg<"inputs", "inputs", 0, "in">,
              OutputArg];
  let Instances = PerType<AddN, "add_n", [i8, f32]>.List;
}

/// TensorFlow Lite Micro's CUMSUM: float32 and int8.
def CumsumKernels : KernelFamily<"cumsum", "cumsum", "cumsumOp"> {
  let Doc = "Parameters of one CUMSUM: the tensor as [before, depth, after] "
            "around the axis; the int8 fields as ADD_N's.";
  let Fields = [
    KernelField<"before", "int32_t">, KernelField<"depth", "int32_t">,
    KernelField<"after", "int32_t">,
    KernelField<"exclusive", "int32_t",
                "Non-zero: each sum leaves its own element out.">,
    KernelField<"reverse", "int32_t",
                "Non-zero: the sums run from the end of the axis.">,
    KernelField<"input_offset", "int32_t">,
    KernelField<"output_offset", "int32_t">,
    KernelField<"left_shift", "int32_t">,
    KernelField<"input_multiplier", "int32_t">,
    KernelField<"input_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int32_t">,
    KernelField<"output_left_shift", "int32_t">];
  let Args = [ParamsArg, InputArg, OutputArg];
  let Instances = PerType<Cumsum, "cumsum", [i8, f32]>.List;
}

/// TensorFlow Lite Micro's comparisons (EQUAL and NOT_EQUAL also of bool;
/// GREATER's int16, which reads parameters Micro never sets, is left out)
/// and LOGICAL_AND / LOGICAL_OR, all into bool.
def CompareKernels : KernelFamily<"compare", "compare", "compareOp"> {
  let Doc = "Parameters of one comparison (only int8 reads them).";
  let Fields = [
    KernelField<"input1_offset", "int32_t",
                "-input1_zero_point, -input2_zero_point.">,
    KernelField<"input2_offset", "int32_t">,
    KernelField<"left_shift", "int32_t", "8: headroom before the scaling.">,
    KernelField<"input1_multiplier", "int32_t",
                "Each input's own scale (below 1), left shifts <= 0.">,
    KernelField<"input1_left_shift", "int32_t">,
    KernelField<"input2_multiplier", "int32_t">,
    KernelField<"input2_left_shift", "int32_t">];
  let Args = [ParamsArg, KernelArg<"shape", "input1_shape", 0>,
              KernelArg<"data", "input1", 0, "in">,
              KernelArg<"shape", "input2_shape", 1>,
              KernelArg<"data", "input2", 1, "in">, OutputShapeArg, OutputArg];
  let Instances = !listconcat(
      !foreach(t, [bool, i8, i32, i64, f32],
               KernelInstance<Equal, "equal", t, bool>),
      !foreach(t, [bool, i8, i32, i64, f32],
               KernelInstance<NotEqual, "not_equal", t, bool>),
      !foreach(t, [i8, i32, i64, f32], KernelInstance<Less, "less", t, bool>),
      !foreach(t, [i8, i32, i64, f32],
               KernelInstance<LessEqual, "less_equal", t, bool>),
      !foreach(t, [i8, i32, i64, f32],
               KernelInstance<Greater, "greater", t, bool>),
      !foreach(t, [i8, i32, i64, f32],
               KernelInstance<GreaterEqual, "greater_equal", t, bool>),
      [KernelInstance<LogicalAnd, "logical_and", bool, bool>,
       KernelInstance<LogicalOr, "logical_or", bool, bool>]);
}

/// SELECT_V2 moves elements (TensorFlow Lite Micro takes int8, int16 and
/// float32 x and y; the kernel any element size).
def SelectKernels : KernelFamily<"select", "select", "selectOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one SELECT_V2: the output's dimensions and each "
            "operand's element strides in them, all padded to REF_MAX_RANK "
            "(stride 0 where an operand is broadcast).";
  let Rendered = 0;
  let Fields = [ArrayField<"dims", "int32_t", "REF_MAX_RANK">,
                ArrayField<"condition_stride", "int32_t", "REF_MAX_RANK">,
                ArrayField<"x_stride", "int32_t", "REF_MAX_RANK">,
                ArrayField<"y_stride", "int32_t", "REF_MAX_RANK">];
  let Args = [ParamsArg, ElementSizeArg,
              KernelArg<"data", "condition", 0, "any">,
              KernelArg<"data", "x", 1, "any">,
              KernelArg<"data", "y", 2, "any">, AnyOutputArg];
  let Instances = [KernelInstance<SelectV2, "select_v2">];
}

/// TensorFlow Lite Micro's float32 ABS, NEG, SQRT, RSQRT, SQUARE, CEIL,
/// FLOOR and ROUND, and its int8 and int16 ABS.
def UnaryMathKernels
    : KernelFamily<"unary_math", "unary_math", "unaryMathOp"> {
  let Doc = "Parameters of one ABS, NEG, SQRT, RSQRT, SQUARE, CEIL, FLOOR "
            "or ROUND (only an integer ABS reads them).";
  let Fields = [
    KernelField<"input_zero_point", "int32_t",
                "Integer ABS: |x - input_zero_point|, then (rescale) times "
                "input_scale / output_scale, plus output_zero_point, "
                "clamped.">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"rescale", "int32_t", "Non-zero when the scales differ.">,
    KernelField<"multiplier", "int32_t">,
    KernelField<"left_shift", "int32_t">,
    KernelField<"raw", "int32_t",
                "int16 without quantization: |x| of the stored value, "
                "wrapped.">];
  let Args = UnaryArgs;
  let Instances = !listconcat(
      PerType<Abs, "abs", [i8, i16, f32]>.List,
      [KernelInstance<Neg, "neg", f32>, KernelInstance<Sqrt, "sqrt", f32>,
       KernelInstance<Rsqrt, "rsqrt", f32>, KernelInstance<Rsqrt, "rsqrt", i8>,
       KernelInstance<Square, "square", f32>,
       KernelInstance<Ceil, "ceil", f32>, KernelInstance<Floor, "floor", f32>,
       KernelInstance<Round, "round", f32>, KernelInstance<Exp, "exp", f32>,
       KernelInstance<Log, "log", f32>, KernelInstance<Sin, "sin", f32>,
       KernelInstance<Cos, "cos", f32>,
       KernelInstance<LogicalNot, "logical_not", bool>],
      // CAST from bool: 0 or 1.
      !foreach(t, [i8, u8, i16, i32, u32, f32],
               KernelInstance<Cast, "cast", bool, t>),
      // CAST between each pair of TensorFlow Lite Micro's other types, and
      // TensorFlow Lite's uint8.
      !foldl([]<KernelInstance>, [i8, u8, i16, i32, u32, f32], acc, from,
             !listconcat(acc, !foldl([]<KernelInstance>,
                                     [i8, u8, i16, i32, u32, f32], row, to,
                                     !listconcat(row, !if(!eq(from, to), [],
                                         [KernelInstance<Cast, "cast", from,
                                                         to>]))))));
}

/// TensorFlow Lite Micro's ELU: float32, and int8 through a table.
def EluKernels : KernelFamily<"elu", "elu", "eluOp"> {
  let Doc = "Parameters of one ELU (float32 reads none).";
  let Fields = [ArrayField<"table", "int8_t", "256",
                           "int8: the output for each stored input, indexed "
                           "by its bits as uint8.">];
  let Args = UnaryArgs;
  let Instances = PerType<Elu, "elu", [i8, f32]>.List;
}

/// TensorFlow Lite Micro's L2_NORMALIZATION: float32 and int8.
def L2NormKernels : KernelFamily<"l2norm", "l2norm", "l2NormOp"> {
  let Doc = "Parameters of one L2_NORMALIZATION (float32 reads none).";
  let Fields = [KernelField<"input_zero_point", "int32_t">];
  let Args = [ParamsArg, KernelArg<"shape", "shape", 0>, InputArg, OutputArg];
  let Instances = PerType<L2Normalization, "l2_normalization", [i8, f32]>.List;
}

/// TensorFlow Lite Micro's ARG_MAX and ARG_MIN: int8 or float32 in, int32
/// out.
def ArgMinMaxKernels
    : KernelFamily<"arg_min_max", "arg_min_max", "argMinMaxOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one ARG_MAX or ARG_MIN.";
  let Fields = [KernelField<"axis", "int32_t",
                            "The dimension searched, 0 to rank - 1.">];
  let Args = [ParamsArg, InputShapeArg, InputArg, OutputArg];
  let Instances = [KernelInstance<ArgMax, "arg_max", i8, i32>,
                   KernelInstance<ArgMax, "arg_max", f32, i32>,
                   KernelInstance<ArgMin, "arg_min", i8, i32>,
                   KernelInstance<ArgMin, "arg_min", f32, i32>];
}

def ReluKernels : KernelFamily<"relu", "activations", "reluOp"> {
  let Doc = "Parameters of one RELU, RELU6 or RELU_N1_TO_1.";
  let Fields = [
    KernelField<"input_zero_point", "int32_t">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"output_multiplier", "int32_t", "input_scale / output_scale.">,
    KernelField<"output_left_shift", "int32_t">,
    KernelField<"act_min", "int32_t",
                "Quantized clamp: the activation's range in the output "
                "quantization.">,
    KernelField<"act_max", "int32_t">,
    KernelField<"act_min_f", "float", "float32 clamp.">,
    KernelField<"act_max_f", "float">];
  let Args = UnaryArgs;
  let Instances = !listconcat(PerType<Relu, "relu", KernelTypes16>.List,
                              PerType<Relu6, "relu", KernelTypes16>.List,
                              PerType<ReluN1To1, "relu", KernelTypes>.List);
}

def LeakyReluKernels
    : KernelFamily<"leaky_relu", "activations", "leakyReluOp"> {
  let Doc = "Parameters of one LEAKY_RELU.";
  let Fields = [
    KernelField<"input_zero_point", "int32_t">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"identity_multiplier", "int32_t",
                "input_scale / output_scale, for x >= 0.">,
    KernelField<"identity_left_shift", "int32_t">,
    KernelField<"alpha_multiplier", "int32_t",
                "input_scale * alpha / output_scale, for x < 0 (negative "
                "for a negative alpha).">,
    KernelField<"alpha_left_shift", "int32_t">,
    KernelField<"alpha", "float", "float32 only.">];
  let Args = UnaryArgs;
  let Instances = PerType<LeakyRelu, "leaky_relu", KernelTypes16>.List;
}

def HardSwishKernels
    : KernelFamily<"hard_swish", "activations", "hardSwishOp"> {
  let Doc = "Parameters of one HARD_SWISH.";
  let Fields = [
    KernelField<"input_zero_point", "int32_t">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"reluish_multiplier", "int16_t",
                "(input_scale / 128) / (3 / 32768): any left shift.">,
    KernelField<"reluish_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int16_t",
                "(input_scale / 128) / output_scale: left shift <= 0.">,
    KernelField<"output_left_shift", "int32_t">];
  let Args = UnaryArgs;
  let Instances = PerType<HardSwish, "hard_swish", KernelTypes>.List;
}

def SigmoidKernels : KernelFamily<"sigmoid", "activations", "sigmoidOp"> {
  let Doc = "Parameters of one LOGISTIC or TANH.";
  let Fields = [
    KernelField<"input_zero_point", "int32_t">,
    KernelField<"input_range_radius", "int32_t",
                "|x - input_zero_point| at which the output saturates "
                "(8-bit).">,
    KernelField<"input_multiplier", "int32_t",
                "8-bit: input_scale * 2^(31 - 4), left shift >= 0. int16: "
                "the int16 multiplier onto the sigmoid table's scale "
                "1 / (3 * 4096).">,
    KernelField<"input_left_shift", "int32_t",
                "int16: the rounding right shift after the multiplier.">,
    PointerField<"lookup_table", "int32_t",
                 "The onnx functions: the result for each of the 256 input "
                 "bytes (indexed by the byte), as ONNX Runtime's "
                 "QLinearSigmoid builds its table.">];
  let Args = UnaryArgs;
  let Instances = !listconcat(PerType<Logistic, "logistic", KernelTypes16>.List,
                              PerType<Tanh, "tanh", KernelTypes16>.List,
                              // ONNX's arithmetic (QLinearSigmoid).
                              [KernelInstance<Logistic, "logistic", i8,
                                              AnyElement, "onnx">,
                               KernelInstance<Logistic, "logistic", u8,
                                              AnyElement, "onnx">]);
}

def SoftmaxKernels : KernelFamily<"softmax", "softmax", "softmax"> {
  let Doc = "Parameters of one SOFTMAX.";
  let Fields = [
    KernelField<"input_multiplier", "int32_t",
                "8-bit: beta * input_scale * 2^(31 - 5) as a quantized "
                "multiplier with a non-negative left shift. int16: beta * "
                "input_scale / (10 / 65535), onto the exp table's scale.">,
    KernelField<"input_left_shift", "int32_t">,
    KernelField<"diff_min", "int32_t",
                "The most negative input difference that still contributes "
                "(<= 0).">,
    KernelField<"beta", "float", "float32 only.">,
    PointerField<"exp_table", "float",
                 "ONNX's arithmetic (the onnx functions), as ONNX Runtime's "
                 "QLinearSoftmax: 256 float32 exponentials, indexed by the "
                 "input's difference from its row's maximum.">,
    KernelField<"output_steps", "float",
                "floor(1 / output scale).">,
    KernelField<"output_offset", "int32_t", "+output_zero_point.">];
  let Args = [ParamsArg, KernelArg<"shape", "shape", 0>, InputArg, OutputArg];
  // int8 to int16 first: the instances without an output type take any.
  let Instances = !listconcat(
      [KernelInstance<Softmax, "softmax", i8, i16>],
      PerType<Softmax, "softmax", KernelTypes16>.List,
      [KernelInstance<Softmax, "softmax", i8, AnyElement, "onnx">,
       KernelInstance<Softmax, "softmax", u8, AnyElement, "onnx">]);
}

/// TensorFlow Lite Micro's LOG_SOFTMAX: float32, and int8 into scale 16/256,
/// zero point 127.
def LogSoftmaxKernels
    : KernelFamily<"log_softmax", "log_softmax", "logSoftmaxOp"> {
  let Doc = "Parameters of one LOG_SOFTMAX (float32 reads none).";
  let Fields = [
    KernelField<"input_multiplier", "int32_t",
                "input_scale * 2^(31 - 5) as a multiplier above one, as "
                "SOFTMAX's (beta 1).">,
    KernelField<"input_left_shift", "int32_t">,
    KernelField<"reverse_scaling_divisor", "int32_t",
                "2^(31 - input_left_shift) / input_multiplier, below one: "
                "Q5 back to the input's differences.">,
    KernelField<"reverse_scaling_left_shift", "int32_t">,
    KernelField<"diff_min", "int32_t">];
  let Args = [ParamsArg, KernelArg<"shape", "shape", 0>, InputArg, OutputArg];
  let Instances = PerType<LogSoftmax, "log_softmax", [i8, f32]>.List;
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

/// The per-channel parameters of a conversion, the channels being the
/// last axis (element i is of channel i % channels).
defvar ChannelQuantFields = [
  KernelField<"channels", "int32_t",
              "Per channel: the last axis' size, which channel_scale and "
              "channel_zero_point have one value for each of.">,
  PointerField<"channel_scale", "float">,
  PointerField<"channel_zero_point", "int32_t">];

def QuantizeKernels : KernelFamily<"quantize", "quantize", "quantizeOp"> {
  let Doc = "float32 to a quantized type: round(x / scale) + zero_point "
            "(TensorFlow Lite rounds half away from zero; the onnx functions "
            "round half to even, as ONNX's QuantizeLinear).";
  let Fields = !listconcat([KernelField<"scale", "float">,
                             KernelField<"zero_point", "int32_t">],
                            ChannelQuantFields);
  let Args = UnaryArgs;
  let Instances = [KernelInstance<Quantize, "quantize", f32, i8>,
                   KernelInstance<Quantize, "quantize", f32, u8>,
                   KernelInstance<Quantize, "quantize", f32, i16>,
                   // ONNX's arithmetic (ir::Graph::Computes).
                   KernelInstance<Quantize, "quantize", f32, i8, "onnx">,
                   KernelInstance<Quantize, "quantize", f32, u8, "onnx">,
                   // Per channel along the last axis: TensorFlow Lite's
                   // PerChannelQuantize, and ONNX's QuantizeLinear with an
                   // axis.
                   KernelInstance<Quantize, "quantize", f32, i8,
                                  "per_channel">,
                   KernelInstance<Quantize, "quantize", f32, u8,
                                  "per_channel">,
                   KernelInstance<Quantize, "quantize", f32, i8,
                                  "onnx_per_channel">,
                   KernelInstance<Quantize, "quantize", f32, u8,
                                  "onnx_per_channel">];
}

def DequantizeKernels
    : KernelFamily<"dequantize", "quantize", "dequantizeOp"> {
  let AnyArithmetic = 1;
  let Doc = "A quantized type to float32: scale * (q - zero_point).";
  let Fields = !listconcat([KernelField<"scale", "double">,
                             KernelField<"zero_point", "int32_t">],
                            ChannelQuantFields);
  let Args = UnaryArgs;
  let Instances = [KernelInstance<Dequantize, "dequantize", i8, f32>,
                   KernelInstance<Dequantize, "dequantize", u8, f32>,
                   KernelInstance<Dequantize, "dequantize", i16, f32>,
                   // Per channel (DequantizeLinear with an axis).
                   KernelInstance<Dequantize, "dequantize", i8, f32,
                                  "per_channel">,
                   KernelInstance<Dequantize, "dequantize", u8, f32,
                                  "per_channel">];
}

/// QUANTIZE between two quantized types, and the REQUANTIZE that
/// quantization rules insert, which runs as one.
def RequantizeKernels
    : KernelFamily<"requantize", "quantize", "quantizeOp"> {
  let Doc = "One quantized type to another.";
  let Fields = [KernelField<"input_zero_point", "int32_t">,
                KernelField<"output_zero_point", "int32_t">,
                KernelField<"multiplier", "int32_t">,
                KernelField<"left_shift", "int32_t">,
                KernelField<"input_scale", "float",
                            "ONNX's arithmetic (the onnx functions): "
                            "DequantizeLinear then QuantizeLinear in float32, "
                            "(q - input_zero_point) * input_scale / "
                            "output_scale rounded half to even.">,
                KernelField<"output_scale", "float">];
  let Args = UnaryArgs;
  let Instances = !listconcat(
    !foreach(p, [[i8, i8], [i8, u8], [u8, i8], [u8, u8], [i8, i16], [i16, i8],
                 [i16, i16], [i8, i32], [i16, i32], [i32, i8], [i32, i16]],
             KernelInstance<Quantize, "requantize", p[0], p[1]>),
    !foreach(p, [[i8, i8], [i8, u8], [u8, i8], [u8, u8]],
             KernelInstance<Quantize, "requantize", p[0], p[1], "onnx">),
    !foreach(p, [[i8, i8], [i8, u8], [u8, i8], [u8, u8]],
             KernelInstance<Requantize, "requantize", p[0], p[1]>));
}

//===----------------------------------------------------------------------===//
// Data movement and reductions
//===----------------------------------------------------------------------===//

def ConcatKernels : KernelFamily<"concat", "concat", "concatOp"> {
  let Doc = "Parameters of one CONCATENATION or PACK (whose inputs lack the "
            "axis: each gives one slice of it).";
  let Fields = [
    KernelField<"axis", "int32_t", "The joined dimension, in [0, rank).">,
    KernelField<"num_inputs", "int32_t">,
    PointerField<"input_scale", "float",
                 "uint8 with scaling only: num_inputs scales and zero "
                 "points.">,
    PointerField<"input_zero_point", "int32_t">,
    KernelField<"output_scale", "float">,
    KernelField<"output_zero_point", "int32_t">];
  let Args = [ParamsArg, KernelArg<"input_shapes", "input_shapes">,
              KernelArg<"inputs", "inputs", 0, "in">, OutputShapeArg,
              OutputArg];
  let Instances = [KernelInstance<Concatenation, "concat", i8>,
                   KernelInstance<Concatenation, "concat", u8>,
                   KernelInstance<Concatenation, "concat", i16>,
                   KernelInstance<Concatenation, "concat", f32>,
                   KernelInstance<Concatenation, "concat", u8, AnyElement, "rescale">,
                   // ONNX's arithmetic: inputs of the output's quantization,
                   // copied (QLinearConcat's copy).
                   KernelInstance<Concatenation, "concat", i8, AnyElement, "onnx">,
                   KernelInstance<Concatenation, "concat", u8, AnyElement, "onnx">,
                   // And TensorFlow Lite Micro's others, copied.
                   KernelInstance<Concatenation, "concat", i32>,
                   KernelInstance<Concatenation, "concat", i64>,
                   KernelInstance<Concatenation, "concat", bool>,
                   // TensorFlow Lite Micro's PACK types, and TensorFlow
                   // Lite's uint8.
                   KernelInstance<Pack, "concat", i8>,
                   KernelInstance<Pack, "concat", u8>,
                   KernelInstance<Pack, "concat", i16>,
                   KernelInstance<Pack, "concat", i32>,
                   KernelInstance<Pack, "concat", i64>,
                   KernelInstance<Pack, "concat", f32>];
}

def PadKernels : KernelFamily<"pad", "pad", "padOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one PAD or PADV2.";
  let Fields = [
    ArrayField<"before", "int32_t", "REF_MAX_RANK">,
    ArrayField<"after", "int32_t", "REF_MAX_RANK">,
    KernelField<"pad_value", "int32_t",
                "The padding value: quantized (int8 / uint8) or float.">,
    KernelField<"pad_value_f", "float">];
  let Args = WindowArgs;
  let Instances = !listconcat(PerType<Pad, "pad", KernelTypes16>.List,
                              PerType<PadV2, "pad", KernelTypes16>.List,
                              // TensorFlow Lite Micro's plain int32.
                              PerType<Pad, "pad", [i32]>.List,
                              PerType<PadV2, "pad", [i32]>.List);
}

def MeanKernels : KernelFamily<"mean", "reduce", "meanOp"> {
  let Doc = "Parameters of one MEAN or SUM.";
  let Fields = [
    KernelField<"axis_mask", "uint32_t",
                "Bit d set: dimension d of the input is reduced.">,
    KernelField<"input_zero_point", "int32_t">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"multiplier", "int32_t",
                "(input_scale / output_scale) / count: the count folded into "
                "the multiplier as TensorFlow Lite's QuantizedMeanOrSum "
                "does (MEAN); input_scale / output_scale (SUM).">,
    KernelField<"left_shift", "int32_t">,
    KernelField<"divide", "int32_t",
                "float32: non-zero divides each sum by its count (MEAN).">];
  let Args = [ParamsArg, InputShapeArg, InputArg, OutputArg];
  // SUM is MEAN without the count: the same functions.
  // REDUCE_MAX reads no parameter but the axes (and keeps the
  // quantization).
  let Instances = !listconcat(PerType<Mean, "mean", KernelTypes16>.List,
                              PerType<Sum, "mean", [i8, i16, f32]>.List,
                              PerType<ReduceMax, "reduce_max", [i8, f32]>.List,
                              PerType<ReduceMin, "reduce_min", [i8, f32]>.List,
                              [KernelInstance<ReduceAll, "reduce_all", bool>]);
}

def TransposeKernels : KernelFamily<"transpose", "transpose",
                                    "transposeOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one TRANSPOSE.";
  let Rendered = 0;
  let Fields = [ArrayField<"perm", "int32_t", "REF_MAX_RANK">];
  let Args = [ParamsArg, ElementSizeArg, InputShapeArg, AnyInputArg,
              OutputShapeArg, AnyOutputArg];
  let Instances = [KernelInstance<Transpose, "transpose">];
}

/// SPACE_TO_DEPTH and DEPTH_TO_SPACE move bytes (TensorFlow Lite Micro
/// takes int8 and float32; the kernels any element size).
def SpaceDepthKernels
    : KernelFamily<"space_depth", "space_depth", "spaceDepthOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one SPACE_TO_DEPTH or DEPTH_TO_SPACE.";
  let Rendered = 0;
  let Fields = [KernelField<"block_size", "int32_t",
                            "The side of a spatial block, > 0.">];
  let Args = [ParamsArg, ElementSizeArg, InputShapeArg, AnyInputArg,
              OutputShapeArg, AnyOutputArg];
  let Instances = [KernelInstance<SpaceToDepth, "space_to_depth">,
                   KernelInstance<DepthToSpace, "depth_to_space">];
}

/// RESIZE_BILINEAR (TensorFlow Lite Micro's int8 and float32) and
/// RESIZE_NEAREST_NEIGHBOR (its int8, int16 and float32, and uint8).
def ResizeKernels : KernelFamily<"resize", "resize", "resizeOp"> {
  let Doc = "Parameters of one RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR "
            "(the size operand is the output's height and width).";
  let Fields = [KernelField<"align_corners", "int32_t",
                            "Non-zero: the corners' centres align.">,
                KernelField<"half_pixel_centers", "int32_t",
                            "Non-zero: samples at pixel centres.">];
  let Args = WindowArgs;
  let Instances = !listconcat(
      PerType<ResizeBilinear, "resize_bilinear", [i8, f32]>.List,
      PerType<ResizeNearestNeighbor, "resize_nearest_neighbor",
              [i8, u8, i16, f32]>.List);
}

/// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND move bytes (TensorFlow Lite
/// Micro takes int8 and float32; the kernels any element size).
def BatchSpaceKernels
    : KernelFamily<"batch_space", "batch_space", "batchSpaceOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one SPACE_TO_BATCH_ND or BATCH_TO_SPACE_ND.";
  let Rendered = 0;
  let Fields = [
    KernelField<"block_h", "int32_t", "The block's height and width, > 0 "
                                      "(width 1 for rank-3 tensors).">,
    KernelField<"block_w", "int32_t">,
    KernelField<"pad_top", "int32_t",
                "SPACE_TO_BATCH_ND's padding before the first row and "
                "column, BATCH_TO_SPACE_ND's crops there.">,
    KernelField<"pad_left", "int32_t">,
    KernelField<"pad_byte", "int32_t",
                "The byte padding is filled with: the zero point of an "
                "8-bit type, otherwise 0.">];
  let Args = [ParamsArg, ElementSizeArg, InputShapeArg, AnyInputArg,
              OutputShapeArg, AnyOutputArg];
  let Instances = [KernelInstance<SpaceToBatchND, "space_to_batch_nd">,
                   KernelInstance<BatchToSpaceND, "batch_to_space_nd">];
}

/// MIRROR_PAD moves bytes (TensorFlow Lite Micro takes int8 and float32;
/// the kernel any element size).
def MirrorPadKernels
    : KernelFamily<"mirror_pad", "mirror_pad", "mirrorPadOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one MIRROR_PAD.";
  let Rendered = 0;
  let Fields = [ArrayField<"before", "int32_t", "REF_MAX_RANK">,
                ArrayField<"after", "int32_t", "REF_MAX_RANK">,
                KernelField<"offset", "int32_t",
                            "1 for REFLECT (the edge is not repeated), 0 for "
                            "SYMMETRIC.">];
  let Args = [ParamsArg, ElementSizeArg, InputShapeArg, AnyInputArg,
              OutputShapeArg, AnyOutputArg];
  let Instances = [KernelInstance<MirrorPad, "mirror_pad">];
}

/// GATHER moves bytes (TensorFlow Lite Micro takes int8 and float32 with
/// int32 indices; the kernel any element size).
def GatherKernels : KernelFamily<"gather", "gather", "gatherOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one GATHER: the input as [batch, outer, axis, "
            "inner], the indices as [batch, count].";
  let Rendered = 0;
  let Fields = [KernelField<"batch", "int32_t">,
                KernelField<"outer", "int32_t">,
                KernelField<"axis", "int32_t", "The gathered dimension's size.">,
                KernelField<"count", "int32_t", "Indices per batch.">,
                KernelField<"inner", "int32_t">];
  let Args = [ParamsArg, ElementSizeArg, AnyInputArg,
              KernelArg<"data", "indices", 1, "any">, AnyOutputArg];
  // EMBEDDING_LOOKUP copies rows of its value (input 1) by its lookup
  // (input 0): a gather along axis 0.
  let Instances = [KernelInstance<Gather, "gather">,
                   KernelInstance<EmbeddingLookup, "gather">];
}

/// BROADCAST_TO, GATHER_ND, DYNAMIC_UPDATE_SLICE, SHAPE and BROADCAST_ARGS
/// (c/ref_index.h): element moves by computed positions, and shapes.
def BroadcastToKernels
    : KernelFamily<"broadcast_to", "index", "broadcastToOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one BROADCAST_TO: the output's dimensions and the "
            "input's element strides in them (0 where broadcast), padded to "
            "REF_MAX_RANK.";
  let Rendered = 0;
  let Fields = [ArrayField<"dims", "int32_t", "REF_MAX_RANK">,
                ArrayField<"stride", "int32_t", "REF_MAX_RANK">];
  let Args = [ParamsArg, ElementSizeArg, AnyInputArg, AnyOutputArg];
  let Instances = [KernelInstance<BroadcastTo, "broadcast_to">];
}

/// EMBEDDING_LOOKUP of int8 rows into float32 (Micro's hybrid path; the
/// copies of one type are gathers). GATHER's builder chooses it.
def EmbeddingDequantizeKernels
    : KernelFamily<"embedding_dequantize", "index", "gatherOp"> {
  let Doc = "Parameters of one EMBEDDING_LOOKUP dequantizing int8 rows "
            "(zero point 0) into float32.";
  let Rendered = 0;
  let Fields = [KernelField<"rows", "int32_t", "Rows of the value.">,
                KernelField<"columns", "int32_t", "Elements per row.">,
                KernelField<"count", "int32_t", "Rows looked up.">,
                KernelField<"scale", "float", "The value's scale.">];
  let Args = [ParamsArg, KernelArg<"data", "lookup", 0, "any">,
              KernelArg<"data", "value", 1, "any">, AnyOutputArg];
  let Instances = [KernelInstance<EmbeddingLookup, "embedding_dequantize">];
}

def GatherNdKernels : KernelFamily<"gather_nd", "index", "gatherNdOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one GATHER_ND.";
  let Rendered = 0;
  let Fields = [KernelField<"slices", "int32_t", "Rows of indices.">,
                KernelField<"index_depth", "int32_t",
                            "Indices per row (the indices' last dimension).">,
                KernelField<"slice_size", "int32_t", "Elements per slice.">,
                KernelField<"input_size", "int32_t", "Elements of params.">,
                ArrayField<"stride", "int32_t", "REF_MAX_RANK",
                           "Elements per step of each indexed dimension.">];
  let Args = [ParamsArg, ElementSizeArg, AnyInputArg,
              KernelArg<"data", "indices", 1, "any">, AnyOutputArg];
  let Instances = [KernelInstance<GatherNd, "gather_nd">];
}

def DynamicUpdateSliceKernels
    : KernelFamily<"dynamic_update_slice", "index",
                   "dynamicUpdateSliceOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one DYNAMIC_UPDATE_SLICE.";
  let Rendered = 0;
  let Fields = [KernelField<"rank", "int32_t">,
                ArrayField<"dims", "int32_t", "REF_MAX_RANK">,
                ArrayField<"update_dims", "int32_t", "REF_MAX_RANK">,
                KernelField<"wide_indices", "int32_t",
                            "Non-zero: the start indices are int64.">];
  let Args = [ParamsArg, ElementSizeArg, AnyInputArg,
              KernelArg<"data", "update", 1, "any">,
              KernelArg<"data", "start", 2, "any">, AnyOutputArg];
  let Instances = [KernelInstance<DynamicUpdateSlice, "dynamic_update_slice">];
}

def ShapeOfKernels : KernelFamily<"shape_of", "index", "shapeOfOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one SHAPE: the input's dimensions.";
  let Rendered = 0;
  let Fields = [KernelField<"rank", "int32_t">,
                ArrayField<"dims", "int32_t", "REF_MAX_RANK">];
  let Args = [ParamsArg, AnyInputArg, AnyOutputArg];
  let Instances = [KernelInstance<Shape, "shape_of">];
}

def BroadcastArgsKernels
    : KernelFamily<"broadcast_args", "index", "broadcastArgsOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one BROADCAST_ARGS.";
  let Rendered = 0;
  let Fields = [KernelField<"rank1", "int32_t">,
                KernelField<"rank2", "int32_t">,
                KernelField<"rank", "int32_t", "The output's length.">,
                KernelField<"wide", "int32_t", "Non-zero: int64 shapes.">];
  let Args = [ParamsArg, AnyInputArg,
              KernelArg<"data", "shape2", 1, "any">, AnyOutputArg];
  let Instances = [KernelInstance<BroadcastArgs, "broadcast_args">];
}

/// FILL and ZEROS_LIKE write bytes (the kernel any element size).
def FillKernels : KernelFamily<"fill", "fill", "fillOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one FILL (data operand: the value) or ZEROS_LIKE "
            "(data operand: the input, unread).";
  let Rendered = 0;
  let Fields = [KernelField<"zeros", "int32_t",
                            "Non-zero: write zero bits, reading nothing.">];
  let Args = [ParamsArg, ElementSizeArg, CountArg, AnyInputArg, AnyOutputArg];
  let Instances = [KernelInstance<Fill, "fill">,
                   KernelInstance<ZerosLike, "fill">];
}

def StridedSliceKernels
    : KernelFamily<"strided_slice", "strided_slice", "stridedSliceOp"> {
  let AnyArithmetic = 1;
  let Doc = "Parameters of one STRIDED_SLICE, SLICE (unit strides), "
            "REVERSE_V2 (stride -1 on the reversed axes), or one result of "
            "SPLIT, SPLIT_V or UNPACK (one call per result).";
  let Rendered = 0;
  let Fields = [ArrayField<"start", "int32_t", "REF_MAX_RANK">,
                ArrayField<"stop", "int32_t", "REF_MAX_RANK">,
                ArrayField<"stride", "int32_t", "REF_MAX_RANK", "Non-zero.">];
  let Args = [ParamsArg, ElementSizeArg, InputShapeArg, AnyInputArg,
              AnyOutputArg];
  let Instances = [KernelInstance<StridedSlice, "strided_slice">,
                   KernelInstance<Slice, "strided_slice">,
                   KernelInstance<ReverseV2, "strided_slice">,
                   KernelInstance<Split, "strided_slice">,
                   KernelInstance<SplitV, "strided_slice">,
                   KernelInstance<Unpack, "strided_slice">];
}

/// RESHAPE, SQUEEZE and EXPAND_DIMS copy the tensor's bytes (nothing at all
/// when the memory plan lets the result share its input's bytes).
def ReshapeKernels : KernelFamily<"reshape", "reshape", "reshapeOp"> {
  let AnyArithmetic = 1;
  let Doc = "Bytes to copy.";
  let Rendered = 0;
  let MayAlias = 1;
  let Fields = [KernelField<"bytes", "size_t">];
  let Args = [FieldsArg, AnyInputArg, AnyOutputArg];
  let Instances = [KernelInstance<Reshape, "reshape">,
                   KernelInstance<Squeeze, "reshape">,
                   KernelInstance<ExpandDims, "reshape">];
}

//===----------------------------------------------------------------------===//
// Recurrent layers
//===----------------------------------------------------------------------===//

/// The four gates' arrays are indexed input, forget, cell, output (the order
/// of the operator's weights and biases).
def LstmKernels
    : KernelFamily<"lstm", "lstm", "unidirectionalSequenceLstm"> {
  let Doc = "Parameters of one UNIDIRECTIONAL_SEQUENCE_LSTM.";
  let Fields = [
    KernelField<"batches", "int32_t",
                "Sizes: batches, time steps, input features, state units.">,
    KernelField<"time_steps", "int32_t">,
    KernelField<"input_size", "int32_t">,
    KernelField<"state_size", "int32_t">,
    KernelField<"time_major", "int32_t",
                "Non-zero: input and output are [time, batch, features]; "
                "otherwise [batch, time, features].">,
    KernelField<"input_offset", "int32_t",
                "int8: -input_zero_point and -hidden_state_zero_point.">,
    KernelField<"hidden_offset", "int32_t">,
    ArrayField<"input_multiplier", "int32_t", "4",
               "int8, per gate: input_scale * weight_scale / 2^-12, the "
               "input's contribution to the gate's Q3.12 pre-activation.">,
    ArrayField<"input_left_shift", "int32_t", "4">,
    ArrayField<"recurrent_multiplier", "int32_t", "4",
               "int8, per gate: hidden_scale * recurrent_weight_scale / "
               "2^-12.">,
    ArrayField<"recurrent_left_shift", "int32_t", "4">,
    KernelField<"forget_multiplier", "int32_t",
                "int8: forget gate (Q0.15) times cell state, to the cell "
                "state's scale (2^-15).">,
    KernelField<"forget_left_shift", "int32_t">,
    KernelField<"update_multiplier", "int32_t",
                "int8: input gate times cell gate (Q0.15 each), to the cell "
                "state's scale (2^-30 / cell_scale).">,
    KernelField<"update_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int32_t",
                "int8: output gate times tanh(cell state) (Q0.15 each), to "
                "the hidden state's scale (2^-30 / hidden_scale).">,
    KernelField<"output_left_shift", "int32_t">,
    KernelField<"output_zero_point", "int32_t",
                "int8: the hidden state's (and output's) zero point.">,
    KernelField<"cell_tanh_multiplier", "int32_t",
                "int8: tanh(cell state) reads (cell * multiplier), rounded "
                "and shifted right by cell_tanh_right_shift (>= 0).">,
    KernelField<"cell_tanh_right_shift", "int32_t">,
    KernelField<"cell_clip", "int32_t",
                "int8: the cell state's bound in its quantization; -1: no "
                "clipping.">,
    KernelField<"cell_clip_f", "float",
                "float32: the cell state's bound; 0: no clipping.">];
  let Args = [ParamsArg, InputArg,
              KernelArg<"data", "input_to_input_weights", 1, "weights">,
              KernelArg<"data", "input_to_forget_weights", 2, "weights">,
              KernelArg<"data", "input_to_cell_weights", 3, "weights">,
              KernelArg<"data", "input_to_output_weights", 4, "weights">,
              KernelArg<"data", "recurrent_to_input_weights", 5, "weights">,
              KernelArg<"data", "recurrent_to_forget_weights", 6, "weights">,
              KernelArg<"data", "recurrent_to_cell_weights", 7, "weights">,
              KernelArg<"data", "recurrent_to_output_weights", 8, "weights">,
              KernelArg<"data", "input_gate_bias", 12, "acc">,
              KernelArg<"data", "forget_gate_bias", 13, "acc">,
              KernelArg<"data", "cell_gate_bias", 14, "acc">,
              KernelArg<"data", "output_gate_bias", 15, "acc">,
              KernelArg<"state", "hidden_state", 18, "in">,
              KernelArg<"state", "cell_state", 19, "wide">, OutputArg];
  let Instances = [
    KernelInstance<UnidirectionalSequenceLSTM, "unidirectional_sequence_lstm",
                   i8>,
    KernelInstance<UnidirectionalSequenceLSTM, "unidirectional_sequence_lstm",
                   i16, AnyElement, "", i8, i64>,
    KernelInstance<UnidirectionalSequenceLSTM, "unidirectional_sequence_lstm",
                   f32>];
}

//===----------------------------------------------------------------------===//
// SVDF
//===----------------------------------------------------------------------===//

def SvdfBiasArg : KernelArg<"data", "bias", 3, "acc"> { let Optional = 1; }

def SvdfKernels : KernelFamily<"svdf", "svdf", "svdfOp"> {
  let Doc = "Parameters of one SVDF step.";
  let Fields = [
    KernelField<"batches", "int32_t",
                "Sizes: batches, input features, filters (units x rank), "
                "rank, memory (the state's columns per filter).">,
    KernelField<"input_size", "int32_t">,
    KernelField<"filters", "int32_t">,
    KernelField<"rank", "int32_t">,
    KernelField<"memory", "int32_t">,
    KernelField<"input_zero_point", "int32_t",
                "int8: the input's, the state's and the output's zero "
                "points.">,
    KernelField<"state_zero_point", "int32_t">,
    KernelField<"output_zero_point", "int32_t">,
    KernelField<"feature_multiplier", "int32_t",
                "int8: input_scale * weights_feature_scale / state_scale, "
                "from the feature dot products to the state.">,
    KernelField<"feature_left_shift", "int32_t">,
    KernelField<"output_multiplier", "int32_t",
                "int8: state_scale * weights_time_scale / output_scale, from "
                "the reduced time dot products to the output.">,
    KernelField<"output_left_shift", "int32_t">,
    KernelField<"activation", "int32_t",
                "float32: the fused activation, 0 NONE, 1 RELU, 2 "
                "RELU_N1_TO_1, 3 RELU6 (the int8 kernel applies none, as "
                "TensorFlow Lite Micro's).">];
  let Args = [ParamsArg, InputArg,
              KernelArg<"data", "weights_feature", 1, "in">,
              KernelArg<"data", "weights_time", 2, "weights">,
              SvdfBiasArg,
              KernelArg<"state", "activation_state", 4, "weights">,
              OutputArg];
  // int8 with int16 time weights and state, or float32.
  let Instances = [KernelInstance<Svdf, "svdf", i8, AnyElement, "", i16>,
                   KernelInstance<Svdf, "svdf", f32>];
}

//===----------------------------------------------------------------------===//
// SSD post-processing
//===----------------------------------------------------------------------===//

/// TensorFlow Lite Micro's TFLite_Detection_PostProcess (float32 only, as
/// Micro's). One call writes the four results, in working memory of
/// ref_detection_postprocess_scratch_bytes.
def DetectionPostProcessKernels
    : KernelFamily<"detection_postprocess", "detection_postprocess",
                   "detectionPostProcessOp"> {
  let Doc = "Parameters of one TFLite_Detection_PostProcess.";
  let Rendered = 0;
  let Fields = [
    KernelField<"num_boxes", "int32_t",
                "Sizes: anchors (boxes), values per box encoding (4 or "
                "more, the first four read), classes scored (num_classes) "
                "and classes per box prediction (one more with a "
                "background class first), rows of each result.">,
    KernelField<"box_stride", "int32_t">,
    KernelField<"num_classes", "int32_t">,
    KernelField<"num_classes_with_background", "int32_t">,
    KernelField<"output_rows", "int32_t">,
    KernelField<"max_detections", "int32_t",
                "The options: detections reported, classes per detection "
                "(fast form), detections per class (regular form) and which "
                "form (1: regular).">,
    KernelField<"max_classes_per_detection", "int32_t">,
    KernelField<"detections_per_class", "int32_t">,
    KernelField<"use_regular_nms", "int32_t">,
    KernelField<"nms_score_threshold", "float",
                "Scores below it are no detection; boxes overlapping a "
                "better one by more than the IoU threshold are dropped.">,
    KernelField<"nms_iou_threshold", "float">,
    KernelField<"y_scale", "float",
                "The encodings' scales: y and x of the centre, h and w of "
                "the size.">,
    KernelField<"x_scale", "float">,
    KernelField<"h_scale", "float">,
    KernelField<"w_scale", "float">];
  let Args = [ParamsArg,
              KernelArg<"data", "box_encodings", 0, "in">,
              KernelArg<"data", "class_predictions", 1, "in">,
              KernelArg<"data", "anchors", 2, "in">,
              KernelArg<"scratch", "scratch">,
              KernelArg<"output", "detection_boxes", -1, "out">,
              KernelArg<"result", "detection_classes", 1, "out">,
              KernelArg<"result", "detection_scores", 2, "out">,
              KernelArg<"result", "num_detections", 3, "out">];
  let Instances = [KernelInstance<DetectionPostProcess,
                                  "detection_postprocess", f32>];
}
