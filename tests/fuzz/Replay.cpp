//===- Replay.cpp - Run a fuzz target over saved inputs -------------------===//
//
// A main() for builds without libFuzzer, linked with each fuzz target as
// `accelgen-<name>-replay`: calls LLVMFuzzerInitialize (when the target has
// one) and then LLVMFuzzerTestOneInput once per file named on the command
// line, or per file inside a named folder, so the regression inputs run in
// every test build (plain and ASan+UBSan). A failing input aborts inside the
// target; this driver only reports unreadable paths.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *Argc,
                                                          char ***Argv);

namespace {

/// Appends \p Path, or the regular files directly inside it, to \p Files.
bool collect(const std::string &Path, std::vector<std::string> &Files) {
  if (!llvm::sys::fs::is_directory(Path)) {
    Files.push_back(Path);
    return true;
  }
  std::vector<std::string> Inside;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::fs::is_regular_file(It->path()))
      Inside.push_back(It->path());
  if (EC) {
    llvm::errs() << "error: " << Path
                 << ": cannot list folder: " << EC.message() << "\n";
    return false;
  }
  std::sort(Inside.begin(), Inside.end());
  Files.insert(Files.end(), Inside.begin(), Inside.end());
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: " << argv[0] << " <file or folder>...\n";
    return 2;
  }
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> Files;
  for (int I = 1; I < argc; ++I)
    if (!collect(argv[I], Files))
      return 1;
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf) {
      llvm::errs() << "error: " << File
                   << ": cannot read file: " << Buf.getError().message()
                   << "\n";
      return 1;
    }
    llvm::outs() << "replaying " << File << " (" << (*Buf)->getBufferSize()
                 << " bytes)\n";
    // An exactly sized heap copy, so that AddressSanitizer catches a read
    // one byte past the end, as it does under libFuzzer.
    std::vector<uint8_t> Bytes((*Buf)->getBufferStart(),
                               (*Buf)->getBufferEnd());
    LLVMFuzzerTestOneInput(Bytes.data(), Bytes.size());
  }
  llvm::outs() << "replayed " << Files.size() << " input(s)\n";
  return 0;
}
