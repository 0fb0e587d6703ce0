//===- KernelParams.h - Reference kernel parameters from the IR -*- C++ -*-===//
//
// For one Graph IR operator, which reference C kernel runs it and with which
// parameters. The parameters are the C structs of the reference kernels
// (ref_*_params, declared by the headers built into <build>/kernels/c) filled
// exactly as TensorFlow Lite fills its own when it prepares the operator:
// quantized multipliers from the float scales, per-channel arrays, zero-point
// offsets, activation clamps, padding. The C emitter prints them as
// constants; the tests pass them straight to the kernels.
//
// Anything the kernels do not implement (a data type, an attribute value, a
// quantization scheme) is an llvm::Error naming the operator and the reason;
// malformed operators (missing operands, inconsistent shapes) are errors too,
// never crashes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_KERNELS_KERNELPARAMS_H
#define ACCELGEN_KERNELS_KERNELPARAMS_H

#include "ir/Graph.h"
#include "kernels/QuantMath.h"
#include "ref_kernels.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <variant>
#include <vector>

namespace accelgen {
namespace kernels {

/// CONV_2D parameters with the per-channel arrays they point to.
struct Conv2DParams {
  ref_conv2d_params Scalars{};
  std::vector<int32_t> Multipliers;
  std::vector<int32_t> LeftShifts;

  /// The C struct, its array pointers aimed at this object's vectors (null
  /// when empty); valid while this object lives unchanged.
  ref_conv2d_params c() const;
};

/// DEPTHWISE_CONV_2D parameters with their per-channel arrays.
struct DepthwiseConv2DParams {
  ref_depthwise_conv2d_params Scalars{};
  std::vector<int32_t> Multipliers;
  std::vector<int32_t> LeftShifts;

  /// The C struct pointing at this object's arrays.
  ref_depthwise_conv2d_params c() const;
};

/// FULLY_CONNECTED parameters with their per-channel arrays.
struct FullyConnectedParams {
  ref_fully_connected_params Scalars{};
  std::vector<int32_t> Multipliers;
  std::vector<int32_t> LeftShifts;

  /// The C struct pointing at this object's arrays.
  ref_fully_connected_params c() const;
};

/// CONCATENATION parameters with the per-input quantization (uint8 with
/// rescaling only).
struct ConcatParams {
  ref_concat_params Scalars{};
  std::vector<float> InputScales;
  std::vector<int32_t> InputZeroPoints;

  /// The C struct pointing at this object's arrays.
  ref_concat_params c() const;
};

/// RESHAPE, SQUEEZE, EXPAND_DIMS: a byte copy of the whole tensor.
struct ReshapeParams {
  size_t Bytes = 0;
};

/// The parameters of any reference kernel.
using AnyParams =
    std::variant<Conv2DParams, DepthwiseConv2DParams, FullyConnectedParams,
                 ref_pool2d_params, ref_elementwise_params, ref_softmax_params,
                 ref_quantize_params, ref_dequantize_params,
                 ref_requantize_params, ref_relu_params, ref_leaky_relu_params,
                 ref_hard_swish_params, ref_sigmoid_params, ref_pad_params,
                 ConcatParams, ref_mean_params, ref_transpose_params,
                 ref_strided_slice_params, ReshapeParams>;

/// The kernel that runs one operator.
struct KernelCall {
  /// The C function, e.g. "ref_conv2d_i8_per_channel".
  std::string Function;
  /// Its parameters.
  AnyParams Params;
  /// The operator inputs that are data arguments of the kernel, in the
  /// kernel's argument order (-1 for an omitted optional operand, such as a
  /// missing bias). Shape and parameter operands (RESHAPE's shape, PAD's
  /// paddings, MEAN's axes, ...) are folded into Params and not listed.
  std::vector<int32_t> DataInputs;
};

/// The reference kernel and parameters for operator \p Op of \p G, or an
/// error saying why the reference kernels cannot run it.
llvm::Expected<KernelCall> computeKernelCall(const ir::Graph &G,
                                             const ir::Operator &Op);

/// The C shape of an IR shape; an error above REF_MAX_RANK dimensions.
llvm::Expected<ref_shape> toRefShape(llvm::ArrayRef<int32_t> Shape);

} // namespace kernels
} // namespace accelgen

#endif // ACCELGEN_KERNELS_KERNELPARAMS_H
