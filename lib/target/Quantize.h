//===- Quantize.h - Comparing and requantizing quantization parameters ----===//
//
// The building blocks of the quantization rules (QuantRules.h) and of the
// passes that run them: comparing two tensors' parameters up to float32
// rounding, describing them in rejection messages with the names the
// constraint language uses ("input(1).scale = 0.5"), inserting a REQUANTIZE
// before or after an operator so that the graph stays valid and in
// topological order, and undoing such edits when a rule gives up.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_QUANTIZE_H
#define ACCELGEN_TARGET_QUANTIZE_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace target {

/// True when \p A and \p B agree within QuantScaleTolerance (relative).
bool scalesClose(double A, double B);

/// True when \p A and \p B have the same number of channels, the same axis
/// when per channel, equal zero points and close scales.
bool sameQuantParams(const ir::QuantParams &A, const ir::QuantParams &B);

/// True when both tensors lack parameters or both have the same ones.
bool sameQuant(const ir::Tensor &A, const ir::Tensor &B);

/// True when \p Q can be attached to \p T: per-tensor, or per channel along an
/// axis of \p T with one scale and zero point per channel.
bool quantFits(const ir::Tensor &T, const ir::QuantParams &Q);

/// \p S with seven significant digits ("0.1", not "0.100000001").
std::string formatScale(double S);

/// \p Q as "<Where>.scale = 0.5, <Where>.zero_point = 3" (per channel: the
/// first scales and zero points in brackets and the axis).
std::string describeQuant(llvm::StringRef Where, const ir::QuantParams &Q);

/// The parameters of \p T described as above, or "<Where> is not quantized".
std::string describeQuant(llvm::StringRef Where, const ir::Tensor &T);

/// Inserts, right before operator \p OpIndex, a REQUANTIZE from the tensor at
/// its input \p InputPos to a new tensor of the same shape and type with
/// \p Params, and makes the operator read the new tensor at every position it
/// read the old one. \p OpIndex is advanced to the operator's new position.
/// The requantize gets attribute QuantRuleAttr = \p Rule. Returns the new
/// tensor's index.
int32_t insertRequantizeBefore(ir::Graph &G, size_t &OpIndex, unsigned InputPos,
                               const ir::QuantParams &Params,
                               llvm::StringRef Rule);

/// Makes operator \p OpIndex write its output \p OutputPos to a new tensor of
/// the same shape and type with \p Params and inserts right after it a
/// REQUANTIZE from that tensor to the original output, which keeps its
/// readers, parameters and graph-output role. The requantize gets attribute
/// QuantRuleAttr = \p Rule. Returns the new tensor's index.
int32_t insertRequantizeAfter(ir::Graph &G, size_t OpIndex, unsigned OutputPos,
                              const ir::QuantParams &Params,
                              llvm::StringRef Rule);

/// True when operator \p Op is a requantize a quantization rule inserted.
bool isInsertedRequantize(const ir::Operator &Op);

/// A snapshot of one operator and the tensors it touches, to undo the edits
/// quantization rules make around it: requantize operators inserted right
/// before or after it, new tensors, and parameters filled in on its operands.
class QuantCheckpoint {
public:
  QuantCheckpoint(const ir::Graph &G, size_t OpIndex);

  /// Number of operators inserted around the operator since the snapshot.
  size_t numInserted(const ir::Graph &G) const {
    return G.Operators.size() - NumOperators;
  }
  /// Restores \p G as it was at the snapshot and sets \p OpIndex back to the
  /// operator's position; only valid if every operator inserted since is
  /// adjacent to it and every new tensor was appended.
  void restore(ir::Graph &G, size_t &OpIndex) const;

private:
  size_t Index;
  size_t NumOperators;
  size_t NumTensors;
  ir::Operator Saved;
  /// The parameters of every tensor the operator reads or writes.
  std::vector<std::pair<int32_t, std::optional<ir::QuantParams>>> SavedQuant;
};

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_QUANTIZE_H
