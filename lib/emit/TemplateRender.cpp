//===- TemplateRender.cpp - Instantiating the embedded templates ----------===//
//
// Templates are parsed on each call: model.c.in, model.h.in and main.c.in
// are rendered at most once per accelgen invocation, target cpu's kernel
// templates once per specialised operator, and parsing costs little next to
// rendering.
//
//===----------------------------------------------------------------------===//
#include "emit/TemplateRender.h"
#include "emit/EmbeddedFiles.h"

#include "template/Template.h"

#include "llvm/Support/Path.h"

namespace accelgen {
namespace emit {

llvm::Expected<std::string> renderTemplateIn(llvm::ArrayRef<EmbeddedFile> Files,
                                             llvm::StringRef Path,
                                             const tmpl::Bindings &B) {
  std::optional<llvm::StringRef> Text =
      findEmbedded(Files, llvm::sys::path::filename(Path));
  if (!Text)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "template " + Path +
                                       " is missing from this build");
  llvm::Expected<tmpl::Template> T = tmpl::Template::parse(*Text, Path);
  if (!T)
    return T.takeError();
  tmpl::RenderLimits Limits;
  Limits.MaxSteps = uint64_t(1) << 40;
  Limits.MaxOutputBytes = size_t(1) << 32;
  Limits.MaxStringBytes = size_t(1) << 32;
  return T->render(B, Limits);
}

llvm::Expected<std::string> renderTemplate(llvm::StringRef Name,
                                           const tmpl::Bindings &B) {
  return renderTemplateIn(templateFiles(), ("templates/" + Name).str(), B);
}

std::string cBannerOf(llvm::StringRef Path) {
  return llvm::StringRef(tmpl::banner(Path.str(), "/*")).rtrim("\n").str();
}

std::string cBanner(llvm::StringRef Name) {
  return cBannerOf(("templates/" + Name).str());
}

} // namespace emit
} // namespace accelgen
