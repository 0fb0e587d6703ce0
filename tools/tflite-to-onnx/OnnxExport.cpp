//===- OnnxExport.cpp - Quantized TensorFlow Lite graphs as ONNX ----------===//
#include "OnnxExport.h"

#include "import/ONNXImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>
#include <map>

namespace pb = ::onnx;

namespace accelgen {
namespace onnxexport {

namespace {

namespace attr = ir::attr;

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

/// A 4-D IR (NHWC) shape in ONNX's order (NCHW); other ranks as they are.
std::vector<int64_t> onnxDims(const ir::Tensor &T) {
  std::vector<int64_t> D(T.Shape.begin(), T.Shape.end());
  if (D.size() == 4 && !T.IsConstant)
    D = {D[0], D[3], D[1], D[2]};
  return D;
}

/// ONNX's axis of IR axis \p Axis of \p T (NHWC to NCHW for a feature map).
int64_t onnxAxis(const ir::Tensor &T, int64_t Axis) {
  if (Axis < 0)
    Axis += T.rank();
  const int64_t ToOnnx[4] = {0, 2, 3, 1};
  return T.rank() == 4 && !T.IsConstant ? ToOnnx[Axis] : Axis;
}

bool sameOrder(const std::vector<int32_t> &Nhwc) {
  return Nhwc[3] == 1 || int64_t(Nhwc[1]) * Nhwc[2] == 1;
}

class Exporter {
public:
  Exporter(const ir::Graph &G, Form F) : G(G), F(F) {}
  llvm::Expected<std::string> run();

private:
  const ir::Graph &G;
  Form F;
  pb::ModelProto M;
  pb::GraphProto *GP = nullptr;
  std::map<int32_t, std::string> Float;
  unsigned Fresh = 0;

  std::string name(int32_t T) const { return "t" + std::to_string(T); }
  std::string fresh(llvm::StringRef Base) {
    return (Base + "_" + std::to_string(Fresh++)).str();
  }
  pb::TensorProto *initializer(const std::string &Name, int32_t Type,
                               const std::vector<int64_t> &Dims,
                               const void *Data, size_t Bytes) {
    pb::TensorProto *I = GP->add_initializer();
    I->set_name(Name);
    I->set_data_type(Type);
    for (int64_t D : Dims)
      I->add_dims(D);
    I->set_raw_data(Data, Bytes);
    return I;
  }
  pb::NodeProto *node(llvm::StringRef Op, std::vector<std::string> In,
                      std::vector<std::string> Out) {
    pb::NodeProto *N = GP->add_node();
    N->set_op_type(Op.str());
    N->set_name(fresh(Op));
    for (const std::string &I : In)
      N->add_input(I);
    for (const std::string &O : Out)
      N->add_output(O);
    return N;
  }
  static void ints(pb::NodeProto *N, const char *Name, std::vector<int64_t> V) {
    pb::AttributeProto *A = N->add_attribute();
    A->set_name(Name);
    A->set_type(pb::AttributeProto_AttributeType_INTS);
    for (int64_t I : V)
      A->add_ints(I);
  }
  static void integer(pb::NodeProto *N, const char *Name, int64_t V) {
    pb::AttributeProto *A = N->add_attribute();
    A->set_name(Name);
    A->set_type(pb::AttributeProto_AttributeType_INT);
    A->set_i(V);
  }
  /// Scale and zero-point initializers of \p Q for a value of type \p T
  /// (vectors when per channel, scalars otherwise).
  std::pair<std::string, std::string> params(const ir::QuantParams &Q,
                                             ir::DType T);
  /// The float value of quantized tensor \p T (a DequantizeLinear of it).
  std::string dequantized(int32_t T);
  /// Writes quantized tensor \p T from float value \p From.
  void quantize(const std::string &From, int32_t T);
  /// A constant quantized tensor \p T laid out as \p Dims with \p Data,
  /// dequantized along \p Axis.
  std::string constant(int32_t T, const std::vector<int64_t> &Dims,
                       const std::vector<uint8_t> &Data, int64_t Axis);
  /// \p From with the activation \p Act ("NONE", "RELU", "RELU6") applied.
  llvm::Expected<std::string> activation(const std::string &From,
                                         const ir::Operator &Op);
  /// The explicit pads [top, left, bottom, right] of TensorFlow Lite's
  /// padding for a window on \p In giving \p Out.
  std::vector<int64_t> pads(const ir::Operator &Op, const ir::Tensor &In,
                            const ir::Tensor &Out, int64_t KH, int64_t KW);
  /// Applies \p Op (one float operand in and out, quantized as \p Params)
  /// to quantized value \p From: DequantizeLinear, \p Op, QuantizeLinear
  /// with the same parameters. The new quantized value's name.
  std::string passThrough(const std::string &From, int32_t Params,
                          const std::function<std::string(std::string)> &Op);
  /// Applies layout change \p Op to quantized value \p From: on the 8-bit
  /// values themselves in the QOperator form, else passThrough.
  std::string move(const std::string &From, int32_t Params,
                   const std::function<std::string(std::string)> &Op) {
    return F == Form::QOperator ? Op(From) : passThrough(From, Params, Op);
  }
  /// \p Op's operand flattened to [batches, depth] as TensorFlow Lite's
  /// FULLY_CONNECTED reads it (NHWC order), quantized.
  std::string flattened(const ir::Operator &Op);
  /// Quantized value \p T, its scale and zero point: a QOperator node's
  /// operand.
  void operand(int32_t T, std::vector<std::string> &In) {
    const ir::Tensor &X = G.tensor(T);
    auto [S, Z] = params(*X.Quant, X.Type);
    In.insert(In.end(), {name(T), S, Z});
  }
  /// A node of ONNX Runtime's com.microsoft domain.
  pb::NodeProto *microsoft(llvm::StringRef Op, std::vector<std::string> In,
                           std::vector<std::string> Out) {
    pb::NodeProto *N = node(Op, std::move(In), std::move(Out));
    N->set_domain("com.microsoft");
    return N;
  }
  /// A convolution's weights in ONNX's layout (OIHW; depthwise [M, 1, kH,
  /// kW]), with the IR's dimensions.
  struct ConvWeights {
    bool Depthwise;
    std::vector<int64_t> Ir, Dims;
    std::vector<uint8_t> Data;
  };
  ConvWeights convWeights(const ir::Operator &Op);
  /// Conv's and QLinearConv's attributes of \p Op.
  void convAttributes(pb::NodeProto *N, const ir::Operator &Op,
                      const ConvWeights &CW);
  /// Writes \p Op as a QOperator node; false where only the QDQ form
  /// expresses it (a fused activation narrowing the result's range,
  /// operands of different shapes, ...).
  bool writeQOperator(const ir::Operator &Op);

  llvm::Error write(const ir::Operator &Op);
};

/// True if TensorFlow Lite's fused activation of \p Op clamps nothing the
/// result's type and parameters do not: QOperator nodes have no
/// activation. (RELU clamps at the zero point, RELU6 also at
/// zero_point + round(6 / scale); kept a value clear of rounding.)
bool activationInRange(const ir::Operator &Op, const ir::Tensor &Y) {
  std::string Act = Op.getString(attr::FusedActivation, "NONE");
  if (Act == "NONE")
    return true;
  int64_t Lowest = Y.Type == ir::DType::U8 ? 0 : -128;
  int64_t Highest = Lowest + 255;
  int64_t Zero = Y.Quant->ZeroPoints[0];
  if (Act == "RELU")
    return Zero <= Lowest;
  if (Act == "RELU6")
    return Zero <= Lowest &&
           Zero + 6.0 / double(Y.Quant->Scales[0]) >= double(Highest) + 1.0;
  return false;
}

std::pair<std::string, std::string> Exporter::params(const ir::QuantParams &Q,
                                                     ir::DType T) {
  std::string S = fresh("scale"), Z = fresh("zero_point");
  std::vector<int64_t> Dims;
  if (Q.isPerChannel())
    Dims = {static_cast<int64_t>(Q.Scales.size())};
  initializer(S, pb::TensorProto_DataType_FLOAT, Dims, Q.Scales.data(),
              4 * Q.Scales.size());
  size_t Size = ir::dtypeSize(T);
  std::vector<uint8_t> Zeros(Size * Q.ZeroPoints.size());
  for (size_t I = 0; I < Q.ZeroPoints.size(); ++I) {
    int64_t V = Q.ZeroPoints[I];
    std::memcpy(Zeros.data() + I * Size, &V, Size);
  }
  initializer(Z, onnximport::elementTypeOf(T), Dims, Zeros.data(),
              Zeros.size());
  return {S, Z};
}

std::string Exporter::dequantized(int32_t T) {
  auto It = Float.find(T);
  if (It != Float.end())
    return It->second;
  const ir::Tensor &X = G.tensor(T);
  // A float32 graph input is its own float value (QUANTIZE reads it).
  if (X.Type == ir::DType::F32 && !X.Quant)
    return name(T);
  auto [S, Z] = params(*X.Quant, X.Type);
  std::string Name = name(T) + "_f";
  node("DequantizeLinear", {name(T), S, Z}, {Name});
  Float[T] = Name;
  return Name;
}

void Exporter::quantize(const std::string &From, int32_t T) {
  const ir::Tensor &X = G.tensor(T);
  auto [S, Z] = params(*X.Quant, X.Type);
  node("QuantizeLinear", {From, S, Z}, {name(T)});
}

std::string Exporter::constant(int32_t T, const std::vector<int64_t> &Dims,
                               const std::vector<uint8_t> &Data, int64_t Axis) {
  const ir::Tensor &X = G.tensor(T);
  std::string Q = name(T) + "_q";
  initializer(Q, onnximport::elementTypeOf(X.Type), Dims, Data.data(),
              Data.size());
  auto [S, Z] = params(*X.Quant, X.Type);
  std::string F = name(T) + "_f";
  pb::NodeProto *N = node("DequantizeLinear", {Q, S, Z}, {F});
  if (X.Quant->isPerChannel())
    integer(N, "axis", Axis);
  return F;
}

llvm::Expected<std::string> Exporter::activation(const std::string &From,
                                                 const ir::Operator &Op) {
  std::string Act = Op.getString(attr::FusedActivation, "NONE");
  if (Act == "NONE")
    return From;
  std::string Out = fresh("act");
  if (Act == "RELU") {
    node("Relu", {From}, {Out});
    return Out;
  }
  if (Act == "RELU6") {
    float Lo = 0.0f, Hi = 6.0f;
    std::string L = fresh("min"), H = fresh("max");
    initializer(L, pb::TensorProto_DataType_FLOAT, {}, &Lo, 4);
    initializer(H, pb::TensorProto_DataType_FLOAT, {}, &Hi, 4);
    node("Clip", {From, L, H}, {Out});
    return Out;
  }
  return makeError(llvm::formatv("fused activation {0}", Act));
}

std::vector<int64_t> Exporter::pads(const ir::Operator &Op,
                                    const ir::Tensor &In, const ir::Tensor &Out,
                                    int64_t KH, int64_t KW) {
  if (Op.getString(attr::Padding) != "SAME")
    return {0, 0, 0, 0};
  int64_t K[2] = {KH, KW};
  int64_t S[2] = {Op.getInt(attr::StrideH, 1), Op.getInt(attr::StrideW, 1)};
  int64_t D[2] = {Op.getInt(attr::DilationH, 1), Op.getInt(attr::DilationW, 1)};
  std::vector<int64_t> P(4);
  for (int A = 0; A < 2; ++A) {
    int64_t Total = std::max<int64_t>(
        (Out.Shape[1 + A] - 1) * S[A] + (K[A] - 1) * D[A] + 1 - In.Shape[1 + A],
        0);
    P[A] = Total / 2;
    P[A + 2] = Total - Total / 2;
  }
  return P;
}

std::string
Exporter::passThrough(const std::string &From, int32_t Params,
                      const std::function<std::string(std::string)> &Op) {
  const ir::Tensor &X = G.tensor(Params);
  auto [S, Z] = params(*X.Quant, X.Type);
  std::string F = fresh("deq");
  node("DequantizeLinear", {From, S, Z}, {F});
  std::string R = Op(F);
  auto [S2, Z2] = params(*X.Quant, X.Type);
  std::string Q = fresh("req");
  node("QuantizeLinear", {R, S2, Z2}, {Q});
  return Q;
}

std::string Exporter::flattened(const ir::Operator &Op) {
  const ir::Tensor &X = G.tensor(Op.input(0));
  std::string Xq = name(Op.input(0));
  std::string Shape = fresh("shape");
  int64_t Dims[2] = {-1, G.tensor(Op.input(1)).Shape[1]};
  initializer(Shape, pb::TensorProto_DataType_INT64, {2}, Dims, 16);
  // A feature map is flattened in TensorFlow Lite's (NHWC) order.
  if (X.rank() == 4 && !sameOrder(X.Shape))
    Xq = move(Xq, Op.input(0), [&](std::string F) {
      std::string R = fresh("transposed");
      ints(node("Transpose", {F}, {R}), "perm", {0, 2, 3, 1});
      return R;
    });
  return move(Xq, Op.input(0), [&](std::string F) {
    std::string R = fresh("flat");
    node("Reshape", {F, Shape}, {R});
    return R;
  });
}

Exporter::ConvWeights Exporter::convWeights(const ir::Operator &Op) {
  const ir::Tensor &W = G.tensor(Op.input(1));
  ConvWeights CW;
  CW.Depthwise = Op.Type == "DEPTHWISE_CONV_2D";
  CW.Ir.assign(W.Shape.begin(), W.Shape.end());
  // OHWI to OIHW; depthwise [1, kH, kW, M] to [M, 1, kH, kW].
  std::vector<int> Perm = CW.Depthwise ? std::vector<int>{3, 0, 1, 2}
                                       : std::vector<int>{0, 3, 1, 2};
  for (int P : Perm)
    CW.Dims.push_back(CW.Ir[P]);
  CW.Data = ir::transposeElements(W.Data, CW.Ir, Perm, 1);
  return CW;
}

void Exporter::convAttributes(pb::NodeProto *N, const ir::Operator &Op,
                              const ConvWeights &CW) {
  const ir::Tensor &X = G.tensor(Op.input(0));
  ints(N, "kernel_shape", {CW.Ir[1], CW.Ir[2]});
  ints(N, "strides", {Op.getInt(attr::StrideH), Op.getInt(attr::StrideW)});
  ints(N, "dilations",
       {Op.getInt(attr::DilationH, 1), Op.getInt(attr::DilationW, 1)});
  ints(N, "pads", pads(Op, X, G.tensor(Op.output(0)), CW.Ir[1], CW.Ir[2]));
  // A grouped CONV_2D's filter has C / groups input channels.
  integer(N, "group", CW.Depthwise ? X.Shape[3] : X.Shape[3] / CW.Ir[3]);
}

bool Exporter::writeQOperator(const ir::Operator &Op) {
  const std::string &Type = Op.Type;
  int32_t Out = Op.output(0);
  const ir::Tensor &Y = G.tensor(Out);
  if (!activationInRange(Op, Y))
    return false;
  auto Result = [&](std::vector<std::string> &In) {
    auto [S, Z] = params(*Y.Quant, Y.Type);
    In.insert(In.end(), {S, Z});
  };
  // A quantized constant with its parameters.
  auto Constant = [&](int32_t T, const std::vector<int64_t> &Dims,
                      const std::vector<uint8_t> &Data,
                      std::vector<std::string> &In) {
    const ir::Tensor &C = G.tensor(T);
    std::string Q = name(T) + "_q";
    initializer(Q, onnximport::elementTypeOf(C.Type), Dims, Data.data(),
                Data.size());
    auto [S, Z] = params(*C.Quant, C.Type);
    In.insert(In.end(), {Q, S, Z});
  };
  auto Bias = [&](std::vector<std::string> &In) {
    if (Op.input(2) < 0)
      return;
    const ir::Tensor &B = G.tensor(Op.input(2));
    std::string Name = name(Op.input(2)) + "_q";
    initializer(Name, pb::TensorProto_DataType_INT32, {B.Shape[0]},
                B.Data.data(), B.Data.size());
    In.push_back(Name);
  };
  auto Window = [&](pb::NodeProto *N) {
    int64_t KH = Op.getInt(attr::FilterH), KW = Op.getInt(attr::FilterW);
    ints(N, "kernel_shape", {KH, KW});
    ints(N, "strides", {Op.getInt(attr::StrideH), Op.getInt(attr::StrideW)});
    ints(N, "pads", pads(Op, G.tensor(Op.input(0)), Y, KH, KW));
  };
  if (Type == "CONV_2D" || Type == "DEPTHWISE_CONV_2D") {
    ConvWeights CW = convWeights(Op);
    std::vector<std::string> In;
    operand(Op.input(0), In);
    Constant(Op.input(1), CW.Dims, CW.Data, In);
    Result(In);
    Bias(In);
    convAttributes(node("QLinearConv", In, {name(Out)}), Op, CW);
    return true;
  }
  if (Type == "FULLY_CONNECTED") {
    if (Op.getBool(attr::KeepNumDims))
      return false;
    const ir::Tensor &W = G.tensor(Op.input(1));
    const ir::Tensor &X = G.tensor(Op.input(0));
    std::vector<std::string> In;
    if (X.rank() != 2) {
      auto [S, Z] = params(*X.Quant, X.Type);
      In = {flattened(Op), S, Z};
    } else {
      operand(Op.input(0), In);
    }
    Constant(Op.input(1), {W.Shape[0], W.Shape[1]}, W.Data, In);
    // QGemm's bias comes before the result's parameters.
    std::vector<std::string> Tail;
    Bias(Tail);
    if (Tail.empty())
      Tail.push_back("");
    In.insert(In.end(), Tail.begin(), Tail.end());
    Result(In);
    integer(microsoft("QGemm", In, {name(Out)}), "transB", 1);
    return true;
  }
  if (Type == "AVERAGE_POOL_2D") {
    std::vector<std::string> In;
    operand(Op.input(0), In);
    Result(In);
    Window(microsoft("QLinearAveragePool", In, {name(Out)}));
    return true;
  }
  if (Type == "MAX_POOL_2D") {
    // ONNX's MaxPool takes 8-bit values as they are: the result keeps the
    // operand's parameters, as TensorFlow Lite's.
    const ir::Tensor &X = G.tensor(Op.input(0));
    if (X.Type != Y.Type || X.Quant->Scales != Y.Quant->Scales ||
        X.Quant->ZeroPoints != Y.Quant->ZeroPoints)
      return false;
    Window(node("MaxPool", {name(Op.input(0))}, {name(Out)}));
    return true;
  }
  if (Type == "ADD" || Type == "MUL") {
    if (G.tensor(Op.input(0)).Shape != G.tensor(Op.input(1)).Shape)
      return false;
    std::vector<std::string> In;
    operand(Op.input(0), In);
    operand(Op.input(1), In);
    Result(In);
    microsoft(Type == "ADD" ? "QLinearAdd" : "QLinearMul", In, {name(Out)});
    return true;
  }
  if (Type == "CONCATENATION") {
    std::vector<std::string> In;
    Result(In);
    for (int32_t T : Op.Inputs)
      operand(T, In);
    integer(microsoft("QLinearConcat", In, {name(Out)}), "axis",
            onnxAxis(Y, Op.getInt(attr::Axis)));
    return true;
  }
  if (Type == "SOFTMAX") {
    if (Op.getFloat(attr::Beta, 1.0) != 1.0 ||
        G.tensor(Op.input(0)).rank() == 4)
      return false;
    std::vector<std::string> In;
    operand(Op.input(0), In);
    Result(In);
    pb::NodeProto *N = microsoft("QLinearSoftmax", In, {name(Out)});
    integer(N, "axis", -1);
    integer(N, "opset", 13);
    return true;
  }
  return false;
}

llvm::Error Exporter::write(const ir::Operator &Op) {
  auto Unsupported = [&](const llvm::Twine &Why) {
    return makeError(llvm::formatv("{0}: {1}", Op.Type, Why.str()));
  };
  const std::string &Type = Op.Type;
  int32_t Out = Op.output(0);
  // Every value read or written is quantized (but shapes, and the float32
  // a QUANTIZE reads).
  for (size_t I = 0; I < Op.Inputs.size(); ++I) {
    int32_t T = Op.Inputs[I];
    if (T >= 0 && !(Type == "RESHAPE" && I == 1) &&
        !(Type == "QUANTIZE" && G.tensor(T).Type == ir::DType::F32) &&
        !G.tensor(T).Quant)
      return Unsupported(
          llvm::formatv("tensor '{0}' is not quantized", G.tensor(T).Name));
  }
  if (Out < 0 || !G.tensor(Out).Quant)
    return Unsupported("its result is not quantized");
  if (F == Form::QOperator && writeQOperator(Op))
    return llvm::Error::success();
  if (Type == "CONV_2D" || Type == "DEPTHWISE_CONV_2D") {
    ConvWeights CW = convWeights(Op);
    std::string Wf = constant(Op.input(1), CW.Dims, CW.Data, 0);
    std::vector<std::string> In = {dequantized(Op.input(0)), Wf};
    if (Op.input(2) >= 0) {
      const ir::Tensor &B = G.tensor(Op.input(2));
      In.push_back(constant(Op.input(2), {B.Shape[0]}, B.Data, 0));
    }
    std::string Y = fresh("conv");
    convAttributes(node("Conv", In, {Y}), Op, CW);
    llvm::Expected<std::string> A = activation(Y, Op);
    if (!A)
      return A.takeError();
    quantize(*A, Out);
    return llvm::Error::success();
  }
  if (Type == "FULLY_CONNECTED") {
    if (Op.getBool(attr::KeepNumDims))
      return Unsupported("keep_num_dims");
    const ir::Tensor &W = G.tensor(Op.input(1));
    std::string Xf;
    if (G.tensor(Op.input(0)).rank() != 2) {
      const ir::Tensor &X = G.tensor(Op.input(0));
      auto [S, Z] = params(*X.Quant, X.Type);
      Xf = fresh("deq");
      node("DequantizeLinear", {flattened(Op), S, Z}, {Xf});
    } else {
      Xf = dequantized(Op.input(0));
    }
    std::vector<int64_t> WD(W.Shape.begin(), W.Shape.end());
    std::vector<std::string> In = {Xf, constant(Op.input(1), WD, W.Data, 0)};
    if (Op.input(2) >= 0) {
      const ir::Tensor &B = G.tensor(Op.input(2));
      In.push_back(constant(Op.input(2), {B.Shape[0]}, B.Data, 0));
    }
    std::string Y = fresh("gemm");
    integer(node("Gemm", In, {Y}), "transB", 1);
    llvm::Expected<std::string> A = activation(Y, Op);
    if (!A)
      return A.takeError();
    quantize(*A, Out);
    return llvm::Error::success();
  }
  if (Type == "BATCH_MATMUL") {
    // Batches of matrices of rank 3 (a rank-4 value is a feature map, NCHW
    // in ONNX), its right operand constant.
    const ir::Tensor &X = G.tensor(Op.input(0)), &W = G.tensor(Op.input(1));
    if (X.rank() != 3 || W.rank() != 3 || !W.IsConstant)
      return Unsupported("operands other than rank 3, the right one constant");
    if (Op.getBool(attr::AdjX) || Op.getBool(attr::AdjY))
      return Unsupported("adj_x or adj_y");
    std::vector<int64_t> WD(W.Shape.begin(), W.Shape.end());
    std::string Y = fresh("matmul");
    node("MatMul",
         {dequantized(Op.input(0)), constant(Op.input(1), WD, W.Data, 0)}, {Y});
    quantize(Y, Out);
    return llvm::Error::success();
  }
  if (Type == "AVERAGE_POOL_2D" || Type == "MAX_POOL_2D") {
    int64_t KH = Op.getInt(attr::FilterH), KW = Op.getInt(attr::FilterW);
    std::string Y = fresh("pool");
    pb::NodeProto *N = node(Type == "MAX_POOL_2D" ? "MaxPool" : "AveragePool",
                            {dequantized(Op.input(0))}, {Y});
    ints(N, "kernel_shape", {KH, KW});
    ints(N, "strides", {Op.getInt(attr::StrideH), Op.getInt(attr::StrideW)});
    ints(N, "pads", pads(Op, G.tensor(Op.input(0)), G.tensor(Out), KH, KW));
    llvm::Expected<std::string> A = activation(Y, Op);
    if (!A)
      return A.takeError();
    quantize(*A, Out);
    return llvm::Error::success();
  }
  if (Type == "ADD" || Type == "SUB" || Type == "MUL") {
    if (G.tensor(Op.input(0)).Shape != G.tensor(Op.input(1)).Shape)
      return Unsupported("operands of different shapes");
    std::string Y = fresh("sum");
    node(Type == "ADD"   ? "Add"
         : Type == "SUB" ? "Sub"
                         : "Mul",
         {dequantized(Op.input(0)), dequantized(Op.input(1))}, {Y});
    llvm::Expected<std::string> A = activation(Y, Op);
    if (!A)
      return A.takeError();
    quantize(*A, Out);
    return llvm::Error::success();
  }
  if (Type == "CONCATENATION") {
    std::vector<std::string> In;
    for (int32_t T : Op.Inputs)
      In.push_back(dequantized(T));
    std::string Y = fresh("concat");
    integer(node("Concat", In, {Y}), "axis",
            onnxAxis(G.tensor(Out), Op.getInt(attr::Axis)));
    llvm::Expected<std::string> A = activation(Y, Op);
    if (!A)
      return A.takeError();
    quantize(*A, Out);
    return llvm::Error::success();
  }
  if (Type == "RESHAPE") {
    const ir::Tensor &X = G.tensor(Op.input(0));
    const ir::Tensor &Y = G.tensor(Out);
    std::string Cur = name(Op.input(0));
    auto Transpose = [&](std::vector<int64_t> Perm) {
      Cur = move(Cur, Op.input(0), [&](std::string F) {
        std::string R = fresh("transposed");
        ints(node("Transpose", {F}, {R}), "perm", Perm);
        return R;
      });
    };
    if (X.rank() == 4 && !sameOrder(X.Shape))
      Transpose({0, 2, 3, 1});
    bool Back = Y.rank() == 4 && !sameOrder(Y.Shape);
    std::vector<int64_t> Dims(Y.Shape.begin(), Y.Shape.end());
    if (Y.rank() == 4 && !Back)
      Dims = onnxDims(Y);
    std::string Shape = fresh("shape");
    initializer(Shape, pb::TensorProto_DataType_INT64,
                {static_cast<int64_t>(Dims.size())}, Dims.data(),
                8 * Dims.size());
    Cur = move(Cur, Op.input(0), [&](std::string F) {
      std::string R = fresh("reshaped");
      node("Reshape", {F, Shape}, {R});
      return R;
    });
    if (Back)
      Transpose({0, 3, 1, 2});
    // The last step writes the result's own name.
    GP->mutable_node(GP->node_size() - 1)->set_output(0, name(Out));
    return llvm::Error::success();
  }
  if (Type == "LOGISTIC" || Type == "TANH") {
    std::string Y = fresh(Type == "TANH" ? "tanh" : "sigmoid");
    node(Type == "TANH" ? "Tanh" : "Sigmoid", {dequantized(Op.input(0))}, {Y});
    quantize(Y, Out);
    return llvm::Error::success();
  }
  if (Type == "SOFTMAX") {
    if (Op.getFloat(attr::Beta, 1.0) != 1.0)
      return Unsupported("beta other than 1");
    if (G.tensor(Op.input(0)).rank() == 4)
      return Unsupported("a feature map");
    std::string Y = fresh("softmax");
    integer(node("Softmax", {dequantized(Op.input(0))}, {Y}), "axis", -1);
    quantize(Y, Out);
    return llvm::Error::success();
  }
  if (Type == "QUANTIZE") {
    quantize(dequantized(Op.input(0)), Out);
    return llvm::Error::success();
  }
  return Unsupported("not written by the exporter");
}

llvm::Expected<std::string> Exporter::run() {
  M.set_ir_version(8);
  M.set_producer_name("accelgen-tflite-to-onnx");
  pb::OperatorSetIdProto *O = M.add_opset_import();
  O->set_domain("");
  O->set_version(13);
  if (F == Form::QOperator) {
    pb::OperatorSetIdProto *Ms = M.add_opset_import();
    Ms->set_domain("com.microsoft");
    Ms->set_version(1);
  }
  GP = M.mutable_graph();
  GP->set_name(G.Name.empty() ? "main" : G.Name);
  auto Declare = [&](pb::ValueInfoProto *V, int32_t T,
                     bool FloatTaken) -> llvm::Error {
    const ir::Tensor &X = G.tensor(T);
    if (!(FloatTaken && X.Type == ir::DType::F32 && !X.Quant) &&
        (!X.Quant || X.Quant->isPerChannel()))
      return makeError(llvm::formatv("tensor '{0}' is not quantized per "
                                     "tensor",
                                     X.Name));
    V->set_name(name(T));
    auto *TT = V->mutable_type()->mutable_tensor_type();
    TT->set_elem_type(onnximport::elementTypeOf(X.Type));
    for (int64_t D : onnxDims(X))
      TT->mutable_shape()->add_dim()->set_dim_value(D);
    return llvm::Error::success();
  };
  for (int32_t T : G.Inputs)
    if (llvm::Error E = Declare(GP->add_input(), T, /*FloatTaken=*/true))
      return std::move(E);
  for (size_t I = 0; I < G.Operators.size(); ++I)
    if (llvm::Error E = write(G.Operators[I]))
      return makeError(
          llvm::formatv("operator {0} {1}", I, llvm::toString(std::move(E))));
  for (int32_t T : G.Outputs)
    if (llvm::Error E = Declare(GP->add_output(), T, /*FloatTaken=*/false))
      return std::move(E);
  std::string Bytes;
  if (!M.SerializeToString(&Bytes))
    return makeError("the model does not serialize");
  return Bytes;
}

} // namespace

llvm::Expected<std::string> exportOnnx(const ir::Graph &G, Form F) {
  return Exporter(G, F).run();
}

} // namespace onnxexport
} // namespace accelgen
