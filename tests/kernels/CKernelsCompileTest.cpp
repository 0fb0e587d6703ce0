//===- CKernelsCompileTest.cpp - The C kernels compile as strict C99 ------===//
//
// Generated projects copy the kernel files of <build>/kernels/c (rendered from
// templates/ref, or copied from lib/kernels/c) and build them with whatever C
// compiler the user has, so every source must compile cleanly as ISO C99 with
// warnings as errors under both GCC and Clang:
//
//   <cc> -std=c99 -O2 -Wall -Wextra -Werror -pedantic -c <file>.c
//
// Every header must also stand alone (as C99 and, through its extern "C"
// guards, as C++17). A missing compiler fails the test rather than skipping
// it.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>

using namespace accelgen;

namespace {

/// The files of the kernel folder with extension \p Ext, sorted.
std::vector<std::string> kernelFiles(llvm::StringRef Ext) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(ACCELGEN_REF_KERNELS_DIR, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == Ext)
      Files.push_back(It->path());
  REQUIRE_MESSAGE(!EC, "cannot list " << ACCELGEN_REF_KERNELS_DIR << ": "
                                      << EC.message());
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// The path of compiler \p Name; fails the test if it is not installed.
std::string findCompiler(llvm::StringRef Name) {
  auto Path = llvm::sys::findProgramByName(Name);
  REQUIRE_MESSAGE(static_cast<bool>(Path),
                  Name.str() << " is not installed; the kernels must be "
                                "checked with it");
  return *Path;
}

/// Runs \p Compiler with \p Args and checks it succeeds silently.
void checkCompiles(const std::string &Compiler,
                   const std::vector<std::string> &Args,
                   const std::string &What) {
  test::RunResult R = test::runProgram(Compiler, Args, 120);
  CHECK_MESSAGE(R.ExitCode == 0, What << ": exit " << R.ExitCode << " "
                                      << R.ErrorMessage << "\n"
                                      << R.Stderr);
  CHECK_MESSAGE(R.Stderr.empty(), What << " printed:\n" << R.Stderr);
}

/// Compiles every source, and every header on its own as C99 and C++17.
void checkWith(llvm::StringRef CCName, llvm::StringRef CXXName) {
  const std::string CC = findCompiler(CCName);
  const std::string CXX = findCompiler(CXXName);
  test::TempDir Tmp;
  const std::vector<std::string> Sources = kernelFiles(".c");
  REQUIRE(Sources.size() >= 10);
  for (const std::string &Src : Sources)
    checkCompiles(CC,
                  {"-std=c99", "-O2", "-Wall", "-Wextra", "-Werror",
                   "-pedantic", "-c", Src, "-o", Tmp.file("out.o")},
                  CCName.str() + " " + Src);
  // Each header alone, included by a translation unit of one line (a header
  // compiled as the main file would warn about its unused static inline
  // helpers, which no real includer does).
  for (const std::string &Header : kernelFiles(".h")) {
    const std::string Line = "#include \"" + Header + "\"\n";
    const std::string CFile = Tmp.file("include.c");
    const std::string CXXFile = Tmp.file("include.cpp");
    test::writeFileBytes(
        CFile,
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Line.data()),
                                Line.size()));
    test::writeFileBytes(
        CXXFile,
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Line.data()),
                                Line.size()));
    checkCompiles(CC,
                  {"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
                   "-fsyntax-only", CFile},
                  CCName.str() + " (C99) " + Header);
    checkCompiles(CXX,
                  {"-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic",
                   "-fsyntax-only", CXXFile},
                  CXXName.str() + " (C++17) " + Header);
  }
}

} // namespace

TEST_CASE("gcc") { checkWith("gcc", "g++"); }

TEST_CASE("clang-14") { checkWith("clang-14", "clang++-14"); }
