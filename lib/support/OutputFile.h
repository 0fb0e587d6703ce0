//===- OutputFile.h - Writing a whole file ----------------------*- C++ -*-===//
//
// Writes bytes to a path and reports what went wrong (a full disk, a closed
// pipe) as an error code, never as LLVM's fatal "IO failure on output
// stream" from a stream destroyed with an error.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_SUPPORT_OUTPUTFILE_H
#define ACCELGEN_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <system_error>

namespace accelgen {
namespace support {

/// Writes \p Bytes to \p Path (created or truncated); the error of opening,
/// writing or closing it, if any.
inline std::error_code writeWholeFile(llvm::StringRef Path,
                                      llvm::StringRef Bytes) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    return EC;
  OS << Bytes;
  OS.close();
  EC = OS.error();
  OS.clear_error();
  return EC;
}

} // namespace support
} // namespace accelgen

#endif // ACCELGEN_SUPPORT_OUTPUTFILE_H
