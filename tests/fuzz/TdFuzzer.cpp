//===- TdFuzzer.cpp - libFuzzer entry point for `.td` descriptions --------===//
//
// Feeds arbitrary text to the `.td` front end: TableGen parses it (with defs/
// on the include path, so `include "kernels.td"` works), the record front end
// reads the target, the model is built and validated, and every emitter runs
// over an accepted model. Mistakes must be diagnostics; nothing may crash,
// hang or run out of memory. Each input is written to a file, since TableGen
// reads only files (FuzzTableGen.h).
//
//===----------------------------------------------------------------------===//
#include "FuzzTableGen.h"

#include "emitters/Emitters.h"
#include "frontend/RecordFrontend.h"
#include "model/TargetModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

using namespace accelgen;
using namespace accelgen::gen;

namespace {

std::string InputPath;

/// Reads the target and runs every emitter (TableGen's callback).
bool readAndEmit(llvm::raw_ostream &, llvm::RecordKeeper &Records) {
  llvm::raw_null_ostream Null;
  Diagnostics Diags(Null);
  TargetDecl Decl;
  if (!readTargetRecords(Records, Decl, Diags) || Diags.errorCount())
    return true;
  std::unique_ptr<TargetModel> Model = buildTargetModel(Decl, Diags);
  if (!Model)
    return true;
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
  return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::initTableGen();
  InputPath = fuzz::createTemporaryTd("accelgen-td-fuzz");
  return InputPath.empty() ? 1 : 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(InputPath, EC);
    if (EC)
      return 0;
    OS.write(reinterpret_cast<const char *>(Data), Size);
  }
  fuzz::parseTd(InputPath, &readAndEmit);
  return 0;
}
