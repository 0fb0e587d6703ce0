//===- Expr.h - Syntax tree of the constraint language ----------------------===//
//
// A constraint expression after parsing and type checking: literals,
// references to what the operator being checked carries (attributes, operand
// and result properties, operand counts, its multiply-accumulate count),
// unary and binary operators, `x in [a, b]` / `x in {a, b}` membership and
// calls of the built-in functions (`min`, `max`, `ceil`, `floor`, `align`,
// `select`). Every node records its value type and the 1-based column it
// starts or operates at, for diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_CONSTRAINT_EXPR_H
#define ACCELGEN_GEN_CONSTRAINT_EXPR_H

#include "ir/DType.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace accelgen {
namespace gen {
namespace constraint {

/// The type of a constraint value.
enum class Type { Int, Float, Bool, String, DType };

/// The name of \p T as diagnostics spell it: "int", "float", "bool",
/// "string", "dtype".
llvm::StringRef typeName(Type T);

/// A declared attribute of an operator, as the constraint language sees it.
struct AttrInfo {
  std::string Name;
  enum Kind { Int, Float, Bool, String, Ints } K = Int;
};

/// What a name in a constraint refers to.
struct Reference {
  enum class Kind { Attr, Input, Output, NumInputs, NumOutputs, Macs, OpType };
  enum class Prop {
    DType,
    Rank,
    Dim,
    Channels,
    IsConstant,
    Scale,
    ZeroPoint,
    PerChannel,
    NumElements
  };

  Kind K = Kind::Attr;
  /// The fusion-pattern capture it is qualified by ("conv"), or "".
  std::string Capture;
  /// Macs is the operator's multiply-accumulate count
  /// (analysis::operatorMacs); OpType its type name (`op`, "CONV_2D"). For
  /// Attr: the attribute name and kind (never Ints).
  std::string Attr;
  AttrInfo::Kind AttrKind = AttrInfo::Int;
  /// For Input and Output: the operand or result index and the property.
  unsigned Index = 0;
  Prop P = Prop::DType;
  /// For Dim: the axis, negative counting from the end.
  int64_t Axis = 0;

  /// The value type of the reference.
  Type type() const;
  /// The reference as written canonically: "conv.input(0).dim(-1)".
  std::string spelling() const;
  /// True for an integer whose boundaries tests can probe: an int attribute,
  /// or an operand's or result's rank, dim or channels.
  bool isProbeable() const;
  /// True for what a probe can set on the operator it builds: anything but
  /// `macs`.
  bool isSettable() const;
};

/// The name of property \p P as written ("zero_point").
llvm::StringRef propertyName(Reference::Prop P);

/// A node of a constraint expression.
class Expr {
public:
  enum class Kind { Literal, Ref, Unary, Binary, In, Call };

  virtual ~Expr() = default;
  Kind kind() const { return K; }
  /// The value type; set by the type checker for operators.
  Type type() const { return Ty; }
  void setType(Type T) { Ty = T; }
  /// The 1-based column of the literal, reference or operator token.
  unsigned column() const { return Column; }

protected:
  Expr(Kind K, Type Ty, unsigned Column) : K(K), Ty(Ty), Column(Column) {}

private:
  Kind K;
  Type Ty;
  unsigned Column;
};

/// An owned expression.
using ExprPtr = std::unique_ptr<Expr>;

/// A literal value: 4, 1.5, true, "VALID", i8, or `none` (the dtype of an
/// absent operand, held as an empty optional).
class LiteralExpr : public Expr {
public:
  using Value = std::variant<int64_t, double, bool, std::string,
                             std::optional<ir::DType>>;

  LiteralExpr(Value V, unsigned Column);
  const Value &value() const { return V; }
  static bool classof(const Expr *E) { return E->kind() == Kind::Literal; }

private:
  Value V;
};

/// A reference to an attribute or an operand/result property.
class RefExpr : public Expr {
public:
  RefExpr(Reference R, unsigned Column)
      : Expr(Kind::Ref, R.type(), Column), R(std::move(R)) {}
  const Reference &ref() const { return R; }
  static bool classof(const Expr *E) { return E->kind() == Kind::Ref; }

private:
  Reference R;
};

/// `!x` or `-x`.
class UnaryExpr : public Expr {
public:
  enum class Op { Not, Neg };

  UnaryExpr(Op O, ExprPtr Operand, unsigned Column)
      : Expr(Kind::Unary, Type::Bool, Column), O(O),
        Operand(std::move(Operand)) {}
  Op op() const { return O; }
  const Expr &operand() const { return *Operand; }
  static bool classof(const Expr *E) { return E->kind() == Kind::Unary; }

private:
  Op O;
  ExprPtr Operand;
};

/// Arithmetic, comparison and logical binary operators.
class BinaryExpr : public Expr {
public:
  enum class Op { Add, Sub, Mul, Div, Rem, Eq, Ne, Lt, Le, Gt, Ge, And, Or };

  BinaryExpr(Op O, ExprPtr LHS, ExprPtr RHS, unsigned Column)
      : Expr(Kind::Binary, Type::Bool, Column), O(O), LHS(std::move(LHS)),
        RHS(std::move(RHS)) {}
  Op op() const { return O; }
  const Expr &lhs() const { return *LHS; }
  const Expr &rhs() const { return *RHS; }
  static bool classof(const Expr *E) { return E->kind() == Kind::Binary; }

private:
  Op O;
  ExprPtr LHS, RHS;
};

/// The source spelling of \p O ("<=").
llvm::StringRef opSpelling(BinaryExpr::Op O);
/// True for == != < <= > >=.
bool isComparison(BinaryExpr::Op O);
/// True for + - * / %.
bool isArithmetic(BinaryExpr::Op O);

/// `x in [lo, hi]` (inclusive range) or `x in {a, b, ...}` (set).
class InExpr : public Expr {
public:
  InExpr(ExprPtr Subject, bool IsRange, std::vector<ExprPtr> Items,
         unsigned Column)
      : Expr(Kind::In, Type::Bool, Column), Subject(std::move(Subject)),
        IsRange(IsRange), Items(std::move(Items)) {}
  const Expr &subject() const { return *Subject; }
  bool isRange() const { return IsRange; }
  /// Two bounds for a range, the members for a set.
  const std::vector<ExprPtr> &items() const { return Items; }
  static bool classof(const Expr *E) { return E->kind() == Kind::In; }

private:
  ExprPtr Subject;
  bool IsRange;
  std::vector<ExprPtr> Items;
};

/// A call of a built-in function: `min(a, b)`, `max(a, b)`, `ceil(x)`,
/// `floor(x)`, `align(x, n)`, `select(c, a, b)`.
class CallExpr : public Expr {
public:
  enum class Fn { Min, Max, Ceil, Floor, Align, Select };

  /// \p Column is that of the function name; \p ArgColumns those of the
  /// first token of each argument.
  CallExpr(Fn F, std::vector<ExprPtr> Args, std::vector<unsigned> ArgColumns,
           unsigned Column)
      : Expr(Kind::Call, Type::Int, Column), F(F), Args(std::move(Args)),
        ArgColumns(std::move(ArgColumns)) {}
  Fn fn() const { return F; }
  const std::vector<ExprPtr> &args() const { return Args; }
  const Expr &arg(size_t I) const { return *Args[I]; }
  /// The 1-based column where argument \p I starts.
  unsigned argColumn(size_t I) const { return ArgColumns[I]; }
  static bool classof(const Expr *E) { return E->kind() == Kind::Call; }

private:
  Fn F;
  std::vector<ExprPtr> Args;
  std::vector<unsigned> ArgColumns;
};

/// The name of \p F as written ("align").
llvm::StringRef functionName(CallExpr::Fn F);
/// The function named \p Name, if there is one.
std::optional<CallExpr::Fn> functionNamed(llvm::StringRef Name);
/// The number of arguments \p F takes.
unsigned functionArity(CallExpr::Fn F);

/// True when \p E contains a function call.
bool hasCall(const Expr &E);

/// The value of \p E if it is an int expression without references or calls
/// whose evaluation cannot fail (no division by zero, no overflow).
std::optional<int64_t> constantInt(const Expr &E);

/// Calls \p Fn on every reference in \p E, left to right.
void forEachRef(const Expr &E, llvm::function_ref<void(const RefExpr &)> Fn);

} // namespace constraint
} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_CONSTRAINT_EXPR_H
