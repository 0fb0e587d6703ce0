//===- Run.cpp - `accelgen run`: build the emitted C and run it -----------===//
//
// Compiles a model through the driver and has the target's backend build and
// run it (driver/HostRun.h: with the system C compiler on this machine, or
// for cmsis-nn with --cpu as a bare-metal image under QEMU) on
// IN_DIR/input_<i>.bin, writing OUT_DIR/output_<i>.bin and, with
// --dump-layers, every operator's output as OUT_DIR/layers/output_<k>.bin.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "driver/OutputFolder.h"
#include "CompileModel.h"

#include "driver/HostRun.h"
#include "support/TerminalText.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand RunCommand("run", "Build a model's generated C with the system "
                                 "C compiler and run it on input files");

static cl::opt<std::string> RunModel(cl::Positional, cl::Required,
                                     cl::desc("<model.tflite|model.onnx>"),
                                     cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string> RunTarget("target",
                                      cl::desc("Target to run on: ref, or a "
                                               "target version that can run "
                                               "(see 'accelgen targets')"),
                                      cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string>
    RunInputs("inputs",
              cl::desc("Folder with input_<i>.bin, raw, one per model input"),
              cl::value_desc("dir"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string>
    RunOutputs("outputs", cl::desc("Folder to write output_<i>.bin into"),
               cl::value_desc("dir"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<bool> RunDumpLayers(
    "dump-layers",
    cl::desc("Also write every operator's output as layers/output_<k>.bin"),
    cl::sub(RunCommand), cl::cat(category()));
static cl::opt<bool> RunCascade(
    "cascade",
    cl::desc("Run chains of operators stripe by stripe for the least working "
             "memory (docs/cascading.md)"),
    cl::sub(RunCommand), cl::cat(category()));
static cl::opt<unsigned long long> RunBudget(
    "memory-budget",
    cl::desc("Cascade to fit the working memory in BYTES, with the fewest "
             "device switches, then cascaded operators (docs/cascading.md)"),
    cl::value_desc("BYTES"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<bool> RunInPlace(
    "inputs-in-place",
    cl::desc("Read the graph inputs in the caller's buffers instead of "
             "copying them into the arena"),
    cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string>
    RunCacheDir("cache-dir",
                cl::desc("Where built programs are kept (default "
                         "$XDG_CACHE_HOME/accelgen or ~/.cache/accelgen)"),
                cl::value_desc("dir"), cl::sub(RunCommand),
                cl::cat(category()));

int runRun() {
  if (requireOption(RunTarget, "run") || requireOption(RunInputs, "run") ||
      requireOption(RunOutputs, "run"))
    return 1;
  driver::Options O;
  O.Target = RunTarget;
  O.Name = driver::RunName;
  O.Cpu = cpuOption();
  O.Cascading = cascadeOptions(RunCascade, RunBudget, RunInPlace);
  O.OnnxAsTFLite = onnxAsTFLite();
  O.LibraryCallsOnly = libraryCallsOnly();
  std::unique_ptr<driver::Compilation> C = compileModel(RunModel, O);
  if (!C)
    return 1;
  const ir::Graph &G = C->graph();

  // The inputs must be there, each of exactly its tensor's size.
  if (!sys::fs::is_directory(RunInputs))
    return reportError(RunInputs, "not a folder");
  for (size_t I = 0; I < C->emitted().Inputs.size(); ++I) {
    const emit::IOTensor &In = C->emitted().Inputs[I];
    SmallString<256> Path(RunInputs);
    sys::path::append(Path, formatv("input_{0}.bin", I).str());
    uint64_t Size = 0;
    if (std::error_code EC = sys::fs::file_size(Path, Size))
      return reportError(Path, "cannot read: " + EC.message());
    const ir::Tensor &T = G.tensor(In.Tensor);
    if (static_cast<int64_t>(Size) != In.Bytes)
      return reportError(
          Path, formatv("has {0} bytes, but input {1} ('{2}', {3} {4}) takes "
                        "{5} bytes",
                        Size, I, T.Name, ir::dtypeName(T.Type),
                        ir::formatShape(T.Shape), In.Bytes));
  }

  driver::RunOptions R;
  R.InputsDir = RunInputs;
  R.DumpLayers = RunDumpLayers;
  R.CacheDir = RunCacheDir;
  R.Values = backendOptionValues();
  Expected<std::vector<emit::EmittedFile>> Outputs = C->run(R);
  if (!Outputs)
    return reportError(RunModel, toString(Outputs.takeError()));
  // The program wrote into a fresh folder; its files move into --outputs as
  // compile's do (driver/OutputFolder.h): never through a symbolic link,
  // never over a file accelgen did not write.
  if (Error E = driver::writeOutputFolder(RunOutputs, *Outputs))
    return reportError(RunOutputs, toString(std::move(E)));
  const std::string Where = C->target().Backend->ranOn(*C);
  outs() << support::terminalText(
      formatv("wrote {0} output(s){1}{2} to {3}\n", G.Outputs.size(),
              RunDumpLayers && Where.empty()
                  ? formatv(" and {0} layer(s)",
                            emit::layerDumpTensors(G).size())
                        .str()
                  : std::string(),
              Where.empty() ? std::string() : " from " + Where,
              RunOutputs.getValue())
          .str(),
      /*KeepNewlines=*/true);
  return 0;
}

} // namespace cli
} // namespace accelgen
