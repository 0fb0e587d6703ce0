//===- DiffFuzzer.cpp - Every target against ref, byte for byte -----------===//
//
// The differential half of the pipeline fuzzer: a model that target ref
// compiles and runs must give the same output bytes on every other target
// and `--cpu` variant that compiles it. Each input is imported, written to a
// file and given pseudo-random input bytes (derived from the input's own
// bytes, so a finding replays); then the driver compiles, builds and runs it
// as `accelgen run` does, on ref and on each variant:
//
//   - every registered target label with a backend (each version), default
//     `--cpu`;
//   - each `--cpu` a target's backend takes that this machine runs: the
//     x86-64 instruction sets this processor has, the Cortex-M CPUs under
//     QEMU when arm-none-eabi-gcc and qemu-system-arm are installed;
//   - every label with `--cascade` (stripes change the lowering, and a
//     backend's versions lower differently: cmsis-nn's generated kernels
//     from family 4 on), ref's included;
//   - ref, cpu and cmsis-nn (each version, on the host) at the smallest
//     budget that works (`--memory-budget`, plan::smallestBudget with the
//     backend's planner options, Backend::cascadeOptions), where chains of
//     windows run in tiles.
//
// A variant may refuse a model (a one-line error from compile), and a
// Cortex-M image may not fit its QEMU board's memory (the linker's overflow,
// reported as such: the boards have 512 KiB to 4 MiB, the size bound below
// is larger); a program that compiled and then fails to run otherwise, or
// output bytes that differ from ref's, is a finding: the fuzzer says which
// variant and how the bytes differ, and aborts so libFuzzer keeps the input.
// Models above a size bound (operators, tensor bytes) are skipped, so an
// execution takes seconds.
//
// Built programs go to a cache ($ACCELGEN_DIFF_CACHE, default a folder in
// the system's temporary folder) whose compiled objects (the kernels, the
// functional model, CMSIS-NN) are reused; each input's programs are removed
// after it unless ACCELGEN_DIFF_KEEP_PROGRAMS=1 (the regression test shares
// the end-to-end tests' cache, whose programs other tests may be running). At
// exit the fuzzer prints, per variant, how many models it compared and how many
// it refused.
//
// Built with -fsanitize=fuzzer as `accelgen-diff-fuzzer` (with the pipeline
// fuzzer's custom mutator, ModelMutator.h), and without libFuzzer as
// `accelgen-diff-replay` (files named on the command line) and
// `accelgen-diff-mutate` (structured mutants, PipelineMutate.cpp).
//
//===----------------------------------------------------------------------===//
#include "ModelMutator.h"

#include "cmsis-nn/CmsisNn.h"
#include "cpu/CpuIsa.h"
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"
#include "plan/Cascade.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace accelgen;

namespace {

/// Models larger than this are skipped: an execution stays within seconds,
/// Cortex-M under QEMU included.
constexpr size_t MaxOperators = 64;
constexpr int64_t MaxTensorBytes = int64_t(4) << 20;

/// One way to compile and run a model, compared against ref.
struct Variant {
  std::string Label;
  std::string Cpu;
  bool Cascade = false;
  /// At the smallest budget that works (tiles where stripes cannot).
  bool Tight = false;
  // What it did with the models it was given.
  uint64_t Compared = 0, Refused = 0, TooLargeForBoard = 0;

  std::string name() const {
    std::string N = Label;
    if (!Cpu.empty())
      N += " --cpu " + Cpu;
    if (Cascade)
      N += " --cascade";
    if (Tight)
      N += " --memory-budget <smallest>";
    return N;
  }
};

struct State {
  std::string Work;
  std::string Model;
  std::string Inputs;
  std::string Cache;
  bool KeepPrograms = false;
  driver::Options Ref;
  std::vector<Variant> Variants;
  uint64_t Inputs_ = 0, NotModels = 0, RefRuns = 0, RefRefused = 0,
           Skipped = 0;
};

State *Fuzz = nullptr;

bool haveTool(llvm::StringRef Name) {
  return bool(llvm::sys::findProgramByName(Name));
}

std::vector<Variant> variants() {
  driver::registerBuiltinBackends();
  // The `--cpu` values this machine runs programs of.
  std::vector<std::string> Cpus;
  for (const cpu::CpuIsa &I : cpu::cpuIsas())
    if (I.Level != cpu::CpuIsaLevel::Portable && cpu::hostSupports(I.Level))
      Cpus.push_back(I.Name);
  if (haveTool("arm-none-eabi-gcc") && haveTool("qemu-system-arm"))
    for (const cmsis::CpuInfo &C : cmsis::cpus())
      Cpus.push_back(C.Name);
  else
    llvm::errs() << "diff: no arm-none-eabi-gcc or qemu-system-arm: the "
                    "Cortex-M variants are left out\n";

  std::vector<Variant> Out;
  std::set<std::string> CpuRuns;
  for (const std::string &Label : driver::targetLabels()) {
    auto T = driver::resolveTarget(Label, /*NeedBackend=*/true);
    if (!T) {
      llvm::consumeError(T.takeError());
      continue;
    }
    // ref is the oracle; with --cascade it is compared like any variant.
    if (T->Info->name() != "ref")
      Out.push_back({Label, "", false});
    Out.push_back({Label, "", true});
    if (T->Info->name() == "ref" || T->Info->name() == "cpu" ||
        T->Info->name() == "cmsis-nn")
      Out.push_back({Label, "", true, true});
    if (T->Backend->cpuHelp().empty())
      continue;
    for (const std::string &Cpu : Cpus) {
      driver::Options O;
      O.Target = Label;
      O.Cpu = Cpu;
      auto C = driver::Compilation::create(O);
      if (!C) {
        // Neither the label's backend nor its CPU fallback's takes it.
        llvm::consumeError(C.takeError());
        continue;
      }
      // A `--cpu` that selects the version (a Cortex-M) gives one program
      // whatever version the label named: each runs once.
      if (CpuRuns.insert((*C)->target().label() + " " + Cpu).second)
        Out.push_back({Label, Cpu, false});
    }
  }
  return Out;
}

void printSummary() {
  if (!Fuzz)
    return;
  llvm::errs() << "diff: " << Fuzz->Inputs_ << " inputs: " << Fuzz->NotModels
               << " not imported or not verified, " << Fuzz->Skipped
               << " over the size bound, " << Fuzz->RefRefused
               << " refused by ref, " << Fuzz->RefRuns << " run on ref\n";
  for (const Variant &V : Fuzz->Variants)
    llvm::errs() << "diff: " << V.name() << ": " << V.Compared
                 << " compared with ref, " << V.Refused << " refused"
                 << (V.TooLargeForBoard
                         ? ", " + std::to_string(V.TooLargeForBoard) +
                               " too large for the board"
                         : std::string())
                 << "\n";
}

[[noreturn]] void finding(const std::string &What) {
  llvm::errs() << "diff: FINDING: " << What << "\n";
  llvm::errs().flush();
  std::abort();
}

std::string folder(llvm::StringRef Parent, llvm::StringRef Name) {
  llvm::SmallString<256> P(Parent);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

void writeBytes(const std::string &Path, llvm::ArrayRef<uint8_t> Bytes) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    finding("cannot write " + Path + ": " + EC.message());
  OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
}

/// Compiles and runs the current model under \p O; the output files, or
/// the error of the stage that failed, with \p Compiled saying whether
/// compile succeeded.
llvm::Expected<std::vector<emit::EmittedFile>>
compileAndRun(const driver::Options &O, bool &Compiled) {
  Compiled = false;
  auto C = driver::Compilation::create(O);
  if (!C)
    return C.takeError();
  if (llvm::Error E = (*C)->import(Fuzz->Model))
    return std::move(E);
  if (llvm::Error E = (*C)->compile())
    return std::move(E);
  Compiled = true;
  driver::RunOptions R;
  R.InputsDir = Fuzz->Inputs;
  R.CacheDir = Fuzz->Cache;
  return (*C)->run(R);
}

std::map<std::string, std::string> byName(std::vector<emit::EmittedFile> F) {
  std::map<std::string, std::string> M;
  for (emit::EmittedFile &E : F)
    M[E.Name] = std::move(E.Text);
  return M;
}

std::string describe(const std::string &Got, const std::string &Want) {
  if (Got.size() != Want.size())
    return std::to_string(Got.size()) + " bytes, want " +
           std::to_string(Want.size());
  size_t Differ = 0, First = Got.size();
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I]) {
      ++Differ;
      First = std::min(First, I);
    }
  return std::to_string(Differ) + " of " + std::to_string(Got.size()) +
         " bytes differ, first at " + std::to_string(First) + " (got " +
         std::to_string(uint8_t(Got[First])) + ", want " +
         std::to_string(uint8_t(Want[First])) + ")";
}

/// Removes the programs built for the last input (folders named by a
/// 32-digit hash); the objects and libraries stay for the next.
void removePrograms() {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Fuzz->Cache, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.size() == 32 && llvm::all_of(Name, llvm::isHexDigit))
      llvm::sys::fs::remove_directories(It->path());
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  Fuzz = new State;
  llvm::SmallString<256> Work;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("accelgen-diff", Work)) {
    llvm::errs() << "diff: cannot create a work folder: " << EC.message()
                 << "\n";
    std::exit(1);
  }
  Fuzz->Work = std::string(Work);
  Fuzz->Model = folder(Work, "model.tflite");
  Fuzz->Inputs = folder(Work, "in");
  llvm::sys::fs::create_directory(Fuzz->Inputs);
  const char *Cache = std::getenv("ACCELGEN_DIFF_CACHE");
  llvm::SmallString<256> Tmp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Tmp);
  Fuzz->Cache = Cache && *Cache ? std::string(Cache)
                                : folder(Tmp, "accelgen-diff-cache");
  // The tree the cmsis-nn backend builds against, as `accelgen run` finds
  // it without --cmsis-nn.
  setenv("CMSIS_NN_PATH", ACCELGEN_CMSIS_NN_PATH, /*overwrite=*/0);
  const char *Keep = std::getenv("ACCELGEN_DIFF_KEEP_PROGRAMS");
  Fuzz->KeepPrograms = Keep && std::string(Keep) == "1";
  Fuzz->Ref.Target = "ref";
  Fuzz->Variants = variants();
  llvm::errs() << "diff: " << Fuzz->Variants.size()
               << " variants against ref, cache " << Fuzz->Cache << ":";
  for (const Variant &V : Fuzz->Variants)
    llvm::errs() << " [" << V.name() << "]";
  llvm::errs() << "\n";
  std::atexit([] {
    printSummary();
    llvm::sys::fs::remove_directories(Fuzz->Work);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (!Fuzz)
    LLVMFuzzerInitialize(nullptr, nullptr);
  ++Fuzz->Inputs_;
  auto R = tflite::importModel(llvm::ArrayRef<uint8_t>(Data, Size));
  if (!R) {
    llvm::consumeError(R.takeError());
    ++Fuzz->NotModels;
    return 0;
  }
  const ir::Graph &G = R->Model->main();
  if (!ir::verifyGraph(G).empty()) {
    ++Fuzz->NotModels;
    return 0;
  }
  int64_t Bytes = 0;
  for (const ir::Tensor &T : G.Tensors)
    Bytes += T.byteSize();
  if (G.Operators.size() > MaxOperators || Bytes > MaxTensorBytes) {
    ++Fuzz->Skipped;
    return 0;
  }
  writeBytes(Fuzz->Model, llvm::ArrayRef<uint8_t>(Data, Size));
  // Input bytes from the input's own hash: a finding replays.
  uint32_t Hash = 2166136261u;
  for (size_t I = 0; I < Size; ++I)
    Hash = (Hash ^ Data[I]) * 16777619u;
  fuzz::Random Rand(Hash);
  for (size_t I = 0; I < G.Inputs.size(); ++I) {
    std::vector<uint8_t> In(size_t(G.Tensors[G.Inputs[I]].byteSize()));
    for (uint8_t &B : In)
      B = uint8_t(Rand.next() >> 24);
    writeBytes(folder(Fuzz->Inputs, "input_" + std::to_string(I) + ".bin"),
               In);
  }

  bool Compiled = false;
  auto Want = compileAndRun(Fuzz->Ref, Compiled);
  if (!Want) {
    // ref's own run failing after compiling is a finding too.
    const std::string Msg = llvm::toString(Want.takeError());
    if (Compiled)
      finding("ref compiled the model and its program failed: " + Msg);
    ++Fuzz->RefRefused;
    return 0;
  }
  ++Fuzz->RefRuns;
  const std::map<std::string, std::string> Expected = byName(std::move(*Want));
  for (Variant &V : Fuzz->Variants) {
    driver::Options O;
    O.Target = V.Label;
    O.Cpu = V.Cpu;
    O.Cascading.Enabled = V.Cascade;
    if (V.Tight) {
      // The budget for this model and label: planned on its graph as
      // compile plans it.
      auto C = driver::Compilation::create(O);
      if (!C) {
        llvm::consumeError(C.takeError());
        ++V.Refused;
        continue;
      }
      if (llvm::Error E = (*C)->import(Fuzz->Model)) {
        llvm::consumeError(std::move(E));
        ++V.Refused;
        continue;
      }
      llvm::Expected<plan::CascadeOptions> Planning =
          (*C)->target().Backend->cascadeOptions(**C);
      if (!Planning) {
        llvm::consumeError(Planning.takeError());
        ++V.Refused;
        continue;
      }
      O.Cascading.Budget = plan::smallestBudget((*C)->graph(), *Planning);
    }
    auto Got = compileAndRun(O, Compiled);
    if (!Got) {
      const std::string Msg = llvm::toString(Got.takeError());
      if (Compiled && !V.Cpu.empty() &&
          llvm::StringRef(Msg).contains("does not fit the memory of QEMU's")) {
        ++V.TooLargeForBoard;
        continue;
      }
      if (Compiled)
        finding(V.name() + ": compiled the model and its program failed: " +
                Msg);
      ++V.Refused;
      continue;
    }
    const std::map<std::string, std::string> Outputs = byName(std::move(*Got));
    for (const auto &[Name, Bytes] : Expected) {
      auto It = Outputs.find(Name);
      if (It == Outputs.end())
        finding(V.name() + ": wrote no " + Name);
      if (It->second != Bytes)
        finding(V.name() + ": " + Name + ": " + describe(It->second, Bytes));
    }
    ++V.Compared;
  }
  if (!Fuzz->KeepPrograms)
    removePrograms();
  return 0;
}
