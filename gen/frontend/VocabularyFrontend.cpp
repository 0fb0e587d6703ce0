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

} // namespace

VocabularyDecl readVocabularyRecords(const llvm::RecordKeeper &Records) {
  VocabularyDecl D;
  for (const llvm::Record *R : definedOrder(Records, "Op"))
    if (!R->isSubClassOf("TargetOp"))
      D.Ops.push_back({R->getName().str(), R->getValueAsString("Name").str(),
                       R->getValueAsBit("IsBuiltin"), recordLoc(*R)});
  for (const llvm::Record *R : definedOrder(Records, "TFLiteBuiltin"))
    D.Builtins.push_back({R->getValueAsInt("Code"),
                          R->getValueAsString("Name").str(), recordLoc(*R)});
  for (const llvm::Record *R : definedOrder(Records, "Attr"))
    D.Attrs.push_back({R->getValueAsString("Name").str(),
                       R->getValueAsDef("Kind")->getValueAsString("Name").str(),
                       recordLoc(*R)});
  return D;
}

} // namespace gen
} // namespace accelgen
