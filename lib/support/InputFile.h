//===- InputFile.h - Reading input files within a size limit ----*- C++ -*-===//
//
// Every file accelgen reads (models, target descriptions, templates, the
// outputs of the programs `accelgen run` builds) is read through readInputFile,
// which never holds more than its limit plus one byte: a regular file is
// checked by its size before it is read, anything else (a pipe, a device such
// as /dev/zero) is read in chunks until the limit is passed. The limits are
// listed here, once, and in docs/robustness.md. Header-only, so that the
// generator, the template engine and the CLI share it without another library.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_SUPPORT_INPUTFILE_H
#define ACCELGEN_SUPPORT_INPUTFILE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace accelgen {
namespace support {

/// The largest model (`.tflite`) accelgen reads: its constants become C
/// arrays in model.c, and 256 MiB of them is already over a gigabyte of C.
constexpr uint64_t MaxModelBytes = uint64_t(256) << 20;
/// The largest target description (`.td`, `.yaml`) and the largest template.
constexpr uint64_t MaxDescriptionBytes = uint64_t(16) << 20;

/// "N bytes" written with the largest whole binary unit ("16 MiB").
inline std::string formatBytes(uint64_t N) {
  const char *Units[] = {"bytes", "KiB", "MiB", "GiB"};
  unsigned U = 0;
  while (U < 3 && N >= 1024 && N % 1024 == 0) {
    N /= 1024;
    ++U;
  }
  return std::to_string(N) + " " + Units[U];
}

/// The message of a file past \p Limit: "the file is larger than the limit
/// of 16 MiB".
inline std::string tooLargeMessage(uint64_t Limit) {
  return "the file is larger than the limit of " + formatBytes(Limit);
}

/// An error carrying \p Message and \p EC.
inline llvm::Error failure(std::error_code EC, const llvm::Twine &Message) {
  return llvm::make_error<llvm::StringError>(Message, EC);
}

/// The contents of \p Path (named by it), or an error whose message says what
/// went wrong without the path: "<Prefix>: No such file or directory", or
/// tooLargeMessage(Limit). At most \p Limit + 1 bytes are read.
inline llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(const llvm::Twine &Path, uint64_t Limit,
              llvm::StringRef Prefix = "cannot read file") {
  llvm::SmallString<256> Name;
  Path.toVector(Name);
  llvm::Expected<llvm::sys::fs::file_t> F =
      llvm::sys::fs::openNativeFileForRead(Name);
  if (!F) {
    std::error_code EC = llvm::errorToErrorCode(F.takeError());
    return failure(EC, Prefix + ": " + EC.message());
  }
  auto Close = [&] { llvm::sys::fs::closeFile(*F); };
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(*F, St)) {
    Close();
    return failure(EC, Prefix + ": " + EC.message());
  }
  if (St.type() == llvm::sys::fs::file_type::regular_file &&
      St.getSize() > Limit) {
    Close();
    return failure(std::make_error_code(std::errc::file_too_large),
                   tooLargeMessage(Limit));
  }
  llvm::SmallVector<char, 0> Data;
  constexpr size_t Chunk = size_t(1) << 16;
  while (true) {
    size_t Want =
        static_cast<size_t>(std::min<uint64_t>(Chunk, Limit + 1 - Data.size()));
    size_t Old = Data.size();
    Data.resize_for_overwrite(Old + Want);
    llvm::Expected<size_t> Got = llvm::sys::fs::readNativeFile(
        *F, llvm::makeMutableArrayRef(Data.data() + Old, Want));
    if (!Got) {
      Close();
      std::error_code EC = llvm::errorToErrorCode(Got.takeError());
      return failure(EC, Prefix + ": " + EC.message());
    }
    Data.resize(Old + *Got);
    if (*Got == 0)
      break;
    if (Data.size() > Limit) {
      Close();
      return failure(std::make_error_code(std::errc::file_too_large),
                     tooLargeMessage(Limit));
    }
  }
  Close();
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(Data.data(), Data.size()), Name);
}

} // namespace support
} // namespace accelgen

#endif // ACCELGEN_SUPPORT_INPUTFILE_H
