//===- SanitizedRunTest.cpp - Mutated models, emitted C under ASan+UBSan --===//
//
// The C accelgen emits must never fault, whatever model it accepted. From
// fixed seeds, this mutates the bundled example (ModelMutator.h) until it has
// a sample of models the importer accepts, then lets `accelgen run` compile
// each for ref and mdla2.0 with `cc -fsanitize=address,undefined
// -fno-sanitize-recover=all` and run it on pseudo-random inputs. `run` may
// reject a model with a one-line error; it must not build a program that then
// fails.
//
//===----------------------------------------------------------------------===//
#include "ModelMutator.h"
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <string>

using namespace accelgen;

namespace {

/// How many accepted mutated models the test runs.
constexpr int SampleSize = 6;

struct Sample {
  std::string Path;
  ir::Model Model;
};

/// The first SampleSize mutated examples that import, written into \p Dir.
std::vector<Sample> importableMutants(const test::TempDir &Dir) {
  auto Base = tflite::importModelFile(test::exampleModelPath());
  REQUIRE_MESSAGE(bool(Base), llvm::toString(Base.takeError()));
  std::vector<Sample> Out;
  for (uint32_t Seed = 1; Seed < 2000 && Out.size() < SampleSize; ++Seed) {
    ir::Model M = *Base->Model;
    fuzz::Random R(Seed);
    fuzz::mutateModel(M, R);
    std::vector<uint8_t> Bytes = tflite::writeModel(M);
    auto Back = tflite::importModel(Bytes);
    if (!Back) {
      llvm::consumeError(Back.takeError());
      continue;
    }
    std::string Path = Dir.file("mutant" + std::to_string(Seed) + ".tflite");
    test::writeFileBytes(Path, Bytes);
    Out.push_back({Path, std::move(*Back->Model)});
  }
  return Out;
}

/// Pseudo-random input files for the inputs of \p M in folder \p In.
void writeInputs(const ir::Model &M, const std::string &In) {
  REQUIRE(!llvm::sys::fs::create_directories(In));
  const ir::Graph &G = M.Graphs.front();
  fuzz::Random R(7);
  for (size_t I = 0; I < G.Inputs.size(); ++I) {
    std::vector<uint8_t> Bytes(
        static_cast<size_t>(G.tensor(G.Inputs[I]).byteSize()));
    for (uint8_t &B : Bytes)
      B = static_cast<uint8_t>(R.next() >> 24);
    llvm::SmallString<128> P(In);
    llvm::sys::path::append(P, "input_" + std::to_string(I) + ".bin");
    test::writeFileBytes(P, Bytes);
  }
}

} // namespace

TEST_CASE("mutated models compile and run without faults under ASan+UBSan") {
  test::TempDir Dir;
  std::vector<Sample> Samples = importableMutants(Dir);
  REQUIRE(Samples.size() == SampleSize);
  // `run` builds with $CC; the sanitizers stop the program at the first
  // report, which `run` then shows as a failure of the compiled model.
  REQUIRE(setenv("CC",
                 "cc -fsanitize=address,undefined -fno-sanitize-recover=all "
                 "-fno-omit-frame-pointer",
                 1) == 0);
  int Ran = 0;
  for (size_t I = 0; I < Samples.size(); ++I) {
    std::string In = Dir.file("in" + std::to_string(I));
    writeInputs(Samples[I].Model, In);
    for (const char *Target : {"ref", "mdla2.0"}) {
      INFO(Samples[I].Path << " for " << Target);
      std::string Out = Dir.file("out" + std::to_string(I) + Target);
      test::RunResult R = test::runProgram(
          test::accelgenPath(),
          {"run", Samples[I].Path, "--target", Target, "--inputs", In,
           "--outputs", Out, "--cache-dir", Dir.file("cache")},
          300);
      INFO(R.Stderr);
      if (R.ExitCode == 0) {
        ++Ran;
        continue;
      }
      // A rejection: one line naming the model, never a built program that
      // failed.
      CHECK(R.ExitCode == 1);
      CHECK(R.Stderr.find("the compiled model") == std::string::npos);
      CHECK(llvm::StringRef(R.Stderr).startswith("error: " + Samples[I].Path));
    }
  }
  // Most mutations keep the model runnable; a sample where nothing ran would
  // test nothing.
  CHECK(Ran >= SampleSize);
}
