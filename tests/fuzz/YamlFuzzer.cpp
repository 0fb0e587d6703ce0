//===- YamlFuzzer.cpp - libFuzzer entry point for `.yaml` descriptions ----===//
//
// Feeds arbitrary text to the YAML front end (yaml-cpp) as a target
// description, against the operator vocabulary of defs/ (parsed once with
// TableGen, FuzzTableGen.h); the model is built and validated, and every
// emitter runs over an accepted model. Mistakes must be diagnostics;
// nothing may crash, hang, throw or run out of memory.
//
//===----------------------------------------------------------------------===//
#include "FuzzTableGen.h"

#include "emitters/Emitters.h"
#include "frontend/RecordFrontend.h"
#include "frontend/YamlFrontend.h"
#include "model/TargetModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace accelgen;
using namespace accelgen::gen;

namespace {

/// The operators of defs/, which every YAML description starts from.
TargetDecl VocabularyOps;

bool readVocabulary(llvm::raw_ostream &, llvm::RecordKeeper &Records) {
  readOperatorRecords(Records, VocabularyOps);
  return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::initTableGen();
  const std::string Path = fuzz::createTemporaryTd("accelgen-yaml-fuzz");
  if (Path.empty())
    return 1;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "include \"kernels.td\"\n";
  }
  bool Ok = fuzz::parseTd(Path, &readVocabulary);
  llvm::sys::fs::remove(Path);
  if (!Ok || VocabularyOps.Ops.empty()) {
    std::fprintf(stderr, "yaml fuzzer: cannot read the operator vocabulary\n");
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  llvm::raw_null_ostream Null;
  Diagnostics Diags(Null);
  TargetDecl Decl = VocabularyOps;
  if (!readYamlTargetText(Text, "fuzz.yaml", Decl, Diags))
    return 0;
  std::unique_ptr<TargetModel> Model = buildTargetModel(Decl, Diags);
  if (!Model)
    return 0;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  emitOpSetups(*Model, OS);
  emitLegality(*Model, OS);
  emitPatterns(*Model, OS);
  emitSupportedOps(*Model, OS);
  emitVersionDiff(*Model, OS);
  emitConstraintTests(*Model, OS);
  emitDeviceRules(*Model, OS);
  dumpModel(*Model, OS);
  return 0;
}
