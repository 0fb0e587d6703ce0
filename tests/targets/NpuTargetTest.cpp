//===- NpuTargetTest.cpp - The npu target's generated code at work --------===//
//
// targets/npu/npu.td describes an Ethos-U class NPU under Vela's operator
// rules. These tests run what accelgen-tblgen generated from it on
// hand-built graphs: the stride, pool-window and depth-multiplier limits,
// int8 only, and the fused activation (a convolution followed by RELU or
// RELU6 becomes NPU_CONV_2D or NPU_DEPTHWISE_CONV_2D). Then each constraint's
// generated boundary cases run as a test of its own. Running the shared
// models on the target is TargetRunTest's, which covers every target with a
// functional model.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "../target/TargetLibTestSupport.h"

#include "target/ConstraintProbe.h"
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/PatternMatcher.h"
#include "target/TargetInfo.h"

#include <map>

#define GET_LEGALITY_DECL
#include "Legality.inc"
#define GET_CONSTRAINT_TESTS_DECL
#define GET_CONSTRAINT_TESTS_IMPL
#include "ConstraintTests.inc"

using namespace accelgen;
namespace npu = accelgen::targets::npu;
using namespace accelgen::target;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

constexpr unsigned U55 = 0, U65 = 1;

using Attrs = std::map<std::string, ir::AttrValue>;

Attrs convAttrs(Attrs Extra = {}) {
  Attrs A = {{"padding", std::string("SAME")},
             {"stride_h", int64_t(1)},
             {"stride_w", int64_t(1)},
             {"dilation_h", int64_t(1)},
             {"dilation_w", int64_t(1)},
             {"fused_activation", std::string("NONE")}};
  for (auto &[K, V] : Extra)
    A[K] = V;
  return A;
}

/// A [1, 8, 8, 8] int8 (or \p Type) input, a CONV_2D (or \p Op) with a 3 x 3
/// filter, then, when \p Act is set, that activation.
struct ConvGraph {
  GraphBuilder B;
  ConvGraph(const char *Op, Attrs Extra, const char *Act = nullptr,
            ir::DType Type = ir::DType::I8) {
    const bool Depthwise = std::string(Op) == "DEPTHWISE_CONV_2D";
    int32_t In = B.tensor("in", {1, 8, 8, 8}, perTensor(0.5f, 0), Type);
    int32_t W = B.constant("w", Depthwise ? std::vector<int32_t>{1, 3, 3, 8}
                                          : std::vector<int32_t>{8, 3, 3, 8},
                           perTensor(0.25f, 0), Type);
    int32_t Bias = B.constant("b", {8}, perTensor(0.125f, 0), ir::DType::I32);
    int32_t Out = B.tensor("out", {1, 8, 8, 8}, perTensor(1.0f, 0), Type);
    if (Depthwise)
      Extra.emplace("depth_multiplier", int64_t(1));
    B.op(Op, {In, W, Bias}, {Out}, convAttrs(std::move(Extra)));
    std::vector<int32_t> Outs = {Out};
    if (Act) {
      int32_t R = B.tensor("act", {1, 8, 8, 8}, perTensor(1.0f, 0), Type);
      B.op(Act, {Out}, {R});
      Outs = {R};
    }
    B.inputs({In}).outputs(Outs);
  }
};

/// The ids of the constraints operator \p Index of \p G fails at \p V.
std::vector<std::string> rejected(const ir::Graph &G, unsigned V,
                                  size_t Index = 0) {
  auto T = test::builtinTarget("npu");
  const ir::Operator &Op = G.Operators[Index];
  const OpSetup *S = T->opSetup(Op.Type);
  REQUIRE(S);
  std::vector<Rejection> Why;
  bool Legal = S->IsSupported(G, Op, V, Why);
  CHECK(Legal == Why.empty());
  std::vector<std::string> Ids;
  for (const Rejection &R : Why)
    Ids.push_back(R.ConstraintId);
  return Ids;
}

} // namespace

TEST_CASE("the npu target knows its name, versions and functional model") {
  auto T = test::builtinTarget("npu");
  CHECK(T->name() == "npu");
  CHECK(T->versions() == std::vector<std::string>{"55", "65"});
  CHECK(T->versionLabel(U65) == "npu65");
  CHECK(T->hasFunctionalModel());
  CHECK(T->switchCycles() == 2000);
}

TEST_CASE("convolution strides 1 to 3 run on the NPU, 4 does not") {
  for (int64_t S : {1, 2, 3}) {
    ConvGraph G("CONV_2D", {{"stride_h", S}, {"stride_w", S}});
    CHECK(rejected(G.B.G, U55).empty());
  }
  ConvGraph G("CONV_2D", {{"stride_w", int64_t(4)}});
  for (unsigned V : {U55, U65})
    CHECK(rejected(G.B.G, V) == std::vector<std::string>{"npu_stride"});
}

TEST_CASE("only int8 runs on the NPU") {
  ConvGraph G("CONV_2D", {}, nullptr, ir::DType::U8);
  CHECK(rejected(G.B.G, U55) == std::vector<std::string>{"dtype"});
}

TEST_CASE("a depth multiplier above 1 needs a single input channel") {
  ConvGraph G("DEPTHWISE_CONV_2D", {{"depth_multiplier", int64_t(2)}});
  G.B.G.Operators[0].Attrs["depth_multiplier"] = int64_t(2);
  CHECK(rejected(G.B.G, U55) ==
        std::vector<std::string>{"npu_depth_multiplier"});
}

TEST_CASE("a SAME average pool is held to an 8 x 8 window") {
  for (int64_t Size : {8, 9}) {
    GraphBuilder B;
    int32_t In = B.tensor("in", {1, 16, 16, 8}, perTensor(0.5f, 0));
    int32_t Out = B.tensor("out", {1, 16, 16, 8}, perTensor(0.5f, 0));
    B.op("AVERAGE_POOL_2D", {In}, {Out},
         {{"padding", std::string("SAME")},
          {"stride_h", int64_t(1)},
          {"stride_w", int64_t(1)},
          {"filter_h", Size},
          {"filter_w", Size},
          {"fused_activation", std::string("NONE")}});
    B.inputs({In}).outputs({Out});
    CAPTURE(Size);
    CHECK(rejected(B.G, U55) ==
          (Size == 8 ? std::vector<std::string>{}
                     : std::vector<std::string>{"npu_avgpool_same_window"}));
  }
}

TEST_CASE("a RELU or RELU6 after a convolution is fused into it") {
  auto T = test::builtinTarget("npu");
  const std::pair<const char *, const char *> Cases[] = {
      {"CONV_2D", "NPU_CONV_2D"},
      {"DEPTHWISE_CONV_2D", "NPU_DEPTHWISE_CONV_2D"}};
  for (const auto &[Op, Fused] : Cases)
    for (const char *Act : {"RELU", "RELU6"}) {
      // A structured binding cannot be captured (the macro's lambda).
      const auto &OpRef = Op;
      CAPTURE(OpRef);
      CAPTURE(Act);
      ConvGraph G(Op, {}, Act);
      REQUIRE(fusePatterns(G.B.G, T->patterns(), U55) == 1);
      REQUIRE(G.B.G.Operators.size() == 1);
      CHECK(G.B.G.Operators[0].Type == Fused);
      CHECK(G.B.G.Operators[0].getString(FusedOpsAttr) ==
            std::string(Op) + "+" + Act);
    }
  // A convolution with an activation of its own keeps the RELU apart.
  ConvGraph Own("CONV_2D", {{"fused_activation", std::string("RELU6")}},
                "RELU");
  std::vector<MatchRejection> Why;
  CHECK(findMatches(Own.B.G, T->patterns(), U55, &Why).empty());
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].Why == std::vector<std::string>{
                          "npu_conv_no_activation: conv.fused_activation = "
                          "\"RELU6\", must be \"NONE\""});
}

#define ACCELGEN_PROBE_TARGET npu
#define ACCELGEN_PROBE_NAMESPACE npu
#include "testing/ConstraintProbeTests.h"
