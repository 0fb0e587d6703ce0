//===- ops.td - The canonical operators of the Graph IR -------------------===//
//
// The operators the TensorFlow Lite importer produces, with their operands and
// attributes as the importer names them. Targets refer to these records in
// Legal, Mapping, QuantRule, Pattern and Kernel declarations; constraints refer
// to the attribute names.
//
// This file is also the Graph IR's operator vocabulary: -gen-op-vocabulary
// makes one ir::OpCode enumerator per Op below (named as the record), its name
// and its TensorFlow Lite builtin code (by name, from tflite.td), and one
// ir::attr constant per attribute name (see docs/importer.md).
//
//===----------------------------------------------------------------------===//

include "accelgen.td"
include "tflite.td"

// Attributes, shared by the operators that carry them.
def PaddingAttr         : Attr<"padding", StringAttr>;        // "SAME" | "VALID"
def StrideHAttr         : Attr<"stride_h", IntAttr>;
def StrideWAttr         : Attr<"stride_w", IntAttr>;
def DilationHAttr       : Attr<"dilation_h", IntAttr>;
def DilationWAttr       : Attr<"dilation_w", IntAttr>;
def FilterHAttr         : Attr<"filter_h", IntAttr>;
def FilterWAttr         : Attr<"filter_w", IntAttr>;
def DepthMultiplierAttr : Attr<"depth_multiplier", IntAttr>;
def FusedActivationAttr : Attr<"fused_activation", StringAttr>; // NONE, RELU, RELU6, RELU_N1_TO_1, TANH
def KeepNumDimsAttr     : Attr<"keep_num_dims", BoolAttr>;
def WeightsFormatAttr   : Attr<"weights_format", IntAttr>;
def AsymQuantInputsAttr : Attr<"asymmetric_quantize_inputs", BoolAttr>;
def BetaAttr            : Attr<"beta", FloatAttr>;
def AxisAttr            : Attr<"axis", IntAttr>;
def PotScaleInt16Attr   : Attr<"pot_scale_int16", BoolAttr>;
def NewShapeAttr        : Attr<"new_shape", IntsAttr>;
def KeepDimsAttr        : Attr<"keep_dims", BoolAttr>;
def SqueezeDimsAttr     : Attr<"squeeze_dims", IntsAttr>;
def BeginMaskAttr       : Attr<"begin_mask", IntAttr>;
def EndMaskAttr         : Attr<"end_mask", IntAttr>;
def EllipsisMaskAttr    : Attr<"ellipsis_mask", IntAttr>;
def NewAxisMaskAttr     : Attr<"new_axis_mask", IntAttr>;
def ShrinkAxisMaskAttr  : Attr<"shrink_axis_mask", IntAttr>;
def OffsetAttr          : Attr<"offset", BoolAttr>;
def AlphaAttr           : Attr<"alpha", FloatAttr>;
def CellClipAttr        : Attr<"cell_clip", FloatAttr>;
def ProjClipAttr        : Attr<"proj_clip", FloatAttr>;
def TimeMajorAttr       : Attr<"time_major", BoolAttr>;
def StrideDAttr         : Attr<"stride_d", IntAttr>;
def DilationDAttr       : Attr<"dilation_d", IntAttr>;
def DiagonalRecurrentTensorsAttr : Attr<"diagonal_recurrent_tensors", BoolAttr>;
def RankAttr            : Attr<"rank", IntAttr>;

def Input  : Operand<"input">;
def Input2 : Operand<"input2">;
def Filter : Operand<"filter">;
def OptionalBias : Operand<"bias", 1>;
def ShapeOperand : Operand<"shape", 1>;

defvar ConvAttrs = [PaddingAttr, StrideHAttr, StrideWAttr, DilationHAttr,
                    DilationWAttr, FusedActivationAttr];
defvar PoolAttrs = [PaddingAttr, StrideHAttr, StrideWAttr, FilterHAttr,
                    FilterWAttr, FusedActivationAttr];

// The rows a stripe of output rows reads (StripeRows in accelgen.td). Named
// records, not anonymous instantiations: LLVM 14 caches those in global pools
// that outlive the records of one parse.
def ConvRows : RowsWindow<StrideHAttr, [DilationHAttr], [], [Filter]>;
def PoolRows : RowsWindow<StrideHAttr, [], [FilterHAttr], []>;
// The same windows over the columns (a filter operand's dimension 2).
def ConvColumns : RowsWindow<StrideWAttr, [DilationWAttr], [], [Filter]>;
def PoolColumns : RowsWindow<StrideWAttr, [], [FilterWAttr], []>;

def Conv2D : Op<"CONV_2D", [Input, Filter, OptionalBias], ConvAttrs> {
  let Rows = ConvRows;
  let Cols = ConvColumns;
}
def DepthwiseConv2D : Op<"DEPTHWISE_CONV_2D", [Input, Filter, OptionalBias],
                         !listconcat(ConvAttrs, [DepthMultiplierAttr])> {
  let Rows = ConvRows;
  let Cols = ConvColumns;
}
def TransposeConv : Op<"TRANSPOSE_CONV",
                       [Operand<"output_shape">, Filter, Input, OptionalBias],
                       [PaddingAttr, StrideHAttr, StrideWAttr,
                        FusedActivationAttr]>;
def Conv3D : Op<"CONV_3D", [Input, Filter, OptionalBias],
                [PaddingAttr, StrideDAttr, StrideHAttr, StrideWAttr,
                 DilationDAttr, DilationHAttr, DilationWAttr,
                 FusedActivationAttr]>;
def FullyConnected : Op<"FULLY_CONNECTED", [Input, Filter, OptionalBias],
                        [FusedActivationAttr, KeepNumDimsAttr,
                         WeightsFormatAttr, AsymQuantInputsAttr]> {
  let Rows = RowsAccumulate;
}
def AveragePool2D : Op<"AVERAGE_POOL_2D", [Input], PoolAttrs> {
  let Rows = PoolRows;
  let Cols = PoolColumns;
}
def MaxPool2D : Op<"MAX_POOL_2D", [Input], PoolAttrs> {
  let Rows = PoolRows;
  let Cols = PoolColumns;
}

// The element-wise kernels (ref, cpu, CMSIS-NN's arm_elementwise_*_s8) read
// both inputs' elements (or a block of them) before they write the same
// elements of the output.
let Rows = RowsIdentity in {
let OutputOverlays = [Input, Input2] in {
def Add : Op<"ADD", [Input, Input2], [FusedActivationAttr, PotScaleInt16Attr]>;
def Sub : Op<"SUB", [Input, Input2], [FusedActivationAttr, PotScaleInt16Attr]>;
def Mul : Op<"MUL", [Input, Input2], [FusedActivationAttr]>;
}
def Maximum : Op<"MAXIMUM", [Input, Input2]>;
def Minimum : Op<"MINIMUM", [Input, Input2]>;
}

def Reshape : Op<"RESHAPE", [Input, ShapeOperand], [NewShapeAttr]> {
  let Rows = RowsIdentity; // when the output keeps the input's rows
}
def Squeeze : Op<"SQUEEZE", [Input], [SqueezeDimsAttr]>;
def ExpandDims : Op<"EXPAND_DIMS", [Input, Operand<"axis">]>;
def Transpose : Op<"TRANSPOSE", [Input, Operand<"perm">]>;
def Pad : Op<"PAD", [Input, Operand<"paddings">]> { let Rows = RowsShifted; }
def PadV2 : Op<"PADV2", [Input, Operand<"paddings">, Operand<"value">]>;
def Concatenation : Op<"CONCATENATION", [Input, Input2],
                       [AxisAttr, FusedActivationAttr]> {
  let Variadic = 1;
  let Rows = RowsIdentity; // when joining along an axis after the rows
}
def StridedSlice : Op<"STRIDED_SLICE",
                      [Input, Operand<"begin">, Operand<"end">,
                       Operand<"strides">],
                      [BeginMaskAttr, EndMaskAttr, EllipsisMaskAttr,
                       NewAxisMaskAttr, ShrinkAxisMaskAttr, OffsetAttr]>;
def Mean : Op<"MEAN", [Input, Operand<"axes">], [KeepDimsAttr]>;
def Sum : Op<"SUM", [Input, Operand<"axes">], [KeepDimsAttr]>;
def ReduceMax : Op<"REDUCE_MAX", [Input, Operand<"axes">], [KeepDimsAttr]>;
def ReduceMin : Op<"REDUCE_MIN", [Input, Operand<"axes">], [KeepDimsAttr]>;
/// The output type is an option TensorFlow Lite also states as the output
/// tensor's type; the importer reads the tensor.
def ArgMax : Op<"ARG_MAX", [Input, Operand<"axis">]>;
def BatchDimsAttr : Attr<"batch_dims", IntAttr>;
def Gather : Op<"GATHER", [Input, Operand<"indices">], [AxisAttr, BatchDimsAttr]>;
def ArgMin : Op<"ARG_MIN", [Input, Operand<"axis">]>;

def Softmax : Op<"SOFTMAX", [Input], [BetaAttr]>;
// The activation and (re)quantization kernels compute output[i] from
// input[i] alone, reading it first.
let Rows = RowsIdentity, OutputOverlays = [Input] in {
def Logistic : Op<"LOGISTIC", [Input]>;
def Tanh : Op<"TANH", [Input]>;
def Relu : Op<"RELU", [Input]>;
def Relu6 : Op<"RELU6", [Input]>;
def ReluN1To1 : Op<"RELU_N1_TO_1", [Input]>;
def LeakyRelu : Op<"LEAKY_RELU", [Input], [AlphaAttr]>;
def HardSwish : Op<"HARD_SWISH", [Input]>;
}
def Exp : Op<"EXP", [Input]>;
def Rsqrt : Op<"RSQRT", [Input]>;

let Rows = RowsIdentity in {
def Quantize : Op<"QUANTIZE", [Input]> { let OutputOverlays = [Input]; }
def Dequantize : Op<"DEQUANTIZE", [Input]>;
/// Changes quantization parameters only; inserted by quantization rules.
def Requantize : Op<"REQUANTIZE", [Input]> {
  let IsBuiltin = 0;
  let OutputOverlays = [Input];
}
}

def UnidirectionalSequenceLSTM
    : Op<"UNIDIRECTIONAL_SEQUENCE_LSTM", [Input],
         [FusedActivationAttr, CellClipAttr, ProjClipAttr, TimeMajorAttr,
          AsymQuantInputsAttr, DiagonalRecurrentTensorsAttr]> {
  let Variadic = 1;  // 24 operands: weights, biases, state, norms
}

/// One step of a singular-value-decomposition filter: the feature weights
/// ([filters, input]) write the newest column of the state ([batch,
/// filters * memory], a variable tensor the step shifts by one), the time
/// weights ([filters, memory]) reduce it, `rank` filters sum into a unit.
def Svdf : Op<"SVDF", [Input, Operand<"weights_feature">,
                       Operand<"weights_time">, OptionalBias,
                       Operand<"activation_state">],
              [RankAttr, FusedActivationAttr, AsymQuantInputsAttr]>;

//===----------------------------------------------------------------------===//
// More TensorFlow Lite builtin operators, named by their BuiltinOperator
// names. The importer reads the options of SPACE_TO_DEPTH and
// DEPTH_TO_SPACE, none of the others yet: it imports them with their
// operands and results only, so their attributes read as missing (0, false,
// "") until it does. Attribute names follow the ones above.
//===----------------------------------------------------------------------===//

def BlockSizeAttr        : Attr<"block_size", IntAttr>;
def AlignCornersAttr     : Attr<"align_corners", BoolAttr>;
def HalfPixelCentersAttr : Attr<"half_pixel_centers", BoolAttr>;
def NumSplitsAttr        : Attr<"num_splits", IntAttr>;
def ApproximateAttr      : Attr<"approximate", BoolAttr>;
def MirrorPadModeAttr    : Attr<"mode", StringAttr>;        // "REFLECT" | "SYMMETRIC"
def KernelTypeAttr       : Attr<"kernel_type", StringAttr>; // "FULL" | "BASIC"

def L2Pool2D : Op<"L2_POOL_2D", [Input], PoolAttrs> {
  let Rows = PoolRows;
  let Cols = PoolColumns;
}

def Div : Op<"DIV", [Input, Input2], [FusedActivationAttr]>;
def Pow : Op<"POW", [Input, Input2]>;
def SquaredDifference : Op<"SQUARED_DIFFERENCE", [Input, Input2]>;
def FloorDiv : Op<"FLOOR_DIV", [Input, Input2]>;
def FloorMod : Op<"FLOOR_MOD", [Input, Input2]>;

def Abs : Op<"ABS", [Input]>;
def Neg : Op<"NEG", [Input]>;
def Sqrt : Op<"SQRT", [Input]>;
def Square : Op<"SQUARE", [Input]>;
def Ceil : Op<"CEIL", [Input]>;
def Floor : Op<"FLOOR", [Input]>;
def Round : Op<"ROUND", [Input]>;
def Log : Op<"LOG", [Input]>;
def Fill : Op<"FILL", [Operand<"dims">, Operand<"value">]>;
def ZerosLike : Op<"ZEROS_LIKE", [Input]>;
/// The element types are the tensors' (CastOptions repeats them).
def Cast : Op<"CAST", [Input]>;
def L2Normalization : Op<"L2_NORMALIZATION", [Input], [FusedActivationAttr]>;
def Sin : Op<"SIN", [Input]>;
def Cos : Op<"COS", [Input]>;
def Elu : Op<"ELU", [Input]>;
def Gelu : Op<"GELU", [Input], [ApproximateAttr]>;
def Prelu : Op<"PRELU", [Input, Operand<"alpha">]>;

/// The inputs, all of one shape, stacked along a new dimension `axis` of
/// the output (values_count, in the options, is the number of inputs).
def Pack : Op<"PACK", [Input], [AxisAttr]> { let Variadic = 1; }

/// The element-wise sum of its inputs, all of one shape.
def AddN : Op<"ADD_N", [Input, Input2]> { let Variadic = 1; }

/// Running sums along the axis operand's dimension.
def ExclusiveAttr : Attr<"exclusive", BoolAttr>;
def ReverseAttr : Attr<"reverse", BoolAttr>;
def Cumsum : Op<"CUMSUM", [Input, Operand<"axis">],
                [ExclusiveAttr, ReverseAttr]>;

def BroadcastTo : Op<"BROADCAST_TO", [Input, Operand<"shape">]>;
/// The slices of `params` the rows of int32 indices select.
def GatherNd : Op<"GATHER_ND", [Operand<"params">, Operand<"indices">]>;
/// Rows of `value` by the int32 `lookup`.
def EmbeddingLookup : Op<"EMBEDDING_LOOKUP",
                         [Operand<"lookup">, Operand<"value">]>;
def DynamicUpdateSlice : Op<"DYNAMIC_UPDATE_SLICE",
                            [Operand<"operand">, Operand<"update">,
                             Operand<"start_indices">]>;
/// The input's dimensions as int32 (ShapeOptions' out_type repeats it).
def Shape : Op<"SHAPE", [Input]>;
def BroadcastArgs : Op<"BROADCAST_ARGS", [Operand<"shape1">,
                                          Operand<"shape2">]>;

def AdjXAttr : Attr<"adj_x", BoolAttr>;
def AdjYAttr : Attr<"adj_y", BoolAttr>;
/// Matrix products over broadcast batch dimensions; adj_x / adj_y read an
/// operand's last two dimensions transposed.
def BatchMatMul : Op<"BATCH_MATMUL", [Input, Input2],
                     [AdjXAttr, AdjYAttr, AsymQuantInputsAttr]>;

/// Along the last dimension: x - max - log(sum of exp(x - max)).
def LogSoftmax : Op<"LOG_SOFTMAX", [Input]>;

/// Comparisons give bool (one byte, 0 or 1) of two inputs of one type.
def Equal : Op<"EQUAL", [Input, Input2]>;
def NotEqual : Op<"NOT_EQUAL", [Input, Input2]>;
def Less : Op<"LESS", [Input, Input2]>;
def LessEqual : Op<"LESS_EQUAL", [Input, Input2]>;
def Greater : Op<"GREATER", [Input, Input2]>;
def GreaterEqual : Op<"GREATER_EQUAL", [Input, Input2]>;
def LogicalAnd : Op<"LOGICAL_AND", [Input, Input2]>;
def LogicalOr : Op<"LOGICAL_OR", [Input, Input2]>;
def LogicalNot : Op<"LOGICAL_NOT", [Input]>;
/// x where the (bool) condition holds, else y; all three broadcast.
def SelectV2 : Op<"SELECT_V2", [Operand<"condition">, Operand<"x">,
                               Operand<"y">]>;
def ReduceAll : Op<"REDUCE_ALL", [Input, Operand<"axes">], [KeepDimsAttr]>;

def ResizeBilinear : Op<"RESIZE_BILINEAR", [Input, Operand<"size">],
                        [AlignCornersAttr, HalfPixelCentersAttr]>;
def ResizeNearestNeighbor : Op<"RESIZE_NEAREST_NEIGHBOR",
                               [Input, Operand<"size">],
                               [AlignCornersAttr, HalfPixelCentersAttr]>;

def Slice : Op<"SLICE", [Input, Operand<"begin">, Operand<"size">]>;
def ReverseV2 : Op<"REVERSE_V2", [Input, Operand<"axis">]>;
/// The axis comes first; there are `num_splits` results of equal size along
/// it.
def Split : Op<"SPLIT", [Operand<"axis">, Input], [NumSplitsAttr], -1>;
/// `num_splits` results of the sizes `size_splits` gives along the axis (one
/// of them -1: the rest).
def SplitV : Op<"SPLIT_V", [Input, Operand<"size_splits">, Operand<"axis">],
                [NumSplitsAttr], -1>;
/// One result per index along the axis, without that dimension (the
/// importer checks `num` against the results).
def Unpack : Op<"UNPACK", [Input], [AxisAttr], -1>;
def MirrorPad : Op<"MIRROR_PAD", [Input, Operand<"paddings">],
                   [MirrorPadModeAttr]>;
def SpaceToDepth : Op<"SPACE_TO_DEPTH", [Input], [BlockSizeAttr]>;
def DepthToSpace : Op<"DEPTH_TO_SPACE", [Input], [BlockSizeAttr]>;
def SpaceToBatchND : Op<"SPACE_TO_BATCH_ND",
                        [Input, Operand<"block_shape">, Operand<"paddings">]>;
def BatchToSpaceND : Op<"BATCH_TO_SPACE_ND",
                        [Input, Operand<"block_shape">, Operand<"crops">]>;

/// The LSTM cell: 24 operands with the "FULL" kernel, 5 with "BASIC"
/// (input, previous activation, weights, bias, previous state).
def Lstm : Op<"LSTM", [Input],
              [FusedActivationAttr, CellClipAttr, ProjClipAttr, KernelTypeAttr,
               AsymQuantInputsAttr]> {
  let Variadic = 1;
}

//===----------------------------------------------------------------------===//
// TensorFlow Lite's SSD post-processing: a custom operator
//===----------------------------------------------------------------------===//

// Its options, named as the FlexBuffer map of its custom options names them.
def MaxDetectionsAttr          : Attr<"max_detections", IntAttr>;
def MaxClassesPerDetectionAttr : Attr<"max_classes_per_detection", IntAttr>;
def DetectionsPerClassAttr     : Attr<"detections_per_class", IntAttr>;
def UseRegularNmsAttr          : Attr<"use_regular_nms", BoolAttr>;
def NmsScoreThresholdAttr      : Attr<"nms_score_threshold", FloatAttr>;
def NmsIouThresholdAttr        : Attr<"nms_iou_threshold", FloatAttr>;
def NumClassesAttr             : Attr<"num_classes", IntAttr>;
def YScaleAttr                 : Attr<"y_scale", FloatAttr>;
def XScaleAttr                 : Attr<"x_scale", FloatAttr>;
def HScaleAttr                 : Attr<"h_scale", FloatAttr>;
def WScaleAttr                 : Attr<"w_scale", FloatAttr>;

/// Decodes SSD box encodings against anchors and keeps the best boxes by
/// non-maximum suppression: results detection_boxes [1, N, 4],
/// detection_classes [1, N], detection_scores [1, N] and num_detections
/// [1]. Not a builtin: TensorFlow Lite files name it by its custom code,
/// which is this name.
def DetectionPostProcess
    : Op<"TFLite_Detection_PostProcess",
         [Operand<"box_encodings">, Operand<"class_predictions">,
          Operand<"anchors">],
         [MaxDetectionsAttr, MaxClassesPerDetectionAttr,
          DetectionsPerClassAttr, UseRegularNmsAttr, NmsScoreThresholdAttr,
          NmsIouThresholdAttr, NumClassesAttr, YScaleAttr, XScaleAttr,
          HScaleAttr, WScaleAttr], 4> {
  let IsBuiltin = 0;
}

//===----------------------------------------------------------------------===//
// Control flow and resource variables: run by the generated code itself
//===----------------------------------------------------------------------===//

def ThenSubgraphAttr : Attr<"then_subgraph", IntAttr>;
def ElseSubgraphAttr : Attr<"else_subgraph", IntAttr>;
def CondSubgraphAttr : Attr<"cond_subgraph", IntAttr>;
def BodySubgraphAttr : Attr<"body_subgraph", IntAttr>;
def InitSubgraphAttr : Attr<"init_subgraph", IntAttr>;
def ContainerAttr    : Attr<"container", StringAttr>;
def SharedNameAttr   : Attr<"shared_name", StringAttr>;

/// Runs graph `then_subgraph` when the one-element bool `cond` is true, else
/// `else_subgraph`, on the other operands; the graph's results are its
/// results (copied, as the reference interpreter copies them).
def If : Op<"IF", [Operand<"cond">], [ThenSubgraphAttr, ElseSubgraphAttr],
            -1> {
  let Variadic = 1;
  let RunByHost = 1;
}
/// The results start as the operands; while graph `cond_subgraph` (their
/// values in, one bool out) gives true, graph `body_subgraph` replaces them.
def While : Op<"WHILE", [Input], [CondSubgraphAttr, BodySubgraphAttr], -1> {
  let Variadic = 1;
  let RunByHost = 1;
}
/// Runs graph `init_subgraph` (no operands, no results) in the first
/// invocation only: it initialises resource variables.
def CallOnce : Op<"CALL_ONCE", [], [InitSubgraphAttr], 0> {
  let RunByHost = 1;
}
/// A handle (an int32 resource tensor) naming the model's variable
/// `container`/`shared_name`; every graph's handles of one name are one
/// variable.
def VarHandle : Op<"VAR_HANDLE", [], [ContainerAttr, SharedNameAttr]> {
  let RunByHost = 1;
}
/// The variable's value. Before any assignment it holds its initial bytes:
/// the zero point of the first value assigned to it (int8), else 0.
def ReadVariable : Op<"READ_VARIABLE", [Operand<"resource">]> {
  let RunByHost = 1;
}
/// Stores `value` in the variable; every value assigned to it, and every
/// read, has one byte size.
def AssignVariable : Op<"ASSIGN_VARIABLE",
                        [Operand<"resource">, Operand<"value">], [], 0> {
  let RunByHost = 1;
}
