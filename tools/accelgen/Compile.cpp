//===- Compile.cpp - `accelgen compile`: a model as C99 sources -----------===//
//
// Writes the C project of a model for a target into a folder: model.c and
// model.h, the kernel sources they call, report.json, and with --main a host
// main.c that runs the model on raw input files. Everything is
// generated in memory first, so an operator the target cannot run leaves no
// partial output behind.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileModel.h"
#include "OutputFolder.h"
#include "Targets.h"

#include "cmsis/CmsisNn.h"
#include "emit/CLiteral.h"
#include "import/TFLiteImporter.h"
#include "program/AcceleratorEmit.h"
#include "support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifndef ACCELGEN_VERSION
#define ACCELGEN_VERSION "unknown"
#endif

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand CompileCommand("compile",
                              "Generate C99 for a model: model.c/.h, the "
                              "kernels it calls, report.json");

static cl::opt<std::string> CompileModelPath(cl::Positional, cl::Required,
                                             cl::desc("<model.tflite>"),
                                             cl::sub(CompileCommand),
                                             cl::cat(category()));
static cl::opt<std::string>
    CompileTarget("target",
                  cl::desc("Target to generate code for: ref, or a target "
                           "version that can compile (see 'accelgen "
                           "targets')"),
                  cl::sub(CompileCommand), cl::cat(category()));
static cl::opt<std::string> CompileOutput("o", cl::desc("Output folder"),
                                          cl::value_desc("dir"),
                                          cl::sub(CompileCommand),
                                          cl::cat(category()));
static cl::opt<std::string>
    CompileName("name", cl::init("model"),
                cl::desc("Prefix of the generated symbols (NAME_run)"),
                cl::value_desc("identifier"), cl::sub(CompileCommand),
                cl::cat(category()));

static cl::opt<bool> CompileCascade(
    "cascade",
    cl::desc("Run chains of operators stripe by stripe for the least working "
             "memory (docs/cascading.md)"),
    cl::sub(CompileCommand), cl::cat(category()));
static cl::opt<unsigned long long> CompileBudget(
    "memory-budget",
    cl::desc("Cascade as few operators as fit the working memory in BYTES"),
    cl::value_desc("BYTES"), cl::sub(CompileCommand), cl::cat(category()));

static cl::opt<bool> CompileInPlace(
    "inputs-in-place",
    cl::desc("Read the graph inputs in the caller's buffers instead of "
             "copying them into the arena"),
    cl::sub(CompileCommand), cl::cat(category()));

plan::CascadeOptions cascadeOptions(bool Cascade,
                                    const cl::opt<unsigned long long> &Budget,
                                    bool InputsInPlace) {
  plan::CascadeOptions O;
  O.InputsInPlace = InputsInPlace;
  O.Enabled = Cascade || Budget.getNumOccurrences() > 0;
  if (Budget.getNumOccurrences())
    O.Budget = static_cast<int64_t>(
        std::min<unsigned long long>(Budget, uint64_t(1) << 62));
  return O;
}

static cl::opt<std::string> CompileCpu(
    "cpu",
    cl::desc("Instruction set of target cpu's kernels (also an accelerator "
             "target's CPU operators): generic (default), x86-64-v3, "
             "x86-64-v4, icelake-server, znver4, native (docs/compile.md)"),
    cl::value_desc("cpu"), cl::sub(CompileCommand), cl::cat(category()));

static cl::opt<bool> CompileMain(
    "main",
    cl::desc("Also write main.c, a host program running the model on raw "
             "input files (see docs/compile.md)"),
    cl::sub(CompileCommand), cl::cat(category()));

StringRef toolVersion() { return ACCELGEN_VERSION; }

/// The labels of the accelerator targets the C emitter runs on a functional
/// model ("mdla1.5").
static std::vector<std::string> acceleratorLabels() {
  std::vector<std::string> Labels;
  for (const std::string &L : knownTargetLabels()) {
    auto T = resolveTarget(L);
    if (!T)
      consumeError(T.takeError());
    else if (T->first->hasFunctionalModel())
      Labels.push_back(L);
  }
  return Labels;
}

/// The CPU target of the accelerator targets' generated code: the operators
/// the partitioner leaves on the CPU run its kernels. Target cpu runs what
/// ref runs (defs/hostcpu.td) with the same results, faster.
static constexpr StringLiteral AcceleratorCpu = "cpu";

/// Partitions the model for accelerator target \p Target and prepares what
/// the emitter adds for it; false after printing an error.
static bool prepareAccelerator(CompiledModel &C, StringRef Path,
                               StringRef Target, StringRef Name) {
  auto T = resolveTarget(Target);
  if (!T) {
    reportError(Path, toString(T.takeError()));
    return false;
  }
  auto Cpu = resolveTarget(AcceleratorCpu);
  if (!Cpu) {
    reportError(Path, toString(Cpu.takeError()));
    return false;
  }
  partition::PartitionOptions Opts;
  Opts.Cpu = Cpu->first;
  Expected<program::AcceleratedModel> M = program::buildAcceleratedModel(
      C.graph(), *T->first, T->second, Opts, "accelgen " + toolVersion().str(),
      C.Options.Cascading);
  if (!M) {
    reportError(Path, toString(M.takeError()));
    return false;
  }
  C.Accelerated = std::make_shared<program::AcceleratedModel>(std::move(*M));
  Expected<emit::Offload> O = program::makeOffload(*C.Accelerated, Name);
  if (!O) {
    reportError(Path, toString(O.takeError()));
    return false;
  }
  C.Offload = std::make_shared<emit::Offload>(std::move(*O));
  C.Options.Accelerator = C.Offload.get();
  C.Options.CpuKernels = AcceleratorCpu.str();
  return true;
}

bool isCmsisTarget(StringRef Target) {
  if (!Target.startswith(cmsis::TargetName))
    return false;
  auto T = resolveTarget(Target);
  if (!T) {
    consumeError(T.takeError());
    return false;
  }
  return T->first->name() == cmsis::TargetName;
}

/// Prepares the CMSIS-NN calls of cmsis-nn target \p Target; false after
/// printing an error.
static bool prepareCmsis(CompiledModel &C, StringRef Path, StringRef Target) {
  auto T = resolveTarget(Target);
  if (!T) {
    reportError(Path, toString(T.takeError()));
    return false;
  }
  Expected<emit::Offload> O =
      cmsis::makeOffload(C.graph(), *T->first, T->second);
  if (!O) {
    reportError(Path, toString(O.takeError()));
    return false;
  }
  C.Offload = std::make_shared<emit::Offload>(std::move(*O));
  C.Options.Accelerator = C.Offload.get();
  return true;
}

std::optional<emit::CpuChoice> chooseCpu(StringRef Name, StringRef Target) {
  Expected<emit::CpuChoice> Cpu = emit::resolveCpu(Name);
  if (!Cpu) {
    reportError("", toString(Cpu.takeError()));
    return std::nullopt;
  }
  if (Name.empty())
    return *Cpu;
  if (Target != "cpu" && !llvm::is_contained(acceleratorLabels(), Target)) {
    reportError("", formatv("--cpu selects target cpu's kernels: give "
                            "--target cpu or an accelerator target, not '{0}'",
                            Target)
                        .str());
    return std::nullopt;
  }
  if (Cpu->Name == "native")
    errs() << formatv("note: --cpu native: {0} kernels, built with {1}\n",
                      emit::isaName(Cpu->Level), Cpu->Flags);
  return *Cpu;
}

std::optional<CompiledModel> compileModel(StringRef Path, StringRef Target,
                                          StringRef Name,
                                          const plan::CascadeOptions &Cascading,
                                          const emit::CpuChoice &Cpu) {
  CompiledModel C;
  auto Buf = support::readInputFile(Path, support::MaxModelBytes);
  if (!Buf) {
    reportError(Path, toString(Buf.takeError()));
    return std::nullopt;
  }
  StringRef Data = (*Buf)->getBuffer();
  C.Bytes.assign(Data.bytes_begin(), Data.bytes_end());
  Expected<tflite::ImportResult> R = tflite::importModel(C.Bytes);
  if (!R) {
    reportError(Path, toString(R.takeError()));
    return std::nullopt;
  }
  for (const std::string &W : R->Warnings)
    reportWarning(Path, W);
  C.Model = std::move(R->Model);
  if (C.Model->Graphs.empty()) {
    reportError(Path, "the model has no graph");
    return std::nullopt;
  }
  C.Options.Target = Target.str();
  C.Options.Name = Name.str();
  C.Options.ModelFileName = sys::path::filename(Path).str();
  C.Options.GeneratorVersion = ACCELGEN_VERSION;
  C.Options.Cascading = Cascading;
  C.Options.Cpu = Cpu;
  if (llvm::is_contained(acceleratorLabels(), Target) &&
      !prepareAccelerator(C, Path, Target, Name))
    return std::nullopt;
  if (isCmsisTarget(Target) && !prepareCmsis(C, Path, Target))
    return std::nullopt;
  Expected<emit::EmittedModel> E = emit::emitModel(
      C.Accelerated ? C.Accelerated->Graph : C.graph(), C.Options);
  if (!E) {
    reportError(Path, toString(E.takeError()));
    return std::nullopt;
  }
  C.Emitted = std::move(*E);
  if (uint64_t(C.Emitted.Plan.ArenaBytes) > MaxArenaBytes) {
    reportError(Path, formatv("the model needs a working-memory arena of {0} "
                              "bytes, more than the limit of {1} "
                              "(docs/compile.md)",
                              C.Emitted.Plan.ArenaBytes,
                              support::formatBytes(MaxArenaBytes)));
    return std::nullopt;
  }
  return C;
}

Expected<tflite::ImportResult> importModelFile(StringRef Path) {
  auto Buf = support::readInputFile(Path, support::MaxModelBytes);
  if (!Buf)
    return Buf.takeError();
  return tflite::importModel(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize()));
}

Error writeFiles(StringRef Dir, ArrayRef<emit::EmittedFile> Files) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError(EC, "cannot create the folder: " + EC.message());
  for (const emit::EmittedFile &F : Files) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, F.Name);
    // Unchanged files keep their time stamps, so builds do not redo them.
    if (auto Old = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
        Old && (*Old)->getBuffer() == F.Text)
      continue;
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (!EC) {
      OS << F.Text;
      OS.close();
      EC = OS.error();
    }
    if (EC)
      return createStringError(EC,
                               "cannot write " + F.Name + ": " + EC.message());
  }
  return Error::success();
}

int requireOption(const cl::opt<std::string> &Opt, StringRef Command) {
  if (Opt.getNumOccurrences() && !Opt.getValue().empty())
    return 0;
  // Named options are checked here rather than with cl::Required, whose
  // message LLVM prints on its own instead of through our error format.
  return reportError("", formatv("{0}{1} is required (see 'accelgen {2} "
                                 "--help')",
                                 Opt.ArgStr.size() == 1 ? "-" : "--",
                                 Opt.ArgStr, Command));
}

int checkTarget(StringRef Target) {
  std::vector<std::string> Known = emit::emitTargets();
  for (std::string &L : acceleratorLabels())
    Known.push_back(std::move(L));
  Known.push_back(cmsis::TargetName);
  for (const std::string &L : knownTargetLabels())
    if (isCmsisTarget(L))
      Known.push_back(L);
  if (llvm::is_contained(Known, Target))
    return 0;
  return reportError("", formatv("unknown target '{0}' (known: {1})", Target,
                                 llvm::join(Known, ", ")));
}

int runCompile() {
  if (requireOption(CompileTarget, "compile") ||
      requireOption(CompileOutput, "compile") || checkTarget(CompileTarget))
    return 1;
  if (!emit::isCIdentifier(CompileName))
    return reportError("", formatv("--name '{0}' is not a C identifier "
                                   "(letters, digits and '_', starting with "
                                   "a letter)",
                                   CompileName.getValue()));
  std::optional<emit::CpuChoice> Cpu = chooseCpu(CompileCpu, CompileTarget);
  if (!Cpu)
    return 1;
  std::optional<CompiledModel> C = compileModel(
      CompileModelPath, CompileTarget, CompileName,
      cascadeOptions(CompileCascade, CompileBudget, CompileInPlace), *Cpu);
  if (!C)
    return 1;
  if (CompileMain) {
    Expected<emit::EmittedFile> Main =
        emit::emitHostMain(C->graph(), C->Options);
    if (!Main)
      return reportError(CompileModelPath, toString(Main.takeError()));
    C->Emitted.Files.push_back(std::move(*Main));
  }
  if (Error E = writeOutputFolder(CompileOutput, C->Emitted.Files))
    return reportError(CompileOutput, toString(std::move(E)));
  const emit::EmittedModel &M = C->Emitted;
  outs() << formatv("wrote {0} files to {1}: {2} operators, arena {3} bytes "
                    "(lower bound {4})\n",
                    M.Files.size(), CompileOutput.getValue(),
                    C->graph().Operators.size(), M.Plan.ArenaBytes,
                    M.Plan.LowerBound);
  return 0;
}

} // namespace cli
} // namespace accelgen
