//===- PipelineMutate.cpp - The pipeline target over structured mutants ---===//
//
// `accelgen-pipeline-mutate COUNT SEED MODEL...`: without libFuzzer, runs the
// pipeline fuzz target (PipelineFuzzer.cpp) over COUNT mutants of each MODEL,
// each made by one to three structured mutations (ModelMutator.h) from a
// generator seeded with SEED, and prints how many imported. A crash stops the
// run inside the target; the mutant is first written to a temporary file
// (accelgen-pipeline-mutant-*.tflite in the system's temporary folder, named
// on standard error at the start and removed after a clean run), to be kept
// as a regression.
// Coverage does not guide it: it is the fallback where a clang libFuzzer build
// is not at hand, and a quick smoke run in any build (sanitized ones too).
//
//===----------------------------------------------------------------------===//
#include "ModelMutator.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <fstream>

using namespace accelgen;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int argc, char **argv) {
  if (argc < 4) {
    llvm::errs() << "usage: " << argv[0] << " COUNT SEED MODEL...\n";
    return 2;
  }
  const long Count = std::atol(argv[1]);
  fuzz::Random R(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)));
  const auto Start = std::chrono::steady_clock::now();
  long Runs = 0, Imported = 0;
  llvm::SmallString<256> Mutant;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "accelgen-pipeline-mutant", "tflite", Mutant)) {
    llvm::errs() << "error: cannot create a temporary file: " << EC.message()
                 << "\n";
    return 1;
  }
  llvm::errs() << "a crash leaves its mutant in " << Mutant << "\n";
  for (int A = 3; A < argc; ++A) {
    auto Base = tflite::importModelFile(argv[A]);
    if (!Base) {
      llvm::errs() << "error: " << argv[A] << ": "
                   << llvm::toString(Base.takeError()) << "\n";
      return 1;
    }
    for (long I = 0; I < Count; ++I) {
      ir::Model M = *Base->Model;
      for (uint32_t K = 0, N = 1 + R.below(3); K < N; ++K)
        fuzz::mutateModel(M, R);
      std::vector<uint8_t> Bytes = tflite::writeModel(M);
      {
        std::ofstream Out(Mutant.c_str(), std::ios::binary);
        Out.write(reinterpret_cast<const char *>(Bytes.data()),
                  static_cast<std::streamsize>(Bytes.size()));
      }
      auto Back = tflite::importModel(Bytes);
      if (Back)
        ++Imported;
      else
        llvm::consumeError(Back.takeError());
      LLVMFuzzerTestOneInput(Bytes.data(), Bytes.size());
      ++Runs;
    }
  }
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  llvm::sys::fs::remove(Mutant);
  llvm::outs() << "ran " << Runs << " mutants (" << Imported << " imported) in "
               << llvm::format("%.1f", Seconds) << " s: no crash\n";
  return 0;
}
