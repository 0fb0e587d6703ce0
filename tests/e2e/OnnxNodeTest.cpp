//===- OnnxNodeTest.cpp - ONNX's node tests through the ONNX reader -------===//
//
// Every ONNX node test (tests/OnnxTestData.h) of an operator the reader
// takes is read, compiled and run, all cases as one model (their graphs
// side by side): on every target path its outputs must equal TensorFlow
// Lite Micro's running the same graph, and on ref ONNX's stored outputs
// byte for byte wherever ONNX's reference rounds as float32 kernels do
// (see Agreement for the others).
//
// (tests/import/OnnxImportTest.cpp has the node tests the reader refuses.)
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "OracleSweep.h"

#include "OnnxTestData.h"
#include "TestSupport.h"
#include "import/ONNXImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <doctest/doctest.h>

#include <cstring>
#include <functional>

using namespace accelgen;

namespace {

/// What a node test's outputs must equal besides TensorFlow Lite Micro's.
/// ONNX computes its stored float outputs with numpy, whose exp, division
/// order and sums in other precisions round differently from float32
/// kernels: where ONNX's result is a single correctly rounded operation
/// (or no arithmetic at all), ours must equal it; elsewhere (Rounds) it
/// equals TensorFlow Lite Micro's float32 arithmetic, and how far it lies
/// from ONNX's, in units in the last place, is printed. TensorFlow Lite
/// Micro lacks some kernels (quantizing float32 to uint8): such cases
/// (NoOracle) must equal ONNX's outputs on ref and cpu.
enum Agreement { Exact, Rounds, NoOracle };

/// A node test and how many of its inputs are computed values; the rest
/// become constants.
struct NodeCase {
  const char *Name;
  int Runtime = 1;
  Agreement Onnx = Exact;
};

/// The node tests that must run.
const NodeCase Runs[] = {
    {"test_relu"},
    {"test_sigmoid", 1, Rounds},
    {"test_sigmoid_example", 1, Rounds},
    {"test_tanh", 1, Rounds},
    {"test_tanh_example"},
    {"test_leakyrelu"},
    {"test_leakyrelu_default"},
    {"test_leakyrelu_example"},
    {"test_add", 2},
    {"test_add_bcast", 2},
    {"test_sub", 2},
    {"test_sub_bcast", 2},
    {"test_sub_example", 2},
    {"test_mul", 2},
    {"test_mul_bcast", 2},
    {"test_mul_example", 2},
    {"test_div", 2},
    {"test_div_bcast", 2},
    {"test_div_example", 2},
    {"test_conv_with_strides_padding"},
    {"test_conv_with_strides_no_padding"},
    {"test_conv_with_strides_and_asymmetric_padding"},
    {"test_conv_with_autopad_same"},
    {"test_maxpool_2d_default"},
    {"test_maxpool_2d_pads"},
    {"test_maxpool_2d_precomputed_pads"},
    {"test_maxpool_2d_precomputed_same_upper"},
    {"test_maxpool_2d_precomputed_strides"},
    {"test_maxpool_2d_same_lower"},
    {"test_maxpool_2d_same_upper"},
    {"test_maxpool_2d_strides"},
    {"test_averagepool_2d_default"},
    {"test_averagepool_2d_pads_count_include_pad", 1, Rounds},
    {"test_averagepool_2d_precomputed_pads_count_include_pad"},
    {"test_averagepool_2d_precomputed_same_upper"},
    {"test_averagepool_2d_precomputed_strides"},
    {"test_averagepool_2d_same_upper"},
    {"test_averagepool_2d_strides", 1, Rounds},
    {"test_globalaveragepool", 1, Rounds},
    {"test_globalaveragepool_precomputed"},
    {"test_gemm_default_no_bias", 1, Rounds},
    {"test_gemm_default_vector_bias", 1, Rounds},
    {"test_gemm_default_single_elem_vector_bias", 1, Rounds},
    {"test_gemm_default_zero_bias", 1, Rounds},
    {"test_gemm_default_matrix_bias", 1, Rounds},
    {"test_gemm_transposeB", 1, Rounds},
    {"test_matmul_2d", 1, Rounds},
    {"test_matmul_3d", 1, Rounds},
    {"test_flatten_axis0"},
    {"test_flatten_axis1"},
    {"test_flatten_axis2"},
    {"test_flatten_axis3"},
    {"test_flatten_default_axis"},
    {"test_reshape_extended_dims"},
    {"test_reshape_negative_dim"},
    {"test_reshape_one_dim"},
    {"test_reshape_reduced_dims"},
    {"test_reshape_reordered_all_dims"},
    {"test_reshape_reordered_last_dims"},
    {"test_reshape_zero_dim"},
    {"test_softmax_example", 1, Rounds},
    {"test_softmax_large_number", 1, Rounds},
    {"test_softmax_axis_2", 1, Rounds},
    {"test_softmax_negative_axis", 1, Rounds},
    {"test_softmax_default_axis", 1, Rounds},
    {"test_concat_1d_axis_0", 2},
    {"test_concat_2d_axis_0", 2},
    {"test_concat_2d_axis_1", 2},
    {"test_concat_3d_axis_0", 2},
    {"test_concat_3d_axis_1", 2},
    {"test_concat_3d_axis_2", 2},
    {"test_concat_3d_axis_negative_1", 2},
    {"test_transpose_default"},
    {"test_transpose_all_permutations_0"},
    {"test_transpose_all_permutations_1"},
    {"test_transpose_all_permutations_2"},
    {"test_transpose_all_permutations_3"},
    {"test_transpose_all_permutations_4"},
    {"test_transpose_all_permutations_5"},
    {"test_clip"},
    {"test_clip_example"},
    {"test_clip_inbounds"},
    {"test_clip_outbounds"},
    {"test_clip_splitbounds"},
    {"test_clip_default_min"},
    {"test_clip_default_max"},
    {"test_clip_default_inbounds"},
    {"test_clip_default_int8_min"},
    {"test_clip_default_int8_max"},
    {"test_clip_default_int8_inbounds"},
    {"test_quantizelinear", 1, NoOracle},
    {"test_quantizelinear_axis", 1, NoOracle},
    {"test_dequantizelinear_axis", 1, NoOracle},
    {"test_dequantizelinear"},
    {"test_identity"},
};

/// Appends graph \p From to \p Into, its tensors' names prefixed \p Prefix.
void appendGraph(ir::Graph &Into, const ir::Graph &From,
                 const std::string &Prefix) {
  int32_t Offset = static_cast<int32_t>(Into.Tensors.size());
  for (ir::Tensor T : From.Tensors) {
    T.Name = Prefix + T.Name;
    Into.Tensors.push_back(std::move(T));
  }
  auto Shift = [Offset](int32_t I) { return I < 0 ? I : I + Offset; };
  for (ir::Operator Op : From.Operators) {
    for (int32_t &I : Op.Inputs)
      I = Shift(I);
    for (int32_t &I : Op.Outputs)
      I = Shift(I);
    Into.Operators.push_back(std::move(Op));
  }
  for (int32_t I : From.Inputs)
    Into.Inputs.push_back(Shift(I));
  for (int32_t I : From.Outputs)
    Into.Outputs.push_back(Shift(I));
}

} // namespace

/// How far float32 \p Got lies from \p Want at most, in units in the last
/// place.
int64_t maxUlps(const std::vector<uint8_t> &Got,
                const std::vector<uint8_t> &Want) {
  int64_t Most = 0;
  for (size_t I = 0; I + 4 <= Got.size() && I + 4 <= Want.size(); I += 4) {
    int32_t A, B;
    std::memcpy(&A, Got.data() + I, 4);
    std::memcpy(&B, Want.data() + I, 4);
    // Floats ordered as integers: negative ones mirrored below zero.
    int64_t OA = A < 0 ? int64_t(INT32_MIN) - A : A;
    int64_t OB = B < 0 ? int64_t(INT32_MIN) - B : B;
    Most = std::max(Most, OA > OB ? OA - OB : OB - OA);
  }
  return Most;
}

/// The node tests \p Take chooses as one model (their graphs side by side):
/// its inputs' bytes and, per output, its case and ONNX's bytes.
struct Combined {
  ir::Model All;
  std::vector<std::vector<uint8_t>> Inputs;
  struct Output {
    const NodeCase *Case;
    int Index;
    onnximport::TensorData Value;
  };
  std::vector<Output> Want;
};
Combined combine(const std::function<bool(const NodeCase &)> &Take) {
  Combined M;
  M.All.SchemaVersion = 3;
  M.All.Graphs.emplace_back();
  M.All.Graphs[0].Name = "main";
  for (size_t C = 0; C < std::size(Runs); ++C) {
    const NodeCase &Case = Runs[C];
    if (!Take(Case))
      continue;
    const std::string CaseName = Case.Name;
    CAPTURE(CaseName);
    std::vector<uint8_t> Bytes = test::onnxNodeModel(Case.Name, Case.Runtime);
    llvm::Expected<ImportResult> R = onnximport::importModel(Bytes);
    REQUIRE_MESSAGE(static_cast<bool>(R), llvm::toString(R.takeError()));
    const ir::Graph &G = R->Model->main();
    REQUIRE(G.Inputs.size() == static_cast<size_t>(Case.Runtime));
    std::string Data =
        test::onnxNodeDir() + "/" + Case.Name + "/test_data_set_0/";
    for (size_t I = 0; I < G.Inputs.size(); ++I) {
      onnximport::TensorData V =
          test::onnxIrValue(Data + "input_" + std::to_string(I) + ".pb");
      REQUIRE(V.Data.size() ==
              static_cast<size_t>(G.tensor(G.Inputs[I]).byteSize()));
      M.Inputs.push_back(std::move(V.Data));
    }
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      onnximport::TensorData V =
          test::onnxIrValue(Data + "output_" + std::to_string(I) + ".pb");
      REQUIRE(V.Data.size() ==
              static_cast<size_t>(G.tensor(G.Outputs[I]).byteSize()));
      M.Want.push_back({&Case, static_cast<int>(I), std::move(V)});
    }
    appendGraph(M.All.Graphs[0], G, "c" + std::to_string(C) + "_");
  }
  return M;
}

/// Runs \p M on \p Target: outputs of cases ONNX rounds as we do must equal
/// its bytes; of the others, how far they lie is printed.
void checkAgainstOnnx(const Combined &M, const std::string &Target) {
  CAPTURE(Target);
  test::TempDir Dir, In, Out;
  const std::string Model = Dir.file("onnx-node-tests.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M.All));
  for (size_t I = 0; I < M.Inputs.size(); ++I)
    test::writeFileBytes(In.file("input_" + std::to_string(I) + ".bin"),
                         M.Inputs[I]);
  test::RunResult Run =
      e2e::runModelOn(Target, {}, Model, In.path(), Out.path(), false);
  REQUIRE_MESSAGE(Run.ExitCode == 0, Run.Stderr << Run.ErrorMessage);
  size_t Exact = 0;
  for (size_t I = 0; I < M.Want.size(); ++I) {
    std::vector<uint8_t> Got =
        test::readFileBytes(Out.file("output_" + std::to_string(I) + ".bin"));
    const Combined::Output &W = M.Want[I];
    if (W.Case->Onnx != Rounds) {
      Exact += Got == W.Value.Data;
      CHECK_MESSAGE(Got == W.Value.Data,
                    std::string(W.Case->Name)
                        << " output " << W.Index << ": "
                        << e2e::describeDiff(Got, W.Value.Data, W.Value.Type));
      continue;
    }
    REQUIRE(W.Value.Type == ir::DType::F32);
    MESSAGE(std::string(W.Case->Name) << " output " << W.Index << ": within "
                                      << maxUlps(Got, W.Value.Data)
                                      << " ulp of ONNX's (numpy's rounding)");
  }
  MESSAGE(Target << ": " << Exact << " of " << M.Want.size()
                 << " outputs equal ONNX's byte for byte");
}

TEST_CASE("every node test of the operators read runs on every target path "
          "as TensorFlow Lite Micro, and exactly as ONNX where it rounds "
          "once") {
  test::requireOnnxNodeTests();
  Combined M = combine([](const NodeCase &C) { return C.Onnx != NoOracle; });
  // Every target path, as TensorFlow Lite Micro runs the same graph, but
  // Cortex-M4's: its C library (newlib built without double-precision
  // hardware) computes expf with the older routine, whose results differ
  // in the last place from the host's for LOGISTIC and SOFTMAX on float32.
  e2e::checkAgainstOracle(
      M.All, "onnx-node-tests", M.Inputs,
      {{"cortex-m4", "newlib's single-precision expf rounds float32 "
                     "LOGISTIC and SOFTMAX differently from the host's C "
                     "library, which the oracle uses"}});
  // Then ref (its program cached by the sweep) against ONNX's outputs.
  checkAgainstOnnx(M, "ref");
}

TEST_CASE("node tests TensorFlow Lite Micro has no kernel for run exactly "
          "as ONNX on ref, cpu and every functional-model label") {
  test::requireOnnxNodeTests();
  Combined M = combine([](const NodeCase &C) { return C.Onnx == NoOracle; });
  REQUIRE(!M.Want.empty());
  checkAgainstOnnx(M, "ref");
  checkAgainstOnnx(M, "cpu");
  // mdla runs the per-channel DEQUANTIZE (as MDLA_IDENTITY_CONV_2D).
  for (const std::string &Label : e2e::functionalModelLabels())
    checkAgainstOnnx(M, Label);
}
