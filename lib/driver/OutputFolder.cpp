//===- OutputFolder.cpp - Writing into folders the user names -------------===//
//
// Staging, manifest and symbolic-link checks of OutputFolder.h.
//
//===----------------------------------------------------------------------===//
#include "driver/OutputFolder.h"

#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace accelgen {
namespace driver {

namespace {

Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str().c_str());
}

std::string pathIn(StringRef Dir, StringRef Name) {
  SmallString<256> P(Dir);
  sys::path::append(P, Name);
  return std::string(P);
}

/// True if \p Name, '/'-separated, names something inside a folder: not
/// empty, not absolute, no "." or ".." component.
bool isInside(StringRef Name) {
  if (Name.empty() || Name.startswith("/"))
    return false;
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, '/');
  return llvm::none_of(Parts, [](StringRef P) {
    return P.empty() || P == "." || P == "..";
  });
}

/// The names the manifest of \p Dir lists (none if there is no manifest);
/// a name reaching outside \p Dir is no file accelgen wrote there.
std::set<std::string> readManifest(StringRef Dir) {
  std::set<std::string> Names;
  auto Buf = support::readInputFile(pathIn(Dir, ManifestName),
                                    support::MaxDescriptionBytes);
  if (!Buf) {
    consumeError(Buf.takeError());
    return Names;
  }
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    if (!L.startswith("#") && isInside(L))
      Names.insert(L.str());
  return Names;
}

/// Checks that \p Name can be written in \p Dir: no component is a symbolic
/// link, and an existing file is one accelgen wrote.
Error checkTarget(StringRef Dir, StringRef Name,
                  const std::set<std::string> &Ours) {
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, '/');
  std::string Path(Dir), Shown;
  for (size_t I = 0; I < Parts.size(); ++I) {
    Path = pathIn(Path, Parts[I]);
    Shown = Shown.empty() ? Parts[I].str() : Shown + "/" + Parts[I].str();
    sys::fs::file_status St;
    if (sys::fs::status(Path, St, /*Follow=*/false))
      return Error::success(); // Missing: nothing to check below it.
    if (St.type() == sys::fs::file_type::symlink_file)
      return failure(Shown + " is a symbolic link; accelgen does not write "
                             "through links (remove it)");
    bool Last = I + 1 == Parts.size();
    if (!Last && St.type() != sys::fs::file_type::directory_file)
      return failure(Shown + " is not a folder");
    if (Last && St.type() != sys::fs::file_type::regular_file)
      return failure(Shown + " exists and is not a regular file");
    if (Last && !Ours.count(Name.str()))
      return failure(Shown +
                     " exists and was not written by accelgen (it is "
                     "not in " +
                     ManifestName + "); remove it or choose another folder");
  }
  return Error::success();
}

/// Creates the folders \p Path is in; none for a bare file name.
Error createFolderOf(StringRef Path) {
  StringRef Parent = sys::path::parent_path(Path);
  if (Parent.empty())
    return Error::success();
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return failure("cannot create the folder of " + Path + ": " + EC.message());
  return Error::success();
}

Error writeNew(StringRef Path, StringRef Text) {
  if (Error E = createFolderOf(Path))
    return E;
  if (std::error_code EC = support::writeWholeFile(Path, Text))
    return failure("cannot write " + Path + ": " + EC.message());
  return Error::success();
}

bool sameContent(StringRef Path, StringRef Text) {
  auto Old = support::readInputFile(Path, support::MaxModelBytes);
  if (!Old) {
    consumeError(Old.takeError());
    return false;
  }
  return (*Old)->getBuffer() == Text;
}

} // namespace

Error writeFileAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  SmallString<256> Temp;
  sys::fs::createUniquePath(Model, Temp, /*MakeAbsolute=*/false);
  if (Error E = writeNew(Temp, Text))
    return E;
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return failure("cannot write " + Path + ": " + EC.message());
  }
  return Error::success();
}

Error writeOutputFolder(StringRef Dir, ArrayRef<emit::EmittedFile> Files) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return failure("cannot create the folder: " + EC.message());
  // One writer at a time: the lock is released when the file is closed.
  if (Error E = checkTarget(Dir, LockName, {LockName}))
    return E;
  int LockFD;
  if (std::error_code EC = sys::fs::openFileForReadWrite(
          pathIn(Dir, LockName), LockFD, sys::fs::CD_OpenAlways,
          sys::fs::OF_None))
    return failure("cannot open " + pathIn(Dir, LockName) + ": " +
                   EC.message());
  auto Unlock = make_scope_exit([&] { sys::Process::SafelyCloseFileDescriptor(LockFD); });
  if (std::error_code EC = sys::fs::lockFile(LockFD))
    return failure("cannot lock " + pathIn(Dir, LockName) + ": " +
                   EC.message());
  std::set<std::string> Previous = readManifest(Dir);
  // Everything is checked before anything is written.
  for (const emit::EmittedFile &F : Files) {
    if (!isInside(F.Name))
      return failure("refusing to write '" + F.Name + "' outside " + Dir);
    if (Error E = checkTarget(Dir, F.Name, Previous))
      return E;
  }
  if (Error E = checkTarget(Dir, ManifestName, {ManifestName}))
    return E;

  // Stage every changed file, then move them into place.
  SmallString<256> Stage;
  sys::fs::createUniquePath(pathIn(Dir, ".accelgen-stage-%%%%%%"), Stage,
                            /*MakeAbsolute=*/false);
  auto Cleanup = make_scope_exit([&] { sys::fs::remove_directories(Stage); });
  std::vector<const emit::EmittedFile *> Changed;
  for (const emit::EmittedFile &F : Files) {
    if (sameContent(pathIn(Dir, F.Name), F.Text))
      continue; // Unchanged files keep their time stamps.
    if (Error E = writeNew(pathIn(Stage, F.Name), F.Text))
      return E;
    Changed.push_back(&F);
  }
  std::string Manifest = "# Files accelgen wrote into this folder; it "
                         "replaces only these (docs/compile.md).\n";
  std::set<std::string> Now;
  for (const emit::EmittedFile &F : Files)
    Now.insert(F.Name);
  for (const std::string &N : Now)
    Manifest += N + "\n";
  if (Error E = writeNew(pathIn(Stage, ManifestName), Manifest))
    return E;
  for (const emit::EmittedFile *F : Changed) {
    std::string To = pathIn(Dir, F->Name);
    if (Error E = createFolderOf(To))
      return E;
    if (std::error_code EC = sys::fs::rename(pathIn(Stage, F->Name), To))
      return failure("cannot write " + To + ": " + EC.message());
  }
  if (std::error_code EC = sys::fs::rename(pathIn(Stage, ManifestName),
                                           pathIn(Dir, ManifestName)))
    return failure("cannot write " + pathIn(Dir, ManifestName) + ": " +
                   EC.message());
  // Files of the previous run that this one did not write.
  for (const std::string &Old : Previous)
    if (!Now.count(Old)) {
      if (Error E = checkTarget(Dir, Old, Previous))
        consumeError(std::move(E)); // Not ours any more: leave it.
      else
        sys::fs::remove(pathIn(Dir, Old));
    }
  return Error::success();
}

Error writeUserFile(StringRef Path, StringRef Bytes) {
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St, /*Follow=*/false)) {
    switch (St.type()) {
    case sys::fs::file_type::directory_file:
      return failure(Path + " is a folder");
    case sys::fs::file_type::symlink_file: // replaced, not written through
    case sys::fs::file_type::regular_file:
    case sys::fs::file_type::file_not_found:
      break;
    default: {
      // A device or a pipe: written into, never replaced.
      if (std::error_code EC = support::writeWholeFile(Path, Bytes))
        return failure("cannot write " + Path + ": " + EC.message());
      return Error::success();
    }
    }
  }
  return writeFileAtomically(Path, Bytes);
}

Error copyToUserFile(StringRef From, StringRef To) {
  auto Buf = MemoryBuffer::getFile(From, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return failure("cannot read " + From + ": " + Buf.getError().message());
  return writeUserFile(To, (*Buf)->getBuffer());
}

Error makeUserFolder(StringRef Dir) {
  sys::fs::file_status St;
  if (!sys::fs::status(Dir, St, /*Follow=*/false)) {
    if (St.type() == sys::fs::file_type::symlink_file)
      return failure(Dir + " is a symbolic link; accelgen does not write "
                           "through links (remove it)");
    if (St.type() != sys::fs::file_type::directory_file)
      return failure(Dir + " exists and is not a folder");
    return Error::success();
  }
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return failure("cannot create " + Dir + ": " + EC.message());
  return Error::success();
}

} // namespace driver
} // namespace accelgen
