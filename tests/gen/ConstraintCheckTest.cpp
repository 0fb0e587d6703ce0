//===- ConstraintCheckTest.cpp - Generated checks run on real graphs -------===//
//
// The checks emit-test-constraints generated at build time, compiled and
// run: a convolution that satisfies every constraint, then one change per
// test, with the exact rejection message; every boundary case the generator
// derived; absent operands; and the fusion-pattern checks on a conv + RELU
// chain.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "ConstraintChecks.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <functional>

using namespace accelgen;
using namespace accelgen::test;

namespace accelgen {
namespace test {

bool isSquareFilter(const ir::Graph &, const ir::Operator &Op) {
  return Op.getInt("filter_h") == Op.getInt("filter_w");
}

bool convComesFirst(const ir::Graph &, const target::Captures &C) {
  return C.index("conv") == 0;
}

} // namespace test
} // namespace accelgen

namespace {

ir::Tensor tensor(std::vector<int32_t> Shape, ir::DType Type, float Scale,
                  int64_t ZeroPoint, bool Constant = false) {
  ir::Tensor T;
  T.Shape = std::move(Shape);
  T.Type = Type;
  T.Quant = ir::QuantParams{{Scale}, {ZeroPoint}, 0};
  T.IsConstant = Constant;
  return T;
}

/// input -> CONV_2D(weights, bias) -> RELU, satisfying every constraint.
ir::Graph convGraph() {
  ir::Graph G;
  G.Tensors = {tensor({1, 8, 8, 16}, ir::DType::I8, 0.5f, -128),
               tensor({1, 3, 3, 16}, ir::DType::I8, 0.25f, 0, true),
               tensor({16}, ir::DType::I32, 0.125f, 0, true),
               tensor({1, 8, 8, 16}, ir::DType::I8, 1.0f, -128),
               tensor({1, 8, 8, 16}, ir::DType::I8, 1.0f, -128)};
  ir::Operator Conv;
  Conv.Type = "CONV_2D";
  Conv.Inputs = {0, 1, 2};
  Conv.Outputs = {3};
  Conv.Attrs = {{"stride_h", int64_t(1)},
                {"stride_w", int64_t(1)},
                {"filter_h", int64_t(3)},
                {"filter_w", int64_t(3)},
                {"depth_multiplier", int64_t(1)},
                {"padding", std::string("SAME")},
                {"fused_activation", std::string("NONE")},
                {"beta", 1.0},
                {"flag", false}};
  ir::Operator Relu;
  Relu.Type = "RELU";
  Relu.Inputs = {3};
  Relu.Outputs = {4};
  G.Operators = {Conv, Relu};
  return G;
}

const OperatorCheck &operatorCheck(llvm::StringRef Id) {
  for (size_t I = 0; I < NumOperatorChecks; ++I)
    if (Id == OperatorChecks[I].Id)
      return OperatorChecks[I];
  FAIL("no generated check " << Id.str());
  return OperatorChecks[0];
}

const PatternCheck &patternCheck(llvm::StringRef Id) {
  for (size_t I = 0; I < NumPatternChecks; ++I)
    if (Id == PatternChecks[I].Id)
      return PatternChecks[I];
  FAIL("no generated check " << Id.str());
  return PatternChecks[0];
}

target::Captures captures() {
  target::Captures C;
  C.bind("conv", 0);
  C.bind("act", 1);
  return C;
}

/// Runs check \p Id on the convolution of \p G; the message when it
/// rejects, "" when it accepts.
std::string rejection(llvm::StringRef Id, const ir::Graph &G) {
  std::string Message;
  if (operatorCheck(Id).Check(G, G.Operators[0], Message))
    return "";
  CHECK(!Message.empty());
  return Message;
}

/// Runs pattern check \p Id on conv + RELU in \p G.
std::string patternRejection(llvm::StringRef Id, const ir::Graph &G) {
  std::string Message;
  if (patternCheck(Id).Check(G, captures(), Message))
    return "";
  CHECK(!Message.empty());
  return Message;
}

/// \p Id's rejection after \p Change to the convolution graph.
std::string rejectionAfter(llvm::StringRef Id,
                           const std::function<void(ir::Graph &)> &Change) {
  ir::Graph G = convGraph();
  Change(G);
  return rejection(Id, G);
}

ir::Operator &conv(ir::Graph &G) { return G.Operators[0]; }

} // namespace

TEST_CASE("the tables hold every generated check") {
  CHECK(NumOperatorChecks == 24);
  CHECK(NumPatternChecks == 3);
  CHECK(NumBoundaryRows == 27);
}

TEST_CASE("every check accepts the reference convolution") {
  ir::Graph G = convGraph();
  for (size_t I = 0; I < NumOperatorChecks; ++I) {
    std::string Id = OperatorChecks[I].Id;
    CAPTURE(Id);
    CHECK(rejection(Id, G) == "");
  }
  for (size_t I = 0; I < NumPatternChecks; ++I) {
    std::string Id = PatternChecks[I].Id;
    CAPTURE(Id);
    CHECK(patternRejection(Id, G) == "");
  }
}

TEST_CASE("constraint conv_stride") {
  CHECK(rejectionAfter("conv_stride", [](ir::Graph &G) {
          conv(G).Attrs["stride_h"] = int64_t(5);
        }) == "stride_h = 5, stride_w = 1: stride must be in [1, 4]");
  CHECK(rejectionAfter("conv_stride", [](ir::Graph &G) {
          conv(G).Attrs["stride_w"] = int64_t(0);
        }) == "stride_h = 1, stride_w = 0: stride must be in [1, 4]");
}

TEST_CASE("constraint stride_h_max") {
  CHECK(rejectionAfter("stride_h_max", [](ir::Graph &G) {
          conv(G).Attrs["stride_h"] = int64_t(5);
        }) == "stride_h = 5, must be at most 4");
  // A missing attribute reads as 0.
  CHECK(rejectionAfter("stride_h_max", [](ir::Graph &G) {
          conv(G).Attrs.erase("stride_h");
        }) == "");
}

TEST_CASE("constraint conv_weights_const") {
  CHECK(rejectionAfter("conv_weights_const", [](ir::Graph &G) {
          G.Tensors[1].IsConstant = false;
        }) == "input(1).is_constant = false: weights must be constant");
  CHECK(rejectionAfter("conv_weights_const", [](ir::Graph &G) {
          conv(G).Inputs = {0};
        }) == "input(1).is_constant = false: weights must be constant");
}

TEST_CASE("constraint dw_mult") {
  CHECK(rejectionAfter("dw_mult", [](ir::Graph &G) {
          conv(G).Attrs["depth_multiplier"] = int64_t(2);
        }) == "input(1).dim(3) = 16, input(0).channels = 16, "
              "depth_multiplier = 2: filter depth must be input channels x "
              "multiplier");
  CHECK(rejectionAfter("dw_mult", [](ir::Graph &G) {
          G.Tensors[1].Shape = {1, 3, 3, 32};
          conv(G).Attrs["depth_multiplier"] = int64_t(2);
        }) == "");
}

TEST_CASE("constraint pad_small") {
  CHECK(rejectionAfter("pad_small", [](ir::Graph &G) {
          conv(G).Attrs["filter_h"] = int64_t(16);
        }) == "padding = \"SAME\", filter_h = 16: SAME padding needs a "
              "filter of at most 15");
  CHECK(rejectionAfter("pad_small", [](ir::Graph &G) {
          conv(G).Attrs["filter_h"] = int64_t(16);
          conv(G).Attrs["padding"] = std::string("VALID");
        }) == "");
}

TEST_CASE("constraint quant_15") {
  CHECK(rejectionAfter("quant_15", [](ir::Graph &G) {
          G.Tensors[3].Quant->Scales = {0.1f};
        }) == "input(0).scale = 0.5, input(1).scale = 0.25, "
              "output(0).scale = 0.1: input scale x weight scale must be "
              "below the output scale");
  // Equal is not below.
  CHECK(rejectionAfter("quant_15", [](ir::Graph &G) {
          G.Tensors[3].Quant->Scales = {0.125f};
        }) != "");
  // Without quantization every scale reads 0.
  CHECK(rejectionAfter("quant_15", [](ir::Graph &G) {
          for (ir::Tensor &T : G.Tensors)
            T.Quant.reset();
        }) == "input(0).scale = 0.0, input(1).scale = 0.0, "
              "output(0).scale = 0.0: input scale x weight scale must be "
              "below the output scale");
}

TEST_CASE("constraint types") {
  CHECK(rejectionAfter("types", [](ir::Graph &G) {
          G.Tensors[0].Type = ir::DType::I16;
        }) == "input(0).dtype = i16, input(1).per_channel = false: 8-bit "
              "input and per-tensor weights");
  CHECK(rejectionAfter("types", [](ir::Graph &G) {
          G.Tensors[0].Type = ir::DType::U8;
          G.Tensors[1].Quant->Scales = {0.25f, 0.5f};
        }) == "input(0).dtype = u8, input(1).per_channel = true: 8-bit "
              "input and per-tensor weights");
}

TEST_CASE("constraint rank4") {
  CHECK(rejectionAfter("rank4", [](ir::Graph &G) {
          G.Tensors[0].Shape = {8, 8, 16};
        }) == "input(0).rank = 3, must be 4");
}

TEST_CASE("constraint fc_depth") {
  CHECK(rejectionAfter("fc_depth", [](ir::Graph &G) {
          G.Tensors[1].Shape = {16};
        }) == "input(1).dim(1) = 0, must be in [1, 2048]");
}

TEST_CASE("constraint pool_filter") {
  CHECK(rejectionAfter("pool_filter", [](ir::Graph &G) {
          conv(G).Attrs["filter_w"] = int64_t(22);
        }) == "filter_h = 3, filter_w = 22: window must have at most 64 "
              "elements");
}

TEST_CASE("constraint softmax_beta") {
  CHECK(rejectionAfter("softmax_beta", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = 0.5;
        }) == "beta = 0.5, must be 1.0");
  // An integer-valued attribute reads as a float.
  CHECK(rejectionAfter("softmax_beta", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = int64_t(1);
        }) == "");
}

TEST_CASE("constraint act_kind") {
  CHECK(rejectionAfter("act_kind", [](ir::Graph &G) {
          conv(G).Attrs["fused_activation"] = std::string("TANH");
        }) == "fused_activation = \"TANH\", must be one of {\"NONE\", "
              "\"RELU\"}");
}

TEST_CASE("constraint zero_points") {
  CHECK(rejectionAfter("zero_points", [](ir::Graph &G) {
          G.Tensors[3].Quant->ZeroPoints = {0};
        }) == "input(0).zero_point = -128, output(0).zero_point = 0: output "
              "zero point must be -128");
}

TEST_CASE("constraint channels_div") {
  CHECK(rejectionAfter("channels_div", [](ir::Graph &G) {
          G.Tensors[0].Shape = {1, 8, 8, 18};
        }) == "input(0).dim(-1) = 18, input(0).channels = 18: channels must "
              "be a multiple of 4, at most 256");
  CHECK(rejectionAfter("channels_div", [](ir::Graph &G) {
          G.Tensors[0].Shape = {1, 8, 8, 260};
        }) != "");
}

TEST_CASE("constraint bias_i32") {
  CHECK(rejectionAfter("bias_i32", [](ir::Graph &G) {
          conv(G).Inputs[2] = -1;
        }) == "input(2).dtype = none, must be i32");
  CHECK(rejectionAfter("bias_i32", [](ir::Graph &G) {
          G.Tensors[2].Type = ir::DType::I64;
        }) == "input(2).dtype = i64, must be i32");
}

TEST_CASE("constraint has_bias: `none` is the dtype of an absent operand") {
  CHECK(rejectionAfter("has_bias", [](ir::Graph &G) {
          conv(G).Inputs[2] = -1;
        }) == "input(2).dtype = none, must not be none");
  CHECK(rejectionAfter("has_bias", [](ir::Graph &G) {
          G.Tensors[2].Type = ir::DType::I64;
        }) == "");
}

TEST_CASE("constraint bias_i32_or_none: `none` in a set") {
  CHECK(rejectionAfter("bias_i32_or_none", [](ir::Graph &G) {
          conv(G).Inputs[2] = -1;
        }) == "");
  CHECK(rejectionAfter("bias_i32_or_none", [](ir::Graph &) {}) == "");
  CHECK(rejectionAfter("bias_i32_or_none", [](ir::Graph &G) {
          G.Tensors[2].Type = ir::DType::I64;
        }) == "input(2).dtype = i64, must be one of {i32, none}");
}

TEST_CASE("constraint no_trap") {
  // Division and remainder by zero read 0; overflow wraps.
  CHECK(rejectionAfter("no_trap", [](ir::Graph &G) {
          conv(G).Attrs["filter_w"] = int64_t(1);
        }) == "");
  CHECK(rejectionAfter("no_trap", [](ir::Graph &G) {
          conv(G).Attrs["stride_h"] = int64_t(INT64_MAX);
          conv(G).Attrs["filter_h"] = int64_t(INT64_MAX);
          conv(G).Attrs["stride_w"] = int64_t(INT64_MIN);
        }) != "");
}

TEST_CASE("constraint counts") {
  CHECK(rejectionAfter("counts", [](ir::Graph &G) {
          conv(G).Inputs.push_back(0);
        }) == "num_inputs = 4, num_outputs = 1: three operands, one result");
}

TEST_CASE("constraint not_flag") {
  CHECK(rejectionAfter("not_flag", [](ir::Graph &G) {
          conv(G).Attrs["flag"] = true;
        }) == "flag = true, stride_w = 1: flag must be clear");
}

TEST_CASE("constraint conv_macs") {
  // Filter [1, 3, 3, 16] over 1024 outputs: 147456 MACs, 576 steps.
  CHECK(rejectionAfter("conv_macs", [](ir::Graph &G) {
          G.Tensors[1].Shape = {1, 5, 5, 16};
        }) == "macs = 409600, stride_w = 1: at most 1024 steps of 256 MACs");
  // Operators analysis does not count have no MACs.
  CHECK(rejectionAfter("conv_macs", [](ir::Graph &G) {
          G.Tensors[1].Shape = {1, 5, 5, 16};
          conv(G).Type = "DEMO_CONV_2D";
        }) == "");
}

TEST_CASE("constraint call_terms") {
  CHECK(rejectionAfter("call_terms", [](ir::Graph &G) {
          G.Tensors[0].Shape = {1, 8, 8, 40};
        }) == "input(0).channels = 40, stride_h = 1, filter_h = 3, "
              "filter_w = 3, beta = 1.0, stride_w = 1: every built-in "
              "function");
  // select picks filter_h once stride_h > 1.
  CHECK(rejectionAfter("call_terms", [](ir::Graph &G) {
          conv(G).Attrs["filter_h"] = int64_t(5);
        }) == "");
  CHECK(rejectionAfter("call_terms", [](ir::Graph &G) {
          conv(G).Attrs["filter_h"] = int64_t(5);
          conv(G).Attrs["stride_h"] = int64_t(2);
        }) != "");
  // ceil(0.6 * 1.5) = 1 < min(2, 1) fails once stride_w is 2.
  CHECK(rejectionAfter("call_terms", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = 0.6;
          conv(G).Attrs["stride_w"] = int64_t(2);
        }) != "");
  CHECK(rejectionAfter("call_terms", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = 0.6;
        }) == "");
}

TEST_CASE("constraint call_limits") {
  // align wraps past INT64_MAX.
  CHECK(rejectionAfter("call_limits", [](ir::Graph &G) {
          conv(G).Attrs["stride_h"] = int64_t(INT64_MAX);
          conv(G).Attrs["filter_h"] = int64_t(2);
        }) == "stride_h = 9223372036854775807, filter_h = 2, beta = 1.0: "
              "aligned stride and a positive beta");
  // A multiple of 0 or less leaves the value as it is.
  for (int64_t N : {int64_t(0), int64_t(-4), int64_t(INT64_MIN)})
    CHECK(rejectionAfter("call_limits", [&](ir::Graph &G) {
            conv(G).Attrs["stride_h"] = int64_t(INT64_MAX);
            conv(G).Attrs["filter_h"] = N;
          }) == "");
  // ceil saturates, and NaN reads 0.
  CHECK(rejectionAfter("call_limits", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = 1e300;
        }) == "");
  CHECK(rejectionAfter("call_limits", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = -1e300;
        }) != "");
  CHECK(rejectionAfter("call_limits", [](ir::Graph &G) {
          conv(G).Attrs["beta"] = std::nan("");
        }) == "stride_h = 1, filter_h = 3, beta = nan: aligned stride and a "
              "positive beta");
}

TEST_CASE("constraint dw_square") {
  CHECK(rejectionAfter("dw_square", [](ir::Graph &G) {
          conv(G).Attrs["filter_w"] = int64_t(5);
        }) == "filter must be square");
}

TEST_CASE("an operator without operands or attributes never crashes") {
  ir::Graph G;
  ir::Operator Empty;
  for (size_t I = 0; I < NumOperatorChecks; ++I) {
    std::string Message;
    OperatorChecks[I].Check(G, Empty, Message);
  }
  std::string Message;
  CHECK(!operatorCheck("rank4").Check(G, Empty, Message));
  CHECK(Message == "input(0).rank = 0, must be 4");
}

TEST_CASE("pattern constraint conv_act") {
  ir::Graph G = convGraph();
  G.Operators[0].Attrs["stride_h"] = int64_t(3);
  G.Tensors[3].Quant->ZeroPoints = {5};
  CHECK(patternRejection("conv_act", G) ==
        "conv.stride_h = 3, act.input(0).zero_point = 5, "
        "conv.output(0).zero_point = 5: the activation must keep the "
        "convolution's zero point");
  G.Operators[0].Attrs["stride_h"] = int64_t(2);
  CHECK(patternRejection("conv_act", G) == "");
  // The activation reading another tensor.
  G.Operators[1].Inputs = {0};
  CHECK(patternRejection("conv_act", G) ==
        "conv.stride_h = 2, act.input(0).zero_point = -128, "
        "conv.output(0).zero_point = 5: the activation must keep the "
        "convolution's zero point");
}

TEST_CASE("pattern constraint act_rank") {
  ir::Graph G = convGraph();
  G.Tensors[4].Shape = {1, 1, 8, 8, 16};
  CHECK(patternRejection("act_rank", G) ==
        "act.output(0).rank = 5, must be in [1, 4]");
  // An unbound capture reads as an operator without results.
  std::string Message;
  CHECK(!patternCheck("act_rank").Check(G, target::Captures(), Message));
  CHECK(Message == "act.output(0).rank = 0, must be in [1, 4]");
}

TEST_CASE("pattern constraint conv_first") {
  ir::Graph G = convGraph();
  target::Captures C;
  C.bind("conv", 1);
  std::string Message;
  CHECK(!patternCheck("conv_first").Check(G, C, Message));
  CHECK(Message == "the convolution must come first");
}

TEST_CASE("boundary cases decide the generated checks") {
  for (size_t I = 0; I < NumBoundaryRows; ++I) {
    const BoundaryRow &Row = BoundaryRows[I];
    std::string Case = std::string(Row.Id) + ": " + Row.Ref + " = " +
                       std::to_string(Row.Value);
    CAPTURE(Case);
    ir::Graph G = convGraph();
    bool InPattern = *Row.Capture != '\0';
    ir::Operator &Op =
        G.Operators[InPattern && llvm::StringRef(Row.Capture) == "act" ? 1 : 0];
    if (Row.What == BoundaryRow::Attr) {
      Op.Attrs[Row.AttrName] = Row.Value;
    } else {
      int32_t T = Row.IsOutput ? Op.output(Row.Index) : Op.input(Row.Index);
      std::vector<int32_t> &Shape = G.tensor(T).Shape;
      if (Row.What == BoundaryRow::Rank) {
        Shape.resize(static_cast<size_t>(Row.Value), 1);
      } else {
        int64_t Axis = Row.What == BoundaryRow::Channels ? -1 : Row.Axis;
        if (Axis < 0)
          Axis += static_cast<int64_t>(Shape.size());
        REQUIRE(Axis >= 0);
        REQUIRE(Axis < static_cast<int64_t>(Shape.size()));
        Shape[Axis] = static_cast<int32_t>(Row.Value);
      }
    }
    std::string Message =
        InPattern ? patternRejection(Row.Id, G) : rejection(Row.Id, G);
    CHECK(Message.empty() == Row.Accept);
  }
}

TEST_CASE("boundary cases of conv_stride, as generated") {
  std::vector<std::string> Got;
  for (size_t I = 0; I < NumBoundaryRows; ++I)
    if (llvm::StringRef(BoundaryRows[I].Id) == "conv_stride")
      Got.push_back(std::string(BoundaryRows[I].Ref) + "=" +
                    std::to_string(BoundaryRows[I].Value) +
                    (BoundaryRows[I].Accept ? ":accept" : ":reject"));
  CHECK(Got == std::vector<std::string>{
                   "stride_h=0:reject", "stride_h=1:accept",
                   "stride_h=4:accept", "stride_h=5:reject",
                   "stride_w=0:reject", "stride_w=1:accept",
                   "stride_w=4:accept", "stride_w=5:reject"});
}
