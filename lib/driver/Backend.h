//===- Backend.h - How a target's operators become code that runs -*- C++ -*-===//
//
// A backend is an object registered by name that owns what differs between
// targets after partitioning: what it does to a model before the C emitter
// runs (partition it and build accelerator programs, choose library calls,
// pick the CPU kernels), what `--cpu` means to it, what it forbids or plans
// for working memory, and how the emitted C is built and run. A target's
// description names its backend (`Backend` in defs/accelgen.td) and its CPU
// fallback; the driver (Compilation.h) asks the backend and never compares
// target or backend names. Plugins may register backends of their own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_DRIVER_BACKEND_H
#define ACCELGEN_DRIVER_BACKEND_H

#include "emit/ModelEmitter.h"
#include "plan/Cascade.h"
#include "target/OpSetup.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace driver {

class Compilation;
struct RunOptions;

/// What a backend adds to the host C compiler's command line when `accelgen
/// run` builds the emitted C on this machine.
struct HostBuild {
  /// Flags before the sources (optimisation, -march, -I).
  std::vector<std::string> Flags;
  /// Libraries after the sources (archives built for this run).
  std::vector<std::string> Libraries;
  /// What else decides the program, for its cache key.
  std::vector<std::string> KeyParts;
};

/// An option of `accelgen run` that one backend defines and reads
/// (`--NAME VALUE`): the command line offers it without knowing the backend.
struct BackendOption {
  /// Its name on the command line, without dashes ("timeout").
  std::string Name;
  /// What its value is, for --help ("dir").
  std::string ValueDesc;
  /// What it does, for --help.
  std::string Help;
};

/// One backend; stateless, shared by every compilation.
class Backend {
public:
  virtual ~Backend();

  /// The name descriptions give it ("functional-model").
  virtual llvm::StringRef name() const = 0;
  /// How its compiled code runs, for people ("CPU kernels + programs on the
  /// functional model").
  virtual llvm::StringRef summary() const = 0;
  /// True when its targets run every operator on the host CPU themselves:
  /// such a target has no CPU fallback and may be another's.
  virtual bool runsOnHostCpu() const { return false; }

  /// What `--cpu` selects for it, for --help ("an x86-64 instruction set of
  /// ...: generic, x86-64-v3"); empty when it takes no `--cpu`.
  virtual std::string cpuHelp() const { return std::string(); }

  /// The options of `accelgen run` it reads from RunOptions::Values.
  virtual std::vector<BackendOption> runOptions() const { return {}; }

  /// Takes `--cpu` \p Name for compilation \p C: true if it took it, false if
  /// the name means nothing to this backend (the driver then asks the CPU
  /// fallback's backend), an error for a name it should know but does not.
  virtual llvm::Expected<bool> selectCpu(llvm::StringRef Name,
                                         Compilation &C) const;

  /// Prepares \p C's imported model for the C emitter: sets what the
  /// emitter adds for the target (C.setOffload) and the CPU kernels.
  virtual llvm::Error prepare(Compilation &C) const = 0;

  /// Sets the CPU kernels of \p C's operators this backend runs on the host
  /// CPU when it is another target's fallback (a backend that runs on the
  /// host CPU); nothing by default.
  virtual void prepareCpuKernels(Compilation &C) const;

  /// The cascaded plan `explain --memory` shows: the one compile makes. By
  /// default the planner's on the imported graph with cascadeOptions().
  virtual llvm::Expected<plan::CascadePlan> memoryPlan(Compilation &C) const;

  /// The planner's options for \p C's imported graph: the command line's
  /// cascading options with the target's own rules. By default the host's
  /// (emit::hostCascading: tiles on the reference kernels).
  virtual llvm::Expected<plan::CascadeOptions>
  cascadeOptions(Compilation &C) const;

  /// Adds to the host build of \p C's emitted C; by default the CPU
  /// fallback's additions, nothing without one.
  virtual llvm::Error addToHostBuild(const Compilation &C,
                                     const RunOptions &R, HostBuild &B) const;

  /// Builds and runs \p C's compiled model on the inputs R.InputsDir; the
  /// files it wrote (output_<i>.bin, layers/output_<k>.bin). By default on
  /// this machine with the system C compiler (HostRun.h).
  virtual llvm::Expected<std::vector<emit::EmittedFile>>
  run(const Compilation &C, const RunOptions &R) const;

  /// For people, after a run: where it ran ("" for this machine).
  virtual std::string ranOn(const Compilation &C) const;

  /// Why compile runs operator \p Op of \p G (\p C's model) on the CPU
  /// fallback although the description places it on the device, or nothing
  /// (the default): what `explain` shows then (PartitionOptions::Review).
  virtual std::optional<target::Rejection>
  reviewPlacement(const Compilation &C, const ir::Graph &G, size_t Op) const;

  /// Whether \p C may use target operator \p TargetOp, which a mapping
  /// produces (PartitionOptions::Allowed): every one by default.
  virtual bool allowsOperation(const Compilation &C,
                               llvm::StringRef TargetOp) const;
};

/// The backends this program has, by name.
class BackendRegistry {
public:
  /// Registers \p B under its name; a second backend of the same name is
  /// refused (returns false) and dropped.
  static bool add(std::unique_ptr<Backend> B);
  /// The backend named \p Name, or null.
  static const Backend *get(llvm::StringRef Name);
  /// Every registered name, sorted.
  static std::vector<std::string> names();
};

/// Registers the backends built into this program (once): the reference and
/// specialised CPU kernels, the functional model's programs, CMSIS-NN calls.
void registerBuiltinBackends();

} // namespace driver
} // namespace accelgen

#endif // ACCELGEN_DRIVER_BACKEND_H
