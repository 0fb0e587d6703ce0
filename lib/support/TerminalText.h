//===- TerminalText.h - Text from models made safe for a terminal -*- C++ -*-===//
//
// Tensor names, model descriptions and paths come from files anyone can
// write. Printed raw they could move the cursor, clear the screen, set the
// window title or hide text (escape sequences), or split a one-line error
// (a newline). terminalText() spells every control character out instead.
// Header-only, shared by accelgen and accelgen-tblgen.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_SUPPORT_TERMINALTEXT_H
#define ACCELGEN_SUPPORT_TERMINALTEXT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace accelgen {
namespace support {

/// \p Text with each C0 control character (below 0x20, and 0x7f) written as
/// "\n", "\t", "\r" or "\xNN", and each C1 control character (U+0080 to
/// U+009F, which terminals also obey) as "\u00NN"; newlines are kept when
/// \p KeepNewlines (a multi-line report), escaped otherwise (one line).
inline std::string terminalText(llvm::StringRef Text, bool KeepNewlines) {
  std::string Out;
  Out.reserve(Text.size());
  llvm::raw_string_ostream OS(Out);
  for (size_t I = 0; I < Text.size(); ++I) {
    const unsigned char C = static_cast<unsigned char>(Text[I]);
    if (C == '\n' && KeepNewlines)
      OS << '\n';
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (C == '\r')
      OS << "\\r";
    else if (C < 0x20 || C == 0x7f)
      OS << llvm::format("\\x%02x", C);
    else if (C == 0xc2 && I + 1 < Text.size() &&
             static_cast<unsigned char>(Text[I + 1]) >= 0x80 &&
             static_cast<unsigned char>(Text[I + 1]) <= 0x9f)
      OS << llvm::format("\\u%04x", static_cast<unsigned char>(Text[++I]));
    else
      OS << Text[I];
  }
  OS.flush();
  return Out;
}

} // namespace support
} // namespace accelgen

#endif // ACCELGEN_SUPPORT_TERMINALTEXT_H
