//===- ProbeCases.cpp - Accept/reject cases of any constraint
//--------------===//
//
// Generalizes boundary cases to every kind of reference a test can set: int,
// float, bool and string attributes, num_inputs and num_outputs, and an
// operand's or result's dtype, rank, dims, channels, num_elements,
// is_constant, scale, zero_point and per_channel (everything but macs). Each
// reference gets candidate values from the constants it is compared with
// (both sides of each boundary; every member of a set plus one value outside
// it), a base assignment satisfying the whole constraint is searched for, and
// the cases change it one reference at a time, plus, for each top-level `||`
// term, the assignments making exactly one side true and none true. Verdicts
// come from evaluating the expression here, with the language's semantics
// (the integer helpers of ConstraintRuntime.h), independently of the
// generated C++ check the tests run.
//
// A case also says whether an operator reading as its values can be built:
// the rules below are those of target::probeGraph (ConstraintProbe.h), which
// checks them again by reading every value back.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"

#include "target/ValueFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

namespace accelgen {
namespace gen {
namespace constraint {

namespace rt = target::rt;

std::string ProbeValue::format() const {
  switch (Ty) {
  case Type::Int:
    return rt::format(Int);
  case Type::Float:
    return rt::format(Float);
  case Type::Bool:
    return rt::format(Bool);
  case Type::String:
    return rt::format(Str);
  case Type::DType:
    return rt::format(DT);
  }
  return "";
}

bool ProbeValue::operator==(const ProbeValue &O) const {
  if (Ty != O.Ty)
    return false;
  switch (Ty) {
  case Type::Int:
    return Int == O.Int;
  case Type::Float: // Bitwise, so that 0.0 and -0.0 stay apart.
    return std::signbit(Float) == std::signbit(O.Float) && Float == O.Float;
  case Type::Bool:
    return Bool == O.Bool;
  case Type::String:
    return Str == O.Str;
  case Type::DType:
    return DT == O.DT;
  }
  return false;
}

namespace {

/// Search steps before a search gives up.
constexpr unsigned MaxSteps = 200000;
/// The largest rank a probe builds (target::probeGraph's limit).
constexpr int64_t MaxRank = 64;

ProbeValue intValue(int64_t V) {
  ProbeValue P;
  P.Ty = Type::Int;
  P.Int = V;
  return P;
}
ProbeValue floatValue(double V) {
  ProbeValue P;
  P.Ty = Type::Float;
  P.Float = V;
  return P;
}
ProbeValue boolValue(bool V) {
  ProbeValue P;
  P.Ty = Type::Bool;
  P.Bool = V;
  return P;
}

double number(const ProbeValue &V) {
  return V.Ty == Type::Int ? static_cast<double>(V.Int) : V.Float;
}

/// The value of a literal, or of a negated or constant-folded one.
std::optional<ProbeValue> constantOf(const Expr &E) {
  if (const auto *L = llvm::dyn_cast<LiteralExpr>(&E)) {
    ProbeValue P;
    P.Ty = E.type();
    std::visit(
        [&](const auto &V) {
          using T = std::decay_t<decltype(V)>;
          if constexpr (std::is_same_v<T, int64_t>)
            P.Int = V;
          else if constexpr (std::is_same_v<T, double>)
            P.Float = V;
          else if constexpr (std::is_same_v<T, bool>)
            P.Bool = V;
          else if constexpr (std::is_same_v<T, std::string>)
            P.Str = V;
          else
            P.DT = V;
        },
        L->value());
    return P;
  }
  if (std::optional<int64_t> I = constantInt(E))
    return intValue(*I);
  const auto *U = llvm::dyn_cast<UnaryExpr>(&E);
  if (U && U->op() == UnaryExpr::Op::Neg && U->type() == Type::Float)
    if (std::optional<ProbeValue> V = constantOf(U->operand()))
      return floatValue(-V->Float);
  return std::nullopt;
}

/// Evaluates an expression with every reference given a value.
class Evaluator {
public:
  Evaluator(const std::map<std::string, size_t> &Index,
            const std::vector<ProbeValue> &Values)
      : Index(Index), Values(Values) {}

  bool holds(const Expr &E) const { return eval(E).Bool; }

  ProbeValue eval(const Expr &E) const {
    switch (E.kind()) {
    case Expr::Kind::Literal:
      return *constantOf(E);
    case Expr::Kind::Ref:
      return Values[Index.at(llvm::cast<RefExpr>(E).ref().spelling())];
    case Expr::Kind::Unary: {
      const auto &U = llvm::cast<UnaryExpr>(E);
      ProbeValue V = eval(U.operand());
      if (U.op() == UnaryExpr::Op::Not)
        return boolValue(!V.Bool);
      return V.Ty == Type::Int ? intValue(rt::neg(V.Int))
                               : floatValue(-V.Float);
    }
    case Expr::Kind::Binary:
      return binary(llvm::cast<BinaryExpr>(E));
    case Expr::Kind::In: {
      const auto &In = llvm::cast<InExpr>(E);
      ProbeValue S = eval(In.subject());
      if (In.isRange())
        return boolValue(compare(BinaryExpr::Op::Ge, S, eval(*In.items()[0])) &&
                         compare(BinaryExpr::Op::Le, S, eval(*In.items()[1])));
      return boolValue(llvm::any_of(In.items(), [&](const ExprPtr &M) {
        return compare(BinaryExpr::Op::Eq, S, eval(*M));
      }));
    }
    case Expr::Kind::Call:
      break; // Expressions with calls are not probed.
    }
    return ProbeValue();
  }

private:
  const std::map<std::string, size_t> &Index;
  const std::vector<ProbeValue> &Values;

  static bool compare(BinaryExpr::Op O, const ProbeValue &A,
                      const ProbeValue &B) {
    using Op = BinaryExpr::Op;
    bool Numeric = (A.Ty == Type::Int || A.Ty == Type::Float) &&
                   (B.Ty == Type::Int || B.Ty == Type::Float);
    if (!Numeric) {
      bool Eq = A == B;
      return O == Op::Eq ? Eq : !Eq;
    }
    if (A.Ty == Type::Int && B.Ty == Type::Int)
      return cmp(O, A.Int, B.Int);
    return cmp(O, number(A), number(B));
  }

  template <typename T> static bool cmp(BinaryExpr::Op O, T A, T B) {
    switch (O) {
    case BinaryExpr::Op::Eq:
      return A == B;
    case BinaryExpr::Op::Ne:
      return A != B;
    case BinaryExpr::Op::Lt:
      return A < B;
    case BinaryExpr::Op::Le:
      return A <= B;
    case BinaryExpr::Op::Gt:
      return A > B;
    default:
      return A >= B;
    }
  }

  ProbeValue binary(const BinaryExpr &B) const {
    using Op = BinaryExpr::Op;
    ProbeValue L = eval(B.lhs()), R = eval(B.rhs());
    if (B.op() == Op::And)
      return boolValue(L.Bool && R.Bool);
    if (B.op() == Op::Or)
      return boolValue(L.Bool || R.Bool);
    if (isComparison(B.op()))
      return boolValue(compare(B.op(), L, R));
    if (L.Ty == Type::Int && R.Ty == Type::Int) {
      switch (B.op()) {
      case Op::Add:
        return intValue(rt::add(L.Int, R.Int));
      case Op::Sub:
        return intValue(rt::sub(L.Int, R.Int));
      case Op::Mul:
        return intValue(rt::mul(L.Int, R.Int));
      case Op::Div:
        return intValue(rt::div(L.Int, R.Int));
      default:
        return intValue(rt::rem(L.Int, R.Int));
      }
    }
    double X = number(L), Y = number(R);
    switch (B.op()) {
    case Op::Add:
      return floatValue(X + Y);
    case Op::Sub:
      return floatValue(X - Y);
    case Op::Mul:
      return floatValue(X * Y);
    default:
      return floatValue(X / Y);
    }
  }
};

bool isTensor(const Reference &R) {
  return R.K == Reference::Kind::Input || R.K == Reference::Kind::Output;
}

bool isScale(const Reference &R) {
  return isTensor(R) && R.P == Reference::Prop::Scale;
}

/// Adds \p V to \p Out unless it is there.
void addValue(std::vector<ProbeValue> &Out, const ProbeValue &V) {
  if (!llvm::is_contained(Out, V))
    Out.push_back(V);
}

/// Candidate values of reference \p R compared with \p Constants; with
/// \p Defaults also small values (1, 2; 0.5, 1.0, 2.0), as for a reference
/// compared with no constant or only within arithmetic.
std::vector<ProbeValue> candidates(const Reference &R,
                                   const std::vector<ProbeValue> &Constants,
                                   bool Defaults) {
  std::vector<ProbeValue> Out;
  switch (R.type()) {
  case Type::Int:
    for (const ProbeValue &C : Constants) {
      if (C.Ty == Type::Float) { // An int compared with a float.
        double F = std::floor(C.Float), G = std::ceil(C.Float);
        if (std::fabs(F) < 9e18 && std::fabs(G) < 9e18) {
          addValue(Out, intValue(static_cast<int64_t>(F)));
          addValue(Out, intValue(static_cast<int64_t>(G)));
        }
        continue;
      }
      for (int Offset : {-1, 0, 1}) {
        int64_t N;
        if (!__builtin_add_overflow(C.Int, Offset, &N))
          addValue(Out, intValue(N));
      }
    }
    if (Out.empty() || Defaults)
      for (int64_t V : {1, 2})
        addValue(Out, intValue(V));
    llvm::sort(Out, [](const ProbeValue &A, const ProbeValue &B) {
      return A.Int < B.Int;
    });
    break;
  case Type::Float:
    for (const ProbeValue &C : Constants) {
      double V = number(C);
      if (isScale(R)) { // Stored as float32: neighbours of the nearest float.
        float F = static_cast<float>(V);
        for (float X :
             {std::nextafter(F, -INFINITY), F, std::nextafter(F, INFINITY)})
          if (std::isfinite(X))
            addValue(Out, floatValue(X));
      } else {
        for (double X :
             {std::nextafter(V, -INFINITY), V, std::nextafter(V, INFINITY)})
          if (std::isfinite(X))
            addValue(Out, floatValue(X));
      }
    }
    if (Out.empty() || Defaults)
      for (double V : {0.5, 1.0, 2.0})
        addValue(Out, floatValue(V));
    llvm::sort(Out, [](const ProbeValue &A, const ProbeValue &B) {
      return A.Float < B.Float;
    });
    break;
  case Type::Bool:
    addValue(Out, boolValue(true));
    addValue(Out, boolValue(false));
    break;
  case Type::String: {
    for (const ProbeValue &C : Constants)
      addValue(Out, C);
    ProbeValue Other;
    Other.Ty = Type::String;
    if (llvm::is_contained(Out, Other)) // "" is taken: any other text.
      Other.Str = "?";
    addValue(Out, Other);
    break;
  }
  case Type::DType: {
    for (const ProbeValue &C : Constants)
      addValue(Out, C);
    for (ir::DType T :
         {ir::DType::I8, ir::DType::U8, ir::DType::I16, ir::DType::I32,
          ir::DType::I64, ir::DType::F16, ir::DType::F32, ir::DType::Bool}) {
      ProbeValue Other;
      Other.Ty = Type::DType;
      Other.DT = T;
      if (!llvm::is_contained(Out, Other)) {
        Out.push_back(Other);
        break;
      }
    }
    // `none` last, so that a base case has its operands when it can.
    std::stable_partition(Out.begin(), Out.end(),
                          [](const ProbeValue &V) { return V.DT.has_value(); });
    break;
  }
  }
  return Out;
}

/// The value an absent operand's property reads as.
ProbeValue absentValue(const Reference &R) {
  ProbeValue V;
  V.Ty = R.type();
  return V;
}

/// Why a tensor whose set dims (axis to value) are \p Dims, of rank \p Rank,
/// cannot have \p N elements, or "": the lowest axis not set takes what
/// the others leave (target::probeGraph's rule).
std::string elementCountProblem(const std::map<int64_t, int64_t> &Dims,
                                int64_t Rank, int64_t N) {
  if (N < 0)
    return "an element count is never negative";
  int64_t Product = 1;
  for (const auto &[Axis, V] : Dims)
    if (__builtin_mul_overflow(Product, V, &Product))
      return "the dims set overflow";
  bool Free = static_cast<int64_t>(Dims.size()) < Rank;
  if (!Free)
    return Product == N ? ""
                        : llvm::formatv("the dims give {0}", Product).str();
  if (Product == 0)
    return N == 0 ? "" : "a dim set to 0 gives 0";
  if (N % Product != 0)
    return llvm::formatv("not a multiple of the {0} the dims set give", Product)
        .str();
  if (N / Product > std::numeric_limits<int32_t>::max())
    return "the free dim would exceed 2147483647";
  return "";
}

/// Why an operator whose references read as \p Values cannot be built, or
/// "" when it can (the rules of target::probeGraph).
std::string unbuildable(const std::vector<Reference> &Refs,
                        const std::vector<ProbeValue> &Values) {
  // Operand and result counts: at least every index read, at most 64.
  for (size_t I = 0; I < Refs.size(); ++I) {
    const Reference &R = Refs[I];
    if (R.K != Reference::Kind::NumInputs && R.K != Reference::Kind::NumOutputs)
      continue;
    bool In = R.K == Reference::Kind::NumInputs;
    int64_t Needed = 0;
    for (const Reference &T : Refs)
      if (T.K == (In ? Reference::Kind::Input : Reference::Kind::Output))
        Needed = std::max<int64_t>(Needed, T.Index + 1);
    if (Values[I].Int < Needed || Values[I].Int > MaxRank)
      return llvm::formatv("{0} = {1}: only {2} to {3} can be built (the "
                           "{4}s read need {2})",
                           R.spelling(), Values[I].Int, Needed, MaxRank,
                           In ? "operand" : "result");
  }
  // Tensors by side and index.
  std::map<std::pair<bool, unsigned>, std::vector<size_t>> Tensors;
  for (size_t I = 0; I < Refs.size(); ++I)
    if (isTensor(Refs[I]))
      Tensors[{Refs[I].K == Reference::Kind::Output, Refs[I].Index}].push_back(
          I);
  for (const auto &[Key, Members] : Tensors) {
    std::string Name =
        llvm::formatv("{0}({1})", Key.first ? "output" : "input", Key.second);
    auto Said = [&](size_t I) {
      return Refs[I].spelling() + " = " + Values[I].format();
    };
    bool Absent = llvm::any_of(Members, [&](size_t I) {
      return Refs[I].P == Reference::Prop::DType && !Values[I].DT;
    });
    if (Absent) {
      for (size_t I : Members)
        if (!(Values[I] == absentValue(Refs[I])))
          return llvm::formatv("{0} is absent (dtype none), so {1} reads {2}",
                               Name, Refs[I].spelling(),
                               absentValue(Refs[I]).format());
      continue;
    }
    int64_t Rank = -1;
    for (size_t I : Members)
      if (Refs[I].P == Reference::Prop::Rank) {
        if (Values[I].Int < 0 || Values[I].Int > MaxRank)
          return llvm::formatv("{0}: ranks are 0 to {1}", Said(I), MaxRank);
        Rank = Values[I].Int;
      }
    if (Rank < 0) { // Unset: 4, or enough for the dims read.
      Rank = 4;
      for (size_t I : Members)
        if (Refs[I].P == Reference::Prop::Dim)
          Rank = std::max(Rank,
                          Refs[I].Axis < 0 ? -Refs[I].Axis : Refs[I].Axis + 1);
      Rank = std::min(Rank, MaxRank);
    }
    std::map<int64_t, size_t> Dims; // Axis to the reference setting it.
    for (size_t I : Members) {
      const Reference &R = Refs[I];
      if (R.P != Reference::Prop::Dim && R.P != Reference::Prop::Channels)
        continue;
      int64_t V = Values[I].Int;
      if (V < 0 || V > std::numeric_limits<int32_t>::max())
        return llvm::formatv("{0}: dimensions are 0 to {1}", Said(I),
                             std::numeric_limits<int32_t>::max());
      int64_t Axis = R.P == Reference::Prop::Channels
                         ? Rank - 1
                         : (R.Axis < 0 ? R.Axis + Rank : R.Axis);
      if (Axis < 0 || Axis >= Rank) {
        if (V != 0)
          return llvm::formatv("{0}: a rank-{1} tensor has no such "
                               "dimension, so it reads 0",
                               Said(I), Rank);
        continue;
      }
      auto [It, New] = Dims.insert({Axis, I});
      if (!New && Values[It->second].Int != V)
        return llvm::formatv("{0} and {1} are the same dimension",
                             Said(It->second), Said(I));
    }
    std::map<int64_t, int64_t> DimValues;
    for (const auto &[Axis, I] : Dims)
      DimValues[Axis] = Values[I].Int;
    for (size_t I : Members)
      if (Refs[I].P == Reference::Prop::NumElements) {
        std::string Why = elementCountProblem(DimValues, Rank, Values[I].Int);
        if (!Why.empty())
          return Said(I) + ": " + Why;
      }
    for (size_t I : Members)
      if (Refs[I].P == Reference::Prop::Scale &&
          static_cast<double>(static_cast<float>(Values[I].Float)) !=
              Values[I].Float)
        return llvm::formatv("{0}: scales are stored as float32", Said(I));
  }
  return "";
}

/// The terms of a top-level `&&` chain (or of a `||` chain).
void flatten(const Expr &E, BinaryExpr::Op O, std::vector<const Expr *> &Out) {
  const auto *B = llvm::dyn_cast<BinaryExpr>(&E);
  if (B && B->op() == O) {
    flatten(B->lhs(), O, Out);
    flatten(B->rhs(), O, Out);
    return;
  }
  Out.push_back(&E);
}

class ProbeBuilder {
public:
  explicit ProbeBuilder(const Expr &E) : E(E) {}

  ProbeSet run() {
    ProbeSet S;
    if (hasCall(E)) {
      S.NotProbed = "it calls a function";
      return S;
    }
    forEachRef(E, [&](const RefExpr &R) {
      std::string Name = R.ref().spelling();
      if (Index.insert({Name, Refs.size()}).second)
        Refs.push_back(R.ref());
    });
    for (const Reference &R : Refs)
      if (!R.isSettable() && S.NotProbed.empty())
        S.NotProbed = "it reads " + R.spelling() + ", which probes do not set";
    if (!S.NotProbed.empty())
      return S;
    if (Refs.empty()) {
      S.NotProbed = "it reads nothing";
      return S;
    }
    std::vector<std::vector<ProbeValue>> Constants(Refs.size());
    std::vector<bool> Indirect(Refs.size());
    collectConstants(E, Constants, Indirect);
    for (size_t I = 0; I < Refs.size(); ++I)
      Candidates.push_back(candidates(Refs[I], Constants[I], Indirect[I]));
    // A tensor that may be absent (dtype `none`) reads its other properties
    // as an absent one does: make those values candidates too.
    for (size_t I = 0; I < Refs.size(); ++I) {
      if (!isTensor(Refs[I]) || Refs[I].P != Reference::Prop::DType ||
          !llvm::any_of(Candidates[I],
                        [](const ProbeValue &V) { return !V.DT; }))
        continue;
      for (size_t J = 0; J < Refs.size(); ++J)
        if (J != I && isTensor(Refs[J]) && Refs[J].K == Refs[I].K &&
            Refs[J].Index == Refs[I].Index)
          addValue(Candidates[J], absentValue(Refs[J]));
    }
    S.Refs = Refs;

    std::vector<const Expr *> Terms;
    flatten(E, BinaryExpr::Op::And, Terms);
    std::vector<ProbeValue> Base(Refs.size());
    if (!searchBase(Base, [&](const std::vector<ProbeValue> &V) {
          return unbuildable(Refs, V).empty();
        })) {
      S.NotProbed = "no buildable combination of the candidate values "
                    "satisfies it";
      return S;
    }
    add(S, Base, "base");
    for (size_t I = 0; I < Refs.size(); ++I)
      for (const ProbeValue &V : Candidates[I]) {
        std::vector<ProbeValue> Values = Base;
        Values[I] = V;
        add(S, Values, Refs[I].spelling() + " = " + V.format());
      }
    for (const Expr *T : Terms)
      addAlternatives(S, Base, *T);
    return S;
  }

private:
  const Expr &E;
  std::vector<Reference> Refs;
  std::map<std::string, size_t> Index;
  std::vector<std::vector<ProbeValue>> Candidates;

  /// Records the constants each reference is compared with, directly or
  /// within arithmetic (`filter_h * filter_w <= 64`: both get 64, and are
  /// marked \p Indirect).
  void collectConstants(const Expr &X,
                        std::vector<std::vector<ProbeValue>> &Out,
                        std::vector<bool> &Indirect) const {
    auto Note = [&](const Expr &Subject, const Expr &Other) {
      std::optional<ProbeValue> C = constantOf(Other);
      if (!C || constantOf(Subject))
        return;
      bool Direct = llvm::isa<RefExpr>(Subject);
      auto IsNumber = [](Type T) { return T == Type::Int || T == Type::Float; };
      forEachRef(Subject, [&](const RefExpr &R) {
        Type T = R.ref().type();
        if (T != C->Ty && !(IsNumber(T) && IsNumber(C->Ty)))
          return;
        size_t I = Index.at(R.ref().spelling());
        addValue(Out[I], *C);
        if (!Direct)
          Indirect[I] = true;
      });
    };
    switch (X.kind()) {
    case Expr::Kind::Unary:
      collectConstants(llvm::cast<UnaryExpr>(X).operand(), Out, Indirect);
      return;
    case Expr::Kind::Binary: {
      const auto &B = llvm::cast<BinaryExpr>(X);
      if (isComparison(B.op())) {
        Note(B.lhs(), B.rhs());
        Note(B.rhs(), B.lhs());
      }
      collectConstants(B.lhs(), Out, Indirect);
      collectConstants(B.rhs(), Out, Indirect);
      return;
    }
    case Expr::Kind::In: {
      const auto &In = llvm::cast<InExpr>(X);
      for (const ExprPtr &Item : In.items())
        Note(In.subject(), *Item);
      collectConstants(In.subject(), Out, Indirect);
      return;
    }
    default:
      return;
    }
  }

  /// Adds a case unless one with the same values exists; with \p Merge,
  /// such a case also takes the label.
  void add(ProbeSet &S, const std::vector<ProbeValue> &Values,
           std::string Label, bool Merge = false) const {
    for (ProbeCase &C : S.Cases)
      if (C.Values == Values) {
        if (Merge)
          C.Label += "; " + Label;
        return;
      }
    ProbeCase C;
    C.Values = Values;
    C.Accept = Evaluator(Index, Values).holds(E);
    C.Label = std::move(Label);
    C.NotConstructible = unbuildable(Refs, Values);
    S.Cases.push_back(std::move(C));
  }

  /// Assigns the references \p Which (the others keep their values in
  /// \p Values) so that \p Goal holds; false when no candidates do.
  bool search(const std::vector<size_t> &Which, std::vector<ProbeValue> &Values,
              llvm::function_ref<bool(const std::vector<ProbeValue> &)> Goal) {
    unsigned Steps = 0;
    std::function<bool(size_t)> Try = [&](size_t K) -> bool {
      if (++Steps > MaxSteps)
        return false;
      if (K == Which.size())
        return Goal(Values);
      for (const ProbeValue &V : Candidates[Which[K]]) {
        Values[Which[K]] = V;
        if (Try(K + 1))
          return true;
      }
      return false;
    };
    return Try(0);
  }

  /// A base assignment: every `&&` term checked once its last reference is
  /// set, in first-use order.
  bool
  searchBase(std::vector<ProbeValue> &Values,
             llvm::function_ref<bool(const std::vector<ProbeValue> &)> Goal) {
    std::vector<const Expr *> Terms;
    flatten(E, BinaryExpr::Op::And, Terms);
    std::vector<std::vector<const Expr *>> DueAt(Refs.size());
    for (const Expr *T : Terms) {
      size_t Last = 0;
      forEachRef(*T, [&](const RefExpr &R) {
        Last = std::max(Last, Index.at(R.ref().spelling()));
      });
      DueAt[Last].push_back(T);
    }
    unsigned Steps = 0;
    std::function<bool(size_t)> Try = [&](size_t K) -> bool {
      if (++Steps > MaxSteps)
        return false;
      if (K == Refs.size())
        return Goal(Values);
      for (const ProbeValue &V : Candidates[K]) {
        Values[K] = V;
        Evaluator Ev(Index, Values);
        if (llvm::all_of(DueAt[K],
                         [&](const Expr *T) { return Ev.holds(*T); }) &&
            Try(K + 1))
          return true;
      }
      return false;
    };
    return Try(0);
  }

  /// For a `||` term: one case where only side I holds, for each I, and one
  /// where none does, changing only the term's references.
  void addAlternatives(ProbeSet &S, const std::vector<ProbeValue> &Base,
                       const Expr &Term) {
    std::vector<const Expr *> Sides;
    flatten(Term, BinaryExpr::Op::Or, Sides);
    if (Sides.size() < 2)
      return;
    std::vector<size_t> Which;
    forEachRef(Term, [&](const RefExpr &R) {
      size_t I = Index.at(R.ref().spelling());
      if (!llvm::is_contained(Which, I))
        Which.push_back(I);
    });
    std::string Whole = print(Term);
    for (size_t Only = 0; Only <= Sides.size(); ++Only) {
      std::string Label =
          Only < Sides.size()
              ? "only `" + print(*Sides[Only]) + "` of `" + Whole + "` holds"
              : "no side of `" + Whole + "` holds";
      std::vector<ProbeValue> Values = Base;
      bool Found = search(Which, Values, [&](const std::vector<ProbeValue> &V) {
        Evaluator Ev(Index, V);
        for (size_t I = 0; I < Sides.size(); ++I)
          if (Ev.holds(*Sides[I]) != (I == Only))
            return false;
        return unbuildable(Refs, V).empty();
      });
      if (Found) {
        add(S, Values, Label, /*Merge=*/true);
        continue;
      }
      ProbeCase C; // Reported, not run.
      C.Values = Base;
      C.Accept = true;
      C.Label = Label;
      C.NotConstructible = "no buildable combination of the candidate values "
                           "does it";
      S.Cases.push_back(std::move(C));
    }
  }
};

} // namespace

ProbeSet probeCases(const Expr &E) { return ProbeBuilder(E).run(); }

} // namespace constraint
} // namespace gen
} // namespace accelgen
