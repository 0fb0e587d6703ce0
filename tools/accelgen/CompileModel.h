//===- CompileModel.h - Model to C, shared by compile and run ---*- C++ -*-===//
//
// What `accelgen compile` and `accelgen run` both do: read and import a
// model, emit its C for a target, and write files. Failures are reported in
// the CLI's one-line format, `error: FILE: message`.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_COMPILEMODEL_H
#define ACCELGEN_TOOLS_COMPILEMODEL_H

#include "emit/ModelEmitter.h"
#include "import/TFLiteImporter.h"
#include "ir/Graph.h"
#include "program/ProgramBuilder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <vector>

namespace accelgen {
namespace cli {

/// The largest working-memory arena a model may need: the arena is one static
/// C array, and beyond this size compilers and linkers fail (relocations past
/// 2 GiB) or the program cannot run on the devices accelgen targets.
constexpr uint64_t MaxArenaBytes = uint64_t(1) << 30;

/// A model read, imported and emitted.
struct CompiledModel {
  /// The model file's bytes.
  std::vector<uint8_t> Bytes;
  std::unique_ptr<ir::Model> Model;
  emit::EmitOptions Options;
  emit::EmittedModel Emitted;
  /// For an accelerator target: the partitioned model with its program, and
  /// what the emitter adds for it (Options.Accelerator points at it).
  std::shared_ptr<program::AcceleratedModel> Accelerated;
  std::shared_ptr<emit::Offload> Offload;

  const ir::Graph &graph() const { return Model->main(); }
};

/// Reads, imports and emits the model at \p Path for \p Target with symbol
/// prefix \p Name, cascading as \p Cascading says, target cpu's kernels
/// (its own or an accelerator target's CPU operators) for \p Cpu. On
/// failure prints the error line and returns nothing.
std::optional<CompiledModel>
compileModel(llvm::StringRef Path, llvm::StringRef Target, llvm::StringRef Name,
             const plan::CascadeOptions &Cascading = {},
             const emit::CpuChoice &Cpu = {});

/// The choice of `--cpu` \p Name for \p Target: an x86-64 instruction set
/// for target cpu's kernels (emit/CpuIsa.h). Prints an error and returns
/// nothing for an unknown name, or for a target that runs none of target
/// cpu's kernels; says which instruction set `native` chose.
std::optional<emit::CpuChoice> chooseCpu(llvm::StringRef Name,
                                         llvm::StringRef Target);

/// The cascading options of `--cascade`, `--memory-budget BYTES` and
/// `--inputs-in-place`: a budget cascades as little as fits it, --cascade
/// alone for the least memory; inputs in place keep the graph inputs in the
/// caller's buffers.
plan::CascadeOptions
cascadeOptions(bool Cascade, const llvm::cl::opt<unsigned long long> &Budget,
               bool InputsInPlace);

/// Reads (within support::MaxModelBytes) and imports the model at \p Path.
llvm::Expected<tflite::ImportResult> importModelFile(llvm::StringRef Path);

/// Writes \p Files into \p Dir, creating it; files whose content is already
/// there are left untouched.
llvm::Error writeFiles(llvm::StringRef Dir,
                       llvm::ArrayRef<emit::EmittedFile> Files);

/// 0 if the named option \p Opt of subcommand \p Command was given a value;
/// else prints an error and returns 1.
int requireOption(const llvm::cl::opt<std::string> &Opt,
                  llvm::StringRef Command);

/// 0 if \p Target is one the C emitter knows (ref, or a version of a target
/// whose description says its programs run on the functional model, such as
/// mdla2.0); else prints an error and returns 1.
int checkTarget(llvm::StringRef Target);

/// True if \p Target names the cmsis-nn target or one of its CPU families
/// ("cmsis-nn", "cmsis-nn4").
bool isCmsisTarget(llvm::StringRef Target);

/// The version `accelgen --version` prints.
llvm::StringRef toolVersion();

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_COMPILEMODEL_H
