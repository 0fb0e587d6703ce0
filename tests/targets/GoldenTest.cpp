//===- GoldenTest.cpp - Generated artifacts against tests/golden ----------===//
//
// Every artifact of every in-tree target, as the build generated it, must
// equal tests/golden/<target>/<artifact> byte for byte, and the golden folder
// must hold nothing else. A target whose description also exists as `.yaml`
// next to its `.td` must generate the very same bytes from either. To accept
// a change: `cmake --build build --target update-goldens`, then review the
// diff of tests/golden/ like code. The supported-operator and version-diff
// documents are also kept as docs/targets/<target>/*.md and compared too.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace accelgen;

namespace {

struct InTreeTarget {
  const char *Name;
  const char *Description; ///< The .td or .yaml the build uses.
  const char *OutputDir;   ///< Where the build wrote the artifacts.
};

struct Artifact {
  const char *Action; ///< accelgen-tblgen's -gen-<action>
  const char *File;
};

#include "InTreeTargets.inc"

std::string goldenDir(llvm::StringRef Target) {
  return (llvm::Twine(ACCELGEN_SOURCE_DIR) + "/tests/golden/" + Target).str();
}

/// Where the first difference between \p A and \p B is, as "line N".
std::string firstDifference(const std::string &A, const std::string &B) {
  size_t Line = 1;
  for (size_t I = 0; I < std::min(A.size(), B.size()); ++I) {
    if (A[I] != B[I])
      return "line " + std::to_string(Line);
    Line += A[I] == '\n';
  }
  return A.size() == B.size() ? "nowhere"
                              : "line " + std::to_string(Line) + " (length)";
}

void checkSameText(const std::string &What, const std::string &Golden,
                   const std::string &Actual) {
  INFO(What << ": differs from the golden file at "
            << firstDifference(Golden, Actual)
            << "; if the change is intended, run `cmake --build build "
               "--target update-goldens` and review the diff");
  CHECK(Golden == Actual);
}

} // namespace

TEST_CASE("every in-tree target has goldens for exactly its artifacts") {
  REQUIRE(std::size(Targets) > 0);
  for (const InTreeTarget &T : Targets) {
    std::set<std::string> Expected, Found;
    for (const Artifact &A : Artifacts)
      Expected.insert(A.File);
    std::error_code EC;
    // Subfolders hold goldens other tests compare (explain/).
    for (llvm::sys::fs::directory_iterator It(goldenDir(T.Name), EC), End;
         It != End && !EC; It.increment(EC))
      if (It->type() != llvm::sys::fs::file_type::directory_file)
        Found.insert(llvm::sys::path::filename(It->path()).str());
    INFO("target " << T.Name << ", folder " << goldenDir(T.Name));
    CHECK_FALSE(EC);
    CHECK(Found == Expected);
  }
}

TEST_CASE("generated artifacts equal their goldens byte for byte") {
  for (const InTreeTarget &T : Targets)
    for (const Artifact &A : Artifacts) {
      std::string Golden = goldenDir(T.Name) + "/" + A.File;
      if (!llvm::sys::fs::exists(Golden)) {
        FAIL_CHECK("missing golden file " << Golden);
        continue;
      }
      checkSameText(std::string(T.Name) + "/" + A.File,
                    test::readFileText(Golden),
                    test::readFileText(std::string(T.OutputDir) + "/" + A.File));
    }
}

TEST_CASE("docs/targets/<target>/ holds the generated documentation") {
  for (const InTreeTarget &T : Targets)
    for (auto [Artifact, Doc] : {std::pair{"SupportedOps.md", "supported_ops.md"},
                                 std::pair{"VersionDiff.md", "version_diff.md"}}) {
      std::string Path = std::string(ACCELGEN_SOURCE_DIR) + "/docs/targets/" +
                         T.Name + "/" + Doc;
      if (!llvm::sys::fs::exists(Path)) {
        FAIL_CHECK("missing " << Path);
        continue;
      }
      checkSameText(Path, test::readFileText(Path),
                    test::readFileText(std::string(T.OutputDir) + "/" + Artifact));
    }
}

TEST_CASE(".td and .yaml descriptions generate identical artifacts") {
  unsigned Twins = 0;
  for (const InTreeTarget &T : Targets) {
    llvm::StringRef Desc = T.Description;
    llvm::StringRef Stem = Desc.drop_back(llvm::sys::path::extension(Desc).size());
    std::string Td = (Stem + ".td").str(), Yaml = (Stem + ".yaml").str();
    if (!llvm::sys::fs::exists(Td) || !llvm::sys::fs::exists(Yaml))
      continue;
    ++Twins;
    test::TempDir Dir;
    for (const Artifact &A : Artifacts) {
      std::string FromTd = Dir.file(std::string("td-") + A.File);
      std::string FromYaml = Dir.file(std::string("yaml-") + A.File);
      for (auto [In, Out] : {std::pair{Td, FromTd}, std::pair{Yaml, FromYaml}}) {
        test::RunResult R = test::runProgram(
            ACCELGEN_TBLGEN, {std::string("-gen-") + A.Action, In, "-o", Out});
        // A structured binding cannot be captured (the macro's lambda).
        const auto &InRef = In;
        INFO(InRef << ": " << R.Stderr << R.ErrorMessage);
        REQUIRE(R.ExitCode == 0);
      }
      checkSameText(std::string(T.Name) + "/" + A.File + " from .yaml",
                    test::readFileText(FromTd), test::readFileText(FromYaml));
      checkSameText(std::string(T.Name) + "/" + A.File + " from .td",
                    test::readFileText(goldenDir(T.Name) + "/" + A.File),
                    test::readFileText(FromTd));
    }
  }
  // demo is written both ways.
  CHECK(Twins >= 1);
}
