//===- Lexer.h - Tokens of the constraint language --------------------------===//
//
// Splits a constraint expression into tokens, each with its 1-based column.
// Keywords (`in`, `true`, `input`, dtype names, ...) are identifiers here;
// the parser gives them meaning by position. String literals are decoded
// (`\"` and `\\` are the only escapes).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_LEXER_H
#define ACCELGEN_GEN_CONSTRAINT_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace accelgen {
namespace gen {
namespace constraint {

/// A token kind.
enum class Tok {
  Ident,
  Int,
  Float,
  String,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Dot,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Not,
  AndAnd,
  OrOr,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  End
};

/// One token of the expression text.
struct Token {
  Tok Kind = Tok::End;
  /// The text as written (quotes included for strings; empty at the end).
  llvm::StringRef Text;
  /// The decoded value of a string literal.
  std::string StringValue;
  unsigned Column = 1;

  bool is(Tok K) const { return Kind == K; }
  /// True for an identifier spelled \p Name.
  bool isIdent(llvm::StringRef Name) const {
    return Kind == Tok::Ident && Text == Name;
  }
  /// How diagnostics name the token: "'foo'" or "end of expression".
  std::string describe() const;
};

/// Splits \p Text into tokens ending with a Tok::End token; errors are
/// ParseErrors.
llvm::Expected<std::vector<Token>> lex(llvm::StringRef Text);

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_LEXER_H
