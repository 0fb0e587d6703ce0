//===- CmsisNn.h - Operators as CMSIS-NN calls ------------------*- C++ -*-===//
//
// The cmsis-nn target runs int8 operators on Arm Cortex-M as direct calls of
// CMSIS-NN's arm_* functions and the rest on the reference kernels. Which
// operator becomes which function is the target's description
// (targets/cmsis-nn/cmsis-nn.td: its legality and mappings); this library
// turns that decision into C: `static const` cmsis_nn_* parameter structs
// with every quantization constant computed here (the same builders as the
// reference kernels, so the arithmetic is TensorFlow Lite's), weights and
// per-channel multipliers and shifts as constant arrays, the fully connected
// kernel sums the Helium path reads precomputed, and each call's scratch
// (the description's Scratch records for the CPU family) as a buffer of the
// memory plan, live while the call runs. It also knows the CPUs a build can
// select and how QEMU emulates each.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_CMSIS_CMSISNN_H
#define ACCELGEN_CMSIS_CMSISNN_H

#include "emit/ModelEmitter.h"
#include "ir/Graph.h"
#include "plan/Cascade.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace cmsis {

/// A Cortex-M CPU a build can select (`--cpu`).
struct CpuInfo {
  /// "cortex-m55", as gcc's -mcpu and the command line name it.
  const char *Name;
  /// The target version (CPU family) whose paths it runs: "55".
  const char *Version;
  /// gcc flags selecting the CPU, its floating point and its CMSIS-NN path.
  const char *Flags;
  /// The QEMU machine that emulates it ("mps3-an547").
  const char *Machine;
  /// Where that machine has memory for code and constants, and for data
  /// and the stack.
  uint64_t CodeOrigin, CodeLength, RamOrigin, RamLength;
};

/// Every CPU `accelgen run --target cmsis-nn --cpu` accepts.
llvm::ArrayRef<CpuInfo> cpus();
/// The CPU named \p Name, or null.
const CpuInfo *findCpu(llvm::StringRef Name);

/// What runs one operator: an arm_* function, or the reference kernels with
/// the reason.
struct OpChoice {
  /// The arm_* function; empty when the operator falls back.
  std::string Function;
  /// Why it falls back (every failing constraint, or that CMSIS-NN has no
  /// function for the operator); empty when Function is set.
  std::string Reason;
  /// Every function the description's mappings allowed, by benefit, with
  /// its stated cost where there is one; ByCost when the costs chose
  /// (target::TargetInfo::chooseOperation).
  std::vector<target::OperationChoice::Candidate> Candidates;
  bool ByCost = false;
  /// Scratch bytes the function needs on the version (the description's
  /// Scratch records).
  int64_t ScratchBytes = 0;
  /// What runs it in a cascade's tiles, whose shapes vary per tile: a
  /// CMSIS-NN wrapper that picks its path per call (int8 convolutions and
  /// depthwise convolutions), with the most scratch any path needs; empty
  /// for the reference kernels.
  std::string TileFunction;
  int64_t TileScratchBytes = 0;
};

/// Whether a choice may take the kernels accelgen generates per layer
/// (`accelgen_*`) or only CMSIS-NN's functions (`--library-calls-only`).
enum class Kernels { Any, LibraryOnly };

/// Whether \p Function is allowed under \p K.
bool allowed(Kernels K, llvm::StringRef Function);

/// The choice for operator \p Index of \p G on version \p Version of the
/// cmsis-nn target \p T, among the functions \p K allows.
OpChoice chooseFunction(const ir::Graph &G, size_t Index,
                        const target::TargetInfo &T, unsigned Version,
                        Kernels K = Kernels::Any);

/// chooseFunction() for every operator of \p G.
std::vector<OpChoice> chooseFunctions(const ir::Graph &G,
                                      const target::TargetInfo &T,
                                      unsigned Version,
                                      Kernels K = Kernels::Any);

/// Whether \p Function (an arm_* function or a generated kernel) can run a
/// stripe of rows inside a cascade.
bool runsStripes(llvm::StringRef Function);

/// The planner's options for \p G's calls \p Choices (one per operator)
/// under \p Cascading: each call's scratch a buffer live while it runs
/// (while its cascade does), no operator whose function runs on whole
/// tensors in a cascade, tiles where a budget needs them (their int8
/// convolutions and depthwise convolutions on CMSIS-NN's wrappers, with
/// the wrappers' scratch; the rest on the reference kernels).
plan::CascadeOptions cascadeOptions(const ir::Graph &G,
                                    llvm::ArrayRef<OpChoice> Choices,
                                    const plan::CascadeOptions &Cascading);

/// The memory plan with cascadeOptions(), verified; cascades only where
/// \p Cascading enables them.
llvm::Expected<plan::CascadePlan>
planMemory(const ir::Graph &G, llvm::ArrayRef<OpChoice> Choices,
           const plan::CascadeOptions &Cascading);

/// The emitter's part for \p G on version \p Version of \p T: one region per
/// operator a CMSIS-NN function runs, the constants and parameter structs,
/// each call's scratch in the arena (planMemory). With \p Cascading enabled,
/// the cascades, each member run a stripe at a time
/// (Offload::LibraryStripes), a tiled cascade's by OpChoice::TileFunction.
llvm::Expected<emit::Offload>
makeOffload(const ir::Graph &G, const target::TargetInfo &T, unsigned Version,
            const plan::CascadeOptions &Cascading, Kernels K = Kernels::Any);

/// The files of a bare-metal image for \p Cpu around \p G's emitted model
/// (named \p Opts.Name): cortex_m_startup.c (vector table, reset, stack
/// painting), cortex_m_main.c (inputs and outputs through semihosting, layer
/// dumps with -DNAME_TRACE -DNAME_LAYERS, stack.txt) and cortex_m.ld.
llvm::Expected<std::vector<emit::EmittedFile>>
cortexMFiles(const ir::Graph &G, const emit::EmitOptions &Opts,
             const CpuInfo &Cpu);

} // namespace cmsis
} // namespace accelgen

#endif // ACCELGEN_CMSIS_CMSISNN_H
