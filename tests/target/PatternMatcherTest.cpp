//===- PatternMatcherTest.cpp - Fusion pattern matching and rewriting -----===//
//
// Pattern tables written as accelgen-tblgen emits them (constant arrays of
// PatternDesc) run on small hand-built graphs: a match and its rewrite, the
// single-use and graph-output rules, a constraint check turning a match down,
// priority by table order, versions, repeated and omitted captures,
// determinism, and nodes matching an operator set with a result the set
// picks per member.
//
//===----------------------------------------------------------------------===//
#include "TargetLibTestSupport.h"

#include "target/PatternMatcher.h"

#include <map>
#include <set>

using namespace accelgen;
using namespace accelgen::target;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

// (RELU:$act (CONV_2D:$conv $x, $w, $b)) -> (T_CONV_RELU $x, $w, $b), with
// constraint conv.fused_activation == "NONE".
const PatternOperand ConvOperands[] = {{-1, 0}, {-1, 1}, {-1, 2}};
const PatternOperand ReluOfNode1[] = {{1, -1}};
const PatternNodeDesc ConvReluNodes[] = {
    {"RELU", nullptr, "act", 1, ReluOfNode1},
    {"CONV_2D", nullptr, "conv", 3, ConvOperands}};
const char *const XWB[] = {"x", "w", "b"};
const int16_t ResultXWB[] = {0, 1, 2};

bool convReluCheck(const ir::Graph &G, const PatternMatch &M,
                   std::vector<std::string> &Why) {
  const ir::Operator &Conv = G.Operators[M.Nodes[1]];
  std::string Act = Conv.getString("fused_activation", "NONE");
  if (Act == "NONE")
    return true;
  Why.push_back("conv.fused_activation = " + Act + ", must be NONE");
  return false;
}

// (ADD:$add (CONV_2D:$conv $x, $w, $b), $y) -> (T_CONV_ADD $x, $w, $b, $y)
const PatternOperand AddOfConv[] = {{1, -1}, {-1, 3}};
const PatternNodeDesc ConvAddNodes[] = {
    {"ADD", nullptr, "add", 2, AddOfConv},
    {"CONV_2D", nullptr, "conv", 3, ConvOperands}};
const char *const XWBY[] = {"x", "w", "b", "y"};
const int16_t ResultXWBY[] = {0, 1, 2, 3};

// (RELU (ADD $a, $b)) -> (T_ADD_RELU $a, $b)
const PatternOperand AB[] = {{-1, 0}, {-1, 1}};
const PatternNodeDesc AddReluNodes[] = {{"RELU", nullptr, "", 1, ReluOfNode1},
                                        {"ADD", nullptr, "", 2, AB}};
const char *const ABNames[] = {"a", "b"};
const int16_t ResultAB[] = {0, 1};

// (RELU (RELU $x)) -> (T_RELU2 $x)
const PatternOperand X[] = {{-1, 0}};
const PatternNodeDesc ReluReluNodes[] = {{"RELU", nullptr, "", 1, ReluOfNode1},
                                         {"RELU", nullptr, "", 1, X}};
const char *const XName[] = {"x"};
const int16_t ResultX[] = {0};

// (ADD $x, $x) -> (T_DOUBLE $x): one capture used twice.
const PatternOperand XX[] = {{-1, 0}, {-1, 0}};
const PatternNodeDesc DoubleNodes[] = {{"ADD", nullptr, "", 2, XX}};

// (MUL (CONV_2D $x, $w, $b), $y) -> (T_CONV_MUL $x, $w, $b, $y)
const PatternNodeDesc ConvMulNodes[] = {
    {"MUL", nullptr, "", 2, AddOfConv},
    {"CONV_2D", nullptr, "", 3, ConvOperands}};

// (RELU (CONV_2D $x, $w)): a convolution without its optional bias.
const PatternOperand XW[] = {{-1, 0}, {-1, 1}};
const PatternNodeDesc ConvNoBiasNodes[] = {
    {"RELU", nullptr, "", 1, ReluOfNode1}, {"CONV_2D", nullptr, "", 2, XW}};

const PatternDesc ConvRelu = {
    "ConvRelu", 2,  0, 2,         ConvReluNodes, 3, XWB, "T_CONV_RELU",
    nullptr,    -1, 3, ResultXWB, convReluCheck};
const PatternDesc ConvAdd = {
    "ConvAdd",    2,       1,  2, ConvAddNodes, 4,      XWBY,
    "T_CONV_ADD", nullptr, -1, 4, ResultXWBY,   nullptr};
const PatternDesc AddRelu = {
    "AddRelu",    1,       0,  2, AddReluNodes, 2,      ABNames,
    "T_ADD_RELU", nullptr, -1, 2, ResultAB,     nullptr};
const PatternDesc ReluRelu = {
    "ReluRelu", 1,       0,  2, ReluReluNodes, 1,      XName,
    "T_RELU2",  nullptr, -1, 1, ResultX,       nullptr};
const PatternDesc Double = {"Double", 1,       0,          1,       DoubleNodes,
                            1,        XName,   "T_DOUBLE", nullptr, -1,
                            1,        ResultX, nullptr};
const PatternDesc ConvMul = {
    "ConvMul",    1,       0,  2, ConvMulNodes, 4,      XWBY,
    "T_CONV_MUL", nullptr, -1, 4, ResultXWBY,   nullptr};
const PatternDesc ConvNoBias = {
    "ConvNoBias",  1,       0,  2, ConvNoBiasNodes, 2,      XWB,
    "T_CONV_RELU", nullptr, -1, 2, ResultXWB,       nullptr};

// (ACT:$act (CONVS:$conv $x, $w, $b)) -> (CONVS:$conv $x, $w, $b): both
// nodes match operator sets; the result is what CONVS lists for the
// convolution matched. Member rows are sorted, as the generator emits them.
const char *const ActMembers[] = {"LOGISTIC", "RELU"};
const PatternOpSet ActSet = {"ACT", 2, ActMembers, nullptr};
const char *const ConvMembers[] = {"CONV_2D", "DEPTHWISE_CONV_2D"};
const char *const ConvResults[] = {"T_CONV", "T_DEPTHWISE"};
const PatternOpSet ConvSet = {"CONVS", 2, ConvMembers, ConvResults};
const PatternNodeDesc SetNodes[] = {
    {nullptr, &ActSet, "act", 1, ReluOfNode1},
    {nullptr, &ConvSet, "conv", 3, ConvOperands}};
const PatternDesc ActOfConv = {
    "ActOfConv", 1,        0, 2, SetNodes,  3,      XWB,
    nullptr,     &ConvSet, 1, 3, ResultXWB, nullptr};

/// A one-pattern table that points at \p P itself, so that the matches'
/// Pattern pointers stay valid.
llvm::ArrayRef<PatternDesc> only(const PatternDesc &P) { return P; }

/// The tensors of a conv -> relu chain.
struct ConvRelu2 {
  int32_t In, W, B, Mid, Out;
};

/// in -> CONV_2D(w, b) -> mid -> RELU -> out, operators 0 and 1.
ConvRelu2 addConvRelu(GraphBuilder &B, const std::string &Prefix = "",
                      int32_t In = -1) {
  ConvRelu2 T;
  T.In = In >= 0 ? In : B.tensor(Prefix + "in", {1, 4, 4, 2}, perTensor(0.5f, 1));
  T.W = B.constant(Prefix + "w", {3, 1, 1, 2}, perTensor(0.25f, 0));
  T.B = B.constant(Prefix + "b", {3}, perTensor(0.125f, 0), ir::DType::I32);
  T.Mid = B.tensor(Prefix + "mid", {1, 4, 4, 3}, perTensor(0.5f, 0));
  T.Out = B.tensor(Prefix + "out", {1, 4, 4, 3}, perTensor(0.5f, 0));
  B.op("CONV_2D", {T.In, T.W, T.B}, {T.Mid},
       {{"stride_h", int64_t(1)},
        {"padding", std::string("SAME")},
        {"fused_activation", std::string("NONE")}});
  B.op("RELU", {T.Mid}, {T.Out}, {{"padding", std::string("VALID")}});
  return T;
}

} // namespace

TEST_CASE("a conv + relu chain matches and fuses into one operator") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.inputs({T.In}).outputs({T.Out});
  test::checkValid(B.G);

  std::optional<PatternMatch> M = matchPattern(B.G, ConvRelu, 1);
  REQUIRE(M.has_value());
  CHECK(M->Nodes == std::vector<int32_t>{1, 0});
  CHECK(M->Values == std::vector<int32_t>{T.In, T.W, T.B});
  CHECK_FALSE(matchPattern(B.G, ConvRelu, 0).has_value());

  CHECK(fusePatterns(B.G, only(ConvRelu), 0) == 1);
  test::checkValid(B.G);
  REQUIRE(B.G.Operators.size() == 1);
  const ir::Operator &F = B.G.Operators[0];
  CHECK(F.Type == "T_CONV_RELU");
  CHECK(F.Inputs == std::vector<int32_t>{T.In, T.W, T.B});
  CHECK(F.Outputs == std::vector<int32_t>{T.Out});
  CHECK(F.getString(FusedOpsAttr) == "CONV_2D+RELU");
  CHECK(F.getInt("stride_h") == 1);
  // Both set padding; the root (RELU) runs last and wins.
  CHECK(F.getString("padding") == "VALID");
}

TEST_CASE("an intermediate result with a second user does not match") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  int32_t Other = B.tensor("other", {1, 4, 4, 3}, perTensor(0.5f, 0));
  B.op("TANH", {T.Mid}, {Other});
  B.inputs({T.In}).outputs({T.Out, Other});
  CHECK_FALSE(matchPattern(B.G, ConvRelu, 1).has_value());
  CHECK(findMatches(B.G, only(ConvRelu), 0).empty());
}

TEST_CASE("an intermediate result that is a graph output does not match") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.inputs({T.In}).outputs({T.Out, T.Mid});
  CHECK_FALSE(matchPattern(B.G, ConvRelu, 1).has_value());
  ir::Graph Before = B.G;
  CHECK(fusePatterns(B.G, only(ConvRelu), 0) == 0);
  test::checkSameGraph(Before, B.G);
}

TEST_CASE("an intermediate result also bound by a value capture does not "
          "match") {
  // MUL(conv, conv): the second read of the convolution's result is a value
  // capture, which would leave the fused operator reading a removed result.
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.G.Operators.pop_back();
  int32_t Out = B.tensor("prod", {1, 4, 4, 3}, perTensor(0.5f, 0));
  B.op("MUL", {T.Mid, T.Mid}, {Out});
  B.inputs({T.In}).outputs({Out});
  CHECK_FALSE(matchPattern(B.G, ConvMul, 1).has_value());
}

TEST_CASE("a failing constraint check turns a structural match down") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.G.Operators[0].Attrs["fused_activation"] = std::string("RELU6");
  B.inputs({T.In}).outputs({T.Out});

  std::vector<std::string> Why;
  CHECK_FALSE(matchPattern(B.G, ConvRelu, 1, &Why).has_value());
  CHECK(Why == std::vector<std::string>{
                   "conv.fused_activation = RELU6, must be NONE"});

  std::vector<MatchRejection> Rejected;
  CHECK(findMatches(B.G, only(ConvRelu), 0, &Rejected).empty());
  REQUIRE(Rejected.size() == 1);
  CHECK(Rejected[0].Pattern->Name == std::string("ConvRelu"));
  CHECK(Rejected[0].Root == 1);
  CHECK(Rejected[0].Why == Why);
}

TEST_CASE("patterns are tried in table order and an operator fuses once") {
  // in -> CONV_2D -> c -> ADD(c, y) -> s -> RELU -> out: ConvAdd and AddRelu
  // both want the ADD; the pattern listed first (higher benefit) takes it.
  auto Build = [] {
    GraphBuilder B;
    ConvRelu2 T = addConvRelu(B);
    B.G.Operators.pop_back();
    int32_t Y = B.tensor("y", {1, 4, 4, 3}, perTensor(0.5f, 0));
    int32_t S = B.tensor("s", {1, 4, 4, 3}, perTensor(0.5f, 0));
    B.op("ADD", {T.Mid, Y}, {S});
    B.op("RELU", {S}, {T.Out});
    B.inputs({T.In, Y}).outputs({T.Out});
    return B.G;
  };
  ir::Graph G = Build();
  const PatternDesc ByBenefit[] = {ConvAdd, AddRelu};
  std::vector<FoundMatch> Found = findMatches(G, ByBenefit, 1);
  REQUIRE(Found.size() == 1);
  CHECK(Found[0].Pattern->Name == std::string("ConvAdd"));
  applyMatches(G, Found);
  test::checkValid(G);
  CHECK(test::opTypes(G) == std::vector<std::string>{"T_CONV_ADD", "RELU"});
  CHECK(G.Operators[0].Inputs.size() == 4);

  G = Build();
  const PatternDesc Reversed[] = {AddRelu, ConvAdd};
  Found = findMatches(G, Reversed, 1);
  REQUIRE(Found.size() == 1);
  CHECK(Found[0].Pattern->Name == std::string("AddRelu"));
  applyMatches(G, Found);
  test::checkValid(G);
  CHECK(test::opTypes(G) == std::vector<std::string>{"CONV_2D", "T_ADD_RELU"});
}

TEST_CASE("a pattern applies from its first version on") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.G.Operators.pop_back();
  int32_t Y = B.tensor("y", {1, 4, 4, 3}, perTensor(0.5f, 0));
  B.op("ADD", {T.Mid, Y}, {T.Out});
  B.inputs({T.In, Y}).outputs({T.Out});
  CHECK(findMatches(B.G, only(ConvAdd), 0).empty());
  CHECK(findMatches(B.G, only(ConvAdd), 1).size() == 1);
}

TEST_CASE("roots are scanned in operator order") {
  // RELU -> RELU -> RELU: the first pair fuses, the third RELU stays.
  GraphBuilder B;
  int32_t T0 = B.tensor("t0", {4}, perTensor(1.0f, 0));
  int32_t T1 = B.tensor("t1", {4}, perTensor(1.0f, 0));
  int32_t T2 = B.tensor("t2", {4}, perTensor(1.0f, 0));
  int32_t T3 = B.tensor("t3", {4}, perTensor(1.0f, 0));
  B.op("RELU", {T0}, {T1});
  B.op("RELU", {T1}, {T2});
  B.op("RELU", {T2}, {T3});
  B.inputs({T0}).outputs({T3});
  std::vector<FoundMatch> Found = findMatches(B.G, only(ReluRelu), 0);
  REQUIRE(Found.size() == 1);
  CHECK(Found[0].Match.Nodes == std::vector<int32_t>{1, 0});
  applyMatches(B.G, Found);
  test::checkValid(B.G);
  CHECK(test::opTypes(B.G) == std::vector<std::string>{"T_RELU2", "RELU"});
  CHECK(B.G.Operators[0].Inputs == std::vector<int32_t>{T0});
  CHECK(B.G.Operators[0].Outputs == std::vector<int32_t>{T2});
  CHECK(B.G.Operators[0].getString(FusedOpsAttr) == "RELU+RELU");
}

TEST_CASE("matching is deterministic over independent chains") {
  GraphBuilder B;
  ConvRelu2 A = addConvRelu(B, "a_");
  ConvRelu2 C = addConvRelu(B, "c_", A.Out);
  B.inputs({A.In}).outputs({C.Out});
  std::vector<FoundMatch> First = findMatches(B.G, only(ConvRelu), 0);
  std::vector<FoundMatch> Second = findMatches(B.G, only(ConvRelu), 0);
  REQUIRE(First.size() == 2);
  REQUIRE(Second.size() == 2);
  for (size_t I = 0; I < 2; ++I) {
    CHECK(First[I].Pattern == Second[I].Pattern);
    CHECK(First[I].Match.Nodes == Second[I].Match.Nodes);
    CHECK(First[I].Match.Values == Second[I].Match.Values);
  }
  CHECK(First[0].Match.Nodes == std::vector<int32_t>{1, 0});
  CHECK(First[1].Match.Nodes == std::vector<int32_t>{3, 2});
  applyMatches(B.G, First);
  test::checkValid(B.G);
  CHECK(test::opTypes(B.G) ==
        std::vector<std::string>{"T_CONV_RELU", "T_CONV_RELU"});
  CHECK(B.G.Operators[1].Inputs[0] == A.Out);
}

TEST_CASE("a capture used twice must bind the same tensor") {
  GraphBuilder B;
  int32_t X = B.tensor("x", {4}, perTensor(1.0f, 0));
  int32_t Y = B.tensor("y", {4}, perTensor(1.0f, 0));
  int32_t S = B.tensor("s", {4}, perTensor(2.0f, 0));
  int32_t U = B.tensor("u", {4}, perTensor(2.0f, 0));
  B.op("ADD", {X, X}, {S});
  B.op("ADD", {X, Y}, {U});
  B.inputs({X, Y}).outputs({S, U});
  std::vector<FoundMatch> Found = findMatches(B.G, only(Double), 0);
  REQUIRE(Found.size() == 1);
  CHECK(Found[0].Match.Nodes == std::vector<int32_t>{0});
  CHECK(Found[0].Match.Values == std::vector<int32_t>{X});
}

TEST_CASE("an omitted optional operand is captured as -1") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.G.Operators[0].Inputs[2] = -1;
  B.inputs({T.In}).outputs({T.Out});
  std::optional<PatternMatch> M = matchPattern(B.G, ConvRelu, 1);
  REQUIRE(M.has_value());
  CHECK(M->Values == std::vector<int32_t>{T.In, T.W, -1});
  CHECK(fusePatterns(B.G, only(ConvRelu), 0) == 1);
  test::checkValid(B.G);
  CHECK(B.G.Operators[0].Inputs == std::vector<int32_t>{T.In, T.W, -1});
}

TEST_CASE("an operand the pattern does not name must be omitted") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.inputs({T.In}).outputs({T.Out});
  // The convolution has a bias the two-operand pattern would drop.
  CHECK_FALSE(matchPattern(B.G, ConvNoBias, 1).has_value());
  B.G.Operators[0].Inputs[2] = -1;
  CHECK(matchPattern(B.G, ConvNoBias, 1).has_value());
}

TEST_CASE("operators CanFuse refuses are left alone") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.inputs({T.In}).outputs({T.Out});
  auto NotConv = [&](size_t Op) { return B.G.Operators[Op].Type != "CONV_2D"; };
  CHECK(findMatches(B.G, only(ConvRelu), 0, nullptr, NotConv).empty());
  CHECK(findMatches(B.G, only(ConvRelu), 0, nullptr).size() == 1);
}

TEST_CASE("fusing an already fused operator keeps the whole history") {
  GraphBuilder B;
  ConvRelu2 T = addConvRelu(B);
  B.G.Operators[0].Attrs[FusedOpsAttr] = std::string("CONV_2D+ADD");
  B.inputs({T.In}).outputs({T.Out});
  CHECK(fusePatterns(B.G, only(ConvRelu), 0) == 1);
  CHECK(B.G.Operators[0].getString(FusedOpsAttr) == "CONV_2D+ADD+RELU");
}

TEST_CASE("an operator set finds each member and nothing else") {
  for (int I = 0; I < 2; ++I) {
    CHECK(ActSet.find(ActMembers[I]) == I);
    CHECK(ConvSet.find(ConvMembers[I]) == I);
  }
  for (const char *Other : {"", "ADD", "CONV", "CONV_2DX", "RELU6", "TANH",
                            "A", "Z", "relu", "T_CONV"})
    CHECK_MESSAGE(ActSet.find(Other) == -1, Other);
  CHECK(ConvSet.find("FULLY_CONNECTED") == -1);
  CHECK(ConvSet.find("DEPTHWISE") == -1);
}

TEST_CASE("a set node matches every member and nothing else; the result "
          "follows the member") {
  // Every producer/consumer pair over the members and some non-members.
  const std::vector<std::string> Producers = {"CONV_2D", "DEPTHWISE_CONV_2D",
                                              "FULLY_CONNECTED", "RELU"};
  const std::vector<std::string> Consumers = {"RELU", "LOGISTIC", "TANH",
                                              "CONV_2D"};
  const std::map<std::string, std::string> ResultOf = {
      {"CONV_2D", "T_CONV"}, {"DEPTHWISE_CONV_2D", "T_DEPTHWISE"}};
  const std::set<std::string> Acts = {"RELU", "LOGISTIC"};
  for (const std::string &Producer : Producers)
    for (const std::string &Consumer : Consumers) {
      CAPTURE(Producer);
      CAPTURE(Consumer);
      GraphBuilder B;
      ConvRelu2 T = addConvRelu(B);
      B.G.Operators[0].Type = Producer;
      B.G.Operators[1].Type = Consumer;
      B.inputs({T.In}).outputs({T.Out});
      bool Expected = ResultOf.count(Producer) && Acts.count(Consumer);
      CHECK(matchPattern(B.G, ActOfConv, 1).has_value() == Expected);
      CHECK_FALSE(matchPattern(B.G, ActOfConv, 0).has_value());
      REQUIRE(fusePatterns(B.G, only(ActOfConv), 0) == (Expected ? 1u : 0u));
      if (!Expected)
        continue;
      REQUIRE(B.G.Operators.size() == 1);
      CHECK(B.G.Operators[0].Type == ResultOf.at(Producer));
      CHECK(B.G.Operators[0].Inputs ==
            std::vector<int32_t>{T.In, T.W, T.B});
      CHECK(B.G.Operators[0].getString(FusedOpsAttr) ==
            Producer + "+" + Consumer);
    }
}
