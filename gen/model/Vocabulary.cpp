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

/// Checks operator \p O's stripe transforms (`Rows`, and `Cols`, which may be
/// whole or a window only) and fills \p E's; false after reporting a mistake.
bool checkStripeRows(const VocabularyOpDecl &O, Vocabulary::OpEntry &E,
                     Diagnostics &Diags) {
  auto Check = [&](const StripeRowsDecl &R, bool Columns,
                   Vocabulary::OpEntry::StripeMap &M) {
    static const llvm::StringRef RowKinds[] = {"whole", "identity", "shifted",
                                               "window", "accumulate"};
    static const llvm::StringRef ColKinds[] = {"whole", "window"};
    const llvm::StringRef What = Columns ? "columns" : "rows";
    if (Columns ? !llvm::is_contained(ColKinds, R.Kind)
                : !llvm::is_contained(RowKinds, R.Kind)) {
      Diags.error(O.At,
                  llvm::formatv("operator '{0}': stripe {1} kind '{2}' is not "
                                "one of {3}",
                                O.Key, What, R.Kind,
                                Columns ? "whole, window"
                                        : "whole, identity, shifted, window, "
                                          "accumulate"));
      return false;
    }
    M.Kind = (llvm::Twine(llvm::toUpper(R.Kind.front())) +
              llvm::StringRef(R.Kind).drop_front())
                 .str();
    if (R.Kind != "window")
      return true;
    auto CheckAttr = [&](llvm::StringRef Role, const StripeAttrDecl &A) {
      if (!llvm::is_contained(O.AttrNames, A.Name)) {
        Diags.error(O.At, llvm::formatv("operator '{0}': stripe {1} attribute "
                                        "'{2}' is not one of its attributes",
                                        O.Key, Role, A.Name));
        return false;
      }
      if (A.Kind != "int") {
        Diags.error(O.At, llvm::formatv("operator '{0}': stripe {1} attribute "
                                        "'{2}' is {3}, not int",
                                        O.Key, Role, A.Name, A.Kind));
        return false;
      }
      return true;
    };
    if (R.Dilation.size() > 1 ||
        R.Kernel.size() + R.KernelOperand.size() != 1) {
      Diags.error(O.At,
                  llvm::formatv("operator '{0}': a stripe window takes at "
                                "most one dilation attribute and exactly one "
                                "kernel {1}, an attribute or an operand",
                                O.Key, Columns ? "width" : "height"));
      return false;
    }
    if (!CheckAttr("stride", R.Stride) ||
        (!R.Dilation.empty() && !CheckAttr("dilation", R.Dilation[0])) ||
        (!R.Kernel.empty() && !CheckAttr("kernel", R.Kernel[0])))
      return false;
    if (!R.KernelOperand.empty()) {
      auto It = llvm::find(O.OperandNames, R.KernelOperand[0]);
      if (It == O.OperandNames.end()) {
        Diags.error(O.At, llvm::formatv("operator '{0}': stripe kernel "
                                        "operand '{1}' is not one of its "
                                        "operands",
                                        O.Key, R.KernelOperand[0]));
        return false;
      }
      M.KernelOperand = static_cast<int32_t>(It - O.OperandNames.begin());
    }
    M.Stride = R.Stride.Name;
    M.Dilation = R.Dilation.empty() ? "" : R.Dilation[0].Name;
    M.Kernel = R.Kernel.empty() ? "" : R.Kernel[0].Name;
    return true;
  };
  if (!Check(O.Rows, false, E.Rows) || !Check(O.Cols, true, E.Cols))
    return false;
  if (E.Cols.Kind == "Window" && E.Rows.Kind != "Window") {
    Diags.error(O.At, llvm::formatv("operator '{0}': a window over the "
                                    "columns needs one over the rows",
                                    O.Key));
    return false;
  }
  return true;
}

/// Checks operator \p O's `OutputOverlays` and fills \p E's mask; false
/// after reporting a mistake.
bool checkOverlays(const VocabularyOpDecl &O, Vocabulary::OpEntry &E,
                   Diagnostics &Diags) {
  for (const std::string &Name : O.OutputOverlays) {
    auto It = llvm::find(O.OperandNames, Name);
    if (It == O.OperandNames.end()) {
      Diags.error(O.At, llvm::formatv("operator '{0}': output overlay operand "
                                      "'{1}' is not one of its operands",
                                      O.Key, Name));
      return false;
    }
    size_t Index = It - O.OperandNames.begin();
    if (O.NumResults != 1 || Index >= 32) {
      Diags.error(O.At, llvm::formatv("operator '{0}': only the one result of "
                                      "an operator may overlay one of its "
                                      "first 32 operands",
                                      O.Key));
      return false;
    }
    E.OverlayMask |= uint32_t(1) << Index;
  }
  return true;
}

} // namespace

std::string enumeratorName(llvm::StringRef Snake) {
  std::string Out;
  bool Upper = true;
  for (char C : Snake) {
    if (C == '_') {
      Upper = true;
      continue;
    }
    Out += Upper ? static_cast<char>(toupper(C)) : C;
    Upper = false;
  }
  return Out;
}

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
    Vocabulary::OpEntry E;
    E.Enumerator = O.Key;
    E.Name = O.Name;
    E.BuiltinCode = O.IsBuiltin ? static_cast<int32_t>(B->second->Code) : -1;
    E.MinOperands = O.MinOperands;
    E.MaxOperands = O.MaxOperands;
    E.NumResults = O.NumResults;
    E.RequiredMask = O.RequiredMask;
    E.RunByHost = O.RunByHost;
    if (!checkStripeRows(O, E, Diags) || !checkOverlays(O, E, Diags))
      continue;
    V.Ops.push_back(std::move(E));
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
  for (const std::string &N : D.QuantRelations)
    V.QuantRelations.push_back({enumeratorName(N), N});
  for (const std::string &N : D.QuantActions)
    V.QuantActions.push_back({enumeratorName(N), N});

  if (Diags.errorCount() != ErrorsBefore)
    return std::nullopt;
  return V;
}

} // namespace gen
} // namespace accelgen
