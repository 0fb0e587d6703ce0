//===- CmsisNn.cpp - Operators as CMSIS-NN calls --------------------------===//
//
// For each operator, the target's description decides (legality, then the
// mapping whose target operator is named after the arm_* function); the
// parameters come from the reference kernels' builders (computeKernelCall),
// which fill them as TensorFlow Lite Micro does, and are printed as CMSIS-NN
// structs. The scratch size of each call is the description's (its Scratch
// records, CMSIS-NN 7.0's *_get_buffer_size functions as expressions), a
// buffer of the memory plan live while the call runs.
//
//===----------------------------------------------------------------------===//
#include "cmsis-nn/CmsisNn.h"

#include "emit/CLiteral.h"
#include "emit/TemplateRender.h"
#include "ir/Placement.h"
#include "kernels/KernelParams.h"
#include "kernels/c/ref_fixedpoint.h"
#include "plan/MemoryPlan.h"
#include "target/OpSetup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

using namespace llvm;

namespace accelgen {
namespace emit {
/// targets/cmsis-nn/templates/*.in, compiled in (EmbedFiles.cmake).
llvm::ArrayRef<EmbeddedFile> cortexMTemplateFiles();
} // namespace emit
} // namespace accelgen

namespace accelgen {
namespace cmsis {

namespace {

// The BBC micro:bit (QEMU's only Cortex-M0 board, an nRF51822): 256 KiB of
// flash at 0 and 16 KiB of RAM at 0x20000000. The MPS2 boards: 4 MiB of
// SSRAM at 0 and at 0x20000000 (2 MiB used). The MPS3 AN547: 512 KiB ITCM
// at 0, where it boots, and 512 KiB DTCM at 0x20000000.
const CpuInfo Cpus[] = {
    {"cortex-m0", "3", "-mcpu=cortex-m0 -mthumb -mfloat-abi=soft", "microbit",
     0, 0x40000, 0x20000000, 0x4000},
    {"cortex-m3", "3", "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft", "mps2-an385",
     0, 0x400000, 0x20000000, 0x200000},
    {"cortex-m4", "4",
     "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16", "mps2-an386",
     0, 0x400000, 0x20000000, 0x200000},
    {"cortex-m55", "55", "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard",
     "mps3-an547", 0, 0x80000, 0x20000000, 0x80000},
};

/// A cmsis_nn_dims initializer {n, h, w, c}.
std::string dims(int64_t N, int64_t H, int64_t W, int64_t C) {
  return formatv("{{{0}, {1}, {2}, {3}}", N, H, W, C).str();
}

/// Dimension \p I of tensor \p T, 1 past its rank.
int64_t dim(const ir::Tensor &T, size_t I) {
  return I < T.Shape.size() ? T.Shape[I] : 1;
}

/// Appends "static const int32_t NAME[N] = {...};" to \p OS.
void int32Array(raw_ostream &OS, StringRef Name, ArrayRef<int32_t> Values) {
  OS << "static const int32_t " << Name << "["
     << std::max<size_t>(1, Values.size()) << "] = {";
  for (size_t I = 0; I < Values.size(); ++I) {
    OS << (I % 8 == 0 ? "\n    " : " ") << emit::intLiteral(Values[I])
       << (I + 1 < Values.size() ? "," : "");
  }
  if (Values.empty())
    OS << "0";
  OS << "};\n";
}

/// "(int8_t *)(arena.bytes + 64)": where \p B, a tensor's arena slot, is.
std::string arenaPtr(const plan::Buffer &B, bool Const,
                     StringRef CType = "int8_t") {
  return formatv("({0}{1} *)(arena.bytes + {2})", Const ? "const " : "", CType,
                 B.Offset)
      .str();
}

/// Writes constant tensor \p T as "static const TYPE NAME[] = {...};".
void constantArray(raw_ostream &OS, const ir::Tensor &T, StringRef Name) {
  OS << "static const " << emit::cType(T.Type) << " " << Name << "["
     << std::max<int64_t>(1, T.numElements()) << "] = {\n";
  std::string Data;
  raw_string_ostream DS(Data);
  emit::writeInitializer(DS, T.Type, T.Data, "    ");
  DS.flush();
  OS << (Data.empty() ? std::string("    0\n") : Data) << "};\n";
}

/// The per-channel multipliers and shifts of a convolution's parameters, one
/// per output channel (a per-tensor one repeated).
template <typename P>
void perChannel(const P &Params, int64_t Channels, std::vector<int32_t> &Mult,
                std::vector<int32_t> &Shift) {
  if (!Params.per_channel_multiplier.empty()) {
    Mult = Params.per_channel_multiplier;
    Shift = Params.per_channel_left_shift;
    return;
  }
  Mult.assign(Channels, Params.Scalars.output_multiplier);
  Shift.assign(Channels, Params.Scalars.output_left_shift);
}

std::string activation(int32_t Min, int32_t Max) {
  return formatv(".activation = {{.min = {0}, .max = {1}}", Min, Max).str();
}

/// Renders targets/cmsis-nn/templates/\p Name with \p B.
Expected<std::string> renderCortexM(StringRef Name, tmpl::Bindings &B) {
  const std::string Path = ("targets/cmsis-nn/templates/" + Name).str();
  return emit::renderTemplateIn(emit::cortexMTemplateFiles(), Path, B);
}

/// A generated kernel of a layer as a template renders it in parts (PART):
/// the layer's constant arrays, the function that takes them, and that
/// function with a placeholder for its name, which layers that differ in
/// their constants alone share.
struct KernelText {
  std::string Data, Code, Key;
};

/// Renders template \p Name in its parts, the function named \p Function.
Expected<KernelText> renderKernel(StringRef Name, tmpl::Bindings &B,
                                  StringRef Function) {
  KernelText K;
  for (auto [Part, Fn, Out] :
       {std::make_tuple("data", Function, &K.Data),
        std::make_tuple("code", Function, &K.Code),
        std::make_tuple("code", StringRef("@"), &K.Key)}) {
    B["PART"] = std::string(Part);
    B["FUNCTION"] = Fn.str();
    Expected<std::string> Text = renderCortexM(Name, B);
    if (!Text)
      return Text.takeError();
    *Out = std::move(*Text);
  }
  return K;
}

/// Comma-separated lines of C initializer, eight values to a line.
template <typename T, typename F>
std::string initializerLines(ArrayRef<T> Values, F Print) {
  std::string Out;
  for (size_t I = 0; I < Values.size(); ++I)
    Out += (I % 8 == 0 ? "    " : " ") + Print(Values[I]) +
           (I + 1 == Values.size() || I % 8 == 7 ? ",\n" : ",");
  return Out;
}

/// The words of PARAMS per output channel (PARAM_WORDS in the templates).
constexpr int64_t ParamWords = 3;

/// PARAMS of the generated kernels (templates/cm_*_dsp.c.in), ParamWords
/// per output channel c: the bias with the input offset times the weights'
/// sum \p Sum folded in (modulo 2^32, as the accumulators wrap), the
/// multiplier, then for \p Fast the right shift less one (-1 for none),
/// else TensorFlow Lite's shift. \p Fast: no shift is a left shift (0 to 31
/// to the right), so the kernels compute the reference's doubling high
/// multiply v as floor((acc * multiplier + 2^30) / 2^31) and its rounding
/// shift by s as (((v - (v < 0)) >> (s - 1)) + 1) >> 1, which equals
/// floor((v - (v < 0) + 2^(s-1)) / 2^s); otherwise cm_requantize. \p Wide:
/// with \p Fast, some accumulator (its range from the bias, the weights'
/// sum \p Sum and sum of magnitudes \p Abs and the input's) times two can
/// leave int32, so the product takes 64 bits (otherwise SMMULR of twice the
/// accumulator). \p ZeroShift: with \p Fast, some channel has no right
/// shift (the kernels skip its rounding shift). With \p ConstantChannels
/// (per-channel multipliers), a channel whose weights are all 0 is left out
/// of those conditions and, with \p Fast, given parameters that make its
/// fixed result r: {2r, 2^31 - 1, 0}, a multiply that keeps the sum 2r (at
/// most 1,024 in magnitude) and a rounding shift by 1 that halves it.
std::vector<int32_t>
generatedParams(ArrayRef<int32_t> Bias, ArrayRef<int64_t> Sum,
                ArrayRef<int64_t> Abs, ArrayRef<int32_t> Mult,
                ArrayRef<int32_t> Shift, int32_t InputOffset, bool &Fast,
                bool &Wide, bool &ZeroShift, bool ConstantChannels) {
  // A channel of weights all 0 (dead channels, often with a bias of 2^30)
  // has a fixed result, computed here when \p ConstantChannels.
  auto Constant = [&](size_t Ch) { return ConstantChannels && Abs[Ch] == 0; };
  Fast = true;
  Wide = ZeroShift = false;
  // The input plus its offset lies in [Lo, Hi]; a channel's accumulator
  // in [bias + Lo * Pos + Hi * Neg, bias + Hi * Pos + Lo * Neg], Pos and Neg
  // the sums of its positive and of its negative weights.
  const int64_t Lo = -128 + int64_t(InputOffset),
                Hi = 127 + int64_t(InputOffset);
  for (size_t Ch = 0; Ch < Bias.size(); ++Ch) {
    if (Constant(Ch))
      continue;
    Fast = Fast && Shift[Ch] <= 0 && Shift[Ch] >= -31 && Mult[Ch] >= 0;
    const int64_t Pos = (Sum[Ch] + Abs[Ch]) / 2, Neg = (Sum[Ch] - Abs[Ch]) / 2;
    const int64_t A = Lo * Pos + Hi * Neg, B = Hi * Pos + Lo * Neg;
    Wide = Wide || Bias[Ch] + std::min(A, B) < -(int64_t(1) << 30) ||
           Bias[Ch] + std::max(A, B) >= (int64_t(1) << 30);
    ZeroShift = ZeroShift || Shift[Ch] == 0;
  }
  Wide = Wide && Fast;
  ZeroShift = ZeroShift && Fast;
  std::vector<int32_t> Params;
  for (size_t Ch = 0; Ch < Bias.size(); ++Ch) {
    if (Fast && Constant(Ch)) {
      const int32_t Result = std::clamp(
          ref_multiply_by_quantized_multiplier(Bias[Ch], Mult[Ch], Shift[Ch]),
          -512, 512);
      Params.insert(Params.end(), {2 * Result, INT32_MAX, 0});
      continue;
    }
    Params.push_back(static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<int64_t>(Bias[Ch]) + InputOffset * Sum[Ch])));
    Params.push_back(Mult[Ch]);
    Params.push_back(Fast ? -Shift[Ch] - 1 : Shift[Ch]);
  }
  return Params;
}

/// Whether the kernels add the output offset inside the rounding shift
/// (generatedParams'): ((x + 1 + 2 * offset) >> 1) is ((x + 1) >> 1) +
/// offset, exact, and with SMMULR (\p Fast, not \p Wide: |v| < 2^30) it
/// cannot overflow; not where a channel has no right shift (\p ZeroShift).
bool foldsOutputOffset(int32_t OutputOffset, bool Fast, bool Wide,
                       bool ZeroShift) {
  return Fast && !Wide && !ZeroShift && OutputOffset >= -128 &&
         OutputOffset <= 127;
}

/// What both generated kernels read of a layer's quantization: the constant
/// bias (zeros when there is none) and the per-channel multipliers and
/// shifts, for \p Channels output channels.
struct ChannelQuant {
  std::vector<int32_t> Bias, Mult, Shift;
};

/// The ChannelQuant of operator \p Index with parameters \p P; an error
/// when its bias is computed at run time.
template <typename Params>
Expected<ChannelQuant> channelQuant(const ir::Graph &G, size_t Index,
                                    const Params &P, int64_t Channels) {
  const ir::Operator &Op = G.Operators[Index];
  ChannelQuant Q;
  Q.Bias.assign(Channels, 0);
  if (Op.Inputs.size() > 2 && Op.Inputs[2] >= 0) {
    const ir::Tensor &B = G.tensor(Op.Inputs[2]);
    if (!B.IsConstant || B.Data.size() != static_cast<size_t>(4 * Channels))
      return createStringError(inconvertibleErrorCode(),
                               "operator %zu (%s): no constant int32 bias per "
                               "channel for the generated kernel",
                               Index, Op.Type.c_str());
    std::memcpy(Q.Bias.data(), B.Data.data(), 4 * Channels);
  }
  perChannel(P, Channels, Q.Mult, Q.Shift);
  return Q;
}

/// A filter's rows as the generated kernels store them, with what
/// generatedParams needs of each.
struct PaddedRows {
  /// \p Rows rows of K values, each padded with zeros to K4; with Pairs,
  /// the rows of each pair interleaved four values at a time (the word of
  /// row 2i, then that of row 2i + 1).
  std::vector<int32_t> Values;
  /// Per row, the sum of its values and of their magnitudes.
  std::vector<int64_t> Sum, Abs;
};

/// The PaddedRows of int8 filter \p F, \p Rows rows of \p K values.
PaddedRows paddedRows(const ir::Tensor &F, int64_t Rows, int64_t K, int64_t K4,
                      bool Pairs) {
  PaddedRows P;
  P.Sum.assign(Rows, 0);
  P.Abs.assign(Rows, 0);
  auto At = [&](int64_t Row, int64_t I) {
    return I < K
               ? static_cast<int32_t>(static_cast<int8_t>(F.Data[Row * K + I]))
               : int32_t(0);
  };
  for (int64_t Row = 0; Row < Rows; ++Row)
    for (int64_t I = 0; I < K; ++I) {
      P.Sum[Row] += At(Row, I);
      P.Abs[Row] += std::abs(At(Row, I));
    }
  const int64_t Group = Pairs ? 2 : 1;
  for (int64_t Row = 0; Row < Rows; Row += Group)
    for (int64_t I = 0; I < K4; I += 4)
      for (int64_t R = Row; R < Row + Group && R < Rows; ++R)
        for (int64_t J = I; J < I + 4; ++J)
          P.Values.push_back(At(R, J));
  return P;
}

/// Binds what the templates of the windowed kernels (cm_depthwise_dsp,
/// cm_convolve_dsp) share: IH IW IC of \p In, KH KW, OH OW OC of \p Out,
/// the strides SH SW, the padding PT PL, ZERO (the input's zero point),
/// OUTPUT_OFFSET and the clamp ACT_MIN ACT_MAX of \p S.
template <typename Params>
void bindWindow(tmpl::Bindings &B, const ir::Tensor &In, int64_t KH, int64_t KW,
                const ir::Tensor &Out, const Params &S) {
  for (auto [Key, V] : {std::pair<const char *, int64_t>{"IH", dim(In, 1)},
                        {"IW", dim(In, 2)},
                        {"IC", dim(In, 3)},
                        {"KH", KH},
                        {"KW", KW},
                        {"OH", dim(Out, 1)},
                        {"OW", dim(Out, 2)},
                        {"OC", dim(Out, 3)},
                        {"SH", S.stride_h},
                        {"SW", S.stride_w},
                        {"PT", S.pad_top},
                        {"PL", S.pad_left},
                        {"ZERO", -S.input_offset},
                        {"OUTPUT_OFFSET", S.output_offset},
                        {"ACT_MIN", S.act_min},
                        {"ACT_MAX", S.act_max}})
    B[Key] = V;
}

/// Binds what both generated depthwise kernels (cm_depthwise_dsp,
/// cm_depthwise_mve) share of a layer from \p In to \p Out through filter
/// \p F: STRIPE, COMMENT, bindWindow's, the padded rows' width \p PW and the
/// input columns \p Copy they hold.
void bindDepthwiseRows(tmpl::Bindings &B, const ir::Tensor &In,
                       const ir::Tensor &F, const ir::Tensor &Out,
                       const ref_depthwise_conv2d_params &S, bool Stripe,
                       int64_t PW, int64_t Copy) {
  B["STRIPE"] = Stripe;
  B["COMMENT"] =
      formatv("DEPTHWISE_CONV_2D {0}x{1}x{2} -> {3}x{4}x{5}, filter {6}x{7}, "
              "stride {8}x{9}, padding top {10} left {11}",
              dim(In, 1), dim(In, 2), dim(In, 3), dim(Out, 1), dim(Out, 2),
              dim(Out, 3), dim(F, 1), dim(F, 2), S.stride_h, S.stride_w,
              S.pad_top, S.pad_left)
          .str();
  bindWindow(B, In, dim(F, 1), dim(F, 2), Out, S);
  B["PW"] = PW;
  B["COPY"] = Copy;
}

/// The fully connected kernel's unroll: four rows of 32 values a chunk
/// (the loop's cost, two instructions in 92, is less than the flash 64
/// would take in every layer).
constexpr int64_t FcChunk = 32;

/// The sums' unroll of the generated kernels over \p N values (a multiple
/// of 4): N itself up to \p Max, otherwise the largest multiple of 4 up to
/// Max that divides N (4 at the least).
int64_t unrollChunk(int64_t N, int64_t Max = 64) {
  if (N <= Max)
    return std::max<int64_t>(N, 4);
  int64_t Chunk = Max;
  while (N % Chunk != 0)
    Chunk -= 4;
  return Chunk;
}

/// The generated depthwise kernel (templates/cm_depthwise_dsp.c.in) of
/// operator \p Index, an int8 DEPTHWISE_CONV_2D the description maps to it
/// (batch 1, no dilation, output channels in fours; depth multiplier 1, or
/// one input channel), as the
/// function \p Name needing \p Scratch bytes of scratch memory; \p Fast
/// tells whether it requantizes by SMMULR (else by cm_requantize), \p
/// OneChannel whether it takes one input channel (SMLAD). With \p Stripe
/// the function computes a stripe of output rows (a cascade's member).
Expected<KernelText>
generatedDepthwise(const ir::Graph &G, size_t Index,
                   const kernels::FamilyParams<ref_depthwise_conv2d_params> &P,
                   StringRef Name, int64_t Scratch, bool Stripe, bool Plain,
                   bool &Fast, bool &Wide, bool &OneChannel) {
  const ir::Operator &Op = G.Operators[Index];
  const ref_depthwise_conv2d_params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const int64_t IW = dim(In, 2), IC = dim(In, 3), KH = dim(F, 1),
                KW = dim(F, 2), OW = dim(Out, 2), OC = dim(Out, 3);
  // One input channel to several outputs, or depth multiplier 1.
  OneChannel = IC == 1 && OC > 1;
  const int64_t PW = (OW - 1) * S.stride_w + KW;
  const int64_t Copy =
      std::max<int64_t>(0, std::min<int64_t>(IW, PW - S.pad_left));
  // With one channel the last word of a row's taps reads up to 3 bytes on.
  const int64_t RowsBytes = KH * PW * IC + (OneChannel ? 3 : 0);
  if ((!OneChannel && S.depth_multiplier != 1) ||
      (OneChannel && S.depth_multiplier != OC) || OC % 4 != 0 ||
      dim(In, 0) != 1 || dim(F, 3) != OC || S.dilation_h != 1 ||
      S.dilation_w != 1 || S.pad_left > PW || Scratch < RowsBytes ||
      F.Data.size() != static_cast<size_t>(KH * KW * OC))
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: DEPTHWISE_CONV_2D outside the "
                             "generated kernel's cases",
                             Index);
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  // Weight of tap (ky, kx) for output channel Ch; 0 past the row.
  auto W = [&](int64_t Ky, int64_t Kx, int64_t Ch) {
    if (Kx >= KW)
      return 0;
    return static_cast<int32_t>(
        static_cast<int8_t>(F.Data[(Ky * KW + Kx) * OC + Ch]));
  };
  std::vector<int64_t> Sum(OC, 0), Abs(OC, 0);
  for (int64_t Ch = 0; Ch < OC; ++Ch)
    for (int64_t Ky = 0; Ky < KH; ++Ky)
      for (int64_t Kx = 0; Kx < KW; ++Kx) {
        Sum[Ch] += W(Ky, Kx, Ch);
        Abs[Ch] += std::abs(W(Ky, Kx, Ch));
      }
  bool ZeroShift = false;
  std::vector<int32_t> ChannelParams =
      generatedParams(Q->Bias, Sum, Abs, Q->Mult, Q->Shift, S.input_offset,
                      Fast, Wide, ZeroShift, /*ConstantChannels=*/true);
  // Where SMMULR takes twice the accumulator, the weights (halfwords) and
  // the folded biases are stored doubled: the sums come out doubled (not
  // in plain C, whose weights are bytes).
  const int32_t Scale = Fast && !Wide && !Plain ? 2 : 1;
  for (int64_t Ch = 0; Ch < OC; ++Ch)
    ChannelParams[ParamWords * Ch] = static_cast<int32_t>(
        static_cast<uint32_t>(ChannelParams[ParamWords * Ch]) *
        static_cast<uint32_t>(Scale));
  const bool Folded = foldsOutputOffset(S.output_offset, Fast, Wide, ZeroShift);
  auto Pair = [&](int32_t Low, int32_t High) {
    return static_cast<uint16_t>(Scale * Low) |
           static_cast<uint32_t>(static_cast<uint16_t>(Scale * High)) << 16;
  };
  std::vector<uint32_t> Words;
  tmpl::Value::List Taps;
  if (Plain || !OneChannel) {
    // Per tap: IN, its input byte in the padded rows (of the group's first
    // channel with depth multiplier 1); W, its weights' first byte (plain
    // C: four channels' bytes a tap) or word (two pairs of halfwords a tap)
    // in the group's.
    const int64_t PerTap = Plain ? 4 : 2;
    for (int64_t Ky = 0; Ky < KH; ++Ky)
      for (int64_t Kx = 0; Kx < KW; ++Kx)
        Taps.push_back(tmpl::Value(tmpl::Value::Map{
            {"IN", (Ky * PW + Kx) * IC}, {"W", (Ky * KW + Kx) * PerTap}}));
  }
  if (Plain) {
    // Per group of four output channels, per tap: the four channels'
    // weights as bytes.
    std::vector<uint8_t> Bytes;
    for (int64_t Ch = 0; Ch < OC; Ch += 4)
      for (int64_t Ky = 0; Ky < KH; ++Ky)
        for (int64_t Kx = 0; Kx < KW; ++Kx)
          for (int64_t C = Ch; C < Ch + 4; ++C)
            Bytes.push_back(static_cast<uint8_t>(W(Ky, Kx, C)));
    for (size_t I = 0; I < Bytes.size(); I += 4)
      Words.push_back(Bytes[I] | Bytes[I + 1] << 8 | Bytes[I + 2] << 16 |
                      static_cast<uint32_t>(Bytes[I + 3]) << 24);
  } else if (OneChannel) {
    // Per row ky and four taps kx .. kx + 3, per output channel: the
    // halfword pairs (kx, kx + 2) and (kx + 1, kx + 3).
    const int64_t Quads = (KW + 3) / 4;
    for (int64_t Ky = 0; Ky < KH; ++Ky)
      for (int64_t J = 0; J < Quads; ++J) {
        Taps.push_back(tmpl::Value(tmpl::Value::Map{
            {"IN", Ky * PW + 4 * J}, {"W", (Ky * Quads + J) * OC * 2}}));
        for (int64_t Ch = 0; Ch < OC; ++Ch)
          for (int64_t Odd = 0; Odd < 2; ++Odd)
            Words.push_back(
                Pair(W(Ky, 4 * J + Odd, Ch), W(Ky, 4 * J + Odd + 2, Ch)));
      }
  } else {
    // Per group of four channels, then per tap: the pairs (c0, c2) and
    // (c1, c3), so that a group's words are within reach of one load's
    // offset.
    for (int64_t Ch = 0; Ch < OC; Ch += 4)
      for (int64_t Ky = 0; Ky < KH; ++Ky)
        for (int64_t Kx = 0; Kx < KW; ++Kx)
          for (int64_t Odd = 0; Odd < 2; ++Odd)
            Words.push_back(Pair(W(Ky, Kx, Ch + Odd), W(Ky, Kx, Ch + Odd + 2)));
  }
  tmpl::Bindings B;
  B["FUNCTION"] = Name.str();
  bindDepthwiseRows(B, In, F, Out, S, Stripe, PW, Copy);
  B["WEIGHT_WORDS"] = static_cast<int64_t>(Words.size());
  B["ONE_CHANNEL"] = OneChannel;
  B["PLAIN"] = Plain;
  B["DOUBLED"] = Scale == 2;
  B["OFFSET_FOLDED"] = Folded;
  B["PARAM_WORDS"] = ParamWords;
  B["ZERO_WORD"] =
      formatv("{0:x8}", static_cast<uint8_t>(-S.input_offset) * 0x01010101u)
          .str();
  B["FAST"] = Fast;
  B["WIDE"] = Wide;
  B["ZERO_SHIFT"] = ZeroShift;
  B["TAPS"] = tmpl::Value(std::move(Taps));
  B["WEIGHTS"] = initializerLines(ArrayRef<uint32_t>(Words), [](uint32_t V) {
    return formatv("{0:x8}u", V).str();
  });
  B["PARAMS"] = initializerLines(ArrayRef<int32_t>(ChannelParams),
                                 [](int32_t V) { return std::to_string(V); });
  return renderKernel("cm_depthwise_dsp.c.in", B, Name);
}

/// The generated convolution (templates/cm_convolve_dsp.c.in) of operator
/// \p Index, an int8 CONV_2D the description maps to it (any filter,
/// stride, padding and dilation, not grouped, output channels in twos), as
/// the function \p Name needing \p Scratch bytes of scratch memory (two
/// int16 columns); \p Fast and \p Wide as generatedDepthwise's, \p Doubled
/// whether it stores its columns and biases doubled. \p Plain: in C for a
/// core without the DSP extension (the template's PLAIN: byte columns, two
/// of K4 bytes, none with \p InPlace, a 1 x 1 filter reading its pixels
/// where they are).
Expected<KernelText>
generatedConv(const ir::Graph &G, size_t Index,
              const kernels::FamilyParams<ref_conv2d_params> &P, StringRef Name,
              int64_t Scratch, bool Stripe, bool Plain, bool &Fast, bool &Wide,
              bool &Doubled, bool &InPlace) {
  const ir::Operator &Op = G.Operators[Index];
  const ref_conv2d_params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const int64_t N = dim(In, 0), IH = dim(In, 1), IW = dim(In, 2),
                IC = dim(In, 3), KH = dim(F, 1), KW = dim(F, 2),
                OH = dim(Out, 1), OW = dim(Out, 2), OC = dim(Out, 3);
  const int64_t K = KH * KW * IC, K4 = (K + 3) / 4 * 4;
  InPlace = Plain && KH == 1 && KW == 1 && K4 == K && S.pad_top == 0 &&
            S.pad_left == 0 && (OH - 1) * S.stride_h < IH &&
            (OW - 1) * S.stride_w < IW;
  const int64_t Columns = InPlace ? 0 : Plain ? 2 * K4 : 4 * K4;
  if (OC % 2 != 0 || dim(F, 0) != OC || dim(F, 3) != IC || dim(Out, 0) != N ||
      S.filter_offset != 0 || S.dilation_h < 1 || S.dilation_w < 1 ||
      Scratch < Columns || F.Data.size() != static_cast<size_t>(OC * K))
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: CONV_2D outside the generated "
                             "convolution's cases",
                             Index);
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  const PaddedRows W = paddedRows(F, OC, K, K4, /*Pairs=*/!Plain);
  bool ZeroShift = false;
  std::vector<int32_t> Params =
      generatedParams(Q->Bias, W.Sum, W.Abs, Q->Mult, Q->Shift, S.input_offset,
                      Fast, Wide, ZeroShift, /*ConstantChannels=*/true);
  // Doubling the columns costs an instruction per two values of a column,
  // per pixel; it saves one per output (SMMULR's operand): worth it where
  // the columns are shorter than twice the output channels.
  Doubled = !Plain && Fast && !Wide && K4 < 2 * OC;
  if (Doubled)
    for (int64_t Ch = 0; Ch < OC; ++Ch)
      Params[ParamWords * Ch] = static_cast<int32_t>(
          static_cast<uint32_t>(Params[ParamWords * Ch]) * 2u);
  const bool Folded = foldsOutputOffset(S.output_offset, Fast, Wide, ZeroShift);
  tmpl::Bindings B;
  B["FUNCTION"] = Name.str();
  B["STRIPE"] = Stripe;
  B["COMMENT"] =
      formatv("CONV_2D {0}x{1}x{2}x{3} -> {4}x{5}x{6}, filter {7}x{8}, "
              "stride {9}x{10}, dilation {11}x{12}, padding top {13} left {14}",
              N, IH, IW, IC, OH, OW, OC, KH, KW, S.stride_h, S.stride_w,
              S.dilation_h, S.dilation_w, S.pad_top, S.pad_left)
          .str();
  bindWindow(B, In, KH, KW, Out, S);
  for (auto [Key, V] : {std::pair<const char *, int64_t>{"N", N},
                        {"DH", S.dilation_h},
                        {"DW", S.dilation_w},
                        {"K", K},
                        {"K4", K4},
                        {"CHUNK", unrollChunk(K4)}})
    B[Key] = V;
  B["FAST"] = Fast;
  B["WIDE"] = Wide;
  B["ZERO_SHIFT"] = ZeroShift;
  B["OFFSET_FOLDED"] = Folded;
  B["PARAM_WORDS"] = ParamWords;
  B["DOUBLED"] = Doubled;
  B["PLAIN"] = Plain;
  B["INPLACE"] = InPlace;
  B["COLUMN_TYPE"] = std::string(Plain ? "int8_t" : "uint32_t");
  // Input channels in fours: a filter row's values are whole words.
  B["ROWWISE"] = !Plain && IC % 4 == 0;
  const uint32_t Zero =
      static_cast<uint16_t>((Doubled ? -2 : -1) * S.input_offset);
  B["ZERO_PAIR"] = formatv("{0:x8}", Zero | Zero << 16).str();
  auto Decimal = [](int32_t V) { return std::to_string(V); };
  B["WEIGHTS"] = initializerLines(ArrayRef<int32_t>(W.Values), Decimal);
  B["PARAMS"] = initializerLines(ArrayRef<int32_t>(Params), Decimal);
  return renderKernel("cm_convolve_dsp.c.in", B, Name);
}

/// What the generated Helium convolution (templates/cm_convolve_mve.c.in)
/// computes: N images of IH x IW x IC to OH x OW x OC through a KH x KW
/// filter (OC rows of KH x KW x IC int8 values, Filter) at strides SH, SW,
/// dilations DH, DW and padding PT, PL, requantized by Quant. A fully
/// connected layer is the 1 x 1 case of 1 x 1 images.
struct MveConv {
  int64_t N, IH, IW, IC, KH, KW, OH, OW, OC, SH, SW, DH, DW, PT, PL;
  int32_t InputOffset, OutputOffset, ActMin, ActMax;
  ArrayRef<uint8_t> Filter;
  ChannelQuant Quant;
};

/// The kernel of \p C (\p Comment its description) as the function \p Name
/// needing \p Scratch bytes of scratch memory (one column, none for a 1 x 1
/// filter); \p Stripe as generatedDepthwise's. Its requantization is
/// TensorFlow Lite's for every multiplier and shift (VQRDMULH, VRSHL).
/// \p Tail: whether it loads the input's last values predicated
/// (cm_dot16_tail); \p Columns, whether it builds columns (cm_v_copy,
/// cm_v_fill); \p Uniform, whether one multiplier and shift serve every
/// channel (compiled in, the parameters the biases alone). \p Op names the
/// operator in an error.
Expected<KernelText> convMveKernel(const MveConv &C, StringRef Op,
                                   StringRef Comment, StringRef Name,
                                   int64_t Scratch, bool Stripe, bool &Tail,
                                   bool &Columns, bool &Uniform) {
  const int64_t K = C.KH * C.KW * C.IC, K16 = (K + 15) / 16 * 16;
  const bool Direct = C.KH == 1 && C.KW == 1 && C.PT == 0 && C.PL == 0;
  if (C.OC % 4 != 0 || C.DH < 1 || C.DW < 1 || (!Direct && Scratch < K16) ||
      C.Filter.size() != static_cast<size_t>(C.OC * K) ||
      C.Quant.Bias.size() != static_cast<size_t>(C.OC) || (Stripe && C.N != 1))
    return createStringError(inconvertibleErrorCode(),
                             "%s outside the generated Helium convolution's "
                             "cases",
                             Op.str().c_str());
  // Per four channels, sixteen values of each row in turn, zeros past K;
  // then their biases (the input offset times the weights' sum folded in),
  // multipliers and shifts.
  auto W = [&](int64_t Row, int64_t I) {
    return I < K ? static_cast<int32_t>(
                       static_cast<int8_t>(C.Filter[Row * K + I]))
                 : int32_t(0);
  };
  std::vector<int32_t> Weights, Params;
  bool Left = false;
  Uniform = std::all_of(C.Quant.Mult.begin(), C.Quant.Mult.end(),
                        [&](int32_t M) { return M == C.Quant.Mult[0]; }) &&
            std::all_of(C.Quant.Shift.begin(), C.Quant.Shift.end(),
                        [&](int32_t S) { return S == C.Quant.Shift[0]; });
  for (int64_t Ch = 0; Ch < C.OC; Ch += 4) {
    for (int64_t J = 0; J < K16; J += 16)
      for (int64_t R = Ch; R < Ch + 4; ++R)
        for (int64_t I = J; I < J + 16; ++I)
          Weights.push_back(W(R, I));
    for (int64_t R = Ch; R < Ch + 4; ++R) {
      int64_t Sum = 0;
      for (int64_t I = 0; I < K; ++I)
        Sum += W(R, I);
      Params.push_back(static_cast<int32_t>(static_cast<uint32_t>(
          static_cast<int64_t>(C.Quant.Bias[R]) + C.InputOffset * Sum)));
    }
    if (Uniform)
      continue;
    for (int64_t R = Ch; R < Ch + 4; ++R)
      Params.push_back(C.Quant.Mult[R]);
    for (int64_t R = Ch; R < Ch + 4; ++R) {
      Params.push_back(C.Quant.Shift[R]);
      Left = Left || C.Quant.Shift[R] > 0;
    }
  }
  tmpl::Bindings B;
  B["STRIPE"] = Stripe;
  B["COMMENT"] = Comment.str();
  for (auto [Key, V] : {std::pair<const char *, int64_t>{"N", C.N},
                        {"IH", C.IH},
                        {"IW", C.IW},
                        {"IC", C.IC},
                        {"KH", C.KH},
                        {"KW", C.KW},
                        {"OH", C.OH},
                        {"OW", C.OW},
                        {"OC", C.OC},
                        {"SH", C.SH},
                        {"SW", C.SW},
                        {"DH", C.DH},
                        {"DW", C.DW},
                        {"PT", C.PT},
                        {"PL", C.PL},
                        {"ZERO", -C.InputOffset},
                        {"OUTPUT_OFFSET", C.OutputOffset},
                        {"ACT_MIN", C.ActMin},
                        {"ACT_MAX", C.ActMax},
                        {"K", K},
                        {"K16", K16}})
    B[Key] = V;
  // Sixteen values a block, up to four blocks a loop's step: of the
  // column, and of a window's row read in place.
  auto Unroll = [](int64_t Blocks) {
    int64_t U = 4;
    while (Blocks % U != 0)
      --U;
    return U;
  };
  B["UNROLL"] = Unroll(Direct ? K / 16 : K16 / 16);
  B["ROW_UNROLL"] = Unroll(C.KW * C.IC / 16);
  Tail = Direct && K % 16 != 0;
  Columns = !Direct;
  B["DIRECT"] = Direct;
  B["LEFT"] = Left;
  B["UNIFORM"] = Uniform;
  B["MULT"] = static_cast<int64_t>(C.Quant.Mult[0]);
  B["SHIFT"] = static_cast<int64_t>(C.Quant.Shift[0]);
  auto Decimal = [](int32_t V) { return std::to_string(V); };
  B["WEIGHTS"] = initializerLines(ArrayRef<int32_t>(Weights), Decimal);
  B["PARAMS"] = initializerLines(ArrayRef<int32_t>(Params), Decimal);
  return renderKernel("cm_convolve_mve.c.in", B, Name);
}

/// The generated Helium convolution of operator \p Index, an int8 CONV_2D
/// (any filter, stride, padding and dilation, not grouped, output channels
/// in fours) or an int8 DEPTHWISE_CONV_2D of one input channel to several
/// (batch 1; the convolution whose filter is the depthwise one, [1, KH, KW,
/// OC], transposed) the description maps to it: convMveKernel's.
template <typename Params>
Expected<KernelText> generatedConvMve(const ir::Graph &G, size_t Index,
                                      const kernels::FamilyParams<Params> &P,
                                      StringRef Name, int64_t Scratch,
                                      bool Stripe, bool &Tail, bool &Columns,
                                      bool &Uniform) {
  constexpr bool Depthwise =
      std::is_same_v<Params, ref_depthwise_conv2d_params>;
  const ir::Operator &Op = G.Operators[Index];
  const Params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const std::string What = formatv("operator {0}: {1}", Index, Op.Type).str();
  const int64_t KH = dim(F, 1), KW = dim(F, 2), OC = dim(Out, 3);
  bool Outside =
      dim(Out, 0) != dim(In, 0) ||
      F.Data.size() !=
          static_cast<size_t>(OC * KH * KW * (Depthwise ? 1 : dim(In, 3)));
  if constexpr (Depthwise)
    Outside = Outside || dim(In, 3) != 1 || dim(In, 0) != 1 ||
              dim(F, 3) != OC || S.depth_multiplier != OC;
  else
    Outside = Outside || dim(F, 0) != OC || dim(F, 3) != dim(In, 3) ||
              S.filter_offset != 0;
  if (Outside)
    return createStringError(inconvertibleErrorCode(),
                             "%s outside the generated Helium convolution's "
                             "cases",
                             What.c_str());
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  // A depthwise filter's taps per output channel: [1, KH, KW, OC]
  // transposed.
  std::vector<uint8_t> Rows;
  if (Depthwise) {
    Rows.resize(F.Data.size());
    for (int64_t Tap = 0; Tap < KH * KW; ++Tap)
      for (int64_t Ch = 0; Ch < OC; ++Ch)
        Rows[Ch * KH * KW + Tap] = F.Data[Tap * OC + Ch];
  }
  const MveConv C{dim(In, 0),
                  dim(In, 1),
                  dim(In, 2),
                  dim(In, 3),
                  KH,
                  KW,
                  dim(Out, 1),
                  dim(Out, 2),
                  OC,
                  S.stride_h,
                  S.stride_w,
                  S.dilation_h,
                  S.dilation_w,
                  S.pad_top,
                  S.pad_left,
                  S.input_offset,
                  S.output_offset,
                  S.act_min,
                  S.act_max,
                  Depthwise ? ArrayRef<uint8_t>(Rows)
                            : ArrayRef<uint8_t>(F.Data),
                  std::move(*Q)};
  const std::string Comment =
      formatv("{0} {1}x{2}x{3}x{4} -> {5}x{6}x{7}, filter {8}x{9}, stride "
              "{10}x{11}, dilation {12}x{13}, padding top {14} left {15}{16}",
              Op.Type, C.N, C.IH, C.IW, C.IC, C.OH, C.OW, C.OC, C.KH, C.KW,
              C.SH, C.SW, C.DH, C.DW, C.PT, C.PL,
              Depthwise ? ", as a convolution" : "")
          .str();
  return convMveKernel(C, What, Comment, Name, Scratch, Stripe, Tail, Columns,
                       Uniform);
}

/// The generated Helium fully connected kernel of operator \p Index, an
/// int8 FULLY_CONNECTED the description maps to it (units in fours): the
/// convolution's of its rows as 1 x 1 images (convMveKernel).
Expected<KernelText> generatedFullyConnectedMve(
    const ir::Graph &G, size_t Index,
    const kernels::FamilyParams<ref_fully_connected_params> &P, StringRef Name,
    bool &Tail, bool &Uniform) {
  const ir::Operator &Op = G.Operators[Index];
  const ref_fully_connected_params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const std::string What =
      formatv("operator {0}: FULLY_CONNECTED", Index).str();
  const int64_t OC = F.Shape.size() == 2 ? F.Shape[0] : 0,
                K = F.Shape.size() == 2 ? F.Shape[1] : 0;
  const int64_t Rows = K > 0 ? In.numElements() / K : 0;
  if (OC < 1 || K < 1 || Rows < 1 || Rows * K != In.numElements() ||
      Out.numElements() != Rows * OC || S.filter_offset != 0)
    return createStringError(inconvertibleErrorCode(),
                             "%s outside the generated Helium convolution's "
                             "cases",
                             What.c_str());
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  const MveConv C{Rows,
                  1,
                  1,
                  K,
                  1,
                  1,
                  1,
                  1,
                  OC,
                  1,
                  1,
                  1,
                  1,
                  0,
                  0,
                  S.input_offset,
                  S.output_offset,
                  S.act_min,
                  S.act_max,
                  F.Data,
                  std::move(*Q)};
  const std::string Comment =
      formatv("FULLY_CONNECTED {0} rows of {1} -> {2}", Rows, K, OC).str();
  bool Columns = false;
  return convMveKernel(C, What, Comment, Name, 0, false, Tail, Columns,
                       Uniform);
}

/// The generated Helium depthwise kernel (templates/cm_depthwise_mve.c.in)
/// of operator \p Index, an int8 DEPTHWISE_CONV_2D the description maps to
/// it (batch 1, no dilation, depth multiplier 1, channels in eights), as
/// the function \p Name needing \p Scratch bytes of scratch memory (the KH
/// padded input rows of an output row).
Expected<KernelText> generatedDepthwiseMve(
    const ir::Graph &G, size_t Index,
    const kernels::FamilyParams<ref_depthwise_conv2d_params> &P, StringRef Name,
    int64_t Scratch, bool Stripe) {
  const ir::Operator &Op = G.Operators[Index];
  const ref_depthwise_conv2d_params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const int64_t IW = dim(In, 2), IC = dim(In, 3), KH = dim(F, 1),
                KW = dim(F, 2), OW = dim(Out, 2), OC = dim(Out, 3);
  const int64_t PW = (OW - 1) * S.stride_w + KW;
  const int64_t Copy =
      std::max<int64_t>(0, std::min<int64_t>(IW, PW - S.pad_left));
  if (S.depth_multiplier != 1 || IC != OC || OC % 8 != 0 || dim(In, 0) != 1 ||
      dim(F, 3) != OC || S.dilation_h != 1 || S.dilation_w != 1 ||
      S.pad_left > PW || Scratch < KH * PW * IC ||
      F.Data.size() != static_cast<size_t>(KH * KW * OC))
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: DEPTHWISE_CONV_2D outside the "
                             "generated Helium kernel's cases",
                             Index);
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  auto W = [&](int64_t Tap, int64_t Ch) {
    return static_cast<int32_t>(static_cast<int8_t>(F.Data[Tap * OC + Ch]));
  };
  // Per eight channels: per tap their weights; then their parameters, the
  // even channels' and the odd ones'.
  std::vector<int32_t> Weights, Params;
  bool Left = false;
  for (int64_t Ch = 0; Ch < OC; Ch += 8) {
    for (int64_t Tap = 0; Tap < KH * KW; ++Tap)
      for (int64_t C = Ch; C < Ch + 8; ++C)
        Weights.push_back(W(Tap, C));
    for (int64_t Odd = 0; Odd < 2; ++Odd) {
      for (int64_t C = Ch + Odd; C < Ch + 8; C += 2) {
        int64_t Sum = 0;
        for (int64_t Tap = 0; Tap < KH * KW; ++Tap)
          Sum += W(Tap, C);
        Params.push_back(static_cast<int32_t>(static_cast<uint32_t>(
            static_cast<int64_t>(Q->Bias[C]) + S.input_offset * Sum)));
      }
      for (int64_t C = Ch + Odd; C < Ch + 8; C += 2)
        Params.push_back(Q->Mult[C]);
      for (int64_t C = Ch + Odd; C < Ch + 8; C += 2) {
        Params.push_back(Q->Shift[C]);
        Left = Left || Q->Shift[C] > 0;
      }
    }
  }
  // Each tap's input as a base pointer and an offset of at most 127 bytes
  // (the widening load's immediate): a base from the middle of a run of
  // taps of a filter row within 127 bytes of each other.
  tmpl::Value::List Bases, Taps;
  for (int64_t Ky = 0; Ky < KH; ++Ky)
    for (int64_t Kx = 0; Kx < KW;) {
      int64_t End = Kx + 1;
      while (End < KW && (End - Kx + 1) / 2 * IC <= 127)
        ++End;
      const int64_t At = (Ky * PW + (Kx + End - 1) / 2) * IC;
      const int64_t Row = static_cast<int64_t>(Bases.size());
      Bases.push_back(tmpl::Value(tmpl::Value::Map{{"ROW", Row}, {"AT", At}}));
      for (; Kx < End; ++Kx)
        Taps.push_back(tmpl::Value(
            tmpl::Value::Map{{"ROW", Row}, {"OFF", (Ky * PW + Kx) * IC - At}}));
    }
  tmpl::Bindings B;
  bindDepthwiseRows(B, In, F, Out, S, Stripe, PW, Copy);
  B["LEFT"] = Left;
  B["BASES"] = tmpl::Value(std::move(Bases));
  B["TAPS"] = tmpl::Value(std::move(Taps));
  auto Decimal = [](int32_t V) { return std::to_string(V); };
  B["WEIGHTS"] = initializerLines(ArrayRef<int32_t>(Weights), Decimal);
  B["PARAMS"] = initializerLines(ArrayRef<int32_t>(Params), Decimal);
  return renderKernel("cm_depthwise_mve.c.in", B, Name);
}

/// The generated ADD (templates/cm_add_dsp.c.in) of operator \p Index, an
/// int8 ADD of two inputs of the result's size, as the function \p Name.
/// Its three rescalings are SMMULR, which needs each operand times two to
/// fit int32 and no left shift: TensorFlow Lite's int8 parameters (a left
/// shift of 20, multipliers below 1) always give both, anything else is an
/// error.
Expected<std::string> generatedAdd(const ir::Graph &G, size_t Index,
                                   const ref_elementwise_params &S,
                                   StringRef Name, bool Stripe) {
  const ir::Operator &Op = G.Operators[Index];
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const int64_t Count = Out.numElements();
  auto Outside = [&](const char *Why) {
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: ADD outside the generated "
                             "kernel's cases (%s)",
                             Index, Why);
  };
  if (Op.Inputs.size() != 2 || Count < 1 || S.input_left_shift < 0 ||
      S.input_left_shift >= 30 ||
      G.tensor(Op.Inputs[0]).numElements() != Count ||
      G.tensor(Op.Inputs[1]).numElements() != Count)
    return Outside("shapes");
  const int64_t Factor = int64_t(1) << S.input_left_shift;
  // A bound on each rescaling's operand: the inputs' offset values times
  // 2^left shift; the sum's, the two rescaled inputs' (a doubling high
  // multiply by less than 1 never grows its operand by more than 1).
  auto InputBound = [&](int32_t Offset) {
    return std::max(std::abs(-128 + int64_t(Offset)),
                    std::abs(127 + int64_t(Offset))) *
           Factor;
  };
  const int64_t Bound1 = InputBound(S.input1_offset),
                Bound2 = InputBound(S.input2_offset);
  const int64_t Bounds[3] = {Bound1, Bound2, Bound1 + Bound2 + 2};
  const int32_t Offsets[2] = {S.input1_offset, S.input2_offset};
  const int32_t Mults[3] = {S.input1_multiplier, S.input2_multiplier,
                            S.output_multiplier};
  const int32_t Shifts[3] = {S.input1_left_shift, S.input2_left_shift,
                             S.output_left_shift};
  tmpl::Value::List Rescales;
  for (int I = 0; I < 3; ++I) {
    if (2 * Bounds[I] >= (int64_t(1) << 31) || Shifts[I] > 0 ||
        Shifts[I] < -31 || Mults[I] < 0)
      return Outside("a rescaling SMMULR cannot compute exactly");
    tmpl::Value::Map R{
        {"I", int64_t(I)},
        {"MULT", int64_t(Mults[I])},
        {"SHIFT", int64_t(Shifts[I])},
        {"ROUND", Shifts[I] < 0 ? int64_t(1) << (-Shifts[I] - 1) : int64_t(0)}};
    if (I < 2)
      R["OFFSET"] = int64_t(Offsets[I]);
    Rescales.push_back(tmpl::Value(std::move(R)));
  }
  tmpl::Bindings B;
  B["FUNCTION"] = Name.str();
  B["STRIPE"] = Stripe;
  B["COMMENT"] = formatv("ADD of {0} int8 elements", Count).str();
  B["COUNT"] = Count;
  B["LEFT_SHIFT_FACTOR"] = Factor;
  B["RESCALES"] = tmpl::Value(std::move(Rescales));
  B["OUTPUT_OFFSET"] = static_cast<int64_t>(S.output_offset);
  B["ACT_MIN"] = static_cast<int64_t>(S.act_min);
  B["ACT_MAX"] = static_cast<int64_t>(S.act_max);
  return renderCortexM("cm_add_dsp.c.in", B);
}

/// The generated Helium ADD (templates/cm_add_mve.c.in) of operator \p
/// Index, an int8 ADD of two inputs of the result's size, as the function
/// \p Name: TensorFlow Lite's arithmetic for any offsets and for multipliers
/// below one (shifts to the right), which its parameters always have.
Expected<std::string> generatedAddMve(const ir::Graph &G, size_t Index,
                                      const ref_elementwise_params &S,
                                      StringRef Name, bool Stripe) {
  const ir::Operator &Op = G.Operators[Index];
  const int64_t Count = G.tensor(Op.Outputs[0]).numElements();
  if (Op.Inputs.size() != 2 || Count < 1 || S.input_left_shift < 0 ||
      S.input_left_shift >= 31 ||
      G.tensor(Op.Inputs[0]).numElements() != Count ||
      G.tensor(Op.Inputs[1]).numElements() != Count ||
      S.input1_left_shift > 0 || S.input2_left_shift > 0 ||
      S.output_left_shift > 0 || S.input1_left_shift < -31 ||
      S.input2_left_shift < -31 || S.output_left_shift < -31)
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: ADD outside the generated Helium "
                             "kernel's cases",
                             Index);
  const uint32_t Factor = uint32_t(1) << S.input_left_shift;
  auto Times = [&](int32_t Offset) {
    return static_cast<int64_t>(
        static_cast<int32_t>(static_cast<uint32_t>(Offset) * Factor));
  };
  tmpl::Bindings B;
  B["FUNCTION"] = Name.str();
  B["STRIPE"] = Stripe;
  B["COMMENT"] = formatv("ADD of {0} int8 elements", Count).str();
  B["COUNT"] = Count;
  for (auto [Key, V] :
       {std::pair<const char *, int64_t>{"FACTOR", int64_t(Factor)},
        {"C1", Times(S.input1_offset)},
        {"M1", S.input1_multiplier},
        {"S1", S.input1_left_shift},
        {"C2", Times(S.input2_offset)},
        {"M2", S.input2_multiplier},
        {"S2", S.input2_left_shift},
        {"MO", S.output_multiplier},
        {"SO", S.output_left_shift},
        {"OUTPUT_OFFSET", S.output_offset},
        {"ACT_MIN", S.act_min},
        {"ACT_MAX", S.act_max}})
    B[Key] = V;
  return renderCortexM("cm_add_mve.c.in", B);
}

/// The values of a row of FULLY_CONNECTED \p Op's input image when the
/// generated kernel can sum it stripe by stripe (its form SUMS: one batch,
/// rows of whole words, so every stripe is whole unrolled chunks), else 0.
int64_t sumsRow(const ir::Graph &G, const ir::Operator &Op) {
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  if (In.rank() != 4 || In.Shape[0] != 1 || In.Shape[1] < 1 ||
      Out.Shape.empty() || Out.Shape[0] != 1)
    return 0;
  const int64_t Row = In.numElements() / In.Shape[1];
  return Row % 4 == 0 ? Row : 0;
}

/// The generated FULLY_CONNECTED (templates/cm_fully_connected_dsp.c.in)
/// of operator \p Index, an int8 one with weights [units, depth] quantized
/// per tensor, as the function \p Name; \p Fast as generatedDepthwise's.
/// With \p Sums, the function a cascade calls per stripe of its input image
/// (an accumulating last operator): see sumsRow. \p Plain: in C for a core
/// without the DSP extension (the template's PLAIN).
Expected<std::string> generatedFullyConnected(
    const ir::Graph &G, size_t Index,
    const kernels::FamilyParams<ref_fully_connected_params> &P, StringRef Name,
    bool Sums, bool Plain, bool &Fast, bool &Wide) {
  const ir::Operator &Op = G.Operators[Index];
  const ref_fully_connected_params &S = P.Scalars;
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &F = G.tensor(Op.Inputs[1]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  const int64_t OC = F.Shape.size() == 2 ? F.Shape[0] : 0,
                K = F.Shape.size() == 2 ? F.Shape[1] : 0;
  const int64_t K4 = (K + 3) / 4 * 4, KM = K - K % 4;
  const int64_t Rows = K > 0 ? In.numElements() / K : 0;
  const int64_t Row = Sums ? sumsRow(G, Op) : 0;
  if (OC < 1 || K < 1 || Rows < 1 || Rows * K != In.numElements() ||
      Out.numElements() != Rows * OC || S.filter_offset != 0 ||
      F.Data.size() != static_cast<size_t>(OC * K) || (Sums && Row == 0))
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: FULLY_CONNECTED outside the "
                             "generated kernel's cases",
                             Index);
  Expected<ChannelQuant> Q = channelQuant(G, Index, P, OC);
  if (!Q)
    return Q.takeError();
  if (!std::all_of(Q->Mult.begin(), Q->Mult.end(),
                   [&](int32_t M) { return M == Q->Mult[0]; }) ||
      !std::all_of(Q->Shift.begin(), Q->Shift.end(),
                   [&](int32_t V) { return V == Q->Shift[0]; }))
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu: FULLY_CONNECTED quantized per "
                             "channel, the generated kernel's is per tensor",
                             Index);
  const PaddedRows W = paddedRows(F, OC, K, K4, /*Pairs=*/false);
  // The per-channel parameters, of which this kernel keeps the biases.
  bool ZeroShift = false;
  const std::vector<int32_t> Params =
      generatedParams(Q->Bias, W.Sum, W.Abs, Q->Mult, Q->Shift, S.input_offset,
                      Fast, Wide, ZeroShift, /*ConstantChannels=*/false);
  std::vector<int32_t> Biases;
  for (int64_t Ch = 0; Ch < OC; ++Ch)
    Biases.push_back(Params[ParamWords * Ch]);
  tmpl::Bindings B;
  B["FUNCTION"] = Name.str();
  B["COMMENT"] =
      formatv("FULLY_CONNECTED of {0} row(s), {1} -> {2}", Rows, K, OC).str();
  for (auto [Key, V] :
       {std::pair<const char *, int64_t>{"ROWS", Rows},
        {"K", K},
        {"KM", KM},
        {"K4", K4},
        {"CHUNK", unrollChunk(Sums ? Row : KM, FcChunk)},
        {"ROW", Row},
        {"OC", OC},
        {"MULT", Q->Mult[0]},
        {"SHIFT", Q->Shift[0]},
        {"ROUND", Fast && Q->Shift[0] < 0 ? int64_t(1) << (-Q->Shift[0] - 1)
                                          : int64_t(0)},
        {"OUTPUT_OFFSET", S.output_offset},
        {"ACT_MIN", S.act_min},
        {"ACT_MAX", S.act_max}})
    B[Key] = V;
  B["FAST"] = Fast;
  B["WIDE"] = Wide;
  B["ZERO_SHIFT"] = ZeroShift;
  B["SUMS"] = Sums;
  B["PLAIN"] = Plain;
  auto Decimal = [](int32_t V) { return std::to_string(V); };
  B["WEIGHTS"] = initializerLines(ArrayRef<int32_t>(W.Values), Decimal);
  B["BIASES"] = initializerLines(ArrayRef<int32_t>(Biases), Decimal);
  return renderCortexM("cm_fully_connected_dsp.c.in", B);
}

/// The primitives the generated kernels of a model use, by the template
/// bindings that render them: of templates/cm_dsp.c.in (every DSP kernel
/// uses one at least) and of cm_mve.c.in (every Helium kernel too).
struct Primitives {
  std::set<std::string> Dsp, Mve;
  /// Every binding of each template.
  static constexpr std::array<const char *, 11> DspNames = {
      "PAIRS", "SMMULR", "WIDE",  "REQUANTIZE", "SMLAD", "MAC",
      "DWTAP", "WORDS",  "DBL16", "COPY_BYTES", "PLAIN"};
  static constexpr std::array<const char *, 7> MveNames = {
      "CONV", "PER_CHANNEL", "UNIFORM", "DW", "ADD", "DOT_TAIL", "COLUMNS"};
};

/// Emits one operator's declarations and call.
class OpWriter {
public:
  /// \p Cascade: the cascade operator \p Index belongs to, whose stripes
  /// it then runs (Call is one stripe's statements), or null.
  /// \p Kernels: the generated functions emitted so far, by their code
  /// with a placeholder for the name (KernelText::Key), which a layer whose
  /// kernel differs only in its constants calls instead of its own.
  /// \p Mve: the core has Helium; \p Plain: it has no DSP extension
  /// (family 3), so the generated kernels are in plain C.
  OpWriter(const ir::Graph &G, const plan::MemoryPlan &Plan, size_t Index,
           int64_t ScratchOffset, bool Mve, bool Plain,
           std::map<std::string, std::string> &Kernels,
           const plan::Cascade *Cascade = nullptr)
      : G(G), Plan(Plan), Index(Index), Op(G.Operators[Index]),
        Prefix("cnn_op" + std::to_string(Index)), ScratchOffset(ScratchOffset),
        Mve(Mve), Plain(Plain), Kernels(Kernels), Cascade(Cascade), DS(Decls) {}

  Error write(StringRef Function, const kernels::KernelCall &Call,
              int64_t Scratch);

  std::string Decls, Call;
  /// The primitives the generated kernel uses.
  Primitives Uses;

private:
  /// Uses the primitive of binding \p Name of templates/cm_dsp.c.in (or of
  /// cm_mve.c.in with \p Helium) where \p If.
  void use(const char *Name, bool If = true, bool Helium = false) {
    if (If)
      (Helium ? Uses.Mve : Uses.Dsp).insert(Name);
  }
  /// The requantization primitives of a DSP kernel that is \p Fast and \p
  /// Wide (generatedParams), and the halfword pairs' it multiplies with
  /// (\p Pairs: all but the plain C ones).
  void useRequantization(bool Fast, bool Wide, bool Pairs = true) {
    use("PAIRS", Pairs);
    use("SMMULR", Fast && !Wide);
    use("WIDE", Fast && Wide);
    use("REQUANTIZE", !Fast);
  }
  /// Operand \p I as the function reads it: a constant is declared as an
  /// array of its own (named after \p Suffix), any other tensor is read
  /// where the memory plan put it; NULL for an absent operand. A tensor with
  /// neither data nor a slot is an error (recorded, reported by write()).
  std::string operand(size_t I, StringRef Suffix) {
    if (I >= Op.Inputs.size() || Op.Inputs[I] < 0)
      return "NULL";
    const ir::Tensor &T = G.tensor(Op.Inputs[I]);
    if (T.IsConstant) {
      std::string Name = Prefix + "_" + Suffix.str();
      constantArray(DS, T, Name);
      return Name;
    }
    if (const plan::Buffer *B = Plan.find(Op.Inputs[I]))
      return atRow(arenaPtr(*B, true, emit::cType(T.Type)), Op.Inputs[I],
                   ir::readsInputRows(Op.code()) && I == 0 ? "e[3]" : "e[0]");
    if (Missing.empty())
      Missing = formatv("operator {0} ({1}): input {2} (tensor {3}) has "
                        "neither constant data nor a place in the arena",
                        Index, Op.Type, I, Op.Inputs[I])
                    .str();
    return "NULL";
  }
  /// Where output 0 is written.
  std::string out() {
    const plan::Buffer *B = Plan.find(Op.Outputs[0]);
    if (!B) {
      if (Missing.empty())
        Missing = formatv("operator {0} ({1}): its output (tensor {2}) has "
                          "no place in the arena",
                          Index, Op.Type, Op.Outputs[0])
                      .str();
      return "NULL";
    }
    return atRow(arenaPtr(*B, false, emit::cType(G.tensor(Op.Outputs[0]).Type)),
                 Op.Outputs[0], "e[0]");
  }
  /// In a stripe, \p Base (tensor \p T's first element) moved to row
  /// \p Row of the tensor, in its window if it is held as one.
  std::string atRow(const std::string &Base, int32_t T, StringRef Row) const {
    if (!Cascade)
      return Base;
    if (Cascade->tiled()) {
      // A tile's region: the cascade's input copied to the patch, its output
      // written to the tile, a window from its first byte.
      const std::string Cast = Base.substr(0, Base.find(')') + 1);
      if (T == G.Operators[Cascade->FirstOp].input(0))
        return "(" + Cast + "patch)";
      if (T == G.Operators[Cascade->LastOp].output(0))
        return "(" + Cast + "tile)";
      return Base;
    }
    const ir::Tensor &Ten = G.tensor(T);
    const int64_t RowElements = Ten.numElements() / Ten.Shape[1];
    const std::string Lo = Cascade->windowOf(T) >= 0
                               ? formatv(" - lo{0}", T).str()
                               : std::string();
    return formatv("({0} + (size_t)({1}{2}) * {3})", Base, Row, Lo, RowElements)
        .str();
  }
  /// The elements of a stripe of the output.
  std::string stripeCount() const {
    const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
    return formatv("(e[1] - e[0]) * {0}", Out.numElements() / Out.Shape[1])
        .str();
  }
  /// The first operand that could not be placed, if any.
  std::string Missing;
  /// Emits the constants of kernel \p K, generated as \p Name, and returns
  /// the function to call with them: an earlier layer's of the same code,
  /// else \p Name, emitted here.
  std::string sharedKernel(StringRef Name, const KernelText &K) {
    DS << K.Data;
    auto [It, New] = Kernels.try_emplace(K.Key, Name.str());
    if (New)
      DS << K.Code;
    return It->second;
  }
  /// The call of a generated kernel \p K of the windowed operators
  /// (convolutions, depthwise, fully connected), generated as \p Name:
  /// input, output, the scratch area as a \p Scratch pointer, in a stripe
  /// the input's first row and the output rows, then the layer's
  /// constants.
  std::string kernelCall(StringRef Name, const KernelText &K,
                         StringRef Scratch) {
    return formatv("    {0}({1}, {2}, ({3} *)(arena.bytes + {4}){5},\n"
                   "        {6}_weights, {6}_params);\n",
                   sharedKernel(Name, K), operand(0, "input"), out(), Scratch,
                   ScratchOffset, Cascade ? ", e[3], e[0], e[1]" : "", Name)
        .str();
  }
  std::string context(int64_t Bytes) {
    if (Bytes == 0)
      return "{NULL, 0}";
    return formatv("{{arena.bytes + {0}, {1}}", ScratchOffset, Bytes).str();
  }

  const ir::Graph &G;
  const plan::MemoryPlan &Plan;
  size_t Index;
  const ir::Operator &Op;
  std::string Prefix;
  int64_t ScratchOffset;
  bool Mve, Plain;
  std::map<std::string, std::string> &Kernels;
  const plan::Cascade *Cascade;
  raw_string_ostream DS;
};

Error OpWriter::write(StringRef Function, const kernels::KernelCall &KC,
                      int64_t Scratch) {
  const ir::Tensor &In = G.tensor(Op.Inputs[0]);
  const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
  std::string Stmt;
  auto Struct = [&](StringRef Type, StringRef Suffix, StringRef Body) {
    DS << "static const " << Type << " " << Prefix << "_" << Suffix << " = "
       << Body << ";\n";
    return "&" + Prefix + "_" + Suffix.str();
  };
  auto DimsDecl = [&](StringRef Suffix, int64_t N, int64_t H, int64_t W,
                      int64_t C) {
    return Struct("cmsis_nn_dims", Suffix, dims(N, H, W, C));
  };

  if (Function == "accelgen_depthwise_conv_s8_dsp") {
    const std::string Name = Prefix + "_depthwise";
    bool Fast = false, Wide = false, OneChannel = false;
    Expected<KernelText> Kernel = generatedDepthwise(
        G, Index,
        std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(KC.Params),
        Name, Scratch, Cascade != nullptr, Plain, Fast, Wide, OneChannel);
    if (!Kernel)
      return Kernel.takeError();
    useRequantization(Fast, Wide, !Plain);
    use("SMLAD", OneChannel && !Plain);
    use("DWTAP", !OneChannel && !Plain);
    use("WORDS", !OneChannel);
    use("PLAIN", Plain);
    Stmt = kernelCall(Name, *Kernel, "int8_t");
  } else if (Function == "accelgen_convolve_s8_dsp") {
    const std::string Name = Prefix + "_conv";
    bool Fast = false, Wide = false, Doubled = false, InPlace = false;
    Expected<KernelText> Kernel = generatedConv(
        G, Index, std::get<kernels::FamilyParams<ref_conv2d_params>>(KC.Params),
        Name, Scratch, Cascade != nullptr, Plain, Fast, Wide, Doubled, InPlace);
    if (!Kernel)
      return Kernel.takeError();
    useRequantization(Fast, Wide, !Plain);
    use("SMLAD", !Plain);
    use("MAC", !Plain);
    use("COPY_BYTES", !InPlace);
    use("DBL16", Doubled);
    use("PLAIN", Plain);
    Stmt = kernelCall(Name, *Kernel, Plain ? "int8_t" : "uint32_t");
  } else if (Function == "accelgen_depthwise_conv_s8_mve") {
    const std::string Name = Prefix + "_depthwise";
    Expected<KernelText> Kernel = generatedDepthwiseMve(
        G, Index,
        std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(KC.Params),
        Name, Scratch, Cascade != nullptr);
    if (!Kernel)
      return Kernel.takeError();
    for (const char *Name : {"DW", "COLUMNS"})
      use(Name, true, /*Helium=*/true);
    Stmt = kernelCall(Name, *Kernel, "int8_t");
  } else if (Function == "accelgen_fully_connected_s8_mve") {
    const std::string Name = Prefix + "_fc";
    bool Tail = false, Uniform = false;
    Expected<KernelText> Kernel = generatedFullyConnectedMve(
        G, Index,
        std::get<kernels::FamilyParams<ref_fully_connected_params>>(KC.Params),
        Name, Tail, Uniform);
    if (!Kernel)
      return Kernel.takeError();
    use("CONV", true, /*Helium=*/true);
    use(Uniform ? "UNIFORM" : "PER_CHANNEL", true, /*Helium=*/true);
    use("DOT_TAIL", Tail, /*Helium=*/true);
    Stmt = kernelCall(Name, *Kernel, "int8_t");
  } else if (Function == "accelgen_convolve_s8_mve") {
    const std::string Name = Prefix + "_conv";
    bool Tail = false, Columns = false, Uniform = false;
    // A depthwise convolution of one input channel runs as a convolution.
    Expected<KernelText> Kernel =
        Op.Type == "DEPTHWISE_CONV_2D"
            ? generatedConvMve(
                  G, Index,
                  std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(
                      KC.Params),
                  Name, Scratch, Cascade != nullptr, Tail, Columns, Uniform)
            : generatedConvMve(
                  G, Index,
                  std::get<kernels::FamilyParams<ref_conv2d_params>>(KC.Params),
                  Name, Scratch, Cascade != nullptr, Tail, Columns, Uniform);
    if (!Kernel)
      return Kernel.takeError();
    use("CONV", true, /*Helium=*/true);
    use(Uniform ? "UNIFORM" : "PER_CHANNEL", true, /*Helium=*/true);
    use("DOT_TAIL", Tail, /*Helium=*/true);
    use("COLUMNS", Columns, /*Helium=*/true);
    Stmt = kernelCall(Name, *Kernel, "int8_t");
  } else if (Function == "accelgen_fully_connected_s8_dsp") {
    const std::string Name = Prefix + "_fc";
    bool Fast = false, Wide = false;
    // Ending a cascade, it sums the stripes of its input (e[3], e[4]) and
    // writes its output in the step that reads the last (e[0] < e[1]).
    const bool Sums = Cascade != nullptr;
    Expected<std::string> Kernel = generatedFullyConnected(
        G, Index,
        std::get<kernels::FamilyParams<ref_fully_connected_params>>(KC.Params),
        Name, Sums, Plain, Fast, Wide);
    if (!Kernel)
      return Kernel.takeError();
    useRequantization(Fast, Wide, !Plain);
    use("SMLAD", !Plain);
    DS << *Kernel;
    Stmt = formatv("    {0}({1}, {2}{3});\n", Name, operand(0, "input"), out(),
                   Sums ? ", e[3], e[4] - e[3], e[0] < e[1]" : "")
               .str();
  } else if (Function == "accelgen_elementwise_add_s8_dsp" ||
             Function == "accelgen_elementwise_add_s8_mve") {
    const bool Helium = Function.endswith("_mve");
    const std::string Name = Prefix + "_add";
    const ref_elementwise_params &S =
        std::get<kernels::FamilyParams<ref_elementwise_params>>(KC.Params)
            .Scalars;
    Expected<std::string> Kernel =
        Helium ? generatedAddMve(G, Index, S, Name, Cascade != nullptr)
               : generatedAdd(G, Index, S, Name, Cascade != nullptr);
    if (!Kernel)
      return Kernel.takeError();
    use(Helium ? "ADD" : "SMMULR", true, Helium);
    DS << *Kernel;
    Stmt = formatv("    {0}({1}, {2}, {3}{4});\n", Name, operand(0, "input1"),
                   operand(1, "input2"), out(),
                   Cascade ? ", " + stripeCount() : std::string())
               .str();
  } else if (Function.startswith("arm_convolve") ||
             Function.startswith("arm_depthwise")) {
    const bool Depthwise = Function.startswith("arm_depthwise");
    // A depthwise convolution run as a convolution: its [1, KH, KW, OC]
    // filter becomes [OC, KH, KW, 1].
    const bool DwAsConv = !Depthwise && Op.Type == "DEPTHWISE_CONV_2D";
    const ir::Tensor &F = G.tensor(Op.Inputs[1]);
    int32_t StrideH, StrideW, DilH, DilW, PadT, PadL, InOff, OutOff, Min, Max,
        DepthMult = 1;
    std::vector<int32_t> Mult, Shift;
    const int64_t OC = dim(Out, 3);
    if (Depthwise || DwAsConv) {
      const auto &P =
          std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(
              KC.Params);
      const ref_depthwise_conv2d_params &S = P.Scalars;
      StrideH = S.stride_h, StrideW = S.stride_w, DilH = S.dilation_h,
      DilW = S.dilation_w, PadT = S.pad_top, PadL = S.pad_left,
      InOff = S.input_offset, OutOff = S.output_offset, Min = S.act_min,
      Max = S.act_max, DepthMult = S.depth_multiplier;
      perChannel(P, OC, Mult, Shift);
    } else {
      const auto &P =
          std::get<kernels::FamilyParams<ref_conv2d_params>>(KC.Params);
      const ref_conv2d_params &S = P.Scalars;
      StrideH = S.stride_h, StrideW = S.stride_w, DilH = S.dilation_h,
      DilW = S.dilation_w, PadT = S.pad_top, PadL = S.pad_left,
      InOff = S.input_offset, OutOff = S.output_offset, Min = S.act_min,
      Max = S.act_max;
      perChannel(P, OC, Mult, Shift);
    }
    int32Array(DS, Prefix + "_multiplier", Mult);
    int32Array(DS, Prefix + "_shift", Shift);
    std::string Filter;
    if (DwAsConv) {
      ir::Tensor T = F;
      T.Shape = {F.Shape[3], F.Shape[1], F.Shape[2], 1};
      const int64_t Taps = dim(F, 1) * dim(F, 2);
      for (int64_t C = 0; C < OC; ++C)
        for (int64_t K = 0; K < Taps; ++K)
          T.Data[C * Taps + K] = F.Data[K * OC + C];
      Filter = Prefix + "_filter";
      constantArray(DS, T, Filter);
    } else {
      Filter = operand(1, "filter");
    }
    std::string Bias = operand(2, "bias");
    // arm_convolve_wrapper_s16 takes its int64 bias behind a descriptor.
    if (Function == "arm_convolve_wrapper_s16")
      Bias = Struct("cmsis_nn_bias_data", "bias_data",
                    formatv("{{{0}, false}", Bias).str());
    std::string Params = formatv(
        "{{.input_offset = {0}, .output_offset = {1},{2} .stride = {{.w = {3}, "
        ".h = {4}}, .padding = {{.w = {5}, .h = {6}}, .dilation = {{.w = {7}, "
        ".h = {8}}, {9}}",
        InOff, OutOff,
        Depthwise ? formatv(" .ch_mult = {0},", DepthMult).str()
                  : std::string(),
        StrideW, StrideH, PadL, PadT, DilW, DilH, activation(Min, Max));
    std::string P =
        Struct(Depthwise ? "cmsis_nn_dw_conv_params" : "cmsis_nn_conv_params",
               "params", Params);
    std::string Q = Struct(
        "cmsis_nn_per_channel_quant_params", "quant",
        formatv("{{(int32_t *){0}_multiplier, (int32_t *){0}_shift}", Prefix)
            .str());
    std::string InDims =
        DimsDecl("input_dims", dim(In, 0), dim(In, 1), dim(In, 2), dim(In, 3));
    std::string FDims =
        Depthwise  ? DimsDecl("filter_dims", 1, dim(F, 1), dim(F, 2), dim(F, 3))
        : DwAsConv ? DimsDecl("filter_dims", OC, dim(F, 1), dim(F, 2), 1)
                   : DimsDecl("filter_dims", dim(F, 0), dim(F, 1), dim(F, 2),
                              dim(F, 3));
    std::string BDims = DimsDecl("bias_dims", 1, 1, 1, OC);
    std::string ODims = DimsDecl("output_dims", dim(Out, 0), dim(Out, 1),
                                 dim(Out, 2), dim(Out, 3));
    std::string Stripe;
    if (Cascade && Cascade->tiled()) {
      // A tile: its rows and columns of input and output, its padding above
      // and left of them.
      Stripe = formatv("    {0} p = *{1};\n"
                       "    const cmsis_nn_dims in_dims = {{{2}, e[4] - e[3], "
                       "e[9] - e[8], {3}};\n"
                       "    const cmsis_nn_dims out_dims = {{{2}, e[1] - e[0], "
                       "e[7] - e[6], {4}};\n"
                       "    p.padding.h = e[5];\n"
                       "    p.padding.w = e[10];\n",
                       Depthwise ? "cmsis_nn_dw_conv_params"
                                 : "cmsis_nn_conv_params",
                       P, dim(In, 0), dim(In, 3), dim(Out, 3))
                   .str();
      P = "&p", InDims = "&in_dims", ODims = "&out_dims";
    } else if (Cascade) {
      // A stripe: its rows of input and output, its padding above them.
      Stripe = formatv("    {0} p = *{1};\n"
                       "    const cmsis_nn_dims in_dims = {{{2}, e[4] - e[3], "
                       "{3}, {4}};\n"
                       "    const cmsis_nn_dims out_dims = {{{2}, e[1] - e[0], "
                       "{5}, {6}};\n"
                       "    p.padding.h = e[5];\n",
                       Depthwise ? "cmsis_nn_dw_conv_params"
                                 : "cmsis_nn_conv_params",
                       P, dim(In, 0), dim(In, 2), dim(In, 3), dim(Out, 2),
                       dim(Out, 3))
                   .str();
      P = "&p", InDims = "&in_dims", ODims = "&out_dims";
    }
    std::vector<std::string> Args = {
        "&ctx", P, Q, InDims, operand(0, "input"), FDims, Filter, BDims, Bias};
    if (Function == "arm_convolve_s8")
      Args.push_back("NULL");
    Args.push_back(ODims);
    Args.push_back(out());
    Stmt = formatv("{0}    const cmsis_nn_context ctx = {1};\n"
                   "    (void){2}({3});\n",
                   Stripe, context(Scratch), Function, join(Args, ", "))
               .str();
  } else if (Function == "arm_fully_connected_s8" ||
             Function == "arm_fully_connected_s16") {
    // s16: an int64 bias, no kernel sums; the 16x8 parameters are the
    // per-channel ones, equal across channels (the legality asks for
    // per-tensor weights).
    const bool S16 = Function == "arm_fully_connected_s16";
    const auto &P =
        std::get<kernels::FamilyParams<ref_fully_connected_params>>(KC.Params);
    const ref_fully_connected_params &S = P.Scalars;
    const ir::Tensor &F = G.tensor(Op.Inputs[1]);
    const int64_t Units = F.Shape[0], Depth = F.Shape[1];
    const int64_t Batches = Depth ? In.numElements() / Depth : 0;
    std::string Filter = operand(1, "filter");
    std::string Bias = operand(2, "bias");
    std::string Ctx = "{NULL, 0}";
    if (Mve && !S16) {
      // What arm_vector_sum_s8 computes at start-up, computed here: per
      // unit, bias + input_offset * (sum of weights + depth *
      // filter_offset), modulo 2^32 as the device's int32 arithmetic wraps
      // (a bias near int32's limit; the accumulator wraps the same way).
      std::vector<int32_t> Sums(Units, 0);
      const bool HasBias = Op.Inputs.size() > 2 && Op.Inputs[2] >= 0;
      for (int64_t U = 0; U < Units; ++U) {
        int64_t Sum = 0;
        for (int64_t D = 0; D < Depth; ++D)
          Sum += static_cast<int8_t>(F.Data[U * Depth + D]);
        Sum += Depth * S.filter_offset;
        int32_t Base = 0;
        if (HasBias) {
          const ir::Tensor &B = G.tensor(Op.Inputs[2]);
          std::memcpy(&Base, B.Data.data() + 4 * U, 4);
        }
        Sums[U] = static_cast<int32_t>(
            static_cast<uint32_t>(Base + Sum * S.input_offset));
      }
      int32Array(DS, Prefix + "_kernel_sums", Sums);
      Ctx = formatv("{{(void *){0}_kernel_sums, {1}}", Prefix, 4 * Units);
    }
    std::string Params = Struct(
        "cmsis_nn_fc_params", "params",
        formatv("{{.input_offset = {0}, .filter_offset = {1}, .output_offset "
                "= {2}, {3}}",
                S.input_offset, S.filter_offset, S.output_offset,
                activation(S.act_min, S.act_max))
            .str());
    int32_t Multiplier = S.output_multiplier, Shift = S.output_left_shift;
    if (S16) {
      std::vector<int32_t> Mult, Shifts;
      perChannel(P, Units, Mult, Shifts);
      Multiplier = Mult.empty() ? 0 : Mult[0];
      Shift = Shifts.empty() ? 0 : Shifts[0];
    }
    std::string Q =
        Struct("cmsis_nn_per_tensor_quant_params", "quant",
               formatv("{{{0}, {1}}", Multiplier, Shift).str());
    std::vector<std::string> Args = {
        "&ctx",
        Params,
        Q,
        DimsDecl("input_dims", Batches, 1, 1, Depth),
        operand(0, "input"),
        DimsDecl("filter_dims", Depth, 1, 1, Units),
        Filter,
        DimsDecl("bias_dims", 1, 1, 1, Units),
        Bias,
        DimsDecl("output_dims", Batches, 1, 1, Units),
        out()};
    Stmt = formatv("    const cmsis_nn_context ctx = {0};\n"
                   "    (void){1}({2});\n",
                   Ctx, Function, join(Args, ", "))
               .str();
  } else if (Function == "arm_avgpool_s8" || Function == "arm_max_pool_s8" ||
             Function == "arm_avgpool_s16" || Function == "arm_max_pool_s16") {
    const ref_pool2d_params &S =
        std::get<kernels::FamilyParams<ref_pool2d_params>>(KC.Params).Scalars;
    std::string Params = Struct(
        "cmsis_nn_pool_params", "params",
        formatv("{{.stride = {{.w = {0}, .h = {1}}, .padding = {{.w = {2}, "
                ".h = {3}}, {4}}",
                S.stride_w, S.stride_h, S.pad_left, S.pad_top,
                activation(S.act_min, S.act_max))
            .str());
    std::string InDims =
        DimsDecl("input_dims", 1, dim(In, 1), dim(In, 2), dim(In, 3));
    std::string ODims =
        DimsDecl("output_dims", 1, dim(Out, 1), dim(Out, 2), dim(Out, 3));
    std::string Stripe;
    if (Cascade) {
      Stripe = formatv("    cmsis_nn_pool_params p = *{0};\n"
                       "    const cmsis_nn_dims in_dims = {{1, e[4] - e[3], "
                       "{1}, {2}};\n"
                       "    const cmsis_nn_dims out_dims = {{1, e[1] - e[0], "
                       "{3}, {4}};\n"
                       "    p.padding.h = e[5];\n",
                       Params, dim(In, 2), dim(In, 3), dim(Out, 2), dim(Out, 3))
                   .str();
      Params = "&p", InDims = "&in_dims", ODims = "&out_dims";
    }
    std::vector<std::string> Args = {
        "&ctx",
        Params,
        InDims,
        operand(0, "input"),
        DimsDecl("filter_dims", 1, S.filter_h, S.filter_w, 1),
        ODims,
        out()};
    Stmt = formatv("{0}    const cmsis_nn_context ctx = {1};\n"
                   "    (void){2}({3});\n",
                   Stripe, context(Scratch), Function, join(Args, ", "))
               .str();
  } else if (Function == "arm_softmax_s8") {
    const ref_softmax_params &S =
        std::get<kernels::FamilyParams<ref_softmax_params>>(KC.Params).Scalars;
    const int64_t Row = In.Shape.empty() ? 1 : In.Shape.back();
    const int64_t Rows = Row ? In.numElements() / Row : 0;
    Stmt = formatv("    arm_softmax_s8({0}, {1}, {2}, {3}, {4}, {5}, {6});\n",
                   operand(0, "input"), Rows, Row, S.input_multiplier,
                   S.input_left_shift, S.diff_min, out())
               .str();
  } else if (Function.startswith("arm_elementwise_add_s") ||
             Function.startswith("arm_elementwise_mul_s")) {
    const ref_elementwise_params &S =
        std::get<kernels::FamilyParams<ref_elementwise_params>>(KC.Params)
            .Scalars;
    std::vector<std::string> Args = {operand(0, "input1"),
                                     operand(1, "input2")};
    auto Int = [&](int64_t V) { Args.push_back(emit::intLiteral(V)); };
    if (Function.startswith("arm_elementwise_add_s")) {
      Int(S.input1_offset), Int(S.input1_multiplier), Int(S.input1_left_shift);
      Int(S.input2_offset), Int(S.input2_multiplier), Int(S.input2_left_shift);
      Int(S.input_left_shift);
    } else {
      Int(S.input1_offset), Int(S.input2_offset);
    }
    Args.push_back(out());
    Int(S.output_offset), Int(S.output_multiplier), Int(S.output_left_shift);
    Int(S.act_min), Int(S.act_max);
    Args.push_back(Cascade ? stripeCount()
                           : emit::intLiteral(Out.numElements()));
    Stmt = formatv("    (void){0}({1});\n", Function, join(Args, ", ")).str();
  } else if (Function == "arm_lstm_unidirectional_s16") {
    // The reference's parameters; the gates in CMSIS-NN's order. The
    // effective biases are the biases (the input offset is 0 for int16),
    // and zeros for the recurrent products. The scratch area holds the two
    // gate vectors; the state tensors are updated in place.
    const ref_lstm_params &S =
        std::get<kernels::FamilyParams<ref_lstm_params>>(KC.Params).Scalars;
    const plan::Buffer *Hidden = Plan.find(Op.Inputs[18]);
    const plan::Buffer *Cell = Plan.find(Op.Inputs[19]);
    if (!Hidden || !Cell)
      return createStringError(inconvertibleErrorCode(),
                               "operator %zu (%s): its state has no place in "
                               "the arena",
                               Index, Op.Type.c_str());
    DS << "static const int64_t " << Prefix << "_zeros[" << S.state_size
       << "] = {0};\n";
    static const char *const Names[4] = {"input", "forget", "cell", "output"};
    std::string Gates;
    for (int G : {1, 0, 2, 3}) {
      std::string Bias = operand(12 + G, std::string(Names[G]) + "_bias");
      Gates += formatv(
          "    .{0}_gate = {{.input_multiplier = {1}, .input_shift = {2}, "
          ".input_weights = {3}, .input_effective_bias = {4}, "
          ".hidden_multiplier = {5}, .hidden_shift = {6}, .hidden_weights = "
          "{7}, .hidden_effective_bias = {8}_zeros, .bias = {4}, "
          ".activation_type = {9}},\n",
          Names[G], S.input_multiplier[G], S.input_left_shift[G],
          operand(1 + G, std::string(Names[G]) + "_input_weights"), Bias,
          S.recurrent_multiplier[G], S.recurrent_left_shift[G],
          operand(5 + G, std::string(Names[G]) + "_recurrent_weights"),
          Prefix, G == 2 ? "ARM_TANH" : "ARM_SIGMOID");
    }
    // The cell state's exponent e, from the tanh's input scaling 3 * 2^(e +
    // 12) (a right shift when negative).
    int32_t Power = -S.cell_tanh_right_shift - 12;
    for (int32_t M = S.cell_tanh_multiplier; S.cell_tanh_right_shift == 0 &&
                                              M > 3;
         M >>= 1)
      ++Power;
    DS << "static const cmsis_nn_lstm_params " << Prefix << "_params = {\n"
       << formatv("    .time_major = {0}, .batch_size = {1}, .time_steps = "
                  "{2}, .input_size = {3}, .hidden_size = {4},\n"
                  "    .input_offset = {5}, .forget_to_cell_multiplier = {6}, "
                  ".forget_to_cell_shift = {7}, .input_to_cell_multiplier = "
                  "{8}, .input_to_cell_shift = {9},\n"
                  "    .cell_clip = {10}, .cell_scale_power = {11}, "
                  ".output_multiplier = {12}, .output_shift = {13}, "
                  ".output_offset = {14},\n",
                  S.time_major, S.batches, S.time_steps, S.input_size,
                  S.state_size, S.input_offset, S.forget_multiplier,
                  S.forget_left_shift, S.update_multiplier,
                  S.update_left_shift, S.cell_clip, Power,
                  S.output_multiplier, S.output_left_shift,
                  S.output_zero_point)
       << Gates << "};\n";
    const int64_t Half = Scratch / 2;
    Stmt = formatv("    cmsis_nn_lstm_context ctx = {{arena.bytes + {0}, "
                   "arena.bytes + {1}, {2}, {3}};\n"
                   "    (void){4}({5}, {6}, &{7}_params, &ctx);\n",
                   ScratchOffset, ScratchOffset + Half,
                   arenaPtr(*Cell, false, "void"),
                   arenaPtr(*Hidden, false, "void"), Function,
                   operand(0, "input"), out(), Prefix)
               .str();
  } else if (Function == "arm_svdf_state_s16_s8") {
    // The reference step's parameters (the state's zero point is 0, as
    // every int16 tensor's; `input_offset` is the input's zero point, which
    // the function negates); the feature results are clamped to int16 and
    // the outputs to int8, as the reference does. The scratch area holds
    // the time dot products (batches x filters int32), then the sums per
    // unit (batches x units).
    const ref_svdf_params &S =
        std::get<kernels::FamilyParams<ref_svdf_params>>(KC.Params).Scalars;
    const int64_t Units = S.rank ? S.filters / S.rank : 0;
    const int64_t TimeBytes = 4 * int64_t(S.batches) * S.filters;
    const plan::Buffer *State = Plan.find(Op.Inputs[4]);
    if (!State)
      return createStringError(inconvertibleErrorCode(),
                               "operator %zu (%s): its state (tensor %d) has "
                               "no place in the arena",
                               Index, Op.Type.c_str(), Op.Inputs[4]);
    std::string Params = Struct(
        "cmsis_nn_svdf_params", "params",
        formatv("{{.rank = {0}, .input_offset = {1}, .output_offset = {2}, "
                ".input_activation = {{.min = -32768, .max = 32767}, "
                ".output_activation = {{.min = -128, .max = 127}}",
                S.rank, S.input_zero_point, S.output_zero_point)
            .str());
    auto Quant = [&](StringRef Suffix, int32_t M, int32_t Shift) {
      return Struct("cmsis_nn_per_tensor_quant_params", Suffix,
                    formatv("{{{0}, {1}}", M, Shift).str());
    };
    std::vector<std::string> Args = {
        "&input_ctx",
        "&output_ctx",
        Params,
        Quant("input_quant", S.feature_multiplier, S.feature_left_shift),
        Quant("output_quant", S.output_multiplier, S.output_left_shift),
        DimsDecl("input_dims", S.batches, S.input_size, 1, 1),
        operand(0, "input"),
        DimsDecl("state_dims", S.batches, S.filters, S.memory, 1),
        arenaPtr(*State, false, "int16_t"),
        DimsDecl("weights_feature_dims", S.filters, S.input_size, 1, 1),
        operand(1, "weights_feature"),
        DimsDecl("weights_time_dims", S.filters, S.memory, 1, 1),
        operand(2, "weights_time"),
        DimsDecl("bias_dims", Units, 1, 1, 1),
        operand(3, "bias"),
        DimsDecl("output_dims", S.batches, Units, 1, 1),
        out()};
    Stmt = formatv("    const cmsis_nn_context input_ctx = {0};\n"
                   "    const cmsis_nn_context output_ctx = {1};\n"
                   "    (void){2}({3});\n",
                   context(TimeBytes),
                   formatv("{{arena.bytes + {0}, {1}}", ScratchOffset + TimeBytes,
                           Scratch - TimeBytes),
                   Function, join(Args, ", "))
               .str();
  } else {
    return createStringError(inconvertibleErrorCode(),
                             "operator %zu (%s): no emitter for %s", Index,
                             Op.Type.c_str(), Function.str().c_str());
  }
  std::string Written = out();
  if (!Missing.empty())
    return createStringError(inconvertibleErrorCode(), Missing);
  DS.flush();
  if (!Cascade) {
    Call = formatv("  {{\n{0}  }\n  TRACE({1}, {2}, {3}, {4});", Stmt, Index,
                   Op.Outputs[0], Written, Out.byteSize())
               .str();
    return Error::success();
  }
  // A stripe's statements, two spaces deeper; the cascade's loop traces
  // its rows.
  Call = "    {\n";
  for (StringRef Rest = Stmt; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    Call += "  " + Line.str() + "\n";
    Rest = Tail;
  }
  Call += "    }";
  return Error::success();
}

} // namespace

ArrayRef<CpuInfo> cpus() { return Cpus; }

const CpuInfo *findCpu(StringRef Name) {
  for (const CpuInfo &C : Cpus)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

/// Whether every int32 accumulator of a 16x8 layer with weights \p Filter
/// (\p Channels output channels, innermost or outermost) stays in int32 for
/// any int16 input: per channel, the absolute weights' sum times 2^15 below
/// 2^31. CMSIS-NN's s16 convolutions and fully connected layers sum the
/// products in int32 and only then add the int64 bias; TensorFlow Lite
/// Micro's reference sums in int64.
static bool int16AccumulatorsFit(const ir::Tensor &Filter, int64_t Channels,
                                 bool ChannelInnermost) {
  const int64_t N = Filter.numElements();
  if (Filter.Type != ir::DType::I8 || Channels <= 0 || N % Channels != 0 ||
      static_cast<int64_t>(Filter.Data.size()) != N)
    return false;
  std::vector<int64_t> Sum(Channels, 0);
  for (int64_t I = 0; I < N; ++I) {
    const int64_t C = ChannelInnermost ? I % Channels : I / (N / Channels);
    Sum[C] += std::abs(static_cast<int8_t>(Filter.Data[I]));
  }
  return llvm::all_of(Sum, [](int64_t S) {
    return S * 32768 < (int64_t(1) << 31);
  });
}

/// Whether every requantized result of a 16x8 layer stays below 2^29 in
/// magnitude whatever its int16 input: per channel, (the absolute weights'
/// sum times 2^15 plus |bias|) times the channel's real multiplier.
/// CMSIS-NN's arm_nn_requantize_s64 narrows to int32 one bit before its
/// final rounding shift, where TensorFlow Lite Micro's reference narrows
/// after it, so the two wrap differently once a result passes 2^30 (before
/// the int16 clamp). A bias computed at run time cannot be bounded.
static bool int16ResultsFit(const ir::Graph &G, const ir::Operator &Op,
                            int64_t Channels, bool ChannelInnermost,
                            const std::vector<int32_t> &Mult,
                            const std::vector<int32_t> &Shift) {
  const ir::Tensor &Filter = G.tensor(Op.Inputs[1]);
  const int64_t N = Filter.numElements();
  if (static_cast<int64_t>(Mult.size()) != Channels ||
      static_cast<int64_t>(Shift.size()) != Channels)
    return false;
  std::vector<double> Bound(Channels, 0.0);
  for (int64_t I = 0; I < N; ++I)
    Bound[ChannelInnermost ? I % Channels : I / (N / Channels)] +=
        32768.0 * std::abs(static_cast<int8_t>(Filter.Data[I]));
  if (Op.Inputs.size() > 2 && Op.Inputs[2] >= 0) {
    const ir::Tensor &Bias = G.tensor(Op.Inputs[2]);
    if (!Bias.IsConstant || Bias.Type != ir::DType::I64 ||
        static_cast<int64_t>(Bias.Data.size()) != 8 * Channels)
      return false;
    for (int64_t C = 0; C < Channels; ++C) {
      int64_t B = 0;
      std::memcpy(&B, Bias.Data.data() + 8 * C, 8);
      Bound[C] += std::fabs(static_cast<double>(B));
    }
  }
  for (int64_t C = 0; C < Channels; ++C)
    if (Bound[C] * std::ldexp(double(Mult[C]), Shift[C] - 31) >=
        std::ldexp(1.0, 29))
      return false;
  return true;
}

/// Whether version \p Version of \p T is the Cortex-M55's, whose CMSIS-NN
/// functions take the Helium (MVE) paths.
static bool hasMve(const target::TargetInfo &T, unsigned Version) {
  return StringRef(T.versions().at(Version)) == "55";
}

/// Whether version \p Version of \p T is family 3 (Cortex-M0/M0+/M3),
/// without the DSP extension: CMSIS-NN's plain C paths, and the generated
/// kernels in plain C.
static bool isPlain(const target::TargetInfo &T, unsigned Version) {
  return StringRef(T.versions().at(Version)) == "3";
}

/// A multiplier and left shift as the real number they stand for.
static double realMultiplier(int32_t Multiplier, int32_t LeftShift) {
  return std::ldexp(double(Multiplier), LeftShift - 31);
}

/// Why arm_lstm_unidirectional_s16 could compute another value than the
/// reference for 16x8 LSTM \p Op (parameters \p S), or nothing. Per gate
/// and unit, with any int16 input and hidden state:
///   - the input product (bias plus the weights' absolute sum times 2^15)
///     and the recurrent one stay within int32, as Helium sums them in
///     int32 before widening;
///   - requantized, the input product stays below 2^29 (arm_nn_requantize_s64
///     narrows to int32 one bit before its last shift, the reference after)
///     and the recurrent one within int16, since the function adds it to
///     the clamped input product unclamped where the reference clamps it
///     first;
/// and the input gate times the cell gate, requantized to the cell state's
/// scale, stays within int16 (the function adds it to the cell state
/// unclamped as well).
static std::optional<std::string>
lstm16Differs(const ir::Graph &G, const ir::Operator &Op,
              const ref_lstm_params &S) {
  static const char *const Names[4] = {"input", "forget", "cell", "output"};
  auto AbsSums = [&](int32_t Operand) {
    const ir::Tensor &W = G.tensor(Op.Inputs[size_t(Operand)]);
    const int64_t Rows = W.Shape.empty() ? 0 : W.Shape.front();
    const int64_t Cols = Rows ? W.numElements() / Rows : 0;
    std::vector<double> Sum(size_t(Rows), 0.0);
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t C = 0; C < Cols; ++C)
        Sum[size_t(R)] +=
            std::abs(static_cast<int8_t>(W.Data[size_t(R * Cols + C)]));
    return Sum;
  };
  const double Int32 = 2147483648.0, Narrow = 536870912.0;
  for (int G4 = 0; G4 < 4; ++G4) {
    const std::vector<double> In = AbsSums(1 + G4), Rec = AbsSums(5 + G4);
    const ir::Tensor &Bias = G.tensor(Op.Inputs[size_t(12 + G4)]);
    const double MIn =
        realMultiplier(S.input_multiplier[G4], S.input_left_shift[G4]);
    const double MRec =
        realMultiplier(S.recurrent_multiplier[G4], S.recurrent_left_shift[G4]);
    for (size_t U = 0; U < In.size() && U < Rec.size(); ++U) {
      int64_t B = 0;
      if (Bias.Data.size() >= 8 * (U + 1))
        std::memcpy(&B, Bias.Data.data() + 8 * U, 8);
      const double InSum = std::fabs(double(B)) + 32768.0 * In[U];
      const double RecSum = 32768.0 * Rec[U];
      if (InSum >= Int32 || RecSum >= Int32)
        return formatv("arm_lstm_unidirectional_s16 sums the {0} gate's "
                       "products in int32 on Helium, and unit {1}'s weights "
                       "and bias can take them out of it",
                       Names[G4], U)
            .str();
      if (InSum * MIn >= Narrow || RecSum * MRec >= 32767.0)
        return formatv("arm_lstm_unidirectional_s16 adds the {0} gate's "
                       "recurrent product to its input product before "
                       "clamping to int16 (the reference clamps each), and "
                       "unit {1}'s products can leave int16",
                       Names[G4], U)
            .str();
    }
  }
  if (32767.0 * 32767.0 *
          realMultiplier(S.update_multiplier, S.update_left_shift) >=
      32767.0)
    return std::string("arm_lstm_unidirectional_s16 adds the input gate "
                       "times the cell gate to the cell state before "
                       "clamping, and at this cell scale that product can "
                       "leave int16");
  return std::nullopt;
}

bool allowed(Kernels K, StringRef Function) {
  return K == Kernels::Any || !Function.startswith("accelgen_");
}

OpChoice chooseFunction(const ir::Graph &G, size_t Index,
                        const target::TargetInfo &T, unsigned Version,
                        Kernels K) {
  OpChoice C;
  const ir::Operator &Op = G.Operators[Index];
  const target::OpSetup *Setup = T.opSetup(Op.Type);
  if (!Setup) {
    C.Reason = "CMSIS-NN has no int8 or int16 function for " + Op.Type;
    return C;
  }
  if (G.Computes == ir::Arithmetic::ONNX && kernels::readsQuantized(G, Op)) {
    C.Reason = "CMSIS-NN requantizes as TensorFlow Lite does, and the model "
               "specifies ONNX's arithmetic (requantization in float32, "
               "rounding half to even)";
    return C;
  }
  std::vector<target::Rejection> Why;
  if (!Setup->IsSupported(G, Op, Version, Why)) {
    std::vector<std::string> Parts;
    for (const target::Rejection &R : Why)
      Parts.push_back(R.ConstraintId + ": " + R.Message);
    C.Reason = join(Parts, "; ");
    return C;
  }
  target::OperationChoice Chosen = T.chooseOperation(
      G, Op, Version, [K](StringRef F) { return allowed(K, F); });
  C.Candidates = std::move(Chosen.Candidates);
  C.ByCost = Chosen.ByCost;
  const ir::Operator &Created = Chosen.Chosen;
  const std::string &Function = Created.Type;
  if (!StringRef(Function).startswith("arm_") &&
      !StringRef(Function).startswith("accelgen_")) {
    C.Reason = "no mapping to an arm_* function or a generated kernel";
    return C;
  }
  Expected<kernels::KernelCall> Call = kernels::computeKernelCall(G, Op);
  if (!Call) {
    C.Reason = toString(Call.takeError());
    return C;
  }
  if (Function == "arm_fully_connected_s8" && hasMve(T, Version) &&
      Op.Inputs.size() > 2 && Op.Inputs[2] >= 0 &&
      !G.tensor(Op.Inputs[2]).IsConstant) {
    // makeOffload computes the kernel sums, bias included, at compile time.
    C.Reason = "on Helium, arm_fully_connected_s8 reads its bias from kernel "
               "sums computed at compile time, and this bias is computed at "
               "run time";
    return C;
  }
  if (Function == "arm_convolve_wrapper_s16" ||
      Function == "arm_depthwise_conv_wrapper_s16" ||
      Function == "arm_fully_connected_s16") {
    const ir::Tensor &F = G.tensor(Op.Inputs[1]);
    const bool Depthwise = Function == "arm_depthwise_conv_wrapper_s16";
    const int64_t Channels =
        F.Shape.empty() ? 0 : (Depthwise ? F.Shape.back() : F.Shape.front());
    if (!int16AccumulatorsFit(F, Channels, Depthwise)) {
      C.Reason = Function + " sums in int32 before adding the int64 bias, and "
                            "these weights can take that sum out of int32 "
                            "(the reference kernel sums in int64)";
      return C;
    }
    std::vector<int32_t> Mult, Shift;
    if (const auto *P =
            std::get_if<kernels::FamilyParams<ref_conv2d_params>>(&Call->Params))
      perChannel(*P, Channels, Mult, Shift);
    else if (const auto *P = std::get_if<
                 kernels::FamilyParams<ref_depthwise_conv2d_params>>(
                 &Call->Params))
      perChannel(*P, Channels, Mult, Shift);
    else if (const auto *P = std::get_if<
                 kernels::FamilyParams<ref_fully_connected_params>>(
                 &Call->Params))
      perChannel(*P, Channels, Mult, Shift);
    if (!int16ResultsFit(G, Op, Channels, Depthwise, Mult, Shift)) {
      C.Reason = Function + " narrows its requantized results to int32 one "
                            "bit early, and with these weights, bias and "
                            "scales a result can pass 2^30, where it would "
                            "wrap differently from the reference kernel";
      return C;
    }
  }
  if (Function == "arm_lstm_unidirectional_s16")
    if (std::optional<std::string> Why = lstm16Differs(
            G, Op,
            std::get<kernels::FamilyParams<ref_lstm_params>>(Call->Params)
                .Scalars)) {
      C.Reason = *Why;
      return C;
    }
  C.Function = Function;
  // The description's Scratch for the function, in force at the version.
  C.ScratchBytes =
      std::max<int64_t>(0, T.scratchBytes(G, Created, Version).value_or(0));
  // In a cascade's tiles an int8 convolution or depthwise convolution calls
  // CMSIS-NN's wrapper, which takes any tile's shapes.
  const bool Int8 = G.tensor(Op.Inputs[0]).Type == ir::DType::I8;
  if (Int8 && (Op.code() == ir::OpCode::Conv2D ||
               Op.code() == ir::OpCode::DepthwiseConv2D)) {
    ir::Operator Wrapper = Op;
    Wrapper.Type = Op.code() == ir::OpCode::Conv2D
                       ? "arm_convolve_wrapper_s8"
                       : "arm_depthwise_conv_wrapper_s8";
    C.TileScratchBytes =
        std::max<int64_t>(0, T.scratchBytes(G, Wrapper, Version).value_or(0));
    C.TileFunction = Wrapper.Type;
  }
  return C;
}

std::vector<OpChoice> chooseFunctions(const ir::Graph &G,
                                      const target::TargetInfo &T,
                                      unsigned Version, Kernels K) {
  std::vector<OpChoice> Choices;
  for (size_t I = 0; I < G.Operators.size(); ++I)
    Choices.push_back(chooseFunction(G, I, T, Version, K));
  return Choices;
}

bool runsStripes(StringRef Function) {
  return Function.startswith("arm_convolve") ||
         Function.startswith("arm_depthwise") ||
         Function.startswith("arm_avgpool_s") ||
         Function.startswith("arm_max_pool_s") ||
         Function.startswith("arm_elementwise_add_s") ||
         Function.startswith("arm_elementwise_mul_s") ||
         Function == "accelgen_convolve_s8_dsp" ||
         Function == "accelgen_convolve_s8_mve" ||
         Function == "accelgen_depthwise_conv_s8_dsp" ||
         Function == "accelgen_depthwise_conv_s8_mve" ||
         Function == "accelgen_elementwise_add_s8_dsp" ||
         Function == "accelgen_elementwise_add_s8_mve";
}

plan::CascadeOptions cascadeOptions(const ir::Graph &G,
                                    ArrayRef<OpChoice> Choices,
                                    const plan::CascadeOptions &Cascading) {
  // A call that cannot take a stripe keeps its operator out of cascades;
  // one that sums over its input's rows may end a cascade, where the
  // reference kernel's _accumulate form runs it (emitModel).
  plan::CascadeOptions Options = Cascading;
  Options.Tiles = true;
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Choices[I].ScratchBytes > 0)
      Options.Scratch[static_cast<int32_t>(I)] = Choices[I].ScratchBytes;
    if (!Choices[I].TileFunction.empty() && Choices[I].TileScratchBytes > 0)
      Options.TileScratch[static_cast<int32_t>(I)] =
          Choices[I].TileScratchBytes;
    if (!Choices[I].Function.empty() && !runsStripes(Choices[I].Function) &&
        ir::rowMap(G.Operators[I].code()).Kind != ir::RowKind::Accumulate)
      Options.NotStripable[static_cast<int32_t>(I)] =
          formatv("CMSIS-NN's {0} runs on whole tensors", Choices[I].Function)
              .str();
  }
  return Options;
}

Expected<plan::CascadePlan> planMemory(const ir::Graph &G,
                                       ArrayRef<OpChoice> Choices,
                                       const plan::CascadeOptions &Cascading) {
  Expected<plan::CascadePlan> P =
      plan::planCascades(G, cascadeOptions(G, Choices, Cascading));
  if (!P)
    return P.takeError();
  std::vector<std::string> Problems = plan::verifyCascades(G, *P);
  if (!Problems.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the memory plan is unsound: " + Problems.front());
  return P;
}

Expected<emit::Offload>
makeOffload(const ir::Graph &G, const target::TargetInfo &T, unsigned Version,
            const plan::CascadeOptions &Cascading, Kernels K) {
  emit::Offload O;
  const std::vector<OpChoice> Choices = chooseFunctions(G, T, Version, K);
  if (Cascading.InputsInPlace)
    return createStringError(inconvertibleErrorCode(),
                             "--inputs-in-place does not work on target "
                             "cmsis-nn: its calls read every tensor in the "
                             "arena");
  Expected<plan::CascadePlan> P = planMemory(G, Choices, Cascading);
  if (!P)
    return P.takeError();
  O.Plan = P->Memory;
  std::optional<plan::CascadePlan> Cascades;
  if (Cascading.Enabled)
    Cascades = std::move(*P);
  const bool Mve = hasMve(T, Version);

  std::string Decls;
  Primitives Uses;
  json::Array Functions;
  std::map<std::string, std::string> Kernels;
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    const OpChoice &C = Choices[I];
    json::Object R;
    R["placement"] = ir::deviceName(ir::Device::Cpu);
    if (C.Function.empty()) {
      R["cmsis_nn"] = "reference kernels: " + C.Reason;
      O.OperatorReport[I] = std::move(R);
      continue;
    }
    Expected<kernels::KernelCall> Call =
        kernels::computeKernelCall(G, G.Operators[I]);
    if (!Call)
      return Call.takeError();
    const plan::Cascade *InCascade =
        Cascades ? Cascades->cascadeOf(static_cast<int32_t>(I)) : nullptr;
    if (InCascade &&
        ir::rowMap(G.Operators[I].code()).Kind == ir::RowKind::Accumulate &&
        (C.Function != "accelgen_fully_connected_s8_dsp" ||
         sumsRow(G, G.Operators[I]) == 0)) {
      R["cmsis_nn"] = "reference kernels: it sums over the stripes of a "
                      "cascade, which " +
                      C.Function + " cannot";
      O.OperatorReport[I] = std::move(R);
      continue;
    }
    // In a cascade's tiles, CMSIS-NN's wrapper where there is one, else the
    // reference kernels.
    const bool InTiles = InCascade && InCascade->tiled();
    if (InTiles && C.TileFunction.empty()) {
      R["cmsis_nn"] = "reference kernels: it runs in a cascade's tiles, "
                      "which CMSIS-NN's " +
                      C.Function + " cannot";
      O.OperatorReport[I] = std::move(R);
      continue;
    }
    const std::string &Function = InTiles ? C.TileFunction : C.Function;
    const int64_t ScratchBytes = InTiles ? C.TileScratchBytes : C.ScratchBytes;
    // Its scratch buffer, planned with the tensors.
    const plan::Buffer *Scratch = O.Plan.findScratch(static_cast<int32_t>(I));
    if (ScratchBytes > 0 && (!Scratch || Scratch->Size < ScratchBytes))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("the memory plan has no scratch buffer of {0} bytes for "
                  "operator {1} ({2})",
                  ScratchBytes, I, G.Operators[I].Type));
    const int64_t ScratchOffset = Scratch ? Scratch->Offset : 0;
    OpWriter W(G, O.Plan, I, ScratchOffset, Mve, isPlain(T, Version), Kernels,
               InCascade);
    if (Error E = W.write(Function, *Call, ScratchBytes))
      return std::move(E);
    Uses.Dsp.insert(W.Uses.Dsp.begin(), W.Uses.Dsp.end());
    Uses.Mve.insert(W.Uses.Mve.begin(), W.Uses.Mve.end());
    Decls += formatv("\n/* Operator {0}: {1} as {2}. */\n", I,
                     G.Operators[I].Type, Function)
                 .str() +
             W.Decls;
    if (InCascade) {
      O.LibraryStripes[I] = W.Call;
    } else {
      emit::OffloadRegion Region;
      Region.FirstOp = I;
      Region.NumOps = 1;
      Region.Comment = G.Operators[I].Type + " as " + C.Function;
      Region.Call = W.Call;
      O.Regions.push_back(std::move(Region));
    }
    R["kernel"] = Function;
    // What else the description allowed, with its estimates, and whether
    // they decided.
    if (C.Candidates.size() > 1) {
      json::Array Candidates;
      for (const target::OperationChoice::Candidate &K : C.Candidates) {
        json::Object Entry{{"kernel", K.Type}};
        if (K.Cycles)
          Entry["estimated_cycles"] = *K.Cycles;
        Candidates.push_back(std::move(Entry));
      }
      R["kernel_candidates"] = std::move(Candidates);
      R["kernel_chosen_by"] = C.ByCost ? "cost" : "benefit";
    }
    if (ScratchBytes > 0) {
      R["scratch_bytes"] = ScratchBytes;
      R["scratch_offset"] = ScratchOffset;
    }
    O.OperatorReport[I] = std::move(R);
  }
  // The generated kernels' primitives, once, before the kernels.
  std::string Text;
  for (auto [Template, Used, Names] :
       {std::make_tuple("cm_dsp.c.in", &Uses.Dsp,
                        ArrayRef<const char *>(Primitives::DspNames)),
        std::make_tuple("cm_mve.c.in", &Uses.Mve,
                        ArrayRef<const char *>(Primitives::MveNames))}) {
    if (Used->empty())
      continue;
    tmpl::Bindings B;
    for (const char *Name : Names)
      B[Name] = Used->count(Name) > 0;
    Expected<std::string> Common = renderCortexM(Template, B);
    if (!Common)
      return Common.takeError();
    Text += *Common;
  }
  Decls = Text + Decls;
  O.Declarations = Decls;
  O.Headers = {"arm_nnfunctions.h"};
  O.Report = json::Object{{"library", "CMSIS-NN"},
                          {"version", T.versionLabel(Version)}};
  O.HasDevice = false;
  O.Cascading = std::move(Cascades);
  return O;
}

Expected<std::vector<emit::EmittedFile>>
cortexMFiles(const ir::Graph &G, const emit::EmitOptions &Opts,
             const CpuInfo &Cpu) {
  using tmpl::Value;
  Value::List Inputs, Outputs, Layers;
  auto Info = [&](int32_t T, size_t I) {
    const ir::Tensor &Ten = G.tensor(T);
    return Value(Value::Map{{"index", I},
                            {"tensor", T},
                            {"ctype", emit::cType(Ten.Type)},
                            {"elements", Ten.numElements()},
                            {"bytes", Ten.byteSize()}});
  };
  for (size_t I = 0; I < G.Inputs.size(); ++I)
    Inputs.push_back(Info(G.Inputs[I], I));
  for (size_t I = 0; I < G.Outputs.size(); ++I)
    Outputs.push_back(Info(G.Outputs[I], I));
  std::vector<int32_t> Dump = emit::layerDumpTensors(G);
  for (size_t K = 0; K < Dump.size(); ++K)
    Layers.push_back(Value(Value::Map{{"index", K}, {"tensor", Dump[K]}}));
  tmpl::Bindings B;
  B["NAME"] = Opts.Name;
  B["UNAME"] = StringRef(Opts.Name).upper();
  B["MODEL"] = emit::commentSafe(Opts.ModelFileName);
  B["VERSION"] = Opts.GeneratorVersion;
  B["INPUTS"] = Value(std::move(Inputs));
  B["OUTPUTS"] = Value(std::move(Outputs));
  B["LAYERS"] = Value(std::move(Layers));
  B["CPU"] = Cpu.Name;
  B["MACHINE"] = Cpu.Machine;
  auto Hex = [](uint64_t V) { return formatv("{0:x8}", V).str(); };
  B["CODE_ORIGIN"] = Hex(Cpu.CodeOrigin);
  B["CODE_LENGTH"] = static_cast<int64_t>(Cpu.CodeLength);
  B["RAM_ORIGIN"] = Hex(Cpu.RamOrigin);
  B["RAM_LENGTH"] = static_cast<int64_t>(Cpu.RamLength);
  std::vector<emit::EmittedFile> Files;
  for (StringRef Name :
       {"cortex_m_startup.c", "cortex_m_main.c", "cortex_m.ld"}) {
    std::string TemplateName = (Name + ".in").str();
    const std::string Path = "targets/cmsis-nn/templates/" + TemplateName;
    B["BANNER"] = emit::cBannerOf(Path);
    Expected<std::string> Text =
        emit::renderTemplateIn(emit::cortexMTemplateFiles(), Path, B);
    if (!Text)
      return Text.takeError();
    Files.push_back({Name.str(), std::move(*Text)});
  }
  return Files;
}

} // namespace cmsis
} // namespace accelgen
