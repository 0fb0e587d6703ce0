//===- ExampleReference.cpp - An independent evaluation of the example ----===//
//
// TensorFlow Lite's int8 arithmetic for the example's operators, written
// from its specification (quantized multipliers with round-half-away
// doubling high multiplication and round-to-nearest shifts, per-channel
// convolution, rounding average pooling, per-tensor fully connected) rather
// than shared with lib/kernels, and softmax in double precision.
//
//===----------------------------------------------------------------------===//
#include "ExampleReference.h"

#include "ir/OpCode.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;

namespace accelgen {
namespace example {
namespace {

/// A real multiplier as a Q31 value and a power-of-two exponent.
struct Multiplier {
  int32_t Q31 = 0;
  int Exponent = 0;
};

Multiplier toMultiplier(double Real) {
  Multiplier M;
  if (Real == 0)
    return M;
  double Fraction = std::frexp(Real, &M.Exponent); // in [0.5, 1)
  int64_t Q = static_cast<int64_t>(std::round(Fraction * 2147483648.0));
  if (Q == (int64_t(1) << 31)) {
    Q /= 2;
    ++M.Exponent;
  }
  if (M.Exponent < -31)
    return Multiplier();
  M.Q31 = static_cast<int32_t>(Q);
  return M;
}

/// (A * B) / 2^31, rounded half away from zero, saturating the one overflow.
int32_t doublingHighMul(int32_t A, int32_t B) {
  if (A == B && A == std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::max();
  int64_t Product = int64_t(A) * int64_t(B);
  int64_t Nudge = Product >= 0 ? (int64_t(1) << 30) : 1 - (int64_t(1) << 30);
  return static_cast<int32_t>((Product + Nudge) / (int64_t(1) << 31));
}

/// X / 2^Shift rounded to nearest, ties away from zero.
int32_t roundingShiftRight(int32_t X, int Shift) {
  int32_t Mask = static_cast<int32_t>((int64_t(1) << Shift) - 1);
  int32_t Remainder = X & Mask;
  int32_t Threshold = (Mask >> 1) + (X < 0 ? 1 : 0);
  return (X >> Shift) + (Remainder > Threshold ? 1 : 0);
}

int32_t applyMultiplier(int32_t X, Multiplier M) {
  int Left = M.Exponent > 0 ? M.Exponent : 0;
  int Right = M.Exponent > 0 ? 0 : -M.Exponent;
  return roundingShiftRight(doublingHighMul(X * (1 << Left), M.Q31), Right);
}

template <typename T> std::vector<T> constantData(const ir::Tensor &Tensor) {
  std::vector<T> V(Tensor.Data.size() / sizeof(T));
  std::memcpy(V.data(), Tensor.Data.data(), V.size() * sizeof(T));
  return V;
}

float scaleOf(const ir::Tensor &T, size_t Channel = 0) {
  return T.Quant->Scales.size() > 1 ? T.Quant->Scales[Channel]
                                    : T.Quant->Scales.front();
}

int32_t zeroPointOf(const ir::Tensor &T) {
  return static_cast<int32_t>(T.Quant->zeroPoint());
}

/// The int8 output range of a fused activation.
std::pair<int32_t, int32_t> activationRange(const ir::Operator &Op,
                                            const ir::Tensor &Out) {
  std::string Act = Op.getString(ir::attr::FusedActivation, "NONE");
  int32_t Lo = -128, Hi = 127, Zp = zeroPointOf(Out);
  auto Quantize = [&](float X) {
    return Zp + static_cast<int32_t>(std::round(X / scaleOf(Out)));
  };
  if (Act == "RELU" || Act == "RELU6")
    Lo = std::max(Lo, Quantize(0.0f));
  if (Act == "RELU6")
    Hi = std::min(Hi, Quantize(6.0f));
  return {Lo, Hi};
}

/// The leading padding of a window of \p Filter (dilated) along an axis.
int padding(const ir::Operator &Op, int In, int Out, int Stride, int Filter,
            int Dilation) {
  if (Op.getString(ir::attr::Padding) != "SAME")
    return 0;
  int Total = (Out - 1) * Stride + (Filter - 1) * Dilation + 1 - In;
  return std::max(Total / 2, 0);
}

int8_t saturate(int32_t X, std::pair<int32_t, int32_t> Range) {
  return static_cast<int8_t>(std::min(std::max(X, Range.first), Range.second));
}

class Evaluator {
public:
  Evaluator(const ir::Graph &G) : G(G), Values(G.Tensors.size()) {}

  Expected<std::vector<std::vector<int8_t>>>
  run(const std::vector<int8_t> &Input) {
    Values[G.Inputs.at(0)] = Input;
    for (const ir::Operator &Op : G.Operators) {
      switch (Op.code()) {
      case ir::OpCode::Conv2D:
        convolution(Op, /*Depthwise=*/false);
        break;
      case ir::OpCode::DepthwiseConv2D:
        convolution(Op, /*Depthwise=*/true);
        break;
      case ir::OpCode::AveragePool2D:
        averagePool(Op);
        break;
      case ir::OpCode::Reshape:
        Values[Op.Outputs[0]] = Values[Op.Inputs[0]];
        break;
      case ir::OpCode::FullyConnected:
        fullyConnected(Op);
        break;
      case ir::OpCode::Softmax:
        softmax(Op);
        break;
      default:
        return createStringError(inconvertibleErrorCode(),
                                 "the reference does not evaluate " + Op.Type);
      }
    }
    return std::move(Values);
  }

private:
  const ir::Graph &G;
  std::vector<std::vector<int8_t>> Values;

  /// CONV_2D ([out, kh, kw, in] filter) or DEPTHWISE_CONV_2D ([1, kh, kw,
  /// channels] filter, multiplier 1), per-channel weights, NHWC, batch 1.
  void convolution(const ir::Operator &Op, bool Depthwise) {
    const ir::Tensor &In = G.tensor(Op.Inputs[0]), &W = G.tensor(Op.Inputs[1]),
                     &Out = G.tensor(Op.Outputs[0]);
    const std::vector<int8_t> &X = Values[Op.Inputs[0]];
    std::vector<int8_t> Wt = constantData<int8_t>(W);
    std::vector<int32_t> Bias = constantData<int32_t>(G.tensor(Op.Inputs[2]));
    int IH = In.Shape[1], IW = In.Shape[2], IC = In.Shape[3];
    int OH = Out.Shape[1], OW = Out.Shape[2], OC = Out.Shape[3];
    int KH = W.Shape[1], KW = W.Shape[2];
    int SH = Op.getInt(ir::attr::StrideH), SW = Op.getInt(ir::attr::StrideW);
    int DH = Op.getInt(ir::attr::DilationH, 1),
        DW = Op.getInt(ir::attr::DilationW, 1);
    int PadH = padding(Op, IH, OH, SH, KH, DH),
        PadW = padding(Op, IW, OW, SW, KW, DW);
    int32_t InZp = zeroPointOf(In), OutZp = zeroPointOf(Out);
    auto Range = activationRange(Op, Out);
    std::vector<int8_t> Y(size_t(OH) * OW * OC);
    for (int OY = 0; OY < OH; ++OY)
      for (int OX = 0; OX < OW; ++OX)
        for (int C = 0; C < OC; ++C) {
          int32_t Acc = 0;
          for (int KY = 0; KY < KH; ++KY)
            for (int KX = 0; KX < KW; ++KX) {
              int IY = OY * SH - PadH + KY * DH, IX = OX * SW - PadW + KX * DW;
              if (IY < 0 || IY >= IH || IX < 0 || IX >= IW)
                continue; // padding holds the input zero point: adds nothing
              for (int I = Depthwise ? C : 0; I < (Depthwise ? C + 1 : IC);
                   ++I) {
                int32_t XV = X[(size_t(IY) * IW + IX) * IC + I] - InZp;
                int32_t WV = Depthwise ? Wt[(KY * KW + KX) * OC + C]
                                       : Wt[((C * KH + KY) * KW + KX) * IC + I];
                Acc += XV * WV;
              }
            }
          Acc += Bias[C];
          Multiplier M =
              toMultiplier(double(scaleOf(In)) * double(scaleOf(W, C)) /
                           double(scaleOf(Out)));
          Y[(size_t(OY) * OW + OX) * OC + C] =
              saturate(applyMultiplier(Acc, M) + OutZp, Range);
        }
    Values[Op.Outputs[0]] = std::move(Y);
  }

  /// AVERAGE_POOL_2D: the mean of the window's inputs inside the image,
  /// rounded half away from zero; input and output share quantization.
  void averagePool(const ir::Operator &Op) {
    const ir::Tensor &In = G.tensor(Op.Inputs[0]),
                     &Out = G.tensor(Op.Outputs[0]);
    const std::vector<int8_t> &X = Values[Op.Inputs[0]];
    int IH = In.Shape[1], IW = In.Shape[2], C = In.Shape[3];
    int OH = Out.Shape[1], OW = Out.Shape[2];
    int FH = Op.getInt(ir::attr::FilterH), FW = Op.getInt(ir::attr::FilterW);
    int SH = Op.getInt(ir::attr::StrideH), SW = Op.getInt(ir::attr::StrideW);
    int PadH = padding(Op, IH, OH, SH, FH, 1),
        PadW = padding(Op, IW, OW, SW, FW, 1);
    auto Range = activationRange(Op, Out);
    std::vector<int8_t> Y(size_t(OH) * OW * C);
    for (int OY = 0; OY < OH; ++OY)
      for (int OX = 0; OX < OW; ++OX)
        for (int Ch = 0; Ch < C; ++Ch) {
          int32_t Sum = 0, Count = 0;
          for (int FY = 0; FY < FH; ++FY)
            for (int FX = 0; FX < FW; ++FX) {
              int IY = OY * SH - PadH + FY, IX = OX * SW - PadW + FX;
              if (IY < 0 || IY >= IH || IX < 0 || IX >= IW)
                continue;
              Sum += X[(size_t(IY) * IW + IX) * C + Ch];
              ++Count;
            }
          int32_t Mean =
              Sum > 0 ? (Sum + Count / 2) / Count : (Sum - Count / 2) / Count;
          Y[(size_t(OY) * OW + OX) * C + Ch] = saturate(Mean, Range);
        }
    Values[Op.Outputs[0]] = std::move(Y);
  }

  /// FULLY_CONNECTED: [units, depth] weights, per tensor, symmetric.
  void fullyConnected(const ir::Operator &Op) {
    const ir::Tensor &In = G.tensor(Op.Inputs[0]), &W = G.tensor(Op.Inputs[1]),
                     &Out = G.tensor(Op.Outputs[0]);
    const std::vector<int8_t> &X = Values[Op.Inputs[0]];
    std::vector<int8_t> Wt = constantData<int8_t>(W);
    std::vector<int32_t> Bias = constantData<int32_t>(G.tensor(Op.Inputs[2]));
    int Units = W.Shape[0], Depth = W.Shape[1];
    int32_t InZp = zeroPointOf(In), OutZp = zeroPointOf(Out);
    Multiplier M = toMultiplier(double(scaleOf(In)) * double(scaleOf(W)) /
                                double(scaleOf(Out)));
    auto Range = activationRange(Op, Out);
    std::vector<int8_t> Y(Units);
    for (int U = 0; U < Units; ++U) {
      int32_t Acc = Bias[U];
      for (int D = 0; D < Depth; ++D)
        Acc += (X[D] - InZp) * int32_t(Wt[size_t(U) * Depth + D]);
      Y[U] = saturate(applyMultiplier(Acc, M) + OutZp, Range);
    }
    Values[Op.Outputs[0]] = std::move(Y);
  }

  /// SOFTMAX over the last axis of a [1, N] tensor, in double precision.
  void softmax(const ir::Operator &Op) {
    const ir::Tensor &In = G.tensor(Op.Inputs[0]),
                     &Out = G.tensor(Op.Outputs[0]);
    const std::vector<int8_t> &X = Values[Op.Inputs[0]];
    double Beta = Op.getFloat(ir::attr::Beta, 1.0);
    int8_t Max = *std::max_element(X.begin(), X.end());
    std::vector<double> E;
    double Sum = 0;
    for (int8_t V : X) {
      E.push_back(std::exp(Beta * double(scaleOf(In)) * (V - Max)));
      Sum += E.back();
    }
    std::vector<int8_t> Y;
    for (double V : E)
      Y.push_back(saturate(zeroPointOf(Out) + static_cast<int32_t>(std::round(
                                                  V / Sum / scaleOf(Out))),
                           {-128, 127}));
    Values[Op.Outputs[0]] = std::move(Y);
  }
};

} // namespace

Expected<std::vector<std::vector<int8_t>>>
evaluate(const ir::Graph &G, const std::vector<int8_t> &Input) {
  return Evaluator(G).run(Input);
}

} // namespace example
} // namespace accelgen
