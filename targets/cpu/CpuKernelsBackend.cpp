//===- CpuKernelsBackend.cpp - Target cpu's backend: specialised kernels --===//
//
// The `cpu-kernels` backend: convolutions, depthwise convolutions, fully
// connected and element-wise layers as C functions specialised per operator
// (lib/emit/CpuKernels.h), the rest the reference kernels; built with -O3
// and the flags of the instruction set `--cpu` chooses (lib/emit/CpuIsa.h).
// It runs everything on the host CPU itself, so it is the CPU fallback of the
// accelerator targets.
//
//===----------------------------------------------------------------------===//
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "emit/CpuIsa.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace backends {
namespace {

class CpuKernelsBackend final : public driver::Backend {
public:
  StringRef name() const override { return "cpu-kernels"; }
  StringRef summary() const override {
    return "CPU kernels specialised per operator";
  }
  bool runsOnHostCpu() const override { return true; }
  std::string cpuHelp() const override {
    return "an x86-64 instruction set the CPU kernels are specialised for "
           "and built with (" +
           emit::cpuNames() + ")";
  }

  Expected<bool> selectCpu(StringRef Name,
                           driver::Compilation &C) const override {
    Expected<emit::CpuChoice> Cpu = emit::resolveCpu(Name);
    if (!Cpu)
      return Cpu.takeError();
    if (Cpu->Name == "native")
      C.addNote(formatv("--cpu native: {0} kernels, built with {1}",
                        emit::isaName(Cpu->Level), Cpu->Flags));
    C.emitOptions().Cpu = std::move(*Cpu);
    return true;
  }
  Error prepare(driver::Compilation &C) const override {
    prepareCpuKernels(C);
    return Error::success();
  }
  void prepareCpuKernels(driver::Compilation &C) const override {
    C.emitOptions().SpecialiseCpuKernels = true;
  }
  // The kernels are written for the compiler to vectorise (-O3) and, with
  // --cpu, for an instruction set (its -march).
  Error addToHostBuild(const driver::Compilation &C,
                       const driver::RunOptions &,
                       driver::HostBuild &B) const override {
    B.Flags.push_back("-O3");
    SmallVector<StringRef, 4> Flags;
    StringRef(C.emitOptions().Cpu.Flags).split(Flags, ' ', -1, false);
    for (StringRef F : Flags)
      B.Flags.push_back(F.str());
    return Error::success();
  }
};

} // namespace

void registerCpuKernels() {
  driver::BackendRegistry::add(std::make_unique<CpuKernelsBackend>());
}

} // namespace backends
} // namespace accelgen
