//===- Escape.h - Text from descriptions, safe where it is written -*- C++
//-*-===//
//
// Every string a description supplies (ids, summaries, hints, docs, names)
// reaches generated files: C and C++ string literals, C and C++ comments,
// Markdown. A summary holding a newline must not start a line of generated
// code (`#error ...`); one ending in a backslash must not continue a `//`
// comment onto the next generated line; `*/` must not end a block comment;
// `|` must not split a Markdown table cell. These are the one set of
// escaping functions every emitter uses, one per place text lands.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_ESCAPE_H
#define ACCELGEN_GEN_CONSTRAINT_ESCAPE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace accelgen {
namespace gen {

/// \p S as a C or C++ string literal, quotes included: `"` and `\` escaped,
/// control characters as octal escapes, `??` split so that no trigraph forms
/// (C99 compilers read `??/` as a backslash).
std::string cppStringLiteral(llvm::StringRef S);

/// \p S made safe inside a `//` or `/* */` comment: one line (control
/// characters become spaces), no `*/` or `/*`, no trigraph, and not ending in
/// a backslash or space (a backslash before the line end continues a `//`
/// comment onto the next line).
std::string commentText(llvm::StringRef S);

/// \p S as the text of a Markdown table cell: one line, `|` and `\` escaped.
std::string markdownCell(llvm::StringRef S);

/// \p S as a Markdown code span inside a table cell: fenced with more
/// backticks than it holds in a row, one line, `|` escaped.
std::string markdownCode(llvm::StringRef S);

/// \p S as one Markdown paragraph line: control characters become spaces, and
/// a leading character that would start a heading, list or quote is escaped.
std::string markdownText(llvm::StringRef S);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_ESCAPE_H
