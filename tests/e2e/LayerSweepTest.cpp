//===- LayerSweepTest.cpp - Random single layers on every CPU path --------===//
//
// The oracle for the class of the wrong results once found in cmsis-nn and
// in target cpu's SIMD paths: pseudo-random single layers (convolutions,
// depthwise convolutions with depth multipliers, fully connected layers,
// pools, element-wise operators, softmax; int8 and uint8; operands constant
// or given at run time, biases too), many in one model, each its own
// output. The model runs on ref, on target cpu with every --cpu this
// processor runs, and on cmsis-nn (host; Cortex-M4 and M55 under QEMU where
// installed); every output must equal ref's byte for byte. One model per
// seed, so each path builds once per seed. ACCELGEN_LAYER_SWEEP_SEEDS=N runs
// N seeds instead of 2 (a longer campaign).
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <map>

using namespace accelgen;
using namespace accelgen::e2e;

#ifndef ACCELGEN_CMSIS_NN_PATH
#error "ACCELGEN_CMSIS_NN_PATH must name a CMSIS-NN source tree"
#endif

namespace {

using Attrs = std::map<std::string, ir::AttrValue>;

/// Builds the sweep's model and the bytes of its graph inputs.
class Sweep : public Picker {
public:
  explicit Sweep(uint32_t Seed) : Picker(Seed) {}
  std::vector<uint8_t> bytes(size_t N) {
    std::vector<uint8_t> B(N);
    for (uint8_t &V : B)
      V = uint8_t(pick(0, 255));
    return B;
  }

  /// An activation tensor: a graph input with random bytes, or (when
  /// \p MayBeConstant and a coin says so) a constant.
  int32_t operand(ir::DType T, std::vector<int32_t> Shape, float Scale,
                  int64_t Zp, bool MayBeConstant) {
    int64_t N = 1;
    for (int32_t D : Shape)
      N *= D;
    const std::string Name = "t" + std::to_string(B.G.Tensors.size());
    if (MayBeConstant && coin())
      return B.constant(Name, std::move(Shape), ir::perTensor(Scale, Zp), T,
                        bytes(size_t(N)));
    const int32_t I = B.tensor(Name, std::move(Shape), ir::perTensor(Scale, Zp),
                               T);
    input(I, bytes(size_t(N)));
    return I;
  }
  void input(int32_t T, std::vector<uint8_t> Bytes) {
    Inputs.push_back(T);
    InputBytes.push_back(std::move(Bytes));
  }
  int32_t output(ir::DType T, std::vector<int32_t> Shape, float Scale,
                 int64_t Zp) {
    const int32_t O = B.tensor("out" + std::to_string(Outputs.size()),
                               std::move(Shape), ir::perTensor(Scale, Zp), T);
    Outputs.push_back(O);
    return O;
  }

  /// A bias of \p Units int32 values with per-unit scales \p Scales: a
  /// constant or a graph input.
  int32_t bias(const std::vector<float> &Scales, bool PerChannel) {
    const int32_t Units = static_cast<int32_t>(Scales.size());
    std::vector<int32_t> V(Units);
    for (int32_t &X : V)
      X = pick(-3000, 3000);
    const auto *Raw = reinterpret_cast<const uint8_t *>(V.data());
    std::vector<uint8_t> Bytes(Raw, Raw + 4 * V.size());
    ir::QuantParams Q = PerChannel ? ir::perChannel(Scales, 0)
                                   : ir::perTensor(Scales[0], 0);
    const std::string Name = "b" + std::to_string(B.G.Tensors.size());
    if (coin())
      return B.constant(Name, {Units}, Q, ir::DType::I32, Bytes);
    const int32_t I = B.tensor(Name, {Units}, Q, ir::DType::I32);
    input(I, std::move(Bytes));
    return I;
  }

  /// Weights: int8 symmetric per channel along \p Axis, or uint8 per tensor.
  int32_t weights(ir::DType T, std::vector<int32_t> Shape, int32_t Axis,
                  const std::vector<float> &Scales) {
    int64_t N = 1;
    for (int32_t D : Shape)
      N *= D;
    std::vector<uint8_t> W = bytes(size_t(N));
    if (T == ir::DType::I8)
      for (uint8_t &V : W)
        V = V == 0x80 ? 0x81 : V;
    const std::string Name = "w" + std::to_string(B.G.Tensors.size());
    return T == ir::DType::I8
               ? B.constant(Name, std::move(Shape),
                            ir::perChannel(Scales, Axis), T, W)
               : B.constant(Name, std::move(Shape),
                            ir::perTensor(Scales[0], pick(100, 140)), T, W);
  }

  void convolution(bool Depthwise);
  void fullyConnected();
  void pool();
  void elementwise();
  void softmax();

  ir::GraphBuilder B;
  std::vector<int32_t> Inputs, Outputs;
  std::vector<std::vector<uint8_t>> InputBytes;
};

const char *activation(int32_t K) {
  static const char *const Names[] = {"NONE", "RELU", "RELU6"};
  return Names[K];
}

void Sweep::convolution(bool Depthwise) {
  const ir::DType T = coin() ? ir::DType::I8 : ir::DType::U8;
  const bool U8 = T == ir::DType::U8;
  // Up to 16 channels: 8 and 16 are Helium's depthwise groups.
  const int32_t IH = pick(1, 9), IW = pick(1, 9), IC = pick(1, 16);
  const int32_t M = Depthwise ? pick(1, 3) : 1;
  const int32_t OC = Depthwise ? IC * M : pick(1, 12);
  // Rows of one tap (1 x K) half the time: audio models' filters.
  const int32_t KH = coin() ? 1 : pick(2, 4), KW = pick(1, 7), S = pick(1, 2),
                Dil = pick(1, 2);
  const bool Same = coin() || (KH - 1) * Dil + 1 > IH ||
                    (KW - 1) * Dil + 1 > IW;
  const int32_t OH = Same ? (IH + S - 1) / S : (IH - (KH - 1) * Dil - 1) / S + 1;
  const int32_t OW = Same ? (IW + S - 1) / S : (IW - (KW - 1) * Dil - 1) / S + 1;
  const float InScale = 0.05f, OutScale = 0.1f;
  const int64_t InZp = U8 ? 128 : -3, OutZp = U8 ? 120 : 4;
  const int32_t In =
      operand(T, {1, IH, IW, IC}, InScale, InZp, /*MayBeConstant=*/false);
  std::vector<float> WScales(U8 ? 1 : OC), BScales;
  const int32_t Taps = KH * KW * (Depthwise ? 1 : IC);
  // Multipliers below 1 (shifts to the right), and in a quarter of the
  // channels above 1 (TensorFlow Lite's shift to the left).
  for (float &W : WScales)
    W = OutScale / InScale / float(Taps) * (0.5f + 0.01f * float(pick(0, 50))) *
        (pick(0, 3) == 0 ? 3.0f * float(Taps) : 1.0f);
  for (int32_t C = 0; C < (U8 ? 1 : OC); ++C)
    BScales.push_back(InScale * WScales[C]);
  const int32_t W = Depthwise ? weights(T, {1, KH, KW, OC}, 3, WScales)
                              : weights(T, {OC, KH, KW, IC}, 0, WScales);
  const int32_t Bias = bias(U8 ? std::vector<float>(OC, BScales[0]) : BScales,
                            /*PerChannel=*/!U8);
  Attrs A = {{"padding", std::string(Same ? "SAME" : "VALID")},
             {"stride_h", int64_t(S)},
             {"stride_w", int64_t(S)},
             {"dilation_h", int64_t(Dil)},
             {"dilation_w", int64_t(Dil)},
             {"fused_activation", std::string(activation(pick(0, 2)))}};
  if (Depthwise)
    A["depth_multiplier"] = int64_t(M);
  B.op(Depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D", {In, W, Bias},
       {output(T, {1, OH, OW, OC}, OutScale, OutZp)}, A);
}

void Sweep::fullyConnected() {
  const int32_t Batch = pick(1, 3), Depth = pick(1, 40), Units = pick(1, 12);
  const float InScale = 0.05f, OutScale = 0.2f;
  const int32_t In = operand(ir::DType::I8, {Batch, Depth}, InScale, 2, false);
  const float WScale = OutScale / InScale / float(Depth) * 0.7f;
  const int32_t W = B.constant("w" + std::to_string(B.G.Tensors.size()),
                               {Units, Depth}, ir::perTensor(WScale, 0),
                               ir::DType::I8, bytes(size_t(Units * Depth)));
  const int32_t Bias = bias(std::vector<float>(Units, InScale * WScale),
                            /*PerChannel=*/false);
  B.op("FULLY_CONNECTED", {In, W, Bias},
       {output(ir::DType::I8, {Batch, Units}, OutScale, -1)},
       {{"fused_activation", std::string(activation(pick(0, 2)))}});
}

void Sweep::pool() {
  const bool Max = coin();
  const int32_t IH = pick(1, 8), IW = pick(1, 8), C = pick(1, 8);
  const int32_t K = pick(1, 3), S = pick(1, 2);
  const bool Same = coin() || K > IH || K > IW;
  const int32_t OH = Same ? (IH + S - 1) / S : (IH - K) / S + 1;
  const int32_t OW = Same ? (IW + S - 1) / S : (IW - K) / S + 1;
  const int32_t In = operand(ir::DType::I8, {1, IH, IW, C}, 0.1f, -5, true);
  B.op(Max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", {In},
       {output(ir::DType::I8, {1, OH, OW, C}, 0.1f, -5)},
       {{"filter_h", int64_t(K)},
        {"filter_w", int64_t(K)},
        {"stride_h", int64_t(S)},
        {"stride_w", int64_t(S)},
        {"padding", std::string(Same ? "SAME" : "VALID")},
        {"fused_activation", std::string(activation(pick(0, 2)))}});
}

void Sweep::elementwise() {
  const bool Mul = coin();
  const std::vector<int32_t> Shape = {1, pick(1, 5), pick(1, 5), pick(1, 8)};
  const int32_t A = operand(ir::DType::I8, Shape, 0.05f, 3, true);
  const int32_t C = operand(ir::DType::I8, Shape, 0.08f, -7, true);
  B.op(Mul ? "MUL" : "ADD", {A, C},
       {output(ir::DType::I8, Shape, Mul ? 0.01f : 0.12f, 2)},
       {{"fused_activation", std::string(activation(pick(0, 2)))}});
}

void Sweep::softmax() {
  const std::vector<int32_t> Shape = {pick(1, 3), pick(1, 20)};
  const int32_t In = operand(ir::DType::I8, Shape, 0.1f, pick(-10, 10), true);
  B.op("SOFTMAX", {In}, {output(ir::DType::I8, Shape, 1.0f / 256, -128)},
       {{"beta", 1.0}});
}

/// How many seeds to run.
int seedCount() {
  if (const char *N = std::getenv("ACCELGEN_LAYER_SWEEP_SEEDS"))
    return std::max(1, std::atoi(N));
  return 2;
}

} // namespace

TEST_CASE("random single layers give ref's bytes on every CPU path") {
  requireSharedDir();
  std::vector<std::vector<std::string>> Paths; // target, then its options
  for (const cpu::CpuIsa &Isa : cpu::cpuIsas())
    if (hostRuns(Isa.Name))
      Paths.push_back({"cpu", "--cpu", Isa.Name});
  Paths.push_back({"cmsis-nn", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  if (haveCortexM())
    for (const char *Cpu : {"cortex-m4", "cortex-m55"})
      Paths.push_back(
          {"cmsis-nn", "--cpu", Cpu, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});

  for (int Seed = 1; Seed <= seedCount(); ++Seed) {
    Sweep S(static_cast<uint32_t>(Seed));
    for (int I = 0; I < 8; ++I)
      S.convolution(/*Depthwise=*/false);
    for (int I = 0; I < 16; ++I)
      S.convolution(/*Depthwise=*/true);
    for (int I = 0; I < 3; ++I) {
      S.fullyConnected();
      S.pool();
      S.elementwise();
      S.softmax();
    }
    S.B.inputs(S.Inputs).outputs(S.Outputs);
    S.B.G.Name = "main";
    ir::Model M;
    M.Graphs.push_back(S.B.G);
    test::TempDir Dir, In, Ref;
    const std::string Model = Dir.file("sweep.tflite");
    test::writeFileBytes(Model, tflite::writeModel(M));
    for (size_t I = 0; I < S.InputBytes.size(); ++I)
      test::writeFileBytes(In.file("input_" + std::to_string(I) + ".bin"),
                           S.InputBytes[I]);
    INFO("seed " << Seed);
    test::RunResult R = runModelOn("ref", {}, Model, In.path(), Ref.path(),
                                   false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    for (const std::vector<std::string> &P : Paths) {
      INFO(llvm::join(P, " "));
      test::TempDir Out;
      R = runModelOn(P[0], {P.begin() + 1, P.end()}, Model, In.path(),
                     Out.path(), false);
      REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
      for (size_t I = 0; I < S.Outputs.size(); ++I) {
        const std::string File = "output_" + std::to_string(I) + ".bin";
        const auto Got = test::readFileBytes(Out.file(File));
        const auto Want = test::readFileBytes(Ref.file(File));
        const ir::Graph &G = M.Graphs[0];
        const ir::Operator &Op = G.Operators[I];
        CHECK_MESSAGE(Got == Want,
                      "output " << I << " (" << Op.Type << "): "
                                << describeDiff(Got, Want,
                                                G.tensor(G.Outputs[I]).Type));
      }
    }
  }
}
