//===- BuiltinOracleTest.cpp - More builtins against TensorFlow Lite Micro -===//
//
// The builtin operators beyond the first 26, each in every element type
// TensorFlow Lite Micro's reference kernel takes, over shapes and
// broadcasts, against the bit-exact truth (the shared tflm_runner) on every
// target: many single-operator layers in one model, so each target builds
// one program (OracleSweep.h).
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "OracleSweep.h"

#include "ir/GraphBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

/// Pseudo-random layers, each reading graph inputs and writing a graph
/// output.
class Builtins : public Picker {
public:
  explicit Builtins(uint32_t Seed) : Picker(Seed) {}

  std::string name() { return "t" + std::to_string(B.G.Tensors.size()); }
  /// A tensor of type \p T (quantized, with \p Scale and \p Zp, when an
  /// integer type of 8 or 16 bits; uint8's zero point is \p Zp + 128).
  int32_t tensor(ir::DType T, std::vector<int32_t> Shape, float Scale,
                 int64_t Zp) {
    std::optional<ir::QuantParams> Q;
    if (T == ir::DType::I8 || T == ir::DType::I16 || T == ir::DType::U8)
      Q = ir::perTensor(Scale, T == ir::DType::I16  ? 0
                               : T == ir::DType::U8 ? Zp + 128
                                                    : Zp);
    return B.tensor(name(), std::move(Shape), Q, T);
  }

  /// A shape of rank 1 to 4 and one that broadcasts against it (some
  /// dimensions 1, or fewer of them), in random order.
  std::pair<std::vector<int32_t>, std::vector<int32_t>> broadcastPair() {
    std::vector<int32_t> Full(static_cast<size_t>(pick(1, 4)));
    for (int32_t &D : Full)
      D = pick(1, 5);
    std::vector<int32_t> Other = Full;
    if (coin()) {
      for (int32_t &D : Other)
        if (coin())
          D = 1;
      if (coin() && Other.size() > 1)
        Other.erase(Other.begin());
    }
    return coin() ? std::pair(Full, Other) : std::pair(Other, Full);
  }

  /// MAXIMUM or MINIMUM of two inputs of type \p T, broadcast.
  void minMax(bool Max, ir::DType T) {
    auto [SA, SB] = broadcastPair();
    std::vector<int32_t> Out(std::max(SA.size(), SB.size()));
    for (size_t I = 0; I < Out.size(); ++I) {
      auto Dim = [&](const std::vector<int32_t> &S) {
        return I < S.size() ? S[S.size() - 1 - I] : 1;
      };
      Out[Out.size() - 1 - I] = std::max(Dim(SA), Dim(SB));
    }
    const float Scale = 0.05f;
    const int64_t Zp = pick(-20, 20);
    const int32_t A = tensor(T, SA, Scale, Zp), C = tensor(T, SB, Scale, Zp);
    Inputs.push_back(A);
    Inputs.push_back(C);
    const int32_t O = tensor(T, Out, Scale, Zp);
    Outputs.push_back(O);
    B.op(Max ? "MAXIMUM" : "MINIMUM", {A, C}, {O});
  }

  /// SPACE_TO_DEPTH (or DEPTH_TO_SPACE) of type \p T: blocks of 1 to 3.
  void spaceDepth(bool ToDepth, ir::DType T) {
    const int32_t N = pick(1, 2), H = pick(1, 4), W = pick(1, 4),
                  C = pick(1, 5), Blk = pick(1, 3);
    const std::vector<int32_t> Spatial = {N, H * Blk, W * Blk, C},
                               Depth = {N, H, W, Blk * Blk * C};
    const float Scale = 0.05f;
    const int64_t Zp = pick(-20, 20);
    const int32_t In = tensor(T, ToDepth ? Spatial : Depth, Scale, Zp);
    Inputs.push_back(In);
    const int32_t O = tensor(T, ToDepth ? Depth : Spatial, Scale, Zp);
    Outputs.push_back(O);
    B.op(ToDepth ? "SPACE_TO_DEPTH" : "DEPTH_TO_SPACE", {In}, {O},
         {{"block_size", int64_t(Blk)}});
  }

  /// \p Op (a unary math operator) of type \p T, with
  /// its input's bytes appended to Bytes: floats in [-4, 4] ([0, 4] for
  /// the square roots and LOG, whose negative inputs give NaNs whose bits
  /// differ between processors; 0 included), or any integer (int8 RSQRT:
  /// at or above the zero point). An integer ABS
  /// rescales half the time; \p Raw: an int16 one without quantization.
  void unary(const char *Op, ir::DType T, bool Raw = false) {
    const std::vector<int32_t> Shape = {pick(1, 3), pick(1, 7)};
    const int32_t N = Shape[0] * Shape[1];
    const float InScale = 0.05f, OutScale = coin() ? 0.05f : 0.03f;
    const int64_t Zp = T == ir::DType::I8 ? pick(-20, 20) : 0;
    int32_t In = tensor(T, Shape, InScale, Zp);
    int32_t O = tensor(T, Shape, OutScale, T == ir::DType::I8 ? pick(-20, 20)
                                                              : 0);
    if (Raw) {
      B.G.Tensors[size_t(In)].Quant.reset();
      B.G.Tensors[size_t(O)].Quant.reset();
    }
    std::vector<uint8_t> Data;
    auto Push = [&](uint32_t V, int Bytes) {
      for (int K = 0; K < Bytes; ++K)
        Data.push_back(uint8_t(V >> (8 * K)));
    };
    const bool Root = std::string(Op) == "SQRT" ||
                      std::string(Op) == "RSQRT" || std::string(Op) == "LOG";
    for (int32_t I = 0; I < N; ++I) {
      if (T == ir::DType::F32) {
        // Half-integers now and then, for ROUND's ties.
        float F = I == 0   ? 0.0f
                  : coin() ? float(pick(-8, 8)) / 2.0f
                           : float(pick(-4000, 4000)) / 1000.0f;
        if (Root)
          F = std::fabs(F);
        uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        Push(Bits, 4);
      } else if (T == ir::DType::I16) {
        Push(uint32_t(I == 0 ? -32768 : pick(-32768, 32767)), 2);
      } else {
        // RSQRT: at or above the zero point (Micro refuses the rest at run
        // time).
        Push(uint32_t(Root ? pick(int32_t(Zp), 127) : pick(-128, 127)), 1);
      }
    }
    Bytes.push_back(std::move(Data));
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op(Op, {In}, {O});
  }

  /// A shape of rank 1 to 5, each dimension 1 to \p Max.
  std::vector<int32_t> shape(int32_t Max = 4) {
    std::vector<int32_t> S(static_cast<size_t>(pick(1, 5)));
    for (int32_t &D : S)
      D = pick(1, Max);
    return S;
  }

  /// A graph input of type \p T and \p Shape and an output of \p OutShape,
  /// the same quantization; the pair's indices.
  std::pair<int32_t, int32_t> inOut(ir::DType T, std::vector<int32_t> Shape,
                                    std::vector<int32_t> OutShape) {
    const float Scale = 0.05f;
    const int64_t Zp = pick(-20, 20);
    const int32_t In = tensor(T, std::move(Shape), Scale, Zp);
    const int32_t O = tensor(T, std::move(OutShape), Scale, Zp);
    Inputs.push_back(In);
    Outputs.push_back(O);
    return {In, O};
  }

  /// SLICE of type \p T: random begin and size (sometimes -1), int32 or
  /// int64 operands.
  void slice(ir::DType T) {
    const std::vector<int32_t> S = shape();
    std::vector<int64_t> Begin, Size;
    std::vector<int32_t> Out;
    for (int32_t D : S) {
      const int32_t Bg = pick(0, D - 1), Len = pick(1, D - Bg);
      const bool ToEnd = Bg + Len == D && coin();
      Begin.push_back(Bg);
      Size.push_back(ToEnd ? -1 : Len);
      Out.push_back(Len);
    }
    auto [In, O] = inOut(T, S, Out);
    const int32_t Rank = int32_t(S.size());
    int32_t BeginT, SizeT;
    if (coin()) {
      BeginT = B.constant(ir::DType::I64, {Rank}, Begin);
      SizeT = B.constant(ir::DType::I64, {Rank}, Size);
    } else {
      BeginT = B.constant(ir::DType::I32, {Rank},
                          std::vector<int32_t>(Begin.begin(), Begin.end()));
      SizeT = B.constant(ir::DType::I32, {Rank},
                         std::vector<int32_t>(Size.begin(), Size.end()));
    }
    B.op("SLICE", {In, BeginT, SizeT}, {O});
  }

  /// REVERSE_V2 of type \p T over a run of contiguous axes (TensorFlow
  /// Lite Micro's limit), sometimes negative.
  void reverse(ir::DType T) {
    const std::vector<int32_t> S = shape();
    const int32_t Rank = int32_t(S.size());
    const int32_t First = pick(0, Rank - 1), Count = pick(1, Rank - First);
    std::vector<int32_t> Axes;
    for (int32_t A = First; A < First + Count; ++A)
      Axes.push_back(coin() ? A : A - Rank);
    auto [In, O] = inOut(T, S, S);
    B.op("REVERSE_V2",
         {In, B.constant(ir::DType::I32, {int32_t(Axes.size())}, Axes)}, {O});
  }

  /// PACK of 1 to 4 inputs of type \p T (one quantization) along a random
  /// axis of the output, sometimes negative.
  void pack(ir::DType T) {
    const std::vector<int32_t> S = shape(3);
    const int32_t N = pick(1, 4), Rank = int32_t(S.size()) + 1;
    const int32_t Axis = pick(0, Rank - 1);
    std::vector<int32_t> Out = S;
    Out.insert(Out.begin() + Axis, N);
    const int64_t Zp = pick(-20, 20);
    std::vector<int32_t> Ins;
    for (int32_t I = 0; I < N; ++I)
      Ins.push_back(tensor(T, S, 0.05f, Zp));
    const int32_t O = tensor(T, Out, 0.05f, Zp);
    Inputs.insert(Inputs.end(), Ins.begin(), Ins.end());
    Outputs.push_back(O);
    B.op("PACK", Ins, {O}, {{"axis", int64_t(coin() ? Axis : Axis - Rank)}});
  }

  /// SPLIT (equal sizes) or SPLIT_V (random sizes, one sometimes given
  /// as -1) of type \p T into 1 to 4 results along a random axis, sometimes
  /// negative.
  void split(ir::DType T, bool Sized) {
    std::vector<int32_t> S = shape(3);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    const int32_t N = pick(1, 4);
    std::vector<int32_t> Sizes(size_t(N), pick(1, 3));
    if (Sized)
      for (int32_t &Z : Sizes)
        Z = pick(1, 3);
    S[size_t(Axis)] = 0;
    for (int32_t Z : Sizes)
      S[size_t(Axis)] += Z;
    const int64_t Zp = pick(-20, 20);
    const int32_t In = tensor(T, S, 0.05f, Zp);
    Inputs.push_back(In);
    std::vector<int32_t> Outs;
    for (int32_t Z : Sizes) {
      std::vector<int32_t> OS = S;
      OS[size_t(Axis)] = Z;
      Outs.push_back(tensor(T, OS, 0.05f, Zp));
    }
    Outputs.insert(Outputs.end(), Outs.begin(), Outs.end());
    const int32_t AxisT = B.constant(ir::DType::I32, {1},
                                     std::vector<int32_t>{coin() ? Axis
                                                                 : Axis - Rank});
    const std::pair<std::string, ir::AttrValue> Num = {"num_splits",
                                                       int64_t(N)};
    if (!Sized) {
      B.op("SPLIT", {AxisT, In}, Outs, {Num});
      return;
    }
    if (coin())
      Sizes[size_t(pick(0, N - 1))] = -1;
    B.op("SPLIT_V", {In, B.constant(ir::DType::I32, {N}, Sizes), AxisT}, Outs,
         {Num});
  }

  /// UNPACK of type \p T along a random axis, sometimes negative.
  void unpack(ir::DType T) {
    const std::vector<int32_t> S = shape(3);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    std::vector<int32_t> OS = S;
    OS.erase(OS.begin() + Axis);
    const int64_t Zp = pick(-20, 20);
    const int32_t In = tensor(T, S, 0.05f, Zp);
    Inputs.push_back(In);
    std::vector<int32_t> Outs;
    for (int32_t I = 0; I < S[size_t(Axis)]; ++I)
      Outs.push_back(tensor(T, OS, 0.05f, Zp));
    Outputs.insert(Outputs.end(), Outs.begin(), Outs.end());
    B.op("UNPACK", {In}, Outs,
         {{"axis", int64_t(coin() ? Axis : Axis - Rank)}});
  }

  /// CONCATENATION of 1 to 3 inputs of type \p T (one quantization) along
  /// a random axis, sometimes negative.
  void concat(ir::DType T) {
    const std::vector<int32_t> S = shape(3);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    const int64_t Zp = pick(-20, 20);
    std::vector<int32_t> Ins, Out = S;
    Out[size_t(Axis)] = 0;
    for (int32_t I = pick(2, 3); I > 0; --I) {
      std::vector<int32_t> IS = S;
      IS[size_t(Axis)] = pick(1, 3);
      Out[size_t(Axis)] += IS[size_t(Axis)];
      Ins.push_back(tensor(T, IS, 0.05f, Zp));
    }
    const int32_t O = tensor(T, Out, 0.05f, Zp);
    Inputs.insert(Inputs.end(), Ins.begin(), Ins.end());
    Outputs.push_back(O);
    B.op("CONCATENATION", Ins, {O},
         {{"axis", int64_t(coin() ? Axis : Axis - Rank)},
          {"fused_activation", std::string("NONE")}});
  }

  /// ADD_N of 2 to 4 inputs of type \p T (one quantization, the output
  /// another).
  void addN(ir::DType T) {
    const std::vector<int32_t> S = shape();
    const int32_t N = pick(2, 4);
    const int64_t Zp = pick(-30, 30);
    const float Scale = float(pick(10, 200)) / 1000.0f;
    std::vector<int32_t> Ins;
    for (int32_t I = 0; I < N; ++I) {
      Ins.push_back(tensor(T, S, Scale, Zp));
      Bytes.push_back(randomBytes(T, count(S)));
    }
    const int32_t O =
        tensor(T, S, Scale * float(pick(10, 40)) / 10.0f, pick(-30, 30));
    Inputs.insert(Inputs.end(), Ins.begin(), Ins.end());
    Outputs.push_back(O);
    B.op("ADD_N", Ins, {O});
  }

  /// CUMSUM of type \p T along a random axis, exclusive and reverse or
  /// not; int8 to another quantization.
  void cumsum(ir::DType T) {
    const std::vector<int32_t> S = shape(5);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    const float Scale = float(pick(10, 200)) / 1000.0f;
    const int32_t In = tensor(T, S, Scale, pick(-30, 30));
    const int32_t O = tensor(T, S, Scale * float(pick(20, 60)) / 10.0f,
                             pick(-30, 30));
    Bytes.push_back(randomBytes(T, count(S)));
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op("CUMSUM",
         {In, B.constant(ir::DType::I32, {1},
                         std::vector<int32_t>{coin() ? Axis : Axis - Rank})},
         {O}, {{"exclusive", coin()}, {"reverse", coin()}});
  }

  /// A graph input of int32 or int64 \p Values with \p Shape, its bytes
  /// appended to Bytes.
  int32_t intInput(ir::DType T, std::vector<int32_t> Shape,
                   const std::vector<int64_t> &Values) {
    const int32_t X = B.tensor(name(), std::move(Shape), std::nullopt, T);
    std::vector<uint8_t> Data;
    for (int64_t V : Values)
      for (unsigned K = 0; K < ir::dtypeSize(T); ++K)
        Data.push_back(uint8_t(uint64_t(V) >> (8 * K)));
    Inputs.push_back(X);
    Bytes.push_back(std::move(Data));
    return X;
  }

  /// A graph input of type \p T and \p Shape with random bytes, and an
  /// output of \p OutShape and the same quantization.
  std::pair<int32_t, int32_t> randomInOut(ir::DType T,
                                          std::vector<int32_t> Shape,
                                          std::vector<int32_t> OutShape) {
    Bytes.push_back(T == ir::DType::Bool ? nearBytes(T, count(Shape))
                                         : randomBytes(T, count(Shape)));
    return inOut(T, std::move(Shape), std::move(OutShape));
  }

  /// BROADCAST_TO of type \p T: some dimensions 1, or fewer of them.
  void broadcastTo(ir::DType T) {
    auto [A, C] = broadcastPair();
    const std::vector<int32_t> Out = broadcastShape({A, C});
    auto [In, O] = randomInOut(T, coin() ? A : C, Out);
    const int32_t ShapeT =
        coin() ? B.constant(ir::DType::I32, {int32_t(Out.size())}, Out)
               : B.constant(ir::DType::I64, {int32_t(Out.size())},
                            std::vector<int64_t>(Out.begin(), Out.end()));
    B.op("BROADCAST_TO", {In, ShapeT}, {O});
  }

  /// GATHER_ND of type \p T: rows of in-range int32 indices of a random
  /// depth.
  void gatherNd(ir::DType T) {
    const std::vector<int32_t> S = shape(4);
    const int32_t Depth = pick(1, int32_t(S.size()));
    std::vector<int32_t> IdxShape;
    for (int32_t I = pick(0, 2); I > 0; --I)
      IdxShape.push_back(pick(1, 3));
    std::vector<int32_t> Out = IdxShape;
    Out.insert(Out.end(), S.begin() + Depth, S.end());
    IdxShape.push_back(Depth);
    std::vector<int64_t> Idx;
    for (int64_t R = 0; R < count(IdxShape) / Depth; ++R)
      for (int32_t D = 0; D < Depth; ++D)
        Idx.push_back(pick(0, S[size_t(D)] - 1));
    auto [In, O] = randomInOut(T, S, Out);
    B.op("GATHER_ND", {In, intInput(ir::DType::I32, IdxShape, Idx)}, {O});
  }

  /// EMBEDDING_LOOKUP of rows of type \p T by an int32 lookup, int8 rows
  /// also dequantized into float32 (zero point 0).
  void embeddingLookup(ir::DType T, bool Dequantize = false) {
    std::vector<int32_t> S = {pick(1, 6), pick(1, 4)};
    if (coin())
      S.push_back(pick(1, 3));
    std::vector<int64_t> Lookup(size_t(pick(1, 5)));
    for (int64_t &V : Lookup)
      V = pick(0, S[0] - 1);
    std::vector<int32_t> Out = S;
    Out[0] = int32_t(Lookup.size());
    const int32_t L =
        intInput(ir::DType::I32, {int32_t(Lookup.size())}, Lookup);
    auto [Value, O] = randomInOut(T, S, Out);
    if (Dequantize) {
      B.G.Tensors[size_t(Value)].Quant = ir::perTensor(0.03f, 0);
      B.G.Tensors[size_t(O)].Type = ir::DType::F32;
      B.G.Tensors[size_t(O)].Quant.reset();
    }
    B.op("EMBEDDING_LOOKUP", {L, Value}, {O});
  }

  /// DYNAMIC_UPDATE_SLICE of type \p T with int32 or int64 start indices,
  /// some out of range (clamped).
  void dynamicUpdateSlice(ir::DType T) {
    const std::vector<int32_t> S = shape(4);
    std::vector<int32_t> U = S;
    std::vector<int64_t> Start;
    for (size_t D = 0; D < S.size(); ++D) {
      U[D] = pick(1, S[D]);
      Start.push_back(pick(-2, S[D] + 1));
    }
    auto [In, O] = randomInOut(T, S, S);
    const int32_t Update = tensor(T, U, 0.05f, 0);
    B.G.Tensors[size_t(Update)].Quant = B.G.Tensors[size_t(In)].Quant;
    Inputs.push_back(Update);
    Bytes.push_back(randomBytes(T, count(U)));
    const int32_t StartT =
        intInput(coin() ? ir::DType::I32 : ir::DType::I64,
                 {int32_t(S.size())}, Start);
    B.op("DYNAMIC_UPDATE_SLICE", {In, Update, StartT}, {O});
  }

  /// SHAPE of an input of type \p T.
  void shapeOf(ir::DType T) {
    const std::vector<int32_t> S = shape();
    const int32_t In = tensor(T, S, 0.05f, 0);
    const int32_t O = tensor(ir::DType::I32, {int32_t(S.size())}, 1, 0);
    Inputs.push_back(In);
    Bytes.push_back(T == ir::DType::Bool ? nearBytes(T, count(S))
                                         : randomBytes(T, count(S)));
    Outputs.push_back(O);
    B.op("SHAPE", {In}, {O});
  }

  /// BROADCAST_ARGS of two int32 or int64 shapes that broadcast.
  void broadcastArgs(ir::DType T) {
    auto [A, C] = broadcastPair();
    const std::vector<int32_t> Out = broadcastShape({A, C});
    const int32_t SA =
        intInput(T, {int32_t(A.size())}, std::vector<int64_t>(A.begin(), A.end()));
    const int32_t SC =
        intInput(T, {int32_t(C.size())}, std::vector<int64_t>(C.begin(), C.end()));
    const int32_t O = tensor(T, {int32_t(Out.size())}, 1, 0);
    Outputs.push_back(O);
    B.op("BROADCAST_ARGS", {SA, SC}, {O});
  }

  /// BATCH_MATMUL of type \p T: batch dimensions that broadcast, either
  /// operand transposed or not; int8 and int16 to an output scale that
  /// keeps most results inside the type.
  void batchMatMul(ir::DType T) {
    auto [BL, BR] = broadcastPair();
    for (auto *Batch : {&BL, &BR})
      if (Batch->size() > 2)
        Batch->resize(2);
    const int32_t Rows = pick(1, 5), Depth = pick(1, 6), Cols = pick(1, 5);
    const bool AdjX = coin(), AdjY = coin();
    std::vector<int32_t> SL = coin() ? BL : std::vector<int32_t>{};
    std::vector<int32_t> SR = coin() ? BR : std::vector<int32_t>{};
    std::vector<int32_t> Out = broadcastShape({SL, SR});
    SL.push_back(AdjX ? Depth : Rows);
    SL.push_back(AdjX ? Rows : Depth);
    SR.push_back(AdjY ? Cols : Depth);
    SR.push_back(AdjY ? Depth : Cols);
    Out.push_back(Rows);
    Out.push_back(Cols);
    const bool Wide = T == ir::DType::I16;
    const float SLs = float(pick(10, 200)) / (Wide ? 100000.0f : 1000.0f);
    const float SRs = float(pick(10, 200)) / (Wide ? 100000.0f : 1000.0f);
    const int32_t L = tensor(T, SL, SLs, pick(-30, 30));
    const int32_t R = tensor(T, SR, SRs, pick(-30, 30));
    const int32_t O = tensor(
        T, Out, SLs * SRs * float(Depth) * (Wide ? 20000.0f : 60.0f),
        pick(-30, 30));
    if (T == ir::DType::F32)
      for (int32_t X : {L, R, O})
        B.G.Tensors[size_t(X)].Quant.reset();
    Bytes.push_back(randomBytes(T, count(SL)));
    Bytes.push_back(randomBytes(T, count(SR)));
    Inputs.insert(Inputs.end(), {L, R});
    Outputs.push_back(O);
    B.op("BATCH_MATMUL", {L, R}, {O}, {{"adj_x", AdjX}, {"adj_y", AdjY}});
  }

  /// LOG_SOFTMAX of type \p T; int8 into its fixed output quantization.
  void logSoftmax(ir::DType T) {
    const std::vector<int32_t> S = shape(6);
    const int32_t In = tensor(T, S, float(pick(5, 300)) / 1000.0f,
                              pick(-30, 30));
    const int32_t O = tensor(T, S, 16.0f / 256, 127);
    if (T == ir::DType::F32)
      for (int32_t X : {In, O})
        B.G.Tensors[size_t(X)].Quant.reset();
    Bytes.push_back(randomBytes(T, count(S)));
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op("LOG_SOFTMAX", {In}, {O});
  }

  /// \p N random elements of type \p T as bytes: floats in [-4, 4] with
  /// three decimals, integers over the whole type (int32 within +-2^20);
  /// with \p Avoid set, never that stored value (a divisor's zero).
  std::vector<uint8_t> randomBytes(ir::DType T, int64_t N,
                                   std::optional<int64_t> Avoid = {}) {
    std::vector<uint8_t> Data;
    auto Push = [&](uint64_t V, int Bytes) {
      for (int K = 0; K < Bytes; ++K)
        Data.push_back(uint8_t(V >> (8 * K)));
    };
    for (int64_t I = 0; I < N; ++I) {
      if (T == ir::DType::F32) {
        float F = float(pick(-4000, 4000)) / 1000.0f;
        if (Avoid && F == 0.0f)
          F = 0.5f;
        uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        Push(Bits, 4);
        continue;
      }
      const int64_t Lo = T == ir::DType::I8    ? -128
                         : T == ir::DType::I16 ? -32768
                                               : -(1 << 20);
      int64_t V;
      do
        V = pick(int32_t(Lo), int32_t(-Lo - 1));
      while (Avoid && V == *Avoid);
      Push(uint64_t(V), int(ir::dtypeSize(T)));
    }
    return Data;
  }

  /// The inputs of an int8 DIV from A by C into O: the same shape for
  /// both (C takes A's), and only pairs whose quotient TensorFlow Lite
  /// Micro computes. Its GetReciprocal and CountLeadingSignBits normalise
  /// both operands; a total right shift past 31 (a dividend near zero over
  /// a large divisor) trips the runner's assertion in RoundingDivideByPOT,
  /// and a zero divisor is undefined. The shift is counted here as the
  /// kernel counts it.
  void divInt8Bytes(int32_t A, int32_t C, int32_t O) {
    ir::Tensor &TA = B.G.Tensors[size_t(A)], &TC = B.G.Tensors[size_t(C)];
    TC.Shape = TA.Shape;
    const ir::Tensor &TO = B.G.Tensors[size_t(O)];
    const float Real =
        TA.Quant->scale() / (TC.Quant->scale() * TO.Quant->scale());
    int OutShift;
    std::frexp(double(Real), &OutShift);
    auto Clz = [](uint32_t X) {
      int N = 0;
      while (N < 32 && !(X & (0x80000000u >> N)))
        ++N;
      return N;
    };
    std::vector<uint8_t> DA, DC;
    for (int64_t I = 0, N = TA.numElements(); I < N; ++I) {
      int32_t X1, X2, Num, Den;
      do {
        X1 = pick(-128, 127);
        X2 = pick(-128, 127);
        Num = X1 - int32_t(TA.Quant->ZeroPoints[0]);
        Den = X2 - int32_t(TC.Quant->ZeroPoints[0]);
        if (Den < 0) {
          Num = -Num;
          Den = -Den;
        }
      } while (Den == 0 ||
               OutShift - (31 - Clz(uint32_t(Den))) -
                       (Clz(uint32_t(Num ^ (Num >> 31))) - 1) <
                   -31);
      DA.push_back(uint8_t(X1));
      DC.push_back(uint8_t(X2));
    }
    Bytes.push_back(std::move(DA));
    Bytes.push_back(std::move(DC));
  }

  /// Binary \p Op of type \p T, broadcast, with its inputs' bytes appended
  /// to Bytes (a divisor never zero); quantized types take random scales.
  void binary(const char *Op, ir::DType T,
              const char *Activation = "NONE") {
    auto [SA, SB] = broadcastPair();
    std::vector<int32_t> Out(std::max(SA.size(), SB.size()));
    for (size_t I = 0; I < Out.size(); ++I) {
      auto Dim = [&](const std::vector<int32_t> &S) {
        return I < S.size() ? S[S.size() - 1 - I] : 1;
      };
      Out[Out.size() - 1 - I] = std::max(Dim(SA), Dim(SB));
    }
    const bool Q = T == ir::DType::I8 || T == ir::DType::I16;
    auto Scale = [&] { return float(pick(10, 200)) / 1000.0f; };
    auto Zp = [&] { return T == ir::DType::I8 ? int64_t(pick(-30, 30)) : 0; };
    // int16 PRELU takes an int8 alpha.
    const ir::DType TB =
        std::string(Op) == "PRELU" && T == ir::DType::I16 ? ir::DType::I8 : T;
    const int64_t ZpB = TB == ir::DType::I8 ? int64_t(pick(-30, 30)) : 0;
    const int32_t A = tensor(T, SA, Scale(), Zp());
    const int32_t C = tensor(TB, SB, Scale(), ZpB);
    const int32_t O = tensor(T, Out, Scale(), Zp());
    if (!Q)
      for (int32_t X : {A, C, O})
        B.G.Tensors[size_t(X)].Quant.reset();
    const bool Divides = std::string(Op) != "SQUARED_DIFFERENCE";
    auto Count = [](const std::vector<int32_t> &S) {
      int64_t N = 1;
      for (int32_t D : S)
        N *= D;
      return N;
    };
    if (std::string(Op) == "DIV" && T == ir::DType::I8) {
      divInt8Bytes(A, C, O);
    } else {
      Bytes.push_back(randomBytes(T, Count(SA)));
      Bytes.push_back(randomBytes(TB, Count(SB),
                                  Divides ? std::optional<int64_t>(Q ? ZpB : 0)
                                          : std::nullopt));
    }
    Inputs.push_back(A);
    Inputs.push_back(C);
    Outputs.push_back(O);
    B.op(Op, {A, C}, {O}).Attrs = {
        {"fused_activation", std::string(Activation)}};
  }

  /// RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR of type \p T, up or down,
  /// with no flag, align_corners or half_pixel_centers.
  void resize(const char *Op, ir::DType T) {
    const int32_t N = pick(1, 2), H = pick(1, 5), W = pick(1, 5),
                  C = pick(1, 4), OH = pick(1, 9), OW = pick(1, 9);
    auto [In, O] = inOut(T, {N, H, W, C}, {N, OH, OW, C});
    const int Flag = pick(0, 2);
    B.op(Op, {In, B.constant(ir::DType::I32, {2}, std::vector<int32_t>{OH, OW})},
         {O})
        .Attrs = {{"align_corners", Flag == 1},
                  {"half_pixel_centers", Flag == 2}};
  }

  /// A float32 TRANSPOSE_CONV: random strides, SAME or VALID, weights in
  /// [-1, 1], a bias or none, and a fused activation.
  void transposeConv() {
    const int32_t IH = pick(1, 5), IW = pick(1, 5), IC = pick(1, 4),
                  OC = pick(1, 4), KH = pick(1, 3), KW = pick(1, 3),
                  SH = pick(1, 2), SW = pick(1, 2);
    const bool Same = coin();
    const int32_t OH = Same ? IH * SH : (IH - 1) * SH + KH;
    const int32_t OW = Same ? IW * SW : (IW - 1) * SW + KW;
    auto Values = [&](int64_t N) {
      std::vector<float> V;
      for (int64_t I = 0; I < N; ++I)
        V.push_back(float(pick(-1000, 1000)) / 1000.0f);
      return V;
    };
    auto [In, O] =
        inOut(ir::DType::F32, {1, IH, IW, IC}, {1, OH, OW, OC});
    std::vector<int32_t> Operands = {
        B.constant(ir::DType::I32, {4}, std::vector<int32_t>{1, OH, OW, OC}),
        B.constant(ir::DType::F32, {OC, KH, KW, IC},
                   Values(int64_t(OC) * KH * KW * IC)),
        In};
    if (coin())
      Operands.push_back(B.constant(ir::DType::F32, {OC}, Values(OC)));
    static const char *const Acts[] = {"NONE", "RELU", "RELU6"};
    B.op("TRANSPOSE_CONV", Operands, {O},
         {{"padding", std::string(Same ? "SAME" : "VALID")},
          {"stride_h", int64_t(SH)},
          {"stride_w", int64_t(SW)},
          {"fused_activation", std::string(Acts[pick(0, 2)])}});
  }

  /// An int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED whose weights
  /// the file stores as packed int4 (values in [-8, 7], per-tensor scale),
  /// with an int32 bias.
  void int4Weights(const char *Op) {
    const std::string Name = Op;
    const bool Fc = Name == "FULLY_CONNECTED", Dw = Name == "DEPTHWISE_CONV_2D";
    const int32_t H = pick(1, 5), W = pick(1, 5), C = pick(1, 4),
                  K = pick(1, 3), OC = Dw ? C : pick(1, 4);
    const float InScale = 0.05f, WScale = 0.1f;
    const std::vector<int32_t> WShape =
        Fc ? std::vector<int32_t>{OC, C}
           : std::vector<int32_t>{Dw ? 1 : OC, K, K, Dw ? C : C};
    int64_t N = 1;
    for (int32_t D : WShape)
      N *= D;
    std::vector<int8_t> WValues;
    for (int64_t I = 0; I < N; ++I)
      WValues.push_back(int8_t(pick(-8, 7)));
    const int32_t Weights = B.constant(ir::DType::I8, WShape, WValues, WScale);
    B.G.Tensors[size_t(Weights)].PackedInt4 = true;
    std::vector<int32_t> BValues;
    for (int32_t I = 0; I < OC; ++I)
      BValues.push_back(pick(-500, 500));
    const int32_t Bias =
        B.constant(ir::DType::I32, {OC}, BValues, InScale * WScale);
    const float OutScale = InScale * WScale * 24.0f * float(K);
    const std::vector<int32_t> InShape =
        Fc ? std::vector<int32_t>{pick(1, 3), C}
           : std::vector<int32_t>{1, H, W, C};
    const std::vector<int32_t> OutShape =
        Fc ? std::vector<int32_t>{InShape[0], OC}
           : std::vector<int32_t>{1, H - K + 1 > 0 ? H : H, W, OC};
    const int32_t In = tensor(ir::DType::I8, InShape, InScale, pick(-20, 20));
    const int32_t O = tensor(ir::DType::I8, OutShape, OutScale, pick(-20, 20));
    Inputs.push_back(In);
    Outputs.push_back(O);
    std::map<std::string, ir::AttrValue> Attrs = {
        {"fused_activation", std::string("NONE")}};
    if (!Fc) {
      // SAME padding keeps H x W.
      Attrs.insert({{"padding", std::string("SAME")},
                    {"stride_h", int64_t(1)},
                    {"stride_w", int64_t(1)},
                    {"dilation_h", int64_t(1)},
                    {"dilation_w", int64_t(1)}});
      if (Dw)
        Attrs["depth_multiplier"] = int64_t(1);
    } else {
      Attrs.insert({{"keep_num_dims", false}, {"weights_format", int64_t(0)}});
    }
    B.op(Op, {In, Weights, Bias}, {O}, Attrs);
  }

  /// A constant int32 (or, half the time, int64) [Rows, 2] padding matrix.
  int32_t paddings(const std::vector<int64_t> &Values) {
    const int32_t Rows = int32_t(Values.size() / 2);
    if (coin())
      return B.constant(ir::DType::I64, {Rows, 2}, Values);
    return B.constant(ir::DType::I32, {Rows, 2},
                      std::vector<int32_t>(Values.begin(), Values.end()));
  }

  /// PADV2 of type \p T with a constant padding value of that type.
  void padV2(ir::DType T) {
    const std::vector<int32_t> S = shape();
    std::vector<int64_t> Pads;
    std::vector<int32_t> Out;
    for (int32_t D : S) {
      Pads.push_back(pick(0, 2));
      Pads.push_back(pick(0, 2));
      Out.push_back(D + int32_t(Pads[Pads.size() - 2] + Pads.back()));
    }
    auto [In, O] = inOut(T, S, Out);
    const ir::Tensor &TI = B.G.Tensors[size_t(In)];
    std::optional<float> Scale;
    int64_t Zp = 0;
    if (TI.Quant) {
      Scale = TI.Quant->scale();
      Zp = TI.Quant->ZeroPoints[0];
    }
    int32_t Value;
    if (T == ir::DType::F32)
      Value = B.constant(T, {}, std::vector<float>{float(pick(-20, 20)) / 4});
    else if (T == ir::DType::I16)
      Value = B.constant(T, {}, std::vector<int16_t>{int16_t(pick(-999, 999))},
                         Scale, Zp);
    else if (T == ir::DType::I32)
      Value = B.constant(T, {}, std::vector<int32_t>{pick(-99999, 99999)});
    else
      Value = B.constant(T, {}, std::vector<int8_t>{int8_t(pick(-128, 127))},
                         Scale, Zp);
    B.op("PADV2", {In, B.constant(ir::DType::I32, {int32_t(S.size()), 2},
                                  std::vector<int32_t>(Pads.begin(), Pads.end())),
                   Value},
         {O});
  }

  /// MIRROR_PAD of type \p T, REFLECT or SYMMETRIC, as far as each mode
  /// reaches.
  void mirrorPad(ir::DType T) {
    const bool Reflect = coin();
    const std::vector<int32_t> S = shape(5);
    std::vector<int64_t> Pads;
    std::vector<int32_t> Out;
    for (int32_t D : S) {
      const int32_t Most = Reflect ? D - 1 : D;
      Pads.push_back(pick(0, Most));
      Pads.push_back(pick(0, Most));
      Out.push_back(D + int32_t(Pads[Pads.size() - 2] + Pads.back()));
    }
    auto [In, O] = inOut(T, S, Out);
    B.op("MIRROR_PAD", {In, paddings(Pads)}, {O}).Attrs = {
        {"mode", std::string(Reflect ? "REFLECT" : "SYMMETRIC")}};
  }

  /// SPACE_TO_BATCH_ND (or BATCH_TO_SPACE_ND) of type \p T, rank 3 or 4,
  /// blocks of 1 to 3 and paddings (crops) of 0 to 2.
  void batchSpace(bool ToBatch, ir::DType T) {
    const bool Rank4 = coin();
    const int32_t Spatial = Rank4 ? 2 : 1;
    const int32_t N = pick(1, 2), C = pick(1, 3);
    std::vector<int32_t> Blocks, SpaceDims, BatchDims;
    std::vector<int64_t> Pads;
    int32_t BatchN = N;
    for (int32_t I = 0; I < Spatial; ++I) {
      const int32_t Blk = pick(1, 3), Out = pick(1, 3);
      const int32_t Before = pick(0, std::min(2, Blk * Out - 1));
      const int32_t After = pick(0, std::min(2, Blk * Out - 1 - Before));
      Blocks.push_back(Blk);
      Pads.push_back(Before);
      Pads.push_back(After);
      SpaceDims.push_back(Blk * Out - Before - After);
      BatchDims.push_back(Out);
      BatchN *= Blk;
    }
    std::vector<int32_t> Space = {N}, Batch = {BatchN};
    Space.insert(Space.end(), SpaceDims.begin(), SpaceDims.end());
    Batch.insert(Batch.end(), BatchDims.begin(), BatchDims.end());
    Space.push_back(C);
    Batch.push_back(C);
    auto [In, O] = inOut(T, ToBatch ? Space : Batch, ToBatch ? Batch : Space);
    // Padding is real 0 here, as TensorFlow Lite pads; TensorFlow Lite
    // Micro never sets its pad value and pads with the byte 0 its arena
    // happens to hold, so padded int8 layers take zero point 0 (with any
    // other, 2 to 12 bytes of 12 to 36 differed, every one a padding).
    if (ToBatch && T == ir::DType::I8 &&
        std::any_of(Pads.begin(), Pads.end(), [](int64_t P) { return P; }))
      for (int32_t X : {In, O})
        B.G.Tensors[size_t(X)].Quant->ZeroPoints = {0};
    B.op(ToBatch ? "SPACE_TO_BATCH_ND" : "BATCH_TO_SPACE_ND",
         {In, B.constant(ir::DType::I32, {Spatial}, Blocks),
          B.constant(ir::DType::I32, {Spatial, 2},
                     std::vector<int32_t>(Pads.begin(), Pads.end()))},
         {O});
  }

  /// \p Op (a 2-D pooling) of type \p T: windows and strides of 1 to 3,
  /// SAME or VALID, with a fused activation now and then.
  void pool(const char *Op, ir::DType T) {
    const int32_t N = pick(1, 2), H = pick(3, 7), W = pick(3, 7),
                  C = pick(1, 4), FH = pick(1, 3), FW = pick(1, 3),
                  SH = pick(1, 3), SW = pick(1, 3);
    const bool Same = coin();
    auto Extent = [&](int32_t In, int32_t F, int32_t St) {
      return Same ? (In + St - 1) / St : (In - F) / St + 1;
    };
    auto [In, O] = inOut(T, {N, H, W, C},
                         {N, Extent(H, FH, SH), Extent(W, FW, SW), C});
    const char *Acts[] = {"NONE", "NONE", "RELU", "RELU6"};
    B.op(Op, {In}, {O}).Attrs = {
        {"filter_h", int64_t(FH)}, {"filter_w", int64_t(FW)},
        {"stride_h", int64_t(SH)}, {"stride_w", int64_t(SW)},
        {"padding", std::string(Same ? "SAME" : "VALID")},
        {"fused_activation", std::string(Acts[pick(0, 3)])}};
  }

  /// L2_NORMALIZATION of type \p T over rows of 1 to 12 (int8 output at
  /// 1/128, zero point 0).
  void l2Norm(ir::DType T) {
    std::vector<int32_t> S = shape(3);
    if (S.size() > 4)
      S.resize(4);
    S.back() = pick(1, 12);
    const int32_t In = tensor(T, S, 0.05f, pick(-20, 20));
    const int32_t O = tensor(T, S, 1.0f / 128, 0);
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op("L2_NORMALIZATION", {In}, {O});
  }

  /// ARG_MAX or ARG_MIN of type \p T along a random axis (sometimes
  /// negative), into int32.
  void argMinMax(const char *Op, ir::DType T) {
    const std::vector<int32_t> S = shape(5);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    std::vector<int32_t> Out = S;
    Out.erase(Out.begin() + Axis);
    const int32_t In = tensor(T, S, 0.05f, pick(-20, 20));
    const int32_t O = B.tensor(name(), Out, std::nullopt, ir::DType::I32);
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op(Op, {In, B.constant(ir::DType::I32, {1},
                             std::vector<int32_t>{coin() ? Axis
                                                         : Axis - Rank})},
         {O});
  }

  /// GATHER of type \p T along a random axis with a batch dimension now and
  /// then; the indices (in range) are a constant or, half the time, a graph
  /// input. Every input's bytes go to Bytes.
  void gather(ir::DType T) {
    const std::vector<int32_t> S = shape(4);
    const int32_t Rank = int32_t(S.size()), Axis = pick(0, Rank - 1);
    const int32_t BatchDims = Axis > 0 && coin() ? 1 : 0;
    std::vector<int32_t> IdxShape(S.begin(), S.begin() + BatchDims);
    for (int32_t I = pick(0, 2); I > 0; --I)
      IdxShape.push_back(pick(1, 3));
    std::vector<int32_t> Out(S.begin(), S.begin() + Axis);
    Out.insert(Out.end(), IdxShape.begin() + BatchDims, IdxShape.end());
    Out.insert(Out.end(), S.begin() + Axis + 1, S.end());
    int64_t Count = 1;
    for (int32_t D : IdxShape)
      Count *= D;
    std::vector<int32_t> Idx(static_cast<size_t>(Count));
    for (int32_t &V : Idx)
      V = pick(0, S[size_t(Axis)] - 1);
    const int32_t In = tensor(T, S, 0.05f, pick(-20, 20));
    const int32_t O = tensor(T, Out, 0.05f, 0);
    B.G.Tensors[size_t(O)].Quant = B.G.Tensors[size_t(In)].Quant;
    int64_t N = 1;
    for (int32_t D : S)
      N *= D;
    Inputs.push_back(In);
    Bytes.push_back(randomBytes(T, N));
    int32_t IdxT;
    if (coin()) {
      IdxT = B.constant(ir::DType::I32, IdxShape, Idx);
    } else {
      IdxT = B.tensor(name(), IdxShape, std::nullopt, ir::DType::I32);
      Inputs.push_back(IdxT);
      std::vector<uint8_t> Data(Idx.size() * 4);
      std::memcpy(Data.data(), Idx.data(), Data.size());
      Bytes.push_back(std::move(Data));
    }
    Outputs.push_back(O);
    B.op("GATHER", {In, IdxT}, {O}).Attrs = {
        {"axis", int64_t(coin() ? Axis : Axis - Rank)},
        {"batch_dims", int64_t(BatchDims)}};
  }

  /// CAST from \p From to \p To, its input's bytes appended to Bytes: any
  /// integers, or floats with fractions, beyond the narrower types, beyond
  /// int32 and NaN (the conversions C++ leaves undefined, which x86 and the
  /// kernel give as INT32_MIN).
  void cast(ir::DType From, ir::DType To) {
    const std::vector<int32_t> S = {pick(1, 3), pick(1, 9)};
    const int32_t In = tensor(From, S, 0.05f, 0), O = tensor(To, S, 0.05f, 0);
    int64_t N = int64_t(S[0]) * S[1];
    if (From == ir::DType::Bool) {
      Bytes.push_back(nearBytes(From, N));
    } else if (From != ir::DType::F32) {
      Bytes.push_back(randomBytes(From, N));
    } else {
      const float Special[] = {300.5f, -129.75f, 70000.25f, -40000.5f,
                               3e9f,   -3e9f,    1e20f,     NAN};
      std::vector<uint8_t> Data;
      for (int64_t I = 0; I < N; ++I) {
        const float F = coin() ? Special[pick(0, 7)]
                               : float(pick(-200000, 200000)) / 100.0f;
        uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        for (int K = 0; K < 4; ++K)
          Data.push_back(uint8_t(Bits >> (8 * K)));
      }
      Bytes.push_back(std::move(Data));
    }
    Inputs.push_back(In);
    Outputs.push_back(O);
    B.op("CAST", {In}, {O});
  }

  /// FILL of type \p T (int32 or int64 dims; the value a graph input) or
  /// ZEROS_LIKE.
  void fill(bool Zeros, ir::DType T) {
    const std::vector<int32_t> S = shape();
    const int32_t Rank = int32_t(S.size());
    if (Zeros) {
      auto [In, O] = inOut(T, S, S);
      B.op("ZEROS_LIKE", {In}, {O});
      return;
    }
    auto [Value, O] = inOut(T, {}, S);
    const int32_t Dims =
        coin() ? B.constant(ir::DType::I32, {Rank}, S)
               : B.constant(ir::DType::I64, {Rank},
                            std::vector<int64_t>(S.begin(), S.end()));
    B.op("FILL", {Dims, Value}, {O});
  }

  /// \p N elements of type \p T from a narrow range, so that equal pairs
  /// are common: bool 0 or 1; int8 the zero point +-3; int32 and int64
  /// -3 to 3; float32 -1.5 to 1.5 in halves, now and then a NaN.
  std::vector<uint8_t> nearBytes(ir::DType T, int64_t N, int64_t Zp = 0) {
    std::vector<uint8_t> Data;
    for (int64_t I = 0; I < N; ++I) {
      uint64_t V;
      if (T == ir::DType::F32) {
        const float F = pick(0, 15) == 0 ? NAN : float(pick(-3, 3)) / 2;
        uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        V = Bits;
      } else if (T == ir::DType::Bool) {
        V = uint64_t(pick(0, 1));
      } else {
        V = uint64_t(int64_t(pick(-3, 3)) + (T == ir::DType::I8 ? Zp : 0));
      }
      for (unsigned K = 0; K < ir::dtypeSize(T); ++K)
        Data.push_back(uint8_t(V >> (8 * K)));
    }
    return Data;
  }

  static int64_t count(const std::vector<int32_t> &S) {
    int64_t N = 1;
    for (int32_t D : S)
      N *= D;
    return N;
  }

  /// The output shape two (or three) shapes broadcast to.
  static std::vector<int32_t>
  broadcastShape(std::initializer_list<std::vector<int32_t>> Shapes) {
    size_t Rank = 0;
    for (const std::vector<int32_t> &S : Shapes)
      Rank = std::max(Rank, S.size());
    std::vector<int32_t> Out(Rank, 1);
    for (const std::vector<int32_t> &S : Shapes)
      for (size_t I = 0; I < S.size(); ++I)
        Out[Rank - 1 - I] = std::max(Out[Rank - 1 - I], S[S.size() - 1 - I]);
    return Out;
  }

  /// Comparison or logical \p Op of two inputs of type \p T, broadcast,
  /// into bool; int8 inputs share a quantization or not.
  void compare(const char *Op, ir::DType T) {
    auto [SA, SB] = broadcastPair();
    const int64_t ZpA = pick(-30, 30), ZpB = coin() ? ZpA : pick(-30, 30);
    const float ScaleA = float(pick(10, 200)) / 1000.0f;
    const int32_t A = tensor(T, SA, ScaleA, ZpA);
    const int32_t C = tensor(T, SB, ZpB == ZpA ? ScaleA : 0.07f, ZpB);
    const int32_t O = tensor(ir::DType::Bool, broadcastShape({SA, SB}), 1, 0);
    Bytes.push_back(nearBytes(T, count(SA), ZpA));
    Bytes.push_back(nearBytes(T, count(SB), ZpB));
    Inputs.push_back(A);
    Inputs.push_back(C);
    Outputs.push_back(O);
    B.op(Op, {A, C}, {O});
  }

  /// LOGICAL_NOT of a bool input.
  void logicalNot() {
    const std::vector<int32_t> S = shape();
    auto [In, O] = inOut(ir::DType::Bool, S, S);
    Bytes.push_back(nearBytes(ir::DType::Bool, count(S)));
    B.op("LOGICAL_NOT", {In}, {O});
  }

  /// SELECT_V2 of x and y of type \p T (one quantization) by a bool
  /// condition, all three broadcast.
  void select(ir::DType T) {
    auto [SX, SY] = broadcastPair();
    std::vector<int32_t> SC = coin() ? SX : SY;
    for (int32_t &D : SC)
      D = coin() ? 1 : D;
    const std::vector<int32_t> Out = broadcastShape({SC, SX, SY});
    const int64_t Zp = pick(-20, 20);
    const int32_t Cond = tensor(ir::DType::Bool, SC, 1, 0);
    const int32_t X = tensor(T, SX, 0.05f, Zp), Y = tensor(T, SY, 0.05f, Zp);
    const int32_t O = tensor(T, Out, 0.05f, Zp);
    Bytes.push_back(nearBytes(ir::DType::Bool, count(SC)));
    Bytes.push_back(randomBytes(T, count(SX)));
    Bytes.push_back(randomBytes(T, count(SY)));
    Inputs.insert(Inputs.end(), {Cond, X, Y});
    Outputs.push_back(O);
    B.op("SELECT_V2", {Cond, X, Y}, {O});
  }

  /// REDUCE_ALL of a bool input over random axes, kept or not; mostly
  /// true, so that some results are.
  void reduceAll() {
    const std::vector<int32_t> S = shape(3);
    std::vector<int32_t> Axes, Out;
    const bool Keep = coin();
    const int32_t Always = pick(0, int32_t(S.size()) - 1);
    for (int32_t D = 0; D < int32_t(S.size()); ++D) {
      const bool Reduced = D == Always || coin();
      if (Reduced)
        Axes.push_back(coin() ? D : D - int32_t(S.size()));
      if (!Reduced || Keep)
        Out.push_back(Reduced ? 1 : S[size_t(D)]);
    }
    auto [In, O] = inOut(ir::DType::Bool, S, Out);
    std::vector<uint8_t> Data;
    for (int64_t I = 0; I < count(S); ++I)
      Data.push_back(pick(0, 9) != 0);
    Bytes.push_back(std::move(Data));
    B.op("REDUCE_ALL",
         {In, B.constant(ir::DType::I32, {int32_t(Axes.size())}, Axes)}, {O},
         {{"keep_dims", Keep}});
  }

  /// TFLite_Detection_PostProcess (float32, the only type Micro's kernel
  /// takes) on 4 to 40 anchors and 1 to 5 classes (a background class
  /// first half the time), with the regular or the fast suppression and
  /// \p PerDetection classes per detection (fast); \p Many: 150 to 300
  /// anchors, so that the kept scores' merge sort recurses. The anchors are
  /// constants, as in SSD models; the encodings (multiples of 1/16 in
  /// [-1, 1]) and the scores (eighths in [0, 1], so that equal scores, which
  /// the orders break by index, are frequent) go to Bytes. The results have
  /// \p PerDetection^2 rows per detection: Micro's fast form places class k
  /// of its i-th detection at row PerDetection * (PerDetection * i + k) + k.
  void detection(bool Regular, int32_t PerDetection = 1, bool Many = false) {
    const int32_t N = Many ? pick(150, 300) : pick(4, 40), Classes = pick(1, 5);
    const int32_t WithBackground = Classes + (coin() ? 1 : 0);
    const int32_t Stride = coin() ? 4 : 6, MaxDetections = pick(1, 10);
    const int32_t Rows = MaxDetections * PerDetection * PerDetection;
    const ir::DType F = ir::DType::F32;
    const int32_t Enc = B.tensor(name(), {1, N, Stride}, std::nullopt, F);
    const int32_t Scores =
        B.tensor(name(), {1, N, WithBackground}, std::nullopt, F);
    std::vector<float> Anchors;
    for (int32_t I = 0; I < N; ++I)
      for (int32_t K : {pick(1, 9), pick(1, 9), pick(1, 8), pick(1, 8)})
        Anchors.push_back(float(K) / 10.0f); // y, x, h, w
    const int32_t An = B.constant(F, {N, 4}, Anchors);
    const int32_t Boxes = B.tensor(name(), {1, Rows, 4}, std::nullopt, F);
    const int32_t Cls = B.tensor(name(), {1, Rows}, std::nullopt, F);
    const int32_t Sco = B.tensor(name(), {1, Rows}, std::nullopt, F);
    const int32_t Count = B.tensor(name(), {1}, std::nullopt, F);
    auto Floats = [&](int32_t Count, int32_t Lo, int32_t Hi, float Unit) {
      std::vector<uint8_t> Data;
      for (int32_t I = 0; I < Count; ++I) {
        const float V = float(pick(Lo, Hi)) * Unit;
        uint8_t Raw[4];
        std::memcpy(Raw, &V, 4);
        Data.insert(Data.end(), Raw, Raw + 4);
      }
      return Data;
    };
    Bytes.push_back(Floats(N * Stride, -16, 16, 1.0f / 16));
    Bytes.push_back(Floats(N * WithBackground, 0, 8, 1.0f / 8));
    Inputs.push_back(Enc);
    Inputs.push_back(Scores);
    Detections.push_back(
        {Outputs.size(), Regular, std::min(PerDetection, Classes), Rows});
    for (int32_t O : {Boxes, Cls, Sco, Count})
      Outputs.push_back(O);
    const double Iou[] = {0.3, 0.5, 0.6, 1.0};
    B.op("TFLite_Detection_PostProcess", {Enc, Scores, An},
         {Boxes, Cls, Sco, Count},
         {{"max_detections", int64_t(MaxDetections)},
          {"max_classes_per_detection", int64_t(PerDetection)},
          {"detections_per_class", int64_t(pick(1, 6))},
          {"use_regular_nms", Regular},
          {"nms_score_threshold", double(pick(0, 6)) / 8 + 1.0 / 16},
          {"nms_iou_threshold", Iou[pick(0, 3)]},
          {"num_classes", int64_t(Classes)},
          {"y_scale", 10.0},
          {"x_scale", 10.0},
          {"h_scale", 5.0},
          {"w_scale", 5.0}});
  }

  /// Where each detection() put its results: the index of its first
  /// output (the boxes; then the classes, the scores and the count), and
  /// its form (PerDetection: the classes reported per detection, at most
  /// as many as there are).
  struct DetectionResults {
    size_t First;
    bool Regular;
    int32_t PerDetection, Rows;
  };
  std::vector<DetectionResults> Detections;

  /// Zeroes the result rows Micro's kernel leaves unwritten: past the
  /// count in the regular form (none here: it writes max_detections rows,
  /// all of them), and in the fast form every row but PerDetection^2 * i +
  /// (PerDetection + 1) * k for detection i and class k (of
  /// min(max_classes_per_detection, num_classes)).
  UnwrittenBytes unwrittenDetectionRows() const {
    return [D = Detections](std::vector<std::vector<uint8_t>> &Out) {
      for (const DetectionResults &R : D) {
        if (R.Regular)
          continue;
        float Count;
        REQUIRE(Out[R.First + 3].size() == 4);
        std::memcpy(&Count, Out[R.First + 3].data(), 4);
        const int32_t K = R.PerDetection;
        std::vector<bool> Written(size_t(R.Rows), false);
        for (int32_t I = 0; I < int32_t(Count) / K; ++I)
          for (int32_t C = 0; C < K; ++C)
            Written[size_t(K * K * I + (K + 1) * C)] = true;
        for (int32_t Row = 0; Row < R.Rows; ++Row) {
          if (Written[size_t(Row)])
            continue;
          std::memset(Out[R.First].data() + 16 * Row, 0, 16);
          std::memset(Out[R.First + 1].data() + 4 * Row, 0, 4);
          std::memset(Out[R.First + 2].data() + 4 * Row, 0, 4);
        }
      }
    };
  }

  ir::Model model() { return modelOf(B, Inputs, Outputs); }
  std::vector<std::vector<uint8_t>> Bytes;

  ir::GraphBuilder B;
  std::vector<int32_t> Inputs, Outputs;
};

} // namespace

TEST_CASE("MAXIMUM and MINIMUM equal TensorFlow Lite Micro's in every type "
          "on every target") {
  requireSharedDir();
  Builtins S(26);
  for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::I32,
                      ir::DType::I64, ir::DType::F32})
    for (int I = 0; I < 3; ++I) {
      S.minMax(/*Max=*/true, T);
      S.minMax(/*Max=*/false, T);
    }
  checkAgainstOracle(S.model(), "maximum-minimum");
}

TEST_CASE("SPACE_TO_DEPTH, DEPTH_TO_SPACE and int4 weights equal TensorFlow "
          "Lite Micro's on every target") {
  requireSharedDir();
  Builtins S(27);
  for (ir::DType T : {ir::DType::I8, ir::DType::F32})
    for (int I = 0; I < 4; ++I) {
      S.spaceDepth(/*ToDepth=*/true, T);
      S.spaceDepth(/*ToDepth=*/false, T);
    }
  // Weights stored as packed int4, unpacked as Micro unpacks them.
  for (const char *Op : {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"})
    S.int4Weights(Op);
  checkAgainstOracle(S.model(), "space-depth");
}

TEST_CASE("ABS, NEG, SQRT, RSQRT, SQUARE, CEIL, FLOOR and ROUND equal "
          "TensorFlow Lite Micro's on every target") {
  requireSharedDir();
  Builtins S(28);
  for (int I = 0; I < 3; ++I) {
    for (const char *Op :
         {"ABS", "NEG", "SQRT", "RSQRT", "SQUARE", "CEIL", "FLOOR", "ROUND"})
      S.unary(Op, ir::DType::F32);
    S.unary("ABS", ir::DType::I8);
    S.unary("ABS", ir::DType::I16);
    S.unary("RSQRT", ir::DType::I8);
  }
  S.unary("ABS", ir::DType::I16, /*Raw=*/true);
  checkAgainstOracle(S.model(), "unary-math", S.Bytes);
}

TEST_CASE("SLICE, REVERSE_V2, PACK, SPLIT, SPLIT_V and UNPACK equal "
          "TensorFlow Lite Micro's in every type on every target") {
  requireSharedDir();
  Builtins S(29);
  for (ir::DType T :
       {ir::DType::I8, ir::DType::I16, ir::DType::I32, ir::DType::F32})
    for (int I = 0; I < 3; ++I) {
      S.slice(T);
      S.reverse(T);
    }
  for (int I = 0; I < 2; ++I)
    S.reverse(ir::DType::I64);
  for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::I32,
                      ir::DType::I64, ir::DType::F32})
    for (int I = 0; I < 2; ++I)
      S.pack(T);
  for (ir::DType T :
       {ir::DType::I8, ir::DType::I16, ir::DType::I32, ir::DType::F32}) {
    S.split(T, /*Sized=*/false);
    S.split(T, /*Sized=*/true);
    S.unpack(T);
  }
  // Micro's other types: bool slices, and bool, int32 and int64
  // concatenations.
  S.slice(ir::DType::Bool);
  S.reverse(ir::DType::Bool);
  for (ir::DType T : {ir::DType::Bool, ir::DType::I32, ir::DType::I64})
    S.concat(T);
  checkAgainstOracle(S.model(), "slice-reverse-pack");
}

TEST_CASE("DIV, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD and int32 ADD, SUB "
          "and MUL equal TensorFlow Lite Micro's in every type on every "
          "target") {
  requireSharedDir();
  Builtins S(30);
  for (int I = 0; I < 3; ++I) {
    for (ir::DType T : {ir::DType::I8, ir::DType::I32, ir::DType::F32})
      S.binary("DIV", T, I == 2 ? "RELU" : "NONE");
    for (ir::DType T :
         {ir::DType::I8, ir::DType::I16, ir::DType::I32, ir::DType::F32})
      S.binary("SQUARED_DIFFERENCE", T);
    S.binary("FLOOR_DIV", ir::DType::F32);
    S.binary("FLOOR_MOD", ir::DType::F32);
    // Products of values up to 2^20 wrap; RELU clamps SUB and MUL, not
    // ADD (Micro's int32 ADD ignores its activation).
    for (const char *Op : {"ADD", "SUB", "MUL"})
      S.binary(Op, ir::DType::I32, I == 1 ? "RELU" : "NONE");
  }
  checkAgainstOracle(S.model(), "division", S.Bytes);
}

TEST_CASE("RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR and float32 "
          "TRANSPOSE_CONV equal TensorFlow Lite Micro's in every type on every "
          "target") {
  requireSharedDir();
  Builtins S(31);
  for (int I = 0; I < 5; ++I) {
    for (ir::DType T : {ir::DType::I8, ir::DType::F32})
      S.resize("RESIZE_BILINEAR", T);
    for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::F32})
      S.resize("RESIZE_NEAREST_NEIGHBOR", T);
    S.transposeConv();
  }
  checkAgainstOracle(S.model(), "resize");
}

TEST_CASE("PADV2, MIRROR_PAD, SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND equal "
          "TensorFlow Lite Micro's in every type on every target") {
  requireSharedDir();
  Builtins S(32);
  for (int I = 0; I < 3; ++I) {
    for (ir::DType T :
         {ir::DType::I8, ir::DType::I16, ir::DType::I32, ir::DType::F32})
      S.padV2(T);
    for (ir::DType T : {ir::DType::I8, ir::DType::F32}) {
      S.mirrorPad(T);
      S.batchSpace(/*ToBatch=*/true, T);
      S.batchSpace(/*ToBatch=*/false, T);
    }
  }
  checkAgainstOracle(S.model(), "padding");
}

TEST_CASE("EXP, LOG, SIN, COS and float32 LOG_SOFTMAX equal TensorFlow Lite "
          "Micro's on every target but Cortex-M4") {
  requireSharedDir();
  Builtins S(33);
  for (int I = 0; I < 4; ++I) {
    for (const char *Op : {"EXP", "LOG", "SIN", "COS"})
      S.unary(Op, ir::DType::F32);
    S.logSoftmax(ir::DType::F32);
  }
  // The kernels call the C library's expf, logf, sinf and cosf, as
  // TensorFlow Lite Micro does. glibc here and newlib on Cortex-M55 agree
  // bit for bit; newlib's Cortex-M4 build (whose FPU has no double
  // precision) differed in the last bit of 4 of a first sweep's 12 such
  // outputs, two LOG and two SIN.
  checkAgainstOracle(S.model(), "transcendental", S.Bytes,
                     {{"cortex-m4", "its C library's logf and sinf round "
                                    "differently in the last bit"}});
}

TEST_CASE("ELU, PRELU, ADD_N, CUMSUM, BATCH_MATMUL and int8 LOG_SOFTMAX equal "
          "TensorFlow Lite Micro's in every type on every target") {
  requireSharedDir();
  Builtins S(34);
  for (int I = 0; I < 4; ++I) {
    S.unary("ELU", ir::DType::I8);
    S.unary("ELU", ir::DType::F32);
    S.binary("PRELU", ir::DType::I8);
    S.binary("PRELU", ir::DType::I16);
    S.binary("PRELU", ir::DType::F32);
    S.addN(ir::DType::I8);
    S.addN(ir::DType::F32);
    S.cumsum(ir::DType::I8);
    S.cumsum(ir::DType::F32);
    for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::F32})
      S.batchMatMul(T);
    S.logSoftmax(ir::DType::I8);
    S.logSoftmax(ir::DType::I8);
  }
  checkAgainstOracle(S.model(), "arithmetic", S.Bytes);
}

TEST_CASE("L2_POOL_2D and L2_NORMALIZATION equal TensorFlow Lite Micro's in "
          "every type on every target") {
  requireSharedDir();
  Builtins S(36);
  for (int I = 0; I < 6; ++I) {
    S.pool("L2_POOL_2D", ir::DType::F32);
    S.l2Norm(ir::DType::I8);
    S.l2Norm(ir::DType::F32);
  }
  checkAgainstOracle(S.model(), "l2");
}

TEST_CASE("ARG_MAX and ARG_MIN equal TensorFlow Lite Micro's in every type on "
          "every target") {
  requireSharedDir();
  Builtins S(37);
  for (int I = 0; I < 4; ++I)
    for (ir::DType T : {ir::DType::I8, ir::DType::F32}) {
      S.argMinMax("ARG_MAX", T);
      S.argMinMax("ARG_MIN", T);
    }
  checkAgainstOracle(S.model(), "arg-min-max");
}

TEST_CASE("GATHER, BROADCAST_TO, GATHER_ND, EMBEDDING_LOOKUP, "
          "DYNAMIC_UPDATE_SLICE, SHAPE and BROADCAST_ARGS equal TensorFlow "
          "Lite Micro's in every type on every target") {
  requireSharedDir();
  Builtins S(38);
  for (int I = 0; I < 5; ++I)
    for (ir::DType T : {ir::DType::I8, ir::DType::F32})
      S.gather(T);
  for (int I = 0; I < 2; ++I) {
    for (ir::DType T : {ir::DType::Bool, ir::DType::I8, ir::DType::I16,
                        ir::DType::I32, ir::DType::I64, ir::DType::F32}) {
      S.broadcastTo(T);
      S.shapeOf(T);
    }
    for (ir::DType T : {ir::DType::I8, ir::DType::F32}) {
      S.gatherNd(T);
      S.embeddingLookup(T);
    }
    S.embeddingLookup(ir::DType::I8, /*Dequantize=*/true);
    for (ir::DType T :
         {ir::DType::I8, ir::DType::I16, ir::DType::I32, ir::DType::F32})
      S.dynamicUpdateSlice(T);
    S.broadcastArgs(ir::DType::I32);
    S.broadcastArgs(ir::DType::I64);
  }
  checkAgainstOracle(S.model(), "gather-index", S.Bytes);
}

TEST_CASE("CAST equals TensorFlow Lite Micro's between every pair of types, and "
          "from bool, on every target") {
  requireSharedDir();
  Builtins S(39);
  const ir::DType Types[] = {ir::DType::I8, ir::DType::I16, ir::DType::I32,
                             ir::DType::U32, ir::DType::F32};
  for (ir::DType From : Types) {
    for (ir::DType To : Types)
      if (From != To)
        S.cast(From, To);
    S.cast(ir::DType::Bool, From);
  }
  checkAgainstOracle(S.model(), "cast", S.Bytes);
}

TEST_CASE("FILL and ZEROS_LIKE equal TensorFlow Lite Micro's in every type on "
          "every target") {
  requireSharedDir();
  Builtins S(40);
  for (int I = 0; I < 2; ++I) {
    for (ir::DType T : {ir::DType::I8, ir::DType::I32, ir::DType::F32})
      S.fill(/*Zeros=*/false, T);
    for (ir::DType T :
         {ir::DType::I8, ir::DType::I32, ir::DType::I64, ir::DType::F32})
      S.fill(/*Zeros=*/true, T);
  }
  checkAgainstOracle(S.model(), "fill");
}

TEST_CASE("Comparisons, LOGICAL_*, SELECT_V2 and REDUCE_ALL equal TensorFlow "
          "Lite Micro's in every type on every target") {
  requireSharedDir();
  Builtins S(41);
  for (int I = 0; I < 2; ++I) {
    for (const char *Op : {"EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL",
                           "GREATER", "GREATER_EQUAL"})
      for (ir::DType T :
           {ir::DType::I8, ir::DType::I32, ir::DType::I64, ir::DType::F32})
        S.compare(Op, T);
    for (const char *Op : {"EQUAL", "NOT_EQUAL", "LOGICAL_AND", "LOGICAL_OR"})
      S.compare(Op, ir::DType::Bool);
    S.logicalNot();
    for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::F32})
      S.select(T);
    S.reduceAll();
    S.reduceAll();
  }
  checkAgainstOracle(S.model(), "compare-logic", S.Bytes);
}

namespace {

/// A model of six graphs that uses IF, WHILE and CALL_ONCE and, with
/// \p Variables, every resource variable operator. The main graph calls
/// graph 3 once; runs IF both ways (graphs 1 and 2: MAXIMUM or MINIMUM with
/// a constant) on the sum of its input and a second value; and a WHILE loop
/// (condition graph 4: i < 3; body graph 5: i + 1, y + y) from the counter
/// it is given. Without variables graph 3 computes what nobody reads and the
/// second value is the input itself; with them graph 3 assigns variable
/// "acc" a constant, the main graph reads "acc" as the second value, assigns
/// the sum back and reads it again, and assigns and reads variable "late".
ir::Model controlFlowModel(bool Variables) {
  const std::vector<int32_t> Row = {1, 8};
  auto Quant = [] { return ir::perTensor(0.05f, 3); };
  auto Values = [](int First) {
    std::vector<int8_t> V(8);
    for (size_t I = 0; I < V.size(); ++I)
      V[I] = static_cast<int8_t>(First + 7 * static_cast<int>(I));
    return V;
  };
  const ir::AttrValue NoActivation = std::string("NONE");
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.resize(6);
  for (int K = 1; K <= 2; ++K) {
    ir::GraphBuilder B;
    const int32_t A = B.tensor("a", Row, Quant());
    const int32_t C =
        B.constant("c", Row, Quant(), ir::DType::I8, Values(-20));
    const int32_t O = B.tensor("o", Row, Quant());
    B.op(K == 1 ? "MAXIMUM" : "MINIMUM", {A, C}, {O});
    B.inputs({A}).outputs({O});
    B.G.Name = K == 1 ? "then" : "else";
    M.Graphs[K] = B.G;
  }
  {
    ir::GraphBuilder B;
    const int32_t C =
        B.constant("init", Row, Quant(), ir::DType::I8, Values(-50));
    if (Variables) {
      B.op("ASSIGN_VARIABLE", {B.varHandle("acc"), C}, {});
    } else {
      const int32_t Sum = B.tensor("unread", Row, Quant());
      B.op("ADD", {C, C}, {Sum}, {{"fused_activation", NoActivation}});
    }
    B.G.Name = "init";
    M.Graphs[3] = B.G;
  }
  for (int K = 4; K <= 5; ++K) {
    ir::GraphBuilder B;
    const int32_t I = B.tensor("i", {1}, std::nullopt, ir::DType::I32);
    const int32_t Y = B.tensor("y", Row, Quant());
    B.inputs({I, Y});
    if (K == 4) {
      const int32_t Three =
          B.constant("three", {1}, std::nullopt, ir::DType::I32,
                     std::vector<int32_t>{3});
      const int32_t Less =
          B.tensor("less", {1}, std::nullopt, ir::DType::Bool);
      B.op("LESS", {I, Three}, {Less});
      B.outputs({Less});
    } else {
      const int32_t One = B.constant("one", {1}, std::nullopt, ir::DType::I32,
                                     std::vector<int32_t>{1});
      const int32_t I2 = B.tensor("i2", {1}, std::nullopt, ir::DType::I32);
      const int32_t Y2 = B.tensor("y2", Row, Quant());
      B.op("ADD", {I, One}, {I2}, {{"fused_activation", NoActivation}});
      B.op("ADD", {Y, Y}, {Y2}, {{"fused_activation", NoActivation}});
      B.outputs({I2, Y2});
    }
    B.G.Name = K == 4 ? "cond" : "body";
    M.Graphs[K] = B.G;
  }

  ir::GraphBuilder B;
  const int32_t X = B.tensor("x", Row, Quant());
  const int32_t Flag = B.tensor("flag", {1}, std::nullopt, ir::DType::Bool);
  const int32_t N = B.tensor("n", {1}, std::nullopt, ir::DType::I32);
  std::vector<int32_t> Outputs;
  B.op("CALL_ONCE", {}, {}, {{"init_subgraph", int64_t(3)}});
  int32_t Second = X;
  const int32_t S = B.tensor("s", Row, Quant());
  if (Variables) {
    const int32_t H = B.varHandle("acc");
    Second = B.tensor("v", Row, Quant());
    B.op("READ_VARIABLE", {H}, {Second});
    Outputs.push_back(Second);
    B.op("ADD", {X, Second}, {S}, {{"fused_activation", NoActivation}});
    B.op("ASSIGN_VARIABLE", {H, S}, {});
    const int32_t Again = B.tensor("v_again", Row, Quant());
    B.op("READ_VARIABLE", {H}, {Again});
    Outputs.push_back(Again);
    const int32_t Late = B.varHandle("late");
    B.op("ASSIGN_VARIABLE",
         {Late, B.constant("late_value", {1, 4}, Quant(), ir::DType::I8,
                           std::vector<int8_t>{1, 2, 3, 4})},
         {});
    const int32_t L = B.tensor("l", {1, 4}, Quant());
    B.op("READ_VARIABLE", {Late}, {L});
    Outputs.push_back(L);
  } else {
    B.op("ADD", {X, Second}, {S}, {{"fused_activation", NoActivation}});
    Outputs.push_back(S);
  }
  const int32_t NotFlag =
      B.tensor("not_flag", {1}, std::nullopt, ir::DType::Bool);
  B.op("LOGICAL_NOT", {Flag}, {NotFlag});
  for (int32_t C : {Flag, NotFlag}) {
    const int32_t Y = B.tensor(C == Flag ? "if_flag" : "if_not_flag", Row,
                               Quant());
    B.op("IF", {C, S}, {Y},
         {{"then_subgraph", int64_t(1)}, {"else_subgraph", int64_t(2)}});
    Outputs.push_back(Y);
  }
  const int32_t NOut = B.tensor("n_out", {1}, std::nullopt, ir::DType::I32);
  const int32_t YOut = B.tensor("y_out", Row, Quant());
  B.op("WHILE", {N, S}, {NOut, YOut},
       {{"cond_subgraph", int64_t(4)}, {"body_subgraph", int64_t(5)}});
  Outputs.push_back(NOut);
  Outputs.push_back(YOut);
  B.inputs({X, Flag, N}).outputs(Outputs);
  B.G.Name = "main";
  M.Graphs[0] = B.G;
  return M;
}

/// The inputs of controlFlowModel: the counter starts at \p Counter.
std::vector<std::vector<uint8_t>> controlFlowInputs(int32_t Counter) {
  std::vector<uint8_t> X(8), N(4);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<uint8_t>(int8_t(-30 + 9 * static_cast<int>(I)));
  std::memcpy(N.data(), &Counter, 4);
  return {X, {1}, N};
}

} // namespace

TEST_CASE("IF, WHILE and CALL_ONCE equal TensorFlow Lite Micro's on every "
          "target") {
  requireSharedDir();
  checkAgainstOracle(controlFlowModel(/*Variables=*/false), "control-flow",
                     controlFlowInputs(-2)); // five turns of the loop
}

TEST_CASE("VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE equal TensorFlow "
          "Lite's own interpreter on every target") {
  requireSharedDir();
  // TensorFlow Lite Micro's runner refuses resource variables (it gives
  // its interpreter no store for them); TensorFlow Lite 2.9 runs them.
  checkAgainstOracle(controlFlowModel(/*Variables=*/true), "variables",
                     controlFlowInputs(1), {}, ACCELGEN_NATIVE_ORACLE);
}

TEST_CASE("uint8 SPLIT, SPLIT_V, UNPACK, PACK and CAST, which TensorFlow "
          "Lite has and Micro lacks, equal TensorFlow Lite's own interpreter "
          "on every target") {
  requireSharedDir();
  Builtins S(43);
  for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::I32,
                      ir::DType::U32, ir::DType::F32, ir::DType::Bool})
    S.cast(T, ir::DType::U8);
  for (ir::DType T : {ir::DType::I8, ir::DType::I16, ir::DType::I32,
                      ir::DType::U32, ir::DType::F32})
    S.cast(ir::DType::U8, T);
  // The byte-moving layers' inputs follow the casts' (which write their own
  // bytes): any bytes.
  const size_t Casts = S.Inputs.size();
  S.split(ir::DType::U8, /*Sized=*/false);
  S.split(ir::DType::U8, /*Sized=*/true);
  S.unpack(ir::DType::U8);
  S.pack(ir::DType::U8);
  const ir::Model M = S.model();
  std::vector<std::vector<uint8_t>> Bytes = S.Bytes;
  REQUIRE(Bytes.size() == Casts);
  for (size_t I = Casts; I < M.main().Inputs.size(); ++I)
    Bytes.push_back(
        S.randomBytes(ir::DType::U8,
                      M.main().tensor(M.main().Inputs[I]).numElements()));
  checkAgainstOracle(M, "uint8-forms", Bytes, {}, ACCELGEN_NATIVE_ORACLE);
}

TEST_CASE("TFLite_Detection_PostProcess equals TensorFlow Lite Micro's, "
          "regular and fast, on every target") {
  requireSharedDir();
  Builtins S(44);
  for (int I = 0; I < 3; ++I) {
    S.detection(/*Regular=*/true);
    S.detection(/*Regular=*/false);
  }
  S.detection(/*Regular=*/false, /*PerDetection=*/2);
  S.detection(/*Regular=*/false, /*PerDetection=*/3);
  S.detection(/*Regular=*/true, 1, /*Many=*/true);
  S.detection(/*Regular=*/false, 1, /*Many=*/true);
  checkAgainstOracle(S.model(), "detection", S.Bytes, {}, oraclePath(),
                     S.unwrittenDetectionRows());
}
