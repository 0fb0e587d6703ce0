//===- OperatorTest.cpp - Operators the conformance models do not reach ---===//
//
// Each test builds a one-operator graph, lets KernelParams prepare it and runs
// the C kernel, then checks the output against an independent computation:
//
//  - exactly, where the result is defined by integer arithmetic that a naive
//    implementation here can restate (index arithmetic with divisions and
//    per-tap bounds checks, TensorFlow Lite's formulas element by element):
//    convolutions with groups, dilation and depth multipliers, pooling,
//    broadcasting ADD / SUB / MUL, PAD, CONCATENATION, TRANSPOSE,
//    STRIDED_SLICE, MEAN, QUANTIZE / DEQUANTIZE, and the float kernels;
//  - within one quantized step of the real-valued function, for the
//    fixed-point approximations (LOGISTIC, TANH, SOFTMAX, HARD_SWISH,
//    LEAKY_RELU): the bound TensorFlow Lite's own kernel tests use. Their
//    bit-exactness against TensorFlow Lite rests on the fixed-point helpers
//    (FixedPointTest) and, for SOFTMAX, on the conformance models.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"

#include <cmath>
#include <functional>
#include <map>
#include <random>

using namespace accelgen;
using namespace accelgen::test;
using ir::DType;

namespace {

std::vector<int8_t> randomI8(size_t N, uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_int_distribution<int> D(-128, 127);
  std::vector<int8_t> V(N);
  for (int8_t &X : V)
    X = static_cast<int8_t>(D(Gen));
  return V;
}

std::vector<uint8_t> randomU8(size_t N, uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_int_distribution<int> D(0, 255);
  std::vector<uint8_t> V(N);
  for (uint8_t &X : V)
    X = static_cast<uint8_t>(D(Gen));
  return V;
}

std::vector<float> randomF32(size_t N, uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> D(-2.0f, 2.0f);
  std::vector<float> V(N);
  for (float &X : V)
    X = D(Gen);
  return V;
}

/// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const std::vector<int32_t> &Shape) {
  std::vector<int64_t> S(Shape.size(), 1);
  for (int D = static_cast<int>(Shape.size()) - 2; D >= 0; --D)
    S[D] = S[D + 1] * Shape[D + 1];
  return S;
}

/// The multi-index of flat offset \p I in \p Shape (with divisions: the
/// independent way).
std::vector<int64_t> unflatten(int64_t I, const std::vector<int32_t> &Shape) {
  std::vector<int64_t> Idx(Shape.size());
  for (int D = static_cast<int>(Shape.size()) - 1; D >= 0; --D) {
    Idx[D] = I % Shape[D];
    I /= Shape[D];
  }
  return Idx;
}

/// A naive quantized convolution (TensorFlow Lite's reference loop shape,
/// bounds checked per tap) with per-channel multipliers.
struct NaiveConv {
  int32_t StrideH = 1, StrideW = 1, DilH = 1, DilW = 1, PadTop = 0, PadLeft = 0,
          DepthMultiplier = 0; // 0: not depthwise
  int32_t InOffset = 0, FilterOffset = 0, OutOffset = 0, ActMin = -128,
          ActMax = 127;
  std::vector<int32_t> Mult, Shift;

  template <typename T>
  std::vector<T> run(const std::vector<int32_t> &InShape,
                     const std::vector<T> &In,
                     const std::vector<int32_t> &FShape,
                     const std::vector<T> &F, const std::vector<int32_t> &Bias,
                     const std::vector<int32_t> &OutShape) const {
    std::vector<T> Out(static_cast<size_t>(OutShape[0]) * OutShape[1] *
                       OutShape[2] * OutShape[3]);
    const int32_t IH = InShape[1], IW = InShape[2], IC = InShape[3];
    const int32_t KH = FShape[1], KW = FShape[2], FC = FShape[3];
    const int32_t OC = OutShape[3];
    for (int64_t I = 0; I < static_cast<int64_t>(Out.size()); ++I) {
      auto Idx = unflatten(I, OutShape);
      const int64_t B = Idx[0], OY = Idx[1], OX = Idx[2], O = Idx[3];
      int64_t Acc = 0;
      for (int32_t KY = 0; KY < KH; ++KY)
        for (int32_t KX = 0; KX < KW; ++KX) {
          const int64_t IY = OY * StrideH - PadTop + KY * DilH;
          const int64_t IX = OX * StrideW - PadLeft + KX * DilW;
          if (IY < 0 || IY >= IH || IX < 0 || IX >= IW)
            continue;
          auto InAt = [&](int64_t C) {
            return int64_t(In[((B * IH + IY) * IW + IX) * IC + C]) + InOffset;
          };
          if (DepthMultiplier) {
            const int64_t FV = F[(KY * KW + KX) * OC + O] + FilterOffset;
            Acc += FV * InAt(O / DepthMultiplier);
          } else {
            const int64_t Group = O / (OC / (IC / FC));
            for (int32_t C = 0; C < FC; ++C)
              Acc += (int64_t(F[((O * KH + KY) * KW + KX) * FC + C]) +
                      FilterOffset) *
                     InAt(Group * FC + C);
          }
        }
      if (!Bias.empty())
        Acc += Bias[O];
      REQUIRE(Acc == static_cast<int32_t>(Acc));
      int32_t V = ref_multiply_by_quantized_multiplier(
                      static_cast<int32_t>(Acc), Mult[O % Mult.size()],
                      Shift[O % Shift.size()]) +
                  OutOffset;
      Out[I] = static_cast<T>(std::clamp(V, ActMin, ActMax));
    }
    return Out;
  }
};

} // namespace

TEST_CASE("CONV_2D int8 per channel: groups, dilation, stride, SAME") {
  GraphBuilder GB;
  // 2 groups: input depth 6, filter depth 3, 4 output channels.
  const std::vector<int32_t> InShape = {2, 7, 9, 6}, FShape = {4, 3, 3, 3},
                             OutShape = {2, 4, 5, 4};
  const float InScale = 0.05f, OutScale = 0.11f;
  const std::vector<float> FScales = {0.01f, 0.02f, 0.015f, 0.03f};
  int32_t In = GB.tensor(DType::I8, InShape, InScale, -7);
  auto FData = randomI8(4 * 3 * 3 * 3, 11);
  int32_t F = GB.constant(DType::I8, FShape, FData);
  GB.perChannel(F, FScales, 0);
  std::vector<int32_t> Bias = {100, -2000, 35, 7};
  int32_t Bi = GB.constant(DType::I32, {4}, Bias);
  int32_t Out = GB.tensor(DType::I8, OutShape, OutScale, 3);
  ir::Operator &Op = GB.op("CONV_2D", {In, F, Bi}, {Out});
  Op.Attrs = {{"padding", std::string("SAME")},
              {"stride_h", int64_t(2)},
              {"stride_w", int64_t(2)},
              {"dilation_h", int64_t(2)},
              {"dilation_w", int64_t(1)},
              {"fused_activation", std::string("RELU6")}};
  auto Call = kernels::computeKernelCall(GB.G, GB.G.Operators[0]);
  REQUIRE_MESSAGE(static_cast<bool>(Call), llvm::toString(Call.takeError()));
  CHECK(Call->Function == "ref_conv2d_i8_per_channel");
  const auto &P =
      std::get<kernels::FamilyParams<ref_conv2d_params>>(Call->Params);

  NaiveConv N;
  N.StrideH = N.StrideW = 2;
  N.DilH = 2;
  // SAME: rows: out 4, dilated filter 5, total (3*2+5-7)=4 -> 2; columns:
  // out 5, total (4*2+3-9)=2 -> 1.
  N.PadTop = 2;
  N.PadLeft = 1;
  CHECK(P.Scalars.pad_top == 2);
  CHECK(P.Scalars.pad_left == 1);
  N.InOffset = 7;
  N.OutOffset = 3;
  N.ActMin = 3;                                                     // real 0
  N.ActMax = 3 + static_cast<int32_t>(std::round(6.0f / OutScale)); // real 6
  for (float S : FScales) {
    auto M = kernels::quantizeMultiplier(double(InScale) * S / OutScale);
    N.Mult.push_back(M.Multiplier);
    N.Shift.push_back(M.LeftShift);
  }
  CHECK(P.per_channel_multiplier == N.Mult);
  CHECK(P.per_channel_left_shift == N.Shift);
  auto InData = randomI8(2 * 7 * 9 * 6, 12);
  auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(InData)}}));
  CHECK(Got == N.run<int8_t>(InShape, InData, FShape, FData, Bias, OutShape));
}

TEST_CASE("DEPTHWISE_CONV_2D: depth multiplier 3, int8 and uint8") {
  const std::vector<int32_t> InShape = {1, 6, 5, 2}, FShape = {1, 3, 2, 6},
                             OutShape = {1, 6, 5, 6};
  SUBCASE("int8 per channel") {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, InShape, 0.1f, 5);
    auto FData = randomI8(36, 21);
    int32_t F = GB.constant(DType::I8, FShape, FData);
    const std::vector<float> Scales = {0.01f, 0.02f, 0.03f,
                                       0.04f, 0.05f, 0.06f};
    GB.perChannel(F, Scales, 3);
    int32_t Out = GB.tensor(DType::I8, OutShape, 0.2f, -1);
    ir::Operator &Op = GB.op("DEPTHWISE_CONV_2D", {In, F, -1}, {Out});
    Op.Attrs = {{"padding", std::string("SAME")},
                {"stride_h", int64_t(1)},
                {"stride_w", int64_t(1)},
                {"depth_multiplier", int64_t(3)}};
    NaiveConv N;
    N.DepthMultiplier = 3;
    N.PadTop = 1;  // 3 rows: total 2
    N.PadLeft = 0; // 2 columns: total 1
    N.InOffset = -5;
    N.OutOffset = -1;
    for (float S : Scales) {
      auto M = kernels::quantizeMultiplier(double(0.1f) * S / 0.2f);
      N.Mult.push_back(M.Multiplier);
      N.Shift.push_back(M.LeftShift);
    }
    auto InData = randomI8(60, 22);
    auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(InData)}}));
    CHECK(Got == N.run<int8_t>(InShape, InData, FShape, FData, {}, OutShape));
  }
  SUBCASE("uint8 with a filter zero point") {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::U8, InShape, 0.1f, 120);
    auto FData = randomU8(36, 23);
    int32_t F = GB.constant(DType::U8, FShape, FData, 0.02f, 131);
    std::vector<int32_t> Bias = {1, 2, 3, -4, -5, 600};
    int32_t Bi = GB.constant(DType::I32, {6}, Bias);
    int32_t Out = GB.tensor(DType::U8, OutShape, 0.25f, 128);
    ir::Operator &Op = GB.op("DEPTHWISE_CONV_2D", {In, F, Bi}, {Out});
    Op.Attrs = {{"padding", std::string("VALID")},
                {"stride_h", int64_t(1)},
                {"stride_w", int64_t(1)},
                {"dilation_h", int64_t(2)}};
    // VALID with the dilated 5-row filter: 2 output rows.
    GB.G.Tensors[Out].Shape = {1, 2, 4, 6};
    NaiveConv N;
    N.DepthMultiplier = 3;
    N.DilH = 2;
    N.InOffset = -120;
    N.FilterOffset = -131;
    N.OutOffset = 128;
    N.ActMin = 0;
    N.ActMax = 255;
    // uint8: the legacy multiplier, input * filter scale in float.
    auto M = kernels::quantizeMultiplier(double(0.1f * 0.02f) / 0.25f);
    N.Mult = {M.Multiplier};
    N.Shift = {M.LeftShift};
    auto InData = randomU8(60, 24);
    auto Got = valuesOf<uint8_t>(runSingle(GB.G, {{In, bytesOf(InData)}}));
    CHECK(Got ==
          N.run<uint8_t>(InShape, InData, FShape, FData, Bias, {1, 2, 4, 6}));
  }
}

TEST_CASE("float32 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED") {
  GraphBuilder GB;
  const std::vector<int32_t> InShape = {1, 5, 5, 3}, FShape = {2, 3, 3, 3};
  int32_t In = GB.tensor(DType::F32, InShape);
  auto FData = randomF32(54, 31);
  int32_t F = GB.constant(DType::F32, FShape, FData);
  std::vector<float> Bias = {0.5f, -0.25f};
  int32_t Bi = GB.constant(DType::F32, {2}, Bias);
  int32_t Out = GB.tensor(DType::F32, {1, 5, 5, 2});
  ir::Operator &Op = GB.op("CONV_2D", {In, F, Bi}, {Out});
  Op.Attrs = {{"padding", std::string("SAME")},
              {"fused_activation", std::string("RELU")}};
  auto InData = randomF32(75, 32);
  auto Got = valuesOf<float>(runSingle(GB.G, {{In, bytesOf(InData)}}));
  // Same summation order as the kernel (rows, columns, channels, bias).
  for (int OY = 0; OY < 5; ++OY)
    for (int OX = 0; OX < 5; ++OX)
      for (int O = 0; O < 2; ++O) {
        float Acc = 0;
        for (int KY = 0; KY < 3; ++KY)
          for (int KX = 0; KX < 3; ++KX) {
            int IY = OY - 1 + KY, IX = OX - 1 + KX;
            if (IY < 0 || IY >= 5 || IX < 0 || IX >= 5)
              continue;
            for (int C = 0; C < 3; ++C)
              Acc += InData[(IY * 5 + IX) * 3 + C] *
                     FData[((O * 3 + KY) * 3 + KX) * 3 + C];
          }
        const float Want = std::max(0.0f, Acc + Bias[O]);
        REQUIRE(Got[(OY * 5 + OX) * 2 + O] == Want);
      }

  GraphBuilder FC;
  int32_t X = FC.tensor(DType::F32, {2, 4});
  auto W = randomF32(12, 33);
  int32_t Wt = FC.constant(DType::F32, {3, 4}, W);
  int32_t Y = FC.tensor(DType::F32, {2, 3});
  FC.op("FULLY_CONNECTED", {X, Wt, -1}, {Y}).Attrs = {
      {"fused_activation", std::string("RELU_N1_TO_1")}};
  auto XData = randomF32(8, 34);
  auto YGot = valuesOf<float>(runSingle(FC.G, {{X, bytesOf(XData)}}));
  for (int B = 0; B < 2; ++B)
    for (int O = 0; O < 3; ++O) {
      float Acc = 0;
      for (int D = 0; D < 4; ++D)
        Acc += XData[B * 4 + D] * W[O * 4 + D];
      CHECK(YGot[B * 3 + O] == std::clamp(Acc, -1.0f, 1.0f));
    }
}

TEST_CASE("FULLY_CONNECTED int8 per tensor uses the float scale product") {
  GraphBuilder GB;
  int32_t X = GB.tensor(DType::I8, {3, 5}, 0.3f, 10);
  auto W = randomI8(20, 41);
  int32_t Wt = GB.constant(DType::I8, {4, 5}, W, 0.007f, 0);
  std::vector<int32_t> Bias = {10, 20, -30, 40};
  int32_t Bi = GB.constant(DType::I32, {4}, Bias);
  int32_t Y = GB.tensor(DType::I8, {3, 4}, 0.09f, -5);
  GB.op("FULLY_CONNECTED", {X, Wt, Bi}, {Y});
  auto Call = kernels::computeKernelCall(GB.G, GB.G.Operators[0]);
  REQUIRE(static_cast<bool>(Call));
  CHECK(Call->Function == "ref_fully_connected_i8");
  auto M = kernels::quantizeMultiplier(double(0.3f * 0.007f) / double(0.09f));
  const auto &P =
      std::get<kernels::FamilyParams<ref_fully_connected_params>>(Call->Params);
  CHECK(P.Scalars.output_multiplier == M.Multiplier);
  CHECK(P.Scalars.output_left_shift == M.LeftShift);
  auto XData = randomI8(15, 42);
  auto Got = valuesOf<int8_t>(runSingle(GB.G, {{X, bytesOf(XData)}}));
  for (int B = 0; B < 3; ++B)
    for (int O = 0; O < 4; ++O) {
      int32_t Acc = Bias[O];
      for (int D = 0; D < 5; ++D)
        Acc += W[O * 5 + D] * (XData[B * 5 + D] - 10);
      int32_t V =
          ref_multiply_by_quantized_multiplier(Acc, M.Multiplier, M.LeftShift) -
          5;
      CHECK(Got[B * 4 + O] == std::clamp(V, -128, 127));
    }
}

TEST_CASE("pooling: windows clipped at the border, rounding of the average") {
  for (DType T : {DType::I8, DType::U8}) {
    CAPTURE(ir::dtypeName(T));
    for (bool Average : {true, false}) {
      GraphBuilder GB;
      const int32_t ZP = T == DType::I8 ? -3 : 100;
      int32_t In = GB.tensor(T, {2, 5, 6, 3}, 0.5f, ZP);
      int32_t Out = GB.tensor(T, {2, 3, 3, 3}, 0.5f, ZP);
      GB.op(Average ? "AVERAGE_POOL_2D" : "MAX_POOL_2D", {In}, {Out}).Attrs = {
          {"padding", std::string("SAME")},
          {"stride_h", int64_t(2)},
          {"stride_w", int64_t(2)},
          {"filter_h", int64_t(3)},
          {"filter_w", int64_t(2)},
          {"fused_activation", std::string("RELU")}};
      auto Data = randomU8(2 * 5 * 6 * 3, 51);
      auto Got = runSingle(GB.G, {{In, Data}});
      auto Value = [&](uint8_t B) {
        return T == DType::I8 ? int32_t(int8_t(B)) : int32_t(B);
      };
      // Rows: out 3, total (2*2+3-5)=2 -> pad 1; columns: total 0.
      for (int64_t I = 0; I < 2 * 3 * 3 * 3; ++I) {
        auto Idx = unflatten(I, {2, 3, 3, 3});
        int32_t Sum = 0, Count = 0, Max = -1000;
        for (int KY = 0; KY < 3; ++KY)
          for (int KX = 0; KX < 2; ++KX) {
            int64_t Y = Idx[1] * 2 - 1 + KY, X = Idx[2] * 2 + KX;
            if (Y < 0 || Y >= 5 || X < 0 || X >= 6)
              continue;
            int32_t V = Value(Data[((Idx[0] * 5 + Y) * 6 + X) * 3 + Idx[3]]);
            Sum += V;
            ++Count;
            Max = std::max(Max, V);
          }
        // Average: round half away from zero.
        int32_t Avg =
            static_cast<int32_t>(std::lround(static_cast<double>(Sum) / Count));
        int32_t Want = std::max(Average ? Avg : Max, ZP); // RELU
        REQUIRE_MESSAGE(Value(Got[I]) == Want, "element " << I);
      }
    }
  }
}

namespace {

/// ADD / SUB / MUL of int8 tensors, element by element with TensorFlow
/// Lite's formulas and a naive broadcast.
void checkBinary(const std::string &Type, std::vector<int32_t> AShape,
                 std::vector<int32_t> BShape, std::vector<int32_t> OShape) {
  CAPTURE(Type);
  GraphBuilder GB;
  const float SA = 0.04f, SB = 0.07f, SO = Type == "MUL" ? 0.02f : 0.09f;
  const int32_t ZA = 5, ZB = -9, ZO = 2;
  int32_t A = GB.tensor(DType::I8, AShape, SA, ZA);
  int32_t B = GB.tensor(DType::I8, BShape, SB, ZB);
  int32_t O = GB.tensor(DType::I8, OShape, SO, ZO);
  GB.op(Type, {A, B}, {O});
  int64_t NA = 1, NB = 1, NO = 1;
  for (int32_t D : AShape)
    NA *= D;
  for (int32_t D : BShape)
    NB *= D;
  for (int32_t D : OShape)
    NO *= D;
  auto AData = randomI8(NA, 61), BData = randomI8(NB, 62);
  auto Got = valuesOf<int8_t>(
      runSingle(GB.G, {{A, bytesOf(AData)}, {B, bytesOf(BData)}}));
  REQUIRE(Got.size() == size_t(NO));
  auto At = [&](const std::vector<int8_t> &Data,
                const std::vector<int32_t> &Shape,
                const std::vector<int64_t> &OutIdx) {
    const size_t Lead = OShape.size() - Shape.size();
    int64_t Off = 0;
    auto S = stridesOf(Shape);
    for (size_t D = 0; D < Shape.size(); ++D)
      Off += (Shape[D] == 1 ? 0 : OutIdx[Lead + D]) * S[D];
    return int32_t(Data[Off]);
  };
  const double TwiceMax = 2 * double(std::max(SA, SB));
  auto MA = kernels::quantizeMultiplier(double(SA) / TwiceMax);
  auto MB = kernels::quantizeMultiplier(double(SB) / TwiceMax);
  auto MO = kernels::quantizeMultiplier(TwiceMax / ((1 << 20) * double(SO)));
  auto MM = kernels::quantizeMultiplier(double(SA) * double(SB) / double(SO));
  for (int64_t I = 0; I < NO; ++I) {
    auto Idx = unflatten(I, OShape);
    const int32_t X = At(AData, AShape, Idx) - ZA;
    const int32_t Y = At(BData, BShape, Idx) - ZB;
    int32_t Raw;
    if (Type == "MUL") {
      Raw = ref_multiply_by_quantized_multiplier(X * Y, MM.Multiplier,
                                                 MM.LeftShift);
    } else {
      int32_t SX = ref_multiply_by_quantized_multiplier(
          X * (1 << 20), MA.Multiplier, MA.LeftShift);
      int32_t SY = ref_multiply_by_quantized_multiplier(
          Y * (1 << 20), MB.Multiplier, MB.LeftShift);
      Raw = ref_multiply_by_quantized_multiplier(
          Type == "ADD" ? SX + SY : SX - SY, MO.Multiplier, MO.LeftShift);
    }
    const int32_t Want = std::clamp(Raw + ZO, -128, 127);
    REQUIRE_MESSAGE(Got[I] == Want, "element " << I);
    // And the real-valued result, within a step.
    const double Real = Type == "ADD"   ? SA * X + SB * Y
                        : Type == "SUB" ? SA * X - SB * Y
                                        : (SA * X) * (SB * Y);
    const double Clamped =
        std::clamp(Real, SO * (-128.0 - ZO), SO * (127.0 - ZO));
    REQUIRE(std::fabs(SO * (Got[I] - ZO) - Clamped) <= SO * 1.01);
  }
}

} // namespace

TEST_CASE("ADD, SUB, MUL int8 with broadcasting") {
  for (const char *T : {"ADD", "SUB", "MUL"}) {
    checkBinary(T, {2, 3, 4}, {2, 3, 4}, {2, 3, 4});
    checkBinary(T, {2, 3, 4}, {4}, {2, 3, 4});
    checkBinary(T, {2, 1, 4}, {1, 3, 1}, {2, 3, 4});
    checkBinary(T, {3, 1}, {2, 1, 5}, {2, 3, 5});
    checkBinary(T, {1, 2, 1, 3, 1, 2}, {2, 1, 4, 1, 5, 1}, {2, 2, 4, 3, 5, 2});
    checkBinary(T, {}, {2, 2}, {2, 2});
  }
}

TEST_CASE("ADD float and uint8") {
  GraphBuilder GB;
  int32_t A = GB.tensor(DType::F32, {2, 3});
  int32_t B = GB.tensor(DType::F32, {3});
  int32_t O = GB.tensor(DType::F32, {2, 3});
  GB.op("SUB", {A, B}, {O}).Attrs = {
      {"fused_activation", std::string("RELU6")}};
  std::vector<float> AV = {1, 2, 3, 10, 20, 30}, BV = {4, -1, 0.5f};
  auto Got =
      valuesOf<float>(runSingle(GB.G, {{A, bytesOf(AV)}, {B, bytesOf(BV)}}));
  CHECK(Got == std::vector<float>{0, 3, 2.5f, 6, 6, 6});

  GraphBuilder U;
  int32_t UA = U.tensor(DType::U8, {4}, 0.5f, 128);
  int32_t UB = U.tensor(DType::U8, {4}, 0.5f, 128);
  int32_t UO = U.tensor(DType::U8, {4}, 1.0f, 100);
  U.op("ADD", {UA, UB}, {UO});
  std::vector<uint8_t> UAV = {128, 130, 0, 255}, UBV = {128, 131, 0, 255};
  // Reals 0+0, 1+1.5, -64-64, 63.5+63.5 on scale 1 around 100.
  auto UGot = runSingle(U.G, {{UA, UAV}, {UB, UBV}});
  CHECK(UGot == std::vector<uint8_t>{100, 103, 0, 227});
}

TEST_CASE("PAD and PADV2") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {2, 3, 2}, 0.1f, -4);
  int32_t Pads =
      GB.constant(DType::I32, {3, 2}, std::vector<int32_t>{1, 0, 2, 1, 0, 3});
  int32_t Out = GB.tensor(DType::I8, {3, 6, 5}, 0.1f, -4);
  GB.op("PAD", {In, Pads}, {Out});
  auto Data = randomI8(12, 71);
  auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(Data)}}));
  for (int64_t I = 0; I < 3 * 6 * 5; ++I) {
    auto Idx = unflatten(I, {3, 6, 5});
    int64_t A = Idx[0] - 1, B = Idx[1] - 2, C = Idx[2];
    bool Inside = A >= 0 && A < 2 && B >= 0 && B < 3 && C < 2;
    CHECK(Got[I] == (Inside ? Data[(A * 3 + B) * 2 + C] : -4));
  }

  GraphBuilder F;
  int32_t FI = F.tensor(DType::F32, {2});
  int32_t FP = F.constant(DType::I64, {1, 2}, std::vector<int64_t>{2, 1});
  int32_t FV = F.constant(DType::F32, {}, std::vector<float>{7.5f});
  int32_t FO = F.tensor(DType::F32, {5});
  F.op("PADV2", {FI, FP, FV}, {FO});
  auto FGot = valuesOf<float>(
      runSingle(F.G, {{FI, bytesOf(std::vector<float>{1, 2})}}));
  CHECK(FGot == std::vector<float>{7.5f, 7.5f, 1, 2, 7.5f});
}

TEST_CASE("CONCATENATION: copies, and uint8 rescaling") {
  GraphBuilder GB;
  int32_t A = GB.tensor(DType::I8, {2, 1, 3}, 0.5f, 1);
  int32_t B = GB.tensor(DType::I8, {2, 2, 3}, 0.5f, 1);
  int32_t C = GB.tensor(DType::I8, {2, 3, 3}, 0.5f, 1);
  int32_t O = GB.tensor(DType::I8, {2, 6, 3}, 0.5f, 1);
  GB.op("CONCATENATION", {A, B, C}, {O}).Attrs = {{"axis", int64_t(-2)}};
  auto AD = randomI8(6, 81), BD = randomI8(12, 82), CD = randomI8(18, 83);
  auto Got = valuesOf<int8_t>(
      runSingle(GB.G, {{A, bytesOf(AD)}, {B, bytesOf(BD)}, {C, bytesOf(CD)}}));
  for (int64_t I = 0; I < 36; ++I) {
    auto Idx = unflatten(I, {2, 6, 3});
    int64_t R = Idx[1];
    int8_t Want = R < 1   ? AD[(Idx[0] * 1 + R) * 3 + Idx[2]]
                  : R < 3 ? BD[(Idx[0] * 2 + R - 1) * 3 + Idx[2]]
                          : CD[(Idx[0] * 3 + R - 3) * 3 + Idx[2]];
    CHECK(Got[I] == Want);
  }

  GraphBuilder U;
  int32_t UA = U.tensor(DType::U8, {1, 2}, 0.5f, 10);
  int32_t UB = U.tensor(DType::U8, {1, 2}, 0.25f, 128);
  int32_t UO = U.tensor(DType::U8, {1, 4}, 0.5f, 10);
  U.op("CONCATENATION", {UA, UB}, {UO}).Attrs = {{"axis", int64_t(1)}};
  auto Call = kernels::computeKernelCall(U.G, U.G.Operators[0]);
  REQUIRE(static_cast<bool>(Call));
  CHECK(Call->Function == "ref_concat_u8_rescale");
  // B's reals: (0-128)/4 = -32 -> -64 steps -> clamped to 0; (131-128)/4 =
  // 0.75 -> 1.5 steps, rounds away to 2 -> 12.
  auto UGot = runSingle(U.G, {{UA, {10, 200}}, {UB, {0, 131}}});
  CHECK(UGot == std::vector<uint8_t>{10, 200, 0, 12});
}

TEST_CASE("TRANSPOSE and STRIDED_SLICE") {
  GraphBuilder GB;
  const std::vector<int32_t> Shape = {2, 3, 4, 5};
  int32_t In = GB.tensor(DType::F32, Shape);
  int32_t Perm = GB.constant(DType::I32, {4}, std::vector<int32_t>{2, 0, 3, 1});
  int32_t Out = GB.tensor(DType::F32, {4, 2, 5, 3});
  GB.op("TRANSPOSE", {In, Perm}, {Out});
  auto Data = randomF32(120, 91);
  auto Got = valuesOf<float>(runSingle(GB.G, {{In, bytesOf(Data)}}));
  auto S = stridesOf(Shape);
  for (int64_t I = 0; I < 120; ++I) {
    auto Idx = unflatten(I, {4, 2, 5, 3});
    // Output dim d is input dim perm[d].
    int64_t Off = Idx[0] * S[2] + Idx[1] * S[0] + Idx[2] * S[3] + Idx[3] * S[1];
    REQUIRE(Got[I] == Data[Off]);
  }

  GraphBuilder SS;
  int32_t X = SS.tensor(DType::I8, {4, 5, 6}, 1.0f, 0);
  // Dim 0: begin masked, stride 2 -> 0, 2. Dim 1: shrink at -2 -> 3.
  // Dim 2: from 5 down to (but excluding) 0 by -2 -> 5, 3, 1.
  int32_t Begin = SS.constant(DType::I32, {3}, std::vector<int32_t>{3, -2, 5});
  int32_t End = SS.constant(DType::I32, {3}, std::vector<int32_t>{4, 0, 0});
  int32_t Strides =
      SS.constant(DType::I32, {3}, std::vector<int32_t>{2, 1, -2});
  int32_t Y = SS.tensor(DType::I8, {2, 3}, 1.0f, 0);
  SS.op("STRIDED_SLICE", {X, Begin, End, Strides}, {Y}).Attrs = {
      {"begin_mask", int64_t(1)}, {"shrink_axis_mask", int64_t(2)}};
  std::vector<int8_t> XD(120);
  for (int I = 0; I < 120; ++I)
    XD[I] = static_cast<int8_t>(I - 60);
  auto YGot = valuesOf<int8_t>(runSingle(SS.G, {{X, bytesOf(XD)}}));
  std::vector<int8_t> Want;
  for (int A : {0, 2})
    for (int C : {5, 3, 1})
      Want.push_back(XD[(A * 5 + 3) * 6 + C]);
  CHECK(YGot == Want);
}

TEST_CASE("MEAN requantizes with the count folded into the multiplier") {
  // Equal quantization is no special case (QuantizedMeanOrSum): the ratio
  // 1.0 is (2^30, 1); count 12 shifts by floor(log2 12) = 3 and divides.
  // ReferencePathsTest has the cases where this rounds where a plain
  // division of the raw sum would truncate.
  SUBCASE("same quantization") {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {2, 3, 4, 5}, 0.1f, -3);
    int32_t Axes = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, -2});
    int32_t Out = GB.tensor(DType::I8, {2, 1, 1, 5}, 0.1f, -3);
    GB.op("MEAN", {In, Axes}, {Out}).Attrs = {{"keep_dims", true}};
    auto Data = randomI8(120, 101);
    auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(Data)}}));
    const int32_t Mult = static_cast<int32_t>((int64_t(1) << 33) / 12);
    for (int B = 0; B < 2; ++B)
      for (int C = 0; C < 5; ++C) {
        int32_t Sum = 0;
        for (int H = 0; H < 3; ++H)
          for (int W = 0; W < 4; ++W)
            Sum += Data[((B * 3 + H) * 4 + W) * 5 + C];
        const int32_t Want =
            ref_multiply_by_quantized_multiplier(Sum + 12 * 3, Mult, 1 - 3) - 3;
        CHECK(Got[B * 5 + C] == std::clamp(Want, -128, 127));
        // Within a step of the real mean (it rounds twice).
        CHECK(std::fabs((Got[B * 5 + C] + 3) - (Sum + 36) / 12.0) < 1.0);
      }
  }
  SUBCASE("different quantization") {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {3, 7}, 0.1f, 4);
    int32_t Axes = GB.constant(DType::I32, {}, std::vector<int32_t>{1});
    int32_t Out = GB.tensor(DType::I8, {3}, 0.03f, -2);
    GB.op("MEAN", {In, Axes}, {Out});
    auto Data = randomI8(21, 102);
    auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(Data)}}));
    auto M = kernels::quantizeMultiplier(double(0.1f) / double(0.03f));
    // Count 7: shift by floor(log2 7) = 2, multiplier * 4 / 7.
    const int32_t Mult = static_cast<int32_t>((int64_t(M.Multiplier) << 2) / 7);
    for (int R = 0; R < 3; ++R) {
      int32_t Sum = 0;
      for (int C = 0; C < 7; ++C)
        Sum += Data[R * 7 + C];
      int32_t V = ref_multiply_by_quantized_multiplier(Sum - 7 * 4, Mult,
                                                       M.LeftShift - 2) -
                  2;
      CHECK(Got[R] == std::clamp(V, -128, 127));
      double Real = 0.1 * (Sum - 7 * 4) / 7;
      CHECK(std::fabs(0.03 * (Got[R] + 2) -
                      std::clamp(Real, 0.03 * -126, 0.03 * 129)) <= 0.031);
    }
  }
}

TEST_CASE("QUANTIZE, DEQUANTIZE, requantize") {
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::F32, {8});
  int32_t Out = GB.tensor(DType::I8, {8}, 0.5f, -1);
  GB.op("QUANTIZE", {In}, {Out});
  std::vector<float> X = {0.0f,    0.25f,    -0.25f, 0.75f,
                          1000.0f, -1000.0f, 63.9f,  -0.74f};
  // round(x / 0.5) half away from zero, + zero point, clamped.
  auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(X)}}));
  CHECK(Got == std::vector<int8_t>{-1, 0, -2, 1, 127, -128, 127, -2});

  GraphBuilder D;
  int32_t DI = D.tensor(DType::U8, {3}, 0.1f, 100);
  int32_t DO = D.tensor(DType::F32, {3});
  D.op("DEQUANTIZE", {DI}, {DO});
  auto DGot = valuesOf<float>(runSingle(D.G, {{DI, {100, 0, 255}}}));
  CHECK(DGot == std::vector<float>{0.0f, float(double(0.1f) * -100),
                                   float(double(0.1f) * 155)});

  GraphBuilder R;
  int32_t RI = R.tensor(DType::I8, {256}, 0.02f, -5);
  int32_t RO = R.tensor(DType::U8, {256}, 0.02f, 123);
  R.op("QUANTIZE", {RI}, {RO});
  std::vector<int8_t> All(256);
  for (int I = 0; I < 256; ++I)
    All[I] = static_cast<int8_t>(I - 128);
  auto RGot = runSingle(R.G, {{RI, bytesOf(All)}});
  for (int I = 0; I < 256; ++I)
    CHECK(int(RGot[I]) == std::clamp(All[I] + 5 + 123, 0, 255));

  // A target's REQUANTIZE between two int8 quantizations.
  GraphBuilder Q;
  int32_t QI = Q.tensor(DType::I8, {256}, 0.02f, -5);
  int32_t QO = Q.tensor(DType::I8, {256}, 0.05f, 3);
  Q.op("REQUANTIZE", {QI}, {QO});
  auto QGot = valuesOf<int8_t>(runSingle(Q.G, {{QI, bytesOf(All)}}));
  auto M = kernels::quantizeMultiplier(double(0.02f) / double(0.05f));
  for (int I = 0; I < 256; ++I) {
    const int32_t Want = ref_multiply_by_quantized_multiplier(
                             All[I] + 5, M.Multiplier, M.LeftShift) +
                         3;
    CHECK(int(QGot[I]) == std::clamp(Want, -128, 127));
    // Within a step of the real value, not half a step: the double rounding
    // takes 1 * 0.4 to 1 (0.8 rounds up to 1, then 1 / 2 rounds away).
    CHECK(std::fabs(QGot[I] -
                    std::clamp(0.4 * (All[I] + 5) + 3, -128.0, 127.0)) <= 1.0);
  }
}

namespace {

/// Runs a unary int8 / uint8 operator on every input value and checks each
/// output is within one step of \p F applied to the real input.
void checkUnary(const std::string &Type, DType T, float InScale, int32_t InZP,
                float OutScale, int32_t OutZP,
                const std::function<double(double)> &F,
                std::map<std::string, ir::AttrValue> Attrs = {}) {
  CAPTURE(Type);
  CAPTURE(ir::dtypeName(T));
  GraphBuilder GB;
  int32_t In = GB.tensor(T, {256}, InScale, InZP);
  int32_t Out = GB.tensor(T, {256}, OutScale, OutZP);
  GB.op(Type, {In}, {Out}).Attrs = std::move(Attrs);
  std::vector<uint8_t> All(256);
  for (int I = 0; I < 256; ++I)
    All[I] = static_cast<uint8_t>(I);
  auto Got = runSingle(GB.G, {{In, All}});
  const int32_t Lo = T == DType::I8 ? -128 : 0, Hi = T == DType::I8 ? 127 : 255;
  for (int I = 0; I < 256; ++I) {
    const int32_t Q = T == DType::I8 ? int8_t(All[I]) : All[I];
    const int32_t G = T == DType::I8 ? int8_t(Got[I]) : Got[I];
    const double Want = F(InScale * (Q - InZP)) / OutScale + OutZP;
    REQUIRE_MESSAGE(std::fabs(G - std::clamp(Want, double(Lo), double(Hi))) <=
                        1.0,
                    Type << "(" << InScale * (Q - InZP) << "): got " << G
                         << ", want " << Want);
  }
}

} // namespace

TEST_CASE("LOGISTIC and TANH in fixed point") {
  auto Sigmoid = [](double X) { return 1 / (1 + std::exp(-X)); };
  auto Tanh = [](double X) { return std::tanh(X); };
  for (float S : {0.01f, 0.05f, 0.1f, 0.5f}) {
    checkUnary("LOGISTIC", DType::I8, S, 3, 1.0f / 256, -128, Sigmoid);
    checkUnary("LOGISTIC", DType::U8, S, 130, 1.0f / 256, 0, Sigmoid);
    checkUnary("TANH", DType::I8, S, -2, 1.0f / 128, 0, Tanh);
    checkUnary("TANH", DType::U8, S, 128, 1.0f / 128, 128, Tanh);
  }
}

TEST_CASE("RELU, RELU6, LEAKY_RELU, HARD_SWISH") {
  auto Relu = [](double X) { return std::max(0.0, X); };
  auto Relu6 = [](double X) { return std::clamp(X, 0.0, 6.0); };
  auto Leaky = [](double X) { return X >= 0 ? X : 0.2 * X; };
  auto HardSwish = [](double X) { return X * std::clamp(X + 3, 0.0, 6.0) / 6; };
  for (DType T : {DType::I8, DType::U8}) {
    const int32_t Z = T == DType::I8 ? -10 : 118;
    checkUnary("RELU", T, 0.05f, Z, 0.03f, Z + 5, Relu);
    // int8 RELU6 clamps without rescaling (TensorFlow Lite Micro), so it
    // matches the real function only with equal quantization; the raw clamp
    // is in ReferencePathsTest.
    checkUnary("RELU6", T, 0.05f, Z, T == DType::I8 ? 0.05f : 0.025f,
               T == DType::I8 ? Z : Z - 3, Relu6);
    checkUnary("LEAKY_RELU", T, 0.05f, Z, 0.04f, Z + 1, Leaky,
               {{"alpha", 0.2}});
    checkUnary("HARD_SWISH", T, 0.05f, Z, 0.04f, Z + 20, HardSwish);
    checkUnary("HARD_SWISH", T, 0.01f, Z, 0.008f, Z + 1, HardSwish);
  }
  // Equal quantization: RELU6 is a plain clamp to [zp, zp + round(6/s)].
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {4}, 0.1f, -20);
  int32_t Out = GB.tensor(DType::I8, {4}, 0.1f, -20);
  GB.op("RELU6", {In}, {Out});
  auto Got = valuesOf<int8_t>(runSingle(
      GB.G, {{In, bytesOf(std::vector<int8_t>{-128, -20, 39, 127})}}));
  CHECK(Got == std::vector<int8_t>{-20, -20, 39, 40});
}

TEST_CASE("SOFTMAX int8 and uint8") {
  // Uniform rows: exp(0) everywhere, each output 1/n on the 1/256 grid.
  for (int N : {1, 2, 4, 8, 10}) {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {2, N}, 0.1f, 0);
    int32_t Out = GB.tensor(DType::I8, {2, N}, 1.0f / 256, -128);
    GB.op("SOFTMAX", {In}, {Out}).Attrs = {{"beta", 1.0}};
    std::vector<int8_t> Row(2 * N, 17);
    auto Got = valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(Row)}}));
    const int Want = std::min(127, int(std::lround(256.0 / N)) - 128);
    for (int8_t V : Got)
      CHECK_MESSAGE(int(V) == Want, "n = " << N);
  }
  // Random rows against the float softmax, one step.
  for (DType T : {DType::I8, DType::U8})
    for (float Scale : {0.02f, 0.1f, 0.4f})
      for (double Beta : {1.0, 0.5}) {
        CAPTURE(Scale);
        CAPTURE(Beta);
        GraphBuilder GB;
        const int32_t OutZP = T == DType::I8 ? -128 : 0;
        int32_t In = GB.tensor(T, {5, 37}, Scale, T == DType::I8 ? 0 : 128);
        int32_t Out = GB.tensor(T, {5, 37}, 1.0f / 256, OutZP);
        GB.op("SOFTMAX", {In}, {Out}).Attrs = {{"beta", Beta}};
        auto Data = randomU8(5 * 37, 111);
        auto Got = runSingle(GB.G, {{In, Data}});
        for (int R = 0; R < 5; ++R) {
          std::vector<double> X(37);
          double Max = -1e9, Sum = 0;
          for (int C = 0; C < 37; ++C) {
            int32_t Q = T == DType::I8 ? int8_t(Data[R * 37 + C])
                                       : int32_t(Data[R * 37 + C]) - 128;
            X[C] = Scale * Beta * Q;
            Max = std::max(Max, X[C]);
          }
          for (double &V : X)
            Sum += (V = std::exp(V - Max));
          for (int C = 0; C < 37; ++C) {
            int32_t G =
                T == DType::I8 ? int8_t(Got[R * 37 + C]) : Got[R * 37 + C];
            double Want = std::min(255.0, X[C] / Sum * 256) + OutZP;
            REQUIRE(std::fabs(G - Want) <= 1.0);
          }
        }
      }
}
