//===- E2ESupport.cpp - Shared pieces of the end-to-end tests -------------===//
//
// ACCELGEN_E2E_CACHE_DIR (set by tests/e2e/CMakeLists.txt) keeps the
// programs `accelgen run` builds inside the build folder.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "emit/ModelEmitter.h"
#include "import/TFLiteImporter.h"
#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#ifndef ACCELGEN_E2E_CACHE_DIR
#error "ACCELGEN_E2E_CACHE_DIR must name the tests' program cache"
#endif

namespace accelgen {
namespace e2e {

std::string pathJoin(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

std::string modelsDir() { return pathJoin(test::sharedDir(), "models"); }
std::string vectorsDir() { return pathJoin(test::sharedDir(), "vectors"); }
std::string modelPath(llvm::StringRef Name) {
  return pathJoin(modelsDir(), (Name + ".tflite").str());
}

bool exists(llvm::StringRef Path) { return llvm::sys::fs::exists(Path); }

void requireSharedDir() {
  const std::string Index = pathJoin(modelsDir(), "MODELS.md");
  REQUIRE_MESSAGE(exists(Index),
                  "the shared conformance folder is missing: "
                      << Index
                      << " does not exist. Point the CMake cache variable "
                         "ACCELGEN_SHARED_DIR at the folder holding models/ "
                         "and vectors/.");
}

std::vector<std::string>
functionalModelLabels(llvm::ArrayRef<llvm::StringRef> Except) {
  target::registerBuiltinTargets();
  std::vector<std::string> Labels;
  for (const std::string &Name : target::TargetRegistry::names()) {
    const target::TargetInfo *T = target::TargetRegistry::get(Name);
    if (!T || !T->hasFunctionalModel() || llvm::is_contained(Except, Name))
      continue;
    for (unsigned V = 0; V < T->versions().size(); ++V)
      Labels.push_back(T->versionLabel(V));
  }
  return Labels;
}

std::string compileTargetList() {
  std::vector<std::string> Known = emit::emitTargets();
  for (std::string &L : functionalModelLabels())
    Known.push_back(std::move(L));
  return llvm::join(Known, ", ");
}

const std::vector<std::string> &runnableModels() {
  return test::sharedModelNames();
}

std::vector<std::string> seedDirs(llvm::StringRef Name) {
  std::vector<std::string> Seeds;
  std::error_code EC;
  const std::string Dir = pathJoin(vectorsDir(), Name);
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()).startswith("seed"))
      Seeds.push_back(It->path());
  std::sort(Seeds.begin(), Seeds.end());
  return Seeds;
}

ir::Graph importGraph(llvm::StringRef Name) {
  auto R = tflite::importModelFile(modelPath(Name));
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  return R->Model->main();
}

test::RunResult runAccelgen(const std::vector<std::string> &Args) {
  return test::runProgram(test::accelgenPath(), Args, /*TimeoutSeconds=*/280);
}

test::RunResult runModel(const std::string &Model, const std::string &In,
                         const std::string &Out, bool Layers,
                         const std::string &Target) {
  std::vector<std::string> Args = {
      "run", Model,       "--target", Target,        "--inputs",
      In,    "--outputs", Out,        "--cache-dir", ACCELGEN_E2E_CACHE_DIR};
  if (Layers)
    Args.push_back("--dump-layers");
  return runAccelgen(Args);
}

std::string describeDiff(const std::vector<uint8_t> &Got,
                         const std::vector<uint8_t> &Want, ir::DType T) {
  std::ostringstream OS;
  if (Got.size() != Want.size()) {
    OS << "size " << Got.size() << ", expected " << Want.size();
    return OS.str();
  }
  auto Value = [&](uint8_t B) {
    return T == ir::DType::I8 ? int(int8_t(B)) : int(B);
  };
  size_t Count = 0, First = 0;
  int MaxStep = 0;
  for (size_t I = 0; I < Got.size(); ++I) {
    if (Got[I] == Want[I])
      continue;
    if (Count++ == 0)
      First = I;
    MaxStep = std::max(MaxStep, std::abs(Value(Got[I]) - Value(Want[I])));
  }
  if (Count == 0)
    return "identical";
  OS << Count << " of " << Got.size() << " bytes differ, first at " << First
     << " (got " << Value(Got[First]) << ", want " << Value(Want[First]) << ")";
  if (T == ir::DType::I8 || T == ir::DType::U8)
    OS << ", largest step " << MaxStep;
  return OS.str();
}

} // namespace e2e
} // namespace accelgen
