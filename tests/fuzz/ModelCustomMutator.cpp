//===- ModelCustomMutator.cpp - libFuzzer's mutator for model inputs ------===//
//
// Linked into the libFuzzer builds of the pipeline and differential
// fuzzers: an input that imports gets one to three structured mutations
// (ModelMutator.h), so the mutants pass the FlatBuffers verifier; one that
// does not, or whose mutant is too long, gets libFuzzer's byte mutations.
//
//===----------------------------------------------------------------------===//
#include "ModelMutator.h"

#include <cstring>

using namespace accelgen;

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::optional<std::vector<uint8_t>> Bytes = fuzz::mutateModelBytes(
      llvm::ArrayRef<uint8_t>(Data, Size), Seed, MaxSize);
  if (!Bytes)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  std::memcpy(Data, Bytes->data(), Bytes->size());
  return Bytes->size();
}
