//===- CmsisNnRunTest.cpp - The cmsis-nn target against the vectors -------===//
//
// Every shared int8 model without LSTM state, emitted for target cmsis-nn
// (CMSIS-NN calls where its description maps an operator to an arm_*
// function, the reference kernels elsewhere) and built for the host against
// CMSIS-NN's plain C paths from the source tree in CMSIS_NN_PATH (the shared
// snapshot by default), must give every seed's expected_<i>.bin and, for
// seed 1, every layer of the reference byte for byte. The list of models is
// test::sharedModelNames() without the LSTM models and the uint8 one, which
// CMSIS-NN has no kernels for.
//
// The same models as bare-metal images for Cortex-M55 (Helium) and Cortex-M4
// (DSP), built with arm-none-eabi-gcc and run under qemu-system-arm, must
// match the same way, every seed and seed 1's every layer. Where the
// toolchain or QEMU is not installed those cases pass with a message saying
// so (scripts/setup.sh installs them). The LSTM models, on the reference
// kernels, run bare-metal on Cortex-M4 the same way.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "Int8Model.h"
#include "OracleSweep.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <random>
#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

#ifndef ACCELGEN_CMSIS_NN_PATH
#error "ACCELGEN_CMSIS_NN_PATH must name a CMSIS-NN source tree"
#endif

namespace {

/// The models CMSIS-NN's int8 functions apply to.
std::vector<std::string> cmsisModels() {
  std::vector<std::string> Models;
  for (const std::string &M : test::sharedModelNames())
    if (!test::sharedModelHasState(M) &&
        M != "coral_mobilenet_v2_10_224_quant_uint8")
      Models.push_back(M);
  return Models;
}

/// The model.c `accelgen compile MODEL --target TARGET -o DIR` writes;
/// fails the test if it does not compile.
std::string compiledModelC(const std::string &Model, const std::string &Target,
                           const std::string &Dir) {
  test::RunResult R =
      runAccelgen({"compile", Model, "--target", Target, "-o", Dir});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  return test::readFileText(pathJoin(Dir, "model.c"));
}

test::RunResult runOnHost(const std::string &Model, const std::string &In,
                          const std::string &Out, bool Layers) {
  return runModelOn("cmsis-nn", {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}, Model,
                    In, Out, Layers);
}

/// The person detection model without layer vectors of its own uses its
/// qdimfix copy's (ModelRunTest says why).
std::string layersOf(const std::string &Model) {
  return Model == "tflm_person_detect_int8" ? "tflm_person_detect_int8_qdimfix"
                                            : "";
}

/// Every seed of \p Model on Cortex-M \p Cpu under QEMU.
void checkOnCpu(const std::string &Model, const std::string &Cpu) {
  REQUIRE(llvm::is_contained(cmsisModels(), Model));
  if (!haveCortexM())
    return;
  checkModel(Model, layersOf(Model), /*CompareLayers=*/true,
             [&](const std::string &M, const std::string &In,
                 const std::string &Out, bool Layers) {
               return runModelOn(
                   "cmsis-nn",
                   {"--cpu", Cpu, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}, M, In,
                   Out, Layers);
             });
}

/// Pseudo-random bytes.
std::vector<uint8_t> randomBytes(size_t N, std::mt19937 &Gen) {
  std::uniform_int_distribution<int> Byte(0, 255);
  std::vector<uint8_t> B(N);
  for (uint8_t &V : B)
    V = uint8_t(Byte(Gen));
  return B;
}

/// Operands that are not activations in the arena: ADD and MUL with a
/// constant operand (first or second), MAX_POOL_2D and SOFTMAX of a
/// constant, a CONV_2D and a FULLY_CONNECTED whose bias is a graph input;
/// each its own output. The graph inputs get \p Inputs (in order).
ir::Model operandKinds(std::mt19937 &Gen,
                       std::vector<std::vector<uint8_t>> &Inputs) {
  using ir::DType;
  using ir::perTensor;
  ir::GraphBuilder B;
  const std::vector<int32_t> Nhwc = {1, 4, 4, 8};
  const int32_t X = B.tensor("x", Nhwc, perTensor(0.5f, 1));
  const int32_t C = B.constant("c", Nhwc, perTensor(0.25f, -2), DType::I8,
                               randomBytes(128, Gen));
  const std::map<std::string, ir::AttrValue> NoAct = {
      {"fused_activation", std::string("NONE")}};
  std::vector<int32_t> Outputs;
  auto Out = [&](const char *Name, std::vector<int32_t> Shape, float Scale,
                 int64_t Zp) {
    Outputs.push_back(B.tensor(Name, std::move(Shape), perTensor(Scale, Zp)));
    return Outputs.back();
  };
  B.op("ADD", {X, C}, {Out("x_plus_c", Nhwc, 0.75f, 3)}, NoAct);
  B.op("ADD", {C, X}, {Out("c_plus_x", Nhwc, 0.75f, -3)}, NoAct);
  B.op("MUL", {X, C}, {Out("x_times_c", Nhwc, 2.0f, 0)}, NoAct);
  const int32_t P = B.constant("p", {1, 6, 6, 8}, perTensor(0.5f, 0),
                               DType::I8, randomBytes(288, Gen));
  B.op("MAX_POOL_2D", {P}, {Out("pooled", {1, 3, 3, 8}, 0.5f, 0)},
       {{"filter_h", int64_t(2)},
        {"filter_w", int64_t(2)},
        {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)},
        {"padding", std::string("VALID")},
        {"fused_activation", std::string("NONE")}});
  const int32_t L = B.constant("logits", {1, 16}, perTensor(0.1f, 4),
                               DType::I8, randomBytes(16, Gen));
  B.op("SOFTMAX", {L}, {Out("probabilities", {1, 16}, 1.0f / 256, -128)},
       {{"beta", 1.0}});

  // A convolution whose bias is an input of the model.
  std::vector<uint8_t> W = randomBytes(8 * 3 * 3 * 8, Gen);
  for (uint8_t &V : W)
    V = V == 0x80 ? 0x81 : V; // symmetric int8 weights
  const int32_t Filter =
      B.constant("w", {8, 3, 3, 8}, std::nullopt, DType::I8, W);
  std::vector<float> WScales(8), BScales(8);
  for (int I = 0; I < 8; ++I)
    WScales[I] = 0.01f * (1 + I % 3), BScales[I] = 0.5f * WScales[I];
  B.perChannel(Filter, WScales, 0);
  const int32_t ConvBias = B.tensor("conv_bias", {8}, ir::perChannel(BScales, 0),
                                    DType::I32);
  B.op("CONV_2D", {X, Filter, ConvBias}, {Out("conv", Nhwc, 0.5f, -1)},
       {{"padding", std::string("SAME")},
        {"stride_h", int64_t(1)},
        {"stride_w", int64_t(1)},
        {"dilation_h", int64_t(1)},
        {"dilation_w", int64_t(1)},
        {"fused_activation", std::string("RELU")}});
  // A fully connected layer whose bias is an input of the model.
  const int32_t Flat = B.tensor("flat", {1, 16}, perTensor(0.5f, 1));
  std::vector<uint8_t> FcW = randomBytes(4 * 16, Gen);
  for (uint8_t &V : FcW)
    V = V == 0x80 ? 0x81 : V;
  const int32_t FcFilter =
      B.constant("fc_w", {4, 16}, perTensor(0.02f, 0), DType::I8, FcW);
  const int32_t FcBias =
      B.tensor("fc_bias", {4}, perTensor(0.01f, 0), DType::I32);
  B.op("FULLY_CONNECTED", {Flat, FcFilter, FcBias}, {Out("fc", {1, 4}, 0.25f, 2)},
       NoAct);
  B.inputs({X, ConvBias, Flat, FcBias}).outputs(Outputs);
  B.G.Name = "main";

  Inputs.clear();
  Inputs.push_back(randomBytes(128, Gen));
  std::uniform_int_distribution<int32_t> BiasValue(-2000, 2000);
  for (int32_t Units : {8, -1, 4}) {
    if (Units < 0) {
      Inputs.push_back(randomBytes(16, Gen));
      continue;
    }
    std::vector<int32_t> Bias(Units);
    for (int32_t &V : Bias)
      V = BiasValue(Gen);
    const auto *Bytes = reinterpret_cast<const uint8_t *>(Bias.data());
    Inputs.emplace_back(Bytes, Bytes + 4 * Bias.size());
  }
  ir::Model M;
  M.Graphs.push_back(B.G);
  return M;
}

/// Every int8 output of \p G in \p Out equals the one in \p Ref.
void checkSameOutputs(const ir::Graph &G, const test::TempDir &Out,
                      const test::TempDir &Ref) {
  for (size_t I = 0; I < G.Outputs.size(); ++I) {
    const std::string File = "output_" + std::to_string(I) + ".bin";
    const auto Got = test::readFileBytes(Out.file(File));
    const auto Want = test::readFileBytes(Ref.file(File));
    CHECK_MESSAGE(Got == Want, G.tensor(G.Outputs[I]).Name
                                   << ": "
                                   << describeDiff(Got, Want, ir::DType::I8));
  }
}

/// Depthwise convolutions the generated kernel takes, each its own output:
/// shapes, strides and padding that leave input columns unread, ReLU6, a
/// requantization with a left shift and a bias too large for SMMULR (both
/// requantized by cm_requantize; the others, with right shifts of 1 or
/// more, by SMMULR), twelve channels, and one input channel to eight;
/// convolutions the im2col kernel takes (1 x 1 ones, padding, strides,
/// dilation, one input channel, a batch of 2, odd pixel counts, a bias too
/// large for SMMULR);
/// additions the generated ADD takes; and fully connected layers the
/// generated kernel takes (several rows, units not in fours, no bias, a
/// bias too large for SMMULR).
ir::Model generatedKernelCases(std::mt19937 &Gen,
                               std::vector<std::vector<uint8_t>> &Inputs) {
  using ir::DType;
  ir::GraphBuilder B;
  const int32_t X = B.tensor("x", {1, 9, 8, 8}, ir::perTensor(0.5f, 1));
  const int32_t Y = B.tensor("y", {1, 5, 6, 12}, ir::perTensor(0.025f, -7));
  const int32_t Z = B.tensor("z", {1, 9, 11, 1}, ir::perTensor(0.1f, 4));
  const int32_t R = B.tensor("r", {1, 3, 70, 32}, ir::perTensor(0.5f, 2));
  std::vector<int32_t> Outputs;
  auto Depthwise = [&](const char *Name, int32_t In, int32_t C, int32_t KH,
                       int32_t KW, int32_t Stride, const char *Padding,
                       const char *Act, float OutScale, int32_t BiasSize,
                       int32_t BiasBase = 0, int WMax = 127) {
    // Copies: adding tensors below moves the graph's tensors.
    const std::vector<int32_t> Shape = B.G.tensor(In).Shape;
    const float InScale = B.G.tensor(In).Quant->scale();
    std::uniform_int_distribution<int> Weight(-WMax, WMax);
    std::vector<uint8_t> W(KH * KW * C);
    for (uint8_t &V : W)
      V = uint8_t(int8_t(Weight(Gen)));
    std::vector<float> WScales(C), BScales(C);
    for (int32_t I = 0; I < C; ++I)
      WScales[I] = 0.01f * (1 + I % 3), BScales[I] = InScale * WScales[I];
    const int32_t F = B.constant(std::string(Name) + "_w", {1, KH, KW, C},
                                 ir::perChannel(WScales, 3), DType::I8, W);
    std::uniform_int_distribution<int32_t> BiasValue(-BiasSize, BiasSize);
    std::vector<int32_t> Bias(C);
    for (int32_t &V : Bias) {
      V = BiasValue(Gen);
      V += V >= 0 ? BiasBase : -BiasBase;
    }
    const auto *Bytes = reinterpret_cast<const uint8_t *>(Bias.data());
    const int32_t Bi =
        B.constant(std::string(Name) + "_b", {C}, ir::perChannel(BScales, 0),
                   DType::I32, std::vector<uint8_t>(Bytes, Bytes + 4 * C));
    const bool Same = std::string(Padding) == "SAME";
    const int32_t OH =
        Same ? (Shape[1] + Stride - 1) / Stride : (Shape[1] - KH) / Stride + 1;
    const int32_t OW =
        Same ? (Shape[2] + Stride - 1) / Stride : (Shape[2] - KW) / Stride + 1;
    Outputs.push_back(
        B.tensor(Name, {1, OH, OW, C}, ir::perTensor(OutScale, 3)));
    B.op("DEPTHWISE_CONV_2D", {In, F, Bi}, {Outputs.back()},
         {{"padding", std::string(Padding)},
          {"stride_h", int64_t(Stride)},
          {"stride_w", int64_t(Stride)},
          {"dilation_h", int64_t(1)},
          {"dilation_w", int64_t(1)},
          {"depth_multiplier", int64_t(C / Shape[3])},
          {"fused_activation", std::string(Act)}});
  };
  Depthwise("same_3x3", X, 8, 3, 3, 1, "SAME", "NONE", 2.0f, 2000);
  // Weights of -1, 0 and 1 times 1.25 and 1.875: left shifts, and results
  // mostly inside int8.
  Depthwise("left_shift", X, 8, 3, 3, 1, "SAME", "NONE", 0.008f, 200, 0, 1);
  // Biases of 2^30 and more, beyond SMMULR's range, times 1e-7 to 3e-7.
  Depthwise("large_bias", X, 8, 3, 3, 2, "SAME", "NONE", 50000.0f, 2000,
            1 << 30);
  Depthwise("valid_unread_columns", X, 8, 5, 3, 2, "VALID", "RELU", 3.0f, 2000);
  // Weights of -1, 0 and 1 times 0.25, 0.5 and 0.75: channels with a
  // right shift and channels without (SMMULR, the rounding shift skipped).
  Depthwise("zero_shift", Y, 12, 3, 3, 1, "SAME", "NONE", 0.001f, 200, 0, 1);
  // A 12 x 12 filter (144 taps: weight offsets beyond LDRD's reach) and rows
  // of 72 x 32 bytes (input offsets beyond LDR's): the taps in C there.
  Depthwise("filter_12x12", Y, 12, 12, 12, 1, "SAME", "NONE", 0.5f, 2000);
  Depthwise("wide_rows", R, 32, 3, 3, 1, "SAME", "NONE", 2.0f, 2000);
  // ReLU6 clamps at 3 + 6 / 0.05 = 123.
  Depthwise("twelve_channels_relu6", Y, 12, 3, 3, 1, "SAME", "RELU6", 0.05f,
            2000);
  // One input channel to eight, rows of 5 taps (the second word of a row's
  // taps is one tap and 3 bytes past it), stride 2.
  Depthwise("one_channel_5x5", Z, 8, 5, 5, 2, "SAME", "NONE", 0.8f, 2000);
  // Convolutions, all for the im2col kernel.
  auto Conv = [&](const char *Name, int32_t In, int32_t OC, int32_t KH,
                  int32_t KW, int32_t Stride, int32_t Dilation,
                  const char *Padding, const char *Act, float OutScale,
                  int32_t BiasBase, int WMax = 127, bool FirstOnly = false,
                  bool ZeroFirst = false) {
    const std::vector<int32_t> Shape = B.G.tensor(In).Shape;
    const float InScale = B.G.tensor(In).Quant->scale();
    const int32_t IC = Shape[3];
    std::uniform_int_distribution<int> Weight(-WMax, WMax);
    std::vector<uint8_t> W(OC * KH * KW * IC);
    for (uint8_t &V : W)
      V = uint8_t(int8_t(Weight(Gen)));
    if (ZeroFirst) // channel 0's weights all 0: a fixed result
      std::fill(W.begin(), W.begin() + KH * KW * IC, uint8_t(0));
    std::vector<float> WScales(OC), BScales(OC);
    for (int32_t I = 0; I < OC; ++I)
      WScales[I] = 0.01f * (1 + I % 3), BScales[I] = InScale * WScales[I];
    const int32_t F = B.constant(std::string(Name) + "_w", {OC, KH, KW, IC},
                                 ir::perChannel(WScales, 0), DType::I8, W);
    std::uniform_int_distribution<int32_t> BiasValue(-2000 * WMax / 127,
                                                     2000 * WMax / 127);
    std::vector<int32_t> Bias(OC);
    for (int32_t &V : Bias) {
      V = BiasValue(Gen);
      if (!FirstOnly || &V == &Bias[0])
        V += V >= 0 ? BiasBase : -BiasBase;
    }
    const auto *Bytes = reinterpret_cast<const uint8_t *>(Bias.data());
    const int32_t Bi =
        B.constant(std::string(Name) + "_b", {OC}, ir::perChannel(BScales, 0),
                   DType::I32, std::vector<uint8_t>(Bytes, Bytes + 4 * OC));
    const bool Same = std::string(Padding) == "SAME";
    auto Extent = [&](int32_t Size, int32_t K) {
      const int32_t Span = (K - 1) * Dilation + 1;
      return Same ? (Size + Stride - 1) / Stride : (Size - Span) / Stride + 1;
    };
    Outputs.push_back(B.tensor(
        Name, {Shape[0], Extent(Shape[1], KH), Extent(Shape[2], KW), OC},
        ir::perTensor(OutScale, -5)));
    B.op("CONV_2D", {In, F, Bi}, {Outputs.back()},
         {{"padding", std::string(Padding)},
          {"stride_h", int64_t(Stride)},
          {"stride_w", int64_t(Stride)},
          {"dilation_h", int64_t(Dilation)},
          {"dilation_w", int64_t(Dilation)},
          {"fused_activation", std::string(Act)}});
  };
  // 1 x 1: 72 pixels (in pairs) of 8 channels, and 15 (the last alone) of
  // 12 channels to 6.
  Conv("pointwise_8_to_16", X, 16, 1, 1, 1, 1, "VALID", "RELU", 2.0f, 0);
  // Biases of 2^30 and more: cm_requantize.
  Conv("pointwise_large_bias", X, 8, 1, 1, 1, 1, "VALID", "NONE", 50000.0f,
       1 << 30);
  const int32_t V = B.tensor("v", {1, 3, 5, 12}, ir::perTensor(0.02f, 9));
  Conv("pointwise_odd_pixels", V, 6, 1, 1, 1, 1, "VALID", "RELU6", 0.05f, 0);
  // im2col: SAME with stride 2 (padding on every side of some windows);
  // dilation 2; one input channel (byte-wise columns, 12 values); 3 of 15
  // pixels (odd), 108 values unrolled 36 at a time; a batch of 2, 27 values
  // padded to 28; a strided 1 x 1; biases of 2^30 (cm_requantize).
  Conv("conv_3x3_stride2", X, 6, 3, 3, 2, 1, "SAME", "RELU", 9.0f, 0);
  Conv("conv_dilated", X, 4, 3, 3, 1, 2, "SAME", "NONE", 9.0f, 0);
  // A 3 x 1 filter dilated by 2: one tap a row, read in place (the
  // dilated rows' path once named a column counter it did not declare).
  Conv("conv_3x1_dilated", X, 4, 3, 1, 1, 2, "SAME", "NONE", 3.0f, 0);
  Conv("conv_one_channel", Z, 4, 4, 3, 1, 1, "SAME", "NONE", 0.8f, 0);
  Conv("conv_odd_pixels", V, 2, 3, 3, 1, 1, "VALID", "NONE", 0.45f, 0);
  const int32_t U = B.tensor("u", {2, 4, 5, 3}, ir::perTensor(0.006f, -2));
  Conv("conv_batch2", U, 4, 3, 3, 1, 1, "SAME", "RELU6", 0.05f, 0);
  Conv("conv_1x1_stride2", X, 4, 1, 1, 2, 1, "VALID", "NONE", 3.0f, 0);
  // A 1 x 1 filter over 3 channels (a column of 3 values padded to 4: in
  // plain C copied, not read in place).
  Conv("pointwise_three_channels", U, 4, 1, 1, 1, 1, "VALID", "NONE", 0.05f, 0);
  Conv("conv_large_bias", X, 2, 3, 3, 1, 1, "SAME", "NONE", 50000.0f, 1 << 30);
  // One channel's bias of 2^30 (as the dead channels of vww's layers): the
  // whole layer takes the 64-bit product; the other channels, of weights -1,
  // 0 and 1 times 0.25 to 0.75, shift by 0 or 1, so that every rounding of
  // the product shows.
  Conv("conv_one_large_bias", Z, 6, 3, 3, 1, 1, "SAME", "NONE", 0.004f, 1 << 30,
       1, true);
  // Channel 0 dead, as many of vww's: weights all 0 (its fixed result
  // computed at compile time, here about 50 from the zero point); the
  // others as usual.
  Conv("conv_dead_channel", X, 6, 3, 3, 1, 1, "SAME", "NONE", 9.0f, 90000, 127,
       true, true);
  // Weights of -1, 0 and 1 times 1.25 to 3.75: left shifts (cm_requantize).
  Conv("conv_left_shift", V, 4, 1, 1, 1, 1, "VALID", "NONE", 0.00016f, 0, 1);
  // Additions: of two inputs on different scales, and of an input with
  // itself, clamped by ReLU (every int8 ADD rescales by SMMULR).
  const int32_t X2 = B.tensor("x2", {1, 9, 8, 8}, ir::perTensor(0.3f, -4));
  Outputs.push_back(B.tensor("add", {1, 9, 8, 8}, ir::perTensor(1.0f, 2)));
  B.op("ADD", {X, X2}, {Outputs.back()},
       {{"fused_activation", std::string("NONE")}});
  Outputs.push_back(
      B.tensor("add_self_relu", {1, 9, 8, 8}, ir::perTensor(0.4f, -100)));
  B.op("ADD", {X2, X2}, {Outputs.back()},
       {{"fused_activation", std::string("RELU")}});
  // Fully connected layers: 3 rows of 22 values (padded to 24) to 6 units
  // (four, then two one at a time); 128 values (32 at a time) to 8
  // units without a bias; biases of 2^30 (cm_requantize).
  auto Dense = [&](const char *Name, int32_t In, int32_t Units, bool HasBias,
                   const char *Act, float OutScale, int32_t BiasBase,
                   int WMax = 127) {
    const std::vector<int32_t> Shape = B.G.tensor(In).Shape;
    const float InScale = B.G.tensor(In).Quant->scale();
    const int32_t Depth = Shape.back();
    std::uniform_int_distribution<int> Weight(-WMax, WMax);
    std::vector<uint8_t> W(Units * Depth);
    for (uint8_t &V : W)
      V = uint8_t(int8_t(Weight(Gen)));
    const int32_t F = B.constant(std::string(Name) + "_w", {Units, Depth},
                                 ir::perTensor(0.02f, 0), DType::I8, W);
    int32_t Bi = -1;
    if (HasBias) {
      std::uniform_int_distribution<int32_t> BiasValue(-2000 * WMax / 127,
                                                       2000 * WMax / 127);
      std::vector<int32_t> Bias(Units);
      for (int32_t &V : Bias) {
        V = BiasValue(Gen);
        V += V >= 0 ? BiasBase : -BiasBase;
      }
      const auto *Bytes = reinterpret_cast<const uint8_t *>(Bias.data());
      Bi = B.constant(std::string(Name) + "_b", {Units},
                      ir::perTensor(InScale * 0.02f, 0), DType::I32,
                      std::vector<uint8_t>(Bytes, Bytes + 4 * Units));
    }
    Outputs.push_back(
        B.tensor(Name, {Shape[0], Units}, ir::perTensor(OutScale, 6)));
    B.op("FULLY_CONNECTED", {In, F, Bi}, {Outputs.back()},
         {{"fused_activation", std::string(Act)}, {"keep_num_dims", false}});
  };
  const int32_t D1 = B.tensor("d1", {3, 22}, ir::perTensor(0.4f, -3));
  const int32_t D2 = B.tensor("d2", {1, 128}, ir::perTensor(0.1f, 11));
  Dense("dense_rows3", D1, 6, true, "NONE", 4.0f, 0);
  Dense("dense_no_bias", D2, 8, false, "NONE", 3.0f, 0);
  Dense("dense_large_bias", D2, 4, true, "NONE", 50000.0f, 1 << 30);
  // Weights of -1, 0 and 1 times 1.6: a left shift (cm_requantize).
  Dense("dense_left_shift", D1, 4, true, "NONE", 0.005f, 0, 1);
  B.inputs({X, Y, Z, V, U, X2, D1, D2, R}).outputs(Outputs);
  B.G.Name = "main";
  Inputs = {randomBytes(9 * 8 * 8, Gen),     randomBytes(5 * 6 * 12, Gen),
            randomBytes(9 * 11, Gen),        randomBytes(3 * 5 * 12, Gen),
            randomBytes(2 * 4 * 5 * 3, Gen), randomBytes(9 * 8 * 8, Gen),
            randomBytes(3 * 22, Gen),        randomBytes(128, Gen),
            randomBytes(3 * 70 * 32, Gen)};
  ir::Model M;
  M.Graphs.push_back(B.G);
  return M;
}

} // namespace

TEST_CASE("the generated kernels' cases run as on ref") {
  std::mt19937 Gen(77);
  std::vector<std::vector<uint8_t>> Inputs;
  const ir::Model M = generatedKernelCases(Gen, Inputs);
  test::TempDir Dir, In, Ref;
  const std::string Model = Dir.file("generated_kernels.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  for (size_t I = 0; I < Inputs.size(); ++I)
    test::writeFileBytes(In.file("input_" + std::to_string(I) + ".bin"),
                         Inputs[I]);
  // Every layer takes the generated kernel, with all three
  // requantizations: SMMULR, the 64-bit product (biases beyond SMMULR's
  // range) and cm_requantize (left shifts).
  const std::string C = compiledModelC(Model, "cmsis-nn4", Dir.file("c"));
  auto Count = [&](llvm::StringRef What) {
    return llvm::StringRef(C).count(What);
  };
  CHECK(Count("DEPTHWISE_CONV_2D as accelgen_depthwise_conv_s8_dsp */") == 9);
  // Taps out of the immediates' reach: filter_12x12's from the 128th on
  // (16 of 144), wide_rows' from the third row on (3); and the macro's
  // definition.
  CHECK(Count("CM_DW_TAP_C(a0") == 16 + 3 + 1);
  CHECK(Count("CONV_2D as accelgen_convolve_s8_dsp */") == 15);
  CHECK(Count("ADD as accelgen_elementwise_add_s8_dsp */") == 2);
  CHECK(Count("FULLY_CONNECTED as accelgen_fully_connected_s8_dsp */") == 4);
  // The depthwise kernels read their multipliers from q[]: left_shift by
  // cm_requantize, large_bias by the 64-bit product, seven by SMMULR (of
  // sums already doubled).
  CHECK(Count("cm_requantize(a0, q[") == 1);
  CHECK(Count("cm_mulhi_wide(a0, q[") == 1);
  CHECK(Count("cm_smmulr(a0, q[") == 7);
  // Channels without a right shift: zero_shift's, and conv_one_large_bias's
  // (a00 and a10 for a pair of pixels, a00 for the odd one).
  // (Their shift word is the right shift less one, -1 for none.)
  CHECK(Count("if (q[2] >= 0)") == 1 + 3);
  // The fully connected layers' multipliers are constants: two requantize
  // by SMMULR, one by the 64-bit product, one by cm_requantize; the first
  // has four units at a time and two one at a time.
  // (Each in its kernel's _out function, of the sum a.)
  CHECK(Count("cm_smmulr(a * 2, ") == 2);
  CHECK(Count("cm_mulhi_wide(a, ") == 1);
  CHECK(Count("cm_requantize(a, ") == 1);
  CHECK(Count("for (c = 4; c < 6; ++c, r += 24)") == 1);
  CHECK(Count("for (k = 0; k < 128; k += 32)") == 2);
  // The im2col kernels: a pair of pixels, and for an odd count one more
  // (pointwise_odd_pixels, conv_one_channel, conv_odd_pixels,
  // conv_left_shift, conv_one_large_bias).
  CHECK(Count("cm_requantize(a00,") == 2);
  CHECK(Count("cm_mulhi_wide(a00,") == 4);
  CHECK(Count("cm_smmulr(a00 * 2,") == 9 + 3);
  // pointwise_8_to_16's columns (8 values, 16 output channels) and
  // pointwise_three_channels' (4, 4) are stored doubled: SMMULR takes
  // their sums as they are.
  CHECK(Count("cm_smmulr(a00, q[") == 2);
  // The output offset folded into the rounding where every channel shifts
  // right by 1 to 22 (most layers here), added after it elsewhere.
  CHECK(Count("v = cm_ssat8(v);") > 0);
  CHECK(Count("v = cm_ssat8(v + ") > 0);
  // The im2col kernel unrolls 36 of 108 values (in the code for a pair of
  // pixels and in the odd pixel's), 28 of 28; conv_batch2's and
  // pointwise_three_channels' columns end with u's zero point, -2,
  // against a weight of 0.
  CHECK(Count("for (k = 0; k < 108; k += 36)") == 2);
  CHECK(Count("memset(d, -2, 1);") == 2);
  // The additions: SMMULR for all three rescalings, ReLU clamping at the
  // zero point.
  CHECK(Count("cm_smmulr(v[2] * 2,") == 2);
  CHECK(Count("v[2] = v[2] < -100 ? -100 : v[2];") == 1);
  // One input channel: 5 rows of two words of taps, SMLAD per word and
  // channel of a group of four.
  CHECK(Count("cm_smlad(odd, w[") == 5 * 2 * 4);
  test::RunResult R = runModel(Model, In.path(), Ref.path(), false);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  // The scales keep the results off the int8 limits: every output but those
  // of the biases beyond SMMULR's range and of the left shifts (a
  // multiplier of 1.25 or more) has at least 16 distinct values (or half as
  // many as it has values) and at most a quarter of its values at -128 or
  // 127.
  const ir::Graph &G = M.Graphs[0];
  for (size_t I = 0; I < G.Outputs.size(); ++I) {
    const std::string &Name = G.tensor(G.Outputs[I]).Name;
    if (llvm::StringRef(Name).endswith("large_bias") ||
        llvm::StringRef(Name).endswith("left_shift"))
      continue;
    const auto Bytes =
        test::readFileBytes(Ref.file("output_" + std::to_string(I) + ".bin"));
    const size_t Distinct =
        std::set<uint8_t>(Bytes.begin(), Bytes.end()).size();
    const size_t AtLimits =
        std::count_if(Bytes.begin(), Bytes.end(),
                      [](uint8_t V) { return V == 0x80 || V == 0x7f; });
    CHECK_MESSAGE(Distinct >= std::min<size_t>(16, Bytes.size() / 2), Name);
    CHECK_MESSAGE(AtLimits <= Bytes.size() / 4, Name);
  }
  // Family 3 (Cortex-M0/M3) takes the same kernels in plain C: byte
  // columns, the 1 x 1 convolutions' pixels read in place, byte weights,
  // one multiply-accumulate per value and weight.
  const std::string C3 = compiledModelC(Model, "cmsis-nn3", Dir.file("c3"));
  auto Count3 = [&](llvm::StringRef What) {
    return llvm::StringRef(C3).count(What);
  };
  CHECK(Count3("CONV_2D as accelgen_convolve_s8_dsp */") == 15);
  CHECK(Count3("FULLY_CONNECTED as accelgen_fully_connected_s8_dsp */") == 4);
  CHECK(Count3("DEPTHWISE_CONV_2D as accelgen_depthwise_conv_s8_dsp */") == 9);
  CHECK(Count3("CM_MAC_2X") == 0);
  CHECK(Count3("CM_DW_TAP") == 0);
  CHECK(Count3("cm_smlad") == 0);
  CHECK(Count3("_pixel(input, p)") > 0);
  CHECK(Count3("a00 += x0 * w0;") > 0);
  std::vector<std::pair<std::string, std::vector<std::string>>> Runs = {
      {"cmsis-nn4", {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}},
      {"cmsis-nn3", {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}}};
  if (haveCortexM())
    for (const char *Cpu : {"cortex-m4", "cortex-m3"})
      Runs.push_back(
          {"cmsis-nn", {"--cpu", Cpu, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}});
  for (const auto &Run : Runs) {
    // Named copies: doctest's INFO captures them, which C++17 forbids for
    // structured bindings.
    const std::string &Target = Run.first;
    const std::vector<std::string> &Extra = Run.second;
    INFO(Target << " " << llvm::join(Extra, " "));
    test::TempDir Out;
    R = runModelOn(Target, Extra, Model, In.path(), Out.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    checkSameOutputs(G, Out, Ref);
  }
}

TEST_CASE("constant operands and graph-input biases run as on ref") {
  // CMSIS-NN reads what is not in the arena from where it is: the constant
  // operand of an ADD is not the ADD's other input, a bias given at run time
  // is not zero. Host, Cortex-M4 and Cortex-M55 (Helium: its fully connected
  // layer folds the bias at compile time, so one given at run time falls
  // back to the reference kernel).
  std::mt19937 Gen(2024);
  std::vector<std::vector<uint8_t>> Inputs;
  const ir::Model M = operandKinds(Gen, Inputs);
  test::TempDir Dir, In;
  const std::string Model = Dir.file("operand_kinds.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  for (size_t I = 0; I < Inputs.size(); ++I)
    test::writeFileBytes(In.file("input_" + std::to_string(I) + ".bin"),
                         Inputs[I]);
  test::TempDir Ref;
  test::RunResult R = runModel(Model, In.path(), Ref.path(), false);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  std::vector<std::vector<std::string>> Runs = {
      {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH}};
  // --save-image replaces a symbolic link; it never writes through one.
  const std::string Victim = Dir.file("victim"), Link = Dir.file("image.elf");
  test::writeFileBytes(Victim, llvm::arrayRefFromStringRef("precious"));
  REQUIRE(!llvm::sys::fs::create_link(Victim, Link));
  const bool CortexM = haveCortexM();
  if (CortexM) {
    Runs.push_back({"--cpu", "cortex-m4", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH,
                    "--save-image", Link});
    Runs.push_back(
        {"--cpu", "cortex-m55", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  }
  const ir::Graph &G = M.Graphs[0];
  for (const std::vector<std::string> &Extra : Runs) {
    INFO(llvm::join(Extra, " "));
    test::TempDir Out;
    R = runModelOn("cmsis-nn", Extra, Model, In.path(), Out.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    checkSameOutputs(G, Out, Ref);
  }
  if (CortexM) {
    CHECK(test::readFileText(Victim) == "precious");
    CHECK(llvm::sys::fs::is_regular_file(Link));
    CHECK(llvm::StringRef(test::readFileText(Link)).startswith("\x7f" "ELF"));
  }
}

TEST_CASE("layers that differ only in their constants share one generated "
          "function") {
  // person_detect's five 1x1 convolutions of 6x6x128 and five depthwise
  // convolutions before them have one function each, called with each
  // layer's own weights and parameters (the runs above check the outputs
  // and layers); the other eighteen layers' code differs.
  requireSharedDir();
  test::TempDir Out;
  const std::string C = compiledModelC(modelPath("tflm_person_detect_int8"),
                                       "cmsis-nn4", Out.path());
  auto Count = [&](llvm::StringRef What) {
    return llvm::StringRef(C).count(What);
  };
  CHECK(Count("static void cnn_op14_conv(") == 1);
  CHECK(Count("static void cnn_op16_conv(") == 0);
  CHECK(Count("static void cnn_op13_depthwise(") == 1);
  CHECK(Count("static void cnn_op15_depthwise(") == 0);
  CHECK(Count("    cnn_op14_conv(") == 5);
  CHECK(Count("    cnn_op13_depthwise(") == 5);
  for (int Op : {14, 16, 18, 20, 22})
    CHECK(Count("cnn_op" + std::to_string(Op) + "_conv_weights, cnn_op" +
                std::to_string(Op) + "_conv_params);") == 1);
  // One function per other layer: 28 generated layers, 20 functions.
  CHECK(Count("_conv(const int8_t *input, int8_t *output") +
            Count("_depthwise(const int8_t *input, int8_t *output") ==
        20);
}

TEST_CASE("--save-image takes a bare file name, in the working folder") {
  // A name without a folder has no parent to create.
  if (!haveCortexM())
    return;
  requireSharedDir();
  test::TempDir Work, Out;
  const std::string Command =
      "cd '" + Work.path() + "' && exec '" + test::accelgenPath() + "' run '" +
      modelPath("tflm_simple_add") +
      "' --target cmsis-nn --cpu cortex-m4 --cmsis-nn '" +
      ACCELGEN_CMSIS_NN_PATH + "' --inputs '" +
      seedDirs("tflm_simple_add").front() + "' --outputs '" + Out.path() +
      "' --save-image image.elf";
  test::RunResult R = test::runProgram("/bin/sh", {"-c", Command}, 120);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  CHECK(llvm::StringRef(test::readFileText(Work.file("image.elf")))
            .startswith("\x7f"
                        "ELF"));
}

// The models with Cortex-M cases, listed once.
#define CORTEX_M_MODELS(X)                                                     \
  X("mlperf_tiny_ad_autoencoder_int8")                                         \
  X("mlperf_tiny_ic_resnet8_int8")                                             \
  X("mlperf_tiny_kws_dscnn_int8")                                              \
  X("mlperf_tiny_vww_mobilenetv1_025_96_int8")                                 \
  X("tflm_hello_world_int8")                                                   \
  X("tflm_micro_speech_int8")                                                  \
  X("tflm_person_detect_int8")                                                 \
  X("tflm_person_detect_int8_qdimfix")                                         \
  X("tflm_simple_add")

// One case per model and CPU, so that CTest runs them in parallel.
#define CORTEX_M_CASE(MODEL, CPU)                                              \
  TEST_CASE(MODEL " on " CPU " under QEMU") { checkOnCpu(MODEL, CPU); }
#define CORTEX_M_CASES(MODEL)                                                  \
  CORTEX_M_CASE(MODEL, "cortex-m55")                                           \
  CORTEX_M_CASE(MODEL, "cortex-m4")
CORTEX_M_MODELS(CORTEX_M_CASES)
// Cortex-M0 (family 3 in Thumb-1) on QEMU's micro:bit, whose 16 KiB of RAM
// hold these two layer at a time.
CORTEX_M_CASE("tflm_micro_speech_int8", "cortex-m0")
CORTEX_M_CASE("tflm_hello_world_int8", "cortex-m0")

// Cascades (docs/cascading.md): the CMSIS-NN calls and the generated
// kernels a stripe at a time, on the host (the DSP family's portable C) and
// under QEMU, every seed and every layer, dumped stripe by stripe.
const char *const CascadedModels[] = {
    "mlperf_tiny_vww_mobilenetv1_025_96_int8", "mlperf_tiny_ic_resnet8_int8",
    "mlperf_tiny_kws_dscnn_int8", "tflm_person_detect_int8",
    "tflm_micro_speech_int8"};

TEST_CASE("cascaded on the host: every layer as on ref") {
  for (const char *Model : CascadedModels) {
    INFO(Model);
    checkCascadedOn("cmsis-nn4", Model, {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  }
}

// Family 3's generated kernels in plain C take stripes too.
TEST_CASE("cascaded on the host at family 3: every layer as on ref") {
  for (const char *Model :
       {"mlperf_tiny_kws_dscnn_int8", "mlperf_tiny_vww_mobilenetv1_025_96_int8",
        "tflm_micro_speech_int8"}) {
    INFO(Model);
    checkCascadedOn("cmsis-nn3", Model, {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  }
}

#define CASCADED_CASE(CPU)                                                     \
  TEST_CASE("cascaded on " CPU " under QEMU: every layer as on ref") {         \
    if (!haveCortexM())                                                        \
      return;                                                                  \
    for (const char *Model : CascadedModels) {                                 \
      INFO(Model);                                                             \
      checkCascadedOn("cmsis-nn", Model,                                       \
                      {"--cpu", CPU, "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});   \
    }                                                                          \
  }
CASCADED_CASE("cortex-m4")
CASCADED_CASE("cortex-m55")

// kws needs 984 bytes more than the micro:bit's RAM layer at a time; its
// cascades fit, every seed and layer as on ref.
TEST_CASE("kws cascaded within the micro:bit's RAM on cortex-m0") {
  if (!haveCortexM())
    return;
  const std::string Model = modelPath("mlperf_tiny_kws_dscnn_int8");
  test::TempDir Out;
  test::RunResult R = runModelOn(
      "cmsis-nn", {"--cpu", "cortex-m0", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH},
      Model, seedDirs("mlperf_tiny_kws_dscnn_int8").front(), Out.path(), false);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("does not fit the memory of QEMU's microbit") !=
        std::string::npos);
  checkCascadedOn("cmsis-nn", "mlperf_tiny_kws_dscnn_int8",
                  {"--cpu", "cortex-m0", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
}

namespace {

/// The arena report.json gives for `accelgen compile MODEL --target
/// cmsis-nn4 EXTRA...`, scratch area included.
int64_t arenaOnCmsisNn4(const std::string &Model,
                        const std::vector<std::string> &Extra) {
  test::TempDir Out;
  std::vector<std::string> Args = {"compile",   Model, "--target",
                                   "cmsis-nn4", "-o",  Out.path()};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  test::RunResult R = runAccelgen(Args);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  auto Report = llvm::json::parse(test::readFileText(Out.file("report.json")));
  REQUIRE(bool(Report));
  return *Report->getAsObject()->getObject("arena")->getInteger("bytes");
}

} // namespace

TEST_CASE("micro_speech's fully connected layer sums the convolution's "
          "stripes on cmsis-nn") {
  // Its 4,000-byte input is never whole: the depthwise convolution writes
  // one row of 160 bytes a step and the fully connected layer adds it to
  // its four sums, by the generated kernel's SUMS form on the DSP family
  // (the runs above check every seed and layer, and on Cortex-M55, where
  // Helium's function takes the layer, the reference kernel's _accumulate
  // form).
  requireSharedDir();
  const std::string Model = modelPath("tflm_micro_speech_int8");
  test::TempDir Out;
  test::RunResult R = runAccelgen({"compile", Model, "--target", "cmsis-nn4",
                                   "--cascade", "-o", Out.path()});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  auto Report = llvm::json::parse(test::readFileText(Out.file("report.json")));
  REQUIRE(bool(Report));
  const llvm::json::Object &Fc =
      *(*Report->getAsObject()->getArray("operators"))[2].getAsObject();
  CHECK(Fc.getString("type").getValueOr("") == "FULLY_CONNECTED");
  CHECK(Fc.getInteger("cascade").getValueOr(-1) == 1);
  CHECK(Fc.getString("kernel").getValueOr("") ==
        "accelgen_fully_connected_s8_dsp");
  CHECK(llvm::StringRef(test::readFileText(Out.file("model.c")))
            .contains("e[3], e[4] - e[3], e[0] < e[1]);"));
  const int64_t Cascaded = arenaOnCmsisNn4(Model, {"--cascade"});
  const int64_t Layer = arenaOnCmsisNn4(Model, {});
  INFO(Cascaded << " bytes cascaded, " << Layer << " layer at a time");
  // The input (1,960 bytes), a row of the convolution's output (160), the
  // sums (16) and the softmax's output, then the scratch area.
  CHECK(Cascaded * 2 < Layer);
}

TEST_CASE("cascaded under a budget on cortex-m4: it fits, every output as "
          "on ref") {
  if (!haveCortexM())
    return;
  // Between the least working memory and layer at a time: the planner
  // cascades as little as fits.
  const std::string Model = "mlperf_tiny_vww_mobilenetv1_025_96_int8";
  const std::vector<std::string> Cpu = {"--cpu", "cortex-m4", "--cmsis-nn",
                                        ACCELGEN_CMSIS_NN_PATH};
  const int64_t Least = smallestBudget("cmsis-nn", Model, Cpu);
  const int64_t Layer = arenaOnCmsisNn4(modelPath(Model), {});
  CHECK(Least < Layer);
  const int64_t Budget = (Least + Layer) / 2;
  std::vector<std::string> Args = {"--memory-budget", std::to_string(Budget)};
  Args.insert(Args.end(), Cpu.begin(), Cpu.end());
  checkModelOutputs(Model, [&](const std::string &M, const std::string &In,
                               const std::string &Out, bool Layers) {
    return runModelOn("cmsis-nn", Args, M, In, Out, Layers);
  });
  CHECK(arenaOnCmsisNn4(modelPath(Model),
                        {"--memory-budget", std::to_string(Budget)}) <= Budget);
  // The smallest budget the error names, scratch area included, works; a
  // byte less does not.
  CHECK(arenaOnCmsisNn4(modelPath(Model),
                        {"--memory-budget", std::to_string(Least)}) <= Least);
  test::TempDir Below;
  test::RunResult R = runAccelgen(
      {"compile", modelPath(Model), "--target", "cmsis-nn4", "--memory-budget",
       std::to_string(Least - 1), "-o", Below.path()});
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("the smallest budget that works is " +
                              std::to_string(Least) + " bytes") !=
                    std::string::npos,
                R.Stderr);
}

TEST_CASE("an int8 MobileNetV2-224 within 176,128 bytes on cortex-m4 under "
          "QEMU, every layer as TensorFlow Lite Micro") {
  // Made from the shared uint8 model (tools/int8-model); its expected
  // outputs and layers are the oracle's, on the oracle's inputs (seed 1).
  // Cortex-M4's board holds its 3.4 MB of weights; the M55 board's 512 KiB
  // do not.
  if (!haveCortexM())
    return;
  requireSharedDir();
  auto Imported = tflite::importModelFile(
      modelPath("coral_mobilenet_v2_10_224_quant_uint8"));
  REQUIRE_MESSAGE(bool(Imported), llvm::toString(Imported.takeError()));
  ir::Model &M = *Imported->Model;
  llvm::Error E = int8model::toInt8(M.main());
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  test::TempDir Dir, In, Want;
  const std::string Model = Dir.file("mobilenet_v2_int8.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  test::RunResult R =
      test::runProgram(oraclePath(), {Model, In.path(), Want.path(), "--seed",
                                      "1", "--dump-layers"});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stdout << R.Stderr);
  // The plan: the arena, every call's scratch in it, within the budget with
  // the input inside; the first cascade in tiles, on CMSIS-NN's wrappers; at
  // most 1.1 times the MACs.
  const std::vector<std::string> Budget = {"--memory-budget", "176128"};
  const llvm::json::Object Report = compiledInTiles(Model, "cmsis-nn4", 176128);
  const int64_t Arena =
      Report.getObject("arena")->getInteger("bytes").getValueOr(-1);
  const llvm::json::Object &First = *Report.getObject("cascading")
                                         ->getArray("cascades")
                                         ->front()
                                         .getAsObject();
  int Tiled = 0, Scratch = 0;
  for (const llvm::json::Value &Op : *Report.getArray("operators")) {
    const llvm::json::Object &O = *Op.getAsObject();
    if (O.getInteger("tile_columns")) {
      // In tiles, CMSIS-NN's wrappers, which take any tile's shapes.
      ++Tiled;
      const std::string Kernel = O.getString("kernel").getValueOr("").str();
      CHECK_MESSAGE((Kernel == "arm_convolve_wrapper_s8" ||
                     Kernel == "arm_depthwise_conv_wrapper_s8"),
                    Kernel);
    }
    if (llvm::Optional<int64_t> Bytes = O.getInteger("scratch_bytes")) {
      ++Scratch;
      CHECK(*O.getInteger("scratch_offset") + *Bytes <= Arena);
    }
  }
  CHECK(Tiled == First.getInteger("last_op").getValueOr(-1) + 1);
  CHECK(Scratch > 0);
  // Every layer, dumped tile by tile and stripe by stripe, and the output.
  test::TempDir Out;
  std::vector<std::string> Args = {"--cpu", "cortex-m4", "--cmsis-nn",
                                   ACCELGEN_CMSIS_NN_PATH};
  Args.insert(Args.end(), Budget.begin(), Budget.end());
  R = runModelOn("cmsis-nn", Args, Model, In.path(), Out.path(), true);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  const std::vector<uint8_t> Got =
      test::readFileBytes(Out.file("output_0.bin"));
  const std::vector<uint8_t> Expected =
      test::readFileBytes(Want.file("output_0.bin"));
  CHECK_MESSAGE(Got == Expected, describeDiff(Got, Expected, ir::DType::I8));
  int Layers = 0;
  for (int K = 0;; ++K) {
    const std::string File =
        pathJoin("layers", "output_" + std::to_string(K) + ".bin");
    if (!exists(Want.file(File)))
      break;
    CHECK_MESSAGE(test::readFileBytes(Out.file(File)) ==
                      test::readFileBytes(Want.file(File)),
                  File);
    ++Layers;
  }
  CHECK(Layers == 66);
  // The least working memory, against layer at a time.
  const int64_t Cascaded = arenaOnCmsisNn4(Model, {"--cascade"});
  const int64_t Layer = arenaOnCmsisNn4(Model, {});
  MESSAGE("int8 MobileNetV2-224 on cmsis-nn4: arena "
          << Arena << " bytes within 176,128, " << Cascaded
          << " cascaded (least memory, no tiles), " << Layer
          << " layer at a time");
  CHECK(Cascaded * 6 < Layer);
}

// The models with state (LSTM) have no CMSIS-NN function: they run on the
// reference kernels, and must link bare-metal (they need the C library's
// heap) and match like the others.
TEST_CASE("the LSTM models on cortex-m4 under QEMU") {
  if (!haveCortexM())
    return;
  for (const std::string &Model : test::sharedModelNames()) {
    if (!test::sharedModelHasState(Model))
      continue;
    INFO(Model);
    // Layer by layer where the vectors have layers.
    const bool Layers =
        exists(pathJoin(vectorsDir(), Model + "/seed1/layers/map.json"));
    checkModel(Model, "", Layers,
               [&](const std::string &M, const std::string &In,
                   const std::string &Out, bool Layers) {
                 return runModelOn("cmsis-nn",
                                   {"--cpu", "cortex-m4", "--cmsis-nn",
                                    ACCELGEN_CMSIS_NN_PATH},
                                   M, In, Out, Layers);
               });
  }
}

TEST_CASE("every cmsis-nn model has Cortex-M cases") {
#define CORTEX_M_NAME(MODEL) MODEL,
  const std::vector<std::string> Listed = {CORTEX_M_MODELS(CORTEX_M_NAME)};
#undef CORTEX_M_NAME
  CHECK(Listed == cmsisModels());
}

TEST_CASE("the emitted C is strict C99 at every CPU family") {
  requireSharedDir();
  for (const char *Family : {"cmsis-nn3", "cmsis-nn4", "cmsis-nn55"})
    for (const char *Model :
         {"mlperf_tiny_kws_dscnn_int8", "tflm_micro_speech_int8",
          "mlperf_tiny_ic_resnet8_int8"}) {
      INFO(Family << " " << Model);
      test::TempDir Out;
      const std::string Dir = pathJoin(Out.path(), "c");
      test::RunResult R = runAccelgen(
          {"compile", modelPath(Model), "--target", Family, "-o", Dir});
      REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
      const std::string ModelC = pathJoin(Dir, "model.c");
      // The CMSIS-NN calls are there (the models are mostly convolutions).
      CHECK(test::readFileText(ModelC).find("arm_") != std::string::npos);
      for (const char *Compiler : {"gcc", "clang-14"}) {
        auto CC = llvm::sys::findProgramByName(Compiler);
        REQUIRE_MESSAGE(bool(CC), Compiler << " is not installed");
        test::RunResult C = test::runProgram(
            *CC,
            {"-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
             "-isystem", std::string(ACCELGEN_CMSIS_NN_PATH) + "/Include", "-I",
             Dir, "-c", ModelC, "-o", pathJoin(Out.path(), "model.o")},
            120);
        CHECK_MESSAGE(C.ExitCode == 0, Compiler << ": " << C.Stderr);
      }
    }
}

TEST_CASE("the cmsis-nn models are every int8 model without state") {
  const std::vector<std::string> Models = cmsisModels();
  CHECK(Models.size() == test::sharedModelNames().size() - 3);
  CHECK(llvm::is_contained(Models, "mlperf_tiny_kws_dscnn_int8"));
}

TEST_CASE("every int8 model on the host through CMSIS-NN") {
  for (const std::string &M : cmsisModels()) {
    INFO(M);
    checkModel(M, layersOf(M), /*CompareLayers=*/true, runOnHost);
  }
}

// The generated kernels' primitives in C (templates/cm_dsp.c.in without the
// DSP extension): target cmsis-nn4 built for the host runs the models whose
// depthwise layers take the generated kernel, every seed and layer against
// the reference vectors. (Cortex-M4 runs them with the DSP instructions
// above.)
TEST_CASE("the generated depthwise kernel in portable C on the host") {
  requireSharedDir();
  for (const std::string M :
       {"mlperf_tiny_kws_dscnn_int8", "mlperf_tiny_vww_mobilenetv1_025_96_int8",
        "tflm_person_detect_int8"}) {
    INFO(M);
    test::RunResult E =
        runAccelgen({"explain", modelPath(M), "--target", "cmsis-nn4"});
    REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
    CHECK(
        E.Stdout.find("DEPTHWISE_CONV_2D -> accelgen_depthwise_conv_s8_dsp") !=
        std::string::npos);
    checkModel(M, layersOf(M), /*CompareLayers=*/true,
               [](const std::string &Model, const std::string &In,
                  const std::string &Out, bool Layers) {
                 return runModelOn("cmsis-nn4",
                                   {"--cmsis-nn", ACCELGEN_CMSIS_NN_PATH},
                                   Model, In, Out, Layers);
               });
  }
}

TEST_CASE("the backend's own run options apply to its targets only") {
  requireSharedDir();
  const std::string Name = "mlperf_tiny_kws_dscnn_int8";
  const std::string Model = modelPath(Name);
  const std::string In = seedDirs(Name).front();
  test::TempDir Out;
  // --cmsis-nn is the cmsis-nn-calls backend's: ref neither reads it nor
  // silently ignores it.
  test::RunResult R = runAccelgen(
      {"run", Model, "--target", "ref", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH,
       "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("--cmsis-nn does not apply to target 'ref': "
                      "neither its backend (ref-kernels) nor a CPU fallback "
                      "reads it") != std::string::npos);
  // An option no backend defines is an unknown option.
  R = runAccelgen({"run", Model, "--target", "cmsis-nn", "--no-such-option",
                   "1", "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith("error: "));
  // Its values are checked where it reads them.
  R = runAccelgen({"run", Model, "--target", "cmsis-nn", "--cpu", "cortex-m4",
                   "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH, "--timeout", "soon",
                   "--inputs", In, "--outputs", Out.path()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("--timeout 'soon' is not a number of seconds") !=
        std::string::npos);
}

TEST_CASE("a program larger than the QEMU board's memory says so") {
  if (!haveCortexM())
    return;
  // 1 MiB of int8 in and out: the arena fits Cortex-M4's 2 MiB board (MPS2),
  // not Cortex-M55's 512 KiB (MPS3 AN547).
  ir::GraphBuilder B;
  const int32_t In = B.tensor("in", {1, 1024, 512}, ir::perTensor(0.5f, 0),
                              ir::DType::I8);
  const int32_t Out = B.tensor("out", {1, 1024, 512}, ir::perTensor(0.25f, 3),
                               ir::DType::I8);
  B.op("QUANTIZE", {In}, {Out});
  const ir::Model M = modelOf(B, {In}, {Out});
  test::TempDir Dir, Inputs, Out1;
  const std::string Model = Dir.file("large.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  test::writeFileBytes(Inputs.file("input_0.bin"),
                       std::vector<uint8_t>(1024 * 512, 7));
  test::RunResult R = runModelOn(
      "cmsis-nn", {"--cpu", "cortex-m55", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH},
      Model, Inputs.path(), Out1.path(), false);
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("building the image: the program does not fit "
                              "the memory of QEMU's mps3-an547 (cortex-m55: "
                              "524288 bytes of code and constants, 524288 "
                              "bytes of RAM for data, the arena and the "
                              "stack): region `RAM' overflowed by ") !=
                    std::string::npos,
                R.Stderr);
  CHECK(R.Stderr.find('\n') == R.Stderr.size() - 1);
}
