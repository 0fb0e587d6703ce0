//===- EmitCheck.cpp - Generated checks that explain themselves ------------===//
//
// A check reads every referenced value into a local, tests the condition,
// and on failure says what it saw. A single comparison of one reference with
// constants gets the requirement in words:
//
//   stride_h = 5, must be in [1, 4]
//
// anything else lists each referenced value, then the constraint's summary:
//
//   stride_h = 5, stride_w = 1: stride must be in [1, 4]
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"
#include "constraint/CppExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

// {0} id, {1} expression, {2} declarations, {3} condition, {4} message.
constexpr const char *BodyTemplate = R"(  // {0}: {1}
  namespace rt = accelgen::target::rt;
{2}  if ({3})
    return true;
{4}  return false;
)";

// {0} id, {1} function, {2} operator or captures parameter, {3} message.
constexpr const char *FunctionBodyTemplate = R"(  // {0}: decided by {1}()
  if ({1}(G, {2}))
    return true;
  Message = {3};
  return false;
)";

// {0} id, {1} summary, {2} signature, {3} body.
constexpr const char *DefinitionTemplate = R"(// {0}: {1}
{2} {{
{3}}
)";

constexpr const char *CaptureTemplate =
    "  const accelgen::ir::Operator &{0} = C.op(G, {1});\n";
constexpr const char *LocalTemplate = "  const {0} {1} = {2};\n";
constexpr const char *UnusedTemplate = "  (void){0};\n";
constexpr const char *FirstValueTemplate =
    "  Message = {0} + rt::format({1}){2};\n";
constexpr const char *NextValueTemplate =
    "  Message += {0} + rt::format({1});\n";
constexpr const char *MessageTailTemplate = "  Message += {0};\n";
constexpr const char *MessageOnlyTemplate = "  Message = {0};\n";

bool hasRefs(const Expr &E) {
  bool Any = false;
  forEachRef(E, [&](const RefExpr &) { Any = true; });
  return Any;
}

/// "must be in [1, 4]" when \p E compares one reference with constants.
std::optional<std::string> requirement(const Expr &E) {
  using Op = BinaryExpr::Op;
  if (const auto *In = llvm::dyn_cast<InExpr>(&E)) {
    if (!llvm::isa<RefExpr>(In->subject()) ||
        llvm::any_of(In->items(), [](const ExprPtr &I) { return hasRefs(*I); }))
      return std::nullopt;
    std::vector<std::string> Items;
    for (const ExprPtr &I : In->items())
      Items.push_back(describe(*I));
    std::string List = llvm::join(Items, ", ");
    return In->isRange() ? "must be in [" + List + "]"
                         : "must be one of {" + List + "}";
  }
  const auto *B = llvm::dyn_cast<BinaryExpr>(&E);
  if (!B || !isComparison(B->op()))
    return std::nullopt;
  Op O = B->op();
  const Expr *Constant = &B->rhs();
  if (!llvm::isa<RefExpr>(B->lhs()) || hasRefs(B->rhs())) {
    if (!llvm::isa<RefExpr>(B->rhs()) || hasRefs(B->lhs()))
      return std::nullopt;
    Constant = &B->lhs();
    O = O == Op::Lt ? Op::Gt : O == Op::Gt ? Op::Lt
      : O == Op::Le ? Op::Ge : O == Op::Ge ? Op::Le : O;
  }
  llvm::StringRef Words = O == Op::Eq   ? "must be "
                          : O == Op::Ne ? "must not be "
                          : O == Op::Lt ? "must be less than "
                          : O == Op::Le ? "must be at most "
                          : O == Op::Gt ? "must be greater than "
                                        : "must be at least ";
  return Words.str() + describe(*Constant);
}

std::string messageCode(const Expr &E, const CppExprWriter &W,
                        llvm::StringRef Id, llvm::StringRef Summary) {
  const auto &Locals = W.locals();
  std::optional<std::string> Required = requirement(E);
  if (Required && Locals.size() == 1)
    return llvm::formatv(FirstValueTemplate,
                         cppStringLiteral(Locals[0].Spelling + " = "),
                         Locals[0].Name,
                         " + " + cppStringLiteral(", " + *Required));
  std::string Tail = Summary.empty()
                         ? "constraint " + Id.str() + " does not hold"
                         : Summary.str();
  if (Locals.empty())
    return llvm::formatv(MessageOnlyTemplate, cppStringLiteral(Tail));
  std::string Code;
  for (size_t I = 0; I < Locals.size(); ++I)
    Code += I == 0 ? llvm::formatv(FirstValueTemplate,
                                   cppStringLiteral(Locals[I].Spelling + " = "),
                                   Locals[I].Name, "")
                         .str()
                   : llvm::formatv(NextValueTemplate,
                                   cppStringLiteral(", " + Locals[I].Spelling +
                                                    " = "),
                                   Locals[I].Name)
                         .str();
  if (!Summary.empty())
    Code += llvm::formatv(MessageTailTemplate,
                          cppStringLiteral(": " + Summary.str()));
  return Code;
}

} // namespace

std::string checkFunctionName(llvm::StringRef Id) {
  std::string Name = "check_";
  for (char C : Id)
    Name += llvm::isAlnum(C) ? C : '_';
  return Name;
}

std::string checkSignature(llvm::StringRef Name, CheckKind Kind) {
  return llvm::formatv("bool {0}(const accelgen::ir::Graph &G, {1}, "
                       "std::string &Message)",
                       Name,
                       Kind == CheckKind::Pattern
                           ? "const accelgen::target::Captures &C"
                           : "const accelgen::ir::Operator &Op");
}

void emitCheck(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Id,
               llvm::StringRef Summary, CheckKind Kind) {
  CppExprWriter W(E, Kind, Id);
  std::string Decls;
  for (const CppExprWriter::CaptureVar &V : W.captures())
    Decls += llvm::formatv(CaptureTemplate, V.Name, cppStringLiteral(V.Capture));
  for (const CppExprWriter::Local &L : W.locals())
    Decls += llvm::formatv(LocalTemplate, L.CppType, L.Name, L.Init);
  bool UsesG = Kind == CheckKind::Pattern ? !W.captures().empty()
                                          : W.readsTensors();
  if (!UsesG)
    Decls += llvm::formatv(UnusedTemplate, "G");
  if (W.locals().empty())
    Decls += llvm::formatv(UnusedTemplate,
                           Kind == CheckKind::Pattern ? "C" : "Op");
  OS << llvm::formatv(BodyTemplate, commentText(Id), commentText(print(E)),
                      Decls, W.condition(E), messageCode(E, W, Id, Summary));
}

void emitFunctionCheck(llvm::raw_ostream &OS, llvm::StringRef Function,
                       llvm::StringRef Id, llvm::StringRef Summary,
                       CheckKind Kind) {
  std::string Message = Summary.empty()
                            ? "constraint " + Id.str() + " does not hold"
                            : Summary.str();
  OS << llvm::formatv(FunctionBodyTemplate, commentText(Id), Function,
                      Kind == CheckKind::Pattern ? "C" : "Op",
                      cppStringLiteral(Message));
}

void emitCheckDefinition(llvm::raw_ostream &OS, const Expr &E,
                         llvm::StringRef Id, llvm::StringRef Summary,
                         CheckKind Kind) {
  std::string Body;
  llvm::raw_string_ostream BodyOS(Body);
  emitCheck(BodyOS, E, Id, Summary, Kind);
  OS << llvm::formatv(DefinitionTemplate, commentText(Id), commentText(Summary),
                      checkSignature(checkFunctionName(Id), Kind),
                      BodyOS.str());
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
