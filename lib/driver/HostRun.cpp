//===- HostRun.cpp - Building emitted C and running it --------------------===//
#include "driver/HostRun.h"
#include "driver/Compilation.h"
#include "emit/KernelFiles.h"

#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace accelgen {
namespace driver {

namespace {

/// The program's file name in its cache folder.
constexpr const char *ProgramName = "model-run";

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

} // namespace

std::string cacheRoot(const RunOptions &R) {
  SmallString<256> P;
  if (!R.CacheDir.empty()) {
    P = R.CacheDir;
  } else if (Optional<std::string> X = sys::Process::GetEnv("XDG_CACHE_HOME");
             X && !X->empty()) {
    P = *X;
    sys::path::append(P, "accelgen");
  } else if (Optional<std::string> H = sys::Process::GetEnv("HOME");
             H && !H->empty()) {
    P = *H;
    sys::path::append(P, ".cache", "accelgen");
  } else {
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, P);
    sys::path::append(P, "accelgen");
  }
  sys::fs::make_absolute(P);
  return std::string(P);
}

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

CacheKey::CacheKey(StringRef Kind) { add(Kind); }

void CacheKey::add(StringRef S) {
  H.update(std::to_string(S.size()));
  H.update(":");
  H.update(S);
}

std::string CacheKey::str(size_t Digits) {
  return toHex(arrayRefFromStringRef(H.final()), /*LowerCase=*/true)
      .substr(0, Digits);
}

CacheKey buildKey(const Compilation &C, StringRef Kind,
                  ArrayRef<std::string> Extra) {
  CacheKey K(Kind);
  K.add(C.options().GeneratorVersion);
  K.add(C.emitOptions().Target);
  K.add(StringRef(reinterpret_cast<const char *>(C.bytes().data()),
                  C.bytes().size()));
  for (const emit::EmittedFile &F : C.emitted().Files) {
    K.add(F.Name);
    K.add(F.Text);
  }
  for (const std::string &E : Extra)
    K.add(E);
  return K;
}

std::string firstLineOf(StringRef Path) {
  auto Buf = support::readInputFile(Path, support::MaxDescriptionBytes);
  if (!Buf) {
    consumeError(Buf.takeError());
    return "";
  }
  SmallVector<StringRef, 16> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  // The first line saying what went wrong: a compiler's error or a linker's
  // undefined reference, before the driver's summary ("collect2: error: ld
  // returned 1 exit status"), which says only that something did.
  StringRef First, Summary;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.empty())
      continue;
    if (First.empty())
      First = L;
    if (L.startswith("collect2:")) {
      if (Summary.empty())
        Summary = L;
      continue;
    }
    // The linker's own words when the image outgrows a memory region: the
    // overflow's size, which its "will not fit" lines before it lack.
    if (L.contains("overflowed by")) {
      Summary = L;
      break;
    }
    if (L.contains("will not fit in region")) {
      Summary = L;
      continue;
    }
    if (L.contains("error") || L.contains("undefined reference")) {
      Summary = L;
      break;
    }
  }
  if (!Summary.empty())
    First = Summary;
  return First.empty() ? "" : ": " + First.take_front(300).str();
}

Error runIn(StringRef Dir, ArrayRef<std::string> Argv, StringRef Log,
            StringRef Suffix) {
  ErrorOr<std::string> Tool = sys::findProgramByName(Argv.front());
  if (!Tool)
    return makeError("cannot find '" + Argv.front() + "'");
  ErrorOr<std::string> Sh = sys::findProgramByName("sh");
  if (!Sh)
    return makeError("cannot find 'sh'");
  std::vector<std::string> Args = {
      *Sh, "-c", ("cd \"$0\" && \"$@\" " + Suffix).str(), Dir.str(), *Tool};
  Args.insert(Args.end(), Argv.begin() + 1, Argv.end());
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  Optional<StringRef> Redirects[] = {StringRef(""), Log, Log};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Sh, Refs, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return makeError(formatv("{0} failed{1}{2}", Argv.front(),
                             ErrMsg.empty() ? "" : ": " + ErrMsg,
                             firstLineOf(Log)));
  return Error::success();
}

Expected<std::string> findTool(StringRef Name, StringRef Package) {
  ErrorOr<std::string> P = sys::findProgramByName(Name);
  if (!P)
    return makeError(
        formatv("cannot find '{0}' (install {1})", Name, Package).str());
  return *P;
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
    if (std::error_code EC = support::writeWholeFile(Path, F.Text))
      return createStringError(EC,
                               "cannot write " + F.Name + ": " + EC.message());
  }
  return Error::success();
}

Expected<std::vector<emit::EmittedFile>> collectFiles(StringRef Dir,
                                                      StringRef Skip) {
  std::vector<emit::EmittedFile> Files;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = StringRef(It->path()).drop_front(Dir.size() + 1);
    if (!sys::fs::is_regular_file(It->path()) ||
        (!Skip.empty() && Name.startswith(Skip)))
      continue;
    auto Buf = support::readInputFile(It->path(), support::MaxModelBytes);
    if (!Buf)
      return createStringError(inconvertibleErrorCode(),
                               It->path() + ": " + toString(Buf.takeError()));
    Files.push_back({Name.str(), (*Buf)->getBuffer().str()});
  }
  if (EC)
    return createStringError(EC, "cannot list " + Dir + ": " + EC.message());
  return Files;
}

void removeAbandonedTempFolders(StringRef Root, StringRef Prefix,
                                std::chrono::seconds MaxAge) {
  const auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  std::vector<std::string> Old;
  for (sys::fs::directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!sys::path::filename(It->path()).startswith(Prefix))
      continue;
    sys::fs::file_status St;
    if (sys::fs::status(It->path(), St, /*Follow=*/false) ||
        St.type() != sys::fs::file_type::directory_file)
      continue;
    if (Now - St.getLastModificationTime() > MaxAge)
      Old.push_back(It->path());
  }
  for (const std::string &P : Old)
    sys::fs::remove_directories(P, /*IgnoreErrors=*/true);
}

Expected<std::string> makeTempFolder(StringRef Root, StringRef Prefix) {
  if (std::error_code EC = sys::fs::create_directories(Root))
    return createStringError(EC, "cannot create the cache folder " + Root +
                                     ": " + EC.message());
  // A build killed (Ctrl-C, a full disk) leaves its folder behind; an hour
  // on, no build still writes it.
  removeAbandonedTempFolders(Root, Prefix, std::chrono::hours(1));
  SmallString<256> Model(Root), Temp;
  sys::path::append(Model, Prefix + "%%%%%%%%%%%%");
  sys::fs::createUniquePath(Model, Temp, /*MakeAbsolute=*/true);
  if (std::error_code EC = sys::fs::create_directory(Temp))
    return createStringError(EC, "cannot create " + Temp + ": " + EC.message());
  return std::string(Temp);
}

namespace {

/// The local headers \p Text includes (`#include "x.h"`), and theirs, found
/// in \p Files by name, added to \p Key in name order: with the source's
/// own text they decide its object (the emitted folders are flat and every
/// other include is the C library's).
void addIncludedHeaders(StringRef Text, const StringMap<StringRef> &Files,
                        CacheKey &Key) {
  std::set<std::string> Seen;
  std::vector<StringRef> Work = {Text};
  while (!Work.empty()) {
    StringRef T = Work.back();
    Work.pop_back();
    for (const std::string &Name : emit::quotedIncludes(T)) {
      auto It = Files.find(Name);
      if (It != Files.end() && Seen.insert(Name).second)
        Work.push_back(It->second);
    }
  }
  for (const std::string &Name : Seen) {
    Key.add(Name);
    Key.add(Files.lookup(Name));
  }
}

/// Compiles each source of \p Files with \p Compile (the compiler and its
/// flags, without -c and -o; \p KeyParts is what else decides the objects,
/// HostBuild::KeyParts) into an object in the cache's objects/ folder,
/// or finds it there: the reference kernels and the functional model are the
/// same sources in most programs, so most programs compile only their
/// model.c and main.c. \p Temp holds the written files and the logs. The
/// objects' paths, in the order of the sources.
Expected<std::vector<std::string>>
compileObjects(ArrayRef<std::string> Compile, ArrayRef<std::string> KeyParts,
               StringRef CC, StringRef Root, StringRef Temp,
               ArrayRef<emit::EmittedFile> Files) {
  StringMap<StringRef> ByName;
  for (const emit::EmittedFile &F : Files)
    ByName[F.Name] = F.Text;
  SmallString<256> Objects(Root);
  sys::path::append(Objects, "objects");
  if (std::error_code EC = sys::fs::create_directories(Objects))
    return makeError("cannot create " + Objects + ": " + EC.message());
  std::vector<std::string> Out;
  for (const emit::EmittedFile &F : Files) {
    if (!StringRef(F.Name).endswith(".c"))
      continue;
    CacheKey Key("accelgen object 1");
    for (const std::string &A : Compile)
      Key.add(A);
    for (const std::string &A : KeyParts)
      Key.add(A);
    Key.add(F.Name);
    Key.add(F.Text);
    addIncludedHeaders(F.Text, ByName, Key);
    SmallString<256> Object(Objects);
    sys::path::append(Object, Key.str() + ".o");
    Out.push_back(std::string(Object));
    if (sys::fs::exists(Object))
      continue;
    SmallString<256> Source(Temp), Built(Temp), Log(Temp);
    sys::path::append(Source, F.Name);
    sys::path::append(Built, F.Name + ".o");
    sys::path::append(Log, "compile.log");
    std::vector<std::string> Args(Compile.begin(), Compile.end());
    Args[0] = CC.str();
    Args.insert(Args.end(), {"-c", std::string(Source), "-o",
                             std::string(Built)});
    std::vector<StringRef> Argv(Args.begin(), Args.end());
    Optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                       StringRef(Log)};
    std::string ErrMsg;
    if (sys::ExecuteAndWait(CC, Argv, None, Redirects, 0, 0, &ErrMsg) != 0)
      return makeError(formatv("the C compiler failed on {0} ({1}){2}{3}",
                               F.Name, Compile.front(),
                               ErrMsg.empty() ? "" : ": " + ErrMsg,
                               firstLineOf(Log)));
    // Another process may have published the same object first: the bytes
    // are the same.
    if (sys::fs::rename(Built, Object) && !sys::fs::exists(Object))
      return makeError("cannot move an object into " + Objects);
  }
  return Out;
}

/// Builds the program into the cache (or finds it there); its path.
Expected<std::string> buildProgram(const Compilation &C, const RunOptions &R,
                                   const emit::EmittedFile &Main) {
  HostBuild B;
  if (Error E = C.target().Backend->addToHostBuild(C, R, B))
    return std::move(E);
  std::vector<std::string> Compiler = compilerCommand();
  std::vector<std::string> Extra = Compiler;
  Extra.push_back(Main.Text);
  Extra.insert(Extra.end(), B.Flags.begin(), B.Flags.end());
  Extra.insert(Extra.end(), B.KeyParts.begin(), B.KeyParts.end());
  const std::string Root = cacheRoot(R);
  SmallString<256> Entry(Root);
  sys::path::append(Entry, buildKey(C, "accelgen run cache 2", Extra).str());
  SmallString<256> Program(Entry);
  sys::path::append(Program, ProgramName);
  if (sys::fs::can_execute(Program))
    return std::string(Program);

  ErrorOr<std::string> CC = sys::findProgramByName(Compiler.front());
  if (!CC)
    return makeError("cannot find the C compiler '" + Compiler.front() +
                     "' (set CC)");
  Expected<std::string> Temp = makeTempFolder(Root, "tmp-");
  if (!Temp)
    return Temp.takeError();
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(*Temp); });

  std::vector<emit::EmittedFile> Files = C.emitted().Files;
  Files.push_back(Main);
  if (Error E = writeFiles(*Temp, Files))
    return std::move(E);

  auto InTemp = [&](StringRef Name) {
    SmallString<256> P(*Temp);
    sys::path::append(P, Name);
    return std::string(P);
  };
  std::vector<std::string> Compile = Compiler;
  Compile.push_back("-std=c99");
  Compile.insert(Compile.end(), B.Flags.begin(), B.Flags.end());
  Compile.push_back("-D" + StringRef(RunName).upper() + "_TRACE");
  Expected<std::vector<std::string>> Objects =
      compileObjects(Compile, B.KeyParts, *CC, Root, *Temp, Files);
  if (!Objects)
    return Objects.takeError();

  std::vector<std::string> Args = Compiler;
  Args[0] = *CC;
  Args.insert(Args.end(), B.Flags.begin(), B.Flags.end());
  Args.push_back("-o");
  Args.push_back(InTemp(ProgramName));
  Args.insert(Args.end(), Objects->begin(), Objects->end());
  Args.insert(Args.end(), B.Libraries.begin(), B.Libraries.end());
  Args.push_back("-lm");

  std::string Log = InTemp("link.log");
  std::vector<StringRef> Argv(Args.begin(), Args.end());
  Optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                     StringRef(Log)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*CC, Argv, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return makeError(formatv("the C compiler failed to link ({0}){1}{2}", Args[0],
                             ErrMsg.empty() ? "" : ": " + ErrMsg,
                             firstLineOf(Log)));

  // Publish the folder; another process may have done so first.
  if (sys::fs::rename(*Temp, Entry)) {
    if (!sys::fs::can_execute(Program))
      return makeError("cannot move the build into " + Entry);
  }
  return std::string(Program);
}

} // namespace

Expected<std::vector<emit::EmittedFile>> runOnHost(const Compilation &C,
                                                   const RunOptions &R) {
  Expected<emit::EmittedFile> Main = C.hostMain();
  if (!Main)
    return Main.takeError();
  Expected<std::string> Program = buildProgram(C, R, *Main);
  if (!Program)
    return Program.takeError();

  // The program writes into a fresh folder; the caller moves its files.
  SmallString<256> Produced;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("accelgen-run-outputs", Produced))
    return makeError("cannot create a temporary folder: " + EC.message());
  auto RemoveProduced =
      make_scope_exit([&] { sys::fs::remove_directories(Produced); });
  SmallString<256> Layers(Produced);
  sys::path::append(Layers, "layers");
  if (R.DumpLayers)
    if (std::error_code EC = sys::fs::create_directories(Layers))
      return makeError("cannot create a temporary folder: " + EC.message());

  SmallString<256> Err;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("accelgen-run", "txt", Err))
    return makeError("cannot create a temporary file: " + EC.message());
  auto RemoveErr = make_scope_exit([&] { sys::fs::remove(Err); });
  std::vector<StringRef> Argv = {*Program, R.InputsDir, Produced};
  if (R.DumpLayers)
    Argv.push_back("--layers");
  Optional<StringRef> Redirects[] = {StringRef(""), None, StringRef(Err)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(*Program, Argv, None, Redirects, 0, 0, &ErrMsg);
  if (RC != 0)
    return makeError(formatv("the compiled model ({0}) failed{1}{2}", *Program,
                             RC < 0 ? ": " + ErrMsg
                                    : formatv(" with exit code {0}", RC).str(),
                             firstLineOf(Err)));
  return collectFiles(Produced);
}

} // namespace driver
} // namespace accelgen
