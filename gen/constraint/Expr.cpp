//===- Expr.cpp - Syntax tree of the constraint language --------------------===//
//
// Names and types of references, operators and functions, and the walks
// every consumer of the tree shares: constant folding of integer
// expressions, finding calls and visiting references in source order.
//
//===----------------------------------------------------------------------===//
#include "constraint/Expr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace gen {
namespace constraint {

llvm::StringRef typeName(Type T) {
  switch (T) {
  case Type::Int:
    return "int";
  case Type::Float:
    return "float";
  case Type::Bool:
    return "bool";
  case Type::String:
    return "string";
  case Type::DType:
    return "dtype";
  }
  llvm_unreachable("unknown constraint type");
}

llvm::StringRef propertyName(Reference::Prop P) {
  switch (P) {
  case Reference::Prop::DType:
    return "dtype";
  case Reference::Prop::Rank:
    return "rank";
  case Reference::Prop::Dim:
    return "dim";
  case Reference::Prop::Channels:
    return "channels";
  case Reference::Prop::IsConstant:
    return "is_constant";
  case Reference::Prop::Scale:
    return "scale";
  case Reference::Prop::ZeroPoint:
    return "zero_point";
  case Reference::Prop::PerChannel:
    return "per_channel";
  case Reference::Prop::NumElements:
    return "num_elements";
  }
  llvm_unreachable("unknown property");
}

Type Reference::type() const {
  switch (K) {
  case Kind::Attr:
    switch (AttrKind) {
    case AttrInfo::Int:
      return Type::Int;
    case AttrInfo::Float:
      return Type::Float;
    case AttrInfo::Bool:
      return Type::Bool;
    case AttrInfo::String:
      return Type::String;
    case AttrInfo::Ints:
      break;
    }
    llvm_unreachable("list attributes cannot be referenced");
  case Kind::NumInputs:
  case Kind::NumOutputs:
  case Kind::Macs:
    return Type::Int;
  case Kind::OpType:
    return Type::String;
  case Kind::Input:
  case Kind::Output:
    break;
  }
  switch (P) {
  case Prop::DType:
    return Type::DType;
  case Prop::IsConstant:
  case Prop::PerChannel:
    return Type::Bool;
  case Prop::Scale:
    return Type::Float;
  case Prop::Rank:
  case Prop::Dim:
  case Prop::Channels:
  case Prop::ZeroPoint:
  case Prop::NumElements:
    return Type::Int;
  }
  llvm_unreachable("unknown property");
}

std::string Reference::spelling() const {
  std::string S = Capture.empty() ? "" : Capture + ".";
  switch (K) {
  case Kind::Attr:
    return S + Attr;
  case Kind::NumInputs:
    return S + "num_inputs";
  case Kind::NumOutputs:
    return S + "num_outputs";
  case Kind::Macs:
    return S + "macs";
  case Kind::OpType:
    return S + "op";
  case Kind::Input:
  case Kind::Output:
    break;
  }
  S += llvm::formatv("{0}({1}).{2}", K == Kind::Input ? "input" : "output",
                     std::to_string(Index), propertyName(P))
           .str();
  if (P == Prop::Dim)
    S += "(" + std::to_string(Axis) + ")";
  return S;
}

bool Reference::isProbeable() const {
  if (K == Kind::Attr)
    return AttrKind == AttrInfo::Int;
  if (K == Kind::Input || K == Kind::Output)
    return P == Prop::Rank || P == Prop::Dim || P == Prop::Channels;
  return false;
}

bool Reference::isSettable() const { return K != Kind::Macs; }

static Type literalType(const LiteralExpr::Value &V) {
  switch (V.index()) {
  case 0:
    return Type::Int;
  case 1:
    return Type::Float;
  case 2:
    return Type::Bool;
  case 3:
    return Type::String;
  default:
    return Type::DType;
  }
}

LiteralExpr::LiteralExpr(Value V, unsigned Column)
    : Expr(Kind::Literal, literalType(V), Column), V(std::move(V)) {}

llvm::StringRef opSpelling(BinaryExpr::Op O) {
  using Op = BinaryExpr::Op;
  switch (O) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Rem:
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
  case Op::And:
    return "&&";
  case Op::Or:
    return "||";
  }
  llvm_unreachable("unknown binary operator");
}

bool isComparison(BinaryExpr::Op O) {
  using Op = BinaryExpr::Op;
  return O == Op::Eq || O == Op::Ne || O == Op::Lt || O == Op::Le ||
         O == Op::Gt || O == Op::Ge;
}

bool isArithmetic(BinaryExpr::Op O) {
  using Op = BinaryExpr::Op;
  return O == Op::Add || O == Op::Sub || O == Op::Mul || O == Op::Div ||
         O == Op::Rem;
}

llvm::StringRef functionName(CallExpr::Fn F) {
  switch (F) {
  case CallExpr::Fn::Min:
    return "min";
  case CallExpr::Fn::Max:
    return "max";
  case CallExpr::Fn::Ceil:
    return "ceil";
  case CallExpr::Fn::Floor:
    return "floor";
  case CallExpr::Fn::Align:
    return "align";
  case CallExpr::Fn::Select:
    return "select";
  }
  llvm_unreachable("unknown function");
}

std::optional<CallExpr::Fn> functionNamed(llvm::StringRef Name) {
  using Fn = CallExpr::Fn;
  for (Fn F : {Fn::Min, Fn::Max, Fn::Ceil, Fn::Floor, Fn::Align, Fn::Select})
    if (functionName(F) == Name)
      return F;
  return std::nullopt;
}

unsigned functionArity(CallExpr::Fn F) {
  switch (F) {
  case CallExpr::Fn::Ceil:
  case CallExpr::Fn::Floor:
    return 1;
  case CallExpr::Fn::Min:
  case CallExpr::Fn::Max:
  case CallExpr::Fn::Align:
    return 2;
  case CallExpr::Fn::Select:
    return 3;
  }
  llvm_unreachable("unknown function");
}

bool hasCall(const Expr &E) {
  switch (E.kind()) {
  case Expr::Kind::Literal:
  case Expr::Kind::Ref:
    return false;
  case Expr::Kind::Unary:
    return hasCall(llvm::cast<UnaryExpr>(E).operand());
  case Expr::Kind::Binary: {
    const auto &B = llvm::cast<BinaryExpr>(E);
    return hasCall(B.lhs()) || hasCall(B.rhs());
  }
  case Expr::Kind::In: {
    const auto &In = llvm::cast<InExpr>(E);
    return hasCall(In.subject()) ||
           llvm::any_of(In.items(),
                        [](const ExprPtr &Item) { return hasCall(*Item); });
  }
  case Expr::Kind::Call:
    return true;
  }
  llvm_unreachable("unknown expression kind");
}

std::optional<int64_t> constantInt(const Expr &E) {
  if (E.type() != Type::Int)
    return std::nullopt;
  if (const auto *L = llvm::dyn_cast<LiteralExpr>(&E))
    return std::get<int64_t>(L->value());
  if (const auto *U = llvm::dyn_cast<UnaryExpr>(&E)) {
    std::optional<int64_t> V = constantInt(U->operand());
    if (!V || *V == INT64_MIN)
      return std::nullopt;
    return -*V;
  }
  const auto *B = llvm::dyn_cast<BinaryExpr>(&E);
  if (!B || !isArithmetic(B->op()))
    return std::nullopt;
  std::optional<int64_t> L = constantInt(B->lhs());
  std::optional<int64_t> R = constantInt(B->rhs());
  if (!L || !R)
    return std::nullopt;
  int64_t Out = 0;
  switch (B->op()) {
  case BinaryExpr::Op::Add:
    if (__builtin_add_overflow(*L, *R, &Out))
      return std::nullopt;
    return Out;
  case BinaryExpr::Op::Sub:
    if (__builtin_sub_overflow(*L, *R, &Out))
      return std::nullopt;
    return Out;
  case BinaryExpr::Op::Mul:
    if (__builtin_mul_overflow(*L, *R, &Out))
      return std::nullopt;
    return Out;
  case BinaryExpr::Op::Div:
  case BinaryExpr::Op::Rem:
    if (*R == 0 || (*L == INT64_MIN && *R == -1))
      return std::nullopt;
    return B->op() == BinaryExpr::Op::Div ? *L / *R : *L % *R;
  default:
    return std::nullopt;
  }
}

void forEachRef(const Expr &E, llvm::function_ref<void(const RefExpr &)> Fn) {
  switch (E.kind()) {
  case Expr::Kind::Literal:
    return;
  case Expr::Kind::Ref:
    Fn(llvm::cast<RefExpr>(E));
    return;
  case Expr::Kind::Unary:
    forEachRef(llvm::cast<UnaryExpr>(E).operand(), Fn);
    return;
  case Expr::Kind::Binary: {
    const auto &B = llvm::cast<BinaryExpr>(E);
    forEachRef(B.lhs(), Fn);
    forEachRef(B.rhs(), Fn);
    return;
  }
  case Expr::Kind::In: {
    const auto &In = llvm::cast<InExpr>(E);
    forEachRef(In.subject(), Fn);
    for (const ExprPtr &Item : In.items())
      forEachRef(*Item, Fn);
    return;
  }
  case Expr::Kind::Call:
    for (const ExprPtr &Arg : llvm::cast<CallExpr>(E).args())
      forEachRef(*Arg, Fn);
    return;
  }
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
