//===- OnnxExport.cpp - Quantized TensorFlow Lite graphs as ONNX QDQ ------===//
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

bool sameOrder(const std::vector<int32_t> &Nhwc) {
  return Nhwc[3] == 1 || int64_t(Nhwc[1]) * Nhwc[2] == 1;
}

class Exporter {
public:
  explicit Exporter(const ir::Graph &G) : G(G) {}
  llvm::Expected<std::string> run();

private:
  const ir::Graph &G;
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

  llvm::Error write(const ir::Operator &Op);
};

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

llvm::Error Exporter::write(const ir::Operator &Op) {
  auto Unsupported = [&](const llvm::Twine &Why) {
    return makeError(llvm::formatv("{0}: {1}", Op.Type, Why.str()));
  };
  const std::string &Type = Op.Type;
  int32_t Out = Op.output(0);
  // Every value read or written is quantized (but shapes).
  for (size_t I = 0; I < Op.Inputs.size(); ++I) {
    int32_t T = Op.Inputs[I];
    if (T >= 0 && !(Type == "RESHAPE" && I == 1) && !G.tensor(T).Quant)
      return Unsupported(
          llvm::formatv("tensor '{0}' is not quantized", G.tensor(T).Name));
  }
  if (Out < 0 || !G.tensor(Out).Quant)
    return Unsupported("its result is not quantized");
  if (Type == "CONV_2D" || Type == "DEPTHWISE_CONV_2D") {
    const ir::Tensor &X = G.tensor(Op.input(0));
    const ir::Tensor &W = G.tensor(Op.input(1));
    bool Depthwise = Type == "DEPTHWISE_CONV_2D";
    std::vector<int64_t> WD(W.Shape.begin(), W.Shape.end());
    // OHWI to OIHW; depthwise [1, kH, kW, M] to [M, 1, kH, kW].
    std::vector<int> Perm =
        Depthwise ? std::vector<int>{3, 0, 1, 2} : std::vector<int>{0, 3, 1, 2};
    std::vector<int64_t> OnnxW = {WD[Perm[0]], WD[Perm[1]], WD[Perm[2]],
                                  WD[Perm[3]]};
    std::string Wf = constant(Op.input(1), OnnxW,
                              ir::transposeElements(W.Data, WD, Perm, 1), 0);
    std::vector<std::string> In = {dequantized(Op.input(0)), Wf};
    if (Op.input(2) >= 0) {
      const ir::Tensor &B = G.tensor(Op.input(2));
      In.push_back(constant(Op.input(2), {B.Shape[0]}, B.Data, 0));
    }
    std::string Y = fresh("conv");
    pb::NodeProto *N = node("Conv", In, {Y});
    ints(N, "kernel_shape", {WD[1], WD[2]});
    ints(N, "strides", {Op.getInt(attr::StrideH), Op.getInt(attr::StrideW)});
    ints(N, "dilations",
         {Op.getInt(attr::DilationH, 1), Op.getInt(attr::DilationW, 1)});
    ints(N, "pads", pads(Op, X, G.tensor(Out), WD[1], WD[2]));
    // A grouped CONV_2D's filter has C / groups input channels.
    integer(N, "group", Depthwise ? X.Shape[3] : X.Shape[3] / W.Shape[3]);
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
    std::string Xq = name(Op.input(0));
    std::string Xf;
    if (G.tensor(Op.input(0)).rank() != 2) {
      // TensorFlow Lite flattens the operand to [batches, depth].
      int64_t Depth = W.Shape[1];
      std::string Shape = fresh("shape");
      int64_t Dims[2] = {-1, Depth};
      initializer(Shape, pb::TensorProto_DataType_INT64, {2}, Dims, 16);
      // A feature map is flattened in TensorFlow Lite's (NHWC) order.
      if (G.tensor(Op.input(0)).rank() == 4 &&
          !sameOrder(G.tensor(Op.input(0)).Shape))
        Xq = passThrough(Xq, Op.input(0), [&](std::string F) {
          std::string R = fresh("transposed");
          ints(node("Transpose", {F}, {R}), "perm", {0, 2, 3, 1});
          return R;
        });
      std::string Flat = passThrough(Xq, Op.input(0), [&](std::string F) {
        std::string R = fresh("flat");
        node("Reshape", {F, Shape}, {R});
        return R;
      });
      const ir::Tensor &X = G.tensor(Op.input(0));
      auto [S, Z] = params(*X.Quant, X.Type);
      Xf = fresh("deq");
      node("DequantizeLinear", {Flat, S, Z}, {Xf});
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
  if (Type == "RESHAPE") {
    const ir::Tensor &X = G.tensor(Op.input(0));
    const ir::Tensor &Y = G.tensor(Out);
    std::string Cur = name(Op.input(0));
    auto Transpose = [&](std::vector<int64_t> Perm) {
      Cur = passThrough(Cur, Op.input(0), [&](std::string F) {
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
    Cur = passThrough(Cur, Op.input(0), [&](std::string F) {
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
  if (Type == "QUANTIZE" && G.tensor(Op.input(0)).Quant) {
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
  GP = M.mutable_graph();
  GP->set_name(G.Name.empty() ? "main" : G.Name);
  auto Declare = [&](pb::ValueInfoProto *V, int32_t T) -> llvm::Error {
    const ir::Tensor &X = G.tensor(T);
    if (!X.Quant || X.Quant->isPerChannel())
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
    if (llvm::Error E = Declare(GP->add_input(), T))
      return std::move(E);
  for (size_t I = 0; I < G.Operators.size(); ++I)
    if (llvm::Error E = write(G.Operators[I]))
      return makeError(
          llvm::formatv("operator {0} {1}", I, llvm::toString(std::move(E))));
  for (int32_t T : G.Outputs)
    if (llvm::Error E = Declare(GP->add_output(), T))
      return std::move(E);
  std::string Bytes;
  if (!M.SerializeToString(&Bytes))
    return makeError("the model does not serialize");
  return Bytes;
}

} // namespace

llvm::Expected<std::string> exportQdq(const ir::Graph &G) {
  return Exporter(G).run();
}

} // namespace onnxexport
} // namespace accelgen
