//===- ModelEmitter.h - A graph as a self-contained C99 project -*- C++ -*-===//
//
// Turns one graph into C99 sources for the `ref` or `cpu` target: model.c and
// model.h (weights as `static const` arrays, one static arena from the memory
// plan, every operator an unpacked call of a reference kernel with its
// parameters folded into `static const` structs, one typed entry point), the
// kernel sources those calls need, and report.json (what runs where, memory,
// work). Target `cpu` replaces the reference calls of int8 convolutions,
// depthwise convolutions and fully connected layers by kernels specialised to
// each operator (CpuKernel.h), in files of their own. The generated code allocates
// nothing and needs no runtime library beyond the C standard library's memcpy
// and the float math the kernels use.
//
// Emission happens in memory: either every operator is supported and all
// files are produced, or nothing is, with an error naming the first operator
// the target cannot run.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_MODELEMITTER_H
#define ACCELGEN_EMIT_MODELEMITTER_H

#include "emit/CpuKernel.h"
#include "ir/Graph.h"
#include "plan/Cascade.h"
#include "plan/MemoryPlan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <vector>

namespace accelgen {
namespace emit {

/// One generated file.
struct EmittedFile {
  std::string Name;
  std::string Text;
};

/// Consecutive operators an accelerator's runtime runs instead of reference
/// kernel calls.
struct OffloadRegion {
  /// The operators it replaces: [FirstOp, FirstOp + NumOps).
  size_t FirstOp = 0;
  size_t NumOps = 0;
  /// One line for the comment above the statements.
  std::string Comment;
  /// C statements, indented by two spaces, that run them inside model.c's
  /// invoke(): they read and write the arena through `arena.bytes`, set
  /// `accel_status` to a non-zero status when the accelerator fails, and add
  /// its estimated cycles to `accel_cycles`.
  std::string Call;
};

/// An operator an accelerator runs a stripe at a time inside a cascade.
struct StripeCall {
  /// The program subgraph, and the operator's index in it (counted through
  /// its layers).
  int32_t Subgraph = -1;
  int32_t Op = -1;
  /// Its data operands, the inputs in the program's order then the result:
  /// tensors of the graph, -1 for an omitted one.
  std::vector<int32_t> Operands;
};

/// What a target with an accelerator adds to the emitted model.
struct Offload {
  std::vector<OffloadRegion> Regions;
  /// The cascades the program was built for, and the operators inside them
  /// the accelerator runs, by index; the emitter calls
  /// `accel_stripe_run(subgraph, op, e, first_row, operands, arena, size)`
  /// (declared in Declarations) for each stripe of each.
  std::optional<plan::CascadePlan> Cascading;
  std::map<size_t, StripeCall> Stripes;
  /// Operators inside those cascades that a library call on the CPU runs a
  /// stripe at a time (target cmsis-nn), by index: C statements for one
  /// stripe, indented by four spaces, that read the step's entry `e`
  /// (CascadeEmitter.h: output rows [e[0], e[1]), input rows [e[3], e[4]),
  /// padding e[5]) and each window's first row `lo<T>`.
  std::map<size_t, std::string> LibraryStripes;
  /// The memory plan the regions were made for; the emitter uses it.
  plan::MemoryPlan Plan;
  /// File-scope C the statements use, placed after the operator parameters.
  std::string Declarations;
  /// Headers model.c includes, and files the project gets, besides the
  /// reference kernels'.
  std::vector<std::string> Headers;
  std::vector<EmittedFile> Files;
  /// Reference kernels the files call.
  std::set<std::string> KernelFunctions;
  /// report.json: fields added to operator I's entry, and the value of the
  /// top-level key "accelerator".
  std::map<size_t, llvm::json::Object> OperatorReport;
  llvm::json::Object Report;
  /// True for a device that reports a status and cycles (model.c then keeps
  /// accel_status and accel_cycles); false for a library the CPU calls.
  bool HasDevice = true;
  /// The device reads graph inputs in the caller's buffers
  /// (--inputs-in-place): model.c's entry point sets `accel_inputs[i]`
  /// (declared in Declarations) to each before it runs the operators.
  bool ReadsInputs = false;
};

/// What to generate.
struct EmitOptions {
  /// The target's label, for banners, messages and the report; required.
  std::string Target;
  /// The prefix of every exported symbol (NAME_run, NAME_io, ...); a C
  /// identifier.
  std::string Name = "model";
  /// The model's file name, for banners and the report (no folders, so that
  /// the output does not depend on where the model was read from).
  std::string ModelFileName;
  /// accelgen's version, for banners and the report.
  std::string GeneratorVersion;
  /// The accelerator's part, for a target with one (then Target may be any
  /// label); null for the CPU alone.
  const Offload *Accelerator = nullptr;
  /// The operators the CPU runs call the kernels this specialises per
  /// operator (CpuKernel.h), where it covers them; the reference kernels
  /// without one.
  std::shared_ptr<const CpuKernelSpecialiser> CpuKernels;
  /// Striped execution under a working-memory budget (docs/cascading.md).
  /// With an accelerator, its Offload brings the cascades it was built for.
  plan::CascadeOptions Cascading;
  /// The model the graph belongs to: the graphs its IF, WHILE and CALL_ONCE
  /// operators call, each emitted as graph<K>.c (reference kernels, an arena
  /// of its own), and the resource variables (docs/control-flow.md). Null
  /// for a graph without such operators.
  const ir::Model *Model = nullptr;
};

/// A model input or output as the entry point sees it.
struct IOTensor {
  int32_t Tensor = -1;
  ir::DType Type = ir::DType::I8;
  int64_t Bytes = 0;
};

/// Everything generated for one graph.
struct EmittedModel {
  /// model.c, model.h, the kernel sources and headers, report.json; sorted
  /// by name.
  std::vector<EmittedFile> Files;
  std::vector<IOTensor> Inputs;
  std::vector<IOTensor> Outputs;
  plan::MemoryPlan Plan;
  /// The cascaded plan when EmitOptions::Cascading was enabled (Plan is its
  /// Memory then).
  std::optional<plan::CascadePlan> Cascading;
};

/// Generates the C project for \p G. Fails with "operator N (TYPE) is not
/// supported by target T: REASON" when an operator has no kernel, on bad
/// options, and when cascading cannot meet the memory budget; produces no
/// files then.
llvm::Expected<EmittedModel> emitModel(const ir::Graph &G,
                                       const EmitOptions &Opts);

/// The tensors a layer dump writes, in order: layer k is the k-th. The
/// graph's outputs first, then every operator's outputs in execution order,
/// each tensor once (the order TensorFlow Lite gives when every operator
/// output is made a model output, as the shared reference vectors do).
std::vector<int32_t> layerDumpTensors(const ir::Graph &G);

/// A host program for \p G's emitted model (main.c): reads
/// IN_DIR/input_<i>.bin, runs NAME_run, writes OUT_DIR/output_<i>.bin;
/// `--layers` also writes OUT_DIR/layers/output_<k>.bin in the order of
/// layerDumpTensors (model.c compiled with -DNAME_TRACE), and `--repeat N`
/// times N more runs. Needs a POSIX C library for its clock.
llvm::Expected<EmittedFile> emitHostMain(const ir::Graph &G,
                                         const EmitOptions &Opts);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_MODELEMITTER_H
