//===- Plugin.cpp - Loading targets from shared libraries -----------------===//
//
// A module is loaded once and never unloaded: the target it registers keeps
// pointing at its code until the process ends. Every refusal is one line naming
// the module.
//
//===----------------------------------------------------------------------===//
#include "target/Plugin.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include <dlfcn.h>
#include <elf.h>

namespace accelgen {
namespace target {

static llvm::Error pluginError(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 ("plugin '" + Path + "': " + Why).str());
}

/// The first line of a loader message, without the module's path that
/// dlerror() repeats in front of it.
static std::string loaderMessage(llvm::StringRef Path, llvm::StringRef Msg) {
  Msg = Msg.split('\n').first.trim();
  if (Msg.startswith(Path))
    Msg = Msg.drop_front(Path.size()).ltrim(": ");
  return Msg.empty() ? std::string("unknown loader error") : Msg.str();
}

/// Why the ELF file \p Path cannot be mapped whole, or empty: a truncated
/// module (a copy cut short, a full disk) would be mapped past its end and
/// crash the process with SIGBUS at the first access, before any check.
static std::string truncation(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return "cannot read it: " + Buf.getError().message();
  llvm::StringRef Bytes = (*Buf)->getBuffer();
  const uint64_t Size = Bytes.size();
  if (Size < EI_NIDENT || !Bytes.startswith(ELFMAG))
    return ""; // Not ELF: the loader says what it is.
  if (Bytes[EI_CLASS] != ELFCLASS64 || Bytes[EI_DATA] != ELFDATA2LSB)
    return ""; // Not this host's kind: the loader refuses it.
  Elf64_Ehdr H;
  if (Size < sizeof(H))
    return "truncated: " + std::to_string(Size) + " bytes, shorter than "
           "its ELF header";
  std::memcpy(&H, Bytes.data(), sizeof(H));
  auto Beyond = [&](uint64_t Offset, uint64_t Count, uint64_t Each) {
    return Each != 0 && (Offset > Size || Count > (Size - Offset) / Each);
  };
  if (H.e_phentsize != sizeof(Elf64_Phdr) ||
      Beyond(H.e_phoff, H.e_phnum, H.e_phentsize))
    return "truncated: its program headers end past its " +
           std::to_string(Size) + " bytes";
  for (unsigned I = 0; I < H.e_phnum; ++I) {
    Elf64_Phdr P;
    std::memcpy(&P, Bytes.data() + H.e_phoff + I * sizeof(P), sizeof(P));
    if (P.p_type == PT_LOAD && Beyond(P.p_offset, 1, P.p_filesz))
      return "truncated: segment " + std::to_string(I) + " ends at byte " +
             std::to_string(P.p_offset + P.p_filesz) + " of a " +
             std::to_string(Size) + "-byte file";
  }
  if (H.e_shnum && Beyond(H.e_shoff, H.e_shnum, H.e_shentsize))
    return "truncated: its section headers end past its " +
           std::to_string(Size) + " bytes";
  return "";
}

/// The modules loaded so far, by real path: one reached twice (a folder
/// listed twice on the search path, --load of a module also on it) is
/// loaded once.
static llvm::StringSet<> &loadedModules() {
  static llvm::StringSet<> Loaded;
  return Loaded;
}

llvm::Error loadPlugin(llvm::StringRef Path) {
  if (!llvm::sys::fs::exists(Path))
    return pluginError(Path, "no such file");
  if (llvm::sys::fs::is_directory(Path))
    return pluginError(Path, "is a folder, not a module");
  llvm::SmallString<256> Real;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Real))
    return pluginError(Path, "cannot resolve its path: " + EC.message());
  if (loadedModules().count(Real))
    return llvm::Error::success();
  if (std::string Why = truncation(Path); !Why.empty())
    return pluginError(Path, "not a loadable module: " + Why);
  // dlopen() searches the library path for a name without a slash; a module
  // named on the command line is a file.
  llvm::SmallString<256> File(Path);
  if (!Path.contains('/'))
    File = ("./" + Path).str();
  std::string Err;
  llvm::sys::DynamicLibrary Lib =
      llvm::sys::DynamicLibrary::getPermanentLibrary(File.c_str(), &Err);
  if (!Lib.isValid())
    return pluginError(Path,
                       "not a loadable module: " + loaderMessage(File, Err));
  // LLVM closes its libraries in llvm_shutdown(), before the registry's
  // targets, whose code is in the module, are destroyed at exit: keep the
  // module mapped until the process ends.
  dlopen(File.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  auto *Entry = reinterpret_cast<PluginEntryFn *>(
      Lib.getAddressOfSymbol(PluginEntryPoint));
  if (!Entry)
    return pluginError(Path, llvm::Twine("exports no ") + PluginEntryPoint +
                                 "(); is it an accelgen target plugin "
                                 "(accelgen_add_target(... PLUGIN))?");
  const PluginInfo *Info = Entry();
  if (!Info)
    return pluginError(Path,
                       llvm::Twine(PluginEntryPoint) + "() returned null");
  if (Info->AbiVersion != PluginAbiVersion)
    return pluginError(Path, "built for plugin interface " +
                                 llvm::Twine(Info->AbiVersion) +
                                 ", this accelgen loads interface " +
                                 llvm::Twine(PluginAbiVersion) +
                                 "; rebuild it against this accelgen");
  llvm::StringRef Version =
      Info->AccelgenVersion ? Info->AccelgenVersion : "(none)";
  llvm::StringRef Fingerprint =
      Info->AbiFingerprint ? Info->AbiFingerprint : "(none)";
  if (Version != ACCELGEN_VERSION_STRING ||
      Fingerprint != ACCELGEN_ABI_FINGERPRINT)
    return pluginError(Path, "built against accelgen " + Version +
                                 " with SDK fingerprint " + Fingerprint +
                                 ", this is accelgen " +
                                 ACCELGEN_VERSION_STRING +
                                 " with fingerprint " +
                                 ACCELGEN_ABI_FINGERPRINT +
                                 "; rebuild it against this accelgen");
  llvm::StringRef Name = Info->Target ? Info->Target : "";
  if (Name.empty() || !Info->Create)
    return pluginError(Path, "names no target or no factory");
  if (TargetRegistry::contains(Name)) {
    std::string Origin = TargetRegistry::origin(Name);
    return pluginError(Path,
                       "target '" + Name + "' is already " +
                           (Origin.empty() ? std::string("built in")
                                           : "loaded from '" + Origin + "'"));
  }
  // Built once here, so that a factory that fails is this module's error
  // and not a crash of whichever command first lists the targets.
  std::unique_ptr<TargetInfo> Built = Info->Create();
  if (!Built)
    return pluginError(Path, "its factory for target '" + Name +
                                 "' returned no target");
  if (Built->name() != Name)
    return pluginError(Path, "names target '" + Name +
                                 "' but its factory builds '" +
                                 Built->name() + "'");
  // Its kernel families, into accelgen's registry, all or none: the module
  // is refused at the first family the registry refuses.
  if (Info->KernelFamilies) {
    std::vector<kernels::KernelFamilyRegistration> All =
        Info->KernelFamilies();
    for (kernels::KernelFamilyRegistration &R : All)
      R.Origin = ("plugin " + Path).str();
    if (llvm::Error E = kernels::registerKernelFamilies(std::move(All)))
      return pluginError(Path, llvm::toString(std::move(E)));
  }
  TargetRegistry::add(Name, Info->Create, Path);
  loadedModules().insert(Real);
  return llvm::Error::success();
}

llvm::Error loadPluginsFromPath(llvm::StringRef SearchPath) {
  llvm::SmallVector<llvm::StringRef, 4> Dirs;
  SearchPath.split(Dirs, ':', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Dir : Dirs) {
    if (!llvm::sys::fs::is_directory(Dir))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          ("ACCELGEN_PLUGIN_PATH: '" + Dir + "' is not a folder").str());
    std::vector<std::string> Modules;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (Name.startswith("accelgen-") && Name.endswith(".so"))
        Modules.push_back(It->path());
    }
    if (EC)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          ("ACCELGEN_PLUGIN_PATH: cannot list '" + Dir + "': " + EC.message())
              .str());
    std::sort(Modules.begin(), Modules.end());
    for (const std::string &M : Modules)
      if (llvm::Error E = loadPlugin(M))
        return E;
  }
  return llvm::Error::success();
}

} // namespace target
} // namespace accelgen
