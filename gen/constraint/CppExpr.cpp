//===- CppExpr.cpp - Constraint expressions as C++
//--------------------------===//
//
// Local names are derived from the reference (`stride_h`, `input1_dim3`,
// `input0_dim_m1`, `conv_stride_h`), made unique and kept clear of C++
// keywords and of the check's own parameters. Parentheses in the condition
// follow C++ precedence, plus those -Wparentheses asks for (`&&` inside
// `||`, a comparison inside a comparison).
//
//===----------------------------------------------------------------------===//
#include "constraint/CppExpr.h"
#include "constraint/Escape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

enum Prec {
  LOr = 1,
  LAnd,
  Equality,
  Relational,
  Additive,
  Multiplicative,
  Unary,
  Primary
};

const char *const Reserved[] = {
    // The check's parameters and the names its declarations use.
    "G", "Op", "C", "Message", "rt", "std", "accelgen", "int64_t",
    // C++ keywords and alternative tokens.
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char16_t", "char32_t", "char8_t",
    "class", "co_await", "co_return", "co_yield", "compl", "concept", "const",
    "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "register", "reinterpret_cast", "requires", "return",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};

llvm::StringRef cppType(Type T) {
  switch (T) {
  case Type::Int:
    return "int64_t";
  case Type::Float:
    return "double";
  case Type::Bool:
    return "bool";
  case Type::String:
    return "std::string";
  case Type::DType:
    return "rt::MaybeDType";
  }
  llvm_unreachable("unknown constraint type");
}

llvm::StringRef propertyFunction(Reference::Prop P) {
  switch (P) {
  case Reference::Prop::DType:
    return "DType";
  case Reference::Prop::Rank:
    return "Rank";
  case Reference::Prop::Dim:
    return "Dim";
  case Reference::Prop::Channels:
    return "Channels";
  case Reference::Prop::IsConstant:
    return "IsConstant";
  case Reference::Prop::Scale:
    return "Scale";
  case Reference::Prop::ZeroPoint:
    return "ZeroPoint";
  case Reference::Prop::PerChannel:
    return "PerChannel";
  case Reference::Prop::NumElements:
    return "NumElements";
  }
  llvm_unreachable("unknown property");
}

std::string localBase(const Reference &R) {
  std::string Prefix = R.Capture.empty() ? "" : R.Capture + "_";
  switch (R.K) {
  case Reference::Kind::Attr:
    return Prefix + R.Attr;
  case Reference::Kind::NumInputs:
    return Prefix + "num_inputs";
  case Reference::Kind::NumOutputs:
    return Prefix + "num_outputs";
  case Reference::Kind::Macs:
    return Prefix + "macs";
  case Reference::Kind::OpType:
    return Prefix + "op";
  case Reference::Kind::Input:
  case Reference::Kind::Output:
    break;
  }
  std::string S =
      llvm::formatv("{0}{1}{2}_{3}", Prefix,
                    R.K == Reference::Kind::Input ? "input" : "output",
                    std::to_string(R.Index), propertyName(R.P));
  if (R.P == Reference::Prop::Dim)
    S += R.Axis < 0 ? "_m" + std::to_string(-R.Axis) : std::to_string(R.Axis);
  return S;
}

std::string accessor(const Reference &R, llvm::StringRef OpVar) {
  switch (R.K) {
  case Reference::Kind::Attr: {
    static const char *const Fns[] = {"attrInt", "attrFloat", "attrBool",
                                      "attrString"};
    return llvm::formatv("rt::{0}({1}, {2})", Fns[R.AttrKind], OpVar,
                         cppStringLiteral(R.Attr));
  }
  case Reference::Kind::NumInputs:
    return llvm::formatv("rt::numInputs({0})", OpVar);
  case Reference::Kind::NumOutputs:
    return llvm::formatv("rt::numOutputs({0})", OpVar);
  case Reference::Kind::Macs:
    return llvm::formatv("rt::macs(G, {0})", OpVar);
  case Reference::Kind::OpType:
    return llvm::formatv("rt::opType({0})", OpVar);
  case Reference::Kind::Input:
  case Reference::Kind::Output:
    break;
  }
  std::string Axis =
      R.P == Reference::Prop::Dim ? ", " + std::to_string(R.Axis) : "";
  return llvm::formatv("rt::{0}{1}(G, {2}, {3}{4})",
                       R.K == Reference::Kind::Input ? "input" : "output",
                       propertyFunction(R.P), OpVar, std::to_string(R.Index),
                       Axis);
}

bool isStringLiteral(const Expr &E) {
  const auto *L = llvm::dyn_cast<LiteralExpr>(&E);
  return L && std::holds_alternative<std::string>(L->value());
}

} // namespace

llvm::StringRef dtypeEnumerator(ir::DType T) {
  switch (T) {
  case ir::DType::I8:
    return "I8";
  case ir::DType::U8:
    return "U8";
  case ir::DType::I16:
    return "I16";
  case ir::DType::I32:
    return "I32";
  case ir::DType::I64:
    return "I64";
  case ir::DType::F16:
    return "F16";
  case ir::DType::F32:
    return "F32";
  case ir::DType::Bool:
    return "Bool";
  case ir::DType::U32:
    return "U32";
  }
  llvm_unreachable("unknown dtype");
}

/// The shortest C++ double literal that reads back as \p V exactly.
std::string cppDouble(double V) {
  char Buf[40];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
    if (std::strtod(Buf, nullptr) == V)
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return S;
}

CppExprWriter::CppExprWriter(const Expr &E, CheckKind Kind,
                             llvm::StringRef Id) {
  forEachRef(E, [&](const RefExpr &R) { addLocal(R.ref(), Kind, Id); });
}

std::string CppExprWriter::unique(std::string Base) {
  if (Base.empty() || Base[0] == '_')
    Base = "v" + Base;
  std::string Name = Base;
  for (unsigned N = 2;
       Taken.count(Name) || llvm::is_contained(Reserved, llvm::StringRef(Name));
       ++N)
    Name = Base + "_" + std::to_string(N);
  Taken.insert(Name);
  return Name;
}

void CppExprWriter::addLocal(const Reference &R, CheckKind Kind,
                             llvm::StringRef Id) {
  std::string Spelling = R.spelling();
  if (LocalBySpelling.count(Spelling))
    return;
  std::string OpVar = "Op";
  if (Kind == CheckKind::Pattern) {
    if (R.Capture.empty())
      llvm::report_fatal_error("constraint '" + Id + "': '" + Spelling +
                               "' names no capture, so a pattern check "
                               "cannot evaluate it");
    auto It = CaptureNames.find(R.Capture);
    if (It == CaptureNames.end()) {
      It = CaptureNames.emplace(R.Capture, unique(R.Capture)).first;
      Captures.push_back({It->second, R.Capture});
    }
    OpVar = It->second;
  } else if (!R.Capture.empty()) {
    llvm::report_fatal_error("constraint '" + Id + "': '" + Spelling +
                             "' names a capture, so only a pattern check "
                             "can evaluate it");
  }
  if (R.K == Reference::Kind::Input || R.K == Reference::Kind::Output ||
      R.K == Reference::Kind::Macs)
    ReadsTensors = true;
  LocalBySpelling[Spelling] = Locals.size();
  Locals.push_back({unique(localBase(R)), Spelling, cppType(R.type()).str(),
                    accessor(R, OpVar)});
}

std::string CppExprWriter::condition(const Expr &E) const { return emit(E).S; }

static std::string wrap(const std::string &S, int Prec, int Min) {
  return Prec >= Min ? S : "(" + S + ")";
}

CppExprWriter::Text CppExprWriter::emit(const Expr &E) const {
  if (const auto *L = llvm::dyn_cast<LiteralExpr>(&E)) {
    const LiteralExpr::Value &V = L->value();
    if (const auto *I = std::get_if<int64_t>(&V))
      return {std::to_string(*I), Primary};
    if (const auto *D = std::get_if<double>(&V))
      return {cppDouble(*D), Primary};
    if (const auto *B = std::get_if<bool>(&V))
      return {*B ? "true" : "false", Primary};
    if (const auto *S = std::get_if<std::string>(&V))
      return {cppStringLiteral(*S), Primary};
    const auto &D = std::get<std::optional<ir::DType>>(V);
    if (!D) // `none`: the dtype of an absent operand.
      return {"rt::MaybeDType()", Primary};
    return {"rt::DType::" + dtypeEnumerator(*D).str(), Primary};
  }
  if (const auto *R = llvm::dyn_cast<RefExpr>(&E))
    return {Locals[LocalBySpelling.at(R->ref().spelling())].Name, Primary};
  if (const auto *U = llvm::dyn_cast<UnaryExpr>(&E)) {
    Text Operand = emit(U->operand());
    if (U->op() == UnaryExpr::Op::Not)
      return {"!" + wrap(Operand.S, Operand.Prec, Unary), Unary};
    if (U->type() == Type::Int)
      return {"rt::neg(" + Operand.S + ")", Primary};
    bool Paren = Operand.Prec < Unary || Operand.S[0] == '-';
    return {"-" + (Paren ? "(" + Operand.S + ")" : Operand.S), Unary};
  }
  if (const auto *B = llvm::dyn_cast<BinaryExpr>(&E))
    return binary(*B);
  if (const auto *C = llvm::dyn_cast<CallExpr>(&E))
    return call(*C);
  return in(llvm::cast<InExpr>(E));
}

CppExprWriter::Text CppExprWriter::call(const CallExpr &C) const {
  using Fn = CallExpr::Fn;
  std::vector<std::string> Args;
  for (const ExprPtr &A : C.args())
    Args.push_back(emit(*A).S);
  bool IsFloat = C.type() == Type::Float;
  switch (C.fn()) {
  case Fn::Min:
  case Fn::Max:
    return {llvm::formatv("rt::{0}{1}({2}, {3})", IsFloat ? "f" : "",
                          functionName(C.fn()), Args[0], Args[1]),
            Primary};
  case Fn::Ceil:
  case Fn::Floor:
    // An int is its own ceiling and floor.
    if (C.arg(0).type() == Type::Int)
      return emit(C.arg(0));
    return {llvm::formatv("rt::{0}({1})", functionName(C.fn()), Args[0]),
            Primary};
  case Fn::Align:
    return {llvm::formatv("rt::align({0}, {1})", Args[0], Args[1]), Primary};
  case Fn::Select:
    return {llvm::formatv("({0} ? {1} : {2})", Args[0], Args[1], Args[2]),
            Primary};
  }
  llvm_unreachable("unknown function");
}

/// `L op R` for a comparison; a string literal on the left becomes a
/// std::string so that two literals are not compared as pointers.
static std::string compare(const Expr &L, const std::string &LS, int LPrec,
                           llvm::StringRef Op, const std::string &RS,
                           int RPrec) {
  std::string Left = isStringLiteral(L) ? "std::string(" + LS + ")"
                                        : wrap(LS, LPrec, Additive);
  return Left + " " + Op.str() + " " + wrap(RS, RPrec, Additive);
}

CppExprWriter::Text CppExprWriter::binary(const BinaryExpr &B) const {
  using Op = BinaryExpr::Op;
  Text L = emit(B.lhs()), R = emit(B.rhs());
  if (B.op() == Op::And || B.op() == Op::Or) {
    Op Other = B.op() == Op::And ? Op::Or : Op::And;
    auto Side = [&](const Expr &E, const Text &T) {
      const auto *C = llvm::dyn_cast<BinaryExpr>(&E);
      return C && C->op() == Other ? "(" + T.S + ")" : T.S;
    };
    return {Side(B.lhs(), L) + " " + opSpelling(B.op()).str() + " " +
                Side(B.rhs(), R),
            B.op() == Op::And ? LAnd : LOr};
  }
  if (isComparison(B.op())) {
    int P = B.op() == Op::Eq || B.op() == Op::Ne ? Equality : Relational;
    return {compare(B.lhs(), L.S, L.Prec, opSpelling(B.op()), R.S, R.Prec), P};
  }
  if (B.type() == Type::Int) {
    llvm::StringRef Fn = B.op() == Op::Add   ? "add"
                         : B.op() == Op::Sub ? "sub"
                         : B.op() == Op::Mul ? "mul"
                         : B.op() == Op::Div ? "div"
                                             : "rem";
    return {llvm::formatv("rt::{0}({1}, {2})", Fn, L.S, R.S), Primary};
  }
  int P = B.op() == Op::Add || B.op() == Op::Sub ? Additive : Multiplicative;
  return {wrap(L.S, L.Prec, P) + " " + opSpelling(B.op()).str() + " " +
              wrap(R.S, R.Prec, P + 1),
          P};
}

CppExprWriter::Text CppExprWriter::in(const InExpr &In) const {
  Text S = emit(In.subject());
  std::vector<std::string> Parts;
  if (In.isRange()) {
    Text Lo = emit(*In.items()[0]), Hi = emit(*In.items()[1]);
    Parts.push_back(compare(In.subject(), S.S, S.Prec, ">=", Lo.S, Lo.Prec));
    Parts.push_back(compare(In.subject(), S.S, S.Prec, "<=", Hi.S, Hi.Prec));
  } else {
    for (const ExprPtr &Member : In.items()) {
      Text M = emit(*Member);
      Parts.push_back(compare(In.subject(), S.S, S.Prec, "==", M.S, M.Prec));
    }
  }
  return {"(" + llvm::join(Parts, In.isRange() ? " && " : " || ") + ")",
          Primary};
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
