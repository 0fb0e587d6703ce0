//===- YamlFrontend.cpp - A `.yaml` target description --------------------===//
//
// Reads the YAML form of a target description (docs/dsl-yaml.md) with
// yaml-cpp into the TargetDecl the TableGen front end fills, with the same
// values and defaults, so that both forms of a target build the same model.
// Every mapping is checked against the keys it may have, so a misspelt key is
// an error rather than a silently ignored line. Fusion patterns are strings in
// TableGen's dag syntax, parsed here. yaml-cpp reports syntax errors by
// throwing; readYamlTarget catches them and reports them like every other
// mistake, at `file:line:col`.
//
//===----------------------------------------------------------------------===//
#include "frontend/YamlFrontend.h"
#include "support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <exception>
#include <optional>
#include <sstream>
#include <utility>

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

//===----------------------------------------------------------------------===//
// Fusion pattern dags
//===----------------------------------------------------------------------===//

/// Parses a pattern dag written as text in TableGen's syntax:
///
///   dag := '(' NAME [':' '$' NAME] [arg (',' arg)*] ')'
///   arg := dag | '$' NAME | '?' [':' '$' NAME]
///
/// into nodes numbered in pre-order (the root first), as the TableGen front
/// end numbers them. A result dag is one operator whose operands are `$x`.
class DagParser {
public:
  DagParser(StringRef Text, bool IsResult) : Text(Text), IsResult(IsResult) {}

  /// Parses the whole text into \p Nodes; false with error() and column()
  /// set if it is malformed.
  bool parse(std::vector<PatternNodeDecl> &Nodes) {
    skipSpace();
    if (node(Nodes) < 0)
      return false;
    skipSpace();
    if (Pos != Text.size())
      return fail("unexpected text after the closing ')'");
    return true;
  }

  const std::string &error() const { return Error; }
  /// 1-based column of the error within the text.
  size_t column() const { return ErrorPos + 1; }

private:
  StringRef Text;
  bool IsResult;
  size_t Pos = 0;
  unsigned Depth = 0; ///< Dags opened and not closed yet.
  /// Far beyond any real fusion pattern; keeps the recursion bounded.
  static constexpr unsigned MaxDepth = 64;
  std::string Error;
  size_t ErrorPos = 0;

  bool fail(const Twine &Msg) {
    // Running out of text inside a dag is best explained by what is missing.
    Error = Pos == Text.size() && Depth ? "missing ')' at the end" : Msg.str();
    ErrorPos = Pos;
    return false;
  }
  int failNode(const Twine &Msg) {
    fail(Msg);
    return -1;
  }
  void skipSpace() {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
  }
  bool consume(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  static bool isNameStart(char C) { return isAlpha(C) || C == '_'; }

  /// A NAME, or "" if there is none here.
  std::string name() {
    skipSpace();
    size_t Start = Pos;
    if (Pos < Text.size() && isNameStart(Text[Pos]))
      while (Pos < Text.size() && (isAlnum(Text[Pos]) || Text[Pos] == '_'))
        ++Pos;
    return Text.slice(Start, Pos).str();
  }

  /// The NAME of a `$NAME`, the `$` already consumed.
  bool capture(std::string &Out) {
    if (Pos < Text.size() && isNameStart(Text[Pos])) {
      Out = name();
      return true;
    }
    return fail("expected a name after '$'");
  }

  /// An optional `:$NAME` after an operator or `?`.
  bool optionalCapture(std::string &Out) {
    if (!consume(':'))
      return true;
    if (!consume('$'))
      return fail("expected '$name' after ':'");
    return capture(Out);
  }

  /// A dag; returns its node index, or -1 after an error.
  int node(std::vector<PatternNodeDecl> &Nodes) {
    if (!consume('('))
      return failNode("expected '(' to open an operator");
    if (++Depth > MaxDepth) {
      --Pos; // At the '(' that is one too many.
      return failNode("operators are nested too deeply");
    }
    int Index = static_cast<int>(Nodes.size());
    Nodes.emplace_back();
    std::string Op = name();
    if (Op.empty())
      return failNode("expected an operator name after '('");
    Nodes[Index].Op = Op;
    std::string Capture;
    if (!optionalCapture(Capture))
      return -1;
    Nodes[Index].Capture = Capture;
    if (!consume(')')) {
      do {
        PatternArgDecl Arg;
        if (!argument(Nodes, Arg))
          return -1;
        Nodes[Index].Args.push_back(Arg);
      } while (consume(','));
      if (!consume(')'))
        return failNode("expected ',' or ')'");
    }
    --Depth;
    return Index;
  }

  bool argument(std::vector<PatternNodeDecl> &Nodes, PatternArgDecl &Arg) {
    skipSpace();
    char C = Pos < Text.size() ? Text[Pos] : '\0';
    if (IsResult && C != '$')
      return fail("an operand of the result must be a '$name'");
    if (C == '(') {
      Arg.Node = node(Nodes);
      return Arg.Node >= 0;
    }
    if (consume('$'))
      return capture(Arg.Capture);
    if (consume('?'))
      return optionalCapture(Arg.Capture);
    return fail("expected '(', '$name' or '?'");
  }
};

//===----------------------------------------------------------------------===//
// Mappings and their keys
//===----------------------------------------------------------------------===//

enum Presence { Required, Optional };

/// A key one kind of mapping may have.
struct KeySpec {
  const char *Name;
  Presence P;
};

const KeySpec TopKeys[] = {
    {"target", Required},           {"ops", Optional},
    {"constraints", Optional},      {"legal", Optional},
    {"removed", Optional},          {"mappings", Optional},
    {"quant_rules", Optional},      {"op_sets", Optional},
    {"patterns", Optional},         {"costs", Optional},
    {"scratch", Optional},          {"layouts", Optional},
    {"device_layouts", Optional},   {"device_storage", Optional},
    {"device_residency", Optional}, {"kernel_families", Optional}};
/// A kernel library: families only.
const KeySpec LibraryTopKeys[] = {{"kernel_families", Required}};
const KeySpec FamilyKeys[] = {
    {"name", Required},    {"template", Required},      {"builder", Required},
    {"fields", Required},  {"args", Required},          {"instances", Required},
    {"library", Optional}, {"rendered", Optional},      {"may_alias", Optional},
    {"doc", Optional},     {"any_arithmetic", Optional}};
const KeySpec FieldKeys[] = {{"name", Required},
                             {"ctype", Required},
                             {"doc", Optional},
                             {"length", Optional},
                             {"pointer", Optional}};
const KeySpec ArgKeys[] = {{"kind", Required},
                           {"name", Optional},
                           {"operand", Optional},
                           {"elem", Optional},
                           {"optional", Optional}};
const KeySpec InstanceKeys[] = {{"op", Required},      {"stem", Required},
                                {"type", Optional},    {"out", Optional},
                                {"variant", Optional}, {"weights", Optional},
                                {"acc", Optional}};
const KeySpec TargetKeys[] = {{"name", Required},
                              {"versions", Required},
                              {"description", Optional},
                              {"switch_cycles", Optional},
                              {"backend", Optional},
                              {"cpu_fallback", Optional},
                              {"library", Optional}};
const KeySpec OpKeys[] = {{"name", Required},
                          {"operands", Required},
                          {"attrs", Optional},
                          {"results", Optional},
                          {"variadic", Optional}};
const KeySpec ConstraintKeys[] = {{"id", Required},
                                  {"summary", Required},
                                  {"expr", Optional},
                                  {"cpp_function", Optional},
                                  {"hint", Optional}};
const KeySpec LegalKeys[] = {
    {"op", Required},          {"since", Required},
    {"types", Optional},       {"weight_schemes", Optional},
    {"constraints", Optional}, {"drops", Optional}};
const KeySpec RemovedKeys[] = {{"op", Required}, {"since", Required}};
const KeySpec MappingKeys[] = {{"from", Required},    {"to", Required},
                               {"since", Optional},   {"constraints", Optional},
                               {"benefit", Optional}, {"set_attrs", Optional}};
const KeySpec QuantRuleKeys[] = {
    {"op", Required},    {"relation", Required},  {"on_fail", Optional},
    {"since", Optional}, {"until", Optional},     {"check", Optional},
    {"scale", Optional}, {"zero_point", Optional}};
const KeySpec OpSetKeys[] = {
    {"name", Required}, {"members", Required}, {"results", Optional}};
const KeySpec PatternKeys[] = {
    {"name", Required},  {"source", Required},      {"result", Required},
    {"since", Optional}, {"constraints", Optional}, {"benefit", Optional}};
const KeySpec CostKeys[] = {
    {"op", Required}, {"since", Required}, {"cycles", Required}};
const KeySpec ScratchKeys[] = {
    {"op", Required}, {"since", Required}, {"bytes", Required}};
const KeySpec LayoutKeys[] = {{"name", Required},
                              {"max_channels", Optional},
                              {"channel_pixels", Optional},
                              {"channel_bytes", Optional}};
const KeySpec DeviceLayoutKeys[] = {
    {"since", Required}, {"ops", Optional}, {"layouts", Required}};
const KeySpec DeviceStorageKeys[] = {{"since", Required},
                                     {"type", Required},
                                     {"scheme", Required},
                                     {"stored_as", Required}};
const KeySpec DeviceResidencyKeys[] = {
    {"since", Required}, {"ops", Optional}, {"keeps", Required}};

/// The entries of a mapping whose keys have been checked, by key.
struct Entries {
  YAML::Node Map;
  StringMap<std::pair<YAML::Node, YAML::Node>> ByKey; ///< Key and value.
  /// Keys an unknown key was reported as a likely misspelling of.
  StringSet<> Suggested;

  bool has(StringRef Key) const { return ByKey.count(Key) != 0; }
  /// Whether \p Key is absent and no misspelling of it was reported.
  bool missing(StringRef Key) const {
    return !has(Key) && !Suggested.count(Key);
  }
  const YAML::Node &key(StringRef Key) const {
    return ByKey.find(Key)->second.first;
  }
  const YAML::Node &value(StringRef Key) const {
    return ByKey.find(Key)->second.second;
  }
};

/// The name in \p Names closest to \p Name if it is close enough to be a
/// likely misspelling, else "".
std::string closest(StringRef Name, ArrayRef<std::string> Names) {
  unsigned Limit = std::max<unsigned>(1, Name.size() / 3);
  std::string Best;
  unsigned BestDistance = Limit + 1;
  for (const std::string &N : Names) {
    unsigned D = Name.edit_distance(N, /*AllowReplacements=*/true, Limit);
    if (D < BestDistance) {
      Best = N;
      BestDistance = D;
    }
  }
  return Best;
}

//===----------------------------------------------------------------------===//
// The reader
//===----------------------------------------------------------------------===//

/// Reads one YAML document into a TargetDecl, reporting every mistake it can
/// find. An item (a rule, an operator) with a mistake is reported and left
/// out; reading goes on with the next one.
class Reader {
public:
  Reader(std::string File, Diagnostics &Diags)
      : File(std::move(File)), Diags(Diags) {}

  Loc loc(const YAML::Mark &M) const {
    Loc L;
    L.File = File;
    if (!M.is_null()) {
      L.Line = static_cast<unsigned>(M.line) + 1;
      L.Col = static_cast<unsigned>(M.column) + 1;
    }
    return L;
  }
  Loc loc(const YAML::Node &N) const { return loc(N.Mark()); }
  /// Line 1, column 1: where a mistake about the whole file is reported.
  Loc start() const {
    Loc L;
    L.File = File;
    L.Line = L.Col = 1;
    return L;
  }

  void readDocument(const YAML::Node &Root, TargetDecl &Out);
  /// A kernel library: a document holding `kernel_families` only.
  void readLibraryDocument(const YAML::Node &Root, TargetDecl &Out);

private:
  std::string File;
  Diagnostics &Diags;
  /// Shared constraints by the name rules refer to them by.
  StringMap<ConstraintDecl> Shared;
  std::vector<std::string> SharedNames;
  /// Shared constraints with a mistake, already reported: using one is not
  /// reported again.
  StringSet<> BrokenShared;

  void error(const Loc &At, const Twine &Msg) { Diags.error(At, Msg); }
  /// Where to report a problem with the value of \p Key: at the value, or
  /// at the key when the value is empty.
  Loc valueLoc(const Entries &E, StringRef Key) const {
    const YAML::Node &V = E.value(Key);
    return loc(V.IsNull() ? E.key(Key) : V);
  }

  std::vector<std::pair<YAML::Node, YAML::Node>> pairsOf(const YAML::Node &Map,
                                                         StringRef What);
  std::optional<Entries> entries(const YAML::Node &N, StringRef What,
                                 ArrayRef<KeySpec> Keys);

  // Values of the entries of a checked mapping. Each leaves Out unchanged
  // when the key is absent, and reports and returns false when the value
  // has the wrong form.
  bool text(const Entries &E, StringRef Key, std::string &Out);
  bool integer(const Entries &E, StringRef Key, int64_t &Out);
  bool flag(const Entries &E, StringRef Key, bool &Out);
  bool texts(const Entries &E, StringRef Key, std::vector<std::string> &Out);
  bool isKind(const Entries &E, StringRef Key, bool Ok, StringRef Kind);

  std::optional<ConstraintDecl> constraintMap(const YAML::Node &N,
                                              StringRef What, const Loc &At);
  std::optional<ConstraintDecl> constraintUse(const YAML::Node &N,
                                              const Loc &UsedAt);
  bool constraints(const Entries &E, StringRef Key, const Loc &UsedAt,
                   std::vector<ConstraintDecl> &Out);
  bool patternDag(const Entries &E, StringRef Key, const std::string &Pattern,
                  std::vector<PatternNodeDecl> &Nodes);

  /// Calls \p Read on each item of the list section \p Key.
  template <typename Fn>
  void forEachItem(const Entries &Top, StringRef Key, Fn Read);

  void readTarget(const Entries &Top, TargetDecl &Out);
  void readOps(const Entries &Top, TargetDecl &Out);
  void readSharedConstraints(const Entries &Top);
  void readLegals(const Entries &Top, TargetDecl &Out);
  void readMappings(const Entries &Top, TargetDecl &Out);
  void readQuantRules(const Entries &Top, TargetDecl &Out);
  void readOpSets(const Entries &Top, TargetDecl &Out);
  void readPatterns(const Entries &Top, TargetDecl &Out);
  void readCosts(const Entries &Top, TargetDecl &Out);
  void readScratch(const Entries &Top, TargetDecl &Out);
  void readDevice(const Entries &Top, TargetDecl &Out);
  void readKernelFamilies(const Entries &Top, TargetDecl &Out);
};

/// The entries of \p Map in order, after reporting keys that are not plain
/// names or that appear twice (those entries are left out).
std::vector<std::pair<YAML::Node, YAML::Node>>
Reader::pairsOf(const YAML::Node &Map, StringRef What) {
  std::vector<std::pair<YAML::Node, YAML::Node>> Out;
  StringSet<> Seen;
  // yaml-cpp iterators yield temporaries: the loop variable keeps the entry
  // alive, and nodes are copied (they are handles) rather than referenced.
  for (const auto &Entry : Map) {
    YAML::Node K = Entry.first;
    if (!K.IsScalar()) {
      error(loc(K), formatv("the keys of {0} must be names", What));
      continue;
    }
    if (!Seen.insert(K.Scalar()).second) {
      error(loc(K), formatv("duplicate key '{0}' in {1}", K.Scalar(), What));
      continue;
    }
    Out.emplace_back(K, Entry.second);
  }
  return Out;
}

std::optional<Entries> Reader::entries(const YAML::Node &N, StringRef What,
                                       ArrayRef<KeySpec> Keys) {
  if (!N.IsMap()) {
    error(loc(N), formatv("{0} must be a mapping", What));
    return std::nullopt;
  }
  std::vector<std::string> Names;
  for (const KeySpec &K : Keys)
    Names.push_back(K.Name);
  Entries E;
  E.Map = N;
  for (auto &[K, V] : pairsOf(N, What)) {
    const std::string &Name = K.Scalar();
    if (is_contained(Names, Name)) {
      E.ByKey[Name] = {K, V};
      continue;
    }
    std::string Near = closest(Name, Names);
    if (!Near.empty()) {
      // The misspelt key stands for Near: do not also report Near missing.
      E.Suggested.insert(Near);
      error(loc(K), formatv("unknown key '{0}' in {1}; did you mean '{2}'?",
                            Name, What, Near));
    } else {
      error(loc(K), formatv("unknown key '{0}' in {1} (keys: {2})", Name, What,
                            join(Names, ", ")));
    }
  }
  for (const KeySpec &K : Keys)
    if (K.P == Required && E.missing(K.Name))
      error(loc(N), formatv("missing key '{0}' in {1}", K.Name, What));
  return E;
}

bool Reader::isKind(const Entries &E, StringRef Key, bool Ok, StringRef Kind) {
  if (!Ok)
    error(valueLoc(E, Key), formatv("'{0}' must be {1}", Key, Kind));
  return Ok;
}

bool Reader::text(const Entries &E, StringRef Key, std::string &Out) {
  if (!E.has(Key))
    return true;
  if (!isKind(E, Key, E.value(Key).IsScalar(), "a string"))
    return false;
  Out = E.value(Key).Scalar();
  return true;
}

bool Reader::integer(const Entries &E, StringRef Key, int64_t &Out) {
  if (!E.has(Key))
    return true;
  if (!isKind(E, Key, E.value(Key).IsScalar(), "an integer"))
    return false;
  const std::string &S = E.value(Key).Scalar();
  long long V;
  if (StringRef(S).getAsInteger(10, V)) {
    error(valueLoc(E, Key),
          formatv("'{0}' must be an integer, not '{1}'", Key, S));
    return false;
  }
  Out = V;
  return true;
}

bool Reader::flag(const Entries &E, StringRef Key, bool &Out) {
  if (!E.has(Key))
    return true;
  const YAML::Node &V = E.value(Key);
  if (V.IsScalar() && (V.Scalar() == "true" || V.Scalar() == "false")) {
    Out = V.Scalar() == "true";
    return true;
  }
  error(valueLoc(E, Key), formatv("'{0}' must be true or false", Key));
  return false;
}

bool Reader::texts(const Entries &E, StringRef Key,
                   std::vector<std::string> &Out) {
  if (!E.has(Key))
    return true;
  const YAML::Node &List = E.value(Key);
  if (!isKind(E, Key, List.IsSequence(), "a list"))
    return false;
  bool Ok = true;
  Out.clear();
  for (const YAML::Node &Item : List) {
    if (!Item.IsScalar()) {
      error(loc(Item), formatv("'{0}' must be a list of strings", Key));
      Ok = false;
      continue;
    }
    Out.push_back(Item.Scalar());
  }
  return Ok;
}

/// A constraint written as a mapping, reported at \p At as TableGen reports
/// it (inline constraints at the rule using them).
std::optional<ConstraintDecl>
Reader::constraintMap(const YAML::Node &N, StringRef What, const Loc &At) {
  unsigned Before = Diags.errorCount();
  std::optional<Entries> E = entries(N, What, ConstraintKeys);
  if (!E)
    return std::nullopt;
  ConstraintDecl C;
  text(*E, "id", C.Id);
  text(*E, "expr", C.Expr);
  text(*E, "cpp_function", C.CppFunction);
  text(*E, "summary", C.Summary);
  text(*E, "hint", C.Hint);
  if (E->has("expr") && E->has("cpp_function"))
    error(loc(N), formatv("{0} has 'expr' or 'cpp_function', not both", What));
  else if (E->missing("expr") && E->missing("cpp_function"))
    error(loc(N), formatv("missing key 'expr' or 'cpp_function' in {0}", What));
  C.At = At;
  if (Diags.errorCount() != Before)
    return std::nullopt;
  return C;
}

/// One item of a rule's constraint list: an inline mapping or the name of a
/// shared constraint.
std::optional<ConstraintDecl> Reader::constraintUse(const YAML::Node &N,
                                                    const Loc &UsedAt) {
  if (N.IsMap())
    return constraintMap(N, "a constraint", UsedAt);
  if (!N.IsScalar()) {
    error(loc(N), "a constraint must be a mapping or the name of a shared "
                  "constraint");
    return std::nullopt;
  }
  auto It = Shared.find(N.Scalar());
  if (It != Shared.end())
    return It->second;
  if (BrokenShared.count(N.Scalar()))
    return std::nullopt;
  std::string Near = closest(N.Scalar(), SharedNames);
  error(loc(N), formatv("unknown constraint '{0}'{1}", N.Scalar(),
                        Near.empty() ? std::string(" (shared constraints are "
                                                   "declared under the "
                                                   "top-level 'constraints')")
                                     : "; did you mean '" + Near + "'?"));
  return std::nullopt;
}

bool Reader::constraints(const Entries &E, StringRef Key, const Loc &UsedAt,
                         std::vector<ConstraintDecl> &Out) {
  if (!E.has(Key))
    return true;
  if (!isKind(E, Key, E.value(Key).IsSequence(), "a list"))
    return false;
  bool Ok = true;
  for (const YAML::Node &Item : E.value(Key)) {
    if (std::optional<ConstraintDecl> C = constraintUse(Item, UsedAt))
      Out.push_back(std::move(*C));
    else
      Ok = false;
  }
  return Ok;
}

bool Reader::patternDag(const Entries &E, StringRef Key,
                        const std::string &Pattern,
                        std::vector<PatternNodeDecl> &Nodes) {
  std::string Text;
  if (!E.has(Key) || !text(E, Key, Text))
    return false;
  DagParser Parser(Text, /*IsResult=*/Key == "result");
  if (Parser.parse(Nodes))
    return true;
  error(valueLoc(E, Key),
        formatv("pattern '{0}': {1}: {2} (column {3} of "
                "\"{4}\")",
                Pattern, Key, Parser.error(), Parser.column(), Text));
  return false;
}

template <typename Fn>
void Reader::forEachItem(const Entries &Top, StringRef Key, Fn Read) {
  if (!Top.has(Key) || Top.value(Key).IsNull()) // An empty section.
    return;
  if (!isKind(Top, Key, Top.value(Key).IsSequence(), "a list"))
    return;
  for (const YAML::Node &Item : Top.value(Key))
    Read(Item);
}

void Reader::readDocument(const YAML::Node &Root, TargetDecl &Out) {
  std::optional<Entries> Top = entries(Root, "the description", TopKeys);
  if (!Top)
    return;
  readTarget(*Top, Out);
  readOps(*Top, Out);
  readSharedConstraints(*Top);
  readLegals(*Top, Out);
  readMappings(*Top, Out);
  readQuantRules(*Top, Out);
  readOpSets(*Top, Out);
  readPatterns(*Top, Out);
  readCosts(*Top, Out);
  readScratch(*Top, Out);
  readDevice(*Top, Out);
  readKernelFamilies(*Top, Out);
}

void Reader::readLibraryDocument(const YAML::Node &Root, TargetDecl &Out) {
  std::optional<Entries> Top =
      entries(Root, "the kernel library", LibraryTopKeys);
  if (!Top)
    return;
  readKernelFamilies(*Top, Out);
}

void Reader::readKernelFamilies(const Entries &Top, TargetDecl &Out) {
  if (!Top.has("kernel_families") || Top.value("kernel_families").IsNull())
    return;
  if (!isKind(Top, "kernel_families", Top.value("kernel_families").IsMap(),
              "a mapping"))
    return;
  for (auto &[Key, Value] :
       pairsOf(Top.value("kernel_families"), "'kernel_families'")) {
    unsigned Before = Diags.errorCount();
    std::string What = formatv("kernel family '{0}'", Key.Scalar());
    std::optional<Entries> E = entries(Value, What, FamilyKeys);
    if (!E)
      continue;
    KernelFamilyDecl F;
    F.Key = Key.Scalar();
    F.At = loc(Key);
    text(*E, "library", F.Library);
    text(*E, "name", F.Name);
    text(*E, "template", F.Template);
    text(*E, "builder", F.Builder);
    text(*E, "doc", F.Doc);
    flag(*E, "rendered", F.Rendered);
    flag(*E, "may_alias", F.MayAlias);
    flag(*E, "any_arithmetic", F.AnyArithmetic);
    forEachItem(*E, "fields", [&](const YAML::Node &N) {
      std::optional<Entries> I = entries(N, What + ": a field", FieldKeys);
      if (!I)
        return;
      KernelFieldDecl D;
      text(*I, "name", D.Name);
      text(*I, "ctype", D.CType);
      text(*I, "doc", D.Doc);
      text(*I, "length", D.Length);
      flag(*I, "pointer", D.Pointer);
      F.Fields.push_back(std::move(D));
    });
    forEachItem(*E, "args", [&](const YAML::Node &N) {
      std::optional<Entries> I = entries(N, What + ": an argument", ArgKeys);
      if (!I)
        return;
      KernelArgDecl D;
      text(*I, "kind", D.Kind);
      text(*I, "name", D.Name);
      integer(*I, "operand", D.Operand);
      text(*I, "elem", D.Elem);
      flag(*I, "optional", D.Optional);
      F.Args.push_back(std::move(D));
    });
    forEachItem(*E, "instances", [&](const YAML::Node &N) {
      std::optional<Entries> I =
          entries(N, What + ": an instance", InstanceKeys);
      if (!I)
        return;
      KernelInstanceDecl D;
      text(*I, "op", D.Op);
      text(*I, "stem", D.Stem);
      text(*I, "type", D.Type);
      text(*I, "out", D.Out);
      text(*I, "variant", D.Variant);
      text(*I, "weights", D.Weights);
      text(*I, "acc", D.Acc);
      F.Instances.push_back(std::move(D));
    });
    if (Diags.errorCount() == Before)
      Out.KernelFamilies.push_back(std::move(F));
  }
}

void Reader::readTarget(const Entries &Top, TargetDecl &Out) {
  if (!Top.has("target"))
    return;
  const YAML::Node &N = Top.value("target");
  std::optional<Entries> E = entries(N, "the target", TargetKeys);
  if (!E)
    return;
  text(*E, "name", Out.Name);
  text(*E, "description", Out.Description);
  texts(*E, "versions", Out.Versions);
  integer(*E, "switch_cycles", Out.SwitchCycles);
  text(*E, "library", Out.Library);
  Out.At = loc(N);
  Out.BackendAt = Out.At;
  Out.CpuFallback = "cpu";
  text(*E, "cpu_fallback", Out.CpuFallback);
  if (E->has("backend") && text(*E, "backend", Out.Backend)) {
    Out.BackendAt = loc(E->value("backend"));
    auto Known = llvm::find_if(Out.KnownBackends, [&](const auto &B) {
      return B.first == Out.Backend;
    });
    if (Known != Out.KnownBackends.end()) {
      Out.FunctionalModel = Known->second;
    } else {
      std::vector<std::string> Names;
      for (const auto &B : Out.KnownBackends)
        Names.push_back(B.first);
      error(Out.BackendAt,
                  formatv("unknown backend '{0}' (known: {1})", Out.Backend,
                          llvm::join(Names, ", ")));
    }
  }
}

void Reader::readOps(const Entries &Top, TargetDecl &Out) {
  if (!Top.has("ops") || Top.value("ops").IsNull())
    return;
  if (!isKind(Top, "ops", Top.value("ops").IsMap(), "a mapping"))
    return;
  for (auto &[Key, Value] : pairsOf(Top.value("ops"), "'ops'")) {
    unsigned Before = Diags.errorCount();
    std::string What = formatv("operator '{0}'", Key.Scalar());
    std::optional<Entries> E = entries(Value, What, OpKeys);
    if (!E)
      continue;
    OpDecl O;
    O.Key = Key.Scalar();
    O.Target = Out.Name;
    O.At = loc(Key);
    text(*E, "name", O.Name);
    if (E->has("operands") &&
        isKind(*E, "operands", E->value("operands").IsMap(), "a mapping")) {
      for (auto &[Name, Presence] :
           pairsOf(E->value("operands"), "'operands'")) {
        if (!Presence.IsScalar() || (Presence.Scalar() != "required" &&
                                     Presence.Scalar() != "optional")) {
          error(loc(Presence.IsNull() ? Name : Presence),
                formatv("operand '{0}' must be 'required' or 'optional'",
                        Name.Scalar()));
          continue;
        }
        O.Operands.push_back({Name.Scalar(), Presence.Scalar() == "optional"});
      }
    }
    if (E->has("attrs") &&
        isKind(*E, "attrs", E->value("attrs").IsMap(), "a mapping")) {
      for (auto &[Name, Kind] : pairsOf(E->value("attrs"), "'attrs'")) {
        if (!Kind.IsScalar()) {
          error(loc(Kind.IsNull() ? Name : Kind),
                formatv("attribute '{0}' must name its kind (int, float, "
                        "bool, string, ints)",
                        Name.Scalar()));
          continue;
        }
        O.Attrs.push_back({Name.Scalar(), Kind.Scalar()});
      }
    }
    int64_t Results = O.NumResults;
    if (integer(*E, "results", Results) && Results < 0)
      error(valueLoc(*E, "results"), "'results' must not be negative");
    O.NumResults = static_cast<unsigned>(Results);
    flag(*E, "variadic", O.Variadic);
    if (Diags.errorCount() == Before)
      Out.Ops.push_back(std::move(O));
  }
}

void Reader::readSharedConstraints(const Entries &Top) {
  if (!Top.has("constraints") || Top.value("constraints").IsNull())
    return;
  if (!isKind(Top, "constraints", Top.value("constraints").IsMap(),
              "a mapping"))
    return;
  for (auto &[Key, Value] :
       pairsOf(Top.value("constraints"), "'constraints'")) {
    const std::string &Name = Key.Scalar();
    SharedNames.push_back(Name);
    std::optional<ConstraintDecl> C =
        constraintMap(Value, formatv("constraint '{0}'", Name).str(), loc(Key));
    if (C)
      Shared[Name] = std::move(*C);
    else
      BrokenShared.insert(Name);
  }
}

void Reader::readLegals(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "legal", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a legal rule", LegalKeys);
    if (!E)
      return;
    LegalDecl L;
    L.At = loc(N);
    text(*E, "op", L.Op);
    text(*E, "since", L.Since);
    texts(*E, "types", L.Types);
    texts(*E, "weight_schemes", L.WeightSchemes);
    constraints(*E, "constraints", L.At, L.Constraints);
    texts(*E, "drops", L.Drops);
    if (Diags.errorCount() == Before)
      Out.Legals.push_back(std::move(L));
  });
  // As in the TableGen form, removals follow every Legal.
  forEachItem(Top, "removed", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a removal", RemovedKeys);
    if (!E)
      return;
    LegalDecl L;
    L.At = loc(N);
    L.Removed = true;
    text(*E, "op", L.Op);
    text(*E, "since", L.Since);
    if (Diags.errorCount() == Before)
      Out.Legals.push_back(std::move(L));
  });
}

void Reader::readMappings(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "mappings", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a mapping rule", MappingKeys);
    if (!E)
      return;
    MappingDecl M;
    M.At = loc(N);
    text(*E, "from", M.From);
    text(*E, "to", M.To);
    text(*E, "since", M.Since);
    constraints(*E, "constraints", M.At, M.Constraints);
    integer(*E, "benefit", M.Benefit);
    if (E->has("set_attrs") &&
        isKind(*E, "set_attrs", E->value("set_attrs").IsMap(), "a mapping")) {
      for (auto &[Name, Value] :
           pairsOf(E->value("set_attrs"), "'set_attrs'")) {
        if (!Value.IsScalar()) {
          error(loc(Value.IsNull() ? Name : Value),
                formatv("attribute '{0}' must be set to a single value",
                        Name.Scalar()));
          continue;
        }
        M.SetAttrs.push_back(Name.Scalar() + "=" + Value.Scalar());
      }
    }
    if (Diags.errorCount() == Before)
      Out.Mappings.push_back(std::move(M));
  });
}

void Reader::readQuantRules(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "quant_rules", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a quantization rule", QuantRuleKeys);
    if (!E)
      return;
    QuantRuleDecl Q;
    Q.At = loc(N);
    Q.OnFail = "reject";
    text(*E, "op", Q.Op);
    text(*E, "relation", Q.Relation);
    text(*E, "on_fail", Q.OnFail);
    text(*E, "since", Q.Since);
    text(*E, "until", Q.Until);
    if (E->has("check")) {
      std::optional<ConstraintDecl> C = constraintUse(E->value("check"), Q.At);
      Q.HasCheck = C.has_value();
      if (C)
        Q.Check = std::move(*C);
    }
    text(*E, "scale", Q.Scale);
    integer(*E, "zero_point", Q.ZeroPoint);
    if (Diags.errorCount() == Before)
      Out.QuantRules.push_back(std::move(Q));
  });
}

void Reader::readOpSets(const Entries &Top, TargetDecl &Out) {
  if (!Top.has("op_sets") || Top.value("op_sets").IsNull())
    return;
  if (!isKind(Top, "op_sets", Top.value("op_sets").IsMap(), "a mapping"))
    return;
  for (auto &[Key, Value] : pairsOf(Top.value("op_sets"), "'op_sets'")) {
    unsigned Before = Diags.errorCount();
    std::string What = formatv("op set '{0}'", Key.Scalar());
    std::optional<Entries> E = entries(Value, What, OpSetKeys);
    if (!E)
      continue;
    OpSetDecl S;
    S.Key = Key.Scalar();
    S.At = loc(Key);
    text(*E, "name", S.Name);
    texts(*E, "members", S.Members);
    texts(*E, "results", S.Results);
    if (Diags.errorCount() == Before)
      Out.OpSets.push_back(std::move(S));
  }
}

void Reader::readPatterns(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "patterns", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a pattern", PatternKeys);
    if (!E)
      return;
    PatternDecl P;
    P.At = loc(N);
    text(*E, "name", P.Name);
    text(*E, "since", P.Since);
    patternDag(*E, "source", P.Name, P.Nodes);
    std::vector<PatternNodeDecl> Result;
    if (patternDag(*E, "result", P.Name, Result)) {
      P.ResultOp = Result.front().Op;
      P.ResultCapture = Result.front().Capture;
      for (const PatternArgDecl &A : Result.front().Args)
        P.ResultArgs.push_back(A.Capture);
    }
    constraints(*E, "constraints", P.At, P.Constraints);
    integer(*E, "benefit", P.Benefit);
    if (Diags.errorCount() == Before)
      Out.Patterns.push_back(std::move(P));
  });
}

void Reader::readCosts(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "costs", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a cost", CostKeys);
    if (!E)
      return;
    CostDecl C;
    C.At = loc(N);
    text(*E, "op", C.Op);
    text(*E, "since", C.Since);
    text(*E, "cycles", C.Cycles);
    if (Diags.errorCount() == Before)
      Out.Costs.push_back(std::move(C));
  });
}

void Reader::readScratch(const Entries &Top, TargetDecl &Out) {
  forEachItem(Top, "scratch", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E = entries(N, "a scratch size", ScratchKeys);
    if (!E)
      return;
    ScratchDecl S;
    S.At = loc(N);
    text(*E, "op", S.Op);
    text(*E, "since", S.Since);
    text(*E, "bytes", S.Bytes);
    if (Diags.errorCount() == Before)
      Out.Scratch.push_back(std::move(S));
  });
}

void Reader::readDevice(const Entries &Top, TargetDecl &Out) {
  if (Top.has("layouts") && !Top.value("layouts").IsNull() &&
      isKind(Top, "layouts", Top.value("layouts").IsMap(), "a mapping")) {
    for (auto &[Key, Value] : pairsOf(Top.value("layouts"), "'layouts'")) {
      unsigned Before = Diags.errorCount();
      std::optional<Entries> E = entries(
          Value, formatv("layout '{0}'", Key.Scalar()).str(), LayoutKeys);
      if (!E)
        continue;
      LayoutDecl L;
      L.Key = Key.Scalar();
      L.At = loc(Key);
      text(*E, "name", L.Name);
      integer(*E, "max_channels", L.MaxChannels);
      integer(*E, "channel_pixels", L.ChannelPixels);
      integer(*E, "channel_bytes", L.ChannelBytes);
      if (Diags.errorCount() == Before)
        Out.Layouts.push_back(std::move(L));
    }
  }
  forEachItem(Top, "device_layouts", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E =
        entries(N, "a device layout rule", DeviceLayoutKeys);
    if (!E)
      return;
    DeviceLayoutDecl L;
    L.At = loc(N);
    text(*E, "since", L.Since);
    texts(*E, "ops", L.Ops);
    texts(*E, "layouts", L.Layouts);
    if (Diags.errorCount() == Before)
      Out.DeviceLayouts.push_back(std::move(L));
  });
  forEachItem(Top, "device_storage", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E =
        entries(N, "a device storage rule", DeviceStorageKeys);
    if (!E)
      return;
    DeviceStorageDecl S;
    S.At = loc(N);
    text(*E, "since", S.Since);
    text(*E, "type", S.Type);
    text(*E, "scheme", S.Scheme);
    text(*E, "stored_as", S.StoredAs);
    if (Diags.errorCount() == Before)
      Out.DeviceStorage.push_back(std::move(S));
  });
  forEachItem(Top, "device_residency", [&](const YAML::Node &N) {
    unsigned Before = Diags.errorCount();
    std::optional<Entries> E =
        entries(N, "a device residency rule", DeviceResidencyKeys);
    if (!E)
      return;
    DeviceResidencyDecl K;
    K.At = loc(N);
    text(*E, "since", K.Since);
    texts(*E, "ops", K.Ops);
    text(*E, "keeps", K.Keeps);
    if (Diags.errorCount() == Before)
      Out.DeviceResidency.push_back(std::move(K));
  });
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

/// Where the YAML documents of a text start, found without building them.
/// yaml-cpp (0.7) reads a token that cannot begin a node, such as a ','
/// at the start of a line, as an empty document without consuming it: Load
/// then silently ignores the rest of the text and LoadAll never ends. The
/// scan stops there and says where.
class DocumentScan : public YAML::EventHandler {
public:
  explicit DocumentScan(const std::string &Text) {
    std::istringstream In(Text);
    YAML::Parser Parser(In);
    // Three documents tell one, several, and a stuck parser apart.
    while (Starts.size() < 3 && Parser.HandleNextDocument(*this)) {
      if (Starts.size() >= 2 && Starts.back().pos == Starts.end()[-2].pos) {
        Stuck = Starts.back();
        return;
      }
    }
  }

  std::vector<YAML::Mark> Starts;
  /// Where the parser stopped making progress, if it did.
  std::optional<YAML::Mark> Stuck;

private:
  void OnDocumentStart(const YAML::Mark &M) override { Starts.push_back(M); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark &, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t,
                const std::string &) override {}
  void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// Reads one document, a target or (\p Library) a kernel library.
bool readText(const std::string &Original, const std::string &Path,
              TargetDecl &Out, Diagnostics &Diags, bool Library) {
  unsigned Before = Diags.errorCount();
  // A line may end in CR alone (YAML allows it; yaml-cpp reads one line):
  // it becomes LF, byte for byte, so every location stays where it was.
  std::string Text = Original;
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\r' && (I + 1 == Text.size() || Text[I + 1] != '\n'))
      Text[I] = '\n';
  Reader R(Path, Diags);
  // yaml-cpp throws on malformed input; nothing it throws leaves this
  // function.
  try {
    DocumentScan Scan(Text);
    if (Scan.Stuck)
      Diags.error(R.loc(*Scan.Stuck), formatv("invalid YAML: unexpected '{0}'",
                                              Text.substr(Scan.Stuck->pos, 1)));
    else if (Scan.Starts.empty())
      Diags.error(R.start(), "the description is empty");
    else if (Scan.Starts.size() > 1)
      Diags.error(R.loc(Scan.Starts[1]), "a description is one YAML document; "
                                         "this is a second one");
    else if (Library)
      R.readLibraryDocument(YAML::Load(Text), Out);
    else
      R.readDocument(YAML::Load(Text), Out);
  } catch (const YAML::Exception &E) {
    Diags.error(R.loc(E.mark), "invalid YAML: " + E.msg);
  } catch (const std::exception &E) {
    Diags.error(R.loc(YAML::Mark::null_mark()),
                Twine("cannot read the description: ") + E.what());
  }
  return Diags.errorCount() == Before;
}

bool readFile(const std::string &Path, TargetDecl &Out, Diagnostics &Diags,
              bool Library) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = support::readInputFile(
      Path, support::MaxDescriptionBytes, "cannot read the description");
  if (!Buffer) {
    Loc At;
    At.File = Path;
    Diags.error(At, toString(Buffer.takeError()));
    return false;
  }
  return readText((*Buffer)->getBuffer().str(), Path, Out, Diags, Library);
}

} // namespace

bool readYamlTarget(const std::string &Path, TargetDecl &Out,
                    Diagnostics &Diags) {
  return readFile(Path, Out, Diags, /*Library=*/false);
}

bool readYamlTargetText(const std::string &Text, const std::string &Path,
                        TargetDecl &Out, Diagnostics &Diags) {
  return readText(Text, Path, Out, Diags, /*Library=*/false);
}

bool readYamlKernelLibrary(const std::string &Path, TargetDecl &Out,
                           Diagnostics &Diags) {
  return readFile(Path, Out, Diags, /*Library=*/true);
}

} // namespace gen
} // namespace accelgen
