//===- ModelRunner.h - Run an imported model on the reference kernels -----===//
//
// A small interpreter for the kernel tests: it asks KernelParams for every
// operator's kernel and parameters, then calls the C reference kernels
// operator by operator on byte buffers, one per tensor. A test can run the
// whole graph, or one operator on inputs it supplies (reference outputs of
// the previous layers), so that one wrong kernel does not hide the others.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_KERNELS_MODELRUNNER_H
#define ACCELGEN_TESTS_KERNELS_MODELRUNNER_H

#include "ir/Graph.h"
#include "kernels/KernelParams.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace accelgen {
namespace test {

/// The contents of every tensor of a graph, indexed like Graph::Tensors.
using TensorBuffers = std::vector<std::vector<uint8_t>>;

/// Runs the operators of one graph on the reference kernels.
class ModelRunner {
public:
  /// Prepares every operator of \p G (which must outlive the runner); fails
  /// on the first operator KernelParams rejects.
  static llvm::Expected<ModelRunner> create(const ir::Graph &G);

  /// Buffers holding the graph's constants and the initial value of its
  /// variable tensors (which the kernels update in place), every other
  /// tensor empty.
  TensorBuffers initialBuffers() const;

  /// Runs operator \p Index on \p Buffers: reads its data inputs (each must
  /// hold exactly its tensor's bytes) and replaces its outputs.
  llvm::Error runOperator(size_t Index, TensorBuffers &Buffers) const;

  /// Runs every operator in order, starting from \p Buffers with the graph
  /// inputs filled in.
  llvm::Error runAll(TensorBuffers &Buffers) const;

  /// The prepared kernel of operator \p Index (of its first result).
  const kernels::KernelCall &call(size_t Index) const {
    return Calls[Index].front();
  }

private:
  explicit ModelRunner(const ir::Graph &G) : G(&G) {}
  const ir::Graph *G;
  /// Per operator, one call per result.
  std::vector<std::vector<kernels::KernelCall>> Calls;
};

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_KERNELS_MODELRUNNER_H
