//===- hostcpu.td - The rules of the host CPU targets ---------------------===//
//
// What the C kernels of the host CPU targets (ref and cpu) run: the
// operators, types and limits of the kernels (which kernel family computes
// an operator is the families' own fact, their Instances in
// defs/kernels.td). Both targets run the same
// operators with the same results byte for byte (cpu specialises some
// kernels per operator), so their descriptions instantiate these rules once
// each: `defm : HostCpuRules<Target, Version, "prefix">`, the prefix starting
// every constraint id. The limits are the kernels' own: shapes up to
// REF_MAX_RANK (6) dimensions where a kernel walks arbitrary ranks, NHWC 4-D
// tensors for convolutions and pools; the weight schemes are checked when
// the kernel is chosen. What is not listed (CONV_3D, ...) is not supported.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

multiclass HostCpuRules<Target T, Version V, string P> {
  defvar AllTypes = [i8, u8, f32];
  // The operators whose kernels also take int16 activations (symmetric; the
  // convolution 16x8: int8 weights, int64 bias).
  defvar AllTypes16 = [i8, u8, i16, f32];

  defvar Nhwc = Constraint<P # "_nhwc",
      "input(0).rank == 4 && output(0).rank == 4",
      "input and output must be 4-D (NHWC)">;
  defvar FilterConstant = Constraint<P # "_filter_constant",
      "input(1).is_constant", "weights must be constant">;
  defvar StridesPositive = Constraint<P # "_strides",
      "stride_h >= 1 && stride_w >= 1", "strides must be at least 1">;
  defvar DilationsPositive = Constraint<P # "_dilations",
      "dilation_h >= 1 && dilation_w >= 1", "dilations must be at least 1">;
  defvar MaxRank6 = Constraint<P # "_max_rank",
      "input(0).rank <= 6 && output(0).rank <= 6",
      "tensors must have at most 6 dimensions">;
  defvar BinaryMaxRank6 = Constraint<P # "_binary_max_rank",
      "input(0).rank <= 6 && input(1).rank <= 6 && output(0).rank <= 6",
      "tensors must have at most 6 dimensions">;

  def : Legal<Conv2D, T, V, AllTypes16,
              [Nhwc, FilterConstant, StridesPositive, DilationsPositive]>;
  def : Legal<DepthwiseConv2D, T, V, AllTypes16,
              [Nhwc, FilterConstant, StridesPositive, DilationsPositive,
               Constraint<P # "_depth_multiplier", "depth_multiplier >= 1",
                          "depth multiplier must be at least 1">]>;
  // Operand 0 is the output shape; the input is operand 2.
  def : Legal<TransposeConv, T, V, [i32], [
      Constraint<P # "_tconv_types",
          "(input(2).dtype == i8 && input(1).dtype == i8) || "
          "(input(2).dtype == i16 && input(1).dtype == i8) || "
          "(input(2).dtype == f32 && input(1).dtype == f32)",
          "input and weights must be int8, float32, or int16 input with int8 "
          "weights (16x8)">,
      Constraint<P # "_tconv_nhwc",
          "input(2).rank == 4 && output(0).rank == 4",
          "input and output must be 4-D (NHWC)">,
      FilterConstant, StridesPositive]>;
  def : Legal<FullyConnected, T, V, AllTypes16, [FilterConstant,
      Constraint<P # "_fc_filter_2d", "input(1).rank == 2",
                 "weights must be 2-D [units, depth]">]>;
  def : Legal<AveragePool2D, T, V, AllTypes16, [Nhwc, StridesPositive,
      Constraint<P # "_pool_filter", "filter_h >= 1 && filter_w >= 1",
                 "the window must be at least 1 x 1">]>;
  def : Legal<MaxPool2D, T, V, AllTypes16, [Nhwc, StridesPositive,
      Constraint<P # "_pool_filter", "filter_h >= 1 && filter_w >= 1",
                 "the window must be at least 1 x 1">]>;

  // And TensorFlow Lite Micro's plain int32.
  def : Legal<Add, T, V, [i8, u8, i16, i32, f32], [BinaryMaxRank6]>;
  def : Legal<Sub, T, V, [i8, u8, i16, i32, f32], [BinaryMaxRank6]>;
  def : Legal<Mul, T, V, [i8, u8, i16, i32, f32], [BinaryMaxRank6]>;
  // TensorFlow Lite Micro's types: no uint8.
  def : Legal<Maximum, T, V, [i8, i16, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<Minimum, T, V, [i8, i16, i32, i64, f32], [BinaryMaxRank6]>;

  def : Legal<Reshape, T, V, AllTypes16>;
  def : Legal<Squeeze, T, V, AllTypes16>;
  def : Legal<ExpandDims, T, V, AllTypes16>;
  def : Legal<Transpose, T, V, AllTypes16, [MaxRank6]>;
  // TensorFlow Lite Micro's types.
  def : Legal<SpaceToDepth, T, V, [i8, f32]>;
  def : Legal<ResizeBilinear, T, V, [i8, f32], [Nhwc]>;
  def : Legal<ResizeNearestNeighbor, T, V, [i8, u8, i16, f32], [Nhwc]>;
  def : Legal<PadV2, T, V, [i8, u8, i16, i32, f32], [MaxRank6]>;
  def : Legal<MirrorPad, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<SpaceToBatchND, T, V, [i8, f32]>;
  def : Legal<BatchToSpaceND, T, V, [i8, f32]>;
  def : Legal<Div, T, V, [i8, i32, f32], [BinaryMaxRank6]>;
  def : Legal<SquaredDifference, T, V, [i8, i16, i32, f32], [BinaryMaxRank6]>;
  def : Legal<FloorDiv, T, V, [f32], [BinaryMaxRank6]>;
  def : Legal<FloorMod, T, V, [f32], [BinaryMaxRank6]>;
  def : Legal<DepthToSpace, T, V, [i8, f32]>;
  def : Legal<Pad, T, V, [i8, u8, i16, i32, f32], [MaxRank6]>;
  def : Legal<Concatenation, T, V, [bool, i8, u8, i16, i32, i64, f32],
              [MaxRank6]>;
  def : Legal<Pack, T, V, [i8, u8, i16, i32, i64, f32], [MaxRank6]>;
  def : Legal<AddN, T, V, [i8, f32]>;
  def : Legal<Cumsum, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<BatchMatMul, T, V, [i8, i16, f32], [BinaryMaxRank6]>;
  def : Legal<LogSoftmax, T, V, [i8, f32], [MaxRank6]>;
  // TensorFlow Lite Micro's types (BROADCAST_TO takes every type; the kernel
  // moves bytes).
  def : Legal<BroadcastTo, T, V, [bool, i8, u8, i16, i32, i64, f32],
              [MaxRank6]>;
  def : Legal<GatherNd, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<DynamicUpdateSlice, T, V, [i8, i16, i32, f32], [MaxRank6]>;
  def : Legal<Shape, T, V, [bool, i8, u8, i16, i32, i64, f32], [
      Constraint<P # "_shape_int32", "output(0).dtype == i32",
                 "the shape is written as int32">]>;
  def : Legal<BroadcastArgs, T, V, [i32, i64]>;
  // Input 0 is the int32 lookup; the value's rows are int8 or float32.
  def : Legal<EmbeddingLookup, T, V, [i32], [
      Constraint<P # "_embedding_types",
          "(input(1).dtype == i8 || input(1).dtype == f32) && "
          "(output(0).dtype == input(1).dtype || output(0).dtype == f32)",
          "the value is int8 or float32, copied into its type (int8 also "
          "dequantized into float32)">]>;
  def : Legal<StridedSlice, T, V, [bool, i8, u8, i16, i32, f32], [MaxRank6]>;
  // TensorFlow Lite Micro's types (and uint8, a byte move like the others).
  def : Legal<Slice, T, V, [bool, i8, u8, i16, i32, f32], [MaxRank6]>;
  def : Legal<ReverseV2, T, V, [bool, i8, u8, i16, i32, i64, f32],
              [MaxRank6]>;
  // TensorFlow Lite Micro's types, and TensorFlow Lite's uint8 (Coral's
  // models). SPLIT's operand 0 is its int32 axis.
  def : Legal<Split, T, V, [i32], [
      Constraint<P # "_split_input",
          "input(1).dtype in {i8, u8, i16, i32, f32} && input(1).rank <= 6",
          "the split tensor (operand 1) must be i8, u8, i16, i32 or f32, of "
          "at most 6 dimensions">]>;
  def : Legal<SplitV, T, V, [i8, u8, i16, i32, f32], [MaxRank6]>;
  def : Legal<Unpack, T, V, [i8, u8, i16, i32, f32], [MaxRank6]>;
  def : Legal<Mean, T, V, AllTypes16, [MaxRank6]>;
  def : Legal<Sum, T, V, [i8, i16, f32], [MaxRank6]>;
  def : Legal<ReduceMax, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<ReduceMin, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<ArgMax, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<Gather, T, V, [i8, f32], [MaxRank6]>;
  def : Legal<Cast, T, V, [bool, i8, u8, i16, i32, u32, f32]>;
  // FILL's input 0 is its (constant) dimensions; the value is input 1.
  def : Legal<Fill, T, V, [i32, i64]>;
  def : Legal<ZerosLike, T, V, [i8, i32, i64, f32]>;
  def : Legal<ArgMin, T, V, [i8, f32], [MaxRank6]>;
  // TensorFlow Lite Micro's comparisons (not GREATER's int16, whose
  // parameters Micro never sets) and logical operators.
  def : Legal<Equal, T, V, [bool, i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<NotEqual, T, V, [bool, i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<Less, T, V, [i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<LessEqual, T, V, [i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<Greater, T, V, [i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<GreaterEqual, T, V, [i8, i32, i64, f32], [BinaryMaxRank6]>;
  def : Legal<LogicalAnd, T, V, [bool], [BinaryMaxRank6]>;
  def : Legal<LogicalOr, T, V, [bool], [BinaryMaxRank6]>;
  def : Legal<LogicalNot, T, V, [bool]>;
  def : Legal<ReduceAll, T, V, [bool], [MaxRank6]>;
  // Input 0 is the (bool) condition; x and y are int8, int16 or float32.
  def : Legal<SelectV2, T, V, [bool], [
      Constraint<P # "_select_types",
          "input(1).dtype == i8 || input(1).dtype == i16 || "
          "input(1).dtype == f32",
          "x and y must be int8, int16 or float32">,
      Constraint<P # "_select_max_rank",
          "input(0).rank <= 6 && input(1).rank <= 6 && input(2).rank <= 6 && "
          "output(0).rank <= 6",
          "tensors must have at most 6 dimensions">]>;

  def : Legal<Softmax, T, V, AllTypes16>;
  def : Legal<Logistic, T, V, AllTypes16>;
  def : Legal<Tanh, T, V, AllTypes16>;
  def : Legal<Relu, T, V, AllTypes16>;
  def : Legal<Relu6, T, V, AllTypes16>;
  def : Legal<LeakyRelu, T, V, AllTypes16>;
  def : Legal<HardSwish, T, V, AllTypes>;
  // TensorFlow Lite Micro's: ABS in float32, int8 and int16, the others in
  // float32.
  def : Legal<Abs, T, V, [i8, i16, f32]>;
  def : Legal<Neg, T, V, [f32]>;
  def : Legal<Sqrt, T, V, [f32]>;
  def : Legal<Rsqrt, T, V, [i8, f32]>;
  def : Legal<Square, T, V, [f32]>;
  def : Legal<Ceil, T, V, [f32]>;
  def : Legal<Floor, T, V, [f32]>;
  def : Legal<Round, T, V, [f32]>;
  def : Legal<Exp, T, V, [f32]>;
  def : Legal<Elu, T, V, [i8, f32]>;
  def : Legal<L2Pool2D, T, V, [f32], [Nhwc]>;
  def : Legal<L2Normalization, T, V, [i8, f32]>;
  def : Legal<Prelu, T, V, [i8, i16, f32], [BinaryMaxRank6]>;
  def : Legal<Log, T, V, [f32]>;
  def : Legal<Sin, T, V, [f32]>;
  def : Legal<Cos, T, V, [f32]>;
  // TensorFlow Lite Micro's conversions: float32 to int8, uint8 or int16;
  // int8 and int16 to int8, int16 or int32; int32 to int8 or int16; uint8
  // and int8 to each other.
  def : Legal<Quantize, T, V, [i8, u8, i16, i32, f32], [
      Constraint<P # "_quantize_int16",
          "output(0).dtype != i16 || input(0).dtype != u8",
          "uint8 is not requantized to int16">,
      Constraint<P # "_quantize_int32",
          "output(0).dtype != i32 || input(0).dtype == i8 || "
          "input(0).dtype == i16",
          "only int8 and int16 are requantized to int32">,
      Constraint<P # "_quantize_wide",
          "(input(0).dtype != i16 && input(0).dtype != i32) || "
          "output(0).dtype != u8",
          "int16 and int32 are not requantized to uint8">]>;
  def : Legal<UnidirectionalSequenceLSTM, T, V, [i8, i16, f32]>;
  def : Legal<Svdf, T, V, [i8, f32]>;
  def : Legal<DetectionPostProcess, T, V, [f32]>;
  def : Legal<Dequantize, T, V, [i8, u8, i16]>;
  def : Legal<Requantize, T, V, [i8, u8]>;
  // Run by the generated code itself (docs/control-flow.md): IF's operand 0
  // is its condition, a resource handle is an int32 scalar.
  def : Legal<If, T, V, [bool]>;
  def : Legal<While, T, V, [i8, u8, i16, i32, i64, f32, bool, u32]>;
  def : Legal<CallOnce, T, V, []>;
  def : Legal<VarHandle, T, V, []>;
  def : Legal<ReadVariable, T, V, [i32]>;
  def : Legal<AssignVariable, T, V, [i32]>;
}
