//===- MalformedModelTest.cpp - Models that are wrong in what they mean ---===//
//
// BadInputTest covers files that are not well-formed models; this file covers
// models that are well-formed FlatBuffers but wrong in what they say: operand
// counts, option enums, attribute ranges, quantization, outputs nothing
// writes, and values that do not fit the C the compiler would emit. Each is
// rejected by `inspect`, `explain` or `compile` with exactly one located line
// and exit code 1, never compiled into C that misbehaves at run time.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "ir/GraphBuilder.h"
#include "import/TFLiteWriter.h"
#include "tflite_subset_generated.h"

#include "flatbuffers/flexbuffers.h"

#include "llvm/Support/Endian.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

using namespace accelgen;
namespace attr = accelgen::ir::attr;
namespace fb = accelgen::tfl;

namespace {

/// The bundled example as IR (see BadInputTest.cpp for its tensors):
///   operators 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 AVERAGE_POOL_2D,
///             3 RESHAPE, 4 FULLY_CONNECTED, 5 SOFTMAX
ir::Model example() {
  auto R = tflite::importModelFile(test::exampleModelPath());
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  return std::move(*R->Model);
}

/// Runs accelgen with \p Args (the model path first replaced by \p Path) and
/// checks the one-line error and exit code 1.
void checkFails(const std::vector<std::string> &Args, const std::string &Path,
                const std::string &Message) {
  INFO("accelgen " << Args.front());
  test::RunResult R = test::runAccelgen(Args);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: " + Path + ": " + Message + "\n");
}

/// Writes \p M as \p Name and checks that inspect, explain (mdla2.0) and
/// compile (ref and mdla2.0) all reject it with \p Message.
void checkRejectedEverywhere(const test::TempDir &Dir, const ir::Model &M,
                             const std::string &Name,
                             const std::string &Message) {
  std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, tflite::writeModel(M));
  checkFails({"inspect", Path}, Path, Message);
  checkFails({"inspect", Path, "--json"}, Path, Message);
  checkFails({"explain", Path, "--target", "mdla2.0"}, Path, Message);
  for (const char *Target : {"ref", "mdla2.0"})
    checkFails({"compile", Path, "--target", Target, "-o", Dir.file("out")},
               Path, Message);
}

/// Writes \p M as \p Name and checks that compile rejects it for \p Target.
void checkCompileFails(const test::TempDir &Dir, const ir::Model &M,
                       const std::string &Name, const std::string &Target,
                       const std::string &Message) {
  std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, tflite::writeModel(M));
  checkFails({"compile", Path, "--target", Target, "-o", Dir.file("out")}, Path,
             Message);
}

std::vector<uint8_t> int64Bytes(const std::vector<int64_t> &Values) {
  std::vector<uint8_t> Out(Values.size() * 8);
  for (size_t I = 0; I < Values.size(); ++I)
    llvm::support::endian::write64le(Out.data() + 8 * I,
                                     static_cast<uint64_t>(Values[I]));
  return Out;
}

/// A float STRIDED_SLICE of an 8-element vector, begin 0, end 8, with the
/// int64 \p Stride; its output has the one element a huge stride selects.
ir::Model stridedSlice(int64_t Stride) {
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.emplace_back();
  ir::Graph &G = M.Graphs.front();
  auto Add = [&](std::string Name, ir::DType T, std::vector<int32_t> Shape,
                 std::vector<uint8_t> Data = {}) {
    ir::Tensor X;
    X.Name = std::move(Name);
    X.Type = T;
    X.Shape = std::move(Shape);
    X.IsConstant = !Data.empty();
    X.Data = std::move(Data);
    G.Tensors.push_back(std::move(X));
    return static_cast<int32_t>(G.Tensors.size() - 1);
  };
  int32_t In = Add("in", ir::DType::F32, {8});
  int32_t Begin = Add("begin", ir::DType::I64, {1}, int64Bytes({0}));
  int32_t End = Add("end", ir::DType::I64, {1}, int64Bytes({8}));
  int32_t Strides = Add("strides", ir::DType::I64, {1}, int64Bytes({Stride}));
  int32_t Out = Add("out", ir::DType::F32, {1});
  ir::Operator Op;
  Op.Type = "STRIDED_SLICE";
  Op.BuiltinCode = 45;
  Op.Version = 1;
  Op.Inputs = {In, Begin, End, Strides};
  Op.Outputs = {Out};
  for (llvm::StringRef A : {attr::BeginMask, attr::EndMask, attr::EllipsisMask,
                            attr::NewAxisMask, attr::ShrinkAxisMask})
    Op.setAttr(A, int64_t(0));
  Op.setAttr(attr::Offset, false);
  G.Operators.push_back(std::move(Op));
  G.Inputs = {In};
  G.Outputs = {Out};
  return M;
}

} // namespace

TEST_CASE("int64 constants that do not fit the int32 C parameters") {
  test::TempDir Dir;
  // 2^32 + 1 would be written as 1 (out-of-bounds writes), -2^32 as 0 (an
  // endless loop).
  SUBCASE("stride 2^32 + 1") {
    checkCompileFails(Dir, stridedSlice((int64_t(1) << 32) + 1), "big.tflite",
                      "ref",
                      "operator 0 (STRIDED_SLICE) is not supported by target "
                      "ref: strides tensor 'strides' holds 4294967297 at index "
                      "0, outside the int32 range "
                      "of the kernels' parameters");
  }
  SUBCASE("stride -2^32") {
    checkCompileFails(Dir, stridedSlice(-(int64_t(1) << 32)), "neg.tflite",
                      "ref",
                      "operator 0 (STRIDED_SLICE) is not supported by target "
                      "ref: strides tensor 'strides' holds -4294967296 at "
                      "index 0, outside the int32 range "
                      "of the kernels' parameters");
  }
}

TEST_CASE("a graph output no operator writes") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();
  ir::Tensor Orphan = G.Tensors[12];
  Orphan.Name = "orphan";
  G.Tensors.push_back(Orphan);
  G.Outputs.push_back(static_cast<int32_t>(G.Tensors.size() - 1));
  checkRejectedEverywhere(Dir, M, "orphan.tflite",
                          "graph 0: graph output tensor 14 'orphan' is written "
                          "by no operator and is neither a graph input nor a "
                          "constant");
}

TEST_CASE("an operator input no operator writes") {
  // Neither a graph input nor a constant nor state: TensorFlow Lite refuses
  // it, and a program would read whatever its memory held.
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();
  ir::Tensor Orphan = G.Tensors[G.Operators[0].Inputs[0]];
  Orphan.Name = "orphan";
  G.Tensors.push_back(Orphan);
  const int32_t T = static_cast<int32_t>(G.Tensors.size() - 1);
  G.Operators[0].Inputs[0] = T;
  checkRejectedEverywhere(
      Dir, M, "orphan_input.tflite",
      "graph 0: operator 0 (" + G.Operators[0].Type + "): input 0 is tensor " +
          std::to_string(T) +
          " 'orphan', which no operator writes and which is neither a graph "
          "input nor a constant");
}

TEST_CASE("quantization the kernels cannot represent") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();
  // The requantization multiplier of the convolution, per channel: input
  // scale * filter scale / output scale. Its left shift must stay in
  // [-31, 30], the contract of the C kernels.
  // The message of the first channel, computed here as TensorFlow Lite's
  // QuantizeMultiplier defines the shift: the frexp exponent of the real
  // multiplier.
  auto Expected = [&](const std::string &Prefix) {
    const double Real = double(G.Tensors[0].Quant->Scales[0]) *
                        double(G.Tensors[1].Quant->Scales[0]) /
                        double(G.Tensors[3].Quant->Scales[0]);
    int Exponent = 0;
    std::frexp(Real, &Exponent);
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%g", Real);
    return Prefix + "input scale * filter scale / output scale = " + Buf +
           " needs a left shift of " + std::to_string(Exponent) +
           "; the kernels take -31 to 30 (the quantization scales are out of "
           "range)";
  };
  SUBCASE("a tiny output scale") {
    G.Tensors[3].Quant->Scales = {1e-45f};
    checkCompileFails(Dir, M, "tiny.tflite", "ref",
                      Expected("operator 0 (CONV_2D) is not supported by "
                               "target ref: "));
    checkCompileFails(Dir, M, "tiny.tflite", "mdla2.0",
                      Expected("operator 0 (CONV_2D) is not supported by "
                               "target mdla2.0: "));
  }
  SUBCASE("a huge input scale") {
    G.Tensors[0].Quant->Scales = {3e38f};
    checkCompileFails(Dir, M, "huge.tflite", "ref",
                      Expected("operator 0 (CONV_2D) is not supported by "
                               "target ref: "));
  }
}

TEST_CASE("per-channel conversions and int32 sums the kernels cannot take") {
  test::TempDir Dir;
  auto Model = [](const ir::GraphBuilder &B) {
    ir::Model M;
    M.SchemaVersion = 3;
    M.Graphs.push_back(B.G);
    M.Graphs.back().Name = "main";
    return M;
  };
  SUBCASE("a QUANTIZE per channel along another axis than the last") {
    ir::GraphBuilder B;
    const int32_t X = B.tensor("x", {1, 3, 2}, std::nullopt, ir::DType::F32);
    const int32_t Y = B.tensor(
        "y", {1, 3, 2}, ir::perChannel({0.5f, 1.0f, 2.0f}, 1), ir::DType::U8);
    B.op("QUANTIZE", {X}, {Y});
    B.inputs({X}).outputs({Y});
    checkCompileFails(Dir, Model(B), "axis.tflite", "ref",
                      "operator 0 (QUANTIZE) is not supported by target ref: "
                      "output 'y' has 3 scales along axis 1; the kernels take "
                      "them along the last axis, one per element of it");
  }
  SUBCASE("int32 sums of a convolution quantized otherwise") {
    ir::GraphBuilder B;
    const int32_t X =
        B.tensor("x", {1, 3, 3, 1}, ir::perTensor(1.0f, 1), ir::DType::U8);
    const int32_t W = B.constant("w", {1, 2, 2, 1}, ir::perTensor(1.0f, 0),
                                 ir::DType::U8, std::vector<uint8_t>(4, 1));
    const int32_t Y =
        B.tensor("y", {1, 2, 2, 1}, ir::perTensor(0.5f, 0), ir::DType::I32);
    B.op("CONV_2D", {X, W, -1}, {Y},
         {{"padding", std::string("VALID")},
          {"stride_h", int64_t(1)},
          {"stride_w", int64_t(1)},
          {"dilation_h", int64_t(1)},
          {"dilation_w", int64_t(1)},
          {"fused_activation", std::string("NONE")}});
    B.inputs({X}).outputs({Y});
    checkCompileFails(Dir, Model(B), "sums.tflite", "ref",
                      "operator 0 (CONV_2D) is not supported by target ref: "
                      "int32 output 'y' holds the sums unscaled, so it must "
                      "be quantized with scale 1 (input scale * filter "
                      "scale) and zero point 0");
  }
}

TEST_CASE("shapes the kernel parameters must not divide by") {
  // Found by the pipeline fuzzer: an input depth of 0 made the group count 0
  // and the parameter code divided by it.
  test::TempDir Dir;
  ir::Model M = example();
  M.main().Tensors[0].Shape = {1, 16, 16, 0};
  checkCompileFails(Dir, M, "depth0.tflite", "ref",
                    "operator 0 (CONV_2D) is not supported by target ref: "
                    "input depth 0, filter depth 3 and 8 output channels do "
                    "not form whole groups");
}

TEST_CASE("operators that are malformed") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();

  SUBCASE("CONV_2D with 5 operands") {
    G.Operators[0].Inputs = {0, 1, 2, 1, 2};
    checkRejectedEverywhere(Dir, M, "five.tflite",
                            "graph 0: operator 0 (CONV_2D): takes 2 to 3 "
                            "operands, found 5");
  }
  SUBCASE("SOFTMAX with 2 results") {
    ir::Tensor Extra = G.Tensors[13];
    Extra.Name = "extra";
    G.Tensors.push_back(Extra);
    G.Operators[5].Outputs.push_back(14);
    checkRejectedEverywhere(Dir, M, "two-results.tflite",
                            "graph 0: operator 5 (SOFTMAX): has 2 results, "
                            "expected 1");
  }
  SUBCASE("an absurd operator version") {
    G.Operators[0].Version = std::numeric_limits<int32_t>::max();
    checkRejectedEverywhere(Dir, M, "version.tflite",
                            "graph 0: operator 0 (CONV_2D): version "
                            "2147483647 is outside [1, 64]");
  }
  SUBCASE("stride 0") {
    G.Operators[0].setAttr(attr::StrideH, int64_t(0));
    checkRejectedEverywhere(Dir, M, "stride0.tflite",
                            "graph 0: operator 0 (CONV_2D): stride_h is 0; it "
                            "must be at least 1");
  }
  SUBCASE("dilation -1") {
    G.Operators[1].setAttr(attr::DilationW, int64_t(-1));
    checkRejectedEverywhere(Dir, M, "dilation.tflite",
                            "graph 0: operator 1 (DEPTHWISE_CONV_2D): "
                            "dilation_w is -1; it must be at least 1");
  }
  SUBCASE("filter size 0") {
    G.Operators[2].setAttr(attr::FilterW, int64_t(0));
    checkRejectedEverywhere(Dir, M, "filter0.tflite",
                            "graph 0: operator 2 (AVERAGE_POOL_2D): filter_w "
                            "is 0; it must be at least 1");
  }
  SUBCASE("an infinite softmax beta") {
    G.Operators[5].setAttr(attr::Beta, std::numeric_limits<double>::infinity());
    checkRejectedEverywhere(Dir, M, "beta.tflite",
                            "graph 0: operator 5 (SOFTMAX): beta is inf; it "
                            "must be finite");
  }
  SUBCASE("an unknown fused activation") {
    G.Operators[0].setAttr(attr::FusedActivation, std::string("UNKNOWN_9"));
    checkRejectedEverywhere(Dir, M, "activation.tflite",
                            "graph 0: operator 0 (CONV_2D): fused activation "
                            "9 is not one the format defines (0 to 5)");
  }
  SUBCASE("a RESHAPE whose shape contradicts its output") {
    ir::Tensor &Shape = G.Tensors[8];
    REQUIRE(Shape.Data.size() == 8);
    llvm::support::endian::write32le(Shape.Data.data(), 2);
    llvm::support::endian::write32le(Shape.Data.data() + 4, 4);
    checkRejectedEverywhere(Dir, M, "reshape.tflite",
                            "graph 0: operator 3 (RESHAPE): shape tensor "
                            "'flatten/shape' gives 2x4 for an input of 8 "
                            "elements, but the output 'flatten' is 1x8");
  }
}

TEST_CASE("option enums the format does not define") {
  test::TempDir Dir;
  std::vector<uint8_t> Bytes = tflite::writeModel(example());
  fb::Operator *Pool = fb::GetMutableModel(Bytes.data())
                           ->mutable_subgraphs()
                           ->GetMutableObject(0)
                           ->mutable_operators()
                           ->GetMutableObject(2);
  auto *Options =
      static_cast<fb::Pool2DOptions *>(Pool->mutable_builtin_options());
  // The example pools with VALID padding, which the file stores.
  REQUIRE(Options->mutate_padding(static_cast<fb::Padding>(7)));
  std::string Path = Dir.file("padding7.tflite");
  test::writeFileBytes(Path, Bytes);
  checkFails({"inspect", Path}, Path,
             "graph 0: operator 2 (AVERAGE_POOL_2D): padding 7 is neither "
             "SAME (0) nor VALID (1)");
  checkFails({"explain", Path, "--target", "mdla2.0"}, Path,
             "graph 0: operator 2 (AVERAGE_POOL_2D): padding 7 is neither "
             "SAME (0) nor VALID (1)");
}

TEST_CASE("element types the IR has no equivalent for are named") {
  test::TempDir Dir;
  const ir::Model M = example();
  for (const auto &[Type, Name] :
       {std::pair{fb::TensorType::UINT16, "UINT16"},
        {fb::TensorType::UINT64, "UINT64"},
        {fb::TensorType::COMPLEX128, "COMPLEX128"},
        {fb::TensorType::INT2, "INT2"},
        {fb::TensorType::VARIANT, "VARIANT"},
        {fb::TensorType::BFLOAT16, "BFLOAT16"}}) {
    std::vector<uint8_t> Bytes = tflite::writeModel(M);
    fb::Tensor *T = fb::GetMutableModel(Bytes.data())
                        ->mutable_subgraphs()
                        ->GetMutableObject(0)
                        ->mutable_tensors()
                        ->GetMutableObject(0);
    // Tensor 0 is int8, a type the file stores.
    REQUIRE(T->mutate_type(Type));
    const std::string Path = Dir.file(std::string(Name) + ".tflite");
    test::writeFileBytes(Path, Bytes);
    checkFails({"inspect", Path}, Path,
               "graph 0: tensor 0 '" + M.Graphs[0].Tensors[0].Name +
                   "': element type " + Name + " is not supported");
  }
}

TEST_CASE("quantization parameters that are not sane") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();
  SUBCASE("a zero scale") {
    G.Tensors[3].Quant->Scales = {0.0f};
    checkRejectedEverywhere(Dir, M, "scale0.tflite",
                            "graph 0: tensor 3 'conv/Relu': quantization "
                            "scale 0 is not a finite positive number");
  }
  SUBCASE("a NaN scale") {
    G.Tensors[3].Quant->Scales = {std::numeric_limits<float>::quiet_NaN()};
    checkRejectedEverywhere(Dir, M, "scale-nan.tflite",
                            "graph 0: tensor 3 'conv/Relu': quantization "
                            "scale nan is not a finite positive number");
  }
  SUBCASE("a zero point outside int8") {
    G.Tensors[3].Quant->ZeroPoints = {300};
    checkRejectedEverywhere(Dir, M, "zp.tflite",
                            "graph 0: tensor 3 'conv/Relu': zero point 300 is "
                            "outside the range of i8");
  }
}

namespace {

/// A one-operator model: \p Type reading tensors \p In (with constants)
/// and writing \p Out.
struct OneOp {
  ir::Model M;
  ir::Graph &G() { return M.Graphs.front(); }
  OneOp() {
    M.SchemaVersion = 3;
    M.Graphs.emplace_back();
  }
  int32_t tensor(std::string Name, ir::DType T, std::vector<int32_t> Shape,
                 std::optional<float> Scale = std::nullopt,
                 std::vector<uint8_t> Data = {}) {
    ir::Tensor X;
    X.Name = std::move(Name);
    X.Type = T;
    X.Shape = std::move(Shape);
    if (Scale) {
      ir::QuantParams Q;
      Q.Scales = {*Scale};
      Q.ZeroPoints = {0};
      X.Quant = Q;
    }
    X.IsConstant = !Data.empty();
    X.Data = std::move(Data);
    G().Tensors.push_back(std::move(X));
    return static_cast<int32_t>(G().Tensors.size() - 1);
  }
  ir::Operator &op(std::string Type, int32_t Code, std::vector<int32_t> Ins,
                   int32_t Out) {
    ir::Operator Op;
    Op.Type = std::move(Type);
    Op.BuiltinCode = Code;
    Op.Inputs = std::move(Ins);
    Op.Outputs = {Out};
    G().Operators.push_back(std::move(Op));
    for (int32_t T : G().Operators.back().Inputs)
      if (!G().Tensors[T].IsConstant)
        G().Inputs.push_back(T);
    G().Outputs = {Out};
    return G().Operators.back();
  }
};

/// `explain --target mdla2.0` on \p M: the operator stays on the CPU and
/// the reason with \p Id is given.
void checkOnCpu(const test::TempDir &Dir, const ir::Model &M,
                const std::string &Name, const std::string &Reason) {
  std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, tflite::writeModel(M));
  test::RunResult R =
      test::runAccelgen({"explain", Path, "--target", "mdla2.0"});
  INFO(R.Stdout << R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(R.Stdout.find(Reason) != std::string::npos);
}

} // namespace

TEST_CASE("explain says what no CPU kernel runs, as compile refuses it") {
  // An int16 LOGISTIC whose output scale is not 2^-15: every description
  // that takes int16 LOGISTIC accepts it, and TensorFlow Lite Micro's
  // Prepare refuses it as the reference kernels' builder does.
  test::TempDir Dir;
  OneOp B;
  int32_t In = B.tensor("in", ir::DType::I16, {1, 8}, 1.0f / 4096);
  int32_t Out = B.tensor("out", ir::DType::I16, {1, 8}, 0.001f);
  B.op("LOGISTIC", 14, {In}, Out);
  const std::string Path = Dir.file("logistic.tflite");
  test::writeFileBytes(Path, tflite::writeModel(B.M));
  const std::string Reason = "int16 output scale 0.001 must be 2^-15";
  for (const char *Target : {"ref", "cpu", "mdla2.0", "npu55", "cmsis-nn"}) {
    INFO(Target);
    test::RunResult R = test::runAccelgen({"explain", Path, "--target", Target});
    INFO(R.Stdout << R.Stderr);
    CHECK(R.ExitCode == 0);
    CHECK(R.Stdout.find("cpu_kernel: no CPU kernel runs it: " + Reason) !=
          std::string::npos);
    R = test::runAccelgen(
        {"compile", Path, "--target", Target, "-o", Dir.file(Target)});
    CHECK(R.ExitCode != 0);
    CHECK(R.Stderr.find(Reason) != std::string::npos);
  }
}

TEST_CASE("what the accelerator program cannot hold stays on the CPU") {
  test::TempDir Dir;
  SUBCASE("an accumulator that overflows the device's requantize") {
    // The convolution's output scale 1e5 is the depthwise convolution's
    // input scale: its multiplier needs a left shift of 14, and 9 taps of
    // 255 * 127 shifted by 14 exceed int32.
    ir::Model M = example();
    M.main().Tensors[3].Quant->Scales = {1e5f};
    checkOnCpu(Dir, M, "conv1e5.tflite",
               "device_accumulator_range: the accumulator may reach");
    std::string Path = Dir.file("conv1e5.tflite");
    test::RunResult R = test::runAccelgen(
        {"compile", Path, "--target", "mdla2.0", "-o", Dir.file("out")});
    INFO(R.Stderr);
    CHECK(R.ExitCode == 0);
  }
  SUBCASE("a MEAN over an axis of size 0") {
    OneOp B;
    int32_t In = B.tensor("in", ir::DType::I8, {1, 2, 0, 8}, 0.5f);
    std::vector<uint8_t> Axis(4, 0);
    Axis[0] = 2;
    int32_t Axes = B.tensor("axes", ir::DType::I32, {1}, std::nullopt, Axis);
    int32_t Out = B.tensor("out", ir::DType::I8, {1, 2, 8}, 0.5f);
    B.op("MEAN", 40, {In, Axes}, Out).setAttr(attr::KeepDims, false);
    checkOnCpu(Dir, B.M, "mean0.tflite",
               "device_empty_reduction: axis 2 of input 'in' has size 0, so "
               "each output element would reduce nothing");
  }
  SUBCASE("a RELU whose rescaling the device's fixed point cannot hold") {
    // Output scale 2^-17 of the input's: the device rescales with at most 13
    // left shifts (check_params, FAM_relu); the CPU's kernel takes it.
    OneOp B;
    int32_t In = B.tensor("in", ir::DType::I8, {1, 4, 4, 8}, 1.0f);
    int32_t Out = B.tensor("out", ir::DType::I8, {1, 4, 4, 8}, 1.0f / 131072);
    B.op("RELU", 19, {In}, Out);
    checkOnCpu(Dir, B.M, "relu17.tflite",
               "device_kernel: the accelerator's functional model cannot run "
               "it: its fixed-point parameters (zero points, rescaling "
               "shifts, window reach or accumulator bound) are beyond the "
               "device's range (ref_relu_i8)");
    std::string Path = Dir.file("relu17.tflite");
    test::RunResult R = test::runAccelgen(
        {"compile", Path, "--target", "mdla2.0", "-o", Dir.file("relu")});
    INFO(R.Stderr);
    CHECK(R.ExitCode == 0);
  }
  SUBCASE("a float ADD of 2^29 elements, 2^31 bytes") {
    OneOp B;
    int32_t A = B.tensor("a", ir::DType::F32, {1, 8192, 8192, 8});
    int32_t C = B.tensor("b", ir::DType::F32, {1, 8192, 8192, 8});
    int32_t Out = B.tensor("sum", ir::DType::F32, {1, 8192, 8192, 8});
    B.op("ADD", 0, {A, C}, Out)
        .setAttr(attr::FusedActivation, std::string("NONE"));
    checkOnCpu(Dir, B.M, "add2g.tflite",
               "device_tensor_bytes: tensor 0 'a' holds 2147483648 bytes; the "
               "accelerator program addresses at most 2147483647");
  }
}

TEST_CASE("a PACK whose values_count is not its number of inputs, an "
          "UNPACK whose num is not its number of results") {
  test::TempDir Dir;
  ir::GraphBuilder B;
  const int32_t A = B.tensor("a", {2, 3}, std::nullopt, ir::DType::F32);
  const int32_t C = B.tensor("c", {2, 3}, std::nullopt, ir::DType::F32);
  const int32_t O = B.tensor("out", {2, 2, 3}, std::nullopt, ir::DType::F32);
  B.op("PACK", {A, C}, {O}, {{"axis", int64_t(0)}});
  B.inputs({A, C}).outputs({O});
  B.G.Name = "main";
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.push_back(B.G);
  std::vector<uint8_t> Bytes = tflite::writeModel(M);
  fb::Operator *Pack = fb::GetMutableModel(Bytes.data())
                           ->mutable_subgraphs()
                           ->GetMutableObject(0)
                           ->mutable_operators()
                           ->GetMutableObject(0);
  auto *Options = static_cast<fb::PackOptions *>(Pack->mutable_builtin_options());
  REQUIRE(Options->mutate_values_count(3));
  std::string Path = Dir.file("pack3.tflite");
  test::writeFileBytes(Path, Bytes);
  checkFails({"inspect", Path}, Path,
             "graph 0: operator 0 (PACK): PACK says 3 values but has 2 "
             "inputs");

  ir::GraphBuilder U;
  const int32_t In = U.tensor("in", {2, 3}, std::nullopt, ir::DType::F32);
  const int32_t R0 = U.tensor("r0", {3}, std::nullopt, ir::DType::F32);
  const int32_t R1 = U.tensor("r1", {3}, std::nullopt, ir::DType::F32);
  U.op("UNPACK", {In}, {R0, R1}, {{"axis", int64_t(0)}});
  U.inputs({In}).outputs({R0, R1});
  U.G.Name = "main";
  M.Graphs = {U.G};
  Bytes = tflite::writeModel(M);
  fb::Operator *Unpack = fb::GetMutableModel(Bytes.data())
                             ->mutable_subgraphs()
                             ->GetMutableObject(0)
                             ->mutable_operators()
                             ->GetMutableObject(0);
  REQUIRE(static_cast<fb::UnpackOptions *>(Unpack->mutable_builtin_options())
              ->mutate_num(1));
  Path = Dir.file("unpack1.tflite");
  test::writeFileBytes(Path, Bytes);
  checkFails({"inspect", Path}, Path,
             "graph 0: operator 0 (UNPACK): num is 1 but it has 2 outputs");
}

TEST_CASE("int4 weights are stored packed and read back unpacked; an int4 "
          "activation is refused") {
  test::TempDir Dir;
  ir::GraphBuilder B;
  const int32_t In =
      B.tensor("in", {1, 3}, ir::perTensor(0.5f, 0), ir::DType::I8);
  const int32_t W = B.constant("w", {2, 3}, ir::perTensor(0.1f, 0),
                               ir::DType::I8,
                               std::vector<int8_t>{-8, 7, 0, 1, -1, 5});
  B.G.Tensors[size_t(W)].PackedInt4 = true;
  const int32_t O =
      B.tensor("out", {1, 2}, ir::perTensor(0.5f, 0), ir::DType::I8);
  B.op("FULLY_CONNECTED", {In, W, -1}, {O},
       {{"fused_activation", std::string("NONE")}});
  B.inputs({In}).outputs({O});
  B.G.Name = "main";
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.push_back(B.G);
  std::vector<uint8_t> Bytes = tflite::writeModel(M);
  const fb::Model *F = fb::GetModel(Bytes.data());
  const fb::Tensor *T = F->subgraphs()->Get(0)->tensors()->Get(uint32_t(W));
  CHECK(T->type() == fb::TensorType::INT4);
  // Two values a byte, the first in the low nibble: -8 is 0x8, 7 is 0x7.
  const auto *Packed = F->buffers()->Get(T->buffer())->data();
  REQUIRE(Packed->size() == 3);
  CHECK(Packed->Get(0) == 0x78);
  CHECK(Packed->Get(1) == 0x10);
  CHECK(Packed->Get(2) == 0x5F);
  auto R = tflite::importModel(Bytes);
  REQUIRE(bool(R));
  const ir::Tensor &Back = R->Model->main().Tensors[size_t(W)];
  CHECK(Back.PackedInt4);
  CHECK(Back.Type == ir::DType::I8);
  CHECK(Back.Data == B.G.Tensors[size_t(W)].Data);

  // An activation stored as int4: only weights are.
  REQUIRE(fb::GetMutableModel(Bytes.data())
              ->mutable_subgraphs()
              ->GetMutableObject(0)
              ->mutable_tensors()
              ->GetMutableObject(uint32_t(In))
              ->mutate_type(fb::TensorType::INT4));
  const std::string Path = Dir.file("int4-activation.tflite");
  test::writeFileBytes(Path, Bytes);
  checkFails({"inspect", Path}, Path,
             "graph 0: tensor 0 'in': an int4 tensor must be constant "
             "(packed weights); only int4 weights are supported");
}

namespace {

/// A model whose main graph runs IF (operand 0 the condition, operand 1 an
/// int8 [1, 4]) with graphs 1 and 2, each giving its input back.
ir::Model callModel() {
  ir::Model M;
  M.SchemaVersion = 3;
  for (int K = 0; K < 3; ++K) {
    ir::GraphBuilder B;
    if (K == 0) {
      const int32_t C =
          B.tensor("cond", {1}, std::nullopt, ir::DType::Bool);
      const int32_t X = B.tensor("x", {1, 4}, ir::perTensor(0.5f, 0));
      const int32_t Y = B.tensor("y", {1, 4}, ir::perTensor(0.5f, 0));
      B.op("IF", {C, X}, {Y},
           {{"then_subgraph", int64_t(1)}, {"else_subgraph", int64_t(2)}});
      B.inputs({C, X}).outputs({Y});
    } else {
      const int32_t A = B.tensor("a", {1, 4}, ir::perTensor(0.5f, 0));
      B.inputs({A}).outputs({A});
    }
    M.Graphs.push_back(B.G);
  }
  return M;
}

/// A model whose main graph reads variable "v" (int8 [1, 4]) through a
/// handle \p Handle makes: "main" a VAR_HANDLE of its own, "input" a graph
/// input. With \p Assign it assigns a constant of \p AssignBytes bytes
/// first.
ir::Model variableModel(llvm::StringRef Handle, bool Assign,
                        int32_t AssignBytes = 4) {
  ir::GraphBuilder B;
  const int32_t H =
      B.tensor("handle", {}, std::nullopt, ir::DType::I32);
  B.G.Tensors[H].IsResource = true;
  if (Handle == "main")
    B.op("VAR_HANDLE", {}, {H},
         {{"container", std::string()}, {"shared_name", std::string("v")}});
  if (Assign)
    B.op("ASSIGN_VARIABLE",
         {H, B.constant("value", {1, AssignBytes}, std::nullopt,
                        ir::DType::I8)},
         {});
  const int32_t V = B.tensor("read", {1, 4}, std::nullopt, ir::DType::I8);
  B.op("READ_VARIABLE", {H}, {V});
  B.inputs(Handle == "input" ? std::vector<int32_t>{H}
                             : std::vector<int32_t>{})
      .outputs({V});
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.push_back(B.G);
  return M;
}

} // namespace

TEST_CASE("graphs an operator cannot call, and variables it cannot use") {
  test::TempDir Dir;
  auto Fails = [&](const ir::Model &M, const std::string &Name,
                   const std::string &Message) {
    const std::string Path = Dir.file(Name + ".tflite");
    test::writeFileBytes(Path, tflite::writeModel(M));
    checkFails({"inspect", Path}, Path, Message);
  };
  SUBCASE("the main graph") {
    ir::Model M = callModel();
    M.Graphs[0].Operators[0].setAttr("then_subgraph", int64_t(0));
    checkRejectedEverywhere(
        Dir, M, "if-main.tflite",
        "graph 0, operator 0 (IF): calls graph 0, which is not a graph it "
        "can call (the model has 3; graph 0, the main one, is never called)");
  }
  SUBCASE("a graph the model does not have") {
    ir::Model M = callModel();
    M.Graphs[0].Operators[0].setAttr("else_subgraph", int64_t(9));
    Fails(M, "if-9",
          "graph 0, operator 0 (IF): calls graph 9, which is not a graph it "
          "can call (the model has 3; graph 0, the main one, is never "
          "called)");
  }
  SUBCASE("an operand of another size than the graph's input") {
    ir::Model M = callModel();
    M.Graphs[2].Tensors[0].Shape = {1, 8};
    Fails(M, "if-size",
          "graph 0, operator 0 (IF): operand 0, tensor 1 'x' (i8 1x4), is "
          "copied to or from input 0 of graph 2, tensor 0 'a' (i8 1x8), "
          "which differs in element type or size; graph 0, operator 0 (IF): "
          "result 0, tensor 2 'y' (i8 1x4), is copied to or from output 0 "
          "of graph 2, tensor 0 'a' (i8 1x8), which differs in element type "
          "or size");
  }
  SUBCASE("a condition that is not one bool") {
    ir::Model M = callModel();
    M.Graphs[0].Tensors[0].Shape = {2};
    Fails(M, "if-cond",
          "graph 0, operator 0 (IF): its condition, tensor 0 'cond' (bool "
          "2), must be one bool");
  }
  SUBCASE("a graph that calls itself") {
    ir::Model M = callModel();
    ir::Graph &G = M.Graphs[1];
    ir::Tensor C;
    C.Name = "c";
    C.Shape = {1};
    C.Type = ir::DType::Bool;
    G.Tensors.push_back(C);
    G.Inputs = {1, 0};
    ir::Tensor Y = G.Tensors[0];
    Y.Name = "y";
    G.Tensors.push_back(Y);
    ir::Operator If = M.Graphs[0].Operators[0];
    If.Inputs = {1, 1, 0};
    If.Outputs = {2};
    G.Operators.push_back(If);
    G.Outputs = {2};
    // Graph 1 now takes (cond, a), and so do graph 2 and its caller.
    M.Graphs[2] = G;
    M.Graphs[0].Operators[0].Inputs = {0, 0, 1};
    Fails(M, "if-cycle", "graph 1 calls itself (1 -> 1)");
  }
  SUBCASE("a resource handle that is not one int32") {
    ir::Model M = variableModel("main", /*Assign=*/true);
    M.Graphs[0].Tensors[0].Shape = {2};
    Fails(M, "handle-shape",
          "graph 0: tensor 0 'handle': a resource handle must be one int32, "
          "not constant and not quantized");
  }
  SUBCASE("a handle passed between graphs") {
    Fails(variableModel("input", /*Assign=*/false), "handle-input",
          "graph 0, operator 0 (READ_VARIABLE): its resource handle, tensor "
          "0 'handle' (i32 scalar), is not written by a VAR_HANDLE of graph "
          "0; handles passed between graphs are not supported");
  }
  SUBCASE("a variable no operator assigns") {
    Fails(variableModel("main", /*Assign=*/false), "never-assigned",
          "graph 0, operator 1 (READ_VARIABLE): reads variable 'v', which no "
          "ASSIGN_VARIABLE of the model assigns");
  }
  SUBCASE("a read of another size than the values assigned") {
    Fails(variableModel("main", /*Assign=*/true, /*AssignBytes=*/6),
          "read-size",
          "graph 0, operator 2 (READ_VARIABLE): reads 4 bytes of variable "
          "'v', which holds 6");
  }
}

TEST_CASE("TFLite_Detection_PostProcess without well-formed options") {
  // Its settings are a FlexBuffer map in the operator's custom options; the
  // importer verifies the buffer before it reads a key.
  test::TempDir Dir;
  auto Model = [](std::vector<uint8_t> Options) {
    ir::GraphBuilder B;
    const int32_t Enc = B.tensor("enc", {1, 4, 4}, std::nullopt,
                                 ir::DType::F32);
    const int32_t Sc = B.tensor("scores", {1, 4, 2}, std::nullopt,
                                ir::DType::F32);
    const int32_t An = B.constant("anchors", {4, 4}, std::nullopt,
                                  ir::DType::F32);
    std::vector<int32_t> Out;
    for (std::vector<int32_t> S :
         {std::vector<int32_t>{1, 3, 4}, {1, 3}, {1, 3}, {1}})
      Out.push_back(B.tensor("out" + std::to_string(Out.size()), S,
                             std::nullopt, ir::DType::F32));
    // Written as the custom operator it is, with these option bytes.
    ir::Operator &Op = B.op("CUSTOM", {Enc, Sc, An}, Out);
    Op.Opaque = true;
    Op.BuiltinCode = 32;
    Op.CustomCode = "TFLite_Detection_PostProcess";
    Op.RawOptions = std::move(Options);
    B.inputs({Enc, Sc}).outputs(Out);
    ir::Model M;
    M.Graphs.push_back(std::move(B.G));
    return M;
  };
  const std::string Prefix =
      "graph 0: operator 0 (TFLite_Detection_PostProcess): ";
  SUBCASE("none") {
    checkRejectedEverywhere(Dir, Model({}), "none.tflite",
                            Prefix + "it has no custom options (the "
                                     "FlexBuffer map of its settings)");
  }
  SUBCASE("bytes that are no FlexBuffer") {
    const std::string Path = Dir.file("garbage.tflite");
    test::writeFileBytes(Path,
                         tflite::writeModel(Model({1, 2, 3, 250, 7, 9})));
    checkFails({"inspect", Path}, Path,
               Prefix + "its custom options are not a well-formed "
                        "FlexBuffer");
  }
  SUBCASE("a FlexBuffer that is not a map") {
    flexbuffers::Builder F;
    F.Int(5);
    F.Finish();
    const std::string Path = Dir.file("int.tflite");
    test::writeFileBytes(Path, tflite::writeModel(Model(F.GetBuffer())));
    checkFails({"inspect", Path}, Path,
               Prefix + "its custom options are not a FlexBuffer map");
  }
}
