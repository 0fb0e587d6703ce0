//===- ExprParser.cpp - Lexer and parser of template expressions ----------===//
//
// A hand-written lexer and recursive-descent parser over one template line.
// Precedence, loosest first: `X if C else Y`; `or`; `and`; `not`; one
// comparison (`== != < <= > >= in`, `not in`); `+ -`; `* / %`; unary `-`;
// postfix `a[i]` and `a.b`. The first error stops the parse; recursion and
// tree height are bounded by MaxExprDepth so hostile input fails cleanly.
//
//===----------------------------------------------------------------------===//
#include "template/Expr.h"
#include "template/TemplateError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace accelgen {
namespace tmpl {

llvm::StringRef builtinName(Builtin F) {
  switch (F) {
  case Builtin::Len:
    return "len";
  case Builtin::Range:
    return "range";
  case Builtin::Upper:
    return "upper";
  case Builtin::Lower:
    return "lower";
  case Builtin::Str:
    return "str";
  case Builtin::Join:
    return "join";
  case Builtin::Min:
    return "min";
  case Builtin::Max:
    return "max";
  }
  return "?";
}

llvm::StringRef opSpelling(Op O) {
  switch (O) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Mod:
    return "%";
  case Op::Eq:
    return "==";
  case Op::Ne:
    return "!=";
  case Op::Lt:
    return "<";
  case Op::Le:
    return "<=";
  case Op::Gt:
    return ">";
  case Op::Ge:
    return ">=";
  }
  return "?";
}

namespace {

enum class TokKind { End, Invalid, Int, String, Ident, Punct };

struct Token {
  TokKind K = TokKind::End;
  size_t Pos = 0;
  size_t EndPos = 0;
  llvm::StringRef Spelling;
  int64_t IntVal = 0;
  std::string StrVal;
  /// For Invalid tokens: why.
  std::string Error;
  /// For Invalid tokens: a stray character with nothing more to say, better
  /// reported as "expected X, got 'c'".
  bool Stray = false;
};

bool isKeyword(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases("and", "or", "not", "in", "if", "else", "true", "false", true)
      .Default(false);
}

bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }
bool isBlank(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f';
}

/// A character as an error message shows it: 'x', or '\x01' when unprintable.
std::string showChar(char C) {
  unsigned char U = static_cast<unsigned char>(C);
  if (U >= 0x20 && U < 0x7f)
    return std::string("'") + C + "'";
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("'\\x%02x'", U);
  return S;
}

std::optional<Builtin> lookupBuiltin(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Builtin>>(Name)
      .Case("len", Builtin::Len)
      .Case("range", Builtin::Range)
      .Case("upper", Builtin::Upper)
      .Case("lower", Builtin::Lower)
      .Case("str", Builtin::Str)
      .Case("join", Builtin::Join)
      .Case("min", Builtin::Min)
      .Case("max", Builtin::Max)
      .Default(std::nullopt);
}

/// The argument counts a built-in accepts; Max 0 means no upper bound.
std::pair<unsigned, unsigned> builtinArity(Builtin F) {
  switch (F) {
  case Builtin::Len:
  case Builtin::Upper:
  case Builtin::Lower:
  case Builtin::Str:
    return {1, 1};
  case Builtin::Join:
    return {2, 2};
  case Builtin::Range:
    return {1, 3};
  case Builtin::Min:
  case Builtin::Max:
    return {1, 0};
  }
  return {0, 0};
}

} // namespace

class ExprParser::Impl {
public:
  Impl(llvm::StringRef TemplateName, unsigned Line, llvm::StringRef Text,
       size_t Pos)
      : TemplateName(TemplateName), Line(Line), Text(Text), Cursor(Pos),
        PrevEnd(Pos) {
    next();
  }

  llvm::StringRef TemplateName;
  unsigned Line;
  llvm::StringRef Text;
  /// Where the lexer continues after Tok.
  size_t Cursor;
  size_t PrevEnd;
  Token Tok;
  unsigned Level = 0;
  /// The first error: its byte offset and message.
  std::optional<std::pair<size_t, std::string>> Err;

  llvm::Error takeError() {
    if (!Err)
      return llvm::Error::success();
    return makeTemplateError(TemplateName, Line, Err->first + 1, Err->second);
  }

  std::nullptr_t fail(size_t Pos, const llvm::Twine &Message) {
    if (!Err)
      Err.emplace(Pos, Message.str());
    return nullptr;
  }

  /// "expected WHAT, got TOKEN" at the current token (or the lexer's error).
  std::nullptr_t unexpected(const llvm::Twine &What) {
    if (Tok.K == TokKind::Invalid && !Tok.Stray)
      return fail(Tok.Pos, Tok.Error);
    return fail(Tok.Pos, "expected " + What + ", got " + describe(Tok));
  }

  static std::string describe(const Token &T) {
    if (T.K == TokKind::End)
      return "end of line";
    if (T.K == TokKind::Invalid)
      return showChar(T.Spelling.empty() ? '\0' : T.Spelling[0]);
    llvm::StringRef S = T.Spelling;
    if (S.size() > 24)
      return ("'" + S.take_front(21) + "...'").str();
    return ("'" + S + "'").str();
  }

  bool isPunct(llvm::StringRef S) const {
    return Tok.K == TokKind::Punct && Tok.Spelling == S;
  }
  bool isKeywordTok(llvm::StringRef S) const {
    return Tok.K == TokKind::Ident && Tok.Spelling == S;
  }
  bool is(llvm::StringRef S) const {
    return !S.empty() && isIdentStart(S[0]) ? isKeywordTok(S) : isPunct(S);
  }
  bool accept(llvm::StringRef S) {
    if (Err || !is(S))
      return false;
    next();
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Lexer
  //===--------------------------------------------------------------------===//

  void next() {
    PrevEnd = Tok.K == TokKind::End && Tok.EndPos == 0 ? PrevEnd : Tok.EndPos;
    Tok = Token();
    while (Cursor < Text.size() && isBlank(Text[Cursor]))
      ++Cursor;
    Tok.Pos = Cursor;
    if (Cursor >= Text.size()) {
      Tok.K = TokKind::End;
      Tok.EndPos = Cursor;
      return;
    }
    char C = Text[Cursor];
    if (llvm::isDigit(C))
      return lexInt();
    if (isIdentStart(C)) {
      size_t E = Cursor;
      while (E < Text.size() && isIdentChar(Text[E]))
        ++E;
      return finish(TokKind::Ident, E);
    }
    if (C == '"' || C == '\'')
      return lexString();
    llvm::StringRef Rest = Text.substr(Cursor);
    for (llvm::StringRef P : {"==", "!=", "<=", ">="})
      if (Rest.startswith(P))
        return finish(TokKind::Punct, Cursor + 2);
    if (llvm::StringRef("()[],.:=+-*/%<>}").contains(C))
      return finish(TokKind::Punct, Cursor + 1);
    std::string Why = "unexpected character " + showChar(C);
    bool Stray = false;
    if (C == '!')
      Why += "; use 'not'";
    else if (C == '&')
      Why += "; use 'and'";
    else if (C == '|')
      Why += "; use 'or'";
    else if (C == '$')
      Why = "unexpected '$' inside an expression";
    else
      Stray = true;
    invalid(Cursor, Why);
    Tok.Stray = Stray;
  }

  void finish(TokKind K, size_t End) {
    Tok.K = K;
    Tok.Spelling = Text.slice(Cursor, End);
    Tok.EndPos = End;
    Cursor = End;
  }

  void invalid(size_t Pos, const llvm::Twine &Why) {
    Tok.K = TokKind::Invalid;
    Tok.Pos = Pos;
    Tok.Spelling = Text.slice(Pos, Pos + 1);
    Tok.EndPos = Pos + 1;
    Tok.Error = Why.str();
    Cursor = Text.size();
  }

  void lexInt() {
    size_t Start = Cursor, E = Cursor;
    while (E < Text.size() && isIdentChar(Text[E]))
      ++E;
    llvm::StringRef S = Text.slice(Start, E);
    if (!llvm::all_of(S, llvm::isDigit))
      return invalid(Start, "invalid integer literal '" + S.take_front(24) +
                                "'");
    if (S.size() > 1 && S[0] == '0')
      return invalid(Start, "integer literal '" + S.take_front(24) +
                                "' has a leading zero");
    uint64_t V = 0;
    for (char D : S) {
      unsigned Digit = D - '0';
      if (V > (uint64_t(INT64_MAX) - Digit) / 10)
        return invalid(Start, "integer literal '" + S.take_front(24) +
                                  "' does not fit in 64 bits");
      V = V * 10 + Digit;
    }
    finish(TokKind::Int, E);
    Tok.IntVal = static_cast<int64_t>(V);
  }

  void lexString() {
    size_t Start = Cursor;
    char Quote = Text[Cursor];
    std::string V;
    size_t I = Cursor + 1;
    while (true) {
      if (I >= Text.size())
        return invalid(Start, "unterminated string literal");
      char C = Text[I];
      if (C == Quote)
        break;
      if (C != '\\') {
        V += C;
        ++I;
        continue;
      }
      if (I + 1 >= Text.size())
        return invalid(Start, "unterminated string literal");
      char E = Text[I + 1];
      switch (E) {
      case 'n':
        V += '\n';
        break;
      case 't':
        V += '\t';
        break;
      case 'r':
        V += '\r';
        break;
      case '\\':
      case '"':
      case '\'':
        V += E;
        break;
      case 'x': {
        unsigned Hi, Lo;
        if (I + 3 >= Text.size() || (Hi = llvm::hexDigitValue(Text[I + 2])) >
                                        15 ||
            (Lo = llvm::hexDigitValue(Text[I + 3])) > 15)
          return invalid(I, "'\\x' needs two hex digits");
        V += static_cast<char>(Hi * 16 + Lo);
        I += 2;
        break;
      }
      default:
        return invalid(I, "unknown escape '\\" + llvm::Twine(E) +
                              "' in string literal");
      }
      I += 2;
    }
    finish(TokKind::String, I + 1);
    Tok.StrVal = std::move(V);
  }

  //===--------------------------------------------------------------------===//
  // Parser
  //===--------------------------------------------------------------------===//

  /// Counts one level of recursion for the lifetime of the guard.
  struct LevelGuard {
    Impl &P;
    bool TooDeep;
    explicit LevelGuard(Impl &P) : P(P), TooDeep(++P.Level > MaxExprDepth) {
      if (TooDeep)
        P.tooDeep(P.Tok.Pos);
    }
    ~LevelGuard() { --P.Level; }
  };

  std::nullptr_t tooDeep(size_t Pos) {
    return fail(Pos, "expression nested more than " +
                         llvm::Twine(MaxExprDepth) + " levels deep");
  }

  ExprPtr make(Expr::Kind K, size_t Pos, std::vector<ExprPtr> Ops = {}) {
    auto E = std::make_unique<Expr>();
    E->K = K;
    E->Line = Line;
    E->Column = static_cast<unsigned>(Pos + 1);
    unsigned D = 0;
    for (const ExprPtr &O : Ops)
      D = std::max(D, O->Depth);
    E->Depth = D + 1;
    E->Operands = std::move(Ops);
    if (E->Depth > MaxExprDepth)
      return tooDeep(Pos);
    return E;
  }

  ExprPtr binary(Expr::Kind K, size_t Pos, ExprPtr L, ExprPtr R) {
    std::vector<ExprPtr> Ops;
    Ops.push_back(std::move(L));
    Ops.push_back(std::move(R));
    return make(K, Pos, std::move(Ops));
  }

  ExprPtr parseExpr() {
    LevelGuard G(*this);
    if (G.TooDeep)
      return nullptr;
    ExprPtr L = parseOr();
    if (!L || !isKeywordTok("if"))
      return L;
    size_t Pos = Tok.Pos;
    next();
    ExprPtr C = parseOr();
    if (!C)
      return nullptr;
    if (!accept("else"))
      return unexpected("'else' in 'X if C else Y'");
    ExprPtr R = parseExpr();
    if (!R)
      return nullptr;
    std::vector<ExprPtr> Ops;
    Ops.push_back(std::move(L));
    Ops.push_back(std::move(C));
    Ops.push_back(std::move(R));
    return make(Expr::Cond, Pos, std::move(Ops));
  }

  ExprPtr parseOr() {
    ExprPtr L = parseAnd();
    while (L && isKeywordTok("or")) {
      size_t Pos = Tok.Pos;
      next();
      ExprPtr R = parseAnd();
      if (!R)
        return nullptr;
      L = binary(Expr::Or, Pos, std::move(L), std::move(R));
    }
    return L;
  }

  ExprPtr parseAnd() {
    ExprPtr L = parseNot();
    while (L && isKeywordTok("and")) {
      size_t Pos = Tok.Pos;
      next();
      ExprPtr R = parseNot();
      if (!R)
        return nullptr;
      L = binary(Expr::And, Pos, std::move(L), std::move(R));
    }
    return L;
  }

  ExprPtr parseNot() {
    if (!isKeywordTok("not"))
      return parseComparison();
    LevelGuard G(*this);
    if (G.TooDeep)
      return nullptr;
    size_t Pos = Tok.Pos;
    next();
    ExprPtr E = parseNot();
    if (!E)
      return nullptr;
    std::vector<ExprPtr> Ops;
    Ops.push_back(std::move(E));
    return make(Expr::Not, Pos, std::move(Ops));
  }

  /// If the current token starts a comparison, consumes it.
  bool acceptComparison(Expr::Kind &K, Op &O, size_t &Pos) {
    Pos = Tok.Pos;
    if (isKeywordTok("in")) {
      next();
      K = Expr::In;
      return true;
    }
    if (isKeywordTok("not")) {
      next();
      if (!accept("in")) {
        unexpected("'in' after 'not'");
        return false;
      }
      K = Expr::NotIn;
      return true;
    }
    if (Tok.K != TokKind::Punct)
      return false;
    std::optional<Op> Found = llvm::StringSwitch<std::optional<Op>>(
                                  Tok.Spelling)
                                  .Case("==", Op::Eq)
                                  .Case("!=", Op::Ne)
                                  .Case("<", Op::Lt)
                                  .Case("<=", Op::Le)
                                  .Case(">", Op::Gt)
                                  .Case(">=", Op::Ge)
                                  .Default(std::nullopt);
    if (!Found)
      return false;
    next();
    K = Expr::Compare;
    O = *Found;
    return true;
  }

  ExprPtr parseComparison() {
    ExprPtr L = parseSum();
    if (!L)
      return nullptr;
    Expr::Kind K;
    Op O = Op::Eq;
    size_t Pos;
    if (!acceptComparison(K, O, Pos))
      return Err ? nullptr : std::move(L);
    ExprPtr R = parseSum();
    if (!R)
      return nullptr;
    ExprPtr E = binary(K, Pos, std::move(L), std::move(R));
    if (!E)
      return nullptr;
    E->Operator = O;
    size_t Again;
    if (acceptComparison(K, O, Again))
      return fail(Again, "comparisons do not chain; combine them with 'and'");
    return Err ? nullptr : std::move(E);
  }

  ExprPtr parseSum() {
    ExprPtr L = parseTerm();
    while (L && (isPunct("+") || isPunct("-"))) {
      Op O = isPunct("+") ? Op::Add : Op::Sub;
      size_t Pos = Tok.Pos;
      next();
      ExprPtr R = parseTerm();
      if (!R)
        return nullptr;
      L = binary(Expr::Arith, Pos, std::move(L), std::move(R));
      if (L)
        L->Operator = O;
    }
    return L;
  }

  ExprPtr parseTerm() {
    ExprPtr L = parseUnary();
    while (L && (isPunct("*") || isPunct("/") || isPunct("%"))) {
      Op O = isPunct("*") ? Op::Mul : isPunct("/") ? Op::Div : Op::Mod;
      size_t Pos = Tok.Pos;
      next();
      ExprPtr R = parseUnary();
      if (!R)
        return nullptr;
      L = binary(Expr::Arith, Pos, std::move(L), std::move(R));
      if (L)
        L->Operator = O;
    }
    return L;
  }

  ExprPtr parseUnary() {
    if (!isPunct("-"))
      return parsePostfix();
    LevelGuard G(*this);
    if (G.TooDeep)
      return nullptr;
    size_t Pos = Tok.Pos;
    next();
    ExprPtr E = parseUnary();
    if (!E)
      return nullptr;
    std::vector<ExprPtr> Ops;
    Ops.push_back(std::move(E));
    return make(Expr::Neg, Pos, std::move(Ops));
  }

  ExprPtr parsePostfix() {
    ExprPtr E = parsePrimary();
    while (E) {
      size_t Pos = Tok.Pos;
      if (accept("[")) {
        ExprPtr I = parseExpr();
        if (!I)
          return nullptr;
        if (!accept("]"))
          return unexpected("']' after the index");
        E = binary(Expr::Index, Pos, std::move(E), std::move(I));
      } else if (accept(".")) {
        std::string Key;
        if (!readName(Key, "key after '.'"))
          return nullptr;
        std::vector<ExprPtr> Ops;
        Ops.push_back(std::move(E));
        E = make(Expr::Member, Pos, std::move(Ops));
        if (E)
          E->Text = std::move(Key);
      } else {
        break;
      }
    }
    return E;
  }

  bool readName(std::string &Name, llvm::StringRef What) {
    if (Tok.K != TokKind::Ident || isKeyword(Tok.Spelling)) {
      unexpected("a name for the " + What);
      return false;
    }
    Name = Tok.Spelling.str();
    next();
    return true;
  }

  ExprPtr parsePrimary() {
    size_t Pos = Tok.Pos;
    switch (Tok.K) {
    case TokKind::Int: {
      ExprPtr E = make(Expr::Literal, Pos);
      E->Lit = Value(Tok.IntVal);
      next();
      return E;
    }
    case TokKind::String: {
      ExprPtr E = make(Expr::Literal, Pos);
      E->Lit = Value(std::move(Tok.StrVal));
      next();
      return E;
    }
    case TokKind::Ident:
      return parseIdentifier();
    case TokKind::Punct:
      if (accept("("))
        return parseParenthesized(Pos);
      if (accept("["))
        return parseList(Pos);
      break;
    default:
      break;
    }
    return unexpected("an expression");
  }

  ExprPtr parseIdentifier() {
    size_t Pos = Tok.Pos;
    llvm::StringRef Name = Tok.Spelling;
    if (Name == "true" || Name == "false") {
      ExprPtr E = make(Expr::Literal, Pos);
      E->Lit = Value(Name == "true");
      next();
      return E;
    }
    if (isKeyword(Name))
      return unexpected("an expression");
    next();
    if (!isPunct("(")) {
      ExprPtr E = make(Expr::Name, Pos);
      E->Text = Name.str();
      return E;
    }
    std::optional<Builtin> F = lookupBuiltin(Name);
    if (!F)
      return fail(Pos, "unknown function '" + Name + "'");
    next();
    std::vector<ExprPtr> Args;
    if (!accept(")")) {
      while (true) {
        ExprPtr A = parseExpr();
        if (!A)
          return nullptr;
        Args.push_back(std::move(A));
        if (accept(")"))
          break;
        if (!accept(","))
          return unexpected("',' or ')' in the arguments of '" + Name + "'");
      }
    }
    auto [Min, Max] = builtinArity(*F);
    unsigned N = Args.size();
    if (N < Min || (Max && N > Max)) {
      std::string Want =
          Max == 0    ? "at least " + std::to_string(Min)
          : Min == Max ? std::to_string(Min)
                       : std::to_string(Min) + " to " + std::to_string(Max);
      bool Plural = (Max == 0 ? Min : Max) != 1;
      return fail(Pos, "'" + Name + "' takes " + Want +
                           (Plural ? " arguments" : " argument") + ", got " +
                           llvm::Twine(N));
    }
    ExprPtr E = make(Expr::Call, Pos, std::move(Args));
    if (E)
      E->Fn = *F;
    return E;
  }

  ExprPtr parseParenthesized(size_t Pos) {
    ExprPtr E = parseExpr();
    if (!E)
      return nullptr;
    if (!accept(")"))
      return unexpected("')' to close the '(' at column " +
                        llvm::Twine(Pos + 1));
    return E;
  }

  ExprPtr parseList(size_t Pos) {
    std::vector<ExprPtr> Elems;
    while (!accept("]")) {
      ExprPtr E = parseExpr();
      if (!E)
        return nullptr;
      Elems.push_back(std::move(E));
      if (accept("]"))
        break;
      if (!accept(","))
        return unexpected("',' or ']' in the list opened at column " +
                          llvm::Twine(Pos + 1));
    }
    return make(Expr::List, Pos, std::move(Elems));
  }
};

ExprParser::ExprParser(llvm::StringRef TemplateName, unsigned Line,
                       llvm::StringRef LineText, size_t Pos)
    : P(std::make_unique<Impl>(TemplateName, Line, LineText, Pos)) {}

ExprParser::~ExprParser() = default;

llvm::Expected<ExprPtr> ExprParser::parseExpr() {
  if (P->Err)
    return P->takeError();
  ExprPtr E = P->parseExpr();
  if (!E) {
    if (!P->Err) // every failing path records why; be safe regardless
      P->fail(P->Tok.Pos, "invalid expression");
    return P->takeError();
  }
  return E;
}

llvm::Error ExprParser::expectName(std::string &Name, llvm::StringRef What) {
  if (!P->Err)
    P->readName(Name, What);
  return P->takeError();
}

llvm::Error ExprParser::expect(llvm::StringRef Spelling,
                               llvm::StringRef Context) {
  if (!P->Err && !P->accept(Spelling))
    P->unexpected("'" + Spelling + "' " + Context);
  return P->takeError();
}

bool ExprParser::accept(llvm::StringRef Spelling) {
  return P->accept(Spelling);
}

llvm::Error ExprParser::expectEnd(llvm::StringRef Context) {
  if (!P->Err && P->Tok.K != TokKind::End)
    P->unexpected("end of line " + Context);
  return P->takeError();
}

bool ExprParser::atEnd() const { return P->Tok.K == TokKind::End; }

size_t ExprParser::position() const { return P->Tok.Pos; }

size_t ExprParser::lastEnd() const { return P->PrevEnd; }

} // namespace tmpl
} // namespace accelgen
