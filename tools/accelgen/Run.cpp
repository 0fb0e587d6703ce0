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

#include "cmsis/CmsisNn.h"
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

static cl::opt<std::string> RunCmsisNn(
    "cmsis-nn",
    cl::desc("CMSIS-NN source tree the cmsis-nn target's calls are built "
             "against (its Include/ and Source/); default $CMSIS_NN_PATH"),
    cl::value_desc("dir"), cl::sub(RunCommand), cl::cat(category()));

static cl::opt<std::string> RunCpu(
    "cpu",
    cl::desc("With --target cpu or an accelerator target: the instruction "
             "set of target cpu's kernels and the -march they are built with "
             "(generic, x86-64-v3, x86-64-v4, icelake-server, znver4, native). "
             "With --target cmsis-nn: build a bare-metal image for this "
             "Cortex-M (cortex-m3, cortex-m4, cortex-m55) with "
             "arm-none-eabi-gcc and run it under qemu-system-arm"),
    cl::value_desc("cpu"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string> RunSaveImage(
    "save-image",
    cl::desc("With --cpu: also copy the built image (ELF) to this file, for "
             "measuring it (bench/cortex-m.sh)"),
    cl::value_desc("file"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<std::string> RunSaveCallGraph(
    "save-call-graph",
    cl::desc("With --cpu: also copy GCC's call-graph files of the image "
             "(-fcallgraph-info=su, one .ci per source file, CMSIS-NN's "
             "included) into this folder, for accelgen-stack-bound"),
    cl::value_desc("dir"), cl::sub(RunCommand), cl::cat(category()));
static cl::opt<unsigned> RunTimeout(
    "timeout", cl::init(600),
    cl::desc("With --cpu: seconds QEMU may run before it is stopped"),
    cl::sub(RunCommand), cl::cat(category()));

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
  Add(C.Options.Cpu.Flags);
  for (const std::string &W : Compiler)
    Add(W);
  Add(StringRef(reinterpret_cast<const char *>(C.Bytes.data()),
                C.Bytes.size()));
  for (const emit::EmittedFile &F : C.Emitted.Files) {
    Add(F.Name);
    Add(F.Text);
  }
  Add(Main.Text);
  Add(RunCmsisNn);
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

/// Runs \p Argv (its first word found on PATH) in folder \p Dir through
/// /bin/sh, output to \p Log; an error naming the tool and the log's first
/// error line.
Error runIn(StringRef Dir, ArrayRef<std::string> Argv, StringRef Log,
            StringRef Suffix = "") {
  ErrorOr<std::string> Tool = sys::findProgramByName(Argv.front());
  if (!Tool)
    return createStringError(inconvertibleErrorCode(),
                             "cannot find '" + Argv.front() + "'");
  ErrorOr<std::string> Sh = sys::findProgramByName("sh");
  if (!Sh)
    return createStringError(inconvertibleErrorCode(), "cannot find 'sh'");
  std::vector<std::string> Args = {
      *Sh, "-c", ("cd \"$0\" && \"$@\" " + Suffix).str(), Dir.str(), *Tool};
  Args.insert(Args.end(), Argv.begin() + 1, Argv.end());
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  Optional<StringRef> Redirects[] = {StringRef(""), Log, Log};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Sh, Refs, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return createStringError(inconvertibleErrorCode(),
                             formatv("{0} failed{1}{2}", Argv.front(),
                                     ErrMsg.empty() ? "" : ": " + ErrMsg,
                                     firstLineOf(Log))
                                 .str());
  return Error::success();
}

} // namespace

static std::vector<std::string> cmsisSources(StringRef Dir) {
  std::vector<std::string> Files;
  SmallString<256> Src(Dir);
  sys::path::append(Src, "Source");
  std::error_code EC;
  for (sys::fs::directory_iterator D(Src, EC), End; D != End && !EC;
       D.increment(EC)) {
    if (!StringRef(D->path()).endswith("Functions"))
      continue;
    std::error_code EC2;
    for (sys::fs::directory_iterator F(D->path(), EC2), FEnd; F != FEnd && !EC2;
         F.increment(EC2)) {
      StringRef Name = sys::path::filename(F->path());
      // The int8/int16 kernels: the float API is not used.
      if (Name.endswith(".c") && !Name.contains("_f16") &&
          !Name.contains("_f32") && !Name.contains("flt"))
        Files.push_back(F->path());
    }
  }
  llvm::sort(Files);
  return Files;
}

/// Copies the call-graph files (*.ci) of folder \p From into \p To.
static Error copyCallGraphs(StringRef From, StringRef To) {
  std::error_code EC;
  for (sys::fs::directory_iterator F(From, EC), End; F != End && !EC;
       F.increment(EC)) {
    if (!StringRef(F->path()).endswith(".ci"))
      continue;
    SmallString<256> Target(To);
    sys::path::append(Target, sys::path::filename(F->path()));
    if (std::error_code CE = sys::fs::copy_file(F->path(), Target))
      return createStringError(CE, "cannot copy " + F->path() + ": " +
                                       CE.message());
  }
  if (EC)
    return createStringError(EC, "cannot list " + From + ": " + EC.message());
  return Error::success();
}

static Expected<std::string> buildCmsisLibrary(StringRef CmsisDir,
                                               ArrayRef<std::string> Compiler,
                                               ArrayRef<std::string> Flags,
                                               StringRef Archiver,
                                               StringRef CacheRoot) {
  SmallString<256> Dir(CmsisDir);
  sys::fs::make_absolute(Dir);
  SmallString<256> Header(Dir);
  sys::path::append(Header, "Include", "arm_nnfunctions.h");
  if (!sys::fs::exists(Header))
    return createStringError(inconvertibleErrorCode(),
                             "not a CMSIS-NN source tree (no "
                             "Include/arm_nnfunctions.h): " +
                                 Dir);
  std::vector<std::string> Sources = cmsisSources(Dir);
  SHA256 H;
  auto Add = [&](StringRef S) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  };
  Add("cmsis-nn library 1");
  Add(toolVersion());
  for (const std::string &W : Compiler)
    Add(W);
  for (const std::string &W : Flags)
    Add(W);
  for (const std::string &F : Sources) {
    Add(F);
    sys::fs::file_status St;
    if (!sys::fs::status(F, St)) {
      Add(std::to_string(St.getSize()));
      Add(std::to_string(
          St.getLastModificationTime().time_since_epoch().count()));
    }
  }
  SmallString<256> Entry(CacheRoot);
  sys::path::append(Entry, "cmsis-nn-" + toHex(arrayRefFromStringRef(H.final()),
                                               /*LowerCase=*/true)
                                             .substr(0, 24));
  SmallString<256> Lib(Entry);
  sys::path::append(Lib, "libcmsis-nn.a");
  if (sys::fs::exists(Lib))
    return std::string(Lib);
  if (std::error_code EC = sys::fs::create_directories(CacheRoot))
    return createStringError(EC, "cannot create the cache folder");
  SmallString<256> Model(CacheRoot), Temp;
  sys::path::append(Model, "tmp-cmsis-%%%%%%%%%%%%");
  sys::fs::createUniquePath(Model, Temp, /*MakeAbsolute=*/true);
  if (std::error_code EC = sys::fs::create_directory(Temp))
    return createStringError(EC, "cannot create " + Temp);
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(Temp); });
  SmallString<256> Log(Temp);
  sys::path::append(Log, "build.log");
  std::vector<std::string> Cmd(Compiler.begin(), Compiler.end());
  Cmd.insert(Cmd.end(), Flags.begin(), Flags.end());
  SmallString<256> Inc(Dir);
  sys::path::append(Inc, "Include");
  Cmd.push_back("-I" + std::string(Inc));
  Cmd.push_back("-c");
  Cmd.insert(Cmd.end(), Sources.begin(), Sources.end());
  if (Error E = runIn(Temp, Cmd, Log))
    return createStringError(inconvertibleErrorCode(),
                             "building CMSIS-NN: " + toString(std::move(E)));
  if (Error E =
          runIn(Temp, {Archiver.str(), "rcs", "libcmsis-nn.a"}, Log, "*.o"))
    return createStringError(inconvertibleErrorCode(),
                             "archiving CMSIS-NN: " + toString(std::move(E)));
  SmallString<256> Built(Temp);
  sys::path::append(Built, "libcmsis-nn.a");
  sys::fs::create_directories(Entry);
  // The call-graph files, when the flags ask for them, stay with the library.
  if (Error E = copyCallGraphs(Temp, Entry))
    return std::move(E);
  if (sys::fs::rename(Built, Lib) && !sys::fs::exists(Lib))
    return createStringError(inconvertibleErrorCode(),
                             "cannot move the CMSIS-NN library into " + Entry);
  return std::string(Lib);
}

namespace {

/// The CMSIS-NN tree: --cmsis-nn, else $CMSIS_NN_PATH; empty if neither.
std::string cmsisDir() {
  if (!RunCmsisNn.empty())
    return RunCmsisNn;
  if (Optional<std::string> P = sys::Process::GetEnv("CMSIS_NN_PATH"))
    return *P;
  return "";
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
  // Target cpu's kernels are written for the compiler to vectorise (-O3)
  // and, with --cpu, for an instruction set (its -march); the reference
  // kernels keep -O2.
  const bool CpuKernels = C.Options.Target == "cpu" ||
                          (C.Accelerated && C.Options.CpuKernels == "cpu");
  Args.push_back("-std=c99");
  Args.push_back(CpuKernels ? "-O3" : "-O2");
  SmallVector<StringRef, 4> CpuFlags;
  StringRef(C.Options.Cpu.Flags).split(CpuFlags, ' ', -1, false);
  for (StringRef F : CpuFlags)
    Args.push_back(F.str());
  Args.push_back("-o");
  Args.push_back(InTemp(ProgramName));
  Args.push_back("-D" + StringRef(RunName).upper() + "_TRACE");
  for (const emit::EmittedFile &F : Files)
    if (StringRef(F.Name).endswith(".c"))
      Args.push_back(InTemp(F.Name));
  if (isCmsisTarget(C.Options.Target)) {
    // The host runs CMSIS-NN's plain C paths.
    std::string Dir = cmsisDir();
    if (Dir.empty())
      return createStringError(inconvertibleErrorCode(),
                               "target cmsis-nn needs a CMSIS-NN source tree: "
                               "give --cmsis-nn DIR or set CMSIS_NN_PATH");
    Expected<std::string> Lib =
        buildCmsisLibrary(Dir, Compiler, {"-O2"}, "ar", Root);
    if (!Lib)
      return Lib.takeError();
    SmallString<256> Inc(Dir);
    sys::fs::make_absolute(Inc);
    sys::path::append(Inc, "Include");
    Args.push_back("-I" + std::string(Inc));
    Args.push_back(*Lib);
  }
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

/// A tool found on PATH, or an error saying which package has it.
static Expected<std::string> findTool(StringRef Name, StringRef Package) {
  ErrorOr<std::string> P = sys::findProgramByName(Name);
  if (!P)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("cannot find '{0}' (install {1})", Name, Package).str());
  return *P;
}

/// Builds the bare-metal image of \p C for \p Cpu into the cache (or finds
/// it there); its path.
static Expected<std::string> buildImage(const CompiledModel &C,
                                        const cmsis::CpuInfo &Cpu) {
  Expected<std::string> Gcc =
      findTool("arm-none-eabi-gcc", "gcc-arm-none-eabi");
  if (!Gcc)
    return Gcc.takeError();
  if (Expected<std::string> Ar =
          findTool("arm-none-eabi-ar", "binutils-arm-none-eabi");
      !Ar)
    return Ar.takeError();
  std::string Dir = cmsisDir();
  if (Dir.empty())
    return createStringError(inconvertibleErrorCode(),
                             "target cmsis-nn needs a CMSIS-NN source tree: "
                             "give --cmsis-nn DIR or set CMSIS_NN_PATH");
  Expected<std::vector<emit::EmittedFile>> Device =
      cmsis::cortexMFiles(C.graph(), C.Options, Cpu);
  if (!Device)
    return Device.takeError();
  std::vector<std::string> Flags;
  SmallVector<StringRef, 8> Words;
  StringRef(Cpu.Flags).split(Words, ' ', -1, false);
  for (StringRef W : Words)
    Flags.push_back(W.str());
  // The stack usage and call graph of every function, for a static stack
  // bound (accelgen-stack-bound); they do not change the code.
  for (const char *F : {"-O2", "-ffunction-sections", "-fdata-sections",
                        "-fstack-usage", "-fcallgraph-info=su"})
    Flags.push_back(F);

  std::vector<std::string> Compiler = {"arm-none-eabi-gcc"};
  Compiler.insert(Compiler.end(), Flags.begin(), Flags.end());
  if (RunDumpLayers)
    Compiler.push_back("layers");
  emit::EmittedFile KeyFile{"device", ""};
  for (const emit::EmittedFile &F : *Device)
    KeyFile.Text += F.Name + "\n" + F.Text;
  SmallString<256> Root(cacheRoot());
  sys::fs::make_absolute(Root);
  SmallString<256> Entry(Root);
  sys::path::append(Entry, cacheKey(C, KeyFile, Compiler));
  SmallString<256> Image(Entry);
  sys::path::append(Image, "image.elf");
  if (sys::fs::exists(Image))
    return std::string(Image);

  Expected<std::string> Lib = buildCmsisLibrary(
      Dir, {"arm-none-eabi-gcc"}, Flags, "arm-none-eabi-ar", Root);
  if (!Lib)
    return Lib.takeError();
  SmallString<256> Temp, Model(Root);
  sys::path::append(Model, "tmp-%%%%%%%%%%%%");
  sys::fs::createUniquePath(Model, Temp, /*MakeAbsolute=*/true);
  if (std::error_code EC = sys::fs::create_directories(Temp))
    return createStringError(EC, "cannot create " + Temp);
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(Temp); });
  std::vector<emit::EmittedFile> Files = C.Emitted.Files;
  Files.insert(Files.end(), Device->begin(), Device->end());
  if (Error E = writeFiles(Temp, Files))
    return std::move(E);
  SmallString<256> Inc(Dir);
  sys::fs::make_absolute(Inc);
  sys::path::append(Inc, "Include");
  std::vector<std::string> Args = {"arm-none-eabi-gcc"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  for (const char *F :
       {"-std=c99", "-nostartfiles", "-Wl,--gc-sections", "--specs=nosys.specs",
        "-Tcortex_m.ld", "-Wl,-Map=image.map", "-o", "image.elf"})
    Args.push_back(F);
  // The trace hook only when layers are dumped: an image without it is the
  // one a deployment would run, and the one measured.
  const std::string Upper = StringRef(RunName).upper();
  if (RunDumpLayers) {
    Args.push_back("-D" + Upper + "_TRACE");
    Args.push_back("-D" + Upper + "_LAYERS");
  }
  Args.push_back("-I" + std::string(Inc));
  for (const emit::EmittedFile &F : Files)
    if (StringRef(F.Name).endswith(".c"))
      Args.push_back(F.Name);
  Args.push_back(*Lib);
  Args.push_back("-lm");
  SmallString<256> Log(Temp);
  sys::path::append(Log, "compile.log");
  if (Error E = runIn(Temp, Args, Log))
    return createStringError(inconvertibleErrorCode(),
                             "building the image: " + toString(std::move(E)));
  // The library's call graphs beside the image's (image.elf-*.ci).
  if (Error E = copyCallGraphs(sys::path::parent_path(*Lib), Temp))
    return std::move(E);
  if (sys::fs::rename(Temp, Entry) && !sys::fs::exists(Image))
    return createStringError(inconvertibleErrorCode(),
                             "cannot move the build into " + Entry);
  return std::string(Image);
}

/// Runs image \p Image under QEMU's machine for \p Cpu in a fresh folder
/// holding the inputs; moves what it wrote into --outputs.
static int runImage(const CompiledModel &C, const cmsis::CpuInfo &Cpu,
                    StringRef Image) {
  Expected<std::string> Qemu = findTool("qemu-system-arm", "qemu-system-arm");
  if (!Qemu)
    return reportError(RunModel, toString(Qemu.takeError()));
  SmallString<256> Work;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("accelgen-run-qemu", Work))
    return reportError("", "cannot create a temporary folder: " + EC.message());
  auto Remove = make_scope_exit([&] { sys::fs::remove_directories(Work); });
  for (size_t I = 0; I < C.Emitted.Inputs.size(); ++I) {
    std::string Name = formatv("input_{0}.bin", I);
    SmallString<256> From(RunInputs), To(Work);
    sys::path::append(From, Name);
    sys::path::append(To, Name);
    if (std::error_code EC = sys::fs::copy_file(From, To))
      return reportError(From, "cannot copy: " + EC.message());
  }
  SmallString<256> Layers(Work);
  sys::path::append(Layers, "layers");
  sys::fs::create_directories(Layers);
  SmallString<256> Log(Work);
  sys::path::append(Log, "qemu.log");
  std::vector<std::string> Args = {"timeout",
                                   std::to_string(RunTimeout.getValue()),
                                   *Qemu,
                                   "-M",
                                   Cpu.Machine,
                                   "-nographic",
                                   "-monitor",
                                   "none",
                                   "-semihosting-config",
                                   "enable=on,target=native",
                                   "-kernel",
                                   Image.str()};
  if (Error E = runIn(Work, Args, Log))
    return reportError(RunModel,
                       formatv("the image for {0} failed under QEMU ({1}): {2}",
                               Cpu.Name, Cpu.Machine, toString(std::move(E)))
                           .str());
  sys::fs::remove(Log);
  std::vector<emit::EmittedFile> Outputs;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Work, EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = StringRef(It->path()).drop_front(Work.size() + 1);
    if (!sys::fs::is_regular_file(It->path()) || Name.startswith("input_"))
      continue;
    auto Buf = support::readInputFile(It->path(), support::MaxModelBytes);
    if (!Buf)
      return reportError(It->path(), toString(Buf.takeError()));
    Outputs.push_back({Name.str(), (*Buf)->getBuffer().str()});
  }
  if (Error E = writeOutputFolder(RunOutputs, Outputs))
    return reportError(RunOutputs, toString(std::move(E)));
  outs() << formatv("wrote {0} output(s) from {1} under QEMU {2} to {3}\n",
                    C.graph().Outputs.size(), Cpu.Name, Cpu.Machine,
                    RunOutputs.getValue());
  return 0;
}

int runRun() {
  if (requireOption(RunTarget, "run") || requireOption(RunInputs, "run") ||
      requireOption(RunOutputs, "run") || checkTarget(RunTarget))
    return 1;
  std::string Target = RunTarget;
  const cmsis::CpuInfo *Cpu = nullptr;
  std::optional<emit::CpuChoice> X86 = emit::CpuChoice();
  if (!RunCpu.empty() && !isCmsisTarget(Target) && !cmsis::findCpu(RunCpu)) {
    X86 = chooseCpu(RunCpu, Target);
    if (!X86)
      return 1;
  } else if (!RunCpu.empty()) {
    Cpu = cmsis::findCpu(RunCpu);
    std::vector<std::string> Names;
    for (const cmsis::CpuInfo &I : cmsis::cpus())
      Names.push_back(I.Name);
    if (!Cpu)
      return reportError("", formatv("unknown --cpu '{0}' (known: {1})",
                                     RunCpu.getValue(), join(Names, ", ")));
    const std::string Label = std::string(cmsis::TargetName) + Cpu->Version;
    if (Target != cmsis::TargetName && Target != Label)
      return reportError("", formatv("--cpu needs --target {0} (or {1}), not "
                                     "'{2}'",
                                     cmsis::TargetName, Label, Target));
    Target = Label;
  }
  const plan::CascadeOptions Cascading =
      cascadeOptions(RunCascade, RunBudget, RunInPlace);
  std::optional<CompiledModel> C =
      compileModel(RunModel, Target, RunName, Cascading, *X86);
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

  if (Cpu) {
    Expected<std::string> Image = buildImage(*C, *Cpu);
    if (!Image)
      return reportError(RunModel, toString(Image.takeError()));
    if (!RunSaveImage.empty())
      if (std::error_code EC = sys::fs::copy_file(*Image, RunSaveImage))
        return reportError(RunSaveImage, "cannot write: " + EC.message());
    if (!RunSaveCallGraph.empty()) {
      if (std::error_code EC = sys::fs::create_directories(RunSaveCallGraph))
        return reportError(RunSaveCallGraph, "cannot create: " + EC.message());
      if (Error E =
              copyCallGraphs(sys::path::parent_path(*Image), RunSaveCallGraph))
        return reportError(RunSaveCallGraph, toString(std::move(E)));
    }
    return runImage(*C, *Cpu, *Image);
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
