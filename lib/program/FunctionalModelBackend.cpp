//===- FunctionalModelBackend.cpp - Accelerator programs on the functional model ===//
//
// The `functional-model` backend of the accelerator targets (mdla, npu, and
// plugins naming it): the model is partitioned with the target's CPU fallback
// as the CPU, the accelerator's subgraphs become a program (ProgramBuilder.h)
// that the C functional model runs, planned with its cascades, and the
// operators left on the CPU run the fallback's kernels.
//
//===----------------------------------------------------------------------===//
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "program/AcceleratorEmit.h"
#include "program/ProgramBuilder.h"

using namespace llvm;

namespace accelgen {
namespace backends {
namespace {

class FunctionalModelBackend final : public driver::Backend {
public:
  StringRef name() const override { return "functional-model"; }
  StringRef summary() const override {
    return "CPU kernels + programs on the functional model";
  }

  Error prepare(driver::Compilation &C) const override {
    const driver::ResolvedTarget &T = C.target();
    partition::PartitionOptions Opts;
    Opts.Cpu = T.Fallback;
    Expected<program::AcceleratedModel> M = program::buildAcceleratedModel(
        C.graph(), *T.Info, T.Version, Opts,
        "accelgen " + C.options().GeneratorVersion, C.options().Cascading);
    if (!M)
      return M.takeError();
    auto Model = std::make_shared<program::AcceleratedModel>(std::move(*M));
    Expected<emit::Offload> O = program::makeOffload(*Model, C.options().Name);
    if (!O)
      return O.takeError();
    C.setOffload(std::make_shared<emit::Offload>(std::move(*O)), &Model->Graph,
                 Model);
    if (T.FallbackBackend)
      T.FallbackBackend->prepareCpuKernels(C);
    return Error::success();
  }

  // Cascades are planned with the program: the partition's order and the
  // accelerator's rules (docs/cascading.md).
  Expected<plan::CascadePlan> memoryPlan(driver::Compilation &C) const override {
    if (Error E = prepare(C))
      return std::move(E);
    if (!C.offload()->Cascading)
      return plan::planCascades(C.emittedGraph(), C.options().Cascading);
    return *C.offload()->Cascading;
  }

  // Not options on the imported graph: the program's partition is planned.
  Expected<plan::CascadeOptions>
  cascadeOptions(driver::Compilation &C) const override {
    return createStringError(inconvertibleErrorCode(),
                             "target %s plans its cascades with its program, "
                             "not on the imported graph",
                             C.target().Info->name().c_str());
  }
};

} // namespace

void registerFunctionalModel() {
  driver::BackendRegistry::add(std::make_unique<FunctionalModelBackend>());
}

} // namespace backends
} // namespace accelgen
