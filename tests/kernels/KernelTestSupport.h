//===- KernelTestSupport.h - One-operator graphs for the kernel tests -----===//
//
// Runs small graphs built by hand (ir::GraphBuilder: tensors with
// quantization and constant data, one or a few operators) through
// KernelParams and the C kernels, so each operator can be checked on inputs
// chosen for it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_KERNELS_KERNELTESTSUPPORT_H
#define ACCELGEN_TESTS_KERNELS_KERNELTESTSUPPORT_H

#include "ModelRunner.h"
#include "TestSupport.h"

#include "ir/GraphBuilder.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace test {

using ir::GraphBuilder;

/// Runs the single operator of \p G on \p Inputs (tensor index, bytes) and
/// returns the bytes of its output; fails the test on any error.
inline std::vector<uint8_t>
runSingle(const ir::Graph &G,
          const std::vector<std::pair<int32_t, std::vector<uint8_t>>> &Inputs) {
  auto R = ModelRunner::create(G);
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  TensorBuffers B = R->initialBuffers();
  for (const auto &[T, Bytes] : Inputs)
    B[T] = Bytes;
  llvm::Error E = R->runOperator(0, B);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  return B[G.Operators[0].output(0)];
}

/// The bytes of a vector of scalars.
template <typename V> std::vector<uint8_t> bytesOf(const std::vector<V> &Vs) {
  std::vector<uint8_t> B(Vs.size() * sizeof(V));
  std::memcpy(B.data(), Vs.data(), B.size());
  return B;
}

/// The scalars in a byte buffer.
template <typename V> std::vector<V> valuesOf(const std::vector<uint8_t> &B) {
  std::vector<V> Vs(B.size() / sizeof(V));
  std::memcpy(Vs.data(), B.data(), Vs.size() * sizeof(V));
  return Vs;
}

/// The error message computeKernelCall gives for operator 0 of \p G (empty
/// on success).
inline std::string kernelError(const ir::Graph &G) {
  auto Call = kernels::computeKernelCall(G, G.Operators.at(0));
  if (Call)
    return "";
  return llvm::toString(Call.takeError());
}

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_KERNELS_KERNELTESTSUPPORT_H
