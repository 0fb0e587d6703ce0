//===- ProgramFuzzer.cpp - libFuzzer entry point for program reading -----===//
//
// Feeds arbitrary bytes to the accelerator program reader (lib/program). A
// rejected buffer must come back as an error with a message; an accepted
// program is written again, and what is written must read back.
//
// The same bytes go straight to the C functional model too, with no
// FlatBuffers verifier in front (an emitted model.c carries it, and its
// reader promises an error code, never an out-of-bounds access, for any
// bytes): every subgraph is checked and, when the check passes, run in a
// small arena, so what a check accepts must also run without a fault
// (striped subgraphs and those reading graph inputs in the caller's buffers
// must be refused as bad arguments instead: the harness has neither stripe
// tables nor input buffers).
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "accel_functional.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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

/// Checks every subgraph of \p Bytes with the C functional model and runs
/// those it accepts in a zeroed arena and scratch memory of 64 KiB each.
void runFunctionalModel(llvm::ArrayRef<uint8_t> Bytes) {
  constexpr size_t Memory = 64 << 10;
  static std::vector<uint64_t> Arena(Memory / 8), Scratch(Memory / 8);
  const int32_t Count = accel_subgraph_count(Bytes.data(), Bytes.size());
  const int Status =
      accel_check_program(Bytes.data(), Bytes.size(), Memory, Memory);
  check(Status >= ACCEL_OK && Status <= ACCEL_ERR_ARGUMENT,
        "the functional model returned an unknown status");
  if (Status != ACCEL_OK)
    return;
  check(Count >= 0, "a program that checks has no subgraph count");
  std::fill(Arena.begin(), Arena.end(), 0);
  std::fill(Scratch.begin(), Scratch.end(), 0);
  accel_memory M{reinterpret_cast<uint8_t *>(Arena.data()), Memory,
                 reinterpret_cast<uint8_t *>(Scratch.data()), Memory};
  // What the harness cannot give a subgraph: a striped one runs only stripe
  // by stripe (accel_run_stripe, with the host's stripe tables), and graph
  // inputs read in the caller's buffers need those buffers. Both are
  // refused as bad arguments.
  llvm::Expected<program::Program> P = program::readProgram(Bytes);
  auto NeedsMore = [&](int32_t S) {
    if (!P || static_cast<size_t>(S) >= P->Subgraphs.size())
      return true; // the reader's own checks are exercised below
    const program::Subgraph &Sub = P->Subgraphs[S];
    return Sub.Striped ||
           llvm::any_of(Sub.Tensors,
                        [](const program::Tensor &T) { return T.Input >= 0; });
  };
  for (int32_t S = 0; S < Count && S < 8; ++S) {
    double Cycles = 0;
    const int Run =
        accel_run_subgraph(Bytes.data(), Bytes.size(), S, &M, nullptr, &Cycles);
    check(Run == ACCEL_OK || (Run == ACCEL_ERR_ARGUMENT && NeedsMore(S)),
          "a subgraph that checks does not run");
  }
  if (!P)
    llvm::consumeError(P.takeError());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // An exactly sized, 8-byte aligned copy: FlatBuffers are read in place.
  std::vector<uint64_t> Aligned((Size + 7) / 8);
  if (Size)
    std::memcpy(Aligned.data(), Data, Size);
  llvm::ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>(Aligned.data()), Size);
  runFunctionalModel(Bytes);
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
