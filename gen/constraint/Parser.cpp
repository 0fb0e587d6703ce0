//===- Parser.cpp - Parsing constraint expressions
//--------------------------===//
//
// A recursive-descent parser over the lexer's tokens. Precedence, loosest
// first: `||`; `&&`; comparisons and `in` (not chainable); `+ -`; `* / %`;
// unary `! -`; literals, references, function calls and parentheses. A name
// followed by `(` is a call, unless it is `input` or `output`. Names are
// resolved against the scope while parsing, and each operator node is typed
// as soon as it is built (TypeCheck.h), so the first error in source order
// wins.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"
#include "constraint/Lexer.h"
#include "constraint/TypeCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace accelgen {
namespace gen {
namespace constraint {

char ParseError::ID = 0;

void ParseError::log(llvm::raw_ostream &OS) const {
  OS << "column " << Column << ": " << Message;
}

llvm::Error ParseError::unknownAttribute(unsigned Column, std::string Attr,
                                         std::string Capture) {
  auto E =
      std::make_unique<ParseError>(Column, "unknown attribute '" + Attr + "'");
  E->UnknownAttr = std::move(Attr);
  E->UnknownCapture = std::move(Capture);
  return llvm::Error(std::move(E));
}

std::error_code ParseError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

/// Maps a comparison or arithmetic token to its operator.
std::optional<BinaryExpr::Op> binaryOp(Tok K) {
  using Op = BinaryExpr::Op;
  switch (K) {
  case Tok::EqEq:
    return Op::Eq;
  case Tok::NotEq:
    return Op::Ne;
  case Tok::Less:
    return Op::Lt;
  case Tok::LessEq:
    return Op::Le;
  case Tok::Greater:
    return Op::Gt;
  case Tok::GreaterEq:
    return Op::Ge;
  case Tok::Plus:
    return Op::Add;
  case Tok::Minus:
    return Op::Sub;
  case Tok::Star:
    return Op::Mul;
  case Tok::Slash:
    return Op::Div;
  case Tok::Percent:
    return Op::Rem;
  default:
    return std::nullopt;
  }
}

std::optional<Reference::Prop> property(llvm::StringRef Name) {
  using P = Reference::Prop;
  for (P Prop : {P::DType, P::Rank, P::Dim, P::Channels, P::IsConstant,
                 P::Scale, P::ZeroPoint, P::PerChannel, P::NumElements})
    if (propertyName(Prop) == Name)
      return Prop;
  return std::nullopt;
}

std::string plural(unsigned N, llvm::StringRef Word) {
  return std::to_string(N) + " " + Word.str() + (N == 1 ? "" : "s");
}

std::string functionList() {
  using Fn = CallExpr::Fn;
  std::string S;
  for (Fn F : {Fn::Min, Fn::Max, Fn::Ceil, Fn::Floor, Fn::Align, Fn::Select})
    S += (S.empty() ? "" : ", ") + functionName(F).str();
  return S;
}

class Parser {
public:
  Parser(const std::vector<Token> &Toks, const Scope &Top)
      : Toks(Toks), Top(Top) {}

  /// What the whole expression must be.
  enum class Result { Bool, Number, Int };

  /// Parses the whole expression; it must be of kind \p R.
  llvm::Expected<ExprPtr> run(Result R) {
    if (cur().is(Tok::End))
      return llvm::make_error<ParseError>(1, "empty expression");
    unsigned Start = cur().Column;
    ExprPtr E = parseOr();
    if (E && !cur().is(Tok::End))
      unexpected();
    if (Failed)
      return std::move(Failed);
    assert(E && "a parse without an expression must have failed");
    llvm::Error Err = R == Result::Bool     ? checkConstraintType(*E, Start)
                      : R == Result::Number ? checkNumericType(*E, Start)
                                            : checkIntType(*E, Start);
    if (Err)
      return std::move(Err);
    return E;
  }

private:
  const std::vector<Token> &Toks;
  const Scope &Top;
  size_t Pos = 0;
  llvm::Error Failed = llvm::Error::success();

  const Token &cur() const { return Toks[Pos]; }
  const Token &ahead(size_t N) const {
    return Toks[std::min(Pos + N, Toks.size() - 1)];
  }
  const Token &take() {
    const Token &T = Toks[Pos];
    if (!T.is(Tok::End))
      ++Pos;
    return T;
  }

  /// Records the first error; returns null so callers can bail out.
  std::nullptr_t fail(unsigned Column, const llvm::Twine &Msg) {
    if (!Failed)
      Failed = llvm::make_error<ParseError>(Column, Msg.str());
    return nullptr;
  }
  std::nullptr_t unexpected() {
    if (cur().is(Tok::End))
      return fail(cur().Column, "unexpected end of expression");
    return fail(cur().Column, "unexpected token " + cur().describe());
  }
  bool expect(Tok K, llvm::StringRef Spelling) {
    if (cur().is(K)) {
      take();
      return true;
    }
    fail(cur().Column, llvm::formatv("expected '{0}', found {1}", Spelling,
                                     cur().describe()));
    return false;
  }
  /// Records \p Err as the failure unless there is one already.
  std::nullptr_t failWith(llvm::Error Err) {
    if (!Failed)
      Failed = std::move(Err);
    else
      llvm::consumeError(std::move(Err));
    return nullptr;
  }
  /// Types \p E, turning a type error into the parse failure.
  ExprPtr typed(ExprPtr E) {
    if (llvm::Error Err = assignType(*E))
      return failWith(std::move(Err));
    return E;
  }

  /// How deeply parentheses, `!`, `-`, calls and sets may nest (each passes
  /// through parseUnary once): deeper input is an error rather than a stack
  /// overflow.
  static constexpr unsigned MaxDepth = 100;
  unsigned Depth = 0;

  /// Counts one level of nesting for its lifetime.
  struct Level {
    Parser &P;
    explicit Level(Parser &P) : P(P) { ++P.Depth; }
    ~Level() { --P.Depth; }
    /// False (after recording the error) when nesting is too deep.
    bool ok() {
      if (P.Depth <= MaxDepth)
        return true;
      P.fail(P.cur().Column,
             llvm::formatv("expression nested more than {0} levels deep",
                           MaxDepth));
      return false;
    }
  };

  ExprPtr parseOr() { return parseLogical(Tok::OrOr, BinaryExpr::Op::Or); }
  ExprPtr parseAnd() { return parseLogical(Tok::AndAnd, BinaryExpr::Op::And); }

  /// A chain `a && b && ...` (or `||`). Its terms are collected in a loop and
  /// joined as a balanced tree, so that a chain of thousands of terms is a
  /// tree of logarithmic height: every walk over the tree (printing, checks,
  /// probes, destruction) recurses only that deep. `&&` and `||` are
  /// associative and the terms keep their order, so the meaning, the printed
  /// forms and the generated code are those of the left-nested tree.
  ExprPtr parseLogical(Tok K, BinaryExpr::Op O) {
    auto Term = [&] {
      return O == BinaryExpr::Op::Or ? parseAnd() : parseComparison();
    };
    std::vector<ExprPtr> Terms;
    std::vector<unsigned> Columns; // Of the operator before Terms[I + 1].
    Terms.push_back(Term());
    while (Terms.back() && cur().is(K)) {
      Columns.push_back(take().Column);
      Terms.push_back(Term());
      if (!Terms.back())
        return nullptr;
      // Typed as the left-nested tree would be, so errors come at the same
      // place and in the same order.
      const Expr &Bad = Terms.size() == 2 && Terms[0]->type() != Type::Bool
                            ? *Terms[0]
                            : *Terms.back();
      if (Bad.type() != Type::Bool)
        return fail(Columns.back(),
                    llvm::formatv("operator '{0}' needs bool operands, found "
                                  "'{1}'",
                                  opSpelling(O), typeName(Bad.type())));
    }
    if (Terms.size() == 1)
      return std::move(Terms.front());
    return join(Terms, Columns, 0, Terms.size(), O);
  }

  /// Terms[Begin, End) joined by \p O, halves first.
  ExprPtr join(std::vector<ExprPtr> &Terms,
               const std::vector<unsigned> &Columns, size_t Begin, size_t End,
               BinaryExpr::Op O) {
    if (End - Begin == 1)
      return std::move(Terms[Begin]);
    size_t Mid = Begin + (End - Begin) / 2;
    ExprPtr L = join(Terms, Columns, Begin, Mid, O);
    ExprPtr R = join(Terms, Columns, Mid, End, O);
    return typed(std::make_unique<BinaryExpr>(O, std::move(L), std::move(R),
                                              Columns[Mid - 1]));
  }

  static bool isComparisonToken(const Token &T) {
    std::optional<BinaryExpr::Op> O = binaryOp(T.Kind);
    return (O && isComparison(*O)) || T.isIdent("in");
  }

  ExprPtr parseComparison() {
    ExprPtr L = parseAdditive();
    if (!L || !isComparisonToken(cur()))
      return L;
    ExprPtr E;
    if (cur().isIdent("in")) {
      E = parseIn(std::move(L));
    } else {
      const Token &OpTok = take();
      ExprPtr R = parseAdditive();
      if (!R)
        return nullptr;
      E = typed(std::make_unique<BinaryExpr>(
          *binaryOp(OpTok.Kind), std::move(L), std::move(R), OpTok.Column));
    }
    if (E && isComparisonToken(cur()))
      return fail(cur().Column, "comparisons cannot be chained; use '&&'");
    return E;
  }

  ExprPtr parseIn(ExprPtr Subject) {
    unsigned Column = take().Column;
    std::vector<ExprPtr> Items;
    bool IsRange = cur().is(Tok::LBracket);
    if (!IsRange && !cur().is(Tok::LBrace))
      return fail(cur().Column,
                  "expected '[' or '{' after 'in', found " + cur().describe());
    take();
    if (!IsRange && cur().is(Tok::RBrace))
      return fail(cur().Column, "a set needs at least one member");
    while (true) {
      ExprPtr Item = parseOr();
      if (!Item)
        return nullptr;
      Items.push_back(std::move(Item));
      if (IsRange && Items.size() == 1) {
        if (!expect(Tok::Comma, ","))
          return nullptr;
        continue;
      }
      if (!IsRange && cur().is(Tok::Comma)) {
        take();
        continue;
      }
      break;
    }
    if (!expect(IsRange ? Tok::RBracket : Tok::RBrace, IsRange ? "]" : "}"))
      return nullptr;
    return typed(std::make_unique<InExpr>(std::move(Subject), IsRange,
                                          std::move(Items), Column));
  }

  ExprPtr parseAdditive() {
    ExprPtr L = parseMultiplicative();
    while (L && (cur().is(Tok::Plus) || cur().is(Tok::Minus))) {
      const Token &OpTok = take();
      ExprPtr R = parseMultiplicative();
      if (!R)
        return nullptr;
      L = typed(std::make_unique<BinaryExpr>(
          *binaryOp(OpTok.Kind), std::move(L), std::move(R), OpTok.Column));
    }
    return L;
  }

  ExprPtr parseMultiplicative() {
    ExprPtr L = parseUnary();
    while (L && (cur().is(Tok::Star) || cur().is(Tok::Slash) ||
                 cur().is(Tok::Percent))) {
      const Token &OpTok = take();
      ExprPtr R = parseUnary();
      if (!R)
        return nullptr;
      L = typed(std::make_unique<BinaryExpr>(
          *binaryOp(OpTok.Kind), std::move(L), std::move(R), OpTok.Column));
    }
    return L;
  }

  ExprPtr parseUnary() {
    Level Nesting(*this);
    if (!Nesting.ok())
      return nullptr;
    if (cur().is(Tok::Not)) {
      unsigned Column = take().Column;
      ExprPtr Operand = parseUnary();
      if (!Operand)
        return nullptr;
      return typed(std::make_unique<UnaryExpr>(UnaryExpr::Op::Not,
                                               std::move(Operand), Column));
    }
    if (cur().is(Tok::Minus)) {
      unsigned Column = take().Column;
      ExprPtr Operand = parseUnary();
      if (!Operand)
        return nullptr;
      // A negative number is a literal, so that `dim(-1)`, `x >= -128` and
      // boundary analysis see a constant.
      if (auto *L = llvm::dyn_cast<LiteralExpr>(Operand.get())) {
        if (const int64_t *I = std::get_if<int64_t>(&L->value()))
          return std::make_unique<LiteralExpr>(-*I, Column);
        if (const double *D = std::get_if<double>(&L->value()))
          return std::make_unique<LiteralExpr>(-*D, Column);
      }
      return typed(std::make_unique<UnaryExpr>(UnaryExpr::Op::Neg,
                                               std::move(Operand), Column));
    }
    return parsePrimary();
  }

  ExprPtr parsePrimary() {
    const Token &T = cur();
    switch (T.Kind) {
    case Tok::Int: {
      int64_t V;
      if (T.Text.getAsInteger(10, V))
        return fail(T.Column, "integer literal out of range");
      take();
      return std::make_unique<LiteralExpr>(V, T.Column);
    }
    case Tok::Float: {
      double V;
      if (T.Text.getAsDouble(V) || !std::isfinite(V))
        return fail(T.Column, "float literal out of range");
      take();
      return std::make_unique<LiteralExpr>(V, T.Column);
    }
    case Tok::String:
      take();
      return std::make_unique<LiteralExpr>(T.StringValue, T.Column);
    case Tok::LParen: {
      take();
      ExprPtr E = parseOr();
      if (!E || !expect(Tok::RParen, ")"))
        return nullptr;
      return E;
    }
    case Tok::Ident:
      break;
    default:
      return unexpected();
    }
    if (T.isIdent("true") || T.isIdent("false")) {
      take();
      return std::make_unique<LiteralExpr>(T.Text == "true", T.Column);
    }
    if (std::optional<ir::DType> D = ir::parseDType(T.Text)) {
      take();
      return std::make_unique<LiteralExpr>(D, T.Column);
    }
    if (T.isIdent("none")) { // The dtype of an absent operand.
      take();
      return std::make_unique<LiteralExpr>(std::optional<ir::DType>(),
                                           T.Column);
    }
    if (T.isIdent("in"))
      return unexpected();
    if (ahead(1).is(Tok::LParen) && !T.isIdent("input") && !T.isIdent("output"))
      return parseCall();
    return parseReference();
  }

  /// `name(arg, ...)`: a built-in function.
  ExprPtr parseCall() {
    const Token &Name = take();
    std::optional<CallExpr::Fn> F = functionNamed(Name.Text);
    if (!F)
      return fail(Name.Column, "unknown function '" + Name.Text +
                                   "' (functions: " + functionList() + ")");
    take(); // '('
    unsigned Arity = functionArity(*F);
    std::string Takes = llvm::formatv("function '{0}' takes {1}", Name.Text,
                                      plural(Arity, "argument"));
    std::vector<ExprPtr> Args;
    std::vector<unsigned> Columns;
    // Each argument is checked as soon as it is parsed, so that errors come
    // in source order.
    while (Args.empty() || cur().is(Tok::Comma)) {
      if (!Args.empty())
        take(); // ','
      else if (cur().is(Tok::RParen))
        break;
      if (Args.size() == Arity)
        return fail(cur().Column, Takes);
      Columns.push_back(cur().Column);
      ExprPtr Arg = parseOr();
      if (!Arg)
        return nullptr;
      if (llvm::Error Err =
              checkCallArgument(*F, Args.size(), *Arg, Columns.back()))
        return failWith(std::move(Err));
      Args.push_back(std::move(Arg));
    }
    if (!cur().is(Tok::RParen))
      return fail(cur().Column, llvm::formatv("expected ',' or ')', found {0}",
                                              cur().describe()));
    if (Args.size() < Arity)
      return fail(cur().Column, Takes);
    take(); // ')'
    return typed(std::make_unique<CallExpr>(*F, std::move(Args),
                                            std::move(Columns), Name.Column));
  }

  /// A reference, qualified by a capture name or not.
  ExprPtr parseReference() {
    const Token &First = cur();
    bool Keyword = First.isIdent("input") || First.isIdent("output") ||
                   First.isIdent("num_inputs") ||
                   First.isIdent("num_outputs") || First.isIdent("macs") ||
                   First.isIdent("op");
    if (Keyword || !ahead(1).is(Tok::Dot)) {
      // A pattern's scope has captures only: operands, counts, MACs and the
      // type are a captured operator's (an unqualified attribute is unknown
      // there).
      if (Keyword && !Top.Captures.empty())
        return fail(First.Column,
                    "'" + First.Text +
                        "' names no captured operator; in a pattern, "
                        "qualify it with a capture ('" +
                        Top.Captures.begin()->first + "." + First.Text +
                        "')");
      return parseName(Top, "", First.Column);
    }
    auto It = Top.Captures.find(First.Text.str());
    if (It == Top.Captures.end())
      return fail(First.Column, "unknown capture '" + First.Text + "'");
    take();
    take(); // '.'
    if (!cur().is(Tok::Ident))
      return fail(cur().Column,
                  "expected a name after '.', found " + cur().describe());
    return parseName(It->second, First.Text.str(), First.Column);
  }

  /// An attribute, `input(N).P`, `output(N).P`, `num_inputs`,
  /// `num_outputs`, `macs` or `op` of the operator whose scope is \p S.
  ExprPtr parseName(const Scope &S, std::string Capture, unsigned Column) {
    const Token &Name = take();
    Reference R;
    R.Capture = std::move(Capture);
    bool IsInput = Name.isIdent("input");
    if ((IsInput || Name.isIdent("output")) && cur().is(Tok::LParen))
      return parseOperand(S, std::move(R), IsInput, Column);
    if (Name.isIdent("num_inputs") || Name.isIdent("num_outputs")) {
      R.K = Name.isIdent("num_inputs") ? Reference::Kind::NumInputs
                                       : Reference::Kind::NumOutputs;
      return std::make_unique<RefExpr>(std::move(R), Column);
    }
    if (Name.isIdent("op")) {
      R.K = Reference::Kind::OpType;
      return std::make_unique<RefExpr>(std::move(R), Column);
    }
    if (Name.isIdent("macs")) {
      R.K = Reference::Kind::Macs;
      return std::make_unique<RefExpr>(std::move(R), Column);
    }
    auto Attr = llvm::find_if(
        S.Attrs, [&](const AttrInfo &A) { return A.Name == Name.Text; });
    if (Attr == S.Attrs.end())
      return failWith(ParseError::unknownAttribute(Name.Column, Name.Text.str(),
                                                   R.Capture));
    if (Attr->K == AttrInfo::Ints)
      return fail(Name.Column, "attribute '" + Name.Text +
                                   "' is a list ('ints'), which constraints "
                                   "cannot use");
    R.K = Reference::Kind::Attr;
    R.Attr = Attr->Name;
    R.AttrKind = Attr->K;
    return std::make_unique<RefExpr>(std::move(R), Column);
  }

  ExprPtr parseOperand(const Scope &S, Reference R, bool IsInput,
                       unsigned Column) {
    take(); // '('
    const Token &Index = cur();
    unsigned Limit = IsInput ? S.NumOperands : S.NumResults;
    if (!Index.is(Tok::Int))
      return fail(Index.Column,
                  llvm::formatv("expected {0} index, found {1}",
                                IsInput ? "an operand" : "a result",
                                Index.describe()));
    uint64_t N;
    if (Index.Text.getAsInteger(10, N) || N >= Limit)
      return fail(Index.Column,
                  llvm::formatv("{0} index {1} out of range (operator has {2})",
                                IsInput ? "operand" : "result", Index.Text,
                                plural(Limit, IsInput ? "input" : "output")));
    take();
    if (!expect(Tok::RParen, ")") || !expect(Tok::Dot, "."))
      return nullptr;
    const Token &PropTok = cur();
    if (!PropTok.is(Tok::Ident))
      return fail(PropTok.Column, "expected a property name after '.', found " +
                                      PropTok.describe());
    std::optional<Reference::Prop> P = property(PropTok.Text);
    if (!P)
      return fail(PropTok.Column, "unknown property '" + PropTok.Text + "'");
    take();
    R.K = IsInput ? Reference::Kind::Input : Reference::Kind::Output;
    R.Index = static_cast<unsigned>(N);
    R.P = *P;
    if (*P == Reference::Prop::Dim && !parseAxis(R))
      return nullptr;
    return std::make_unique<RefExpr>(std::move(R), Column);
  }

  /// The `(i)` after `dim`: an integer literal, negative from the end.
  bool parseAxis(Reference &R) {
    if (!expect(Tok::LParen, "("))
      return false;
    bool Negative = cur().is(Tok::Minus);
    if (Negative)
      take();
    const Token &Axis = cur();
    int64_t V;
    if (!Axis.is(Tok::Int)) {
      fail(Axis.Column,
           "expected an axis (an integer literal), found " + Axis.describe());
      return false;
    }
    if (Axis.Text.getAsInteger(10, V) || V > 64) {
      fail(Axis.Column, "axis " + Axis.Text + " out of range");
      return false;
    }
    take();
    R.Axis = Negative ? -V : V;
    return expect(Tok::RParen, ")");
  }
};

} // namespace

llvm::Expected<std::unique_ptr<Expr>> parse(llvm::StringRef Text,
                                            const Scope &S) {
  llvm::Expected<std::vector<Token>> Toks = lex(Text);
  if (!Toks)
    return Toks.takeError();
  return Parser(*Toks, S).run(Parser::Result::Bool);
}

llvm::Expected<std::unique_ptr<Expr>> parseValue(llvm::StringRef Text,
                                                 const Scope &S) {
  llvm::Expected<std::vector<Token>> Toks = lex(Text);
  if (!Toks)
    return Toks.takeError();
  return Parser(*Toks, S).run(Parser::Result::Number);
}

llvm::Expected<std::unique_ptr<Expr>> parseIntValue(llvm::StringRef Text,
                                                    const Scope &S) {
  llvm::Expected<std::vector<Token>> Toks = lex(Text);
  if (!Toks)
    return Toks.takeError();
  return Parser(*Toks, S).run(Parser::Result::Int);
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
