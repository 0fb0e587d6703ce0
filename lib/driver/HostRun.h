//===- HostRun.h - Building emitted C and running it -------------*- C++ -*-===//
//
// What `accelgen run` does after compiling, for any backend: build the
// emitted C with a host main.c using the system C compiler (`cc`, or $CC)
// plus what the backend adds (HostBuild), run the program on
// IN_DIR/input_<i>.bin and collect what it wrote. The helpers here serve
// backends that build for another machine too (a bare-metal image).
//
// Built programs are cached under $XDG_CACHE_HOME/accelgen (or
// ~/.cache/accelgen, or RunOptions::CacheDir), one folder per hash of the
// model's bytes, the target, accelgen's version, the compiler and the
// generated sources themselves, so a rebuilt accelgen with changed kernels
// never reuses a stale program. A folder is built under a temporary name and
// renamed into place, so concurrent runs of the same model do not see
// half-built entries.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_DRIVER_HOSTRUN_H
#define ACCELGEN_DRIVER_HOSTRUN_H

#include "emit/ModelEmitter.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <string>
#include <vector>

namespace accelgen {
namespace driver {

class Compilation;
struct RunOptions;

/// The symbol prefix of the programs `run` builds.
constexpr const char *RunName = "model";

/// Builds \p C's emitted C for this machine (or finds it in the cache) and
/// runs it on R.InputsDir; the files it wrote.
llvm::Expected<std::vector<emit::EmittedFile>>
runOnHost(const Compilation &C, const RunOptions &R);

/// The folder built programs are cached in: R.CacheDir, else
/// $XDG_CACHE_HOME/accelgen, else ~/.cache/accelgen; absolute.
std::string cacheRoot(const RunOptions &R);

/// The C compiler command: $CC split at blanks, or "cc".
std::vector<std::string> compilerCommand();

/// A cache key: every part added with its length, hashed.
class CacheKey {
public:
  explicit CacheKey(llvm::StringRef Kind);
  void add(llvm::StringRef S);
  /// The first \p Digits hexadecimal digits of the hash.
  std::string str(size_t Digits = 32);

private:
  llvm::SHA256 H;
};

/// The cache key of \p C's build: its model, target, generated files,
/// accelgen's version, plus \p Extra.
CacheKey buildKey(const Compilation &C, llvm::StringRef Kind,
                  llvm::ArrayRef<std::string> Extra);

/// ": " and the first line of the file at \p Path that says something (an
/// "error" line if there is one), for a one-line error message; "" if there
/// is none.
std::string firstLineOf(llvm::StringRef Path);

/// Runs \p Argv (its first word found on PATH) in folder \p Dir through
/// /bin/sh with \p Suffix appended to the command, output to \p Log; an
/// error naming the tool and the log's first error line.
llvm::Error runIn(llvm::StringRef Dir, llvm::ArrayRef<std::string> Argv,
                  llvm::StringRef Log, llvm::StringRef Suffix = "");

/// A tool found on PATH, or an error saying which package has it.
llvm::Expected<std::string> findTool(llvm::StringRef Name,
                                     llvm::StringRef Package);

/// Writes \p Files into \p Dir, creating it; files whose content is already
/// there are left untouched.
llvm::Error writeFiles(llvm::StringRef Dir,
                       llvm::ArrayRef<emit::EmittedFile> Files);

/// Every regular file below \p Dir whose path relative to it does not start
/// with \p Skip, named by that path, with its bytes.
llvm::Expected<std::vector<emit::EmittedFile>>
collectFiles(llvm::StringRef Dir, llvm::StringRef Skip = "");

/// Removes the folders in \p Root named \p Prefix... last changed more than
/// \p MaxAge ago: what builds that were killed left behind.
void removeAbandonedTempFolders(llvm::StringRef Root, llvm::StringRef Prefix,
                                std::chrono::seconds MaxAge);

/// A fresh folder in the cache root \p Root ("tmp-…"), removed by the
/// caller; an error if it cannot be made. Folders of the same prefix an hour
/// old are removed first (removeAbandonedTempFolders).
llvm::Expected<std::string> makeTempFolder(llvm::StringRef Root,
                                           llvm::StringRef Prefix);

} // namespace driver
} // namespace accelgen

#endif // ACCELGEN_DRIVER_HOSTRUN_H
