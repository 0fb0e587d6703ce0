//===- Vocabulary.cpp - Checking and ordering the operator vocabulary -----===//
//
// Every mistake is reported at the record that makes it: a builtin code or
// name given twice, an operator whose name is not the builtin it claims to be
// (or is one it disclaims), two operators of one name, and attribute names
// that do not make distinct C++ constants.
//
//===----------------------------------------------------------------------===//
#include "model/Vocabulary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <map>

namespace accelgen {
namespace gen {

namespace {

bool isUpper(char C) { return C >= 'A' && C <= 'Z'; }
bool isLower(char C) { return C >= 'a' && C <= 'z'; }

/// True for an upper-case C++ identifier: the form of every builtin name,
/// which the importer uses as an enumerator.
bool isBuiltinName(llvm::StringRef S) {
  return !S.empty() && isUpper(S.front()) && llvm::all_of(S, [](char C) {
    return isUpper(C) || llvm::isDigit(C) || C == '_';
  });
}

/// True for lower_snake_case: a lower-case letter, then lower-case letters,
/// digits and single underscores, ending in neither.
bool isAttrName(llvm::StringRef S) {
  if (S.empty() || !isLower(S.front()) || S.back() == '_' || S.contains("__"))
    return false;
  return llvm::all_of(
      S, [](char C) { return isLower(C) || llvm::isDigit(C) || C == '_'; });
}

/// The ir::attr constant of attribute \p Name: `stride_h` gives `StrideH`.
std::string attrConstant(llvm::StringRef Name) {
  std::string Out;
  bool Upper = true;
  for (char C : Name) {
    if (C == '_') {
      Upper = true;
      continue;
    }
    Out += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Out;
}

} // namespace

std::optional<Vocabulary> buildVocabulary(const VocabularyDecl &D,
                                          Diagnostics &Diags) {
  unsigned ErrorsBefore = Diags.errorCount();
  Vocabulary V;

  std::map<int64_t, const BuiltinDecl *> ByCode;
  llvm::StringMap<const BuiltinDecl *> ByName;
  for (const BuiltinDecl &B : D.Builtins) {
    if (B.Code < 0 || B.Code > std::numeric_limits<int32_t>::max()) {
      Diags.error(B.At, llvm::formatv("builtin code {0} of '{1}' is outside "
                                      "[0, 2^31)",
                                      B.Code, B.Name));
      continue;
    }
    if (!isBuiltinName(B.Name)) {
      Diags.error(B.At, llvm::formatv("builtin name '{0}' must be upper-case "
                                      "letters, digits and '_', starting with "
                                      "a letter",
                                      B.Name));
      continue;
    }
    auto [CodeIt, NewCode] = ByCode.emplace(B.Code, &B);
    if (!NewCode) {
      Diags.error(B.At, llvm::formatv("builtin code {0} is already '{1}'",
                                      B.Code, CodeIt->second->Name));
      continue;
    }
    auto [NameIt, NewName] = ByName.try_emplace(B.Name, &B);
    if (!NewName)
      Diags.error(B.At, llvm::formatv("builtin '{0}' already has code {1}",
                                      B.Name, NameIt->second->Code));
  }
  for (const auto &[Code, B] : ByCode)
    V.Builtins.push_back({static_cast<int32_t>(Code), B->Name});

  llvm::StringMap<const VocabularyOpDecl *> OpByName;
  for (const VocabularyOpDecl &O : D.Ops) {
    if (O.Key == "Unknown") {
      Diags.error(O.At, "operator record 'Unknown' would clash with "
                        "ir::OpCode::Unknown, the code of operators outside "
                        "the vocabulary");
      continue;
    }
    auto [It, New] = OpByName.try_emplace(O.Name, &O);
    if (!New) {
      Diags.error(O.At, llvm::formatv("operator '{0}' is named '{1}', like "
                                      "'{2}'",
                                      O.Key, O.Name, It->second->Key));
      continue;
    }
    auto B = ByName.find(O.Name);
    if (O.IsBuiltin && B == ByName.end()) {
      Diags.error(O.At, llvm::formatv("operator '{0}': '{1}' is not a "
                                      "TensorFlow Lite builtin (tflite.td); "
                                      "set IsBuiltin = 0 for an operator of "
                                      "accelgen's own",
                                      O.Key, O.Name));
      continue;
    }
    if (!O.IsBuiltin && B != ByName.end()) {
      Diags.error(O.At, llvm::formatv("operator '{0}' sets IsBuiltin = 0, "
                                      "but '{1}' is TensorFlow Lite builtin "
                                      "{2}",
                                      O.Key, O.Name, B->second->Code));
      continue;
    }
    V.Ops.push_back({O.Key, O.Name,
                     O.IsBuiltin ? static_cast<int32_t>(B->second->Code) : -1,
                     O.MinOperands, O.MaxOperands, O.NumResults});
  }

  // Attribute names, each once; ops.td shares one record per name, but two
  // records may name the same attribute if they agree on its kind.
  std::map<std::string, const VocabularyAttrDecl *> AttrByName;
  llvm::StringMap<const VocabularyAttrDecl *> AttrByConstant;
  for (const VocabularyAttrDecl &A : D.Attrs) {
    if (!isAttrName(A.Name)) {
      Diags.error(A.At, llvm::formatv("attribute name '{0}' must be "
                                      "lower_snake_case",
                                      A.Name));
      continue;
    }
    auto [It, New] = AttrByName.emplace(A.Name, &A);
    if (!New) {
      if (It->second->Kind != A.Kind)
        Diags.error(A.At, llvm::formatv("attribute '{0}' is {1} here but {2} "
                                        "in its first definition",
                                        A.Name, A.Kind, It->second->Kind));
      continue;
    }
    std::string Constant = attrConstant(A.Name);
    auto [CIt, NewConstant] = AttrByConstant.try_emplace(Constant, &A);
    if (!NewConstant)
      Diags.error(A.At, llvm::formatv("attributes '{0}' and '{1}' would both "
                                      "be ir::attr::{2}",
                                      CIt->second->Name, A.Name, Constant));
  }
  for (const auto &[Name, A] : AttrByName)
    V.Attrs.push_back({attrConstant(Name), Name});

  if (Diags.errorCount() != ErrorsBefore)
    return std::nullopt;
  return V;
}

} // namespace gen
} // namespace accelgen
