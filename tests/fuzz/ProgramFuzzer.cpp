//===- ProgramFuzzer.cpp - libFuzzer entry point for program reading -----===//
//
// Feeds arbitrary bytes to the accelerator program reader (lib/program). A
// rejected buffer must come back as an error with a message; an accepted
// program is written again, and what is written must read back.
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace accelgen;

namespace {

void check(bool Condition, const char *What) {
  if (Condition)
    return;
  llvm::errs() << "program fuzzer: invariant violated: " << What << "\n";
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // An exactly sized, 8-byte aligned copy: FlatBuffers are read in place.
  std::vector<uint64_t> Aligned((Size + 7) / 8);
  if (Size)
    std::memcpy(Aligned.data(), Data, Size);
  llvm::ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>(Aligned.data()), Size);
  llvm::Expected<program::Program> P = program::readProgram(Bytes);
  if (!P) {
    std::string Message = llvm::toString(P.takeError());
    check(!Message.empty(), "error without a message");
    return 0;
  }
  std::vector<uint8_t> Again = program::writeProgram(*P);
  llvm::Expected<program::Program> Back = program::readProgram(Again);
  check(bool(Back), "a written program does not read back");
  if (!Back)
    llvm::consumeError(Back.takeError());
  return 0;
}
