//===- Describe.cpp - Constraint expressions as text ------------------------===//
//
// Two renderings of one tree: print() in the language's own syntax and
// describe() in words for documentation (`and`, `or`, `not`). Both insert
// parentheses from precedence alone, so the output does not depend on how
// the vendor spaced or parenthesized the source, and they always put
// parentheses around `&&` inside `||` (and the reverse) for the reader.
// Calls read as written, except two that read better as phrases:
// `align(x, 16)` is "x rounded up to a multiple of 16" and `select(c, a, b)`
// is "a if c, otherwise b"; a phrase inside another expression is
// parenthesized.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"

#include "target/ValueFormat.h"

#include "llvm/Support/Casting.h"

#include <cmath>

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

enum Prec {
  Phrase = 0,
  Or,
  And,
  Compare,
  Additive,
  Multiplicative,
  Unary,
  Primary
};

Prec precedence(const Expr &E, bool Words) {
  if (const auto *L = llvm::dyn_cast<LiteralExpr>(&E)) {
    const LiteralExpr::Value &V = L->value();
    bool Negative = (std::holds_alternative<int64_t>(V) &&
                     std::get<int64_t>(V) < 0) ||
                    (std::holds_alternative<double>(V) &&
                     std::signbit(std::get<double>(V)));
    return Negative ? Unary : Primary;
  }
  if (llvm::isa<RefExpr>(E))
    return Primary;
  if (const auto *C = llvm::dyn_cast<CallExpr>(&E)) {
    bool IsPhrase =
        C->fn() == CallExpr::Fn::Align || C->fn() == CallExpr::Fn::Select;
    return Words && IsPhrase ? Phrase : Primary;
  }
  if (llvm::isa<UnaryExpr>(E))
    return Unary;
  if (llvm::isa<InExpr>(E))
    return Compare;
  switch (llvm::cast<BinaryExpr>(E).op()) {
  case BinaryExpr::Op::Or:
    return Or;
  case BinaryExpr::Op::And:
    return And;
  case BinaryExpr::Op::Add:
  case BinaryExpr::Op::Sub:
    return Additive;
  case BinaryExpr::Op::Mul:
  case BinaryExpr::Op::Div:
  case BinaryExpr::Op::Rem:
    return Multiplicative;
  default:
    return Compare;
  }
}

class Printer {
public:
  explicit Printer(bool Words) : Words(Words) {}

  std::string print(const Expr &E) {
    switch (E.kind()) {
    case Expr::Kind::Literal:
      return literal(llvm::cast<LiteralExpr>(E).value());
    case Expr::Kind::Ref:
      return llvm::cast<RefExpr>(E).ref().spelling();
    case Expr::Kind::Unary:
      return unary(llvm::cast<UnaryExpr>(E));
    case Expr::Kind::Binary:
      return binary(llvm::cast<BinaryExpr>(E));
    case Expr::Kind::In:
      return in(llvm::cast<InExpr>(E));
    case Expr::Kind::Call:
      return call(llvm::cast<CallExpr>(E));
    }
    return "";
  }

  static std::string literal(const LiteralExpr::Value &V) {
    if (const auto *I = std::get_if<int64_t>(&V))
      return std::to_string(*I);
    if (const auto *D = std::get_if<double>(&V))
      return target::rt::formatFloat(*D);
    if (const auto *B = std::get_if<bool>(&V))
      return *B ? "true" : "false";
    if (const auto *S = std::get_if<std::string>(&V))
      return target::rt::format(*S);
    return target::rt::dtypeName(std::get<std::optional<ir::DType>>(V)).str();
  }

private:
  bool Words;

  /// \p E, parenthesized unless it binds at least as tightly as \p Min.
  std::string operand(const Expr &E, int Min) {
    std::string S = print(E);
    return precedence(E, Words) >= Min ? S : "(" + S + ")";
  }

  std::string unary(const UnaryExpr &U) {
    if (U.op() == UnaryExpr::Op::Not)
      return (Words ? "not " : "!") + operand(U.operand(), Unary);
    return "-" + operand(U.operand(), Primary);
  }

  std::string binary(const BinaryExpr &B) {
    using Op = BinaryExpr::Op;
    if (B.op() == Op::And || B.op() == Op::Or) {
      // Each side: parenthesized if it is the other logical operator.
      Op Other = B.op() == Op::And ? Op::Or : Op::And;
      auto Side = [&](const Expr &E) {
        const auto *C = llvm::dyn_cast<BinaryExpr>(&E);
        std::string S = print(E);
        return C && C->op() == Other ? "(" + S + ")" : S;
      };
      llvm::StringRef Word = B.op() == Op::And ? "and" : "or";
      return Side(B.lhs()) + " " +
             (Words ? Word.str() : opSpelling(B.op()).str()) + " " +
             Side(B.rhs());
    }
    int P = precedence(B, Words);
    int LeftMin = isComparison(B.op()) ? P + 1 : P;
    return operand(B.lhs(), LeftMin) + " " + opSpelling(B.op()).str() + " " +
           operand(B.rhs(), P + 1);
  }

  std::string call(const CallExpr &C) {
    if (Words && C.fn() == CallExpr::Fn::Align)
      return operand(C.arg(0), Unary) + " rounded up to a multiple of " +
             operand(C.arg(1), Unary);
    if (Words && C.fn() == CallExpr::Fn::Select)
      return operand(C.arg(1), Or) + " if " + print(C.arg(0)) + ", otherwise " +
             operand(C.arg(2), Or);
    std::string S = functionName(C.fn()).str() + "(";
    for (size_t I = 0; I < C.args().size(); ++I)
      S += (I ? ", " : "") + print(C.arg(I));
    return S + ")";
  }

  std::string in(const InExpr &In) {
    std::string S = operand(In.subject(), Compare + 1) + " in ";
    S += In.isRange() ? "[" : "{";
    for (size_t I = 0; I < In.items().size(); ++I)
      S += (I ? ", " : "") + print(*In.items()[I]);
    return S + (In.isRange() ? "]" : "}");
  }
};

} // namespace

std::string print(const Expr &E) { return Printer(/*Words=*/false).print(E); }

std::string describe(const Expr &E) {
  return Printer(/*Words=*/true).print(E);
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
