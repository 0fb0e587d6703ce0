//===- CostShapes.cpp - Single layers for the Cortex-M cost fit -----------===//
//
// accelgen-cost-shapes OUT.tflite: writes an int8 model of 13 independent
// layers (each its own input and output), shapes the peer models do not
// have: output channels not in fours, few and many depthwise channels,
// small Helium layers, fully connected layers of 1 and 7 units. Their
// weights and biases are pseudo-random (a fixed seed). bench/cortex-m-layers.sh
// runs them (MODELS=OUT.tflite) to measure which function is cheaper on
// such shapes; targets/cmsis-nn/cmsis-nn.td's costs were fitted to these
// counts with the peer models'.
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include "llvm/Support/raw_ostream.h"

#include <random>

using namespace accelgen;
using namespace accelgen::ir;

namespace {

class ShapesModel {
public:
  /// A convolution (or depthwise, multiplier 1 when \p OC == \p C) of a
  /// [1, H, W, C] input, a K x K filter and stride \p S.
  void conv(bool Depthwise, int32_t H, int32_t W, int32_t C, int32_t K,
            int32_t OC, int32_t S, const std::string &Padding) {
    const std::string P = "l" + std::to_string(Layers++);
    std::map<std::string, AttrValue> A = {
        {"padding", Padding},       {"stride_h", int64_t(S)},
        {"stride_w", int64_t(S)},   {"dilation_h", int64_t(1)},
        {"dilation_w", int64_t(1)}, {"fused_activation", std::string("NONE")}};
    if (Depthwise)
      A["depth_multiplier"] = int64_t(OC / C);
    const bool Same = Padding == "SAME";
    const int32_t OH = Same ? (H + S - 1) / S : (H - K) / S + 1;
    const int32_t OW = Same ? (W + S - 1) / S : (W - K) / S + 1;
    const int32_t In = B.tensor(P + "_in", {1, H, W, C}, perTensor(0.5f, -3));
    const std::vector<int32_t> Shape = Depthwise
                                           ? std::vector<int32_t>{1, K, K, OC}
                                           : std::vector<int32_t>{OC, K, K, C};
    const size_t N = size_t(K) * K * OC * (Depthwise ? 1 : C);
    const int32_t F = B.constant(P + "_w", Shape, std::nullopt, DType::I8,
                                 values<int8_t>(N, -127, 127));
    B.perChannel(F, std::vector<float>(size_t(OC), 0.02f), Depthwise ? 3 : 0);
    const int32_t Bias =
        B.constant(P + "_b", {OC}, perTensor(0.01f, 0), DType::I32,
                   values<int32_t>(size_t(OC), -500, 500));
    const int32_t Out =
        B.tensor(P + "_out", {1, OH, OW, OC}, perTensor(0.8f, 5));
    B.op(Depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D", {In, F, Bias}, {Out}, A);
    Ins.push_back(In);
    Outs.push_back(Out);
  }

  /// A fully connected layer of \p Depth inputs and \p Units outputs.
  void fullyConnected(int32_t Depth, int32_t Units) {
    const std::string P = "l" + std::to_string(Layers++);
    const int32_t In = B.tensor(P + "_in", {1, Depth}, perTensor(0.5f, -3));
    const int32_t W =
        B.constant(P + "_w", {Units, Depth}, perTensor(0.02f, 0), DType::I8,
                   values<int8_t>(size_t(Units) * size_t(Depth), -127, 127));
    const int32_t Bias =
        B.constant(P + "_b", {Units}, perTensor(0.01f, 0), DType::I32,
                   values<int32_t>(size_t(Units), -500, 500));
    const int32_t Out = B.tensor(P + "_out", {1, Units}, perTensor(0.8f, 5));
    B.op("FULLY_CONNECTED", {In, W, Bias}, {Out},
         {{"fused_activation", std::string("NONE")}, {"keep_num_dims", false}});
    Ins.push_back(In);
    Outs.push_back(Out);
  }

  Model finish() {
    B.inputs(Ins).outputs(Outs);
    Model M;
    M.SchemaVersion = 3;
    M.Graphs.push_back(std::move(B.G));
    return M;
  }

private:
  template <typename T> std::vector<T> values(size_t N, int Lo, int Hi) {
    std::uniform_int_distribution<int> D(Lo, Hi);
    std::vector<T> V(N);
    for (T &X : V)
      X = T(D(Rng));
    return V;
  }

  GraphBuilder B;
  std::mt19937 Rng{7};
  std::vector<int32_t> Ins, Outs;
  int Layers = 0;
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: accelgen-cost-shapes OUT.tflite\n";
    return 2;
  }
  ShapesModel S;
  S.conv(false, 8, 8, 16, 1, 6, 2, "VALID");   // 1 x 1, stride 2, 6 channels
  S.conv(false, 8, 8, 3, 3, 6, 1, "VALID");    // 3 x 3 over 3 channels to 6
  S.conv(true, 8, 8, 12, 3, 12, 1, "SAME");    // depthwise, 12 channels
  S.fullyConnected(16, 1);                     // one unit
  S.conv(true, 16, 16, 20, 3, 20, 1, "SAME");  // depthwise, 20 channels
  S.conv(false, 16, 16, 8, 1, 6, 1, "VALID");  // 1 x 1 to 6 channels
  S.conv(true, 16, 16, 4, 3, 4, 1, "SAME");    // depthwise, 4 channels
  S.conv(false, 12, 12, 24, 3, 10, 1, "SAME"); // 3 x 3 over 24 to 10
  S.fullyConnected(100, 7);                    // seven units
  S.conv(true, 8, 8, 16, 5, 16, 1, "VALID");   // depthwise 5 x 5, 16 channels
  S.conv(true, 4, 4, 32, 3, 32, 1, "SAME");    // a small Helium depthwise
  S.conv(false, 4, 4, 16, 1, 8, 1, "VALID");   // a small Helium convolution
  S.conv(true, 6, 6, 8, 3, 8, 1, "SAME");      // depthwise, 8 channels
  if (llvm::Error E = tflite::writeModelFile(S.finish(), argv[1])) {
    llvm::errs() << "error: " << argv[1] << ": " << toString(std::move(E))
                 << "\n";
    return 1;
  }
  return 0;
}
