//===- Run.cpp - `accelgen run`: build the emitted C and run it -----------===//
//
// Emits a model's C plus a host main.c, builds them with the system C
// compiler (`cc`, or $CC) and runs the program on IN_DIR/input_<i>.bin,
// writing OUT_DIR/output_<i>.bin and, with --dump-layers, every operator's
// output as OUT_DIR/layers/output_<k>.bin.
//
// Built programs are cached under $XDG_CACHE_HOME/accelgen (or
// ~/.cache/accelgen, or --cache-dir), one folder per hash of the model's
// bytes, the target, accelgen's version, the compiler and the generated
// sources themselves, so a rebuilt accelgen with changed kernels never reuses
// a stale program. A folder is built under a temporary name and renamed into
// place, so concurrent runs of the same model do not see half-built entries.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileModel.h"
#include "OutputFolder.h"

#include "emit/CLiteral.h"
#include "support/InputFile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand RunCommand("run", "Build a model's generated C with the system "
                                 "C compiler and run it on input files");

static cl::opt<std::string> RunModel(cl::Positional, cl::Required,
                                     cl::desc("<model.tflite>"),
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
    cl::desc("Cascade as few operators as fit the working memory in BYTES"),
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

namespace {

/// The symbol prefix of the programs `run` builds.
constexpr const char *RunName = "model";
/// The program's file name in its cache folder.
constexpr const char *ProgramName = "model-run";

std::string cacheRoot() {
  if (!RunCacheDir.empty())
    return RunCacheDir;
  SmallString<256> P;
  if (Optional<std::string> X = sys::Process::GetEnv("XDG_CACHE_HOME");
      X && !X->empty()) {
    P = *X;
  } else if (Optional<std::string> H = sys::Process::GetEnv("HOME");
             H && !H->empty()) {
    P = *H;
    sys::path::append(P, ".cache");
  } else {
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, P);
  }
  sys::path::append(P, "accelgen");
  return std::string(P);
}

/// The C compiler command: $CC split at blanks, or "cc".
std::vector<std::string> compilerCommand() {
  std::vector<std::string> Cmd;
  Optional<std::string> Env = sys::Process::GetEnv("CC");
  const std::string CC =
      Env && !StringRef(*Env).trim().empty() ? *Env : std::string("cc");
  SmallVector<StringRef, 4> Words;
  StringRef(CC).split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef W : Words)
    Cmd.push_back(W.str());
  return Cmd;
}

/// The cache key of a build: everything that decides the program.
std::string cacheKey(const CompiledModel &C, const emit::EmittedFile &Main,
                     ArrayRef<std::string> Compiler) {
  SHA256 H;
  auto Add = [&](StringRef S) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  };
  Add("accelgen run cache 1");
  Add(toolVersion());
  Add(C.Options.Target);
  for (const std::string &W : Compiler)
    Add(W);
  Add(StringRef(reinterpret_cast<const char *>(C.Bytes.data()),
                C.Bytes.size()));
  for (const emit::EmittedFile &F : C.Emitted.Files) {
    Add(F.Name);
    Add(F.Text);
  }
  Add(Main.Text);
  return toHex(arrayRefFromStringRef(H.final()), /*LowerCase=*/true)
      .substr(0, 32);
}

/// ": " and the first line of the file at \p Path that says something (an
/// "error" line if there is one), for a one-line error message; "" if there
/// is none.
std::string firstLineOf(StringRef Path) {
  auto Buf = support::readInputFile(Path, support::MaxDescriptionBytes);
  if (!Buf) {
    consumeError(Buf.takeError());
    return "";
  }
  SmallVector<StringRef, 16> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  StringRef First;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.empty())
      continue;
    if (First.empty())
      First = L;
    if (L.contains("error")) {
      First = L;
      break;
    }
  }
  return First.empty() ? "" : ": " + First.take_front(300).str();
}

/// Builds the program into the cache (or finds it there); its path, or an
/// error message.
Expected<std::string> buildProgram(const CompiledModel &C,
                                   const emit::EmittedFile &Main) {
  std::vector<std::string> Compiler = compilerCommand();
  SmallString<256> Root(cacheRoot());
  sys::fs::make_absolute(Root);
  SmallString<256> Entry(Root);
  sys::path::append(Entry, cacheKey(C, Main, Compiler));
  SmallString<256> Program(Entry);
  sys::path::append(Program, ProgramName);
  if (sys::fs::can_execute(Program))
    return std::string(Program);

  ErrorOr<std::string> CC = sys::findProgramByName(Compiler.front());
  if (!CC)
    return createStringError(inconvertibleErrorCode(),
                             "cannot find the C compiler '" + Compiler.front() +
                                 "' (set CC)");
  if (std::error_code EC = sys::fs::create_directories(Root))
    return createStringError(EC, "cannot create the cache folder " + Root +
                                     ": " + EC.message());
  SmallString<256> Temp;
  SmallString<256> Model(Root);
  sys::path::append(Model, "tmp-%%%%%%%%%%%%");
  sys::fs::createUniquePath(Model, Temp, /*MakeAbsolute=*/true);
  if (std::error_code EC = sys::fs::create_directory(Temp))
    return createStringError(EC, "cannot create " + Temp + ": " + EC.message());
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(Temp); });

  std::vector<emit::EmittedFile> Files = C.Emitted.Files;
  Files.push_back(Main);
  if (Error E = writeFiles(Temp, Files))
    return std::move(E);

  auto InTemp = [&](StringRef Name) {
    SmallString<256> P(Temp);
    sys::path::append(P, Name);
    return std::string(P);
  };
  std::vector<std::string> Args = Compiler;
  Args[0] = *CC;
  for (const char *Flag : {"-std=c99", "-O2", "-o"})
    Args.push_back(Flag);
  Args.push_back(InTemp(ProgramName));
  Args.push_back("-D" + StringRef(RunName).upper() + "_TRACE");
  for (const emit::EmittedFile &F : Files)
    if (StringRef(F.Name).endswith(".c"))
      Args.push_back(InTemp(F.Name));
  Args.push_back("-lm");

  std::string Log = InTemp("compile.log");
  std::vector<StringRef> Argv(Args.begin(), Args.end());
  Optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                     StringRef(Log)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*CC, Argv, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("the C compiler failed ({0}){1}{2}", Args[0],
                ErrMsg.empty() ? "" : ": " + ErrMsg, firstLineOf(Log))
            .str());

  // Publish the folder; another process may have done so first.
  if (sys::fs::rename(Temp, Entry)) {
    if (!sys::fs::can_execute(Program))
      return createStringError(inconvertibleErrorCode(),
                               "cannot move the build into " + Entry);
  }
  return std::string(Program);
}

} // namespace

int runRun() {
  if (requireOption(RunTarget, "run") || requireOption(RunInputs, "run") ||
      requireOption(RunOutputs, "run") || checkTarget(RunTarget))
    return 1;
  const plan::CascadeOptions Cascading =
      cascadeOptions(RunCascade, RunBudget, RunInPlace);
  if (Cascading.Enabled && RunDumpLayers)
    return reportError("", "--dump-layers needs every tensor whole, which a "
                           "cascade does not keep; drop --cascade and "
                           "--memory-budget");
  std::optional<CompiledModel> C =
      compileModel(RunModel, RunTarget, RunName, Cascading);
  if (!C)
    return 1;
  const ir::Graph &G = C->graph();

  // The inputs must be there, each of exactly its tensor's size.
  if (!sys::fs::is_directory(RunInputs))
    return reportError(RunInputs, "not a folder");
  for (size_t I = 0; I < C->Emitted.Inputs.size(); ++I) {
    const emit::IOTensor &In = C->Emitted.Inputs[I];
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

  emit::EmitOptions MainOpts = C->Options;
  Expected<emit::EmittedFile> Main = emit::emitHostMain(G, MainOpts);
  if (!Main)
    return reportError(RunModel, toString(Main.takeError()));
  Expected<std::string> Program = buildProgram(*C, *Main);
  if (!Program)
    return reportError(RunModel, toString(Program.takeError()));

  // The program writes into a fresh folder; its files then move into
  // --outputs as compile's do (OutputFolder.h): never through a symbolic
  // link, never over a file accelgen did not write.
  SmallString<256> Produced;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("accelgen-run-outputs", Produced))
    return reportError("", "cannot create a temporary folder: " + EC.message());
  auto RemoveProduced =
      make_scope_exit([&] { sys::fs::remove_directories(Produced); });
  SmallString<256> Layers(Produced);
  sys::path::append(Layers, "layers");
  if (RunDumpLayers)
    if (std::error_code EC = sys::fs::create_directories(Layers))
      return reportError("",
                         "cannot create a temporary folder: " + EC.message());

  SmallString<256> Err;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("accelgen-run", "txt", Err))
    return reportError("", "cannot create a temporary file: " + EC.message());
  auto RemoveErr = make_scope_exit([&] { sys::fs::remove(Err); });
  std::vector<StringRef> Argv = {*Program, RunInputs, Produced};
  if (RunDumpLayers)
    Argv.push_back("--layers");
  Optional<StringRef> Redirects[] = {StringRef(""), None, StringRef(Err)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Program, Argv, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return reportError(
        RunModel, formatv("the compiled model ({0}) failed{1}{2}", *Program,
                          RC < 0 ? ": " + ErrMsg
                                 : formatv(" with exit code {0}", RC).str(),
                          firstLineOf(Err))
                      .str());
  std::vector<emit::EmittedFile> Outputs;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Produced, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (!sys::fs::is_regular_file(It->path()))
      continue;
    auto Buf = support::readInputFile(It->path(), support::MaxModelBytes);
    if (!Buf)
      return reportError(It->path(), toString(Buf.takeError()));
    StringRef Name = StringRef(It->path()).drop_front(Produced.size() + 1);
    Outputs.push_back({Name.str(), (*Buf)->getBuffer().str()});
  }
  if (EC)
    return reportError(Produced, "cannot list the outputs: " + EC.message());
  if (Error E = writeOutputFolder(RunOutputs, Outputs))
    return reportError(RunOutputs, toString(std::move(E)));
  outs() << formatv(
      "wrote {0} output(s){1} to {2}\n", G.Outputs.size(),
      RunDumpLayers
          ? formatv(" and {0} layer(s)", emit::layerDumpTensors(G).size()).str()
          : std::string(),
      RunOutputs.getValue());
  return 0;
}

} // namespace cli
} // namespace accelgen
