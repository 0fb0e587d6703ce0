//===- RefTargetTest.cpp - The reference target's generated legality -----===//
//
// ref.td must accept every operator of the shared conformance models, which
// the reference kernels all run. Then each constraint of ref.td runs its
// generated boundary cases.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "target/ConstraintProbe.h"
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/Legalize.h"
#include "target/TargetInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#define GET_LEGALITY_DECL
#include "Legality.inc"
#define GET_CONSTRAINT_TESTS_DECL
#define GET_CONSTRAINT_TESTS_IMPL
#include "ConstraintTests.inc"

using namespace accelgen;

namespace {

/// The shared models, by file stem; fails the test when there are none.
std::vector<std::string> sharedModels() {
  std::string Dir = test::sharedDir() + "/models";
  std::vector<std::string> Stems;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Stems.push_back(llvm::sys::path::stem(It->path()).str());
  std::sort(Stems.begin(), Stems.end());
  INFO("the shared conformance folder is missing or empty: "
       << Dir << " (set ACCELGEN_SHARED_DIR)");
  REQUIRE(!Stems.empty());
  return Stems;
}

} // namespace

TEST_CASE("ref runs every operator of the conformance models") {
  auto Ref = test::builtinTarget("ref");
  for (const std::string &Stem : sharedModels()) {
    CAPTURE(Stem);
    auto Imported = tflite::importModelFile(test::sharedDir() + "/models/" +
                                            Stem + ".tflite");
    REQUIRE(static_cast<bool>(Imported));
    ir::Graph G = Imported->Model->main();
    target::LegalizeReport R = target::legalize(G, *Ref, 0);
    for (const target::OpLegalization &Op : R.Ops) {
      CAPTURE(Op.OriginalIndex);
      CAPTURE(Op.OriginalType);
      std::string Reasons;
      for (const target::Rejection &W : Op.Why)
        Reasons += W.ConstraintId + ": " + W.Message + "\n";
      INFO(Reasons);
      CHECK(Op.Legal);
    }
  }
}

namespace accelgen::targets::ref {} // its tables, included below
#define ACCELGEN_PROBE_TARGET ref
#define ACCELGEN_PROBE_NAMESPACE accelgen::targets::ref
#include "testing/ConstraintProbeTests.h"
