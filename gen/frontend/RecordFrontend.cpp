//===- RecordFrontend.cpp - TableGen records to a target description
//-------===//
#include "frontend/RecordFrontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

/// The location of \p At; unknown when it is not in a TableGen buffer.
Loc toLoc(SMLoc At) {
  Loc L;
  unsigned Buf = At.isValid() ? SrcMgr.FindBufferContainingLoc(At) : 0;
  if (!Buf)
    return L;
  L.File = SrcMgr.getMemoryBuffer(Buf)->getBufferIdentifier().str();
  auto [Line, Col] = SrcMgr.getLineAndColumn(At, Buf);
  L.Line = Line;
  L.Col = Col;
  return L;
}

/// The string literals ("..." and [{...}]) of a record's definition, each
/// text with the offset of its first occurrence in the buffer.
using Literals = StringMap<size_t>;

/// The literals of the definitions read so far, by record: each definition is
/// scanned once, however many values are looked up in it (a rule listing
/// 20,000 constraints would otherwise be rescanned 20,000 times). Cleared
/// when a RecordKeeper is read, since records do not outlive it.
std::map<const Record *, Literals> LiteralCache;

/// Scans the definition starting at offset \p Pos of \p Text up to its ';' or
/// the '}' closing its body.
Literals scanLiterals(StringRef Text, size_t Pos) {
  Literals Out;
  int Depth = 0; // Of (), [], {} and <>.
  while (Pos < Text.size()) {
    StringRef Rest = Text.substr(Pos);
    if (Rest.startswith("//")) {
      Pos = Text.find('\n', Pos);
    } else if (Rest.startswith("/*")) { // Block comments nest.
      int Comments = 0;
      do {
        if (Text.substr(Pos).startswith("/*"))
          ++Comments, Pos += 2;
        else if (Text.substr(Pos).startswith("*/"))
          --Comments, Pos += 2;
        else
          ++Pos;
      } while (Comments && Pos < Text.size());
    } else if (Rest.startswith("[{")) {
      size_t End = Text.find("}]", Pos + 2);
      if (End == StringRef::npos)
        break;
      Out.try_emplace(Text.slice(Pos + 2, End), Pos + 2);
      Pos = End + 2;
    } else if (Rest.front() == '"') {
      size_t End = Pos + 1;
      for (; End < Text.size() && Text[End] != '"' && Text[End] != '\n'; ++End)
        if (Text[End] == '\\')
          ++End;
      Out.try_emplace(Text.slice(Pos + 1, End), Pos + 1);
      Pos = End + 1;
    } else {
      char C = Rest.front();
      if (StringRef("([{<").contains(C)) {
        ++Depth;
      } else if (StringRef(")]}>").contains(C)) {
        if (--Depth < 0 || (C == '}' && Depth == 0))
          break;
      } else if (C == ';' && Depth == 0) {
        break;
      }
      ++Pos;
    }
  }
  return Out;
}

/// Where the text of \p Value starts, when the definition of \p R writes it
/// verbatim, on one line, as a string literal ("..." or [{...}]): the first
/// such literal between the start of the definition and its ';' or the '}'
/// closing its body. Unknown (Line 0) otherwise, e.g. when the value comes
/// from a class, a paste or a literal with escapes.
Loc literalLoc(const Record &R, StringRef Value) {
  if (R.getLoc().empty() || Value.empty() || Value.contains('\n'))
    return Loc();
  SMLoc From = R.getLoc().front();
  unsigned Buf = SrcMgr.FindBufferContainingLoc(From);
  if (!Buf)
    return Loc();
  StringRef Text = SrcMgr.getMemoryBuffer(Buf)->getBuffer();
  auto It = LiteralCache.find(&R);
  if (It == LiteralCache.end())
    It = LiteralCache
             .emplace(&R, scanLiterals(Text, From.getPointer() - Text.data()))
             .first;
  auto Found = It->second.find(Value);
  if (Found == It->second.end())
    return Loc();
  return toLoc(SMLoc::getFromPointer(Text.data() + Found->second));
}

} // namespace

Loc recordLoc(const Record &R) {
  if (R.getLoc().empty())
    return Loc();
  return toLoc(R.getLoc().front());
}

/// The path of the file holding \p At; "" when unknown.
static StringRef fileOf(SMLoc At) {
  const unsigned Buf = SrcMgr.FindBufferContainingLoc(At);
  return Buf ? SrcMgr.getMemoryBuffer(Buf)->getBufferIdentifier() : "";
}

std::vector<std::string> languageNames(const RecordKeeper &Records,
                                       StringRef Class) {
  const Record *C = Records.getClass(Class);
  if (!C || C->getLoc().empty())
    return {};
  const unsigned Home = SrcMgr.FindBufferContainingLoc(C->getLoc().front());
  std::vector<Record *> Defs = Records.getAllDerivedDefinitions(Class);
  std::sort(Defs.begin(), Defs.end(), [](const Record *A, const Record *B) {
    return A->getID() < B->getID();
  });
  std::vector<std::string> Names;
  for (const Record *R : Defs)
    if (!R->getLoc().empty() &&
        SrcMgr.FindBufferContainingLoc(R->getLoc().front()) == Home)
      Names.push_back(R->getValueAsString("Name").str());
  return Names;
}

namespace {

/// Records derived from \p Class, in the order they were defined.
std::vector<Record *> inOrder(const RecordKeeper &Records, StringRef Class) {
  if (!Records.getClass(Class))
    return {};
  std::vector<Record *> Defs = Records.getAllDerivedDefinitions(Class);
  std::sort(Defs.begin(), Defs.end(), [](const Record *A, const Record *B) {
    return A->getID() < B->getID();
  });
  return Defs;
}

std::string nameOf(const Record &R, StringRef Field) {
  return R.getValueAsDef(Field)->getValueAsString("Name").str();
}

/// "Name" of an optional record-valued field, or "" when unset.
std::string optionalNameOf(const Record &R, StringRef Field) {
  if (R.isValueUnset(Field))
    return "";
  return nameOf(R, Field);
}

std::vector<std::string> namesOf(const Record &R, StringRef Field) {
  std::vector<std::string> Out;
  for (Record *E : R.getValueAsListOfDefs(Field))
    Out.push_back(E->getValueAsString("Name").str());
  return Out;
}

std::vector<std::string> strings(const Record &R, StringRef Field) {
  std::vector<std::string> Out;
  for (StringRef S : R.getValueAsListOfStrings(Field))
    Out.push_back(S.str());
  return Out;
}

/// Constraint \p R as rule \p User uses it.
ConstraintDecl readConstraint(const Record &R, const Record &User) {
  ConstraintDecl C;
  C.Id = R.getValueAsString("Id").str();
  C.Expr = R.getValueAsString("Expr").str();
  C.Summary = R.getValueAsString("Summary").str();
  C.Hint = R.getValueAsString("Hint").str();
  C.CppFunction = R.getValueAsString("CppFunction").str();
  // Inline constraints are reported where they are used (TableGen locates
  // them at their class).
  const Record &WrittenIn = R.isAnonymous() ? User : R;
  C.At = recordLoc(WrittenIn);
  C.ExprAt = literalLoc(WrittenIn, C.Expr);
  return C;
}

std::vector<ConstraintDecl> readConstraints(const Record &R, StringRef Field) {
  std::vector<ConstraintDecl> Out;
  for (Record *C : R.getValueAsListOfDefs(Field))
    Out.push_back(readConstraint(*C, R));
  return Out;
}

/// The key a description refers to operator record \p R by.
std::string opKey(const Record &R) { return R.getName().str(); }

/// Flattens a source dag into nodes; returns the node index.
int readPatternNode(const DagInit &Dag, PatternDecl &P, Diagnostics &Diags,
                    const Loc &At) {
  int Index = static_cast<int>(P.Nodes.size());
  P.Nodes.emplace_back();
  auto *OpDef = dyn_cast<DefInit>(Dag.getOperator());
  if (!OpDef || !(OpDef->getDef()->isSubClassOf("Op") ||
                  OpDef->getDef()->isSubClassOf("OpSet"))) {
    Diags.error(At, llvm::formatv("pattern '{0}': '{1}' is not an operator "
                                  "or an op set",
                                  P.Name, Dag.getOperator()->getAsString()));
    return Index;
  }
  P.Nodes[Index].Op = opKey(*OpDef->getDef());
  if (Dag.getName())
    P.Nodes[Index].Capture = Dag.getNameStr().str();
  for (unsigned I = 0; I < Dag.getNumArgs(); ++I) {
    PatternArgDecl A;
    if (auto *Sub = dyn_cast<DagInit>(Dag.getArg(I))) {
      A.Node = readPatternNode(*Sub, P, Diags, At);
    } else if (isa<UnsetInit>(Dag.getArg(I))) {
      A.Capture = Dag.getArgNameStr(I).str();
    } else {
      Diags.error(At, llvm::formatv("pattern '{0}': operand {1} of '{2}' must "
                                    "be a nested operator or a $name",
                                    P.Name, I, P.Nodes[Index].Op));
    }
    P.Nodes[Index].Args.push_back(A);
  }
  return Index;
}

/// Record names of the operators in list field \p Field of \p R.
std::vector<std::string> opKeys(const Record &R, StringRef Field) {
  std::vector<std::string> Out;
  for (Record *Op : R.getValueAsListOfDefs(Field))
    Out.push_back(opKey(*Op));
  return Out;
}

/// The device semantics: layouts and the rules using them.
void readDeviceRecords(const RecordKeeper &Records, TargetDecl &Out) {
  for (Record *R : inOrder(Records, "Layout")) {
    LayoutDecl L;
    L.Key = R->getName().str();
    L.Name = R->getValueAsString("Name").str();
    L.MaxChannels = R->getValueAsInt("MaxChannels");
    L.ChannelPixels = R->getValueAsInt("ChannelPixels");
    L.ChannelBytes = R->getValueAsInt("ChannelBytes");
    L.At = recordLoc(*R);
    Out.Layouts.push_back(std::move(L));
  }
  for (Record *R : inOrder(Records, "DeviceLayout")) {
    DeviceLayoutDecl L;
    L.Since = nameOf(*R, "Since");
    L.Ops = opKeys(*R, "Operators");
    for (Record *Layout : R->getValueAsListOfDefs("Layouts"))
      L.Layouts.push_back(Layout->getName().str());
    L.At = recordLoc(*R);
    Out.DeviceLayouts.push_back(std::move(L));
  }
  for (Record *R : inOrder(Records, "DeviceStorage")) {
    DeviceStorageDecl S;
    S.Since = nameOf(*R, "Since");
    S.Type = nameOf(*R, "Type");
    S.Scheme = nameOf(*R, "Scheme");
    S.StoredAs = nameOf(*R, "StoredAs");
    S.At = recordLoc(*R);
    Out.DeviceStorage.push_back(std::move(S));
  }
  for (Record *R : inOrder(Records, "DeviceResidency")) {
    DeviceResidencyDecl K;
    K.Since = nameOf(*R, "Since");
    K.Ops = opKeys(*R, "Operators");
    K.Keeps = nameOf(*R, "Keeps");
    K.At = recordLoc(*R);
    Out.DeviceResidency.push_back(std::move(K));
  }
}

} // namespace

void readOperatorRecords(const RecordKeeper &Records, TargetDecl &Out) {
  for (Record *R : inOrder(Records, "Op")) {
    OpDecl O;
    O.Key = opKey(*R);
    O.Name = R->getValueAsString("Name").str();
    for (Record *Operand : R->getValueAsListOfDefs("Operands"))
      O.Operands.push_back({Operand->getValueAsString("Name").str(),
                            Operand->getValueAsBit("Optional")});
    for (Record *A : R->getValueAsListOfDefs("Attrs"))
      O.Attrs.push_back(
          {A->getValueAsString("Name").str(), nameOf(*A, "Kind")});
    O.NumResults = static_cast<unsigned>(R->getValueAsInt("NumResults"));
    O.Variadic = R->getValueAsBit("Variadic");
    O.RunByHost = R->getValueAsBit("RunByHost");
    if (R->getValue("Rows"))
      O.Rows = R->getValueAsDef("Rows")->getValueAsString("Kind").str();
    if (R->getValue("OutputOverlays")) {
      const std::vector<Record *> Operands =
          R->getValueAsListOfDefs("Operands");
      for (Record *Over : R->getValueAsListOfDefs("OutputOverlays"))
        for (size_t I = 0; I < Operands.size() && I < 32; ++I)
          if (Operands[I]->getValueAsString("Name") ==
              Over->getValueAsString("Name"))
            O.Overlays |= 1u << I;
    }
    if (R->isSubClassOf("TargetOp"))
      O.Target = nameOf(*R, "OnTarget");
    O.At = recordLoc(*R);
    Out.Ops.push_back(std::move(O));
  }
  for (Record *R : inOrder(Records, "Backend"))
    if (!R->getValueAsString("Name").empty())
      Out.KnownBackends.emplace_back(R->getValueAsString("Name").str(),
                                     R->getValueAsBit("FunctionalModel"));
  Out.KnownQuantRelations = languageNames(Records, "QuantRelation");
  Out.KnownQuantActions = languageNames(Records, "QuantAction");
  for (Record *R : inOrder(Records, "DType"))
    if (!R->getValueAsString("Name").empty())
      Out.KnownElementTypes.push_back(R->getValueAsString("Name").str());
}

void readKernelFamilyRecords(const RecordKeeper &Records, TargetDecl &Out) {
  // The library is `kernels.td` in the folder of the file defining the
  // class (defs/).
  SmallString<256> LibraryReal;
  if (const Record *C = Records.getClass("KernelFamily");
      C && !C->getLoc().empty()) {
    SmallString<256> Library(
        sys::path::parent_path(fileOf(C->getLoc().front())));
    sys::path::append(Library, "kernels.td");
    if (sys::fs::real_path(Library, LibraryReal))
      LibraryReal = Library;
  }
  for (Record *R : inOrder(Records, "KernelFamily")) {
    KernelFamilyDecl F;
    F.Key = R->getName().str();
    F.Library = R->getValueAsString("Library").str();
    F.Name = R->getValueAsString("Name").str();
    F.Template = R->getValueAsString("Template").str();
    F.Rendered = R->getValueAsBit("Rendered");
    F.MayAlias = R->getValueAsBit("MayAlias");
    F.AnyArithmetic = R->getValueAsBit("AnyArithmetic");
    F.Builder = R->getValueAsString("Builder").str();
    F.Doc = R->getValueAsString("Doc").str();
    for (Record *Field : R->getValueAsListOfDefs("Fields"))
      F.Fields.push_back({Field->getValueAsString("Name").str(),
                          Field->getValueAsString("CType").str(),
                          Field->getValueAsString("Doc").str(),
                          Field->getValueAsString("Length").str(),
                          Field->getValueAsBit("Pointer")});
    for (Record *Arg : R->getValueAsListOfDefs("Args"))
      F.Args.push_back({Arg->getValueAsString("Kind").str(),
                        Arg->getValueAsString("Name").str(),
                        Arg->getValueAsInt("Operand"),
                        Arg->getValueAsString("Elem").str(),
                        Arg->getValueAsBit("Optional")});
    for (Record *I : R->getValueAsListOfDefs("Instances"))
      F.Instances.push_back({opKey(*I->getValueAsDef("Operator")),
                             I->getValueAsString("Stem").str(),
                             nameOf(*I, "Type"), nameOf(*I, "Out"),
                             I->getValueAsString("Variant").str(),
                             nameOf(*I, "Weights"), nameOf(*I, "Acc")});
    SmallString<256> Real;
    StringRef File = R->getLoc().empty() ? "" : fileOf(R->getLoc().front());
    if (sys::fs::real_path(File, Real))
      Real = File;
    F.InLibrary = !LibraryReal.empty() && Real == LibraryReal;
    F.At = recordLoc(*R);
    Out.KernelFamilies.push_back(std::move(F));
  }
}

bool readTargetRecords(const RecordKeeper &Records, TargetDecl &Out,
                       Diagnostics &Diags) {
  LiteralCache.clear();
  std::vector<Record *> Targets = inOrder(Records, "Target");
  if (Targets.empty()) {
    Loc Main;
    Main.File = SrcMgr.getMemoryBuffer(SrcMgr.getMainFileID())
                    ->getBufferIdentifier()
                    .str();
    Main.Line = Main.Col = 1;
    Diags.error(Main, "the description defines no Target");
    return false;
  }
  if (Targets.size() > 1) {
    Diags.error(recordLoc(*Targets[1]),
                llvm::formatv("a description defines one target; '{0}' is "
                              "the second",
                              Targets[1]->getValueAsString("Name")));
    return false;
  }
  const Record &T = *Targets.front();
  Out.Name = T.getValueAsString("Name").str();
  Out.Description = T.getValueAsString("Description").str();
  Out.SwitchCycles = T.getValueAsInt("SwitchCycles");
  const Record *B = T.getValueAsDef("Backend");
  Out.Backend = B->getValueAsString("Name").str();
  Out.FunctionalModel = B->getValueAsBit("FunctionalModel");
  Out.CpuFallback = T.getValueAsString("CpuFallback").str();
  Out.BackendAt = recordLoc(T);
  Out.Library = T.getValueAsString("Library").str();
  for (Record *V : T.getValueAsListOfDefs("Versions")) {
    Out.Versions.push_back(V->getValueAsString("Name").str());
    Out.VersionsAt.push_back(recordLoc(*V));
  }
  Out.At = recordLoc(T);

  readOperatorRecords(Records, Out);

  for (Record *R : inOrder(Records, "Legal")) {
    LegalDecl L;
    L.Op = opKey(*R->getValueAsDef("Operator"));
    L.Since = nameOf(*R, "Since");
    L.Types = namesOf(*R, "Types");
    L.WeightSchemes = namesOf(*R, "WeightSchemes");
    L.Constraints = readConstraints(*R, "Constraints");
    L.Drops = strings(*R, "Drops");
    L.At = recordLoc(*R);
    Out.Legals.push_back(std::move(L));
  }
  for (Record *R : inOrder(Records, "Removed")) {
    LegalDecl L;
    L.Op = opKey(*R->getValueAsDef("Operator"));
    L.Since = nameOf(*R, "Since");
    L.Removed = true;
    L.At = recordLoc(*R);
    Out.Legals.push_back(std::move(L));
  }
  for (Record *R : inOrder(Records, "Mapping")) {
    MappingDecl M;
    M.From = opKey(*R->getValueAsDef("From"));
    M.To = opKey(*R->getValueAsDef("To"));
    M.Since = optionalNameOf(*R, "Since");
    M.Constraints = readConstraints(*R, "Constraints");
    M.Benefit = R->getValueAsInt("Benefit");
    M.SetAttrs = strings(*R, "SetAttrs");
    M.At = recordLoc(*R);
    Out.Mappings.push_back(std::move(M));
  }
  for (Record *R : inOrder(Records, "QuantRule")) {
    QuantRuleDecl Q;
    Q.Op = opKey(*R->getValueAsDef("Operator"));
    Q.Since = optionalNameOf(*R, "Since");
    Q.Until = optionalNameOf(*R, "Until");
    Q.Relation = nameOf(*R, "Relation");
    Q.OnFail = nameOf(*R, "OnFail");
    Q.At = recordLoc(*R);
    if (!R->isValueUnset("Check")) {
      Q.HasCheck = true;
      Q.Check = readConstraint(*R->getValueAsDef("Check"), *R);
    }
    Q.Scale = R->getValueAsString("Scale").str();
    Q.ZeroPoint = R->getValueAsInt("ZeroPoint");
    Out.QuantRules.push_back(std::move(Q));
  }
  for (Record *R : inOrder(Records, "OpSet")) {
    OpSetDecl S;
    S.Key = opKey(*R);
    S.Name = R->getValueAsString("Name").str();
    for (Record *Op : R->getValueAsListOfDefs("Members"))
      S.Members.push_back(opKey(*Op));
    for (Record *Op : R->getValueAsListOfDefs("Results"))
      S.Results.push_back(opKey(*Op));
    S.At = recordLoc(*R);
    Out.OpSets.push_back(std::move(S));
  }
  for (Record *R : inOrder(Records, "Pattern")) {
    PatternDecl P;
    P.Name = R->isAnonymous() ? "" : R->getName().str();
    P.At = recordLoc(*R);
    if (P.Name.empty())
      Diags.error(P.At, "a pattern must be named (def NAME : Pattern<...>)");
    P.Since = optionalNameOf(*R, "Since");
    readPatternNode(*R->getValueAsDag("Source"), P, Diags, P.At);
    const DagInit *Result = R->getValueAsDag("Result");
    if (auto *ResOp = dyn_cast<DefInit>(Result->getOperator()))
      P.ResultOp = opKey(*ResOp->getDef());
    if (Result->getName())
      P.ResultCapture = Result->getNameStr().str();
    for (unsigned I = 0; I < Result->getNumArgs(); ++I) {
      if (!isa<UnsetInit>(Result->getArg(I)) || !Result->getArgName(I))
        Diags.error(P.At, llvm::formatv("pattern '{0}': operand {1} of the "
                                        "result must be a $name",
                                        P.Name, I));
      P.ResultArgs.push_back(Result->getArgNameStr(I).str());
    }
    P.Constraints = readConstraints(*R, "Constraints");
    P.Benefit = R->getValueAsInt("Benefit");
    Out.Patterns.push_back(std::move(P));
  }
  for (Record *R : inOrder(Records, "Cost")) {
    CostDecl C;
    C.Op = opKey(*R->getValueAsDef("Operator"));
    C.Since = nameOf(*R, "Since");
    C.Cycles = R->getValueAsString("Cycles").str();
    C.At = recordLoc(*R);
    C.CyclesAt = literalLoc(*R, C.Cycles);
    Out.Costs.push_back(std::move(C));
  }
  for (Record *R : inOrder(Records, "Scratch")) {
    ScratchDecl S;
    S.Op = opKey(*R->getValueAsDef("Operator"));
    S.Since = nameOf(*R, "Since");
    S.Bytes = R->getValueAsString("Bytes").str();
    S.At = recordLoc(*R);
    S.BytesAt = literalLoc(*R, S.Bytes);
    Out.Scratch.push_back(std::move(S));
  }
  readDeviceRecords(Records, Out);
  return true;
}

} // namespace gen
} // namespace accelgen
