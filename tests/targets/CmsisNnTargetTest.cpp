//===- CmsisNnTargetTest.cpp - Which CMSIS-NN function runs what ----------===//
//
// targets/cmsis-nn/cmsis-nn.td decides, per operator and CPU family, which
// arm_* function runs it or why it falls back to the reference kernels;
// targets/cmsis-nn/CmsisNn.cpp reads that decision and sizes the scratch buffer. These tests
// build small graphs and check the decisions against CMSIS-NN's wrappers
// (arm_convolve_wrapper_s8, arm_depthwise_conv_wrapper_s8) and the scratch
// sizes against the *_get_buffer_size formulas, computed here from the
// shapes. Then each constraint's generated boundary cases run as a test of
// its own. The models themselves run in tests/e2e/CmsisNnRunTest.
//
//===----------------------------------------------------------------------===//
#include "TestTargets.h"
#include "../target/TargetLibTestSupport.h"

#include "cmsis-nn/CmsisNn.h"
#include "import/TFLiteImporter.h"
#include "ir/OpCode.h"
#include "target/ConstraintProbe.h"
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/TargetInfo.h"

#include <map>
#include <set>

#define GET_LEGALITY_DECL
#include "Legality.inc"
#define GET_CONSTRAINT_TESTS_DECL
#define GET_CONSTRAINT_TESTS_IMPL
#include "ConstraintTests.inc"

using namespace accelgen;
namespace cmsis_nn = accelgen::targets::cmsis_nn;
using ir::GraphBuilder;
using ir::perTensor;

namespace {

constexpr unsigned M3 = 0, M4 = 1, M55 = 2;

using Attrs = std::map<std::string, ir::AttrValue>;

/// One convolution (or depthwise) of a [1, H, W, C] input with a KH x KW
/// filter to \p OC channels, per-channel weights.
ir::Graph conv(const char *Op, int32_t H, int32_t W, int32_t C, int32_t KH,
               int32_t KW, int32_t OC, Attrs Extra = {}) {
  GraphBuilder B;
  const bool Dw = std::string(Op) == "DEPTHWISE_CONV_2D";
  Attrs A = {{"padding", std::string("VALID")},
             {"stride_h", int64_t(1)},
             {"stride_w", int64_t(1)},
             {"dilation_h", int64_t(1)},
             {"dilation_w", int64_t(1)},
             {"fused_activation", std::string("NONE")}};
  if (Dw)
    A["depth_multiplier"] = int64_t(OC / C);
  for (auto &[K, V] : Extra)
    A[K] = V;
  const int64_t S = std::get<int64_t>(A["stride_h"]);
  const int64_t SW = std::get<int64_t>(A["stride_w"]);
  const bool Same = std::get<std::string>(A["padding"]) == "SAME";
  const int32_t OH = Same ? (H + S - 1) / S : (H - KH) / S + 1;
  const int32_t OW = Same ? (W + SW - 1) / SW : (W - KW) / SW + 1;
  int32_t In = B.tensor("in", {1, H, W, C}, perTensor(0.5f, -3));
  int32_t F =
      B.constant("w",
                 Dw ? std::vector<int32_t>{1, KH, KW, OC}
                    : std::vector<int32_t>{OC, KH, KW, C},
                 ir::perChannel(std::vector<float>(OC, 0.25f), Dw ? 3 : 0));
  int32_t Bias = B.constant("b", {OC}, perTensor(0.125f, 0), ir::DType::I32);
  int32_t Out = B.tensor("out", {1, OH, OW, OC}, perTensor(1.0f, 5));
  B.op(Op, {In, F, Bias}, {Out}, A);
  B.inputs({In}).outputs({Out});
  return B.G;
}

cmsis::OpChoice choose(const ir::Graph &G, unsigned V, size_t Index = 0,
                       cmsis::Kernels K = cmsis::Kernels::Any) {
  auto T = test::builtinTarget("cmsis-nn");
  return cmsis::chooseFunction(G, Index, *T, V, K);
}

/// The choice among CMSIS-NN's own functions (`--library-calls-only`).
cmsis::OpChoice chooseCall(const ir::Graph &G, unsigned V) {
  return choose(G, V, 0, cmsis::Kernels::LibraryOnly);
}

/// Calls \p Fn with every operator of every shared model on every CPU
/// family, and the choice for it.
void forEachSharedChoice(
    llvm::function_ref<void(const std::string &Model, unsigned V,
                            const ir::Graph &G, size_t I,
                            const cmsis::OpChoice &C)>
        Fn) {
  auto T = test::builtinTarget("cmsis-nn");
  for (const std::string &Name : test::sharedModelNames()) {
    auto M = tflite::importModelFile(test::sharedDir() + "/models/" + Name +
                                     ".tflite");
    REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
    const ir::Graph &G = M->Model->main();
    for (unsigned V : {M3, M4, M55})
      for (size_t I = 0; I < G.Operators.size(); ++I)
        Fn(Name, V, G, I, cmsis::chooseFunction(G, I, *T, V));
  }
}

} // namespace

TEST_CASE("cmsis-nn is registered with its CPU families") {
  auto T = test::builtinTarget("cmsis-nn");
  CHECK(T->name() == "cmsis-nn");
  CHECK(T->versions() == std::vector<std::string>{"3", "4", "55"});
  for (const cmsis::CpuInfo &C : cmsis::cpus())
    CHECK(T->findVersion(C.Version).has_value());
  REQUIRE(cmsis::findCpu("cortex-m55"));
  CHECK(std::string(cmsis::findCpu("cortex-m55")->Machine) == "mps3-an547");
  CHECK(cmsis::findCpu("cortex-a53") == nullptr);
}

TEST_CASE("convolutions take the wrapper's path") {
  // 1 x 1, unit stride: the fast path without DSP (where the output
  // channels are not in twos; in twos the generated kernel in plain C,
  // and the fast path among CMSIS-NN's own functions), and with Helium
  // where the output channels are not in fours; with DSP alone, the
  // generated im2col kernel where the output channels are in twos.
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 7), M3).Function ==
        "arm_convolve_1x1_s8_fast");
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 8), M3).Function ==
        "accelgen_convolve_s8_dsp");
  CHECK(chooseCall(conv("CONV_2D", 8, 8, 16, 1, 1, 8), M3).Function ==
        "arm_convolve_1x1_s8_fast");
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 6), M55).Function ==
        "arm_convolve_1x1_s8_fast");
  for (int64_t IC : {6, 16, 64})
    CHECK(choose(conv("CONV_2D", 8, 8, IC, 1, 1, 8), M4).Function ==
          "accelgen_convolve_s8_dsp");
  // Odd output channels: CMSIS-NN's paths.
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 7), M4).Function ==
        "arm_convolve_1x1_s8_fast");
  // 1 x 1, stride 2: the strided 1 x 1 path, VALID or SAME (which pads
  // nothing with a 1 x 1 filter), except with DSP alone.
  for (const char *Padding : {"VALID", "SAME"}) {
    const ir::Graph G = conv("CONV_2D", 8, 8, 16, 1, 1, 8,
                             {{"stride_h", int64_t(2)},
                              {"stride_w", int64_t(2)},
                              {"padding", std::string(Padding)}});
    CHECK(choose(G, M3).Function == "accelgen_convolve_s8_dsp");
    CHECK(chooseCall(G, M3).Function == "arm_convolve_1x1_s8");
    CHECK(choose(G, M4).Function == "accelgen_convolve_s8_dsp");
    CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 7,
                      {{"stride_h", int64_t(2)},
                       {"stride_w", int64_t(2)},
                       {"padding", std::string(Padding)}}),
                 M4)
              .Function == "arm_convolve_1x1_s8");
    CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 6,
                      {{"stride_h", int64_t(2)},
                       {"stride_w", int64_t(2)},
                       {"padding", std::string(Padding)}}),
                 M55)
              .Function == "arm_convolve_1x1_s8");
  }
  // One row, a 1 x 3 filter, 4 channels: 1 x N.
  CHECK(choose(conv("CONV_2D", 1, 16, 4, 1, 3, 7), M3).Function ==
        "arm_convolve_1_x_n_s8");
  CHECK(chooseCall(conv("CONV_2D", 1, 16, 4, 1, 3, 8), M3).Function ==
        "arm_convolve_1_x_n_s8");
  CHECK(choose(conv("CONV_2D", 1, 16, 4, 1, 3, 6), M55).Function ==
        "arm_convolve_1_x_n_s8");
  CHECK(choose(conv("CONV_2D", 1, 16, 4, 1, 3, 7), M4).Function ==
        "arm_convolve_1_x_n_s8");
  // The same with 3 channels (stride_w x channels not a multiple of 4).
  CHECK(choose(conv("CONV_2D", 1, 16, 3, 1, 3, 7), M3).Function ==
        "arm_convolve_s8");
  CHECK(chooseCall(conv("CONV_2D", 1, 16, 3, 1, 3, 8), M3).Function ==
        "arm_convolve_s8");
  CHECK(choose(conv("CONV_2D", 1, 16, 3, 1, 3, 7), M4).Function ==
        "arm_convolve_s8");
  // With Helium, output channels not in fours: the cheaper by the stated
  // costs of the generated DSP kernel and arm_convolve_s8 (on Cortex-M55
  // under QEMU, bench/cortex-m-layers.sh, this 3 x 3 layer of 6 channels
  // took 12,375 instructions in the DSP kernel and 15,433 in
  // arm_convolve_s8; a 12 x 12 x 24 one of 10 channels 428,939 and
  // 122,850).
  CHECK(choose(conv("CONV_2D", 8, 8, 3, 3, 3, 6), M55).Function ==
        "accelgen_convolve_s8_dsp");
  CHECK(choose(conv("CONV_2D", 12, 12, 24, 3, 3, 10,
                    {{"padding", std::string("SAME")}}),
               M55)
            .Function == "arm_convolve_s8");
  CHECK(choose(conv("CONV_2D", 8, 8, 3, 3, 3, 8), M4).Function ==
        "accelgen_convolve_s8_dsp");
  // With Helium, every int8 convolution of output channels in fours (any
  // filter, stride and padding) takes the generated Helium kernel.
  for (const ir::Graph &G :
       {conv("CONV_2D", 8, 8, 16, 1, 1, 8), conv("CONV_2D", 8, 8, 3, 3, 3, 8),
        conv("CONV_2D", 1, 16, 4, 1, 3, 8),
        conv("CONV_2D", 8, 8, 16, 1, 1, 4,
             {{"stride_h", int64_t(2)}, {"stride_w", int64_t(2)}})})
    CHECK(choose(G, M55).Function == "accelgen_convolve_s8_mve");
}

TEST_CASE("a 3 x 3 depthwise takes the 3x3 path outside Helium only") {
  ir::Graph G = conv("DEPTHWISE_CONV_2D", 8, 8, 8, 3, 3, 8,
                     {{"padding", std::string("SAME")}});
  // Channels in fours take the generated kernel, in plain C without DSP;
  // six do not, and take the 3x3 path.
  CHECK(choose(G, M3).Function == "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(G, M4).Function == "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 6, 3, 3, 6,
                    {{"padding", std::string("SAME")}}),
               M3)
            .Function == "arm_depthwise_conv_3x3_s8");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 6, 3, 3, 6,
                    {{"padding", std::string("SAME")}}),
               M4)
            .Function == "arm_depthwise_conv_3x3_s8");
  // With Helium, channels in eights take the generated Helium kernel;
  // otherwise the cheaper by the stated costs of the generated DSP kernel
  // and the optimized path: the DSP kernel for few channels (on Cortex-M55,
  // 12 channels: 24,479 instructions against 29,147; 4: 27,967 against
  // 84,010 on 16 x 16), the optimized path for many (its cost per pixel
  // less, per channel more).
  CHECK(choose(G, M55).Function == "accelgen_depthwise_conv_s8_mve");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 16, 3, 3, 16,
                    {{"padding", std::string("SAME")}}),
               M55)
            .Function == "accelgen_depthwise_conv_s8_mve");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 12, 3, 3, 12,
                    {{"padding", std::string("SAME")}}),
               M55)
            .Function == "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 28, 3, 3, 28,
                    {{"padding", std::string("SAME")}}),
               M55)
            .Function == "arm_depthwise_conv_s8_opt");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 4, 3, 3, 4,
                    {{"padding", std::string("SAME")}}),
               M55)
            .Function == "accelgen_depthwise_conv_s8_dsp");
  // One input channel to several: the generated kernel for output
  // channels in fours (in plain C without DSP), and with Helium the
  // generated Helium convolution (the filter transposed); otherwise a
  // convolution with Helium, the general depthwise path elsewhere.
  ir::Graph One = conv("DEPTHWISE_CONV_2D", 8, 8, 1, 3, 3, 8);
  CHECK(choose(One, M55).Function == "accelgen_convolve_s8_mve");
  CHECK(choose(One, M4).Function == "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(One, M3).Function == "accelgen_depthwise_conv_s8_dsp");
  CHECK(chooseCall(One, M3).Function == "arm_depthwise_conv_s8");
  ir::Graph Six = conv("DEPTHWISE_CONV_2D", 8, 8, 1, 3, 3, 6);
  CHECK(choose(Six, M55).Function == "arm_convolve_s8");
  CHECK(choose(Six, M4).Function == "arm_depthwise_conv_s8");
  CHECK(choose(Six, M3).Function == "arm_depthwise_conv_s8");
  // A 5 x 5 filter: the generated kernel for channels in fours, the
  // optimized path for six; a depth multiplier of 2: the general.
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 8, 5, 5, 8), M4).Function ==
        "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 8, 5, 5, 8), M3).Function ==
        "accelgen_depthwise_conv_s8_dsp");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 6, 5, 5, 6), M3).Function ==
        "arm_depthwise_conv_s8_opt");
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 8, 3, 3, 16), M4).Function ==
        "arm_depthwise_conv_s8");
}

TEST_CASE("scratch sizes follow the get_buffer_size formulas") {
  // arm_convolve_s8: 2 int16 columns of align(3 * 3 * 3, 4) = 28 on DSP;
  // 4 * ceil(27 / 16) * 16 = 128 bytes on Helium. The generated im2col
  // kernel (DSP) needs the same two columns; in plain C (family 3) two
  // columns of bytes, and none for a 1 x 1 filter (its pixels in place).
  ir::Graph G = conv("CONV_2D", 8, 8, 3, 3, 3, 8);
  CHECK(chooseCall(G, M3).ScratchBytes == 2 * 28 * 2);
  REQUIRE(choose(G, M3).Function == "accelgen_convolve_s8_dsp");
  CHECK(choose(G, M3).ScratchBytes == 2 * 28);
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 8), M3).ScratchBytes == 0);
  // Over 6 input channels (not whole words) the 1 x 1 columns are copied:
  // two of align(6, 4) bytes.
  CHECK(choose(conv("CONV_2D", 8, 8, 6, 1, 1, 8), M3).ScratchBytes == 2 * 8);
  REQUIRE(choose(G, M4).Function == "accelgen_convolve_s8_dsp");
  CHECK(choose(G, M4).ScratchBytes == 2 * 28 * 2);
  // On Helium: max(2 * align(216, 4) * 2, 4 * align(216, 16)) for a 3 x 3
  // filter over 24 channels.
  ir::Graph G24 =
      conv("CONV_2D", 12, 12, 24, 3, 3, 10, {{"padding", std::string("SAME")}});
  REQUIRE(choose(G24, M55).Function == "arm_convolve_s8");
  CHECK(choose(G24, M55).ScratchBytes == 4 * 224);
  // The generated Helium kernel: one column of align(27, 16) bytes; none
  // for a 1 x 1 filter, whose column is the input pixel.
  REQUIRE(choose(G, M55).Function == "accelgen_convolve_s8_mve");
  CHECK(choose(G, M55).ScratchBytes == 32);
  CHECK(choose(conv("CONV_2D", 8, 8, 16, 1, 1, 8), M55).ScratchBytes == 0);
  // arm_depthwise_conv_s8_opt: C * KH * KW int16 on DSP; 4 * 124 * KH * KW
  // bytes on Helium.
  ir::Graph D = conv("DEPTHWISE_CONV_2D", 8, 8, 8, 5, 5, 8);
  ir::Graph D6 = conv("DEPTHWISE_CONV_2D", 8, 8, 6, 5, 5, 6);
  REQUIRE(choose(D6, M3).Function == "arm_depthwise_conv_s8_opt");
  CHECK(choose(D6, M3).ScratchBytes == 6 * 25 * 2);
  ir::Graph D28 = conv("DEPTHWISE_CONV_2D", 8, 8, 28, 3, 3, 28);
  REQUIRE(choose(D28, M55).Function == "arm_depthwise_conv_s8_opt");
  CHECK(choose(D28, M55).ScratchBytes == 4 * 124 * 9);
  // The generated Helium kernel: KH rows as wide as the windows span, (4 -
  // 1) * 1 + 5 pixels of 16 channels (VALID: output 4 x 4).
  ir::Graph D16 = conv("DEPTHWISE_CONV_2D", 8, 8, 16, 5, 5, 16);
  REQUIRE(choose(D16, M55).Function == "accelgen_depthwise_conv_s8_mve");
  CHECK(choose(D16, M55).ScratchBytes == 5 * 8 * 16);
  // The generated kernel: KH rows as wide as the windows span, (4 - 1) * 1 +
  // 5 pixels of 8 channels (VALID: output 4 x 4), on every family.
  CHECK(choose(D, M4).ScratchBytes == 5 * 8 * 8);
  CHECK(choose(D, M3).ScratchBytes == 5 * 8 * 8);
  // With one input channel, 3 bytes more: 3 rows of (6 - 1) + 3 pixels.
  CHECK(choose(conv("DEPTHWISE_CONV_2D", 8, 8, 1, 3, 3, 8), M4).ScratchBytes ==
        3 * 8 + 3);
  // The 3x3 path needs none.
  ir::Graph D3 = conv("DEPTHWISE_CONV_2D", 8, 8, 6, 3, 3, 6);
  REQUIRE(choose(D3, M3).Function == "arm_depthwise_conv_3x3_s8");
  CHECK(choose(D3, M3).ScratchBytes == 0);
  // arm_avgpool_s8: an int32 per channel; arm_convolve_1x1_s8_fast: two
  // int16 rows of the input channels.
  CHECK(chooseCall(conv("CONV_2D", 8, 8, 16, 1, 1, 8), M3).ScratchBytes ==
        2 * 16 * 2);
}

TEST_CASE("the 1 x N scratch follows arm_convolve_1_x_n_s8_get_buffer_size") {
  // A 1 x 5 filter on one column, SAME: output 1, total padding 4, 2 each
  // side: one right-padded and one left-padded output column would need 2,
  // more than the 1 output, so the Helium size is arm_convolve_s8's, 4 *
  // ceil(20 / 16) * 16 = 128, over the DSP size 2 * 20 * 2 = 80.
  // Output channels not in fours, which the generated Helium kernel
  // would take.
  ir::Graph Narrow =
      conv("CONV_2D", 1, 1, 4, 1, 5, 6, {{"padding", std::string("SAME")}});
  REQUIRE(choose(Narrow, M55).Function == "arm_convolve_1_x_n_s8");
  CHECK(chooseCall(Narrow, M3).ScratchBytes == 80);
  CHECK(choose(Narrow, M4).ScratchBytes == 80);
  CHECK(choose(Narrow, M55).ScratchBytes == 128);
  // 16 columns, a 1 x 3 filter, 4 channels, SAME: padding 1 each side, one
  // right and one left padded column of 16; the row with its padding, max(3
  // * 4 + 1 * 4, 2 * 4 + 1 * 4) = 16, is below the DSP size 2 * 12 * 2 = 48.
  ir::Graph Wide =
      conv("CONV_2D", 1, 16, 4, 1, 3, 6, {{"padding", std::string("SAME")}});
  REQUIRE(choose(Wide, M55).Function == "arm_convolve_1_x_n_s8");
  CHECK(choose(Wide, M55).ScratchBytes == 48);
  // 8 channels, a 1 x 7 filter over 3 columns, stride 2, SAME: output 2,
  // total padding (2 - 1) * 2 + 7 - 3 = 6, 3 each side; right columns
  // max(1, ceil(3 / 2)) = 2, left 2, 4 > 2 outputs: arm_convolve_s8's
  // Helium size, 4 * ceil(56 / 16) * 16 = 256, over 2 * 56 * 2 = 224.
  ir::Graph Strided =
      conv("CONV_2D", 1, 3, 8, 1, 7, 6,
           {{"padding", std::string("SAME")}, {"stride_w", int64_t(2)}});
  REQUIRE(choose(Strided, M55).Function == "arm_convolve_1_x_n_s8");
  CHECK(choose(Strided, M4).ScratchBytes == 224);
  CHECK(choose(Strided, M55).ScratchBytes == 256);
}

TEST_CASE("operators CMSIS-NN cannot run fall back with the reason") {
  GraphBuilder B;
  int32_t A = B.tensor("a", {1, 4, 4, 8}, perTensor(0.5f, 1));
  int32_t C = B.tensor("c", {1, 1, 1, 8}, perTensor(0.5f, 1));
  int32_t Sum = B.tensor("sum", {1, 4, 4, 8}, perTensor(1.0f, 0));
  int32_t R = B.tensor("r", {1, 128}, perTensor(1.0f, 0));
  B.op("ADD", {A, C}, {Sum}, {{"fused_activation", std::string("NONE")}});
  B.op("RESHAPE", {Sum}, {R}, {{"new_shape", std::vector<int64_t>{1, 128}}});
  B.inputs({A, C}).outputs({R});
  cmsis::OpChoice Add = choose(B.G, M4, 0);
  CHECK(Add.Function.empty());
  CHECK(Add.Reason.rfind("cmsis_no_broadcast: ", 0) == 0);
  cmsis::OpChoice Reshape = choose(B.G, M4, 1);
  CHECK(Reshape.Function.empty());
  CHECK(Reshape.Reason == "CMSIS-NN has no int8 or int16 function for RESHAPE");
  // A tanh activation is no clamp.
  ir::Graph G = conv("CONV_2D", 8, 8, 3, 3, 3, 8,
                     {{"fused_activation", std::string("TANH")}});
  CHECK(choose(G, M55).Reason.rfind("cmsis_activation: ", 0) == 0);
}

TEST_CASE("a bias given at run time: a call, but on Helium the reference") {
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 16}, perTensor(0.5f, 1));
  int32_t W = B.constant("w", {4, 16}, perTensor(0.02f, 0));
  int32_t Bias = B.tensor("bias", {4}, perTensor(0.01f, 0), ir::DType::I32);
  int32_t Out = B.tensor("out", {1, 4}, perTensor(0.25f, 2));
  B.op("FULLY_CONNECTED", {In, W, Bias}, {Out},
       {{"fused_activation", std::string("NONE")}});
  B.inputs({In, Bias}).outputs({Out});
  CHECK(choose(B.G, M3).Function == "arm_fully_connected_s8");
  CHECK(choose(B.G, M4).Function == "arm_fully_connected_s8");
  cmsis::OpChoice Helium = choose(B.G, M55);
  CHECK(Helium.Function.empty());
  CHECK(Helium.Reason ==
        "on Helium, arm_fully_connected_s8 reads its bias from kernel sums "
        "computed at compile time, and this bias is computed at run time");
  // A constant bias is folded; the generated kernels take the layer, the
  // Helium one where the units are in fours.
  B.G.Tensors[Bias].IsConstant = true;
  B.G.Tensors[Bias].Data.assign(16, 0);
  CHECK(choose(B.G, M55).Function == "accelgen_fully_connected_s8_mve");
  CHECK(choose(B.G, M4).Function == "accelgen_fully_connected_s8_dsp");
}

TEST_CASE("the generated kernels need a constant bias") {
  // They fold the bias into their constants: one given at run time keeps
  // CMSIS-NN's function (cm_constant_bias), with DSP as without.
  ir::Graph G = conv("DEPTHWISE_CONV_2D", 8, 8, 8, 3, 3, 8,
                     {{"padding", std::string("SAME")}});
  REQUIRE(choose(G, M4).Function == "accelgen_depthwise_conv_s8_dsp");
  ir::Graph C = conv("CONV_2D", 8, 8, 3, 3, 3, 8);
  REQUIRE(choose(C, M4).Function == "accelgen_convolve_s8_dsp");
  for (ir::Graph *Run : {&G, &C}) {
    const int32_t Bias = Run->Operators[0].Inputs[2];
    Run->Tensors[Bias].IsConstant = false;
    Run->Tensors[Bias].Data.clear();
    Run->Inputs.push_back(Bias);
  }
  CHECK(choose(G, M4).Function == "arm_depthwise_conv_3x3_s8");
  CHECK(choose(G, M55).Function == "arm_depthwise_conv_s8_opt");
  CHECK(choose(C, M4).Function == "arm_convolve_s8");
}

TEST_CASE("from family 4 on, the cheapest stated cost chooses the function") {
  // Every operator of the shared models with more than one candidate: on
  // families 4 and 55, where each candidate has a cost, the one of least
  // estimate (TargetInfo::chooseOperation); family 3 states no costs and
  // takes the mapping of highest benefit, the wrappers' order.
  std::map<unsigned, int> ByCost;
  forEachSharedChoice([&](const std::string &Name, unsigned V,
                          const ir::Graph &, size_t I,
                          const cmsis::OpChoice &C) {
    if (C.Function.empty() || C.Candidates.size() < 2)
      return;
    CAPTURE(Name);
    CAPTURE(I);
    CAPTURE(V);
    const bool EachCosted = llvm::all_of(
        C.Candidates, [](const auto &K) { return K.Cycles.has_value(); });
    if (V == M3 || !EachCosted) {
      CHECK_FALSE(C.ByCost);
      CHECK(C.Function == C.Candidates.front().Type);
      return;
    }
    CHECK(C.ByCost);
    auto Least = std::min_element(
        C.Candidates.begin(), C.Candidates.end(),
        [](const auto &A, const auto &B) { return *A.Cycles < *B.Cycles; });
    CHECK(C.Function == Least->Type);
    ++ByCost[V];
  });
  // The shared models' convolutions, depthwise convolutions, fully
  // connected layers and additions each have a generated kernel and
  // CMSIS-NN functions to choose from there.
  CHECK(ByCost[M4] > 100);
  CHECK(ByCost[M55] > 100);
  CHECK(ByCost[M3] == 0);
}

TEST_CASE("library calls only: no generated kernel is chosen") {
  // Every shared model's layer on every family, with the generated kernels
  // left out: a CMSIS-NN function where one applies, the same fallbacks.
  auto T = test::builtinTarget("cmsis-nn");
  int Calls = 0;
  forEachSharedChoice([&](const std::string &Name, unsigned V,
                          const ir::Graph &G, size_t I,
                          const cmsis::OpChoice &C) {
    const cmsis::OpChoice L =
        cmsis::chooseFunction(G, I, *T, V, cmsis::Kernels::LibraryOnly);
    CAPTURE(Name);
    CAPTURE(I);
    CHECK_FALSE(llvm::StringRef(L.Function).startswith("accelgen_"));
    for (const auto &K : L.Candidates)
      CHECK_FALSE(llvm::StringRef(K.Type).startswith("accelgen_"));
    CHECK(L.Function.empty() == C.Function.empty());
    Calls += !L.Function.empty();
  });
  CHECK(Calls > 0);
}

TEST_CASE("a candidate without a stated cost leaves the choice to benefit") {
  // arm_convolve_1_x_n_s8 states no cost (no peer model layer to measure
  // it on): a layer it may run takes the mappings' order on every family.
  for (unsigned V : {M3, M4, M55}) {
    const cmsis::OpChoice C = choose(conv("CONV_2D", 1, 16, 4, 1, 3, 7), V);
    CAPTURE(V);
    CHECK_FALSE(C.ByCost);
    CHECK(llvm::any_of(C.Candidates, [](const auto &K) {
      return K.Type == "arm_convolve_1_x_n_s8" && !K.Cycles;
    }));
  }
  // A fully connected layer of one unit on Cortex-M55: the generated DSP
  // kernel, by cost, ahead of arm_fully_connected_s8 of higher benefit
  // (hello_world's last layer: 68 instructions against 204 under QEMU).
  GraphBuilder B;
  int32_t In = B.tensor("in", {1, 16}, perTensor(0.5f, -3));
  int32_t W = B.constant("w", {1, 16}, perTensor(0.25f, 0));
  int32_t Bias = B.constant("b", {1}, perTensor(0.125f, 0), ir::DType::I32);
  int32_t Out = B.tensor("out", {1, 1}, perTensor(1.0f, 5));
  B.op("FULLY_CONNECTED", {In, W, Bias}, {Out},
       {{"fused_activation", std::string("NONE")}, {"keep_num_dims", false}});
  B.inputs({In}).outputs({Out});
  const cmsis::OpChoice Fc = choose(B.G, M55);
  CHECK(Fc.ByCost);
  CHECK(Fc.Candidates.front().Type == "arm_fully_connected_s8");
  CHECK(Fc.Function == "accelgen_fully_connected_s8_dsp");
  // Family 3 states no costs: the generated kernel (in plain C) by
  // benefit.
  CHECK_FALSE(choose(B.G, M3).ByCost);
  CHECK(choose(B.G, M3).Function == "accelgen_fully_connected_s8_dsp");
}

#define ACCELGEN_PROBE_TARGET cmsis_nn
#define ACCELGEN_PROBE_NAMESPACE cmsis_nn
#include "testing/ConstraintProbeTests.h"

TEST_CASE("every function that may run in a cascade takes a stripe") {
  // Declared means runnable, cascaded too: every operator of the shared
  // models that maps rows (it may join a cascade) and that the description
  // gives a CMSIS-NN function or a generated kernel, on every CPU family,
  // has a stripe form (cmsis::runsStripes; CmsisNnRunTest runs them). One
  // that sums over its input's rows ends a cascade through the reference
  // kernel's _accumulate form instead (CmsisNnRunTest: micro_speech).
  std::set<std::string> Seen;
  forEachSharedChoice([&](const std::string &Name, unsigned, const ir::Graph &G,
                          size_t I, const cmsis::OpChoice &C) {
    const ir::RowKind Kind = ir::rowMap(G.Operators[I].code()).Kind;
    if (C.Function.empty() || Kind == ir::RowKind::Whole ||
        Kind == ir::RowKind::Accumulate)
      return;
    CAPTURE(Name);
    CAPTURE(I);
    CHECK_MESSAGE(cmsis::runsStripes(C.Function), C.Function);
    Seen.insert(C.Function);
  });
  // The sweep met the generated kernels and the calls of both families.
  for (const std::string F :
       {"accelgen_convolve_s8_dsp", "accelgen_depthwise_conv_s8_dsp",
        "accelgen_elementwise_add_s8_dsp", "accelgen_convolve_s8_mve",
        "accelgen_depthwise_conv_s8_mve", "arm_avgpool_s8"})
    CHECK_MESSAGE(Seen.count(F), F);
  // CMSIS-NN's convolutions and depthwise ones, which the generated
  // kernels take on every family, run stripes too
  // (`--library-calls-only`).
  for (const char *F :
       {"arm_convolve_s8", "arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8",
        "arm_convolve_1_x_n_s8", "arm_depthwise_conv_s8",
        "arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt"})
    CHECK(cmsis::runsStripes(F));
  // Whole-tensor functions do not.
  for (const char *F :
       {"arm_fully_connected_s8", "arm_softmax_s8",
        "accelgen_fully_connected_s8_dsp", "accelgen_fully_connected_s8_mve"})
    CHECK_FALSE(cmsis::runsStripes(F));
}
