//===- TestSupport.h - Shared pieces of accelgen's tests ------------------===//
//
// What several test programs need: where the built `accelgen` binary, the
// bundled example model and the shared conformance folder are (fixed by CMake
// at configure time), running a program with its output captured, temporary
// folders, whole-file I/O, and a field-by-field comparison of two models.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_TESTSUPPORT_H
#define ACCELGEN_TESTS_TESTSUPPORT_H

#include "ir/Graph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace doctest {
/// Vectors print as "{1, 2, 3}" in failed checks.
template <typename T> struct StringMaker<std::vector<T>> {
  static String convert(const std::vector<T> &V) {
    std::ostringstream OS;
    OS << '{';
    for (size_t I = 0; I < V.size(); ++I) {
      OS << (I ? ", " : "");
      if constexpr (std::is_arithmetic_v<T>)
        OS << +V[I]; // int8_t and uint8_t as numbers
      else
        OS << V[I];
    }
    OS << '}';
    return OS.str().c_str();
  }
};
} // namespace doctest

namespace accelgen {
namespace test {

/// The built `accelgen` binary.
std::string accelgenPath();
/// The version `accelgen --version` prints.
std::string accelgenVersion();
/// The example model the build writes (examples/tiny_convnet_int8.tflite).
std::string exampleModelPath();
/// The shared conformance folder (ACCELGEN_SHARED_DIR), holding models/ and
/// vectors/; it may not exist.
std::string sharedDir();

/// The models of the shared folder the model tests run (models/<name>.tflite),
/// in name order: the one list every such test reads.
const std::vector<std::string> &sharedModelNames();
/// The shared models a test program has a test case for: the macros that
/// declare one case per model add the model with ACCELGEN_COVER_MODEL, and a
/// test compares the set with sharedModelNames(), so no program keeps a
/// second list of the models.
std::set<std::string> &coveredModels();
/// Adds \p Name to coveredModels(); true, for a static initializer.
bool coverModel(const char *Name);
#define ACCELGEN_COVER_MODEL(Name)                                             \
  static const bool DOCTEST_ANONYMOUS(AccelgenCovered) =                       \
      ::accelgen::test::coverModel(Name);
/// True for a shared model whose operators keep state between invocations
/// (the LSTM models), which accelerator programs do not run.
bool sharedModelHasState(llvm::StringRef Name);

/// What a finished program left behind.
struct RunResult {
  /// The exit code; -1 if the program could not run or crashed, -2 on
  /// timeout (then ErrorMessage says why).
  int ExitCode = -1;
  std::string Stdout;
  std::string Stderr;
  std::string ErrorMessage;
};

/// Runs \p Program with \p Args (not including argv[0]), stdin empty, and
/// captures its output. Gives up after \p TimeoutSeconds. \p Env, when
/// given, is the whole environment ("NAME=value" each).
RunResult
runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
           unsigned TimeoutSeconds = 60,
           llvm::Optional<llvm::ArrayRef<std::string>> Env = llvm::None);

/// Runs the built `accelgen` with \p Args, in \p Env when given.
RunResult
runAccelgen(llvm::ArrayRef<std::string> Args,
            llvm::Optional<llvm::ArrayRef<std::string>> Env = llvm::None);

/// A fresh temporary folder, removed with everything in it on destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return Path; }
  /// The path of \p Name inside the folder.
  std::string file(llvm::StringRef Name) const;

private:
  std::string Path;
};

/// The bytes of the file at \p Path; fails the current test if unreadable.
std::vector<uint8_t> readFileBytes(llvm::StringRef Path);
/// The text of the file at \p Path; fails the current test if unreadable.
std::string readFileText(llvm::StringRef Path);
/// Writes \p Bytes to \p Path; fails the current test on error.
void writeFileBytes(llvm::StringRef Path, llvm::ArrayRef<uint8_t> Bytes);

/// A constant int32 tensor named \p Name of shape \p Shape holding
/// \p Values (little-endian, as the IR keeps constant data).
ir::Tensor int32Constant(std::string Name, std::vector<int32_t> Shape,
                         llvm::ArrayRef<int32_t> Values);

/// Checks, with one doctest assertion per field, that \p Actual has the same
/// graphs, tensors (data and quantization included), operators and
/// attributes as \p Expected.
void checkSameModel(const ir::Model &Expected, const ir::Model &Actual);

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_TESTSUPPORT_H
