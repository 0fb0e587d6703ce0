//===- ImportFuzzer.cpp - libFuzzer entry point for the TFLite importer ---===//
//
// Feeds arbitrary bytes to the TensorFlow Lite importer. A rejected input must
// come back as an error with a message; an accepted one must be a model the IR
// verifier passes, and every part of it is then read (ModelWalk.h).
//
// Built with -fsanitize=fuzzer as `accelgen-import-fuzzer`, and without it as
// `accelgen-import-replay`, which runs the same entry point over files given on
// the command line (the regression inputs in tests/fuzz/regressions).
//
//===----------------------------------------------------------------------===//
#include "ModelWalk.h"
#include "analysis/ModelStats.h"
#include "import/TFLiteImporter.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <variant>

using namespace accelgen;
using namespace accelgen::fuzz;

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
