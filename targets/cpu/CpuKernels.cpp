//===- CpuKernels.cpp - Shape-specialised kernels of target cpu -----------===//
//
// Decides which operators get a specialised kernel and computes, at compile
// time, what the reference kernels compute at run time: the geometry, the
// bias with the input offset times each filter sum folded in (so the inner
// loops multiply raw int8 values), and the rows and columns whose windows
// lie inside the input. The templates of targets/cpu/templates turn those values
// into C.
//
// Exactness: the reference accumulates sum((x + input_offset) * w) over the
// taps inside the input, plus the bias. Where every tap is inside, that is
// sum(x * w) + (bias + input_offset * sum(w)). The GEMM kernel also feeds
// taps outside the input, as the input zero point z = -input_offset, so each
// adds z * w - z * w = 0 to the same sum, and so does the VNNI depthwise
// kernel; the other depthwise kernels compute their border outputs the
// reference's way instead. Each sum is the same integer, so requantization
// (ref_fixedpoint.h's, or the SIMD kernels' cpu_requantize, which
// CpuRequantizeTest holds to it) gives the same bytes.
//
//===----------------------------------------------------------------------===//
#include "cpu/CpuKernels.h"
#include "emit/CLiteral.h"
#include "emit/TemplateRender.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <limits>
#include <set>

using namespace llvm;

namespace accelgen {
namespace emit {
/// targets/cpu/templates/*.in, compiled in (EmbedFiles.cmake).
llvm::ArrayRef<EmbeddedFile> cpuTemplateFiles();
} // namespace emit

namespace cpu {

using namespace emit;

/// Renders template \p Name of targets/cpu/templates.
static Expected<std::string> renderTemplate(StringRef Name,
                                            const tmpl::Bindings &B) {
  return renderTemplateIn(cpuTemplateFiles(),
                                ("targets/cpu/templates/" + Name).str(), B);
}

using tmpl::Value;

namespace {

/// An int32 array as the lines of a C initializer, indented by four spaces.
std::string initializer(ArrayRef<int64_t> Values) {
  std::string Out, Line;
  for (int64_t V : Values) {
    std::string Word = (V == std::numeric_limits<int32_t>::min())
                           ? std::string("INT32_MIN")
                           : std::to_string(V);
    Word += ",";
    if (!Line.empty() && Line.size() + 1 + Word.size() > 76) {
      Out += "    " + Line + "\n";
      Line.clear();
    }
    Line += (Line.empty() ? "" : " ") + Word;
  }
  if (!Line.empty())
    Out += "    " + Line + "\n";
  return Out;
}

/// "[1, 32, 32, 3]".
std::string shapeText(ArrayRef<int32_t> Shape) {
  std::string S = "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Shape[I]);
  return S + "]";
}

/// Element \p I of a constant int8, uint8 or int32 tensor.
int64_t elementAt(const ir::Tensor &T, int64_t I) {
  if (T.Type == ir::DType::I8)
    return static_cast<int8_t>(T.Data[I]);
  if (T.Type == ir::DType::U8)
    return T.Data[I];
  int32_t V;
  std::memcpy(&V, T.Data.data() + 4 * I, 4);
  return V;
}

/// The constant bias of \p Op (operand \p BiasIndex, -1 for none), as
/// \p N int32 values; std::nullopt when it is not a constant int32 vector.
std::optional<std::vector<int64_t>> constantBias(const ir::Graph &G,
                                                 int32_t Bias, int64_t N) {
  std::vector<int64_t> Values(N, 0);
  if (Bias < 0)
    return Values;
  const ir::Tensor &T = G.tensor(Bias);
  if (!T.IsConstant || T.Type != ir::DType::I32 || T.numElements() != N ||
      static_cast<int64_t>(T.Data.size()) != 4 * N)
    return std::nullopt;
  for (int64_t I = 0; I < N; ++I)
    Values[I] = elementAt(T, I);
  return Values;
}

bool fitsInt32(int64_t V) {
  return V >= std::numeric_limits<int32_t>::min() &&
         V <= std::numeric_limits<int32_t>::max();
}

/// True when no int32 accumulator of the layer can leave int32 whatever
/// its input: per output channel, |bias| plus the channel's absolute filter
/// sum (with \p FilterOffset) times 384, which bounds both the reference
/// form (inputs plus their offset, at most 255) and the folded one (raw
/// inputs, at most 128, with the offset's sum in the bias). A layer whose
/// accumulator can leave int32 (a bias near the type's limit) takes the
/// reference kernel, which wraps as TensorFlow Lite's compiled kernels do;
/// the specialised kernels and their hoisted sums assume it cannot.
bool accumulatorsFit(const ir::Tensor &Filter, ArrayRef<int64_t> Bias,
                     int64_t Channels, bool ChannelInnermost,
                     int32_t FilterOffset) {
  const int64_t N = Filter.numElements();
  if (Channels <= 0 || N % Channels != 0 ||
      static_cast<int64_t>(Bias.size()) != Channels)
    return false;
  const int64_t PerChannel = N / Channels;
  std::vector<int64_t> Bound(Channels, 0);
  for (int64_t I = 0; I < N; ++I) {
    const int64_t C = ChannelInnermost ? I % Channels : I / PerChannel;
    Bound[C] += std::abs(elementAt(Filter, I) + FilterOffset) * 384;
  }
  for (int64_t C = 0; C < Channels; ++C)
    if (Bound[C] + std::abs(Bias[C]) >= (int64_t(1) << 31))
      return false;
  return true;
}

/// The requantization bindings: per-channel tables or one multiplier.
template <typename P>
void bindRequantization(tmpl::Bindings &B, const P &Params, bool PerChannel) {
  B["PER_CHANNEL"] = PerChannel;
  if (PerChannel) {
    std::vector<int64_t> M(Params.per_channel_multiplier.begin(),
                           Params.per_channel_multiplier.end());
    std::vector<int64_t> S(Params.per_channel_left_shift.begin(),
                           Params.per_channel_left_shift.end());
    B["MULTIPLIERS"] = initializer(M);
    B["SHIFTS"] = initializer(S);
  } else {
    B["MULTIPLIER"] = Params.Scalars.output_multiplier;
    B["SHIFT"] = Params.Scalars.output_left_shift;
  }
  B["OUTPUT_OFFSET"] = Params.Scalars.output_offset;
  B["ACT_MIN"] = Params.Scalars.act_min;
  B["ACT_MAX"] = Params.Scalars.act_max;
}

/// bias + input_offset * (sum of each of the N rows of K filter values plus
/// \p FilterOffset, row-major [N][K] when \p Interleaved is false, [K][N]
/// when true); std::nullopt when a value leaves int32.
std::optional<std::vector<int64_t>>
hoistedBias(const ir::Tensor &Filter, ArrayRef<int64_t> Bias, int64_t N,
            int64_t K, int32_t InputOffset, int32_t FilterOffset,
            bool Interleaved) {
  std::vector<int64_t> Out(N);
  for (int64_t C = 0; C < N; ++C) {
    int64_t Sum = 0;
    for (int64_t I = 0; I < K; ++I)
      Sum +=
          elementAt(Filter, Interleaved ? I * N + C : C * K + I) + FilterOffset;
    Out[C] = Bias[C] + int64_t(InputOffset) * Sum;
    if (!fitsInt32(Out[C]))
      return std::nullopt;
  }
  return Out;
}

/// The GEMM's bindings besides the shapes: the tile (MR output rows by NR
/// output columns); the filter's values ([N][K]) for the kernel's int16
/// copy; the bias, the input offset's handling and the padding value (see
/// cpu_gemm.c.in). False when a folded value leaves int32.
template <typename S>
bool bindGemm(tmpl::Bindings &B, const ir::Tensor &Filter,
              ArrayRef<int64_t> Bias, const S &Scalars, int64_t M, int64_t N,
              int64_t K) {
  B["MR"] = M == 1 ? 1 : 2;
  B["NR"] = N >= 8 ? 8 : 4;
  // uint8: the offsets are applied as the values are widened; int8: the
  // input offset times the filter sums is folded into the bias.
  const bool Unsigned = Filter.Type == ir::DType::U8;
  std::vector<int64_t> Weights(Filter.numElements());
  for (int64_t I = 0; I < Filter.numElements(); ++I)
    Weights[I] = elementAt(Filter, I) + (Unsigned ? Scalars.filter_offset : 0);
  B["WEIGHTS"] = initializer(Weights);
  B["SUBTRACT_ZP"] = Unsigned;
  B["ZP"] = -Scalars.input_offset;
  B["ROW_T"] = "int16_t";
  B["CONVERT_PRE"] = Unsigned ? "(int16_t)(" : "";
  B["CONVERT_POST"] =
      Unsigned ? formatv(" - {0})", -Scalars.input_offset).str() : "";
  B["PAD"] = Unsigned ? 0 : -Scalars.input_offset;
  if (Unsigned) {
    B["BIAS"] = initializer(Bias);
    return true;
  }
  auto Hoisted = hoistedBias(Filter, Bias, N, K, Scalars.input_offset,
                             /*FilterOffset=*/0, /*Interleaved=*/false);
  if (!Hoisted)
    return false;
  B["BIAS"] = initializer(*Hoisted);
  return true;
}

/// \p Values as a braced C initializer: "{1, 2, 3}", wrapped before 80
/// columns with continuation lines indented by \p Indent spaces, the first
/// line starting at column \p Column.
std::string bracedList(ArrayRef<int64_t> Values, size_t Column, size_t Indent) {
  std::string Out = "{";
  size_t At = Column + 1;
  for (size_t I = 0; I < Values.size(); ++I) {
    const std::string Word =
        std::to_string(Values[I]) + (I + 1 < Values.size() ? "," : "}");
    if (I > 0 && At + 1 + Word.size() > 79) {
      Out += "\n" + std::string(Indent, ' ');
      At = Indent;
    } else if (I > 0) {
      Out += " ";
      ++At;
    }
    Out += Word;
    At += Word.size();
  }
  return Out;
}

/// The requantization table for \p Isa of the columns \p Columns (in the
/// table's order; -1 for a padding column) of \p Params.
template <typename P>
std::optional<CpuRequantTable>
kernelRequantTable(const P &Params, bool PerChannel,
                   ArrayRef<int64_t> Columns, CpuIsaLevel Isa) {
  std::vector<int32_t> M(Columns.size(), 0), S(Columns.size(), 0);
  for (size_t I = 0; I < Columns.size(); ++I) {
    const int64_t C = Columns[I];
    if (C < 0)
      continue;
    M[I] = PerChannel ? Params.per_channel_multiplier[C]
                      : Params.Scalars.output_multiplier;
    S[I] = PerChannel ? Params.per_channel_left_shift[C]
                      : Params.Scalars.output_left_shift;
  }
  return cpuRequantTable(M, S, Params.Scalars.output_offset, Isa);
}

/// 0, 1, ..., \p N - 1.
std::vector<int64_t> identityColumns(int64_t N) {
  std::vector<int64_t> Columns(N);
  for (int64_t C = 0; C < N; ++C)
    Columns[C] = C;
  return Columns;
}

/// The bindings of cpu_gemm_simd.c.in for a GEMM of M x K by K x N on \p Isa
/// (see the template for the algebra): the tile, the packed filter, the
/// bias with the corrections folded in, the requantization table, and the
/// conversion of the rows (also the im2col row's, cpu_patch.c.in). False
/// when a folded value leaves int32 or the requantization is one the vector
/// code does not cover: the portable kernel runs then.
template <typename P>
bool bindGemmSimd(tmpl::Bindings &B, const ir::Tensor &Filter,
                  ArrayRef<int64_t> Bias, const P &Params, bool PerChannel,
                  int64_t M, int64_t N, int64_t K, CpuIsaLevel Isa) {
  const auto &S = Params.Scalars;
  const bool Unsigned = Filter.Type == ir::DType::U8;
  const bool Vnni = Isa == CpuIsaLevel::Avx512Vnni;
  const int64_t Lanes = Isa == CpuIsaLevel::Avx2 ? 8 : 16, KG = Vnni ? 4 : 2;
  const int64_t KP = (K + KG - 1) / KG * KG, Vectors = (N + Lanes - 1) / Lanes,
                NPad = Vectors * Lanes;
  // A row sum of uint8 values times a scale of at most 255 must fit int32.
  if (K > 65000)
    return false;
  // The tile: MR rows by NV vectors of accumulators, within the registers
  // (16 with AVX2, 32 with AVX-512) with the NV filter vectors and a row's.
  int64_t NV = 1, MR = 8;
  if (Isa == CpuIsaLevel::Avx2) {
    NV = Vectors % 2 == 0 ? 2 : 1;
    MR = NV == 2 ? 4 : 8;
  } else {
    for (int64_t D : {4, 3, 2, 1})
      if (Vectors % D == 0) {
        NV = D;
        break;
      }
    MR = NV == 4 ? 6 : NV == 3 ? 8 : 12;
  }
  MR = std::min(MR, M);
  auto Q = kernelRequantTable(Params, PerChannel, identityColumns(N), Isa);
  if (!Q)
    return false;
  std::vector<int64_t> Packed(KP * NPad, 0), Folded(NPad, 0);
  for (int64_t C = 0; C < N; ++C) {
    int64_t Sum = 0;
    for (int64_t I = 0; I < K; ++I) {
      const int64_t W = elementAt(Filter, C * K + I);
      // [NPad / Block][KP / KG][Block][KG]: a tile's columns are one
      // stream.
      const int64_t Block = NV * Lanes;
      Packed[((C / Block * (KP / KG) + I / KG) * Block + C % Block) * KG +
             I % KG] = Unsigned ? W - 128 : W;
      Sum += Unsigned ? W + S.filter_offset : W;
    }
    Folded[C] = Bias[C] + (Unsigned ? int64_t(S.input_offset)
                                    : int64_t(S.input_offset) - 128) *
                              Sum;
    if (!fitsInt32(Folded[C]))
      return false;
  }
  const int64_t ZeroPoint = -int64_t(S.input_offset);
  const int64_t Pad = Unsigned ? ZeroPoint : ZeroPoint + 128;
  if (Pad < 0 || Pad > 255)
    return false;
  B["ISA"] = isaName(Isa).str();
  B["LANES"] = Lanes;
  B["KG"] = KG;
  B["KP"] = KP;
  B["NPAD"] = NPad;
  B["NV"] = NV;
  B["MR"] = MR;
  B["ET"] = Vnni ? "uint8_t" : "int16_t";
  B["FT"] = Vnni ? "int8_t" : "int16_t";
  B["ROW_T"] = B["ET"];
  B["CONVERT_PRE"] = Unsigned ? (Vnni ? "" : "(int16_t)")
                              : (Vnni ? "(uint8_t)(" : "(int16_t)(uint8_t)(");
  B["CONVERT_POST"] = Unsigned ? "" : " ^ 0x80)";
  B["PAD"] = Pad;
  B["FILTER"] = initializer(Packed);
  B["BIAS"] = initializer(Folded);
  B["Q"] = Q->Initializer;
  B["ANY_LEFT"] = Q->AnyLeft;
  B["Q_OFFSET"] = Q->Offset;
  B["S"] = Unsigned ? "u8" : "i8";
  B["ROWSUM"] = Unsigned;
  B["ROWSUM_SCALE"] = 128 + int64_t(S.filter_offset);
  B["OUTPUT_OFFSET"] = S.output_offset;
  B["ACT_MIN"] = S.act_min;
  B["ACT_MAX"] = S.act_max;
  B["TIES_BELOW"] = S.act_min < S.output_offset;
  return true;
}

/// The bindings of cpu_depthwise_vnni.c.in for a depthwise convolution of
/// \p C channels with a KH x KW filter over an input \p IW wide (see the
/// template for the layout and the algebra): the run, the tap offsets, the
/// filter quads, the folded bias, the zero point's row and the
/// requantization table, all in the quads' element order. False when a
/// folded value leaves int32, a uint8 filter value is not the sum of two
/// int8 or the zero point is not a value of the input type.
template <typename P>
bool bindDepthwiseVnni(tmpl::Bindings &B, const ir::Tensor &Filter,
                       ArrayRef<int64_t> Bias, const P &Params, bool PerChannel,
                       int64_t C, int64_t KH, int64_t KW, int64_t IW) {
  const auto &S = Params.Scalars;
  const bool Unsigned = Filter.Type == ir::DType::U8;
  const int64_t Taps = KH * KW, NQ = (Taps + 3) / 4;
  const int64_t Run =
      S.stride_w == 1 && (C == 4 || C == 8 || C == 16 || C == 32) ? 64 / C : 1;
  const int64_t G = (Run * C + 63) / 64, Elements = Run * C;
  const int64_t ZeroPoint = -int64_t(S.input_offset);
  if (Unsigned ? (ZeroPoint < 0 || ZeroPoint > 255)
               : (ZeroPoint < -128 || ZeroPoint > 127))
    return false;
  // Each channel's filter values (v, plus the filter offset for uint8), its
  // sum and its folded bias.
  std::vector<int64_t> V(Taps * C), Folded(C);
  bool Split = false;
  for (int64_t Ch = 0; Ch < C; ++Ch) {
    int64_t Sum = 0;
    for (int64_t T = 0; T < Taps; ++T) {
      const int64_t W = elementAt(Filter, T * C + Ch) + S.filter_offset;
      if (W < -256 || W > 254)
        return false;
      Split |= W < -128 || W > 127;
      V[T * C + Ch] = W;
      Sum += W;
    }
    Folded[Ch] =
        Bias[Ch] + (int64_t(S.input_offset) - (Unsigned ? 0 : 128)) * Sum;
    if (!fitsInt32(Folded[Ch]))
      return false;
  }
  // Element e of group g in vector r, dword L: 64 g + 16 (L / 4) + 4 r +
  // L % 4; -1 past the run.
  auto ChannelAt = [&](int64_t Gi, int64_t R, int64_t L) -> int64_t {
    const int64_t E = 64 * Gi + 16 * (L / 4) + 4 * R + L % 4;
    return E < Elements ? E % C : -1;
  };
  std::vector<int64_t> Filter1(G * NQ * 256, 0), Filter2(G * NQ * 256, 0),
      BiasQ(G * 64, 0), Columns(G * 64, -1);
  for (int64_t Gi = 0; Gi < G; ++Gi)
    for (int64_t R = 0; R < 4; ++R)
      for (int64_t L = 0; L < 16; ++L) {
        const int64_t Ch = ChannelAt(Gi, R, L);
        if (Ch < 0)
          continue;
        BiasQ[Gi * 64 + R * 16 + L] = Folded[Ch];
        Columns[Gi * 64 + R * 16 + L] = Ch;
        for (int64_t T = 0; T < Taps; ++T) {
          const int64_t W = V[T * C + Ch];
          const int64_t At = ((Gi * NQ + T / 4) * 4 + R) * 64 + 4 * L + T % 4;
          // v = v1 + v2 with both in int8 when Split (floor and ceiling of
          // v / 2).
          Filter1[At] = Split ? (W >= 0 ? W / 2 : -((1 - W) / 2)) : W;
          Filter2[At] = W - Filter1[At];
        }
      }
  auto Q = kernelRequantTable(Params, PerChannel, Columns,
                              CpuIsaLevel::Avx512Vnni);
  if (!Q)
    return false;
  Value::List Offsets;
  for (int64_t T = 0; T < NQ * 4; ++T) {
    const int64_t Tap = std::min(T, Taps - 1);
    Offsets.push_back(Value(
        ((Tap / KW) * S.dilation_h * IW + (Tap % KW) * S.dilation_w) * C));
  }
  B["S"] = Unsigned ? "u8" : "i8";
  B["P"] = Run;
  B["G"] = G;
  B["NQ"] = NQ;
  B["TAP_OFFSETS"] = Value(std::move(Offsets));
  B["SPLIT"] = Split;
  B["FILTER"] = initializer(Filter1);
  B["FILTER2"] = initializer(Filter2);
  B["BIAS"] = initializer(BiasQ);
  B["ZERO"] = initializer(std::vector<int64_t>(G * 64, ZeroPoint));
  B["Q"] = Q->Initializer;
  B["ANY_LEFT"] = Q->AnyLeft;
  B["Q_OFFSET"] = Q->Offset;
  B["ACT_MIN"] = S.act_min;
  B["ACT_MAX"] = S.act_max;
  B["TIES_BELOW"] = S.act_min < S.output_offset;
  return true;
}

/// cpu_gemm_simd.c.in's tiles read packed rows: DIRECT's copies of the
/// input rows, or PATCH's im2col rows.
void bindPackedRows(tmpl::Bindings &B) {
  B["WINDOW"] = false;
  B["ROW_STRIDE"] = B["KP"];
  B["KOFF"] = "k";
  B["KOFFS"] = "";
}

/// Where the tiles of cpu_gemm_simd.c.in, bound by bindGemmSimd, read the
/// rows of a convolution with parameters \p S: packed rows, or, for int8
/// with an input depth \p IC that is a multiple of KG and at most two
/// vectors of columns per tile (uint8 sums its rows as it packs them),
/// WINDOW: per output row a buffer of the KH input rows
/// its windows read (converted, padded with the zero point), each tile's
/// rows and depth at constant offsets in it, so that no window is copied.
template <typename P>
void bindGemmRows(tmpl::Bindings &B, bool Direct, bool Unsigned,
                  int64_t Batches, int64_t IC, int64_t IW, int64_t OW,
                  int64_t KH, int64_t KW, const P &S) {
  bindPackedRows(B);
  const int64_t KG = B["KG"].getInt(), KP = B["KP"].getInt();
  // Tiles do not cross output rows: as few as the tile allows, of equal
  // height.
  const int64_t Tiles = (OW + B["MR"].getInt() - 1) / B["MR"].getInt(),
                MR = (OW + Tiles - 1) / Tiles;
  // The buffer's row: the widest reach of a row's last tile, its rows past
  // the row's end included.
  const int64_t Row = std::max<int64_t>(
      ((OW - 1 + MR) * S.stride_w + (KW - 1) * S.dilation_w + 1) * IC,
      (S.pad_left + IW) * IC);
  // Windows of one tap do not overlap, so there is nothing to save; with
  // four vectors of columns per tile the dot products outweigh the copies
  // (and the shorter tiles cost more than they save). The buffer is on the
  // stack: at most 16 KB (bytes with VNNI, else int16).
  if (Direct || Unsigned || IC % KG != 0 || KH * KW == 1 ||
      KH * Row * (KG == 4 ? 1 : 2) > 16384 || B["NV"].getInt() > 2)
    return;
  B["WINDOW"] = true;
  B["MR"] = MR;
  B["B"] = Batches;
  B["BUF_ROW"] = Row;
  B["ROW_STRIDE"] = S.stride_w * IC;
  B["KOFF"] =
      B["FUNCTION"].getString() + "_koff[k / " + std::to_string(KG) + "]";
  std::vector<int64_t> Offsets;
  for (int64_t K = 0; K < KP; K += KG) {
    const int64_t Tap = K / IC, C = K % IC;
    Offsets.push_back((Tap / KW) * Row + (Tap % KW) * S.dilation_w * IC + C);
  }
  B["KOFFS"] = initializer(Offsets);
}

/// The window of a convolution-like operator: input and output height and
/// width, kernel size, and the strides, dilations and padding of its
/// parameters \p S (IH, IW, OH, OW, KH, KW, SH, SW, DH, DW, PT, PL).
template <typename P>
void bindWindow(tmpl::Bindings &B, int64_t IH, int64_t IW, int64_t OH,
                int64_t OW, int64_t KH, int64_t KW, const P &S) {
  B["IH"] = IH;
  B["IW"] = IW;
  B["OH"] = OH;
  B["OW"] = OW;
  B["KH"] = KH;
  B["KW"] = KW;
  B["SH"] = S.stride_h;
  B["SW"] = S.stride_w;
  B["DH"] = S.dilation_h;
  B["DW"] = S.dilation_w;
  B["PT"] = S.pad_top;
  B["PL"] = S.pad_left;
}

/// True if \p Name is one of \p Names.
/// The reference functions the templates specialise: elementwise, the
/// GEMM (convolutions, fully connected layers) and depthwise kernels.
const char *const ElementwiseFunctions[] = {"ref_add_i8", "ref_sub_i8",
                                            "ref_mul_i8", "ref_add_u8",
                                            "ref_sub_u8", "ref_mul_u8"};
const char *const ConvFunctions[] = {"ref_conv2d_i8",
                                     "ref_conv2d_i8_per_channel",
                                     "ref_conv2d_u8"};
const char *const FullyConnectedFunctions[] = {
    "ref_fully_connected_i8", "ref_fully_connected_i8_per_channel",
    "ref_fully_connected_u8"};
const char *const DepthwiseFunctions[] = {"ref_depthwise_conv2d_i8",
                                          "ref_depthwise_conv2d_i8_per_channel",
                                          "ref_depthwise_conv2d_u8"};

bool among(ArrayRef<const char *> Names, StringRef Name) {
  return llvm::is_contained(Names, Name);
}


bool isQuantized8(ir::DType T) {
  return T == ir::DType::I8 || T == ir::DType::U8;
}

/// \p Function's prototype with \p Parameters.
std::string declaration(StringRef Function, StringRef Parameters) {
  return formatv("void {0}({1});", Function, Parameters).str();
}

/// The data arguments of tensors \p Tensors.
std::vector<CpuKernelArg> kernelArgs(ArrayRef<int32_t> Tensors) {
  std::vector<CpuKernelArg> Args;
  for (int32_t T : Tensors)
    Args.push_back({CpuKernelArg::Data, T});
  return Args;
}

/// ADD, SUB or MUL of two int8 or uint8 inputs with the output's element
/// count (in a stripe, \p Stripe: a count argument).
Expected<std::optional<CpuKernel>>
specialiseElementwise(const ir::Graph &G, size_t Index,
                      const kernels::KernelCall &Call, StringRef Function,
                      bool Stripe) {
  const ir::Operator &Op = G.Operators[Index];
  if (Call.DataInputs.size() != 2 || Op.Outputs.empty() ||
      Call.DataInputs[0] < 0 || Call.DataInputs[1] < 0)
    return std::nullopt;
  const ir::Tensor &A = G.tensor(Call.DataInputs[0]),
                   &B2 = G.tensor(Call.DataInputs[1]),
                   &Out = G.tensor(Op.Outputs[0]);
  if (!isQuantized8(Out.Type) || A.Type != Out.Type || B2.Type != Out.Type ||
      A.numElements() != Out.numElements() ||
      B2.numElements() != Out.numElements() || Out.numElements() < 1)
    return std::nullopt;
  const ref_elementwise_params &S =
      std::get<kernels::FamilyParams<ref_elementwise_params>>(Call.Params)
          .Scalars;
  const std::string OpName = StringRef(Call.Function)
                                 .drop_front(strlen("ref_"))
                                 .drop_back(strlen("_i8"))
                                 .str();
  tmpl::Bindings B;
  B["FUNCTION"] = Function.str();
  B["T"] = cType(Out.Type).str();
  B["COMMENT"] = formatv("operator {0}: {1} {2} and {3} -> {4}, no "
                         "broadcasting",
                         Index, Op.Type, shapeText(A.Shape),
                         shapeText(B2.Shape), shapeText(Out.Shape))
                     .str();
  B["OP"] = OpName;
  B["STRIPE"] = Stripe;
  B["COUNT"] = Out.numElements();
  B["INPUT1_OFFSET"] = S.input1_offset;
  B["INPUT2_OFFSET"] = S.input2_offset;
  B["OUTPUT_OFFSET"] = S.output_offset;
  B["INPUT_LEFT_SHIFT"] = S.input_left_shift;
  B["INPUT1_MULTIPLIER"] = S.input1_multiplier;
  B["INPUT1_SHIFT"] = S.input1_left_shift;
  B["INPUT2_MULTIPLIER"] = S.input2_multiplier;
  B["INPUT2_SHIFT"] = S.input2_left_shift;
  B["OUTPUT_MULTIPLIER"] = S.output_multiplier;
  B["OUTPUT_SHIFT"] = S.output_left_shift;
  B["ACT_MIN"] = S.act_min;
  B["ACT_MAX"] = S.act_max;
  Expected<std::string> Text = renderTemplate("cpu_elementwise.c.in", B);
  if (!Text)
    return Text.takeError();
  CpuKernel K;
  K.Function = Function.str();
  K.Declaration = declaration(
      Function, formatv("const {0} *input1, const {0} *input2, {0} *output{1}",
                        cType(Out.Type), Stripe ? ", int32_t count" : "")
                    .str());
  K.Definition = StringRef(*Text).rtrim("\n").str();
  const int32_t Tensors[] = {Call.DataInputs[0], Call.DataInputs[1],
                             Op.Outputs[0]};
  K.Arguments = kernelArgs(Tensors);
  if (Stripe)
    K.Arguments.push_back({CpuKernelArg::Count, -1});
  return std::optional<CpuKernel>(std::move(K));
}

} // namespace

std::optional<CpuRequantTable> cpuRequantTable(ArrayRef<int32_t> Multipliers,
                                               ArrayRef<int32_t> LeftShifts,
                                               int32_t OutputOffset,
                                               CpuIsaLevel Isa) {
  assert(Isa != CpuIsaLevel::Portable &&
         Multipliers.size() == LeftShifts.size());
  const bool Avx2 = Isa == CpuIsaLevel::Avx2;
  const size_t Lanes = Avx2 ? 8 : 16;
  CpuRequantTable Table;
  Table.Vectors = (Multipliers.size() + Lanes - 1) / Lanes;
  const int64_t One = 1;
  // AVX-512 folds the offset into add (see below) when |offset| < 2^(29-s)
  // for every right shift s (none for s >= 30); then add stays under 2^61
  // and a product's p + add - sub (|p| < 2^62) within int64.
  const int64_t AbsOffset =
      OutputOffset < 0 ? -int64_t(OutputOffset) : int64_t(OutputOffset);
  bool Fold = !Avx2;
  for (size_t C = 0; C < Multipliers.size(); ++C) {
    const int64_t R = LeftShifts[C] > 0 ? 0 : -int64_t(LeftShifts[C]);
    if (AbsOffset != 0 && (R >= 30 || AbsOffset >= (One << (29 - R))))
      Fold = false;
  }
  const int64_t Folded = Fold ? OutputOffset : 0;
  Table.Offset = Fold ? 0 : OutputOffset;
  for (int64_t V = 0; V < Table.Vectors; ++V) {
    // Per lane; the AVX-512 64-bit fields hold the even lanes, then the odd
    // ones.
    std::vector<int64_t> Mult(Lanes, 0), Left(Lanes, 0), Right(Lanes, 0),
        Mask(Lanes, 0), Half(Lanes, 0), Add(Lanes, 0), Sub(Lanes, 0),
        Shift(Lanes, 0);
    for (size_t L = 0; L < Lanes; ++L) {
      const size_t C = V * Lanes + L;
      const int64_t M = C < Multipliers.size() ? Multipliers[C] : 0;
      const int64_t E = C < Multipliers.size() ? LeftShifts[C] : 0;
      if (M == std::numeric_limits<int32_t>::min() || E < -31 || E > 30)
        return std::nullopt;
      const int64_t R = E > 0 ? 0 : -E;
      Left[L] = E > 0 ? E : 0;
      if (Avx2) {
        Mult[L] = M;
        Right[L] = R;
        Mask[L] = (One << R) - 1;
        Half[L] = Mask[L] >> 1;
        continue;
      }
      // cpu_requantize: add = 2^30 + [R > 0] 2^(30+R) + offset 2^(31+R),
      // sub = [R > 0] 2^31.
      const size_t Slot = (L % 2) * (Lanes / 2) + L / 2;
      Mult[Slot] = M;
      Add[Slot] = (One << 30) + (R > 0 ? One << (30 + R) : 0) +
                  Folded * (One << (31 + R));
      Sub[Slot] = R > 0 ? One << 31 : 0;
      Shift[Slot] = 31 + R;
    }
    Table.AnyLeft |= llvm::any_of(Left, [](int64_t S) { return S != 0; });
    std::vector<std::pair<StringRef, ArrayRef<int64_t>>> Fields;
    if (Avx2)
      Fields = {{"mult", Mult},
                {"left", Left},
                {"right", Right},
                {"mask", Mask},
                {"half", Half}};
    else
      Fields = {{"left", Left},
                {"mult", Mult},
                {"add", Add},
                {"sub", Sub},
                {"shift", Shift}};
    for (size_t F = 0; F < Fields.size(); ++F) {
      const std::string Head =
          (F == 0 ? "    {." : "     .") + Fields[F].first.str() + " = ";
      Table.Initializer +=
          Head + bracedList(Fields[F].second, Head.size(), Head.size() + 1) +
          (F + 1 < Fields.size() ? ",\n" : "},\n");
    }
  }
  return Table;
}

Expected<std::string> renderCpuSimdPrimitives(const CpuChoice &Cpu,
                                              ArrayRef<std::string> Used) {
  tmpl::Bindings P;
  P["ISA"] = isaName(Cpu.Level).str();
  std::vector<std::string> Defined;
  for (const char *Macro : isaMacros(Cpu.Level))
    Defined.push_back(formatv("defined({0})", Macro).str());
  P["GUARD"] = join(Defined, " && ");
  P["CPU"] = Cpu.Name;
  P["FLAGS"] = Cpu.Flags;
  P["USED"] = Value(Value::List(Used.begin(), Used.end()));
  Expected<std::string> Text = renderTemplate("cpu_simd.c.in", P);
  if (!Text)
    return Text.takeError();
  return StringRef(*Text).rtrim("\n").str();
}

Expected<std::optional<CpuKernel>>
specialiseCpuKernel(const ir::Graph &G, size_t Index,
                    const kernels::KernelCall &Call, StringRef Function,
                    CpuIsaLevel Isa, bool Stripe) {
  const ir::Operator &Op = G.Operators[Index];
  const bool PerChannel = Call.Variant == "per_channel";
  if (among(ElementwiseFunctions, Call.Function))
    return specialiseElementwise(G, Index, Call, Function, Stripe);
  if (Call.DataInputs.size() != 3 || Op.Outputs.empty())
    return std::nullopt;
  const int32_t InId = Call.DataInputs[0], FilterId = Call.DataInputs[1],
                OutId = Op.Outputs[0];
  if (InId < 0 || FilterId < 0)
    return std::nullopt;
  const ir::Tensor &In = G.tensor(InId), &Filter = G.tensor(FilterId),
                   &Out = G.tensor(OutId);
  if (!isQuantized8(Out.Type) || In.Type != Out.Type ||
      Filter.Type != Out.Type || !Filter.IsConstant ||
      static_cast<int64_t>(Filter.Data.size()) != Filter.numElements())
    return std::nullopt;
  // A stripe is of one image (plan::whyNotStripable).
  if (Stripe && (In.rank() != 4 || In.Shape[0] != 1))
    return std::nullopt;
  // Nothing to compute (a batch of 0, an empty filter): the reference
  // kernel's loops run zero times; the templates assume work.
  if (In.numElements() == 0 || Out.numElements() == 0 ||
      Filter.numElements() == 0)
    return std::nullopt;

  tmpl::Bindings B;
  B["FUNCTION"] = Function.str();
  B["STRIPE"] = Stripe;
  B["T"] = cType(Out.Type).str();
  const bool Unsigned = Out.Type == ir::DType::U8;
  std::string Template;
  bool Simd = false;
  if (among(ConvFunctions, Call.Function)) {
    const auto &P =
        std::get<kernels::FamilyParams<ref_conv2d_params>>(Call.Params);
    const ref_conv2d_params &S = P.Scalars;
    if (In.Shape.size() != 4 || Filter.Shape.size() != 4 ||
        Out.Shape.size() != 4 || Filter.Shape[3] != In.Shape[3] ||
        (!Unsigned && S.filter_offset != 0))
      return std::nullopt;
    const int64_t Batches = In.Shape[0], IH = In.Shape[1], IW = In.Shape[2],
                  IC = In.Shape[3], OC = Filter.Shape[0], KH = Filter.Shape[1],
                  KW = Filter.Shape[2], OH = Out.Shape[1], OW = Out.Shape[2];
    const int64_t M = Batches * OH * OW, K = KH * KW * IC;
    auto Bias = constantBias(G, Call.DataInputs[2], OC);
    if (!Bias || !accumulatorsFit(Filter, *Bias, OC, /*ChannelInnermost=*/false,
                                  Unsigned ? S.filter_offset : 0))
      return std::nullopt;
    Simd = Isa != CpuIsaLevel::Portable &&
           bindGemmSimd(B, Filter, *Bias, P, PerChannel, M, OC, K, Isa);
    if (!Simd && !bindGemm(B, Filter, *Bias, S, M, OC, K))
      return std::nullopt;
    const bool Direct = KH == 1 && KW == 1 && S.stride_h == 1 &&
                        S.stride_w == 1 && S.pad_top == 0 && S.pad_left == 0 &&
                        OH == IH && OW == IW;
    B["COMMENT"] =
        formatv("operator {0}: CONV_2D {1} -> {2}, filter {3}, stride {4}x{5}, "
                "dilation {6}x{7}, padding top {8} left {9}{10}",
                Index, shapeText(In.Shape), shapeText(Out.Shape),
                shapeText(Filter.Shape), S.stride_h, S.stride_w, S.dilation_h,
                S.dilation_w, S.pad_top, S.pad_left,
                Direct ? "; the input is the GEMM's left matrix" : "")
            .str();
    B["M"] = M;
    B["K"] = K;
    B["N"] = OC;
    B["DIRECT"] = Direct;
    B["IC"] = IC;
    bindWindow(B, IH, IW, OH, OW, KH, KW, S);
    if (!Simd)
      bindRequantization(B, P, PerChannel);
    B["PATCH"] = "";
    if (!Direct) {
      Expected<std::string> Patch = renderTemplate("cpu_patch.c.in", B);
      if (!Patch)
        return Patch.takeError();
      B["PATCH"] = StringRef(*Patch).rtrim("\n").str();
    }
    if (Simd)
      bindGemmRows(B, Direct, Unsigned, Batches, IC, IW, OW, KH, KW, S);
    Template = Simd ? "cpu_gemm_simd.c.in" : "cpu_gemm.c.in";
  } else if (among(FullyConnectedFunctions, Call.Function)) {
    // Its output is no image: it never runs in a cascade.
    if (Stripe)
      return std::nullopt;
    const auto &P = std::get<kernels::FamilyParams<ref_fully_connected_params>>(
        Call.Params);
    const ref_fully_connected_params &S = P.Scalars;
    if (Filter.Shape.size() != 2 || (!Unsigned && S.filter_offset != 0))
      return std::nullopt;
    const int64_t N = Filter.Shape[0], K = Filter.Shape[1];
    if (K <= 0 || In.numElements() % K != 0 ||
        Out.numElements() != In.numElements() / K * N)
      return std::nullopt;
    const int64_t M = In.numElements() / K;
    auto Bias = constantBias(G, Call.DataInputs[2], N);
    if (!Bias || !accumulatorsFit(Filter, *Bias, N, /*ChannelInnermost=*/false,
                                  Unsigned ? S.filter_offset : 0))
      return std::nullopt;
    Simd = Isa != CpuIsaLevel::Portable &&
           bindGemmSimd(B, Filter, *Bias, P, PerChannel, M, N, K, Isa);
    if (!Simd && !bindGemm(B, Filter, *Bias, S, M, N, K))
      return std::nullopt;
    B["COMMENT"] = formatv("operator {0}: FULLY_CONNECTED {1} -> {2}, filter "
                           "{3}; the input is the GEMM's left matrix",
                           Index, shapeText(In.Shape), shapeText(Out.Shape),
                           shapeText(Filter.Shape))
                       .str();
    B["M"] = M;
    B["K"] = K;
    B["N"] = N;
    B["DIRECT"] = true;
    B["PATCH"] = "";
    if (!Simd)
      bindRequantization(B, P, PerChannel);
    else
      bindPackedRows(B);
    Template = Simd ? "cpu_gemm_simd.c.in" : "cpu_gemm.c.in";
  } else if (among(DepthwiseFunctions, Call.Function)) {
    const auto &P =
        std::get<kernels::FamilyParams<ref_depthwise_conv2d_params>>(
            Call.Params);
    const ref_depthwise_conv2d_params &S = P.Scalars;
    // Output channel c reads input channel c / DM.
    const int64_t DM = S.depth_multiplier;
    if (In.Shape.size() != 4 || Filter.Shape.size() != 4 ||
        Out.Shape.size() != 4 || DM < 1 || Filter.Shape[0] != 1 ||
        Filter.Shape[3] != In.Shape[3] * DM ||
        Out.Shape[3] != In.Shape[3] * DM ||
        (!Unsigned && S.filter_offset != 0))
      return std::nullopt;
    const int64_t Batches = In.Shape[0], IH = In.Shape[1], IW = In.Shape[2],
                  C = In.Shape[3], KH = Filter.Shape[1], KW = Filter.Shape[2],
                  OH = Out.Shape[1], OW = Out.Shape[2], OC = C * DM;
    auto Bias = constantBias(G, Call.DataInputs[2], OC);
    if (!Bias || !accumulatorsFit(Filter, *Bias, OC, /*ChannelInnermost=*/true,
                                  Unsigned ? S.filter_offset : 0))
      return std::nullopt;
    auto Hoisted = hoistedBias(Filter, *Bias, OC, KH * KW, S.input_offset,
                               S.filter_offset, /*Interleaved=*/true);
    if (!Hoisted)
      return std::nullopt;
    // The interior: outputs whose whole window lies inside the input along
    // one axis; contiguous, possibly empty.
    auto Interior = [](int64_t Outputs, int64_t Stride, int64_t Pad,
                       int64_t Dilation, int64_t Taps, int64_t Size) {
      int64_t First = -1, Last = -1;
      for (int64_t O = 0; O < Outputs; ++O) {
        const int64_t Begin = O * Stride - Pad;
        if (Begin >= 0 && Begin + (Taps - 1) * Dilation < Size) {
          if (First < 0)
            First = O;
          Last = O;
        }
      }
      return First < 0 ? std::make_pair(int64_t(0), int64_t(0))
                       : std::make_pair(First, Last + 1);
    };
    auto [OY0, OY1] = Interior(OH, S.stride_h, S.pad_top, S.dilation_h, KH, IH);
    auto [OX0, OX1] =
        Interior(OW, S.stride_w, S.pad_left, S.dilation_w, KW, IW);
    B["COMMENT"] =
        formatv("operator {0}: DEPTHWISE_CONV_2D {1} -> {2}, filter {3}, "
                "stride {4}x{5}, dilation {6}x{7}, padding top {8} left {9}",
                Index, shapeText(In.Shape), shapeText(Out.Shape),
                shapeText(Filter.Shape), S.stride_h, S.stride_w, S.dilation_h,
                S.dilation_w, S.pad_top, S.pad_left)
            .str();
    B["B"] = Batches;
    B["C"] = C;
    B["DM"] = DM;
    bindWindow(B, IH, IW, OH, OW, KH, KW, S);
    B["OY0"] = OY0;
    B["OY1"] = OY1;
    B["OX0"] = OX0;
    B["OX1"] = OX1;
    B["INPUT_OFFSET"] = S.input_offset;
    B["FILTER_OFFSET"] = S.filter_offset;
    B["BIAS"] = initializer(*Hoisted);
    B["RAW_BIAS"] = initializer(*Bias);
    Template = "cpu_depthwise_conv.c.in";
    // The SIMD kernels take one output channel per input channel; a depth
    // multiplier runs the portable kernel, which the compiler vectorises.
    if (DM == 1 && Isa == CpuIsaLevel::Avx512Vnni &&
        bindDepthwiseVnni(B, Filter, *Bias, P, PerChannel, C, KH, KW, IW)) {
      Template = "cpu_depthwise_vnni.c.in";
      Simd = true;
    } else if (Isa != CpuIsaLevel::Portable && DM == 1) {
      const int64_t Lanes = Isa == CpuIsaLevel::Avx2 ? 8 : 16,
                    CPad = (C + Lanes - 1) / Lanes * Lanes;
      if (auto Q = kernelRequantTable(P, PerChannel, identityColumns(C),
                                      Isa)) {
        std::vector<int64_t> Widened(KH * KW * CPad, 0), Folded(CPad, 0),
            Raw(CPad, 0);
        for (int64_t T = 0; T < KH * KW; ++T)
          for (int64_t Ch = 0; Ch < C; ++Ch)
            Widened[T * CPad + Ch] =
                (elementAt(Filter, T * C + Ch) + S.filter_offset) & 0xFFFF;
        std::copy(Hoisted->begin(), Hoisted->end(), Folded.begin());
        std::copy(Bias->begin(), Bias->end(), Raw.begin());
        B["S"] = Unsigned ? "u8" : "i8";
        B["LANES"] = Lanes;
        B["CPAD"] = CPad;
        B["FILTER"] = initializer(Widened);
        B["BIAS"] = initializer(Folded);
        B["RAW_BIAS"] = initializer(Raw);
        B["Q"] = Q->Initializer;
        B["ANY_LEFT"] = Q->AnyLeft;
        B["Q_OFFSET"] = Q->Offset;
        B["OUTPUT_OFFSET"] = S.output_offset;
        B["ACT_MIN"] = S.act_min;
        B["ACT_MAX"] = S.act_max;
        B["TIES_BELOW"] = S.act_min < S.output_offset;
        Template = "cpu_depthwise_simd.c.in";
        Simd = true;
      }
    }
    if (!Simd)
      bindRequantization(B, P, PerChannel);
  } else {
    return std::nullopt;
  }

  Expected<std::string> Text = renderTemplate(Template, B);
  if (!Text)
    return Text.takeError();
  CpuKernel K;
  K.Function = Function.str();
  const bool Gemm = StringRef(Template).startswith("cpu_gemm");
  const char *Parameters =
      Stripe ? (Gemm ? "const {0} *input, int32_t in_lo, {0} *output, "
                       "int32_t oy0, int32_t oy1"
                     : "const {0} *input, int32_t in_lo, const {0} *filter, "
                       "{0} *output, int32_t oy0, int32_t oy1")
             : (Gemm ? "const {0} *input, {0} *output"
                     : "const {0} *input, const {0} *filter, {0} *output");
  K.Declaration =
      declaration(Function, formatv(Parameters, cType(Out.Type)).str());
  K.Definition = StringRef(*Text).rtrim("\n").str();
  std::vector<int32_t> Tensors = {InId, OutId};
  if (!Gemm)
    Tensors.insert(Tensors.begin() + 1, FilterId);
  K.Arguments = kernelArgs(Tensors);
  if (Stripe) {
    K.Arguments.insert(K.Arguments.begin() + 1, {CpuKernelArg::InputRow, -1});
    K.Arguments.push_back({CpuKernelArg::OutputBegin, -1});
    K.Arguments.push_back({CpuKernelArg::OutputEnd, -1});
  }
  K.Simd = Simd;
  return std::optional<CpuKernel>(std::move(K));
}

std::string cpuReferenceReason(const ir::Graph &G, size_t Index,
                               const kernels::KernelCall &Call) {
  const ir::Operator &Op = G.Operators[Index];
  const bool Specialised = among(ElementwiseFunctions, Call.Function) ||
                           among(ConvFunctions, Call.Function) ||
                           among(FullyConnectedFunctions, Call.Function) ||
                           among(DepthwiseFunctions, Call.Function);
  if (!Specialised) {
    const ir::DType T = Op.Outputs.empty() || !G.isValidTensor(Op.Outputs[0])
                            ? ir::DType::I8
                            : G.tensor(Op.Outputs[0]).Type;
    return formatv("no specialised kernel for {0} {1}", ir::dtypeName(T),
                   Op.Type)
        .str();
  }
  if (Call.DataInputs.size() == 3) {
    const int32_t Filter = Call.DataInputs[1], Bias = Call.DataInputs[2];
    if (Filter < 0 || !G.tensor(Filter).IsConstant)
      return "its weights are not constant";
    if (Bias >= 0 && !G.tensor(Bias).IsConstant)
      return "its bias is not constant";
    const int64_t Channels =
        among(FullyConnectedFunctions, Call.Function) ? G.tensor(Filter).Shape[0]
        : Op.Outputs.empty() ? 0
                             : G.tensor(Op.Outputs[0]).Shape.back();
    auto Values = constantBias(G, Bias, Channels);
    const bool Unsigned = G.tensor(Filter).Type == ir::DType::U8;
    int32_t FilterOffset = 0;
    if (Unsigned && G.tensor(Filter).Quant)
      FilterOffset = -int32_t(G.tensor(Filter).Quant->zeroPoint());
    if (Values &&
        !accumulatorsFit(G.tensor(Filter), *Values, Channels,
                         among(DepthwiseFunctions, Call.Function),
                         FilterOffset))
      return "its accumulator could leave int32 (the reference kernel wraps "
             "it as TensorFlow Lite does)";
  }
  return "its shapes or parameters are outside the specialised kernels' "
         "cases";
}

Expected<std::vector<std::pair<std::string, std::string>>>
renderCpuKernelFiles(ArrayRef<CpuKernel> Kernels, StringRef Name,
                     const CpuChoice &Cpu) {
  Value::List Definitions, Declarations;
  bool Simd = false;
  for (const CpuKernel &K : Kernels) {
    Definitions.push_back(K.Definition);
    Declarations.push_back(K.Declaration);
    Simd |= K.Simd;
  }
  std::vector<std::pair<std::string, std::string>> Files;
  tmpl::Bindings B;
  B["SIMD"] = "";
  if (Simd) {
    // The primitives the kernels call: every word "cpu_..." before a "(".
    std::set<std::string> Used;
    for (const CpuKernel &K : Kernels)
      for (size_t At = K.Definition.find("cpu_"); At != std::string::npos;
           At = K.Definition.find("cpu_", At + 1)) {
        size_t End = At;
        while (End < K.Definition.size() &&
               (isAlnum(K.Definition[End]) || K.Definition[End] == '_'))
          ++End;
        if (End < K.Definition.size() && K.Definition[End] == '(' &&
            (At == 0 || !isAlnum(K.Definition[At - 1])))
          Used.insert(K.Definition.substr(At, End - At));
      }
    Expected<std::string> Text = renderCpuSimdPrimitives(
        Cpu, std::vector<std::string>(Used.begin(), Used.end()));
    if (!Text)
      return Text.takeError();
    B["SIMD"] = *Text;
  }
  B["FUNCTIONS"] = Value(std::move(Definitions));
  B["DECLARATIONS"] = Value(std::move(Declarations));
  B["GUARD"] = StringRef(Name).upper() + "_CPU_KERNELS_H";
  for (StringRef File : {"cpu_kernels.c", "cpu_kernels.h"}) {
    std::string TemplateName = (File + ".in").str();
    B["BANNER"] = cBannerOf("targets/cpu/templates/" + TemplateName);
    Expected<std::string> Text = renderTemplate(TemplateName, B);
    if (!Text)
      return Text.takeError();
    Files.emplace_back(File.str(), std::move(*Text));
  }
  return Files;
}

} // namespace cpu
} // namespace accelgen
