//===- KernelFamiliesTest.cpp - Every kernel call shape, emitted ----------===//
//
// The shared models exercise convolutions, pooling, ADD, RESHAPE, SOFTMAX and
// FULLY_CONNECTED; the emitter calls the other kernels with other argument
// lists (element counts, element sizes, arrays of inputs, no output shape).
// This test builds one graph using all of them, emits it, builds it with gcc
// and clang-14, runs it with every layer dumped, and compares every layer
// byte for byte with the same kernels called directly through
// tests/kernels/ModelRunner, so a wrongly wired call shows at its operator.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "../kernels/ModelRunner.h"

#include "emit/ModelEmitter.h"
#include "ir/GraphBuilder.h"

#include "llvm/Support/Program.h"

#include <cstring>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

using ir::GraphBuilder;

/// QUANTIZE, PAD, MAX_POOL_2D, TRANSPOSE, STRIDED_SLICE, RELU,
/// CONCATENATION, MUL, SUB, RESHAPE (aliased, and of a constant), SOFTMAX,
/// DEQUANTIZE, LOGISTIC, MEAN, ADD with broadcasting, TANH, LEAKY_RELU;
/// four outputs of three types.
ir::Graph allFamilies() {
  using ir::DType;
  GraphBuilder B;
  const float S = 0.05f;
  const int32_t In = B.tensor(DType::F32, {1, 4, 4, 3});
  const int32_t Q0 = B.tensor(DType::I8, {1, 4, 4, 3}, S, 3);
  B.op("QUANTIZE", {In}, {Q0});

  const int32_t Padded = B.tensor(DType::I8, {1, 5, 5, 3}, S, 3);
  B.op("PAD",
       {Q0, B.constant(DType::I32, {4, 2},
                       std::vector<int32_t>{0, 0, 1, 0, 0, 1, 0, 0})},
       {Padded});
  const int32_t Pooled = B.tensor(DType::I8, {1, 4, 4, 3}, S, 3);
  ir::Operator &Pool = B.op("MAX_POOL_2D", {Padded}, {Pooled});
  Pool.Attrs = {{"filter_h", int64_t(2)},
                {"filter_w", int64_t(2)},
                {"stride_h", int64_t(1)},
                {"stride_w", int64_t(1)},
                {"padding", std::string("VALID")},
                {"fused_activation", std::string("NONE")}};
  const int32_t Transposed = B.tensor(DType::I8, {1, 4, 4, 3}, S, 3);
  B.op("TRANSPOSE",
       {Pooled, B.constant(DType::I32, {4}, std::vector<int32_t>{0, 2, 1, 3})},
       {Transposed});
  const int32_t Sliced = B.tensor(DType::I8, {1, 3, 2, 3}, S, 3);
  B.op("STRIDED_SLICE",
       {Transposed,
        B.constant(DType::I32, {4}, std::vector<int32_t>{0, 1, 0, 0}),
        B.constant(DType::I32, {4}, std::vector<int32_t>{1, 4, 4, 3}),
        B.constant(DType::I32, {4}, std::vector<int32_t>{1, 1, 2, 1})},
       {Sliced});
  const int32_t Relu = B.tensor(DType::I8, {1, 3, 2, 3}, S, 3);
  B.op("RELU", {Sliced}, {Relu});
  const int32_t Joined = B.tensor(DType::I8, {1, 3, 2, 6}, S, 3);
  B.op("CONCATENATION", {Sliced, Relu}, {Joined}).Attrs = {
      {"axis", int64_t(3)}, {"fused_activation", std::string("NONE")}};
  const int32_t Product = B.tensor(DType::I8, {1, 3, 2, 6}, 0.01f, -5);
  B.op("MUL",
       {Joined,
        B.constant(DType::I8, {6},
                   std::vector<int8_t>{10, -20, 30, -40, 50, 127}, 0.02f, 0)},
       {Product})
      .Attrs = {{"fused_activation", std::string("NONE")}};
  const int32_t Diff = B.tensor(DType::I8, {1, 3, 2, 6}, 0.06f, 2);
  B.op("SUB", {Product, Joined}, {Diff}).Attrs = {
      {"fused_activation", std::string("RELU6")}};
  const int32_t Flat = B.tensor(DType::I8, {1, 36}, 0.06f, 2);
  B.op("RESHAPE", {Diff}, {Flat});
  const int32_t Probs = B.tensor(DType::I8, {1, 36}, 1.0f / 256, -128);
  B.op("SOFTMAX", {Flat}, {Probs}).Attrs = {{"beta", 1.0}};
  const int32_t Out0 = B.tensor(DType::F32, {1, 36});
  B.op("DEQUANTIZE", {Probs}, {Out0});

  const int32_t Sigmoid = B.tensor(DType::I8, {1, 4, 4, 3}, 1.0f / 256, -128);
  B.op("LOGISTIC", {Q0}, {Sigmoid});
  const int32_t Mean = B.tensor(DType::I8, {1, 1, 1, 3}, 0.004f, -100);
  B.op("MEAN",
       {Sigmoid, B.constant(DType::I32, {2}, std::vector<int32_t>{1, 2})},
       {Mean})
      .Attrs = {{"keep_dims", true}};
  const int32_t Reshaped = B.tensor(DType::I8, {1, 1, 1, 3}, 0.004f, -100);
  B.op("RESHAPE",
       {B.constant(DType::I8, {3}, std::vector<int8_t>{1, 2, 3}, 0.004f, -100)},
       {Reshaped});
  const int32_t Out1 = B.tensor(DType::I8, {1, 1, 1, 3}, 0.008f, 0);
  B.op("ADD", {Mean, Reshaped}, {Out1}).Attrs = {
      {"fused_activation", std::string("NONE")}};

  const int32_t Out2 = B.tensor(DType::I8, {1, 4, 4, 3}, 1.0f / 128, 0);
  B.op("TANH", {Q0}, {Out2});
  const int32_t Out3 = B.tensor(DType::I8, {1, 4, 4, 3}, 0.03f, -10);
  B.op("LEAKY_RELU", {Q0}, {Out3}).Attrs = {{"alpha", 0.1}};

  B.G.Name = "main";
  B.G.Inputs = {In};
  B.G.Outputs = {Out0, Out1, Out2, Out3};
  return B.G;
}

std::string compilerPath(llvm::StringRef Name) {
  auto P = llvm::sys::findProgramByName(Name);
  REQUIRE_MESSAGE(bool(P), Name.str() << " is not installed");
  return *P;
}

} // namespace

TEST_CASE("every kernel call shape matches the kernels called directly") {
  const ir::Graph G = allFamilies();

  // The input: pseudo-random floats in [-4, 4).
  std::vector<float> X(48);
  uint32_t State = 1;
  for (float &V : X) {
    State ^= State << 13;
    State ^= State >> 17;
    State ^= State << 5;
    V = float(State >> 8) / float(1 << 24) * 8.0f - 4.0f;
  }
  std::vector<uint8_t> XBytes(X.size() * 4);
  std::memcpy(XBytes.data(), X.data(), XBytes.size());

  // The kernels called directly.
  auto Runner = test::ModelRunner::create(G);
  REQUIRE_MESSAGE(bool(Runner), llvm::toString(Runner.takeError()));
  test::TensorBuffers Want = Runner->initialBuffers();
  Want[G.Inputs[0]] = XBytes;
  llvm::Error E = Runner->runAll(Want);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));

  // The emitted program.
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = "families";
  Opts.ModelFileName = "families.tflite";
  Opts.GeneratorVersion = test::accelgenVersion();
  test::TempDir Src, In;
  const std::vector<std::string> Sources = writeProgram(G, Opts, Src);
  test::writeFileBytes(In.file("input_0.bin"), XBytes);
  const std::string ModelC = test::readFileText(Src.file("model.c"));
  // The aliased RESHAPE is no call; the RESHAPE of a constant is one.
  CHECK(ModelC.find("tensor 16 shares tensor 15's bytes") != std::string::npos);
  CHECK(ModelC.find("ref_reshape(3u, t") != std::string::npos);

  const std::vector<int32_t> Layers = emit::layerDumpTensors(G);
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    test::TempDir Bin, Out;
    std::vector<std::string> Args = {
        "-std=c99",         "-O2",     "-Wall",
        "-Wextra",          "-Werror", "-pedantic",
        "-DFAMILIES_TRACE", "-o",      Bin.file("prog")};
    Args.insert(Args.end(), Sources.begin(), Sources.end());
    Args.push_back("-lm");
    test::RunResult Build = test::runProgram(compilerPath(CC), Args, 120);
    REQUIRE_MESSAGE(Build.ExitCode == 0, Build.Stderr);
    CHECK_MESSAGE(Build.Stderr.empty(), Build.Stderr);
    REQUIRE(llvm::sys::fs::create_directory(Out.file("layers")) ==
            std::error_code());
    test::RunResult Run = test::runProgram(
        Bin.file("prog"), {In.path(), Out.path(), "--layers"}, 60);
    REQUIRE_MESSAGE(Run.ExitCode == 0, Run.Stderr);

    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      INFO("output " << I);
      CHECK(test::readFileBytes(Out.file("output_" + std::to_string(I) +
                                         ".bin")) == Want[G.Outputs[I]]);
    }
    for (size_t K = 0; K < Layers.size(); ++K) {
      const int32_t T = Layers[K];
      const std::string Path =
          pathJoin(Out.file("layers"), "output_" + std::to_string(K) + ".bin");
      REQUIRE_MESSAGE(exists(Path), Path << " is missing");
      const auto Got = test::readFileBytes(Path);
      std::string Producer = "?";
      for (size_t O = 0; O < G.Operators.size(); ++O)
        if (G.Operators[O].Outputs[0] == T)
          Producer = std::to_string(O) + " (" + G.Operators[O].Type + ")";
      CHECK_MESSAGE(Got == Want[T],
                    "layer " << K << ", tensor " << T << " of operator "
                             << Producer << ": "
                             << describeDiff(Got, Want[T], G.tensor(T).Type));
    }
  }
}
