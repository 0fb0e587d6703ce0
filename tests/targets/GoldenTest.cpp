//===- GoldenTest.cpp - Generated artifacts against tests/golden ----------===//
//
// Every artifact of every in-tree target, as the build generated it, must
// equal tests/golden/<target>/<artifact> byte for byte, and the golden folder
// must hold nothing else. A target whose description also exists as `.yaml`
// next to its `.td` must generate the very same bytes from either. To accept
// a change: `cmake --build build --target update-goldens`, then review the
// diff of tests/golden/ like code. The supported-operator and version-diff
// documents are also kept as docs/targets/<target>/*.md and compared too.
// A target built with GOLDEN_OF <other> (cpu, whose rules are ref's) has no
// golden folder: its artifacts must be <other>'s goldens with <other>'s name
// and description replaced by its own, so the shared rules are kept once.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <set>

using namespace accelgen;

namespace {

struct InTreeTarget {
  const char *Name;
  const char *Description; ///< The .td or .yaml the build uses.
  const char *OutputDir;   ///< Where the build wrote the artifacts.
  const char *GoldenOf;    ///< The target whose goldens are its, or "".
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

/// The one-line description under the title of a generated SupportedOps.md.
std::string descriptionIn(const std::string &SupportedOps) {
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(SupportedOps).split(Lines, '\n', /*MaxSplit=*/8);
  for (size_t I = 0; I + 2 < Lines.size(); ++I)
    if (Lines[I].startswith("# ") && Lines[I + 1].empty())
      return Lines[I + 2].str();
  return "";
}

/// \p Text with \p From renamed to \p To wherever it is a part of an
/// identifier between underscores, alone or followed by digits
/// ("targets::ref", "check_ref_nhwc", "ref1").
std::string renameTarget(llvm::StringRef Text, llvm::StringRef From,
                         llvm::StringRef To) {
  auto IsPart = [](char C) { return std::isalnum((unsigned char)C); };
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    if (!IsPart(Text[I])) {
      Out += Text[I++];
      continue;
    }
    size_t End = I;
    while (End < Text.size() && IsPart(Text[End]))
      ++End;
    llvm::StringRef Part = Text.slice(I, End);
    if (Part.startswith(From) &&
        llvm::all_of(Part.drop_front(From.size()),
                     [](char C) { return std::isdigit((unsigned char)C); }))
      Out += (To + Part.drop_front(From.size())).str();
    else
      Out += Part.str();
    I = End;
  }
  return Out;
}

const InTreeTarget *findTarget(llvm::StringRef Name) {
  for (const InTreeTarget &T : Targets)
    if (Name == T.Name)
      return &T;
  return nullptr;
}

/// The golden text of artifact \p File of \p T: its own golden file, or for
/// a GOLDEN_OF target the other's, renamed; empty with a failed check when
/// there is none.
std::string goldenText(const InTreeTarget &T, const std::string &File) {
  if (!*T.GoldenOf) {
    std::string Golden = goldenDir(T.Name) + "/" + File;
    if (!llvm::sys::fs::exists(Golden)) {
      FAIL_CHECK("missing golden file " << Golden);
      return "";
    }
    return test::readFileText(Golden);
  }
  const InTreeTarget *Of = findTarget(T.GoldenOf);
  if (!Of) {
    FAIL_CHECK(T.Name << " is GOLDEN_OF " << T.GoldenOf
                      << ", which is no in-tree target");
    return "";
  }
  std::string Text = goldenText(*Of, File);
  std::string FromDesc = descriptionIn(test::readFileText(
      std::string(Of->OutputDir) + "/SupportedOps.md"));
  std::string ToDesc = descriptionIn(
      test::readFileText(std::string(T.OutputDir) + "/SupportedOps.md"));
  REQUIRE_FALSE(FromDesc.empty());
  REQUIRE_FALSE(ToDesc.empty());
  for (size_t At = Text.find(FromDesc); At != std::string::npos;
       At = Text.find(FromDesc, At + ToDesc.size()))
    Text.replace(At, FromDesc.size(), ToDesc);
  return renameTarget(Text, Of->Name, T.Name);
}

} // namespace

TEST_CASE("renameTarget renames whole identifiers only") {
  CHECK(renameTarget("namespace targets::ref { check_ref_nhwc ref1 \"ref\" "
                     "reference refs ref1a ref-kernels }",
                     "ref", "cpu") ==
        "namespace targets::cpu { check_cpu_nhwc cpu1 \"cpu\" reference refs "
        "ref1a cpu-kernels }");
  CHECK(descriptionIn("<!-- x -->\n\n# Operators supported by a\n\nIts words.\n"
                      "\nMore.\n") == "Its words.");
}

TEST_CASE("every in-tree target has goldens for exactly its artifacts") {
  REQUIRE(std::size(Targets) > 0);
  for (const InTreeTarget &T : Targets) {
    std::set<std::string> Expected, Found;
    if (!*T.GoldenOf)
      for (const Artifact &A : Artifacts)
        Expected.insert(A.File);
    std::error_code EC;
    // Subfolders hold goldens other tests compare (explain/).
    for (llvm::sys::fs::directory_iterator It(goldenDir(T.Name), EC), End;
         It != End && !EC; It.increment(EC))
      if (It->type() != llvm::sys::fs::file_type::directory_file)
        Found.insert(llvm::sys::path::filename(It->path()).str());
    INFO("target " << T.Name << ", folder " << goldenDir(T.Name));
    // A GOLDEN_OF target has no folder at all.
    CHECK(bool(EC) == bool(*T.GoldenOf));
    CHECK(Found == Expected);
  }
}

TEST_CASE("generated artifacts equal their goldens byte for byte") {
  for (const InTreeTarget &T : Targets)
    for (const Artifact &A : Artifacts)
      checkSameText(std::string(T.Name) + "/" + A.File, goldenText(T, A.File),
                    test::readFileText(std::string(T.OutputDir) + "/" + A.File));
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
                    goldenText(T, A.File), test::readFileText(FromTd));
    }
  }
  // demo and npu are written both ways.
  CHECK(Twins == 2);
}
