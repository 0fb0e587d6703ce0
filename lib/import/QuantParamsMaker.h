//===- QuantParamsMaker.h - Operator-oriented to tensor-oriented ------*- C++
//-*-===//
//
// ONNX carries quantization on operators: a QDQ graph computes in float
// between DequantizeLinear and QuantizeLinear nodes, which the ONNX reader
// turns into DEQUANTIZE and QUANTIZE operators around float ones. The IR,
// like TensorFlow Lite and the accelerators, carries it on tensors. This
// pass (the QuantParamsMaker of NeuroPilot's TVM integration) gives every
// tensor its parameters and rewrites the float operators to quantized ones:
//
//   DEQUANTIZE(x_q) ... --> OP --> [RELU | RELU6] --> QUANTIZE --> y_q
//
// becomes OP(x_q, ...) -> y_q with the activation fused, where OP's other
// operands are DEQUANTIZE of constants (weights, per channel where their
// parameters are per axis; int32 biases), which OP then reads quantized.
// The patterns are the rows of one table (QuantParamsMaker.cpp), each
// naming the operator, which operands are activations and which constants,
// and whether its result must keep its operand's parameters (pooling by
// maximum, reshapes: operators that do not requantize).
//
// Where a result's readers quantize it otherwise (several QUANTIZE of
// one float result, or QUANTIZE(DEQUANTIZE(x)) with other parameters than
// x's), it is quantized once and the others become QUANTIZE of the
// quantized value: a requantization, which the targets' quantization
// rules take or leave to the CPU like any other. With the same parameters
// the pair is the identity and is dropped. What no pattern matches stays
// as it was: float operators between DEQUANTIZE and QUANTIZE, which then
// run as float, or are refused by the targets with their reason.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_QUANTPARAMSMAKER_H
#define ACCELGEN_IMPORT_QUANTPARAMSMAKER_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace accelgen {
namespace quant {

/// What the pass did: how many operators it made quantized, and the
/// operators it left in float with why (for `inspect` and the tests).
struct QuantReport {
  unsigned Quantized = 0;
  std::vector<std::string> LeftInFloat;
};

/// Rewrites \p G as above; the graph is compacted (tensors no operator reads
/// or writes, and that are not graph inputs or outputs, are removed).
/// Errors name the tensor: parameters a pattern needs equal that differ.
llvm::Expected<QuantReport> makeQuantParams(ir::Graph &G);

/// True if operator \p Op does not requantize (a pattern whose result
/// keeps its operand's parameters): a quantized result of it has its
/// operands' parameters. The reader gives them so to ONNX operators that
/// move 8-bit values themselves (MaxPool, Reshape, Concat, ...).
bool keepsParams(llvm::StringRef Op);

} // namespace quant
} // namespace accelgen

#endif // ACCELGEN_IMPORT_QUANTPARAMSMAKER_H
