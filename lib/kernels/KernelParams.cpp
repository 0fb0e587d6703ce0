//===- KernelParams.cpp - Reference kernel parameters from the IR ---------===//
//
// The dispatch from operator type to operator family, and the small pieces of
// the public interface. The families (ConvParams.cpp, ArithmeticParams.cpp,
// DataMovementParams.cpp) read the operator's tensors and attributes, check
// what the kernel assumes, and fill its parameters the way TensorFlow Lite's
// Prepare functions do (TensorFlow Lite Micro's where the two differ, since
// its reference kernels define the expected outputs). Every check that fails
// becomes an error naming the operator.
//
//===----------------------------------------------------------------------===//
#include "kernels/KernelParams.h"

#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace kernels {

ref_conv2d_params Conv2DParams::c() const {
  ref_conv2d_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_depthwise_conv2d_params DepthwiseConv2DParams::c() const {
  ref_depthwise_conv2d_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_fully_connected_params FullyConnectedParams::c() const {
  ref_fully_connected_params P = Scalars;
  P.per_channel_multiplier = Multipliers.empty() ? nullptr : Multipliers.data();
  P.per_channel_left_shift = LeftShifts.empty() ? nullptr : LeftShifts.data();
  return P;
}

ref_concat_params ConcatParams::c() const {
  ref_concat_params P = Scalars;
  P.input_scale = InputScales.empty() ? nullptr : InputScales.data();
  P.input_zero_point =
      InputZeroPoints.empty() ? nullptr : InputZeroPoints.data();
  return P;
}

llvm::Expected<ref_shape> toRefShape(llvm::ArrayRef<int32_t> Shape) {
  if (Shape.size() > REF_MAX_RANK)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("rank {0} exceeds the reference kernels' maximum of {1}",
                      Shape.size(), REF_MAX_RANK)
            .str());
  ref_shape S{};
  S.rank = static_cast<int32_t>(Shape.size());
  for (size_t I = 0; I < Shape.size(); ++I)
    S.dims[I] = Shape[I];
  return S;
}

llvm::Expected<KernelCall> computeKernelCall(const ir::Graph &G,
                                             const ir::Operator &Op) {
  using namespace detail;
  OpContext Ctx(G, Op);
  if (Op.Opaque)
    return Ctx.error("the operator is not known to the importer, so no "
                     "reference kernel runs it");
  if (Op.Outputs.size() != 1)
    return Ctx.error(llvm::formatv("{0} outputs; the reference kernels write "
                                   "one",
                                   Op.Outputs.size()));
  const std::string &T = Op.Type;
  if (T == "CONV_2D")
    return conv2D(Ctx, /*Depthwise=*/false);
  if (T == "DEPTHWISE_CONV_2D")
    return conv2D(Ctx, /*Depthwise=*/true);
  if (T == "FULLY_CONNECTED")
    return fullyConnected(Ctx);
  if (T == "AVERAGE_POOL_2D")
    return pool2D(Ctx, /*Average=*/true);
  if (T == "MAX_POOL_2D")
    return pool2D(Ctx, /*Average=*/false);
  if (T == "ADD")
    return elementwise(Ctx, "add");
  if (T == "SUB")
    return elementwise(Ctx, "sub");
  if (T == "MUL")
    return elementwise(Ctx, "mul");
  if (T == "SOFTMAX")
    return softmax(Ctx);
  // REQUANTIZE is what a target's quantization rules insert between two
  // quantizations of one value; it runs like an integer QUANTIZE.
  if (T == "QUANTIZE" || T == "REQUANTIZE")
    return quantizeOp(Ctx);
  if (T == "DEQUANTIZE")
    return dequantizeOp(Ctx);
  if (T == "RELU")
    return reluOp(Ctx, "RELU");
  if (T == "RELU6")
    return reluOp(Ctx, "RELU6");
  if (T == "RELU_N1_TO_1")
    return reluOp(Ctx, "RELU_N1_TO_1");
  if (T == "LEAKY_RELU")
    return leakyReluOp(Ctx);
  if (T == "HARD_SWISH")
    return hardSwishOp(Ctx);
  if (T == "LOGISTIC")
    return sigmoidOp(Ctx, /*Tanh=*/false);
  if (T == "TANH")
    return sigmoidOp(Ctx, /*Tanh=*/true);
  if (T == "RESHAPE" || T == "SQUEEZE" || T == "EXPAND_DIMS")
    return reshapeOp(Ctx);
  if (T == "PAD")
    return padOp(Ctx, /*V2=*/false);
  if (T == "PADV2")
    return padOp(Ctx, /*V2=*/true);
  if (T == "CONCATENATION")
    return concatOp(Ctx);
  if (T == "MEAN")
    return meanOp(Ctx);
  if (T == "TRANSPOSE")
    return transposeOp(Ctx);
  if (T == "STRIDED_SLICE")
    return stridedSliceOp(Ctx);
  return Ctx.error("no reference kernel implements this operator");
}

} // namespace kernels
} // namespace accelgen
