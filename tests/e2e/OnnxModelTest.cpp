//===- OnnxModelTest.cpp - Real networks through the ONNX path ------------===//
//
// No quantized ONNX network ships in Debian or npm, so the shared int8
// TensorFlow Lite models are written as ONNX QDQ and QOperator models
// (tools/tflite-to-onnx) and compiled from ONNX: with TensorFlow Lite's
// arithmetic selected (--onnx-arithmetic tflite), every seed's output on
// every target label must equal the TensorFlow Lite original's expected
// output byte for byte, and the quantization pass must leave no operator
// in float; with ONNX's (the default), the outputs must equal ONNX
// Runtime's (onnxruntime-node, scripts/onnxruntime-oracle.sh) byte for
// byte. Each model's ONNX bytes are written once; each target builds each
// model once (the tests' program cache), every seed running on it.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "OracleSweep.h"

#include "OnnxExport.h"
#include "OnnxTestData.h"
#include "TestSupport.h"
#include "import/ONNXImporter.h"
#include "import/TFLiteImporter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"

#include <doctest/doctest.h>

#include <cstring>
#include <map>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// The shared int8 models the exporter writes (every operator of them is
/// one it writes).
const char *const Models[] = {
    "tflm_hello_world_int8",
    "mlperf_tiny_ad_autoencoder_int8",
    "mlperf_tiny_kws_dscnn_int8",
    "mlperf_tiny_ic_resnet8_int8",
    "mlperf_tiny_vww_mobilenetv1_025_96_int8",
    "tflm_micro_speech_int8",
    "tflm_person_detect_int8",
};

/// Every target label with its options: ref, cpu, each functional-model
/// label, and cmsis-nn on this machine.
std::vector<std::vector<std::string>> labels() {
  std::vector<std::vector<std::string>> L = {{"ref"}, {"cpu"}};
  for (const std::string &Label : functionalModelLabels())
    L.push_back({Label});
  L.push_back({"cmsis-nn", "--cmsis-nn", ACCELGEN_CMSIS_NN_PATH});
  return L;
}

/// \p Tfl written by the exporter in form \p F and read back, with nothing
/// left in float.
ImportResult throughOnnx(const ir::Graph &Tfl, onnxexport::Form F,
                         std::vector<uint8_t> &Onnx) {
  llvm::Expected<std::string> Bytes = onnxexport::exportOnnx(Tfl, F);
  REQUIRE_MESSAGE(static_cast<bool>(Bytes), llvm::toString(Bytes.takeError()));
  Onnx.assign(Bytes->begin(), Bytes->end());
  llvm::Expected<ImportResult> R = onnximport::importModel(Onnx);
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
  for (const ir::Operator &Op : R->Model->main().Operators)
    CHECK_MESSAGE(Op.Type != "DEQUANTIZE", "a DEQUANTIZE is left");
  return std::move(*R);
}

void checkThroughOnnx(const std::string &Name, onnxexport::Form F) {
  requireSharedDir();
  llvm::Expected<ImportResult> Tfl = tflite::importModelFile(modelPath(Name));
  REQUIRE_MESSAGE(static_cast<bool>(Tfl), llvm::toString(Tfl.takeError()));
  std::vector<uint8_t> Onnx;
  ImportResult Read = throughOnnx(Tfl->Model->main(), F, Onnx);
  CHECK(Read.Model->main().Operators.size() <=
        Tfl->Model->main().Operators.size());

  test::TempDir Dir;
  const std::string File = Dir.file(Name + ".onnx");
  test::writeFileBytes(File, Onnx);
  for (const std::vector<std::string> &Label : labels()) {
    INFO(Name << " from ONNX on " << llvm::join(Label, " "));
    std::vector<std::string> Extra(Label.begin() + 1, Label.end());
    Extra.push_back("--onnx-arithmetic");
    Extra.push_back("tflite");
    checkModelOutputs(Name, [&](const std::string &, const std::string &In,
                                const std::string &Out, bool Layers) {
      return runModelOn(Label[0], Extra, File, In, Out, Layers);
    });
  }
}

/// Where `explain --json` places \p Model's operators on \p Target: the
/// device of each, but of the RESHAPEs (see the test below).
std::vector<std::string> placement(const std::string &Model,
                                   const std::string &Target,
                                   size_t &Operators) {
  std::vector<std::string> Args = {"explain", Model, "--target", Target,
                                   "--json"};
  if (llvm::StringRef(Model).endswith(".onnx"))
    Args.insert(Args.end(), {"--onnx-arithmetic", "tflite"});
  test::RunResult R = runAccelgen(Args);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Stdout);
  REQUIRE_MESSAGE(static_cast<bool>(V), llvm::toString(V.takeError()));
  const llvm::json::Array *Ops = V->getAsObject()->getArray("operators");
  REQUIRE(Ops);
  Operators = Ops->size();
  std::vector<std::string> Devices;
  for (const llvm::json::Value &Op : *Ops) {
    const llvm::json::Object *O = Op.getAsObject();
    REQUIRE(O);
    if (O->getString("source_type").getValueOr("") == "RESHAPE")
      continue;
    Devices.push_back(O->getString("device").getValueOr("?").str());
  }
  return Devices;
}

} // namespace

namespace {

/// The attributes of a CONV_2D (a DEPTHWISE_CONV_2D with \p Multiplier) of
/// unit stride and dilation, padded \p Padding, with activation \p Act.
std::map<std::string, ir::AttrValue>
convAttrs(const char *Padding, const char *Act, int64_t Multiplier = 0) {
  std::map<std::string, ir::AttrValue> A = {
      {"padding", std::string(Padding)},
      {"stride_h", int64_t(1)},
      {"stride_w", int64_t(1)},
      {"dilation_h", int64_t(1)},
      {"dilation_w", int64_t(1)},
      {"fused_activation", std::string(Act)}};
  if (Multiplier)
    A["depth_multiplier"] = Multiplier;
  return A;
}

/// Per-channel int8 convolution weights [Channels, 3, 3, Depth] (element I
/// is (I * Mul) % Mod - Mod / 2) with scales ScaleBase + ScaleStep * c, and
/// an int32 bias (BiasMul * c + BiasBase) of scale InScale times them:
/// {weights, bias}.
std::pair<int32_t, int32_t> perChannelConv3x3(ir::GraphBuilder &B,
                                              float InScale, int Channels,
                                              int Depth, int Mul, int Mod,
                                              float ScaleBase, float ScaleStep,
                                              int BiasMul, int BiasBase) {
  std::vector<int8_t> W;
  for (int I = 0; I < Channels * 3 * 3 * Depth; ++I)
    W.push_back(static_cast<int8_t>((I * Mul) % Mod - Mod / 2));
  const int32_t Weights = B.constant(ir::DType::I8, {Channels, 3, 3, Depth}, W);
  std::vector<float> WScales, BScales;
  std::vector<int32_t> Bias;
  for (int C = 0; C < Channels; ++C) {
    WScales.push_back(ScaleBase + ScaleStep * float(C));
    BScales.push_back(InScale * WScales.back());
    Bias.push_back(C * BiasMul + BiasBase);
  }
  B.perChannel(Weights, WScales, 0);
  const int32_t BiasT = B.constant(ir::DType::I32, {Channels}, Bias);
  B.perChannel(BiasT, BScales, 0);
  return {Weights, BiasT};
}

} // namespace

TEST_CASE("explain places the shared int8 models read from either ONNX "
          "form as it places their TensorFlow Lite originals (TensorFlow "
          "Lite's arithmetic)") {
  requireSharedDir();
  test::TempDir Dir;
  for (const char *Name : Models) {
    llvm::Expected<ImportResult> Tfl = tflite::importModelFile(modelPath(Name));
    REQUIRE_MESSAGE(static_cast<bool>(Tfl), llvm::toString(Tfl.takeError()));
    for (onnxexport::Form F :
         {onnxexport::Form::QDQ, onnxexport::Form::QOperator}) {
      llvm::Expected<std::string> Bytes =
          onnxexport::exportOnnx(Tfl->Model->main(), F);
      REQUIRE_MESSAGE(static_cast<bool>(Bytes),
                      llvm::toString(Bytes.takeError()));
      const std::string File =
          Dir.file(std::string(Name) +
                   (F == onnxexport::Form::QDQ ? ".qdq" : ".qop") + ".onnx");
      test::writeFileBytes(File,
                           std::vector<uint8_t>(Bytes->begin(), Bytes->end()));
      for (const std::string &Target : functionalModelLabels()) {
        INFO(File << " on " << Target);
        size_t Original = 0, Read = 0;
        std::vector<std::string> Want =
            placement(modelPath(Name), Target, Original);
        std::vector<std::string> Got = placement(File, Target, Read);
        // Every operator but the RESHAPEs is where the original's is; of
        // the RESHAPEs, the flattening before a fully connected layer
        // (keyword spotting's, ResNet-8's, visual wake words') is folded
        // into the layer by the quantization pass, which takes ONNX's
        // Flatten or Reshape before Gemm for the layer's own.
        CHECK(Got == Want);
        CHECK(Read <= Original);
        CHECK(Original - Read <= 1);
      }
    }
  }
}

TEST_CASE("shared int8 models exported as ONNX QDQ run as their TensorFlow "
          "Lite originals on every target label") {
  for (const char *Name : Models) {
    SUBCASE(Name) { checkThroughOnnx(Name, onnxexport::Form::QDQ); }
  }
}

TEST_CASE("shared int8 models exported as ONNX QOperator graphs run as "
          "their TensorFlow Lite originals on every target label") {
  for (const char *Name : Models) {
    SUBCASE(Name) { checkThroughOnnx(Name, onnxexport::Form::QOperator); }
  }
}

TEST_CASE("with ONNX's arithmetic, an operator whose kernels compute only "
          "TensorFlow Lite's is refused, and accelerators leave the "
          "quantized operators to the CPU, each with the reason") {
  requireSharedDir();
  test::TempDir Dir;
  llvm::Expected<ImportResult> Tfl =
      tflite::importModelFile(modelPath("tflm_hello_world_int8"));
  REQUIRE(static_cast<bool>(Tfl));
  std::vector<uint8_t> Onnx;
  throughOnnx(Tfl->Model->main(), onnxexport::Form::QDQ, Onnx);
  test::writeFileBytes(Dir.file("tflm_hello_world_int8.onnx"), Onnx);
  // A TANH: ONNX Runtime's tanh, which no kernel computes yet.
  ir::GraphBuilder B;
  const int32_t X = B.tensor(ir::DType::I8, {1, 8}, 0.5f, 3);
  const int32_t S = B.tensor(ir::DType::I8, {1, 8}, 1.0f / 128, 0);
  B.op("TANH", {X}, {S}, {});
  throughOnnx(modelOf(B, {X}, {S}).main(), onnxexport::Form::QDQ, Onnx);
  const std::string Tanh = Dir.file("tanh.onnx");
  test::writeFileBytes(Tanh, Onnx);
  test::RunResult R =
      runAccelgen({"compile", Tanh, "--target", "ref", "-o", Dir.file("out")});
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("(TANH) is not supported by target ref: "
                              "no sigmoid kernel computes ONNX's "
                              "arithmetic") != std::string::npos,
                R.Stderr);
  CHECK_MESSAGE(R.Stderr.find("--onnx-arithmetic tflite") != std::string::npos,
                R.Stderr);
  // An ADD whose input scale over the output's lies below ONNX Runtime's
  // QLinearAdd's range (2^-14) is refused, with the scales.
  ir::GraphBuilder A;
  const int32_t Small = A.tensor(ir::DType::I8, {1, 8}, 0.0001f, 0);
  const int32_t Large = A.tensor(ir::DType::I8, {1, 8}, 1.0f, 0);
  const int32_t Sum = A.tensor(ir::DType::I8, {1, 8}, 10.0f, 0);
  A.op("ADD", {Small, Large}, {Sum},
       {{"fused_activation", std::string("NONE")}});
  throughOnnx(modelOf(A, {Small, Large}, {Sum}).main(), onnxexport::Form::QDQ,
              Onnx);
  const std::string Add = Dir.file("add.onnx");
  test::writeFileBytes(Add, Onnx);
  R = runAccelgen({"compile", Add, "--target", "ref", "-o", Dir.file("out3")});
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("input scales 0.0001 and 1 over output scale 10 "
                              "are outside the ratios ONNX Runtime's "
                              "QLinearAdd computes") != std::string::npos,
                R.Stderr);
  // With TensorFlow Lite's it compiles.
  R = runAccelgen({"compile", Tanh, "--target", "ref", "--onnx-arithmetic",
                   "tflite", "-o", Dir.file("out2")});
  CHECK_MESSAGE(R.ExitCode == 0, R.Stderr);
  // mdla's description states TensorFlow Lite's requantization.
  R = runAccelgen({"explain", Dir.file("tflm_hello_world_int8.onnx"),
                   "--target", "mdla3.0"});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  CHECK_MESSAGE(R.Stdout.find("0 of 3 operators on the accelerator") !=
                    std::string::npos,
                R.Stdout);
  CHECK_MESSAGE(R.Stdout.find("arithmetic: the model's quantized operators "
                              "compute ONNX's arithmetic") != std::string::npos,
                R.Stdout);
}

namespace {

/// ONNX Runtime's outputs of \p Model for the inputs in \p In, written to
/// \p Out (tests/tools/onnxruntime_runner.js).
void runOnnxRuntime(const std::string &Model, const std::string &In,
                    const std::string &Out) {
  REQUIRE_MESSAGE(llvm::sys::fs::exists(ACCELGEN_ONNXRUNTIME_RUNNER),
                  ACCELGEN_ONNXRUNTIME_RUNNER
                      << " is missing: scripts/onnxruntime-oracle.sh, which "
                         "the build runs, says why");
  llvm::ErrorOr<std::string> Node = llvm::sys::findProgramByName("node");
  REQUIRE_MESSAGE(static_cast<bool>(Node),
                  "node is not installed (scripts/setup.sh installs it)");
  test::RunResult R = test::runProgram(
      *Node, {ACCELGEN_ONNXRUNTIME_RUNNER, Model, In, Out}, 120);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
}

/// Runs \p File (an ONNX model, ONNX's arithmetic) on \p Label with the
/// inputs in \p In: every output must equal ONNX Runtime's in \p Want.
void checkAgainstOnnxRuntime(const std::vector<std::string> &Label,
                             const std::string &File, const std::string &In,
                             const std::string &Want, size_t Outputs) {
  INFO(File << " on " << llvm::join(Label, " ") << ", inputs " << In);
  test::TempDir Out;
  test::RunResult R = runModelOn(
      Label[0], std::vector<std::string>(Label.begin() + 1, Label.end()), File,
      In, Out.path(), false);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  for (size_t I = 0; I < Outputs; ++I) {
    const std::string Name = "output_" + std::to_string(I) + ".bin";
    CHECK_MESSAGE(test::readFileBytes(Out.file(Name)) ==
                      test::readFileBytes(Want + "/" + Name),
                  "output " << I);
  }
}

/// Graph \p G written in form \p F, its one input \p Input's bytes, run
/// with ONNX's arithmetic on each of \p Labels: every output must equal ONNX
/// Runtime's. Each output in \p TfliteDiffers must come out otherwise with
/// TensorFlow Lite's arithmetic on ref (the case's ties are there).
void checkCaseAgainstOnnxRuntime(
    const ir::Graph &G, onnxexport::Form F, const std::vector<uint8_t> &Input,
    const std::vector<std::vector<std::string>> &Labels,
    const std::vector<size_t> &TfliteDiffers = {}) {
  test::TempDir Dir, Inputs, Want;
  std::vector<uint8_t> Onnx;
  throughOnnx(G, F, Onnx);
  const std::string File = Dir.file("case.onnx");
  test::writeFileBytes(File, Onnx);
  test::writeFileBytes(Inputs.file("input_0.bin"), Input);
  runOnnxRuntime(File, Inputs.path(), Want.path());
  for (const std::vector<std::string> &Label : Labels)
    checkAgainstOnnxRuntime(Label, File, Inputs.path(), Want.path(),
                            G.Outputs.size());
  if (TfliteDiffers.empty())
    return;
  test::TempDir Tflite;
  test::RunResult R = runModelOn("ref", {"--onnx-arithmetic", "tflite"}, File,
                                 Inputs.path(), Tflite.path(), false);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  for (size_t I : TfliteDiffers) {
    const std::string Name = "output_" + std::to_string(I) + ".bin";
    CHECK_MESSAGE(test::readFileBytes(Tflite.file(Name)) !=
                      test::readFileBytes(Want.file(Name)),
                  "output " << I);
  }
}

} // namespace

TEST_CASE("with ONNX's arithmetic, the shared int8 models from either form "
          "equal ONNX Runtime on every seed and target label") {
  requireSharedDir();
  for (const char *Name :
       {"tflm_hello_world_int8", "mlperf_tiny_ad_autoencoder_int8",
        "mlperf_tiny_kws_dscnn_int8", "mlperf_tiny_ic_resnet8_int8",
        "mlperf_tiny_vww_mobilenetv1_025_96_int8", "tflm_micro_speech_int8",
        "tflm_person_detect_int8"}) {
    CAPTURE(Name);
    llvm::Expected<ImportResult> Tfl = tflite::importModelFile(modelPath(Name));
    REQUIRE(static_cast<bool>(Tfl));
    for (onnxexport::Form F :
         {onnxexport::Form::QDQ, onnxexport::Form::QOperator}) {
      test::TempDir Dir;
      std::vector<uint8_t> Onnx;
      throughOnnx(Tfl->Model->main(), F, Onnx);
      const std::string File = Dir.file(std::string(Name) + ".onnx");
      test::writeFileBytes(File, Onnx);
      // Both forms read to the same graph (the import tests): the QDQ form
      // on every label, the QOperator form on ref.
      std::vector<std::vector<std::string>> Labels = labels();
      if (F == onnxexport::Form::QOperator)
        Labels = {{"ref"}};
      for (const std::string &Seed : seedDirs(Name)) {
        test::TempDir Want;
        runOnnxRuntime(File, Seed, Want.path());
        for (const std::vector<std::string> &Label : Labels)
          checkAgainstOnnxRuntime(Label, File, Seed, Want.path(),
                                  Tfl->Model->main().Outputs.size());
      }
    }
  }
}

TEST_CASE("with ONNX's arithmetic, convolutions whose requantization meets "
          "ties round them to even as ONNX Runtime, where TensorFlow Lite "
          "rounds them away from zero") {
  requireSharedDir();
  // int8 [1, 6, 6, 4] -> DEPTHWISE_CONV_2D 3x3 (per channel) -> CONV_2D
  // 1x1 (per tensor), scales of powers of two, so that many accumulators
  // requantize to exact halves.
  ir::GraphBuilder B;
  const int32_t In = B.tensor(ir::DType::I8, {1, 6, 6, 4}, 0.5f, 0);
  std::vector<int8_t> W;
  for (int I = 0; I < 3 * 3 * 4; ++I)
    W.push_back(static_cast<int8_t>((I * 37) % 23 - 11));
  const int32_t DwW = B.constant(ir::DType::I8, {1, 3, 3, 4}, W);
  B.perChannel(DwW, {0.25f, 0.5f, 0.25f, 0.125f}, 3);
  const int32_t DwB =
      B.constant(ir::DType::I32, {4}, std::vector<int32_t>{3, -6, 9, -12});
  B.perChannel(DwB, {0.125f, 0.25f, 0.125f, 0.0625f}, 0);
  const int32_t Dw = B.tensor(ir::DType::I8, {1, 6, 6, 4}, 1.0f, 1);
  B.op("DEPTHWISE_CONV_2D", {In, DwW, DwB}, {Dw}, convAttrs("SAME", "NONE", 1));
  std::vector<int8_t> C;
  for (int I = 0; I < 6 * 4; ++I)
    C.push_back(static_cast<int8_t>((I * 53) % 31 - 15));
  const int32_t ConvW = B.constant(ir::DType::I8, {6, 1, 1, 4}, C, 0.5f, 0);
  const int32_t ConvB = B.constant(
      ir::DType::I32, {6}, std::vector<int32_t>{1, 2, 3, -4, -5, 6}, 0.5f, 0);
  const int32_t Conv = B.tensor(ir::DType::I8, {1, 6, 6, 6}, 2.0f, -3);
  B.op("CONV_2D", {Dw, ConvW, ConvB}, {Conv}, convAttrs("VALID", "NONE"));
  // Then a RESHAPE (a layout change through NCHW, kernels that round
  // nothing; its result an output too, so that it is not folded into the
  // layer) and a FULLY_CONNECTED (per tensor).
  const int32_t Flat = B.tensor(ir::DType::I8, {1, 216}, 2.0f, -3);
  B.op("RESHAPE", {Conv}, {Flat});
  std::vector<int8_t> F;
  for (int I = 0; I < 5 * 216; ++I)
    F.push_back(static_cast<int8_t>((I * 29) % 17 - 8));
  const int32_t FcW = B.constant(ir::DType::I8, {5, 216}, F, 0.25f, 0);
  const int32_t FcB = B.constant(
      ir::DType::I32, {5}, std::vector<int32_t>{7, -7, 0, 12, -1}, 0.5f, 0);
  const int32_t Fc = B.tensor(ir::DType::I8, {1, 5}, 4.0f, 0);
  B.op("FULLY_CONNECTED", {Flat, FcW, FcB}, {Fc},
       {{"fused_activation", std::string("NONE")}, {"keep_num_dims", false}});
  ir::Model Tfl = modelOf(B, {In}, {Conv, Flat, Fc});

  std::vector<uint8_t> Onnx;
  ImportResult Read = throughOnnx(Tfl.main(), onnxexport::Form::QDQ, Onnx);
  // The RESHAPE stays (its result is an output too), run by a family that
  // rounds nothing.
  CHECK(llvm::any_of(Read.Model->main().Operators, [](const ir::Operator &Op) {
    return Op.Type == "RESHAPE";
  }));
  std::vector<uint8_t> X(6 * 6 * 4);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<uint8_t>((I * 71) % 256);
  // The ties are there: TensorFlow Lite's arithmetic rounds some otherwise.
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, X, labels(),
                              {0});
}

TEST_CASE("with ONNX's arithmetic, windowed and global average pooling, "
          "ADD, SUB, MUL and SOFTMAX equal ONNX Runtime on every label") {
  requireSharedDir();
  // int8 [1, 6, 6, 4] -> AVERAGE_POOL_2D 3x3 stride 2 SAME (padded windows)
  // and 2x2 stride 2 VALID (ONNX Runtime's float32 means), and 6x6 (its
  // integer global average), each into other quantization than its
  // input's; ADD of the first two -> RESHAPE [9, 4] -> SOFTMAX; their SUB
  // and MUL.
  const auto Pool = [](const char *Padding, int64_t Stride, int64_t Size) {
    return std::map<std::string, ir::AttrValue>{
        {"padding", std::string(Padding)},
        {"stride_h", Stride},
        {"stride_w", Stride},
        {"filter_h", Size},
        {"filter_w", Size},
        {"fused_activation", std::string("NONE")}};
  };
  ir::GraphBuilder B;
  const int32_t In = B.tensor(ir::DType::I8, {1, 6, 6, 4}, 0.5f, 3);
  const int32_t Windowed = B.tensor(ir::DType::I8, {1, 3, 3, 4}, 0.3f, -5);
  B.op("AVERAGE_POOL_2D", {In}, {Windowed}, Pool("SAME", 2, 3));
  const int32_t Valid = B.tensor(ir::DType::I8, {1, 3, 3, 4}, 0.2f, 4);
  B.op("AVERAGE_POOL_2D", {In}, {Valid}, Pool("VALID", 2, 2));
  const int32_t Global = B.tensor(ir::DType::I8, {1, 1, 1, 4}, 0.125f, 2);
  B.op("AVERAGE_POOL_2D", {In}, {Global}, Pool("VALID", 1, 6));
  const int32_t Sum = B.tensor(ir::DType::I8, {1, 3, 3, 4}, 0.35f, 1);
  B.op("ADD", {Windowed, Valid}, {Sum},
       {{"fused_activation", std::string("NONE")}});
  const int32_t Rows = B.tensor(ir::DType::I8, {9, 4}, 0.35f, 1);
  B.op("RESHAPE", {Sum}, {Rows});
  const int32_t Probs = B.tensor(ir::DType::I8, {9, 4}, 1.0f / 256, -128);
  B.op("SOFTMAX", {Rows}, {Probs}, {{"beta", 1.0}});
  const int32_t Diff = B.tensor(ir::DType::I8, {1, 3, 3, 4}, 0.3f, 2);
  B.op("SUB", {Windowed, Valid}, {Diff},
       {{"fused_activation", std::string("NONE")}});
  const int32_t Prod = B.tensor(ir::DType::I8, {1, 3, 3, 4}, 0.5f, -1);
  B.op("MUL", {Windowed, Valid}, {Prod},
       {{"fused_activation", std::string("NONE")}});
  ir::Model Tfl = modelOf(B, {In}, {Windowed, Global, Sum, Probs, Diff, Prod});

  std::vector<uint8_t> X(6 * 6 * 4);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<uint8_t>((I * 89 + 7) % 256);
  // On mdla too: its quantization rules, which would put a REQUANTIZE
  // before the pooling's change of quantization, do not apply to the
  // operators the arithmetic leaves to the CPU.
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, X, labels());
  // The QOperator form (QLinearAveragePool, QLinearAdd, QLinearMul,
  // QLinearSoftmax; SUB in QDQ) on ref.
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QOperator, X,
                              {{"ref"}});
}

TEST_CASE("with ONNX's arithmetic, ONNX's QLinearConv, QLinearMatMul, "
          "ConvInteger, MatMulInteger and per-axis QuantizeLinear and "
          "DequantizeLinear node tests equal their stored outputs and ONNX "
          "Runtime's") {
  test::requireOnnxNodeTests();
  for (const char *Case :
       {"test_qlinearconv", "test_qlinearmatmul_2D", "test_qlinearmatmul_3D",
        "test_basic_convinteger", "test_convinteger_with_padding",
        "test_convinteger_without_padding", "test_matmulinteger",
        "test_quantizelinear_axis", "test_dequantizelinear_axis"}) {
    CAPTURE(Case);
    test::TempDir Dir, In;
    const std::string File = Dir.file(std::string(Case) + ".onnx");
    test::writeFileBytes(File, test::onnxNodeModel(Case, 1));
    const std::string Data =
        test::onnxNodeDir() + "/" + Case + "/test_data_set_0/";
    test::writeFileBytes(In.file("input_0.bin"),
                         test::onnxIrValue(Data + "input_0.pb").Data);
    test::TempDir Want;
    test::writeFileBytes(Want.file("output_0.bin"),
                         test::onnxIrValue(Data + "output_0.pb").Data);
    test::TempDir Runtime;
    runOnnxRuntime(File, In.path(), Runtime.path());
    CHECK(test::readFileBytes(Runtime.file("output_0.bin")) ==
          test::readFileBytes(Want.file("output_0.bin")));
    for (const std::vector<std::string> &Label : labels())
      checkAgainstOnnxRuntime(Label, File, In.path(), Want.path(), 1);
  }
}

TEST_CASE("a grouped convolution from ONNX runs on every target path as "
          "TensorFlow Lite Micro, and on mdla as MDLA_GROUP_CONV_2D") {
  requireSharedDir();
  // int8 [1, 24, 24, 16] by 4 groups of 4 input and 8 output channels,
  // per channel weight scales, SAME, ReLU: large enough that mdla3.0's cost
  // model puts it on the accelerator.
  ir::GraphBuilder B;
  const float InScale = 0.05f;
  const int32_t In = B.tensor(ir::DType::I8, {1, 24, 24, 16}, InScale, 3);
  const auto [Weights, BiasT] =
      perChannelConv3x3(B, InScale, 32, 4, 37, 255, 0.005f, 0.001f, 53, -800);
  const int32_t Out = B.tensor(ir::DType::I8, {1, 24, 24, 32}, 0.2f, -10);
  B.op("CONV_2D", {In, Weights, BiasT}, {Out}, convAttrs("SAME", "RELU"));
  ir::Model Tfl = modelOf(B, {In}, {Out});

  llvm::Expected<std::string> Bytes =
      onnxexport::exportOnnx(Tfl.main(), onnxexport::Form::QDQ);
  REQUIRE_MESSAGE(static_cast<bool>(Bytes), llvm::toString(Bytes.takeError()));
  std::vector<uint8_t> Onnx(Bytes->begin(), Bytes->end());
  llvm::Expected<ImportResult> R = onnximport::importModel(Onnx);
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  const ir::Graph &G = R->Model->main();
  REQUIRE(G.Operators.size() == 1);
  CHECK(G.Operators[0].Type == "CONV_2D");
  CHECK(G.tensor(G.Operators[0].Inputs[1]).Shape ==
        std::vector<int32_t>{32, 3, 3, 4});
  // What ONNX gave back runs as TensorFlow Lite Micro runs it.
  R->Model->Graphs[0].Name = "main";
  checkAgainstOracle(*R->Model, "onnx-grouped-conv");

  test::TempDir Dir;
  const std::string File = Dir.file("grouped.onnx");
  test::writeFileBytes(File, Onnx);
  test::RunResult E = runAccelgen(
      {"explain", File, "--target", "mdla3.0", "--onnx-arithmetic", "tflite"});
  REQUIRE_MESSAGE(E.ExitCode == 0, E.Stderr);
  CHECK_MESSAGE(E.Stdout.find("MDLA_GROUP_CONV_2D") != std::string::npos,
                E.Stdout);
}

TEST_CASE("values quantized otherwise than their readers need are "
          "requantized, read from either ONNX form, and run on every target "
          "path as TensorFlow Lite Micro") {
  requireSharedDir();
  // int8 [1, 8, 8, 4] -> CONV_2D 3x3 (per channel) -> y; y requantized to
  // other parameters -> z. Both are outputs.
  ir::GraphBuilder B;
  const float InScale = 0.04f;
  const int32_t In = B.tensor(ir::DType::I8, {1, 8, 8, 4}, InScale, -5);
  const auto [Weights, BiasT] =
      perChannelConv3x3(B, InScale, 6, 4, 29, 251, 0.004f, 0.0015f, 97, -300);
  const int32_t Y = B.tensor(ir::DType::I8, {1, 8, 8, 6}, 0.15f, 4);
  B.op("CONV_2D", {In, Weights, BiasT}, {Y}, convAttrs("SAME", "NONE"));
  const int32_t Z = B.tensor(ir::DType::I8, {1, 8, 8, 6}, 0.37f, -20);
  B.op("QUANTIZE", {Y}, {Z}, {});
  // What ONNX writes with other parameters than its operands', and
  // TensorFlow Lite never: a concatenation of x and y, a maximum of y.
  const int32_t C = B.tensor(ir::DType::I8, {1, 8, 8, 10}, 0.2f, -7);
  B.op("CONCATENATION", {In, Y}, {C},
       {{"axis", int64_t(3)}, {"fused_activation", std::string("NONE")}});
  const int32_t M = B.tensor(ir::DType::I8, {1, 4, 4, 6}, 0.3f, 10);
  B.op("MAX_POOL_2D", {Y}, {M},
       {{"padding", std::string("VALID")},
        {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)},
        {"filter_h", int64_t(2)},
        {"filter_w", int64_t(2)},
        {"fused_activation", std::string("NONE")}});
  ir::Model Tfl = modelOf(B, {In}, {Y, Z, C, M});

  std::unique_ptr<ir::Model> Read;
  for (onnxexport::Form F :
       {onnxexport::Form::QDQ, onnxexport::Form::QOperator}) {
    std::vector<uint8_t> Onnx;
    ImportResult R = throughOnnx(Tfl.main(), F, Onnx);
    const ir::Graph &G = R.Model->main();
    std::map<std::string, int> Count;
    for (const ir::Operator &Op : G.Operators)
      ++Count[Op.Type];
    // y requantized for z; x and y for the concatenation; y for the
    // maximum.
    CHECK(Count == std::map<std::string, int>{{"CONV_2D", 1},
                                              {"QUANTIZE", 4},
                                              {"CONCATENATION", 1},
                                              {"MAX_POOL_2D", 1}});
    Read = std::move(R.Model);
  }
  // The requantizations run as TensorFlow Lite Micro's.
  Read->Graphs[0].Name = "main";
  checkAgainstOracle(*Read, "onnx-requantize");
  // With ONNX's arithmetic, as ONNX Runtime: DequantizeLinear then
  // QuantizeLinear in float32 (QLinearConcat's requantization too), and
  // the maximum and the concatenation's copies exact.
  std::vector<uint8_t> X(8 * 8 * 4);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<uint8_t>((I * 157 + 11) % 256);
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, X, labels());
}

TEST_CASE("with ONNX's arithmetic, QUANTIZE from float32 rounds ties to "
          "even as ONNX Runtime, where TensorFlow Lite rounds them away "
          "from zero") {
  requireSharedDir();
  ir::GraphBuilder B;
  // A float32 input [1, 144] quantized to int8 and to uint8.
  const int32_t In = B.tensor(ir::DType::F32, {1, 144});
  const int32_t Q = B.tensor(ir::DType::I8, {1, 144}, 0.25f, -3);
  B.op("QUANTIZE", {In}, {Q}, {});
  const int32_t U = B.tensor(ir::DType::U8, {1, 144}, 0.5f, 130);
  B.op("QUANTIZE", {In}, {U}, {});
  ir::Model Tfl = modelOf(B, {In}, {Q, U});
  // Odd multiples of 1/8 and 1/4: every other value an exact half of the
  // int8 scale, of the uint8 one; both ends saturate.
  std::vector<float> X(144);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = (static_cast<float>(I) - 72.0f) * 0.125f +
           (I % 7 == 0 ? 50.0f * (I % 2 ? 1.0f : -1.0f) : 0.0f);
  std::vector<uint8_t> Bytes(X.size() * sizeof(float));
  std::memcpy(Bytes.data(), X.data(), Bytes.size());
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, Bytes,
                              labels(), {0, 1});
}

TEST_CASE("with ONNX's arithmetic, a batched product by constant matrices "
          "(MatMul of rank 3, BATCH_MATMUL) equals ONNX Runtime's on every "
          "label") {
  requireSharedDir();
  ir::GraphBuilder B;
  // int8 [2, 3, 8] by [2, 8, 5]: power-of-two scales make the sums times
  // 0.5 * 0.25 / 1 exact halves wherever a sum is 4 modulo 8.
  const int32_t X = B.tensor(ir::DType::I8, {2, 3, 8}, 0.5f, 3);
  std::vector<int8_t> Wv(2 * 8 * 5);
  for (size_t I = 0; I < Wv.size(); ++I)
    Wv[I] = static_cast<int8_t>(int(I * 37 % 23) - 11);
  const int32_t W = B.constant(ir::DType::I8, {2, 8, 5}, Wv, 0.25f, 0);
  const int32_t Y = B.tensor(ir::DType::I8, {2, 3, 5}, 1.0f, -2);
  B.op("BATCH_MATMUL", {X, W}, {Y},
       {{"adj_x", false},
        {"adj_y", false},
        {"asymmetric_quantize_inputs", false}});
  ir::Model Tfl = modelOf(B, {X}, {Y});
  std::vector<uint8_t> In(2 * 3 * 8);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint8_t>((I * 73 + 5) % 256);
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, In, labels(),
                              {0});
}

TEST_CASE("with ONNX's arithmetic, LOGISTIC equals ONNX Runtime's "
          "QLinearSigmoid on every input byte and every label") {
  requireSharedDir();
  // Every int8 value once, its logistic quantized as TensorFlow Lite's
  // LOGISTIC must be (scale 1/256, zero point -128) and otherwise, as ONNX
  // allows. (TensorFlow Lite's fixed-point logistic gives the same bytes
  // for the first on every input scale tried: 0.0211 to 0.1.)
  ir::GraphBuilder B;
  const int32_t X = B.tensor(ir::DType::I8, {1, 256}, 0.0625f, 3);
  const int32_t S = B.tensor(ir::DType::I8, {1, 256}, 1.0f / 256, -128);
  B.op("LOGISTIC", {X}, {S}, {});
  const int32_t T = B.tensor(ir::DType::I8, {1, 256}, 0.005f, -100);
  B.op("LOGISTIC", {X}, {T}, {});
  ir::Model Tfl = modelOf(B, {X}, {S, T});
  std::vector<uint8_t> In(256);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint8_t>(I);
  checkCaseAgainstOnnxRuntime(Tfl.main(), onnxexport::Form::QDQ, In, labels());
}
