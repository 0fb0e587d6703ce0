//===- VocabularyFrontend.cpp - Records to the operator vocabulary --------===//
#include "frontend/VocabularyFrontend.h"

#include "frontend/RecordFrontend.h"

#include "llvm/TableGen/Record.h"

#include <algorithm>

namespace accelgen {
namespace gen {

namespace {

/// Records derived from \p Class, in the order they were defined.
std::vector<llvm::Record *> definedOrder(const llvm::RecordKeeper &Records,
                                         llvm::StringRef Class) {
  if (!Records.getClass(Class))
    return {};
  std::vector<llvm::Record *> Defs = Records.getAllDerivedDefinitions(Class);
  std::sort(Defs.begin(), Defs.end(),
            [](const llvm::Record *A, const llvm::Record *B) {
              return A->getID() < B->getID();
            });
  return Defs;
}

/// A stripe transform of operator \p R: its field \p Field, `Rows` or
/// `Cols`.
StripeRowsDecl readStripeRows(const llvm::Record &R, llvm::StringRef Field) {
  StripeRowsDecl D;
  const llvm::Record *Rows = R.getValueAsDef(Field);
  D.Kind = Rows->getValueAsString("Kind").str();
  auto Attr = [](const llvm::Record *A) {
    return StripeAttrDecl{
        A->getValueAsString("Name").str(),
        A->getValueAsDef("Kind")->getValueAsString("Name").str()};
  };
  if (Rows->isSubClassOf("RowsWindow")) {
    D.Stride = Attr(Rows->getValueAsDef("Stride"));
    for (const llvm::Record *A : Rows->getValueAsListOfDefs("Dilation"))
      D.Dilation.push_back(Attr(A));
    for (const llvm::Record *A : Rows->getValueAsListOfDefs("Kernel"))
      D.Kernel.push_back(Attr(A));
    for (const llvm::Record *O : Rows->getValueAsListOfDefs("KernelOperand"))
      D.KernelOperand.push_back(O->getValueAsString("Name").str());
  }
  return D;
}

} // namespace

VocabularyDecl readVocabularyRecords(const llvm::RecordKeeper &Records) {
  VocabularyDecl D;
  for (const llvm::Record *R : definedOrder(Records, "Op"))
    if (!R->isSubClassOf("TargetOp")) {
      VocabularyOpDecl O;
      O.Key = R->getName().str();
      O.Name = R->getValueAsString("Name").str();
      O.IsBuiltin = R->getValueAsBit("IsBuiltin");
      O.At = recordLoc(*R);
      // Optional operands may be left off the end, so the minimum counts up
      // to the last required one.
      std::vector<llvm::Record *> Operands =
          R->getValueAsListOfDefs("Operands");
      O.MaxOperands = static_cast<int32_t>(Operands.size());
      for (size_t I = 0; I < Operands.size(); ++I)
        if (!Operands[I]->getValueAsBit("Optional")) {
          O.MinOperands = static_cast<int32_t>(I + 1);
          if (I < 64)
            O.RequiredMask |= uint64_t(1) << I;
        }
      if (R->getValueAsBit("Variadic"))
        O.MaxOperands = -1;
      O.NumResults = static_cast<int32_t>(R->getValueAsInt("NumResults"));
      for (const llvm::Record *Operand : Operands)
        O.OperandNames.push_back(Operand->getValueAsString("Name").str());
      for (const llvm::Record *A : R->getValueAsListOfDefs("Attrs"))
        O.AttrNames.push_back(A->getValueAsString("Name").str());
      O.Rows = readStripeRows(*R, "Rows");
      O.Cols = readStripeRows(*R, "Cols");
      for (const llvm::Record *Operand :
           R->getValueAsListOfDefs("OutputOverlays"))
        O.OutputOverlays.push_back(Operand->getValueAsString("Name").str());
      O.RunByHost = R->getValueAsBit("RunByHost");
      D.Ops.push_back(std::move(O));
    }
  for (const llvm::Record *R : definedOrder(Records, "TFLiteBuiltin"))
    D.Builtins.push_back({R->getValueAsInt("Code"),
                          R->getValueAsString("Name").str(), recordLoc(*R)});
  D.QuantRelations = languageNames(Records, "QuantRelation");
  D.QuantActions = languageNames(Records, "QuantAction");
  for (const llvm::Record *R : definedOrder(Records, "Attr"))
    D.Attrs.push_back({R->getValueAsString("Name").str(),
                       R->getValueAsDef("Kind")->getValueAsString("Name").str(),
                       recordLoc(*R)});
  return D;
}

} // namespace gen
} // namespace accelgen
