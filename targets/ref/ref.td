//===- ref.td - The reference CPU target ----------------------------------===//
//
// "ref" runs every operator on the CPU with the C99 reference kernels
// (templates/ref and lib/kernels/c), whose integer arithmetic is TensorFlow Lite's reference
// arithmetic bit for bit. Every other target falls back to it. The limits
// below are the kernels' own: shapes up to REF_MAX_RANK (6) dimensions where
// a kernel walks arbitrary ranks, NHWC 4-D tensors for convolutions and
// pools, the weight schemes the weight schemes are checked when the kernel is chosen.
// What is not listed (CONV_3D, LSTM, ...) is not
// supported by target ref.
//
//===----------------------------------------------------------------------===//

include "kernels.td"

def Ref1 : Version<"1">;
def Ref : Target<"ref", [Ref1]> {
  let Description = "Reference C kernels on the host CPU";
}

defvar AllTypes = [i8, u8, f32];

def Nhwc : Constraint<"ref_nhwc", "input(0).rank == 4 && output(0).rank == 4",
                      "input and output must be 4-D (NHWC)">;
def FilterConstant : Constraint<"ref_filter_constant", "input(1).is_constant",
                                "weights must be constant">;
def StridesPositive : Constraint<"ref_strides",
    "stride_h >= 1 && stride_w >= 1", "strides must be at least 1">;
def DilationsPositive : Constraint<"ref_dilations",
    "dilation_h >= 1 && dilation_w >= 1", "dilations must be at least 1">;
def MaxRank6 : Constraint<"ref_max_rank",
    "input(0).rank <= 6 && output(0).rank <= 6",
    "tensors must have at most 6 dimensions">;
def BinaryMaxRank6 : Constraint<"ref_binary_max_rank",
    "input(0).rank <= 6 && input(1).rank <= 6 && output(0).rank <= 6",
    "tensors must have at most 6 dimensions">;

def : Legal<Conv2D, Ref, Ref1, AllTypes,
            [Nhwc, FilterConstant, StridesPositive, DilationsPositive]>;
def : Legal<DepthwiseConv2D, Ref, Ref1, AllTypes,
            [Nhwc, FilterConstant, StridesPositive, DilationsPositive,
             Constraint<"ref_depth_multiplier", "depth_multiplier >= 1",
                        "depth multiplier must be at least 1">]>;
def : Legal<FullyConnected, Ref, Ref1, AllTypes, [FilterConstant,
    Constraint<"ref_fc_filter_2d", "input(1).rank == 2",
               "weights must be 2-D [units, depth]">]>;
def : Legal<AveragePool2D, Ref, Ref1, AllTypes, [Nhwc, StridesPositive,
    Constraint<"ref_pool_filter", "filter_h >= 1 && filter_w >= 1",
               "the window must be at least 1 x 1">]>;
def : Legal<MaxPool2D, Ref, Ref1, AllTypes, [Nhwc, StridesPositive,
    Constraint<"ref_pool_filter", "filter_h >= 1 && filter_w >= 1",
               "the window must be at least 1 x 1">]>;

def : Legal<Add, Ref, Ref1, AllTypes, [BinaryMaxRank6]>;
def : Legal<Sub, Ref, Ref1, AllTypes, [BinaryMaxRank6]>;
def : Legal<Mul, Ref, Ref1, AllTypes, [BinaryMaxRank6]>;

def : Legal<Reshape, Ref, Ref1, AllTypes>;
def : Legal<Squeeze, Ref, Ref1, AllTypes>;
def : Legal<ExpandDims, Ref, Ref1, AllTypes>;
def : Legal<Transpose, Ref, Ref1, AllTypes, [MaxRank6]>;
def : Legal<Pad, Ref, Ref1, AllTypes, [MaxRank6]>;
def : Legal<Concatenation, Ref, Ref1, AllTypes, [MaxRank6]>;
def : Legal<StridedSlice, Ref, Ref1, AllTypes, [MaxRank6]>;
def : Legal<Mean, Ref, Ref1, AllTypes, [MaxRank6]>;

def : Legal<Softmax, Ref, Ref1, AllTypes>;
def : Legal<Logistic, Ref, Ref1, AllTypes>;
def : Legal<Tanh, Ref, Ref1, AllTypes>;
def : Legal<Relu, Ref, Ref1, AllTypes>;
def : Legal<Relu6, Ref, Ref1, AllTypes>;
def : Legal<LeakyRelu, Ref, Ref1, AllTypes>;
def : Legal<HardSwish, Ref, Ref1, AllTypes>;
def : Legal<Quantize, Ref, Ref1, AllTypes>;
def : Legal<UnidirectionalSequenceLSTM, Ref, Ref1, [i8, f32]>;
def : Legal<Dequantize, Ref, Ref1, [i8, u8]>;
def : Legal<Requantize, Ref, Ref1, [i8, u8]>;

// Each operator's kernels: the family of defs/kernels.td whose functions
// run it. Every operator legal on ref has one, for the types it is legal
// with.
def : Kernel<Conv2D, Ref, Conv2DKernels, AllTypes>;
def : Kernel<DepthwiseConv2D, Ref, DepthwiseConv2DKernels, AllTypes>;
def : Kernel<FullyConnected, Ref, FullyConnectedKernels, AllTypes>;
def : Kernel<AveragePool2D, Ref, Pool2DKernels, AllTypes>;
def : Kernel<MaxPool2D, Ref, Pool2DKernels, AllTypes>;
def : Kernel<Add, Ref, ElementwiseKernels, AllTypes>;
def : Kernel<Sub, Ref, ElementwiseKernels, AllTypes>;
def : Kernel<Mul, Ref, ElementwiseKernels, AllTypes>;
def : Kernel<Reshape, Ref, ReshapeKernels, AllTypes>;
def : Kernel<Squeeze, Ref, ReshapeKernels, AllTypes>;
def : Kernel<ExpandDims, Ref, ReshapeKernels, AllTypes>;
def : Kernel<Transpose, Ref, TransposeKernels, AllTypes>;
def : Kernel<Pad, Ref, PadKernels, AllTypes>;
def : Kernel<Concatenation, Ref, ConcatKernels, AllTypes>;
def : Kernel<StridedSlice, Ref, StridedSliceKernels, AllTypes>;
def : Kernel<Mean, Ref, MeanKernels, AllTypes>;
def : Kernel<Softmax, Ref, SoftmaxKernels, AllTypes>;
def : Kernel<Logistic, Ref, SigmoidKernels, AllTypes>;
def : Kernel<Tanh, Ref, SigmoidKernels, AllTypes>;
def : Kernel<Relu, Ref, ReluKernels, AllTypes>;
def : Kernel<Relu6, Ref, ReluKernels, AllTypes>;
def : Kernel<LeakyRelu, Ref, LeakyReluKernels, AllTypes>;
def : Kernel<HardSwish, Ref, HardSwishKernels, AllTypes>;
def : Kernel<Quantize, Ref, QuantizeKernels, [f32]>;
def : Kernel<Quantize, Ref, RequantizeKernels, [i8, u8]>;
def : Kernel<Dequantize, Ref, DequantizeKernels, [i8, u8]>;
def : Kernel<Requantize, Ref, RequantizeKernels, [i8, u8]>;
def : Kernel<UnidirectionalSequenceLSTM, Ref, LstmKernels, [i8, f32]>;
