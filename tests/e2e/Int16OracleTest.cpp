//===- Int16OracleTest.cpp - int16 layers against TensorFlow Lite Micro ---===//
//
// int16 activations (16x8) against the bit-exact truth, TensorFlow Lite
// Micro's reference kernels (the shared tflm_runner), on every target:
//
//   - every layer of the shared seanet-int16 models (a real audio model's
//     CONV_2D, TRANSPOSE_CONV, ADD, SUB, LEAKY_RELU, PAD, STRIDED_SLICE and
//     QUANTIZE), merged into one model whose graph inputs and outputs are
//     all the layers', so each target builds one program;
//   - pseudo-random single layers of every int16 kernel (shapes, strides,
//     paddings, dilations, activations, per-channel and per-tensor weights,
//     with and without bias, broadcasts, scales), many in one model.
//
// The oracle writes the inputs (its seeded generator) and the expected
// outputs; each target runs the same inputs and must write the same bytes,
// output by output. Targets: ref, cpu (generic and the widest --cpu this
// processor runs), every version of every target with a functional model,
// cmsis-nn on this machine and, where installed, on Cortex-M4 and M55 under
// QEMU.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "OracleSweep.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// Appends \p From's main graph to \p Into: its tensors (renamed with
/// \p Prefix), operators, inputs and outputs.
void appendGraph(ir::Graph &Into, const ir::Graph &From,
                 const std::string &Prefix) {
  const int32_t Base = static_cast<int32_t>(Into.Tensors.size());
  auto Map = [&](int32_t T) { return T < 0 ? T : T + Base; };
  for (ir::Tensor T : From.Tensors) {
    T.Name = Prefix + T.Name;
    Into.Tensors.push_back(std::move(T));
  }
  for (ir::Operator Op : From.Operators) {
    for (int32_t &T : Op.Inputs)
      T = Map(T);
    for (int32_t &T : Op.Outputs)
      T = Map(T);
    Into.Operators.push_back(std::move(Op));
  }
  for (int32_t T : From.Inputs)
    Into.Inputs.push_back(Map(T));
  for (int32_t T : From.Outputs)
    Into.Outputs.push_back(Map(T));
}

/// Pseudo-random int16 layers, each reading graph inputs (or constants)
/// and writing a graph output.
class Sweep : public Picker {
public:
  explicit Sweep(uint32_t Seed) : Picker(Seed) {}
  float scale(float Base) { return Base * (0.5f + 0.05f * float(pick(0, 30))); }

  std::string name() { return "t" + std::to_string(B.G.Tensors.size()); }
  int32_t input(ir::DType T, std::vector<int32_t> Shape, float Scale,
                int64_t Zp = 0) {
    const int32_t I = B.tensor(name(), std::move(Shape),
                               ir::perTensor(Scale, Zp), T);
    Inputs.push_back(I);
    return I;
  }
  int32_t output(ir::DType T, std::vector<int32_t> Shape, float Scale,
                 int64_t Zp = 0) {
    const int32_t O = B.tensor("out" + std::to_string(Outputs.size()),
                               std::move(Shape), ir::perTensor(Scale, Zp), T);
    Outputs.push_back(O);
    return O;
  }
  /// int8 weights, per channel along axis 0 or per tensor.
  int32_t weights(std::vector<int32_t> Shape, std::vector<float> &Scales) {
    int64_t N = 1;
    for (int32_t D : Shape)
      N *= D;
    std::vector<int8_t> W(static_cast<size_t>(N));
    for (int8_t &V : W)
      V = int8_t(pick(-127, 127));
    if (coin()) {
      Scales.assign(1, Scales.front());
      return B.constant(name(), std::move(Shape),
                        ir::perTensor(Scales.front(), 0), ir::DType::I8, W);
    }
    return B.constant(name(), std::move(Shape), ir::perChannel(Scales, 0),
                      ir::DType::I8, W);
  }
  /// A bias of one value per channel, int64 (16x8) or int32 (int8), or
  /// none (-1) unless \p Required.
  int32_t bias(ir::DType T, const std::vector<float> &Scales, int32_t Units,
               bool Required = false) {
    if (!Required && !coin())
      return -1;
    std::vector<float> S(static_cast<size_t>(Units));
    for (int32_t C = 0; C < Units; ++C)
      S[size_t(C)] = Scales[Scales.size() == 1 ? 0 : size_t(C)];
    if (T == ir::DType::I64) {
      std::vector<int64_t> V(static_cast<size_t>(Units));
      for (int64_t &X : V)
        X = pick(-400000, 400000);
      return B.constant(name(), {Units}, ir::perChannel(S, 0), T, V);
    }
    std::vector<int32_t> V(static_cast<size_t>(Units));
    for (int32_t &X : V)
      X = pick(-3000, 3000);
    return B.constant(name(), {Units}, ir::perChannel(S, 0), T, V);
  }
  std::string activation() {
    static const char *const Names[] = {"NONE", "RELU", "RELU6"};
    return Names[pick(0, 2)];
  }

  /// A convolution's window over an IH x IW input: one-tap rows half the
  /// time (audio models' filters), dilation along the rows only.
  struct Window {
    int32_t KH, KW, SH, SW, Dil, OH, OW;
    bool Same;
  };
  Window window(int32_t IH, int32_t IW, int32_t MaxKH) {
    Window W;
    W.KH = coin() ? 1 : pick(2, MaxKH);
    W.KW = pick(1, 5);
    W.SH = pick(1, 2);
    W.SW = pick(1, 2);
    W.Dil = pick(1, 2);
    W.Same = coin() || (W.KH - 1) * W.Dil + 1 > IH || W.KW > IW;
    W.OH = W.Same ? (IH + W.SH - 1) / W.SH
                  : (IH - (W.KH - 1) * W.Dil - 1) / W.SH + 1;
    W.OW = W.Same ? (IW + W.SW - 1) / W.SW : (IW - W.KW) / W.SW + 1;
    return W;
  }
  std::map<std::string, ir::AttrValue> attrs(const Window &W) {
    return {{"padding", std::string(W.Same ? "SAME" : "VALID")},
            {"stride_h", int64_t(W.SH)},
            {"stride_w", int64_t(W.SW)},
            {"dilation_h", int64_t(W.Dil)},
            {"dilation_w", int64_t(1)},
            {"fused_activation", activation()}};
  }
  static std::vector<float> biasScales(float InScale,
                                       const std::vector<float> &WScales) {
    std::vector<float> S;
    for (float W : WScales)
      S.push_back(InScale * W);
    return S;
  }

  void convolution();
  void depthwiseConvolution();
  void fullyConnected();
  void pool();
  void concatenation();
  void transpose();
  void transposeConvolution(ir::DType T);
  void elementwise();
  void leakyRelu();
  void pad();
  void quantize();
  void stridedSlice();
  void relu();
  void sigmoid();
  struct Reduction {
    std::vector<int32_t> Shape, Axes, Out;
    bool Keep = false;
  };
  Reduction reduction();
  void mean(bool Sum);
  void reduceMinMax(bool Float, const char *Op);
  void dequantize();
  void softmax(bool FromInt8);
  void heavyConvolution();
  void svdfSteps(bool Quantized, int32_t Steps);
  void lstm(bool Hot = false);

  /// The layers built so far as a model (schema version 3) whose inputs
  /// and outputs are theirs.
  ir::Model model() { return modelOf(B, Inputs, Outputs); }

  ir::GraphBuilder B;
  std::vector<int32_t> Inputs, Outputs;
};

void Sweep::convolution() {
  const int32_t IH = pick(1, 8), IW = pick(1, 9), IC = pick(1, 6),
                OC = pick(1, 8);
  const Window Win = window(IH, IW, 4);
  const float InScale = scale(1.0f / 4096), OutScale = scale(1.0f / 2048);
  const int32_t In = input(ir::DType::I16, {1, IH, IW, IC}, InScale);
  std::vector<float> WScales(static_cast<size_t>(OC));
  for (float &W : WScales)
    W = scale(OutScale / InScale / float(Win.KH * Win.KW * IC) / 64);
  const int32_t W = weights({OC, Win.KH, Win.KW, IC}, WScales);
  const int32_t Bias = bias(ir::DType::I64, biasScales(InScale, WScales), OC);
  B.op("CONV_2D", {In, W, Bias},
       {output(ir::DType::I16, {1, Win.OH, Win.OW, OC}, OutScale)},
       attrs(Win));
}

void Sweep::depthwiseConvolution() {
  const int32_t IH = pick(1, 8), IW = pick(1, 9), IC = pick(1, 5),
                M = pick(1, 3), OC = IC * M;
  const Window Win = window(IH, IW, 3);
  const float InScale = scale(1.0f / 4096), OutScale = scale(1.0f / 2048);
  const int32_t In = input(ir::DType::I16, {1, IH, IW, IC}, InScale);
  std::vector<float> WScales(static_cast<size_t>(OC));
  for (float &W : WScales)
    W = scale(OutScale / InScale / float(Win.KH * Win.KW) / 64);
  // Depthwise weights are per channel along axis 3.
  std::vector<int8_t> Values(static_cast<size_t>(Win.KH * Win.KW * OC));
  for (int8_t &V : Values)
    V = int8_t(pick(-127, 127));
  const bool PerTensor = coin();
  if (PerTensor)
    WScales.assign(1, WScales.front());
  const int32_t W = B.constant(
      name(), {1, Win.KH, Win.KW, OC},
      PerTensor ? ir::perTensor(WScales.front(), 0) : ir::perChannel(WScales, 3),
      ir::DType::I8, Values);
  // TensorFlow Lite Micro's 16x8 depthwise kernel checks the bias's size
  // unconditionally, so without one the oracle aborts.
  const int32_t Bias = bias(ir::DType::I64, biasScales(InScale, WScales), OC,
                            /*Required=*/true);
  auto A = attrs(Win);
  A["depth_multiplier"] = int64_t(M);
  B.op("DEPTHWISE_CONV_2D", {In, W, Bias},
       {output(ir::DType::I16, {1, Win.OH, Win.OW, OC}, OutScale)}, A);
}

void Sweep::fullyConnected() {
  const int32_t Batch = pick(1, 3), Depth = pick(1, 40), Units = pick(1, 12);
  const float InScale = scale(1.0f / 4096), OutScale = scale(1.0f / 2048);
  const int32_t In = input(ir::DType::I16, {Batch, Depth}, InScale);
  std::vector<float> WScales(static_cast<size_t>(Units));
  for (float &W : WScales)
    W = scale(OutScale / InScale / float(Depth) / 64);
  const int32_t W = weights({Units, Depth}, WScales);
  const int32_t Bias =
      bias(ir::DType::I64, biasScales(InScale, WScales), Units);
  B.op("FULLY_CONNECTED", {In, W, Bias},
       {output(ir::DType::I16, {Batch, Units}, OutScale)},
       {{"fused_activation", activation()}});
}

void Sweep::pool() {
  const bool Max = coin();
  const int32_t IH = pick(1, 8), IW = pick(1, 8), C = pick(1, 8);
  const int32_t KH = pick(1, 3), KW = pick(1, 3), S = pick(1, 2);
  const bool Same = coin() || KH > IH || KW > IW;
  const int32_t OH = Same ? (IH + S - 1) / S : (IH - KH) / S + 1;
  const int32_t OW = Same ? (IW + S - 1) / S : (IW - KW) / S + 1;
  const float Scale = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, {1, IH, IW, C}, Scale);
  B.op(Max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", {In},
       {output(ir::DType::I16, {1, OH, OW, C}, Scale)},
       {{"filter_h", int64_t(KH)},
        {"filter_w", int64_t(KW)},
        {"stride_h", int64_t(S)},
        {"stride_w", int64_t(S)},
        {"padding", std::string(Same ? "SAME" : "VALID")},
        {"fused_activation", activation()}});
}

void Sweep::concatenation() {
  const int32_t Axis = pick(1, 3), N = pick(2, 3);
  std::vector<int32_t> Shape = {1, pick(1, 3), pick(1, 4), pick(1, 4)};
  const float S = scale(1.0f / 4096);
  std::vector<int32_t> Ins;
  std::vector<int32_t> Out = Shape;
  Out[size_t(Axis)] = 0;
  for (int32_t I = 0; I < N; ++I) {
    std::vector<int32_t> Part = Shape;
    Part[size_t(Axis)] = pick(1, 3);
    Out[size_t(Axis)] += Part[size_t(Axis)];
    Ins.push_back(input(ir::DType::I16, Part, S));
  }
  B.op("CONCATENATION", Ins, {output(ir::DType::I16, Out, S)},
       {{"axis", int64_t(Axis)}, {"fused_activation", std::string("NONE")}});
}

void Sweep::transpose() {
  const std::vector<int32_t> Shape = {pick(1, 2), pick(1, 4), pick(1, 5),
                                      pick(1, 3)};
  std::vector<int32_t> Perm = {0, 1, 2, 3};
  std::shuffle(Perm.begin() + 1, Perm.end(), Gen);
  std::vector<int32_t> Out(4);
  for (size_t D = 0; D < 4; ++D)
    Out[D] = Shape[size_t(Perm[D])];
  const float S = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, S);
  const int32_t P =
      B.constant(name(), {4}, std::nullopt, ir::DType::I32, Perm);
  B.op("TRANSPOSE", {In, P}, {output(ir::DType::I16, Out, S)});
}

void Sweep::transposeConvolution(ir::DType T) {
  const bool Wide = T == ir::DType::I16;
  const int32_t IH = pick(1, 5), IW = pick(1, 6), IC = pick(1, 5),
                OC = pick(1, 6);
  const int32_t KH = pick(1, 3), KW = pick(1, 4), SH = pick(1, 2),
                SW = pick(1, 2);
  const bool Same = coin();
  // The output sizes whose forward convolution gives the input's.
  const int32_t OH = Same ? IH * SH : (IH - 1) * SH + KH;
  const int32_t OW = Same ? IW * SW : (IW - 1) * SW + KW;
  const float InScale = Wide ? scale(1.0f / 4096) : scale(0.05f);
  const float OutScale = Wide ? scale(1.0f / 2048) : scale(0.1f);
  const int64_t InZp = Wide ? 0 : pick(-5, 5), OutZp = Wide ? 0 : pick(-5, 5);
  const int32_t Shape =
      B.constant(name(), {4}, std::nullopt, ir::DType::I32,
                 std::vector<int32_t>{1, OH, OW, OC});
  std::vector<float> WScales(static_cast<size_t>(OC));
  for (float &W : WScales)
    W = scale(OutScale / InScale / float(KH * KW * IC) / (Wide ? 64 : 0.5f));
  const int32_t W = weights({OC, KH, KW, IC}, WScales);
  const int32_t In = input(T, {1, IH, IW, IC}, InScale, InZp);
  const int32_t Bias = bias(Wide ? ir::DType::I64 : ir::DType::I32,
                            biasScales(InScale, WScales), OC);
  std::vector<int32_t> Operands = {Shape, W, In};
  if (Bias >= 0)
    Operands.push_back(Bias);
  B.op("TRANSPOSE_CONV", Operands, {output(T, {1, OH, OW, OC}, OutScale, OutZp)},
       {{"padding", std::string(Same ? "SAME" : "VALID")},
        {"stride_h", int64_t(SH)},
        {"stride_w", int64_t(SW)},
        {"fused_activation", activation()}});
}

void Sweep::elementwise() {
  static const char *const Ops[] = {"ADD", "SUB", "MUL"};
  const std::string Op = Ops[pick(0, 2)];
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 5), pick(1, 8)};
  // The second operand is broadcast along the leading dimensions at times.
  std::vector<int32_t> Second = Shape;
  if (coin())
    Second = {Shape[3]};
  const float S1 = scale(1.0f / 4096), S2 = scale(1.0f / 4096);
  const int32_t A = input(ir::DType::I16, Shape, S1);
  const int32_t C = input(ir::DType::I16, Second, S2);
  const float OutScale = Op == "MUL" ? scale(8.0f / 4096) : scale(2.0f / 4096);
  B.op(Op, {A, C}, {output(ir::DType::I16, Shape, OutScale)},
       {{"fused_activation", activation()}});
}

void Sweep::leakyRelu() {
  static const double Alphas[] = {0.1, 0.2, 0.3, 0.5, 1.5};
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 6), pick(1, 8)};
  const float InScale = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, InScale);
  B.op("LEAKY_RELU", {In},
       {output(ir::DType::I16, Shape, coin() ? InScale : scale(1.0f / 2048))},
       {{"alpha", Alphas[pick(0, 4)]}});
}

void Sweep::pad() {
  std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 6), pick(1, 5)};
  std::vector<int32_t> Pads(8, 0), OutShape = Shape;
  for (int32_t D = 1; D < 4; ++D) {
    Pads[size_t(2 * D)] = pick(0, 2);
    Pads[size_t(2 * D + 1)] = pick(0, 2);
    OutShape[size_t(D)] += Pads[size_t(2 * D)] + Pads[size_t(2 * D + 1)];
  }
  const float S = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, S);
  const int32_t P =
      B.constant(name(), {4, 2}, std::nullopt, ir::DType::I32, Pads);
  B.op("PAD", {In, P}, {output(ir::DType::I16, OutShape, S)});
}

void Sweep::quantize() {
  using ir::DType;
  static const DType Pairs[][2] = {
      {DType::I8, DType::I16},  {DType::I16, DType::I8},
      {DType::I16, DType::I16}, {DType::I32, DType::I8},
      {DType::I32, DType::I16}, {DType::F32, DType::I16},
      {DType::I8, DType::I32},  {DType::I16, DType::I32}};
  const auto &P = Pairs[pick(0, 7)];
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 8)};
  const float InScale = P[0] == DType::I8    ? scale(0.05f)
                        : P[0] == DType::I16 ? scale(1.0f / 4096)
                        : P[0] == DType::F32 ? 0.0f
                                             : scale(1.0f / (1 << 24));
  // The float input is uniform on [-1, 1): int16 steps of 2^-14 or less.
  const float OutScale = P[1] == DType::I8    ? scale(0.02f)
                         : P[1] == DType::I32 ? scale(1.0f / (1 << 20))
                         : P[0] == DType::F32 ? scale(1.0f / 16384)
                                              : scale(1.0f / 2048);
  if (P[0] == DType::F32) {
    const int32_t In = B.tensor(name(), Shape, std::nullopt, DType::F32);
    Inputs.push_back(In);
    B.op("QUANTIZE", {In}, {output(P[1], Shape, OutScale)});
    return;
  }
  const int32_t In = input(P[0], Shape, InScale,
                           P[0] == DType::I8 ? pick(-10, 10) : 0);
  B.op("QUANTIZE", {In},
       {output(P[1], Shape, OutScale, P[1] == DType::I8 ? pick(-10, 10) : 0)});
}

void Sweep::stridedSlice() {
  const std::vector<int32_t> Shape = {1, pick(2, 6), pick(2, 8), pick(1, 4)};
  std::vector<int32_t> Begin(4, 0), End = Shape, Strides(4, 1), Out = Shape;
  for (int32_t D = 1; D < 3; ++D) {
    Begin[size_t(D)] = pick(0, Shape[size_t(D)] - 1);
    End[size_t(D)] = pick(Begin[size_t(D)] + 1, Shape[size_t(D)]);
    Strides[size_t(D)] = pick(1, 2);
    Out[size_t(D)] = (End[size_t(D)] - Begin[size_t(D)] +
                      Strides[size_t(D)] - 1) /
                     Strides[size_t(D)];
  }
  const float S = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, S);
  const int32_t BeginT =
      B.constant(name(), {4}, std::nullopt, ir::DType::I32, Begin);
  const int32_t EndT =
      B.constant(name(), {4}, std::nullopt, ir::DType::I32, End);
  const int32_t StridesT =
      B.constant(name(), {4}, std::nullopt, ir::DType::I32, Strides);
  B.op("STRIDED_SLICE", {In, BeginT, EndT, StridesT},
       {output(ir::DType::I16, Out, S)});
}

void Sweep::relu() {
  const bool Six = coin();
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 6), pick(1, 8)};
  // RELU6 clamps at 6: input scales whose range reaches past it.
  const float InScale = Six ? scale(1.0f / 2048) : scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, InScale);
  B.op(Six ? "RELU6" : "RELU", {In},
       {output(ir::DType::I16, Shape, coin() ? InScale : scale(1.0f / 2048))});
}

/// LOGISTIC or TANH: the power-of-two input scales the kernels special-case
/// (2^-12, and 2^-11 for TANH) or any other; the output scale is 2^-15.
void Sweep::sigmoid() {
  const bool Tanh = coin();
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 6), pick(1, 8)};
  float InScale;
  switch (pick(0, 3)) {
  case 0:
    InScale = 1.0f / 4096;
    break;
  case 1:
    InScale = Tanh ? 1.0f / 2048 : 1.0f / 1024;
    break;
  case 2:
    InScale = scale(1.0f / 512);
    break;
  default:
    InScale = scale(1.0f / 8192);
  }
  const int32_t In = input(ir::DType::I16, Shape, InScale);
  B.op(Tanh ? "TANH" : "LOGISTIC", {In},
       {output(ir::DType::I16, Shape, 1.0f / 32768)});
}

/// A 4-D input reduced over its spatial axes (global pooling) or one axis,
/// with or without the kept dimensions.
Sweep::Reduction Sweep::reduction() {
  Reduction R;
  R.Shape = {1, pick(1, 5), pick(1, 6), pick(1, 6)};
  R.Axes = {1, 2};
  if (coin())
    R.Axes = {pick(1, 3)};
  R.Keep = coin();
  for (int32_t D = 0; D < 4; ++D) {
    const bool Reduced =
        std::find(R.Axes.begin(), R.Axes.end(), D) != R.Axes.end();
    if (!Reduced || R.Keep)
      R.Out.push_back(Reduced ? 1 : R.Shape[size_t(D)]);
  }
  return R;
}

/// MEAN (int16), or SUM (int16, int8 or float32).
void Sweep::mean(bool Sum) {
  const Reduction R = reduction();
  const std::vector<int32_t> &Shape = R.Shape, &Axes = R.Axes, &Out = R.Out;
  const bool Keep = R.Keep;
  const int32_t AxesT = B.constant(name(), {int32_t(Axes.size())},
                                   std::nullopt, ir::DType::I32, Axes);
  if (Sum) {
    // On an output scale the sums fit.
    int32_t Count = 1;
    for (int32_t A : Axes)
      Count *= Shape[size_t(A)];
    static const ir::DType Types[] = {ir::DType::I16, ir::DType::I8,
                                      ir::DType::F32};
    const ir::DType T = Types[pick(0, 2)];
    const float InScale = T == ir::DType::I16 ? scale(1.0f / 4096) : scale(0.05f);
    const int64_t Zp = T == ir::DType::I8 ? pick(-10, 10) : 0;
    const int32_t In = input(T, Shape, InScale, Zp);
    const int32_t O = output(T, Out, InScale * float(Count) / 4, Zp);
    if (T == ir::DType::F32) {
      B.G.Tensors[size_t(In)].Quant.reset();
      B.G.Tensors[size_t(O)].Quant.reset();
    }
    B.op("SUM", {In, AxesT}, {O}, {{"keep_dims", Keep}});
    return;
  }
  const float InScale = scale(1.0f / 4096);
  const int32_t In = input(ir::DType::I16, Shape, InScale);
  B.op("MEAN", {In, AxesT},
       {output(ir::DType::I16, Out, coin() ? InScale : scale(1.0f / 8192))},
       {{"keep_dims", Keep}});
}

/// REDUCE_MAX or REDUCE_MIN (\p Op) of int8 (one quantization in and out)
/// or float32.
void Sweep::reduceMinMax(bool Float, const char *Op) {
  const Reduction R = reduction();
  const std::vector<int32_t> &Shape = R.Shape, &Axes = R.Axes, &Out = R.Out;
  const bool Keep = R.Keep;
  const ir::DType T = Float ? ir::DType::F32 : ir::DType::I8;
  const float Scale = scale(0.05f);
  const int64_t Zp = Float ? 0 : pick(-10, 10);
  const int32_t In = input(T, Shape, Scale, Zp);
  const int32_t O = output(T, Out, Scale, Zp);
  if (Float) {
    B.G.Tensors[size_t(In)].Quant.reset();
    B.G.Tensors[size_t(O)].Quant.reset();
  }
  const int32_t AxesT = B.constant(name(), {int32_t(Axes.size())},
                                   std::nullopt, ir::DType::I32, Axes);
  B.op(Op, {In, AxesT}, {O}, {{"keep_dims", Keep}});
}

void Sweep::dequantize() {
  const std::vector<int32_t> Shape = {1, pick(1, 4), pick(1, 8)};
  const int32_t In = input(ir::DType::I16, Shape, scale(1.0f / 4096));
  const int32_t Out =
      B.tensor("out" + std::to_string(Outputs.size()), Shape, std::nullopt,
               ir::DType::F32);
  Outputs.push_back(Out);
  B.op("DEQUANTIZE", {In}, {Out});
}

/// int16 SOFTMAX, or int8 logits to int16 probabilities (scale 1/65536,
/// zero point -32768).
void Sweep::softmax(bool FromInt8) {
  static const double Betas[] = {1.0, 0.5, 2.0};
  const std::vector<int32_t> Shape = {1, pick(1, 3), pick(1, 40)};
  if (FromInt8) {
    const int32_t In = input(ir::DType::I8, Shape, scale(0.1f), pick(-20, 20));
    B.op("SOFTMAX", {In},
         {output(ir::DType::I16, Shape, 1.0f / 65536, -32768)},
         {{"beta", Betas[pick(0, 2)]}});
    return;
  }
  // Input ranges from about +-1 to +-16.
  const float InScale = coin() ? scale(1.0f / 16384) : scale(1.0f / 2048);
  const int32_t In = input(ir::DType::I16, Shape, InScale);
  B.op("SOFTMAX", {In}, {output(ir::DType::I16, Shape, 1.0f / 32768)},
       {{"beta", Betas[pick(0, 2)]}});
}

/// A 16x8 convolution whose weights can take an int32 sum of products out of
/// range (576 taps of magnitude 127: 2^31 is reached at 2^31 / 2^15 / 127 =
/// 516), which CMSIS-NN's s16 convolution sums in int32: target cmsis-nn
/// runs it on the reference kernel.
void Sweep::heavyConvolution() {
  const float InScale = 1.0f / 4096, OutScale = 1.0f / 2048;
  const int32_t In = input(ir::DType::I16, {1, 3, 3, 64}, InScale);
  std::vector<int8_t> W(2 * 3 * 3 * 64);
  for (int8_t &V : W)
    V = int8_t(coin() ? 127 : -127);
  const int32_t F = B.constant(name(), {2, 3, 3, 64}, ir::perTensor(1e-4f, 0),
                               ir::DType::I8, W);
  Window Win{3, 3, 1, 1, 1, 1, 1, false};
  B.op("CONV_2D", {In, F, -1},
       {output(ir::DType::I16, {1, 1, 1, 2}, OutScale)}, attrs(Win));
}

/// \p Steps SVDF operators sharing one state tensor, each with its own
/// input and output: one run of the model is that many steps, so the state
/// moves and the time weights see every column. int8 with int16 time
/// weights and state, or float32 (with a fused activation).
void Sweep::svdfSteps(bool Quantized, int32_t Steps) {
  const int32_t Batches = pick(1, 2), InputSize = pick(1, 12),
                Rank = pick(1, 2), Units = pick(1, 5), Memory = pick(2, 6);
  const int32_t Filters = Units * Rank;
  const ir::DType Act = Quantized ? ir::DType::I8 : ir::DType::F32;
  const ir::DType Wide = Quantized ? ir::DType::I16 : ir::DType::F32;
  auto Q = [&](float Scale, int64_t Zp) {
    return Quantized ? std::optional<ir::QuantParams>(ir::perTensor(Scale, Zp))
                     : std::nullopt;
  };
  const float InScale = scale(0.02f), FeatureScale = scale(0.01f),
              StateScale = scale(1.0f / 1024), TimeScale = scale(1.0f / 4096),
              OutScale = scale(0.05f);
  int32_t Feature, Time, Bias;
  if (Quantized) {
    std::vector<int8_t> F(static_cast<size_t>(Filters * InputSize));
    for (int8_t &V : F)
      V = int8_t(pick(-127, 127));
    std::vector<int16_t> T(static_cast<size_t>(Filters * Memory));
    for (int16_t &V : T)
      V = int16_t(pick(-20000, 20000));
    std::vector<int32_t> Bv(static_cast<size_t>(Units));
    for (int32_t &V : Bv)
      V = pick(-50000, 50000);
    Feature = B.constant(name(), {Filters, InputSize}, Q(FeatureScale, 0),
                         Act, F);
    Time = B.constant(name(), {Filters, Memory}, Q(TimeScale, 0), Wide, T);
    Bias = B.constant(name(), {Units}, Q(StateScale * TimeScale, 0),
                      ir::DType::I32, Bv);
  } else {
    auto Reals = [&](size_t N, float Range) {
      std::vector<float> V(N);
      for (float &X : V)
        X = Range * float(pick(-1000, 1000)) / 1000.0f;
      return V;
    };
    Feature = B.constant(name(), {Filters, InputSize}, std::nullopt, Act,
                         Reals(size_t(Filters * InputSize), 0.5f));
    Time = B.constant(name(), {Filters, Memory}, std::nullopt, Wide,
                      Reals(size_t(Filters * Memory), 0.5f));
    Bias = B.constant(name(), {Units}, std::nullopt, ir::DType::F32,
                      Reals(size_t(Units), 0.2f));
  }
  const int32_t State =
      B.tensor(name(), {Batches, Filters * Memory}, Q(StateScale, 0), Wide);
  B.G.Tensors[size_t(State)].IsVariable = true;
  static const char *const Activations[] = {"NONE", "RELU", "RELU6",
                                            "RELU_N1_TO_1"};
  for (int32_t S = 0; S < Steps; ++S) {
    const int32_t In =
        input(Act, {Batches, InputSize}, InScale, Quantized ? pick(-5, 5) : 0);
    if (!Quantized)
      B.G.Tensors[size_t(In)].Quant.reset();
    const int32_t Out = output(Act, {Batches, Units}, OutScale,
                               Quantized ? pick(-5, 5) : 0);
    if (!Quantized)
      B.G.Tensors[size_t(Out)].Quant.reset();
    // TensorFlow Lite Micro's SVDF needs the bias (its int8 Prepare reads
    // the bias's scale, its float step the data, unconditionally); the
    // kernel here takes a missing one as zeros (KernelParamsTest).
    B.op("SVDF", {In, Feature, Time, Bias, State}, {Out},
         {{"rank", int64_t(Rank)},
          {"fused_activation",
           std::string(Quantized ? "NONE" : Activations[pick(0, 3)])},
          {"asymmetric_quantize_inputs", false}});
  }
}

/// One 16x8 UNIDIRECTIONAL_SEQUENCE_LSTM over a short sequence: int16
/// input, hidden state and output, int8 weights (per tensor), int64 biases,
/// an int16 cell state of a power-of-two scale; batch or time major, with
/// and without a cell clip. Its hidden and cell state are variable tensors.
/// \p Hot: recurrent weights 16 times larger, whose products can leave
/// int16 (saturating the gates).
void Sweep::lstm(bool Hot) {
  const int32_t Batches = pick(1, 2), Steps = pick(1, 4),
                Features = pick(1, 10), Units = pick(1, 6);
  const bool TimeMajor = coin();
  // Inputs within +-8 (the gates' Q3.12 range), weights that keep the sums
  // there, the hidden state in (-1, 1), the cell state within +-2^(15 + e).
  const float InScale = scale(1.0f / 4096), HiddenScale = scale(1.0f / 32768);
  const float CellScale = std::ldexp(1.0f, -pick(9, 13));
  const int32_t Seq = TimeMajor ? Steps : Batches,
                Other = TimeMajor ? Batches : Steps;
  std::vector<int32_t> Ops(24, -1);
  Ops[0] = input(ir::DType::I16, {Seq, Other, Features}, InScale);
  auto Weights = [&](int32_t Depth, float Scale) {
    std::vector<int8_t> W(static_cast<size_t>(Units * Depth));
    for (int8_t &V : W)
      V = int8_t(pick(-127, 127));
    return B.constant(name(), {Units, Depth}, ir::perTensor(Scale, 0),
                      ir::DType::I8, W);
  };
  float WScales[4];
  for (int G = 0; G < 4; ++G) {
    WScales[G] = scale(4.0f / 127 / float(Features));
    Ops[size_t(1 + G)] = Weights(Features, WScales[G]);
    Ops[size_t(5 + G)] =
        Weights(Units, scale((Hot ? 32.0f : 2.0f) / 127 / float(Units)));
    std::vector<int64_t> Bias(static_cast<size_t>(Units));
    for (int64_t &V : Bias)
      V = pick(-1000000, 1000000);
    Ops[size_t(12 + G)] =
        B.constant(name(), {Units}, ir::perTensor(InScale * WScales[G], 0),
                   ir::DType::I64, Bias);
  }
  auto State = [&](float Scale) {
    const int32_t T = B.tensor(name(), {Batches, Units},
                               ir::perTensor(Scale, 0), ir::DType::I16);
    B.G.Tensors[size_t(T)].IsVariable = true;
    return T;
  };
  Ops[18] = State(HiddenScale);
  Ops[19] = State(CellScale);
  ir::Operator &Op =
      B.op("UNIDIRECTIONAL_SEQUENCE_LSTM", Ops,
           {output(ir::DType::I16, {Seq, Other, Units}, HiddenScale)});
  Op.setAttr(ir::attr::FusedActivation, std::string("TANH"));
  Op.setAttr(ir::attr::CellClip, coin() ? 0.0 : double(pick(1, 8)) / 2);
  Op.setAttr(ir::attr::ProjClip, 0.0);
  Op.setAttr(ir::attr::TimeMajor, TimeMajor);
}

} // namespace

TEST_CASE("every entry of the int16 sigmoid table equals TensorFlow Lite "
          "Micro's") {
  requireSharedDir();
  // An int16 TANH whose input reaches the table as 4x (a scale of 1 / 3072:
  // multiplier 2^14, shift 12): x = 64 k reads entry k with no
  // interpolation, and gives entry k - 32768 exactly; 64 * 254 + 63 reads
  // 252/256 of the way to entry 255, which gives the last difference. (The
  // kernels' table was read off these outputs.)
  ir::GraphBuilder B;
  const int32_t In = B.tensor("x", {256}, ir::perTensor(1.0f / 3072, 0),
                              ir::DType::I16);
  const int32_t Out = B.tensor("tanh", {256}, ir::perTensor(1.0f / 32768, 0),
                               ir::DType::I16);
  B.op("TANH", {In}, {Out});
  const ir::Model M = modelOf(B, {In}, {Out});
  std::vector<uint8_t> Bytes;
  auto Push = [&](int32_t X) {
    Bytes.push_back(uint8_t(X & 0xff));
    Bytes.push_back(uint8_t((X >> 8) & 0xff));
  };
  for (int32_t K = 0; K < 255; ++K)
    Push(64 * K);
  Push(64 * 254 + 63);
  checkAgainstOracle(M, "sigmoid-table", {Bytes});
}

TEST_CASE("SVDF steps equal TensorFlow Lite Micro's on every target") {
  requireSharedDir();
  Sweep S(7);
  for (int I = 0; I < 3; ++I) {
    S.svdfSteps(/*Quantized=*/true, 4);
    S.svdfSteps(/*Quantized=*/false, 3);
  }
  const ir::Model M = S.model();
  checkAgainstOracle(M, "svdf");
  // The int8 steps were CMSIS-NN calls on target cmsis-nn.
  const std::string Explained = explainOnCmsisNn(M);
  CHECK_MESSAGE(Explained.find("arm_svdf_state_s16_s8") != std::string::npos,
                Explained);
}

TEST_CASE("16x8 LSTM sequences equal TensorFlow Lite Micro's on every "
          "target") {
  requireSharedDir();
  Sweep S(25);
  for (int I = 0; I < 12; ++I)
    S.lstm(/*Hot=*/I % 4 == 3);
  const ir::Model M = S.model();
  checkAgainstOracle(M, "lstm16x8");
  // On cmsis-nn the clipped ones whose products cannot differ were
  // arm_lstm_unidirectional_s16 calls; the others ran on the reference
  // kernel, each with its reason.
  const std::string Explained = explainOnCmsisNn(M);
  for (const char *What :
       {"-> arm_lstm_unidirectional_s16", "cmsis_lstm_cell_clip",
        "recurrent product to its input product before clamping"})
    CHECK_MESSAGE(Explained.find(What) != std::string::npos,
                  "explain does not mention " << std::string(What) << ":\n"
                                              << Explained);
}

TEST_CASE("every seanet-int16 layer equals TensorFlow Lite Micro's on every "
          "target") {
  requireSharedDir();
  const std::string Dir = pathJoin(modelsDir(), "seanet-int16");
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".tflite"))
      Files.push_back(It->path());
  REQUIRE_MESSAGE(!Files.empty(), "no .tflite in " << Dir);
  std::sort(Files.begin(), Files.end());
  ir::Model Merged;
  Merged.SchemaVersion = 3;
  Merged.Graphs.emplace_back();
  Merged.main().Name = "main";
  for (const std::string &F : Files) {
    auto R = tflite::importModelFile(F);
    REQUIRE_MESSAGE(bool(R), F << ": " << llvm::toString(R.takeError()));
    appendGraph(Merged.main(), R->Model->main(),
                llvm::sys::path::stem(F).str() + "/");
  }
  MESSAGE(Files.size() << " models, " << Merged.main().Operators.size()
                       << " layers");
  checkAgainstOracle(Merged, "seanet-int16");
}

TEST_CASE("random int16 layers equal TensorFlow Lite Micro's on every "
          "target") {
  requireSharedDir();
  Sweep S(16);
  for (int I = 0; I < 10; ++I) {
    S.convolution();
    S.depthwiseConvolution();
  }
  for (int I = 0; I < 6; ++I) {
    S.fullyConnected();
    S.pool();
  }
  for (int I = 0; I < 5; ++I) {
    S.transposeConvolution(ir::DType::I16);
    S.transposeConvolution(ir::DType::I8);
  }
  for (int I = 0; I < 8; ++I) {
    S.elementwise();
    S.quantize();
  }
  for (int I = 0; I < 4; ++I) {
    S.leakyRelu();
    S.pad();
    S.stridedSlice();
  }
  for (int I = 0; I < 3; ++I) {
    S.concatenation();
    S.transpose();
  }
  for (int I = 0; I < 6; ++I) {
    S.relu();
    S.sigmoid();
  }
  for (int I = 0; I < 8; ++I) {
    S.mean(I % 2 == 0);
    S.reduceMinMax(I % 2 == 0, I % 4 < 2 ? "REDUCE_MAX" : "REDUCE_MIN");
    S.dequantize();
    S.softmax(I % 2 == 1);
  }
  S.heavyConvolution();
  const ir::Model M = S.model();
  checkAgainstOracle(M, "int16-layers");
  // Target cmsis-nn ran them through every s16 function it maps, and the
  // convolution whose sums can leave int32 on the reference kernel.
  const std::string Explained = explainOnCmsisNn(M);
  for (const char *F :
       {"arm_convolve_wrapper_s16", "arm_depthwise_conv_wrapper_s16",
        "arm_fully_connected_s16", "arm_avgpool_s16", "arm_max_pool_s16",
        "arm_elementwise_add_s16", "arm_elementwise_mul_s16",
        "arm_convolve_wrapper_s16 sums in int32 before adding the int64 bias"})
    CHECK_MESSAGE(Explained.find(F) != std::string::npos,
                  "explain does not mention " << std::string(F) << ":\n"
                                              << Explained);
}
