//===- ModelRoundTripTest.cpp - Real models through TFLiteWriter ----------===//
//
// Every model of the shared conformance folder, imported, written with
// TFLiteWriter and imported again, gives the same IR; and writing that IR
// once more gives the same bytes. Real converter output exercises layouts the
// hand-built unit tests do not (LSTMs, uint8, hundreds of tensors).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace accelgen;

TEST_CASE("every shared model survives a write and re-import") {
  llvm::SmallString<256> Dir(test::sharedDir());
  llvm::sys::path::append(Dir, "models");
  REQUIRE_MESSAGE(llvm::sys::fs::is_directory(Dir),
                  "the shared conformance folder is missing: "
                      << Dir.str().str()
                      << " does not exist. Point the CMake cache variable "
                         "ACCELGEN_SHARED_DIR at the folder holding models/.");
  std::vector<std::string> Models;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Models.push_back(It->path());
  REQUIRE(!EC);
  REQUIRE(!Models.empty());
  std::sort(Models.begin(), Models.end());

  for (const std::string &Path : Models) {
    INFO("model ", Path);
    auto First = tflite::importModelFile(Path);
    REQUIRE_MESSAGE(bool(First), llvm::toString(First.takeError()));
    std::vector<uint8_t> Bytes = tflite::writeModel(*First->Model);
    auto Second = tflite::importModel(Bytes);
    REQUIRE_MESSAGE(bool(Second), llvm::toString(Second.takeError()));
    // Workarounds applied on the first import are written out fixed.
    CHECK(Second->Warnings.empty());
    test::checkSameModel(*First->Model, *Second->Model);
    CHECK(tflite::writeModel(*Second->Model) == Bytes);
  }
}
