//===- OnnxModelTest.cpp - Real networks through the ONNX path ------------===//
//
// No quantized ONNX network ships in Debian or npm, so the shared int8
// TensorFlow Lite models are written as ONNX QDQ models
// (tools/tflite-to-onnx) and compiled from ONNX: with TensorFlow Lite's
// arithmetic selected (--onnx-arithmetic tflite), every seed's output on
// every target label must equal the TensorFlow Lite original's expected
// output byte for byte, and the quantization pass must leave no operator
// in float. Each model's ONNX bytes are written once; each target builds
// each model once (the tests' program cache), every seed running on it.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "OnnxExport.h"
#include "TestSupport.h"
#include "import/ONNXImporter.h"
#include "import/TFLiteImporter.h"

#include "llvm/ADT/StringExtras.h"

#include <doctest/doctest.h>

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

void checkThroughOnnx(const std::string &Name) {
  requireSharedDir();
  llvm::Expected<ImportResult> Tfl = tflite::importModelFile(modelPath(Name));
  REQUIRE_MESSAGE(static_cast<bool>(Tfl), llvm::toString(Tfl.takeError()));
  llvm::Expected<std::string> Bytes = onnxexport::exportQdq(Tfl->Model->main());
  REQUIRE_MESSAGE(static_cast<bool>(Bytes), llvm::toString(Bytes.takeError()));
  // The quantization pass leaves nothing in float.
  std::vector<uint8_t> Onnx(Bytes->begin(), Bytes->end());
  llvm::Expected<ImportResult> R = onnximport::importModel(Onnx);
  REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
  CHECK_MESSAGE(R->Warnings.empty(), llvm::join(R->Warnings, "; "));
  for (const ir::Operator &Op : R->Model->main().Operators)
    CHECK_MESSAGE(Op.Type != "DEQUANTIZE", "a DEQUANTIZE is left");
  CHECK(R->Model->main().Operators.size() <=
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

} // namespace

TEST_CASE("shared int8 models exported as ONNX QDQ run as their TensorFlow "
          "Lite originals on every target label") {
  for (const char *Name : Models) {
    SUBCASE(Name) { checkThroughOnnx(Name); }
  }
}

TEST_CASE("a quantized ONNX model is refused without --onnx-arithmetic "
          "tflite, with the reason") {
  requireSharedDir();
  llvm::Expected<ImportResult> Tfl =
      tflite::importModelFile(modelPath("tflm_hello_world_int8"));
  REQUIRE(static_cast<bool>(Tfl));
  llvm::Expected<std::string> Bytes = onnxexport::exportQdq(Tfl->Model->main());
  REQUIRE(static_cast<bool>(Bytes));
  test::TempDir Dir;
  const std::string File = Dir.file("hello.onnx");
  test::writeFileBytes(File,
                       std::vector<uint8_t>(Bytes->begin(), Bytes->end()));
  test::RunResult R =
      runAccelgen({"compile", File, "--target", "ref", "-o", Dir.file("out")});
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("specified with ONNX's arithmetic") !=
                    std::string::npos,
                R.Stderr);
  // explain needs no arithmetic.
  R = runAccelgen({"explain", File, "--target", "mdla3.0"});
  CHECK_MESSAGE(R.ExitCode == 0, R.Stderr);
}
