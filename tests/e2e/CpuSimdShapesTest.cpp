//===- CpuSimdShapesTest.cpp - The SIMD kernels on shapes the models lack -===//
//
// The shared models (CpuSimdRunTest) leave paths of target cpu's SIMD
// kernels unused: dilation, 5x5 windows (a last quad of taps with gaps),
// channel counts that leave a vector partly full, 4 channels (16 pixels per
// vector in the VNNI depthwise kernel), batches, left shifts, uint8 filter
// values the VNNI depthwise kernel splits or cannot take (255 with filter
// zero point 0), and depth multipliers above 1 (the C template the compiler
// vectorises, whose border columns GCC 12 once miscompiled with AVX-512).
// Each case is one operator, emitted for target cpu with each SIMD --cpu
// value this processor runs, built with gcc at -O3 (as `accelgen run` builds
// target cpu) and the value's flags and run on pseudo-random inputs: its
// output must be the reference kernel's, byte for byte.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "../kernels/KernelTestSupport.h"

#include "cpu/CpuKernels.h"
#include "emit/ModelEmitter.h"

#include "llvm/Support/Program.h"

#include <random>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// One convolution-like operator and its quantization.
struct Shape {
  const char *Op = "CONV_2D"; // or DEPTHWISE_CONV_2D, FULLY_CONNECTED
  ir::DType Type = ir::DType::I8;
  int32_t Batches = 1, IH = 1, IW = 1, IC = 1, OC = 1, KH = 1, KW = 1;
  int32_t Stride = 1, Dilation = 1;
  /// Depthwise only: output channels per input channel (OC = IC * this).
  int32_t DepthMultiplier = 1;
  const char *Padding = "SAME";
  const char *Activation = "NONE";
  /// input scale * filter scale / output scale, about.
  float Scale = 0.01f;
  /// uint8 only: the filter's zero point.
  int64_t FilterZeroPoint = 118;
  /// Whether the SIMD kernels run it (cpu_requantize); otherwise the C
  /// template the compiler vectorises does, at every --cpu.
  bool Simd = true;
  /// Text znver4's cpu_kernels.c has (the path meant), and text it lacks.
  const char *Has = "cpu_requantize(", *Lacks = "no such text";
};

/// Output extent of a window along one axis.
int32_t outSize(const Shape &S, int32_t In, int32_t K) {
  const int32_t Reach = (K - 1) * S.Dilation + 1;
  return std::string(S.Padding) == "SAME" ? (In + S.Stride - 1) / S.Stride
                                          : (In - Reach) / S.Stride + 1;
}

/// The graph of \p S's operator with pseudo-random filter and bias from
/// \p Gen: int8 per-channel, uint8 per-tensor.
ir::Graph build(const Shape &S, std::mt19937 &Gen) {
  ir::GraphBuilder B;
  const bool U8 = S.Type == ir::DType::U8;
  const bool Fc = std::string(S.Op) == "FULLY_CONNECTED";
  const bool Dw = std::string(S.Op) == "DEPTHWISE_CONV_2D";
  const float InScale = 0.05f, OutScale = 0.1f;
  const int64_t InZp = U8 ? 120 : -3, OutZp = U8 ? 130 : 5;
  const int32_t OH = Fc ? 0 : outSize(S, S.IH, S.KH),
                OW = Fc ? 0 : outSize(S, S.IW, S.KW);
  const std::vector<int32_t> InShape =
      Fc ? std::vector<int32_t>{S.Batches, S.IC}
         : std::vector<int32_t>{S.Batches, S.IH, S.IW, S.IC};
  const std::vector<int32_t> FilterShape =
      Fc   ? std::vector<int32_t>{S.OC, S.IC}
      : Dw ? std::vector<int32_t>{1, S.KH, S.KW, S.OC}
           : std::vector<int32_t>{S.OC, S.KH, S.KW, S.IC};
  const std::vector<int32_t> OutShape =
      Fc ? std::vector<int32_t>{S.Batches, S.OC}
         : std::vector<int32_t>{S.Batches, OH, OW, S.OC};
  int64_t FilterElements = 1;
  for (int32_t D : FilterShape)
    FilterElements *= D;

  const int32_t In = B.tensor(S.Type, InShape, InScale, InZp);
  std::uniform_int_distribution<int> Byte(0, 255);
  std::vector<uint8_t> Raw(FilterElements);
  for (uint8_t &V : Raw)
    V = uint8_t(Byte(Gen));
  // Every channel's scale differs (different multipliers and shifts); uint8
  // has one.
  std::vector<float> FilterScales(S.OC);
  for (int32_t C = 0; C < S.OC; ++C)
    FilterScales[C] = S.Scale * OutScale / InScale * (0.6f + 0.05f * (C % 9));
  int32_t Filter;
  if (U8 && S.FilterZeroPoint == 0)
    Raw[0] = 255; // w + filter_offset = 255, not a sum of two int8
  if (U8) {
    Filter = B.constant(ir::DType::U8, FilterShape, Raw, FilterScales[0],
                        S.FilterZeroPoint);
  } else {
    for (uint8_t &V : Raw)
      if (V == 0x80)
        V = 0x81; // int8 filters are symmetric: no -128
    Filter = B.constant(ir::DType::I8, FilterShape, Raw);
    B.perChannel(Filter, FilterScales, Dw ? 3 : 0);
  }
  std::uniform_int_distribution<int32_t> BiasValue(-3000, 3000);
  std::vector<int32_t> BiasValues(S.OC);
  for (int32_t &V : BiasValues)
    V = BiasValue(Gen);
  const int32_t Bias = B.constant(ir::DType::I32, {S.OC}, BiasValues);
  if (U8) {
    B.G.Tensors[Bias].Quant =
        ir::QuantParams{{InScale * FilterScales[0]}, {0}, 0};
  } else {
    std::vector<float> BiasScales(S.OC);
    for (int32_t C = 0; C < S.OC; ++C)
      BiasScales[C] = InScale * FilterScales[C];
    B.perChannel(Bias, BiasScales, 0);
  }
  const int32_t Out = B.tensor(S.Type, OutShape, OutScale, OutZp);
  ir::Operator &Op = B.op(S.Op, {In, Filter, Bias}, {Out});
  if (Fc) {
    Op.Attrs = {{"fused_activation", std::string(S.Activation)}};
  } else {
    Op.Attrs = {{"padding", std::string(S.Padding)},
                {"stride_h", int64_t(S.Stride)},
                {"stride_w", int64_t(S.Stride)},
                {"dilation_h", int64_t(S.Dilation)},
                {"dilation_w", int64_t(S.Dilation)},
                {"fused_activation", std::string(S.Activation)}};
    if (Dw)
      Op.Attrs["depth_multiplier"] = int64_t(S.DepthMultiplier);
  }
  B.G.Name = "main";
  B.G.Inputs = {In};
  B.G.Outputs = {Out};
  return B.G;
}

/// \p S's operator on target cpu with each SIMD --cpu value this processor
/// runs, against the reference kernel.
void check(const Shape &S, uint32_t Seed) {
  std::mt19937 Gen(Seed);
  const ir::Graph G = build(S, Gen);
  std::vector<uint8_t> Input(G.tensor(G.Inputs[0]).numElements());
  std::uniform_int_distribution<int> Byte(0, 255);
  for (uint8_t &V : Input)
    V = uint8_t(Byte(Gen));
  const std::vector<uint8_t> Want = test::runSingle(G, {{G.Inputs[0], Input}});

  auto CC = llvm::sys::findProgramByName("gcc");
  REQUIRE_MESSAGE(bool(CC), "gcc is not installed");
  for (const char *Name : {"x86-64-v3", "x86-64-v4", "znver4"}) {
    INFO("--cpu " << std::string(Name));
    const std::optional<cpu::CpuChoice> Cpu = e2e::hostCpu(Name);
    if (!Cpu)
      continue;
    emit::EmitOptions Opts;
    Opts.Target = "cpu";
    Opts.CpuKernels = std::make_shared<cpu::Specialiser>(*Cpu);
    Opts.Name = "shape";
    Opts.ModelFileName = "shape.tflite";
    Opts.GeneratorVersion = test::accelgenVersion();
    test::TempDir Src, In, Out;
    std::vector<std::string> Args = {"-std=c99", "-O3", "-Wall", "-Werror"};
    llvm::SmallVector<llvm::StringRef, 4> Flags;
    llvm::StringRef(Cpu->Flags).split(Flags, ' ', -1, false);
    for (llvm::StringRef F : Flags)
      Args.push_back(F.str());
    for (const std::string &Source : e2e::writeProgram(G, Opts, Src))
      Args.push_back(Source);
    const std::string Kernels = test::readFileText(Src.file("cpu_kernels.c"));
    CHECK(llvm::StringRef(Kernels).contains("cpu_requantize(") == S.Simd);
    if (Cpu->Level == cpu::CpuIsaLevel::Avx512Vnni) {
      CHECK(llvm::StringRef(Kernels).contains(S.Has));
      CHECK_FALSE(llvm::StringRef(Kernels).contains(S.Lacks));
    }
    Args.insert(Args.end(), {"-o", Src.file("prog"), "-lm"});
    test::RunResult Built = test::runProgram(*CC, Args, 120);
    REQUIRE_MESSAGE(Built.ExitCode == 0, Built.Stderr);
    test::writeFileBytes(In.file("input_0.bin"), Input);
    test::RunResult Ran =
        test::runProgram(Src.file("prog"), {In.path(), Out.path()}, 60);
    REQUIRE_MESSAGE(Ran.ExitCode == 0, Ran.Stderr);
    const std::vector<uint8_t> Got =
        test::readFileBytes(Out.file("output_0.bin"));
    CHECK_MESSAGE(Got == Want,
                  describeDiff(Got, Want, G.tensor(G.Outputs[0]).Type));
  }
}

} // namespace

TEST_CASE("depthwise: dilation 2, 20 channels") {
  Shape S;
  S.Op = "DEPTHWISE_CONV_2D";
  S.IH = 9, S.IW = 11, S.IC = S.OC = 20, S.KH = S.KW = 3, S.Dilation = 2;
  S.Activation = "RELU6";
  S.Has = "cpu_quads(";
  check(S, 1);
}

TEST_CASE("depthwise: 5x5, 4 channels, 16 pixels per vector") {
  Shape S;
  S.Op = "DEPTHWISE_CONV_2D";
  S.IH = 7, S.IW = 37, S.IC = S.OC = 4, S.KH = S.KW = 5;
  S.Has = "n * 4, g);"; // runs of up to 16 pixels of 4 channels
  check(S, 2);
}

TEST_CASE("depthwise: uint8, 100 channels, stride 2, split filter") {
  Shape S;
  S.Op = "DEPTHWISE_CONV_2D";
  S.Type = ir::DType::U8;
  S.IH = S.IW = 9, S.IC = S.OC = 100, S.KH = S.KW = 3, S.Stride = 2;
  S.Activation = "RELU6";
  S.Has = "_filter2[";
  check(S, 3);
}

TEST_CASE("depthwise: uint8 filter values up to 255, zero point 0") {
  Shape S;
  S.Op = "DEPTHWISE_CONV_2D";
  S.Type = ir::DType::U8;
  S.IH = 6, S.IW = 8, S.IC = S.OC = 24, S.KH = S.KW = 3;
  S.Padding = "VALID";
  S.FilterZeroPoint = 0;
  S.Scale = 0.0005f;
  S.Lacks = "cpu_quads("; // the vpmaddwd kernel
  check(S, 4);
}

TEST_CASE("depthwise: uint8, depth multiplier 2 and 3, 1 x K, SAME borders") {
  // 4 or 6 input channels, a 1 x K filter (K >= 4) and SAME padding: the
  // border columns, where part of the window lies in the padding.
  for (int32_t IC : {4, 6})
    for (int32_t M : {2, 3})
      for (int32_t K : {4, 7}) {
        Shape S;
        S.Op = "DEPTHWISE_CONV_2D";
        S.Type = ir::DType::U8;
        S.IH = 3, S.IW = 9, S.IC = IC, S.DepthMultiplier = M;
        S.OC = IC * M, S.KH = 1, S.KW = K;
        S.Simd = false, S.Has = "in[c / ";
        INFO(IC << " channels, multiplier " << M << ", 1 x " << K);
        check(S, 100 + IC * 10 + M * 3 + K);
      }
}

TEST_CASE("depthwise: int8, depth multiplier 2, dilation 2, stride 2") {
  // The border's tap range with gaps between taps.
  Shape S;
  S.Op = "DEPTHWISE_CONV_2D";
  S.IH = 7, S.IW = 8, S.IC = 5, S.DepthMultiplier = 2, S.OC = 10;
  S.KH = S.KW = 3, S.Dilation = 2, S.Stride = 2;
  S.Simd = false, S.Has = "in[c / ";
  check(S, 7);
}

TEST_CASE("convolution: int8, dilation 2, row buffer") {
  Shape S;
  S.IH = 10, S.IW = 13, S.IC = 8, S.OC = 24, S.KH = S.KW = 3, S.Dilation = 2;
  S.Activation = "RELU";
  S.Scale = 0.002f;
  S.Has = "_koff[";
  check(S, 5);
}

TEST_CASE("convolution: int8, stride 2, two batches, left shifts") {
  Shape S;
  S.Batches = 2, S.IH = S.IW = 9, S.IC = 4, S.OC = 20, S.KH = S.KW = 3;
  S.Stride = 2;
  S.Scale = 3.0f;
  S.Has = "_koff[";
  check(S, 6);
}

TEST_CASE("convolution: uint8 1x1, 20 deep, 40 columns") {
  Shape S;
  S.Type = ir::DType::U8;
  S.IH = 5, S.IW = 7, S.IC = 20, S.OC = 40;
  S.Activation = "RELU";
  S.Scale = 0.001f;
  check(S, 7);
}

TEST_CASE("convolution: int8, 6 deep (im2col rows), 70 columns") {
  Shape S;
  S.IH = 8, S.IW = 9, S.IC = 6, S.OC = 70, S.KH = S.KW = 3;
  S.Padding = "VALID";
  S.Scale = 0.004f;
  S.Has = "_patch(";
  check(S, 8);
}

TEST_CASE("fully connected: int8, three rows") {
  Shape S;
  S.Op = "FULLY_CONNECTED";
  S.Batches = 3, S.IC = 50, S.OC = 33;
  S.Scale = 0.003f;
  check(S, 9);
}

TEST_CASE("nothing to compute: a batch of 0 takes the reference kernel") {
  // The templates assume work (M >= 1); a FULLY_CONNECTED of batch 0 is
  // left to the reference kernel, whose loops run zero times, as on ref.
  ir::GraphBuilder B;
  const int32_t X = B.tensor("x", {0, 16}, ir::perTensor(0.5f, 0));
  const int32_t W = B.constant("w", {4, 16}, ir::perTensor(0.1f, 0),
                               ir::DType::I8, std::vector<int8_t>(64, 1));
  const int32_t Y = B.tensor("y", {0, 4}, ir::perTensor(0.5f, 0));
  B.op("FULLY_CONNECTED", {X, W, -1}, {Y},
       {{"fused_activation", std::string("NONE")}});
  B.inputs({X}).outputs({Y});
  B.G.Name = "main";
  for (const char *Name : {"generic", "x86-64-v3", "x86-64-v4", "znver4"}) {
    INFO("--cpu " << std::string(Name));
    llvm::Expected<cpu::CpuChoice> Cpu = cpu::resolveCpu(Name);
    REQUIRE(bool(Cpu));
    emit::EmitOptions Opts;
    Opts.Target = "cpu";
    Opts.CpuKernels = std::make_shared<cpu::Specialiser>(*Cpu);
    Opts.Name = "empty";
    Opts.GeneratorVersion = test::accelgenVersion();
    auto M = emit::emitModel(B.G, Opts);
    REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
    CHECK(llvm::none_of(M->Files, [](const emit::EmittedFile &F) {
      return F.Name == "cpu_kernels.c" &&
             llvm::StringRef(F.Text).contains("cpu_requantize(");
    }));
  }
}
