//===- ModelWalk.h - Reading every part of an imported model ----*- C++ -*-===//
//
// What the model readers' fuzzers (ImportFuzzer for TensorFlow Lite,
// OnnxFuzzer for ONNX) do with a model a reader accepted: check the
// invariants the readers promise and read every part of it (tensors,
// quantization, constant data, operators and their attributes), running the
// analyses over it, so that the sanitizers see any inconsistency let through.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_FUZZ_MODELWALK_H
#define ACCELGEN_TESTS_FUZZ_MODELWALK_H

#include "analysis/ModelStats.h"
#include "ir/Graph.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <variant>
#include <vector>

namespace accelgen {
namespace fuzz {

/// Stops the run when an invariant the importer promises does not hold.
inline void check(bool Condition, const char *What) {
  if (Condition)
    return;
  llvm::errs() << "fuzzer: invariant violated: " << What << "\n";
  std::abort();
}

/// Reads every byte of \p V so that uninitialised or out-of-bounds storage
/// shows up under the sanitizers; the result only keeps the reads alive.
template <typename T> uint64_t touch(const std::vector<T> &V) {
  uint64_t Sum = 0;
  for (const T &X : V)
    Sum += static_cast<uint64_t>(X);
  return Sum;
}

inline uint64_t walkTensor(const ir::Graph &G, size_t Index) {
  const ir::Tensor &T = G.Tensors[Index];
  uint64_t Sum = T.Name.size() + ir::dtypeName(T.Type).size() +
                 ir::formatShape(T.Shape).size() + touch(T.Shape);
  int64_t Elements = T.numElements();
  check(Elements >= 0 && Elements <= ir::MaxElements,
        "a verified tensor has a sane element count");
  if (T.IsConstant) {
    check(static_cast<int64_t>(T.Data.size()) == T.byteSize(),
          "constant data matches the shape");
    Sum += touch(T.Data);
  } else {
    check(T.Data.empty(), "only constants carry data");
  }
  if (T.Quant) {
    const ir::QuantParams &Q = *T.Quant;
    check(!Q.Scales.empty(), "quantization has a scale");
    check(Q.Scales.size() == Q.ZeroPoints.size(), "one zero point per scale");
    if (Q.isPerChannel())
      check(Q.Axis >= 0 && static_cast<unsigned>(Q.Axis) < T.rank() &&
                static_cast<int64_t>(Q.Scales.size()) == T.Shape[Q.Axis],
            "per-channel parameters match their axis");
    for (float S : Q.Scales)
      Sum += static_cast<uint64_t>(S > 1.0f);
    Sum += touch(Q.ZeroPoints) + static_cast<uint64_t>(Q.zeroPoint());
  }
  return Sum;
}

inline uint64_t walkAttr(const ir::AttrValue &V) {
  if (const auto *I = std::get_if<int64_t>(&V))
    return static_cast<uint64_t>(*I);
  if (const auto *D = std::get_if<double>(&V))
    return static_cast<uint64_t>(*D != 0.0);
  if (const auto *B = std::get_if<bool>(&V))
    return *B;
  if (const auto *S = std::get_if<std::string>(&V))
    return S->size();
  return touch(std::get<std::vector<int64_t>>(V));
}

inline uint64_t walkOperator(const ir::Graph &G, const ir::Operator &Op) {
  uint64_t Sum = Op.Type.size() + Op.CustomCode.size() +
                 static_cast<uint64_t>(Op.Version) +
                 static_cast<uint64_t>(Op.BuiltinCode) + touch(Op.RawOptions);
  for (int32_t T : Op.Inputs)
    check(T == -1 || G.isValidTensor(T), "operator inputs are in range");
  for (int32_t T : Op.Outputs)
    check(G.isValidTensor(T), "operator outputs are in range");
  for (const auto &[Name, Value] : Op.Attrs) {
    check(Op.hasAttr(Name), "attributes are found by name");
    Sum += Name.size() + walkAttr(Value);
  }
  int64_t Macs = analysis::operatorMacs(G, Op);
  check(Macs >= 0, "an operator does a non-negative number of MACs");
  return Sum + static_cast<uint64_t>(Macs);
}

inline uint64_t walkGraph(const ir::Graph &G) {
  check(ir::verifyGraph(G).empty(), "an imported graph verifies");
  uint64_t Sum = G.Name.size();
  for (size_t I = 0; I < G.Tensors.size(); ++I)
    Sum += walkTensor(G, I);
  for (int32_t T : G.Inputs)
    check(G.isValidTensor(T), "graph inputs are in range");
  for (int32_t T : G.Outputs)
    check(G.isValidTensor(T), "graph outputs are in range");
  for (const ir::Operator &Op : G.Operators)
    Sum += walkOperator(G, Op);
  int64_t Macs = analysis::graphMacs(G);
  int64_t Activations = analysis::activationBytes(G);
  int64_t Constants = analysis::constantBytes(G);
  check(Macs >= 0 && Activations >= 0 && Constants >= 0,
        "graph figures are non-negative");
  return Sum + static_cast<uint64_t>(Macs) +
         static_cast<uint64_t>(Activations) + static_cast<uint64_t>(Constants);
}

} // namespace fuzz
} // namespace accelgen

#endif // ACCELGEN_TESTS_FUZZ_MODELWALK_H
