//===- CmsisNnBackend.cpp - Target cmsis-nn's backend: CMSIS-NN calls -----===//
//
// The `cmsis-nn-calls` backend: the operators the description maps to
// CMSIS-NN functions become direct arm_* calls (CmsisNn.h), the rest run the
// CPU fallback's kernels. `run` builds CMSIS-NN from a source tree given by
// path (its run option `--cmsis-nn DIR`, else $CMSIS_NN_PATH) and either links
// it into a host program, whose CMSIS-NN takes its plain C paths, or, with
// `--cpu cortex-m0|cortex-m3|cortex-m4|cortex-m55` (which selects the target
// version of that CPU family), builds a bare-metal image with arm-none-eabi-gcc
// and runs it under qemu-system-arm.
//
//===----------------------------------------------------------------------===//
#include "cmsis-nn/CmsisNn.h"
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "driver/HostRun.h"
#include "driver/OutputFolder.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace accelgen {
namespace backends {
namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The run options this backend reads (`accelgen run --NAME VALUE`).
constexpr const char *TreeOption = "cmsis-nn";
constexpr const char *TimeoutOption = "timeout";
constexpr const char *SaveImageOption = "save-image";
constexpr const char *SaveCallGraphOption = "save-call-graph";

/// The CMSIS-NN tree: --cmsis-nn, else $CMSIS_NN_PATH; an error if neither.
Expected<std::string> cmsisDir(const driver::RunOptions &R) {
  std::string Dir = R.value(TreeOption);
  if (Dir.empty())
    if (Optional<std::string> P = sys::Process::GetEnv("CMSIS_NN_PATH"))
      Dir = *P;
  if (Dir.empty())
    return makeError("target cmsis-nn needs a CMSIS-NN source tree: give "
                     "--cmsis-nn DIR or set CMSIS_NN_PATH");
  SmallString<256> Abs(Dir);
  sys::fs::make_absolute(Abs);
  return std::string(Abs);
}

std::string includeDir(StringRef Dir) {
  SmallString<256> Inc(Dir);
  sys::path::append(Inc, "Include");
  return std::string(Inc);
}

/// The int8/int16 sources of the CMSIS-NN tree \p Dir, sorted.
std::vector<std::string> cmsisSources(StringRef Dir) {
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
      // The float API is not used.
      if (Name.endswith(".c") && !Name.contains("_f16") &&
          !Name.contains("_f32") && !Name.contains("flt"))
        Files.push_back(F->path());
    }
  }
  llvm::sort(Files);
  return Files;
}

/// Copies the call-graph files (*.ci) of folder \p From into \p To, a folder
/// the user named when \p ToUser (driver::copyToUserFile: no file written
/// through a link).
Error copyCallGraphs(StringRef From, StringRef To, bool ToUser = false) {
  std::error_code EC;
  for (sys::fs::directory_iterator F(From, EC), End; F != End && !EC;
       F.increment(EC)) {
    if (!StringRef(F->path()).endswith(".ci"))
      continue;
    SmallString<256> Target(To);
    sys::path::append(Target, sys::path::filename(F->path()));
    if (ToUser) {
      if (Error E = driver::copyToUserFile(F->path(), Target))
        return E;
      continue;
    }
    if (std::error_code CE = sys::fs::copy_file(F->path(), Target))
      return createStringError(CE, "cannot copy " + F->path() + ": " +
                                       CE.message());
  }
  if (EC)
    return createStringError(EC, "cannot list " + From + ": " + EC.message());
  return Error::success();
}

/// Builds CMSIS-NN from \p Dir with \p Compiler and \p Flags into an archive
/// in the cache \p Root (or finds it there); the archive's path.
Expected<std::string> buildLibrary(StringRef Dir,
                                   ArrayRef<std::string> Compiler,
                                   ArrayRef<std::string> Flags,
                                   StringRef Archiver, StringRef Root,
                                   StringRef Version) {
  SmallString<256> Header(Dir);
  sys::path::append(Header, "Include", "arm_nnfunctions.h");
  if (!sys::fs::exists(Header))
    return makeError("not a CMSIS-NN source tree (no "
                     "Include/arm_nnfunctions.h): " +
                     Dir);
  std::vector<std::string> Sources = cmsisSources(Dir);
  driver::CacheKey K("cmsis-nn library 1");
  K.add(Version);
  for (const std::string &W : Compiler)
    K.add(W);
  for (const std::string &W : Flags)
    K.add(W);
  for (const std::string &F : Sources) {
    K.add(F);
    sys::fs::file_status St;
    if (!sys::fs::status(F, St)) {
      K.add(std::to_string(St.getSize()));
      K.add(std::to_string(
          St.getLastModificationTime().time_since_epoch().count()));
    }
  }
  SmallString<256> Entry(Root);
  sys::path::append(Entry, "cmsis-nn-" + K.str(24));
  SmallString<256> Lib(Entry);
  sys::path::append(Lib, "libcmsis-nn.a");
  if (sys::fs::exists(Lib))
    return std::string(Lib);
  Expected<std::string> Temp = driver::makeTempFolder(Root, "tmp-cmsis-");
  if (!Temp)
    return Temp.takeError();
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(*Temp); });
  SmallString<256> Log(*Temp);
  sys::path::append(Log, "build.log");
  std::vector<std::string> Cmd(Compiler.begin(), Compiler.end());
  Cmd.insert(Cmd.end(), Flags.begin(), Flags.end());
  Cmd.push_back("-I" + includeDir(Dir));
  Cmd.push_back("-c");
  Cmd.insert(Cmd.end(), Sources.begin(), Sources.end());
  if (Error E = driver::runIn(*Temp, Cmd, Log))
    return makeError("building CMSIS-NN: " + toString(std::move(E)));
  if (Error E = driver::runIn(*Temp, {Archiver.str(), "rcs", "libcmsis-nn.a"},
                              Log, "*.o"))
    return makeError("archiving CMSIS-NN: " + toString(std::move(E)));
  SmallString<256> Built(*Temp);
  sys::path::append(Built, "libcmsis-nn.a");
  sys::fs::create_directories(Entry);
  // The call-graph files, when the flags ask for them, stay with the library.
  if (Error E = copyCallGraphs(*Temp, Entry))
    return std::move(E);
  if (sys::fs::rename(Built, Lib) && !sys::fs::exists(Lib))
    return makeError("cannot move the CMSIS-NN library into " + Entry);
  return std::string(Lib);
}

/// Builds the bare-metal image of \p C for \p Cpu into the cache (or finds it
/// there); its path.
Expected<std::string> buildImage(const driver::Compilation &C,
                                 const driver::RunOptions &R,
                                 const cmsis::CpuInfo &Cpu) {
  if (Expected<std::string> Gcc =
          driver::findTool("arm-none-eabi-gcc", "gcc-arm-none-eabi");
      !Gcc)
    return Gcc.takeError();
  if (Expected<std::string> Ar =
          driver::findTool("arm-none-eabi-ar", "binutils-arm-none-eabi");
      !Ar)
    return Ar.takeError();
  Expected<std::string> Dir = cmsisDir(R);
  if (!Dir)
    return Dir.takeError();
  Expected<std::vector<emit::EmittedFile>> Device =
      cmsis::cortexMFiles(C.graph(), C.emitOptions(), Cpu);
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

  std::vector<std::string> Extra = {"arm-none-eabi-gcc"};
  Extra.insert(Extra.end(), Flags.begin(), Flags.end());
  if (R.DumpLayers)
    Extra.push_back("layers");
  for (const emit::EmittedFile &F : *Device)
    Extra.push_back(F.Name + "\n" + F.Text);
  Extra.push_back(*Dir);
  const std::string Root = driver::cacheRoot(R);
  SmallString<256> Entry(Root);
  sys::path::append(Entry,
                    driver::buildKey(C, "accelgen image cache 2", Extra).str());
  SmallString<256> Image(Entry);
  sys::path::append(Image, "image.elf");
  if (sys::fs::exists(Image))
    return std::string(Image);

  Expected<std::string> Lib =
      buildLibrary(*Dir, {"arm-none-eabi-gcc"}, Flags, "arm-none-eabi-ar",
                   Root, C.options().GeneratorVersion);
  if (!Lib)
    return Lib.takeError();
  Expected<std::string> Temp = driver::makeTempFolder(Root, "tmp-");
  if (!Temp)
    return Temp.takeError();
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(*Temp); });
  std::vector<emit::EmittedFile> Files = C.emitted().Files;
  Files.insert(Files.end(), Device->begin(), Device->end());
  if (Error E = driver::writeFiles(*Temp, Files))
    return std::move(E);
  std::vector<std::string> Args = {"arm-none-eabi-gcc"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  for (const char *F :
       {"-std=c99", "-nostartfiles", "-Wl,--gc-sections", "--specs=nosys.specs",
        "-Tcortex_m.ld", "-Wl,-Map=image.map", "-o", "image.elf"})
    Args.push_back(F);
  // The trace hook only when layers are dumped: an image without it is the
  // one a deployment would run, and the one measured.
  const std::string Upper = StringRef(driver::RunName).upper();
  if (R.DumpLayers) {
    Args.push_back("-D" + Upper + "_TRACE");
    Args.push_back("-D" + Upper + "_LAYERS");
  }
  Args.push_back("-I" + includeDir(*Dir));
  for (const emit::EmittedFile &F : Files)
    if (StringRef(F.Name).endswith(".c"))
      Args.push_back(F.Name);
  Args.push_back(*Lib);
  Args.push_back("-lm");
  SmallString<256> Log(*Temp);
  sys::path::append(Log, "compile.log");
  if (Error E = driver::runIn(*Temp, Args, Log)) {
    // A model too large for the board: say which memory, and how large.
    const std::string Msg = toString(std::move(E));
    const size_t Region = Msg.find("region `");
    if (Region != std::string::npos)
      return makeError(formatv(
          "building the image: the program does not fit the memory of QEMU's "
          "{0} ({1}: {2} bytes of code and constants, {3} bytes of RAM for "
          "data, the arena and the stack): {4}",
          Cpu.Machine, Cpu.Name, Cpu.CodeLength, Cpu.RamLength,
          Msg.substr(Region)));
    return makeError("building the image: " + Msg);
  }
  // The library's call graphs beside the image's (image.elf-*.ci).
  if (Error E = copyCallGraphs(sys::path::parent_path(*Lib), *Temp))
    return std::move(E);
  if (sys::fs::rename(*Temp, Entry) && !sys::fs::exists(Image))
    return makeError("cannot move the build into " + Entry);
  return std::string(Image);
}

/// Runs image \p Image under QEMU's machine for \p Cpu in a fresh folder
/// holding the inputs; what it wrote.
Expected<std::vector<emit::EmittedFile>>
runImage(const driver::Compilation &C, const driver::RunOptions &R,
         unsigned Timeout,
         const cmsis::CpuInfo &Cpu, StringRef Image) {
  Expected<std::string> Qemu =
      driver::findTool("qemu-system-arm", "qemu-system-arm");
  if (!Qemu)
    return Qemu.takeError();
  SmallString<256> Work;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("accelgen-run-qemu", Work))
    return makeError("cannot create a temporary folder: " + EC.message());
  auto Remove = make_scope_exit([&] { sys::fs::remove_directories(Work); });
  for (size_t I = 0; I < C.emitted().Inputs.size(); ++I) {
    std::string Name = formatv("input_{0}.bin", I);
    SmallString<256> From(R.InputsDir), To(Work);
    sys::path::append(From, Name);
    sys::path::append(To, Name);
    if (std::error_code EC = sys::fs::copy_file(From, To))
      return makeError(From + ": cannot copy: " + EC.message());
  }
  SmallString<256> Layers(Work);
  sys::path::append(Layers, "layers");
  sys::fs::create_directories(Layers);
  SmallString<256> Log(Work);
  sys::path::append(Log, "qemu.log");
  std::vector<std::string> Args = {"timeout",
                                   std::to_string(Timeout),
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
  if (Error E = driver::runIn(Work, Args, Log))
    return makeError(formatv("the image for {0} failed under QEMU ({1}): {2}",
                             Cpu.Name, Cpu.Machine, toString(std::move(E))));
  sys::fs::remove(Log);
  return driver::collectFiles(Work, "input_");
}

/// What \p C's choices may take.
cmsis::Kernels kernels(const driver::Compilation &C) {
  return C.options().LibraryCallsOnly ? cmsis::Kernels::LibraryOnly
                                      : cmsis::Kernels::Any;
}

class CmsisNnBackend final : public driver::Backend {
public:
  StringRef name() const override { return "cmsis-nn-calls"; }
  StringRef summary() const override {
    return "CMSIS-NN calls + CPU kernels";
  }

  // `--cpu cortex-m4` selects the target version of that CPU family, and a
  // bare-metal run.
  std::string cpuHelp() const override {
    std::vector<std::string> Names;
    for (const cmsis::CpuInfo &I : cmsis::cpus())
      Names.push_back(I.Name);
    return "a Cortex-M, whose bare-metal image `run` builds with "
           "arm-none-eabi-gcc and runs under qemu-system-arm (" +
           join(Names, ", ") + ")";
  }

  std::vector<driver::BackendOption> runOptions() const override {
    return {
        {TreeOption, "dir",
         "The CMSIS-NN source tree (its Include/ and Source/) the calls are "
         "built against; default $CMSIS_NN_PATH"},
        {TimeoutOption, "seconds",
         "With --cpu: seconds QEMU may run before it is stopped (default "
         "600)"},
        {SaveImageOption, "file",
         "With --cpu: also copy the built image (ELF) to this file, for "
         "measuring it (bench/cortex-m.sh)"},
        {SaveCallGraphOption, "dir",
         "With --cpu: also copy GCC's call-graph files of the image "
         "(-fcallgraph-info=su, one .ci per source file, CMSIS-NN's "
         "included) into this folder, for accelgen-stack-bound"},
    };
  }

  Expected<bool> selectCpu(StringRef Name,
                           driver::Compilation &C) const override {
    const cmsis::CpuInfo *Cpu = cmsis::findCpu(Name);
    if (!Cpu) {
      std::vector<std::string> Names;
      for (const cmsis::CpuInfo &I : cmsis::cpus())
        Names.push_back(I.Name);
      return makeError(formatv("unknown --cpu '{0}' (known: {1})", Name,
                               join(Names, ", ")));
    }
    const driver::ResolvedTarget &T = C.target();
    std::optional<unsigned> V = T.Info->findVersion(Cpu->Version);
    if (!V)
      return makeError(formatv("target {0} has no version {1} for --cpu {2}",
                               T.Info->name(), Cpu->Version, Name));
    if (T.VersionGiven && *V != T.Version)
      return makeError(formatv("--cpu {0} needs --target {1} (or {2}), not "
                               "'{3}'",
                               Name, T.Info->name(), T.Info->versionLabel(*V),
                               C.options().Target));
    C.setVersion(*V);
    C.setBackendState(std::shared_ptr<const void>(
        Cpu, [](const void *) { /* a static table's entry */ }));
    return true;
  }

  Error prepare(driver::Compilation &C) const override {
    const driver::ResolvedTarget &T = C.target();
    Expected<emit::Offload> O = cmsis::makeOffload(
        C.graph(), *T.Info, T.Version, C.options().Cascading, kernels(C));
    if (!O)
      return O.takeError();
    C.setOffload(std::make_shared<emit::Offload>(std::move(*O)), nullptr,
                 nullptr);
    if (T.FallbackBackend)
      T.FallbackBackend->prepareCpuKernels(C);
    return Error::success();
  }

  // The plan compile makes: each call's scratch in it, no operator whose
  // call runs on whole tensors inside a cascade.
  Expected<plan::CascadePlan>
  memoryPlan(driver::Compilation &C) const override {
    if (Error E = prepare(C))
      return std::move(E);
    if (C.offload()->Cascading)
      return *C.offload()->Cascading;
    const driver::ResolvedTarget &T = C.target();
    return cmsis::planMemory(
        C.graph(),
        cmsis::chooseFunctions(C.graph(), *T.Info, T.Version, kernels(C)),
        C.options().Cascading);
  }

  // Each call's scratch, the calls that run on whole tensors, tiles on
  // CMSIS-NN's wrappers.
  Expected<plan::CascadeOptions>
  cascadeOptions(driver::Compilation &C) const override {
    const driver::ResolvedTarget &T = C.target();
    return cmsis::cascadeOptions(
        C.graph(),
        cmsis::chooseFunctions(C.graph(), *T.Info, T.Version, kernels(C)),
        C.options().Cascading);
  }

  // On the host, CMSIS-NN's plain C paths.
  Error addToHostBuild(const driver::Compilation &C, const driver::RunOptions &R,
                       driver::HostBuild &B) const override {
    if (Error E = Backend::addToHostBuild(C, R, B))
      return E;
    Expected<std::string> Dir = cmsisDir(R);
    if (!Dir)
      return Dir.takeError();
    Expected<std::string> Lib =
        buildLibrary(*Dir, driver::compilerCommand(), {"-O2"}, "ar",
                     driver::cacheRoot(R), C.options().GeneratorVersion);
    if (!Lib)
      return Lib.takeError();
    B.Flags.push_back("-I" + includeDir(*Dir));
    B.Libraries.push_back(*Lib);
    B.KeyParts.push_back(*Dir);
    return Error::success();
  }

  Expected<std::vector<emit::EmittedFile>>
  run(const driver::Compilation &C,
      const driver::RunOptions &R) const override {
    const auto *Cpu = static_cast<const cmsis::CpuInfo *>(C.backendState());
    if (!Cpu)
      return driver::runOnHost(C, R);
    const std::string Seconds = R.value(TimeoutOption, "600");
    unsigned Timeout = 0;
    if (StringRef(Seconds).getAsInteger(10, Timeout) || Timeout == 0)
      return makeError(formatv("--{0} '{1}' is not a number of seconds",
                               TimeoutOption, Seconds));
    Expected<std::string> Image = buildImage(C, R, *Cpu);
    if (!Image)
      return Image.takeError();
    const std::string SaveImage = R.value(SaveImageOption);
    // Files and folders the user names are never written through links.
    if (!SaveImage.empty())
      if (Error E = driver::copyToUserFile(*Image, SaveImage))
        return makeError("--" + std::string(SaveImageOption) + " " +
                         toString(std::move(E)));
    const std::string SaveCallGraph = R.value(SaveCallGraphOption);
    if (!SaveCallGraph.empty()) {
      if (Error E = driver::makeUserFolder(SaveCallGraph))
        return makeError("--" + std::string(SaveCallGraphOption) + " " +
                         toString(std::move(E)));
      if (Error E = copyCallGraphs(sys::path::parent_path(*Image),
                                   SaveCallGraph, /*ToUser=*/true))
        return std::move(E);
    }
    return runImage(C, R, Timeout, *Cpu, *Image);
  }

  /// What the description places on CMSIS-NN but compile cannot call it
  /// for (a bias computed at run time on Helium, 16x8 weights whose sums
  /// can leave int32, parameters the reference builders refuse).
  std::optional<target::Rejection>
  reviewPlacement(const driver::Compilation &C, const ir::Graph &G,
                  size_t Op) const override {
    const driver::ResolvedTarget &T = C.target();
    const cmsis::OpChoice Choice =
        cmsis::chooseFunction(G, Op, *T.Info, T.Version, kernels(C));
    if (!Choice.Function.empty())
      return std::nullopt;
    return target::Rejection{"cmsis_call", Choice.Reason, ""};
  }

  // `--library-calls-only`: CMSIS-NN's functions, no generated kernels.
  bool allowsOperation(const driver::Compilation &C,
                       StringRef TargetOp) const override {
    return cmsis::allowed(kernels(C), TargetOp);
  }

  std::string ranOn(const driver::Compilation &C) const override {
    const auto *Cpu = static_cast<const cmsis::CpuInfo *>(C.backendState());
    return Cpu ? formatv("{0} under QEMU {1}", Cpu->Name, Cpu->Machine).str()
               : std::string();
  }
};

} // namespace

void registerCmsisNnCalls() {
  driver::BackendRegistry::add(std::make_unique<CmsisNnBackend>());
}

} // namespace backends
} // namespace accelgen
