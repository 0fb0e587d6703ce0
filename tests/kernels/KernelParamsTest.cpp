//===- KernelParamsTest.cpp - KernelParams on odd and unsupported input ---===//
//
// Every rejection is an llvm::Error that names the operator and the reason,
// never a crash: checked on hand-built graphs with one defect each, and on
// every operator of every shared model with its attributes, shapes, types and
// quantization damaged in turn. The LSTM's own are in LstmTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"

#include "import/TFLiteImporter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <limits>

using namespace accelgen;
using namespace accelgen::test;
using ir::DType;

namespace {

/// A valid int8 CONV_2D: input 1x4x4x2, filter 3x3x3x2, output 1x4x4x3.
GraphBuilder validConv() {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 4, 4, 2}, 0.1f, 0);
  int32_t F = GB.constant(DType::I8, {3, 3, 3, 2}, std::vector<int8_t>(54, 1),
                          0.02f, 0);
  int32_t B = GB.constant(DType::I32, {3}, std::vector<int32_t>{1, 2, 3});
  int32_t Out = GB.tensor(DType::I8, {1, 4, 4, 3}, 0.2f, 0);
  GB.op("CONV_2D", {In, F, B}, {Out}).Attrs = {
      {"padding", std::string("SAME")},
      {"stride_h", int64_t(1)},
      {"stride_w", int64_t(1)},
      {"dilation_h", int64_t(1)},
      {"dilation_w", int64_t(1)},
      {"fused_activation", std::string("NONE")}};
  return GB;
}

std::string sharedModels() {
  llvm::SmallString<256> P(sharedDir());
  llvm::sys::path::append(P, "models");
  return std::string(P);
}

} // namespace

TEST_CASE("a valid convolution is accepted") {
  GraphBuilder GB = validConv();
  CHECK(kernelError(GB.G) == "");
}

TEST_CASE("each defect gives its own message") {
  auto Broken = [](auto Damage) {
    GraphBuilder GB = validConv();
    Damage(GB.G);
    return kernelError(GB.G);
  };
  CHECK(Broken([](ir::Graph &G) { G.Operators[0].Inputs[1] = -1; }) ==
        "operator 0 (CONV_2D): input 1 is missing");
  CHECK(Broken([](ir::Graph &G) { G.Operators[0].Inputs[0] = 99; }) ==
        "operator 0 (CONV_2D): input 0 names tensor 99, which does not exist");
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["padding"] = std::string("FULL");
        }) == "operator 0 (CONV_2D): padding 'FULL' is not SAME or VALID");
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["stride_h"] = int64_t(0);
        }) == "operator 0 (CONV_2D): attribute stride_h = 0 is out of range");
  // TensorFlow Lite Micro keeps strides, dilations and paddings as int16_t:
  // 32767 is taken, 32768 would wrap (SAME padding of a 3x3 filter dilated
  // 32768 times is 32768 rows).
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["dilation_h"] = int64_t(32767);
        }) == "");
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["stride_w"] = int64_t(32768);
          G.Tensors[3].Shape = {1, 4, 1, 3};
        }) == "operator 0 (CONV_2D): stride_w 32768 does not fit the int16 "
              "TensorFlow Lite Micro keeps it in (it would wrap): at most "
              "32767");
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["dilation_h"] = int64_t(32768);
        }) == "operator 0 (CONV_2D): dilation_h 32768 does not fit the int16 "
              "TensorFlow Lite Micro keeps it in (it would wrap): at most "
              "32767");
  CHECK(Broken([](ir::Graph &G) {
          G.Operators[0].Attrs["fused_activation"] = std::string("TANH");
        }) == "operator 0 (CONV_2D): fused activation TANH is not supported "
              "by the reference kernels");
  CHECK(Broken([](ir::Graph &G) { G.Tensors[0].Quant->Scales = {0.0f}; }) ==
        "operator 0 (CONV_2D): input tensor 't0' has scale 0; scales must be "
        "positive and finite");
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[0].Quant->Scales = {
              std::numeric_limits<float>::quiet_NaN()};
        }).find("scales must be positive and finite") != std::string::npos);
  CHECK(Broken([](ir::Graph &G) { G.Tensors[3].Quant.reset(); }) ==
        "operator 0 (CONV_2D): output tensor 't3' is not quantized");
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[3].Shape = {1, 3, 4, 3};
        }) ==
        "operator 0 (CONV_2D): output 't3' is 3x4, but SAME padding of a 4x4 "
        "input gives 4x4");
  CHECK(Broken([](ir::Graph &G) { G.Tensors[2].Type = DType::I64; }) ==
        "operator 0 (CONV_2D): bias 't2' is i64; the kernel needs i32");
  // int16 activations take int8 weights and an int64 bias (16x8).
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[0].Type = G.Tensors[1].Type = G.Tensors[3].Type =
              DType::I16;
        }) == "operator 0 (CONV_2D): bias 't2' is i32; the kernel needs i64");
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[0].Type = G.Tensors[1].Type = G.Tensors[3].Type =
              DType::I16;
          G.Tensors[2].Type = DType::I64;
        }) == "operator 0 (CONV_2D): input i16, filter i16 and output i16: "
              "the kernels take int8 or uint8 throughout, or int16 "
              "activations with int8 weights");
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[1].Quant->Scales = {0.1f, 0.2f};
          G.Tensors[1].Quant->ZeroPoints = {0, 0};
        }) == "operator 0 (CONV_2D): filter 't1' has 2 scales along axis 0; "
              "per-channel quantization needs 3 along axis 0");
  CHECK(Broken([](ir::Graph &G) { G.Tensors[1].Quant->ZeroPoints = {3}; }) ==
        "operator 0 (CONV_2D): int8 filter 't1' has a non-zero zero point "
        "(int8 weights are symmetric)");
  CHECK(Broken([](ir::Graph &G) {
          G.Tensors[0].Shape = {1, 4, 4, 2, 1};
        }) == "operator 0 (CONV_2D): input tensor 't0' has shape 1x4x4x2x1; "
              "expected rank 4");
  CHECK(Broken([](ir::Graph &G) { G.Operators[0].Type = "CONV_3D"; }) ==
        "operator 0 (CONV_3D): no reference kernel implements this operator");
  CHECK(Broken([](ir::Graph &G) { G.Operators[0].Opaque = true; }) ==
        "operator 0 (CONV_2D): the operator is not known to the importer, so "
        "no reference kernel runs it");
}

TEST_CASE("int16 diagnostics: symmetric tensors, 16x8 transposed "
          "convolutions") {
  // A 16x8 TRANSPOSE_CONV: output shape 1x4x4x3 from a 1x2x2x2 input,
  // stride 2, VALID, filter 3x2x2x2, int64 bias.
  auto TransposeConv = [](auto Damage) {
    GraphBuilder GB;
    int32_t Shape = GB.constant(DType::I32, {4},
                                std::vector<int32_t>{1, 4, 4, 3});
    int32_t F = GB.constant(DType::I8, {3, 2, 2, 2},
                            std::vector<int8_t>(24, 1), 0.02f, 0);
    int32_t In = GB.tensor(DType::I16, {1, 2, 2, 2}, 0.001f, 0);
    int32_t B = GB.constant(DType::I64, {3}, std::vector<int64_t>{1, 2, 3});
    int32_t Out = GB.tensor(DType::I16, {1, 4, 4, 3}, 0.002f, 0);
    GB.op("TRANSPOSE_CONV", {Shape, F, In, B}, {Out}).Attrs = {
        {"padding", std::string("VALID")},
        {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)},
        {"fused_activation", std::string("NONE")}};
    Damage(GB.G);
    return kernelError(GB.G);
  };
  CHECK(TransposeConv([](ir::Graph &) {}) == "");
  CHECK(TransposeConv([](ir::Graph &G) {
          G.Tensors[2].Quant->ZeroPoints = {5};
        }) == "operator 0 (TRANSPOSE_CONV): input tensor 't2' is int16 with "
              "zero point 5; int16 tensors are symmetric (zero point 0)");
  CHECK(TransposeConv([](ir::Graph &G) { G.Tensors[3].Type = DType::I32; }) ==
        "operator 0 (TRANSPOSE_CONV): bias 't3' is i32; the kernel needs i64");
  CHECK(TransposeConv([](ir::Graph &G) { G.Tensors[1].Shape = {3, 2, 2, 1}; }) ==
        "operator 0 (TRANSPOSE_CONV): filter shape 3x2x2x1 does not fit "
        "input depth 2 and 3 output channels ([Cout, kh, kw, Cin] expected)");
  // float32 runs; uint8 does not.
  CHECK(TransposeConv([](ir::Graph &G) {
          for (int I : {1, 2, 4})
            G.Tensors[size_t(I)].Type = DType::F32;
          G.Tensors[3].Type = DType::F32;
        }) == "");
  CHECK(TransposeConv([](ir::Graph &G) {
          for (int I : {1, 2, 4})
            G.Tensors[size_t(I)].Type = DType::U8;
          G.Tensors[3].Type = DType::I32;
        }) == "operator 0 (TRANSPOSE_CONV): u8 transposed convolutions are "
              "not supported (float32, int8 and 16x8 are)");
  // The 16x8 requantization's contract, which TensorFlow Lite Micro asserts
  // (its runner aborts): left shifts up to 7 (0.001 * 0.02 / 1e-7 = 200
  // needs 8), sums within +-2^47 (8 taps: at most 2^25 without the bias).
  CHECK(TransposeConv([](ir::Graph &G) {
          G.Tensors[4].Quant->Scales = {1e-7f};
        }) == "operator 0 (TRANSPOSE_CONV): channel 0: input scale * filter "
              "scale / output scale needs a left shift of 8; the 16x8 "
              "kernels take -31 to 7 (the quantization scales are out of "
              "range)");
  const int64_t Room = (int64_t(1) << 47) - (int64_t(1) << 25);
  auto Bias = [](int64_t V) {
    return [V](ir::Graph &G) {
      for (int I = 0; I < 8; ++I)
        G.Tensors[3].Data[size_t(16 + I)] = uint8_t(uint64_t(V) >> (8 * I));
    };
  };
  CHECK(TransposeConv(Bias(Room - 1)) == "");
  CHECK(TransposeConv(Bias(Room)) ==
        "operator 0 (TRANSPOSE_CONV): bias 't3' holds " +
            std::to_string(Room) +
            ": with 8 products per sum the sum could pass 2^47, beyond the "
            "16x8 requantization's range");
}

TEST_CASE("fixed output quantization of SOFTMAX and LOGISTIC is enforced") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 4}, 0.1f, 0);
  int32_t Out = GB.tensor(DType::I8, {1, 4}, 0.1f, 0);
  GB.op("SOFTMAX", {In}, {Out}).Attrs = {{"beta", 1.0}};
  CHECK(kernelError(GB.G) ==
        "operator 0 (SOFTMAX): output quantization (scale 0.1, zero point 0) "
        "must be scale 1/256, zero point -128");
  GB.G.Operators[0].Type = "LOGISTIC";
  CHECK(kernelError(GB.G).find("must be scale 0.00390625, zero point -128") !=
        std::string::npos);
}

TEST_CASE("int16 activations: the fixed output scales and the sigmoid "
          "table's input range") {
  auto Unary = [](const char *Op, float InScale, float OutScale) {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I16, {1, 8}, InScale, 0);
    int32_t Out = GB.tensor(DType::I16, {1, 8}, OutScale, 0);
    GB.op(Op, {In}, {Out}).Attrs = {{"beta", 1.0}};
    return kernelError(GB.G);
  };
  CHECK(Unary("LOGISTIC", 1.0f / 4096, 1.0f / 32768) == "");
  CHECK(Unary("TANH", 0.0003f, 1.0f / 32768) == "");
  CHECK(Unary("SOFTMAX", 0.001f, 1.0f / 32768) == "");
  CHECK(Unary("LOGISTIC", 1.0f / 4096, 1.0f / 16384) ==
        "operator 0 (LOGISTIC): int16 output scale 6.10352e-05 must be "
        "2^-15");
  CHECK(Unary("TANH", 4.0f, 1.0f / 32768) ==
        "operator 0 (TANH): int16 input scale 4 is too large for the sigmoid "
        "table (at most 32767 / 12288)");
  CHECK(Unary("TANH", 1e-30f, 1.0f / 32768) ==
        "operator 0 (TANH): int16 input scale 1e-30 is too small for "
        "the sigmoid table");
  CHECK(Unary("SOFTMAX", 0.001f, 1.0f / 256) ==
        "operator 0 (SOFTMAX): int16 output scale 0.00390625 must be 1/32768");
  // int8 logits to int16 probabilities: zero point -32768, scale 1/65536.
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {1, 8}, 0.1f, 3);
    int32_t Out = GB.tensor(DType::I16, {1, 8}, 1.0f / 65536, -32768);
    GB.op("SOFTMAX", {In}, {Out}).Attrs = {{"beta", 1.0}};
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[1].Quant->ZeroPoints = {0};
    CHECK(kernelError(GB.G) ==
          "operator 0 (SOFTMAX): output quantization (scale 1.52588e-05, "
          "zero point 0) must be scale 1/65536, zero point -32768");
  }
  // Conversions Micro does not have.
  GraphBuilder GB;
  int32_t F = GB.tensor(DType::F32, {4});
  int32_t Q = GB.tensor(DType::I32, {4}, 0.5f, 0);
  GB.op("QUANTIZE", {F}, {Q});
  CHECK(kernelError(GB.G) == "operator 0 (QUANTIZE): quantizing f32 to i32 "
                             "is not supported (to int8, uint8 and int16 is, "
                             "and int8 or int16 to int32)");
  GB.G.Operators[0].Type = "DEQUANTIZE";
  GB.G.Operators[0].Inputs = {Q};
  GB.G.Operators[0].Outputs = {F};
  CHECK(kernelError(GB.G) == "operator 0 (DEQUANTIZE): dequantizing i32 to "
                             "f32 is not supported (int8, uint8 or int16 to "
                             "float32 is)");
}

TEST_CASE("SVDF: shapes, types and the state as TensorFlow Lite Micro's "
          "Prepare checks them") {
  // 2 batches, 3 inputs, 4 filters of rank 2 (2 units), memory 5.
  auto Svdf = [](auto Damage) {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {2, 3}, 0.02f, 1);
    int32_t F = GB.constant(DType::I8, {4, 3}, std::vector<int8_t>(12, 3),
                            0.01f, 0);
    int32_t T = GB.constant(DType::I16, {4, 5}, std::vector<int16_t>(20, 300),
                            1.0f / 4096, 0);
    int32_t B = GB.constant(DType::I32, {2}, std::vector<int32_t>{5, -5});
    int32_t S = GB.tensor(DType::I16, {2, 20}, 1.0f / 1024, 0);
    GB.G.Tensors[size_t(S)].IsVariable = true;
    int32_t Out = GB.tensor(DType::I8, {2, 2}, 0.05f, 0);
    GB.op("SVDF", {In, F, T, B, S}, {Out}).Attrs = {
        {"rank", int64_t(2)}, {"fused_activation", std::string("NONE")}};
    Damage(GB.G);
    return kernelError(GB.G);
  };
  const std::string Op = "operator 0 (SVDF): ";
  CHECK(Svdf([](ir::Graph &) {}) == "");
  // No bias: zeros (TensorFlow Lite Micro's kernel needs one).
  CHECK(Svdf([](ir::Graph &G) { G.Operators[0].Inputs[3] = -1; }) == "");
  CHECK(Svdf([](ir::Graph &G) {
          G.Operators[0].setAttr(ir::attr::Rank, int64_t(3));
        }) == Op + "rank 3 must be positive and divide the 4 filters");
  CHECK(Svdf([](ir::Graph &G) { G.Tensors[4].IsVariable = false; }) ==
        Op + "state 't4' must be a variable tensor without data (the kernel "
             "updates it in place)");
  CHECK(Svdf([](ir::Graph &G) { G.Tensors[4].Shape = {2, 19}; }) ==
        Op + "state (input 4) 't4' has shape 2x19; expected 2x20");
  CHECK(Svdf([](ir::Graph &G) { G.Tensors[2].Type = DType::I8; }) ==
        Op + "time weights (input 2) 't2' is i8; with i8 input the kernel "
             "needs i16");
  CHECK(Svdf([](ir::Graph &G) { G.Tensors[5].Shape = {2, 4}; }) ==
        Op + "output 't5' has shape 2x4; expected 2x2");
}

TEST_CASE("damaged operators of the shared models give errors, not crashes") {
  std::vector<std::string> Models;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(sharedModels(), EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Models.push_back(It->path());
  REQUIRE_MESSAGE(!Models.empty(), "the shared conformance folder is missing: "
                                       << sharedModels() << " has no models");
  std::sort(Models.begin(), Models.end());
  size_t Tried = 0, Rejected = 0;
  for (const std::string &Path : Models) {
    auto M = tflite::importModelFile(Path);
    REQUIRE_MESSAGE(static_cast<bool>(M), llvm::toString(M.takeError()));
    const ir::Graph Original = (*M).Model->main();
    for (size_t K = 0; K < Original.Operators.size(); ++K) {
      // One damage at a time, each on a fresh copy.
      std::vector<std::function<void(ir::Graph &, ir::Operator &)>> Damages = {
          [](ir::Graph &, ir::Operator &Op) { Op.Inputs.clear(); },
          [](ir::Graph &, ir::Operator &Op) { Op.Outputs.clear(); },
          [](ir::Graph &, ir::Operator &Op) {
            for (auto &[Name, V] : Op.Attrs)
              if (std::holds_alternative<int64_t>(V))
                V = int64_t(0);
          },
          [](ir::Graph &, ir::Operator &Op) {
            for (auto &[Name, V] : Op.Attrs)
              if (std::holds_alternative<int64_t>(V))
                V = int64_t(1) << 40;
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0)
                G.Tensors[T].Shape = {};
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0)
                G.Tensors[T].Shape.push_back(3);
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Outputs)
              G.Tensors[T].Shape.assign(7, 2);
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0 && G.Tensors[T].Quant)
                G.Tensors[T].Quant->Scales.assign(
                    1, -std::numeric_limits<float>::infinity());
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0)
                G.Tensors[T].Quant.reset();
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0) {
                G.Tensors[T].Type = DType::I16;
                G.Tensors[T].Data.resize(G.Tensors[T].Data.size() / 2);
              }
          },
          [](ir::Graph &G, ir::Operator &Op) {
            for (int32_t T : Op.Inputs)
              if (T >= 0)
                G.Tensors[T].Data.clear();
          },
      };
      for (auto &Damage : Damages) {
        ir::Graph G = Original;
        Damage(G, G.Operators[K]);
        auto Call = kernels::computeKernelCall(G, G.Operators[K]);
        ++Tried;
        if (!Call) {
          ++Rejected;
          const std::string Msg = llvm::toString(Call.takeError());
          REQUIRE_MESSAGE(
              Msg.rfind("operator " + std::to_string(K) + " (", 0) == 0, Msg);
        }
      }
    }
  }
  MESSAGE(Tried << " damaged operators, " << Rejected << " rejected");
  CHECK(Rejected > Tried / 2);
}

TEST_CASE("MAXIMUM, SPACE_TO_DEPTH and the unary math operators refuse what "
          "their kernels do not take") {
  {
    GraphBuilder GB;
    int32_t A = GB.tensor(DType::U8, {1, 4}, 0.1f, 0);
    int32_t B = GB.tensor(DType::U8, {1, 4}, 0.1f, 0);
    int32_t O = GB.tensor(DType::U8, {1, 4}, 0.1f, 0);
    GB.op("MAXIMUM", {A, B}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (MAXIMUM): input 't0' is u8; the kernels take int8, "
          "int16, int32, int64 or float32");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {1, 4, 4, 2}, 0.1f, 0);
    int32_t O = GB.tensor(DType::I8, {1, 2, 2, 8}, 0.1f, 0);
    GB.op("SPACE_TO_DEPTH", {In}, {O}).Attrs = {{"block_size", int64_t(2)}};
    CHECK(kernelError(GB.G) == "");
    GB.G.Operators[0].Attrs["block_size"] = int64_t(0);
    CHECK(kernelError(GB.G) ==
          "operator 0 (SPACE_TO_DEPTH): block size 0 must be 1 to 32767");
    GB.G.Operators[0].Attrs["block_size"] = int64_t(4);
    CHECK(kernelError(GB.G) ==
          "operator 0 (SPACE_TO_DEPTH): input 1x4x4x2 and output 1x2x2x8 are "
          "not 4x4 blocks of each other");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {1, 4}, 0.1f, 0);
    int32_t O = GB.tensor(DType::I8, {1, 4}, 0.1f, 0);
    GB.op("SQRT", {In}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (SQRT): input 't0' is i8; the kernels take float32");
    GB.G.Operators[0].Type = "ABS";
    CHECK(kernelError(GB.G) == "");
  }
}

TEST_CASE("SLICE and REVERSE_V2 refuse slices outside the input") {
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {2, 5});
    int32_t O = GB.tensor(DType::F32, {1, 3});
    int32_t Begin = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, 2});
    int32_t Size = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, -1});
    GB.op("SLICE", {In, Begin, Size}, {O});
    CHECK(kernelError(GB.G) == "");
    int32_t Far = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, 4});
    GB.G.Operators[0].Inputs[2] = Far;
    CHECK(kernelError(GB.G) == "operator 0 (SLICE): dimension 1: begin 2 and "
                               "size 4 leave the input's 5");
    int32_t Short = GB.constant(DType::I32, {1}, std::vector<int32_t>{1});
    GB.G.Operators[0].Inputs[2] = Short;
    CHECK(kernelError(GB.G) == "operator 0 (SLICE): begin and size must have "
                               "one value per input dimension");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {2, 3}, 0.1f, 0);
    int32_t O = GB.tensor(DType::I8, {2, 3}, 0.1f, 0);
    int32_t Axes = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, -1});
    GB.op("REVERSE_V2", {In, Axes}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (REVERSE_V2): axis -1 is named twice");
    int32_t Out = GB.constant(DType::I32, {1}, std::vector<int32_t>{2});
    GB.G.Operators[0].Inputs[1] = Out;
    CHECK(kernelError(GB.G) ==
          "operator 0 (REVERSE_V2): axis 2 is outside rank 2");
  }
}

TEST_CASE("DIV, SQUARED_DIFFERENCE and FLOOR_MOD refuse what their kernels "
          "do not take") {
  GraphBuilder GB;
  int32_t A = GB.tensor(DType::I16, {1, 4}, 0.1f, 0);
  int32_t B = GB.tensor(DType::I16, {1, 4}, 0.1f, 0);
  int32_t O = GB.tensor(DType::I16, {1, 4}, 0.1f, 0);
  GB.op("DIV", {A, B}, {O});
  CHECK(kernelError(GB.G) == "operator 0 (DIV): input 't0' is i16; the "
                             "kernels take int8, int32 or float32");
  GB.G.Operators[0].Type = "SQUARED_DIFFERENCE";
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(O)].Quant->ZeroPoints = {3};
  CHECK(kernelError(GB.G) ==
        "operator 0 (SQUARED_DIFFERENCE): output tensor 't2' is int16 with "
        "zero point 3; int16 tensors are symmetric (zero point 0)");
  GB.G.Operators[0].Type = "FLOOR_MOD";
  CHECK(kernelError(GB.G) == "operator 0 (FLOOR_MOD): input 't0' is i16; "
                             "the kernels take float32");
  for (int32_t T : {A, B, O})
    GB.G.Tensors[size_t(T)].Type = DType::I32;
  GB.G.Operators[0].Type = "DIV";
  CHECK(kernelError(GB.G) ==
        "operator 0 (DIV): int32 operands must not be quantized");
  for (int32_t T : {A, B, O}) {
    GB.G.Tensors[size_t(T)].Type = DType::I8;
    GB.G.Tensors[size_t(T)].Quant->ZeroPoints = {0};
  }
  CHECK(kernelError(GB.G) == "");
  // A quotient scale of 2^24 could leave int32 after normalising.
  GB.G.Tensors[size_t(O)].Quant->Scales = {0.1f / 16777216.0f / 0.1f};
  CHECK(kernelError(GB.G) ==
        "operator 0 (DIV): input 0 scale / (input 1 scale * output scale) = "
        "1.67772e+07 needs a left shift of 25; the kernels take -31 to 23 "
        "(the quantization scales are out of range)");
}

TEST_CASE("RESIZE_BILINEAR refuses a size that is not the output's, and both "
          "sampling flags") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 2, 3, 4}, 0.1f, 0);
  int32_t O = GB.tensor(DType::I8, {1, 4, 6, 4}, 0.1f, 0);
  int32_t Size = GB.constant(DType::I32, {2}, std::vector<int32_t>{4, 6});
  GB.op("RESIZE_BILINEAR", {In, Size}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Operators[0].Attrs = {{"align_corners", true},
                             {"half_pixel_centers", true}};
  CHECK(kernelError(GB.G) == "operator 0 (RESIZE_BILINEAR): align_corners "
                             "and half_pixel_centers exclude each other");
  GB.G.Operators[0].Attrs.clear();
  GB.G.Operators[0].Inputs[1] =
      GB.constant(DType::I32, {2}, std::vector<int32_t>{4, 5});
  CHECK(kernelError(GB.G) ==
        "operator 0 (RESIZE_BILINEAR): the output 1x4x6x4 is not the input "
        "1x2x3x4 resized to the size operand");
  GB.G.Operators[0].Type = "RESIZE_NEAREST_NEIGHBOR";
  GB.G.Operators[0].Inputs[1] =
      GB.constant(DType::I64, {2}, std::vector<int64_t>{4, 6});
  CHECK(kernelError(GB.G) == "operator 0 (RESIZE_NEAREST_NEIGHBOR): the size "
                             "operand is i64, not i32");
}

TEST_CASE("SPACE_TO_BATCH_ND pads with the zero point; MIRROR_PAD and the "
          "batch moves refuse what does not fit") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 3, 3, 2}, 0.1f, -7);
  int32_t O = GB.tensor(DType::I8, {4, 2, 2, 2}, 0.1f, -7);
  int32_t Block = GB.constant(DType::I32, {2}, std::vector<int32_t>{2, 2});
  int32_t Pads =
      GB.constant(DType::I32, {2, 2}, std::vector<int32_t>{1, 0, 0, 1});
  GB.op("SPACE_TO_BATCH_ND", {In, Block, Pads}, {O});
  auto Call = kernels::computeKernelCall(GB.G, GB.G.Operators[0]);
  REQUIRE(Call);
  const auto &P =
      std::get<kernels::FamilyParams<ref_batch_space_params>>(Call->Params);
  CHECK(P.Scalars.pad_byte == 0xf9); // -7
  CHECK(P.Scalars.pad_top == 1);
  CHECK(P.Scalars.pad_left == 0);
  GB.G.Operators[0].Inputs[2] =
      GB.constant(DType::I32, {2, 2}, std::vector<int32_t>{1, 1, 0, 1});
  CHECK(kernelError(GB.G) ==
        "operator 0 (SPACE_TO_BATCH_ND): input 1x3x3x2 and output 4x2x2x2 do "
        "not match the block shape and paddings");

  GraphBuilder M;
  int32_t MIn = M.tensor(DType::F32, {2, 3});
  int32_t MO = M.tensor(DType::F32, {4, 7});
  int32_t MPads =
      M.constant(DType::I32, {2, 2}, std::vector<int32_t>{2, 0, 2, 2});
  M.op("MIRROR_PAD", {MIn, MPads}, {MO}).Attrs = {
      {"mode", std::string("SYMMETRIC")}};
  CHECK(kernelError(M.G) == "");
  M.G.Operators[0].Attrs["mode"] = std::string("REFLECT");
  CHECK(kernelError(M.G) == "operator 0 (MIRROR_PAD): padding [2, 0] of "
                            "dimension 0 must be 0 to 1 for REFLECT");
  M.G.Operators[0].Attrs["mode"] = std::string("EDGE");
  CHECK(kernelError(M.G) == "operator 0 (MIRROR_PAD): the mode must be "
                            "REFLECT or SYMMETRIC, not 'EDGE'");
}

TEST_CASE("ELU and PRELU refuse the types their kernels do not take; int16 "
          "PRELU takes an int8 alpha") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I16, {1, 4}, 0.1f, 0);
  int32_t O = GB.tensor(DType::I16, {1, 4}, 0.1f, 0);
  GB.op("ELU", {In}, {O});
  CHECK(kernelError(GB.G) == "operator 0 (ELU): input 't0' is i16; the "
                             "kernels take int8 or float32");
  int32_t Alpha = GB.tensor(DType::I16, {4}, 0.1f, 0);
  GB.G.Operators[0].Type = "PRELU";
  GB.G.Operators[0].Inputs.push_back(Alpha);
  CHECK(kernelError(GB.G) == "operator 0 (PRELU): alpha 't2' is i16; i16 "
                             "PRELU takes int8");
  GB.G.Tensors[size_t(Alpha)].Type = DType::I8;
  CHECK(kernelError(GB.G) == "");
  for (int32_t T : {In, O})
    GB.G.Tensors[size_t(T)].Type = DType::U8;
  CHECK(kernelError(GB.G) == "operator 0 (PRELU): input 't0' is u8; the "
                             "kernels take int8, int16 or float32");
}

TEST_CASE("int8 L2_NORMALIZATION takes only its fixed output quantization") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {2, 4}, 0.1f, 3);
  int32_t O = GB.tensor(DType::I8, {2, 4}, 1.0f / 128, 0);
  GB.op("L2_NORMALIZATION", {In}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(O)].Quant->Scales = {0.01f};
  CHECK(kernelError(GB.G) == "operator 0 (L2_NORMALIZATION): output scale "
                             "0.01 and zero point 0 must be 1/128 and 0");
}

TEST_CASE("ARG_MAX refuses an output that is not int32 or not the input "
          "without the axis") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {2, 3, 4}, 0.1f, 0);
  int32_t O = GB.tensor("out", {2, 4}, std::nullopt, DType::I32);
  int32_t Axis = GB.constant(DType::I32, {1}, std::vector<int32_t>{-2});
  GB.op("ARG_MAX", {In, Axis}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Operators[0].Inputs[1] =
      GB.constant(DType::I32, {1}, std::vector<int32_t>{2});
  CHECK(kernelError(GB.G) == "operator 0 (ARG_MAX): output 2x4 is not the "
                             "input 2x3x4 without dimension 2");
  GB.G.Tensors[size_t(O)].Type = DType::I64;
  CHECK(kernelError(GB.G) ==
        "operator 0 (ARG_MAX): output 'out' is i64; the kernels write int32");
}

TEST_CASE("GATHER: an index outside the axis writes zeros, never reads "
          "outside the input") {
  ref_gather_params P{};
  P.batch = 1;
  P.outer = 2;
  P.axis = 3;
  P.count = 3;
  P.inner = 2;
  const int8_t In[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const int32_t Idx[3] = {2, -1, 3};
  int8_t Out[12];
  std::memset(Out, 0x55, sizeof(Out));
  ref_gather(&P, 1, In, Idx, Out);
  const int8_t Want[12] = {5, 6, 0, 0, 0, 0, 11, 12, 0, 0, 0, 0};
  CHECK(std::memcmp(Out, Want, sizeof(Want)) == 0);

  GraphBuilder GB;
  int32_t T = GB.tensor(DType::F32, {3, 4});
  int32_t I = GB.constant(DType::I64, {2}, std::vector<int64_t>{0, 1});
  int32_t O = GB.tensor(DType::F32, {2, 4});
  GB.op("GATHER", {T, I}, {O});
  CHECK(kernelError(GB.G) ==
        "operator 0 (GATHER): the indices are i64, not i32");
}

TEST_CASE("CAST refuses a type it does not convert, and no conversion") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I64, {4});
  int32_t O = GB.tensor(DType::F32, {4});
  GB.op("CAST", {In}, {O});
  CHECK(kernelError(GB.G) ==
        "operator 0 (CAST): a cast from i64 to f32; the kernels convert "
        "between two different types of int8, uint8, int16, int32, uint32 "
        "and float32, and from bool to each");
  GB.G.Tensors[size_t(In)].Type = DType::U32;
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(O)].Type = DType::Bool;
  CHECK(kernelError(GB.G).find("a cast from u32 to bool;") !=
        std::string::npos);
  GB.G.Tensors[size_t(O)].Type = DType::F32;
  GB.G.Tensors[size_t(In)].Type = DType::F32;
  CHECK(kernelError(GB.G).find("a cast from f32 to f32;") != std::string::npos);
  GB.G.Tensors[size_t(In)].Type = DType::I16;
  CHECK(kernelError(GB.G) == "");
}

TEST_CASE("FILL refuses dims that are not the output's and a value of "
          "another type") {
  GraphBuilder GB;
  int32_t Dims = GB.constant(DType::I32, {2}, std::vector<int32_t>{2, 3});
  int32_t Value = GB.tensor(DType::F32, {});
  int32_t O = GB.tensor(DType::F32, {2, 3});
  GB.op("FILL", {Dims, Value}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Operators[0].Inputs[0] =
      GB.constant(DType::I32, {2}, std::vector<int32_t>{3, 2});
  CHECK(kernelError(GB.G) == "operator 0 (FILL): the dims operand does not "
                             "give the output's shape 2x3");
  GB.G.Tensors[size_t(Value)].Type = DType::I32;
  CHECK(kernelError(GB.G) == "operator 0 (FILL): the value must be a scalar "
                             "of the output's type");
}

TEST_CASE("L2_POOL_2D refuses the quantized types no reference computes") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 4, 4, 2}, 0.1f, 0);
  int32_t O = GB.tensor(DType::I8, {1, 2, 2, 2}, 0.1f, 0);
  GB.op("L2_POOL_2D", {In}, {O}).Attrs = {
      {"filter_h", int64_t(2)}, {"filter_w", int64_t(2)},
      {"stride_h", int64_t(2)}, {"stride_w", int64_t(2)},
      {"padding", std::string("VALID")}};
  CHECK(kernelError(GB.G) == "operator 0 (L2_POOL_2D): input 't0' is i8; "
                             "the L2 pooling kernel takes float32");
  for (int32_t T : {In, O}) {
    GB.G.Tensors[size_t(T)].Type = DType::F32;
    GB.G.Tensors[size_t(T)].Quant.reset();
  }
  CHECK(kernelError(GB.G) == "");
}

TEST_CASE("Comparisons refuse mixed or untaken types, a non-bool output and "
          "shapes that do not broadcast") {
  GraphBuilder GB;
  int32_t A = GB.tensor("a", {2, 3}, ir::perTensor(0.1f, 0), DType::I16);
  int32_t B = GB.tensor("b", {3}, ir::perTensor(0.1f, 0), DType::I16);
  int32_t O = GB.tensor(DType::Bool, {2, 3});
  GB.op("GREATER", {A, B}, {O});
  CHECK(kernelError(GB.G) == "operator 0 (GREATER): input 'a' is i16; the "
                             "kernels take int8, int32, int64 or float32");
  GB.G.Operators[0].Type = "EQUAL";
  CHECK(kernelError(GB.G).find("the kernels take bool, int8, int32, int64 or "
                               "float32") != std::string::npos);
  GB.G.Tensors[size_t(A)].Type = GB.G.Tensors[size_t(B)].Type = DType::I8;
  CHECK(kernelError(GB.G) == "");
  // An input scale of 1 or more has no multiplier below 1.
  GB.G.Tensors[size_t(B)].Quant = ir::perTensor(1.5f, 0);
  CHECK(kernelError(GB.G).find("input 1 scale = 1.5 needs a left shift of 1") !=
        std::string::npos);
  GB.G.Tensors[size_t(B)].Quant = ir::perTensor(0.1f, 0);
  GB.G.Tensors[size_t(B)].Shape = {2};
  CHECK(kernelError(GB.G).find("do not broadcast") != std::string::npos);
  GB.G.Tensors[size_t(B)].Shape = {3};
  GB.G.Tensors[size_t(O)].Type = DType::I8;
  CHECK(kernelError(GB.G) == "operator 0 (EQUAL): output 't2' is i8; the "
                             "kernels write bool");
  GB.G.Tensors[size_t(O)].Type = DType::Bool;
  GB.G.Operators[0].Type = "LOGICAL_AND";
  CHECK(kernelError(GB.G) == "operator 0 (LOGICAL_AND): input 'a' is i8; "
                             "the kernels take bool");
  GB.G.Operators[0].Type = "LOGICAL_NOT";
  GB.G.Operators[0].Inputs.pop_back();
  CHECK(kernelError(GB.G).find("must have the same element type") !=
        std::string::npos);
}

TEST_CASE("SELECT_V2 refuses a condition that is not bool, x and y of "
          "another quantization and shapes that do not broadcast") {
  GraphBuilder GB;
  int32_t C = GB.tensor("cond", {2, 1}, ir::perTensor(1.0f, 0));
  int32_t X = GB.tensor("x", {3}, ir::perTensor(0.1f, 2));
  int32_t Y = GB.tensor("y", {2, 3}, ir::perTensor(0.1f, 2));
  int32_t O = GB.tensor("out", {2, 3}, ir::perTensor(0.1f, 2));
  GB.op("SELECT_V2", {C, X, Y}, {O});
  CHECK(kernelError(GB.G) == "operator 0 (SELECT_V2): the condition 'cond' is "
                             "i8, not bool");
  GB.G.Tensors[size_t(C)].Type = DType::Bool;
  GB.G.Tensors[size_t(C)].Quant.reset();
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(Y)].Quant = ir::perTensor(0.2f, 2);
  CHECK(kernelError(GB.G).find("quantization") != std::string::npos);
  GB.G.Tensors[size_t(Y)].Quant = ir::perTensor(0.1f, 2);
  GB.G.Tensors[size_t(C)].Shape = {3, 1};
  CHECK(kernelError(GB.G).find("do not broadcast to 2x3") !=
        std::string::npos);
  GB.G.Tensors[size_t(C)].Shape = {2, 1};
  for (DType T : {DType::I32, DType::U8}) {
    for (int32_t V : {X, Y, O})
      GB.G.Tensors[size_t(V)].Type = T;
    CHECK(kernelError(GB.G).find("the kernels take int8, int16 or float32") !=
          std::string::npos);
  }

  // The kernel: a broadcast condition picks whole rows.
  ref_select_params P{};
  for (int D = 0; D < REF_MAX_RANK; ++D)
    P.dims[D] = 1;
  P.dims[REF_MAX_RANK - 2] = 2;
  P.dims[REF_MAX_RANK - 1] = 3;
  P.condition_stride[REF_MAX_RANK - 2] = 1;
  P.x_stride[REF_MAX_RANK - 1] = 1;
  P.y_stride[REF_MAX_RANK - 2] = 3;
  P.y_stride[REF_MAX_RANK - 1] = 1;
  const uint8_t Cond[2] = {0, 7};
  const int16_t Xs[3] = {1, 2, 3}, Ys[6] = {-1, -2, -3, -4, -5, -6};
  int16_t Out[6];
  ref_select_v2(&P, 2, Cond, Xs, Ys, Out);
  const int16_t Want[6] = {-1, -2, -3, 1, 2, 3};
  CHECK(std::memcmp(Out, Want, sizeof(Want)) == 0);
}

TEST_CASE("REDUCE_ALL takes bool only, and the other reductions no bool") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::F32, {2, 3});
  int32_t Axes = GB.constant(DType::I32, {1}, std::vector<int32_t>{1});
  int32_t O = GB.tensor(DType::F32, {2});
  GB.op("REDUCE_ALL", {In, Axes}, {O});
  CHECK(kernelError(GB.G) == "operator 0 (REDUCE_ALL): input 't0' is f32; "
                             "the kernels take bool");
  GB.G.Tensors[size_t(In)].Type = GB.G.Tensors[size_t(O)].Type = DType::Bool;
  CHECK(kernelError(GB.G) == "");
  GB.G.Operators[0].Type = "REDUCE_MAX";
  CHECK(kernelError(GB.G) == "operator 0 (REDUCE_MAX): input 't0' is bool; "
                             "the kernels take numbers");
}

TEST_CASE("PACK refuses inputs that are not the output's slices, a count "
          "the axis does not hold and uint32") {
  GraphBuilder GB;
  int32_t A = GB.tensor("a", {2, 3}, ir::perTensor(0.1f, 1));
  int32_t B = GB.tensor("b", {2, 3}, ir::perTensor(0.1f, 1));
  int32_t O = GB.tensor("out", {2, 2, 3}, ir::perTensor(0.1f, 1));
  GB.op("PACK", {A, B}, {O}, {{"axis", int64_t(1)}});
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(O)].Shape = {3, 2, 2};
  GB.G.Operators[0].Attrs["axis"] = int64_t(1);
  CHECK(kernelError(GB.G) == "operator 0 (PACK): input 'a' 2x3 is not the "
                             "output 3x2x2 without its axis");
  GB.G.Tensors[size_t(O)].Shape = {2, 2, 3};
  GB.G.Operators[0].Attrs["axis"] = int64_t(-3);
  CHECK(kernelError(GB.G) == "");
  GB.G.Operators[0].Inputs.push_back(A);
  CHECK(kernelError(GB.G) == "operator 0 (PACK): 3 inputs stacked, but the "
                             "output's axis holds 2");
  GB.G.Operators[0].Inputs.pop_back();
  GB.G.Tensors[size_t(B)].Quant = ir::perTensor(0.2f, 1);
  CHECK(kernelError(GB.G).find("quantization") != std::string::npos);
  for (int32_t T : {A, B, O})
    GB.G.Tensors[size_t(T)].Type = DType::U32;
  CHECK(kernelError(GB.G) == "operator 0 (PACK): output 'out' is u32; the "
                             "kernels take int8, uint8, int16, int32, int64 "
                             "or float32");
}

TEST_CASE("SPLIT, SPLIT_V and UNPACK run one slice per result, and refuse "
          "results that do not tile the input") {
  GraphBuilder GB;
  int32_t In = GB.tensor("in", {2, 5, 3}, ir::perTensor(0.1f, 1));
  int32_t A = GB.tensor("a", {2, 2, 3}, ir::perTensor(0.1f, 1));
  int32_t B = GB.tensor("b", {2, 3, 3}, ir::perTensor(0.1f, 1));
  int32_t Sizes = GB.constant(DType::I32, {2}, std::vector<int32_t>{-1, 3});
  int32_t Axis = GB.constant(DType::I32, {1}, std::vector<int32_t>{-2});
  GB.op("SPLIT_V", {In, Sizes, Axis}, {A, B}, {{"num_splits", int64_t(2)}});
  auto Calls = kernels::computeKernelCalls(GB.G, GB.G.Operators[0]);
  REQUIRE(bool(Calls));
  REQUIRE(Calls->size() == 2);
  for (size_t R = 0; R < 2; ++R) {
    const kernels::KernelCall &C = (*Calls)[R];
    CHECK(C.Output == GB.G.Operators[0].Outputs[R]);
    CHECK(C.DataInputs == std::vector<int32_t>{In});
    const auto &P =
        std::get<kernels::FamilyParams<ref_strided_slice_params>>(C.Params);
    CHECK(P.Scalars.start[1] == (R == 0 ? 0 : 2));
    CHECK(P.Scalars.stop[1] == (R == 0 ? 2 : 5));
    CHECK(P.Scalars.stop[0] == 2);
    CHECK(P.Scalars.stop[2] == 3);
  }
  GB.G.Tensors[size_t(Sizes)].Data = GB.G.Tensors[size_t(GB.constant(
      DType::I32, {2}, std::vector<int32_t>{2, 2}))].Data;
  CHECK(kernelError(GB.G) == "operator 0 (SPLIT_V): size_splits says 2 for "
                             "result 1, whose size along the axis is 3");
  GB.G.Tensors[size_t(B)].Shape = {2, 2, 3};
  CHECK(kernelError(GB.G) == "operator 0 (SPLIT_V): the results' sizes along "
                             "axis 1 add up to 4, the input's is 5");
  GB.G.Tensors[size_t(B)].Shape = {2, 3, 2};
  CHECK(kernelError(GB.G) == "operator 0 (SPLIT_V): result 1 has shape 2x3x2; "
                             "slices of the input along axis 1 have its "
                             "other dimensions");
  GB.G.Tensors[size_t(B)].Shape = {2, 3, 3};
  GB.G.Operators[0].Attrs["num_splits"] = int64_t(3);
  CHECK(kernelError(GB.G) ==
        "operator 0 (SPLIT_V): num_splits is 3, but it has 2 results");

  // SPLIT: the axis first, equal sizes.
  GB.G.Operators[0] = ir::Operator();
  GB.op("SPLIT", {Axis, In}, {A, B}, {{"num_splits", int64_t(2)}});
  GB.G.Operators.erase(GB.G.Operators.begin());
  CHECK(kernelError(GB.G) ==
        "operator 0 (SPLIT): the results of a SPLIT must be of equal size");
  GB.G.Operators[0].Inputs[0] =
      GB.constant(DType::I32, {1}, std::vector<int32_t>{3});
  CHECK(kernelError(GB.G) == "operator 0 (SPLIT): axis 3 is outside rank 3");
  GB.G.Operators[0].Inputs[0] = GB.tensor(DType::I32, {1});
  CHECK(kernelError(GB.G).find("axis") != std::string::npos);

  // UNPACK: one result per index, without the axis.
  GraphBuilder U;
  int32_t UIn = U.tensor(DType::F32, {2, 3});
  std::vector<int32_t> Outs;
  for (int I = 0; I < 3; ++I)
    Outs.push_back(U.tensor(DType::F32, {2}));
  U.op("UNPACK", {UIn}, Outs, {{"axis", int64_t(1)}});
  auto UCalls = kernels::computeKernelCalls(U.G, U.G.Operators[0]);
  REQUIRE(bool(UCalls));
  CHECK(UCalls->size() == 3);
  CHECK(UCalls->back().Output == Outs.back());
  U.G.Tensors[size_t(Outs[1])].Shape = {3};
  CHECK(kernelError(U.G) == "operator 0 (UNPACK): result 1 has shape 3; "
                            "slices of the input along axis 1 have its other "
                            "dimensions and lack the axis");
  U.G.Tensors[size_t(Outs[1])].Shape = {2};
  U.G.Tensors[size_t(Outs[1])].Type = DType::I8;
  CHECK(kernelError(U.G).find("i8") != std::string::npos);

  // Several results and a builder writing one: refused, not half run.
  GraphBuilder M;
  int32_t X = M.tensor(DType::F32, {4});
  M.op("ABS", {X}, {M.tensor(DType::F32, {4}), M.tensor(DType::F32, {4})});
  CHECK(kernelError(M.G) ==
        "operator 0 (ABS): 2 outputs; the reference kernels write one");
}

TEST_CASE("ADD_N and CUMSUM refuse what their kernels do not take") {
  GraphBuilder GB;
  int32_t A = GB.tensor("a", {2, 3}, ir::perTensor(0.1f, 1));
  int32_t B = GB.tensor("b", {2, 3}, ir::perTensor(0.1f, 1));
  int32_t O = GB.tensor("out", {2, 3}, ir::perTensor(0.3f, -2));
  GB.op("ADD_N", {A, B}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(B)].Quant = ir::perTensor(0.1f, 2);
  CHECK(kernelError(GB.G).find("quantization") != std::string::npos);
  GB.G.Tensors[size_t(B)].Quant = ir::perTensor(0.1f, 1);
  GB.G.Tensors[size_t(B)].Shape = {3};
  CHECK(kernelError(GB.G) == "operator 0 (ADD_N): input 'b' 3 is not the "
                             "output's shape 2x3");
  GB.G.Tensors[size_t(B)].Shape = {2, 3};
  GB.G.Operators[0].Inputs = {A};
  CHECK(kernelError(GB.G) ==
        "operator 0 (ADD_N): ADD_N takes at least two inputs");
  GB.G.Operators[0].Inputs = {A, B};
  for (int32_t T : {A, B, O})
    GB.G.Tensors[size_t(T)].Type = DType::I16;
  CHECK(kernelError(GB.G) == "operator 0 (ADD_N): input 'a' is i16; the "
                             "kernels take int8 or float32");

  GraphBuilder CS;
  int32_t In = CS.tensor("in", {2, 3}, ir::perTensor(0.1f, 1));
  int32_t Axis = CS.constant(DType::I32, {1}, std::vector<int32_t>{-1});
  int32_t Out = CS.tensor("out", {2, 3}, ir::perTensor(0.4f, 1));
  CS.op("CUMSUM", {In, Axis}, {Out});
  CHECK(kernelError(CS.G) == "");
  CS.G.Operators[0].Inputs[1] =
      CS.constant(DType::I32, {1}, std::vector<int32_t>{2});
  CHECK(kernelError(CS.G) == "operator 0 (CUMSUM): axis 2 is outside rank 2");
  CS.G.Operators[0].Inputs[1] =
      CS.constant(DType::I64, {1}, std::vector<int64_t>{0});
  CHECK(kernelError(CS.G) ==
        "operator 0 (CUMSUM): the axis operand is i64, not i32");
  CS.G.Operators[0].Inputs[1] = Axis;
  // An output scale below a 2^-20 share of the input's needs a multiplier
  // above 1.
  CS.G.Tensors[size_t(Out)].Quant = ir::perTensor(1e-8f, 1);
  CHECK(kernelError(CS.G).find("common scale / output scale") !=
        std::string::npos);
}

TEST_CASE("The index and shape operators refuse what their kernels do not "
          "take") {
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {3, 1});
    int32_t Shape = GB.constant(DType::I32, {2}, std::vector<int32_t>{3, 4});
    int32_t O = GB.tensor(DType::F32, {3, 4});
    GB.op("BROADCAST_TO", {In, Shape}, {O});
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(In)].Shape = {2, 1};
    CHECK(kernelError(GB.G) ==
          "operator 0 (BROADCAST_TO): 2x1 does not broadcast to 3x4");
    GB.G.Operators[0].Inputs[1] =
        GB.constant(DType::I32, {2}, std::vector<int32_t>{4, 3});
    CHECK(kernelError(GB.G) == "operator 0 (BROADCAST_TO): the shape operand "
                               "does not give the output's shape 3x4");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I16, {3, 4});
    int32_t Idx = GB.tensor(DType::I32, {2, 1});
    int32_t O = GB.tensor(DType::I16, {2, 4});
    GB.op("GATHER_ND", {In, Idx}, {O});
    CHECK(kernelError(GB.G) == "operator 0 (GATHER_ND): input 't0' is i16; "
                               "the kernels take int8 or float32");
    for (int32_t T : {In, O})
      GB.G.Tensors[size_t(T)].Type = DType::F32;
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(Idx)].Shape = {2, 3};
    CHECK(kernelError(GB.G) ==
          "operator 0 (GATHER_ND): indices of depth 3 into rank 2");
  }
  {
    GraphBuilder GB;
    int32_t L = GB.tensor(DType::I32, {2});
    int32_t V = GB.tensor(DType::I8, {5, 3});
    int32_t O = GB.tensor(DType::F32, {2, 3});
    GB.G.Tensors[size_t(V)].Quant = ir::perTensor(0.5f, 2);
    GB.op("EMBEDDING_LOOKUP", {L, V}, {O});
    CHECK(kernelError(GB.G) == "operator 0 (EMBEDDING_LOOKUP): int8 rows "
                               "dequantized to float32 must have zero point "
                               "0");
    GB.G.Tensors[size_t(V)].Quant = ir::perTensor(0.5f, 0);
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(O)].Shape = {3, 3};
    CHECK(kernelError(GB.G) == "operator 0 (EMBEDDING_LOOKUP): output 3x3 is "
                               "not the 2 rows looked up in 5x3");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {3, 4});
    int32_t Up = GB.tensor(DType::I8, {4, 1});
    int32_t Start = GB.tensor(DType::I32, {2});
    int32_t O = GB.tensor(DType::I8, {3, 4});
    for (int32_t T : {In, Up, O})
      GB.G.Tensors[size_t(T)].Quant = ir::perTensor(0.5f, 3);
    GB.op("DYNAMIC_UPDATE_SLICE", {In, Up, Start}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (DYNAMIC_UPDATE_SLICE): update 4x1 does not fit in 3x4");
    GB.G.Tensors[size_t(Up)].Shape = {1, 4};
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(Start)].Type = DType::I16;
    CHECK(kernelError(GB.G) == "operator 0 (DYNAMIC_UPDATE_SLICE): the start "
                               "indices are i16, not i32 or i64");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {3, 4});
    int32_t O = GB.tensor(DType::I64, {2});
    GB.op("SHAPE", {In}, {O});
    CHECK(kernelError(GB.G) == "operator 0 (SHAPE): output 't1' is i64; the "
                               "kernel writes int32");
    GB.G.Tensors[size_t(O)].Type = DType::I32;
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(O)].Shape = {3};
    CHECK(kernelError(GB.G).find("does not hold the 2 dimensions") !=
          std::string::npos);
  }
  {
    GraphBuilder GB;
    int32_t A = GB.tensor(DType::I32, {2});
    int32_t B = GB.tensor(DType::I32, {3});
    int32_t O = GB.tensor(DType::I32, {2});
    GB.op("BROADCAST_ARGS", {A, B}, {O});
    CHECK(kernelError(GB.G).find("the output as long as the longer shape") !=
          std::string::npos);
    GB.G.Tensors[size_t(O)].Shape = {3};
    CHECK(kernelError(GB.G) == "");
  }

  // DYNAMIC_UPDATE_SLICE clamps its start indices into the operand.
  ref_dynamic_update_slice_params P{};
  P.rank = 2;
  P.dims[0] = 3;
  P.dims[1] = 4;
  P.update_dims[0] = 2;
  P.update_dims[1] = 2;
  const int8_t Operand[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const int8_t Update[4] = {-1, -2, -3, -4};
  const int32_t Start[2] = {5, -3};
  int8_t Out[12];
  ref_dynamic_update_slice(&P, 1, Operand, Update, Start, Out);
  const int8_t Want[12] = {0, 1, 2, 3, -1, -2, 6, 7, -3, -4, 10, 11};
  CHECK(std::memcmp(Out, Want, sizeof(Want)) == 0);
}

TEST_CASE("BATCH_MATMUL refuses operands that do not multiply or broadcast, "
          "and int16 with a zero point") {
  GraphBuilder GB;
  int32_t L = GB.tensor("l", {2, 3, 4}, ir::perTensor(0.1f, 0), DType::I16);
  int32_t R = GB.tensor("r", {1, 4, 5}, ir::perTensor(0.1f, 0), DType::I16);
  int32_t O = GB.tensor("out", {2, 3, 5}, ir::perTensor(0.5f, 0), DType::I16);
  GB.op("BATCH_MATMUL", {L, R}, {O});
  CHECK(kernelError(GB.G) == "");
  GB.G.Tensors[size_t(O)].Quant = ir::perTensor(0.5f, 1);
  CHECK(kernelError(GB.G).find("int16 tensors are symmetric (zero point 0)") !=
        std::string::npos);
  GB.G.Tensors[size_t(O)].Quant = ir::perTensor(0.5f, 0);
  GB.G.Operators[0].Attrs["adj_y"] = true;
  CHECK(kernelError(GB.G) == "operator 0 (BATCH_MATMUL): 2x3x4 and 1x4x5 do "
                             "not multiply (adj_x 0, adj_y 1)");
  GB.G.Operators[0].Attrs["adj_y"] = false;
  GB.G.Tensors[size_t(R)].Shape = {3, 4, 5};
  CHECK(kernelError(GB.G) == "operator 0 (BATCH_MATMUL): batch dimensions "
                             "of 2x3x4 and 3x4x5 do not broadcast");
  GB.G.Tensors[size_t(R)].Shape = {4, 5};
  GB.G.Tensors[size_t(O)].Shape = {2, 5, 3};
  CHECK(kernelError(GB.G) == "operator 0 (BATCH_MATMUL): output 2x5x3 is "
                             "not the product's 2x3x5");
}

TEST_CASE("int8 LOG_SOFTMAX takes only its fixed output quantization, and "
          "its outputs follow the real function") {
  GraphBuilder GB;
  int32_t In = GB.tensor("in", {1, 5}, ir::perTensor(0.1f, -3));
  int32_t O = GB.tensor("out", {1, 5}, ir::perTensor(1.0f / 16, 127));
  GB.op("LOG_SOFTMAX", {In}, {O});
  auto Call = kernels::computeKernelCall(GB.G, GB.G.Operators[0]);
  REQUIRE(Call);
  GB.G.Tensors[size_t(O)].Quant = ir::perTensor(1.0f / 16, 0);
  CHECK(kernelError(GB.G) == "operator 0 (LOG_SOFTMAX): output quantization "
                             "(scale 0.0625, zero point 0) must be scale "
                             "16/256, zero point 127");
  GB.G.Tensors[size_t(In)].Type = GB.G.Tensors[size_t(O)].Type = DType::I16;
  CHECK(kernelError(GB.G) == "operator 0 (LOG_SOFTMAX): input 'in' is i16; "
                             "the kernels take int8 or float32");

  // The quantized results stay within one step of the real log softmax
  // (the oracle sweep checks them bit for bit; this checks they are not
  // degenerate).
  const ref_log_softmax_params P =
      std::get<kernels::FamilyParams<ref_log_softmax_params>>(Call->Params)
          .c();
  const int8_t X[5] = {-3, 7, 17, -50, 27};
  int8_t Y[5];
  ref_shape S{};
  S.rank = 2;
  S.dims[0] = 1;
  S.dims[1] = 5;
  ref_log_softmax_i8(&P, &S, X, Y);
  double Sum = 0;
  for (int8_t V : X)
    Sum += std::exp(0.1 * (V - X[4]));
  for (int I = 0; I < 5; ++I) {
    const double Real = 0.1 * (X[I] - X[4]) - std::log(Sum);
    const double Want = std::max(-128.0, std::round(Real * 16) + 127);
    CHECK(std::abs(Y[I] - Want) <= 1);
  }
}

TEST_CASE("The remaining refusals of the new builders") {
  {
    // float32 TRANSPOSE_CONV: float32 weights.
    GraphBuilder GB;
    int32_t Shape = GB.constant(DType::I32, {4}, std::vector<int32_t>{1, 4, 4, 2});
    int32_t W = GB.constant(DType::F32, {2, 3, 3, 1}, std::vector<float>(18, 0.5f));
    int32_t In = GB.tensor(DType::F32, {1, 2, 2, 1});
    int32_t O = GB.tensor(DType::F32, {1, 4, 4, 2});
    GB.op("TRANSPOSE_CONV", {Shape, W, In}, {O}).Attrs = {
        {"padding", std::string("SAME")}, {"stride_h", int64_t(2)},
        {"stride_w", int64_t(2)}, {"fused_activation", std::string("RELU")}};
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(W)].Type = DType::I8;
    GB.G.Tensors[size_t(W)].Data.resize(18);
    GB.G.Tensors[size_t(W)].Quant = ir::perTensor(0.5f, 0);
    CHECK(kernelError(GB.G) == "operator 0 (TRANSPOSE_CONV): a float32 "
                               "transposed convolution needs float32 weights "
                               "and output");
  }
  {
    // int32 ADD, SUB and MUL: plain integers only.
    GraphBuilder GB;
    int32_t A = GB.tensor(DType::I32, {2, 3});
    int32_t B = GB.tensor(DType::I32, {3});
    int32_t O = GB.tensor(DType::I32, {2, 3});
    GB.op("SUB", {A, B}, {O}).Attrs = {
        {"fused_activation", std::string("RELU6")}};
    CHECK(kernelError(GB.G) == "");
    GB.G.Tensors[size_t(B)].Quant = ir::perTensor(0.5f, 0);
    CHECK(kernelError(GB.G) ==
          "operator 0 (SUB): int32 operands must not be quantized");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {2, 3});
    int32_t Axis = GB.constant(DType::I32, {2}, std::vector<int32_t>{0, 1});
    int32_t O = GB.tensor(DType::F32, {2, 3});
    GB.op("CUMSUM", {In, Axis}, {O});
    CHECK(kernelError(GB.G) == "operator 0 (CUMSUM): the axis operand must "
                               "hold one value, the input a rank of 1 or more");
    GB.G.Operators[0].Inputs[1] =
        GB.constant(DType::I32, {1}, std::vector<int32_t>{0});
    GB.G.Tensors[size_t(O)].Shape = {3, 2};
    CHECK(kernelError(GB.G) ==
          "operator 0 (CUMSUM): the output must have the input's shape");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {3, 4});
    int32_t Idx = GB.tensor(DType::I64, {2, 1});
    int32_t O = GB.tensor(DType::F32, {2, 4});
    GB.op("GATHER_ND", {In, Idx}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (GATHER_ND): the indices are i64, not i32");
    GB.G.Tensors[size_t(Idx)].Type = DType::I32;
    GB.G.Tensors[size_t(O)].Shape = {2, 3};
    CHECK(kernelError(GB.G) == "operator 0 (GATHER_ND): output 2x3 is not "
                               "what params 3x4 gathered by indices 2x1 "
                               "gives");
  }
  {
    GraphBuilder GB;
    int32_t L = GB.tensor(DType::I64, {2});
    int32_t V = GB.tensor(DType::F32, {5, 3});
    int32_t O = GB.tensor(DType::F32, {2, 3});
    GB.op("EMBEDDING_LOOKUP", {L, V}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (EMBEDDING_LOOKUP): the lookup is i64, not i32");
    GB.G.Tensors[size_t(L)].Shape = {1, 2};
    CHECK(kernelError(GB.G) == "operator 0 (EMBEDDING_LOOKUP): the lookup "
                               "must be 1-D and the value at least 2-D");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {3, 4});
    int32_t Up = GB.tensor(DType::F32, {1, 4});
    int32_t Start = GB.tensor(DType::I32, {3});
    int32_t O = GB.tensor(DType::F32, {3, 4});
    GB.op("DYNAMIC_UPDATE_SLICE", {In, Up, Start}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (DYNAMIC_UPDATE_SLICE): operand, update and output "
          "must share a rank of 1 to 6, the output the operand's shape, and "
          "the start indices hold one per dimension");
    GB.G.Tensors[size_t(Start)].Shape = {2};
    GB.G.Tensors[size_t(In)].Type = GB.G.Tensors[size_t(Up)].Type =
        GB.G.Tensors[size_t(O)].Type = DType::I64;
    CHECK(kernelError(GB.G) == "operator 0 (DYNAMIC_UPDATE_SLICE): input "
                               "'t0' is i64; the kernels take int8, int16, "
                               "int32 or float32");
  }
  {
    GraphBuilder GB;
    int32_t A = GB.tensor(DType::I16, {2});
    int32_t B = GB.tensor(DType::I16, {2});
    int32_t O = GB.tensor(DType::I16, {2});
    GB.op("BROADCAST_ARGS", {A, B}, {O});
    CHECK(kernelError(GB.G) == "operator 0 (BROADCAST_ARGS): input 't0' is "
                               "i16; the kernels take int32 or int64");
  }
  {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::F32, {2, 3});
    int32_t O = GB.tensor(DType::F32, {3, 2});
    GB.op("LOG_SOFTMAX", {In}, {O});
    CHECK(kernelError(GB.G) ==
          "operator 0 (LOG_SOFTMAX): input and output shapes differ");
  }
}
