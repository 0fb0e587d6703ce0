//===- IRTest.cpp - Graph IR and verifier tests ---------------------------===//
//
// The verifier on small hand-built graphs: a well-formed graph passes, and each
// kind of problem is reported once, naming where it is ("tensor 1 'w'",
// "operator 0 (CONV_2D)", "graph input 7").
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "ir/Calls.h"
#include "ir/Verifier.h"

#include "llvm/Support/Error.h"

#include <cmath>
#include <limits>

using namespace accelgen;
using Problems = std::vector<std::string>;

namespace {

ir::QuantParams perTensor(float Scale, int64_t ZeroPoint) {
  ir::QuantParams Q;
  Q.Scales = {Scale};
  Q.ZeroPoints = {ZeroPoint};
  return Q;
}

ir::Tensor tensor(std::string Name, std::vector<int32_t> Shape, ir::DType Type,
                  bool Constant = false) {
  ir::Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = Type;
  T.IsConstant = Constant;
  if (Constant)
    T.Data.assign(static_cast<size_t>(T.byteSize()), 0);
  return T;
}

ir::Operator op(std::string Type, std::vector<int32_t> Inputs,
                std::vector<int32_t> Outputs) {
  ir::Operator Op;
  Op.Type = std::move(Type);
  Op.Inputs = std::move(Inputs);
  Op.Outputs = std::move(Outputs);
  return Op;
}

/// in -> CONV_2D(w, b) -> mid -> RELU -> out, quantized like a real model.
ir::Graph validGraph() {
  ir::Graph G;
  G.Tensors.push_back(tensor("in", {1, 4, 4, 2}, ir::DType::I8));
  G.Tensors.push_back(tensor("w", {3, 1, 1, 2}, ir::DType::I8, true));
  G.Tensors.push_back(tensor("b", {3}, ir::DType::I32, true));
  G.Tensors.push_back(tensor("mid", {1, 4, 4, 3}, ir::DType::I8));
  G.Tensors.push_back(tensor("out", {1, 4, 4, 3}, ir::DType::I8));
  G.Tensors[0].Quant = perTensor(0.5f, -3);
  ir::QuantParams W;
  W.Scales = {0.1f, 0.2f, 0.3f};
  W.ZeroPoints = {0, 0, 0};
  W.Axis = 0;
  G.Tensors[1].Quant = W;
  G.Tensors[3].Quant = perTensor(0.25f, -128);
  G.Tensors[4].Quant = perTensor(0.25f, -128);
  G.Operators.push_back(op("CONV_2D", {0, 1, 2}, {3}));
  G.Operators.push_back(op("RELU", {3}, {4}));
  G.Inputs = {0};
  G.Outputs = {4};
  return G;
}

} // namespace

TEST_CASE("a well-formed graph has no problems") {
  ir::Graph G = validGraph();
  CHECK(ir::verifyGraph(G) == Problems{});
  // An omitted optional operand (-1) is fine.
  G.Operators[0].Inputs[2] = -1;
  CHECK(ir::verifyGraph(G) == Problems{});
  // So are scalars and zero-sized tensors.
  G.Tensors.push_back(tensor("scalar", {}, ir::DType::F32, true));
  G.Tensors.push_back(tensor("empty", {0, 5}, ir::DType::F32, true));
  CHECK(ir::verifyGraph(G) == Problems{});
}

TEST_CASE("tensor shapes") {
  ir::Graph G = validGraph();

  SUBCASE("rank above the maximum") {
    G.Tensors[3].Shape = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 3 'mid': rank 9 exceeds the maximum of 8"});
  }
  SUBCASE("negative dimension") {
    G.Tensors[0].Shape = {1, 4, -4, 2};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 0 'in': dimension 2 is negative (-4)"});
  }
  SUBCASE("more elements than an int32 can count") {
    G.Tensors[3].Shape = {1 << 16, 1 << 15};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 3 'mid': shape 65536x32768 has more than "
                   "2147483647 elements"});
  }
  SUBCASE("a product that overflows int64 saturates, never wraps") {
    G.Tensors[3].Shape = {1 << 30, 1 << 30, 1 << 30};
    CHECK(G.Tensors[3].numElements() == INT64_MAX);
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 3 'mid': shape 1073741824x1073741824x1073741824 "
                   "has more than 2147483647 elements"});
  }
}

TEST_CASE("constant data must match the shape") {
  ir::Graph G = validGraph();
  G.Tensors[2].Data.resize(5);
  CHECK(ir::verifyGraph(G) ==
        Problems{"tensor 2 'b': constant data has 5 bytes, but shape 3 of "
                 "i32 needs 12"});
}

TEST_CASE("packed int4 data is constant int8 in [-8, 7]") {
  ir::Graph G = validGraph();
  G.Tensors[1].Data.assign(G.Tensors[1].Data.size(), 0xF8); // -8
  G.Tensors[1].PackedInt4 = true;
  CHECK(ir::verifyGraph(G) == Problems{});
  G.Tensors[1].Data[0] = 8;
  CHECK(ir::verifyGraph(G) ==
        Problems{"tensor 1 'w': packed int4 data must be constant int8 "
                 "values in [-8, 7]"});
  G = validGraph();
  G.Tensors[0].PackedInt4 = true;
  CHECK(ir::verifyGraph(G) ==
        Problems{"tensor 0 'in': packed int4 data must be constant int8 "
                 "values in [-8, 7]"});
  // Two values a byte, the first in the low nibble; an odd count leaves the
  // last high nibble 0.
  const std::vector<uint8_t> Values = {0xF8, 7, 0, 0xFF, 5};
  CHECK(ir::packInt4(Values) == std::vector<uint8_t>{0x78, 0xF0, 0x05});
  CHECK(ir::unpackInt4(ir::packInt4(Values), 5) == Values);
}

TEST_CASE("quantization parameters") {
  ir::Graph G = validGraph();
  ir::QuantParams &W = *G.Tensors[1].Quant;

  SUBCASE("no scale") {
    G.Tensors[0].Quant = ir::QuantParams();
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 0 'in': quantization has no scale"});
  }
  SUBCASE("scales and zero points differ in number") {
    W.ZeroPoints = {0, 0};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 1 'w': 3 scales but 2 zero points"});
  }
  SUBCASE("a scale that is not finite") {
    G.Tensors[3].Quant->Scales = {std::numeric_limits<float>::infinity()};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 3 'mid': quantization scale inf is not a finite "
                   "positive number"});
  }
  SUBCASE("a tiny negative scale is shown as it is") {
    G.Tensors[3].Quant->Scales = {-1.5e-5f};
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 3 'mid': quantization scale -1.49999996e-05 is "
                   "not a finite positive number"});
  }
  SUBCASE("a negative scale") {
    W.Scales[1] = -0.5f;
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 1 'w': quantization scale -0.5 is not a finite "
                   "positive number"});
  }
  SUBCASE("per-channel axis out of range") {
    W.Axis = 4;
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 1 'w': quantization axis 4 is out of range for "
                   "rank 4"});
  }
  SUBCASE("per-channel count does not match the channels") {
    W.Axis = 3;
    CHECK(ir::verifyGraph(G) ==
          Problems{"tensor 1 'w': 3 per-channel scales, but dimension 3 has "
                   "2 channels"});
  }
}

TEST_CASE("graph inputs and outputs in range") {
  ir::Graph G = validGraph();
  G.Inputs = {0, 7};
  G.Outputs = {-1};
  CHECK(ir::verifyGraph(G) ==
        Problems{"graph input 7 is out of range (5 tensors)",
                 "graph output -1 is out of range (5 tensors)"});
}

TEST_CASE("operator operands") {
  ir::Graph G = validGraph();

  SUBCASE("input out of range") {
    G.Operators[1].Inputs = {42};
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 1 (RELU): input 0 is tensor 42, but the graph "
                   "has 5 tensors"});
  }
  SUBCASE("negative input other than the omitted marker") {
    G.Operators[0].Inputs[2] = -2;
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 0 (CONV_2D): input 2 is tensor -2, but the "
                   "graph has 5 tensors"});
  }
  SUBCASE("output out of range") {
    G.Operators[0].Outputs = {-1};
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 0 (CONV_2D): output 0 is tensor -1, but the "
                   "graph has 5 tensors"});
  }
  SUBCASE("output is a constant") {
    G.Operators[1].Outputs = {2};
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 1 (RELU): output 0 is the constant tensor 2 'b'"});
  }
}

TEST_CASE("operator order and single writers") {
  ir::Graph G = validGraph();

  SUBCASE("a tensor written twice") {
    G.Operators[1].Outputs = {3};
    // RELU now reads and writes 'mid', which is both a second writer and a
    // cycle; the writer conflict is reported first and alone.
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 1 (RELU): writes tensor 3 'mid', already "
                   "written by operator 0"});
  }
  SUBCASE("a graph input written by an operator") {
    G.Inputs = {0, 4};
    CHECK(ir::verifyGraph(G) ==
          Problems{"graph input tensor 4 'out' is written by operator 1"});
  }
  SUBCASE("an operator reading its own output") {
    G.Operators[1].Inputs = {4};
    CHECK(ir::verifyGraph(G) == Problems{"operators form a cycle: 1 -> 1"});
  }
  SUBCASE("two operators feeding each other") {
    // CONV_2D reads 'out' instead of 'in': 0 needs 1, 1 needs 0.
    G.Operators[0].Inputs[0] = 4;
    CHECK(ir::verifyGraph(G) ==
          Problems{"operators form a cycle: 0 -> 1 -> 0"});
  }
  SUBCASE("a longer cycle") {
    G.Tensors.push_back(tensor("extra", {1, 4, 4, 3}, ir::DType::I8));
    G.Operators.push_back(op("RELU", {4}, {5}));
    G.Operators[0].Inputs[0] = 5;
    G.Outputs = {5};
    CHECK(ir::verifyGraph(G) ==
          Problems{"operators form a cycle: 0 -> 2 -> 1 -> 0"});
  }
  SUBCASE("operators out of order") {
    std::swap(G.Operators[0], G.Operators[1]);
    CHECK(ir::verifyGraph(G) ==
          Problems{"operator 0 (RELU): reads tensor 3 'mid' before operator "
                   "1 writes it"});
  }
}

TEST_CASE("names must be valid UTF-8") {
  ir::Graph G = validGraph();
  G.Name = "main\xc3";
  G.Tensors[0].Name = "in\xff";
  G.Operators[1].CustomCode = "\x80";
  // The location shows the bad byte as U+FFFD (EF BF BD in UTF-8).
  CHECK(ir::verifyGraph(G) ==
        Problems{"graph name is not valid UTF-8",
                 "tensor 0 'in\xef\xbf\xbd': name is not valid UTF-8",
                 "operator 1 (RELU): custom code is not valid UTF-8"});

  ir::Model M;
  M.Description = "\xfe";
  M.Graphs.push_back(validGraph());
  llvm::Error E = ir::verifyModel(M);
  REQUIRE(bool(E));
  CHECK(llvm::toString(std::move(E)) == "model description is not valid UTF-8");
}

TEST_CASE("all problems are reported, not only the first") {
  ir::Graph G = validGraph();
  G.Tensors[0].Shape = {-1};
  G.Tensors[2].Data.clear();
  G.Operators[1].Inputs = {9};
  CHECK(ir::verifyGraph(G) ==
        Problems{"tensor 0 'in': dimension 0 is negative (-1)",
                 "tensor 2 'b': constant data has 0 bytes, but shape 3 of "
                 "i32 needs 12",
                 "operator 1 (RELU): input 0 is tensor 9, but the graph has "
                 "5 tensors"});
}

TEST_CASE("verifyModel names the graph of each problem") {
  ir::Model M;
  M.Graphs.push_back(validGraph());
  M.Graphs.push_back(validGraph());
  CHECK(!llvm::errorToBool(ir::verifyModel(M)));

  M.Graphs[1].Tensors[2].Data.resize(1);
  M.Graphs[1].Outputs = {5};
  llvm::Error E = ir::verifyModel(M);
  REQUIRE(bool(E));
  CHECK(llvm::toString(std::move(E)) ==
        "graph 1: tensor 2 'b': constant data has 1 bytes, but shape 3 of i32 "
        "needs 12; graph 1: graph output 5 is out of range (5 tensors)");
}

TEST_CASE("tensor and operator accessors") {
  ir::Tensor T = tensor("t", {2, 3, 4}, ir::DType::I16);
  CHECK(T.numElements() == 24);
  CHECK(T.byteSize() == 48);
  CHECK(T.rank() == 3);
  CHECK(ir::formatShape(T.Shape) == "2x3x4");
  CHECK(ir::formatShape({}) == "scalar");
  T.Shape = {2, -3};
  CHECK(T.numElements() == -1);

  ir::Operator Op;
  Op.Attrs = {{"stride_h", int64_t(2)},
              {"beta", 0.5},
              {"keep_dims", true},
              {"padding", std::string("VALID")},
              {"new_shape", std::vector<int64_t>{1, -1}}};
  CHECK(Op.hasAttr("stride_h"));
  CHECK(!Op.hasAttr("stride_w"));
  CHECK(Op.getInt("stride_h") == 2);
  CHECK(Op.getInt("stride_w", 1) == 1);
  // A present attribute of another type gives the default too.
  CHECK(Op.getInt("padding", 7) == 7);
  CHECK(Op.getFloat("beta") == 0.5);
  CHECK(Op.getBool("keep_dims"));
  CHECK(Op.getString("padding") == "VALID");
  CHECK(Op.getInts("new_shape") == std::vector<int64_t>{1, -1});
  CHECK(Op.getInts("squeeze_dims").empty());
  Op.Inputs = {3, -1};
  CHECK(Op.input(0) == 3);
  CHECK(Op.input(1) == -1);
  CHECK(Op.input(5) == -1);
  CHECK(Op.output(0) == -1);
}

TEST_CASE("dtype names round trip") {
  for (ir::DType T :
       {ir::DType::I8, ir::DType::U8, ir::DType::I16, ir::DType::I32,
        ir::DType::I64, ir::DType::F16, ir::DType::F32, ir::DType::Bool}) {
    std::optional<ir::DType> Back = ir::parseDType(ir::dtypeName(T));
    REQUIRE(Back.has_value());
    CHECK(*Back == T);
  }
  CHECK(ir::dtypeSize(ir::DType::I16) == 2);
  CHECK(ir::dtypeSize(ir::DType::I64) == 8);
  CHECK(!ir::parseDType("int8").has_value());
}

TEST_CASE("the calls of a long chain of graphs are checked without "
          "recursion, and a cycle at its end is found") {
  // Graph k calls graph k + 1 once; the last calls graph 1.
  constexpr size_t N = 100000;
  ir::Model M;
  M.Graphs.resize(N);
  for (size_t K = 0; K < N; ++K) {
    ir::Operator Op;
    Op.Type = "CALL_ONCE";
    Op.setAttr(ir::attr::InitSubgraph, int64_t(K + 1 < N ? K + 1 : 1));
    M.Graphs[K].Operators.push_back(Op);
  }
  std::vector<std::string> Found = ir::verifyCalls(M);
  REQUIRE(Found.size() == 1);
  CHECK(llvm::StringRef(Found[0])
            .startswith("graph 1 calls itself (1 -> 2 -> 3 -> "));
  CHECK(llvm::StringRef(Found[0]).endswith(" -> 99999 -> 1)"));
  CHECK(ir::reachableGraphs(M, M.main()).size() == N - 1);
  // Without the cycle the chain is sound.
  M.Graphs.back().Operators.clear();
  CHECK(ir::verifyCalls(M).empty());
}
