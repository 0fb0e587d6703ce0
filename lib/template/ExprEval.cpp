//===- ExprEval.cpp - Evaluation of template expressions ------------------===//
//
// A tree-walking evaluator. Types are checked, not coerced: conditions must
// be bools, `+` joins two ints, two strings or two lists, `==` compares
// values of one kind. Integer arithmetic is checked for overflow and division
// by zero; `/` truncates toward zero and `%` takes the sign of the dividend,
// as in C. Every node costs a step, strings cost one step per four bytes, and
// lists built by `range`, `+` and `join` cost a step per element, so a
// rendering's Budget bounds both its time and its memory.
//
//===----------------------------------------------------------------------===//
#include "template/Expr.h"
#include "template/TemplateError.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace accelgen {
namespace tmpl {

/// The most elements `range` may produce.
static constexpr uint64_t MaxRangeLength = 1000000;

const Value *Environment::lookup(llvm::StringRef Name) const {
  for (auto I = Locals.rbegin(), E = Locals.rend(); I != E; ++I)
    if (I->first == Name)
      return &I->second;
  auto G = Globals.find(Name);
  if (G != Globals.end())
    return &G->second;
  if (Caller) {
    auto C = Caller->find(Name);
    if (C != Caller->end())
      return &C->second;
  }
  return nullptr;
}

bool appendText(const Value &V, std::string &Out) {
  switch (V.kind()) {
  case Value::Kind::Int:
    Out += std::to_string(V.getInt());
    return true;
  case Value::Kind::Bool:
    Out += V.getBool() ? "true" : "false";
    return true;
  case Value::Kind::String:
    Out += V.getString();
    return true;
  case Value::Kind::List:
  case Value::Kind::Map:
    return false;
  }
  return false;
}

std::string withArticle(Value::Kind K) {
  llvm::StringRef N = kindName(K);
  return (K == Value::Kind::Int ? "an " : "a ") + N.str();
}

llvm::Error budgetExhausted(llvm::StringRef TemplateName, unsigned Line,
                            unsigned Column) {
  return makeTemplateError(
      TemplateName, Line, Column,
      "instantiation exceeds its step limit (an endless or too large loop?)");
}

namespace {

class Evaluator {
public:
  Evaluator(const Environment &Env, Budget &B, llvm::StringRef TemplateName)
      : Env(Env), B(B), TemplateName(TemplateName) {}

  llvm::Expected<Value> eval(const Expr &E) {
    if (!charge(1))
      return budgetExhausted(TemplateName, E.Line, E.Column);
    llvm::Expected<Value> V = evalNode(E);
    if (V && V->isString() && !charge(V->getString().size() / 4))
      return budgetExhausted(TemplateName, E.Line, E.Column);
    return V;
  }

  llvm::Expected<bool> evalBool(const Expr &E, const llvm::Twine &Context) {
    llvm::Expected<Value> V = eval(E);
    if (!V)
      return V.takeError();
    if (!V->isBool())
      return error(E,
                   Context + " must be a bool, got " + withArticle(V->kind()));
    return V->getBool();
  }

private:
  const Environment &Env;
  Budget &B;
  llvm::StringRef TemplateName;

  bool charge(uint64_t N) {
    if (B.Steps < N) {
      B.Steps = 0;
      return false;
    }
    B.Steps -= N;
    return true;
  }

  /// Deep equality that charges a step per value visited and per four bytes
  /// of every string compared, so that comparing lists which share their
  /// storage many times over cannot run unbounded; nothing once the budget is
  /// spent. Recursion is bounded by MaxValueDepth.
  std::optional<bool> equal(const Value &A, const Value &C) {
    if (!charge(1))
      return std::nullopt;
    if (A.kind() != C.kind())
      return false;
    switch (A.kind()) {
    case Value::Kind::String:
      if (!charge(std::min(A.getString().size(), C.getString().size()) / 4))
        return std::nullopt;
      return A.getString() == C.getString();
    case Value::Kind::List: {
      const Value::List &X = A.getList(), &Y = C.getList();
      if (X.size() != Y.size())
        return false;
      for (size_t I = 0; I < X.size(); ++I) {
        std::optional<bool> Same = equal(X[I], Y[I]);
        if (!Same || !*Same)
          return Same;
      }
      return true;
    }
    case Value::Kind::Map: {
      const Value::Map &X = A.getMap(), &Y = C.getMap();
      if (X.size() != Y.size())
        return false;
      for (auto I = X.begin(), J = Y.begin(); I != X.end(); ++I, ++J) {
        if (!charge(1 + I->first.size() / 4))
          return std::nullopt;
        if (I->first != J->first)
          return false;
        std::optional<bool> Same = equal(I->second, J->second);
        if (!Same || !*Same)
          return Same;
      }
      return true;
    }
    default:
      return A == C;
    }
  }

  llvm::Error error(const Expr &E, const llvm::Twine &Message) {
    return makeTemplateError(TemplateName, E.Line, E.Column, Message);
  }

  llvm::Expected<Value> checkedString(const Expr &E, std::string S) {
    if (S.size() > B.MaxStringBytes)
      return error(E, "string longer than " + llvm::Twine(B.MaxStringBytes) +
                          " bytes");
    return Value(std::move(S));
  }

  llvm::Expected<Value> evalNode(const Expr &E) {
    switch (E.K) {
    case Expr::Literal:
      return E.Lit;
    case Expr::Name:
      if (const Value *V = Env.lookup(E.Text))
        return *V;
      return error(E, "unknown name '" + E.Text + "'");
    case Expr::List:
      return evalList(E);
    case Expr::Index:
      return evalIndex(E);
    case Expr::Member:
      return evalMember(E);
    case Expr::Call:
      return evalCall(E);
    case Expr::Neg: {
      llvm::Expected<Value> V = eval(*E.Operands[0]);
      if (!V)
        return V.takeError();
      if (!V->isInt())
        return error(E, "'-' needs an int, got " + withArticle(V->kind()));
      if (V->getInt() == std::numeric_limits<int64_t>::min())
        return error(E, "integer overflow in '-'");
      return Value(-V->getInt());
    }
    case Expr::Not: {
      llvm::Expected<bool> V = evalBool(*E.Operands[0], "the operand of 'not'");
      if (!V)
        return V.takeError();
      return Value(!*V);
    }
    case Expr::And:
    case Expr::Or: {
      bool IsAnd = E.K == Expr::And;
      llvm::StringRef Word = IsAnd ? "and" : "or";
      llvm::Expected<bool> L =
          evalBool(*E.Operands[0], "the left operand of '" + Word + "'");
      if (!L)
        return L.takeError();
      if (*L != IsAnd) // false and _, true or _
        return Value(*L);
      llvm::Expected<bool> R =
          evalBool(*E.Operands[1], "the right operand of '" + Word + "'");
      if (!R)
        return R.takeError();
      return Value(*R);
    }
    case Expr::Cond: {
      llvm::Expected<bool> C =
          evalBool(*E.Operands[1], "the condition of 'X if C else Y'");
      if (!C)
        return C.takeError();
      return eval(*E.Operands[*C ? 0 : 2]);
    }
    case Expr::Arith:
    case Expr::Compare:
    case Expr::In:
    case Expr::NotIn: {
      llvm::Expected<Value> L = eval(*E.Operands[0]);
      if (!L)
        return L.takeError();
      llvm::Expected<Value> R = eval(*E.Operands[1]);
      if (!R)
        return R.takeError();
      if (E.K == Expr::Arith)
        return evalArith(E, *L, *R);
      if (E.K == Expr::Compare)
        return evalCompare(E, *L, *R);
      llvm::Expected<bool> Found = evalIn(E, *L, *R);
      if (!Found)
        return Found.takeError();
      return Value(*Found == (E.K == Expr::In));
    }
    }
    return error(E, "unsupported expression");
  }

  llvm::Expected<Value> evalList(const Expr &E) {
    Value::List L;
    L.reserve(E.Operands.size());
    for (const ExprPtr &O : E.Operands) {
      llvm::Expected<Value> V = eval(*O);
      if (!V)
        return V.takeError();
      L.push_back(std::move(*V));
    }
    Value V(std::move(L));
    if (V.depth() > MaxValueDepth)
      return error(E, "list nested more than " + llvm::Twine(MaxValueDepth) +
                          " levels deep");
    return V;
  }

  /// Turns index \p I of a sequence of \p Size into a position, counting
  /// negative indices from the end.
  llvm::Expected<size_t> position(const Expr &E, int64_t I, size_t Size,
                                  llvm::StringRef What) {
    int64_t N = static_cast<int64_t>(Size);
    if (I < -N || I >= N)
      return error(E, "index " + llvm::Twine(I) + " out of range for " + What +
                          " of length " + llvm::Twine(N));
    return static_cast<size_t>(I < 0 ? I + N : I);
  }

  llvm::Expected<Value> evalIndex(const Expr &E) {
    llvm::Expected<Value> Base = eval(*E.Operands[0]);
    if (!Base)
      return Base.takeError();
    llvm::Expected<Value> I = eval(*E.Operands[1]);
    if (!I)
      return I.takeError();
    if (Base->isMap()) {
      if (!I->isString())
        return error(E,
                     "map key must be a string, got " + withArticle(I->kind()));
      return mapEntry(E, *Base, I->getString());
    }
    if (!Base->isList() && !Base->isString())
      return error(E, "cannot index " + withArticle(Base->kind()));
    if (!I->isInt())
      return error(E, kindName(Base->kind()) + " index must be an int, got " +
                          withArticle(I->kind()));
    if (Base->isList()) {
      llvm::Expected<size_t> P =
          position(E, I->getInt(), Base->getList().size(), "a list");
      if (!P)
        return P.takeError();
      return Base->getList()[*P];
    }
    llvm::Expected<size_t> P =
        position(E, I->getInt(), Base->getString().size(), "a string");
    if (!P)
      return P.takeError();
    return Value(std::string(1, Base->getString()[*P]));
  }

  llvm::Expected<Value> mapEntry(const Expr &E, const Value &M,
                                 llvm::StringRef Key) {
    auto It = M.getMap().find(Key);
    if (It == M.getMap().end())
      return error(E, "map has no key " + repr(Value(Key), 40));
    return It->second;
  }

  llvm::Expected<Value> evalMember(const Expr &E) {
    llvm::Expected<Value> Base = eval(*E.Operands[0]);
    if (!Base)
      return Base.takeError();
    if (!Base->isMap())
      return error(E, "'." + E.Text + "' needs a map, got " +
                          withArticle(Base->kind()));
    return mapEntry(E, *Base, E.Text);
  }

  llvm::Expected<Value> evalArith(const Expr &E, const Value &L,
                                  const Value &R) {
    llvm::StringRef Sym = opSpelling(E.Operator);
    if (E.Operator == Op::Add && L.isString() && R.isString())
      return checkedString(E, L.getString() + R.getString());
    if (E.Operator == Op::Add && L.isList() && R.isList()) {
      const Value::List &A = L.getList(), &C = R.getList();
      if (!charge(A.size() + C.size()))
        return budgetExhausted(TemplateName, E.Line, E.Column);
      Value::List Sum(A);
      Sum.insert(Sum.end(), C.begin(), C.end());
      return Value(std::move(Sum));
    }
    if (!L.isInt() || !R.isInt())
      return error(
          E, "'" + Sym + "' needs two ints" +
                 (E.Operator == Op::Add ? ", two strings or two lists" : "") +
                 ", got " + kindName(L.kind()) + " and " + kindName(R.kind()));
    int64_t A = L.getInt(), C = R.getInt(), Result = 0;
    bool Overflow = false;
    switch (E.Operator) {
    case Op::Add:
      Overflow = llvm::AddOverflow(A, C, Result);
      break;
    case Op::Sub:
      Overflow = llvm::SubOverflow(A, C, Result);
      break;
    case Op::Mul:
      Overflow = llvm::MulOverflow(A, C, Result);
      break;
    case Op::Div:
    case Op::Mod:
      if (C == 0)
        return error(E, "division by zero in '" + Sym + "'");
      if (C == -1) { // INT64_MIN / -1 overflows; x % -1 is 0
        if (E.Operator == Op::Mod)
          return Value(0);
        Overflow = llvm::SubOverflow(int64_t(0), A, Result);
        break;
      }
      Result = E.Operator == Op::Div ? A / C : A % C;
      break;
    default:
      break;
    }
    if (Overflow)
      return error(E, "integer overflow in '" + Sym + "'");
    return Value(Result);
  }

  llvm::Expected<Value> evalCompare(const Expr &E, const Value &L,
                                    const Value &R) {
    llvm::StringRef Sym = opSpelling(E.Operator);
    if (E.Operator == Op::Eq || E.Operator == Op::Ne) {
      if (L.kind() != R.kind())
        return error(E, "cannot compare " + withArticle(L.kind()) + " with " +
                            withArticle(R.kind()) + " using '" + Sym + "'");
      std::optional<bool> Same = equal(L, R);
      if (!Same)
        return budgetExhausted(TemplateName, E.Line, E.Column);
      return Value(*Same == (E.Operator == Op::Eq));
    }
    int Order;
    if (L.isInt() && R.isInt())
      Order = L.getInt() < R.getInt() ? -1 : L.getInt() > R.getInt();
    else if (L.isString() && R.isString())
      Order = llvm::StringRef(L.getString()).compare(R.getString());
    else
      return error(E, "'" + Sym + "' needs two ints or two strings, got " +
                          kindName(L.kind()) + " and " + kindName(R.kind()));
    switch (E.Operator) {
    case Op::Lt:
      return Value(Order < 0);
    case Op::Le:
      return Value(Order <= 0);
    case Op::Gt:
      return Value(Order > 0);
    default:
      return Value(Order >= 0);
    }
  }

  llvm::Expected<bool> evalIn(const Expr &E, const Value &Needle,
                              const Value &Hay) {
    llvm::StringRef Word = E.K == Expr::In ? "in" : "not in";
    if (Hay.isList()) {
      for (const Value &V : Hay.getList()) {
        std::optional<bool> Same = equal(V, Needle);
        if (!Same)
          return budgetExhausted(TemplateName, E.Line, E.Column);
        if (*Same)
          return true;
      }
      return false;
    }
    if (Hay.isString() || Hay.isMap()) {
      if (!Needle.isString())
        return error(E, "'" + Word + "' " +
                            (Hay.isMap() ? "a map" : "a string") +
                            " needs a string on the left, got " +
                            withArticle(Needle.kind()));
      if (Hay.isMap())
        return Hay.getMap().count(Needle.getString()) != 0;
      return llvm::StringRef(Hay.getString()).contains(Needle.getString());
    }
    return error(E, "'" + Word +
                        "' needs a list, string or map on the right, got " +
                        withArticle(Hay.kind()));
  }

  llvm::Expected<Value> evalCall(const Expr &E) {
    llvm::SmallVector<Value, 3> Args;
    for (const ExprPtr &O : E.Operands) {
      llvm::Expected<Value> V = eval(*O);
      if (!V)
        return V.takeError();
      Args.push_back(std::move(*V));
    }
    std::string Fn = ("'" + builtinName(E.Fn) + "'").str();
    auto Wrong = [&](llvm::StringRef Want, const Value &Got) {
      return error(E, llvm::Twine(Fn) + " needs " + Want + ", got " +
                          withArticle(Got.kind()));
    };
    switch (E.Fn) {
    case Builtin::Len:
      if (Args[0].isString())
        return Value(Args[0].getString().size());
      if (Args[0].isList())
        return Value(Args[0].getList().size());
      if (Args[0].isMap())
        return Value(Args[0].getMap().size());
      return Wrong("a string, list or map", Args[0]);
    case Builtin::Upper:
    case Builtin::Lower:
      if (!Args[0].isString())
        return Wrong("a string", Args[0]);
      return Value(E.Fn == Builtin::Upper
                       ? llvm::StringRef(Args[0].getString()).upper()
                       : llvm::StringRef(Args[0].getString()).lower());
    case Builtin::Str: {
      std::string S;
      if (!appendText(Args[0], S))
        return Wrong("an int, bool or string", Args[0]);
      return Value(std::move(S));
    }
    case Builtin::Join:
      return evalJoin(E, Args[0], Args[1], Wrong);
    case Builtin::Range:
      return evalRange(E, Args, Wrong);
    case Builtin::Min:
    case Builtin::Max:
      return evalMinMax(E, Args, Wrong);
    }
    return error(E, "unsupported function");
  }

  template <typename WrongFn>
  llvm::Expected<Value> evalJoin(const Expr &E, const Value &L,
                                 const Value &Sep, WrongFn &Wrong) {
    if (!L.isList())
      return Wrong("a list as its first argument", L);
    if (!Sep.isString())
      return Wrong("a string separator", Sep);
    if (!charge(L.getList().size()))
      return budgetExhausted(TemplateName, E.Line, E.Column);
    std::string S;
    size_t I = 0;
    for (const Value &V : L.getList()) {
      if (I)
        S += Sep.getString();
      if (!appendText(V, S))
        return error(E, "'join' needs ints, bools or strings, but element " +
                            llvm::Twine(I) + " is " + withArticle(V.kind()));
      if (S.size() > B.MaxStringBytes)
        return checkedString(E, std::move(S));
      ++I;
    }
    return checkedString(E, std::move(S));
  }

  template <typename WrongFn>
  llvm::Expected<Value> evalRange(const Expr &E, llvm::ArrayRef<Value> Args,
                                  WrongFn &Wrong) {
    for (const Value &A : Args)
      if (!A.isInt())
        return Wrong("int arguments", A);
    int64_t Start = Args.size() == 1 ? 0 : Args[0].getInt();
    int64_t Stop = Args.size() == 1 ? Args[0].getInt() : Args[1].getInt();
    int64_t Step = Args.size() == 3 ? Args[2].getInt() : 1;
    if (Step == 0)
      return error(E, "'range' step must not be zero");
    // Counted in unsigned arithmetic, which cannot overflow here.
    uint64_t Count = 0;
    if (Step > 0 && Start < Stop)
      Count = (uint64_t(Stop) - uint64_t(Start) - 1) / uint64_t(Step) + 1;
    else if (Step < 0 && Start > Stop)
      Count = (uint64_t(Start) - uint64_t(Stop) - 1) /
                  (uint64_t(0) - uint64_t(Step)) +
              1;
    if (Count > MaxRangeLength)
      return error(E, "'range' would make " + llvm::Twine(Count) +
                          " elements; at most " + llvm::Twine(MaxRangeLength) +
                          " are allowed");
    if (!charge(Count))
      return budgetExhausted(TemplateName, E.Line, E.Column);
    Value::List L;
    L.reserve(Count);
    for (uint64_t I = 0; I < Count; ++I)
      L.emplace_back(int64_t(uint64_t(Start) + I * uint64_t(Step)));
    return Value(std::move(L));
  }

  template <typename WrongFn>
  llvm::Expected<Value> evalMinMax(const Expr &E, llvm::ArrayRef<Value> Args,
                                   WrongFn &Wrong) {
    if (Args.size() == 1 && Args[0].isList()) {
      Args = Args[0].getList();
      if (Args.empty())
        return error(E, "'" + builtinName(E.Fn) + "' of an empty list");
    }
    for (const Value &A : Args)
      if (!A.isInt())
        return Wrong("ints or one list of ints", A);
    int64_t Best = Args[0].getInt();
    for (const Value &A : Args)
      Best = E.Fn == Builtin::Min ? std::min(Best, A.getInt())
                                  : std::max(Best, A.getInt());
    return Value(Best);
  }
};

/// Collects the names \p E reads, first occurrence first.
void collectNames(const Expr &E, std::vector<llvm::StringRef> &Names,
                  llvm::StringSet<> &Seen) {
  if (E.K == Expr::Name && Seen.insert(E.Text).second)
    Names.push_back(E.Text);
  for (const ExprPtr &O : E.Operands)
    collectNames(*O, Names, Seen);
}

} // namespace

llvm::Expected<Value> evaluate(const Expr &E, const Environment &Env, Budget &B,
                               llvm::StringRef TemplateName) {
  return Evaluator(Env, B, TemplateName).eval(E);
}

llvm::Expected<bool> evaluateCondition(const Expr &E, const Environment &Env,
                                       Budget &B, llvm::StringRef TemplateName,
                                       llvm::StringRef Context) {
  return Evaluator(Env, B, TemplateName).evalBool(E, Context);
}

void describeNames(const Expr &E, const Environment &Env, std::string &Out) {
  std::vector<llvm::StringRef> Names;
  llvm::StringSet<> Seen;
  collectNames(E, Names, Seen);
  bool First = true;
  for (llvm::StringRef N : Names) {
    const Value *V = Env.lookup(N);
    if (!V)
      continue;
    Out += First ? " (with " : ", ";
    First = false;
    Out += N.str() + " = " + repr(*V, 40);
  }
  if (!First)
    Out += ")";
}

} // namespace tmpl
} // namespace accelgen
