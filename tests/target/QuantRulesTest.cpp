//===- QuantRulesTest.cpp - Quantization relations and their actions ------===//
//
// Every relation of the description language under every action, on small
// hand-built graphs: when the relation holds nothing changes; reject leaves
// the graph as it was and names the observed parameters; the requantize
// actions insert REQUANTIZE operators next to the operator, with the expected
// parameters, and keep the graph valid.
//
//===----------------------------------------------------------------------===//
#include "TargetLibTestSupport.h"

#include "target/QuantRules.h"
#include "target/Quantize.h"

#include <cmath>

using namespace accelgen;
using namespace accelgen::target;
using ir::GraphBuilder;
using ir::perChannel;
using ir::perTensor;

namespace {

using R = QuantRelation;
using A = QuantAction;

/// Applies one rule to operator \p OpIndex and checks the graph stays valid.
QuantOutcome apply(ir::Graph &G, size_t &OpIndex, QuantRelation Rel,
                   QuantAction Act, std::vector<Rejection> &Why,
                   QuantRuleParams P = {}) {
  QuantOutcome O = applyQuantRule(G, OpIndex, Rel, Act, P, Why);
  test::checkValid(G);
  return O;
}

/// in(0.5, 1) -> MAX_POOL_2D -> out(0.25, 0), a graph output.
struct PoolGraph {
  GraphBuilder B;
  int32_t In, Out;
  PoolGraph(ir::QuantParams InQ = perTensor(0.5f, 1),
            ir::QuantParams OutQ = perTensor(0.25f, 0)) {
    In = B.tensor("in", {1, 4, 4, 2}, InQ);
    Out = B.tensor("out", {1, 2, 2, 2}, OutQ);
    B.op("MAX_POOL_2D", {In}, {Out});
    B.inputs({In}).outputs({Out});
  }
};

/// in -> FULLY_CONNECTED(w, b) -> out with the given scales.
struct FcGraph {
  GraphBuilder B;
  int32_t In, W, Bias, Out;
  FcGraph(float InScale, ir::QuantParams WQ,
          std::optional<ir::QuantParams> BiasQ, float OutScale) {
    In = B.tensor("in", {1, 8}, perTensor(InScale, 0));
    int32_t Units =
        static_cast<int32_t>(WQ.isPerChannel() ? WQ.Scales.size() : 3);
    W = B.constant("w", {Units, 8}, WQ);
    Bias = B.constant("b", {Units}, BiasQ, ir::DType::I32);
    Out = B.tensor("out", {1, Units}, perTensor(OutScale, 0));
    B.op("FULLY_CONNECTED", {In, W, Bias}, {Out});
    B.inputs({In}).outputs({Out});
  }
};

} // namespace

TEST_CASE("same_scale: holding, or over float tensors, changes nothing") {
  PoolGraph P(perTensor(0.25f, 0), perTensor(0.25f, 0));
  ir::Graph Before = P.B.G;
  std::vector<Rejection> Why;
  size_t Op = 0;
  for (A Act : {A::Reject, A::InsertRequantizeBefore, A::InsertRequantizeAfter})
    CHECK(apply(P.B.G, Op, R::SameScale, Act, Why) == QuantOutcome::Unchanged);
  CHECK(Why.empty());
  test::checkSameGraph(Before, P.B.G);

  GraphBuilder F;
  int32_t X = F.tensor("x", {4}, std::nullopt, ir::DType::F32);
  int32_t Y = F.tensor("y", {4}, std::nullopt, ir::DType::F32);
  F.op("MAX_POOL_2D", {X}, {Y});
  F.inputs({X}).outputs({Y});
  CHECK(apply(F.G, Op, R::SameScale, A::Reject, Why) ==
        QuantOutcome::Unchanged);
}

TEST_CASE("same_scale, reject: the graph is unchanged and the message names "
          "the parameters") {
  PoolGraph P;
  ir::Graph Before = P.B.G;
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(P.B.G, Op, R::SameScale, A::Reject, Why) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Before, P.B.G);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_same_scale");
  CHECK(Why[0].Message ==
        "input(0).scale = 0.5, input(0).zero_point = 1; output(0).scale = "
        "0.25, output(0).zero_point = 0; must have the same scale and zero "
        "point");
}

TEST_CASE("same_scale, insert_requantize_before: the input is requantized to "
          "the output's parameters") {
  PoolGraph P;
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(P.B.G, Op, R::SameScale, A::InsertRequantizeBefore, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(Why.empty());
  const ir::Graph &G = P.B.G;
  CHECK(Op == 1);
  REQUIRE(test::opTypes(G) ==
          std::vector<std::string>{"REQUANTIZE", "MAX_POOL_2D"});
  const ir::Operator &Req = G.Operators[0];
  CHECK(Req.getString(QuantRuleAttr) == "same_scale");
  CHECK(Req.Inputs == std::vector<int32_t>{P.In});
  REQUIRE(Req.Outputs.size() == 1);
  int32_t New = Req.Outputs[0];
  CHECK(G.Operators[1].Inputs == std::vector<int32_t>{New});
  CHECK(G.tensor(New).Shape == G.tensor(P.In).Shape);
  CHECK(G.tensor(New).Type == ir::DType::I8);
  CHECK(G.tensor(New).Name == "in/requantized");
  CHECK(sameQuantParams(*G.tensor(New).Quant, perTensor(0.25f, 0)));
  // The original input keeps its parameters and role.
  CHECK(sameQuantParams(*G.tensor(P.In).Quant, perTensor(0.5f, 1)));
  CHECK(G.Inputs == std::vector<int32_t>{P.In});
  // The rule holds now.
  CHECK(apply(P.B.G, Op, R::SameScale, A::Reject, Why) ==
        QuantOutcome::Unchanged);
}

TEST_CASE("same_scale, insert_requantize_after: the operator writes the "
          "input's parameters and a requantize restores the output") {
  PoolGraph P;
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(P.B.G, Op, R::SameScale, A::InsertRequantizeAfter, Why) ==
        QuantOutcome::InsertedRequantize);
  const ir::Graph &G = P.B.G;
  CHECK(Op == 0);
  REQUIRE(test::opTypes(G) ==
          std::vector<std::string>{"MAX_POOL_2D", "REQUANTIZE"});
  int32_t Mid = G.Operators[0].Outputs[0];
  CHECK(Mid != P.Out);
  CHECK(G.tensor(Mid).Name == "out/pre_requantize");
  CHECK(sameQuantParams(*G.tensor(Mid).Quant, perTensor(0.5f, 1)));
  CHECK(G.Operators[1].Inputs == std::vector<int32_t>{Mid});
  CHECK(G.Operators[1].Outputs == std::vector<int32_t>{P.Out});
  CHECK(sameQuantParams(*G.tensor(P.Out).Quant, perTensor(0.25f, 0)));
  CHECK(G.Outputs == std::vector<int32_t>{P.Out});
}

TEST_CASE("same_scale with two inputs: either action makes every operand "
          "agree") {
  auto Build = [] {
    GraphBuilder B;
    int32_t X = B.tensor("x", {4}, perTensor(0.5f, 0));
    int32_t Y = B.tensor("y", {4}, perTensor(0.25f, 0));
    int32_t Out = B.tensor("out", {8}, perTensor(0.25f, 0));
    int32_t Axis = B.constant("axis", {1}, std::nullopt, ir::DType::I32);
    B.op("CONCATENATION", {X, Y, Axis}, {Out});
    B.inputs({X, Y}).outputs({Out});
    return B.G;
  };
  std::vector<Rejection> Why;

  // Before: only x differs from the output.
  ir::Graph G = Build();
  size_t Op = 0;
  CHECK(apply(G, Op, R::SameScale, A::InsertRequantizeBefore, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(G) ==
        std::vector<std::string>{"REQUANTIZE", "CONCATENATION"});
  CHECK(Op == 1);
  CHECK(G.Operators[1].Inputs[1] == 1);
  CHECK(G.Operators[1].Inputs[2] == 3); // the axis is not an operand of it

  // After: x is the reference; y is requantized before, the output after.
  G = Build();
  Op = 0;
  CHECK(apply(G, Op, R::SameScale, A::InsertRequantizeAfter, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(G) ==
        std::vector<std::string>{"REQUANTIZE", "CONCATENATION", "REQUANTIZE"});
  CHECK(Op == 1);
  for (int32_t T : {G.Operators[1].Inputs[0], G.Operators[1].Inputs[1],
                    G.Operators[1].Outputs[0]})
    CHECK(sameQuantParams(*G.tensor(T).Quant, perTensor(0.5f, 0)));
  CHECK(apply(G, Op, R::SameScale, A::Reject, Why) == QuantOutcome::Unchanged);
  CHECK(Why.empty());
}

TEST_CASE("same_scale: an action that cannot apply rejects and says why") {
  // The output has no parameters to requantize the input to.
  PoolGraph P;
  P.B.G.Tensors[P.Out].Quant.reset();
  ir::Graph Before = P.B.G;
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(P.B.G, Op, R::SameScale, A::InsertRequantizeBefore, Why) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Before, P.B.G);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_same_scale");
  CHECK(llvm::StringRef(Why[0].Message)
            .endswith("(insert_requantize_before cannot apply: output(0) is "
                      "not quantized)"));
}

TEST_CASE("forward_output_to_inputs fills in missing input parameters") {
  GraphBuilder B;
  int32_t In = B.tensor("in", {2, 8});
  int32_t Shape = B.constant("shape", {2}, std::nullopt, ir::DType::I32);
  int32_t Out = B.tensor("out", {16}, perTensor(0.125f, -3));
  B.op("RESHAPE", {In, Shape}, {Out});
  B.inputs({In}).outputs({Out});
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(B.G, Op, R::ForwardOutputToInputs, A::Reject, Why) ==
        QuantOutcome::UpdatedParams);
  CHECK(Why.empty());
  REQUIRE(B.G.tensor(In).Quant.has_value());
  CHECK(sameQuantParams(*B.G.tensor(In).Quant, perTensor(0.125f, -3)));
  CHECK_FALSE(B.G.tensor(Shape).Quant.has_value());
  CHECK(B.G.Operators.size() == 1);
  // Once filled in, it holds as it is.
  CHECK(apply(B.G, Op, R::ForwardOutputToInputs, A::Reject, Why) ==
        QuantOutcome::Unchanged);
}

TEST_CASE("forward_output_to_inputs: differing input parameters") {
  auto Build = [] {
    GraphBuilder B;
    int32_t In = B.tensor("in", {2, 8}, perTensor(0.5f, 2));
    int32_t Shape = B.constant("shape", {2}, std::nullopt, ir::DType::I32);
    int32_t Out = B.tensor("out", {16}, perTensor(0.125f, -3));
    B.op("RESHAPE", {In, Shape}, {Out});
    B.inputs({In}).outputs({Out});
    return B.G;
  };
  std::vector<Rejection> Why;
  size_t Op = 0;

  ir::Graph G = Build();
  CHECK(apply(G, Op, R::ForwardOutputToInputs, A::Reject, Why) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Build(), G);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_forward_output_to_inputs");
  CHECK(Why[0].Message ==
        "input(0).scale = 0.5, input(0).zero_point = 2; output(0).scale = "
        "0.125, output(0).zero_point = -3; must have the same scale and zero "
        "point");

  G = Build();
  CHECK(apply(G, Op, R::ForwardOutputToInputs, A::InsertRequantizeBefore,
              Why) == QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(G) == std::vector<std::string>{"REQUANTIZE", "RESHAPE"});
  CHECK(Op == 1);
  CHECK(sameQuantParams(*G.tensor(G.Operators[1].Inputs[0]).Quant,
                        perTensor(0.125f, -3)));
  CHECK(G.Operators[1].Inputs[1] == 1);

  G = Build();
  Op = 0;
  CHECK(apply(G, Op, R::ForwardOutputToInputs, A::InsertRequantizeAfter, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(G) == std::vector<std::string>{"RESHAPE", "REQUANTIZE"});
  CHECK(sameQuantParams(*G.tensor(G.Operators[0].Outputs[0]).Quant,
                        perTensor(0.5f, 2)));
  CHECK(G.Operators[1].Outputs == std::vector<int32_t>{2});
  CHECK(Why.size() == 1);
}

TEST_CASE("forward_output_to_inputs holds when the output is not quantized") {
  PoolGraph P;
  P.B.G.Tensors[P.Out].Quant.reset();
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(P.B.G, Op, R::ForwardOutputToInputs, A::Reject, Why) ==
        QuantOutcome::Unchanged);
}

TEST_CASE("bias_scale_product holds per channel up to float32 rounding") {
  float In = 0.1f;
  std::vector<float> W = {0.3f, 0.07f, 0.011f};
  std::vector<float> Bias;
  for (float S : W)
    Bias.push_back(In * S); // the product rounded to float32, as converters do
  FcGraph F(In, perChannel(W, 0), perChannel(Bias, 0), 1.0f);
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Unchanged);
  // Per-tensor weights and bias.
  FcGraph T(0.5f, perTensor(0.25f, 0), perTensor(0.125f, 0), 1.0f);
  CHECK(apply(T.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Unchanged);
  // Without a bias there is nothing to relate.
  T.B.G.Operators[0].Inputs[2] = -1;
  CHECK(apply(T.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Unchanged);
  CHECK(Why.empty());
}

TEST_CASE("bias_scale_product: a wrong bias scale") {
  auto Build = [] {
    return FcGraph(0.5f, perChannel({0.25f, 0.5f, 0.125f}, 0),
                   perChannel({0.125f, 0.2f, 0.0625f}, 0), 1.0f);
  };
  std::vector<Rejection> Why;
  size_t Op = 0;

  FcGraph F = Build();
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Rejected);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_bias_scale_product");
  CHECK(Why[0].Message == "input(2).scale[1] = 0.2, must be input(0).scale * "
                          "input(1).scale[1] = 0.5 * 0.5 = 0.25");

  // Before: the bias is read through a requantize to the product.
  F = Build();
  Why.clear();
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::InsertRequantizeBefore, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(Why.empty());
  const ir::Graph &G = F.B.G;
  CHECK(test::opTypes(G) ==
        std::vector<std::string>{"REQUANTIZE", "FULLY_CONNECTED"});
  CHECK(Op == 1);
  int32_t NewBias = G.Operators[1].Inputs[2];
  CHECK(G.Operators[0].Inputs == std::vector<int32_t>{F.Bias});
  CHECK(G.tensor(NewBias).Type == ir::DType::I32);
  CHECK_FALSE(G.tensor(NewBias).IsConstant);
  CHECK(sameQuantParams(*G.tensor(NewBias).Quant,
                        perChannel({0.125f, 0.25f, 0.0625f}, 0)));

  // After cannot change an input.
  F = Build();
  ir::Graph Before = F.B.G;
  Op = 0;
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::InsertRequantizeAfter, Why) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Before, F.B.G);
  REQUIRE(Why.size() == 1);
  CHECK(llvm::StringRef(Why[0].Message).contains("cannot apply"));
}

TEST_CASE("bias_scale_product: a relative error of 1e-5 is too much") {
  float Product = 0.5f * 0.25f;
  FcGraph F(0.5f, perTensor(0.25f, 0), perTensor(Product * (1 + 1e-5f), 0), 1.0f);
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Rejected);
  F.B.G.Tensors[F.Bias].Quant = perTensor(Product * (1 + 2e-7f), 0);
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Unchanged);
}

TEST_CASE("bias_scale_product: channel counts must agree") {
  FcGraph F(0.5f, perChannel({0.25f, 0.5f, 0.125f}, 0), perTensor(0.125f, 0), 1.0f);
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::BiasScaleProduct, A::Reject, Why) ==
        QuantOutcome::Rejected);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].Message == "input(2) has 1 scales, input(1) has 3; bias and "
                          "weights must have as many");
}

TEST_CASE("fixed_output") {
  QuantRuleParams P;
  P.Scale = 0.00390625;
  P.ZeroPoint = -128;
  auto Build = [] {
    GraphBuilder B;
    int32_t In = B.tensor("in", {1, 10}, perTensor(0.1f, 0));
    int32_t Out = B.tensor("out", {1, 10}, perTensor(0.0078125f, 0));
    B.op("SOFTMAX", {In}, {Out}, {{"beta", 1.0}});
    B.inputs({In}).outputs({Out});
    return B.G;
  };
  std::vector<Rejection> Why;
  size_t Op = 0;

  ir::Graph G = Build();
  G.Tensors[1].Quant = perTensor(0.00390625f, -128);
  CHECK(apply(G, Op, R::FixedOutput, A::Reject, Why, P) ==
        QuantOutcome::Unchanged);

  G = Build();
  CHECK(apply(G, Op, R::FixedOutput, A::Reject, Why, P) ==
        QuantOutcome::Rejected);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_fixed_output");
  CHECK(Why[0].Message ==
        "output(0).scale = 0.0078125, output(0).zero_point = 0; must be "
        "output(0).scale = 0.00390625, output(0).zero_point = -128");

  G = Build();
  CHECK(apply(G, Op, R::FixedOutput, A::InsertRequantizeAfter, Why, P) ==
        QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(G) == std::vector<std::string>{"SOFTMAX", "REQUANTIZE"});
  CHECK(sameQuantParams(*G.tensor(G.Operators[0].Outputs[0]).Quant,
                        perTensor(0.00390625f, -128)));
  CHECK(G.Operators[1].Outputs == std::vector<int32_t>{1});
  CHECK(sameQuantParams(*G.tensor(1).Quant, perTensor(0.0078125f, 0)));

  G = Build();
  Why.clear();
  CHECK(apply(G, Op, R::FixedOutput, A::InsertRequantizeBefore, Why, P) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Build(), G);
  REQUIRE(Why.size() == 1);
  CHECK(llvm::StringRef(Why[0].Message)
            .endswith("(insert_requantize_before cannot apply: the rule "
                      "constrains the output)"));
}

namespace {

/// input(0).scale * input(1).scale < output(0).scale, as generated.
bool fcScaleRatio(const ir::Graph &G, const ir::Operator &Op,
                  std::string &Message) {
  double In = G.tensor(Op.input(0)).Quant->scale();
  double W = G.tensor(Op.input(1)).Quant->scale();
  double Out = G.tensor(Op.output(0)).Quant->scale();
  if (In * W < Out)
    return true;
  Message = "input(0).scale * input(1).scale = " + formatScale(In * W) +
            ", must be below output(0).scale = " + formatScale(Out);
  return false;
}

bool never(const ir::Graph &, const ir::Operator &, std::string &Message) {
  Message = "never holds";
  return false;
}

QuantRuleParams checkParams(QuantCheckFn Fn, std::string Id) {
  QuantRuleParams P;
  P.Check = Fn;
  P.CheckId = std::move(Id);
  return P;
}

} // namespace

TEST_CASE("check: the predicate decides and rejections carry its id") {
  QuantRuleParams P = checkParams(fcScaleRatio, "fc_scale_ratio");
  std::vector<Rejection> Why;
  size_t Op = 0;
  FcGraph Ok(0.5f, perTensor(0.5f, 0), perTensor(0.25f, 0), 0.5f);
  CHECK(apply(Ok.B.G, Op, R::Check, A::Reject, Why, P) ==
        QuantOutcome::Unchanged);

  FcGraph Bad(0.5f, perTensor(0.5f, 0), perTensor(0.25f, 0), 0.2f);
  CHECK(apply(Bad.B.G, Op, R::Check, A::Reject, Why, P) ==
        QuantOutcome::Rejected);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "fc_scale_ratio");
  CHECK(Why[0].Message ==
        "input(0).scale * input(1).scale = 0.25, must be below "
        "output(0).scale = 0.2");

  Why.clear();
  CHECK(apply(Bad.B.G, Op, R::Check, A::Reject, Why,
              checkParams(fcScaleRatio, "")) == QuantOutcome::Rejected);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "quant_check");
}

TEST_CASE("check, insert_requantize_after: the operator keeps its input's "
          "scale and a requantize rescales") {
  QuantRuleParams P = checkParams(fcScaleRatio, "fc_scale_ratio");
  FcGraph F(0.5f, perTensor(0.5f, 0), perTensor(0.25f, 0), 0.2f);
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::Check, A::InsertRequantizeAfter, Why, P) ==
        QuantOutcome::InsertedRequantize);
  CHECK(Why.empty());
  const ir::Graph &G = F.B.G;
  CHECK(test::opTypes(G) ==
        std::vector<std::string>{"FULLY_CONNECTED", "REQUANTIZE"});
  CHECK(sameQuantParams(*G.tensor(G.Operators[0].Outputs[0]).Quant,
                        perTensor(0.5f, 0)));
  CHECK(G.Operators[1].Outputs == std::vector<int32_t>{F.Out});
  CHECK(G.Operators[1].getString(QuantRuleAttr) == "check");
}

TEST_CASE("check, insert_requantize_before: the non-constant inputs take the "
          "output's parameters") {
  QuantRuleParams P = checkParams(fcScaleRatio, "fc_scale_ratio");
  FcGraph F(0.5f, perTensor(0.5f, 0), perTensor(0.25f, 0), 0.2f);
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::Check, A::InsertRequantizeBefore, Why, P) ==
        QuantOutcome::InsertedRequantize);
  const ir::Graph &G = F.B.G;
  CHECK(test::opTypes(G) ==
        std::vector<std::string>{"REQUANTIZE", "FULLY_CONNECTED"});
  CHECK(Op == 1);
  CHECK(sameQuantParams(*G.tensor(G.Operators[1].Inputs[0]).Quant,
                        perTensor(0.2f, 0)));
  // The weights and bias are read as they were.
  CHECK(G.Operators[1].Inputs[1] == F.W);
  CHECK(G.Operators[1].Inputs[2] == F.Bias);
}

TEST_CASE("check: a requantize that does not help is undone") {
  QuantRuleParams P = checkParams(never, "never");
  FcGraph F(0.5f, perTensor(0.5f, 0), perTensor(0.25f, 0), 0.2f);
  ir::Graph Before = F.B.G;
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(F.B.G, Op, R::Check, A::InsertRequantizeAfter, Why, P) ==
        QuantOutcome::Rejected);
  test::checkSameGraph(Before, F.B.G);
  CHECK(Op == 0);
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].ConstraintId == "never");
  CHECK(Why[0].Message == "never holds (still fails after "
                          "insert_requantize_after: never holds)");
}

TEST_CASE("rules applied in sequence follow the operator as it moves") {
  // As a generated SetupQuantParam does: a before rule, then an after rule
  // on the same OpIndex variable.
  PoolGraph P(perTensor(0.5f, 1), perTensor(0.25f, 0));
  QuantRuleParams Fixed;
  Fixed.Scale = 0.125;
  Fixed.ZeroPoint = 0;
  test::FakeSetup Setup("MAX_POOL_2D", "T_MAX_POOL",
                        {{R::SameScale, A::InsertRequantizeBefore, {}},
                         {R::FixedOutput, A::InsertRequantizeAfter, Fixed}});
  std::vector<Rejection> Why;
  CHECK(Setup.SetupQuantParam(P.B.G, 0, 0, Why) ==
        QuantOutcome::InsertedRequantize);
  test::checkValid(P.B.G);
  const ir::Graph &G = P.B.G;
  REQUIRE(test::opTypes(G) ==
          std::vector<std::string>{"REQUANTIZE", "MAX_POOL_2D", "REQUANTIZE"});
  const ir::Operator &Pool = G.Operators[1];
  CHECK(sameQuantParams(*G.tensor(Pool.Inputs[0]).Quant, perTensor(0.25f, 0)));
  CHECK(sameQuantParams(*G.tensor(Pool.Outputs[0]).Quant, perTensor(0.125f, 0)));
  CHECK(G.Operators[2].Outputs == std::vector<int32_t>{P.Out});
  CHECK(G.Operators[0].getString(QuantRuleAttr) == "same_scale");
  CHECK(G.Operators[2].getString(QuantRuleAttr) == "fixed_output");
}

TEST_CASE("an operator reading one tensor twice gets one requantize") {
  GraphBuilder B;
  int32_t X = B.tensor("x", {4}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {4}, perTensor(0.25f, 0));
  B.op("ADD", {X, X}, {Out});
  B.inputs({X}).outputs({Out});
  std::vector<Rejection> Why;
  size_t Op = 0;
  CHECK(apply(B.G, Op, R::SameScale, A::InsertRequantizeBefore, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(test::opTypes(B.G) == std::vector<std::string>{"REQUANTIZE", "ADD"});
  CHECK(B.G.Operators[1].Inputs[0] == B.G.Operators[1].Inputs[1]);
  CHECK(B.G.Operators[1].Inputs[0] == B.G.Operators[0].Outputs[0]);
}

TEST_CASE("parameter comparison and description") {
  CHECK(scalesClose(0.1, 0.1 * (1 + 5e-7)));
  CHECK_FALSE(scalesClose(0.1, 0.1 * (1 + 5e-6)));
  CHECK(scalesClose(0.0, 0.0));
  CHECK_FALSE(sameQuantParams(perTensor(0.5f, 0), perTensor(0.5f, 1)));
  CHECK_FALSE(sameQuantParams(perChannel({0.5f, 0.5f}, 0),
                              perChannel({0.5f, 0.5f}, 1)));
  CHECK(describeQuant("input(1)", perChannel({0.5f, 0.25f}, 3)) ==
        "input(1).scale = [0.5, 0.25], input(1).zero_point = [0, 0] (per "
        "channel, axis 3)");
  CHECK(formatScale(0.1f) == "0.1");

  ir::Tensor T;
  T.Shape = {2, 3};
  CHECK(quantFits(T, perTensor(1.0f, 0)));
  CHECK(quantFits(T, perChannel({1, 2, 3}, 1)));
  CHECK_FALSE(quantFits(T, perChannel({1, 2, 3}, 0)));
  CHECK_FALSE(quantFits(T, perChannel({1, 2, 3}, 2)));
}
