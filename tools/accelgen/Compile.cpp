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
#include "driver/OutputFolder.h"
#include "CompileModel.h"
#include "Targets.h"

#include "emit/CLiteral.h"
#include "import/TFLiteImporter.h"
#include "support/InputFile.h"
#include "support/TerminalText.h"
#include "target/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand CompileCommand("compile",
                              "Generate C99 for a model: model.c/.h, the "
                              "kernels it calls, report.json");

static cl::opt<std::string>
    CompileModelPath(cl::Positional, cl::Required,
                     cl::desc("<model.tflite|model.onnx>"),
                     cl::sub(CompileCommand), cl::cat(category()));
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
    cl::desc("Cascade to fit the working memory in BYTES, with the fewest "
             "device switches, then cascaded operators (docs/cascading.md)"),
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

static cl::opt<bool> CompileMain(
    "main",
    cl::desc("Also write main.c, a host program running the model on raw "
             "input files (see docs/compile.md)"),
    cl::sub(CompileCommand), cl::cat(category()));

namespace {
enum class OnnxArithmetic { Onnx, TFLite };
/// `--onnx-arithmetic` of compile and run, made by addOnnxArithmeticOption
/// (at run time: RunCommand, in another file, may not be constructed yet
/// when this file's statics are).
std::unique_ptr<cl::opt<OnnxArithmetic>> OnnxArithmeticOpt;
} // namespace

void addOnnxArithmeticOption() {
  OnnxArithmeticOpt = std::make_unique<cl::opt<OnnxArithmetic>>(
      "onnx-arithmetic",
      cl::desc("The arithmetic of an ONNX model's quantized operators: onnx "
               "(as ONNX specifies it: requantization in float, rounding "
               "half to even; operators whose kernels compute only "
               "TensorFlow Lite's are refused) or tflite (TensorFlow Lite's "
               "fixed point, for models converted from TensorFlow Lite; "
               "docs/onnx.md)"),
      cl::values(
          clEnumValN(OnnxArithmetic::Onnx, "onnx", "ONNX's"),
          clEnumValN(OnnxArithmetic::TFLite, "tflite", "TensorFlow Lite's")),
      cl::init(OnnxArithmetic::Onnx), cl::sub(CompileCommand),
      cl::sub(RunCommand), cl::sub(ExplainCommand), cl::cat(category()));
}

bool onnxAsTFLite() {
  return OnnxArithmeticOpt && *OnnxArithmeticOpt == OnnxArithmetic::TFLite;
}

namespace {
/// `--library-calls-only` of compile, run and explain (made at run time as
/// `--onnx-arithmetic` is).
std::unique_ptr<cl::opt<bool>> LibraryCallsOnlyOpt;
} // namespace

void addLibraryCallsOnlyOption() {
  LibraryCallsOnlyOpt = std::make_unique<cl::opt<bool>>(
      "library-calls-only",
      cl::desc("With a library-call target (cmsis-nn), call the library's "
               "functions only, no kernel generated per layer (to compare "
               "them: bench/cortex-m-layers.sh)"),
      cl::sub(CompileCommand), cl::sub(RunCommand), cl::sub(ExplainCommand),
      cl::cat(category()));
}

bool libraryCallsOnly() { return LibraryCallsOnlyOpt && *LibraryCallsOnlyOpt; }

StringRef toolVersion() { return ACCELGEN_VERSION_STRING; }

std::unique_ptr<driver::Compilation>
compileModel(StringRef Path, driver::Options O, bool ExplainOnly) {
  O.GeneratorVersion = ACCELGEN_VERSION_STRING;
  Expected<std::unique_ptr<driver::Compilation>> C =
      driver::Compilation::create(std::move(O), ExplainOnly);
  if (!C) {
    reportError("", toString(C.takeError()));
    return nullptr;
  }
  for (const std::string &N : (*C)->notes())
    errs() << "note: " << N << "\n";
  if (Error E = (*C)->import(Path)) {
    reportError(Path, toString(std::move(E)));
    return nullptr;
  }
  for (const std::string &W : (*C)->warnings())
    reportWarning(Path, W);
  if (!ExplainOnly)
    if (Error E = (*C)->compile()) {
      reportError(Path, toString(std::move(E)));
      return nullptr;
    }
  return std::move(*C);
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

int runCompile() {
  if (requireOption(CompileTarget, "compile") ||
      requireOption(CompileOutput, "compile"))
    return 1;
  if (std::string Problem = emit::modelNameProblem(CompileName);
      !Problem.empty())
    return reportError("", "--name " + Problem);
  driver::Options O;
  O.Target = CompileTarget;
  O.Name = CompileName;
  O.Cpu = cpuOption();
  O.Cascading = cascadeOptions(CompileCascade, CompileBudget, CompileInPlace);
  O.OnnxAsTFLite = onnxAsTFLite();
  O.LibraryCallsOnly = libraryCallsOnly();
  std::unique_ptr<driver::Compilation> C = compileModel(CompileModelPath, O);
  if (!C)
    return 1;
  std::vector<emit::EmittedFile> Files = C->emitted().Files;
  if (CompileMain) {
    Expected<emit::EmittedFile> Main = C->hostMain();
    if (!Main)
      return reportError(CompileModelPath, toString(Main.takeError()));
    Files.push_back(std::move(*Main));
  }
  if (Error E = driver::writeOutputFolder(CompileOutput, Files))
    return reportError(CompileOutput, toString(std::move(E)));
  const emit::EmittedModel &M = C->emitted();
  outs() << support::terminalText(
      formatv("wrote {0} files to {1}: {2} operators, arena {3} bytes "
              "(lower bound {4})\n",
              Files.size(), CompileOutput.getValue(),
              C->graph().Operators.size(), M.Plan.ArenaBytes,
              M.Plan.LowerBound)
          .str(),
      /*KeepNewlines=*/true);
  return 0;
}

} // namespace cli
} // namespace accelgen
