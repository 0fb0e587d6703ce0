//===- OutputFolder.h - Writing into folders the user names -----*- C++ -*-===//
//
// How `accelgen compile -o DIR`, `accelgen run --outputs DIR` and
// `accelgen explain --dot FILE` write, so that no run loses a user's data:
// - Every file is written to a temporary file beside it and renamed into
//   place, so a reader never sees half a file.
// - A folder's files are all staged in a temporary folder inside it first;
//   only when every one is written are they moved into place, so a failed
//   write leaves the folder as it was (no model.c of the new model beside
//   report.json of the old one).
// - A symbolic link inside the folder is never written through (it could
//   point anywhere): it is an error.
// - A file accelgen did not write is never replaced: the folder's manifest,
//   `.accelgen-files`, lists what accelgen wrote there; a file of the same
//   name that is not listed is an error. Files listed by the previous run and
//   not written again are removed.
// docs/compile.md describes this for users.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_DRIVER_OUTPUTFOLDER_H
#define ACCELGEN_DRIVER_OUTPUTFOLDER_H

#include "emit/ModelEmitter.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace accelgen {
namespace driver {

/// The manifest of the files accelgen wrote into a folder.
constexpr const char *ManifestName = ".accelgen-files";
/// The file a writer of the folder holds a lock on.
constexpr const char *LockName = ".accelgen-lock";

/// Writes \p Files (names relative to \p Dir, '/'-separated) into \p Dir,
/// creating it, as the file comment says; files whose content is already
/// there keep their time stamps. Errors name the file.
llvm::Error writeOutputFolder(llvm::StringRef Dir,
                              llvm::ArrayRef<emit::EmittedFile> Files);

/// Writes \p Text to \p Path through a temporary file beside it renamed into
/// place (replacing a symbolic link rather than writing through it).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// Writes \p Bytes to \p Path, a file the user named on the command line
/// (`explain --dot`, `run --save-image`): a folder there is an error, a
/// device or pipe (/dev/null) is written into and never replaced, anything
/// else (a symbolic link included, which is replaced) is written as by
/// writeFileAtomically.
llvm::Error writeUserFile(llvm::StringRef Path, llvm::StringRef Bytes);

/// Copies the file \p From to \p To as writeUserFile writes.
llvm::Error copyToUserFile(llvm::StringRef From, llvm::StringRef To);

/// Creates folder \p Dir, the user named, unless it exists; a symbolic link
/// or a file there is an error.
llvm::Error makeUserFolder(llvm::StringRef Dir);

} // namespace driver
} // namespace accelgen

#endif // ACCELGEN_DRIVER_OUTPUTFOLDER_H
