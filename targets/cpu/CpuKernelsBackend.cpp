//===- CpuKernelsBackend.cpp - Target cpu's backend: specialised kernels --===//
//
// The `cpu-kernels` backend: convolutions, depthwise convolutions, fully
// connected and element-wise layers as C functions specialised per operator
// (CpuKernels.h), the rest the reference kernels; built with -O3 and the
// flags of the instruction set `--cpu` chooses (CpuIsa.h).
// It runs everything on the host CPU itself, so it is the CPU fallback of the
// accelerator targets.
//
//===----------------------------------------------------------------------===//
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "cpu/CpuKernels.h"

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
           cpu::cpuNames() + ")";
  }

  Expected<bool> selectCpu(StringRef Name,
                           driver::Compilation &C) const override {
    Expected<cpu::CpuChoice> Cpu = cpu::resolveCpu(Name);
    if (!Cpu)
      return Cpu.takeError();
    if (Cpu->Name == "native")
      C.addNote(formatv("--cpu native: {0} kernels, built with {1}",
                        cpu::isaName(Cpu->Level), Cpu->Flags));
    C.emitOptions().CpuKernels =
        std::make_shared<cpu::Specialiser>(std::move(*Cpu));
    return true;
  }
  Error prepare(driver::Compilation &C) const override {
    prepareCpuKernels(C);
    return Error::success();
  }
  // Generic C unless --cpu chose an instruction set.
  void prepareCpuKernels(driver::Compilation &C) const override {
    if (!C.emitOptions().CpuKernels)
      C.emitOptions().CpuKernels =
          std::make_shared<cpu::Specialiser>(cpu::CpuChoice());
  }
  // The kernels are written for the compiler to vectorise (-O3) and, with
  // --cpu, for an instruction set (its -march).
  Error addToHostBuild(const driver::Compilation &C,
                       const driver::RunOptions &,
                       driver::HostBuild &B) const override {
    B.Flags.push_back("-O3");
    const auto *Kernels =
        static_cast<const cpu::Specialiser *>(C.emitOptions().CpuKernels.get());
    SmallVector<StringRef, 4> Flags;
    if (Kernels)
      StringRef(Kernels->choice().Flags).split(Flags, ' ', -1, false);
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
