//===- ImportFuzzer.cpp - libFuzzer entry point for the TFLite importer ---===//
//
// Feeds arbitrary bytes to the TensorFlow Lite importer. A rejected input must
// come back as an error with a message; an accepted one must be a model the IR
// verifier passes, and every part of it (tensors, quantization, constant data,
// operators and their attributes) is then read, and the analyses run over it,
// so that the sanitizers see any inconsistency the importer let through.
//
// Built with -fsanitize=fuzzer as `accelgen-import-fuzzer`, and without it as
// `accelgen-import-replay`, which runs the same entry point over files given on
// the command line (the regression inputs in tests/fuzz/regressions).
//
//===----------------------------------------------------------------------===//
#include "analysis/ModelStats.h"
#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <variant>

using namespace accelgen;

namespace {

/// Stops the run when an invariant the importer promises does not hold.
void check(bool Condition, const char *What) {
  if (Condition)
    return;
  llvm::errs() << "import fuzzer: invariant violated: " << What << "\n";
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

uint64_t walkTensor(const ir::Graph &G, size_t Index) {
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
    check(Q.Scales.size() == Q.ZeroPoints.size(),
          "one zero point per scale");
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

uint64_t walkAttr(const ir::AttrValue &V) {
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

uint64_t walkOperator(const ir::Graph &G, const ir::Operator &Op) {
  uint64_t Sum = Op.Type.size() + Op.CustomCode.size() +
                 static_cast<uint64_t>(Op.Version) +
                 static_cast<uint64_t>(Op.BuiltinCode) +
                 touch(Op.RawOptions);
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

uint64_t walkGraph(const ir::Graph &G) {
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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Callers hand over bytes at any address (a model embedded as a C array has
  // no alignment), so most inputs are passed at an address that is not 8-byte
  // aligned: Size % 8 bytes past an aligned allocation. The input still ends
  // where the allocation does, so reading past it is still caught.
  size_t Shift = Size % 8;
  std::unique_ptr<uint8_t[]> Shifted(new uint8_t[Shift + Size]);
  if (Size)
    std::memcpy(Shifted.get() + Shift, Data, Size);
  llvm::Expected<tflite::ImportResult> Result = tflite::importModel(
      llvm::ArrayRef<uint8_t>(Shifted.get() + Shift, Size));
  if (!Result) {
    std::string Message = llvm::toString(Result.takeError());
    check(!Message.empty(), "a rejected model comes with a message");
    return 0;
  }
  check(Result->Model != nullptr, "an accepted model is returned");
  const ir::Model &M = *Result->Model;
  check(!M.Graphs.empty(), "an accepted model has a graph");
  volatile uint64_t Sink = M.Description.size();
  uint64_t Constants = 0;
  for (const ir::Graph &G : M.Graphs) {
    Sink = Sink + walkGraph(G);
    Constants += static_cast<uint64_t>(analysis::constantBytes(G));
  }
  check(Constants <= tflite::MaxConstantExpansion * Size,
        "constant data stays within MaxConstantExpansion times the input");
  for (const std::string &W : Result->Warnings)
    Sink = Sink + W.size();
  (void)Sink;
  return 0;
}
