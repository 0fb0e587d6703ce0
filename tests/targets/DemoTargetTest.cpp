//===- DemoTargetTest.cpp - The demo target's generated code at work ------===//
//
// The demo target is built from targets/demo/demo.td by accelgen-tblgen.
// These tests run what was generated on hand-built graphs, through the
// library passes a user calls: legality with every failing constraint and
// its hint, mappings by benefit, quantization rules, fusion patterns with
// their typed capture structs, version inheritance and removal. Then every
// constraint's generated boundary cases run as a test of its own.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "../target/TargetLibTestSupport.h"

#include "target/ConstraintProbe.h"
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/Legalize.h"
#include "target/PatternMatcher.h"
#include "target/TargetInfo.h"

#define GET_LEGALITY_DECL
#include "Legality.inc"
#define GET_OPSETUP_DECL
#include "OpSetups.inc"
#define GET_PATTERNS_DECL
#include "Patterns.inc"
#define GET_CONSTRAINT_TESTS_DECL
#define GET_CONSTRAINT_TESTS_IMPL
#include "ConstraintTests.inc"

using namespace accelgen;
namespace demo = accelgen::targets::demo;
using namespace accelgen::target;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

constexpr unsigned V1 = 0, V2 = 1, V3 = 2;

/// NHWC input [1, 8, 8, C] -> conv with a [O, 3, 3, I] filter, symmetric
/// per-channel weights and bias scales of input x weight -> [1, 8, 8, O].
struct ConvGraph {
  GraphBuilder B;
  size_t Conv;
  int32_t Out;

  ConvGraph(int32_t C, int32_t O, int32_t FilterIn,
            std::map<std::string, ir::AttrValue> Attrs = {}) {
    int32_t In = B.tensor("in", {1, 8, 8, C}, perTensor(0.5f, 0));
    int32_t W = B.constant("w", {O, 3, 3, FilterIn},
                           ir::perChannel(std::vector<float>(O, 0.25f), 0));
    int32_t Bias = B.constant("b", {O},
                              ir::perChannel(std::vector<float>(O, 0.125f), 0),
                              ir::DType::I32);
    Out = B.tensor("out", {1, 8, 8, O}, perTensor(1.0f, 0));
    std::map<std::string, ir::AttrValue> A = {
        {"padding", std::string("SAME")}, {"stride_h", int64_t(1)},
        {"stride_w", int64_t(1)},         {"dilation_h", int64_t(1)},
        {"dilation_w", int64_t(1)},       {"fused_activation", std::string("NONE")}};
    for (auto &[K, V] : Attrs)
      A[K] = V;
    B.op("CONV_2D", {In, W, Bias}, {Out}, A);
    Conv = B.G.Operators.size() - 1;
    B.inputs({In}).outputs({Out});
  }
};

std::unique_ptr<TargetInfo> demoTarget() { return test::builtinTarget("demo"); }

std::vector<std::string> ids(const std::vector<Rejection> &Why) {
  std::vector<std::string> Ids;
  for (const Rejection &R : Why)
    Ids.push_back(R.ConstraintId);
  return Ids;
}

} // namespace

TEST_CASE("the demo target knows its name, versions and operators") {
  auto T = demoTarget();
  CHECK(T->name() == "demo");
  CHECK(T->versions() == std::vector<std::string>{"1.0", "2.0", "3.0"});
  CHECK(T->opNames() ==
        std::vector<std::string>{"ADD", "AVERAGE_POOL_2D", "CONV_2D",
                                 "DEPTHWISE_CONV_2D", "FULLY_CONNECTED",
                                 "LOGISTIC", "MAX_POOL_2D", "RELU", "RESHAPE",
                                 "SOFTMAX"});
  CHECK(T->patterns().size() == 2);
  CHECK(demo::NumLegalityTables == 10);
}

TEST_CASE("legality lists every failing constraint with its hint") {
  auto T = demoTarget();
  ConvGraph C(8, 16, 8,
              {{"stride_h", int64_t(5)}, {"dilation_w", int64_t(2)}});
  const ir::Operator &Op = C.B.G.Operators[C.Conv];
  const OpSetup *S = T->opSetup("CONV_2D");
  REQUIRE(S);
  std::vector<Rejection> Why;
  CHECK_FALSE(S->IsSupported(C.B.G, Op, V1, Why));
  REQUIRE(ids(Why) ==
          std::vector<std::string>{"stride_at_most_4", "conv_no_dilation"});
  CHECK(Why[0].Message == "stride_h = 5, stride_w = 1: stride must be in [1, 4]");
  CHECK(Why[1].Message ==
        "dilation_h = 1, dilation_w = 2: dilation is not supported");
  CHECK(Why[1].Hint == "legal from demo2.0");

  // 2.0 inherits the stride rule and replaces the dilation rule.
  Why.clear();
  CHECK_FALSE(S->IsSupported(C.B.G, Op, V2, Why));
  CHECK(ids(Why) == std::vector<std::string>{"stride_at_most_4"});
}

TEST_CASE("a later version overrides a constraint by id") {
  auto T = demoTarget();
  ConvGraph C(512, 16, 512);
  const OpSetup *S = T->opSetup("CONV_2D");
  std::vector<Rejection> Why;
  CHECK_FALSE(S->IsSupported(C.B.G, C.B.G.Operators[C.Conv], V1, Why));
  REQUIRE(ids(Why) == std::vector<std::string>{"conv_channels"});
  CHECK(Why[0].Message == "input(0).channels = 512, must be at most 256");
  CHECK(Why[0].Hint ==
        "relaxed on demo2.0: input channels must be at most 1024");
  Why.clear();
  CHECK(S->IsSupported(C.B.G, C.B.G.Operators[C.Conv], V2, Why));
  CHECK(Why.empty());
}

TEST_CASE("types: i16 conv activations are legal from demo3.0") {
  auto T = demoTarget();
  ConvGraph C(8, 16, 8);
  C.B.G.tensor(0).Type = ir::DType::I16;
  const OpSetup *S = T->opSetup("CONV_2D");
  std::vector<Rejection> Why;
  CHECK_FALSE(S->IsSupported(C.B.G, C.B.G.Operators[C.Conv], V2, Why));
  REQUIRE(ids(Why) == std::vector<std::string>{"dtype"});
  CHECK(Why[0].Hint == "i16 is legal from demo3.0");
  Why.clear();
  CHECK(S->IsSupported(C.B.G, C.B.G.Operators[C.Conv], V3, Why));
}

TEST_CASE("weights quantized in a scheme the version does not list") {
  auto T = demoTarget();
  ConvGraph C(8, 16, 8);
  C.B.G.tensor(1).Quant = perTensor(0.25f, 0);
  std::vector<Rejection> Why;
  CHECK_FALSE(
      T->opSetup("CONV_2D")->IsSupported(C.B.G, C.B.G.Operators[C.Conv], V1, Why));
  REQUIRE(ids(Why) == std::vector<std::string>{"weight_scheme"});
  CHECK(Why[0].Message == "weights are symmetric_per_tensor, must be one of "
                          "{symmetric_per_channel, asymmetric_per_tensor}");
}

TEST_CASE("a removed operator is unavailable from its version on") {
  auto T = demoTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 4}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 4}, perTensor(1.0f / 256, -128));
  B.op("LOGISTIC", {In}, {Out});
  const OpSetup *S = T->opSetup("LOGISTIC");
  std::vector<Rejection> Why;
  CHECK(S->IsSupported(B.G, B.G.Operators[0], V2, Why));
  CHECK_FALSE(S->IsSupported(B.G, B.G.Operators[0], V3, Why));
  REQUIRE(ids(Why) == std::vector<std::string>{"not_available"});
  CHECK(Why[0].Hint == "legal up to demo2.0");
}

TEST_CASE("mappings: CONV_2D becomes depthwise, group or plain conv") {
  auto T = demoTarget();
  const OpSetup *S = T->opSetup("CONV_2D");
  SUBCASE("one input channel per group: depthwise, depth multiplier set") {
    ConvGraph C(8, 8, 1);
    ir::Operator New = S->CreateOperation(C.B.G, C.B.G.Operators[C.Conv], V1);
    CHECK(New.Type == "DEMO_DEPTHWISE_CONV_2D");
    CHECK(New.getInt("depth_multiplier") == 1);
    CHECK(New.Inputs == C.B.G.Operators[C.Conv].Inputs);
  }
  SUBCASE("groups of four channels: group conv") {
    ConvGraph C(8, 8, 4);
    CHECK(S->CreateOperation(C.B.G, C.B.G.Operators[C.Conv], V1).Type ==
          "DEMO_GROUP_CONV_2D");
  }
  SUBCASE("one group: plain conv") {
    ConvGraph C(8, 8, 8);
    CHECK(S->CreateOperation(C.B.G, C.B.G.Operators[C.Conv], V1).Type ==
          "DEMO_CONV_2D");
  }
}

TEST_CASE("legalize: a graph of demo operators, one rejected with reasons") {
  auto T = demoTarget();
  ConvGraph C(8, 16, 8);
  int32_t Pooled = C.B.tensor("pooled", {1, 4, 4, 16}, perTensor(1.0f, 0));
  C.B.op("MAX_POOL_2D", {C.Out}, {Pooled},
         {{"padding", std::string("VALID")}, {"stride_h", int64_t(8)},
          {"stride_w", int64_t(2)}, {"filter_h", int64_t(2)},
          {"filter_w", int64_t(2)}, {"fused_activation", std::string("NONE")}});
  C.B.outputs({Pooled});
  LegalizeReport R = legalize(C.B.G, *T, V1);
  REQUIRE(R.Ops.size() == 2);
  CHECK(R.Target == "demo1.0");
  CHECK(R.Ops[0].Legal);
  CHECK(R.Ops[0].Type == "DEMO_CONV_2D");
  CHECK_FALSE(R.Ops[1].Legal);
  REQUIRE(ids(R.Ops[1].Why) == std::vector<std::string>{"stride_at_most_4"});
  CHECK(R.Ops[1].Why[0].Message ==
        "stride_h = 8, stride_w = 2: stride must be in [1, 4]");
  CHECK(R.numLegal() == 1);
  test::checkValid(C.B.G);
}

TEST_CASE("quantization: softmax output must have the fixed range") {
  auto T = demoTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 10}, perTensor(0.5f, 3));
  int32_t Out = B.tensor("out", {1, 10}, perTensor(1.0f / 256, -128));
  B.op("SOFTMAX", {In}, {Out}, {{"beta", 1.0}});
  const OpSetup *S = T->opSetup("SOFTMAX");
  std::vector<Rejection> Why;
  CHECK(S->SetupQuantParam(B.G, 0, V2, Why) == QuantOutcome::Unchanged);
  CHECK(Why.empty());
  // The rule's action is Reject: another output range is refused.
  B.G.tensor(Out).Quant = perTensor(0.5f, 0);
  CHECK(S->SetupQuantParam(B.G, 0, V2, Why) == QuantOutcome::Rejected);
  REQUIRE(ids(Why) == std::vector<std::string>{"quant_fixed_output"});
  INFO(Why[0].Message);
  CHECK(Why[0].Message.find("0.00390625") != std::string::npos);
}

TEST_CASE("quantization: a check that fails inserts a requantize after") {
  auto T = demoTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 64}, perTensor(0.5f, 0));
  int32_t W = B.constant("w", {16, 64}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 16}, perTensor(0.1f, 0));
  B.op("FULLY_CONNECTED", {In, W, -1}, {Out},
       {{"fused_activation", std::string("NONE")}});
  B.inputs({In}).outputs({Out});
  std::vector<Rejection> Why;
  // 0.5 x 0.5 >= 0.1 fails fc_scale_ratio on demo1.0 only.
  CHECK(T->opSetup("FULLY_CONNECTED")->SetupQuantParam(B.G, 0, V2, Why) ==
        QuantOutcome::Unchanged);
  CHECK(T->opSetup("FULLY_CONNECTED")->SetupQuantParam(B.G, 0, V1, Why) ==
        QuantOutcome::InsertedRequantize);
  CHECK(Why.empty());
  CHECK(test::opTypes(B.G) ==
        std::vector<std::string>{"FULLY_CONNECTED", "REQUANTIZE"});
  test::checkValid(B.G);
}

TEST_CASE("patterns: conv + relu fuses on every version, conv + add from 2.0") {
  auto T = demoTarget();
  auto Build = [](const char *Second) {
    auto C = std::make_unique<ConvGraph>(8, 16, 8);
    int32_t Other = C->B.tensor("other", {1, 8, 8, 16}, perTensor(1.0f, 0));
    int32_t Out = C->B.tensor("final", {1, 8, 8, 16}, perTensor(1.0f, 0));
    if (std::string(Second) == "RELU")
      C->B.op("RELU", {C->Out}, {Out});
    else
      C->B.op("ADD", {C->Out, Other}, {Out},
              {{"fused_activation", std::string("NONE")}});
    C->B.inputs({0, Other}).outputs({Out});
    return C;
  };

  auto Relu = Build("RELU");
  std::vector<FoundMatch> M = findMatches(Relu->B.G, T->patterns(), V1);
  REQUIRE(M.size() == 1);
  demo::ConvReluMatch Captures = demo::ConvReluMatch::from(M[0].Match);
  CHECK(Captures.act == 1);
  CHECK(Captures.conv == 0);
  CHECK(Captures.x == 0);
  CHECK(Captures.w == 1);
  CHECK(Captures.b == 2);
  applyMatches(Relu->B.G, M);
  CHECK(test::opTypes(Relu->B.G) == std::vector<std::string>{"DEMO_CONV_2D"});

  auto Add1 = Build("ADD");
  CHECK(fusePatterns(Add1->B.G, T->patterns(), V1) == 0);
  auto Add2 = Build("ADD");
  REQUIRE(fusePatterns(Add2->B.G, T->patterns(), V2) == 1);
  REQUIRE(Add2->B.G.Operators.size() == 1);
  const ir::Operator &Fused = Add2->B.G.Operators[0];
  CHECK(Fused.Type == "DEMO_CONV_ADD");
  // (DEMO_CONV_ADD $x, $w, $b, $y)
  CHECK(Fused.Inputs == std::vector<int32_t>{0, 1, 2, 4});
}

TEST_CASE("patterns: the RELU_FUSABLE set matches each convolution and "
          "picks its layer") {
  // demo.td: RELU_FUSABLE is CONV_2D -> DEMO_CONV_2D and DEPTHWISE_CONV_2D ->
  // DEMO_DEPTHWISE_CONV_2D; a FULLY_CONNECTED is no member.
  auto T = demoTarget();
  const std::map<std::string, std::string> Expected = {
      {"CONV_2D", "DEMO_CONV_2D"},
      {"DEPTHWISE_CONV_2D", "DEMO_DEPTHWISE_CONV_2D"},
      {"FULLY_CONNECTED", ""}};
  for (const auto &[Type, Layer] : Expected) {
    // A structured binding cannot be captured (the macro's lambda).
    const auto &TypeRef = Type;
    CAPTURE(TypeRef);
    ConvGraph C(8, 16, 8);
    C.B.G.Operators[C.Conv].Type = Type;
    int32_t Out = C.B.tensor("final", {1, 8, 8, 16}, perTensor(1.0f, 0));
    C.B.op("RELU", {C.Out}, {Out});
    C.B.outputs({Out});
    std::vector<FoundMatch> M = findMatches(C.B.G, T->patterns(), V1);
    REQUIRE(M.size() == (Layer.empty() ? 0u : 1u));
    if (Layer.empty())
      continue;
    CHECK(std::string(M[0].Pattern->Name) == "ConvRelu");
    CHECK(demo::ConvReluMatch::from(M[0].Match).conv ==
          static_cast<int32_t>(C.Conv));
    applyMatches(C.B.G, M);
    CHECK(test::opTypes(C.B.G) == std::vector<std::string>{Layer});
  }
}

TEST_CASE("patterns: a failing pattern constraint names itself") {
  auto T = demoTarget();
  ConvGraph C(8, 16, 8, {{"fused_activation", std::string("RELU6")}});
  int32_t Out = C.B.tensor("final", {1, 8, 8, 16}, perTensor(1.0f, 0));
  C.B.op("RELU", {C.Out}, {Out});
  C.B.outputs({Out});
  std::vector<MatchRejection> Rejected;
  CHECK(findMatches(C.B.G, T->patterns(), V1, &Rejected).empty());
  REQUIRE(Rejected.size() == 1);
  CHECK(Rejected[0].Why ==
        std::vector<std::string>{"conv_relu_no_act: conv.fused_activation = "
                                 "\"RELU6\", must be \"NONE\""});
}

TEST_CASE("costs: estimated cycles per version, from the description") {
  auto T = demoTarget();
  // 2048 outputs, each 3 x 3 x 16 MACs: 294912.
  ConvGraph C(16, 32, 16);
  const ir::Operator &Op = C.B.G.Operators[C.Conv];
  // macs / 256 on 1.0; macs / 512 from 2.0 on, 3.0 inheriting it.
  CHECK(T->estimateCycles(C.B.G, Op, V1) == 1152.0);
  CHECK(T->estimateCycles(C.B.G, Op, V2) == 576.0);
  CHECK(T->estimateCycles(C.B.G, Op, V3) == 576.0);
  CHECK(demo::estimateCycles(C.B.G, Op, V1) == 1152.0);
  CHECK_FALSE(demo::estimateCycles(C.B.G, Op, 3));
  // No cost for RELU; none for a type the description does not know.
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 64}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 64}, perTensor(0.5f, 0));
  B.op("RELU", {In}, {Out});
  CHECK_FALSE(T->estimateCycles(B.G, B.G.Operators[0], V1));
  B.G.Operators[0].Type = "NOT_AN_OPERATOR";
  CHECK_FALSE(T->estimateCycles(B.G, B.G.Operators[0], V2));

  CHECK(T->switchCycles() == 100);
  CHECK(demo::TargetSwitchCycles == 100);
}

TEST_CASE("costs: select, max, ceil and floor in estimates") {
  auto T = demoTarget();
  // DEPTHWISE_CONV_2D: macs / 64 when stride_h > 1, else macs / 128.
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t W = B.constant("w", {1, 3, 3, 16}, perTensor(0.25f, 0));
  int32_t Out = B.tensor("out", {1, 8, 8, 16}, perTensor(1.0f, 0));
  B.op("DEPTHWISE_CONV_2D", {In, W, -1}, {Out},
       {{"stride_h", int64_t(1)}, {"depth_multiplier", int64_t(1)}});
  // 1024 outputs x 9 MACs.
  CHECK(T->estimateCycles(B.G, B.G.Operators[0], V1) == 72.0);
  B.G.Operators[0].Attrs["stride_h"] = int64_t(2);
  CHECK(T->estimateCycles(B.G, B.G.Operators[0], V3) == 144.0);

  // FULLY_CONNECTED: max(macs / 256, 16).
  GraphBuilder F;
  int32_t FIn = F.tensor("in", {1, 64}, perTensor(0.5f, 0));
  int32_t FW = F.constant("w", {16, 64}, perTensor(0.5f, 0));
  int32_t FOut = F.tensor("out", {1, 16}, perTensor(0.5f, 0));
  F.op("FULLY_CONNECTED", {FIn, FW, -1}, {FOut});
  CHECK(T->estimateCycles(F.G, F.G.Operators[0], V1) == 16.0);
  F.G.tensor(FW).Shape = {16, 1024};
  CHECK(T->estimateCycles(F.G, F.G.Operators[0], V1) == 64.0);

  // ADD: floor(output(0).num_elements / 32.0) + 1.
  GraphBuilder A;
  int32_t X = A.tensor("x", {1, 100}, perTensor(0.5f, 0));
  int32_t Y = A.tensor("y", {1, 100}, perTensor(0.5f, 0));
  int32_t Sum = A.tensor("sum", {1, 100}, perTensor(0.5f, 0));
  A.op("ADD", {X, Y}, {Sum});
  CHECK(T->estimateCycles(A.G, A.G.Operators[0], V2) == 4.0);

  // AVERAGE_POOL_2D: ceil(min(filter_h * filter_w, 64) * outputs / 64.0).
  GraphBuilder P;
  int32_t PIn = P.tensor("in", {1, 8, 8, 3}, perTensor(0.5f, 0));
  int32_t POut = P.tensor("out", {1, 2, 2, 3}, perTensor(0.5f, 0));
  P.op("AVERAGE_POOL_2D", {PIn}, {POut},
       {{"filter_h", int64_t(3)}, {"filter_w", int64_t(3)}});
  CHECK(T->estimateCycles(P.G, P.G.Operators[0], V1) == 2.0); // 108 / 64
  P.G.Operators[0].Attrs["filter_w"] = int64_t(100);
  CHECK(T->estimateCycles(P.G, P.G.Operators[0], V1) == 12.0); // 768 / 64
}

TEST_CASE("costs: mapped and fused target operators have their own") {
  auto T = demoTarget();
  // 20 input channels: the target conv reads them in groups of 16, as 32.
  ConvGraph C(20, 32, 20);
  ir::Operator Mapped = T->opSetup("CONV_2D")->CreateOperation(
      C.B.G, C.B.G.Operators[C.Conv], V1);
  REQUIRE(Mapped.Type == "DEMO_CONV_2D");
  // 2048 outputs x 3 x 3 x 32 = 589824.
  CHECK(T->estimateCycles(C.B.G, Mapped, V1) == 2304.0);
  CHECK(T->estimateCycles(C.B.G, Mapped, V2) == 1152.0);
  CHECK(T->estimateCycles(C.B.G, Mapped, V3) == 1152.0);
  // analysis counts no MACs for DEMO_CONV_2D; the framework conv has them.
  CHECK(T->estimateCycles(C.B.G, C.B.G.Operators[C.Conv], V1) ==
        2048.0 * 180 / 256);

  // DEMO_CONV_ADD exists from 2.0 on, and so does its cost.
  ConvGraph D(16, 16, 16);
  int32_t Other = D.B.tensor("other", {1, 8, 8, 16}, perTensor(1.0f, 0));
  int32_t Out = D.B.tensor("final", {1, 8, 8, 16}, perTensor(1.0f, 0));
  D.B.op("ADD", {D.Out, Other}, {Out},
         {{"fused_activation", std::string("NONE")}});
  D.B.inputs({0, Other}).outputs({Out});
  REQUIRE(fusePatterns(D.B.G, T->patterns(), V2) == 1);
  const ir::Operator &Fused = D.B.G.Operators[0];
  REQUIRE(Fused.Type == "DEMO_CONV_ADD");
  CHECK_FALSE(T->estimateCycles(D.B.G, Fused, V1));
  // 1024 x 3 x 3 x 16 / 512 + 1024 / 32.
  CHECK(T->estimateCycles(D.B.G, Fused, V2) == 288.0 + 32.0);
}

TEST_CASE("every probed constraint has a generated boundary test") {
  // Every operator constraint of demo.td but dw_filter_square (a C++
  // function).
  std::vector<std::string> Probed;
  for (unsigned I = 0; I < demo::NumConstraintProbes; ++I)
    Probed.push_back(demo::ConstraintProbes[I].Id);
  CHECK(Probed == std::vector<std::string>{
                      "input_rank_4", "weights_constant", "stride_at_most_4",
                      "conv_no_dilation", "conv_channels", "conv_dilation",
                      "conv_channels", "dw_multiplier_1", "fc_per_tensor",
                      "fc_depth", "pool_filter", "add_same_shape",
                      "softmax_beta", "map_dw",
                      "map_group", "fc_scale_ratio"});
}

TEST_CASE("runConstraintProbe reports wrong verdicts and unbuildable cases") {
  const ProbeRef Refs[] = {
      {ProbeRef::AttrInt, false, "stride_h", 0, 0, "stride_h"},
      {ProbeRef::AttrInt, false, "stride_w", 0, 0, "stride_w"},
  };
  const ProbeValue Values[] = {{4}, {1}, {5}, {1}, {1}, {0}, {9}, {9}};
  const ProbeCase Cases[] = {{0, true, "base", nullptr},
                             {2, true, "stride_h = 5", nullptr},
                             {4, false, "stride_w = 0", nullptr},
                             {6, true, "both 9", "no reason"}};
  ConstraintProbe P = {"stride_at_most_4", "stride_h in [1, 4]",
                       demo::check_stride_at_most_4, 2, Refs, 4, Cases,
                       Values};
  ProbeResult R = runConstraintProbe(P);
  CHECK(R.Failures ==
        std::vector<std::string>{
            "stride_at_most_4 with stride_h = 5: `stride_h in [1, 4]` fails, "
            "expected it to hold (stride_h = 5, stride_w = 1: stride must be "
            "in [1, 4])"});
  // Not constructible: reported, not run.
  CHECK(R.NotConstructible ==
        std::vector<std::string>{
            "stride_at_most_4 with both 9: not constructible: no reason"});
  CHECK(R.Run == 3);

  // input(0).dim(3) cannot be set on a 3-D input: a table calling that
  // constructible is wrong.
  const ProbeRef Shape[] = {
      {ProbeRef::Rank, false, nullptr, 0, 0, "input(0).rank"},
      {ProbeRef::Dim, false, nullptr, 0, 3, "input(0).dim(3)"},
  };
  const ProbeValue ShapeValues[] = {{3}, {1}};
  const ProbeCase ShapeCases[] = {{0, true, "base", nullptr}};
  ConstraintProbe Q = {"input_rank_4", "input(0).rank == 4",
                       demo::check_input_rank_4, 2, Shape, 1, ShapeCases,
                       ShapeValues};
  CHECK(runConstraintProbe(Q).Failures ==
        std::vector<std::string>{
            "input_rank_4 with base: the table calls the case constructible, "
            "but input(0).dim(3) reads as 0, not 1"});
}

TEST_CASE("runConstraintProbe builds dtypes, absent operands, flags, scales") {
  // input(2) absent (dtype none), a constant i16 input(1) with a per-channel
  // scale of 0.25, and a string attribute.
  const ProbeRef Refs[] = {
      {ProbeRef::DType, false, nullptr, 2, 0, "input(2).dtype"},
      {ProbeRef::DType, false, nullptr, 1, 0, "input(1).dtype"},
      {ProbeRef::IsConstant, false, nullptr, 1, 0, "input(1).is_constant"},
      {ProbeRef::Scale, false, nullptr, 1, 0, "input(1).scale"},
      {ProbeRef::PerChannel, false, nullptr, 1, 0, "input(1).per_channel"},
      {ProbeRef::AttrString, false, "padding", 0, 0, "padding"},
  };
  const ProbeValue Values[] = {{ProbeDTypeNone},
                               {int64_t(ir::DType::I16)},
                               {1},
                               {0, 0.25},
                               {1},
                               {0, 0, "SAME"}};
  const ProbeCase Case = {0, true, "base", nullptr};
  ConstraintProbe P = {"p", "", nullptr, 6, Refs, 1, &Case, Values};
  ir::Graph G = probeGraph(P, Case);
  const ir::Operator &Op = G.Operators.front();
  REQUIRE(Op.Inputs.size() == 3);
  CHECK(Op.Inputs[2] == -1);
  const ir::Tensor &W = G.Tensors[Op.Inputs[1]];
  CHECK(W.Type == ir::DType::I16);
  CHECK(W.IsConstant);
  REQUIRE(W.Quant);
  CHECK(W.Quant->Scales == std::vector<float>{0.25f, 0.25f});
  CHECK(std::get<std::string>(Op.Attrs.at("padding")) == "SAME");
}

// One test per constraint: "DemoTargetTest:demo/<constraint>".
#define ACCELGEN_PROBE_TARGET demo
#define ACCELGEN_PROBE_NAMESPACE demo
#include "testing/ConstraintProbeTests.h"

//===----------------------------------------------------------------------===//
// Device semantics
//===----------------------------------------------------------------------===//

namespace {

/// The layouts \p OpType computes in at \p Version, by name.
std::vector<std::string> layoutsAt(const TargetInfo &T, unsigned Version,
                                   llvm::StringRef OpType) {
  DeviceRules R = T.deviceRules(Version);
  std::vector<std::string> Names;
  for (size_t I = 0; I < R.layouts().size(); ++I)
    if (R.layoutsOf(OpType) >> I & 1u)
      Names.push_back(R.layouts()[I].Name);
  return Names;
}

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("device layouts: a rule holds from its version until a later one "
          "for the same operators; one naming an operator wins") {
  auto T = demoTarget();
  // Every operator: NHWC on 1.0, NHWC and 16C from 2.0.
  CHECK(layoutsAt(*T, 0, "RELU") == Names{"NHWC"});
  CHECK(layoutsAt(*T, 1, "RELU") == Names{"NHWC", "16C"});
  CHECK(layoutsAt(*T, 2, "RELU") == Names{"NHWC", "16C"});
  // CONV_2D has a residency rule of its own, not a layout rule.
  CHECK(layoutsAt(*T, 0, "CONV_2D") == Names{"NHWC"});
  CHECK(layoutsAt(*T, 2, "CONV_2D") == Names{"NHWC", "16C"});
  // The pools: 16C only from 1.0, not replaced by the 2.0 rule for every
  // operator; MAX_POOL_2D takes both layouts again from 3.0.
  for (unsigned V : {0u, 1u, 2u})
    CHECK(layoutsAt(*T, V, "AVERAGE_POOL_2D") == Names{"16C"});
  CHECK(layoutsAt(*T, 1, "MAX_POOL_2D") == Names{"16C"});
  CHECK(layoutsAt(*T, 2, "MAX_POOL_2D") == Names{"NHWC", "16C"});
  // Padding: 16C pads channels to 16 bytes, NHWC not at all.
  DeviceRules R = T->deviceRules(1);
  REQUIRE(R.onlyLayout("AVERAGE_POOL_2D"));
  CHECK(R.onlyLayout("AVERAGE_POOL_2D")->channelAlign(2) == 8);
  CHECK(R.onlyLayout("RELU") == nullptr);
  CHECK(T->deviceRules(0).onlyLayout("RELU")->channelAlign(1) == 1);
}

TEST_CASE("device storage and residency by version") {
  auto T = demoTarget();
  CHECK_FALSE(T->hasFunctionalModel());
  const std::optional<ir::QuantParams> Asymmetric = perTensor(0.5f, 7);
  CHECK(T->deviceRules(0).storedAs(ir::DType::I8, Asymmetric) ==
        ir::DType::U8);
  CHECK(T->deviceRules(0).storedAs(ir::DType::I8, perTensor(0.5f, 0)) ==
        ir::DType::I8);
  CHECK(T->deviceRules(1).storedAs(ir::DType::I8, Asymmetric) == ir::DType::I8);
  CHECK(T->deviceRules(2).storedAs(ir::DType::I8, Asymmetric) == ir::DType::I8);
  // Fused intermediates stay in the device from 2.0, a CONV_2D's not from
  // 3.0.
  CHECK_FALSE(T->deviceRules(0).keepsFusedIntermediates("CONV_2D"));
  CHECK_FALSE(T->deviceRules(0).keepsFusedIntermediates("RELU"));
  CHECK(T->deviceRules(1).keepsFusedIntermediates("CONV_2D"));
  CHECK(T->deviceRules(1).keepsFusedIntermediates("RELU"));
  CHECK_FALSE(T->deviceRules(2).keepsFusedIntermediates("CONV_2D"));
  CHECK(T->deviceRules(2).keepsFusedIntermediates("RELU"));
  // Out of range: no rules.
  CHECK(T->deviceRules(3).layoutsOf("RELU") == 0u);
}
