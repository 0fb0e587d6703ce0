//===- MdlaTargetTest.cpp - The MDLA target's generated code at work ------===//
//
// targets/mdla/mdla.td describes MDLA 1.5, 2.0 and 3.0. These tests run what
// accelgen-tblgen generated from it on hand-built graphs: operators a version
// adds, broadcasting and type rules that change by version, the 1.5
// requantize after a convolution, the conv2d mapping, the quantization
// operators' mappings, the fusion rules of each version. Then every shared
// conformance model is legalized and fused at every version, and each
// constraint's generated boundary cases run as a test of its own.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "../target/TargetLibTestSupport.h"

#include "import/TFLiteImporter.h"
#include "target/ConstraintProbe.h"
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/Legalize.h"
#include "target/PatternMatcher.h"
#include "target/TargetInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

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
namespace mdla = accelgen::targets::mdla;
using namespace accelgen::target;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

constexpr unsigned V15 = 0, V20 = 1, V30 = 2;

std::unique_ptr<TargetInfo> mdlaTarget() { return test::builtinTarget("mdla"); }

std::vector<std::string> ids(const std::vector<Rejection> &Why) {
  std::vector<std::string> Ids;
  for (const Rejection &R : Why)
    Ids.push_back(R.ConstraintId);
  return Ids;
}

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

Attrs poolAttrs(int64_t Size, int64_t Stride) {
  return {{"padding", std::string("VALID")},
          {"stride_h", Stride},
          {"stride_w", Stride},
          {"filter_h", Size},
          {"filter_w", Size},
          {"fused_activation", std::string("NONE")}};
}

/// Adds a CONV_2D reading \p In ([1, 8, 8, C]) with an [O, K, K, FilterIn]
/// filter of per-channel i8 weights (scale \p WScale) and an i32 bias, writing
/// a new [1, 8, 8, O] tensor of scale \p OutScale; returns the output tensor.
int32_t addConv(GraphBuilder &B, int32_t In, int32_t O, int32_t FilterIn,
                Attrs Extra = {}, int32_t K = 1, float WScale = 0.25f,
                float OutScale = 1.0f, const char *Type = "CONV_2D") {
  std::string N = std::to_string(B.G.Tensors.size());
  int32_t W = B.constant("w" + N, {O, K, K, FilterIn},
                         ir::perChannel(std::vector<float>(O, WScale), 0));
  int32_t Bias = B.constant("b" + N, {O},
                            ir::perChannel(std::vector<float>(O, 0.125f), 0),
                            ir::DType::I32);
  int32_t Out = B.tensor("out" + N, {1, 8, 8, O}, perTensor(OutScale, 0));
  B.op(Type, {In, W, Bias}, {Out}, convAttrs(std::move(Extra)));
  return Out;
}

/// A graph with one CONV_2D: [1, 8, 8, C] in, [O, 1, 1, FilterIn] filter.
struct ConvGraph {
  GraphBuilder B;
  int32_t In, Out;
  ConvGraph(int32_t C, int32_t O, int32_t FilterIn, Attrs Extra = {}) {
    In = B.tensor("in", {1, 8, 8, C}, perTensor(0.5f, 0));
    Out = addConv(B, In, O, FilterIn, std::move(Extra));
    B.inputs({In}).outputs({Out});
  }
  const ir::Operator &conv() const { return B.G.Operators[0]; }
  /// The activations' type, in and out.
  void type(ir::DType T) {
    B.G.tensor(In).Type = T;
    B.G.tensor(Out).Type = T;
  }
};

/// A binary element-wise operator with a [1, 8, 8, 16] first operand and a
/// second operand of \p Shape, constant or not.
struct BinaryGraph {
  GraphBuilder B;
  BinaryGraph(const char *Type, std::vector<int32_t> Shape, bool Constant) {
    int32_t X = B.tensor("x", {1, 8, 8, 16}, perTensor(0.5f, 0));
    int32_t Y = Constant ? B.constant("y", Shape, perTensor(0.5f, 0))
                         : B.tensor("y", Shape, perTensor(0.5f, 0));
    int32_t Out = B.tensor("out", {1, 8, 8, 16}, perTensor(0.5f, 0));
    Attrs A;
    if (std::string(Type) == "ADD" || std::string(Type) == "SUB" ||
        std::string(Type) == "MUL")
      A = {{"fused_activation", std::string("NONE")}};
    B.op(Type, {X, Y}, {Out}, A);
  }
};

/// Runs IsSupported of \p G's operator \p Index at \p V; returns the reasons.
std::vector<Rejection> rejections(const TargetInfo &T, const ir::Graph &G,
                                  unsigned V, size_t Index = 0) {
  const ir::Operator &Op = G.Operators[Index];
  const OpSetup *S = T.opSetup(Op.Type);
  REQUIRE(S);
  std::vector<Rejection> Why;
  bool Legal = S->IsSupported(G, Op, V, Why);
  CHECK(Legal == Why.empty());
  return Why;
}

} // namespace

TEST_CASE("the mdla target knows its name, versions, operators and patterns") {
  auto T = mdlaTarget();
  CHECK(T->name() == "mdla");
  CHECK(T->versions() == std::vector<std::string>{"1.5", "2.0", "3.0"});
  CHECK(T->versionLabel(V30) == "mdla3.0");
  std::vector<std::string> Ops = T->opNames();
  for (const char *Op :
       {"ADD", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED",
        "TRANSPOSE_CONV", "MTK_TRANSPOSE_CONV", "REQUANTIZE", "SOFTMAX",
        "SPLIT", "MIRROR_PAD"})
    CHECK_MESSAGE(llvm::is_contained(Ops, Op), Op);
  // Not in the guide's tables; or in them, but no kernel runs them, so the
  // description leaves them out.
  for (const char *Op :
       {"HARD_SWISH", "LEAKY_RELU", "UNIDIRECTIONAL_SEQUENCE_LSTM", "CONV_3D",
        "MAX_POOL_3D", "MTK_MIN_POOL", "MTK_LAYER_NORMALIZATION", "RCP",
        "GELU", "POW", "LSTM"})
    CHECK_FALSE_MESSAGE(llvm::is_contained(Ops, Op), Op);
  CHECK(Ops.size() == mdla::NumLegalityTables);
  CHECK(T->patterns().size() == 40);
}

TEST_CASE("operators mdla2.0 adds are rejected on 1.5 with a hint") {
  auto T = mdlaTarget();
  for (const char *Type : {"SOFTMAX", "EXP", "RSQRT", "SQRT", "SQUARE"}) {
    CAPTURE(Type);
    GraphBuilder B;
    int32_t In = B.tensor("in", {1, 10}, perTensor(0.5f, 0));
    int32_t Out = B.tensor("out", {1, 10}, perTensor(1.0f / 256, -128));
    // EXP, SQRT and SQUARE are declared for float32, the type their
    // kernels take.
    const std::string Name = Type;
    if (Name != "SOFTMAX" && Name != "RSQRT")
      for (int32_t T : {In, Out}) {
        B.G.tensor(T).Type = ir::DType::F32;
        B.G.tensor(T).Quant.reset();
      }
    B.op(Type, {In}, {Out},
         std::string(Type) == "SOFTMAX" ? Attrs{{"beta", 1.0}} : Attrs{});
    std::vector<Rejection> Why = rejections(*T, B.G, V15);
    REQUIRE(ids(Why) == std::vector<std::string>{"not_available"});
    CHECK(Why[0].Message == std::string(Type) + " is not available on mdla1.5");
    CHECK(Why[0].Hint == "legal from mdla2.0");
    CHECK(rejections(*T, B.G, V20).empty());
    CHECK(rejections(*T, B.G, V30).empty());
  }
}

TEST_CASE("operators mdla3.0 adds: MIRROR_PAD; CONV_3D and MAX_POOL_3D, "
          "which no kernel runs, are not declared") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 4, 4, 16}, perTensor(0.5f, 0));
  int32_t Pads = B.constant(ir::DType::I32, {4, 2},
                            std::vector<int32_t>{0, 0, 1, 1, 1, 1, 0, 0});
  int32_t Out = B.tensor("out", {1, 6, 6, 16}, perTensor(0.5f, 0));
  B.op("MIRROR_PAD", {In, Pads}, {Out}, {{"mode", std::string("REFLECT")}});
  std::vector<Rejection> Why = rejections(*T, B.G, V20);
  REQUIRE(ids(Why) == std::vector<std::string>{"not_available"});
  CHECK(Why[0].Hint == "legal from mdla3.0");
  CHECK(rejections(*T, B.G, V30).empty());
  for (const char *Op : {"CONV_3D", "MAX_POOL_3D"})
    CHECK_MESSAGE(T->opSetup(Op) == nullptr, Op);
}

TEST_CASE("broadcasting: what each version does in hardware") {
  auto T = mdlaTarget();
  SUBCASE("a constant is enlarged at compile time on every version") {
    for (const char *Type : {"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"}) {
      CAPTURE(Type);
      BinaryGraph G(Type, {1, 1, 8, 16}, /*Constant=*/true);
      CHECK(rejections(*T, G.B.G, V15).empty());
    }
  }
  SUBCASE("a non-constant 1-D channel vector: SUB from mdla2.0") {
    BinaryGraph G("SUB", {16}, /*Constant=*/false);
    std::vector<Rejection> Why = rejections(*T, G.B.G, V15);
    REQUIRE(ids(Why) == std::vector<std::string>{"sub_broadcast"});
    CHECK(Why[0].Message.find("input(1).num_elements = 16") !=
          std::string::npos);
    CHECK(Why[0].Message.find(": an operand smaller than the output must be "
                              "constant (enlarged at compile time; no "
                              "hardware broadcast)") != std::string::npos);
    CHECK(Why[0].Hint == "the Neuron compiler broadcasts it with extra DMA "
                         "commands; mdla2.0 broadcasts 0-D and 1-D (C) "
                         "operands in hardware");
    CHECK(rejections(*T, G.B.G, V20).empty());
    // ADD broadcasts non-constant vectors in software on every version.
    BinaryGraph Add("ADD", {16}, /*Constant=*/false);
    CHECK(ids(rejections(*T, Add.B.G, V30)) ==
          std::vector<std::string>{"add_broadcast"});
  }
  SUBCASE("a non-constant [1, H, W, 1] plane: mdla3.0") {
    for (const char *Type : {"ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"}) {
      CAPTURE(Type);
      BinaryGraph G(Type, {1, 8, 8, 1}, /*Constant=*/false);
      std::string Id = llvm::StringRef(Type).lower() + "_broadcast";
      CHECK(ids(rejections(*T, G.B.G, V15)) == std::vector<std::string>{Id});
      CHECK(ids(rejections(*T, G.B.G, V20)) == std::vector<std::string>{Id});
      CHECK(rejections(*T, G.B.G, V30).empty());
    }
  }
  SUBCASE("a non-constant operand of another shape stays in software") {
    BinaryGraph G("MAXIMUM", {1, 1, 8, 16}, /*Constant=*/false);
    std::vector<Rejection> Why = rejections(*T, G.B.G, V30);
    REQUIRE(ids(Why) == std::vector<std::string>{"maximum_broadcast"});
    CHECK(Why[0].Hint ==
          "the Neuron compiler broadcasts it with extra DMA commands");
  }
}

TEST_CASE("types: symmetric int16 only, and the per-channel weight matrix") {
  auto T = mdlaTarget();
  SUBCASE("asymmetric int16 activations") {
    ConvGraph C(8, 16, 8);
    C.type(ir::DType::I16);
    C.B.G.tensor(C.In).Quant = perTensor(0.5f, 3);
    std::vector<Rejection> Why = rejections(*T, C.B.G, V30);
    // i16 activations under i8 per-channel weights are fine on 3.0.
    REQUIRE(ids(Why) == std::vector<std::string>{"int16_symmetric"});
  }
  SUBCASE("i16 activations with i8 per-channel weights: mdla3.0") {
    ConvGraph C(8, 16, 8);
    C.type(ir::DType::I16);
    std::vector<Rejection> Why = rejections(*T, C.B.G, V20);
    REQUIRE(ids(Why) == std::vector<std::string>{"per_channel_types"});
    CHECK(Why[0].Hint ==
          "relaxed on mdla3.0: per-channel weights must be u8 or i8 under u8 "
          "or i8 activations, i16 or i8 under i16 activations");
    CHECK(rejections(*T, C.B.G, V30).empty());
  }
  SUBCASE("i16 per-channel weights need i16 activations") {
    ConvGraph C(8, 16, 8);
    C.B.G.tensor(1).Type = ir::DType::I16;
    C.B.G.tensor(1).Data.resize(C.B.G.tensor(1).byteSize());
    CHECK(ids(rejections(*T, C.B.G, V30)) ==
          std::vector<std::string>{"per_channel_types"});
    C.type(ir::DType::I16);
    CHECK(rejections(*T, C.B.G, V15).empty());
  }
  SUBCASE("int32 sums out (ONNX's ConvInteger) have no MDLA layer") {
    ConvGraph C(8, 16, 8);
    C.B.G.tensor(C.In).Type = ir::DType::U8;
    C.B.G.tensor(C.Out).Type = ir::DType::I32;
    for (unsigned V : {V15, V20, V30}) {
      std::vector<Rejection> Why = rejections(*T, C.B.G, V);
      CHECK(llvm::is_contained(ids(Why), "same_output_type"));
    }
  }
  SUBCASE("asymmetric int8 and float32 are legal (converted in software)") {
    ConvGraph C(8, 16, 8);
    C.B.G.tensor(C.In).Quant = perTensor(0.5f, -7);
    CHECK(rejections(*T, C.B.G, V15).empty());
    C.type(ir::DType::F32);
    C.B.G.tensor(C.In).Quant.reset();
    CHECK(rejections(*T, C.B.G, V15).empty());
    C.type(ir::DType::I32);
    // i32 is no activation type; nor does the weight matrix know it.
    std::vector<Rejection> Why = rejections(*T, C.B.G, V15);
    REQUIRE(ids(Why) == std::vector<std::string>{"dtype", "per_channel_types"});
    CHECK(Why[0].Message ==
          "input(0).dtype = i32, must be one of {u8, i8, i16, f32}");
  }
}

TEST_CASE("layouts: 16C-only operators need NHWC input") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {8, 8, 16}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {4, 4, 16}, perTensor(0.5f, 0));
  B.op("MAX_POOL_2D", {In}, {Out}, poolAttrs(2, 2));
  std::vector<Rejection> Why = rejections(*T, B.G, V15);
  REQUIRE(ids(Why) == std::vector<std::string>{"nhwc_16c"});
  CHECK(Why[0].Message == "input(0).rank = 3, must be 4");
  CHECK(Why[0].Hint == "reshape the input to NHWC");
}

TEST_CASE("transposed convolution: hardware on 1.5 and 2.0, software on 3.0") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t Shape = B.constant("shape", {4}, std::nullopt, ir::DType::I32);
  int32_t W = B.tensor("w", {8, 3, 3, 16}, perTensor(0.25f, 0));
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 16, 16, 8}, perTensor(1.0f, 0));
  B.op("TRANSPOSE_CONV", {Shape, W, In, -1}, {Out},
       {{"padding", std::string("SAME")},
        {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)},
        {"fused_activation", std::string("NONE")}});
  // Dynamic weights are legal from 3.0.
  std::vector<Rejection> Why = rejections(*T, B.G, V20);
  REQUIRE(ids(Why) == std::vector<std::string>{"tconv_weights_constant"});
  CHECK(Why[0].Hint == "not required on mdla3.0");
  CHECK(rejections(*T, B.G, V30).empty());
  const OpSetup *S = T->opSetup("TRANSPOSE_CONV");
  CHECK(S->CreateOperation(B.G, B.G.Operators[0], V15).Type ==
        "MDLA_TRANSPOSE_CONV");
  CHECK(S->CreateOperation(B.G, B.G.Operators[0], V20).Type ==
        "MDLA_TRANSPOSE_CONV");
  CHECK(S->CreateOperation(B.G, B.G.Operators[0], V30).Type ==
        "MTK_TRANSPOSE_CONV");
}

TEST_CASE(
    "mappings: a grouped CONV_2D becomes depthwise, group or plain conv") {
  auto T = mdlaTarget();
  const OpSetup *S = T->opSetup("CONV_2D");
  const unsigned Versions[] = {V15, V20, V30};
  SUBCASE("one input and one output channel per group: depthwise") {
    ConvGraph C(8, 8, 1);
    for (unsigned V : Versions) {
      CHECK(rejections(*T, C.B.G, V).empty());
      ir::Operator New = S->CreateOperation(C.B.G, C.conv(), V);
      CHECK(New.Type == "MDLA_DEPTHWISE_CONV_2D");
      CHECK(New.getInt("depth_multiplier") == 1);
      CHECK(New.Inputs == C.conv().Inputs);
    }
  }
  SUBCASE("one input channel, two outputs per group: group conv") {
    ConvGraph C(8, 16, 1);
    for (unsigned V : Versions)
      CHECK(S->CreateOperation(C.B.G, C.conv(), V).Type ==
            "MDLA_GROUP_CONV_2D");
  }
  SUBCASE("groups of four channels: group conv") {
    ConvGraph C(8, 8, 4);
    for (unsigned V : Versions)
      CHECK(S->CreateOperation(C.B.G, C.conv(), V).Type ==
            "MDLA_GROUP_CONV_2D");
  }
  SUBCASE("one group: plain conv") {
    ConvGraph C(8, 8, 8);
    for (unsigned V : Versions)
      CHECK(S->CreateOperation(C.B.G, C.conv(), V).Type == "MDLA_CONV_2D");
  }
  SUBCASE("channels that are not whole groups are rejected") {
    ConvGraph C(8, 8, 3);
    std::vector<Rejection> Why = rejections(*T, C.B.G, V15);
    REQUIRE(ids(Why) == std::vector<std::string>{"conv_whole_groups"});
    CHECK(Why[0].Message ==
          "input(1).dim(3) = 3, input(0).channels = 8: input channels must be "
          "a multiple of the filter's input channels (whole groups)");
  }
}

TEST_CASE(
    "mappings: quantization operators become the layers the guide names") {
  auto T = mdlaTarget();
  auto Convert = [&](const char *Type, ir::DType From, ir::DType To,
                     unsigned V = V15) {
    GraphBuilder B;
    int32_t In = B.tensor("in", {1, 8, 8, 16},
                          From == ir::DType::F32
                              ? std::nullopt
                              : std::optional<ir::QuantParams>(perTensor(0.5f, 0)),
                          From);
    int32_t Out = B.tensor(
        "out", {1, 8, 8, 16},
        To == ir::DType::F32 ? std::nullopt
                             : std::optional<ir::QuantParams>(perTensor(0.25f, 0)),
        To);
    B.op(Type, {In}, {Out});
    REQUIRE(rejections(*T, B.G, V).empty());
    return T->opSetup(Type)->CreateOperation(B.G, B.G.Operators[0], V).Type;
  };
  // MTK_REQUANTIZE: a BN_ADD within one width, a 1 x 1 conv across widths.
  CHECK(Convert("REQUANTIZE", ir::DType::I8, ir::DType::U8) == "MDLA_BN_ADD");
  CHECK(Convert("REQUANTIZE", ir::DType::I8, ir::DType::I16) ==
        "MDLA_IDENTITY_CONV_2D");
  CHECK(Convert("QUANTIZE", ir::DType::F32, ir::DType::I8) ==
        "MDLA_IDENTITY_CONV_2D");
  CHECK(Convert("QUANTIZE", ir::DType::U8, ir::DType::I8) == "MDLA_BN_ADD");
  CHECK(Convert("DEQUANTIZE", ir::DType::I8, ir::DType::F32) ==
        "MDLA_IDENTITY_CONV_2D");
  // Software space-to-depth on 1.5, hardware from 2.0.
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 4}, perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 4, 4, 16}, perTensor(0.5f, 0));
  B.op("SPACE_TO_DEPTH", {In}, {Out}, {{"block_size", int64_t(2)}});
  const OpSetup *S = T->opSetup("SPACE_TO_DEPTH");
  CHECK(S->CreateOperation(B.G, B.G.Operators[0], V15).Type ==
        "MDLA_SW_SPACE_TO_DEPTH");
  CHECK(S->CreateOperation(B.G, B.G.Operators[0], V20).Type ==
        "MDLA_SPACE_TO_DEPTH");
}

TEST_CASE("quantization: mdla1.5 requantizes after a conv whose input x "
          "filter scale is not below the output scale") {
  auto T = mdlaTarget();
  for (const char *Type : {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"}) {
    CAPTURE(Type);
    auto Build = [&](float OutScale) {
      auto B = std::make_unique<GraphBuilder>();
      bool Fc = std::string(Type) == "FULLY_CONNECTED";
      bool Dw = std::string(Type) == "DEPTHWISE_CONV_2D";
      std::vector<int32_t> Act = {1, 8, 8, 16};
      std::vector<int32_t> Filter = {16, 3, 3, 16};
      Attrs A = convAttrs();
      if (Fc) {
        Act = {1, 16};
        Filter = {16, 16};
        A = {{"fused_activation", std::string("NONE")}};
      } else if (Dw) {
        Filter = {1, 3, 3, 16};
        A["depth_multiplier"] = int64_t(1);
      }
      int32_t In = B->tensor("in", Act, perTensor(0.5f, 0));
      int32_t W = B->constant("w", Filter, perTensor(0.5f, 0));
      int32_t Out = B->tensor("out", Act, perTensor(OutScale, 0));
      B->op(Type, {In, W, -1}, {Out}, A);
      B->inputs({In}).outputs({Out});
      return B;
    };
    // 0.5 x 0.5 >= 0.2: a requantize after the operator, on 1.5 only.
    auto On15 = Build(0.2f);
    LegalizeReport R = legalize(On15->G, *T, V15);
    REQUIRE(R.Ops.size() == 2);
    CHECK(R.Ops[0].Quant == QuantOutcome::InsertedRequantize);
    CHECK(R.Ops[0].Legal);
    CHECK(R.Ops[1].OriginalIndex == -1);
    CHECK(R.Ops[1].OriginalType == "REQUANTIZE");
    // The inserted requantize is MTK_REQUANTIZE between i8 and i8: a BN_ADD.
    CHECK(R.Ops[1].Type == "MDLA_BN_ADD");
    CHECK(R.Ops[1].Legal);
    test::checkValid(On15->G);

    auto On20 = Build(0.2f);
    R = legalize(On20->G, *T, V20);
    REQUIRE(R.Ops.size() == 1);
    CHECK(R.Ops[0].Quant == QuantOutcome::Unchanged);

    // 0.5 x 0.5 < 0.5 holds on 1.5 too.
    auto Holds = Build(0.5f);
    std::vector<Rejection> Why;
    CHECK(T->opSetup(Type)->SetupQuantParam(Holds->G, 0, V15, Why) ==
          QuantOutcome::Unchanged);
    CHECK(Why.empty());
  }
}

TEST_CASE("quantization: a pool requantizes its input to the output's "
          "parameters") {
  auto T = mdlaTarget();
  for (unsigned V : {V15, V30}) {
    auto Build = [] {
      auto B = std::make_unique<GraphBuilder>();
      int32_t In = B->tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 3));
      int32_t Out = B->tensor("out", {1, 4, 4, 16}, perTensor(0.25f, 0));
      B->op("AVERAGE_POOL_2D", {In}, {Out}, poolAttrs(2, 2));
      B->inputs({In}).outputs({Out});
      return B;
    };
    // The description's rule: requantize the input to the output's
    // parameters, in front of the pool.
    auto Ruled = Build();
    std::vector<Rejection> Why;
    CHECK(T->opSetup("AVERAGE_POOL_2D")->SetupQuantParam(Ruled->G, 0, V, Why) ==
          QuantOutcome::InsertedRequantize);
    CHECK(Why.empty());
    CHECK(test::opTypes(Ruled->G) ==
          std::vector<std::string>{"REQUANTIZE", "AVERAGE_POOL_2D"});
    test::checkValid(Ruled->G);
    // The functional model runs the model's own pool, whose input and
    // output quantization differ: the reference kernel cannot, so the
    // device limits keep it on the CPU, with the reason.
    auto Legalized = Build();
    LegalizeReport R = legalize(Legalized->G, *T, V);
    REQUIRE(R.Ops.size() == 1);
    CHECK_FALSE(R.Ops[0].Legal);
    REQUIRE(!R.Ops[0].Why.empty());
    CHECK(R.Ops[0].Why.back().ConstraintId == "device_kernel");
    INFO(R.Ops[0].Why.back().Message);
    CHECK(llvm::StringRef(R.Ops[0].Why.back().Message)
              .startswith("the accelerator's functional model cannot run "
                          "it: "));
  }
}

TEST_CASE("quantization: data movement forwards the output's parameters") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16});
  int32_t Shape = B.constant("shape", {2}, std::nullopt, ir::DType::I32);
  int32_t Out = B.tensor("out", {1, 1024}, perTensor(0.5f, -2));
  B.op("RESHAPE", {In, Shape}, {Out});
  std::vector<Rejection> Why;
  CHECK(T->opSetup("RESHAPE")->SetupQuantParam(B.G, 0, V15, Why) ==
        QuantOutcome::UpdatedParams);
  REQUIRE(B.G.tensor(In).Quant);
  CHECK(B.G.tensor(In).Quant->ZeroPoints == std::vector<int64_t>{-2});
}

TEST_CASE("fusion 1.5, rule A: CONV + RELU + MAX_POOL is one MDLA conv") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t C = addConv(B, In, 16, 16);
  int32_t R = B.tensor("relu", {1, 8, 8, 16}, perTensor(1.0f, 0));
  B.op("RELU", {C}, {R});
  int32_t P = B.tensor("pool", {1, 4, 4, 16}, perTensor(1.0f, 0));
  B.op("MAX_POOL_2D", {R}, {P}, poolAttrs(2, 2));
  B.inputs({In}).outputs({P});

  std::vector<FoundMatch> M = findMatches(B.G, T->patterns(), V15);
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "RuleA_CONV_ACT1_POOL");
  auto Captures = mdla::RuleA_CONV_ACT1_POOLMatch::from(M[0].Match);
  CHECK(Captures.pool == 2);
  CHECK(Captures.act == 1);
  CHECK(Captures.conv == 0);
  CHECK(Captures.x == In);
  applyMatches(B.G, M);
  REQUIRE(B.G.Operators.size() == 1);
  CHECK(B.G.Operators[0].Type == "MDLA_CONV_2D");
  CHECK(B.G.Operators[0].getString(FusedOpsAttr) == "CONV_2D+RELU+MAX_POOL_2D");
  test::checkValid(B.G);
}

TEST_CASE("fusion: a grouped CONV_2D is mapped, not fused") {
  auto T = mdlaTarget();
  ConvGraph C(8, 8, 1);
  int32_t R = C.B.tensor("relu", {1, 8, 8, 8}, perTensor(1.0f, 0));
  C.B.op("RELU", {C.Out}, {R});
  C.B.outputs({R});
  std::vector<MatchRejection> Rejected;
  CHECK(findMatches(C.B.G, T->patterns(), V15, &Rejected).empty());
  REQUIRE(Rejected.size() == 1);
  CHECK(std::string(Rejected[0].Pattern->Name) == "RuleA_CONV_ACT1");
  CHECK(Rejected[0].Why ==
        std::vector<std::string>{
            "conv_one_group: conv.op = \"CONV_2D\", conv.input(1).dim(3) = 1, "
            "conv.input(0).channels = 8: the CONV_2D conv has one group (a "
            "grouped one is mapped to a depthwise or group convolution, not "
            "fused)"});
}

TEST_CASE("fusion 1.5, rule C: DEPTHWISE_CONV_2D + CONV_2D, two at most") {
  auto T = mdlaTarget();
  auto Build = [](Attrs Second, int Convs) {
    auto B = std::make_unique<GraphBuilder>();
    int32_t In = B->tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
    int32_t X = addConv(*B, In, 16, 1, {{"depth_multiplier", int64_t(1)}}, 3,
                        0.25f, 1.0f, "DEPTHWISE_CONV_2D");
    B->G.tensor(1).Shape = {1, 3, 3, 16};
    B->G.tensor(1).Data.resize(B->G.tensor(1).byteSize());
    for (int I = 0; I < Convs; ++I)
      X = addConv(*B, X, 16, 16, Second);
    B->inputs({In}).outputs({X});
    return B;
  };
  auto Pair = Build({}, 1);
  std::vector<FoundMatch> M = findMatches(Pair->G, T->patterns(), V15);
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "RuleC_DEPTHWISE_CONV_2D_CONV_2D");
  auto Captures = mdla::RuleC_DEPTHWISE_CONV_2D_CONV_2DMatch::from(M[0].Match);
  CHECK(Captures.conv == 0);
  CHECK(Captures.conv2 == 1);
  applyMatches(Pair->G, M);
  REQUIRE(Pair->G.Operators.size() == 1);
  CHECK(Pair->G.Operators[0].Type == "MDLA_FUSED_CHAIN");
  // $x, $w, $b of the depthwise conv, then $w2, $b2.
  CHECK(Pair->G.Operators[0].Inputs == std::vector<int32_t>{0, 1, 2, 4, 5});

  // The second convolution's stride must be 1 or 2.
  auto Strided = Build({{"stride_h", int64_t(3)}}, 1);
  std::vector<MatchRejection> Rejected;
  CHECK(findMatches(Strided->G, T->patterns(), V15, &Rejected).empty());
  REQUIRE(Rejected.size() == 1);
  CHECK(Rejected[0].Why ==
        std::vector<std::string>{
            "conv2_stride_1_or_2: conv2.stride_h = 3, conv2.stride_w = 1: "
            "the stride of conv2 must be 1 or 2"});

  // Three convolutions: only two fuse before 3.0, all three on 3.0.
  for (unsigned V : {V15, V20}) {
    auto Three = Build({}, 2);
    CHECK(fusePatterns(Three->G, T->patterns(), V) == 1);
    CHECK(Three->G.Operators.size() == 2);
  }
  auto Three = Build({}, 2);
  std::vector<FoundMatch> Deep = findMatches(Three->G, T->patterns(), V30);
  REQUIRE(Deep.size() == 1);
  CHECK(std::string(Deep[0].Pattern->Name) ==
        "DLF_DEPTHWISE_CONV_2D_CONV_2D_CONV_2D");
  applyMatches(Three->G, Deep);
  REQUIRE(Three->G.Operators.size() == 1);
  CHECK(Three->G.Operators[0].getString(FusedOpsAttr) ==
        "DEPTHWISE_CONV_2D+CONV_2D+CONV_2D");
}

TEST_CASE("fusion 3.0, deep layer fusion: a dilated conv must come last") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t X = addConv(B, In, 16, 16, {{"dilation_h", int64_t(2)}});
  X = addConv(B, X, 16, 16);
  X = addConv(B, X, 16, 16);
  B.inputs({In}).outputs({X});
  std::vector<MatchRejection> Rejected;
  std::vector<FoundMatch> M = findMatches(B.G, T->patterns(), V30, &Rejected);
  bool DeepRejected = false;
  for (const MatchRejection &R : Rejected)
    if (std::string(R.Pattern->Name) == "DLF_CONV_2D_CONV_2D_CONV_2D") {
      DeepRejected = true;
      CHECK(R.Why == std::vector<std::string>{
                         "conv_not_dilated: conv.dilation_h = 2, "
                         "conv.dilation_w = 1: a dilated convolution must be "
                         "the last one of a fused flow"});
    }
  CHECK(DeepRejected);
  // Rule C still pairs the dilated conv with the next one.
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "RuleC_CONV_2D_CONV_2D");
}

TEST_CASE("fusion 3.0, rule F: CONV + RESIZE + activation") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t C = addConv(B, In, 16, 16);
  int32_t Size = B.constant("size", {2}, std::nullopt, ir::DType::I32);
  int32_t Up = B.tensor("up", {1, 16, 16, 16}, perTensor(1.0f, 0));
  B.op("RESIZE_BILINEAR", {C, Size}, {Up});
  int32_t Out = B.tensor("out", {1, 16, 16, 16}, perTensor(1.0f, 0));
  B.op("TANH", {Up}, {Out});
  B.inputs({In}).outputs({Out});
  for (unsigned V : {V15, V20})
    CHECK(findMatches(B.G, T->patterns(), V).empty());
  std::vector<FoundMatch> M = findMatches(B.G, T->patterns(), V30);
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "RuleF_CONV_RESIZE_MATH1_OR_ACT1");
}

TEST_CASE("fusion: PAD into the following conv when it pads at most 15") {
  auto T = mdlaTarget();
  auto Build = [](int32_t PadH) {
    auto B = std::make_unique<GraphBuilder>();
    int32_t In = B->tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
    int32_t Paddings =
        B->constant("paddings", {4, 2}, std::nullopt, ir::DType::I32);
    int32_t Padded = B->tensor("padded", {1, 8 + PadH, 10, 16}, perTensor(0.5f, 0));
    B->op("PAD", {In, Paddings}, {Padded});
    int32_t Out =
        addConv(*B, Padded, 16, 16, {{"padding", std::string("VALID")}});
    B->inputs({In}).outputs({Out});
    return B;
  };
  auto Small = Build(15);
  std::vector<FoundMatch> M = findMatches(Small->G, T->patterns(), V15);
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "PadInto_CONV");
  applyMatches(Small->G, M);
  REQUIRE(Small->G.Operators.size() == 1);
  CHECK(Small->G.Operators[0].Type == "MDLA_CONV_2D");
  // $x, $w, $b, then the paddings.
  CHECK(Small->G.Operators[0].Inputs == std::vector<int32_t>{0, 3, 4, 1});

  auto Large = Build(16);
  std::vector<MatchRejection> Rejected;
  CHECK(findMatches(Large->G, T->patterns(), V30, &Rejected).empty());
  REQUIRE(Rejected.size() == 1);
  REQUIRE(Rejected[0].Why.size() == 1);
  CHECK(llvm::StringRef(Rejected[0].Why[0]).startswith("pad_fusable: "));
  CHECK(Rejected[0].Why[0].find("pad.output(0).dim(1) = 24") !=
        std::string::npos);
}

TEST_CASE("fusion: a dequantize fuses into a single-use conv only") {
  auto T = mdlaTarget();
  auto Build = [](bool SecondUser) {
    auto B = std::make_unique<GraphBuilder>();
    int32_t In = B->tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
    int32_t C = addConv(*B, In, 16, 16);
    int32_t F = B->tensor("f", {1, 8, 8, 16}, std::nullopt, ir::DType::F32);
    B->op("DEQUANTIZE", {C}, {F});
    std::vector<int32_t> Outs = {F};
    if (SecondUser) {
      int32_t R = B->tensor("r", {1, 8, 8, 16}, perTensor(1.0f, 0));
      B->op("RELU", {C}, {R});
      Outs.push_back(R);
    }
    B->inputs({In}).outputs(Outs);
    return B;
  };
  auto Single = Build(false);
  REQUIRE(fusePatterns(Single->G, T->patterns(), V15) == 1);
  CHECK(Single->G.Operators[0].getString(FusedOpsAttr) == "CONV_2D+DEQUANTIZE");
  CHECK(Single->G.Operators[0].Type == "MDLA_CONV_2D");
  auto Shared = Build(true);
  CHECK(fusePatterns(Shared->G, T->patterns(), V15) == 0);
}

TEST_CASE("fusion: the QNN conv + bias add + requantize is one conv") {
  auto T = mdlaTarget();
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8, 8, 16}, perTensor(0.5f, 0));
  int32_t W = B.constant("w", {8, 1, 1, 16}, perTensor(0.25f, 0));
  int32_t Acc = B.tensor("acc", {1, 8, 8, 8}, perTensor(0.125f, 0), ir::DType::I32);
  B.op("CONV_2D", {In, W}, {Acc}, convAttrs());
  int32_t Bias = B.constant("bias", {8}, perTensor(0.125f, 0), ir::DType::I32);
  int32_t Sum = B.tensor("sum", {1, 8, 8, 8}, perTensor(0.125f, 0), ir::DType::I32);
  B.op("ADD", {Acc, Bias}, {Sum}, {{"fused_activation", std::string("NONE")}});
  int32_t Out = B.tensor("out", {1, 8, 8, 8}, perTensor(1.0f, 0));
  B.op("REQUANTIZE", {Sum}, {Out});
  B.inputs({In}).outputs({Out});
  std::vector<FoundMatch> M = findMatches(B.G, T->patterns(), V15);
  REQUIRE(M.size() == 1);
  CHECK(std::string(M[0].Pattern->Name) == "QnnConvBiasRequantize");
  auto Captures = mdla::QnnConvBiasRequantizeMatch::from(M[0].Match);
  CHECK(Captures.bias == Bias);
  applyMatches(B.G, M);
  REQUIRE(B.G.Operators.size() == 1);
  CHECK(B.G.Operators[0].Type == "MDLA_CONV_2D");
  CHECK(B.G.Operators[0].Inputs == std::vector<int32_t>{In, W, Bias});
  CHECK(B.G.Operators[0].Outputs == std::vector<int32_t>{Out});
}

namespace {

const char *const LstmModels[] = {"tflm_mnist_lstm_int8",
                                  "coral_keras_lstm_mnist_ptq"};

/// The shared models, by file stem; fails the test when there are none.
std::vector<std::string> sharedModels() {
  std::string Dir = test::sharedDir() + "/models";
  std::vector<std::string> Stems;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Stems.push_back(llvm::sys::path::stem(It->path()).str());
  std::sort(Stems.begin(), Stems.end());
  INFO("the shared conformance folder is missing or empty: "
       << Dir << " (set ACCELGEN_SHARED_DIR)");
  REQUIRE(!Stems.empty());
  return Stems;
}

ir::Graph loadModel(llvm::StringRef Stem) {
  auto Imported = tflite::importModelFile(test::sharedDir() + "/models/" +
                                          Stem.str() + ".tflite");
  REQUIRE(static_cast<bool>(Imported));
  return Imported->Model->main();
}

/// Fused groups found the way the partitioner looks for them: only over
/// operators the target accepts at \p V. Pattern name -> count.
std::map<std::string, int> fusions(const TargetInfo &T, const ir::Graph &G,
                                   unsigned V) {
  std::map<std::string, int> Count;
  auto Legal = [&](size_t I) {
    const OpSetup *S = T.opSetup(G.Operators[I].Type);
    std::vector<Rejection> Why;
    return S && S->IsSupported(G, G.Operators[I], V, Why);
  };
  for (const FoundMatch &M : findMatches(G, T.patterns(), V, nullptr, Legal))
    ++Count[M.Pattern->Name];
  return Count;
}

} // namespace

TEST_CASE("models: every operator runs except SOFTMAX on 1.5 and LSTM") {
  auto T = mdlaTarget();
  for (const std::string &Stem : sharedModels()) {
    for (unsigned V : {V15, V20, V30}) {
      CAPTURE(Stem);
      CAPTURE(V);
      ir::Graph G = loadModel(Stem);
      LegalizeReport R = legalize(G, *T, V);
      for (const OpLegalization &Op : R.Ops) {
        CAPTURE(Op.OriginalIndex);
        CAPTURE(Op.OriginalType);
        // The shared models already satisfy the 1.5 scale rule.
        CHECK(Op.Quant != QuantOutcome::InsertedRequantize);
        if (Op.OriginalType == "UNIDIRECTIONAL_SEQUENCE_LSTM") {
          CHECK(llvm::is_contained(LstmModels, Stem));
          REQUIRE(ids(Op.Why) ==
                  std::vector<std::string>{"unsupported_operator"});
          continue;
        }
        if (Op.OriginalType == "SOFTMAX" && V == V15) {
          REQUIRE(ids(Op.Why) == std::vector<std::string>{"not_available"});
          CHECK(Op.Why[0].Hint == "legal from mdla2.0");
          continue;
        }
        std::string Reasons;
        for (const Rejection &W : Op.Why)
          Reasons += W.ConstraintId + ": " + W.Message + "\n";
        INFO(Reasons);
        CHECK(Op.Legal);
      }
      test::checkValid(G);
    }
  }
}

TEST_CASE("models: the keyword-spotting DS-CNN at each version") {
  auto T = mdlaTarget();
  std::map<std::string, int> Expected = {{"MDLA_CONV_2D", 5},
                                         {"MDLA_DEPTHWISE_CONV_2D", 4},
                                         {"MDLA_FULLY_CONNECTED", 1},
                                         {"AVERAGE_POOL_2D", 1},
                                         {"RESHAPE", 1}};
  for (unsigned V : {V15, V20, V30}) {
    CAPTURE(V);
    ir::Graph G = loadModel("mlperf_tiny_kws_dscnn_int8");
    LegalizeReport R = legalize(G, *T, V);
    std::map<std::string, int> Types;
    std::vector<std::string> Rejected;
    for (const OpLegalization &Op : R.Ops) {
      if (Op.Legal)
        ++Types[Op.Type];
      else
        Rejected.push_back(Op.OriginalType + ": " + Op.Why[0].ConstraintId +
                           " (" + Op.Why[0].Hint + ")");
    }
    std::map<std::string, int> Want = Expected;
    if (V == V15) {
      // SOFTMAX is the one operator 1.5 leaves to the CPU.
      CHECK(Rejected == std::vector<std::string>{
                            "SOFTMAX: not_available (legal from mdla2.0)"});
    } else {
      CHECK(Rejected.empty());
      Want["SOFTMAX"] = 1;
    }
    CHECK(Types == Want);
  }
  // Fusion: each depthwise conv pairs with the pointwise conv after it
  // (rule C), except the last pointwise conv, which takes the average pool
  // (rule A; same benefit, first by name). No three-conv flow exists.
  for (unsigned V : {V15, V20, V30}) {
    CAPTURE(V);
    ir::Graph G = loadModel("mlperf_tiny_kws_dscnn_int8");
    CHECK(fusions(*T, G, V) ==
          std::map<std::string, int>{{"RuleA_CONV_POOL", 1},
                                     {"RuleC_DEPTHWISE_CONV_2D_CONV_2D", 3}});
  }
}

TEST_CASE("models: deep layer fusion on MobileNetV2 and padding on ResNet-8") {
  auto T = mdlaTarget();
  ir::Graph V2 = loadModel("coral_mobilenet_v2_10_224_quant_uint8");
  std::map<std::string, int> Before = {{"RuleA_CONV_POOL", 1},
                                       {"RuleC_CONV_2D_CONV_2D", 1},
                                       {"RuleC_DEPTHWISE_CONV_2D_CONV_2D", 16}};
  CHECK(fusions(*T, V2, V15) == Before);
  CHECK(fusions(*T, V2, V20) == Before);
  // 3.0 chains a depthwise conv, its projection and the next 1 x 1 conv
  // where no residual ADD sits between them: in the first block, and in the
  // last, whose final conv fused with the average pool before 3.0.
  CHECK(fusions(*T, V2, V30) ==
        std::map<std::string, int>{{"DLF_DEPTHWISE_CONV_2D_CONV_2D_CONV_2D", 2},
                                   {"RuleC_DEPTHWISE_CONV_2D_CONV_2D", 15}});

  // ResNet-8's 3 x 3 SAME convolutions pad on the left and top: rule C
  // turns the conv + conv pairs down.
  ir::Graph R8 = loadModel("mlperf_tiny_ic_resnet8_int8");
  std::vector<MatchRejection> Rejected;
  findMatches(R8, T->patterns(), V15, &Rejected);
  int NoLeftTop = 0;
  for (const MatchRejection &M : Rejected)
    for (const std::string &W : M.Why)
      NoLeftTop += llvm::StringRef(W).startswith("conv2_no_left_top_padding");
  CHECK(NoLeftTop == 3);
}

TEST_CASE("every probed constraint has a generated boundary test") {
  // Every operator constraint of mdla.td (overrides of an id included).
  std::vector<std::string> Probed;
  for (unsigned I = 0; I < mdla::NumConstraintProbes; ++I)
    Probed.push_back(mdla::ConstraintProbes[I].Id);
  CHECK(Probed == std::vector<std::string>{"nhwc_4c_16c",
                                           "conv_whole_groups",
                                           "per_channel_types",
                                           "per_channel_weights_symmetric",
                                           "int16_symmetric",
                                           "same_output_type",
                                           "per_channel_types",
                                           "tconv_nhwc_4c_16c",
                                           "tconv_input_types",
                                           "tconv_per_channel_types",
                                           "tconv_int16_symmetric",
                                           "tconv_weights_constant",
                                           "tconv_per_channel_types",
                                           "mtk_tconv_weights_constant",
                                           "add_broadcast",
                                           "add_broadcast",
                                           "mul_broadcast",
                                           "mul_broadcast",
                                           "sub_broadcast",
                                           "sub_broadcast",
                                           "sub_broadcast",
                                           "maximum_broadcast",
                                           "maximum_broadcast",
                                           "maximum_broadcast",
                                           "minimum_broadcast",
                                           "minimum_broadcast",
                                           "minimum_broadcast",
                                           "nhwc_16c",
                                           "nhwc_16c_at_most_4d",
                                           "split_input_types",
                                           "split_int16_symmetric",
                                           "map_depthwise",
                                           "map_group_conv",
                                           "requantize_same_width",
                                           "scale_product_below_output"});
}

// One test per constraint: "MdlaTargetTest:mdla/<constraint>".
#define ACCELGEN_PROBE_TARGET mdla
#define ACCELGEN_PROBE_NAMESPACE mdla
#include "testing/ConstraintProbeTests.h"

//===----------------------------------------------------------------------===//
// Device semantics (section 8 of mdla.td)
//===----------------------------------------------------------------------===//

namespace {

/// The names of the layouts in \p Mask, in preference order.
std::vector<std::string> layoutNames(const DeviceRules &R, uint32_t Mask) {
  std::vector<std::string> Names;
  for (size_t I = 0; I < R.layouts().size(); ++I)
    if (Mask >> I & 1u)
      Names.push_back(R.layouts()[I].Name);
  return Names;
}

/// The rule the program builder applied before the description declared
/// layouts: an operator runs in 16C only when its legality at the version
/// carries a layout constraint whose id names 16c but not 4c (`nhwc_16c`,
/// `nhwc_16c_at_most_4d`, `pool3d_ndhwc_16c`; not `nhwc_4c_16c`).
bool sixteenCOnlyByConstraintIds(const LegalityAt &At) {
  for (unsigned C = 0; C < At.NumConstraints; ++C) {
    llvm::StringRef Id = At.Constraints[C].Id;
    if (Id.contains("16c") && !Id.contains("4c"))
      return true;
  }
  return false;
}

} // namespace

TEST_CASE("device rules: the 16C-only operators are those the legality "
          "tables' layout constraints name, at every version") {
  auto T = mdlaTarget();
  for (unsigned V : {V15, V20, V30}) {
    CAPTURE(T->versionLabel(V));
    DeviceRules R = T->deviceRules(V);
    REQUIRE(layoutNames(R, ~0u) == std::vector<std::string>{"4C", "16C"});
    unsigned SixteenCOnly = 0, Legal = 0;
    for (unsigned I = 0; I < mdla::NumLegalityTables; ++I) {
      const OpLegalityTable &Table = *mdla::LegalityTables[I];
      CAPTURE(Table.Op);
      const LegalityAt *At =
          V < Table.NumVersions ? Table.PerVersion[V] : nullptr;
      if (!At)
        continue;
      ++Legal;
      const bool Old = sixteenCOnlyByConstraintIds(*At);
      SixteenCOnly += Old;
      CHECK(layoutNames(R, R.layoutsOf(Table.Op)) ==
            (Old ? std::vector<std::string>{"16C"}
                 : std::vector<std::string>{"4C", "16C"}));
      const LayoutDesc *Only = R.onlyLayout(Table.Op);
      CHECK((Only != nullptr) == Old);
      if (Only) // Channels padded to 16 bytes.
        CHECK(Only->channelAlign(1) == 16);
      if (Only)
        CHECK(Only->channelAlign(2) == 8);
      CHECK(R.keepsFusedIntermediates(Table.Op));
    }
    CHECK(Legal > 40);
    // AVERAGE_POOL_2D, MAX_POOL_2D, RESIZE_* and MEAN; MIRROR_PAD from 3.0.
    CHECK(SixteenCOnly == (V == V30 ? 6u : 5u));
  }
}

TEST_CASE("device rules: asymmetric int8 is stored as uint8 on mdla1.5 only") {
  auto T = mdlaTarget();
  CHECK(T->hasFunctionalModel());
  const std::optional<ir::QuantParams> Asymmetric = perTensor(0.5f, -3);
  const std::optional<ir::QuantParams> Symmetric = perTensor(0.5f, 0);
  ir::QuantParams PerChannel;
  PerChannel.Scales = {0.5f, 0.25f};
  PerChannel.ZeroPoints = {-3, 4};
  for (unsigned V : {V15, V20, V30}) {
    CAPTURE(T->versionLabel(V));
    DeviceRules R = T->deviceRules(V);
    // The data type matrix: ASYM INT8 is converted in software on 1.5.
    CHECK(R.storedAs(ir::DType::I8, Asymmetric) ==
          (T->versions()[V] == "1.5" ? ir::DType::U8 : ir::DType::I8));
    CHECK(R.storedAs(ir::DType::I8, Symmetric) == ir::DType::I8);
    CHECK(R.storedAs(ir::DType::I8, PerChannel) == ir::DType::I8);
    CHECK(R.storedAs(ir::DType::I8, std::nullopt) == ir::DType::I8);
    CHECK(R.storedAs(ir::DType::U8, Asymmetric) == ir::DType::U8);
    CHECK(R.storedAs(ir::DType::I16, Symmetric) == ir::DType::I16);
  }
}
