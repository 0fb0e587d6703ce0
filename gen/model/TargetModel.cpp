//===- TargetModel.cpp - Validating a description into a model
//-------------===//
#include "model/TargetModel.h"

#include "ir/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace accelgen {
namespace gen {

constraint::Scope OpDef::scope() const {
  constraint::Scope S;
  for (const AttrDecl &A : Decl.Attrs) {
    constraint::AttrInfo Info;
    Info.Name = A.Name;
    Info.K = A.Kind == "int"      ? constraint::AttrInfo::Int
             : A.Kind == "float"  ? constraint::AttrInfo::Float
             : A.Kind == "bool"   ? constraint::AttrInfo::Bool
             : A.Kind == "string" ? constraint::AttrInfo::String
                                  : constraint::AttrInfo::Ints;
    S.Attrs.push_back(Info);
  }
  S.NumOperands =
      Decl.Variadic ? 64 : static_cast<unsigned>(Decl.Operands.size());
  S.NumResults = Decl.NumResults;
  return S;
}

constraint::Scope OpSetDef::scope() const {
  constraint::Scope S = Members.front()->scope();
  for (const OpDef *Op : llvm::drop_begin(Members)) {
    constraint::Scope Other = Op->scope();
    llvm::erase_if(S.Attrs, [&](const constraint::AttrInfo &A) {
      return llvm::none_of(Other.Attrs, [&](const constraint::AttrInfo &B) {
        return A.Name == B.Name && A.K == B.K;
      });
    });
    S.NumOperands = std::min(S.NumOperands, Other.NumOperands);
    S.NumResults = std::min(S.NumResults, Other.NumResults);
  }
  return S;
}

std::string ConstraintDef::cppName() const {
  std::string S;
  for (char C : Decl.Id)
    S += llvm::isAlnum(C) ? C : '_';
  return S;
}

std::optional<unsigned> OpLegality::firstVersion() const {
  for (unsigned V = 0; V < PerVersion.size(); ++V)
    if (PerVersion[V])
      return V;
  return std::nullopt;
}

const ValueStep *OpValues::at(unsigned V) const {
  const ValueStep *Found = nullptr;
  for (const ValueStep &C : Steps)
    if (C.Since <= V)
      Found = &C;
  return Found;
}

unsigned OpValues::until(size_t Step, unsigned NumVersions) const {
  return Step + 1 < Steps.size() ? Steps[Step + 1].Since - 1 : NumVersions - 1;
}

const OpDef *TargetModel::findOp(const std::string &KeyOrName) const {
  for (const auto &Op : Ops)
    if (Op->Decl.Key == KeyOrName)
      return Op.get();
  for (const auto &Op : Ops)
    if (Op->Decl.Name == KeyOrName)
      return Op.get();
  return nullptr;
}

const OpSetDef *TargetModel::findOpSet(const std::string &KeyOrName) const {
  for (const auto &Set : OpSets)
    if (Set->Decl.Key == KeyOrName)
      return Set.get();
  for (const auto &Set : OpSets)
    if (Set->Decl.Name == KeyOrName)
      return Set.get();
  return nullptr;
}

const char *const QuantSchemeNames[4] = {
    "asymmetric_per_tensor", "symmetric_per_tensor", "symmetric_per_channel",
    "asymmetric_per_channel"};

namespace {

const char *const (&Schemes)[4] = QuantSchemeNames;
const char *const AttrKinds[] = {"int", "float", "bool", "string", "ints"};

template <size_t N>
bool oneOf(const std::string &S, const char *const (&List)[N]) {
  return std::find_if(std::begin(List), std::end(List),
                      [&](const char *E) { return S == E; }) != std::end(List);
}

template <size_t N> std::string listOf(const char *const (&List)[N]) {
  std::string S;
  for (const char *E : List)
    S += (S.empty() ? "" : ", ") + std::string(E);
  return S;
}

bool sameDecl(const ConstraintDecl &A, const ConstraintDecl &B) {
  return A.Expr == B.Expr && A.CppFunction == B.CppFunction &&
         A.Summary == B.Summary && A.Hint == B.Hint;
}

bool sameLoc(const Loc &A, const Loc &B) {
  return A.File == B.File && A.Line == B.Line && A.Col == B.Col;
}

/// A rule applying constraints: where it is declared and the operator its
/// constraints read (or, in a fusion pattern, the operator each capture
/// stands for).
struct ConstraintUse {
  Loc At;
  const OpDef *Op = nullptr;
  /// For a fusion pattern: its name and the operator of each capture.
  std::string Pattern;
  std::map<std::string, const OpDef *> CaptureOps;

  /// The operator an attribute qualified by \p Capture ("" for none) is
  /// read from.
  const OpDef *operatorOf(const std::string &Capture) const {
    if (Capture.empty())
      return Op;
    auto It = CaptureOps.find(Capture);
    return It == CaptureOps.end() ? nullptr : It->second;
  }
};

/// Builds the model, reporting every problem it finds.
class ModelBuilder {
public:
  ModelBuilder(const TargetDecl &D, Diagnostics &Diags) : D(D), Diags(Diags) {}

  std::unique_ptr<TargetModel> run() {
    M = std::make_unique<TargetModel>();
    M->Name = D.Name;
    M->Description = D.Description;
    M->Library = D.Library;
    M->SwitchCycles = D.SwitchCycles;
    M->Backend = D.Backend;
    M->FunctionalModel = D.FunctionalModel;
    M->CpuFallback = D.CpuFallback;
    if (D.CpuFallback == D.Name)
      Diags.error(D.BackendAt,
                  llvm::formatv("target '{0}' cannot be its own CPU fallback; "
                                "a target running every operator on the host "
                                "CPU leaves CpuFallback empty",
                                D.Name));
    if (D.Name.empty())
      Diags.error(D.At, "target has no name");
    if (D.SwitchCycles < 0)
      Diags.error(D.At, llvm::formatv("target '{0}': switch cycles must not be "
                                      "negative, found {1}",
                                      D.Name, D.SwitchCycles));
    buildVersions();
    buildOps();
    buildOpSets();
    buildLegality();
    buildMappings();
    buildQuantRules();
    buildPatterns();
    buildCosts();
    buildScratch();
    buildDeviceModel(
        D, *M, Diags,
        [&](const std::string &N, const Loc &At) { return version(N, At); },
        [&](const std::string &K, const Loc &At) { return op(K, At); });
    if (Diags.errorCount())
      return nullptr;
    return std::move(M);
  }

private:
  const TargetDecl &D;
  Diagnostics &Diags;
  std::unique_ptr<TargetModel> M;
  std::map<std::string, const ConstraintDef *> ConstraintsById;
  /// The same constraints by the name of their check function.
  std::map<std::string, const ConstraintDef *> ConstraintsByFunction;

  void buildVersions() {
    if (D.Versions.empty())
      Diags.error(D.At,
                  llvm::formatv("target '{0}' lists no versions", D.Name));
    for (size_t I = 0; I < D.Versions.size(); ++I) {
      const std::string &Name = D.Versions[I];
      VersionDef V;
      V.Name = Name;
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(Name).split(Parts, '.');
      bool Ok = !Name.empty();
      for (llvm::StringRef P : Parts) {
        unsigned N;
        if (P.empty() || P.getAsInteger(10, N)) {
          Ok = false;
          break;
        }
        V.Parts.push_back(N);
      }
      if (!Ok) {
        Diags.error(I < D.VersionsAt.size() ? D.VersionsAt[I] : D.At,
                    llvm::formatv("version '{0}' is not a dotted number "
                                  "such as '2.0'",
                                  Name));
        continue;
      }
      if (!M->Versions.empty() && !(M->Versions.back().Parts < V.Parts)) {
        Diags.error(D.At, llvm::formatv("version '{0}' is out of order: "
                                        "versions must be listed oldest first, "
                                        "and '{0}' is not newer than '{1}'",
                                        Name, M->Versions.back().Name));
        continue;
      }
      M->Versions.push_back(std::move(V));
    }
  }

  /// Index of version \p Name, or reports and returns nullopt.
  std::optional<unsigned> version(const std::string &Name, const Loc &At) {
    for (unsigned I = 0; I < M->Versions.size(); ++I)
      if (M->Versions[I].Name == Name)
        return I;
    std::string Known;
    for (const VersionDef &V : M->Versions)
      Known += (Known.empty() ? "" : ", ") + V.Name;
    Diags.error(At, llvm::formatv("unknown version '{0}' of target '{1}' "
                                  "(versions: {2})",
                                  Name, D.Name, Known));
    return std::nullopt;
  }

  /// Version index of an optional "since" (first version when empty).
  std::optional<unsigned> sinceVersion(const std::string &Name, const Loc &At) {
    if (Name.empty())
      return 0u;
    return version(Name, At);
  }

  void buildOps() {
    std::set<std::string> Keys, Names;
    for (const OpDecl &O : D.Ops) {
      if (!Keys.insert(O.Key).second) {
        Diags.error(O.At, llvm::formatv("duplicate operator '{0}'", O.Key));
        continue;
      }
      if (!Names.insert(O.Name).second) {
        Diags.error(O.At,
                    llvm::formatv("duplicate operator name '{0}'", O.Name));
        continue;
      }
      for (const AttrDecl &A : O.Attrs)
        if (!oneOf(A.Kind, AttrKinds))
          Diags.error(O.At,
                      llvm::formatv("attribute '{0}' of '{1}' has "
                                    "unknown kind '{2}' (kinds: {3})",
                                    A.Name, O.Key, A.Kind, listOf(AttrKinds)));
      auto Op = std::make_unique<OpDef>();
      Op->Decl = O;
      M->Ops.push_back(std::move(Op));
    }
  }

  /// Operand \p I of \p Op as a set compares it: "name" or "name?".
  static std::string operandText(const OpDef &Op, size_t I) {
    const OperandDecl &O = Op.Decl.Operands[I];
    return O.Name + (O.Optional ? "?" : "");
  }

  /// The operands of \p Op as a set compares them: "(input, filter, bias?)"
  /// with "..." when more may follow.
  static std::string operandList(const OpDef &Op) {
    std::string S;
    for (size_t I = 0; I < Op.Decl.Operands.size(); ++I)
      S += (I ? ", " : "") + operandText(Op, I);
    if (Op.Decl.Variadic)
      S += Op.Decl.Operands.empty() ? "..." : ", ...";
    return "(" + S + ")";
  }

  void buildOpSets() {
    std::set<std::string> Keys, Names;
    for (const OpSetDecl &Decl : D.OpSets) {
      if (M->findOp(Decl.Key) || !Keys.insert(Decl.Key).second) {
        Diags.error(Decl.At,
                    llvm::formatv("op set '{0}': the name is already "
                                  "taken by {1}",
                                  Decl.Key,
                                  M->findOp(Decl.Key) ? "an operator"
                                                      : "another op set"));
        continue;
      }
      if (!Names.insert(Decl.Name).second || M->findOp(Decl.Name)) {
        Diags.error(Decl.At, llvm::formatv("op set '{0}': the name '{1}' is "
                                           "already taken",
                                           Decl.Key, Decl.Name));
        continue;
      }
      auto Set = std::make_unique<OpSetDef>();
      Set->Decl = Decl;
      bool Ok = true;
      if (Decl.Members.empty()) {
        Diags.error(Decl.At,
                    llvm::formatv("op set '{0}' has no members", Decl.Key));
        Ok = false;
      }
      for (const std::string &Key : Decl.Members) {
        const OpDef *Op = M->findOp(Key);
        if (!Op) {
          Diags.error(Decl.At, llvm::formatv("op set '{0}': '{1}' is not an "
                                             "operator",
                                             Decl.Key, Key));
          Ok = false;
          continue;
        }
        if (llvm::is_contained(Set->Members, Op)) {
          Diags.error(Decl.At, llvm::formatv("op set '{0}' lists '{1}' twice",
                                             Decl.Key, Key));
          Ok = false;
          continue;
        }
        if (!Set->Members.empty() &&
            operandList(*Op) != operandList(*Set->Members.front())) {
          Diags.error(Decl.At,
                      llvm::formatv("op set '{0}': the members must declare "
                                    "the same operands, but '{1}' takes {2} "
                                    "and '{3}' takes {4}",
                                    Decl.Key, Set->Members.front()->Decl.Key,
                                    operandList(*Set->Members.front()), Key,
                                    operandList(*Op)));
          Ok = false;
        }
        Set->Members.push_back(Op);
      }
      if (!Decl.Results.empty() && Decl.Results.size() != Decl.Members.size()) {
        Diags.error(Decl.At, llvm::formatv("op set '{0}' names a result for "
                                           "{1} of its {2} members: give one "
                                           "per member, or none",
                                           Decl.Key, Decl.Results.size(),
                                           Decl.Members.size()));
        Ok = false;
      }
      for (const std::string &Key : Decl.Results) {
        const OpDef *Op = M->findOp(Key);
        if (!Op) {
          Diags.error(Decl.At, llvm::formatv("op set '{0}': result '{1}' is "
                                             "not an operator",
                                             Decl.Key, Key));
          Ok = false;
        }
        Set->Results.push_back(Op);
      }
      if (Ok)
        M->OpSets.push_back(std::move(Set));
    }
  }

  const OpDef *op(const std::string &Key, const Loc &At) {
    if (const OpDef *Op = M->findOp(Key))
      return Op;
    Diags.error(At, llvm::formatv("unknown operator '{0}'", Key));
    return nullptr;
  }

  bool checkTypes(const std::vector<std::string> &Types, const Loc &At) {
    bool Ok = true;
    for (const std::string &T : Types)
      if (!ir::parseDType(T)) {
        Diags.error(At, llvm::formatv("unknown data type '{0}'", T));
        Ok = false;
      }
    return Ok;
  }

  /// Reports the parse error in \p Err of \p What, written as \p Text at
  /// \p At (or, when known, at \p TextAt and the error's column).
  void parseError(llvm::Error Err, const llvm::Twine &What,
                  const std::string &Text, const Loc &At, const Loc &TextAt) {
    std::string Msg;
    unsigned Column = 0;
    llvm::handleAllErrors(
        std::move(Err),
        [&](const constraint::ParseError &PE) {
          Msg = PE.message();
          Column = PE.column();
        },
        [&](const llvm::ErrorInfoBase &EI) { Msg = EI.message(); });
    // At the column itself when the expression's text is located.
    Loc Where = At;
    if (TextAt.Line && Column) {
      Where = TextAt;
      Where.Col += Column - 1;
    }
    Diags.error(Where, llvm::formatv("{0}: {1} (column {2} of \"{3}\")",
                                     What.str(), Msg, Column, Text));
  }

  /// True when some operator of the description declares attribute \p Name.
  bool anyOperatorHas(const std::string &Name) const {
    return llvm::any_of(M->Ops, [&](const std::unique_ptr<OpDef> &Op) {
      return llvm::any_of(Op->Decl.Attrs,
                          [&](const AttrDecl &A) { return A.Name == Name; });
    });
  }

  /// Reports that constraint \p C does not fit the operator of \p Use, as
  /// the parse error \p Err in the use's scope says: at the use, naming the
  /// attribute and the operator when an attribute is missing.
  void misapplied(const ConstraintDecl &C, const ConstraintUse &Use,
                  llvm::Error Err) {
    llvm::handleAllErrors(
        std::move(Err), [&](const constraint::ParseError &PE) {
          const OpDef *Op = Use.operatorOf(PE.unknownAttrCapture());
          if (!Op) { // In a pattern, outside any capture.
            Diags.error(Use.At,
                        llvm::formatv("constraint '{0}' does not fit "
                                      "pattern '{1}': {2} (column {3} of "
                                      "\"{4}\")",
                                      C.Id, Use.Pattern, PE.message(),
                                      PE.column(), C.Expr));
            return;
          }
          std::string OpKey = Op->Decl.Key;
          if (!PE.unknownAttr().empty()) {
            std::string Attr =
                PE.unknownAttrCapture().empty()
                    ? PE.unknownAttr()
                    : PE.unknownAttrCapture() + "." + PE.unknownAttr();
            Diags.error(Use.At,
                        llvm::formatv("constraint '{0}' reads attribute "
                                      "'{1}', which operator '{2}' does "
                                      "not have",
                                      C.Id, Attr, OpKey));
            return;
          }
          Diags.error(Use.At,
                      llvm::formatv("constraint '{0}' does not fit "
                                    "operator '{1}': {2} (column {3} of "
                                    "\"{4}\")",
                                    C.Id, OpKey, PE.message(), PE.column(),
                                    C.Expr));
        });
  }

  /// True when constraint \p C, already parsed elsewhere, also reads only
  /// what the operator of \p Use has; reports at the use otherwise.
  bool fits(const ConstraintDecl &C, const constraint::Scope &S,
            const ConstraintUse &Use) {
    if (!C.CppFunction.empty())
      return true;
    auto E = constraint::parse(C.Expr, S);
    if (E)
      return true;
    misapplied(C, Use, E.takeError());
    return false;
  }

  /// Parses \p C in \p S, the scope of the rule \p Use, and records it under
  /// its id. A second declaration of the same id must be identical, unless
  /// \p MayOverride says it replaces an earlier one for the same operator.
  /// Every use of a constraint is checked against its own operator: a
  /// constraint shared by several rules must read only attributes each of
  /// their operators declares.
  const ConstraintDef *constraint(const ConstraintDecl &C,
                                  const constraint::Scope &S,
                                  const ConstraintUse &Use,
                                  bool MayOverride = false) {
    if (C.Id.empty()) {
      Diags.error(C.At, "constraint has an empty id");
      return nullptr;
    }
    if (C.Summary.empty()) {
      Diags.error(C.At, llvm::formatv("constraint '{0}' has no summary", C.Id));
      return nullptr;
    }
    // Ids become C++ names; two ids the same name would not compile.
    std::string Function = constraint::checkFunctionName(C.Id);
    auto Clash = ConstraintsByFunction.find(Function);
    if (Clash != ConstraintsByFunction.end() &&
        Clash->second->Decl.Id != C.Id) {
      const ConstraintDecl &P = Clash->second->Decl;
      Diags.error(C.At,
                  llvm::formatv("constraint ids '{0}' and '{1}' (declared "
                                "at {2}) both become the C++ name '{3}'",
                                C.Id, P.Id, formatLoc(P.At), Function));
      return nullptr;
    }
    auto Prev = ConstraintsById.find(C.Id);
    if (Prev != ConstraintsById.end() && sameDecl(Prev->second->Decl, C))
      // The same constraint used again, maybe for another operator.
      return fits(C, S, Use) ? Prev->second : nullptr;
    if (Prev != ConstraintsById.end() && !MayOverride) {
      const ConstraintDecl &P = Prev->second->Decl;
      {
        Diags.error(C.At, llvm::formatv("duplicate constraint id '{0}' with a "
                                        "different definition (first declared "
                                        "at {1})",
                                        C.Id, formatLoc(P.At)));
        return nullptr;
      }
    }
    auto Def = std::make_unique<ConstraintDef>();
    Def->Decl = C;
    if (C.CppFunction.empty()) {
      if (C.Expr.empty()) {
        Diags.error(C.At, llvm::formatv("constraint '{0}' has neither an "
                                        "expression nor a C++ function",
                                        C.Id));
        return nullptr;
      }
      auto E = constraint::parse(C.Expr, S);
      if (!E) {
        // A shared constraint naming an attribute that other operators have
        // is misapplied here, not misspelt: report it at this use.
        llvm::Error Err = E.takeError();
        bool Shared = !sameLoc(C.At, Use.At);
        std::string Missing;
        Err = llvm::handleErrors(
            std::move(Err),
            [&](std::unique_ptr<constraint::ParseError> PE) -> llvm::Error {
              Missing = PE->unknownAttr();
              return llvm::Error(std::move(PE));
            });
        if (Shared && !Missing.empty() && anyOperatorHas(Missing))
          misapplied(C, Use, std::move(Err));
        else
          parseError(std::move(Err), "constraint '" + C.Id + "'", C.Expr, C.At,
                     C.ExprAt);
        return nullptr;
      }
      Def->Parsed = std::move(*E);
    } else if (!llvm::all_of(C.CppFunction, [](char Ch) {
                 return llvm::isAlnum(Ch) || Ch == '_' || Ch == ':';
               })) {
      Diags.error(C.At, llvm::formatv("constraint '{0}': '{1}' is not a C++ "
                                      "function name",
                                      C.Id, C.CppFunction));
      return nullptr;
    }
    const ConstraintDef *Raw = Def.get();
    M->Constraints.push_back(std::move(Def));
    if (Prev == ConstraintsById.end()) {
      ConstraintsById[C.Id] = Raw;
      ConstraintsByFunction[Function] = Raw;
    }
    return Raw;
  }

  void buildLegality() {
    // Group the declarations by operator, keeping first-declaration order.
    std::vector<const OpDef *> Order;
    std::map<const OpDef *, std::vector<const LegalDecl *>> ByOp;
    for (const LegalDecl &L : D.Legals) {
      const OpDef *Op = op(L.Op, L.At);
      if (!Op)
        continue;
      if (!ByOp.count(Op))
        Order.push_back(Op);
      ByOp[Op].push_back(&L);
    }
    for (const OpDef *Op : Order) {
      std::vector<const LegalDecl *> &Decls = ByOp[Op];
      // Apply in version order; same-version duplicates are errors.
      std::map<unsigned, const LegalDecl *> ByVersion;
      for (const LegalDecl *L : Decls) {
        std::optional<unsigned> V = version(L->Since, L->At);
        if (!V)
          continue;
        auto [It, New] = ByVersion.insert({*V, L});
        if (!New)
          Diags.error(L->At, llvm::formatv("operator '{0}' already has a rule "
                                           "for version {1} (at {2})",
                                           Op->Decl.Key, L->Since,
                                           formatLoc(It->second->At)));
      }
      OpLegality OL;
      OL.Op = Op;
      OL.PerVersion.resize(M->Versions.size());
      std::optional<LegalAt> Current;
      constraint::Scope S = Op->scope();
      for (unsigned V = 0; V < M->Versions.size(); ++V) {
        auto It = ByVersion.find(V);
        if (It != ByVersion.end())
          Current = apply(*Op, Current, *It->second, S);
        OL.PerVersion[V] = Current;
      }
      M->Legality.push_back(std::move(OL));
    }
  }

  /// The legality after declaration \p L, given the one before it.
  std::optional<LegalAt> apply(const OpDef &Op,
                               const std::optional<LegalAt> &Before,
                               const LegalDecl &L, const constraint::Scope &S) {
    if (L.Removed) {
      if (!Before)
        Diags.error(L.At, llvm::formatv("operator '{0}' is removed at version "
                                        "{1} but was never legal before",
                                        Op.Decl.Key, L.Since));
      return std::nullopt;
    }
    LegalAt Out = Before ? *Before : LegalAt();
    if (!L.Types.empty() && checkTypes(L.Types, L.At))
      Out.Types = L.Types;
    // Unknown types are reported. The types are those of operand 0: an
    // operator without operands (CALL_ONCE, VAR_HANDLE) lists none.
    if (Out.Types.empty() && L.Types.empty() && !Op.Decl.Operands.empty())
      Diags.error(L.At, llvm::formatv("operator '{0}' is legal with no data "
                                      "type: list at least one",
                                      Op.Decl.Key));
    for (const std::string &Sch : L.WeightSchemes)
      if (!oneOf(Sch, Schemes))
        Diags.error(L.At, llvm::formatv("unknown quantization scheme '{0}' "
                                        "(schemes: {1})",
                                        Sch, listOf(Schemes)));
    if (!L.WeightSchemes.empty())
      Out.WeightSchemes = L.WeightSchemes;
    // Positions by id, so that a rule with thousands of constraints is not
    // scanned once per constraint.
    llvm::StringMap<size_t> Position;
    for (size_t I = 0; I < Out.Constraints.size(); ++I)
      Position.try_emplace(Out.Constraints[I]->id(), I);
    std::set<std::string> Dropped;
    for (const std::string &Id : L.Drops) {
      if (!Position.count(Id) || !Dropped.insert(Id).second)
        Diags.error(L.At, llvm::formatv("cannot drop constraint '{0}': "
                                        "operator '{1}' has no such constraint "
                                        "before version {2}",
                                        Id, Op.Decl.Key, L.Since));
    }
    if (!Dropped.empty()) {
      llvm::erase_if(Out.Constraints, [&](const ConstraintDef *C) {
        return Dropped.count(C->id()) != 0;
      });
      Position.clear();
      for (size_t I = 0; I < Out.Constraints.size(); ++I)
        Position.try_emplace(Out.Constraints[I]->id(), I);
    }
    std::set<std::string> Seen;
    for (const ConstraintDecl &C : L.Constraints) {
      if (!Seen.insert(C.Id).second) {
        Diags.error(L.At, llvm::formatv("constraint '{0}' is listed twice for "
                                        "operator '{1}'",
                                        C.Id, Op.Decl.Key));
        continue;
      }
      auto Old = Position.find(C.Id);
      ConstraintUse Use;
      Use.At = L.At;
      Use.Op = &Op;
      const ConstraintDef *Def =
          constraint(C, S, Use, /*MayOverride=*/Old != Position.end());
      if (!Def)
        continue;
      if (Old != Position.end()) {
        Out.Constraints[Old->second] = Def;
      } else {
        Position.try_emplace(C.Id, Out.Constraints.size());
        Out.Constraints.push_back(Def);
      }
    }
    return Out;
  }

  void buildMappings() {
    for (const MappingDecl &Md : D.Mappings) {
      MappingDef Map;
      Map.From = op(Md.From, Md.At);
      Map.To = op(Md.To, Md.At);
      std::optional<unsigned> Since = sinceVersion(Md.Since, Md.At);
      if (!Map.From || !Map.To || !Since)
        continue;
      Map.Since = *Since;
      Map.Benefit = Md.Benefit;
      Map.At = Md.At;
      constraint::Scope S = Map.From->scope();
      ConstraintUse Use;
      Use.At = Md.At;
      Use.Op = Map.From;
      for (const ConstraintDecl &C : Md.Constraints)
        if (const ConstraintDef *Def = constraint(C, S, Use))
          Map.Constraints.push_back(Def);
      for (const std::string &Set : Md.SetAttrs) {
        std::pair<llvm::StringRef, llvm::StringRef> Parts =
            llvm::StringRef(Set).split('=');
        llvm::StringRef Name = Parts.first, Value = Parts.second;
        bool Known = llvm::any_of(Map.To->Decl.Attrs, [&](const AttrDecl &A) {
          return A.Name == Name.trim();
        });
        if (Set.find('=') == std::string::npos || Name.trim().empty())
          Diags.error(Md.At, llvm::formatv("attribute setting '{0}' is not of "
                                           "the form name=value",
                                           Set));
        else if (!Known)
          Diags.error(Md.At, llvm::formatv("operator '{0}' has no attribute "
                                           "'{1}'",
                                           Map.To->Decl.Key, Name.trim()));
        else
          Map.SetAttrs.push_back({Name.trim().str(), Value.trim().str()});
      }
      M->Mappings.push_back(std::move(Map));
    }
    std::stable_sort(M->Mappings.begin(), M->Mappings.end(),
                     [](const MappingDef &A, const MappingDef &B) {
                       return A.Benefit > B.Benefit;
                     });
  }

  void buildQuantRules() {
    for (const QuantRuleDecl &Q : D.QuantRules) {
      QuantRuleDef R;
      R.Op = op(Q.Op, Q.At);
      std::optional<unsigned> Since = sinceVersion(Q.Since, Q.At);
      if (!R.Op || !Since)
        continue;
      R.Since = *Since;
      if (!Q.Until.empty()) {
        R.Until = version(Q.Until, Q.At);
        if (R.Until && *R.Until < R.Since)
          Diags.error(Q.At, llvm::formatv("quantization rule ends at version "
                                          "{0}, before it starts at {1}",
                                          Q.Until, Q.Since));
      }
      R.Relation = Q.Relation;
      R.OnFail = Q.OnFail;
      if (!llvm::is_contained(D.KnownQuantRelations, Q.Relation))
        Diags.error(Q.At, llvm::formatv("unknown quantization relation '{0}' "
                                        "(relations: {1})",
                                        Q.Relation,
                                        llvm::join(D.KnownQuantRelations, ", ")));
      if (!llvm::is_contained(D.KnownQuantActions, Q.OnFail))
        Diags.error(Q.At, llvm::formatv("unknown action '{0}' (actions: {1})",
                                        Q.OnFail,
                                        llvm::join(D.KnownQuantActions, ", ")));
      if ((Q.Relation == "check") != Q.HasCheck)
        Diags.error(Q.At, Q.HasCheck
                              ? "only a 'check' quantization rule takes a "
                                "condition"
                              : "a 'check' quantization rule needs a "
                                "condition");
      else if (Q.HasCheck) {
        ConstraintUse Use;
        Use.At = Q.At;
        Use.Op = R.Op;
        R.Check = constraint(Q.Check, R.Op->scope(), Use);
      }
      if (Q.Relation == "fixed_output") {
        R.ScaleText = Q.Scale;
        if (llvm::StringRef(Q.Scale).getAsDouble(R.Scale) ||
            !std::isfinite(R.Scale) || R.Scale <= 0)
          Diags.error(Q.At, llvm::formatv("fixed output scale '{0}' is not a "
                                          "finite positive number",
                                          Q.Scale));
        else if (Q.ZeroPoint < std::numeric_limits<int32_t>::min() ||
                 Q.ZeroPoint > std::numeric_limits<int32_t>::max())
          Diags.error(Q.At, llvm::formatv("fixed output zero point {0} is out "
                                          "of range (a 32-bit integer)",
                                          Q.ZeroPoint));
        R.ZeroPoint = Q.ZeroPoint;
      }
      M->QuantRules.push_back(std::move(R));
    }
  }

  void buildPatterns() {
    std::set<std::string> Names;
    for (const PatternDecl &P : D.Patterns) {
      PatternDef Def;
      Def.Name = P.Name;
      Def.Benefit = P.Benefit;
      if (!Names.insert(P.Name).second)
        Diags.error(P.At, llvm::formatv("duplicate pattern '{0}'", P.Name));
      std::optional<unsigned> Since = sinceVersion(P.Since, P.At);
      if (!Since)
        continue;
      Def.Since = *Since;
      bool Ok = true;
      std::map<std::string, constraint::Scope> Captures;
      ConstraintUse Use;
      Use.At = P.At;
      Use.Pattern = P.Name;
      for (const PatternNodeDecl &N : P.Nodes) {
        PatternNodeDef Node;
        Node.Set = M->findOpSet(N.Op);
        Node.Op = Node.Set ? nullptr : op(N.Op, P.At);
        Node.Capture = N.Capture;
        if (!Node.Op && !Node.Set) {
          Ok = false;
          continue;
        }
        // Members of a set declare the same operands: the first stands for
        // all of them.
        const OpDef &Shape = Node.Set ? *Node.Set->Members.front() : *Node.Op;
        if (!N.Capture.empty()) {
          if (Captures.count(N.Capture) ||
              llvm::is_contained(Def.Values, N.Capture))
            Diags.error(P.At, llvm::formatv("pattern '{0}': capture '{1}' is "
                                            "bound twice",
                                            P.Name, N.Capture));
          Captures[N.Capture] = Node.Set ? Node.Set->scope() : Node.Op->scope();
          Use.CaptureOps[N.Capture] =
              Node.Set ? Node.Set->Members.front() : Node.Op;
        }
        if (!Shape.Decl.Variadic && N.Args.size() > Shape.Decl.Operands.size())
          Diags.error(P.At,
                      llvm::formatv("pattern '{0}': '{1}' takes {2} "
                                    "operands, the pattern gives {3}",
                                    P.Name, N.Op, Shape.Decl.Operands.size(),
                                    N.Args.size()));
        for (const PatternArgDecl &A : N.Args) {
          PatternNodeDef::Arg Arg;
          Arg.Node = A.Node;
          if (A.Node < 0 && !A.Capture.empty()) {
            auto It = llvm::find(Def.Values, A.Capture);
            if (It != Def.Values.end() || Captures.count(A.Capture)) {
              Diags.error(P.At, llvm::formatv("pattern '{0}': value '${1}' is "
                                              "bound twice",
                                              P.Name, A.Capture));
            }
            Arg.Value = static_cast<int>(Def.Values.size());
            Def.Values.push_back(A.Capture);
          }
          Node.Args.push_back(Arg);
        }
        Def.Nodes.push_back(std::move(Node));
      }
      if (!resultOperator(P, Def) || !Ok)
        continue;
      for (const std::string &V : P.ResultArgs) {
        auto It = llvm::find(Def.Values, V);
        if (It == Def.Values.end()) {
          Diags.error(P.At, llvm::formatv("pattern '{0}': capture '${1}' is "
                                          "used in the result but not bound "
                                          "in the source",
                                          P.Name, V));
          continue;
        }
        Def.ResultArgs.push_back(static_cast<int>(It - Def.Values.begin()));
      }
      constraint::Scope S;
      S.Captures = Captures;
      for (const ConstraintDecl &C : P.Constraints)
        if (const ConstraintDef *CD = constraint(C, S, Use))
          Def.Constraints.push_back(CD);
      checkCaptureMembers(Def, S, P.Constraints, Use);
      M->Patterns.push_back(std::move(Def));
    }
    std::stable_sort(M->Patterns.begin(), M->Patterns.end(),
                     [](const PatternDef &A, const PatternDef &B) {
                       if (A.Benefit != B.Benefit)
                         return A.Benefit > B.Benefit;
                       return A.Name < B.Name;
                     });
  }

  /// Resolves the result operator of \p P: an operator, or a set and the
  /// source node whose matched member picks the set's result.
  bool resultOperator(const PatternDecl &P, PatternDef &Def) {
    const OpSetDef *Set = M->findOpSet(P.ResultOp);
    if (!Set) {
      if (!P.ResultCapture.empty()) {
        Diags.error(P.At, llvm::formatv("pattern '{0}': the result operator "
                                        "cannot be captured",
                                        P.Name));
        return false;
      }
      Def.Result = op(P.ResultOp, P.At);
      return Def.Result != nullptr;
    }
    if (Set->Results.empty()) {
      Diags.error(P.At, llvm::formatv("pattern '{0}': the result names op set "
                                      "'{1}', which lists no results",
                                      P.Name, P.ResultOp));
      return false;
    }
    if (P.ResultCapture.empty()) {
      Diags.error(P.At, llvm::formatv("pattern '{0}': the result names op set "
                                      "'{1}' without a capture: write "
                                      "({1}:$name ...) with the source node "
                                      "whose member picks the result",
                                      P.Name, P.ResultOp));
      return false;
    }
    auto Node = llvm::find_if(Def.Nodes, [&](const PatternNodeDef &N) {
      return N.Capture == P.ResultCapture;
    });
    if (Node == Def.Nodes.end()) {
      Diags.error(P.At, llvm::formatv("pattern '{0}': the result's capture "
                                      "'${1}' names no operator of the source",
                                      P.Name, P.ResultCapture));
      return false;
    }
    // Whatever the node matches must be a member, so that it has a result.
    std::vector<const OpDef *> Matched =
        Node->Set ? Node->Set->Members : std::vector<const OpDef *>{Node->Op};
    for (const OpDef *Op : Matched)
      if (!llvm::is_contained(Set->Members, Op)) {
        Diags.error(P.At, llvm::formatv("pattern '{0}': '${1}' may match "
                                        "'{2}', which op set '{3}' does not "
                                        "list, so the result is unknown",
                                        P.Name, P.ResultCapture, Op->Decl.Key,
                                        P.ResultOp));
        return false;
      }
    Def.ResultSet = Set;
    Def.ResultNode = static_cast<int>(Node - Def.Nodes.begin());
    return true;
  }

  /// The operators node \p N matches: each must have what the pattern's
  /// constraints read through its capture.
  static std::vector<const OpDef *> nodeOperators(const PatternNodeDef &N) {
    return N.Set ? N.Set->Members : std::vector<const OpDef *>{N.Op};
  }

  /// Checks \p Constraints of pattern \p Def, parsed in \p S with the first
  /// operator of each node, against every other operator a captured node
  /// matches.
  void checkCaptureMembers(const PatternDef &Def, const constraint::Scope &S,
                           const std::vector<ConstraintDecl> &Constraints,
                           const ConstraintUse &Use) {
    for (const PatternNodeDef &N : Def.Nodes) {
      std::vector<const OpDef *> Members = nodeOperators(N);
      if (N.Capture.empty())
        continue;
      // A set's node was parsed with the set's scope: check every member.
      for (size_t I = N.Set ? 0 : 1; I < Members.size(); ++I) {
        constraint::Scope Alt = S;
        Alt.Captures[N.Capture] = Members[I]->scope();
        ConstraintUse AltUse = Use;
        AltUse.CaptureOps[N.Capture] = Members[I];
        for (const ConstraintDecl &C : Constraints)
          fits(C, Alt, AltUse);
      }
    }
  }

  /// One value of an operator from a version on, as declared.
  struct ValueDecl {
    const std::string &Op, &Since, &Text;
    const Loc &At, &TextAt;
  };

  /// Groups values (costs, scratch sizes) by operator, each by version; one
  /// per operator and version. \p What names them in errors ("cost",
  /// "scratch size"); \p IntOnly requires int expressions.
  std::vector<OpValues> buildValues(const std::vector<ValueDecl> &Decls,
                                    llvm::StringRef What, bool IntOnly) {
    std::map<const OpDef *, std::map<unsigned, const ValueDecl *>> ByOp;
    std::vector<const OpDef *> Order;
    for (const ValueDecl &C : Decls) {
      const OpDef *Op = op(C.Op, C.At);
      std::optional<unsigned> Since = version(C.Since, C.At);
      if (!Op || !Since)
        continue;
      auto [It, New] = ByOp[Op].insert({*Since, &C});
      if (!New) {
        Diags.error(C.At, llvm::formatv("operator '{0}' already has a {1} "
                                        "for version {2} (at {3})",
                                        C.Op, What, C.Since,
                                        formatLoc(It->second->At)));
        continue;
      }
      if (ByOp[Op].size() == 1)
        Order.push_back(Op);
    }
    std::vector<OpValues> Out;
    for (const OpDef *Op : Order) {
      OpValues Values;
      Values.Op = Op;
      constraint::Scope S = Op->scope();
      for (const auto &[Since, C] : ByOp[Op]) {
        ValueStep Def;
        Def.Op = Op;
        Def.Since = Since;
        Def.Text = C->Text;
        auto E = IntOnly ? constraint::parseIntValue(C->Text, S)
                         : constraint::parseValue(C->Text, S);
        if (!E) {
          parseError(E.takeError(),
                     What + " of '" + C->Op + "' from version " + C->Since,
                     C->Text, C->At, C->TextAt);
          continue;
        }
        // `macs` counts a framework operator's multiply-accumulates from its
        // type; a target operator's type names none, so it would read 0.
        bool ReadsMacs = false;
        constraint::forEachRef(**E, [&](const constraint::RefExpr &R) {
          ReadsMacs |= R.ref().K == constraint::Reference::Kind::Macs;
        });
        if (ReadsMacs && Op->isTargetOp()) {
          Diags.error(C->TextAt,
                      llvm::formatv("the {0} of target operator '{1}' reads "
                                    "'macs', which counts a framework "
                                    "operator's; spell the product out from "
                                    "its operands",
                                    What, C->Op));
          continue;
        }
        Def.Parsed = std::move(*E);
        Values.Steps.push_back(std::move(Def));
      }
      Out.push_back(std::move(Values));
    }
    return Out;
  }

  void buildCosts() {
    std::vector<ValueDecl> Decls;
    for (const CostDecl &C : D.Costs)
      Decls.push_back({C.Op, C.Since, C.Cycles, C.At, C.CyclesAt});
    M->Costs = buildValues(Decls, "cost", /*IntOnly=*/false);
  }

  /// Scratch sizes are int byte counts.
  void buildScratch() {
    std::vector<ValueDecl> Decls;
    for (const ScratchDecl &C : D.Scratch)
      Decls.push_back({C.Op, C.Since, C.Bytes, C.At, C.BytesAt});
    M->Scratch = buildValues(Decls, "scratch size", /*IntOnly=*/true);
  }
};

} // namespace

std::unique_ptr<TargetModel> buildTargetModel(const TargetDecl &D,
                                              Diagnostics &Diags) {
  return ModelBuilder(D, Diags).run();
}

} // namespace gen
} // namespace accelgen
