//===- LegalizeTest.cpp - The legalization pass and its report ------------===//
//
// A hand-written target (converters shaped like generated ones) legalizes
// small graphs: legal operators become target operators, the others keep
// their type with every reason listed, quantization rules insert requantize
// operators that are legalized in turn or reject and leave the operator as it
// was, and fused operators pass through.
//
//===----------------------------------------------------------------------===//
#include "TargetLibTestSupport.h"

#include "target/Legalize.h"
#include "target/PatternMatcher.h"
#include "target/TargetInfo.h"

using namespace accelgen;
using namespace accelgen::target;
using test::FakeRule;
using test::FakeSetup;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

using R = QuantRelation;
using A = QuantAction;

/// "fake" 1.0 and 2.0: CONV_2D, RELU, MAX_POOL_2D (same scale, requantize
/// before), SOFTMAX (fixed output, reject), and REQUANTIZE when asked.
std::unique_ptr<TargetInfo> makeFake(bool WithRequantize) {
  auto T = std::make_unique<TargetInfo>("fake",
                                        std::vector<std::string>{"1.0", "2.0"});
  T->addOpSetup(std::make_unique<FakeSetup>("CONV_2D", "FAKE_CONV_2D"));
  T->addOpSetup(std::make_unique<FakeSetup>("RELU", "FAKE_RELU"));
  T->addOpSetup(std::make_unique<FakeSetup>(
      "MAX_POOL_2D", "FAKE_MAX_POOL_2D",
      std::vector<FakeRule>{{R::SameScale, A::InsertRequantizeBefore, {}}}));
  QuantRuleParams Fixed;
  Fixed.Scale = 0.00390625;
  Fixed.ZeroPoint = -128;
  T->addOpSetup(std::make_unique<FakeSetup>(
      "SOFTMAX", "FAKE_SOFTMAX",
      std::vector<FakeRule>{{R::SameScale, A::InsertRequantizeAfter, {}},
                            {R::FixedOutput, A::Reject, Fixed}}));
  if (WithRequantize)
    T->addOpSetup(std::make_unique<FakeSetup>("REQUANTIZE", "FAKE_REQUANTIZE"));
  return T;
}

/// in -> CONV_2D(stride 5) -> a -> RELU -> b -> SQRT -> c -> MAX_POOL_2D
/// -> out, the pool's input and output differently quantized.
ir::Graph mixedGraph() {
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 2}, perTensor(0.5f, 0));
  int32_t W = B.constant("w", {2, 1, 1, 2}, perTensor(0.25f, 0));
  int32_t A = B.tensor("a", {1, 2, 2, 2}, perTensor(0.5f, 0));
  int32_t Bt = B.tensor("b", {1, 2, 2, 2}, perTensor(0.5f, 0));
  int32_t C = B.tensor("c", {1, 2, 2, 2}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 1, 1, 2}, perTensor(0.25f, 0));
  B.op("CONV_2D", {In, W, -1}, {A}, {{"stride_h", int64_t(5)}});
  B.op("RELU", {A}, {Bt});
  B.op("SQRT", {Bt}, {C});
  B.op("MAX_POOL_2D", {C}, {Out});
  B.inputs({In}).outputs({Out});
  return B.G;
}

} // namespace

TEST_CASE("legalization converts legal operators and explains the others") {
  std::unique_ptr<TargetInfo> T = makeFake(/*WithRequantize=*/true);
  ir::Graph G = mixedGraph();
  LegalizeReport Report = legalize(G, *T, 1);
  test::checkValid(G);
  CHECK(Report.Target == "fake2.0");

  CHECK(test::opTypes(G) == std::vector<std::string>{"CONV_2D", "FAKE_RELU",
                                                     "SQRT", "FAKE_REQUANTIZE",
                                                     "FAKE_MAX_POOL_2D"});
  REQUIRE(Report.Ops.size() == G.Operators.size());
  CHECK(Report.numLegal() == 3);

  const OpLegalization &Conv = Report.Ops[0];
  CHECK(Conv.OriginalIndex == 0);
  CHECK(Conv.OriginalType == "CONV_2D");
  CHECK(Conv.Type == "CONV_2D");
  CHECK_FALSE(Conv.Legal);
  REQUIRE(Conv.Why.size() == 1);
  CHECK(Conv.Why[0].ConstraintId == "stride_at_most_4");
  CHECK(Conv.Why[0].Message == "stride_h = 5, must be in [1, 4]");
  CHECK(Conv.Why[0].Hint == "legal from fake2.0");

  const OpLegalization &Relu = Report.Ops[1];
  CHECK(Relu.OriginalIndex == 1);
  CHECK(Relu.Legal);
  CHECK(Relu.Type == "FAKE_RELU");
  CHECK(Relu.Why.empty());
  CHECK(Relu.Quant == QuantOutcome::Unchanged);

  const OpLegalization &Sqrt = Report.Ops[2];
  CHECK(Sqrt.OriginalIndex == 2);
  CHECK_FALSE(Sqrt.Legal);
  REQUIRE(Sqrt.Why.size() == 1);
  CHECK(Sqrt.Why[0].ConstraintId == "unsupported_operator");
  CHECK(Sqrt.Why[0].Message == "operator SQRT is not supported by target "
                               "fake: no rule of its description names this "
                               "operator");

  const OpLegalization &Req = Report.Ops[3];
  CHECK(Req.OriginalIndex == -1);
  CHECK(Req.OriginalType == "REQUANTIZE");
  CHECK(Req.Type == "FAKE_REQUANTIZE");
  CHECK(Req.Legal);
  CHECK(G.Operators[3].getString(QuantRuleAttr) == "same_scale");

  const OpLegalization &Pool = Report.Ops[4];
  CHECK(Pool.OriginalIndex == 3);
  CHECK(Pool.Legal);
  CHECK(Pool.Quant == QuantOutcome::InsertedRequantize);
  CHECK(Pool.Type == "FAKE_MAX_POOL_2D");
}

TEST_CASE("a requantize the target cannot run is reported as unsupported") {
  std::unique_ptr<TargetInfo> T = makeFake(/*WithRequantize=*/false);
  ir::Graph G = mixedGraph();
  LegalizeReport Report = legalize(G, *T, 0);
  test::checkValid(G);
  REQUIRE(Report.Ops.size() == 5);
  CHECK(Report.Target == "fake1.0");
  CHECK(G.Operators[3].Type == "REQUANTIZE");
  CHECK_FALSE(Report.Ops[3].Legal);
  REQUIRE(Report.Ops[3].Why.size() == 1);
  CHECK(Report.Ops[3].Why[0].ConstraintId == "unsupported_operator");
  CHECK(Report.Ops[4].Legal);
}

TEST_CASE("a quantization rejection leaves the operator as it was") {
  // SOFTMAX: same_scale inserts a requantize after, then fixed_output
  // rejects; the requantize must go again.
  std::unique_ptr<TargetInfo> T = makeFake(/*WithRequantize=*/true);
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 10}, perTensor(0.1f, 0));
  int32_t Out = B.tensor("out", {1, 10}, perTensor(0.0078125f, 0));
  B.op("SOFTMAX", {In}, {Out});
  B.inputs({In}).outputs({Out});
  ir::Graph Before = B.G;
  LegalizeReport Report = legalize(B.G, *T, 0);
  test::checkSameGraph(Before, B.G);
  REQUIRE(Report.Ops.size() == 1);
  const OpLegalization &E = Report.Ops[0];
  CHECK_FALSE(E.Legal);
  CHECK(E.Type == "SOFTMAX");
  CHECK(E.Quant == QuantOutcome::Rejected);
  REQUIRE(E.Why.size() == 1);
  CHECK(E.Why[0].ConstraintId == "quant_fixed_output");
}

TEST_CASE("fused operators are target operators already") {
  std::unique_ptr<TargetInfo> T = makeFake(/*WithRequantize=*/true);
  GraphBuilder B;
  int32_t In = B.tensor("in", {4}, perTensor(0.5f, 0));
  int32_t Mid = B.tensor("mid", {4}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {4}, perTensor(0.5f, 0));
  B.op("FAKE_CONV_RELU", {In}, {Mid},
       {{FusedOpsAttr, std::string("CONV_2D+RELU")}});
  B.op("RELU", {Mid}, {Out});
  B.inputs({In}).outputs({Out});
  LegalizeReport Report = legalize(B.G, *T, 0);
  REQUIRE(Report.Ops.size() == 2);
  CHECK(Report.Ops[0].Legal);
  CHECK(Report.Ops[0].Type == "FAKE_CONV_RELU");
  CHECK(Report.Ops[0].Why.empty());
  CHECK(Report.Ops[1].Legal);
  CHECK(Report.Ops[1].OriginalIndex == 1);
}

TEST_CASE("every failing constraint is listed, not only the first") {
  std::unique_ptr<TargetInfo> T = makeFake(/*WithRequantize=*/true);
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 2}, perTensor(0.5f, 0), ir::DType::U8);
  int32_t W = B.constant("w", {2, 1, 1, 2}, perTensor(0.25f, 0));
  int32_t Out = B.tensor("out", {1, 2, 2, 2}, perTensor(0.5f, 0));
  B.op("CONV_2D", {In, W}, {Out}, {{"stride_h", int64_t(6)}});
  B.inputs({In}).outputs({Out});
  LegalizeReport Report = legalize(B.G, *T, 0);
  REQUIRE(Report.Ops.size() == 1);
  REQUIRE(Report.Ops[0].Why.size() == 2);
  CHECK(Report.Ops[0].Why[0].ConstraintId == "dtype");
  CHECK(Report.Ops[0].Why[1].ConstraintId == "stride_at_most_4");
}
