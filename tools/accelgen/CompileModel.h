//===- CompileModel.h - Model to C, shared by compile and run ---*- C++ -*-===//
//
// What `accelgen compile`, `run` and `explain` share: a compilation of a
// model for a target through the driver, option helpers. Failures are
// reported in the CLI's one-line format, `error: FILE: message`.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_COMPILEMODEL_H
#define ACCELGEN_TOOLS_COMPILEMODEL_H

#include "driver/Compilation.h"
#include "import/TFLiteImporter.h"
#include "plan/Cascade.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <vector>

namespace accelgen {
namespace cli {

/// A compilation for \p O (the driver, driver/Compilation.h) that has imported the model at \p Path and,
/// unless \p ExplainOnly, compiled it; prints the errors, warnings and
/// notes and returns null on failure.
std::unique_ptr<driver::Compilation> compileModel(llvm::StringRef Path,
                                                  driver::Options O,
                                                  bool ExplainOnly = false);

/// The cascading options of `--cascade`, `--memory-budget BYTES` and
/// `--inputs-in-place`: a budget cascades as little as fits it, --cascade
/// alone for the least memory; inputs in place keep the graph inputs in the
/// caller's buffers.
plan::CascadeOptions
cascadeOptions(bool Cascade, const llvm::cl::opt<unsigned long long> &Budget,
               bool InputsInPlace);

/// Adds `--onnx-arithmetic` to compile, run and explain (before the command
/// line is parsed); onnxAsTFLite() is true when it says tflite.
void addOnnxArithmeticOption();
bool onnxAsTFLite();
/// Adds `--library-calls-only` to compile, run and explain (likewise);
/// libraryCallsOnly() is true when it was given.
void addLibraryCallsOnlyOption();
bool libraryCallsOnly();

/// 0 if the named option \p Opt of subcommand \p Command was given a value;
/// else prints an error and returns 1.
int requireOption(const llvm::cl::opt<std::string> &Opt,
                  llvm::StringRef Command);

/// The version `accelgen --version` prints.
llvm::StringRef toolVersion();

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_COMPILEMODEL_H
