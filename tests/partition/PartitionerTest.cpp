//===- PartitionerTest.cpp - Fusion, placement, subgraphs and costs -------===//
//
// The partitioner on small hand-built graphs with the demo target (and ref as
// the CPU): a fused group stands for its operators, an illegal operator stays
// on the CPU with its reasons, runs of accelerator operators form subgraphs
// with their boundary tensors, and a subgraph that costs more than the CPU
// goes back to it.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "../target/TargetLibTestSupport.h"

#include "partition/Partitioner.h"
#include "target/TargetInfo.h"

using namespace accelgen;
using namespace accelgen::partition;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

std::map<std::string, ir::AttrValue> convAttrs(int64_t Stride) {
  return {{"padding", std::string("SAME")},
          {"stride_h", Stride},
          {"stride_w", Stride},
          {"dilation_h", int64_t(1)},
          {"dilation_w", int64_t(1)},
          {"fused_activation", std::string("NONE")}};
}

/// in -> CONV_2D -> RELU -> CONV_2D (stride S2) -> MAX_POOL_2D -> out.
ir::Graph chain(int64_t SecondStride) {
  GraphBuilder B;
  auto Conv = [&](int32_t In, const char *Name, int64_t Stride) {
    int32_t W = B.constant(std::string(Name) + ".w", {8, 3, 3, 8},
                           ir::perChannel(std::vector<float>(8, 0.25f), 0));
    int32_t Bias = B.constant(
        std::string(Name) + ".b", {8},
        ir::perChannel(std::vector<float>(8, 0.125f), 0), ir::DType::I32);
    int32_t Out = B.tensor(Name, {1, 8, 8, 8}, perTensor(0.5f, 0));
    B.op("CONV_2D", {In, W, Bias}, {Out}, convAttrs(Stride));
    return Out;
  };
  int32_t In = B.tensor("in", {1, 8, 8, 8}, perTensor(0.5f, 0));
  int32_t A = Conv(In, "a", 1);
  int32_t Relu = B.tensor("relu", {1, 8, 8, 8}, perTensor(0.5f, 0));
  B.op("RELU", {A}, {Relu});
  int32_t C = Conv(Relu, "c", SecondStride);
  int32_t Out = B.tensor("out", {1, 4, 4, 8}, perTensor(0.5f, 0));
  B.op("MAX_POOL_2D", {C}, {Out},
       {{"padding", std::string("VALID")},
        {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)},
        {"filter_h", int64_t(2)},
        {"filter_w", int64_t(2)},
        {"fused_activation", std::string("NONE")}});
  B.inputs({In}).outputs({Out});
  return B.G;
}

std::vector<std::string> types(const PartitionResult &R) {
  std::vector<std::string> T;
  for (const PlacedOp &P : R.Ops)
    T.push_back(P.Type + "@" + deviceName(P.Placement));
  return T;
}

} // namespace

TEST_CASE("fusion, placement and subgraphs") {
  auto Demo = test::builtinTarget("demo");
  auto Ref = test::builtinTarget("ref");
  PartitionOptions Opts;
  Opts.Cpu = Ref.get();
  PartitionResult R = partition::partition(chain(5), *Demo, 0, Opts);
  CHECK(R.Target == "demo1.0");
  REQUIRE(types(R) == std::vector<std::string>{"DEMO_CONV_2D@accelerator",
                                               "CONV_2D@cpu",
                                               "MAX_POOL_2D@accelerator"});
  CHECK(R.Ops[0].Sources == std::vector<int64_t>{0, 1});
  CHECK(R.Ops[0].SourceType == "CONV_2D+RELU");
  CHECK(R.Ops[1].Sources == std::vector<int64_t>{2});
  REQUIRE(R.Ops[1].Why.size() == 1);
  CHECK(R.Ops[1].Why[0].ConstraintId == "stride_at_most_4");
  CHECK(R.Ops[1].Why[0].Message ==
        "stride_h = 5, stride_w = 5: stride must be in [1, 4]");
  CHECK(R.Ops[2].Sources == std::vector<int64_t>{3});

  REQUIRE(R.Subgraphs.size() == 2);
  CHECK(R.Subgraphs[0].Ops == std::vector<size_t>{0});
  CHECK(R.Subgraphs[0].Inputs == std::vector<int32_t>{0});  // in
  CHECK(R.Subgraphs[0].Outputs == std::vector<int32_t>{4}); // relu
  CHECK(R.Subgraphs[1].Ops == std::vector<size_t>{2});
  CHECK(R.Subgraphs[1].Outputs == std::vector<int32_t>{R.Graph.Outputs[0]});
  CHECK(R.Ops[0].Subgraph == 0);
  CHECK(R.Ops[1].Subgraph == -1);
  CHECK(R.Ops[2].Subgraph == 1);
  CHECK(R.numOnAccelerator() == 2);
  test::checkValid(R.Graph);
}

TEST_CASE("an illegal operator is never fused") {
  // The first conv with stride 5 cannot go to the accelerator, so CONV+RELU
  // must not fuse around it.
  ir::Graph G = chain(1);
  G.Operators[0].Attrs["stride_h"] = int64_t(5);
  auto Demo = test::builtinTarget("demo");
  PartitionResult R = partition::partition(G, *Demo, 0);
  CHECK(types(R) == std::vector<std::string>{"CONV_2D@cpu", "RELU@accelerator",
                                             "DEMO_CONV_2D@accelerator",
                                             "MAX_POOL_2D@accelerator"});
  CHECK(R.Subgraphs.size() == 1);
}

TEST_CASE("a subgraph that costs more than the CPU goes back to it") {
  auto Demo = test::builtinTarget("demo");
  Demo->setCostModel([](const ir::Graph &, const ir::Operator &Op,
                        unsigned) -> std::optional<double> {
    if (Op.Type == "MAX_POOL_2D")
      return 1e9;
    return 10.0;
  });
  Demo->setSwitchCycles(100);
  PartitionResult R = partition::partition(chain(5), *Demo, 0);
  REQUIRE(types(R) == std::vector<std::string>{"DEMO_CONV_2D@accelerator",
                                               "CONV_2D@cpu",
                                               "MAX_POOL_2D@cpu"});
  REQUIRE(R.Ops[2].Why.size() == 1);
  CHECK(R.Ops[2].Why[0].ConstraintId == "cost");
  // 8x8 output pixels of 8 channels over a 2x2 window: 128 elements, no MACs.
  CHECK(R.Ops[2].Why[0].Message ==
        "1000000000 accelerator cycles + 200 switch cycles >= 128 on the CPU");
  REQUIRE(R.Subgraphs.size() == 1);
  CHECK(R.Subgraphs[0].Cycles == 10.0);
  CHECK(R.Subgraphs[0].SwitchCycles == 200.0);
  CHECK(R.acceleratorCycles() == 210.0);

  SUBCASE("without the cost model it stays") {
    PartitionOptions Opts;
    Opts.UseCostModel = false;
    CHECK(partition::partition(chain(5), *Demo, 0, Opts).Ops[2].Placement ==
          Device::Accelerator);
  }
}

TEST_CASE("operators the CPU target cannot run either say so") {
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 4}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 4}, perTensor(0.5f, 0));
  B.op("GELU", {In}, {Out});
  B.inputs({In}).outputs({Out});
  auto Demo = test::builtinTarget("demo");
  auto Ref = test::builtinTarget("ref");
  PartitionOptions Opts;
  Opts.Cpu = Ref.get();
  PartitionResult R = partition::partition(B.G, *Demo, 0, Opts);
  REQUIRE(R.Ops.size() == 1);
  REQUIRE(R.Ops[0].Why.size() == 2);
  CHECK(R.Ops[0].Why[0].Message == "operator GELU is not supported by target "
                                   "demo: no rule of its description names "
                                   "this operator");
  CHECK(R.Ops[0].Why[1].ConstraintId == "cpu_unsupported");
  CHECK(R.Ops[0].Why[1].Message ==
        "operator GELU is not supported by target ref either");
}
