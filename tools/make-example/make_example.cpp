//===- make_example.cpp - Builds accelgen's bundled example model ---------===//
//
// `accelgen-make-example OUT.tflite` writes a small int8 image classifier built
// here, in the Graph IR, so that the project carries a model it made itself:
//
//   input 1x16x16x3 -> CONV_2D 3x3 stride 2 (+RELU) -> 1x8x8x8
//     -> DEPTHWISE_CONV_2D 3x3 (+RELU) -> 1x8x8x8 -> AVERAGE_POOL_2D 8x8
//     -> 1x1x1x8 -> RESHAPE -> 1x8 -> FULLY_CONNECTED -> 1x10 -> SOFTMAX
//
// Quantization follows what the TensorFlow Lite converter produces for
// full-integer models: int8 activations with a zero point, symmetric int8
// weights (per channel for convolutions), int32 biases whose scale is input
// scale times weight scale, and a softmax output of scale 1/256, zero point
// -128. The weights are pseudo-random from a fixed seed, so every build writes
// the same bytes; the network classifies nothing, it exists to be compiled.
//
// With `--input FILE` it also writes an input for the model: a 16x16 RGB test
// pattern (horizontal, vertical and diagonal ramps, one per channel) as raw
// int8, the layout `accelgen run` reads as input_0.bin. With `--check DIR` it
// compares what `accelgen run --dump-layers` wrote for that input into DIR
// with its own evaluation of the model (ExampleReference.h), which shares no
// code with the kernels accelgen emits.
//
//===----------------------------------------------------------------------===//
#include "ExampleReference.h"

#include "emit/ModelEmitter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"
#include "ir/Verifier.h"
#include "tflite_subset_generated.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace accelgen;
namespace attr = accelgen::ir::attr;

namespace {

/// xorshift32 (Marsaglia): deterministic on every platform, unlike the
/// distributions of <random>.
class XorShift32 {
public:
  explicit XorShift32(uint32_t Seed) : State(Seed) {}

  uint32_t next() {
    State ^= State << 13;
    State ^= State >> 17;
    State ^= State << 5;
    return State;
  }
  /// A value in [Lo, Hi].
  int32_t uniform(int32_t Lo, int32_t Hi) {
    return Lo + static_cast<int32_t>(next() % uint32_t(Hi - Lo + 1));
  }
  /// A value in [Lo, Hi).
  float uniform(float Lo, float Hi) {
    return Lo + (Hi - Lo) * static_cast<float>(next() >> 8) / float(1 << 24);
  }

private:
  uint32_t State;
};

/// The value of the fused_activation attribute for \p A: its name in the
/// format, as the importer gives it.
std::string fusedActivation(tfl::Activation A) {
  return tfl::EnumNameActivation(A);
}

using ir::perTensor;

/// Builds the graph one tensor and operator at a time.
class ExampleBuilder {
public:
  ExampleBuilder() : Rng(0x2545F491u) {}

  ir::Model build();

private:
  ir::GraphBuilder B;
  ir::Graph &G = B.G;
  XorShift32 Rng;

  ir::Operator &addOp(ir::OpCode Code, int32_t Version,
                      std::vector<int32_t> Inputs, int32_t Output) {
    ir::Operator &Op =
        B.op(ir::opName(Code).str(), std::move(Inputs), {Output});
    Op.Version = Version;
    return Op;
  }

  std::vector<int8_t> randomWeights(size_t N) {
    std::vector<int8_t> W(N);
    for (int8_t &V : W)
      V = static_cast<int8_t>(Rng.uniform(-127, 127));
    return W;
  }

  /// Per-channel weight scales, as symmetric quantization of weights whose
  /// largest magnitude lies in [0.1, 0.6) gives them.
  std::vector<float> randomWeightScales(size_t Channels) {
    std::vector<float> S(Channels);
    for (float &V : S)
      V = Rng.uniform(0.1f, 0.6f) / 127.0f;
    return S;
  }

  /// An int32 bias of \p Units values, quantized with scale InputScale times
  /// each weight scale: one scale for a per-tensor layer, else one per unit.
  int32_t addBias(std::string Name, int32_t Units, float InputScale,
                  const std::vector<float> &WeightScales) {
    ir::QuantParams Q;
    for (float WS : WeightScales) {
      Q.Scales.push_back(InputScale * WS);
      Q.ZeroPoints.push_back(0);
    }
    std::vector<int32_t> Values(Units);
    for (int32_t &V : Values)
      V = Rng.uniform(-2048, 2047);
    return B.constant(std::move(Name), {Units}, Q, ir::DType::I32, Values);
  }
};

ir::Model ExampleBuilder::build() {
  G.Name = "main";
  constexpr int32_t InC = 3, ConvC = 8, Classes = 10;

  // Input: an RGB image in [0, 1], quantized to int8.
  const float InScale = 1.0f / 255.0f;
  int32_t Input = B.tensor("input", {1, 16, 16, InC}, perTensor(InScale, -128),
                           ir::DType::I8);

  // CONV_2D 3x3, stride 2, SAME: 16x16x3 -> 8x8x8. Filter [out, kh, kw, in],
  // per-channel along axis 0. RELU is fused, so the output range starts at 0
  // and the zero point sits at the bottom of int8.
  std::vector<float> ConvScales = randomWeightScales(ConvC);
  ir::QuantParams ConvWQ;
  ConvWQ.Scales = ConvScales;
  ConvWQ.ZeroPoints.assign(ConvC, 0);
  ConvWQ.Axis = 0;
  int32_t ConvW = B.constant("conv/weights", {ConvC, 3, 3, InC}, ConvWQ,
                             ir::DType::I8, randomWeights(ConvC * 3 * 3 * InC));
  int32_t ConvB = addBias("conv/bias", ConvC, InScale, ConvScales);
  const float ConvOutScale = 0.0235f;
  int32_t ConvOut = B.tensor("conv/Relu", {1, 8, 8, ConvC},
                             perTensor(ConvOutScale, -128), ir::DType::I8);
  ir::Operator &Conv =
      addOp(ir::OpCode::Conv2D, 3, {Input, ConvW, ConvB}, ConvOut);
  Conv.setAttr(attr::Padding, std::string("SAME"));
  Conv.setAttr(attr::StrideH, int64_t(2));
  Conv.setAttr(attr::StrideW, int64_t(2));
  Conv.setAttr(attr::DilationH, int64_t(1));
  Conv.setAttr(attr::DilationW, int64_t(1));
  Conv.setAttr(attr::FusedActivation, fusedActivation(tfl::Activation::RELU));

  // DEPTHWISE_CONV_2D 3x3, stride 1, SAME, depth multiplier 1. Filter
  // [1, kh, kw, channels], per-channel along axis 3; its bias along axis 0.
  std::vector<float> DwScales = randomWeightScales(ConvC);
  ir::QuantParams DwWQ;
  DwWQ.Scales = DwScales;
  DwWQ.ZeroPoints.assign(ConvC, 0);
  DwWQ.Axis = 3;
  int32_t DwW = B.constant("dwconv/weights", {1, 3, 3, ConvC}, DwWQ,
                           ir::DType::I8, randomWeights(3 * 3 * ConvC));
  int32_t DwB = addBias("dwconv/bias", ConvC, ConvOutScale, DwScales);
  const float DwOutScale = 0.0312f;
  int32_t DwOut = B.tensor("dwconv/Relu", {1, 8, 8, ConvC},
                           perTensor(DwOutScale, -128), ir::DType::I8);
  ir::Operator &Dw =
      addOp(ir::OpCode::DepthwiseConv2D, 3, {ConvOut, DwW, DwB}, DwOut);
  Dw.setAttr(attr::Padding, std::string("SAME"));
  Dw.setAttr(attr::StrideH, int64_t(1));
  Dw.setAttr(attr::StrideW, int64_t(1));
  Dw.setAttr(attr::DilationH, int64_t(1));
  Dw.setAttr(attr::DilationW, int64_t(1));
  Dw.setAttr(attr::DepthMultiplier, int64_t(1));
  Dw.setAttr(attr::FusedActivation, fusedActivation(tfl::Activation::RELU));

  // AVERAGE_POOL_2D over the whole 8x8 map; pooling keeps the quantization.
  int32_t PoolOut = B.tensor("pool", {1, 1, 1, ConvC},
                             perTensor(DwOutScale, -128), ir::DType::I8);
  ir::Operator &Pool = addOp(ir::OpCode::AveragePool2D, 2, {DwOut}, PoolOut);
  Pool.setAttr(attr::Padding, std::string("VALID"));
  Pool.setAttr(attr::StrideH, int64_t(8));
  Pool.setAttr(attr::StrideW, int64_t(8));
  Pool.setAttr(attr::FilterH, int64_t(8));
  Pool.setAttr(attr::FilterW, int64_t(8));
  Pool.setAttr(attr::FusedActivation, fusedActivation(tfl::Activation::NONE));

  // RESHAPE to [1, 8], the new shape given both as input 1 and as options,
  // as converters write it.
  int32_t NewShape = B.constant("flatten/shape", {2}, std::nullopt,
                                ir::DType::I32, std::vector<int32_t>{1, ConvC});
  int32_t Flat = B.tensor("flatten", {1, ConvC}, perTensor(DwOutScale, -128),
                          ir::DType::I8);
  ir::Operator &Reshape =
      addOp(ir::OpCode::Reshape, 1, {PoolOut, NewShape}, Flat);
  Reshape.setAttr(attr::NewShape, std::vector<int64_t>{1, ConvC});

  // FULLY_CONNECTED 8 -> 10: weights [units, depth], per-tensor.
  const float FcWScale = 0.0043f;
  int32_t FcW =
      B.constant("dense/weights", {Classes, ConvC}, perTensor(FcWScale, 0),
                 ir::DType::I8, randomWeights(Classes * ConvC));
  int32_t FcB = addBias("dense/bias", Classes, DwOutScale, {FcWScale});
  int32_t Logits =
      B.tensor("dense", {1, Classes}, perTensor(0.0841f, 12), ir::DType::I8);
  ir::Operator &Fc =
      addOp(ir::OpCode::FullyConnected, 4, {Flat, FcW, FcB}, Logits);
  Fc.setAttr(attr::FusedActivation, fusedActivation(tfl::Activation::NONE));
  Fc.setAttr(attr::KeepNumDims, false);
  Fc.setAttr(attr::WeightsFormat, int64_t(0));
  Fc.setAttr(attr::AsymmetricQuantizeInputs, false);

  // SOFTMAX: probabilities in [0, 1) with the fixed int8 output encoding.
  int32_t Probs = B.tensor("probabilities", {1, Classes},
                           perTensor(1.0f / 256.0f, -128), ir::DType::I8);
  ir::Operator &Softmax = addOp(ir::OpCode::Softmax, 2, {Logits}, Probs);
  Softmax.setAttr(attr::Beta, 1.0);

  G.Inputs = {Input};
  G.Outputs = {Probs};

  ir::Model M;
  M.SchemaVersion = 3;
  M.Description = "accelgen example: tiny int8 convnet";
  M.Graphs.push_back(std::move(G));
  return M;
}

/// The test-pattern input: channel 0 ramps left to right, channel 1 top to
/// bottom, channel 2 along the diagonal, each over the whole int8 range.
std::vector<int8_t> exampleInput() {
  constexpr int H = 16, W = 16, C = 3;
  std::vector<int8_t> In;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      for (int Ch = 0; Ch < C; ++Ch) {
        int Ramp = Ch == 0 ? X * 17 : Ch == 1 ? Y * 17 : (X + Y) * 255 / 30;
        In.push_back(static_cast<int8_t>(Ramp - 128));
      }
  return In;
}

/// Compares the layer dump of `accelgen run --dump-layers` in \p Dir (its
/// layers/output_<k>.bin) with the independent reference on the same input:
/// int8 arithmetic bit for bit, softmax (evaluated in double) within one
/// quantization step. Prints one line per disagreement and a summary.
bool checkLayers(const ir::Graph &G, llvm::StringRef Dir) {
  llvm::Expected<std::vector<std::vector<int8_t>>> Ref =
      example::evaluate(G, exampleInput());
  if (!Ref) {
    llvm::errs() << "error: " << llvm::toString(Ref.takeError()) << "\n";
    return false;
  }
  std::map<int32_t, bool> FromSoftmax;
  for (const ir::Operator &Op : G.Operators)
    for (int32_t T : Op.Outputs)
      FromSoftmax[T] = Op.code() == ir::OpCode::Softmax;
  std::vector<int32_t> Layers = emit::layerDumpTensors(G);
  unsigned Exact = 0, Close = 0, Bad = 0;
  for (size_t K = 0; K < Layers.size(); ++K) {
    std::string Path =
        (Dir + "/layers/output_" + llvm::Twine(K) + ".bin").str();
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf) {
      llvm::errs() << "error: " << Path << ": " << Buf.getError().message()
                   << "\n";
      return false;
    }
    llvm::StringRef Got = (*Buf)->getBuffer();
    const std::vector<int8_t> &Want = (*Ref)[Layers[K]];
    const std::string &Name = G.tensor(Layers[K]).Name;
    if (Got.size() != Want.size()) {
      llvm::outs() << llvm::formatv("   {0} ({1}): {2} bytes, expected {3}\n",
                                    Name, Path, Got.size(), Want.size());
      ++Bad;
      continue;
    }
    int MaxDiff = 0;
    for (size_t I = 0; I < Want.size(); ++I)
      MaxDiff = std::max(MaxDiff, std::abs(int(int8_t(Got[I])) - Want[I]));
    bool Approx = FromSoftmax[Layers[K]];
    if (MaxDiff == 0) {
      ++Exact;
    } else if (Approx && MaxDiff <= 1) {
      ++Close;
    } else {
      llvm::outs() << llvm::formatv(
          "   {0} ({1}): differs from the reference by up to {2}\n", Name, Path,
          MaxDiff);
      ++Bad;
    }
  }
  if (Bad) {
    llvm::outs() << llvm::formatv(
        "   MISMATCH: {0} of {1} tensors differ from the independent "
        "reference\n",
        Bad, Layers.size());
    return false;
  }
  if (Close == 0)
    llvm::outs() << llvm::formatv(
        "   OK: all {0} tensors equal the independent "
        "evaluation bit for bit\n",
        Exact);
  else
    llvm::outs() << llvm::formatv(
        "   OK: {0} of {1} tensors equal the independent evaluation bit for "
        "bit, the softmax output (evaluated in double) is within one step\n",
        Exact, Layers.size());
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::cl::opt<std::string> Output(llvm::cl::Positional,
                                    llvm::cl::desc("<out.tflite>"));
  llvm::cl::opt<std::string> Input(
      "input", llvm::cl::desc("Write an input for the model (raw int8)"),
      llvm::cl::value_desc("file"));
  llvm::cl::opt<std::string> Check(
      "check",
      llvm::cl::desc("Check `accelgen run --dump-layers` of that input, "
                     "written to this folder, against the reference"),
      llvm::cl::value_desc("dir"));
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Writes accelgen's example model, a tiny int8 convnet\n");

  ir::Model M = ExampleBuilder().build();
  // The writer writes whatever it is given; make sure this is a valid model.
  if (llvm::Error E = ir::verifyModel(M)) {
    llvm::errs() << "error: the example model is malformed: "
                 << llvm::toString(std::move(E)) << "\n";
    return 1;
  }
  if (!Output.empty())
    if (llvm::Error E = tflite::writeModelFile(M, Output)) {
      llvm::errs() << "error: " << Output << ": "
                   << llvm::toString(std::move(E)) << "\n";
      return 1;
    }
  if (!Input.empty()) {
    std::vector<int8_t> In = exampleInput();
    std::error_code EC;
    llvm::raw_fd_ostream OS(Input, EC);
    if (!EC) {
      OS.write(reinterpret_cast<const char *>(In.data()), In.size());
      OS.close();
      EC = OS.error();
    }
    if (EC) {
      llvm::errs() << "error: " << Input << ": cannot write: " << EC.message()
                   << "\n";
      return 1;
    }
  }
  if (!Check.empty() && !checkLayers(M.main(), Check))
    return 1;
  return 0;
}
