//===- EmbeddedFiles.h - Source files compiled into accelgen ----*- C++ -*-===//
//
// The C emitter copies the reference kernels into every project it writes and
// instantiates the templates of templates/. Both are compiled into the
// accelgen binary at build time (EmbedFiles.cmake turns each file into a
// string literal), so an installed accelgen needs no source tree and always
// emits the kernels it was built with.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_EMBEDDEDFILES_H
#define ACCELGEN_EMIT_EMBEDDEDFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace accelgen {
namespace emit {

/// One file compiled into the binary: its base name and its text.
struct EmbeddedFile {
  const char *Name;
  const char *Text;
};

/// The reference kernels as built (<build>/kernels/c: rendered from
/// templates/ref and copied from lib/kernels/c), sorted by name.
llvm::ArrayRef<EmbeddedFile> refKernelFiles();

/// The templates, templates/*.in, sorted by name.
llvm::ArrayRef<EmbeddedFile> templateFiles();

/// The text of the file called \p Name in \p Files, if there is one.
std::optional<llvm::StringRef> findEmbedded(llvm::ArrayRef<EmbeddedFile> Files,
                                            llvm::StringRef Name);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_EMBEDDEDFILES_H
