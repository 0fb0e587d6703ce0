//===- ModelStatsTest.cpp - MAC and memory figures against hand counts ----===//
//
// Every expected number below is worked out by hand in the comment above it,
// from the operator's definition, not from the code under test.
//
// Convention (the one of most MAC counters): a convolution performs, for
// every output value, one multiply-accumulate per filter tap it covers,
// taps over padding included. Padding therefore only enters through the
// output size, which the graph states.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "analysis/ModelStats.h"
#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"

using namespace accelgen;

namespace {

/// A graph of one operator whose operands have the given shapes (all i8,
/// the weights constant).
struct OneOp {
  ir::Graph G;

  OneOp(std::string Type, std::vector<int32_t> In, std::vector<int32_t> W,
        std::vector<int32_t> Out,
        std::map<std::string, ir::AttrValue> Attrs = {}) {
    add("in", std::move(In), false);
    add("w", std::move(W), true);
    add("out", std::move(Out), false);
    ir::Operator Op;
    Op.Type = std::move(Type);
    Op.Inputs = {0, 1, -1};
    Op.Outputs = {2};
    Op.Attrs = std::move(Attrs);
    G.Operators.push_back(std::move(Op));
    G.Inputs = {0};
    G.Outputs = {2};
    REQUIRE(ir::verifyGraph(G).empty());
  }

  void add(std::string Name, std::vector<int32_t> Shape, bool Constant) {
    ir::Tensor T;
    T.Name = std::move(Name);
    T.Shape = std::move(Shape);
    T.Type = ir::DType::I8;
    T.IsConstant = Constant;
    if (Constant)
      T.Data.assign(static_cast<size_t>(T.byteSize()), 1);
    G.Tensors.push_back(std::move(T));
  }

  int64_t macs() const {
    return analysis::operatorMacs(G, G.Operators.front());
  }
};

} // namespace

TEST_CASE("CONV_2D with stride 2 and SAME padding") {
  // Input 1x9x9x3, filter [4 out, 3, 3, 3 in], stride 2, SAME padding.
  //   output height = ceil(9 / 2) = 5, width likewise: output 1x5x5x4.
  //   taps per output value = 3 * 3 * 3 = 27
  //   MACs = (1 * 5 * 5 * 4) * 27 = 100 * 27 = 2700
  OneOp Same("CONV_2D", {1, 9, 9, 3}, {4, 3, 3, 3}, {1, 5, 5, 4},
             {{"padding", std::string("SAME")},
              {"stride_h", int64_t(2)},
              {"stride_w", int64_t(2)}});
  CHECK(Same.macs() == 2700);

  // The same layer with VALID padding:
  //   output height = floor((9 - 3) / 2) + 1 = 4, width likewise: 1x4x4x4.
  //   MACs = (1 * 4 * 4 * 4) * 27 = 64 * 27 = 1728
  OneOp Valid("CONV_2D", {1, 9, 9, 3}, {4, 3, 3, 3}, {1, 4, 4, 4},
              {{"padding", std::string("VALID")},
               {"stride_h", int64_t(2)},
               {"stride_w", int64_t(2)}});
  CHECK(Valid.macs() == 1728);

  // A batch of 2 doubles the work: 2 * 2700 = 5400.
  OneOp Batch("CONV_2D", {2, 9, 9, 3}, {4, 3, 3, 3}, {2, 5, 5, 4});
  CHECK(Batch.macs() == 5400);
}

TEST_CASE("DEPTHWISE_CONV_2D with depth multiplier 3") {
  // Input 1x8x8x2, depth multiplier 3: 2 * 3 = 6 output channels; filter
  // [1, 3, 3, 6]; stride 1, VALID: output 8 - 3 + 1 = 6, so 1x6x6x6.
  //   Each output channel reads one input channel: 3 * 3 = 9 taps.
  //   MACs = (1 * 6 * 6 * 6) * 9 = 216 * 9 = 1944
  OneOp Dw(
      "DEPTHWISE_CONV_2D", {1, 8, 8, 2}, {1, 3, 3, 6}, {1, 6, 6, 6},
      {{"padding", std::string("VALID")}, {"depth_multiplier", int64_t(3)}});
  CHECK(Dw.macs() == 1944);

  // Stride 2, SAME: output ceil(8 / 2) = 4, so 1x4x4x6.
  //   MACs = (4 * 4 * 6) * 9 = 96 * 9 = 864
  OneOp Strided("DEPTHWISE_CONV_2D", {1, 8, 8, 2}, {1, 3, 3, 6}, {1, 4, 4, 6},
                {{"padding", std::string("SAME")},
                 {"stride_h", int64_t(2)},
                 {"stride_w", int64_t(2)},
                 {"depth_multiplier", int64_t(3)}});
  CHECK(Strided.macs() == 864);
}

TEST_CASE("FULLY_CONNECTED") {
  // Input 2x20 (batch 2, depth 20), weights [5 units, 20]: output 2x5.
  //   Each output value is a dot product of length 20.
  //   MACs = (2 * 5) * 20 = 200
  OneOp Fc("FULLY_CONNECTED", {2, 20}, {5, 20}, {2, 5});
  CHECK(Fc.macs() == 200);
}

TEST_CASE("operators without weights do no MACs") {
  OneOp Add("ADD", {1, 4}, {1, 4}, {1, 4});
  CHECK(Add.macs() == 0);
  OneOp Opaque("CONV_2D", {1, 9, 9, 3}, {4, 3, 3, 3}, {1, 5, 5, 4});
  Opaque.G.Operators[0].Opaque = true;
  CHECK(Opaque.macs() == 0);
}

TEST_CASE("activation and constant bytes") {
  // Tensors: in i8 1x9x9x3 = 243 bytes, w i8 4x3x3x3 = 108 bytes (constant),
  // out i8 1x5x5x4 = 100 bytes; we add an i32 [10] (40 bytes) and an f32
  // 2x3 (24 bytes) activation, and an i16 [7] constant (14 bytes).
  //   activations = 243 + 100 + 40 + 24 = 407
  //   constants   = 108 + 14 = 122
  OneOp Conv("CONV_2D", {1, 9, 9, 3}, {4, 3, 3, 3}, {1, 5, 5, 4});
  ir::Tensor I32;
  I32.Shape = {10};
  I32.Type = ir::DType::I32;
  ir::Tensor F32;
  F32.Shape = {2, 3};
  F32.Type = ir::DType::F32;
  ir::Tensor I16;
  I16.Shape = {7};
  I16.Type = ir::DType::I16;
  I16.IsConstant = true;
  I16.Data.resize(14);
  Conv.G.Tensors.push_back(I32);
  Conv.G.Tensors.push_back(F32);
  Conv.G.Tensors.push_back(I16);
  CHECK(analysis::activationBytes(Conv.G) == 407);
  CHECK(analysis::constantBytes(Conv.G) == 122);
}

TEST_CASE("the example model, counted by hand") {
  // tiny_convnet_int8 (tools/make-example):
  //   CONV_2D 1x16x16x3 -> 1x8x8x8, filter 8x3x3x3:
  //     (8 * 8 * 8) * (3 * 3 * 3) = 512 * 27 = 13824
  //   DEPTHWISE_CONV_2D 1x8x8x8 -> 1x8x8x8, filter 1x3x3x8:
  //     (8 * 8 * 8) * (3 * 3) = 512 * 9 = 4608
  //   FULLY_CONNECTED 1x8 -> 1x10, weights 10x8: 10 * 8 = 80
  //   AVERAGE_POOL_2D, RESHAPE, SOFTMAX: 0
  //   total = 13824 + 4608 + 80 = 18512
  // Activations (all i8): input 16*16*3 = 768, conv 8*8*8 = 512,
  // depthwise 512, pool 8, reshape 8, dense 10, softmax 10:
  //   768 + 512 + 512 + 8 + 8 + 10 + 10 = 1828
  // Constants: conv weights 216 + bias 8*4 = 32, depthwise weights 72 + bias
  // 32, reshape shape 2*4 = 8, dense weights 80 + bias 10*4 = 40:
  //   216 + 32 + 72 + 32 + 8 + 80 + 40 = 480
  auto R = tflite::importModelFile(test::exampleModelPath());
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 6);
  CHECK(analysis::operatorMacs(G, G.Operators[0]) == 13824);
  CHECK(analysis::operatorMacs(G, G.Operators[1]) == 4608);
  CHECK(analysis::operatorMacs(G, G.Operators[4]) == 80);
  CHECK(analysis::graphMacs(G) == 18512);
  CHECK(analysis::activationBytes(G) == 1828);
  CHECK(analysis::constantBytes(G) == 480);
}

TEST_CASE("absurd but valid shapes saturate instead of overflowing") {
  // An LSTM whose shapes each stay under the verifier's 2^31 - 1 element
  // limit: input [46340, 46340, 1], both weight matrices [46340, 46340].
  //   steps    = 46340 * 46340                  ~ 2.1e9
  //   per step = 4 * (2 * 46340 * 46340)        ~ 1.7e10
  //   total                                     ~ 3.7e19 > INT64_MAX ~ 9.2e18
  ir::Graph G;
  auto Add = [&](std::vector<int32_t> Shape) {
    ir::Tensor T;
    T.Shape = std::move(Shape);
    T.Type = ir::DType::I8;
    G.Tensors.push_back(std::move(T));
    return static_cast<int32_t>(G.Tensors.size() - 1);
  };
  int32_t In = Add({46340, 46340, 1});
  int32_t W = Add({46340, 46340});
  int32_t Out = Add({46340, 46340, 1});
  ir::Operator Lstm;
  Lstm.Type = "UNIDIRECTIONAL_SEQUENCE_LSTM";
  Lstm.Inputs.assign(24, -1);
  Lstm.Inputs[0] = In;
  Lstm.Inputs[2] = W;
  Lstm.Inputs[6] = W;
  Lstm.Outputs = {Out};
  G.Operators.push_back(Lstm);
  G.Inputs = {In, W};
  REQUIRE(ir::verifyGraph(G).empty());
  CHECK(analysis::operatorMacs(G, G.Operators[0]) == INT64_MAX);

  // Three convolutions of ~2^31 outputs times ~2^31 taps each fit alone
  // (~4.6e18) but not summed.
  ir::Graph C;
  G = C;
  int32_t X = Add({1, 46340, 46340, 1});
  int32_t F = Add({1, 46340, 46340, 1});
  for (int I = 0; I < 3; ++I) {
    ir::Operator Conv;
    Conv.Type = "CONV_2D";
    Conv.Inputs = {X, F, -1};
    Conv.Outputs = {Add({1, 46340, 46340, 1})};
    G.Operators.push_back(Conv);
  }
  G.Inputs = {X, F};
  REQUIRE(ir::verifyGraph(G).empty());
  CHECK(analysis::operatorMacs(G, G.Operators[0]) ==
        int64_t(46340) * 46340 * 46340 * 46340);
  CHECK(analysis::graphMacs(G) == INT64_MAX);
}
