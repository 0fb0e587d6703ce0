//===- Lexer.cpp - Tokens of the constraint language ------------------------===//
//
// A hand-written scanner: identifiers, numbers (digits, an optional fraction
// and exponent), double-quoted strings, and the operator punctuation.
//
//===----------------------------------------------------------------------===//
#include "constraint/Lexer.h"

#include "constraint/Constraint.h"

#include "llvm/ADT/StringExtras.h"

namespace accelgen {
namespace gen {
namespace constraint {

std::string Token::describe() const {
  if (Kind == Tok::End)
    return "end of expression";
  return "'" + Text.str() + "'";
}

namespace {

bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

class Lexer {
public:
  explicit Lexer(llvm::StringRef Text) : Text(Text) {}

  llvm::Expected<std::vector<Token>> run() {
    std::vector<Token> Tokens;
    while (true) {
      while (Pos < Text.size() && llvm::isSpace(Text[Pos]))
        ++Pos;
      if (Pos == Text.size()) {
        Token End;
        End.Column = column(Pos);
        Tokens.push_back(End);
        return Tokens;
      }
      llvm::Expected<Token> T = next();
      if (!T)
        return T.takeError();
      Tokens.push_back(std::move(*T));
    }
  }

private:
  llvm::StringRef Text;
  size_t Pos = 0;

  unsigned column(size_t At) const { return static_cast<unsigned>(At) + 1; }

  Token make(Tok K, size_t Start) {
    Token T;
    T.Kind = K;
    T.Text = Text.slice(Start, Pos);
    T.Column = column(Start);
    return T;
  }

  llvm::Error error(size_t At, const llvm::Twine &Msg) {
    return llvm::make_error<ParseError>(column(At), Msg.str());
  }

  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }

  llvm::Expected<Token> next() {
    size_t Start = Pos;
    char C = Text[Pos];
    if (isIdentStart(C)) {
      while (Pos < Text.size() && isIdentChar(Text[Pos]))
        ++Pos;
      return make(Tok::Ident, Start);
    }
    if (llvm::isDigit(C))
      return number();
    if (C == '"')
      return string();
    ++Pos;
    switch (C) {
    case '(':
      return make(Tok::LParen, Start);
    case ')':
      return make(Tok::RParen, Start);
    case '[':
      return make(Tok::LBracket, Start);
    case ']':
      return make(Tok::RBracket, Start);
    case '{':
      return make(Tok::LBrace, Start);
    case '}':
      return make(Tok::RBrace, Start);
    case ',':
      return make(Tok::Comma, Start);
    case '.':
      return make(Tok::Dot, Start);
    case '+':
      return make(Tok::Plus, Start);
    case '-':
      return make(Tok::Minus, Start);
    case '*':
      return make(Tok::Star, Start);
    case '/':
      return make(Tok::Slash, Start);
    case '%':
      return make(Tok::Percent, Start);
    case '!':
      return pair('=', Tok::NotEq, Tok::Not, Start);
    case '<':
      return pair('=', Tok::LessEq, Tok::Less, Start);
    case '>':
      return pair('=', Tok::GreaterEq, Tok::Greater, Start);
    case '&':
      if (peek() != '&')
        return error(Start, "unknown operator '&' (did you mean '&&'?)");
      ++Pos;
      return make(Tok::AndAnd, Start);
    case '|':
      if (peek() != '|')
        return error(Start, "unknown operator '|' (did you mean '||'?)");
      ++Pos;
      return make(Tok::OrOr, Start);
    case '=':
      if (peek() != '=')
        return error(Start, "unknown operator '=' (did you mean '=='?)");
      ++Pos;
      return make(Tok::EqEq, Start);
    default:
      break;
    }
    if (llvm::isPrint(C))
      return error(Start, llvm::Twine("invalid character '") + llvm::Twine(C) +
                              "'");
    return error(Start, "invalid character (byte 0x" +
                            llvm::utohexstr(static_cast<unsigned char>(C)) +
                            ")");
  }

  Token pair(char Second, Tok Both, Tok One, size_t Start) {
    if (peek() == Second) {
      ++Pos;
      return make(Both, Start);
    }
    return make(One, Start);
  }

  llvm::Expected<Token> number() {
    size_t Start = Pos;
    bool IsFloat = false;
    auto Digits = [&] {
      size_t From = Pos;
      while (Pos < Text.size() && llvm::isDigit(Text[Pos]))
        ++Pos;
      return Pos > From;
    };
    Digits();
    bool Ok = true;
    if (peek() == '.' && llvm::isDigit(peek(1))) {
      ++Pos;
      Digits();
      IsFloat = true;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++Pos;
      if (peek() == '+' || peek() == '-')
        ++Pos;
      Ok = Digits();
      IsFloat = true;
    }
    // A number runs into letters ("12abc", "1e"): one bad token, not two.
    while (Pos < Text.size() && (isIdentChar(Text[Pos]) || Text[Pos] == '.')) {
      Ok = false;
      ++Pos;
    }
    if (!Ok)
      return error(Start, "invalid number '" + Text.slice(Start, Pos) + "'");
    return make(IsFloat ? Tok::Float : Tok::Int, Start);
  }

  llvm::Expected<Token> string() {
    size_t Start = Pos++;
    std::string Value;
    while (Pos < Text.size() && Text[Pos] != '"') {
      char C = Text[Pos];
      if (C == '\\') {
        char E = peek(1);
        if (Pos + 1 == Text.size()) {
          Pos = Text.size();
          break;
        }
        if (E != '"' && E != '\\')
          return error(Pos, llvm::Twine("unknown escape sequence '\\") +
                                llvm::Twine(E) + "' in string");
        Value += E;
        Pos += 2;
        continue;
      }
      Value += C;
      ++Pos;
    }
    if (Pos >= Text.size())
      return error(Start, "unterminated string");
    ++Pos;
    Token T = make(Tok::String, Start);
    T.StringValue = std::move(Value);
    return T;
  }
};

} // namespace

llvm::Expected<std::vector<Token>> lex(llvm::StringRef Text) {
  return Lexer(Text).run();
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
