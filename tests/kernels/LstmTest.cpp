//===- LstmTest.cpp - UNIDIRECTIONAL_SEQUENCE_LSTM parameters and kernels -===//
//
// The lstm family against values computed here, independently of
// lib/kernels: the parameters TensorFlow Lite Micro's Prepare derives (from
// its formulas, with a frexp rounding of our own and hand-worked powers of
// two), one error per malformed operator, and the kernels against a
// test-side implementation that follows the reference's structure (each gate
// as two whole fully connected layers, then element-wise steps over vectors)
// on hand-built LSTMs of every layout and on the LSTM layer of the shared
// model, for int8 and float32.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"
#include "kernels/c/ref_sigmoid16.h"

#include "import/TFLiteImporter.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace accelgen;
using namespace accelgen::test;

namespace {

/// A deterministic xorshift32 generator.
struct Random {
  uint32_t State = 12345;
  uint32_t next() {
    State ^= State << 13;
    State ^= State >> 17;
    State ^= State << 5;
    return State;
  }
  int32_t in(int32_t Lo, int32_t Hi) {
    return Lo + static_cast<int32_t>(next() % uint32_t(Hi - Lo + 1));
  }
  float real(float Lo, float Hi) {
    return Lo + (Hi - Lo) * float(next() >> 8) / float(1 << 24);
  }
};

/// The shape of an LSTM under test.
struct LstmShape {
  int32_t Batches = 1, Steps = 3, Features = 4, Units = 5;
  bool TimeMajor = false;
  bool Float = false;
  /// 16x8: int16 activations (zero point 0), int8 weights, int64 biases.
  bool Wide = false;
  float InScale = 0.02f, HiddenScale = 0.0078125f, CellScale = 1.0f / 4096;
  int32_t InZp = 5, HiddenZp = -3;
  float CellClip = 0.0f;
};

/// Operand indices of the LSTM built by makeLstm.
struct LstmGraph {
  GraphBuilder B;
  int32_t Input = -1, Hidden = -1, Cell = -1, Output = -1;
  std::vector<int32_t> Operands;
};

/// An UNIDIRECTIONAL_SEQUENCE_LSTM with random weights and biases.
LstmGraph makeLstm(const LstmShape &S, uint32_t Seed = 7) {
  using ir::DType;
  LstmGraph L;
  Random R;
  R.State = Seed;
  GraphBuilder &B = L.B;
  const DType Act = S.Float ? DType::F32 : S.Wide ? DType::I16 : DType::I8;
  const int32_t InZp = S.Wide ? 0 : S.InZp, HiddenZp = S.Wide ? 0 : S.HiddenZp;
  auto Scale = [&](float V) {
    return S.Float ? std::optional<float>() : std::optional<float>(V);
  };
  const std::vector<int32_t> InShape =
      S.TimeMajor ? std::vector<int32_t>{S.Steps, S.Batches, S.Features}
                  : std::vector<int32_t>{S.Batches, S.Steps, S.Features};
  const std::vector<int32_t> OutShape = {InShape[0], InShape[1], S.Units};
  L.Input = B.tensor(Act, InShape, Scale(S.InScale), InZp);
  std::vector<int32_t> Ops(24, -1);
  Ops[0] = L.Input;
  auto Weights = [&](int32_t Rows, int32_t Cols, float WScale) {
    if (S.Float) {
      std::vector<float> V(size_t(Rows) * Cols);
      for (float &X : V)
        X = R.real(-0.6f, 0.6f);
      return B.constant(DType::F32, {Rows, Cols}, V);
    }
    std::vector<int8_t> V(size_t(Rows) * Cols);
    for (int8_t &X : V)
      X = static_cast<int8_t>(R.in(-127, 127));
    return B.constant(DType::I8, {Rows, Cols}, V, WScale, 0);
  };
  for (int G = 0; G < 4; ++G)
    Ops[1 + G] = Weights(S.Units, S.Features, 0.004f + 0.001f * G);
  for (int G = 0; G < 4; ++G)
    Ops[5 + G] = Weights(S.Units, S.Units, 0.006f + 0.0005f * G);
  for (int G = 0; G < 4; ++G) {
    if (S.Float) {
      std::vector<float> V(S.Units);
      for (float &X : V)
        X = R.real(-0.5f, 0.5f);
      Ops[12 + G] = B.constant(DType::F32, {S.Units}, V);
    } else if (S.Wide) {
      std::vector<int64_t> V(S.Units);
      for (int64_t &X : V)
        X = R.in(-300000, 300000);
      Ops[12 + G] = B.constant(DType::I64, {S.Units}, V,
                               S.InScale * (0.004f + 0.001f * G), 0);
    } else {
      std::vector<int32_t> V(S.Units);
      for (int32_t &X : V)
        X = R.in(-3000, 3000);
      Ops[12 + G] = B.constant(DType::I32, {S.Units}, V,
                               S.InScale * (0.004f + 0.001f * G), 0);
    }
  }
  L.Hidden =
      B.tensor(Act, {S.Batches, S.Units}, Scale(S.HiddenScale), HiddenZp);
  L.Cell = B.tensor(S.Float ? DType::F32 : DType::I16, {S.Batches, S.Units},
                    Scale(S.CellScale), 0);
  B.G.Tensors[L.Hidden].IsVariable = true;
  B.G.Tensors[L.Cell].IsVariable = true;
  Ops[18] = L.Hidden;
  Ops[19] = L.Cell;
  L.Output = B.tensor(Act, OutShape, Scale(S.HiddenScale), HiddenZp);
  ir::Operator &Op = B.op("UNIDIRECTIONAL_SEQUENCE_LSTM", Ops, {L.Output});
  Op.setAttr(ir::attr::FusedActivation, std::string("TANH"));
  Op.setAttr(ir::attr::CellClip, double(S.CellClip));
  Op.setAttr(ir::attr::ProjClip, 0.0);
  Op.setAttr(ir::attr::TimeMajor, S.TimeMajor);
  L.Operands = Ops;
  L.B.G.Inputs = {L.Input};
  L.B.G.Outputs = {L.Output};
  return L;
}

// --- Independent parameter arithmetic ---------------------------------------

/// A real multiplier as (q, e) with real = q * 2^(e - 31), q in [2^30, 2^31):
/// frexp, the significand rounded half away from zero.
std::pair<int32_t, int32_t> expectedMultiplier(double Real) {
  int E = 0;
  const double M = std::frexp(Real, &E);
  int64_t Q = static_cast<int64_t>(std::llround(M * 2147483648.0));
  if (Q == (int64_t(1) << 31)) {
    Q /= 2;
    ++E;
  }
  return {static_cast<int32_t>(Q), E};
}

ref_lstm_params paramsOf(const ir::Graph &G) {
  auto Call = kernels::computeKernelCall(G, G.Operators.at(0));
  REQUIRE_MESSAGE(bool(Call), llvm::toString(Call.takeError()));
  CHECK(Call->Function ==
        (G.tensor(G.Operators[0].Inputs[0]).Type == ir::DType::F32
             ? "ref_unidirectional_sequence_lstm_f32"
             : "ref_unidirectional_sequence_lstm_i8"));
  return std::get<kernels::FamilyParams<ref_lstm_params>>(Call->Params).Scalars;
}

// --- The test-side reference LSTM -------------------------------------------

int32_t clampTo(int64_t X, int64_t Lo, int64_t Hi) {
  return static_cast<int32_t>(std::min(std::max(X, Lo), Hi));
}

/// MultiplyByQuantizedMultiplier from its definition: x * 2^max(shift, 0)
/// times q / 2^31 rounded to nearest (ties toward +infinity, as gemmlowp's
/// SaturatingRoundingDoublingHighMul), then divided by 2^-min(shift, 0)
/// rounded to nearest (ties away from zero).
int32_t requantize(int32_t X, int32_t Q, int32_t Shift) {
  const int64_t P = (Shift > 0 ? int64_t(X) * (int64_t(1) << Shift) : X) * Q;
  const int64_t High = (P + (int64_t(1) << 30)) >> 31; // floor
  if (Shift >= 0)
    return static_cast<int32_t>(High);
  const int64_t Half = int64_t(1) << (-Shift - 1);
  return static_cast<int32_t>(High >= 0 ? (High + Half) >> -Shift
                                        : -((-High + Half) >> -Shift));
}

/// The reference's int16 table (values of sigmoid(i / 24) in Q0.16 as
/// TensorFlow Lite lists them) is checked against the formula here, within
/// the 1.2 steps its entries are off by; the kernels embed the same table.
double sigmoidQ16(int I) { return 65536.0 / (1.0 + std::exp(-I / 24.0)); }

/// Runs the LSTM of \p L on \p Input with the reference's structure and
/// returns the output sequence; \p Hidden and \p Cell carry the state.
template <typename Act, typename CellT>
std::vector<Act>
referenceLstm(const ir::Graph &G, const LstmShape &S, const ref_lstm_params &P,
              const std::vector<Act> &Input, std::vector<Act> &Hidden,
              std::vector<CellT> &Cell, const std::vector<int16_t> &Table) {
  const ir::Operator &Op = G.Operators[0];
  auto Data = [&](int Operand) { return G.tensor(Op.Inputs[Operand]).Data; };
  std::vector<Act> Out(size_t(S.Batches) * S.Steps * S.Units);
  // Interpolated table lookups, as the reference's int16 logistic and tanh.
  auto Sigmoid16 = [&](int16_t X) -> int16_t {
    const int32_t V = int32_t(X) * 3;
    const uint32_t A = uint32_t(std::abs(V));
    const uint32_t H = A >> 9;
    uint32_t R;
    if (H >= 255)
      R = 0x7FFFu << 10;
    else {
      const uint32_t Lo = uint16_t(Table[H]), Hi = uint16_t(Table[H + 1]);
      R = (Lo << 9) + (A & 0x1FF) * (Hi - Lo);
    }
    R = V >= 0 ? R + (1u << 9) : (1u << 25) - R + (1u << 9) - 1;
    return int16_t(R >> 10);
  };
  auto Tanh16 = [&](int16_t X, int32_t M, int32_t Sh) -> int16_t {
    const int32_t V = (int32_t(X) * M + (Sh > 0 ? 1 << (Sh - 1) : 0)) >> Sh;
    const uint32_t A = uint32_t(std::abs(V));
    const uint32_t H = A >> 8;
    int32_t R;
    if (H >= 255)
      R = 0xFFFF << 8;
    else {
      const uint32_t Lo = uint16_t(Table[H]), Hi = uint16_t(Table[H + 1]);
      R = int32_t((Lo << 8) + (A & 0xFF) * (Hi - Lo));
    }
    R = V >= 0 ? R - (1 << 23) + (1 << 7) : -R + (1 << 23) + (1 << 7) - 1;
    return int16_t(R >> 8);
  };
  const float Lowest = std::numeric_limits<float>::lowest(),
              Highest = std::numeric_limits<float>::max();
  auto Clamp = [&](float X) { return std::min(std::max(X, Lowest), Highest); };
  for (int32_t B = 0; B < S.Batches; ++B)
    for (int32_t T = 0; T < S.Steps; ++T) {
      const size_t Step =
          S.TimeMajor ? size_t(T) * S.Batches + B : size_t(B) * S.Steps + T;
      const Act *X = Input.data() + Step * S.Features;
      Act *H = Hidden.data() + size_t(B) * S.Units;
      CellT *C = Cell.data() + size_t(B) * S.Units;
      // Step 1: the four gates as whole vectors.
      std::vector<CellT> Gate[4];
      for (int Gi = 0; Gi < 4; ++Gi) {
        std::vector<uint8_t> W = Data(1 + Gi), Rw = Data(5 + Gi),
                             Bias = Data(12 + Gi);
        std::vector<CellT> FcIn(S.Units), FcRec(S.Units);
        for (int32_t J = 0; J < S.Units; ++J) {
          if constexpr (std::is_same_v<Act, float>) {
            const float *Wf = reinterpret_cast<const float *>(W.data());
            const float *Rf = reinterpret_cast<const float *>(Rw.data());
            const float *Bf = reinterpret_cast<const float *>(Bias.data());
            float A = 0, Rr = 0;
            for (int32_t D = 0; D < S.Features; ++D)
              A += X[D] * Wf[J * S.Features + D];
            for (int32_t D = 0; D < S.Units; ++D)
              Rr += H[D] * Rf[J * S.Units + D];
            FcIn[J] = Clamp(A + Bf[J]);
            FcRec[J] = Clamp(Rr + 0.0f);
          } else {
            const int8_t *Wi = reinterpret_cast<const int8_t *>(W.data());
            const int8_t *Ri = reinterpret_cast<const int8_t *>(Rw.data());
            const int32_t *Bi = reinterpret_cast<const int32_t *>(Bias.data());
            int32_t A = 0, Rr = 0;
            for (int32_t D = 0; D < S.Features; ++D)
              A += Wi[J * S.Features + D] * (X[D] + P.input_offset);
            A += Bi[J];
            for (int32_t D = 0; D < S.Units; ++D)
              Rr += Ri[J * S.Units + D] * (H[D] + P.hidden_offset);
            FcIn[J] = CellT(clampTo(
                requantize(A, P.input_multiplier[Gi], P.input_left_shift[Gi]),
                -32768, 32767));
            FcRec[J] = CellT(clampTo(requantize(Rr, P.recurrent_multiplier[Gi],
                                                P.recurrent_left_shift[Gi]),
                                     -32768, 32767));
          }
        }
        Gate[Gi].resize(S.Units);
        for (int32_t J = 0; J < S.Units; ++J) {
          if constexpr (std::is_same_v<Act, float>) {
            const float V = FcIn[J] + FcRec[J];
            Gate[Gi][J] = Gi == 2                      ? std::tanh(V)
                          : V > 16.619047164916992188f ? 1.0f
                          : V < -9.0f                  ? std::exp(V)
                                      : 1.0f / (1.0f + std::exp(-V));
          } else {
            const int16_t V =
                int16_t(clampTo(int32_t(FcIn[J]) + FcRec[J], -32768, 32767));
            Gate[Gi][J] = Gi == 2 ? Tanh16(V, 3, 0) : Sigmoid16(V);
          }
        }
      }
      // Step 2: the cell state; step 3: the hidden state and output.
      std::vector<Act> NewH(S.Units);
      for (int32_t J = 0; J < S.Units; ++J) {
        if constexpr (std::is_same_v<Act, float>) {
          float V = Clamp(Gate[1][J] * C[J]) + Clamp(Gate[0][J] * Gate[2][J]);
          if (P.cell_clip_f > 0)
            V = std::max(std::min(P.cell_clip_f, V), -P.cell_clip_f);
          C[J] = V;
          NewH[J] = Clamp(std::tanh(C[J]) * Gate[3][J]);
        } else {
          const int32_t F =
              clampTo(requantize(Gate[1][J] * C[J], P.forget_multiplier,
                                 P.forget_left_shift),
                      -32768, 32767);
          const int32_t U =
              clampTo(requantize(Gate[0][J] * Gate[2][J], P.update_multiplier,
                                 P.update_left_shift),
                      -32768, 32767);
          int32_t V = clampTo(F + U, -32768, 32767);
          if (P.cell_clip >= 0)
            V = std::max(std::min(P.cell_clip, V), -P.cell_clip);
          C[J] = CellT(V);
          const int16_t Tc =
              Tanh16(C[J], P.cell_tanh_multiplier, P.cell_tanh_right_shift);
          NewH[J] =
              Act(clampTo(requantize(int32_t(Tc) * Gate[3][J],
                                     P.output_multiplier, P.output_left_shift) +
                              P.output_zero_point,
                          -128, 127));
        }
      }
      std::copy(NewH.begin(), NewH.end(), H);
      std::copy(NewH.begin(), NewH.end(), Out.begin() + Step * S.Units);
    }
  return Out;
}

/// The table the int8 kernel interpolates (ref_sigmoid16.h).
std::vector<int16_t> sigmoidTable() {
  return std::vector<int16_t>(ref_sigmoid16_table, ref_sigmoid16_table + 256);
}

/// Runs the kernel on \p Input from the initial state; returns the output
/// sequence and leaves the final state in \p Hidden, \p Cell.
std::vector<uint8_t> runKernel(const LstmGraph &L,
                               const std::vector<uint8_t> &Input,
                               std::vector<uint8_t> &Hidden,
                               std::vector<uint8_t> &Cell) {
  auto R = ModelRunner::create(L.B.G);
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  TensorBuffers B = R->initialBuffers();
  B[L.Input] = Input;
  llvm::Error E = R->runOperator(0, B);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  Hidden = B[L.Hidden];
  Cell = B[L.Cell];
  return B[L.Output];
}

/// The kernel against the test-side reference on random inputs of \p S.
void checkAgainstReference(const LstmShape &S) {
  LstmGraph L = makeLstm(S);
  const ir::Graph &G = L.B.G;
  const ref_lstm_params P = paramsOf(G);
  Random R;
  const size_t N = size_t(S.Batches) * S.Steps * S.Features;
  const size_t State = size_t(S.Batches) * S.Units;
  std::vector<uint8_t> In, Hidden, Cell;
  std::vector<uint8_t> Want, WantHidden, WantCell;
  if (S.Float) {
    std::vector<float> X(N);
    for (float &V : X)
      V = R.real(-3.0f, 3.0f);
    In = bytesOf(X);
    std::vector<float> H(State, 0.0f), C(State, 0.0f);
    Want = bytesOf(referenceLstm<float, float>(G, S, P, X, H, C, {}));
    WantHidden = bytesOf(H);
    WantCell = bytesOf(C);
  } else {
    std::vector<int8_t> X(N);
    for (int8_t &V : X)
      V = static_cast<int8_t>(R.in(-128, 127));
    In = bytesOf(X);
    std::vector<int8_t> H(State, static_cast<int8_t>(S.HiddenZp));
    std::vector<int16_t> C(State, 0);
    Want = bytesOf(
        referenceLstm<int8_t, int16_t>(G, S, P, X, H, C, sigmoidTable()));
    WantHidden = bytesOf(H);
    WantCell = bytesOf(C);
  }
  const std::vector<uint8_t> Got = runKernel(L, In, Hidden, Cell);
  CHECK(Got == Want);
  CHECK(Hidden == WantHidden);
  CHECK(Cell == WantCell);
}

} // namespace

TEST_CASE("the sigmoid table is sigmoid(i / 24) in Q0.16, increasing") {
  for (int I = 0; I < 256; ++I) {
    INFO("entry " << I);
    CHECK(std::abs(double(ref_sigmoid16_table[I]) -
                   std::min(sigmoidQ16(I), 65535.0)) < 1.2);
    if (I > 0)
      CHECK(ref_sigmoid16_table[I] >= ref_sigmoid16_table[I - 1]);
  }
  CHECK(ref_sigmoid16_table[0] == 32768);
}

TEST_CASE("LSTM parameters follow TensorFlow Lite Micro's Prepare") {
  LstmShape S;
  S.CellClip = 3.0f;
  LstmGraph L = makeLstm(S);
  const ir::Graph &G = L.B.G;
  const ref_lstm_params P = paramsOf(G);
  CHECK(P.batches == 1);
  CHECK(P.time_steps == 3);
  CHECK(P.input_size == 4);
  CHECK(P.state_size == 5);
  CHECK(P.time_major == 0);
  CHECK(P.input_offset == -5);
  CHECK(P.hidden_offset == 3);
  CHECK(P.output_zero_point == -3);
  for (int Gi = 0; Gi < 4; ++Gi) {
    INFO("gate " << Gi);
    const float W = G.tensor(L.Operands[1 + Gi]).Quant->scale();
    const float Rw = G.tensor(L.Operands[5 + Gi]).Quant->scale();
    // Input and weight scales multiplied in float, then divided by 2^-12.
    const auto In = expectedMultiplier(double(S.InScale * W) * 4096.0);
    const auto Rec = expectedMultiplier(double(S.HiddenScale * Rw) * 4096.0);
    CHECK(P.input_multiplier[Gi] == In.first);
    CHECK(P.input_left_shift[Gi] == In.second);
    CHECK(P.recurrent_multiplier[Gi] == Rec.first);
    CHECK(P.recurrent_left_shift[Gi] == Rec.second);
  }
  // Cell scale 2^-12: forget * cell is 2^-15 = 0.5 * 2^-14; input * cell
  // gate is 2^-30 / 2^-12 = 0.5 * 2^-17.
  CHECK(P.forget_multiplier == 1 << 30);
  CHECK(P.forget_left_shift == -14);
  CHECK(P.update_multiplier == 1 << 30);
  CHECK(P.update_left_shift == -17);
  // 2^-30 / 2^-7 = 2^-23 = 0.5 * 2^-22.
  CHECK(P.output_multiplier == 1 << 30);
  CHECK(P.output_left_shift == -22);
  // tanh of a Q3.12 cell: times 3, no shift; clip 3.0 / 2^-12.
  CHECK(P.cell_tanh_multiplier == 3);
  CHECK(P.cell_tanh_right_shift == 0);
  CHECK(P.cell_clip == 12288);
}

TEST_CASE("LSTM parameters: other cell scales, clips and layouts") {
  LstmShape S;
  S.CellScale = 1.0f / 2048; // 2^-11: tanh input shifted left by 1
  S.CellClip = 10.0f;        // 20480
  S.HiddenScale = 0.0078168;
  S.TimeMajor = true;
  S.Batches = 2;
  ref_lstm_params P = paramsOf(makeLstm(S).B.G);
  CHECK(P.cell_tanh_multiplier == 6);
  CHECK(P.cell_tanh_right_shift == 0);
  CHECK(P.cell_clip == 20480);
  CHECK(P.time_major == 1);
  CHECK(P.batches == 2);
  CHECK(P.forget_multiplier == 1 << 30);
  CHECK(P.forget_left_shift == -14);
  CHECK(P.update_left_shift == -18);
  const auto Out =
      expectedMultiplier(std::ldexp(1.0, -30) / double(S.HiddenScale));
  CHECK(P.output_multiplier == Out.first);
  CHECK(P.output_left_shift == Out.second);

  S.CellScale = 1.0f / 65536; // 2^-16: shifted right by 4, rounding
  S.CellClip = 1.0f;          // 65536 saturates to 32767
  P = paramsOf(makeLstm(S).B.G);
  CHECK(P.cell_tanh_multiplier == 3);
  CHECK(P.cell_tanh_right_shift == 4);
  CHECK(P.cell_clip == 32767);

  S.CellClip = 0.0f;
  CHECK(paramsOf(makeLstm(S).B.G).cell_clip == -1);

  S.Float = true;
  S.CellClip = 2.5f;
  P = paramsOf(makeLstm(S).B.G);
  CHECK(P.cell_clip_f == 2.5f);
  CHECK(P.state_size == 5);
}

TEST_CASE("malformed LSTMs give their own errors") {
  const std::string Op = "operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): ";
  auto Broken = [](auto Damage, LstmShape S = {}) {
    LstmGraph L = makeLstm(S);
    Damage(L);
    return kernelError(L.B.G);
  };
  auto Ops = [](LstmGraph &L) -> std::vector<int32_t> & {
    return L.B.G.Operators[0].Inputs;
  };
  CHECK(Broken([](LstmGraph &) {}) == "");
  CHECK(Broken([&](LstmGraph &L) { Ops(L).resize(20); }) ==
        Op + "20 inputs; the operator has 24");
  CHECK(Broken([&](LstmGraph &L) { Ops(L)[10] = Ops(L)[5]; }) ==
        Op + "input 10 is present, but peephole weights (inputs 9-11) are "
             "not supported: TensorFlow Lite Micro's kernel runs the "
             "standard LSTM only");
  CHECK(Broken([&](LstmGraph &L) { Ops(L)[16] = Ops(L)[5]; }) ==
        Op + "input 16 is present, but the projection weights and bias "
             "(inputs 16-17) are not supported: TensorFlow Lite Micro's "
             "kernel runs the standard LSTM only");
  CHECK(Broken([&](LstmGraph &L) { Ops(L)[23] = Ops(L)[12]; }) ==
        Op + "input 23 is present, but layer normalisation coefficients "
             "(inputs 20-23) are not supported: TensorFlow Lite Micro's "
             "kernel runs the standard LSTM only");
  CHECK(Broken([&](LstmGraph &L) { Ops(L)[1] = Ops(L)[5] = -1; }) ==
        Op + "the input gate's weights (inputs 1 and 5) are missing: the "
             "coupled input and forget gate (CIFG) is not supported");
  CHECK(Broken([&](LstmGraph &L) { Ops(L)[14] = -1; }) ==
        Op + "input 14 is missing");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Cell].IsVariable = false;
        }) == Op + "state tensor 't" + std::to_string(makeLstm({}).Cell) +
                  "' must be a variable tensor without data (the kernel "
                  "updates it in place)");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Cell].Type = ir::DType::I8;
        }) == Op + "cell state 't" + std::to_string(makeLstm({}).Cell) +
                  "' is i8; with i8 activations the kernel needs i16");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[Ops(L)[7]].Shape = {5, 4};
        }) == Op + "cell gate's recurrent weights (input 7) 't" +
                  std::to_string(makeLstm({}).Operands[7]) +
                  "' has shape 5x4; expected 5x5");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[Ops(L)[2]].Quant->ZeroPoints = {3};
        }) == Op + "weights 't" + std::to_string(makeLstm({}).Operands[2]) +
                  "' have zero point 3; int8 weights must be symmetric");
  CHECK(Broken([&](LstmGraph &L) {
          ir::QuantParams &Q = *L.B.G.Tensors[Ops(L)[3]].Quant;
          Q.Scales.assign(5, 0.01f);
          Q.ZeroPoints.assign(5, 0);
        }) == Op + "weights tensor 't" +
                  std::to_string(makeLstm({}).Operands[3]) +
                  "' has 5 scales; the kernel needs one per tensor");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Operators[0].setAttr(ir::attr::FusedActivation,
                                     std::string("RELU"));
        }) == Op + "the cell gate's activation is RELU; the kernel applies "
                   "TANH only");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Operators[0].setAttr(ir::attr::CellClip, -1.0);
        }) == Op + "cell clip -1 must be a finite non-negative number (0: "
                   "none)");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Cell].Quant->Scales = {0.0003f};
        }) == Op + "cell state 't" + std::to_string(makeLstm({}).Cell) +
                  "' has scale 0.0003; the kernel's tanh needs a power of "
                  "two");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Output].Quant->ZeroPoints = {0};
        }) == Op + "output quantization (scale 0.0078125, zero point 0) "
                   "differs from the hidden state's (scale 0.0078125, zero "
                   "point -3); the kernel copies the hidden state to the "
                   "output");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Output].Shape = {1, 3, 4};
        }) == Op + "output 't" + std::to_string(makeLstm({}).Output) +
                  "' has shape 1x3x4; expected 1x3x5");
  // A rescaling whose shift leaves the kernels' range (a recurrent weight
  // scale of 1e36: 0.0078125 * 1e36 * 4096 needs a left shift of 125),
  // which the reference would shift by undefined amounts.
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[Ops(L)[6]].Quant->Scales = {1e36f};
        }) == Op + "gate 1's recurrent rescaling = 3.2e+37 needs a left "
                   "shift of 125; the kernels take -31 to 30 (the "
                   "quantization scales are out of range)");
  // Hybrid: float activations with int8 weights.
  LstmShape F;
  F.Float = true;
  CHECK(Broken(
            [&](LstmGraph &L) {
              ir::Tensor &W = L.B.G.Tensors[Ops(L)[1]];
              W.Type = ir::DType::I8;
              W.Data.resize(20);
            },
            F) == Op + "'t" + std::to_string(makeLstm(F).Operands[1]) +
                      "' is i8; with f32 activations the kernel needs f32");
}

TEST_CASE("malformed 16x8 LSTMs give their own errors") {
  const std::string Op = "operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): ";
  LstmShape W;
  W.Wide = true;
  W.InScale = 1.0f / 4096;
  W.HiddenScale = 1.0f / 32768;
  auto Broken = [&](auto Damage) {
    LstmGraph L = makeLstm(W);
    Damage(L);
    return kernelError(L.B.G);
  };
  const LstmGraph Good = makeLstm(W);
  auto Name = [&](int32_t Operand) {
    return "'t" + std::to_string(Good.Operands[size_t(Operand)]) + "'";
  };
  CHECK(Broken([](LstmGraph &) {}) == "");
  CHECK(Broken([&](LstmGraph &L) {
          ir::Tensor &B = L.B.G.Tensors[L.Operands[13]];
          B.Type = ir::DType::I32;
          B.Data.resize(B.Data.size() / 2);
        }) == Op + Name(13) + " is i32; with i16 activations the kernel "
                              "needs i64");
  CHECK(Broken([&](LstmGraph &L) {
          ir::Tensor &T = L.B.G.Tensors[L.Operands[6]];
          T.Type = ir::DType::I16;
          T.Data.resize(T.Data.size() * 2);
        }) == Op + Name(6) + " is i16; with i16 activations the kernel "
                             "needs i8");
  // The 64-bit multiplication takes left shifts up to 7: a real multiplier
  // of at least 128 is refused (2^-12 * 0.25 * 2^12 * 2^8 = 64 passes,
  // twice that does not).
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Operands[1]].Quant->Scales = {64.0f};
        }) == "");
  CHECK(Broken([&](LstmGraph &L) {
          L.B.G.Tensors[L.Operands[1]].Quant->Scales = {128.0f};
        }) == Op + "gate 0's input rescaling = 128 needs a left shift of 8; "
                   "the kernels take -31 to 7 (the quantization scales are "
                   "out of range)");
  // A bias beyond 2^47 less the largest dot product (4 features: 2^24).
  auto BiasOf = [&](int64_t V) {
    return [V](LstmGraph &L) {
      ir::Tensor &B = L.B.G.Tensors[L.Operands[15]];
      for (int I = 0; I < 8; ++I)
        B.Data[size_t(8 + I)] = uint8_t(uint64_t(V) >> (8 * I));
    };
  };
  const int64_t Room = (int64_t(1) << 47) - (int64_t(1) << 24);
  CHECK(Broken(BiasOf(Room - 1)) == "");
  CHECK(Broken(BiasOf(-Room)) ==
        Op + "bias " + Name(15) + " holds " + std::to_string(-Room) +
            ": with 4 products per sum the sum could pass 2^47, beyond the "
            "16x8 requantization's range");
}

TEST_CASE("the int8 kernel computes what the reference's structure does") {
  LstmShape S;
  SUBCASE("batch-major, one batch") { checkAgainstReference(S); }
  SUBCASE("batch-major, three batches, clipped") {
    S.Batches = 3;
    S.CellClip = 0.5f;
    checkAgainstReference(S);
  }
  SUBCASE("time-major, two batches, coarse cell scale") {
    S.TimeMajor = true;
    S.Batches = 2;
    S.Steps = 6;
    S.CellScale = 1.0f / 2048;
    checkAgainstReference(S);
  }
  SUBCASE("fine cell scale, wide layer") {
    S.CellScale = 1.0f / 65536;
    S.Units = 17;
    S.Features = 9;
    S.InZp = -128;
    checkAgainstReference(S);
  }
}

TEST_CASE("the float32 kernel computes what the reference's structure does") {
  LstmShape S;
  S.Float = true;
  SUBCASE("batch-major") { checkAgainstReference(S); }
  SUBCASE("time-major, two batches, clipped") {
    S.TimeMajor = true;
    S.Batches = 2;
    S.CellClip = 0.4f;
    checkAgainstReference(S);
  }
}

TEST_CASE("the shared model's LSTM layer matches the reference's structure") {
  llvm::SmallString<256> Path(test::sharedDir());
  llvm::sys::path::append(Path, "models", "tflm_mnist_lstm_int8.tflite");
  auto M = tflite::importModelFile(Path);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  const ir::Graph &Full = M->Model->main();
  // Operator 0 alone, on seeds 1 to 3.
  ir::Graph G = Full;
  G.Operators.resize(1);
  const ir::Operator &Op = G.Operators[0];
  REQUIRE(Op.Type == "UNIDIRECTIONAL_SEQUENCE_LSTM");
  const ref_lstm_params P = paramsOf(G);
  LstmShape S;
  S.Batches = P.batches;
  S.Steps = P.time_steps;
  S.Features = P.input_size;
  S.Units = P.state_size;
  for (int Seed = 1; Seed <= 3; ++Seed) {
    INFO("seed " << Seed);
    llvm::SmallString<256> In(test::sharedDir());
    llvm::sys::path::append(In, "vectors", "tflm_mnist_lstm_int8",
                            "seed" + std::to_string(Seed), "input_0.bin");
    const std::vector<uint8_t> Bytes = readFileBytes(In);
    std::vector<int8_t> H(size_t(S.Batches) * S.Units,
                          int8_t(G.tensor(Op.Inputs[18]).Quant->zeroPoint()));
    std::vector<int16_t> C(H.size(), 0);
    const std::vector<int8_t> Want = referenceLstm<int8_t, int16_t>(
        G, S, P, valuesOf<int8_t>(Bytes), H, C, sigmoidTable());
    const std::vector<uint8_t> Got = runSingle(G, {{Op.Inputs[0], Bytes}});
    CHECK(Got == bytesOf(Want));
  }
}

TEST_CASE("time-major equals batch-major on the transposed sequence") {
  for (bool Float : {false, true}) {
    const std::string Kind = Float ? "float32" : "int8";
    INFO(Kind);
    LstmShape S;
    S.Float = Float;
    S.Batches = 2;
    S.Steps = 4;
    LstmGraph BatchMajor = makeLstm(S, 99);
    S.TimeMajor = true;
    LstmGraph TimeMajor = makeLstm(S, 99);
    const size_t Elem = Float ? 4 : 1;
    Random R;
    std::vector<uint8_t> X(size_t(S.Batches) * S.Steps * S.Features * Elem);
    for (size_t I = 0; I < X.size(); I += Elem) {
      if (Float) {
        const float V = R.real(-2.0f, 2.0f);
        std::memcpy(&X[I], &V, 4);
      } else {
        X[I] = uint8_t(R.in(0, 255));
      }
    }
    // [b][t][f] -> [t][b][f].
    auto Transpose = [&](const std::vector<uint8_t> &In, int32_t Features) {
      std::vector<uint8_t> Out(In.size());
      const size_t Row = size_t(Features) * Elem;
      for (int32_t B = 0; B < S.Batches; ++B)
        for (int32_t T = 0; T < S.Steps; ++T)
          std::memcpy(&Out[(size_t(T) * S.Batches + B) * Row],
                      &In[(size_t(B) * S.Steps + T) * Row], Row);
      return Out;
    };
    std::vector<uint8_t> H1, C1, H2, C2;
    const auto Out1 = runKernel(BatchMajor, X, H1, C1);
    const auto Out2 = runKernel(TimeMajor, Transpose(X, S.Features), H2, C2);
    CHECK(Out2 == Transpose(Out1, S.Units));
    CHECK(H1 == H2);
    CHECK(C1 == C2);
  }
}

TEST_CASE("the state carries over from one run to the next") {
  LstmGraph L = makeLstm({});
  auto R = ModelRunner::create(L.B.G);
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  TensorBuffers B = R->initialBuffers();
  // The initial state: the hidden state's zero point, a zero cell.
  CHECK(B[L.Hidden] == std::vector<uint8_t>(5, uint8_t(int8_t(-3))));
  CHECK(B[L.Cell] == std::vector<uint8_t>(10, 0));
  B[L.Input] = std::vector<uint8_t>(12, 40);
  llvm::Error E = R->runOperator(0, B);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  const std::vector<uint8_t> First = B[L.Output];
  // The last step's output is the new hidden state.
  CHECK(std::vector<uint8_t>(First.end() - 5, First.end()) == B[L.Hidden]);
  E = R->runOperator(0, B);
  REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
  CHECK(B[L.Output] != First);
}
