//===- PipelineFuzzer.cpp - libFuzzer target for import to emitted C ------===//
//
// Drives a model through the whole compiler: import, then for `ref` the C
// emitter, for mdla2.0 partitioning, the memory plan, the accelerator
// program (read back and checked by the functional model) and the C emitter,
// the same for mdla1.5 with cascades (striped subgraphs; an unsound plan
// stops the fuzzer), and the cascading planner at the least working memory, whose plan must
// pass its independent checker (an unsound plan stops the fuzzer), with
// target cpu's emitter (stripe variants of its kernels). Every stage may
// reject the model with an error; none may crash or trip the sanitizers. No
// C is compiled here (tests/fuzz/SanitizedRunTest.cpp does that for a
// sample).
//
// Its custom mutator (ModelCustomMutator.cpp) imports the input and applies
// structured mutations (ModelMutator.h) before writing it back, so the
// fuzzer explores models that pass the FlatBuffers verifier; inputs that do
// not import get libFuzzer's own byte mutations. DiffFuzzer.cpp, the
// differential half, builds and runs what this one only emits.
//
// Built with -fsanitize=fuzzer as `accelgen-pipeline-fuzzer`, and without it
// as `accelgen-pipeline-replay`, which runs the entry point over files given
// on the command line (tests/fuzz/pipeline-regressions).
//
//===----------------------------------------------------------------------===//
#include "ModelMutator.h"

#include "cpu/CpuKernels.h"
#include "emit/ModelEmitter.h"
#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"
#include "plan/Cascade.h"
#include "program/AcceleratorEmit.h"
#include "program/ProgramBuilder.h"
#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace accelgen;

namespace {

/// The C emitter for ref.
void emitRef(const ir::Graph &G) {
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = "model";
  llvm::consumeError(emit::emitModel(G, Opts).takeError());
}

/// Partition, plan, program and emitter for \p Label with ref as the CPU,
/// with \p Cascading; an unsound plan is a finding.
void emitAccelerated(const ir::Graph &G, const char *Label,
                     const plan::CascadeOptions &Cascading) {
  target::registerBuiltinTargets();
  auto T = target::TargetRegistry::resolve(Label);
  auto Cpu = target::TargetRegistry::resolve("ref");
  if (!T || !Cpu)
    return;
  partition::PartitionOptions Opts;
  Opts.Cpu = Cpu->first;
  llvm::Expected<program::AcceleratedModel> M = program::buildAcceleratedModel(
      G, *T->first, T->second, Opts, "accelgen fuzz", Cascading);
  if (!M) {
    const std::string Msg = llvm::toString(M.takeError());
    if (Msg.find("plan is unsound") != std::string::npos) {
      std::fprintf(stderr, "%s: %s\n", Label, Msg.c_str());
      std::abort();
    }
    return;
  }
  llvm::Expected<emit::Offload> O = program::makeOffload(*M, "model");
  if (!O) {
    llvm::consumeError(O.takeError());
    return;
  }
  emit::EmitOptions EOpts;
  EOpts.Target = Label;
  EOpts.Name = "model";
  EOpts.Accelerator = &*O;
  llvm::consumeError(emit::emitModel(M->Graph, EOpts).takeError());
}

/// A cascaded plan under \p O, checked by verifyCascades (an unsound plan
/// is a finding); std::nullopt when the planner refuses.
std::optional<plan::CascadePlan> checkedPlan(const ir::Graph &G,
                                             const plan::CascadeOptions &O) {
  llvm::Expected<plan::CascadePlan> P = plan::planCascades(G, O);
  if (!P) {
    llvm::consumeError(P.takeError());
    return std::nullopt;
  }
  std::vector<std::string> Problems = plan::verifyCascades(G, *P);
  if (!Problems.empty()) {
    std::fprintf(stderr, "unsound cascaded plan: %s\n",
                 Problems.front().c_str());
    std::abort();
  }
  return std::move(*P);
}

/// Cascading at the least working memory and halfway to layer at a time,
/// each plan checked, then target cpu's emitter with the first.
void cascade(const ir::Graph &G) {
  // The planners assume a well-formed graph, as the emitter checks first.
  if (!ir::verifyGraph(G).empty())
    return;
  plan::CascadeOptions O;
  O.Enabled = true;
  std::optional<plan::CascadePlan> P = checkedPlan(G, O);
  if (!P)
    return;
  plan::CascadeOptions Half = O;
  Half.Budget = (P->Memory.ArenaBytes + P->LayerMemory.ArenaBytes) / 2;
  checkedPlan(G, Half);
  emit::EmitOptions E;
  E.Target = "cpu";
  E.CpuKernels = std::make_shared<cpu::Specialiser>(cpu::CpuChoice());
  E.Name = "model";
  E.Cascading = O;
  llvm::consumeError(emit::emitModel(G, E).takeError());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto R = tflite::importModel(llvm::ArrayRef<uint8_t>(Data, Size));
  if (!R) {
    llvm::consumeError(R.takeError());
    return 0;
  }
  const ir::Graph &G = R->Model->main();
  emitRef(G);
  emitAccelerated(G, "mdla2.0", {});
  // mdla1.5 stores int8 as uint8: its striped subgraphs convert per stripe.
  plan::CascadeOptions Least;
  Least.Enabled = true;
  emitAccelerated(G, "mdla1.5", Least);
  cascade(G);
  return 0;
}
