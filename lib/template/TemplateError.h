//===- TemplateError.h - Located errors of the template engine --*- C++ -*-===//
//
// Everything that can go wrong with a template, from a syntax error to a
// failed `$assert` at instantiation, is reported as a TemplateError carrying
// the template's name and a 1-based line and column. It prints the way
// compilers do, so editors can jump to it:
//
//   kernels/add.c.in:12:7: error: unknown name 'BATCH_TILES'
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TEMPLATE_TEMPLATEERROR_H
#define ACCELGEN_TEMPLATE_TEMPLATEERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace accelgen {
namespace tmpl {

/// An error at a line and column of a named template.
class TemplateError : public llvm::ErrorInfo<TemplateError> {
public:
  static char ID;

  TemplateError(llvm::StringRef TemplateName, unsigned Line, unsigned Column,
                llvm::StringRef Message)
      : TemplateName(TemplateName.str()), Line(Line), Column(Column),
        Message(Message.str()) {}

  /// The name the template was parsed under (usually its path).
  const std::string &templateName() const { return TemplateName; }
  /// The 1-based line.
  unsigned line() const { return Line; }
  /// The 1-based column, counted in bytes (a tab is one column).
  unsigned column() const { return Column; }
  /// The message without the location ("unknown name 'X'").
  const std::string &text() const { return Message; }

  /// Prints "NAME:LINE:COL: error: MESSAGE".
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string TemplateName;
  unsigned Line;
  unsigned Column;
  std::string Message;
};

/// A TemplateError as an llvm::Error.
llvm::Error makeTemplateError(llvm::StringRef TemplateName, unsigned Line,
                              unsigned Column, const llvm::Twine &Message);

} // namespace tmpl
} // namespace accelgen

#endif // ACCELGEN_TEMPLATE_TEMPLATEERROR_H
