//===- Int8ModelTest.cpp - uint8 graphs rewritten with int8 tensors -------===//
//
// tools/int8-model on a convolution worked out by hand: activations 128
// lower, weights symmetric per channel (a channel of zeros keeps its
// scale), biases requantized; the graphs it refuses, naming the tensor; and
// the tools' one-graph import, which refuses a model of two.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "Int8Model.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include <cstring>

using namespace accelgen;
using ir::DType;
using ir::perTensor;

namespace {

/// input (uint8, scale 0.5, zero point 130) -> CONV_2D 1x1, two channels
/// (uint8 weights, scale 0.1, zero point 120: channel 0 {+10, -25} steps,
/// channel 1 all zero; int32 biases {1000, -7}) -> output (uint8, scale 1,
/// zero point 7).
ir::Graph convolution() {
  ir::GraphBuilder B;
  const int32_t In =
      B.tensor("in", {1, 2, 2, 2}, perTensor(0.5f, 130), DType::U8);
  const int32_t W =
      B.constant("w", {2, 1, 1, 2}, perTensor(0.1f, 120), DType::U8,
                 std::vector<uint8_t>{130, 95, 120, 120});
  const int32_t Bias = B.constant("b", {2}, perTensor(0.05f, 0), DType::I32,
                                  std::vector<int32_t>{1000, -7});
  const int32_t Out =
      B.tensor("out", {1, 2, 2, 2}, perTensor(1.0f, 7), DType::U8);
  B.op("CONV_2D", {In, W, Bias}, {Out},
       {{"padding", std::string("VALID")},
        {"stride_h", int64_t(1)},
        {"stride_w", int64_t(1)},
        {"dilation_h", int64_t(1)},
        {"dilation_w", int64_t(1)},
        {"fused_activation", std::string("NONE")}});
  B.inputs({In}).outputs({Out});
  return B.G;
}

std::string failure(ir::Graph G) {
  llvm::Error E = int8model::toInt8(G);
  REQUIRE(bool(E));
  return llvm::toString(std::move(E));
}

} // namespace

TEST_CASE("a uint8 convolution worked out by hand") {
  ir::Graph G = convolution();
  llvm::Error E = int8model::toInt8(G);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  const ir::Tensor &In = G.tensor(0), &W = G.tensor(1), &B = G.tensor(2),
                   &Out = G.tensor(3);
  // The same reals, 128 lower.
  CHECK(In.Type == DType::I8);
  CHECK(In.Quant->zeroPoint() == 2);
  CHECK(In.Quant->scale() == 0.5f);
  CHECK(Out.Type == DType::I8);
  CHECK(Out.Quant->zeroPoint() == -121);
  // Channel 0: reals 1.0 and -2.5, the largest at -127, scale 2.5 / 127;
  // 1.0 is 50.8 steps, 51. Channel 1: zeros, its scale kept.
  CHECK(W.Type == DType::I8);
  REQUIRE(W.Quant->Scales.size() == 2);
  CHECK(W.Quant->Scales[0] == doctest::Approx(2.5 / 127).epsilon(1e-6));
  CHECK(W.Quant->Scales[1] == 0.1f);
  CHECK(W.Quant->ZeroPoints == std::vector<int64_t>{0, 0});
  CHECK(W.Quant->Axis == 0);
  CHECK(W.Data == std::vector<uint8_t>{51, static_cast<uint8_t>(-127), 0, 0});
  // Biases: 1000 x 0.5 x 0.1 = 50 at 0.5 x 2.5 / 127 is 5,080; -7 x 0.05 at
  // 0.05 stays -7.
  int32_t Biases[2];
  REQUIRE(B.Data.size() == sizeof(Biases));
  std::memcpy(Biases, B.Data.data(), sizeof(Biases));
  CHECK(Biases[0] == 5080);
  CHECK(Biases[1] == -7);
  CHECK(B.Quant->Scales[0] == doctest::Approx(0.5 * 2.5 / 127).epsilon(1e-6));
  CHECK(B.Quant->Scales[1] == doctest::Approx(0.05).epsilon(1e-6));
}

TEST_CASE("graphs it refuses, naming the tensor") {
  SUBCASE("a uint8 tensor without quantization") {
    ir::Graph G = convolution();
    G.Tensors[3].Quant.reset();
    CHECK(failure(G) == "tensor 3 'out': a uint8 tensor without quantization");
  }
  SUBCASE("uint8 weights already per channel") {
    ir::Graph G = convolution();
    G.Tensors[1].Quant = ir::QuantParams{{0.1f, 0.2f}, {120, 120}, 0};
    CHECK(failure(G) == "tensor 1 'w': not a constant uint8 weight "
                        "quantized per tensor");
  }
  SUBCASE("a weight shared by a convolution and a fully connected layer") {
    ir::Graph G = convolution();
    ir::Operator Fc;
    Fc.Type = "FULLY_CONNECTED";
    Fc.Inputs = {0, 1, -1};
    Fc.Outputs = {3};
    G.Operators.push_back(Fc);
    CHECK(failure(G) ==
          "tensor 1 'w': a weight shared by operators of different kinds");
  }
}

TEST_CASE("the tools' import refuses a model of two graphs") {
  test::TempDir Dir;
  ir::Model M;
  M.Graphs = {convolution(), convolution()};
  const std::string Path = Dir.file("two.tflite");
  test::writeFileBytes(Path, tflite::writeModel(M));
  REQUIRE(bool(tflite::importModelFile(Path)));
  auto One = tflite::importOneGraphModelFile(Path);
  REQUIRE_FALSE(bool(One));
  CHECK(llvm::toString(One.takeError()) ==
        "a model of 2 graphs; this tool takes models of one");
  M.Graphs.pop_back();
  test::writeFileBytes(Path, tflite::writeModel(M));
  CHECK(bool(tflite::importOneGraphModelFile(Path)));
}
