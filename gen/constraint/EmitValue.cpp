//===- EmitValue.cpp - Generated functions computing a value ---------------===//
//
// A value expression (a cost estimate, a scratch size) becomes the body of a
// function that reads every referenced value into a local, as a check does,
// and returns the expression as a double (a cost) or an int64_t (an int
// value):
//
//   // Conv2D from 2.0: macs / 512
//   namespace rt = accelgen::target::rt;
//   const int64_t macs = rt::macs(G, Op);
//   return static_cast<double>(rt::div(macs, 512));
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"
#include "constraint/CppExpr.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace gen {
namespace constraint {

namespace {

// {0} label, {1} expression, {2} declarations, {3} returned value.
constexpr const char *ValueBodyTemplate = R"(  // {0}: {1}
  namespace rt = accelgen::target::rt;
{2}  return {3};
)";

constexpr const char *LocalTemplate = "  const {0} {1} = {2};\n";
constexpr const char *UnusedTemplate = "  (void){0};\n";

void emitBody(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Label,
              bool AsDouble) {
  CppExprWriter W(E, CheckKind::Operator, Label);
  std::string Decls;
  for (const CppExprWriter::Local &L : W.locals())
    Decls += llvm::formatv(LocalTemplate, L.CppType, L.Name, L.Init);
  if (!W.readsTensors())
    Decls += llvm::formatv(UnusedTemplate, "G");
  if (W.locals().empty())
    Decls += llvm::formatv(UnusedTemplate, "Op");
  std::string Value = W.condition(E);
  // A `select` is emitted in parentheses, which a return needs not.
  const auto *C = llvm::dyn_cast<CallExpr>(&E);
  if (C && C->fn() == CallExpr::Fn::Select)
    Value = Value.substr(1, Value.size() - 2);
  if (AsDouble && E.type() == Type::Int)
    Value = "static_cast<double>(" + Value + ")";
  OS << llvm::formatv(ValueBodyTemplate, commentText(Label),
                      commentText(print(E)), Decls, Value);
}

} // namespace

void emitValue(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Label) {
  emitBody(OS, E, Label, /*AsDouble=*/true);
}

void emitIntValue(llvm::raw_ostream &OS, const Expr &E, llvm::StringRef Label) {
  assert(E.type() == Type::Int && "an int value must be an int expression");
  emitBody(OS, E, Label, /*AsDouble=*/false);
}

} // namespace constraint
} // namespace gen
} // namespace accelgen
