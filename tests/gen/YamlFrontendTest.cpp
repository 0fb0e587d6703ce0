//===- YamlFrontendTest.cpp - The YAML form of a target description -------===//
//
// A small description that uses every key, read into the TargetDecl it
// stands for (defaults, declaration order and locations included); the demo
// target's YAML form read without a mistake; one test per diagnostic of
// the YAML front end, each checking the exact `file:line:col: error: message`
// text; and model diagnostics a `.td` cannot trigger. Descriptions are
// written to a file named t.yaml in a fresh folder; the folder is left out of
// the reported locations before comparing.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "frontend/YamlFrontend.h"
#include "model/TargetModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace accelgen;
using namespace accelgen::gen;

namespace {

/// What reading one description gave.
struct Read {
  bool Ok = false;
  TargetDecl Decl;
  /// The diagnostics, with the folder of t.yaml left out.
  std::string Errors;
};

/// Reads \p Yaml as the file t.yaml, into a TargetDecl that already holds
/// one canonical operator (as the vocabulary from defs/ would).
Read read(llvm::StringRef Yaml) {
  test::TempDir Dir;
  std::string Path = Dir.file("t.yaml");
  test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Yaml));
  Read R;
  OpDecl Relu;
  Relu.Key = "Relu";
  Relu.Name = "RELU";
  R.Decl.Ops.push_back(Relu);
  // As defs/accelgen.td declares them.
  R.Decl.KnownBackends = {{"ref-kernels", false},
                          {"functional-model", true}};
  R.Decl.KnownQuantRelations = {"same_scale", "forward_output_to_inputs",
                                "bias_scale_product", "fixed_output", "check"};
  R.Decl.KnownQuantActions = {"reject", "insert_requantize_before",
                              "insert_requantize_after"};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  R.Ok = readYamlTarget(Path, R.Decl, Diags);
  OS.flush();
  std::string Folder = Dir.path() + "/";
  for (size_t At; (At = Text.find(Folder)) != std::string::npos;)
    Text.erase(At, Folder.size());
  R.Errors = Text;
  return R;
}

/// The diagnostics of building the model of \p Yaml, which reads without a
/// mistake and must fail to build.
std::string diagnoseModel(llvm::StringRef Yaml) {
  Read R = read(Yaml);
  REQUIRE(R.Ok);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  CHECK_FALSE(buildTargetModel(R.Decl, Diags));
  OS.flush();
  // Leave the (removed) folder of t.yaml out of each location, also those
  // within a message: the folder is what precedes the first "/t.yaml".
  size_t Slash = Text.find("/t.yaml");
  if (Slash == std::string::npos)
    return Text;
  size_t Start = Text.rfind('\n', Slash);
  Start = Start == std::string::npos ? 0 : Start + 1;
  const std::string Folder = Text.substr(Start, Slash + 1 - Start);
  for (size_t At; (At = Text.find(Folder)) != std::string::npos;)
    Text.erase(At, Folder.size());
  return Text;
}

/// The diagnostics of reading \p Yaml, which must fail.
std::string diagnose(llvm::StringRef Yaml) {
  Read R = read(Yaml);
  CHECK_FALSE(R.Ok);
  return R.Errors;
}

void checkLoc(const Loc &At, unsigned Line, unsigned Col) {
  CHECK(At.File.size() > 7);
  CHECK(llvm::StringRef(At.File).endswith("/t.yaml"));
  CHECK(At.Line == Line);
  CHECK(At.Col == Col);
}

/// The start every negative test shares: a well-formed target.
const char *const Head = "target: {name: t, versions: [\"1.0\"]}\n";

} // namespace

//===----------------------------------------------------------------------===//
// Well-formed descriptions
//===----------------------------------------------------------------------===//

TEST_CASE("a description reads into the TargetDecl it stands for") {
  Read R = read(R"yaml(target:
  name: tiny
  description: A tiny accelerator
  versions: ["1.0", 2.0]
ops:
  TinyConv:
    name: TINY_CONV
    operands: {input: required, bias: optional}
    attrs: {stride_h: int, padding: string}
    results: 2
    variadic: true
constraints:
  Rank4: {id: rank_4, expr: "input(0).rank == 4", summary: 4-D input}
removed:
  - {op: Relu, since: "2.0"}
legal:
  - op: Relu
    since: "1.0"
    types: [i8]
    weight_schemes: [symmetric_per_tensor]
    constraints:
      - Rank4
      - {id: few, expr: "input(0).channels <= 8", summary: few, hint: split}
      - {id: square, cpp_function: ns::isSquare, summary: square}
    drops: [old]
mappings:
  - {from: Conv2D, to: TinyConv}
  - from: Conv2D
    to: TinyConv
    since: "2.0"
    benefit: 5
    set_attrs: {stride_h: 1, padding: SAME}
quant_rules:
  - {op: Relu, relation: same_scale}
  - op: Softmax
    relation: check
    on_fail: insert_requantize_after
    since: "1.0"
    until: "2.0"
    check: Rank4
    scale: "0.5"
    zero_point: -3
patterns:
  - name: MulAddRelu
    source: "(Relu:$r (Add (Mul $a, ?), ?:$b))"
    result: "(TinyConv $a, $b)"
  - name: Plain
    since: "2.0"
    source: "( Relu $x )"
    result: "(TinyConv)"
    constraints: [Rank4]
    benefit: 3
)yaml");
  REQUIRE(R.Ok);
  CHECK(R.Errors == "");
  const TargetDecl &D = R.Decl;

  CHECK(D.Name == "tiny");
  CHECK(D.Description == "A tiny accelerator");
  CHECK(D.Versions == std::vector<std::string>{"1.0", "2.0"});
  checkLoc(D.At, 2, 3);

  // The target's operators follow the vocabulary's.
  REQUIRE(D.Ops.size() == 2);
  CHECK(D.Ops[0].Key == "Relu");
  const OpDecl &Op = D.Ops[1];
  CHECK(Op.Key == "TinyConv");
  CHECK(Op.Name == "TINY_CONV");
  CHECK(Op.Target == "tiny");
  REQUIRE(Op.Operands.size() == 2);
  CHECK(Op.Operands[0].Name == "input");
  CHECK_FALSE(Op.Operands[0].Optional);
  CHECK(Op.Operands[1].Name == "bias");
  CHECK(Op.Operands[1].Optional);
  REQUIRE(Op.Attrs.size() == 2);
  CHECK(Op.Attrs[0].Name == "stride_h");
  CHECK(Op.Attrs[0].Kind == "int");
  CHECK(Op.Attrs[1].Name == "padding");
  CHECK(Op.Attrs[1].Kind == "string");
  CHECK(Op.NumResults == 2);
  CHECK(Op.Variadic);
  checkLoc(Op.At, 6, 3);

  // Removals follow every Legal, wherever the sections are in the file.
  REQUIRE(D.Legals.size() == 2);
  const LegalDecl &L = D.Legals[0];
  CHECK(L.Op == "Relu");
  CHECK(L.Since == "1.0");
  CHECK_FALSE(L.Removed);
  CHECK(L.Types == std::vector<std::string>{"i8"});
  CHECK(L.WeightSchemes == std::vector<std::string>{"symmetric_per_tensor"});
  CHECK(L.Drops == std::vector<std::string>{"old"});
  checkLoc(L.At, 17, 5);
  REQUIRE(L.Constraints.size() == 3);
  const ConstraintDecl &Shared = L.Constraints[0];
  CHECK(Shared.Id == "rank_4");
  CHECK(Shared.Expr == "input(0).rank == 4");
  CHECK(Shared.Summary == "4-D input");
  CHECK(Shared.Hint == "");
  CHECK(Shared.CppFunction == "");
  checkLoc(Shared.At, 13, 3); // Where the shared constraint is named.
  const ConstraintDecl &Inline = L.Constraints[1];
  CHECK(Inline.Id == "few");
  CHECK(Inline.Expr == "input(0).channels <= 8");
  CHECK(Inline.Hint == "split");
  checkLoc(Inline.At, 17, 5); // Where the rule using it is.
  const ConstraintDecl &Cpp = L.Constraints[2];
  CHECK(Cpp.Id == "square");
  CHECK(Cpp.Expr == "");
  CHECK(Cpp.CppFunction == "ns::isSquare");
  const LegalDecl &Gone = D.Legals[1];
  CHECK(Gone.Op == "Relu");
  CHECK(Gone.Since == "2.0");
  CHECK(Gone.Removed);
  CHECK(Gone.Types.empty());
  checkLoc(Gone.At, 15, 5);

  REQUIRE(D.Mappings.size() == 2);
  CHECK(D.Mappings[0].From == "Conv2D");
  CHECK(D.Mappings[0].To == "TinyConv");
  CHECK(D.Mappings[0].Since == "");
  CHECK(D.Mappings[0].Benefit == 1);
  CHECK(D.Mappings[0].Constraints.empty());
  CHECK(D.Mappings[0].SetAttrs.empty());
  CHECK(D.Mappings[1].Since == "2.0");
  CHECK(D.Mappings[1].Benefit == 5);
  CHECK(D.Mappings[1].SetAttrs ==
        std::vector<std::string>{"stride_h=1", "padding=SAME"});
  checkLoc(D.Mappings[1].At, 28, 5);

  REQUIRE(D.QuantRules.size() == 2);
  const QuantRuleDecl &Q0 = D.QuantRules[0];
  CHECK(Q0.Op == "Relu");
  CHECK(Q0.Relation == "same_scale");
  CHECK(Q0.OnFail == "reject");
  CHECK(Q0.Since == "");
  CHECK(Q0.Until == "");
  CHECK_FALSE(Q0.HasCheck);
  CHECK(Q0.Scale == "");
  CHECK(Q0.ZeroPoint == 0);
  const QuantRuleDecl &Q1 = D.QuantRules[1];
  CHECK(Q1.Op == "Softmax");
  CHECK(Q1.Relation == "check");
  CHECK(Q1.OnFail == "insert_requantize_after");
  CHECK(Q1.Since == "1.0");
  CHECK(Q1.Until == "2.0");
  CHECK(Q1.HasCheck);
  CHECK(Q1.Check.Id == "rank_4");
  checkLoc(Q1.Check.At, 13, 3);
  CHECK(Q1.Scale == "0.5");
  CHECK(Q1.ZeroPoint == -3);
  checkLoc(Q1.At, 35, 5);

  REQUIRE(D.Patterns.size() == 2);
  const PatternDecl &P = D.Patterns[0];
  CHECK(P.Name == "MulAddRelu");
  CHECK(P.Since == "");
  CHECK(P.Benefit == 1);
  // Nodes in pre-order, the root first.
  REQUIRE(P.Nodes.size() == 3);
  CHECK(P.Nodes[0].Op == "Relu");
  CHECK(P.Nodes[0].Capture == "r");
  REQUIRE(P.Nodes[0].Args.size() == 1);
  CHECK(P.Nodes[0].Args[0].Node == 1);
  CHECK(P.Nodes[1].Op == "Add");
  CHECK(P.Nodes[1].Capture == "");
  REQUIRE(P.Nodes[1].Args.size() == 2);
  CHECK(P.Nodes[1].Args[0].Node == 2);
  CHECK(P.Nodes[1].Args[1].Node == -1);
  CHECK(P.Nodes[1].Args[1].Capture == "b");
  CHECK(P.Nodes[2].Op == "Mul");
  REQUIRE(P.Nodes[2].Args.size() == 2);
  CHECK(P.Nodes[2].Args[0].Node == -1);
  CHECK(P.Nodes[2].Args[0].Capture == "a");
  CHECK(P.Nodes[2].Args[1].Node == -1);
  CHECK(P.Nodes[2].Args[1].Capture == "");
  CHECK(P.ResultOp == "TinyConv");
  CHECK(P.ResultArgs == std::vector<std::string>{"a", "b"});
  CHECK(P.Constraints.empty());
  checkLoc(P.At, 44, 5);
  const PatternDecl &P2 = D.Patterns[1];
  CHECK(P2.Since == "2.0");
  CHECK(P2.Benefit == 3);
  REQUIRE(P2.Nodes.size() == 1);
  CHECK(P2.Nodes[0].Op == "Relu");
  REQUIRE(P2.Nodes[0].Args.size() == 1);
  CHECK(P2.Nodes[0].Args[0].Capture == "x");
  CHECK(P2.ResultOp == "TinyConv");
  CHECK(P2.ResultArgs.empty());
  REQUIRE(P2.Constraints.size() == 1);
  CHECK(P2.Constraints[0].Id == "rank_4");
}

TEST_CASE("empty sections are allowed") {
  Read R = read(std::string(Head) + "ops:\nlegal:\ncosts: []\n");
  CHECK(R.Ok);
  CHECK(R.Errors == "");
  CHECK(R.Decl.Legals.empty());
  CHECK(R.Decl.Ops.size() == 1);
}

TEST_CASE("the demo target's YAML form reads without a mistake") {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  TargetDecl D;
  CHECK(
      readYamlTarget(ACCELGEN_SOURCE_DIR "/targets/demo/demo.yaml", D, Diags));
  CHECK(OS.str() == "");
  CHECK(D.Name == "demo");
  CHECK(D.Ops.size() == 4);
  CHECK(D.Legals.size() == 14);
  CHECK(D.Mappings.size() == 4);
  CHECK(D.QuantRules.size() == 5);
  CHECK(D.Patterns.size() == 2);
  CHECK(D.Costs.size() == 9);
  CHECK(D.SwitchCycles == 100);
}

TEST_CASE("costs and switch cycles read into the TargetDecl") {
  Read R = read(R"yaml(target:
  name: t
  versions: ["1.0", "2.0"]
  switch_cycles: 150
costs:
  - {op: Relu, since: "1.0", cycles: "ceil(input(0).num_elements / 64.0)"}
  - op: Relu
    since: 2.0
    cycles: input(0).num_elements / 128
)yaml");
  REQUIRE(R.Ok);
  const TargetDecl &D = R.Decl;
  CHECK(D.SwitchCycles == 150);
  REQUIRE(D.Costs.size() == 2);
  CHECK(D.Costs[0].Op == "Relu");
  CHECK(D.Costs[0].Since == "1.0");
  CHECK(D.Costs[0].Cycles == "ceil(input(0).num_elements / 64.0)");
  checkLoc(D.Costs[0].At, 6, 5);
  CHECK(D.Costs[1].Since == "2.0");
  CHECK(D.Costs[1].Cycles == "input(0).num_elements / 128");
  checkLoc(D.Costs[1].At, 7, 5);
  // Without the key, no switch cycles.
  Read Plain = read(Head);
  REQUIRE(Plain.Ok);
  CHECK(Plain.Decl.SwitchCycles == 0);
  CHECK(Plain.Decl.Costs.empty());
}

TEST_CASE("scratch sizes and the library read into the TargetDecl") {
  Read R = read(R"yaml(target:
  name: t
  versions: ["1.0", "2.0"]
  library: CMSIS-NN
scratch:
  - {op: Conv2D, since: "1.0", bytes: "input(0).channels * 4"}
  - op: Conv2D
    since: 2.0
    bytes: max(input(0).channels * 4, 64)
)yaml");
  INFO(R.Errors);
  REQUIRE(R.Ok);
  const TargetDecl &D = R.Decl;
  CHECK(D.Library == "CMSIS-NN");
  REQUIRE(D.Scratch.size() == 2);
  CHECK(D.Scratch[0].Op == "Conv2D");
  CHECK(D.Scratch[0].Since == "1.0");
  CHECK(D.Scratch[0].Bytes == "input(0).channels * 4");
  checkLoc(D.Scratch[0].At, 6, 5);
  CHECK(D.Scratch[1].Since == "2.0");
  CHECK(D.Scratch[1].Bytes == "max(input(0).channels * 4, 64)");
  checkLoc(D.Scratch[1].At, 7, 5);
  Read Plain = read(Head);
  REQUIRE(Plain.Ok);
  CHECK(Plain.Decl.Scratch.empty());
  CHECK(Plain.Decl.Library.empty());
}

//===----------------------------------------------------------------------===//
// The file and YAML itself
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: the file cannot be read") {
  test::TempDir Dir;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  TargetDecl D;
  std::string Path = Dir.file("missing.yaml");
  CHECK_FALSE(readYamlTarget(Path, D, Diags));
  CHECK(OS.str() == Path + ": error: cannot read the description: No such "
                           "file or directory\n");
}

TEST_CASE("diagnostic: the file is empty") {
  CHECK(diagnose("") == "t.yaml:1:1: error: the description is empty\n");
}

TEST_CASE("diagnostic: YAML syntax error") {
  CHECK(diagnose("target: {name: t\nlegal: []\n") ==
        "t.yaml:2:6: error: invalid YAML: end of map flow not found\n");
}

TEST_CASE("diagnostic: text yaml-cpp cannot start a node with") {
  // yaml-cpp would silently skip the rest of the file (or, reading every
  // document, never stop).
  CHECK(diagnose("# a comment whose end slipped to the next line\n"
                 ", oops\n" +
                 std::string(Head)) ==
        "t.yaml:2:1: error: invalid YAML: unexpected ','\n");
}

TEST_CASE("diagnostic: more than one YAML document") {
  CHECK(diagnose(std::string(Head) + "---\nlegal: []\n") ==
        "t.yaml:2:1: error: a description is one YAML document; this is a "
        "second one\n");
}

//===----------------------------------------------------------------------===//
// Keys and the kinds of values
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: the description is not a mapping") {
  CHECK(diagnose("- target\n") ==
        "t.yaml:1:1: error: the description must be a mapping\n");
}

TEST_CASE("diagnostic: missing key") {
  CHECK(diagnose("legal: []\n") ==
        "t.yaml:1:1: error: missing key 'target' in the description\n");
  CHECK(diagnose(std::string(Head) + "legal:\n  - {op: Relu, types: [i8]}\n") ==
        "t.yaml:3:5: error: missing key 'since' in a legal rule\n");
}

TEST_CASE("diagnostic: misspelt key") {
  // Reported once: not also as a missing 'since'.
  CHECK(diagnose(std::string(Head) +
                 "legal:\n  - {op: Relu, sinse: \"1.0\", types: [i8]}\n") ==
        "t.yaml:3:16: error: unknown key 'sinse' in a legal rule; did you "
        "mean 'since'?\n");
}

TEST_CASE("diagnostic: unknown key") {
  CHECK(diagnose(std::string(Head) + "legal:\n"
                                     "  - op: Relu\n"
                                     "    since: \"1.0\"\n"
                                     "    colour: red\n") ==
        "t.yaml:5:5: error: unknown key 'colour' in a legal rule (keys: op, "
        "since, types, weight_schemes, constraints, drops)\n");
}

TEST_CASE("diagnostic: duplicate key") {
  CHECK(
      diagnose(std::string(Head) +
               "removed:\n  - {op: Relu, since: \"1.0\", since: \"2.0\"}\n") ==
      "t.yaml:3:30: error: duplicate key 'since' in a removal\n");
}

TEST_CASE("diagnostic: a key that is not a name") {
  CHECK(diagnose(std::string(Head) +
                 "removed:\n  - {op: Relu, since: \"1.0\", [x]: 1}\n") ==
        "t.yaml:3:30: error: the keys of a removal must be names\n");
}

TEST_CASE("diagnostic: a rule that is not a mapping") {
  CHECK(diagnose(std::string(Head) + "costs:\n  - Relu\n") ==
        "t.yaml:3:5: error: a cost must be a mapping\n");
}

TEST_CASE("diagnostic: a section that is not a list") {
  CHECK(diagnose(std::string(Head) + "legal: {op: Relu}\n") ==
        "t.yaml:2:8: error: 'legal' must be a list\n");
}

TEST_CASE("diagnostic: a section that is not a mapping") {
  CHECK(diagnose(std::string(Head) + "ops: [TinyConv]\n") ==
        "t.yaml:2:6: error: 'ops' must be a mapping\n");
}

TEST_CASE("diagnostic: a value that is not a string") {
  CHECK(diagnose(std::string(Head) +
                 "removed:\n  - {op: [Relu], since: \"1.0\"}\n") ==
        "t.yaml:3:10: error: 'op' must be a string\n");
  // An empty value is reported at its key.
  CHECK(diagnose("target:\n  name: t\n  versions: [\"1.0\"]\n"
                 "  description:\n") ==
        "t.yaml:4:3: error: 'description' must be a string\n");
}

TEST_CASE("diagnostic: a value that is not a list") {
  CHECK(
      diagnose(std::string(Head) +
               "legal:\n  - {op: Relu, since: \"1.0\", types: i8}\n") ==
      "t.yaml:3:37: error: 'types' must be a list\n");
}

TEST_CASE("diagnostic: a list item that is not a string") {
  CHECK(diagnose(
            std::string(Head) +
            "legal:\n  - {op: Relu, since: \"1.0\", types: [[i8]]}\n") ==
        "t.yaml:3:38: error: 'types' must be a list of strings\n");
}

TEST_CASE("diagnostic: a value that is not an integer") {
  CHECK(diagnose(std::string(Head) +
                 "mappings:\n  - {from: Conv2D, to: Relu, benefit: high}\n") ==
        "t.yaml:3:39: error: 'benefit' must be an integer, not 'high'\n");
  CHECK(diagnose(std::string(Head) +
                 "mappings:\n  - {from: Conv2D, to: Relu, benefit: [1]}\n") ==
        "t.yaml:3:39: error: 'benefit' must be an integer\n");
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a flag that is not true or false") {
  CHECK(diagnose(std::string(Head) + "ops:\n"
                                     "  TinyConv:\n"
                                     "    name: TINY_CONV\n"
                                     "    operands: {input: required}\n"
                                     "    variadic: yes\n") ==
        "t.yaml:6:15: error: 'variadic' must be true or false\n");
}

TEST_CASE("diagnostic: a negative number of results") {
  CHECK(diagnose(std::string(Head) + "ops:\n"
                                     "  TinyConv:\n"
                                     "    name: TINY_CONV\n"
                                     "    operands: {input: required}\n"
                                     "    results: -1\n") ==
        "t.yaml:6:14: error: 'results' must not be negative\n");
}

TEST_CASE("diagnostic: an operand neither required nor optional") {
  CHECK(diagnose(std::string(Head) + "ops:\n"
                                     "  TinyConv:\n"
                                     "    name: TINY_CONV\n"
                                     "    operands: {input: maybe}\n") ==
        "t.yaml:5:23: error: operand 'input' must be 'required' or "
        "'optional'\n");
}

TEST_CASE("diagnostic: an attribute without a kind") {
  CHECK(diagnose(std::string(Head) + "ops:\n"
                                     "  TinyConv:\n"
                                     "    name: TINY_CONV\n"
                                     "    operands: {input: required}\n"
                                     "    attrs: {stride_h: [int]}\n") ==
        "t.yaml:6:23: error: attribute 'stride_h' must name its kind (int, "
        "float, bool, string, ints)\n");
}

TEST_CASE("diagnostic: an attribute set to more than one value") {
  CHECK(diagnose(std::string(Head) +
                 "mappings:\n"
                 "  - {from: Conv2D, to: Relu, set_attrs: {axis: [1, 2]}}\n") ==
        "t.yaml:3:48: error: attribute 'axis' must be set to a single "
        "value\n");
}

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a constraint with both an expression and a function") {
  CHECK(diagnose(std::string(Head) + "legal:\n"
                                     "  - op: Relu\n"
                                     "    since: \"1.0\"\n"
                                     "    constraints:\n"
                                     "      - id: c\n"
                                     "        summary: s\n"
                                     "        expr: \"rank == 4\"\n"
                                     "        cpp_function: f\n") ==
        "t.yaml:6:9: error: a constraint has 'expr' or 'cpp_function', not "
        "both\n");
}

TEST_CASE("diagnostic: a constraint with neither an expression nor a "
          "function") {
  CHECK(diagnose(std::string(Head) + "constraints:\n"
                                     "  Small: {id: small, summary: s}\n") ==
        "t.yaml:3:10: error: missing key 'expr' or 'cpp_function' in "
        "constraint 'Small'\n");
}

TEST_CASE("diagnostic: a constraint that is neither a mapping nor a name") {
  CHECK(diagnose(std::string(Head) +
                 "legal:\n"
                 "  - {op: Relu, since: \"1.0\", constraints: [[a]]}\n") ==
        "t.yaml:3:44: error: a constraint must be a mapping or the name of a "
        "shared constraint\n");
}

TEST_CASE("diagnostic: unknown shared constraint") {
  std::string Shared = std::string(Head) +
                       "constraints:\n"
                       "  Rank4: {id: r4, expr: \"rank == 4\", summary: s}\n";
  CHECK(diagnose(Shared +
                 "legal:\n"
                 "  - {op: Relu, since: \"1.0\", constraints: [Rank5]}\n") ==
        "t.yaml:5:44: error: unknown constraint 'Rank5'; did you mean "
        "'Rank4'?\n");
  CHECK(diagnose(Shared + "quant_rules:\n"
                          "  - {op: Relu, relation: check, check: Small}\n") ==
        "t.yaml:5:40: error: unknown constraint 'Small' (shared constraints "
        "are declared under the top-level 'constraints')\n");
}

TEST_CASE("diagnostic: a broken shared constraint is reported once") {
  CHECK(diagnose(std::string(Head) +
                 "constraints:\n"
                 "  Rank4: {id: r4, exp: \"rank == 4\", summary: s}\n"
                 "legal:\n"
                 "  - {op: Relu, since: \"1.0\", constraints: [Rank4]}\n") ==
        "t.yaml:3:19: error: unknown key 'exp' in constraint 'Rank4'; did you "
        "mean 'expr'?\n");
}

//===----------------------------------------------------------------------===//
// Pattern dags
//===----------------------------------------------------------------------===//

namespace {
/// The diagnostic for a pattern whose source (or result) is \p Dag.
std::string badDag(llvm::StringRef Dag, bool InResult = false) {
  std::string Source = InResult ? "(Relu $x)" : Dag.str();
  std::string Result = InResult ? Dag.str() : "(Relu $x)";
  return diagnose(std::string(Head) +
                  "patterns:\n"
                  "  - name: P\n"
                  "    source: \"" +
                  Source + "\"\n    result: \"" + Result + "\"\n");
}
} // namespace

TEST_CASE("diagnostic: a pattern dag without '('") {
  CHECK(badDag("Relu $x") ==
        "t.yaml:4:13: error: pattern 'P': source: expected '(' to open an "
        "operator (column 1 of \"Relu $x\")\n");
}

TEST_CASE("diagnostic: a pattern dag without an operator") {
  CHECK(badDag("( $x)") ==
        "t.yaml:4:13: error: pattern 'P': source: expected an operator name "
        "after '(' (column 3 of \"( $x)\")\n");
}

TEST_CASE("diagnostic: a pattern dag with a '$' and no name") {
  CHECK(badDag("(Relu $ x)") ==
        "t.yaml:4:13: error: pattern 'P': source: expected a name after '$' "
        "(column 8 of \"(Relu $ x)\")\n");
}

TEST_CASE("diagnostic: a pattern dag with ':' and no capture") {
  CHECK(badDag("(Relu:act $x)") ==
        "t.yaml:4:13: error: pattern 'P': source: expected '$name' after ':' "
        "(column 7 of \"(Relu:act $x)\")\n");
}

TEST_CASE("diagnostic: a pattern dag operand that is not a dag or a $name") {
  CHECK(badDag("(Relu 3)") ==
        "t.yaml:4:13: error: pattern 'P': source: expected '(', '$name' or "
        "'?' (column 7 of \"(Relu 3)\")\n");
}

TEST_CASE("diagnostic: pattern dag operands without a comma") {
  CHECK(badDag("(Add $x $y)") ==
        "t.yaml:4:13: error: pattern 'P': source: expected ',' or ')' "
        "(column 9 of \"(Add $x $y)\")\n");
}

TEST_CASE("diagnostic: a pattern dag missing its ')'") {
  CHECK(badDag("(Relu (Add $x, $y)") ==
        "t.yaml:4:13: error: pattern 'P': source: missing ')' at the end "
        "(column 19 of \"(Relu (Add $x, $y)\")\n");
}

TEST_CASE("diagnostic: text after a pattern dag") {
  CHECK(badDag("(Relu $x) $y") ==
        "t.yaml:4:13: error: pattern 'P': source: unexpected text after the "
        "closing ')' (column 11 of \"(Relu $x) $y\")\n");
}

TEST_CASE("diagnostic: a pattern dag nested too deeply") {
  std::string Dag;
  for (int I = 0; I < 65; ++I)
    Dag += "(A ";
  Dag += "$x" + std::string(65, ')');
  // The 65th '(', in column 193, is one too many.
  CHECK(badDag(Dag) == "t.yaml:4:13: error: pattern 'P': source: operators "
                       "are nested too deeply (column 193 of \"" +
                           Dag + "\")\n");
}

TEST_CASE("diagnostic: a pattern result with a nested operator") {
  CHECK(badDag("(Relu (Relu $x))", /*InResult=*/true) ==
        "t.yaml:5:13: error: pattern 'P': result: an operand of the result "
        "must be a '$name' (column 7 of \"(Relu (Relu $x))\")\n");
}

TEST_CASE("diagnostic: a captured pattern result") {
  CHECK(diagnoseModel(std::string(Head) +
                      "patterns:\n  - {name: P, source: \"(Relu)\", "
                      "result: \"(Relu:$r)\"}\n") ==
        "t.yaml:3:5: error: pattern 'P': the result operator cannot be "
        "captured\n");
}

//===----------------------------------------------------------------------===//
// Operator sets
//===----------------------------------------------------------------------===//

namespace {
/// Head, three one-operand operators A, B and C and a two-operand D, then
/// \p Rest.
std::string withOps(llvm::StringRef Rest) {
  return std::string(Head) + R"yaml(ops:
  A: {name: A, operands: {input: required}}
  B: {name: B, operands: {input: required}}
  C: {name: C, operands: {input: required}}
  D: {name: D, operands: {input: required, alpha: optional}}
)yaml" + Rest.str();
}
} // namespace

TEST_CASE("an op set reads into its declaration and model") {
  Read R = read(withOps(R"yaml(op_sets:
  AB: {name: A_OR_B, members: [A, B], results: [C, C]}
patterns:
  - {name: P, source: "(AB:$ab $x)", result: "(AB:$ab $x)"}
)yaml"));
  REQUIRE(R.Ok);
  REQUIRE(R.Decl.OpSets.size() == 1);
  const OpSetDecl &S = R.Decl.OpSets[0];
  CHECK(S.Key == "AB");
  CHECK(S.Name == "A_OR_B");
  CHECK(S.Members == std::vector<std::string>{"A", "B"});
  CHECK(S.Results == std::vector<std::string>{"C", "C"});
  checkLoc(S.At, 8, 3);
  REQUIRE(R.Decl.Patterns.size() == 1);
  CHECK(R.Decl.Patterns[0].ResultOp == "AB");
  CHECK(R.Decl.Patterns[0].ResultCapture == "ab");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  std::unique_ptr<TargetModel> M = buildTargetModel(R.Decl, Diags);
  REQUIRE(M);
  REQUIRE(M->Patterns.size() == 1);
  CHECK(M->Patterns[0].Nodes[0].Set == M->findOpSet("AB"));
  CHECK(M->Patterns[0].ResultSet == M->findOpSet("A_OR_B"));
  CHECK(M->Patterns[0].ResultNode == 0);
  CHECK(M->Patterns[0].Result == nullptr);
}

TEST_CASE("diagnostic: an op set with no members") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: []}\n")) ==
        "t.yaml:8:3: error: op set 'S' has no members\n");
}

TEST_CASE("diagnostic: an op set member that is not an operator") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: [A, X]}\n")) ==
        "t.yaml:8:3: error: op set 'S': 'X' is not an operator\n");
}

TEST_CASE("diagnostic: an op set result that is not an operator") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: [A], "
                              "results: [Y]}\n")) ==
        "t.yaml:8:3: error: op set 'S': result 'Y' is not an operator\n");
}

TEST_CASE("diagnostic: an op set listing an operator twice") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: [A, B, "
                              "A]}\n")) ==
        "t.yaml:8:3: error: op set 'S' lists 'A' twice\n");
}

TEST_CASE("diagnostic: op set members with different operands") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: [A, D]}\n")) ==
        "t.yaml:8:3: error: op set 'S': the members must declare the same "
        "operands, but 'A' takes (input) and 'D' takes (input, alpha?)\n");
}

TEST_CASE("diagnostic: an op set with results for only some members") {
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: S, members: [A, B], "
                              "results: [C]}\n")) ==
        "t.yaml:8:3: error: op set 'S' names a result for 1 of its 2 "
        "members: give one per member, or none\n");
}

TEST_CASE("diagnostic: an op set named like an operator") {
  CHECK(diagnoseModel(withOps("op_sets:\n  A: {name: S, members: [B]}\n")) ==
        "t.yaml:8:3: error: op set 'A': the name is already taken by an "
        "operator\n");
  CHECK(diagnoseModel(withOps("op_sets:\n  S: {name: C, members: [B]}\n")) ==
        "t.yaml:8:3: error: op set 'S': the name 'C' is already taken\n");
}

TEST_CASE("diagnostic: an op set with a misspelt key") {
  CHECK(diagnose(withOps("op_sets:\n  S: {name: S, member: [A]}\n")) ==
        "t.yaml:8:16: error: unknown key 'member' in op set 'S'; did you "
        "mean 'members'?\n");
}

namespace {
/// A pattern whose source and result are \p Source and \p Result, after
/// the sets S (A, B; results B, A) and S2 (A, C; no results).
std::string setPattern(llvm::StringRef Source, llvm::StringRef Result) {
  return withOps("op_sets:\n"
                 "  S: {name: S, members: [A, B], results: [B, A]}\n"
                 "  S2: {name: S2, members: [A, C]}\n"
                 "patterns:\n  - {name: P, source: \"" +
                 Source.str() + "\", result: \"" + Result.str() + "\"}\n");
}
} // namespace

TEST_CASE("diagnostic: a pattern result naming an op set without results") {
  CHECK(diagnoseModel(setPattern("(S2:$a $x)", "(S2:$a $x)")) ==
        "t.yaml:11:5: error: pattern 'P': the result names op set 'S2', "
        "which lists no results\n");
}

TEST_CASE("diagnostic: a pattern result naming an op set without a capture") {
  CHECK(diagnoseModel(setPattern("(S:$a $x)", "(S $x)")) ==
        "t.yaml:11:5: error: pattern 'P': the result names op set 'S' "
        "without a capture: write (S:$name ...) with the source node whose "
        "member picks the result\n");
}

TEST_CASE("diagnostic: a pattern result capturing no source operator") {
  CHECK(diagnoseModel(setPattern("(S:$a $x)", "(S:$b $x)")) ==
        "t.yaml:11:5: error: pattern 'P': the result's capture '$b' names "
        "no operator of the source\n");
}

TEST_CASE("diagnostic: a pattern result set missing what the capture "
          "matches") {
  CHECK(diagnoseModel(setPattern("(S2:$a $x)", "(S:$a $x)")) ==
        "t.yaml:11:5: error: pattern 'P': '$a' may match 'C', which op set "
        "'S' does not list, so the result is unknown\n");
}

//===----------------------------------------------------------------------===//
// Cost estimates
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a cost with a misspelt or missing key") {
  CHECK(diagnose(std::string(Head) +
                 "costs:\n  - {op: Relu, since: \"1.0\", cycle: \"1\"}\n") ==
        "t.yaml:3:30: error: unknown key 'cycle' in a cost; did you mean "
        "'cycles'?\n");
  CHECK(
      diagnose(std::string(Head) + "costs:\n  - {op: Relu, cycles: \"1\"}\n") ==
      "t.yaml:3:5: error: missing key 'since' in a cost\n");
}

TEST_CASE("diagnostic: switch cycles that are not an integer") {
  CHECK(diagnose("target: {name: t, versions: [\"1.0\"], "
                 "switch_cycles: 1.5}\n") ==
        "t.yaml:1:53: error: 'switch_cycles' must be an integer, not '1.5'\n");
}

TEST_CASE("diagnostic: a cost of an unknown operator") {
  // A `.td` cannot name an operator that does not exist; YAML can.
  CHECK(diagnoseModel(std::string(Head) + "costs:\n  - {op: Rleu, since: "
                                          "\"1.0\", cycles: \"1\"}\n") ==
        "t.yaml:3:5: error: unknown operator 'Rleu'\n");
}

TEST_CASE("diagnostic: a cost expression with a type error, located at the "
          "cost") {
  CHECK(diagnoseModel(std::string(Head) +
                      "costs:\n  - {op: Relu, since: \"1.0\", cycles: "
                      "\"min(true, 1)\"}\n") ==
        "t.yaml:3:5: error: cost of 'Relu' from version 1.0: function 'min' "
        "needs numeric arguments, found 'bool' (column 5 of "
        "\"min(true, 1)\")\n");
}

//===----------------------------------------------------------------------===//
// Backends
//===----------------------------------------------------------------------===//

TEST_CASE("backend and CPU fallback read into the TargetDecl") {
  Read R = read(R"yaml(target:
  name: t
  versions: ["1.0"]
  backend: ref-kernels
  cpu_fallback: ""
)yaml");
  REQUIRE(R.Ok);
  CHECK(R.Decl.Backend == "ref-kernels");
  CHECK_FALSE(R.Decl.FunctionalModel);
  CHECK(R.Decl.CpuFallback.empty());
}

TEST_CASE("an unknown backend is an error at its location") {
  Read R = read(R"yaml(target:
  name: t
  versions: ["1.0"]
  backend: fpga-sim
)yaml");
  CHECK_FALSE(R.Ok);
  CHECK(R.Errors == "t.yaml:4:12: error: unknown backend 'fpga-sim' (known: "
                    "ref-kernels, functional-model)\n");
}

//===----------------------------------------------------------------------===//
// Device semantics
//===----------------------------------------------------------------------===//

TEST_CASE("device semantics read into the TargetDecl") {
  Read R = read(R"yaml(target:
  name: t
  versions: ["1.0", "2.0"]
  backend: functional-model
layouts:
  L4: {name: 4C, max_channels: 4, channel_pixels: 4}
  L16: {name: 16C, channel_bytes: 16}
device_layouts:
  - {since: "1.0", layouts: [L4, L16]}
  - {since: "2.0", ops: [Relu], layouts: [L16]}
device_storage:
  - {since: "1.0", type: i8, scheme: asymmetric_per_tensor, stored_as: u8}
device_residency:
  - {since: "2.0", ops: [Relu], keeps: fused_intermediates}
)yaml");
  REQUIRE(R.Ok);
  const TargetDecl &D = R.Decl;
  CHECK(D.FunctionalModel);
  CHECK(D.Backend == "functional-model");
  checkLoc(D.BackendAt, 4, 12);
  REQUIRE(D.Layouts.size() == 2);
  CHECK(D.Layouts[0].Key == "L4");
  CHECK(D.Layouts[0].Name == "4C");
  CHECK(D.Layouts[0].MaxChannels == 4);
  CHECK(D.Layouts[0].ChannelPixels == 4);
  CHECK(D.Layouts[0].ChannelBytes == 0);
  checkLoc(D.Layouts[0].At, 6, 3);
  CHECK(D.Layouts[1].ChannelBytes == 16);
  REQUIRE(D.DeviceLayouts.size() == 2);
  CHECK(D.DeviceLayouts[0].Ops.empty());
  CHECK(D.DeviceLayouts[0].Layouts == std::vector<std::string>{"L4", "L16"});
  CHECK(D.DeviceLayouts[1].Since == "2.0");
  CHECK(D.DeviceLayouts[1].Ops == std::vector<std::string>{"Relu"});
  checkLoc(D.DeviceLayouts[1].At, 10, 5);
  REQUIRE(D.DeviceStorage.size() == 1);
  CHECK(D.DeviceStorage[0].Type == "i8");
  CHECK(D.DeviceStorage[0].Scheme == "asymmetric_per_tensor");
  CHECK(D.DeviceStorage[0].StoredAs == "u8");
  REQUIRE(D.DeviceResidency.size() == 1);
  CHECK(D.DeviceResidency[0].Keeps == "fused_intermediates");
  checkLoc(D.DeviceResidency[0].At, 14, 5);
  // Without the keys: no backend, the CPU fallback cpu, no functional model
  // and no device rule.
  Read Plain = read(Head);
  REQUIRE(Plain.Ok);
  CHECK(Plain.Decl.Backend.empty());
  CHECK(Plain.Decl.CpuFallback == "cpu");
  CHECK_FALSE(Plain.Decl.FunctionalModel);
  CHECK(Plain.Decl.Layouts.empty());
  CHECK(Plain.Decl.DeviceLayouts.empty());
}

namespace {
/// Head with RELU legal, so that device rules may name it.
const std::string ReluHead =
    std::string("target: {name: t, versions: [\"1.0\", \"2.0\"]}\n") +
    "legal:\n  - {op: Relu, since: \"1.0\", types: [i8]}\n";
} // namespace

TEST_CASE("diagnostic: a layout programs do not record (YAML)") {
  CHECK(diagnoseModel(std::string(Head) + "layouts:\n  L: {name: 32C}\n") ==
        "t.yaml:3:3: error: layout 'L' is named '32C'; accelerator programs "
        "record the layouts NHWC, 4C, 16C\n");
}

TEST_CASE("diagnostic: a layout with negative padding (YAML)") {
  CHECK(diagnoseModel(std::string(Head) +
                      "layouts:\n  L: {name: 16C, channel_pixels: -1}\n") ==
        "t.yaml:3:3: error: layout 'L': the channel limit and paddings must "
        "not be negative\n");
}

TEST_CASE("diagnostic: two layouts of one name (YAML)") {
  CHECK(diagnoseModel(std::string(Head) + "layouts:\n  L: {name: 16C}\n"
                                          "  M: {name: 16C}\n") ==
        "t.yaml:4:3: error: layout 'M' has the name '16C' of layout 'L' (at "
        "t.yaml:3:3)\n");
}

TEST_CASE("diagnostic: unknown layout") {
  CHECK(diagnoseModel(std::string(Head) +
                      "device_layouts:\n  - {since: \"1.0\", layouts: "
                      "[L16]}\n") ==
        "t.yaml:3:5: error: unknown layout 'L16'\n");
}

TEST_CASE("diagnostic: a device layout rule without a layout (YAML)") {
  CHECK(diagnoseModel(std::string(Head) +
                      "device_layouts:\n  - {since: \"1.0\", layouts: []}\n") ==
        "t.yaml:3:5: error: a device layout rule lists no layout\n");
}

TEST_CASE("diagnostic: a layout listed twice in one rule (YAML)") {
  CHECK(diagnoseModel(std::string(Head) +
                      "layouts:\n  L: {name: 16C}\n"
                      "device_layouts:\n  - {since: \"1.0\", layouts: [L, "
                      "L]}\n") ==
        "t.yaml:5:5: error: layout 'L' is listed twice in a device layout "
        "rule\n");
}

TEST_CASE("diagnostic: two device layout rules for every operator at a "
          "version (YAML)") {
  CHECK(diagnoseModel(ReluHead + "layouts:\n  L: {name: 16C}\n"
                                 "device_layouts:\n"
                                 "  - {since: \"2.0\", layouts: [L]}\n"
                                 "  - {since: \"2.0\", layouts: [L]}\n") ==
        "t.yaml:8:5: error: every operator already has a device layout rule "
        "for version 2.0 (at t.yaml:7:5)\n");
}

TEST_CASE("diagnostic: a device rule for an operator the target never runs "
          "(YAML)") {
  CHECK(diagnoseModel(std::string(Head) +
                      "device_residency:\n  - {since: \"1.0\", ops: [Relu], "
                      "keeps: none}\n") ==
        "t.yaml:3:5: error: operator 'Relu' has a device residency rule but "
        "is legal at no version of target 't'\n");
}

TEST_CASE("diagnostic: unknown residency") {
  CHECK(
      diagnoseModel(std::string(Head) +
                    "device_residency:\n  - {since: \"1.0\", keeps: all}\n") ==
      "t.yaml:3:5: error: unknown residency 'all' (residencies: "
      "fused_intermediates, none)\n");
}

TEST_CASE("diagnostic: two residency rules for one operator and version "
          "(YAML)") {
  CHECK(diagnoseModel(ReluHead +
                      "device_residency:\n"
                      "  - {since: \"1.0\", ops: [Relu], keeps: none}\n"
                      "  - {since: \"1.0\", ops: [Relu], keeps: none}\n") ==
        "t.yaml:6:5: error: operator 'Relu' already has a device residency "
        "rule for version 1.0 (at t.yaml:5:5)\n");
}

TEST_CASE("diagnostic: unknown type and scheme in a storage rule") {
  CHECK(diagnoseModel(std::string(Head) +
                      "device_storage:\n  - {since: \"1.0\", type: i7, "
                      "scheme: asym, stored_as: u8}\n") ==
        "t.yaml:3:5: error: unknown data type 'i7'\n"
        "t.yaml:3:5: error: unknown quantization scheme 'asym' (schemes: "
        "asymmetric_per_tensor, symmetric_per_tensor, symmetric_per_channel, "
        "asymmetric_per_channel)\n");
}

TEST_CASE("diagnostic: a storage conversion programs do not make (YAML)") {
  CHECK(diagnoseModel(std::string(Head) +
                      "device_storage:\n  - {since: \"1.0\", type: u8, "
                      "scheme: asymmetric_per_tensor, stored_as: i8}\n") ==
        "t.yaml:3:5: error: activations of type 'u8' cannot be stored as "
        "'i8': the one conversion accelerator programs make is i8 stored as "
        "u8 (q + 128, zero point + 128)\n");
}

TEST_CASE("diagnostic: two storage rules for one type, scheme and version "
          "(YAML)") {
  CHECK(diagnoseModel(
            std::string(Head) +
            "device_storage:\n"
            "  - {since: \"1.0\", type: i8, scheme: symmetric_per_tensor, "
            "stored_as: u8}\n"
            "  - {since: \"1.0\", type: i8, scheme: symmetric_per_tensor, "
            "stored_as: u8}\n") ==
        "t.yaml:4:5: error: activations of type 'i8' quantized "
        "symmetric_per_tensor already have a storage rule for version 1.0 "
        "(at t.yaml:3:5)\n");
}

TEST_CASE("diagnostic: a shared constraint reads an attribute its operator "
          "lacks") {
  // Relu and MyAct have no attributes; MyConv has `act`. Each rule applying
  // the shared constraint to one of them is reported, the first use
  // included.
  CHECK(diagnoseModel(std::string(Head) + R"yaml(ops:
  MyConv: {name: MY_CONV, operands: {input: required}, attrs: {act: string}}
  MyAct: {name: MY_ACT, operands: {input: required}}
constraints:
  NoAct: {id: no_act, expr: 'act == "NONE"', summary: s}
  ActNone: {id: act_none, expr: 'a.act == "NONE"', summary: s}
legal:
  - {op: Relu, since: "1.0", types: [i8], constraints: [NoAct]}
  - {op: MyConv, since: "1.0", types: [i8], constraints: [NoAct]}
mappings:
  - {from: Relu, to: MyConv, constraints: [NoAct]}
quant_rules:
  - {op: Relu, relation: check, check: NoAct}
patterns:
  - name: P
    source: "(MyConv (MyAct:$a $x))"
    result: "(MyConv $x)"
    constraints: [ActNone]
)yaml") == "t.yaml:9:5: error: constraint 'no_act' reads attribute 'act', "
           "which operator 'Relu' does not have\n"
           "t.yaml:12:5: error: constraint 'no_act' reads attribute 'act', "
           "which operator 'Relu' does not have\n"
           "t.yaml:14:5: error: constraint 'no_act' reads attribute 'act', "
           "which operator 'Relu' does not have\n"
           "t.yaml:16:5: error: constraint 'act_none' reads attribute "
           "'a.act', which operator 'MyAct' does not have\n");
}

TEST_CASE("diagnostic: a shared constraint that does not fit another "
          "operator") {
  // Relu here has no operands.
  CHECK(diagnoseModel(std::string(Head) + R"yaml(ops:
  MyConv: {name: MY_CONV, operands: {input: required, bias: optional}}
constraints:
  BiasI32: {id: bias_i32, expr: "input(1).dtype == i32", summary: s}
legal:
  - {op: MyConv, since: "1.0", types: [i8], constraints: [BiasI32]}
  - {op: Relu, since: "1.0", types: [i8], constraints: [BiasI32]}
)yaml") == "t.yaml:8:5: error: constraint 'bias_i32' does not fit operator "
           "'Relu': operand index 1 out of range (operator has 0 inputs) "
           "(column 7 of \"input(1).dtype == i32\")\n");
}

TEST_CASE("diagnostic: a shared constraint that does not fit a pattern") {
  // A pattern names what it reads through captures (`conv.stride`).
  CHECK(diagnoseModel(std::string(Head) + R"yaml(ops:
  MyConv: {name: MY_CONV, operands: {input: required}, attrs: {stride: int}}
constraints:
  Stride1: {id: stride_1, expr: "stride == 1", summary: s}
legal:
  - {op: MyConv, since: "1.0", types: [i8], constraints: [Stride1]}
patterns:
  - name: P
    source: "(MyConv (MyConv:$conv $x))"
    result: "(MyConv $x)"
    constraints: [Stride1]
)yaml") == "t.yaml:9:5: error: constraint 'stride_1' does not fit pattern "
           "'P': unknown attribute 'stride' (column 1 of \"stride == 1\")\n");
}

//===----------------------------------------------------------------------===//
// Hostile input: nesting, size and error counts
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a constraint nested too deeply") {
  // 3000 parentheses: the parser stops at the 101st level (column 101).
  std::string Expr = std::string(3000, '(') + "true" + std::string(3000, ')');
  CHECK(diagnoseModel(std::string(Head) +
                      "legal:\n  - {op: Relu, since: \"1.0\", types: [i8], "
                      "constraints: [{id: deep, expr: \"" +
                      Expr + "\", summary: s}]}\n") ==
        "t.yaml:3:5: error: constraint 'deep': expression nested more than "
        "100 levels deep (column 101 of \"" +
            Expr + "\")\n");
}

TEST_CASE("a long flat '&&' chain is accepted") {
  std::string Expr = "true";
  for (int I = 0; I < 20000; ++I)
    Expr += " && num_inputs >= 0";
  Read R = read(std::string(Head) +
                "legal:\n  - {op: Relu, since: \"1.0\", types: [i8], "
                "constraints: [{id: long, expr: \"" +
                Expr + "\", summary: s}]}\n");
  REQUIRE(R.Ok);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  CHECK(buildTargetModel(R.Decl, Diags));
  CHECK(OS.str() == "");
}

TEST_CASE("diagnostic: YAML nested too deeply") {
  std::string Deep = "ops: " + std::string(5000, '[') + std::string(5000, ']');
  std::string Errors = diagnose(Deep + "\n");
  CHECK(llvm::StringRef(Errors).startswith("t.yaml:1:"));
  CHECK(llvm::StringRef(Errors).contains("error: invalid YAML: "));
  CHECK(llvm::count(Errors, '\n') == 1);
}

TEST_CASE("diagnostic: past 20 errors the rest are counted") {
  // 25 rules for Relu at one version: 24 duplicates.
  std::string Yaml = std::string(Head) + "legal:\n";
  for (int I = 0; I < 25; ++I)
    Yaml += "  - {op: Relu, since: \"1.0\", types: [i8]}\n";
  Read R = read(Yaml);
  REQUIRE(R.Ok);
  std::string Text;
  {
    llvm::raw_string_ostream OS(Text);
    Diagnostics Diags(OS);
    CHECK_FALSE(buildTargetModel(R.Decl, Diags));
    CHECK(Diags.errorCount() == 24);
  }
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  REQUIRE(Lines.size() == 21);
  CHECK(Lines[0].contains(": error: "));
  CHECK(Lines[20] == "error: 4 more errors not shown");
}

TEST_CASE("diagnostic: a description larger than the limit") {
  test::TempDir Dir;
  std::string Path = Dir.file("big.yaml");
  test::writeFileBytes(
      Path, llvm::arrayRefFromStringRef(std::string((16 << 20) + 1, '#')));
  TargetDecl Decl;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Diagnostics Diags(OS);
  CHECK_FALSE(readYamlTarget(Path, Decl, Diags));
  CHECK(OS.str() == Path + ": error: the file is larger than the limit of "
                           "16 MiB\n");
}
