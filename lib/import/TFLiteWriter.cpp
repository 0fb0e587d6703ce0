//===- TFLiteWriter.cpp - Graph IR to TensorFlow Lite FlatBuffers ---------===//
//
// The inverse of the importer. Attributes are turned back into the options
// table the importer reads for each operator type (writeOptions below mirrors
// the importer's readerFor), with the format's defaults where an attribute is
// missing.
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteWriter.h"

#include "import/BuiltinOps.h"
#include "tflite_subset_generated.h"

#include "flatbuffers/flexbuffers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileUtilities.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace accelgen {
namespace tflite {

namespace fb = ::accelgen::tfl;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
namespace attr = ir::attr;

namespace {

/// The options table written for one operator: its union tag and value.
struct WrittenOptions {
  fb::BuiltinOptions Tag = fb::BuiltinOptions::NONE;
  Offset<void> Value = 0;
};

template <typename T> WrittenOptions options(Offset<T> Table) {
  return {fb::BuiltinOptionsTraits<T>::enum_value, Table.Union()};
}

fb::Padding padding(const ir::Operator &Op) {
  return Op.getString(attr::Padding, "SAME") == "VALID" ? fb::Padding::VALID
                                                        : fb::Padding::SAME;
}

/// The fused activation named by the "fused_activation" attribute;
/// "UNKNOWN_<n>" writes value n, which the importer rejects (for the tests'
/// malformed models).
fb::Activation activation(const ir::Operator &Op) {
  std::string Name = Op.getString(attr::FusedActivation, "NONE");
  for (int V = static_cast<int>(fb::Activation::MIN);
       V <= static_cast<int>(fb::Activation::MAX); ++V)
    if (Name == fb::EnumNameActivation(static_cast<fb::Activation>(V)))
      return static_cast<fb::Activation>(V);
  llvm::StringRef Rest = Name;
  int Value = 0;
  if (Rest.consume_front("UNKNOWN_") && !Rest.getAsInteger(10, Value))
    return static_cast<fb::Activation>(Value);
  return fb::Activation::NONE;
}

int32_t intAttr(const ir::Operator &Op, llvm::StringRef Name, int64_t Default) {
  return static_cast<int32_t>(Op.getInt(Name, Default));
}

Offset<flatbuffers::Vector<int32_t>>
intVector(FlatBufferBuilder &B, const std::vector<int64_t> &Values) {
  std::vector<int32_t> Narrow(Values.begin(), Values.end());
  return B.CreateVector(Narrow);
}

WrittenOptions writeConv2D(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateConv2DOptions(
      B, padding(Op), intAttr(Op, attr::StrideW, 1),
      intAttr(Op, attr::StrideH, 1), activation(Op),
      intAttr(Op, attr::DilationW, 1), intAttr(Op, attr::DilationH, 1)));
}

WrittenOptions writeDepthwise(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateDepthwiseConv2DOptions(
      B, padding(Op), intAttr(Op, attr::StrideW, 1),
      intAttr(Op, attr::StrideH, 1), intAttr(Op, attr::DepthMultiplier, 1),
      activation(Op), intAttr(Op, attr::DilationW, 1),
      intAttr(Op, attr::DilationH, 1)));
}

WrittenOptions writePool(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreatePool2DOptions(
      B, padding(Op), intAttr(Op, attr::StrideW, 1),
      intAttr(Op, attr::StrideH, 1), intAttr(Op, attr::FilterW, 1),
      intAttr(Op, attr::FilterH, 1), activation(Op)));
}

WrittenOptions writeFullyConnected(FlatBufferBuilder &B,
                                   const ir::Operator &Op) {
  return options(fb::CreateFullyConnectedOptions(
      B, activation(Op), static_cast<int8_t>(Op.getInt(attr::WeightsFormat, 0)),
      Op.getBool(attr::KeepNumDims),
      Op.getBool(attr::AsymmetricQuantizeInputs)));
}

WrittenOptions writeSoftmax(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateSoftmaxOptions(
      B, static_cast<float>(Op.getFloat(attr::Beta, 1.0))));
}

WrittenOptions writeConcat(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateConcatenationOptions(B, intAttr(Op, attr::Axis, 0),
                                                activation(Op)));
}

WrittenOptions writeAdd(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateAddOptions(B, activation(Op),
                                      Op.getBool(attr::PotScaleInt16, true)));
}

WrittenOptions writeSub(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateSubOptions(B, activation(Op),
                                      Op.getBool(attr::PotScaleInt16, true)));
}

WrittenOptions writeMul(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateMulOptions(B, activation(Op)));
}

WrittenOptions writeDiv(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateDivOptions(B, activation(Op)));
}

WrittenOptions writeResizeBilinear(FlatBufferBuilder &B,
                                   const ir::Operator &Op) {
  return options(fb::CreateResizeBilinearOptions(
      B, Op.getBool(attr::AlignCorners), Op.getBool(attr::HalfPixelCenters)));
}

WrittenOptions writeResizeNearest(FlatBufferBuilder &B,
                                  const ir::Operator &Op) {
  return options(fb::CreateResizeNearestNeighborOptions(
      B, Op.getBool(attr::AlignCorners), Op.getBool(attr::HalfPixelCenters)));
}

WrittenOptions writeMirrorPad(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateMirrorPadOptions(
      B, Op.getString(attr::Mode) == "SYMMETRIC"
             ? fb::MirrorPadMode::SYMMETRIC
             : fb::MirrorPadMode::REFLECT));
}

WrittenOptions writeL2Norm(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateL2NormOptions(B, activation(Op)));
}

WrittenOptions writeGather(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateGatherOptions(B, intAttr(Op, attr::Axis, 0),
                                         intAttr(Op, attr::BatchDims, 0)));
}

WrittenOptions writeBatchMatMul(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateBatchMatMulOptions(
      B, Op.getBool(attr::AdjX), Op.getBool(attr::AdjY),
      Op.getBool(attr::AsymmetricQuantizeInputs)));
}

WrittenOptions writeCumsum(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateCumsumOptions(B, Op.getBool(attr::Exclusive),
                                         Op.getBool(attr::Reverse)));
}

WrittenOptions writePack(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreatePackOptions(
      B, static_cast<int32_t>(Op.Inputs.size()), intAttr(Op, attr::Axis, 0)));
}

WrittenOptions writeUnpack(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateUnpackOptions(
      B, static_cast<int32_t>(Op.Outputs.size()), intAttr(Op, attr::Axis, 0)));
}

WrittenOptions writeSplit(FlatBufferBuilder &B, const ir::Operator &Op) {
  const int32_t N = intAttr(Op, attr::NumSplits,
                            static_cast<int32_t>(Op.Outputs.size()));
  if (Op.code() == ir::OpCode::SplitV)
    return options(fb::CreateSplitVOptions(B, N));
  return options(fb::CreateSplitOptions(B, N));
}

WrittenOptions writeIf(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateIfOptions(B, intAttr(Op, attr::ThenSubgraph, 0),
                                     intAttr(Op, attr::ElseSubgraph, 0)));
}

WrittenOptions writeWhile(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateWhileOptions(B, intAttr(Op, attr::CondSubgraph, 0),
                                        intAttr(Op, attr::BodySubgraph, 0)));
}

WrittenOptions writeCallOnce(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(
      fb::CreateCallOnceOptions(B, intAttr(Op, attr::InitSubgraph, 0)));
}

WrittenOptions writeVarHandle(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateVarHandleOptionsDirect(
      B, Op.getString(attr::Container).c_str(),
      Op.getString(attr::SharedName).c_str()));
}

WrittenOptions writeReshape(FlatBufferBuilder &B, const ir::Operator &Op) {
  // The options are optional: the new shape usually is input 1.
  if (!Op.hasAttr(attr::NewShape))
    return {};
  return options(
      fb::CreateReshapeOptions(B, intVector(B, Op.getInts(attr::NewShape))));
}

WrittenOptions writeReducer(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateReducerOptions(B, Op.getBool(attr::KeepDims)));
}

WrittenOptions writeSqueeze(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(
      fb::CreateSqueezeOptions(B, intVector(B, Op.getInts(attr::SqueezeDims))));
}

WrittenOptions writeStridedSlice(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateStridedSliceOptions(
      B, intAttr(Op, attr::BeginMask, 0), intAttr(Op, attr::EndMask, 0),
      intAttr(Op, attr::EllipsisMask, 0), intAttr(Op, attr::NewAxisMask, 0),
      intAttr(Op, attr::ShrinkAxisMask, 0), Op.getBool(attr::Offset)));
}

WrittenOptions writeTransposeConv(FlatBufferBuilder &B,
                                  const ir::Operator &Op) {
  return options(fb::CreateTransposeConvOptions(
      B, padding(Op), intAttr(Op, attr::StrideW, 1),
      intAttr(Op, attr::StrideH, 1), activation(Op)));
}

WrittenOptions writeLSTM(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateUnidirectionalSequenceLSTMOptions(
      B, activation(Op), static_cast<float>(Op.getFloat(attr::CellClip)),
      static_cast<float>(Op.getFloat(attr::ProjClip)),
      Op.getBool(attr::TimeMajor), Op.getBool(attr::AsymmetricQuantizeInputs),
      Op.getBool(attr::DiagonalRecurrentTensors)));
}

WrittenOptions writeSvdf(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateSVDFOptions(
      B, intAttr(Op, attr::Rank, 1), activation(Op),
      Op.getBool(attr::AsymmetricQuantizeInputs)));
}

WrittenOptions writeLeakyRelu(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateLeakyReluOptions(
      B, static_cast<float>(Op.getFloat(attr::Alpha))));
}

WrittenOptions writeSpaceToDepth(FlatBufferBuilder &B,
                                 const ir::Operator &Op) {
  return options(
      fb::CreateSpaceToDepthOptions(B, intAttr(Op, attr::BlockSize, 1)));
}

WrittenOptions writeDepthToSpace(FlatBufferBuilder &B,
                                 const ir::Operator &Op) {
  return options(
      fb::CreateDepthToSpaceOptions(B, intAttr(Op, attr::BlockSize, 1)));
}

WrittenOptions writeConv3D(FlatBufferBuilder &B, const ir::Operator &Op) {
  return options(fb::CreateConv3DOptions(
      B, padding(Op), intAttr(Op, attr::StrideD, 1),
      intAttr(Op, attr::StrideW, 1), intAttr(Op, attr::StrideH, 1),
      activation(Op), intAttr(Op, attr::DilationD, 1),
      intAttr(Op, attr::DilationW, 1), intAttr(Op, attr::DilationH, 1)));
}

/// How canonical operator \p Op's attributes become its options table: the
/// inverse of the importer's readers. Operators not listed are written without
/// options.
WrittenOptions writeOptions(FlatBufferBuilder &B, const ir::Operator &Op) {
  using ir::OpCode;
  switch (Op.code()) {
  case OpCode::Add:
    return writeAdd(B, Op);
  case OpCode::AveragePool2D:
  case OpCode::MaxPool2D:
  case OpCode::L2Pool2D:
    return writePool(B, Op);
  case OpCode::Concatenation:
    return writeConcat(B, Op);
  case OpCode::Conv2D:
    return writeConv2D(B, Op);
  case OpCode::Conv3D:
    return writeConv3D(B, Op);
  case OpCode::DepthwiseConv2D:
    return writeDepthwise(B, Op);
  case OpCode::FullyConnected:
    return writeFullyConnected(B, Op);
  case OpCode::LeakyRelu:
    return writeLeakyRelu(B, Op);
  case OpCode::Mean:
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ReduceAll:
  case OpCode::Sum:
    return writeReducer(B, Op);
  case OpCode::Mul:
    return writeMul(B, Op);
  case OpCode::Div:
    return writeDiv(B, Op);
  case OpCode::Gather:
    return writeGather(B, Op);
  case OpCode::Pack:
    return writePack(B, Op);
  case OpCode::Unpack:
    return writeUnpack(B, Op);
  case OpCode::Split:
  case OpCode::SplitV:
    return writeSplit(B, Op);
  case OpCode::Cumsum:
    return writeCumsum(B, Op);
  case OpCode::If:
    return writeIf(B, Op);
  case OpCode::While:
    return writeWhile(B, Op);
  case OpCode::CallOnce:
    return writeCallOnce(B, Op);
  case OpCode::VarHandle:
    return writeVarHandle(B, Op);
  case OpCode::BatchMatMul:
    return writeBatchMatMul(B, Op);
  case OpCode::L2Normalization:
    return writeL2Norm(B, Op);
  case OpCode::MirrorPad:
    return writeMirrorPad(B, Op);
  case OpCode::ResizeBilinear:
    return writeResizeBilinear(B, Op);
  case OpCode::ResizeNearestNeighbor:
    return writeResizeNearest(B, Op);
  case OpCode::Reshape:
    return writeReshape(B, Op);
  case OpCode::Softmax:
    return writeSoftmax(B, Op);
  case OpCode::Squeeze:
    return writeSqueeze(B, Op);
  case OpCode::StridedSlice:
    return writeStridedSlice(B, Op);
  case OpCode::Sub:
    return writeSub(B, Op);
  case OpCode::TransposeConv:
    return writeTransposeConv(B, Op);
  case OpCode::UnidirectionalSequenceLSTM:
    return writeLSTM(B, Op);
  case OpCode::Svdf:
    return writeSvdf(B, Op);
  case OpCode::SpaceToDepth:
    return writeSpaceToDepth(B, Op);
  case OpCode::DepthToSpace:
    return writeDepthToSpace(B, Op);
  default:
    return {};
  }
}

fb::TensorType tensorType(ir::DType T) {
  switch (T) {
  case ir::DType::I8:
    return fb::TensorType::INT8;
  case ir::DType::U8:
    return fb::TensorType::UINT8;
  case ir::DType::I16:
    return fb::TensorType::INT16;
  case ir::DType::I32:
    return fb::TensorType::INT32;
  case ir::DType::I64:
    return fb::TensorType::INT64;
  case ir::DType::F16:
    return fb::TensorType::FLOAT16;
  case ir::DType::F32:
    return fb::TensorType::FLOAT32;
  case ir::DType::Bool:
    return fb::TensorType::BOOL;
  case ir::DType::U32:
    return fb::TensorType::UINT32;
  }
  llvm_unreachable("unknown DType");
}

class Writer {
public:
  explicit Writer(const ir::Model &M) : M(M) {}

  std::vector<uint8_t> run();

private:
  const ir::Model &M;
  FlatBufferBuilder B;
  std::vector<Offset<fb::Buffer>> Buffers;
  std::vector<Offset<fb::OperatorCode>> Codes;
  /// Operator code index by (builtin code, version, custom code).
  std::map<std::tuple<int32_t, int32_t, std::string>, uint32_t> CodeIndex;

  Offset<fb::SubGraph> writeGraph(const ir::Graph &G);
  Offset<fb::Tensor> writeTensor(const ir::Tensor &T);
  Offset<fb::Operator> writeOperator(const ir::Operator &Op);
  uint32_t operatorCode(const ir::Operator &Op);
};

std::vector<uint8_t> Writer::run() {
  // Buffer 0 is the empty buffer that non-constant tensors point to.
  Buffers.push_back(fb::CreateBuffer(B));
  std::vector<Offset<fb::SubGraph>> Graphs;
  for (const ir::Graph &G : M.Graphs)
    Graphs.push_back(writeGraph(G));
  auto Root = fb::CreateModel(
      B, M.SchemaVersion, B.CreateVector(Codes), B.CreateVector(Graphs),
      B.CreateString(M.Description), B.CreateVector(Buffers));
  fb::FinishModelBuffer(B, Root);
  return std::vector<uint8_t>(B.GetBufferPointer(),
                              B.GetBufferPointer() + B.GetSize());
}

Offset<fb::SubGraph> Writer::writeGraph(const ir::Graph &G) {
  std::vector<Offset<fb::Tensor>> Tensors;
  for (const ir::Tensor &T : G.Tensors)
    Tensors.push_back(writeTensor(T));
  std::vector<Offset<fb::Operator>> Ops;
  for (const ir::Operator &Op : G.Operators)
    Ops.push_back(writeOperator(Op));
  return fb::CreateSubGraph(B, B.CreateVector(Tensors),
                            B.CreateVector(G.Inputs), B.CreateVector(G.Outputs),
                            B.CreateVector(Ops), B.CreateString(G.Name));
}

Offset<fb::Tensor> Writer::writeTensor(const ir::Tensor &T) {
  uint32_t BufIndex = 0;
  if (T.IsConstant) {
    // The format aligns constant data to 16 bytes; kernels may rely on it.
    const std::vector<uint8_t> Bytes =
        T.PackedInt4 ? ir::packInt4(T.Data) : T.Data;
    B.ForceVectorAlignment(Bytes.size(), sizeof(uint8_t), 16);
    auto Data = B.CreateVector(Bytes);
    BufIndex = static_cast<uint32_t>(Buffers.size());
    Buffers.push_back(fb::CreateBuffer(B, Data));
  }
  Offset<fb::QuantizationParameters> Quant = 0;
  if (T.Quant)
    Quant = fb::CreateQuantizationParameters(
        B, B.CreateVector(T.Quant->Scales), B.CreateVector(T.Quant->ZeroPoints),
        /*details_type=*/0, T.Quant->Axis);
  return fb::CreateTensor(B, B.CreateVector(T.Shape),
                          T.PackedInt4   ? fb::TensorType::INT4
                          : T.IsResource ? fb::TensorType::RESOURCE
                                         : tensorType(T.Type),
                          BufIndex, B.CreateString(T.Name), Quant,
                          T.IsVariable);
}

uint32_t Writer::operatorCode(const ir::Operator &Op) {
  int32_t Code =
      Op.BuiltinCode >= 0 ? Op.BuiltinCode : builtinOperatorCode(Op.Type);
  std::string Custom = Op.CustomCode;
  if (Code < 0) {
    // Not a TensorFlow Lite builtin: keep it as a custom operator by name.
    Code = static_cast<int32_t>(Builtin::CUSTOM);
    if (Custom.empty())
      Custom = Op.Type;
  }
  auto Key = std::make_tuple(Code, Op.Version, Custom);
  auto It = CodeIndex.find(Key);
  if (It != CodeIndex.end())
    return It->second;
  // Codes up to 127 also go in the old one-byte field, which readers of
  // older schema versions look at; 127 there means "see builtin_code".
  auto Deprecated = static_cast<int8_t>(std::min(Code, 127));
  Codes.push_back(fb::CreateOperatorCode(
      B, Deprecated, Custom.empty() ? 0 : B.CreateString(Custom), Op.Version,
      Code));
  uint32_t Index = static_cast<uint32_t>(Codes.size() - 1);
  CodeIndex.emplace(std::move(Key), Index);
  return Index;
}

/// TFLite_Detection_PostProcess's custom options from its attributes: the
/// FlexBuffer map TensorFlow Lite's converter writes.
std::vector<uint8_t> detectionPostProcessOptions(const ir::Operator &Op) {
  namespace A = ir::attr;
  flexbuffers::Builder F;
  F.Map([&] {
    F.Int("max_detections", Op.getInt(A::MaxDetections));
    F.Int("max_classes_per_detection", Op.getInt(A::MaxClassesPerDetection));
    F.Int("detections_per_class", Op.getInt(A::DetectionsPerClass, 100));
    F.Bool("use_regular_nms", Op.getBool(A::UseRegularNms));
    F.Float("nms_score_threshold",
            static_cast<float>(Op.getFloat(A::NmsScoreThreshold)));
    F.Float("nms_iou_threshold",
            static_cast<float>(Op.getFloat(A::NmsIouThreshold)));
    F.Int("num_classes", Op.getInt(A::NumClasses));
    F.Float("y_scale", static_cast<float>(Op.getFloat(A::YScale)));
    F.Float("x_scale", static_cast<float>(Op.getFloat(A::XScale)));
    F.Float("h_scale", static_cast<float>(Op.getFloat(A::HScale)));
    F.Float("w_scale", static_cast<float>(Op.getFloat(A::WScale)));
  });
  F.Finish();
  return F.GetBuffer();
}

/// A registered custom operator's attributes as the FlexBuffer map its
/// importer reads (integers, reals, bools, strings; a list of integers as a
/// vector).
std::vector<uint8_t> customOptions(const ir::Operator &Op) {
  flexbuffers::Builder F;
  F.Map([&] {
    for (const auto &Entry : Op.Attrs) {
      const char *K = Entry.first.c_str();
      // A named reference: a lambda below reads it.
      const ir::AttrValue &Value = Entry.second;
      if (const auto *I = std::get_if<int64_t>(&Value))
        F.Int(K, *I);
      else if (const auto *D = std::get_if<double>(&Value))
        F.Double(K, *D);
      else if (const auto *Bit = std::get_if<bool>(&Value))
        F.Bool(K, *Bit);
      else if (const auto *S = std::get_if<std::string>(&Value))
        F.String(K, *S);
      else
        F.Vector(K, [&] {
          for (int64_t X : std::get<std::vector<int64_t>>(Value))
            F.Int(X);
        });
    }
  });
  F.Finish();
  return F.GetBuffer();
}

Offset<fb::Operator> Writer::writeOperator(const ir::Operator &Op) {
  uint32_t Code = operatorCode(Op);
  WrittenOptions Options;
  if (Op.Opaque) {
    // Only the options tag of an opaque operator is known; an empty table
    // under it reads back as the format's defaults.
    if (Op.RawOptionsTag != 0) {
      Options.Tag = static_cast<fb::BuiltinOptions>(Op.RawOptionsTag);
      Options.Value = B.EndTable(B.StartTable());
    }
  } else {
    Options = writeOptions(B, Op);
  }
  Offset<flatbuffers::Vector<uint8_t>> Custom = 0;
  if (Op.code() == ir::OpCode::DetectionPostProcess)
    Custom = B.CreateVector(detectionPostProcessOptions(Op));
  else if (ir::isCustomOperator(Op.Type) && !Op.Attrs.empty())
    Custom = B.CreateVector(customOptions(Op));
  else if (!Op.RawOptions.empty())
    Custom = B.CreateVector(Op.RawOptions);
  return fb::CreateOperator(B, Code, B.CreateVector(Op.Inputs),
                            B.CreateVector(Op.Outputs), Options.Tag,
                            Options.Value, Custom);
}

} // namespace

std::vector<uint8_t> writeModel(const ir::Model &M) { return Writer(M).run(); }

llvm::Error writeModelFile(const ir::Model &M, llvm::StringRef Path) {
  std::vector<uint8_t> Bytes = writeModel(M);
  // Written to a temporary file first, so that an interrupted build never
  // leaves a partial model behind.
  return llvm::writeFileAtomically(
      Path.str() + ".tmp%%%%%%", Path,
      llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()),
                      Bytes.size()));
}

} // namespace tflite
} // namespace accelgen
