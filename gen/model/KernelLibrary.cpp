//===- KernelLibrary.cpp - The calling conventions of a kernel library
//-----===//
//
// Checks the kernel families a front end read (KernelFamilyDecl, from the
// `KernelFamily` records of a `.td` or the `kernel_families` of a `.yaml`),
// in declaration order: known C types, argument kinds and element types,
// operators and data operands that exist, one parameter struct per family
// and files that exist. A function that two
// instances declare (RELU6 runs ref_relu_i8 too) is one function with several
// operators. Every mistake is reported at the family's definition.
//
//===----------------------------------------------------------------------===//
#include "model/KernelLibrary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

const char *const FieldTypes[] = {"int8_t",  "int16_t",  "int32_t",  "int64_t",
                                  "uint8_t", "uint16_t", "uint32_t", "uint64_t",
                                  "size_t",  "float",    "double"};
const char *const ArgKinds[] = {"params", "fields",       "shape",
                                "data",   "output_shape", "output",
                                "count",  "element_size", "input_shapes",
                                "inputs", "state",        "result",
                                "scratch"};
const char *const Elems[] = {"in", "out", "weights", "acc", "wide", "any"};

bool oneOf(StringRef S, ArrayRef<const char *> List) {
  return llvm::any_of(List, [&](const char *X) { return S == X; });
}

std::string listOf(ArrayRef<const char *> List) {
  std::string Out;
  ListSeparator Sep;
  for (const char *X : List)
    Out += (Twine(Sep) + X).str();
  return Out;
}

class Builder {
public:
  Builder(const TargetDecl &D, const KernelSourceDirs &Dirs, Diagnostics &Diags)
      : D(D), Dirs(Dirs), Diags(Diags) {}

  std::unique_ptr<KernelFamilyDef> family(const KernelFamilyDecl &R) {
    auto F = std::make_unique<KernelFamilyDef>();
    F->Key = R.Key;
    F->Library = R.Library;
    F->Name = R.Name;
    F->Template = R.Template;
    F->Rendered = R.Rendered;
    F->MayAlias = R.MayAlias;
    F->AnyArithmetic = R.AnyArithmetic;
    F->Builder = R.Builder;
    F->Doc = R.Doc;
    F->Own = !R.InLibrary;
    F->At = R.At;
    At = F->At;
    What = formatv("kernel family '{0}'", F->Key).str();
    if (F->Name.empty() || F->Library.empty() || F->Template.empty() ||
        F->Builder.empty())
      error("needs a library, a name, a template and a builder");
    readFields(R, *F);
    readArgs(R, *F);
    readInstances(R, *F);
    checkFiles(*F);
    return F;
  }

private:
  void error(const Twine &Msg) { Diags.error(At, What + ": " + Msg); }

  void readFields(const KernelFamilyDecl &R, KernelFamilyDef &F) {
    StringSet<> Seen;
    for (const KernelFieldDecl &Field : R.Fields) {
      KernelFieldDef D;
      D.Name = Field.Name;
      D.CType = Field.CType;
      D.Doc = Field.Doc;
      D.Length = Field.Length;
      D.Pointer = Field.Pointer;
      if (!isValidIdentifier(D.Name))
        error(formatv("field '{0}' is not a C identifier", D.Name));
      if (!Seen.insert(D.Name).second)
        error(formatv("field '{0}' is declared twice", D.Name));
      if (!oneOf(D.CType, FieldTypes))
        error(formatv("field '{0}' has C type '{1}' (expected one of: {2})",
                      D.Name, D.CType, listOf(FieldTypes)));
      if (D.Pointer && !D.Length.empty())
        error(
            formatv("field '{0}' is both a pointer and a fixed array", D.Name));
      F.Fields.push_back(std::move(D));
    }
    if (F.Fields.empty())
      error("declares no parameter field");
  }

  static bool isValidIdentifier(StringRef S) {
    if (S.empty() || isDigit(S.front()))
      return false;
    return llvm::all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
  }

  void readArgs(const KernelFamilyDecl &R, KernelFamilyDef &F) {
    unsigned Params = 0, Outputs = 0, Scratch = 0;
    std::set<int> Results;
    for (const KernelArgDecl &Arg : R.Args) {
      KernelArgDef A;
      A.Kind = Arg.Kind;
      A.Name = Arg.Name;
      // Far beyond any operator's operand count; keeps the index an int.
      if (Arg.Operand < -1 || Arg.Operand > 1024) {
        error(formatv("argument '{0}' has operand index {1} (expected 0 to "
                      "1024, or none)",
                      Arg.Name, Arg.Operand));
        continue;
      }
      A.Operand = static_cast<int>(Arg.Operand);
      A.Elem = Arg.Elem;
      A.Optional = Arg.Optional;
      if (A.Optional && A.Kind != "data")
        error(formatv("argument '{0}' of kind {1} cannot be optional", A.Name,
                      A.Kind));
      if (!oneOf(A.Kind, ArgKinds)) {
        error(formatv("argument '{0}' has unknown kind '{1}' (expected one "
                      "of: {2})",
                      A.Name, A.Kind, listOf(ArgKinds)));
        continue;
      }
      const bool Data = A.Kind == "data" || A.Kind == "output" ||
                        A.Kind == "inputs" || A.Kind == "state" ||
                        A.Kind == "result";
      if (Data && !oneOf(A.Elem, Elems))
        error(formatv("argument '{0}' needs an element type (in, out, weights, "
                      "acc, wide or any), not '{1}'",
                      A.Name, A.Elem));
      if (!Data && !A.Elem.empty())
        error(formatv("argument '{0}' of kind {1} has no element type", A.Name,
                      A.Kind));
      if ((A.Kind == "data" || A.Kind == "shape" || A.Kind == "state") &&
          A.Operand < 0)
        error(formatv("argument '{0}' needs an operand index", A.Name));
      if (A.Kind == "result" && A.Operand < 1)
        error(formatv("argument '{0}' needs the index of the result it "
                      "writes, 1 or more (result 0 is the output)",
                      A.Name));
      else if (A.Kind == "result" && !Results.insert(A.Operand).second)
        error(formatv("argument '{0}' writes result {1} again", A.Name,
                      A.Operand));
      Params += A.Kind == "params" || A.Kind == "fields";
      Outputs += A.Kind == "output";
      Scratch += A.Kind == "scratch";
      F.Args.push_back(std::move(A));
    }
    if (Params != 1)
      error("needs exactly one argument of kind params or fields");
    if (Outputs != 1)
      error("needs exactly one argument of kind output");
    if (Scratch > 1)
      error("takes scratch memory twice");
    for (size_t I = 1; I <= Results.size(); ++I)
      if (!Results.count(static_cast<int>(I))) {
        error(formatv("writes results up to {0} but not result {1}",
                      *Results.rbegin(), I));
        break;
      }
  }

  /// The element type an argument with \p Elem reads or writes in \p Fn.
  static std::string elemType(StringRef Elem, const KernelFunctionDef &Fn) {
    if (Elem == "any" || Fn.Type.empty())
      return "any";
    if (Elem == "out")
      return Fn.Out.empty() ? Fn.Type : Fn.Out;
    if (Elem == "weights")
      return Fn.Weights.empty() ? Fn.Type : Fn.Weights;
    if (Elem == "acc")
      return !Fn.Acc.empty() ? Fn.Acc : Fn.Type == "f32" ? "f32" : "i32";
    if (Elem == "wide")
      return Fn.Type == "f32" ? "f32" : "i16";
    return Fn.Type;
  }

  /// False (after reporting) when \p Type is neither "" nor an element
  /// type the description language declares.
  bool knownType(StringRef Instance, StringRef What, StringRef Type) {
    if (Type.empty() || is_contained(D.KnownElementTypes, Type))
      return true;
    error(formatv("instance '{0}' has {1} '{2}' (expected one of: {3})",
                  Instance, What, Type, join(D.KnownElementTypes, ", ")));
    return false;
  }

  void readInstances(const KernelFamilyDecl &R, KernelFamilyDef &F) {
    std::map<std::string, size_t> ByName;
    for (const KernelInstanceDecl &I : R.Instances) {
      KernelFunctionDef Fn;
      Fn.Stem = I.Stem;
      Fn.Type = I.Type;
      Fn.Out = I.Out;
      Fn.Variant = I.Variant;
      Fn.Weights = I.Weights;
      Fn.Acc = I.Acc;
      const std::string &Op = I.Op;
      if (!llvm::any_of(D.Ops, [&](const OpDecl &O) { return O.Key == Op; })) {
        error(formatv("instance '{0}' computes an unknown operator '{1}'",
                      Fn.Stem, Op));
        continue;
      }
      bool Known = true;
      for (auto [What, Type] :
           {std::pair<StringRef, StringRef>{"type", Fn.Type},
            {"out", Fn.Out},
            {"weights", Fn.Weights},
            {"acc", Fn.Acc}})
        Known &= knownType(Fn.Stem, What, Type);
      if (!Known)
        continue;
      if (Fn.Type.empty() && !Fn.Out.empty())
        error(formatv("instance '{0}' names an output type without an input "
                      "type",
                      Fn.Stem));
      Fn.Name = F.Library + "_" + Fn.Stem;
      for (const std::string *Part : {&Fn.Type, &Fn.Out, &Fn.Variant})
        if (!Part->empty())
          Fn.Name += "_" + *Part;
      if (!isValidIdentifier(Fn.Name))
        error(formatv("function '{0}' is not a C identifier", Fn.Name));
      for (const KernelArgDef &A : F.Args) {
        if (A.Kind == "output") {
          Fn.ResultType = elemType(A.Elem, Fn);
        } else if (A.Kind == "result") {
          if (A.Operand < 1)
            continue; // Reported by readArgs.
          if (Fn.ResultTypes.size() <= static_cast<size_t>(A.Operand))
            Fn.ResultTypes.resize(A.Operand + 1);
          Fn.ResultTypes[A.Operand] = elemType(A.Elem, Fn);
        } else if (A.Kind == "data" || A.Kind == "inputs" ||
                   A.Kind == "state") {
          if (A.Kind != "inputs" && A.Operand < 0)
            continue; // Reported by readArgs.
          size_t Index = A.Kind == "inputs" ? 0 : A.Operand;
          if (Fn.OperandTypes.size() <= Index)
            Fn.OperandTypes.resize(Index + 1);
          Fn.OperandTypes[Index] = elemType(A.Elem, Fn);
        }
      }
      auto [It, New] = ByName.try_emplace(Fn.Name, F.Functions.size());
      if (New) {
        Fn.Ops.push_back(Op);
        F.Functions.push_back(std::move(Fn));
      } else if (!llvm::is_contained(F.Functions[It->second].Ops, Op)) {
        F.Functions[It->second].Ops.push_back(Op);
      } else {
        error(formatv("instance '{0}' of {1} is declared twice", Fn.Name, Op));
      }
      Rows.push_back({Op, It->second});
    }
    for (auto &[Op, Index] : Rows)
      F.Rows.push_back({Op, &F.Functions[Index]});
    Rows.clear();
    if (R.Instances.empty())
      error("declares no function");
  }

  void checkFile(StringRef Dir, const Twine &Name) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, Name);
    if (!sys::fs::exists(Path))
      error(formatv("'{0}' does not exist", Path));
  }

  void checkFiles(const KernelFamilyDef &F) {
    if (F.Rendered && !Dirs.TemplateDir.empty()) {
      checkFile(Dirs.TemplateDir, F.Library + "/" + F.Template + ".h.in");
      checkFile(Dirs.TemplateDir, F.Library + "/" + F.Template + ".c.in");
    } else if (!F.Rendered && !Dirs.SourceDir.empty()) {
      checkFile(Dirs.SourceDir, F.Library + "_" + F.Template + ".h");
      checkFile(Dirs.SourceDir, F.Library + "_" + F.Template + ".c");
    }
  }

  const TargetDecl &D;
  const KernelSourceDirs &Dirs;
  Diagnostics &Diags;
  Loc At;
  std::string What;
  std::vector<std::pair<std::string, size_t>> Rows;
};

} // namespace

std::string KernelFamilyDef::structName() const {
  return Library + "_" + Name + "_params";
}

std::string KernelFamilyDef::header() const {
  return Library + "_" + Template + ".h";
}

bool KernelFamilyDef::byValue() const {
  return llvm::any_of(Args,
                      [](const KernelArgDef &A) { return A.Kind == "fields"; });
}

const KernelFamilyDef *KernelLibraryModel::family(StringRef Key) const {
  for (const auto &F : Families)
    if (F->Key == Key)
      return F.get();
  return nullptr;
}

KernelLibraryModel::OpStripe
KernelLibraryModel::stripe(const KernelFunctionDef &Fn) const {
  // What one of its operators allows, the function does: the planner asks
  // the operator (a PADV2, which has no stripe rule, never reaches a stripe
  // although its function is PAD's).
  OpStripe S;
  bool Conflict = false;
  for (const std::string &Key : Fn.Ops) {
    auto It = OpStripes.find(Key);
    if (It == OpStripes.end())
      continue;
    const OpStripe &Op = It->second;
    if (Op.Rows != "whole") {
      Conflict |= S.Rows != "whole" && S.Rows != Op.Rows;
      S.Rows = Op.Rows;
    }
    S.Overlays |= Op.Overlays;
  }
  if (Conflict)
    S.Rows = "whole";
  return S;
}

std::string KernelLibraryModel::opName(StringRef Key) const {
  for (const auto &[K, Name] : OpNames)
    if (K == Key)
      return Name;
  return Key.str();
}

std::string elementCType(StringRef Type) {
  return StringSwitch<std::string>(Type)
      .Case("i8", "int8_t")
      .Case("u8", "uint8_t")
      .Case("i16", "int16_t")
      .Case("i32", "int32_t")
      .Case("i64", "int64_t")
      .Case("f16", "uint16_t")
      .Case("f32", "float")
      .Case("bool", "uint8_t")
      .Case("u32", "uint32_t")
      .Default("void");
}

std::vector<std::pair<std::string, std::string>>
KernelFunctionDef::instanceWords() const {
  std::vector<std::pair<std::string, std::string>> Words = {{"FUNCTION", Name},
                                                            {"OP", Stem}};
  for (const auto &[Key, Value] :
       {std::pair<const char *, const std::string &>{"DTYPE", Type},
        {"OUT", Out},
        {"VARIANT", Variant},
        {"WEIGHTS", Weights},
        {"ACC", Acc}})
    if (!Value.empty())
      Words.push_back({Key, Value});
  return Words;
}

std::unique_ptr<KernelLibraryModel>
buildKernelLibrary(const TargetDecl &D, const KernelSourceDirs &Dirs,
                   Diagnostics &Diags) {
  auto M = std::make_unique<KernelLibraryModel>();
  unsigned Before = Diags.errorCount();
  Builder B(D, Dirs, Diags);
  StringSet<> Structs, Functions;
  for (const KernelFamilyDecl &R : D.KernelFamilies) {
    std::unique_ptr<KernelFamilyDef> F = B.family(R);
    std::string Struct = F->Library + "_" + F->Name + "_params";
    if (!Structs.insert(Struct).second)
      Diags.error(F->At, formatv("kernel family '{0}': another family already "
                                 "declares {1}",
                                 F->Key, Struct));
    for (const KernelFunctionDef &Fn : F->Functions)
      if (!Functions.insert(Fn.Name).second)
        Diags.error(F->At, formatv("kernel family '{0}': another family "
                                   "already declares {1}",
                                   F->Key, Fn.Name));
    M->Families.push_back(std::move(F));
  }
  for (const OpDecl &O : D.Ops) {
    M->OpNames.push_back({O.Key, O.Name});
    M->OpStripes[O.Key] = {O.Rows, O.Overlays};
  }
  if (Diags.errorCount() != Before)
    return nullptr;
  return M;
}

} // namespace gen
} // namespace accelgen
