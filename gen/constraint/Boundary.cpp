//===- Boundary.cpp - Boundary values of integer constraint terms ----------===//
//
// For a constraint `a && b && ...`, each term that compares one probeable
// integer reference with constants (`x <= 15`, `x in [1, 4]`, `x in {1, 2}`)
// has values just inside and just outside its boundaries. A reference is
// probed only when every term mentioning it has that form; the terms are
// then evaluated together at each candidate value, so `x >= 1 && x <= 4`
// gives the same cases as `x in [1, 4]`. Terms under `||` or `!`, and terms
// with a function call, are not analysed.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"

#include <algorithm>
#include <set>

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

/// `ref OP C`, `ref in [Lo, Hi]` or `ref in {Members}`.
struct Term {
  const RefExpr *Ref = nullptr;
  enum { Compare, Range, Set } Form = Compare;
  BinaryExpr::Op Op = BinaryExpr::Op::Eq;
  std::vector<int64_t> Values; ///< C; Lo, Hi; or the members.

  bool holds(int64_t V) const {
    switch (Form) {
    case Range:
      return V >= Values[0] && V <= Values[1];
    case Set:
      return llvm::is_contained(Values, V);
    case Compare:
      break;
    }
    int64_t C = Values[0];
    switch (Op) {
    case BinaryExpr::Op::Eq:
      return V == C;
    case BinaryExpr::Op::Ne:
      return V != C;
    case BinaryExpr::Op::Lt:
      return V < C;
    case BinaryExpr::Op::Le:
      return V <= C;
    case BinaryExpr::Op::Gt:
      return V > C;
    default:
      return V >= C;
    }
  }

  /// The values on both sides of every boundary of the term.
  void candidates(std::set<int64_t> &Out) const {
    auto Add = [&](int64_t V, int Offset) {
      int64_t N;
      if (!__builtin_add_overflow(V, Offset, &N))
        Out.insert(N);
    };
    if (Form == Range) {
      Add(Values[0], -1);
      Add(Values[0], 0);
      Add(Values[1], 0);
      Add(Values[1], 1);
      return;
    }
    bool Below = Form == Set || (Op != BinaryExpr::Op::Le &&
                                 Op != BinaryExpr::Op::Gt);
    bool Above = Form == Set || (Op != BinaryExpr::Op::Lt &&
                                 Op != BinaryExpr::Op::Ge);
    for (int64_t V : Values) {
      if (Below)
        Add(V, -1);
      Add(V, 0);
      if (Above)
        Add(V, 1);
    }
  }
};

BinaryExpr::Op flip(BinaryExpr::Op O) {
  switch (O) {
  case BinaryExpr::Op::Lt:
    return BinaryExpr::Op::Gt;
  case BinaryExpr::Op::Le:
    return BinaryExpr::Op::Ge;
  case BinaryExpr::Op::Gt:
    return BinaryExpr::Op::Lt;
  case BinaryExpr::Op::Ge:
    return BinaryExpr::Op::Le;
  default:
    return O;
  }
}

const RefExpr *probeable(const Expr &E) {
  const auto *R = llvm::dyn_cast<RefExpr>(&E);
  return R && R->ref().isProbeable() ? R : nullptr;
}

/// \p E as a Term, if it has that form.
std::optional<Term> asTerm(const Expr &E) {
  if (hasCall(E))
    return std::nullopt;
  Term T;
  if (const auto *B = llvm::dyn_cast<BinaryExpr>(&E)) {
    if (!isComparison(B->op()))
      return std::nullopt;
    T.Op = B->op();
    std::optional<int64_t> C;
    if ((T.Ref = probeable(B->lhs()))) {
      C = constantInt(B->rhs());
    } else if ((T.Ref = probeable(B->rhs()))) {
      C = constantInt(B->lhs());
      T.Op = flip(T.Op);
    }
    if (!T.Ref || !C)
      return std::nullopt;
    T.Values.push_back(*C);
    return T;
  }
  const auto *In = llvm::dyn_cast<InExpr>(&E);
  if (!In || !(T.Ref = probeable(In->subject())))
    return std::nullopt;
  T.Form = In->isRange() ? Term::Range : Term::Set;
  for (const ExprPtr &Item : In->items()) {
    std::optional<int64_t> C = constantInt(*Item);
    if (!C)
      return std::nullopt;
    T.Values.push_back(*C);
  }
  return T;
}

void conjuncts(const Expr &E, std::vector<const Expr *> &Out) {
  const auto *B = llvm::dyn_cast<BinaryExpr>(&E);
  if (B && B->op() == BinaryExpr::Op::And) {
    conjuncts(B->lhs(), Out);
    conjuncts(B->rhs(), Out);
    return;
  }
  Out.push_back(&E);
}

} // namespace

std::vector<BoundaryCase> boundaryCases(const Expr &E) {
  std::vector<const Expr *> Parts;
  conjuncts(E, Parts);
  struct Part {
    std::optional<Term> T;
    std::set<std::string> Mentions;
  };
  std::vector<Part> Analysed;
  std::vector<const RefExpr *> Order;
  std::set<std::string> Seen;
  for (const Expr *P : Parts) {
    Part A;
    A.T = asTerm(*P);
    forEachRef(*P, [&](const RefExpr &R) {
      std::string Name = R.ref().spelling();
      A.Mentions.insert(Name);
      if (R.ref().isProbeable() && Seen.insert(Name).second)
        Order.push_back(&R);
    });
    Analysed.push_back(std::move(A));
  }

  std::vector<BoundaryCase> Cases;
  for (const RefExpr *R : Order) {
    std::string Name = R->ref().spelling();
    std::vector<const Term *> Terms;
    bool Decidable = true;
    for (const Part &A : Analysed) {
      if (!A.Mentions.count(Name))
        continue;
      if (!A.T || A.T->Ref->ref().spelling() != Name)
        Decidable = false;
      else
        Terms.push_back(&*A.T);
    }
    if (!Decidable || Terms.empty())
      continue;
    std::set<int64_t> Values;
    for (const Term *T : Terms)
      T->candidates(Values);
    bool IsShape = R->ref().K != Reference::Kind::Attr;
    for (int64_t V : Values) {
      if (IsShape && V < 0)
        continue;
      BoundaryCase C;
      C.Ref = Name;
      C.Value = V;
      C.Accept = llvm::all_of(Terms, [&](const Term *T) { return T->holds(V); });
      C.Subject = R->ref();
      Cases.push_back(std::move(C));
    }
  }
  return Cases;
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
