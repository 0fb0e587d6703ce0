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

llvm::Expected<std::string> renderTemplate(llvm::StringRef Name,
                                           const tmpl::Bindings &B) {
  // Templates are embedded by file name; Name may start with a folder of
  // templates/ ("cpu/cpu_gemm.c.in"), which banners and errors keep.
  std::optional<llvm::StringRef> Text =
      findEmbedded(templateFiles(), llvm::sys::path::filename(Name));
  if (!Text)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "template " + Name +
                                       " is missing from this build");
  llvm::Expected<tmpl::Template> T =
      tmpl::Template::parse(*Text, ("templates/" + Name).str());
  if (!T)
    return T.takeError();
  tmpl::RenderLimits Limits;
  Limits.MaxSteps = uint64_t(1) << 40;
  Limits.MaxOutputBytes = size_t(1) << 32;
  Limits.MaxStringBytes = size_t(1) << 32;
  return T->render(B, Limits);
}

std::string cBanner(llvm::StringRef Name) {
  return llvm::StringRef(tmpl::banner(("templates/" + Name).str(), "/*"))
      .rtrim("\n")
      .str();
}

} // namespace emit
} // namespace accelgen
