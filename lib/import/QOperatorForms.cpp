//===- QOperatorForms.cpp - ONNX QOperator nodes in the QDQ form ----------===//
#include "import/QOperatorForms.h"

#include "import/ONNXImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <onnx/onnx_pb.h>

#include <cstring>

namespace pb = ::onnx;

namespace accelgen {
namespace onnximport {

namespace {

using llvm::Error;
using llvm::formatv;
using llvm::StringRef;

Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

/// Along which axis the second quantized operand may be quantized per
/// channel: none; 0 (QLinearConv's output channels); its last (the columns
/// of QLinearMatMul's b); QGemm's N (0 when transB, else 1).
enum class ChannelAxis { None, Zero, Last, GemmB };

/// One QOperator node: its float operator between DequantizeLinear of
/// each quantized operand and QuantizeLinear of the result.
struct QOperatorForm {
  llvm::StringLiteral Op;
  /// ONNX Runtime's com.microsoft domain, else ONNX's own.
  bool Microsoft;
  llvm::StringLiteral FloatOp;
  /// Inputs where a (value, scale, zero point) triple starts; with
  /// Variadic, triples from the first to the end of the inputs.
  std::vector<int> Values;
  bool Variadic;
  /// The input of the result's scale (its zero point follows); a form with
  /// OptionalResult gives a float result when it is omitted.
  int Result;
  bool OptionalResult;
  /// The input of an int32 bias dequantized by the product of the first
  /// two operands' scales (becoming the float operator's input 2), or -1.
  int Bias;
  ChannelAxis Axis;
  /// An attribute of the node that is not the float operator's, which the
  /// reader takes only at its default (or, for QLinearSoftmax's opset,
  /// checks against the model's).
  llvm::StringLiteral Own;
};

// clang-format off
const QOperatorForm Forms[] = {
  // Op, com.microsoft, float operator, value triples, variadic, result,
  // optional result, bias, channel axis, own attribute.
  {"QLinearConv", false, "Conv", {0, 3}, false, 6, false, 8, ChannelAxis::Zero, ""},
  {"QLinearMatMul", false, "MatMul", {0, 3}, false, 6, false, -1, ChannelAxis::Last, ""},
  {"QGemm", true, "Gemm", {0, 3}, false, 7, true, 6, ChannelAxis::GemmB, ""},
  {"QLinearAdd", true, "Add", {0, 3}, false, 6, false, -1, ChannelAxis::None, ""},
  {"QLinearMul", true, "Mul", {0, 3}, false, 6, false, -1, ChannelAxis::None, ""},
  {"QLinearAveragePool", true, "AveragePool", {0}, false, 3, false, -1, ChannelAxis::None, "channels_last"},
  {"QLinearGlobalAveragePool", true, "GlobalAveragePool", {0}, false, 3, false, -1, ChannelAxis::None, "channels_last"},
  {"QLinearConcat", true, "Concat", {2}, true, 0, false, -1, ChannelAxis::None, ""},
  {"QLinearSigmoid", true, "Sigmoid", {0}, false, 3, false, -1, ChannelAxis::None, ""},
  {"QLinearLeakyRelu", true, "LeakyRelu", {0}, false, 3, false, -1, ChannelAxis::None, ""},
  {"QLinearSoftmax", true, "Softmax", {0}, false, 3, false, -1, ChannelAxis::None, "opset"},
};
// clang-format on

const QOperatorForm *formOf(StringRef Op, StringRef Domain) {
  bool Microsoft = Domain == "com.microsoft";
  if (!Microsoft && !Domain.empty() && Domain != "ai.onnx")
    return nullptr;
  for (const QOperatorForm &F : Forms)
    if (F.Op == Op && F.Microsoft == Microsoft)
      return &F;
  return nullptr;
}

const pb::AttributeProto *attribute(const pb::NodeProto &N, StringRef Name) {
  for (const pb::AttributeProto &A : N.attribute())
    if (A.name() == Name)
      return &A;
  return nullptr;
}

class Expander {
public:
  Expander(pb::GraphProto &G, int64_t Opset) : G(G), Opset(Opset) {}
  Error run();

private:
  pb::GraphProto &G;
  int64_t Opset;
  /// Constants by name: initializers and Constant nodes' tensors.
  llvm::StringMap<const pb::TensorProto *> Constants;
  llvm::StringSet<> Names;
  std::vector<pb::NodeProto> Out;

  std::string fresh(const std::string &Base) {
    std::string Name = Base;
    for (unsigned I = 1; Names.count(Name); ++I)
      Name = Base + "#" + std::to_string(I);
    Names.insert(Name);
    return Name;
  }
  pb::NodeProto &add(StringRef Op, std::vector<std::string> In,
                     std::string Output, StringRef Name) {
    Out.emplace_back();
    pb::NodeProto &N = Out.back();
    N.set_op_type(Op.str());
    N.set_name(Name.str());
    for (std::string &I : In)
      N.add_input(std::move(I));
    N.add_output(std::move(Output));
    return N;
  }
  /// The float values of constant \p Name, or an error.
  llvm::Expected<std::vector<float>> floats(const std::string &Name);
  Error expand(const pb::NodeProto &N, const QOperatorForm &F);
};

llvm::Expected<std::vector<float>> Expander::floats(const std::string &Name) {
  auto It = Constants.find(Name);
  if (It == Constants.end())
    return makeError(formatv("'{0}' must be a constant", Name));
  llvm::Expected<TensorData> T = readTensor(*It->second);
  if (!T)
    return makeError(formatv("'{0}': {1}", Name, toString(T.takeError())));
  if (T->Type != ir::DType::F32)
    return makeError(formatv("'{0}' must hold floats", Name));
  std::vector<float> V(T->Data.size() / 4);
  if (!V.empty())
    std::memcpy(V.data(), T->Data.data(), T->Data.size());
  return V;
}

Error Expander::expand(const pb::NodeProto &N, const QOperatorForm &F) {
  auto Input = [&](int I) -> std::string {
    return I < N.input_size() ? N.input(I) : std::string();
  };
  if (N.output_size() != 1)
    return makeError(
        formatv("{0} has one output, not {1}", F.Op, N.output_size()));
  // The triples read.
  std::vector<int> Starts = F.Values;
  if (F.Variadic) {
    if ((N.input_size() - F.Values[0]) % 3 != 0 ||
        N.input_size() <= F.Values[0])
      return makeError(formatv("{0} takes the result's scale and zero "
                               "point, then (value, scale, zero point) "
                               "triples; it has {1} inputs",
                               F.Op, N.input_size()));
    for (int I = F.Values[0] + 3; I < N.input_size(); I += 3)
      Starts.push_back(I);
  }
  int Needed = std::max(Starts.back() + 2, F.OptionalResult ? 0 : F.Result + 2);
  if (N.input_size() < Needed)
    return makeError(formatv("{0} needs {1} inputs, it has {2}", F.Op, Needed,
                             N.input_size()));
  std::string YScale = Input(F.Result), YZero = Input(F.Result + 1);
  bool FloatResult = F.OptionalResult && YScale.empty();
  if (!FloatResult && (YScale.empty() || YZero.empty()))
    return makeError("the result's scale and zero point must both be given "
                     "(the zero point gives the result's type)");
  // The node's own attribute.
  const pb::AttributeProto *Own = F.Own.empty() ? nullptr : attribute(N, F.Own);
  if (F.Own == "channels_last" && Own && Own->i() != 0)
    return makeError("channels_last = 1 (an NHWC operand) is not supported");
  if (F.Own == "opset") {
    if (!Own)
      return makeError("the attribute opset is missing");
    // Softmax before opset 13 flattens to 2-D at its axis; from 13 on it
    // works along the axis: the same for the last axis only.
    const pb::AttributeProto *Axis = attribute(N, "axis");
    int64_t A = Axis ? Axis->i() : -1;
    if (A != -1 && (Own->i() >= 13) != (Opset >= 13))
      return makeError(formatv("softmax of opset {0} semantics along axis "
                               "{1} differs from the model's opset {2}",
                               Own->i(), A, Opset));
  }
  const std::string Base = N.name().empty() ? N.output(0) : N.name();
  std::vector<std::string> FloatIn;
  for (size_t K = 0; K < Starts.size(); ++K) {
    int S = Starts[K];
    std::string X = Input(S), Scale = Input(S + 1), Zero = Input(S + 2);
    if (X.empty() || Scale.empty())
      return makeError(formatv("input {0} and its scale (input {1}) must be "
                               "given",
                               S, S + 1));
    std::vector<std::string> In = {X, Scale};
    if (!Zero.empty())
      In.push_back(Zero);
    std::string Deq = fresh(X + "#dequantized");
    pb::NodeProto &D = add("DequantizeLinear", In, Deq, Deq);
    // Per-channel parameters of the second operand.
    auto C = Constants.find(Scale);
    int64_t Length = 1;
    if (C != Constants.end())
      for (int64_t Dim : C->second->dims())
        Length *= Dim;
    if (K == 1 && Length != 1 && F.Axis != ChannelAxis::None) {
      int64_t Axis = 0;
      if (F.Axis == ChannelAxis::Last)
        Axis = -1;
      if (F.Axis == ChannelAxis::GemmB) {
        const pb::AttributeProto *T = attribute(N, "transB");
        Axis = T && T->i() ? 0 : 1;
      }
      pb::AttributeProto *A = D.add_attribute();
      A->set_name("axis");
      A->set_type(pb::AttributeProto_AttributeType_INT);
      A->set_i(Axis);
    }
    FloatIn.push_back(Deq);
  }
  // The bias, dequantized by the product of the operands' scales.
  std::string B = F.Bias >= 0 ? Input(F.Bias) : std::string();
  if (!B.empty()) {
    llvm::Expected<std::vector<float>> S0 = floats(Input(Starts[0] + 1));
    if (!S0)
      return makeError(formatv("the bias needs constant scales: {0}",
                               toString(S0.takeError())));
    llvm::Expected<std::vector<float>> S1 = floats(Input(Starts[1] + 1));
    if (!S1)
      return makeError(formatv("the bias needs constant scales: {0}",
                               toString(S1.takeError())));
    if (S0->size() != 1 || S1->empty())
      return makeError("the first operand's scale must be one value, the "
                       "second's one or more");
    std::vector<float> Product;
    for (float S : *S1)
      Product.push_back((*S0)[0] * S);
    pb::TensorProto *T = G.add_initializer();
    T->set_name(fresh(B + "#scale"));
    T->set_data_type(pb::TensorProto_DataType_FLOAT);
    if (Product.size() > 1)
      T->add_dims(static_cast<int64_t>(Product.size()));
    T->set_raw_data(Product.data(), 4 * Product.size());
    Constants[T->name()] = T;
    std::string Deq = fresh(B + "#dequantized");
    pb::NodeProto &D = add("DequantizeLinear", {B, T->name()}, Deq, Deq);
    if (Product.size() > 1) {
      pb::AttributeProto *A = D.add_attribute();
      A->set_name("axis");
      A->set_type(pb::AttributeProto_AttributeType_INT);
      A->set_i(0);
    }
    FloatIn.push_back(Deq);
  }
  std::string Result =
      FloatResult ? N.output(0) : fresh(N.output(0) + "#float");
  pb::NodeProto &Op = add(F.FloatOp, FloatIn, Result, Base);
  for (const pb::AttributeProto &A : N.attribute())
    if (A.name() != F.Own)
      *Op.add_attribute() = A;
  if (!FloatResult)
    add("QuantizeLinear", {Result, YScale, YZero}, N.output(0),
        fresh(Base + "#quantize"));
  return Error::success();
}

Error Expander::run() {
  for (const pb::TensorProto &T : G.initializer()) {
    Constants[T.name()] = &T;
    Names.insert(T.name());
  }
  for (const pb::ValueInfoProto &V : G.input())
    Names.insert(V.name());
  for (const pb::NodeProto &N : G.node()) {
    Names.insert(N.name());
    for (const std::string &O : N.output())
      Names.insert(O);
    if (N.op_type() == "Constant" && N.output_size() == 1)
      if (const pb::AttributeProto *A = attribute(N, "value"))
        if (A->has_t())
          Constants[N.output(0)] = &A->t();
  }
  for (int I = 0; I < G.node_size(); ++I) {
    const pb::NodeProto &N = G.node(I);
    const QOperatorForm *F = formOf(N.op_type(), N.domain());
    if (!F) {
      Out.push_back(N);
      continue;
    }
    if (Error E = expand(N, *F))
      return makeError(formatv("node {0} '{1}' ({2}): {3}", I, N.name(),
                               N.op_type(), toString(std::move(E))));
  }
  // The initializers added above stay where Constants points: the nodes
  // are replaced only now.
  G.clear_node();
  for (pb::NodeProto &N : Out)
    *G.add_node() = std::move(N);
  return Error::success();
}

} // namespace

bool isQOperator(StringRef Op, StringRef Domain) {
  return formOf(Op, Domain) != nullptr;
}

Error expandQOperators(pb::GraphProto &G, int64_t Opset) {
  return Expander(G, Opset).run();
}

} // namespace onnximport
} // namespace accelgen
