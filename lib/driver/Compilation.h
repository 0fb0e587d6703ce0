//===- Compilation.h - One model through the pipeline for one target -*- C++ -*-===//
//
// The driver: a Compilation resolves its target label once (target, version,
// backend, CPU fallback) and runs the pipeline's stages as explicit steps,
// each once: import (read, import, verify), then either partition (explain)
// or prepare (the backend: partition, programs, library calls) and emit (the
// C emitter, with one memory plan), and at last run. `accelgen compile`,
// `run` and `explain` all go through it; the command line only parses
// options into Options and RunOptions and prints what comes back.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_DRIVER_COMPILATION_H
#define ACCELGEN_DRIVER_COMPILATION_H

#include "driver/Backend.h"
#include "emit/ModelEmitter.h"
#include "ir/Graph.h"
#include "partition/Partitioner.h"
#include "plan/Cascade.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace driver {

/// The largest working-memory arena a model may need: the arena is one static
/// C array, and beyond this size compilers and linkers fail (relocations past
/// 2 GiB) or the program cannot run on the devices accelgen targets.
constexpr uint64_t MaxArenaBytes = uint64_t(1) << 30;

/// What a compilation is asked for.
struct Options {
  /// The target label ("mdla2.0", or "ref" for its newest version).
  std::string Target;
  /// The prefix of the generated symbols (NAME_run); a C identifier.
  std::string Name = "model";
  /// `--cpu`: what the target's backend, or else its CPU fallback's, makes
  /// of it (an x86-64 instruction set, a Cortex-M); empty for the default.
  std::string Cpu;
  /// Cascading, budgets, inputs in place (docs/cascading.md).
  plan::CascadeOptions Cascading;
  /// accelgen's version, for banners and reports.
  std::string GeneratorVersion;
  /// `--onnx-arithmetic tflite`: compute a model whose quantized operators
  /// ONNX specifies with TensorFlow Lite's arithmetic instead of ONNX's
  /// (ir::Graph::Computes; docs/onnx.md).
  bool OnnxAsTFLite = false;
  /// `--library-calls-only`: a library-call target (cmsis-nn) calls its
  /// library's functions only, no kernel generated per layer (to compare
  /// them, or where only the library is qualified); an error for any other
  /// target.
  bool LibraryCallsOnly = false;
};

/// What `run` needs besides the compilation.
struct RunOptions {
  /// IN_DIR with input_<i>.bin.
  std::string InputsDir;
  /// Also write every operator's output (layers/output_<k>.bin).
  bool DumpLayers = false;
  /// Where built programs are kept; empty for $XDG_CACHE_HOME/accelgen or
  /// ~/.cache/accelgen.
  std::string CacheDir;
  /// The values of the backends' own run options (Backend::runOptions) that
  /// were given, by option name.
  std::map<std::string, std::string> Values;

  /// The value of option \p Name, or \p Default when it was not given.
  std::string value(llvm::StringRef Name, llvm::StringRef Default = "") const;
};

/// A target label resolved: everything the driver asks about a target.
struct ResolvedTarget {
  const target::TargetInfo *Info = nullptr;
  unsigned Version = 0;
  /// The label as given resolved no version ("cmsis-nn"): the newest.
  bool VersionGiven = true;
  /// Null when the description names no backend this program has.
  const driver::Backend *Backend = nullptr;
  /// The CPU fallback's target, version and backend; null when the target
  /// runs every operator itself.
  const target::TargetInfo *Fallback = nullptr;
  unsigned FallbackVersion = 0;
  const driver::Backend *FallbackBackend = nullptr;

  std::string label() const { return Info->versionLabel(Version); }
};

/// Registers the built-in targets, then resolves \p Label against the
/// backends registered so far (a program registers its own, usually with
/// registerBuiltinBackends()); errors say what is true: an unknown label with
/// the known ones, a target that can only be explained, a CPU fallback that
/// is not a target or does not run on the host CPU.
llvm::Expected<ResolvedTarget> resolveTarget(llvm::StringRef Label,
                                             bool NeedBackend);

/// Every label resolveTarget accepts with a version, sorted by target.
std::vector<std::string> targetLabels();

/// One model through the pipeline for one target.
class Compilation {
public:
  /// Resolves O.Target (needing a backend unless \p ExplainOnly) and
  /// O.Cpu; a one-line error otherwise.
  static llvm::Expected<std::unique_ptr<Compilation>>
  create(Options O, bool ExplainOnly = false);

  /// Reads (within support::MaxModelBytes), imports and verifies the model
  /// at \p Path; warnings() has what the importer said.
  llvm::Error import(llvm::StringRef Path);

  /// Places every operator (explain), with the target's CPU fallback as the
  /// CPU.
  partition::PartitionResult partition(bool UseCostModel = true) const;

  /// The backend's preparation, then the C emitter: emitted() after.
  llvm::Error compile();

  /// The cascaded plan compile would make (explain --memory).
  llvm::Expected<plan::CascadePlan> memoryPlan();

  /// The host program for the emitted model (main.c).
  llvm::Expected<emit::EmittedFile> hostMain() const;

  /// Builds and runs the compiled model (after compile()).
  llvm::Expected<std::vector<emit::EmittedFile>>
  run(const RunOptions &R) const;

  const Options &options() const { return Opts; }
  const ResolvedTarget &target() const { return Target; }
  /// The model file's bytes and the imported model.
  const std::vector<uint8_t> &bytes() const { return Bytes; }
  const ir::Graph &graph() const { return Model->main(); }
  /// Every graph: those the main one's operators call too.
  const ir::Model &model() const { return *Model; }
  const std::vector<std::string> &warnings() const { return Warnings; }
  /// The graph the emitter ran on: the partitioned one for an accelerator.
  const ir::Graph &emittedGraph() const {
    return EmitGraph ? *EmitGraph : graph();
  }
  const emit::EmittedModel &emitted() const { return Emitted; }
  /// What the emitter adds for the target, once prepared; null for none.
  const emit::Offload *offload() const { return Offload.get(); }
  /// Notes for the user (what `--cpu native` chose).
  const std::vector<std::string> &notes() const { return Notes; }
  void addNote(std::string N) { Notes.push_back(std::move(N)); }
  const emit::EmitOptions &emitOptions() const { return Emit; }

  /// For backends: the emitter's options (CPU kernels, instruction set).
  emit::EmitOptions &emitOptions() { return Emit; }
  /// For backends: what the emitter adds for the target, the graph it runs
  /// on instead of the imported one (null to keep that) and what owns it.
  void setOffload(std::shared_ptr<const emit::Offload> O,
                  const ir::Graph *Graph, std::shared_ptr<const void> Owner);
  /// For backends: state a backend keeps with the compilation (a Cortex-M
  /// chosen with --cpu); null until set.
  void setBackendState(std::shared_ptr<const void> S) {
    BackendState = std::move(S);
  }
  const void *backendState() const { return BackendState.get(); }
  /// For backends: selects version \p V of the target (`--cpu cortex-m4`
  /// selects cmsis-nn4).
  void setVersion(unsigned V) { Target.Version = V; }

private:
  explicit Compilation(Options O) : Opts(std::move(O)) {}

  Options Opts;
  ResolvedTarget Target;
  std::vector<uint8_t> Bytes;
  std::unique_ptr<ir::Model> Model;
  std::vector<std::string> Warnings;
  emit::EmitOptions Emit;
  std::shared_ptr<const emit::Offload> Offload;
  const ir::Graph *EmitGraph = nullptr;
  std::shared_ptr<const void> Owner;
  std::shared_ptr<const void> BackendState;
  std::vector<std::string> Notes;
  emit::EmittedModel Emitted;
};

} // namespace driver
} // namespace accelgen

#endif // ACCELGEN_DRIVER_COMPILATION_H
