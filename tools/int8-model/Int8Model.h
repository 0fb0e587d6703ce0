//===- Int8Model.h - uint8 models rewritten with int8 tensors ---*- C++ -*-===//
//
// TensorFlow Lite's int8 kernels take what its uint8 ones took, with
// symmetric weights: this rewrites a uint8 quantized graph so. Every uint8
// activation and constant keeps its scale and takes its values and zero
// point 128 lower (exact: the same real numbers). The weights of CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED are requantized per output channel
// (axis 0, the depthwise filter's axis 3), symmetric in [-127, 127] with
// the channel's largest magnitude at 127, and their int32 biases requantized
// to the input scale times the channel's new one: a model of its own, close
// to the uint8 one but not equal, whose expected outputs come from an
// oracle (tflm_runner), not from the uint8 model's.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_INT8MODEL_H
#define ACCELGEN_TOOLS_INT8MODEL_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

namespace accelgen {
namespace int8model {

/// Rewrites \p G, a graph of uint8 quantized tensors, with int8 ones; fails,
/// naming the tensor, for a uint8 tensor without quantization or a weight
/// shared by operators of different kinds.
llvm::Error toInt8(ir::Graph &G);

} // namespace int8model
} // namespace accelgen

#endif // ACCELGEN_TOOLS_INT8MODEL_H
