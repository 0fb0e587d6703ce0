//===- OnnxImportTest.cpp - The ONNX reader
//--------------------------------===//
//
// How the ONNX reader lays ONNX's graphs out in the IR (weights, layouts,
// padding, folded transposes), what it refuses and how it says so (ONNX's
// node tests of what it does not take, malformed and truncated files,
// hand-made models), and the CLI reading .onnx files by content.
//
//===----------------------------------------------------------------------===//
#include "OnnxTestData.h"
#include "TestSupport.h"
#include "import/ModelFile.h"
#include "import/ONNXImporter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>

using namespace accelgen;

namespace {

/// Node tests of operators the reader takes, with what it does not take,
/// and what the refusal must say.
struct Refusal {
  const char *Name;
  const char *Says;
};
const Refusal Refused[] = {
    {"test_maxpool_2d_ceil", "ceil_mode rounding the output up"},
    {"test_maxpool_2d_dilations", "dilated pooling"},
    {"test_maxpool_3d_default", "only 2-D ones"},
    {"test_averagepool_2d_pads", "left out of the count"},
    {"test_gemm_alpha", "alpha other than 1"},
    {"test_gemm_beta", "beta other than 1"},
    {"test_gemm_transposeA", "transA = 1"},
    {"test_softmax_axis_0", "only the last axis"},
    {"test_matmul_4d", "NCHW feature map"},
    {"test_convtranspose", "operator not supported by the ONNX reader"},
};

/// A model of one graph at \p Opset, to which tests add nodes.
struct ModelMaker {
  ::onnx::ModelProto M;
  ::onnx::GraphProto *G;

  explicit ModelMaker(int64_t Opset = 13) {
    M.set_ir_version(7);
    M.set_producer_name("accelgen-test");
    ::onnx::OperatorSetIdProto *O = M.add_opset_import();
    O->set_domain("");
    O->set_version(Opset);
    G = M.mutable_graph();
    G->set_name("g");
  }
  void value(::onnx::ValueInfoProto *V, const std::string &Name,
             std::vector<int64_t> Dims, int32_t Type) {
    V->set_name(Name);
    auto *T = V->mutable_type()->mutable_tensor_type();
    T->set_elem_type(Type);
    for (int64_t D : Dims)
      T->mutable_shape()->add_dim()->set_dim_value(D);
  }
  void input(const std::string &Name, std::vector<int64_t> Dims,
             int32_t Type = ::onnx::TensorProto_DataType_FLOAT) {
    value(G->add_input(), Name, std::move(Dims), Type);
  }
  void output(const std::string &Name, std::vector<int64_t> Dims,
              int32_t Type = ::onnx::TensorProto_DataType_FLOAT) {
    value(G->add_output(), Name, std::move(Dims), Type);
  }
  ::onnx::TensorProto *floats(const std::string &Name,
                              std::vector<int64_t> Dims,
                              const std::vector<float> &V) {
    ::onnx::TensorProto *T = G->add_initializer();
    T->set_name(Name);
    T->set_data_type(::onnx::TensorProto_DataType_FLOAT);
    for (int64_t D : Dims)
      T->add_dims(D);
    for (float F : V)
      T->add_float_data(F);
    return T;
  }
  ::onnx::TensorProto *raw(const std::string &Name, int32_t Type,
                           std::vector<int64_t> Dims, const void *Data,
                           size_t Bytes) {
    ::onnx::TensorProto *T = G->add_initializer();
    T->set_name(Name);
    T->set_data_type(Type);
    for (int64_t D : Dims)
      T->add_dims(D);
    T->set_raw_data(Data, Bytes);
    return T;
  }
  ::onnx::NodeProto *node(const std::string &Op, std::vector<std::string> In,
                          std::vector<std::string> Out) {
    ::onnx::NodeProto *N = G->add_node();
    N->set_op_type(Op);
    N->set_name(Op + std::to_string(G->node_size() - 1));
    for (const std::string &I : In)
      N->add_input(I);
    for (const std::string &O : Out)
      N->add_output(O);
    return N;
  }
  static void ints(::onnx::NodeProto *N, const std::string &Name,
                   std::vector<int64_t> V) {
    ::onnx::AttributeProto *A = N->add_attribute();
    A->set_name(Name);
    A->set_type(::onnx::AttributeProto_AttributeType_INTS);
    for (int64_t I : V)
      A->add_ints(I);
  }
  static void integer(::onnx::NodeProto *N, const std::string &Name,
                      int64_t V) {
    ::onnx::AttributeProto *A = N->add_attribute();
    A->set_name(Name);
    A->set_type(::onnx::AttributeProto_AttributeType_INT);
    A->set_i(V);
  }
  std::vector<uint8_t> bytes() const {
    std::string S;
    REQUIRE(M.SerializeToString(&S));
    return std::vector<uint8_t>(S.begin(), S.end());
  }
};

/// Consecutive floats from \p From, \p N of them.
std::vector<float> iota(size_t N, float From = 0.0f) {
  std::vector<float> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = From + static_cast<float>(I);
  return V;
}

float floatAt(const ir::Tensor &T, size_t I) {
  float F;
  std::memcpy(&F, T.Data.data() + 4 * I, 4);
  return F;
}

std::string importError(const std::vector<uint8_t> &Bytes) {
  llvm::Expected<ImportResult> R = onnximport::importModel(Bytes);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

} // namespace

TEST_CASE("models are told apart by their bytes") {
  test::requireOnnxNodeTests();
  std::vector<uint8_t> Onnx = test::onnxNodeModel("test_relu");
  CHECK(detectModelFormat(Onnx) == ModelFormat::ONNX);
  // Truncated, it is still ONNX, for ONNX's reader to refuse.
  std::vector<uint8_t> Half(Onnx.begin(), Onnx.begin() + Onnx.size() / 2);
  CHECK(detectModelFormat(Half) == ModelFormat::ONNX);
  std::vector<uint8_t> Tfl = test::readFileBytes(test::exampleModelPath());
  CHECK(detectModelFormat(Tfl) == ModelFormat::TFLite);
  // Neither: TensorFlow Lite's reader says what is wrong.
  std::vector<uint8_t> Text = {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r'};
  CHECK(detectModelFormat(Text) == ModelFormat::TFLite);
  llvm::Expected<ImportResult> R = importAnyModel(Text);
  REQUIRE_FALSE(static_cast<bool>(R));
  CHECK(llvm::toString(R.takeError()).find("not a TensorFlow Lite model") !=
        std::string::npos);
  CHECK(static_cast<bool>(importAnyModel(Onnx)));
}

TEST_CASE("a convolution's weights become OHWI and its feature maps NHWC") {
  ModelMaker K;
  K.input("x", {1, 2, 5, 5});
  K.floats("w", {3, 2, 3, 3}, iota(54));
  K.floats("b", {3}, {0.5f, -1.0f, 2.0f});
  ::onnx::NodeProto *N = K.node("Conv", {"x", "w", "b"}, {"y"});
  ModelMaker::ints(N, "pads", {1, 1, 1, 1});
  ModelMaker::ints(N, "strides", {2, 2});
  K.output("y", {1, 3, 3, 3});
  llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 1);
  const ir::Operator &Op = G.Operators[0];
  CHECK(Op.Type == "CONV_2D");
  // Pads of 1 around a 3x3 window at stride 2 on 5 rows: SAME's split.
  CHECK(Op.getString("padding") == "SAME");
  CHECK(Op.getInt("stride_h") == 2);
  CHECK(G.tensor(G.Inputs[0]).Shape == std::vector<int32_t>{1, 5, 5, 2});
  CHECK(G.tensor(G.Outputs[0]).Shape == std::vector<int32_t>{1, 3, 3, 3});
  const ir::Tensor &W = G.tensor(Op.Inputs[1]);
  REQUIRE(W.Shape == std::vector<int32_t>{3, 3, 3, 2});
  // ONNX's w[m][c][kh][kw] = ((m * 2 + c) * 3 + kh) * 3 + kw is OHWI's
  // [m][kh][kw][c].
  for (int M = 0; M < 3; ++M)
    for (int C = 0; C < 2; ++C)
      for (int H = 0; H < 3; ++H)
        for (int X = 0; X < 3; ++X)
          CHECK(floatAt(W, ((M * 3 + H) * 3 + X) * 2 + C) ==
                float(((M * 2 + C) * 3 + H) * 3 + X));
  CHECK(floatAt(G.tensor(Op.Inputs[2]), 1) == -1.0f);
}

TEST_CASE("convolution groups become depthwise or grouped convolutions") {
  for (int64_t Group : {1, 2, 4}) {
    CAPTURE(Group);
    ModelMaker K;
    K.input("x", {1, 4, 6, 6});
    K.floats("w", {8, 4 / Group, 1, 1}, iota(size_t(8 * 4 / Group)));
    ::onnx::NodeProto *N = K.node("Conv", {"x", "w"}, {"y"});
    ModelMaker::integer(N, "group", Group);
    K.output("y", {1, 8, 6, 6});
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    const ir::Operator &Op = R->Model->main().Operators[0];
    const ir::Tensor &W = R->Model->main().tensor(Op.Inputs[1]);
    if (Group == 4) {
      CHECK(Op.Type == "DEPTHWISE_CONV_2D");
      CHECK(Op.getInt("depth_multiplier") == 2);
      CHECK(W.Shape == std::vector<int32_t>{1, 1, 1, 8});
    } else {
      CHECK(Op.Type == "CONV_2D");
      CHECK(W.Shape ==
            std::vector<int32_t>{8, 1, 1, static_cast<int32_t>(4 / Group)});
    }
  }
}

TEST_CASE("padding SAME cannot express is applied first, and layout "
          "transposes of constants are folded") {
  ModelMaker K;
  K.input("x", {1, 1, 4, 4});
  // A transposed weight: the Transpose node of a constant leaves no
  // operator.
  K.floats("wt", {3, 3, 1, 2}, iota(18));
  ::onnx::NodeProto *T = K.node("Transpose", {"wt"}, {"w"});
  ModelMaker::ints(T, "perm", {3, 2, 0, 1});
  ::onnx::NodeProto *N = K.node("Conv", {"x", "w"}, {"y"});
  ModelMaker::ints(N, "pads", {2, 0, 0, 1});
  K.output("y", {1, 2, 4, 3});
  llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 2);
  CHECK(G.Operators[0].Type == "PAD");
  CHECK(G.tensor(G.Operators[0].Outputs[0]).Shape ==
        std::vector<int32_t>{1, 6, 5, 1});
  // One input channel, group 1: a convolution (ONNX does not tell it from a
  // depthwise one).
  CHECK(G.Operators[1].Type == "CONV_2D");
  CHECK(G.Operators[1].getString("padding") == "VALID");
  // w[m][0][kh][kw] = wt[kh][kw][0][m] = (kh * 3 + kw) * 2 + m, at
  // [m][kh][kw][0] of the OHWI filter.
  const ir::Tensor &W = G.tensor(G.Operators[1].Inputs[1]);
  REQUIRE(W.Shape == std::vector<int32_t>{2, 3, 3, 1});
  for (int M = 0; M < 2; ++M)
    for (int H = 0; H < 3; ++H)
      for (int X = 0; X < 3; ++X)
        CHECK(floatAt(W, (M * 3 + H) * 3 + X) == float((H * 3 + X) * 2 + M));
}

TEST_CASE("flattening a feature map goes through NCHW only when the orders "
          "differ") {
  for (int64_t Pixels : {1, 2}) {
    CAPTURE(Pixels);
    ModelMaker K;
    K.input("x", {1, 3, Pixels, Pixels});
    K.node("Flatten", {"x"}, {"y"});
    K.output("y", {1, 3 * Pixels * Pixels});
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    const ir::Graph &G = R->Model->main();
    std::vector<std::string> Types;
    for (const ir::Operator &Op : G.Operators)
      Types.push_back(Op.Type);
    if (Pixels == 1)
      CHECK(Types == std::vector<std::string>{"RESHAPE"});
    else
      CHECK(Types == std::vector<std::string>{"TRANSPOSE", "RESHAPE"});
  }
}

TEST_CASE("node tests of what the reader does not take are refused with "
          "the node and the reason") {
  test::requireOnnxNodeTests();
  for (const Refusal &Case : Refused) {
    const std::string CaseName = Case.Name;
    CAPTURE(CaseName);
    std::string Message = importError(test::onnxNodeModel(Case.Name, 1));
    REQUIRE_FALSE(Message.empty());
    CHECK_MESSAGE(llvm::StringRef(Message).startswith("node 0 "), Message);
    CHECK_MESSAGE(Message.find(Case.Says) != std::string::npos, Message);
  }
}

TEST_CASE("hand-made models the reader refuses, each with its reason") {
  struct Case {
    const char *What;
    std::function<void(ModelMaker &)> Make;
    const char *Says;
  };
  const Case Cases[] = {
      {"an operator of another domain",
       [](ModelMaker &K) {
         ::onnx::OperatorSetIdProto *O = K.M.add_opset_import();
         O->set_domain("com.example");
         O->set_version(1);
         K.input("x", {1, 4});
         K.node("Relu", {"x"}, {"y"})->set_domain("com.example");
         K.output("y", {1, 4});
       },
       "node 0 'Relu0' (Relu): operators of domain 'com.example'"},
      {"a symbolic dimension",
       [](ModelMaker &K) {
         K.input("x", {1, 4});
         K.G->mutable_input(0)
             ->mutable_type()
             ->mutable_tensor_type()
             ->mutable_shape()
             ->mutable_dim(0)
             ->set_dim_param("batch");
         K.node("Relu", {"x"}, {"y"});
         K.output("y", {1, 4});
       },
       "graph input 'x' has a dimension that is not a number ('batch')"},
      {"data in an external file",
       [](ModelMaker &K) {
         K.input("x", {1, 4});
         ::onnx::TensorProto *T = K.floats("c", {4}, {});
         T->set_data_location(::onnx::TensorProto_DataLocation_EXTERNAL);
         auto *E = T->add_external_data();
         E->set_key("location");
         E->set_value("weights.bin");
         K.node("Add", {"x", "c"}, {"y"});
         K.output("y", {1, 4});
       },
       "initializer 'c': data stored in an external file"},
      {"an initializer short of data",
       [](ModelMaker &K) {
         K.input("x", {1, 4});
         K.floats("c", {4}, {1.0f, 2.0f});
         K.node("Add", {"x", "c"}, {"y"});
         K.output("y", {1, 4});
       },
       "initializer 'c': holds 2 values, its dimensions need 4"},
      {"weights computed at run time",
       [](ModelMaker &K) {
         K.input("x", {1, 1, 4, 4});
         K.input("w", {1, 1, 3, 3});
         K.node("Conv", {"x", "w"}, {"y"});
         K.output("y", {1, 1, 2, 2});
       },
       "node 0 'Conv0' (Conv): the weights 'w' must be a constant"},
      {"an operator version older than the reader knows",
       [](ModelMaker &K) {
         K.M.mutable_opset_import(0)->set_version(4);
         K.input("x", {2, 3});
         K.floats("s", {1}, {6.0f});
         K.node("Reshape", {"x"}, {"y"});
         ModelMaker::ints(K.G->mutable_node(0), "shape", {6});
         K.output("y", {6});
       },
       "version 1 of the operator (opset 4) is older than the oldest read, 5"},
      {"per-axis quantization of a computed value along its rows",
       [](ModelMaker &K) {
         K.input("x", {1, 2, 3, 4});
         K.floats("s", {3}, {0.5f, 1.0f, 2.0f});
         ModelMaker::integer(K.node("QuantizeLinear", {"x", "s"}, {"y"}),
                             "axis", 2);
         K.output("y", {1, 2, 3, 4}, ::onnx::TensorProto_DataType_UINT8);
       },
       "per-axis parameters along axis 2 of a computed value; the kernels "
       "take them along its channels only"},
      {"an output nothing computes",
       [](ModelMaker &K) {
         K.input("x", {1, 4});
         K.node("Relu", {"x"}, {"y"});
         K.output("z", {1, 4});
       },
       "graph output: 'z' is computed by no earlier node"},
      {"a graph the checker refuses (a node without its operand)",
       [](ModelMaker &K) {
         K.input("x", {1, 4});
         K.node("Add", {"x"}, {"y"});
         K.output("y", {1, 4});
       },
       "the ONNX checker rejects the model: "},
  };
  for (const Case &C : Cases) {
    const std::string What = C.What;
    CAPTURE(What);
    ModelMaker K;
    C.Make(K);
    std::string Message = importError(K.bytes());
    CHECK_MESSAGE(Message.find(C.Says) != std::string::npos, Message);
    CHECK(Message.find('\n') == std::string::npos);
  }
}

TEST_CASE("every truncation of an ONNX model and every byte flipped are "
          "read or refused, never crash") {
  test::requireOnnxNodeTests();
  const std::vector<uint8_t> Bytes =
      test::onnxNodeModel("test_conv_with_strides_padding");
  size_t Refused = 0, Read = 0;
  for (size_t N = 0; N < Bytes.size(); ++N) {
    std::vector<uint8_t> Cut(Bytes.begin(), Bytes.begin() + N);
    (importError(Cut).empty() ? Read : Refused) += 1;
  }
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::vector<uint8_t> Flip = Bytes;
    Flip[I] ^= 0xff;
    (importError(Flip).empty() ? Read : Refused) += 1;
  }
  MESSAGE(Refused << " refused, " << Read << " read");
  CHECK(Refused > Bytes.size());
}

TEST_CASE("the CLI reads an ONNX model by its bytes and runs it") {
  test::requireOnnxNodeTests();
  test::TempDir Dir;
  // A name that does not say ONNX: the bytes do.
  const std::string Model = Dir.file("conv.model");
  test::writeFileBytes(Model,
                       test::onnxNodeModel("test_conv_with_strides_padding"));
  test::RunResult I = test::runAccelgen({"inspect", Model});
  REQUIRE_MESSAGE(I.ExitCode == 0, I.Stderr);
  CHECK(I.Stdout.find("CONV_2D") != std::string::npos);
  CHECK(I.Stdout.find("opset") != std::string::npos);
  test::RunResult E =
      test::runAccelgen({"explain", Model, "--target", "mdla3.0"});
  REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
  CHECK(E.Stdout.find("CONV_2D") != std::string::npos);
  // Run with the node test's input, NHWC as the compiled model takes it.
  const std::string Data =
      test::onnxNodeDir() + "/test_conv_with_strides_padding/test_data_set_0/";
  test::TempDir In, Out;
  test::writeFileBytes(In.file("input_0.bin"),
                       test::onnxIrValue(Data + "input_0.pb").Data);
  test::RunResult Run =
      test::runAccelgen({"run", Model, "--target", "ref", "--inputs", In.path(),
                         "--outputs", Out.path()});
  REQUIRE_MESSAGE(Run.ExitCode == 0, Run.Stderr);
  CHECK(test::readFileBytes(Out.file("output_0.bin")) ==
        test::onnxIrValue(Data + "output_0.pb").Data);

  const std::string Cut = Dir.file("cut.onnx");
  std::vector<uint8_t> Bytes = test::readFileBytes(Model);
  Bytes.resize(Bytes.size() / 2);
  test::writeFileBytes(Cut, Bytes);
  test::RunResult Bad = test::runAccelgen({"inspect", Cut});
  CHECK(Bad.ExitCode != 0);
  CHECK_MESSAGE(Bad.Stderr.find(Cut + ": malformed ONNX model") !=
                    std::string::npos,
                Bad.Stderr);
}

namespace {

/// x (int8, 1x2x4x4) -> DequantizeLinear -> Conv (weights int8 per
/// channel, bias int32) -> Relu -> QuantizeLinear -> y, then \p Tail on y.
ModelMaker qdqConv(const std::function<void(ModelMaker &)> &Tail = {}) {
  ModelMaker K;
  const int32_t I8 = ::onnx::TensorProto_DataType_INT8;
  const int32_t I32 = ::onnx::TensorProto_DataType_INT32;
  K.input("x", {1, 2, 4, 4}, I8);
  float XScale = 0.5f, YScale = 0.25f;
  int8_t XZero = -3, YZero = 5;
  K.floats("xs", {}, {XScale});
  K.raw("xz", I8, {}, &XZero, 1);
  K.floats("ys", {}, {YScale});
  K.raw("yz", I8, {}, &YZero, 1);
  std::vector<int8_t> W(3 * 2 * 3 * 3);
  for (size_t I = 0; I < W.size(); ++I)
    W[I] = static_cast<int8_t>(int(I % 11) - 5);
  K.raw("w", I8, {3, 2, 3, 3}, W.data(), W.size());
  K.floats("ws", {3}, {0.1f, 0.2f, 0.3f});
  std::vector<int8_t> WZero(3, 0);
  K.raw("wz", I8, {3}, WZero.data(), 3);
  std::vector<int32_t> B = {7, -8, 9};
  K.raw("b", I32, {3}, B.data(), 12);
  K.floats("bs", {3}, {0.05f, 0.1f, 0.15f});
  std::vector<int32_t> BZero(3, 0);
  K.raw("bz", I32, {3}, BZero.data(), 12);
  K.node("DequantizeLinear", {"x", "xs", "xz"}, {"xf"});
  ModelMaker::integer(K.node("DequantizeLinear", {"w", "ws", "wz"}, {"wf"}),
                      "axis", 0);
  ModelMaker::integer(K.node("DequantizeLinear", {"b", "bs", "bz"}, {"bf"}),
                      "axis", 0);
  ModelMaker::ints(K.node("Conv", {"xf", "wf", "bf"}, {"c"}), "pads",
                   {1, 1, 1, 1});
  K.node("Relu", {"c"}, {"r"});
  K.node("QuantizeLinear", {"r", "ys", "yz"}, {"y"});
  if (Tail)
    Tail(K);
  else
    K.output("y", {1, 3, 4, 4}, I8);
  return K;
}

} // namespace

TEST_CASE("the quantization pass makes a QDQ convolution one quantized "
          "CONV_2D") {
  llvm::Expected<ImportResult> R = onnximport::importModel(qdqConv().bytes());
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  CHECK(R->Warnings.empty());
  CHECK(R->Model->main().Computes == ir::Arithmetic::ONNX);
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 1);
  const ir::Operator &Op = G.Operators[0];
  CHECK(Op.Type == "CONV_2D");
  CHECK(Op.getString("fused_activation") == "RELU");
  CHECK(Op.getString("padding") == "SAME");
  const ir::Tensor &X = G.tensor(Op.Inputs[0]);
  CHECK(X.Type == ir::DType::I8);
  REQUIRE(X.Quant);
  CHECK(X.Quant->Scales == std::vector<float>{0.5f});
  CHECK(X.Quant->ZeroPoints == std::vector<int64_t>{-3});
  const ir::Tensor &W = G.tensor(Op.Inputs[1]);
  CHECK(W.Type == ir::DType::I8);
  CHECK(W.Shape == std::vector<int32_t>{3, 3, 3, 2});
  REQUIRE(W.Quant);
  CHECK(W.Quant->Scales == std::vector<float>{0.1f, 0.2f, 0.3f});
  CHECK(W.Quant->Axis == 0);
  // OIHW w[o][i][h][x] = ((o * 2 + i) * 3 + h) * 3 + x mod 11 - 5, at OHWI
  // [o][h][x][i].
  for (int O = 0; O < 3; ++O)
    for (int I = 0; I < 2; ++I)
      for (int H = 0; H < 3; ++H)
        for (int X2 = 0; X2 < 3; ++X2)
          CHECK(int8_t(W.Data[((O * 3 + H) * 3 + X2) * 2 + I]) ==
                int(((O * 2 + I) * 3 + H) * 3 + X2) % 11 - 5);
  const ir::Tensor &B = G.tensor(Op.Inputs[2]);
  CHECK(B.Type == ir::DType::I32);
  REQUIRE(B.Quant);
  CHECK(B.Quant->Scales == std::vector<float>{0.05f, 0.1f, 0.15f});
  const ir::Tensor &Y = G.tensor(Op.Outputs[0]);
  CHECK(G.Outputs == std::vector<int32_t>{Op.Outputs[0]});
  REQUIRE(Y.Quant);
  CHECK(Y.Quant->Scales == std::vector<float>{0.25f});
  CHECK(Y.Quant->ZeroPoints == std::vector<int64_t>{5});
}

TEST_CASE("what the quantization pass leaves in float it says, with why") {
  SUBCASE("a result not quantized again") {
    ModelMaker K = qdqConv([](ModelMaker &K) {
      K.node("DequantizeLinear", {"y", "ys", "yz"}, {"yf"});
      K.node("Sigmoid", {"yf"}, {"s"});
      K.output("s", {1, 3, 4, 4});
    });
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    REQUIRE(R->Warnings.size() == 1);
    CHECK(R->Warnings[0] ==
          "left in float by the quantization pass: LOGISTIC writing 's': "
          "its result is not quantized (by one QUANTIZE, its only reader)");
  }
  SUBCASE("a concatenation of values quantized otherwise, not quantized "
          "again") {
    ModelMaker K = qdqConv([](ModelMaker &K) {
      K.node("DequantizeLinear", {"y", "ys", "yz"}, {"yf"});
      ModelMaker::integer(K.node("Concat", {"xf", "yf"}, {"c2"}), "axis", 1);
      K.output("c2", {1, 5, 4, 4});
    });
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    REQUIRE(R->Warnings.size() == 1);
    CHECK_MESSAGE(R->Warnings[0].find("its operands 'x' and 'y' are "
                                      "quantized otherwise, and no QUANTIZE "
                                      "of its result says which to "
                                      "requantize to") != std::string::npos,
                  R->Warnings[0]);
  }
}

TEST_CASE("the operands of an operator that does not requantize are "
          "requantized to its result's parameters") {
  SUBCASE("a concatenation") {
    ModelMaker K = qdqConv([](ModelMaker &K) {
      K.node("DequantizeLinear", {"y", "ys", "yz"}, {"yf"});
      ModelMaker::integer(K.node("Concat", {"xf", "yf"}, {"c2"}), "axis", 1);
      K.node("QuantizeLinear", {"c2", "ys", "yz"}, {"q"});
      K.output("q", {1, 5, 4, 4}, ::onnx::TensorProto_DataType_INT8);
    });
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
    const ir::Graph &G = R->Model->main();
    REQUIRE(G.Operators.size() == 3);
    CHECK(G.Operators[0].Type == "CONV_2D");
    // x (0.5, -3) requantized to the result's (0.25, 5); y is already so.
    const ir::Operator &Q = G.Operators[1];
    CHECK(Q.Type == "QUANTIZE");
    CHECK(G.tensor(Q.Inputs[0]).Name == "x");
    CHECK(G.tensor(Q.Outputs[0]).Quant->Scales == std::vector<float>{0.25f});
    CHECK(G.tensor(Q.Outputs[0]).Quant->ZeroPoints == std::vector<int64_t>{5});
    const ir::Operator &C = G.Operators[2];
    CHECK(C.Type == "CONCATENATION");
    CHECK(C.Inputs ==
          std::vector<int32_t>{Q.Outputs[0], G.Operators[0].Outputs[0]});
  }
  SUBCASE("a maximum") {
    ModelMaker K = qdqConv([](ModelMaker &K) {
      K.node("DequantizeLinear", {"y", "ys", "yz"}, {"yf"});
      ::onnx::NodeProto *P = K.node("MaxPool", {"yf"}, {"p"});
      ModelMaker::ints(P, "kernel_shape", {2, 2});
      ModelMaker::ints(P, "strides", {2, 2});
      K.node("QuantizeLinear", {"p", "xs", "xz"}, {"q"});
      K.output("q", {1, 3, 2, 2}, ::onnx::TensorProto_DataType_INT8);
    });
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
    const ir::Graph &G = R->Model->main();
    std::vector<std::string> Types;
    for (const ir::Operator &Op : G.Operators)
      Types.push_back(Op.Type);
    CHECK(Types ==
          std::vector<std::string>{"CONV_2D", "QUANTIZE", "MAX_POOL_2D"});
  }
}

namespace {

const int32_t I8 = ::onnx::TensorProto_DataType_INT8;
const int32_t I32 = ::onnx::TensorProto_DataType_INT32;

/// A QOperator network at \p Opset: x (int8 1x2x4x4) -> QLinearConv
/// (weights per channel, bias) -> MaxPool on the int8 values ->
/// com.microsoft QLinearGlobalAveragePool (the same parameters: TensorFlow
/// Lite's average does not requantize) -> Flatten -> QGemm (weights
/// per channel, bias) -> QLinearSoftmax -> s (int8 1x4); \p Change edits
/// it before it is written.
ModelMaker qoperatorNet(int64_t Opset,
                        const std::function<void(ModelMaker &)> &Change = {}) {
  ModelMaker K(Opset);
  ::onnx::OperatorSetIdProto *Ms = K.M.add_opset_import();
  Ms->set_domain("com.microsoft");
  Ms->set_version(1);
  K.input("x", {1, 2, 4, 4}, I8);
  int8_t Zero = -3, YZero = -128, SZero = -128;
  K.floats("xs", {}, {0.5f});
  K.raw("xz", I8, {}, &Zero, 1);
  K.floats("ys", {}, {0.25f});
  K.raw("yz", I8, {}, &YZero, 1);
  K.floats("os", {}, {0.0625f});
  K.floats("ss", {}, {1.0f / 256});
  K.raw("sz", I8, {}, &SZero, 1);
  std::vector<int8_t> W(3 * 2 * 3 * 3);
  for (size_t I = 0; I < W.size(); ++I)
    W[I] = static_cast<int8_t>(int(I % 11) - 5);
  K.raw("w", I8, {3, 2, 3, 3}, W.data(), W.size());
  K.floats("ws", {3}, {0.1f, 0.2f, 0.3f});
  std::vector<int8_t> Zeros(4, 0);
  K.raw("wz", I8, {3}, Zeros.data(), 3);
  std::vector<int32_t> B = {7, -8, 9, 10};
  K.raw("b", I32, {3}, B.data(), 12);
  std::vector<int8_t> F(4 * 3);
  for (size_t I = 0; I < F.size(); ++I)
    F[I] = static_cast<int8_t>(int(I * 7 % 13) - 6);
  K.raw("f", I8, {4, 3}, F.data(), F.size());
  K.floats("fs", {4}, {0.01f, 0.02f, 0.03f, 0.04f});
  K.raw("fz", I8, {4}, Zeros.data(), 4);
  K.raw("fb", I32, {4}, B.data(), 16);
  ModelMaker::ints(K.node("QLinearConv",
                          {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"},
                          {"y"}),
                   "pads", {1, 1, 1, 1});
  ::onnx::NodeProto *P = K.node("MaxPool", {"y"}, {"p"});
  ModelMaker::ints(P, "kernel_shape", {2, 2});
  ModelMaker::ints(P, "strides", {2, 2});
  K.node("QLinearGlobalAveragePool", {"p", "ys", "yz", "ys", "yz"}, {"g"})
      ->set_domain("com.microsoft");
  K.node("Flatten", {"g"}, {"flat"});
  ::onnx::NodeProto *Gemm = K.node(
      "QGemm", {"flat", "ys", "yz", "f", "fs", "fz", "fb", "os", "xz"}, {"o"});
  Gemm->set_domain("com.microsoft");
  ModelMaker::integer(Gemm, "transB", 1);
  ::onnx::NodeProto *S =
      K.node("QLinearSoftmax", {"o", "os", "xz", "ss", "sz"}, {"s"});
  S->set_domain("com.microsoft");
  ModelMaker::integer(S, "axis", -1);
  ModelMaker::integer(S, "opset", 13);
  K.output("s", {1, 4}, I8);
  if (Change)
    Change(K);
  return K;
}

/// The node of \p K whose operator is \p Op.
::onnx::NodeProto *nodeOf(ModelMaker &K, const std::string &Op) {
  for (::onnx::NodeProto &N : *K.G->mutable_node())
    if (N.op_type() == Op)
      return &N;
  FAIL("no " << Op << " node");
  return nullptr;
}

} // namespace

TEST_CASE("QOperator nodes are read as the QDQ form they stand for, at "
          "opset 10 as at 13") {
  for (int64_t Opset : {10, 13}) {
    CAPTURE(Opset);
    ModelMaker K = qoperatorNet(Opset, [&](ModelMaker &K) {
      if (Opset >= 13)
        return;
      // Before opset 13, Softmax flattens at its axis: the last axis reads
      // the same in both.
      ModelMaker::integer(nodeOf(K, "QLinearSoftmax"), "opset", 11);
      // MaxPool takes int8 from opset 12 on: pooled as QOperator instead.
      for (::onnx::NodeProto &N : *K.G->mutable_node())
        if (N.op_type() == "MaxPool") {
          ::onnx::NodeProto Q;
          Q.set_op_type("QLinearAveragePool");
          Q.set_domain("com.microsoft");
          for (const char *I : {"y", "ys", "yz", "ys", "yz"})
            Q.add_input(I);
          Q.add_output("p");
          *Q.mutable_attribute() = N.attribute();
          N = Q;
        }
    });
    llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
    CHECK(R->Model->main().Computes == ir::Arithmetic::ONNX);
    const ir::Graph &G = R->Model->main();
    std::vector<std::string> Types;
    for (const ir::Operator &Op : G.Operators)
      Types.push_back(Op.Type);
    CHECK(Types == std::vector<std::string>{
                       "CONV_2D",
                       Opset >= 13 ? "MAX_POOL_2D" : "AVERAGE_POOL_2D",
                       "AVERAGE_POOL_2D", "FULLY_CONNECTED", "SOFTMAX"});
    REQUIRE(G.Operators.size() == 5);
    // The convolution: per-channel weights in OHWI, the bias scaled by the
    // product of the operand's and the weights' scales.
    const ir::Operator &Conv = G.Operators[0];
    const ir::Tensor &W = G.tensor(Conv.Inputs[1]);
    CHECK(W.Shape == std::vector<int32_t>{3, 3, 3, 2});
    REQUIRE(W.Quant);
    CHECK(W.Quant->Scales == std::vector<float>{0.1f, 0.2f, 0.3f});
    CHECK(W.Quant->Axis == 0);
    const ir::Tensor &B = G.tensor(Conv.Inputs[2]);
    REQUIRE(B.Quant);
    CHECK(B.Quant->Scales ==
          std::vector<float>{0.5f * 0.1f, 0.5f * 0.2f, 0.5f * 0.3f});
    CHECK(G.tensor(Conv.Outputs[0]).Quant->Scales == std::vector<float>{0.25f});
    // The pooling of 8-bit values keeps the parameters.
    const ir::Tensor &Pooled = G.tensor(G.Operators[1].Outputs[0]);
    REQUIRE(Pooled.Quant);
    CHECK(Pooled.Quant->Scales == std::vector<float>{0.25f});
    CHECK(Pooled.Quant->ZeroPoints == std::vector<int64_t>{-128});
    // QGemm: weights [units, depth] per unit.
    const ir::Operator &Fc = G.Operators[3];
    const ir::Tensor &F = G.tensor(Fc.Inputs[1]);
    CHECK(F.Shape == std::vector<int32_t>{4, 3});
    REQUIRE(F.Quant);
    CHECK(F.Quant->Axis == 0);
    CHECK(F.Quant->Scales.size() == 4);
    CHECK(G.tensor(Fc.Inputs[0]).Shape == std::vector<int32_t>{1, 1, 1, 3});
    const ir::Tensor &S = G.tensor(G.Outputs[0]);
    REQUIRE(S.Quant);
    CHECK(S.Quant->Scales == std::vector<float>{1.0f / 256});
  }
}

TEST_CASE("QOperator nodes the reader cannot read are refused with the "
          "node and the reason") {
  struct Case {
    const char *Name;
    std::function<void(ModelMaker &)> Change;
    const char *Says;
  };
  const Case Cases[] = {
      {"a QGemm short of inputs",
       [](ModelMaker &K) {
         nodeOf(K, "QGemm")->mutable_input()->DeleteSubrange(3, 6);
       },
       "QGemm needs 5 inputs, it has 3"},
      {"a result without its zero point",
       [](ModelMaker &K) { nodeOf(K, "QLinearSoftmax")->set_input(4, ""); },
       "the result's scale and zero point must both be given"},
      {"an NHWC pooling",
       [](ModelMaker &K) {
         ModelMaker::integer(nodeOf(K, "QLinearGlobalAveragePool"),
                             "channels_last", 1);
       },
       "channels_last = 1 (an NHWC operand) is not supported"},
      {"a softmax of other semantics",
       [](ModelMaker &K) {
         ::onnx::NodeProto *S = nodeOf(K, "QLinearSoftmax");
         S->mutable_attribute(0)->set_i(1);
         S->mutable_attribute(1)->set_i(12);
       },
       "softmax of opset 12 semantics along axis 1 differs from the "
       "model's opset 13"},
      {"a softmax without its opset",
       [](ModelMaker &K) {
         nodeOf(K, "QLinearSoftmax")->mutable_attribute()->DeleteSubrange(1, 1);
       },
       "the attribute opset is missing"},
      {"a bias with computed scales",
       [](ModelMaker &K) {
         nodeOf(K, "QLinearConv")->set_input(1, "x_scale");
         K.input("x_scale", {1}, ::onnx::TensorProto_DataType_FLOAT);
       },
       "the bias needs constant scales: 'x_scale' must be a constant"},
      {"a com.microsoft operator not read",
       [](ModelMaker &K) {
         nodeOf(K, "QLinearSoftmax")->set_op_type("QLinearWhere");
       },
       "operators of domain 'com.microsoft' are not supported"},
      {"int8 values of different parameters concatenated",
       [](ModelMaker &K) {
         ::onnx::NodeProto *C = K.node("Concat", {"y", "x"}, {"c"});
         ModelMaker::integer(C, "axis", 1);
         K.output("c", {1, 5, 4, 4}, I8);
       },
       "'y' and 'x' are quantized otherwise and are joined as integers"},
  };
  for (const Case &C : Cases) {
    CAPTURE(C.Name);
    std::string Message = importError(qoperatorNet(13, C.Change).bytes());
    REQUIRE_FALSE(Message.empty());
    CHECK_MESSAGE(llvm::StringRef(Message).startswith("node "), Message);
    CHECK_MESSAGE(Message.find(C.Says) != std::string::npos, Message);
  }
}

TEST_CASE("a result its readers quantize otherwise is quantized once and "
          "requantized for the others") {
  ModelMaker K = qdqConv([](ModelMaker &K) {
    K.output("y", {1, 3, 4, 4}, I8);
    // A second reader quantizes the convolution's result as x is.
    K.node("QuantizeLinear", {"r", "xs", "xz"}, {"y2"});
    K.output("y2", {1, 3, 4, 4}, I8);
    // A third as the first: the same value.
    K.node("QuantizeLinear", {"r", "ys", "yz"}, {"y3"});
    K.output("y3", {1, 3, 4, 4}, I8);
  });
  llvm::Expected<ImportResult> R = onnximport::importModel(K.bytes());
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 2);
  CHECK(G.Operators[0].Type == "CONV_2D");
  CHECK(G.Operators[1].Type == "QUANTIZE");
  int32_t Y = G.Operators[0].Outputs[0];
  CHECK(G.Operators[1].Inputs[0] == Y);
  CHECK(G.Outputs == std::vector<int32_t>{Y, G.Operators[1].Outputs[0], Y});
  REQUIRE(G.tensor(G.Operators[1].Outputs[0]).Quant);
  CHECK(G.tensor(G.Operators[1].Outputs[0]).Quant->Scales ==
        std::vector<float>{0.5f});
}

TEST_CASE("ONNX's quantized node tests of QLinearConv and QLinearMatMul "
          "(2-D and batched) read as one uint8 layer each") {
  test::requireOnnxNodeTests();
  for (const char *Name :
       {"test_qlinearconv", "test_qlinearmatmul_2D", "test_qlinearmatmul_3D"}) {
    CAPTURE(Name);
    llvm::Expected<ImportResult> R =
        onnximport::importModel(test::onnxNodeModel(Name, 1));
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
    const ir::Graph &G = R->Model->main();
    REQUIRE(G.Operators.size() == 1);
    const ir::Operator &Op = G.Operators[0];
    const std::string Case = Name;
    CHECK(Op.Type == (Case == "test_qlinearconv"        ? "CONV_2D"
                      : Case == "test_qlinearmatmul_3D" ? "BATCH_MATMUL"
                                                        : "FULLY_CONNECTED"));
    for (int32_t T : {Op.Inputs[0], Op.Inputs[1], Op.Outputs[0]}) {
      CHECK(G.tensor(T).Type == ir::DType::U8);
      CHECK(G.tensor(T).Quant);
    }
  }
}

TEST_CASE("ConvInteger and MatMulInteger read as uint8 layers whose int32 "
          "result holds the sums") {
  test::requireOnnxNodeTests();
  struct Case {
    const char *Name;
    const char *Type;
    int64_t InputZeroPoint, FilterZeroPoint;
  };
  // The zero points the node tests store (x's 1, a's 12; w's and b's 0).
  for (const Case &C : {Case{"test_basic_convinteger", "CONV_2D", 1, 0},
                        Case{"test_convinteger_with_padding", "CONV_2D", 1, 0},
                        Case{"test_matmulinteger", "FULLY_CONNECTED", 12, 0}}) {
    const std::string Name = C.Name;
    CAPTURE(Name);
    llvm::Expected<ImportResult> R =
        onnximport::importModel(test::onnxNodeModel(C.Name, 1));
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    const ir::Graph &G = R->Model->main();
    const ir::Operator &Op = G.Operators.back();
    CHECK(Op.Type == C.Type);
    const ir::Tensor &In = G.tensor(Op.Inputs[0]);
    const ir::Tensor &Filter = G.tensor(Op.Inputs[1]);
    const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
    CHECK(In.Type == ir::DType::U8);
    CHECK(Filter.Type == ir::DType::U8);
    CHECK(Out.Type == ir::DType::I32);
    REQUIRE(In.Quant);
    REQUIRE(Filter.Quant);
    REQUIRE(Out.Quant);
    CHECK(In.Quant->zeroPoint() == C.InputZeroPoint);
    CHECK(Filter.Quant->zeroPoint() == C.FilterZeroPoint);
    CHECK(Out.Quant->Scales == std::vector<float>{1.0f});
    CHECK(Out.Quant->zeroPoint() == 0);
  }

  // What the reader refuses of them.
  struct Refused {
    const char *What;
    int32_t WeightType;
    size_t ZeroPoints;
    int64_t Group;
    const char *Says;
  };
  const int32_t U8 = ::onnx::TensorProto_DataType_UINT8;
  const int32_t I8 = ::onnx::TensorProto_DataType_INT8;
  for (const Refused &C :
       {Refused{"int8 weights", I8, 1, 1, "the weights 'w' are i8; u8 only"},
        Refused{"a zero point per output channel", U8, 2, 1,
                "the zero point 'wz' must be one uint8 value"},
        Refused{
            "one group per channel", U8, 1, 2,
            "a depthwise or batched product of integers is not supported"}}) {
    const std::string What = C.What;
    CAPTURE(What);
    ModelMaker K(10);
    K.input("x", {1, 2, 3, 3}, U8);
    const uint8_t W[2 * 2 * 2 * 2] = {1, 2, 3, 4, 5, 6, 7, 8,
                                      1, 2, 3, 4, 5, 6, 7, 8};
    const uint8_t Z[2] = {3, 3};
    K.raw("w", C.WeightType, {2, C.Group == 1 ? 2 : 1, 2, 2}, W,
          C.Group == 1 ? 16 : 8);
    K.raw("xz", U8, {}, Z, 1);
    K.raw("wz", C.WeightType,
          C.ZeroPoints == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{2},
          Z, C.ZeroPoints);
    ::onnx::NodeProto *N = K.node("ConvInteger", {"x", "w", "xz", "wz"}, {"y"});
    ModelMaker::integer(N, "group", C.Group);
    K.output("y", {1, 2, 2, 2}, ::onnx::TensorProto_DataType_INT32);
    std::string Message = importError(K.bytes());
    CHECK_MESSAGE(Message.find(C.Says) != std::string::npos, Message);
  }
}
