//===- OnnxFuzzer.cpp - libFuzzer entry point for the ONNX reader ---------===//
//
// Feeds arbitrary bytes to the ONNX reader (protobuf, the ONNX checker and
// shape inference, then the reader's own lowering). A rejected input must
// come back as one line naming what is wrong; an accepted one must be a
// model the IR verifier passes, every part of which is then read
// (ModelWalk.h). Seeded with ONNX's node test models.
//
// Built with -fsanitize=fuzzer as `accelgen-onnx-fuzzer`, and without it as
// `accelgen-onnx-replay` over tests/fuzz/regressions/onnx.
//
//===----------------------------------------------------------------------===//
#include "ModelWalk.h"
#include "import/ONNXImporter.h"

#include <cstdint>
#include <string>

using namespace accelgen;
using namespace accelgen::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<ImportResult> Result =
      onnximport::importModel(llvm::ArrayRef<uint8_t>(Data, Size));
  if (!Result) {
    std::string Message = llvm::toString(Result.takeError());
    check(!Message.empty(), "a rejected model comes with a message");
    check(Message.find('\n') == std::string::npos, "a rejection is one line");
    return 0;
  }
  check(Result->Model != nullptr && !Result->Model->Graphs.empty(),
        "an accepted model has a graph");
  volatile uint64_t Sink = 0;
  for (const ir::Graph &G : Result->Model->Graphs)
    Sink = Sink + walkGraph(G);
  (void)Sink;
  return 0;
}
