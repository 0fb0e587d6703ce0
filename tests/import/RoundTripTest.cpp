//===- RoundTripTest.cpp - TFLiteWriter and importer agree ----------------===//
//
// A model written by TFLiteWriter and imported again is the model that was
// written: tensors, constant data, quantization (per-channel axis included),
// operator types, versions and every attribute the importer reads. Also
// checks the file layout the format expects (identifier, empty buffer 0, one
// buffer per constant, shared operator codes, the one-byte code field).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/BuiltinOps.h"
#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "ir/Verifier.h"
#include "tflite_subset_generated.h"

#include "flatbuffers/flexbuffers.h"

using namespace accelgen;
namespace fb = accelgen::tfl;

namespace {

using Attrs = std::map<std::string, ir::AttrValue>;

ir::Tensor tensor(std::string Name, std::vector<int32_t> Shape,
                  ir::DType Type) {
  ir::Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = Type;
  return T;
}

/// Constant data with a recognizable pattern.
std::vector<uint8_t> pattern(size_t N, uint8_t Seed) {
  std::vector<uint8_t> D(N);
  for (size_t I = 0; I < N; ++I)
    D[I] = static_cast<uint8_t>(Seed + 7 * I);
  return D;
}

/// A graph in which one operator of each kind reads tensor 0 and writes a
/// tensor of its own, with attributes set away from their defaults.
class ModelMaker {
public:
  ir::Model M;

  ModelMaker() {
    M.Description = "round trip";
    M.SchemaVersion = 3;
    M.Graphs.emplace_back();
    G().Name = "main";
    ir::Tensor In = tensor("in", {1, 8, 8, 4}, ir::DType::I8);
    ir::QuantParams Q;
    Q.Scales = {0.0625f};
    Q.ZeroPoints = {-7};
    In.Quant = Q;
    G().Tensors.push_back(In);
    G().Inputs = {0};
  }

  ir::Graph &G() { return M.Graphs.front(); }

  int32_t addTensor(ir::Tensor T) {
    G().Tensors.push_back(std::move(T));
    return static_cast<int32_t>(G().Tensors.size() - 1);
  }

  ir::Operator &addOp(std::string Type, int32_t Version, Attrs A,
                      std::vector<int32_t> ExtraInputs = {}) {
    int32_t Out =
        addTensor(tensor(Type + "_out" + std::to_string(G().Operators.size()),
                         {1, 8, 8, 4}, ir::DType::I8));
    G().Outputs.push_back(Out);
    ir::Operator Op;
    Op.Type = std::move(Type);
    Op.Version = Version;
    Op.Inputs = {0};
    Op.Inputs.insert(Op.Inputs.end(), ExtraInputs.begin(), ExtraInputs.end());
    // The importer checks operand counts against defs/ops.td: fill the
    // required ones with tensor 0.
    const int32_t Min = ir::opArity(ir::opCodeOf(Op.Type)).MinOperands;
    while (static_cast<int32_t>(Op.Inputs.size()) < Min)
      Op.Inputs.push_back(0);
    Op.Outputs = {Out};
    Op.Attrs = std::move(A);
    Op.BuiltinCode = tflite::builtinOperatorCode(Op.Type);
    G().Operators.push_back(std::move(Op));
    return G().Operators.back();
  }
};

/// Every operator type the importer reads options for, with each attribute
/// it produces set to a value other than its default.
ir::Model modelWithAllOptions() {
  ModelMaker MM;
  const std::string Same = "SAME", Valid = "VALID";
  MM.addOp(
      "ADD", 2,
      {{"fused_activation", std::string("RELU6")}, {"pot_scale_int16", false}});
  MM.addOp("AVERAGE_POOL_2D", 2,
           {{"padding", Valid},
            {"stride_h", int64_t(2)},
            {"stride_w", int64_t(3)},
            {"filter_h", int64_t(4)},
            {"filter_w", int64_t(5)},
            {"fused_activation", std::string("RELU")}});
  MM.addOp("CONCATENATION", 1,
           {{"axis", int64_t(-1)}, {"fused_activation", std::string("NONE")}});
  MM.addOp("CONV_2D", 3,
           {{"padding", Valid},
            {"stride_h", int64_t(2)},
            {"stride_w", int64_t(1)},
            {"dilation_h", int64_t(3)},
            {"dilation_w", int64_t(2)},
            {"fused_activation", std::string("RELU_N1_TO_1")}});
  MM.addOp("CONV_3D", 1,
           {{"padding", Same},
            {"stride_d", int64_t(1)},
            {"stride_h", int64_t(2)},
            {"stride_w", int64_t(3)},
            {"dilation_d", int64_t(4)},
            {"dilation_h", int64_t(5)},
            {"dilation_w", int64_t(6)},
            {"fused_activation", std::string("TANH")}});
  MM.addOp("DEPTHWISE_CONV_2D", 3,
           {{"padding", Same},
            {"stride_h", int64_t(2)},
            {"stride_w", int64_t(2)},
            {"dilation_h", int64_t(1)},
            {"dilation_w", int64_t(1)},
            {"depth_multiplier", int64_t(4)},
            {"fused_activation", std::string("SIGN_BIT")}});
  MM.addOp("FULLY_CONNECTED", 4,
           {{"fused_activation", std::string("RELU")},
            {"keep_num_dims", true},
            {"weights_format", int64_t(1)},
            {"asymmetric_quantize_inputs", true}});
  MM.addOp("LEAKY_RELU", 1, {{"alpha", 0.125}});
  MM.addOp("MAX_POOL_2D", 2,
           {{"padding", Same},
            {"stride_h", int64_t(1)},
            {"stride_w", int64_t(1)},
            {"filter_h", int64_t(2)},
            {"filter_w", int64_t(2)},
            {"fused_activation", std::string("NONE")}});
  MM.addOp("MEAN", 1, {{"keep_dims", true}});
  MM.addOp("MUL", 1, {{"fused_activation", std::string("RELU6")}});
  MM.addOp("REDUCE_MAX", 1, {{"keep_dims", false}});
  MM.addOp("RESHAPE", 1, {{"new_shape", std::vector<int64_t>{1, -1}}});
  MM.addOp("RESHAPE", 1, {});
  MM.addOp("SOFTMAX", 2, {{"beta", 0.5}});
  MM.addOp("SQUEEZE", 1, {{"squeeze_dims", std::vector<int64_t>{1, 2}}});
  MM.addOp("STRIDED_SLICE", 4,
           {{"begin_mask", int64_t(1)},
            {"end_mask", int64_t(2)},
            {"ellipsis_mask", int64_t(3)},
            {"new_axis_mask", int64_t(4)},
            {"shrink_axis_mask", int64_t(5)},
            {"offset", true}});
  MM.addOp(
      "SUB", 2,
      {{"fused_activation", std::string("NONE")}, {"pot_scale_int16", true}});
  MM.addOp("SUM", 1, {{"keep_dims", true}});
  MM.addOp("TRANSPOSE_CONV", 3,
           {{"padding", Valid},
            {"stride_h", int64_t(2)},
            {"stride_w", int64_t(2)},
            {"fused_activation", std::string("NONE")}});
  MM.addOp("UNIDIRECTIONAL_SEQUENCE_LSTM", 1,
           {{"fused_activation", std::string("TANH")},
            {"cell_clip", 10.0},
            {"proj_clip", 0.25},
            {"time_major", true},
            {"asymmetric_quantize_inputs", false},
            {"diagonal_recurrent_tensors", true}});
  // Operators without options.
  for (const char *Type : {"DEQUANTIZE", "QUANTIZE", "PAD", "TANH", "RELU"})
    MM.addOp(Type, 1, {});
  return MM.M;
}

ir::Model roundTrip(const ir::Model &M) {
  std::vector<uint8_t> Bytes = tflite::writeModel(M);
  auto R = tflite::importModel(Bytes);
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  CHECK(R->Warnings.empty());
  return std::move(*R->Model);
}

} // namespace

TEST_CASE("operator attributes of every operator with options") {
  ir::Model M = modelWithAllOptions();
  REQUIRE(!llvm::errorToBool(ir::verifyModel(M)));
  test::checkSameModel(M, roundTrip(M));
}

TEST_CASE("tensors: types, shapes, constant data and quantization") {
  ModelMaker MM;
  // Per-channel weights along axis 3 (depthwise layout) and axis 0.
  ir::Tensor Dw = tensor("dw/weights", {1, 3, 3, 4}, ir::DType::I8);
  Dw.IsConstant = true;
  Dw.Data = pattern(36, 1);
  ir::QuantParams DwQ;
  DwQ.Scales = {0.5f, 0.25f, 0.125f, 0.0625f};
  DwQ.ZeroPoints = {0, 1, -1, 2};
  DwQ.Axis = 3;
  Dw.Quant = DwQ;
  int32_t DwIndex = MM.addTensor(Dw);

  ir::Tensor Conv = tensor("conv/weights", {2, 1, 1, 4}, ir::DType::I8);
  Conv.IsConstant = true;
  Conv.Data = pattern(8, 2);
  ir::QuantParams ConvQ;
  ConvQ.Scales = {0.003f, 0.007f};
  ConvQ.ZeroPoints = {0, 0};
  ConvQ.Axis = 0;
  Conv.Quant = ConvQ;
  MM.addTensor(Conv);

  // Every element type, constant and not.
  ir::Tensor U8 = tensor("u8", {3}, ir::DType::U8);
  U8.IsConstant = true;
  U8.Data = pattern(3, 3);
  ir::QuantParams U8Q;
  U8Q.Scales = {1.0f / 255};
  U8Q.ZeroPoints = {128};
  U8.Quant = U8Q;
  MM.addTensor(U8);
  ir::Tensor I16 = tensor("i16 state", {1, 20}, ir::DType::I16);
  I16.IsVariable = true;
  MM.addTensor(I16);
  ir::Tensor I32 = tensor("i32", {2}, ir::DType::I32);
  I32.IsConstant = true;
  I32.Data = pattern(8, 4);
  MM.addTensor(I32);
  ir::Tensor I64 = tensor("i64", {1}, ir::DType::I64);
  I64.IsConstant = true;
  I64.Data = pattern(8, 5);
  MM.addTensor(I64);
  MM.addTensor(tensor("f16", {2, 2}, ir::DType::F16));
  ir::Tensor F32 = tensor("f32 scalar", {}, ir::DType::F32);
  F32.IsConstant = true;
  F32.Data = {0, 0, 0x80, 0x3f};
  MM.addTensor(F32);
  MM.addTensor(tensor("bool", {5}, ir::DType::Bool));
  MM.addOp("DEPTHWISE_CONV_2D", 3,
           {{"padding", std::string("SAME")},
            {"stride_h", int64_t(1)},
            {"stride_w", int64_t(1)},
            {"dilation_h", int64_t(1)},
            {"dilation_w", int64_t(1)},
            {"depth_multiplier", int64_t(1)},
            {"fused_activation", std::string("NONE")}},
           {DwIndex, -1});

  ir::Model Back = roundTrip(MM.M);
  test::checkSameModel(MM.M, Back);
  const ir::Tensor &DwBack = Back.main().tensor(DwIndex);
  REQUIRE(DwBack.Quant.has_value());
  CHECK(DwBack.Quant->isPerChannel());
  CHECK(DwBack.Quant->Axis == 3);
}

TEST_CASE("versions, opaque, custom and large operator codes") {
  ModelMaker MM;
  MM.addOp("CONV_2D", 1, {});
  MM.addOp("CONV_2D", 1, {});
  MM.addOp("CONV_2D", 5, {});
  // An operator the importer keeps opaque, with its options tag.
  ir::Operator &Range = MM.addOp("RANGE", 2, {});
  Range.Opaque = true;
  Range.RawOptionsTag = 73; // RangeOptions
  // A custom operator with its own option bytes.
  ir::Operator &Custom = MM.addOp("CUSTOM", 1, {});
  Custom.Opaque = true;
  Custom.CustomCode = "AcmeVendorBlur";
  Custom.RawOptions = {1, 2, 3, 250};
  // A code the format has not assigned yet, above the one-byte range.
  ir::Operator &Future = MM.addOp("BUILTIN_250", 1, {});
  Future.Opaque = true;
  Future.BuiltinCode = 250;

  ir::Model M = MM.M;
  // The importer fills in the options it reads with their defaults.
  for (ir::Operator &Op : M.main().Operators)
    if (Op.Type == "CONV_2D")
      Op.Attrs = {{"padding", std::string("SAME")},
                  {"stride_h", int64_t(1)},
                  {"stride_w", int64_t(1)},
                  {"dilation_h", int64_t(1)},
                  {"dilation_w", int64_t(1)},
                  {"fused_activation", std::string("NONE")}};
  ir::Model Back = roundTrip(MM.M);
  test::checkSameModel(M, Back);
  const std::vector<ir::Operator> &Ops = Back.main().Operators;
  CHECK(Ops[3].BuiltinCode == 96); // RANGE
  CHECK(Ops[3].RawOptionsTag == 73);
  CHECK(Ops[4].BuiltinCode == 32);
  CHECK(Ops[5].BuiltinCode == 250);
}

TEST_CASE("an operator that is not a builtin is written as CUSTOM") {
  ModelMaker MM;
  ir::Operator &Op = MM.addOp("MDLA_CONV_2D", 2, {});
  CHECK(Op.BuiltinCode == -1);
  ir::Model Back = roundTrip(MM.M);
  const ir::Operator &B = Back.main().Operators.front();
  CHECK(B.Type == "CUSTOM");
  CHECK(B.CustomCode == "MDLA_CONV_2D");
  CHECK(B.Version == 2);
  CHECK(B.Opaque);
}

TEST_CASE("several graphs share the model's buffers") {
  ModelMaker MM;
  ir::Tensor W = tensor("w", {4}, ir::DType::I8);
  W.IsConstant = true;
  W.Data = pattern(4, 9);
  int32_t WIndex = MM.addTensor(W);
  MM.addOp(
      "ADD", 1,
      {{"fused_activation", std::string("NONE")}, {"pot_scale_int16", true}},
      {WIndex});
  ir::Graph Second = MM.G();
  Second.Name = "second";
  Second.Tensors[WIndex].Data = pattern(4, 77);
  MM.M.Graphs.push_back(Second);
  test::checkSameModel(MM.M, roundTrip(MM.M));
}

TEST_CASE("file layout") {
  ir::Model M = modelWithAllOptions();
  ir::Tensor W = tensor("w", {17}, ir::DType::I8);
  W.IsConstant = true;
  W.Data = pattern(17, 0);
  M.main().Tensors.push_back(W);
  W.Data = pattern(17, 1);
  M.main().Tensors.push_back(W);
  // A second CONV_2D of the same version shares the operator code; one of
  // another version does not.
  ir::Operator Extra = M.main().Operators[3];
  REQUIRE(Extra.Type == "CONV_2D");
  Extra.Outputs = {M.main().Operators[4].Outputs[0] + 1000};
  M.main().Operators.push_back(Extra);
  Extra.Version = 1;
  M.main().Operators.push_back(Extra);

  std::vector<uint8_t> Bytes = tflite::writeModel(M);
  REQUIRE(fb::ModelBufferHasIdentifier(Bytes.data()));
  flatbuffers::Verifier V(Bytes.data(), Bytes.size());
  REQUIRE(fb::VerifyModelBuffer(V));
  const fb::Model *Root = fb::GetModel(Bytes.data());
  CHECK(Root->version() == 3);

  // Buffer 0 is empty; each constant has a buffer of its own with its data,
  // aligned to 16 bytes; everything else uses buffer 0.
  const auto *Buffers = Root->buffers();
  REQUIRE(Buffers);
  CHECK((!Buffers->Get(0)->data() || Buffers->Get(0)->data()->size() == 0));
  const auto *Tensors = Root->subgraphs()->Get(0)->tensors();
  std::set<uint32_t> Seen;
  size_t Constants = 0;
  for (size_t I = 0; I < Tensors->size(); ++I) {
    const ir::Tensor &T = M.main().Tensors[I];
    uint32_t B = Tensors->Get(I)->buffer();
    INFO("tensor ", I);
    if (!T.IsConstant) {
      CHECK(B == 0);
      continue;
    }
    ++Constants;
    CHECK(B != 0);
    CHECK(Seen.insert(B).second);
    REQUIRE(B < Buffers->size());
    const auto *Data = Buffers->Get(B)->data();
    REQUIRE(Data);
    CHECK(std::vector<uint8_t>(Data->begin(), Data->end()) == T.Data);
    CHECK((Data->data() - Bytes.data()) % 16 == 0);
  }
  CHECK(Constants == 2);
  CHECK(Buffers->size() == 1 + Constants);

  // One code per (builtin, version); the old one-byte field holds the code
  // up to 127 (CONV_3D is 132).
  std::map<std::pair<int32_t, int32_t>, int> Codes;
  for (const fb::OperatorCode *C : *Root->operator_codes()) {
    ++Codes[{C->builtin_code(), C->version()}];
    CHECK(C->deprecated_builtin_code() == std::min(C->builtin_code(), 127));
  }
  for (const auto &Entry : Codes)
    CHECK_MESSAGE(Entry.second == 1, "code ", Entry.first.first, " v",
                  Entry.first.second);
  int32_t Conv2D = tflite::builtinOperatorCode("CONV_2D");
  CHECK(Codes.count({Conv2D, 3}) == 1);
  CHECK(Codes.count({Conv2D, 1}) == 1);
  CHECK(Codes.count({tflite::builtinOperatorCode("CONV_3D"), 1}) == 1);
  const auto *Ops = Root->subgraphs()->Get(0)->operators();
  CHECK(Ops->Get(3)->opcode_index() ==
        Ops->Get(Ops->size() - 2)->opcode_index());
  CHECK(Ops->Get(3)->opcode_index() !=
        Ops->Get(Ops->size() - 1)->opcode_index());
}

TEST_CASE("the writer writes malformed models as they are") {
  ModelMaker MM;
  ir::Tensor W = tensor("w", {2, -3}, ir::DType::I8);
  W.IsConstant = true;
  W.Data = pattern(5, 0);
  int32_t WIndex = MM.addTensor(W);
  MM.addOp("ADD", 1, {}, {WIndex, 99});
  MM.G().Outputs.push_back(-4);

  std::vector<uint8_t> Bytes = tflite::writeModel(MM.M);
  flatbuffers::Verifier V(Bytes.data(), Bytes.size());
  REQUIRE(fb::VerifyModelBuffer(V));
  const fb::SubGraph *SG = fb::GetModel(Bytes.data())->subgraphs()->Get(0);
  const fb::Tensor *T = SG->tensors()->Get(WIndex);
  CHECK(T->shape()->Get(1) == -3);
  const fb::Buffer *B = fb::GetModel(Bytes.data())->buffers()->Get(T->buffer());
  CHECK(B->data()->size() == 5);
  CHECK(SG->operators()->Get(0)->inputs()->Get(2) == 99);
  CHECK(SG->outputs()->Get(SG->outputs()->size() - 1) == -4);
}

TEST_CASE("the example model reads back to the same bytes") {
  std::vector<uint8_t> Bytes = test::readFileBytes(test::exampleModelPath());
  auto R = tflite::importModel(Bytes);
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  CHECK(tflite::writeModel(*R->Model) == Bytes);
}

TEST_CASE("writeModelFile writes a file the importer reads") {
  test::TempDir Dir;
  ir::Model M = modelWithAllOptions();
  std::string Path = Dir.file("model.tflite");
  llvm::Error E = tflite::writeModelFile(M, Path);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  auto R = tflite::importModelFile(Path);
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  test::checkSameModel(M, *R->Model);

  llvm::Error Bad = tflite::writeModelFile(M, Dir.file("missing/dir/m.tflite"));
  CHECK(bool(Bad));
  llvm::consumeError(std::move(Bad));
}

TEST_CASE("TFLite_Detection_PostProcess's options: a FlexBuffer map both "
          "ways, and Micro's defaults for the keys a file leaves out") {
  ModelMaker MM;
  std::vector<int32_t> Outs;
  for (int K = 0; K < 4; ++K)
    Outs.push_back(MM.addTensor(tensor("det" + std::to_string(K), {1, 4},
                                       ir::DType::F32)));
  MM.G().Outputs = Outs;
  ir::Operator Op;
  Op.Type = "TFLite_Detection_PostProcess";
  Op.Inputs = {0, 0, 0};
  Op.Outputs = Outs;
  Op.Attrs = {{"max_detections", int64_t(7)},
              {"max_classes_per_detection", int64_t(2)},
              {"detections_per_class", int64_t(3)},
              {"use_regular_nms", true},
              {"nms_score_threshold", double(0.25f)},
              {"nms_iou_threshold", double(0.6f)},
              {"num_classes", int64_t(90)},
              {"y_scale", 10.0},
              {"x_scale", 10.0},
              {"h_scale", 5.0},
              {"w_scale", 5.0}};
  MM.G().Operators.push_back(Op);
  const ir::Operator Back = roundTrip(MM.M).main().Operators.front();
  CHECK(Back.Type == "TFLite_Detection_PostProcess");
  CHECK(Back.BuiltinCode == 32);
  CHECK(!Back.Opaque);
  CHECK(Back.Attrs == Op.Attrs);

  // A map with three of the keys: the rest read as Micro reads them.
  flexbuffers::Builder F;
  F.Map([&] {
    F.Int("max_detections", 5);
    F.Float("nms_iou_threshold", 0.5f);
    F.Int("num_classes", 3);
  });
  F.Finish();
  ir::Operator &Raw = MM.G().Operators.front();
  Raw.Type = "CUSTOM";
  Raw.Opaque = true;
  Raw.BuiltinCode = 32;
  Raw.CustomCode = "TFLite_Detection_PostProcess";
  Raw.RawOptions = F.GetBuffer();
  const ir::Operator Read = roundTrip(MM.M).main().Operators.front();
  const std::map<std::string, ir::AttrValue> Expected = {
      {"max_detections", int64_t(5)},
      {"max_classes_per_detection", int64_t(0)},
      {"detections_per_class", int64_t(100)},
      {"use_regular_nms", false},
      {"nms_score_threshold", 0.0},
      {"nms_iou_threshold", 0.5},
      {"num_classes", int64_t(3)},
      {"y_scale", 0.0},
      {"x_scale", 0.0},
      {"h_scale", 0.0},
      {"w_scale", 0.0}};
  CHECK(Read.Attrs == Expected);
}
