//===- ONNXImporter.cpp - ONNX models to Graph IR -------------------------===//
//
// The ONNX library's protobuf classes, checker and shape inference read and
// validate the model; this file turns its nodes into the IR's operators.
//
//===----------------------------------------------------------------------===//
#include "import/ONNXImporter.h"

#include "import/OperatorChecks.h"
#include "import/QOperatorForms.h"
#include "import/QuantParamsMaker.h"
#include "ir/Verifier.h"
#include "support/TerminalText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace pb = ::onnx;

namespace accelgen {
namespace onnximport {

namespace attr = ir::attr;
using llvm::Error;
using llvm::Expected;
using llvm::formatv;
using llvm::StringRef;

namespace {

Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

/// The ONNX element types the IR has, with their IR types.
struct TypePair {
  int32_t Onnx;
  ir::DType Ir;
};
constexpr TypePair ElementTypes[] = {
    {pb::TensorProto_DataType_FLOAT, ir::DType::F32},
    {pb::TensorProto_DataType_UINT8, ir::DType::U8},
    {pb::TensorProto_DataType_INT8, ir::DType::I8},
    {pb::TensorProto_DataType_INT16, ir::DType::I16},
    {pb::TensorProto_DataType_INT32, ir::DType::I32},
    {pb::TensorProto_DataType_INT64, ir::DType::I64},
    {pb::TensorProto_DataType_BOOL, ir::DType::Bool},
    {pb::TensorProto_DataType_FLOAT16, ir::DType::F16},
};

/// The IR type of ONNX element type \p T; std::nullopt for one the IR lacks.
std::optional<ir::DType> dtypeOf(int32_t T) {
  for (const TypePair &P : ElementTypes)
    if (P.Onnx == T)
      return P.Ir;
  return std::nullopt;
}

std::string typeName(int32_t T) {
  if (pb::TensorProto_DataType_IsValid(T))
    return pb::TensorProto_DataType_Name(
        static_cast<pb::TensorProto_DataType>(T));
  return "type " + std::to_string(T);
}

/// The product of \p Dims; -1 if one is negative or the product passes
/// ir::MaxElements.
int64_t elementCount(llvm::ArrayRef<int64_t> Dims) {
  int64_t N = 1;
  for (int64_t D : Dims) {
    if (D < 0 || (D > 0 && N > ir::MaxElements / D))
      return -1;
    N *= D;
  }
  return N;
}

} // namespace

Expected<TensorData> readTensor(const pb::TensorProto &T) {
  TensorData Out;
  Out.Dims.assign(T.dims().begin(), T.dims().end());
  std::optional<ir::DType> Type = dtypeOf(T.data_type());
  if (!Type)
    return makeError(
        formatv("element type {0} is not supported", typeName(T.data_type())));
  Out.Type = *Type;
  if (T.data_location() == pb::TensorProto_DataLocation_EXTERNAL)
    return makeError("data stored in an external file is not supported "
                     "(save the model with its data inside)");
  if (T.has_segment())
    return makeError("segmented tensors are not supported");
  int64_t N = elementCount(Out.Dims);
  if (N < 0)
    return makeError(formatv("dimensions hold more than {0} elements or a "
                             "negative one",
                             ir::MaxElements));
  size_t Size = ir::dtypeSize(Out.Type);
  uint64_t Bytes = uint64_t(N) * Size;
  if (T.has_raw_data()) {
    if (T.raw_data().size() != Bytes)
      return makeError(formatv("holds {0} bytes of data, its {1} elements "
                               "need {2}",
                               T.raw_data().size(), N, Bytes));
    Out.Data.assign(T.raw_data().begin(), T.raw_data().end());
    return Out;
  }
  auto Count = [&](int Have) -> Error {
    if (Have != N)
      return makeError(
          formatv("holds {0} values, its dimensions need {1}", Have, N));
    return Error::success();
  };
  Out.Data.resize(Bytes);
  if (Bytes == 0)
    return Out;
  switch (Out.Type) {
  case ir::DType::F32:
    if (Error E = Count(T.float_data_size()))
      return std::move(E);
    std::memcpy(Out.Data.data(), T.float_data().data(), Bytes);
    break;
  case ir::DType::I64:
    if (Error E = Count(T.int64_data_size()))
      return std::move(E);
    std::memcpy(Out.Data.data(), T.int64_data().data(), Bytes);
    break;
  default:
    // int32_data carries every narrower type, one value per element.
    if (Error E = Count(T.int32_data_size()))
      return std::move(E);
    for (int64_t I = 0; I < N; ++I) {
      int32_t V = T.int32_data(static_cast<int>(I));
      std::memcpy(Out.Data.data() + I * Size, &V, Size);
    }
  }
  return Out;
}

namespace {

/// The permutation from NCHW to NHWC: IR dimension I is ONNX dimension
/// ToNhwc[I].
constexpr int32_t ToNhwc[4] = {0, 2, 3, 1};
/// And back: ONNX dimension I is IR dimension ToNchw[I].
constexpr int32_t ToNchw[4] = {0, 3, 1, 2};

std::vector<int32_t> toShape(llvm::ArrayRef<int64_t> Dims) {
  return std::vector<int32_t>(Dims.begin(), Dims.end());
}

/// What an IR tensor holds for one ONNX value.
struct Value {
  int32_t Tensor = -1;
  /// True when the tensor is a rank-4 value held NHWC (its ONNX layout
  /// being NCHW).
  bool Nhwc = false;
};

/// The padding of a 2-D window: TensorFlow Lite's SAME or VALID when one of
/// them pads as the node does, otherwise Explicit (pad first, then a VALID
/// window); Pads are the node's [top, left, bottom, right] in every case.
struct WindowPadding {
  enum KindType { Same, Valid, Explicit } Kind = Valid;
  std::vector<int64_t> Pads = std::vector<int64_t>(4, 0);
};

/// One node's reading: where errors point.
struct NodeRef {
  const pb::NodeProto &N;
  size_t Index;
};

class Importer;

/// How the result's rank of each operator the reader takes follows from
/// its operands' (Same: operand 0's; Two; Max: the largest operand's;
/// Shape: its shape operand's length; Value: its tensor's), for the checks
/// made before ONNX's shape inference runs.
enum class RankRule { Same, Two, Max, Shape, Value };

/// One operator the reader takes: its rank rule, the oldest version of its
/// schema whose semantics the reader implements, and how it is lowered (the
/// Importer's member, and the IR operator it is given; none for the nodes
/// that add no operator).
struct ReadOp {
  llvm::StringLiteral Op;
  RankRule Rank;
  int Oldest;
  Error (Importer::*Lower)(const NodeRef &, StringRef);
  llvm::StringLiteral IrOp;
};

/// The row of ONNX operator \p Op, or null for one the reader does not take.
const ReadOp *readOp(StringRef Op);

/// Checks, before ONNX's shape inference runs, what its shape functions
/// assume of the operators the reader takes (they index dimensions and
/// attribute values they take to be there, and crash otherwise): every
/// node is one the reader takes, and a window's operand, weights and
/// attributes agree in rank. Ranks are followed from the graph inputs.
Error preflight(const pb::GraphProto &G) {
  llvm::StringMap<int64_t> Rank;
  // The lengths of constant vectors, for the shapes of reshapes.
  llvm::StringMap<int64_t> Length;
  for (const pb::TensorProto &T : G.initializer()) {
    Rank[T.name()] = T.dims_size();
    if (T.dims_size() == 1)
      Length[T.name()] = T.dims(0);
  }
  for (const pb::ValueInfoProto &V : G.input())
    if (!Rank.count(V.name()))
      Rank[V.name()] = V.type().tensor_type().shape().dim_size();
  auto RankOf = [&](const std::string &Name) -> int64_t {
    auto It = Rank.find(Name);
    return It == Rank.end() ? -1 : It->second;
  };
  for (int I = 0; I < G.node_size(); ++I) {
    const pb::NodeProto &N = G.node(I);
    auto Fail = [&](const llvm::Twine &Why) {
      return makeError(formatv("node {0} '{1}' ({2}): {3}", I, N.name(),
                               N.op_type(), Why.str()));
    };
    const ReadOp *Row = readOp(N.op_type());
    if (!Row || (!N.domain().empty() && N.domain() != "ai.onnx"))
      return Fail(N.domain().empty() || N.domain() == "ai.onnx"
                      ? "operator not supported by the ONNX reader "
                        "(docs/onnx.md lists those it takes)"
                      : formatv("operators of domain '{0}' are not "
                                "supported",
                                N.domain())
                            .str());
    StringRef Op = N.op_type();
    const bool Conv = Op == "Conv" || Op == "ConvInteger";
    if (Conv || Op == "MaxPool" || Op == "AveragePool" ||
        Op == "GlobalAveragePool") {
      int64_t R = N.input_size() ? RankOf(N.input(0)) : -1;
      if (R < 3)
        return Fail(R < 0 ? "the rank of its operand is not known before "
                            "shape inference"
                          : "its operand must have rank 3 or more");
      if (Conv && (N.input_size() < 2 || RankOf(N.input(1)) != R))
        return Fail("its weights must have its operand's rank");
      for (const pb::AttributeProto &A : N.attribute()) {
        int64_t Want = A.name() == "pads" ? 2 * (R - 2) : R - 2;
        if ((A.name() == "kernel_shape" || A.name() == "strides" ||
             A.name() == "dilations" || A.name() == "pads") &&
            A.ints_size() != Want)
          return Fail(formatv("{0} has {1} values, its operand's rank "
                              "needs {2}",
                              A.name(), A.ints_size(), Want));
        // Window sizes, strides and dilations divide; padding is added.
        bool Window = A.name() == "kernel_shape" || A.name() == "strides" ||
                      A.name() == "dilations";
        for (int64_t V : A.ints())
          if ((Window && (V < 1 || V > (int64_t(1) << 20))) ||
              (A.name() == "pads" && (V < 0 || V > (int64_t(1) << 20))))
            return Fail(formatv("{0} value {1} is outside [{2}, 2^20]",
                                A.name(), V, Window ? 1 : 0));
        if (A.name() == "group" && (A.i() < 1 || A.i() > (int64_t(1) << 20)))
          return Fail(formatv("group {0} is outside [1, 2^20]", A.i()));
      }
      if ((Op == "MaxPool" || Op == "AveragePool") &&
          !llvm::any_of(N.attribute(), [](const pb::AttributeProto &A) {
            return A.name() == "kernel_shape";
          }))
        return Fail("kernel_shape is missing");
    }
    int64_t Result = -1;
    switch (Row->Rank) {
    case RankRule::Same:
      Result = N.input_size() ? RankOf(N.input(0)) : -1;
      break;
    case RankRule::Two:
      Result = 2;
      break;
    case RankRule::Max:
      for (const std::string &In : N.input())
        Result = std::max(Result, RankOf(In));
      break;
    case RankRule::Shape: {
      auto It = N.input_size() > 1 ? Length.find(N.input(1)) : Length.end();
      if (It != Length.end())
        Result = It->second;
      break;
    }
    case RankRule::Value:
      for (const pb::AttributeProto &A : N.attribute())
        if (A.name() == "value" && A.has_t()) {
          Result = A.t().dims_size();
          if (Result == 1)
            Length[N.output(0)] = A.t().dims(0);
        }
      break;
    }
    for (const std::string &Out : N.output())
      Rank[Out] = Result;
  }
  return Error::success();
}

class Importer {
public:
  Importer(ImportResult &Result, ir::Arithmetic Computes)
      : Result(Result), Computes(Computes) {}
  Error run(pb::ModelProto &M);

private:
  ImportResult &Result;
  /// The arithmetic the graphs compute (importModel).
  ir::Arithmetic Computes;
  ir::Graph G;
  int64_t Opset = 0;
  /// Constants by ONNX name, in ONNX layout.
  llvm::StringMap<TensorData> Constants;
  /// The constants above that are the result of a DequantizeLinear of a
  /// quantized constant: their data is the quantized values, and their
  /// parameters are these (the axis in the constant's own layout). Where one
  /// is used, it becomes a quantized constant and a DEQUANTIZE.
  llvm::StringMap<ir::QuantParams> Dequantized;
  /// Values already in the IR, by ONNX name.
  llvm::StringMap<Value> Values;
  /// IR tensors of constants, by ONNX name and layout ("name" or
  /// "name#nhwc").
  llvm::StringMap<int32_t> ConstantTensors;
  /// Every value's ONNX type, from the graph and shape inference.
  llvm::StringMap<const pb::TypeProto *> Types;

  Error node(const NodeRef &R);
  Error lower(const NodeRef &R);
  /// Gives the 8-bit results of operators from \p First on that do not
  /// requantize (quant::keepsParams) their operands' parameters: ONNX
  /// moves such values without DequantizeLinear (MaxPool, Reshape, ...).
  Error carryParams(size_t First);

  // Attributes.
  const pb::AttributeProto *attribute(const pb::NodeProto &N, StringRef Name);
  int64_t intAttr(const pb::NodeProto &N, StringRef Name, int64_t Default);
  float floatAttr(const pb::NodeProto &N, StringRef Name, float Default);
  std::string stringAttr(const pb::NodeProto &N, StringRef Name,
                         StringRef Default);
  std::vector<int64_t> intsAttr(const pb::NodeProto &N, StringRef Name);

  // Values.
  Expected<std::vector<int64_t>> onnxShape(StringRef Name);
  Expected<int32_t> elementType(StringRef Name);
  const TensorData *constant(StringRef Name) const {
    auto It = Constants.find(Name);
    return It == Constants.end() ? nullptr : &It->second;
  }
  Expected<Value> value(StringRef Name);
  int32_t constantTensor(StringRef Name, const TensorData &T, bool Nhwc);
  /// Stores \p T as constant \p To, derived from constant \p From (same
  /// values, moved): dequantized as \p From is, its axis A becoming
  /// \p AxisMap(A).
  void deriveConstant(StringRef From, const std::string &To, TensorData T,
                      const std::function<int32_t(int32_t)> &AxisMap);
  int32_t newConstant(std::string Name, std::vector<int32_t> Shape,
                      ir::DType Type, std::vector<uint8_t> Data);
  int32_t newTensor(std::string Name, std::vector<int32_t> Shape,
                    ir::DType Type);
  Expected<Value> defineOutput(const pb::NodeProto &N, unsigned I = 0);
  Expected<Value> broadcastOperand(StringRef Name, size_t Rank, bool Nhwc);
  Expected<std::vector<int64_t>> constantInts(StringRef Name);
  int32_t int32Constant(std::string Name, std::vector<int32_t> Shape,
                        const std::vector<int32_t> &Values);
  ir::Operator &addOp(StringRef Type, std::vector<int32_t> Inputs,
                      std::vector<int32_t> Outputs);
  int32_t toOnnxLayout(const Value &V, StringRef Name);
  int32_t toIrLayout(int32_t T, StringRef Name, int32_t Out);

  // Nodes, each given the IR operator its row names (ReadOps).
  friend const ReadOp *readOp(StringRef Op);
  Error conv(const NodeRef &R, StringRef IrOp);
  Error pool(const NodeRef &R, StringRef IrOp);
  Error globalAveragePool(const NodeRef &R, StringRef IrOp);
  Error gemm(const NodeRef &R, StringRef IrOp);
  Error matmul(const NodeRef &R, StringRef IrOp);
  Error integerProduct(const NodeRef &R, StringRef IrOp);
  Error binary(const NodeRef &R, StringRef IrOp);
  Error unary(const NodeRef &R, StringRef IrOp);
  Error clip(const NodeRef &R, StringRef IrOp);
  Error flatten(const NodeRef &R, StringRef IrOp);
  Error reshapeNode(const NodeRef &R, StringRef IrOp);
  Error reshape(const NodeRef &R, std::vector<int64_t> Shape);
  Error transpose(const NodeRef &R, StringRef IrOp);
  Error softmax(const NodeRef &R, StringRef IrOp);
  Error concat(const NodeRef &R, StringRef IrOp);
  Error pad(const NodeRef &R, StringRef IrOp);
  Error quantizeLinear(const NodeRef &R, StringRef IrOp);

  /// How a window of kernel \p K, strides \p S, dilations \p D on input
  /// \p In (ONNX order [N, C, H, W]) giving output \p Out is padded, by
  /// node \p N's auto_pad and pads.
  Expected<WindowPadding>
  windowPadding(const pb::NodeProto &N, llvm::ArrayRef<int64_t> In,
                llvm::ArrayRef<int64_t> Out, llvm::ArrayRef<int64_t> K,
                llvm::ArrayRef<int64_t> S, llvm::ArrayRef<int64_t> D);
  /// Pads \p In (an NHWC IR tensor) by \p Pads [top, left, bottom, right]
  /// with \p Fill (as a float; cast to the element type).
  int32_t padInput(int32_t In, llvm::ArrayRef<int64_t> Pads, double Fill,
                   StringRef Name);
};

const pb::AttributeProto *Importer::attribute(const pb::NodeProto &N,
                                              StringRef Name) {
  for (const pb::AttributeProto &A : N.attribute())
    if (A.name() == Name)
      return &A;
  return nullptr;
}

int64_t Importer::intAttr(const pb::NodeProto &N, StringRef Name,
                          int64_t Default) {
  const pb::AttributeProto *A = attribute(N, Name);
  return A && A->has_i() ? A->i() : Default;
}

float Importer::floatAttr(const pb::NodeProto &N, StringRef Name,
                          float Default) {
  const pb::AttributeProto *A = attribute(N, Name);
  return A && A->has_f() ? A->f() : Default;
}

std::string Importer::stringAttr(const pb::NodeProto &N, StringRef Name,
                                 StringRef Default) {
  const pb::AttributeProto *A = attribute(N, Name);
  return A && A->has_s() ? A->s() : Default.str();
}

std::vector<int64_t> Importer::intsAttr(const pb::NodeProto &N,
                                        StringRef Name) {
  const pb::AttributeProto *A = attribute(N, Name);
  if (!A)
    return {};
  return std::vector<int64_t>(A->ints().begin(), A->ints().end());
}

Expected<std::vector<int64_t>> Importer::onnxShape(StringRef Name) {
  if (const TensorData *C = constant(Name))
    return C->Dims;
  auto It = Types.find(Name);
  if (It == Types.end() || !It->second->has_tensor_type() ||
      !It->second->tensor_type().has_shape())
    return makeError(formatv("the shape of '{0}' is unknown after shape "
                             "inference",
                             Name));
  std::vector<int64_t> Dims;
  for (const pb::TensorShapeProto_Dimension &D :
       It->second->tensor_type().shape().dim()) {
    if (!D.has_dim_value())
      return makeError(formatv("'{0}' has a dimension that is not a number "
                               "('{1}'); accelgen compiles static shapes",
                               Name, D.dim_param()));
    if (D.dim_value() < 0 || D.dim_value() > ir::MaxElements)
      return makeError(formatv("'{0}' has dimension {1}", Name, D.dim_value()));
    Dims.push_back(D.dim_value());
  }
  if (elementCount(Dims) < 0)
    return makeError(
        formatv("'{0}' has more than {1} elements", Name, ir::MaxElements));
  return Dims;
}

Expected<int32_t> Importer::elementType(StringRef Name) {
  auto It = Types.find(Name);
  if (It == Types.end() || !It->second->has_tensor_type())
    return makeError(formatv("the type of '{0}' is unknown", Name));
  return It->second->tensor_type().elem_type();
}

int32_t Importer::newTensor(std::string Name, std::vector<int32_t> Shape,
                            ir::DType Type) {
  ir::Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = Type;
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

int32_t Importer::newConstant(std::string Name, std::vector<int32_t> Shape,
                              ir::DType Type, std::vector<uint8_t> Data) {
  int32_t I = newTensor(std::move(Name), std::move(Shape), Type);
  G.Tensors[I].IsConstant = true;
  G.Tensors[I].Data = std::move(Data);
  return I;
}

int32_t Importer::int32Constant(std::string Name, std::vector<int32_t> Shape,
                                const std::vector<int32_t> &V) {
  std::vector<uint8_t> Bytes(V.size() * 4);
  if (!V.empty())
    std::memcpy(Bytes.data(), V.data(), Bytes.size());
  return newConstant(std::move(Name), std::move(Shape), ir::DType::I32,
                     std::move(Bytes));
}

void Importer::deriveConstant(StringRef From, const std::string &To,
                              TensorData T,
                              const std::function<int32_t(int32_t)> &AxisMap) {
  auto Q = Dequantized.find(From);
  if (Q != Dequantized.end()) {
    ir::QuantParams P = Q->second;
    P.Axis = AxisMap(P.Axis);
    Dequantized[To] = std::move(P);
  }
  Constants[To] = std::move(T);
}

int32_t Importer::constantTensor(StringRef Name, const TensorData &T,
                                 bool Nhwc) {
  Nhwc = Nhwc && T.Dims.size() == 4;
  std::string Key = (Name + (Nhwc ? "#nhwc" : "")).str();
  auto It = ConstantTensors.find(Key);
  if (It != ConstantTensors.end())
    return It->second;
  auto Q = Dequantized.find(Name);
  if (Q != Dequantized.end()) {
    // The quantized constant, laid out, then its dequantization.
    ir::QuantParams P = Q->second;
    Dequantized.erase(Q);
    int32_t Quantized = constantTensor(Name, T, Nhwc);
    Dequantized[Name] = P;
    if (Nhwc)
      P.Axis = ToNchw[P.Axis];
    if (!P.isPerChannel())
      P.Axis = 0;
    G.Tensors[Quantized].Quant = P;
    G.Tensors[Quantized].Name += "#quantized";
    int32_t F = newTensor(Key, G.Tensors[Quantized].Shape, ir::DType::F32);
    addOp("DEQUANTIZE", {Quantized}, {F});
    ConstantTensors[Key] = F;
    return F;
  }
  int32_t I;
  if (Nhwc) {
    std::vector<int32_t> Shape;
    for (int32_t D : ToNhwc)
      Shape.push_back(static_cast<int32_t>(T.Dims[D]));
    I = newConstant(
        Name.str(), Shape, T.Type,
        ir::transposeElements(T.Data, T.Dims, ToNhwc, ir::dtypeSize(T.Type)));
  } else {
    I = newConstant(Name.str(), toShape(T.Dims), T.Type, T.Data);
  }
  ConstantTensors[Key] = I;
  return I;
}

Expected<Value> Importer::value(StringRef Name) {
  auto It = Values.find(Name);
  if (It != Values.end())
    return It->second;
  if (const TensorData *C = constant(Name))
    return Value{constantTensor(Name, *C, false), false};
  return makeError(
      formatv("'{0}' is computed by no earlier node and is no constant", Name));
}

Expected<Value> Importer::defineOutput(const pb::NodeProto &N, unsigned I) {
  const std::string &Name = N.output(static_cast<int>(I));
  if (Values.count(Name) || Constants.count(Name))
    return makeError(formatv("'{0}' is written twice", Name));
  Expected<std::vector<int64_t>> Dims = onnxShape(Name);
  if (!Dims)
    return Dims.takeError();
  Expected<int32_t> T = elementType(Name);
  if (!T)
    return T.takeError();
  std::optional<ir::DType> Type = dtypeOf(*T);
  if (!Type)
    return makeError(formatv("'{0}' has element type {1}, which is not "
                             "supported",
                             Name, typeName(*T)));
  Value V;
  V.Nhwc = Dims->size() == 4;
  std::vector<int32_t> Shape;
  if (V.Nhwc)
    for (int32_t D : ToNhwc)
      Shape.push_back(static_cast<int32_t>((*Dims)[D]));
  else
    Shape = toShape(*Dims);
  V.Tensor = newTensor(Name, std::move(Shape), *Type);
  Values[Name] = V;
  return V;
}

Expected<Value> Importer::broadcastOperand(StringRef Name, size_t Rank,
                                           bool Nhwc) {
  if (const TensorData *C = constant(Name)) {
    if (!Nhwc || C->Dims.size() == 4)
      return Value{constantTensor(Name, *C, Nhwc), Nhwc};
    // ONNX broadcasting aligns trailing dimensions: give the constant the
    // rank of the feature map, then its layout.
    TensorData Wide = *C;
    Wide.Dims.insert(Wide.Dims.begin(), Rank - C->Dims.size(), 1);
    std::string Key = (Name + "#" + std::to_string(Rank)).str();
    if (!Constants.count(Key)) {
      int32_t Added = static_cast<int32_t>(Rank - C->Dims.size());
      deriveConstant(Name, Key, std::move(Wide),
                     [Added](int32_t A) { return A + Added; });
    }
    return Value{constantTensor(Key, Constants[Key], true), true};
  }
  Expected<Value> V = value(Name);
  if (!V)
    return V.takeError();
  if (Nhwc && !V->Nhwc)
    return makeError(formatv("'{0}' (rank {1}) is broadcast against an NCHW "
                             "feature map; only constants are",
                             Name, G.Tensors[V->Tensor].rank()));
  return V;
}

Expected<std::vector<int64_t>> Importer::constantInts(StringRef Name) {
  const TensorData *C = constant(Name);
  if (!C)
    return makeError(formatv("'{0}' must be a constant", Name));
  std::vector<int64_t> Out;
  size_t N = C->Data.size() / ir::dtypeSize(C->Type);
  for (size_t I = 0; I < N; ++I) {
    if (C->Type == ir::DType::I64) {
      int64_t V;
      std::memcpy(&V, C->Data.data() + 8 * I, 8);
      Out.push_back(V);
    } else if (C->Type == ir::DType::I32) {
      int32_t V;
      std::memcpy(&V, C->Data.data() + 4 * I, 4);
      Out.push_back(V);
    } else {
      return makeError(formatv("'{0}' must hold int32 or int64 values", Name));
    }
  }
  return Out;
}

ir::Operator &Importer::addOp(StringRef Type, std::vector<int32_t> Inputs,
                              std::vector<int32_t> Outputs) {
  ir::Operator Op;
  Op.Type = Type.str();
  Op.Inputs = std::move(Inputs);
  Op.Outputs = std::move(Outputs);
  G.Operators.push_back(std::move(Op));
  return G.Operators.back();
}

/// True when a rank-4 tensor of ONNX dimensions \p Dims has the same
/// element order NCHW and NHWC: one channel, or one pixel.
bool sameOrderBothLayouts(llvm::ArrayRef<int64_t> Dims) {
  return Dims[1] == 1 || Dims[2] * Dims[3] == 1;
}

int32_t Importer::toOnnxLayout(const Value &V, StringRef Name) {
  const ir::Tensor &In = G.Tensors[V.Tensor];
  std::vector<int32_t> Shape(4);
  for (int I = 0; I < 4; ++I)
    Shape[I] = In.Shape[ToNchw[I]];
  std::vector<int64_t> Dims(Shape.begin(), Shape.end());
  ir::DType Type = In.Type;
  std::optional<ir::QuantParams> Q = In.Quant;
  if (sameOrderBothLayouts(Dims)) {
    int32_t Out = newTensor((Name + "#nchw").str(), Shape, Type);
    G.Tensors[Out].Quant = Q;
    int32_t S = int32Constant((Name + "#nchw_shape").str(), {4},
                              std::vector<int32_t>(Shape.begin(), Shape.end()));
    addOp("RESHAPE", {V.Tensor, S}, {Out});
    return Out;
  }
  int32_t Out = newTensor((Name + "#nchw").str(), Shape, Type);
  G.Tensors[Out].Quant = Q;
  int32_t P = int32Constant((Name + "#to_nchw").str(), {4},
                            {ToNchw[0], ToNchw[1], ToNchw[2], ToNchw[3]});
  addOp("TRANSPOSE", {V.Tensor, P}, {Out});
  return Out;
}

int32_t Importer::toIrLayout(int32_t T, StringRef Name, int32_t Out) {
  const ir::Tensor &In = G.Tensors[T];
  std::vector<int64_t> Dims(In.Shape.begin(), In.Shape.end());
  if (sameOrderBothLayouts(Dims)) {
    int32_t S = int32Constant((Name + "#nhwc_shape").str(), {4},
                              std::vector<int32_t>(G.Tensors[Out].Shape.begin(),
                                                   G.Tensors[Out].Shape.end()));
    addOp("RESHAPE", {T, S}, {Out});
    return Out;
  }
  int32_t P = int32Constant((Name + "#to_nhwc").str(), {4},
                            {ToNhwc[0], ToNhwc[1], ToNhwc[2], ToNhwc[3]});
  addOp("TRANSPOSE", {T, P}, {Out});
  return Out;
}

Error Importer::run(pb::ModelProto &M) {
  for (const pb::OperatorSetIdProto &O : M.opset_import())
    if (O.domain().empty() || O.domain() == "ai.onnx")
      Opset = O.version();
  if (Opset == 0)
    return makeError("the model imports no opset of the default domain");
  // External data is refused before the checker, which would look for the
  // files it names.
  for (const pb::TensorProto &T : M.graph().initializer())
    if (T.data_location() == pb::TensorProto_DataLocation_EXTERNAL)
      return makeError(formatv("initializer '{0}': data stored in an "
                               "external file is not supported (save the "
                               "model with its data inside)",
                               T.name()));
  // Shapes inference takes as given must be sane before it runs (ONNX's
  // own shape functions index dimensions they assume are there): graph
  // inputs static, and no annotation of intermediate values (inference
  // makes them).
  {
    llvm::StringSet<> Initialized;
    for (const pb::TensorProto &T : M.graph().initializer())
      Initialized.insert(T.name());
    for (const pb::ValueInfoProto &V : M.graph().input()) {
      if (Initialized.count(V.name()))
        continue;
      if (!V.type().has_tensor_type() || !V.type().tensor_type().has_shape())
        return makeError(formatv("graph input '{0}' is not a tensor of "
                                 "known rank",
                                 V.name()));
      for (const pb::TensorShapeProto_Dimension &D :
           V.type().tensor_type().shape().dim())
        if (!D.has_dim_value() || D.dim_value() < 0)
          return makeError(formatv("graph input '{0}' has a dimension that "
                                   "is not a number ('{1}'); accelgen "
                                   "compiles static shapes",
                                   V.name(), D.dim_param()));
    }
    M.mutable_graph()->clear_value_info();
  }
  try {
    pb::checker::check_model(M);
  } catch (const std::exception &E) {
    return makeError(formatv("the ONNX checker rejects the model: {0}",
                             StringRef(E.what()).split('\n').first.rtrim()));
  }
  // QOperator nodes become the QDQ form their definitions give, before
  // shape inference (which does not know com.microsoft's operators).
  if (Error E = expandQOperators(*M.mutable_graph(), Opset))
    return E;
  if (Error E = preflight(M.graph()))
    return E;
  try {
    pb::ShapeInferenceOptions O(/*check_type=*/true, /*strict=*/1,
                                /*data_prop=*/true);
    pb::shape_inference::InferShapes(M, pb::OpSchemaRegistry::Instance(), O);
  } catch (const std::exception &E) {
    return makeError(formatv("ONNX shape inference fails: {0}",
                             StringRef(E.what()).split('\n').first.rtrim()));
  }
  const pb::GraphProto &GP = M.graph();
  G.Name = GP.name();
  for (const pb::ValueInfoProto &V : GP.input())
    Types[V.name()] = &V.type();
  for (const pb::ValueInfoProto &V : GP.value_info())
    Types[V.name()] = &V.type();
  for (const pb::ValueInfoProto &V : GP.output())
    Types[V.name()] = &V.type();
  for (const pb::TensorProto &T : GP.initializer()) {
    Expected<TensorData> D = readTensor(T);
    if (!D)
      return makeError(
          formatv("initializer '{0}': {1}", T.name(), toString(D.takeError())));
    Constants[T.name()] = std::move(*D);
  }
  for (const pb::ValueInfoProto &V : GP.input()) {
    if (Constants.count(V.name()))
      continue;
    Expected<std::vector<int64_t>> Dims = onnxShape(V.name());
    if (!Dims)
      return makeError(formatv("graph input: {0}", toString(Dims.takeError())));
    Expected<int32_t> T = elementType(V.name());
    if (!T)
      return T.takeError();
    std::optional<ir::DType> Type = dtypeOf(*T);
    if (!Type)
      return makeError(formatv("graph input '{0}' has element type {1}, "
                               "which is not supported",
                               V.name(), typeName(*T)));
    Value Val;
    Val.Nhwc = Dims->size() == 4;
    std::vector<int32_t> Shape;
    if (Val.Nhwc)
      for (int32_t D : ToNhwc)
        Shape.push_back(static_cast<int32_t>((*Dims)[D]));
    else
      Shape = toShape(*Dims);
    Val.Tensor = newTensor(V.name(), Shape, *Type);
    Values[V.name()] = Val;
    G.Inputs.push_back(Val.Tensor);
  }
  for (int I = 0; I < GP.node_size(); ++I) {
    NodeRef R{GP.node(I), static_cast<size_t>(I)};
    if (Error E = node(R))
      return makeError(formatv("node {0} '{1}' ({2}): {3}", I, R.N.name(),
                               R.N.op_type(), toString(std::move(E))));
  }
  for (const pb::ValueInfoProto &V : GP.output()) {
    Expected<Value> Out = value(V.name());
    if (!Out)
      return makeError(formatv("graph output: {0}", toString(Out.takeError())));
    G.Outputs.push_back(Out->Tensor);
  }
  // Operator-oriented quantization made tensor-oriented, for the
  // arithmetic the graph computes (ONNX specifies its quantized
  // operators', QUANTIZE's too).
  G.Computes = Computes;
  llvm::Expected<quant::QuantReport> Quant = quant::makeQuantParams(G);
  if (!Quant)
    return Quant.takeError();
  for (const std::string &Why : Quant->LeftInFloat)
    Result.Warnings.push_back("left in float by the quantization pass: " + Why);
  auto Model = std::make_unique<ir::Model>();
  std::string Producer =
      StringRef(M.producer_name() + " " + M.producer_version()).trim().str();
  Model->Description = formatv("ONNX model, opset {0}{1}{2}", Opset,
                               Producer.empty() ? "" : ", from ", Producer)
                           .str();
  Model->SchemaVersion = 3;
  Model->Graphs.push_back(std::move(G));
  if (Error E = ir::verifyModel(*Model))
    return E;
  if (Error E = tflite::checkOperators(Model->main()))
    return makeError(formatv("after reading: {0}", toString(std::move(E))));
  Result.Model = std::move(Model);
  return Error::success();
}

Error Importer::node(const NodeRef &R) {
  const pb::NodeProto &N = R.N;
  if (!N.domain().empty() && N.domain() != "ai.onnx")
    return makeError(
        formatv("operators of domain '{0}' are not supported", N.domain()));
  StringRef Op = N.op_type();
  // Which version of the operator's schema the model's opset means: the
  // reader knows each operator's semantics from some version on.
  const pb::OpSchema *Schema =
      pb::OpSchemaRegistry::Schema(N.op_type(), static_cast<int>(Opset), "");
  if (!Schema)
    return makeError(formatv("not an operator of opset {0}", Opset));
  int Since = Schema->since_version();
  // Every node is one the reader takes (preflight checked).
  int Oldest = readOp(Op)->Oldest;
  if (Since < Oldest)
    return makeError(formatv("version {0} of the operator (opset {1}) is "
                             "older than the oldest read, {2}; convert the "
                             "model to a newer opset",
                             Since, Opset, Oldest));
  // Constants and aliases add no operator.
  if (Op == "Constant") {
    const pb::AttributeProto *A = attribute(N, "value");
    if (!A || !A->has_t())
      return makeError("only a Constant holding a tensor ('value') is "
                       "supported");
    Expected<TensorData> D = readTensor(A->t());
    if (!D)
      return D.takeError();
    Constants[N.output(0)] = std::move(*D);
    return Error::success();
  }
  if (Op == "Identity" || Op == "Dropout") {
    if (const TensorData *C = constant(N.input(0))) {
      deriveConstant(N.input(0), N.output(0), *C, [](int32_t A) { return A; });
      return Error::success();
    }
    Expected<Value> V = value(N.input(0));
    if (!V)
      return V.takeError();
    Values[N.output(0)] = *V;
    return Error::success();
  }
  // A node of constants only is folded when it is a layout change.
  if (Op == "Transpose" && constant(N.input(0)))
    return transpose(R, "TRANSPOSE");
  size_t First = G.Operators.size();
  if (Error E = lower(R))
    return E;
  return carryParams(First);
}

Error Importer::carryParams(size_t First) {
  for (size_t I = First; I < G.Operators.size(); ++I) {
    ir::Operator &Op = G.Operators[I];
    if (!quant::keepsParams(Op.Type) || Op.Inputs.empty() || Op.Inputs[0] < 0 ||
        Op.Outputs.size() != 1)
      continue;
    const ir::Tensor &X = G.Tensors[Op.Inputs[0]];
    ir::Tensor &Y = G.Tensors[Op.Outputs[0]];
    if (!X.Quant || X.Type == ir::DType::F32 || Y.Type != X.Type || Y.Quant)
      continue;
    // Every value joined must be quantized alike (the others of a
    // CONCATENATION; the other operators' further operands are shapes).
    if (Op.Type == "CONCATENATION")
      for (int32_t T : Op.Inputs) {
        const std::optional<ir::QuantParams> &Q = G.Tensors[T].Quant;
        if (!Q || Q->Scales != X.Quant->Scales ||
            Q->ZeroPoints != X.Quant->ZeroPoints)
          return makeError(formatv("'{0}' and '{1}' are quantized otherwise "
                                   "and are joined as integers",
                                   X.Name, G.Tensors[T].Name));
      }
    Y.Quant = X.Quant;
  }
  return Error::success();
}

const ReadOp *readOp(StringRef Op) {
  using I = Importer;
  using R = RankRule;
  static const ReadOp Rows[] = {
      {"Conv", R::Same, 1, &I::conv, "CONV_2D"},
      {"MaxPool", R::Same, 1, &I::pool, "MAX_POOL_2D"},
      {"AveragePool", R::Same, 1, &I::pool, "AVERAGE_POOL_2D"},
      {"GlobalAveragePool", R::Same, 1, &I::globalAveragePool,
       "AVERAGE_POOL_2D"},
      {"Gemm", R::Two, 7, &I::gemm, "FULLY_CONNECTED"},
      {"MatMul", R::Max, 1, &I::matmul, "FULLY_CONNECTED"},
      {"ConvInteger", R::Same, 10, &I::integerProduct, "CONV_2D"},
      {"MatMulInteger", R::Max, 10, &I::integerProduct, "FULLY_CONNECTED"},
      {"Add", R::Max, 7, &I::binary, "ADD"},
      {"Sub", R::Max, 7, &I::binary, "SUB"},
      {"Mul", R::Max, 7, &I::binary, "MUL"},
      {"Div", R::Max, 7, &I::binary, "DIV"},
      {"Relu", R::Same, 1, &I::unary, "RELU"},
      {"Sigmoid", R::Same, 1, &I::unary, "LOGISTIC"},
      {"Tanh", R::Same, 1, &I::unary, "TANH"},
      {"LeakyRelu", R::Same, 1, &I::unary, "LEAKY_RELU"},
      {"Clip", R::Same, 6, &I::clip, ""},
      {"Flatten", R::Two, 1, &I::flatten, "RESHAPE"},
      {"Reshape", R::Shape, 5, &I::reshapeNode, "RESHAPE"},
      {"Transpose", R::Same, 1, &I::transpose, "TRANSPOSE"},
      {"Softmax", R::Same, 1, &I::softmax, "SOFTMAX"},
      {"Concat", R::Same, 4, &I::concat, "CONCATENATION"},
      {"Pad", R::Same, 2, &I::pad, "PAD"},
      {"QuantizeLinear", R::Same, 1, &I::quantizeLinear, "QUANTIZE"},
      {"DequantizeLinear", R::Same, 1, &I::quantizeLinear, "DEQUANTIZE"},
      {"Identity", R::Same, 1, nullptr, ""},
      {"Dropout", R::Same, 1, nullptr, ""},
      {"Constant", R::Value, 1, nullptr, ""},
  };
  const ReadOp *It =
      llvm::find_if(Rows, [&](const ReadOp &Row) { return Row.Op == Op; });
  return It == std::end(Rows) ? nullptr : It;
}

Error Importer::lower(const NodeRef &R) {
  const ReadOp *Row = readOp(R.N.op_type());
  if (!Row || !Row->Lower)
    return makeError("operator not supported by the ONNX reader (docs/onnx.md "
                     "lists those it takes)");
  return (this->*Row->Lower)(R, Row->IrOp);
}

Error Importer::flatten(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> In = onnxShape(N.input(0));
  if (!In)
    return In.takeError();
  int64_t Rank = static_cast<int64_t>(In->size());
  int64_t Axis = intAttr(N, "axis", 1);
  if (Axis < -Rank || Axis > Rank)
    return makeError(formatv("axis {0} is outside rank {1}", Axis, Rank));
  if (Axis < 0)
    Axis += Rank;
  int64_t Outer = 1, Inner = 1;
  for (int64_t I = 0; I < Rank; ++I)
    (I < Axis ? Outer : Inner) *= (*In)[I];
  return reshape(R, {Outer, Inner});
}

Error Importer::reshapeNode(const NodeRef &R, StringRef) {
  Expected<std::vector<int64_t>> Out = onnxShape(R.N.output(0));
  if (!Out)
    return Out.takeError();
  return reshape(R, *Out);
}

Expected<WindowPadding>
Importer::windowPadding(const pb::NodeProto &N, llvm::ArrayRef<int64_t> In,
                        llvm::ArrayRef<int64_t> Out, llvm::ArrayRef<int64_t> K,
                        llvm::ArrayRef<int64_t> S, llvm::ArrayRef<int64_t> D) {
  std::string AutoPad = stringAttr(N, "auto_pad", "NOTSET");
  WindowPadding W;
  std::vector<int64_t> Pads = intsAttr(N, "pads");
  if (!Pads.empty())
    W.Pads = Pads;
  if (W.Pads.size() != 4)
    return makeError(
        formatv("pads has {0} values, a 2-D window needs 4", W.Pads.size()));
  // TensorFlow Lite's SAME: the output is ceil(in / stride), the padding
  // total split with the odd one at the end.
  std::vector<int64_t> Same(4);
  bool SameShape = true;
  for (int A = 0; A < 2; ++A) {
    int64_t I = In[2 + A], O = Out[2 + A];
    if (S[A] < 1 || D[A] < 1 || K[A] < 1)
      return makeError("kernel, strides and dilations must be positive");
    if (O != (I + S[A] - 1) / S[A])
      SameShape = false;
    int64_t Total =
        std::max<int64_t>((O - 1) * S[A] + (K[A] - 1) * D[A] + 1 - I, 0);
    Same[A] = Total / 2;
    Same[A + 2] = Total - Total / 2;
  }
  if (AutoPad == "VALID") {
    W.Pads.assign(4, 0);
  } else if (AutoPad == "SAME_UPPER" || AutoPad == "SAME_LOWER") {
    W.Pads = Same;
    if (AutoPad == "SAME_LOWER")
      for (int A = 0; A < 2; ++A)
        std::swap(W.Pads[A], W.Pads[A + 2]);
  } else if (AutoPad != "NOTSET") {
    return makeError(
        formatv("auto_pad '{0}' is not one ONNX defines", AutoPad));
  }
  for (int64_t P : W.Pads)
    if (P < 0 || P > (int64_t(1) << 20))
      return makeError(formatv("pad {0} is outside [0, 2^20]", P));
  if (llvm::all_of(W.Pads, [](int64_t P) { return P == 0; }))
    W.Kind = WindowPadding::Valid;
  else if (SameShape && W.Pads == Same)
    W.Kind = WindowPadding::Same;
  else
    W.Kind = WindowPadding::Explicit;
  return W;
}

int32_t Importer::padInput(int32_t In, llvm::ArrayRef<int64_t> Pads,
                           double Fill, StringRef Name) {
  ir::Tensor T = G.Tensors[In];
  std::vector<int32_t> Shape = T.Shape;
  Shape[1] += static_cast<int32_t>(Pads[0] + Pads[2]);
  Shape[2] += static_cast<int32_t>(Pads[1] + Pads[3]);
  int32_t Out = newTensor((Name + "#padded").str(), Shape, T.Type);
  G.Tensors[Out].Quant = T.Quant;
  int32_t P = int32Constant((Name + "#pads").str(), {4, 2},
                            {0, 0, int32_t(Pads[0]), int32_t(Pads[2]),
                             int32_t(Pads[1]), int32_t(Pads[3]), 0, 0});
  if (Fill == 0.0) {
    addOp("PAD", {In, P}, {Out});
    return Out;
  }
  std::vector<uint8_t> Bytes(ir::dtypeSize(T.Type));
  if (T.Type == ir::DType::F32) {
    float F = static_cast<float>(Fill);
    std::memcpy(Bytes.data(), &F, 4);
  } else {
    int64_t V = static_cast<int64_t>(Fill);
    std::memcpy(Bytes.data(), &V, Bytes.size());
  }
  int32_t C = newConstant((Name + "#pad_value").str(), {}, T.Type, Bytes);
  G.Tensors[C].Quant = T.Quant;
  addOp("PADV2", {In, P, C}, {Out});
  return Out;
}

/// Dimensions of a 2-D window: ONNX's attribute, or \p Default per axis.
std::vector<int64_t> windowInts(std::vector<int64_t> V, int64_t Default) {
  if (V.empty())
    V.assign(2, Default);
  return V;
}

Error Importer::conv(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> In = onnxShape(N.input(0));
  if (!In)
    return In.takeError();
  if (In->size() != 4)
    return makeError(formatv("a {0}-D convolution; only 2-D ones (rank-4 "
                             "input) are supported",
                             int64_t(In->size()) - 2));
  const TensorData *W = constant(N.input(1));
  if (!W)
    return makeError(
        formatv("the weights '{0}' must be a constant", N.input(1)));
  if (W->Dims.size() != 4)
    return makeError("the weights must be rank 4");
  Expected<std::vector<int64_t>> Out = onnxShape(N.output(0));
  if (!Out)
    return Out.takeError();
  int64_t C = (*In)[1], M = W->Dims[0];
  int64_t Group = intAttr(N, "group", 1);
  if (Group < 1 || C % Group != 0 || M % Group != 0 || W->Dims[1] != C / Group)
    return makeError(formatv("group {0} does not divide {1} input channels "
                             "and {2} output channels with weights of {3} "
                             "input channels",
                             Group, C, M, W->Dims[1]));
  std::vector<int64_t> K = {W->Dims[2], W->Dims[3]};
  std::vector<int64_t> S = windowInts(intsAttr(N, "strides"), 1);
  std::vector<int64_t> D = windowInts(intsAttr(N, "dilations"), 1);
  if (S.size() != 2 || D.size() != 2)
    return makeError("strides and dilations must have 2 values");
  auto Padding = windowPadding(N, *In, *Out, K, S, D);
  if (!Padding)
    return Padding.takeError();
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  int32_t Input = X->Tensor;
  if (Padding->Kind == WindowPadding::Explicit)
    Input = padInput(Input, Padding->Pads, 0.0, N.output(0));
  // One group per input channel is a depthwise convolution (with a single
  // channel, group 1, a convolution: ONNX does not tell them apart).
  bool Depthwise = Group == C && Group > 1;
  std::string Name = N.input(1);
  int32_t Filter;
  if (Depthwise) {
    // [M, 1, kH, kW] to [1, kH, kW, M]: output channel c * (M / C) + j
    // reads input channel c in both formats.
    TensorData F = *W;
    F.Dims = {1, W->Dims[0], W->Dims[2], W->Dims[3]};
    std::string Key = Name + "#depthwise";
    // Per-channel parameters along M move from axis 0 to axis 1.
    deriveConstant(Name, Key, std::move(F),
                   [](int32_t A) { return A == 0 ? 1 : A; });
    Filter = constantTensor(Key, Constants[Key], true);
  } else {
    // [M, C / group, kH, kW] to OHWI.
    Filter = constantTensor(Name, *W, true);
  }
  int32_t Bias = -1;
  if (N.input_size() > 2 && !N.input(2).empty()) {
    const TensorData *B = constant(N.input(2));
    if (!B)
      return makeError(
          formatv("the bias '{0}' must be a constant", N.input(2)));
    Bias = constantTensor(N.input(2), *B, false);
  }
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp(Depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D",
                           {Input, Filter, Bias}, {Y->Tensor});
  Op.setAttr(
      attr::Padding,
      std::string(Padding->Kind == WindowPadding::Same ? "SAME" : "VALID"));
  Op.setAttr(attr::StrideH, S[0]);
  Op.setAttr(attr::StrideW, S[1]);
  Op.setAttr(attr::DilationH, D[0]);
  Op.setAttr(attr::DilationW, D[1]);
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  if (Depthwise)
    Op.setAttr(attr::DepthMultiplier, M / C);
  return Error::success();
}

Error Importer::pool(const NodeRef &R, StringRef IrOp) {
  bool Max = IrOp == "MAX_POOL_2D";
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> In = onnxShape(N.input(0));
  if (!In)
    return In.takeError();
  if (In->size() != 4)
    return makeError(formatv("a {0}-D pool; only 2-D ones (rank-4 input) "
                             "are supported",
                             int64_t(In->size()) - 2));
  if (N.output_size() > 1)
    return makeError("the indices output is not supported");
  Expected<std::vector<int64_t>> Out = onnxShape(N.output(0));
  if (!Out)
    return Out.takeError();
  std::vector<int64_t> K = intsAttr(N, "kernel_shape");
  std::vector<int64_t> S = windowInts(intsAttr(N, "strides"), 1);
  std::vector<int64_t> D = windowInts(intsAttr(N, "dilations"), 1);
  if (K.size() != 2 || S.size() != 2 || D.size() != 2)
    return makeError("kernel_shape, strides and dilations must have 2 values");
  if (D[0] != 1 || D[1] != 1)
    return makeError("dilated pooling is not supported");
  auto Padding = windowPadding(N, *In, *Out, K, S, D);
  if (!Padding)
    return Padding.takeError();
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  int32_t Input = X->Tensor;
  bool CountPads = !Max && intAttr(N, "count_include_pad", 0);
  // TensorFlow Lite's SAME average leaves the padding out of the count, so
  // counting it is padding with zeros first; max pooling pads explicitly
  // with the type's lowest value.
  bool PadFirst = Padding->Kind == WindowPadding::Explicit ||
                  (Padding->Kind == WindowPadding::Same && CountPads);
  if (PadFirst && !Max && !CountPads)
    return makeError("padding other than SAME's, left out of the count, is "
                     "not supported");
  // A VALID window with floor division must give ONNX's output size (a
  // ceil_mode that rounds up is not taken).
  if (Padding->Kind != WindowPadding::Same || PadFirst)
    for (int A = 0; A < 2; ++A) {
      int64_t Padded = (*In)[2 + A] + Padding->Pads[A] + Padding->Pads[A + 2];
      if (Padded < K[A] || (Padded - K[A]) / S[A] + 1 != (*Out)[2 + A])
        return makeError("ceil_mode rounding the output up is not supported");
    }
  if (PadFirst) {
    double Fill = 0.0;
    ir::DType T = G.Tensors[Input].Type;
    if (Max)
      Fill = T == ir::DType::F32  ? double(std::numeric_limits<float>::lowest())
             : T == ir::DType::U8 ? 0.0
             : T == ir::DType::I8 ? -128.0
                                  : -32768.0;
    Input = padInput(Input, Padding->Pads, Fill, N.output(0));
  }
  std::string Kind =
      Padding->Kind == WindowPadding::Same && !PadFirst ? "SAME" : "VALID";
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op =
      addOp(Max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", {Input}, {Y->Tensor});
  Op.setAttr(attr::Padding, Kind);
  Op.setAttr(attr::StrideH, S[0]);
  Op.setAttr(attr::StrideW, S[1]);
  Op.setAttr(attr::FilterH, K[0]);
  Op.setAttr(attr::FilterW, K[1]);
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  return Error::success();
}

Error Importer::globalAveragePool(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> In = onnxShape(N.input(0));
  if (!In)
    return In.takeError();
  if (In->size() != 4)
    return makeError("only rank-4 (2-D) inputs are supported");
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp("AVERAGE_POOL_2D", {X->Tensor}, {Y->Tensor});
  Op.setAttr(attr::Padding, std::string("VALID"));
  Op.setAttr(attr::StrideH, int64_t(1));
  Op.setAttr(attr::StrideW, int64_t(1));
  Op.setAttr(attr::FilterH, (*In)[2]);
  Op.setAttr(attr::FilterW, (*In)[3]);
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  return Error::success();
}

/// A fully connected layer of \p In (rank 2 or more) by constant weights
/// \p Weights ([units, depth] after \p Transpose of the stored [depth,
/// units]) with optional bias.
Error fullyConnectedOperands(const TensorData &B, bool Transpose,
                             TensorData &Weights) {
  if (B.Dims.size() != 2)
    return makeError("the weights must be rank 2");
  Weights = B;
  if (Transpose) {
    Weights.Dims = {B.Dims[1], B.Dims[0]};
    Weights.Data =
        ir::transposeElements(B.Data, B.Dims, {1, 0}, ir::dtypeSize(B.Type));
  }
  return Error::success();
}

Error Importer::gemm(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  if (intAttr(N, "transA", 0))
    return makeError("transA = 1 is not supported");
  if (floatAttr(N, "alpha", 1.0f) != 1.0f)
    return makeError("alpha other than 1 is not supported");
  bool HasC = N.input_size() > 2 && !N.input(2).empty();
  if (HasC && floatAttr(N, "beta", 1.0f) != 1.0f)
    return makeError("beta other than 1 is not supported");
  const TensorData *B = constant(N.input(1));
  if (!B)
    return makeError(
        formatv("the weights '{0}' must be a constant", N.input(1)));
  TensorData Weights;
  bool TransB = intAttr(N, "transB", 0);
  if (Error E = fullyConnectedOperands(*B, !TransB, Weights))
    return E;
  std::string Key = N.input(1) + "#fc";
  deriveConstant(N.input(1), Key, std::move(Weights),
                 [TransB](int32_t A) { return TransB ? A : 1 - A; });
  Expected<Value> A = value(N.input(0));
  if (!A)
    return A.takeError();
  int64_t Units = Constants[Key].Dims[0];
  int32_t Bias = -1;
  bool AddAfter = false;
  if (HasC) {
    const TensorData *C = constant(N.input(2));
    if (!C)
      return makeError(
          formatv("the bias '{0}' must be a constant", N.input(2)));
    int64_t Count = elementCount(C->Dims);
    if (Count == Units && C->Dims.size() <= 2 &&
        (C->Dims.size() < 2 || C->Dims[0] == 1)) {
      TensorData V = *C;
      V.Dims = {Units};
      deriveConstant(N.input(2), N.input(2) + "#bias", std::move(V),
                     [](int32_t) { return 0; });
      Bias = constantTensor(N.input(2) + "#bias",
                            Constants[N.input(2) + "#bias"], false);
    } else {
      AddAfter = true;
    }
  }
  int32_t W = constantTensor(Key, Constants[Key], false);
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  int32_t FcOut = Y->Tensor;
  if (AddAfter)
    FcOut = newTensor(N.output(0) + "#fc", G.Tensors[Y->Tensor].Shape,
                      G.Tensors[Y->Tensor].Type);
  ir::Operator &Op = addOp("FULLY_CONNECTED", {A->Tensor, W, Bias}, {FcOut});
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  Op.setAttr(attr::KeepNumDims, false);
  Op.setAttr(attr::WeightsFormat, int64_t(0));
  Op.setAttr(attr::AsymmetricQuantizeInputs, false);
  if (AddAfter) {
    Expected<Value> C = broadcastOperand(N.input(2), 2, false);
    if (!C)
      return C.takeError();
    ir::Operator &Add = addOp("ADD", {FcOut, C->Tensor}, {Y->Tensor});
    Add.setAttr(attr::FusedActivation, std::string("NONE"));
    Add.setAttr(attr::PotScaleInt16, true);
  }
  return Error::success();
}

Error Importer::matmul(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  const TensorData *B = constant(N.input(1));
  if (!B)
    return makeError("a product of two computed values is not supported "
                     "(the second operand must be a constant)");
  Expected<Value> A = value(N.input(0));
  if (!A)
    return A.takeError();
  if (A->Nhwc)
    return makeError("a product over the last dimension of an NCHW feature "
                     "map is not supported");
  if (G.Tensors[A->Tensor].rank() < 2)
    return makeError("the first operand must have rank 2 or more");
  if (B->Dims.size() > 2) {
    // A matrix per batch: BATCH_MATMUL with its constant right operand.
    int32_t Rhs = constantTensor(N.input(1), *B, false);
    Expected<Value> Y = defineOutput(N);
    if (!Y)
      return Y.takeError();
    ir::Operator &Op = addOp("BATCH_MATMUL", {A->Tensor, Rhs}, {Y->Tensor});
    Op.setAttr(attr::AdjX, false);
    Op.setAttr(attr::AdjY, false);
    Op.setAttr(attr::AsymmetricQuantizeInputs, false);
    return Error::success();
  }
  TensorData Weights;
  if (Error E = fullyConnectedOperands(*B, true, Weights))
    return E;
  std::string Key = N.input(1) + "#fc";
  deriveConstant(N.input(1), Key, std::move(Weights),
                 [](int32_t A) { return 1 - A; });
  int32_t W = constantTensor(Key, Constants[Key], false);
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp("FULLY_CONNECTED", {A->Tensor, W, -1}, {Y->Tensor});
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  Op.setAttr(attr::KeepNumDims, G.Tensors[A->Tensor].rank() > 2);
  Op.setAttr(attr::WeightsFormat, int64_t(0));
  Op.setAttr(attr::AsymmetricQuantizeInputs, false);
  return Error::success();
}

/// ConvInteger and MatMulInteger: Conv and MatMul of uint8 operands with
/// their zero points, whose int32 sums are the result. The operator reads
/// its operands quantized with scale 1 (or the scale a computed operand
/// already has) and the node's zero points, and its int32 result has the
/// product of the scales and zero point 0: the kernels' "integer" functions
/// write the sums so (docs/onnx.md).
Error Importer::integerProduct(const NodeRef &R, StringRef IrOp) {
  const pb::NodeProto &N = R.N;
  const TensorData *W = constant(N.input(1));
  if (W && W->Type != ir::DType::U8)
    return makeError(formatv("the weights '{0}' are {1}; u8 only", N.input(1),
                             ir::dtypeName(W->Type)));
  int64_t ZeroPoint[2] = {0, 0};
  for (int I = 0; I < 2; ++I) {
    if (N.input_size() <= 2 + I || N.input(2 + I).empty())
      continue;
    const TensorData *Z = constant(N.input(2 + I));
    if (!Z)
      return makeError(
          formatv("the zero point '{0}' must be a constant", N.input(2 + I)));
    if (Z->Type != ir::DType::U8 || Z->Data.size() != 1)
      return makeError(formatv("the zero point '{0}' must be one uint8 value "
                               "(zero points per row or column are not "
                               "supported)",
                               N.input(2 + I)));
    ZeroPoint[I] = Z->Data[0];
  }
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  const int32_t XT = X->Tensor;
  if (G.Tensors[XT].Type != ir::DType::U8)
    return makeError(formatv("'{0}' is {1}; u8 only", N.input(0),
                             ir::dtypeName(G.Tensors[XT].Type)));
  std::optional<ir::QuantParams> &XQ = G.Tensors[XT].Quant;
  if (XQ && (XQ->Scales.size() != 1 || XQ->zeroPoint() != ZeroPoint[0]))
    return makeError(formatv("'{0}' is quantized otherwise than with the one "
                             "zero point {1} the node reads it with",
                             N.input(0), ZeroPoint[0]));
  if (!XQ)
    XQ = ir::QuantParams{{1.0f}, {ZeroPoint[0]}};
  const float Scale = XQ->Scales[0];
  // The float operator's reading, without the zero points (Conv's third
  // operand is a bias).
  pb::NodeProto Operands = N;
  while (Operands.input_size() > 2)
    Operands.mutable_input()->RemoveLast();
  if (Error E = IrOp == "CONV_2D" ? conv({Operands, R.Index}, IrOp)
                                  : matmul({Operands, R.Index}, IrOp))
    return E;
  const ir::Operator &Op = G.Operators.back();
  if (Op.Type != IrOp)
    return makeError("a depthwise or batched product of integers is not "
                     "supported");
  ir::Tensor &Filter = G.Tensors[Op.Inputs[1]];
  if (Filter.Quant)
    return makeError(formatv("the weights '{0}' are read with other zero "
                             "points elsewhere",
                             N.input(1)));
  Filter.Quant = ir::QuantParams{{1.0f}, {ZeroPoint[1]}};
  G.Tensors[Op.Outputs[0]].Quant = ir::QuantParams{{Scale}, {0}};
  return Error::success();
}

Error Importer::binary(const NodeRef &R, StringRef IrOp) {
  StringRef Type = IrOp;
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> Out = onnxShape(N.output(0));
  if (!Out)
    return Out.takeError();
  bool Nhwc = Out->size() == 4;
  Expected<Value> A = broadcastOperand(N.input(0), Out->size(), Nhwc);
  if (!A)
    return A.takeError();
  Expected<Value> B = broadcastOperand(N.input(1), Out->size(), Nhwc);
  if (!B)
    return B.takeError();
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp(Type, {A->Tensor, B->Tensor}, {Y->Tensor});
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  if (Type == "ADD" || Type == "SUB")
    Op.setAttr(attr::PotScaleInt16, true);
  return Error::success();
}

Error Importer::unary(const NodeRef &R, StringRef IrOp) {
  StringRef Type = IrOp;
  const pb::NodeProto &N = R.N;
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp(Type, {X->Tensor}, {Y->Tensor});
  if (Type == "LEAKY_RELU")
    Op.setAttr(attr::Alpha, double(floatAttr(N, "alpha", 0.01f)));
  return Error::success();
}

Error Importer::clip(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  ir::DType Type = G.Tensors[X->Tensor].Type;
  // The bounds: attributes before opset 11, optional constant operands of
  // the operand's type from then on.
  std::string Bound[2];
  for (int I = 0; I < 2; ++I) {
    if (Opset < 11) {
      const pb::AttributeProto *A = attribute(N, I ? "max" : "min");
      if (!A)
        continue;
      if (Type != ir::DType::F32)
        return makeError("bounds as attributes apply to float operands");
      TensorData T;
      T.Type = ir::DType::F32;
      T.Data.resize(4);
      float F = A->f();
      std::memcpy(T.Data.data(), &F, 4);
      Bound[I] = N.output(0) + (I ? "#max" : "#min");
      Constants[Bound[I]] = std::move(T);
    } else if (N.input_size() > I + 1 && !N.input(I + 1).empty()) {
      const TensorData *T = constant(N.input(I + 1));
      if (!T || T->Type != Type || !T->Dims.empty())
        return makeError(formatv("bound '{0}' must be a constant scalar of "
                                 "the operand's type",
                                 N.input(I + 1)));
      Bound[I] = N.input(I + 1);
    }
  }
  // Float bounds TensorFlow Lite has an activation for.
  if (Type == ir::DType::F32) {
    auto F = [&](int I, float Default) {
      if (Bound[I].empty())
        return Default;
      float V;
      std::memcpy(&V, Constants[Bound[I]].Data.data(), 4);
      return V;
    };
    float Lo = F(0, -std::numeric_limits<float>::infinity());
    float Hi = F(1, std::numeric_limits<float>::infinity());
    StringRef Activation = Lo == 0.0f && Hi == 6.0f                 ? "RELU6"
                           : Lo == 0.0f && std::isinf(Hi) && Hi > 0 ? "RELU"
                                                                    : "";
    if (!Activation.empty())
      return unary(R, Activation);
  }
  // Otherwise the larger of the operand and the lower bound, then the
  // smaller of that and the upper.
  size_t Rank = G.Tensors[X->Tensor].rank();
  int32_t Current = X->Tensor;
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  if (Bound[0].empty() && Bound[1].empty()) {
    std::vector<int32_t> Shape = G.Tensors[Y->Tensor].Shape;
    int32_t S = int32Constant(N.output(0) + "#shape",
                              {static_cast<int32_t>(Shape.size())}, Shape);
    addOp("RESHAPE", {Current, S}, {Y->Tensor});
    return Error::success();
  }
  for (int I = 0; I < 2; ++I) {
    if (Bound[I].empty())
      continue;
    Expected<Value> B = broadcastOperand(Bound[I], Rank, X->Nhwc);
    if (!B)
      return B.takeError();
    bool Last = I == 1 || Bound[1].empty();
    int32_t Out = Last ? Y->Tensor
                       : newTensor(N.output(0) + "#lower",
                                   G.Tensors[Y->Tensor].Shape, Type);
    addOp(I ? "MINIMUM" : "MAXIMUM", {Current, B->Tensor}, {Out});
    Current = Out;
  }
  return Error::success();
}

Error Importer::reshape(const NodeRef &R, std::vector<int64_t> Shape) {
  const pb::NodeProto &N = R.N;
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  Expected<std::vector<int64_t>> InDims = onnxShape(N.input(0));
  if (!InDims)
    return InDims.takeError();
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  int32_t Out = Y->Tensor;
  // Where neither side's element order depends on the layout, one RESHAPE
  // to the IR's shape.
  if ((!X->Nhwc || sameOrderBothLayouts(*InDims)) &&
      (!Y->Nhwc || sameOrderBothLayouts(Shape))) {
    const std::vector<int32_t> &IrShape = G.Tensors[Out].Shape;
    std::vector<int64_t> NewShape(IrShape.begin(), IrShape.end());
    int32_t S = int32Constant(N.output(0) + "#shape",
                              {static_cast<int32_t>(IrShape.size())}, IrShape);
    ir::Operator &Op = addOp("RESHAPE", {X->Tensor, S}, {Out});
    Op.setAttr(attr::NewShape, NewShape);
    return Error::success();
  }
  int32_t In = X->Tensor;
  if (X->Nhwc)
    In = toOnnxLayout(*X, N.input(0));
  int32_t Mid = Out;
  if (Y->Nhwc) {
    Mid = newTensor(N.output(0) + "#nchw", toShape(Shape), G.Tensors[Out].Type);
    G.Tensors[Mid].Quant = G.Tensors[In].Quant;
  }
  int32_t S = int32Constant(N.output(0) + "#shape",
                            {static_cast<int32_t>(Shape.size())},
                            std::vector<int32_t>(Shape.begin(), Shape.end()));
  ir::Operator &Op = addOp("RESHAPE", {In, S}, {Mid});
  Op.setAttr(attr::NewShape, Shape);
  if (Y->Nhwc)
    toIrLayout(Mid, N.output(0), Out);
  return Error::success();
}

Error Importer::transpose(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  std::vector<int64_t> Perm = intsAttr(N, "perm");
  if (const TensorData *C = constant(N.input(0))) {
    size_t Rank = C->Dims.size();
    if (Perm.empty())
      for (size_t I = Rank; I-- > 0;)
        Perm.push_back(static_cast<int64_t>(I));
    if (Perm.size() != Rank)
      return makeError("perm does not match the rank");
    std::vector<int32_t> P(Perm.begin(), Perm.end());
    TensorData T = *C;
    for (size_t I = 0; I < Rank; ++I)
      T.Dims[I] = C->Dims[P[I]];
    T.Data = ir::transposeElements(C->Data, C->Dims, P, ir::dtypeSize(C->Type));
    deriveConstant(N.input(0), N.output(0), std::move(T), [&P](int32_t A) {
      return static_cast<int32_t>(llvm::find(P, A) - P.begin());
    });
    return Error::success();
  }
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  size_t Rank = G.Tensors[X->Tensor].rank();
  if (Perm.empty())
    for (size_t I = Rank; I-- > 0;)
      Perm.push_back(static_cast<int64_t>(I));
  if (Perm.size() != Rank)
    return makeError("perm does not match the rank");
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  // IR dimension I of the result is ONNX result dimension Pout[I], which is
  // ONNX operand dimension Perm[Pout[I]], which is IR operand dimension
  // Pin^-1 of that.
  std::vector<int32_t> IrPerm(Rank);
  for (size_t I = 0; I < Rank; ++I) {
    int64_t OnnxOut = Y->Nhwc ? ToNhwc[I] : int64_t(I);
    int64_t OnnxIn = Perm[OnnxOut];
    IrPerm[I] = X->Nhwc ? ToNchw[OnnxIn] : static_cast<int32_t>(OnnxIn);
  }
  int32_t P = int32Constant(N.output(0) + "#perm", {static_cast<int32_t>(Rank)},
                            IrPerm);
  addOp("TRANSPOSE", {X->Tensor, P}, {Y->Tensor});
  return Error::success();
}

Error Importer::softmax(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  int64_t Rank = G.Tensors[X->Tensor].rank();
  int64_t Axis = intAttr(N, "axis", Opset < 13 ? 1 : -1);
  if (Axis < 0)
    Axis += Rank;
  // Before opset 13 the operand is seen as 2-D, split before the axis:
  // that is a softmax over the last dimension only when the axis is last.
  if (Axis != Rank - 1 || X->Nhwc)
    return makeError(formatv("softmax over axis {0} of a rank-{1} tensor; "
                             "only the last axis of a tensor that is not an "
                             "NCHW feature map is supported",
                             Axis, Rank));
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp("SOFTMAX", {X->Tensor}, {Y->Tensor});
  Op.setAttr(attr::Beta, 1.0);
  return Error::success();
}

Error Importer::concat(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  Expected<std::vector<int64_t>> Out = onnxShape(N.output(0));
  if (!Out)
    return Out.takeError();
  int64_t Rank = static_cast<int64_t>(Out->size());
  int64_t Axis = intAttr(N, "axis", 0);
  if (Axis < -Rank || Axis >= Rank)
    return makeError(formatv("axis {0} is outside rank {1}", Axis, Rank));
  if (Axis < 0)
    Axis += Rank;
  bool Nhwc = Rank == 4;
  std::vector<int32_t> Inputs;
  for (const std::string &I : N.input()) {
    Expected<Value> V = broadcastOperand(I, Rank, Nhwc);
    if (!V)
      return V.takeError();
    Inputs.push_back(V->Tensor);
  }
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  ir::Operator &Op = addOp("CONCATENATION", Inputs, {Y->Tensor});
  Op.setAttr(attr::Axis, Nhwc ? int64_t(ToNchw[Axis]) : Axis);
  Op.setAttr(attr::FusedActivation, std::string("NONE"));
  return Error::success();
}

Error Importer::pad(const NodeRef &R, StringRef) {
  const pb::NodeProto &N = R.N;
  if (stringAttr(N, "mode", "constant") != "constant")
    return makeError("only mode 'constant' is supported");
  std::vector<int64_t> Pads;
  if (Opset < 11) {
    Pads = intsAttr(N, "pads");
    if (floatAttr(N, "value", 0.0f) != 0.0f)
      return makeError("only padding with 0 is supported");
  } else {
    Expected<std::vector<int64_t>> P = constantInts(N.input(1));
    if (!P)
      return P.takeError();
    Pads = *P;
    if (N.input_size() > 2 && !N.input(2).empty()) {
      const TensorData *V = constant(N.input(2));
      if (!V || llvm::any_of(V->Data, [](uint8_t B) { return B != 0; }))
        return makeError("only padding with a constant 0 is supported");
    }
  }
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  size_t Rank = G.Tensors[X->Tensor].rank();
  if (N.input_size() > 3 && !N.input(3).empty())
    return makeError("the axes operand is not supported");
  if (Pads.size() != 2 * Rank)
    return makeError(formatv("{0} pads for rank {1}", Pads.size(), Rank));
  std::vector<int32_t> Rows(2 * Rank);
  for (size_t I = 0; I < Rank; ++I) {
    size_t Onnx = X->Nhwc ? size_t(ToNhwc[I]) : I;
    if (Pads[Onnx] < 0 || Pads[Onnx + Rank] < 0 ||
        Pads[Onnx] > (int64_t(1) << 20) || Pads[Onnx + Rank] > (1 << 20))
      return makeError("pads must be in [0, 2^20]");
    Rows[2 * I] = static_cast<int32_t>(Pads[Onnx]);
    Rows[2 * I + 1] = static_cast<int32_t>(Pads[Onnx + Rank]);
  }
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  int32_t P = int32Constant(N.output(0) + "#pads",
                            {static_cast<int32_t>(Rank), 2}, Rows);
  addOp("PAD", {X->Tensor, P}, {Y->Tensor});
  return Error::success();
}

Error Importer::quantizeLinear(const NodeRef &R, StringRef IrOp) {
  bool Quantize = IrOp == "QUANTIZE";
  const pb::NodeProto &N = R.N;
  const TensorData *Scale = constant(N.input(1));
  if (!Scale || Scale->Type != ir::DType::F32)
    return makeError("the scale must be a float constant");
  const TensorData *Zero = N.input_size() > 2 && !N.input(2).empty()
                               ? constant(N.input(2))
                               : nullptr;
  if (N.input_size() > 2 && !N.input(2).empty() && !Zero)
    return makeError("the zero point must be a constant");
  ir::QuantParams Q;
  size_t Count = Scale->Data.size() / 4;
  for (size_t I = 0; I < Count; ++I) {
    float F;
    std::memcpy(&F, Scale->Data.data() + 4 * I, 4);
    if (!(F > 0.0f) || !std::isfinite(F))
      return makeError(formatv("scale {0} is not a positive finite number", F));
    Q.Scales.push_back(F);
  }
  if (Zero) {
    if (Zero->Data.size() / ir::dtypeSize(Zero->Type) != Count)
      return makeError("the zero point and scale differ in length");
    for (size_t I = 0; I < Count; ++I) {
      int64_t Z = Zero->Type == ir::DType::U8   ? Zero->Data[I]
                  : Zero->Type == ir::DType::I8 ? int64_t(int8_t(Zero->Data[I]))
                                                : 0;
      if (Zero->Type == ir::DType::I32) {
        int32_t V;
        std::memcpy(&V, Zero->Data.data() + 4 * I, 4);
        Z = V;
      } else if (Zero->Type == ir::DType::I16) {
        int16_t V;
        std::memcpy(&V, Zero->Data.data() + 2 * I, 2);
        Z = V;
      }
      Q.ZeroPoints.push_back(Z);
    }
  } else {
    Q.ZeroPoints.assign(Count, 0);
  }
  StringRef Quantized = Quantize ? N.output(0) : N.input(0);
  Expected<std::vector<int64_t>> Dims = onnxShape(Quantized);
  if (!Dims)
    return Dims.takeError();
  if (Count != 1) {
    int64_t Rank = static_cast<int64_t>(Dims->size());
    int64_t Axis = intAttr(N, "axis", 1);
    if (Axis < -Rank || Axis >= Rank)
      return makeError(formatv("axis {0} is outside rank {1}", Axis, Rank));
    if (Axis < 0)
      Axis += Rank;
    if ((*Dims)[Axis] != static_cast<int64_t>(Count))
      return makeError("the scale's length differs from the axis' size");
    Q.Axis = static_cast<int32_t>(Axis);
    if (Quantize || !constant(N.input(0))) {
      // A computed value's: along its channels, the IR's last axis (a
      // feature map's axis 1 is its last, held NHWC).
      const int64_t IrAxis = Rank == 4 ? ToNchw[Axis] : Axis;
      if (IrAxis != Rank - 1)
        return makeError(formatv(
            "per-axis parameters along axis {0} of a computed value; the "
            "kernels take them along its channels only (axis 1 of a "
            "feature map, the last axis otherwise)",
            Axis));
      Q.Axis = static_cast<int32_t>(IrAxis);
    }
  }
  if (Quantize) {
    Expected<Value> X = value(N.input(0));
    if (!X)
      return X.takeError();
    Expected<Value> Y = defineOutput(N);
    if (!Y)
      return Y.takeError();
    G.Tensors[Y->Tensor].Quant = Q;
    addOp("QUANTIZE", {X->Tensor}, {Y->Tensor});
    return Error::success();
  }
  // A dequantized constant stays a constant, used quantized where a
  // pattern takes it (QuantParamsMaker.h) and dequantized elsewhere.
  if (const TensorData *C = constant(N.input(0))) {
    if (Dequantized.count(N.input(0)) || C->Type == ir::DType::F32)
      return makeError(
          formatv("'{0}' is not a quantized constant", N.input(0)));
    if (Values.count(N.output(0)) || Constants.count(N.output(0)))
      return makeError(formatv("'{0}' is written twice", N.output(0)));
    Constants[N.output(0)] = *C;
    Dequantized[N.output(0)] = Q;
    return Error::success();
  }
  Expected<Value> X = value(N.input(0));
  if (!X)
    return X.takeError();
  ir::Tensor &In = G.Tensors[X->Tensor];
  // DequantizeLinear reads the integers as they are: other parameters than
  // they were written with would reinterpret them, which no IR operator
  // does.
  if (In.Quant &&
      (In.Quant->Scales != Q.Scales || In.Quant->ZeroPoints != Q.ZeroPoints))
    return makeError(formatv("'{0}' is dequantized with other parameters "
                             "than it was quantized with",
                             N.input(0)));
  In.Quant = Q;
  // The operands of the operators that moved these 8-bit values here
  // without DequantizeLinear (a graph input reshaped first) have the same
  // parameters (per tensor: a move may change the channels' axis).
  for (int32_t T = Q.isPerChannel() ? -1 : X->Tensor; T >= 0;) {
    auto P = llvm::find_if(G.Operators, [T](const ir::Operator &Op) {
      return llvm::is_contained(Op.Outputs, T);
    });
    if (P == G.Operators.end() || !quant::keepsParams(P->Type) ||
        P->Inputs.empty() || P->Inputs[0] < 0)
      break;
    ir::Tensor &Operand = G.Tensors[P->Inputs[0]];
    if (Operand.Quant || Operand.Type != G.Tensors[T].Type)
      break;
    Operand.Quant = Q;
    T = P->Inputs[0];
  }
  Expected<Value> Y = defineOutput(N);
  if (!Y)
    return Y.takeError();
  addOp("DEQUANTIZE", {X->Tensor}, {Y->Tensor});
  return Error::success();
}

} // namespace

int32_t elementTypeOf(ir::DType T) {
  for (const TypePair &P : ElementTypes)
    if (P.Ir == T)
      return P.Onnx;
  return pb::TensorProto_DataType_UNDEFINED;
}

bool looksLikeModel(llvm::ArrayRef<uint8_t> Bytes) {
  // ModelProto's fields: number and wire type (0 varint, 2 length-delimited).
  auto WireType = [](uint64_t Field) -> int {
    switch (Field) {
    case 1: // ir_version
    case 5: // model_version
      return 0;
    case 2:  // producer_name
    case 3:  // producer_version
    case 4:  // domain
    case 6:  // doc_string
    case 7:  // graph
    case 8:  // opset_import
    case 14: // metadata_props
    case 20: // training_info
    case 25: // functions
      return 2;
    default:
      return -1;
    }
  };
  size_t At = 0;
  auto Varint = [&](uint64_t &V) {
    V = 0;
    for (unsigned Shift = 0; Shift < 64 && At < Bytes.size(); Shift += 7) {
      uint8_t B = Bytes[At++];
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return true;
    }
    return false;
  };
  // Every writer puts ir_version first; then each top-level field must be
  // one of ModelProto's with its wire type, up to the end of the bytes (or
  // past it, for a truncated file, which the parser then refuses).
  if (Bytes.empty() || Bytes[0] != 0x08)
    return false;
  while (At < Bytes.size()) {
    uint64_t Key, V;
    if (!Varint(Key))
      return true;
    int Type = WireType(Key >> 3);
    if (Type < 0 || Type != int(Key & 7))
      return false;
    if (!Varint(V))
      return true;
    if (Type == 2) {
      if (V > Bytes.size() - At)
        return true;
      At += V;
    }
  }
  return true;
}

Expected<ImportResult> importModel(llvm::ArrayRef<uint8_t> Bytes,
                                   ir::Arithmetic Computes) {
  if (Bytes.size() > size_t(std::numeric_limits<int>::max()))
    return makeError("file is larger than 2 GiB, the protobuf limit");
  pb::ModelProto M;
  if (!M.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())))
    return makeError("malformed ONNX model: the bytes do not parse as a "
                     "ModelProto (truncated or corrupt file)");
  if (!M.has_graph())
    return makeError("the ONNX model has no graph");
  ImportResult Result;
  Importer I(Result, Computes);
  // Names in the model may hold any bytes: the message stays one line.
  if (Error E = I.run(M))
    return makeError(support::terminalText(toString(std::move(E)), false));
  return std::move(Result);
}

Expected<TensorData> readTensorProto(llvm::ArrayRef<uint8_t> Bytes) {
  pb::TensorProto T;
  if (Bytes.size() > size_t(std::numeric_limits<int>::max()) ||
      !T.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())))
    return makeError("malformed TensorProto");
  return readTensor(T);
}

} // namespace onnximport
} // namespace accelgen
