//===- TemplateRender.h - Instantiating the embedded templates --*- C++ -*-===//
//
// The emitters instantiate the templates of templates/ from the copies
// compiled into the binary (EmbeddedFiles.h), named `templates/<file>` in
// errors and banners.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_TEMPLATERENDER_H
#define ACCELGEN_EMIT_TEMPLATERENDER_H

#include "emit/EmbeddedFiles.h"
#include "template/Value.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace emit {

/// Renders the embedded template \p Name ("model.c.in") with \p B. Large
/// models make long strings, so the engine's limits are raised well past
/// anything a model needs.
llvm::Expected<std::string> renderTemplate(llvm::StringRef Name,
                                           const tmpl::Bindings &B);

/// The one-line banner for a file generated from template \p Name, as a C
/// comment without the newline.
std::string cBanner(llvm::StringRef Name);

/// Renders template \p Path (its path in the source tree, which errors and
/// banners show) from its copy in \p Files, found by file name: for the
/// templates a target folder embeds of its own.
llvm::Expected<std::string> renderTemplateIn(llvm::ArrayRef<EmbeddedFile> Files,
                                             llvm::StringRef Path,
                                             const tmpl::Bindings &B);

/// The banner of a file generated from the template at \p Path.
std::string cBannerOf(llvm::StringRef Path);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_TEMPLATERENDER_H
