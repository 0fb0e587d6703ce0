//===- ProgramTestSupport.h - Shared pieces of the program tests -*- C++
//-*-===//
//
// The MDLA, demo and ref targets, the shared models, and building a model's
// accelerator program for one target version, for the tests of lib/program.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_PROGRAM_PROGRAMTESTSUPPORT_H
#define ACCELGEN_TESTS_PROGRAM_PROGRAMTESTSUPPORT_H

#include "TestTargets.h"
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "program/ProgramBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <memory>
#include <string>
#include <vector>

namespace accelgen {
namespace test {

inline const target::TargetInfo &mdlaTarget() {
  static const std::unique_ptr<target::TargetInfo> T =
      builtinTarget("mdla");
  return *T;
}

/// The demo target: not run by the functional model in the CLI, but its
/// programs show that the builder follows any target's device rules.
inline const target::TargetInfo &demoTarget() {
  static const std::unique_ptr<target::TargetInfo> T =
      builtinTarget("demo");
  return *T;
}

inline const target::TargetInfo &refTarget() {
  static const std::unique_ptr<target::TargetInfo> T =
      builtinTarget("ref");
  return *T;
}

/// The MDLA versions, as labels and indices.
inline const std::vector<std::pair<std::string, unsigned>> &mdlaVersions() {
  static const std::vector<std::pair<std::string, unsigned>> V = {
      {"mdla1.5", 0}, {"mdla2.0", 1}, {"mdla3.0", 2}};
  return V;
}

/// Every shared model without state: the functional model runs whole
/// graphs as accelerator programs, which hold no variable tensors.
inline const std::vector<std::string> &programModels() {
  static const std::vector<std::string> Models = [] {
    std::vector<std::string> M;
    for (const std::string &Name : test::sharedModelNames())
      if (!test::sharedModelHasState(Name))
        M.push_back(Name);
    return M;
  }();
  return Models;
}

/// The main graph of shared model \p Name; fails the test when the shared
/// folder or the model is missing.
inline ir::Graph sharedGraph(const std::string &Name) {
  llvm::SmallString<256> Path(sharedDir());
  llvm::sys::path::append(Path, "models", Name + ".tflite");
  auto R = tflite::importModelFile(Path);
  REQUIRE_MESSAGE(bool(R), Path.str().str()
                               << " does not import (is ACCELGEN_SHARED_DIR "
                                  "right?): "
                               << llvm::toString(R.takeError()));
  return R->Model->main();
}

/// \p G partitioned for version \p Version of \p T with its program.
inline program::AcceleratedModel accelerateFor(const target::TargetInfo &T,
                                               const ir::Graph &G,
                                               unsigned Version,
                                               bool UseCostModel = true) {
  partition::PartitionOptions Opts;
  Opts.Cpu = &refTarget();
  Opts.UseCostModel = UseCostModel;
  auto M = program::buildAcceleratedModel(G, T, Version, Opts, "accelgen test");
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  return std::move(*M);
}

/// \p G partitioned for MDLA version \p Version with its program.
inline program::AcceleratedModel
accelerate(const ir::Graph &G, unsigned Version, bool UseCostModel = true) {
  return accelerateFor(mdlaTarget(), G, Version, UseCostModel);
}

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_PROGRAM_PROGRAMTESTSUPPORT_H
