//===- ReferencePathsTest.cpp - Special paths against the reference -------===//
//
// One test per special path of the reference kernels (TensorFlow Lite Micro
// at the commit the shared vectors come from), at the inputs where a path
// that looks equivalent gives another answer: ties (x.5), saturation, zero
// points at the ends of the range, identical scales, negative averages.
//
// The expected values never come from accelgen's kernels or its parameter
// code. They are worked out by hand (the derivation is in each test), or
// computed by the `spec` helpers below: a few lines restating TensorFlow
// Lite's definitions (QuantizeMultiplier, SaturatingRoundingDoublingHighMul,
// RoundingDivideByPOT, MultiplyByQuantizedMultiplier) with exact integer
// arithmetic, written from their specification.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"

#include <cmath>
#include <random>

using namespace accelgen;
using namespace accelgen::test;
using ir::DType;

namespace {

namespace spec {

/// A quantized multiplier: M / 2^31 * 2^Shift.
struct Multiplier {
  int32_t M = 0;
  int Shift = 0;
};

/// QuantizeMultiplier: frexp, the significand rounded half away from zero
/// to 31 bits, 2^31 renormalised, exponents below -31 flushed to zero.
Multiplier quantize(double Real) {
  Multiplier Q;
  if (Real == 0)
    return Q;
  int E = 0;
  const double Sig = std::frexp(Real, &E);
  const double Scaled = Sig * 2147483648.0;
  int64_t Fixed = static_cast<int64_t>(
      Scaled >= 0 ? std::floor(Scaled + 0.5) : -std::floor(-Scaled + 0.5));
  if (Fixed == (int64_t(1) << 31)) {
    Fixed /= 2;
    ++E;
  }
  if (E < -31)
    return Q;
  Q.M = static_cast<int32_t>(Fixed);
  Q.Shift = E;
  return Q;
}

/// floor(N / 2^E + 1/2): to nearest, ties toward +infinity.
int64_t roundUp(__int128 N, int E) {
  return static_cast<int64_t>((N + (__int128(1) << (E - 1))) >> E);
}

/// N / 2^E to nearest, ties away from zero.
int64_t roundAway(__int128 N, int E) {
  if (E == 0)
    return static_cast<int64_t>(N);
  const __int128 Mag = N < 0 ? -N : N;
  const __int128 Q = (Mag + (__int128(1) << (E - 1))) >> E;
  return static_cast<int64_t>(N < 0 ? -Q : Q);
}

/// MultiplyByQuantizedMultiplier, double rounding: X * 2^max(Shift, 0),
/// times M / 2^31 rounded ties up, then / 2^max(-Shift, 0) rounded ties
/// away from zero.
int32_t mbqm(int32_t X, Multiplier Q) {
  const int Left = Q.Shift > 0 ? Q.Shift : 0;
  const int Right = Q.Shift > 0 ? 0 : -Q.Shift;
  // X * 2^Left as a product: a left shift of a negative value is undefined.
  const int64_t High = roundUp(__int128(X) * (__int128(1) << Left) * Q.M, 31);
  return static_cast<int32_t>(roundAway(High, Right));
}

} // namespace spec

int32_t clamp8(int64_t V) {
  return static_cast<int32_t>(std::clamp<int64_t>(V, -128, 127));
}

/// A one-operator graph: \p Type on int8 input \p In, output \p Out.
std::vector<int8_t> runUnaryI8(GraphBuilder &GB, int32_t In,
                               const std::vector<int8_t> &Data) {
  return valuesOf<int8_t>(runSingle(GB.G, {{In, bytesOf(Data)}}));
}

/// Every int8 value, -128 to 127.
std::vector<int8_t> allI8() {
  std::vector<int8_t> V;
  for (int X = -128; X <= 127; ++X)
    V.push_back(static_cast<int8_t>(X));
  return V;
}

} // namespace

TEST_CASE("MEAN with equal quantization rounds through QuantizedMeanOrSum") {
  // [1, 7, 7, 4] int8, scale 0.0705, zero point -9 on both sides; MEAN over
  // axes 1 and 2 (49 values per channel). By hand, from QuantizedMeanOrSum:
  // the ratio of the scales is 1, QuantizeMultiplier(1.0) = (2^30, 1); the
  // count folds in as shift = floor(log2 49) = 5, multiplier
  // 2^30 * 2^5 / 49 = 701219150 (truncated), left shift 1 - 5 = -4; each
  // output is MBQM(sum - 49 * -9, 701219150, -4) - 9 where
  // MBQM(x) = round_away(round_up(x * 701219150 / 2^31) / 16):
  //   channel 0, 48 x -9 and one 5:   x = 14:   4.571 -> 5, 5 / 16 = 0.31
  //              -> 0, output -9;
  //   channel 1, 48 x -9 and one -39: x = -30:  -9.796 -> -10, -10 / 16 =
  //              -0.625 -> -1, output -10;
  //   channel 2, all 7:               x = 784:  255.99999 -> 256, 16,
  //              output 7;
  //   channel 3, 48 x 0 and one 24:   x = 465:  151.84 -> 152, 9.5 -> 10
  //              (a tie, away from zero), output 1.
  // (Dividing the raw sum by 49 and truncating gives -8, -9, 7, 0.)
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 7, 7, 4}, 0.0705f, -9);
  int32_t Axes = GB.constant(DType::I32, {2}, std::vector<int32_t>{1, 2});
  int32_t Out = GB.tensor(DType::I8, {1, 1, 1, 4}, 0.0705f, -9);
  GB.op("MEAN", {In, Axes}, {Out}).Attrs = {{"keep_dims", true}};
  std::vector<int8_t> Data(49 * 4);
  for (int P = 0; P < 49; ++P) {
    Data[P * 4 + 0] = P == 20 ? 5 : -9;
    Data[P * 4 + 1] = P == 33 ? -39 : -9;
    Data[P * 4 + 2] = 7;
    Data[P * 4 + 3] = P == 48 ? 24 : 0;
  }
  CHECK(runUnaryI8(GB, In, Data) == std::vector<int8_t>{-9, -10, 7, 1});
  CHECK(spec::quantize(1.0).M == 1 << 30);
  CHECK((int64_t(1 << 30) << 5) / 49 == 701219150);
}

TEST_CASE("MEAN: count folded into the multiplier, zero points at the ends") {
  // The spec helpers restate QuantizedMeanOrSum for any counts and
  // quantizations, equal ones included.
  struct Case {
    std::vector<int32_t> Shape, Axes, OutShape;
    float InScale, OutScale;
    int32_t InZP, OutZP;
  };
  const Case Cases[] = {
      {{2, 3, 4, 5}, {1, 2}, {2, 1, 1, 5}, 0.1f, 0.1f, -3, -3},
      {{2, 3, 4, 5}, {1, 2}, {2, 1, 1, 5}, 0.1f, 0.1f, -128, -128},
      {{2, 3, 4, 5}, {3}, {2, 3, 4, 1}, 0.02f, 0.02f, 127, 127},
      {{3, 7}, {1}, {3, 1}, 0.1f, 0.03f, 4, -2},
      {{1, 64, 64, 1}, {1, 2}, {1, 1, 1, 1}, 0.05f, 0.05f, 0, 0},
      {{1, 9, 9, 2}, {1, 2}, {1, 1, 1, 2}, 0.5f, 0.125f, -128, 127}};
  uint32_t Seed = 7;
  for (const Case &C : Cases) {
    CAPTURE(C.InZP);
    CAPTURE(C.OutScale);
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, C.Shape, C.InScale, C.InZP);
    int32_t Axes = GB.constant(DType::I32, {int32_t(C.Axes.size())}, C.Axes);
    int32_t Out = GB.tensor(DType::I8, C.OutShape, C.OutScale, C.OutZP);
    GB.op("MEAN", {In, Axes}, {Out}).Attrs = {{"keep_dims", true}};
    int64_t N = 1, Count = 1;
    for (int32_t D : C.Shape)
      N *= D;
    for (int32_t A : C.Axes)
      Count *= C.Shape[A];
    std::mt19937 Gen(Seed++);
    std::vector<int8_t> Data(N);
    for (int8_t &X : Data)
      X = static_cast<int8_t>(int(Gen() % 256) - 128);
    const std::vector<int8_t> Got = runUnaryI8(GB, In, Data);

    spec::Multiplier M = spec::quantize(double(C.InScale) / double(C.OutScale));
    int Shift = 0;
    while ((int64_t(2) << Shift) <= Count)
      ++Shift; // floor(log2(Count))
    Shift = std::min({Shift, 32, 31 + M.Shift});
    M.M = static_cast<int32_t>((int64_t(M.M) << Shift) / Count);
    M.Shift -= Shift;
    // Row-major positions: reduced axes are trailing ones here or (1, 2).
    std::vector<int64_t> Sum(Got.size(), 0);
    for (int64_t I = 0; I < N; ++I) {
      int64_t Rest = I, Slot = 0, Mul = 1;
      for (int D = int(C.Shape.size()) - 1; D >= 0; --D) {
        const int64_t Idx = Rest % C.Shape[D];
        Rest /= C.Shape[D];
        if (C.OutShape[D] != 1 || C.Shape[D] == 1) {
          Slot += Idx * Mul;
          Mul *= C.OutShape[D];
        }
      }
      Sum[Slot] += Data[I];
    }
    for (size_t O = 0; O < Got.size(); ++O)
      REQUIRE_MESSAGE(
          int(Got[O]) ==
              clamp8(spec::mbqm(int32_t(Sum[O] - Count * C.InZP), M) + C.OutZP),
          "output " << O);
  }
}

TEST_CASE("RELU divides the scales in float, as CalculateReluOpData") {
  // 0.003f / 0.002f is exactly 1.5f in float, so the multiplier is
  // 0.75 * 2^31 = 1610612736 with left shift 1, and x * 1.5 rounds its ties
  // up (SRDHM): 1 -> 2, 3 -> 5, 5 -> 8. In double the ratio is just below
  // 1.5 (multiplier 1610612674), and every odd input would round down.
  REQUIRE(0.003f / 0.002f == 1.5f);
  REQUIRE(double(0.003f) / double(0.002f) < 1.5);
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {256}, 0.003f, 0);
  int32_t Out = GB.tensor(DType::I8, {256}, 0.002f, 0);
  GB.op("RELU", {In}, {Out});
  const std::vector<int8_t> X = allI8();
  const std::vector<int8_t> Got = runUnaryI8(GB, In, X);
  for (size_t I = 0; I < X.size(); ++I) {
    const int32_t V = X[I];
    const int32_t Want =
        V <= 0 ? 0 : clamp8(static_cast<int32_t>(std::floor(1.5 * V + 0.5)));
    REQUIRE_MESSAGE(Got[I] == Want, "input " << V);
  }
  CHECK(Got[128 + 1] == 2);
  CHECK(Got[128 + 5] == 8);
}

TEST_CASE("int8 RELU6 clamps the raw input to the input's 0 and 6") {
  // TensorFlow Lite Micro's Relu6Quantized: lower = input zero point (-10),
  // upper = -10 + round(6 / 0.05) = 110; the output quantization is not
  // read. Rescaling to the output's scale 0.025 would double every value.
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {7}, 0.05f, -10);
  int32_t Out = GB.tensor(DType::I8, {7}, 0.025f, -13);
  GB.op("RELU6", {In}, {Out});
  CHECK(runUnaryI8(GB, In, {-128, -11, -10, -9, 50, 110, 127}) ==
        std::vector<int8_t>{-10, -10, -10, -9, 50, 110, 110});
  // Zero point 127: the range is [127, 127].
  GraphBuilder GB2;
  int32_t In2 = GB2.tensor(DType::I8, {3}, 0.05f, 127);
  int32_t Out2 = GB2.tensor(DType::I8, {3}, 0.05f, 127);
  GB2.op("RELU6", {In2}, {Out2});
  CHECK(runUnaryI8(GB2, In2, {-128, 0, 127}) ==
        std::vector<int8_t>{127, 127, 127});
}

TEST_CASE("uint8 RELU6 rescales to the output (TensorFlow Lite's ReluX)") {
  // In 0.05 / out 0.025 (ratio 2 exactly), zero points 100 and 10: the
  // output is 10 + 2 * (x - 100), clamped to [10, 10 + round(6 / 0.025)].
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::U8, {5}, 0.05f, 100);
  int32_t Out = GB.tensor(DType::U8, {5}, 0.025f, 10);
  GB.op("RELU6", {In}, {Out});
  CHECK(valuesOf<uint8_t>(runSingle(
            GB.G,
            {{In, bytesOf(std::vector<uint8_t>{0, 100, 101, 200, 255})}})) ==
        std::vector<uint8_t>{10, 10, 12, 210, 250});
}

TEST_CASE("LEAKY_RELU with a negative alpha negates the rounded magnitude") {
  // Equal scales 0.1, alpha -0.5: in float 0.1f * -0.5f / 0.1f is exactly
  // -0.5, and QuantizeMultiplier(-0.5) = (-2^30, 0). QuantizeLeakyRelu
  // applies the magnitude 2^30 and negates: a centred input c < 0 gives
  // -round_up(c / 2). Input zero point 127 (every c <= 0), output zero point
  // -128:
  //   126 (c = -1):   -round_up(-0.5) = 0     -> -128
  //   125 (c = -2):   1                       -> -127
  //   124 (c = -3):   -round_up(-1.5) = 1     -> -127
  //   127 (c = 0):    identity, 0             -> -128
  //   -128 (c = -255): -round_up(-127.5) = 127 -> -1
  //   -126 (c = -253): -round_up(-126.5) = 126 -> -2
  // Multiplying by -2^30 itself would round 0.5 up instead: -127 for 126.
  REQUIRE(0.1f * -0.5f / 0.1f == -0.5f);
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {6}, 0.1f, 127);
  int32_t Out = GB.tensor(DType::I8, {6}, 0.1f, -128);
  GB.op("LEAKY_RELU", {In}, {Out}).Attrs = {{"alpha", -0.5}};
  CHECK(runUnaryI8(GB, In, {126, 125, 124, 127, -128, -126}) ==
        std::vector<int8_t>{-128, -127, -127, -128, -1, -2});
}

TEST_CASE("SUB computes its multipliers in float (sub_common.cc)") {
  // Scales 0.001, 0.003 and 0.05: twice the larger input scale, the input
  // ratios and the output factor 0.006 / (2^20 * 0.05) are float divisions
  // widened to double; ADD divides the same values in double. The output
  // multipliers differ (2061584256 in float, 2061584289 in double), and
  // 0.001 * -94 - 0.003 * 127 lands on -9 with the float ones (the spec
  // helpers below), -10 with the double ones.
  const float SA = 0.001f, SB = 0.003f, SO = 0.05f;
  const float Twice = 2 * std::max(SA, SB);
  const spec::Multiplier M1 = spec::quantize(double(SA / Twice));
  const spec::Multiplier M2 = spec::quantize(double(SB / Twice));
  const spec::Multiplier MO =
      spec::quantize(double(Twice / (float(1 << 20) * SO)));
  REQUIRE(MO.M == 2061584256);
  REQUIRE(spec::quantize(double(Twice) / (double(1 << 20) * double(SO))).M ==
          2061584289);
  GraphBuilder GB;
  int32_t A = GB.tensor(DType::I8, {256, 3}, SA, 0);
  int32_t B = GB.tensor(DType::I8, {256, 3}, SB, 0);
  int32_t O = GB.tensor(DType::I8, {256, 3}, SO, 0);
  GB.op("SUB", {A, B}, {O});
  std::vector<int8_t> AV, BV;
  for (int X = -128; X <= 127; ++X)
    for (int Y : {-128, 1, 127}) {
      AV.push_back(static_cast<int8_t>(X));
      BV.push_back(static_cast<int8_t>(Y));
    }
  const auto Got =
      valuesOf<int8_t>(runSingle(GB.G, {{A, bytesOf(AV)}, {B, bytesOf(BV)}}));
  for (size_t I = 0; I < AV.size(); ++I) {
    const int32_t SX = spec::mbqm(AV[I] * (1 << 20), M1);
    const int32_t SY = spec::mbqm(BV[I] * (1 << 20), M2);
    REQUIRE_MESSAGE(Got[I] == clamp8(spec::mbqm(SX - SY, MO)),
                    int(AV[I]) << " - " << int(BV[I]));
  }
  CHECK(Got[(-94 + 128) * 3 + 2] == -9);
}

TEST_CASE("ADD and SUB with identical scales are exact integer sums") {
  // Every scale s: the inputs scale by s / 2s = 1/2 = (2^30, 0), exactly
  // x * 2^19 after the 2^20 headroom, and the output by 2s / (2^20 s) =
  // 2^-19 = (2^30, -18), exactly (a + b) / 2^19. So the result is
  // zo + (x - z1) +- (y - z2), saturated: by hand at the ends of the range.
  for (const char *Op : {"ADD", "SUB"}) {
    CAPTURE(Op);
    GraphBuilder GB;
    int32_t A = GB.tensor(DType::I8, {6}, 0.37f, -128);
    int32_t B = GB.tensor(DType::I8, {6}, 0.37f, 127);
    int32_t O = GB.tensor(DType::I8, {6}, 0.37f, 0);
    GB.op(Op, {A, B}, {O});
    const std::vector<int8_t> X = {-128, 127, 0, -100, -120, 127};
    const std::vector<int8_t> Y = {-128, -128, 127, 100, 126, 127};
    const auto Got =
        valuesOf<int8_t>(runSingle(GB.G, {{A, bytesOf(X)}, {B, bytesOf(Y)}}));
    const bool Add = std::string(Op) == "ADD";
    // ADD: (x + 128) + (y - 127) = -255 -> -128, 0, 128 -> 127, 1, 7,
    //      255 -> 127.
    // SUB: (x + 128) - (y - 127) = 255 -> 127, 510 -> 127, 128 -> 127, 55,
    //      9, 255 -> 127.
    const std::vector<int8_t> Want =
        Add ? std::vector<int8_t>{-128, 0, 127, 1, 7, 127}
            : std::vector<int8_t>{127, 127, 127, 55, 9, 127};
    CHECK(Got == Want);
  }
}

TEST_CASE("MUL saturates at the ends of the range") {
  // Scales 1, 1 and 1: the multiplier is 1.0 = (2^30, 1), exact on every
  // product, so the output is -128 + (x + 128) * y, saturated:
  //   2 * 100 - 128 = 72;  3 * 100 - 128 = 172 -> 127;
  //   255 * -1 - 128 = -383 -> -128;  255 * -128 - 128 -> -128;
  //   1 * 127 - 128 = -1;  0 * 127 - 128 = -128.
  GraphBuilder GB;
  int32_t A = GB.tensor(DType::I8, {6}, 1.0f, -128);
  int32_t B = GB.tensor(DType::I8, {6}, 1.0f, 0);
  int32_t O = GB.tensor(DType::I8, {6}, 1.0f, -128);
  GB.op("MUL", {A, B}, {O});
  CHECK(
      valuesOf<int8_t>(runSingle(
          GB.G,
          {{A, bytesOf(std::vector<int8_t>{-126, -125, 127, 127, -127, -128})},
           {B, bytesOf(std::vector<int8_t>{100, 100, -1, -128, 127, 127})}})) ==
      std::vector<int8_t>{72, 127, -128, -128, -1, -128});
}

TEST_CASE("requantize int8 to uint8 with equal scales adds 128") {
  // Requantize's fast path flips the top bit when only the zero point moves
  // by 128; the multiplier (2^30, 1) is exact, so the general path agrees:
  // uint8 = int8 + 128.
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {4}, 0.2f, -5);
  int32_t Out = GB.tensor(DType::U8, {4}, 0.2f, 123);
  GB.op("QUANTIZE", {In}, {Out});
  CHECK(valuesOf<uint8_t>(runSingle(
            GB.G, {{In, bytesOf(std::vector<int8_t>{-128, -1, 0, 127})}})) ==
        std::vector<uint8_t>{0, 127, 128, 255});
}

TEST_CASE("QUANTIZE rounds ties away from zero and saturates") {
  // round(x / 0.5) + zp, TfLiteRound: 0.25 / 0.5 = 0.5 -> 1, -0.25 -> -1,
  // 0.75 -> 1.5 -> 2.
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::F32, {6});
  int32_t Out = GB.tensor(DType::I8, {6}, 0.5f, -1);
  GB.op("QUANTIZE", {In}, {Out});
  CHECK(valuesOf<int8_t>(runSingle(
            GB.G, {{In, bytesOf(std::vector<float>{0.25f, -0.25f, 0.75f, -0.75f,
                                                   1000.0f, -1000.0f})}})) ==
        std::vector<int8_t>{0, -2, 1, -3, 127, -128});
  GraphBuilder GB2;
  int32_t In2 = GB2.tensor(DType::F32, {3});
  int32_t Out2 = GB2.tensor(DType::I8, {3}, 0.5f, 127);
  GB2.op("QUANTIZE", {In2}, {Out2});
  // zp 127: 0.25 -> 1 + 127 = 128 -> 127; -0.25 -> 126.
  CHECK(
      valuesOf<int8_t>(runSingle(
          GB2.G, {{In2, bytesOf(std::vector<float>{0.25f, -0.25f, 0.0f})}})) ==
      std::vector<int8_t>{127, 126, 127});
}

TEST_CASE("PAD fills with the zero point, PADV2 with its constant") {
  for (int32_t ZP : {-128, 127}) {
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {1, 2}, 0.5f, ZP);
    int32_t Pads =
        GB.constant(DType::I32, {2, 2}, std::vector<int32_t>{0, 0, 1, 1});
    int32_t Out = GB.tensor(DType::I8, {1, 4}, 0.5f, ZP);
    GB.op("PAD", {In, Pads}, {Out});
    const int8_t Z = static_cast<int8_t>(ZP);
    CHECK(runUnaryI8(GB, In, {3, -4}) == std::vector<int8_t>{Z, 3, -4, Z});
  }
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {2}, 0.5f, 0);
  int32_t Pads = GB.constant(DType::I32, {1, 2}, std::vector<int32_t>{2, 1});
  int32_t Value =
      GB.constant(DType::I8, {}, std::vector<int8_t>{-128}, 0.5f, 0);
  int32_t Out = GB.tensor(DType::I8, {5}, 0.5f, 0);
  GB.op("PADV2", {In, Pads, Value}, {Out});
  CHECK(runUnaryI8(GB, In, {1, 2}) ==
        std::vector<int8_t>{-128, -128, 1, 2, -128});
}

TEST_CASE("AVERAGE_POOL_2D rounds negative averages away from zero") {
  // (sum + n/2) / n for a positive sum, (sum - n/2) / n otherwise, C
  // division: sums over 2x2 windows of -2 (-0.5 -> -1), 2 (0.5 -> 1),
  // -6 (-1.5 -> -2), -5 (-1.25 -> -1), -511 (-127.75 -> -128), 6 (1.5 -> 2).
  GraphBuilder GB;
  int32_t In = GB.tensor(DType::I8, {1, 2, 2, 6}, 0.5f, -128);
  int32_t Out = GB.tensor(DType::I8, {1, 1, 1, 6}, 0.5f, -128);
  GB.op("AVERAGE_POOL_2D", {In}, {Out}).Attrs = {
      {"padding", std::string("VALID")},
      {"stride_h", int64_t(2)},
      {"stride_w", int64_t(2)},
      {"filter_h", int64_t(2)},
      {"filter_w", int64_t(2)},
      {"fused_activation", std::string("NONE")}};
  const std::vector<std::vector<int8_t>> Windows = {
      {-1, -1, 0, 0},           {1, 1, 0, 0},
      {-2, -2, -1, -1},         {-2, -1, -1, -1},
      {-128, -128, -128, -127}, {2, 2, 1, 1}};
  std::vector<int8_t> Data(24);
  for (int P = 0; P < 4; ++P)
    for (int C = 0; C < 6; ++C)
      Data[P * 6 + C] = Windows[C][P];
  CHECK(runUnaryI8(GB, In, Data) ==
        std::vector<int8_t>{-1, 1, -2, -1, -128, 2});
}

namespace {

/// HARD_SWISH of one int8 value as TensorFlow Lite's reference HardSwish
/// defines it (int16 arithmetic, with the multipliers of HardSwishPrepare),
/// restated with the spec helpers.
int32_t hardSwishSpec(int32_t X, float InScale, int32_t InZP, float OutScale,
                      int32_t OutZP) {
  auto Down = [](int32_t M) -> int16_t {
    return M >= INT32_MAX - (1 << 15)
               ? INT16_MAX
               : static_cast<int16_t>((M + (1 << 15)) >> 16);
  };
  auto Srdhm16 = [](int16_t A, int16_t B) -> int16_t {
    if (A == INT16_MIN && B == INT16_MIN)
      return INT16_MAX;
    return static_cast<int16_t>(spec::roundUp(int32_t(A) * B, 15));
  };
  auto Shl16 = [](int16_t V, int N) -> int16_t {
    return static_cast<int16_t>(
        std::clamp<int32_t>(int32_t(V) * (1 << N), INT16_MIN, INT16_MAX));
  };
  const float Hires = (1.0f / 128.0f) * InScale;
  const spec::Multiplier MO = spec::quantize(double(Hires / OutScale));
  const spec::Multiplier MR = spec::quantize(double(Hires / (3.0f / 32768.0f)));
  const int16_t OutM = Down(MO.M), ReluM = Down(MR.M);
  const int16_t H = static_cast<int16_t>((X - InZP) * 128);
  const int16_t Pre = Srdhm16(H, OutM);
  int16_t R = H;
  if (MR.Shift > 0)
    R = Shl16(R, MR.Shift - 1);
  R = Srdhm16(R, ReluM);
  if (MR.Shift > 0)
    R = Shl16(R, 1);
  if (MR.Shift < 0)
    R = static_cast<int16_t>(spec::roundAway(R, -MR.Shift));
  R = static_cast<int16_t>((R + 32768) / 2);
  // Truncating doubling high multiply (C++ division truncates).
  const int16_t Prod = static_cast<int16_t>((int32_t(R) * Pre) / (1 << 15));
  return clamp8(spec::roundAway(Prod, -MO.Shift) + OutZP);
}

} // namespace

TEST_CASE("HARD_SWISH: every int8 input, both reluish shift signs") {
  struct Case {
    float InScale, OutScale;
    int32_t InZP, OutZP;
  };
  // Reluish multiplier in_scale * 32768 / (128 * 3): 4.3 (left shift 3),
  // 0.85 (0) and 0.17 (-2); zero points at both ends.
  const Case Cases[] = {{0.05f, 0.03f, -128, 127},
                        {0.05f, 0.03f, 127, -128},
                        {0.01f, 0.008f, 0, -1},
                        {0.002f, 0.001f, -128, 0},
                        {0.002f, 0.001f, 127, 127}};
  for (const Case &C : Cases) {
    CAPTURE(C.InScale);
    CAPTURE(C.InZP);
    GraphBuilder GB;
    int32_t In = GB.tensor(DType::I8, {256}, C.InScale, C.InZP);
    int32_t Out = GB.tensor(DType::I8, {256}, C.OutScale, C.OutZP);
    GB.op("HARD_SWISH", {In}, {Out});
    const std::vector<int8_t> X = allI8();
    const std::vector<int8_t> Got = runUnaryI8(GB, In, X);
    for (size_t I = 0; I < X.size(); ++I)
      REQUIRE_MESSAGE(int(Got[I]) == hardSwishSpec(X[I], C.InScale, C.InZP,
                                                   C.OutScale, C.OutZP),
                      "input " << int(X[I]));
  }
}
