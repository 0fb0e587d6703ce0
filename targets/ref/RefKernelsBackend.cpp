//===- RefKernelsBackend.cpp - Target ref's backend: the reference kernels ===//
//
// The `ref-kernels` backend: every operator a call of the C99 reference
// kernels (lib/kernels), built with -O2. It runs everything on the host CPU
// itself, so it may be another target's CPU fallback (cmsis-nn's).
//
//===----------------------------------------------------------------------===//
#include "driver/Backend.h"
#include "driver/Compilation.h"

using namespace llvm;

namespace accelgen {
namespace backends {
namespace {

class RefKernelsBackend final : public driver::Backend {
public:
  StringRef name() const override { return "ref-kernels"; }
  StringRef summary() const override { return "reference CPU kernels"; }
  bool runsOnHostCpu() const override { return true; }
  Error prepare(driver::Compilation &C) const override {
    prepareCpuKernels(C);
    return Error::success();
  }
  void prepareCpuKernels(driver::Compilation &C) const override {
    C.emitOptions().CpuKernels = nullptr;
  }
  Error addToHostBuild(const driver::Compilation &, const driver::RunOptions &,
                       driver::HostBuild &B) const override {
    B.Flags.push_back("-O2");
    return Error::success();
  }
};

} // namespace

void registerRefKernels() {
  driver::BackendRegistry::add(std::make_unique<RefKernelsBackend>());
}

} // namespace backends
} // namespace accelgen
