//===- VerifyCascade.cpp - Independent check of a cascaded plan -----------===//
//
// Replays every cascade step by step with nothing taken from the planner but
// the plan itself: which rows each operator must read is derived again from
// its stripe transform (ir::rowMap) and its attributes, the rows each window
// holds are tracked as the steps write and slide them, and the arena is
// checked by verifyPlan with the cascades' groups and window sizes, which
// must be the ones the cascades imply. Plain rather than fast, like
// VerifyPlan.cpp.
//
//===----------------------------------------------------------------------===//
#include "plan/Cascade.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <functional>
#include <map>

namespace accelgen {
namespace plan {

namespace {

/// The input rows (\p Dim 1) or columns (2) operator \p Op must have to
/// write rows [A, B) of its output, and the padding before them.
RowRange requiredRange(const ir::Graph &G, const ir::Operator &Op, int Dim,
                       int32_t A, int32_t B, int32_t &Pad) {
  const ir::RowMap M = Dim == 1 ? ir::rowMap(Op.code()) : ir::colMap(Op.code());
  Pad = 0;
  if (M.Kind != ir::RowKind::Window && M.Kind != ir::RowKind::Shifted)
    return {A, B};
  const int64_t H = G.tensor(Op.input(0)).Shape[Dim];
  if (M.Kind == ir::RowKind::Shifted) {
    // PAD: output row r copies input row r - p, if there is one.
    const int64_t P = ir::rowShift(G, Op).value_or(0);
    int64_t First = std::min(std::max<int64_t>(A - P, 0), H);
    int64_t Last = std::min(std::max<int64_t>(B - P, 0), H);
    Pad = static_cast<int32_t>(std::max<int64_t>(First - (A - P), 0));
    return {static_cast<int32_t>(First),
            static_cast<int32_t>(std::max(First, Last))};
  }
  const int64_t OutH = G.tensor(Op.output(0)).Shape[Dim];
  const int64_t S = Op.getInt(M.Stride, 1);
  const int64_t D = M.Dilation.empty() ? 1 : Op.getInt(M.Dilation, 1);
  const int64_t K = M.KernelOperand >= 0
                        ? G.tensor(Op.input(M.KernelOperand)).Shape[Dim]
                        : Op.getInt(M.Kernel, 1);
  const int64_t Span = D * (K - 1) + 1;
  int64_t Total = (OutH - 1) * S + Span - H;
  const int64_t Before = Total > 0 ? Total / 2 : 0;
  const int64_t First = int64_t(A) * S - Before;
  const int64_t Last = int64_t(B - 1) * S + Span - Before; // one past
  const int64_t Begin = First < 0 ? 0 : First;
  Pad = static_cast<int32_t>(Begin - First);
  return {static_cast<int32_t>(Begin),
          static_cast<int32_t>(Last > H ? H : Last)};
}

RowRange requiredRows(const ir::Graph &G, const ir::Operator &Op, int32_t A,
                      int32_t B, int32_t &Pad) {
  return requiredRange(G, Op, 1, A, B, Pad);
}

/// Replays tiled cascade \p C (Cascade::tiled()): a chain of windows over
/// rows and columns, each step one tile of the last operator's output from
/// the top left, each member computing from its buffer's first byte the
/// region its successor reads, the first reading its input's region
/// exactly; every pixel of the last output computed once, every pixel of
/// the others traced once. Adds the windows' bytes (with the staging
/// buffers after the first) to \p Held.
void verifyTiled(const ir::Graph &G, const CascadePlan &Plan, const Cascade &C,
                 const std::string &Who, std::map<int32_t, int64_t> &Held,
                 const std::function<void(std::string)> &Report) {
  const int32_t M = C.numOps();
  const int32_t In = G.Operators[C.FirstOp].input(0);
  const int32_t Out = G.Operators[C.LastOp].output(0);
  for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
    const ir::Operator &Op = G.Operators[K];
    if (ir::rowMap(Op.code()).Kind != ir::RowKind::Window ||
        ir::colMap(Op.code()).Kind != ir::RowKind::Window) {
      Report(llvm::formatv("{0}: operator {1} ({2}) runs in tiles but is no "
                           "window over rows and columns",
                           Who, K, Op.Type));
      return;
    }
    if (K > C.FirstOp && Op.input(0) != G.Operators[K - 1].output(0)) {
      Report(llvm::formatv("{0}: operator {1} ({2}) runs in tiles but does "
                           "not read the previous operator's output",
                           Who, K, Op.Type));
      return;
    }
  }
  auto Pixel = [&](int32_t T) {
    const ir::Tensor &Ten = G.tensor(T);
    return Ten.byteSize() / (int64_t(Ten.Shape[1]) * Ten.Shape[2]);
  };
  const ir::Tensor &OutT = G.tensor(Out), &InT = G.tensor(In);
  // Pixels of the last output computed, and of every output traced.
  std::map<int32_t, std::vector<int32_t>> Count;
  for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
    const ir::Tensor &T = G.tensor(G.Operators[K].output(0));
    Count[G.Operators[K].output(0)].assign(size_t(T.Shape[1]) * T.Shape[2], 0);
  }
  // The output over the input it consumes: rows of the output copied so
  // far (after each band's last tile).
  const Buffer *OB = Plan.Memory.find(Out), *IB = Plan.Memory.find(In);
  const bool Over = OB && IB && OB->AliasOf >= 0 &&
                    OB->AliasOf == (IB->AliasOf < 0 ? In : IB->AliasOf);
  int32_t Copied = 0;
  std::vector<int32_t> Rows(M, 0), Cols(M, 0);
  int64_t Patch = 0, Tile = 0;
  for (size_t S = 0; S < C.Steps.size(); ++S) {
    if (C.Steps[S].size() != static_cast<size_t>(M)) {
      Report(
          llvm::formatv("{0}: step {1} has the wrong operator count", Who, S));
      return;
    }
    for (int32_t K = 0; K < M; ++K) {
      const StripeStep &St = C.Steps[S][K];
      const ir::Operator &Op = G.Operators[C.FirstOp + K];
      const int32_t T = Op.output(0);
      const ir::Tensor &Ten = G.tensor(T);
      const std::string Where = llvm::formatv(
          "{0}: tile {1}, operator {2} ({3})", Who, S, C.FirstOp + K, Op.Type);
      if (St.Out.empty() || St.OutCols.empty() || St.Out.Begin < 0 ||
          St.OutCols.Begin < 0 || St.Out.End > Ten.Shape[1] ||
          St.OutCols.End > Ten.Shape[2]) {
        Report(Where + ": computes no region of its output, or one outside");
        return;
      }
      int32_t PadT = 0, PadL = 0;
      const RowRange NeedR =
          requiredRange(G, Op, 1, St.Out.Begin, St.Out.End, PadT);
      const RowRange NeedC =
          requiredRange(G, Op, 2, St.OutCols.Begin, St.OutCols.End, PadL);
      const ir::Tensor &Src = G.tensor(Op.input(0));
      // What it reads: from where its region begins, at least what it
      // needs; the first operator exactly that (the patch), the others the
      // region the previous one computed in this step (its buffer).
      bool Reads = St.In.Begin == NeedR.Begin && St.PadTop == PadT &&
                   St.InCols.Begin == NeedC.Begin && St.PadLeft == PadL &&
                   St.In.End >= NeedR.End && St.InCols.End >= NeedC.End &&
                   St.In.End <= Src.Shape[1] && St.InCols.End <= Src.Shape[2];
      if (K == 0)
        Reads = Reads && St.In.End == NeedR.End && St.InCols.End == NeedC.End;
      else
        Reads = Reads && St.In.Begin == C.Steps[S][K - 1].Out.Begin &&
                St.In.End == C.Steps[S][K - 1].Out.End &&
                St.InCols.Begin == C.Steps[S][K - 1].OutCols.Begin &&
                St.InCols.End == C.Steps[S][K - 1].OutCols.End;
      if (!Reads) {
        Report(llvm::formatv("{0}: reads rows [{1}, {2}) and columns [{3}, "
                             "{4}) with padding {5}, {6}, not from [{7}, {8}) "
                             "x [{9}, {10}) with {11}, {12} in what it has",
                             Where, St.In.Begin, St.In.End, St.InCols.Begin,
                             St.InCols.End, St.PadTop, St.PadLeft, NeedR.Begin,
                             NeedR.End, NeedC.Begin, NeedC.End, PadT, PadL));
        return;
      }
      if (K == 0) {
        Patch = std::max<int64_t>(Patch, int64_t(St.In.size()) *
                                             St.InCols.size() * Pixel(In));
        if (Over)
          for (int32_t R = St.In.Begin; R < St.In.End; ++R)
            if (int64_t(R) * (InT.byteSize() / InT.Shape[1]) <
                int64_t(Copied) * (OutT.byteSize() / OutT.Shape[1])) {
              Report(llvm::formatv("{0}: reads row {1} of tensor {2} after "
                                   "tensor {3} overwrote it",
                                   Where, R, In, Out));
              return;
            }
      }
      Rows[K] = std::max(Rows[K], St.Out.size());
      Cols[K] = std::max(Cols[K], St.OutCols.size());
      // The part it traces (the last operator: its tile).
      const bool Last = K + 1 == M;
      const RowRange OR = Last ? St.Out : St.OwnRows;
      const RowRange OC = Last ? St.OutCols : St.OwnCols;
      if (Last && (St.OwnRows.Begin != OR.Begin || St.OwnRows.End != OR.End ||
                   St.OwnCols.Begin != OC.Begin || St.OwnCols.End != OC.End))
        Report(Where + ": traces other than its tile");
      if (OR.Begin < St.Out.Begin || OR.End > St.Out.End ||
          OC.Begin < St.OutCols.Begin || OC.End > St.OutCols.End) {
        Report(Where + ": traces pixels it does not compute");
        return;
      }
      std::vector<int32_t> &N = Count[T];
      for (int32_t R = OR.Begin; R < OR.End; ++R)
        for (int32_t X = OC.Begin; X < OC.End; ++X)
          ++N[size_t(R) * Ten.Shape[2] + X];
      if (Last) {
        Tile = std::max<int64_t>(Tile, int64_t(St.Out.size()) *
                                           St.OutCols.size() * Pixel(Out));
        if (St.Out.size() > C.StripeRows || St.OutCols.size() > C.TileCols)
          Report(Where + ": its tile is larger than the cascade's");
        if (C.endsBand(S)) {
          if (St.OutCols.End != OutT.Shape[2] || St.Out.Begin != Copied) {
            Report(Where + ": ends a band that is not the next whole rows");
            return;
          }
          Copied = St.Out.End;
        }
      }
    }
  }
  for (const auto &[T, N] : Count)
    for (size_t P = 0; P < N.size(); ++P)
      if (N[P] != 1) {
        Report(llvm::formatv("{0}: pixel {1} of tensor {2} is {3} {4} times",
                             Who, P, T, T == Out ? "computed" : "traced",
                             N[P]));
        break;
      }
  if (Patch != C.PatchBytes || Tile != C.TileBytes ||
      C.BandBytes != int64_t(C.StripeRows) * (OutT.byteSize() / OutT.Shape[1]))
    Report(Who + ": its staging buffers are not the sizes its tiles need");
  const int64_t A = Plan.Memory.Alignment;
  auto Up = [&](int64_t V) { return (V + A - 1) / A * A; };
  for (size_t I = 0; I < C.Windowed.size(); ++I) {
    const int32_t T = C.Windowed[I];
    int32_t Index = -1; // its operator's place in the cascade
    for (int32_t J = C.FirstOp; J < C.LastOp; ++J)
      if (G.Operators[J].output(0) == T)
        Index = J - C.FirstOp;
    if (Index < 0)
      continue;
    int64_t Bytes = int64_t(Rows[Index]) * Cols[Index] * Pixel(T);
    if (I == 0)
      Bytes = Up(Bytes) + Up(C.PatchBytes) + Up(C.TileBytes) + C.BandBytes;
    Held[T] = Bytes;
  }
}

} // namespace

std::vector<std::string> verifyCascades(const ir::Graph &G,
                                        const CascadePlan &Plan) {
  std::vector<std::string> Problems;
  auto Report = [&](std::string M) { Problems.push_back(std::move(M)); };
  const int32_t N = static_cast<int32_t>(G.Operators.size());

  std::vector<std::pair<int32_t, int32_t>> Spans;
  std::map<int32_t, int64_t> Held;
  int32_t PrevLast = -1;
  for (const Cascade &C : Plan.Cascades) {
    std::string Who =
        llvm::formatv("cascade of operators {0}-{1}", C.FirstOp, C.LastOp);
    if (C.FirstOp <= PrevLast || C.FirstOp >= C.LastOp || C.LastOp >= N) {
      Report(Who + " is empty, out of order or past the graph");
      continue;
    }
    PrevLast = C.LastOp;
    Spans.push_back({C.FirstOp, C.LastOp});

    // Every member writes one image with rows, and one whose rows follow
    // from input 0's reads an image.
    auto IsImage = [&](int32_t T) {
      return G.isValidTensor(T) && G.tensor(T).rank() == 4 &&
             G.tensor(T).Shape[1] > 0;
    };
    // An operator that sums over its input's rows (ir::RowKind::Accumulate)
    // reads an image and may only end the cascade.
    auto Sums = [&](int32_t K) {
      return ir::rowMap(G.Operators[K].code()).Kind == ir::RowKind::Accumulate;
    };
    bool Cuttable = true;
    for (int32_t K = C.FirstOp; K <= C.LastOp && Cuttable; ++K) {
      const ir::Operator &Op = G.Operators[K];
      if (Sums(K) &&
          (K < C.LastOp || Op.Outputs.size() != 1 || Op.Inputs.empty() ||
           !IsImage(Op.input(0)) || !G.isValidTensor(Op.output(0)) ||
           G.tensor(Op.output(0)).rank() < 2)) {
        Report(llvm::formatv("{0}: operator {1} ({2}) sums over rows but "
                             "does not end the cascade reading an image",
                             Who, K, Op.Type));
        Cuttable = false;
      } else if (!Sums(K) &&
                 (Op.Outputs.size() != 1 || !IsImage(Op.output(0)) ||
                  (ir::mapsInputRows(Op.code()) && !IsImage(Op.input(0))))) {
        Report(llvm::formatv("{0}: operator {1} ({2}) does not work on "
                             "images a stripe can cut",
                             Who, K, Op.Type));
        Cuttable = false;
      }
    }
    if (!Cuttable)
      continue;

    // The windows: the outputs of all but the last operator, read only
    // inside the cascade.
    std::vector<int32_t> Inner;
    for (int32_t K = C.FirstOp; K < C.LastOp; ++K)
      Inner.push_back(G.Operators[K].output(0));
    std::sort(Inner.begin(), Inner.end());
    if (Inner != C.Windowed || C.WindowRows.size() != C.Windowed.size()) {
      Report(Who + " does not hold exactly its inner tensors as windows");
      continue;
    }
    for (int32_t T : Inner) {
      for (int32_t K = 0; K < N; ++K)
        if ((K < C.FirstOp || K > C.LastOp) &&
            llvm::is_contained(G.Operators[K].Inputs, T))
          Report(llvm::formatv("{0}: tensor {1} is held as a window but "
                               "operator {2} outside reads it",
                               Who, T, K));
      if (llvm::is_contained(G.Outputs, T))
        Report(llvm::formatv("{0}: tensor {1} is held as a window but is a "
                             "graph output",
                             Who, T));
    }
    if (C.tiled()) {
      verifyTiled(G, Plan, C, Who, Held, Report);
      continue;
    }
    for (size_t I = 0; I < Inner.size(); ++I) {
      const ir::Tensor &T = G.tensor(Inner[I]);
      Held[Inner[I]] = int64_t(C.WindowRows[I]) * (T.byteSize() / T.Shape[1]);
    }
    // The sums an accumulating last operator keeps in its output's bytes:
    // one int32 per output element.
    if (Sums(C.LastOp)) {
      const ir::Tensor &Out = G.tensor(G.Operators[C.LastOp].output(0));
      if (Out.numElements() * 4 > Out.byteSize())
        Held[G.Operators[C.LastOp].output(0)] = Out.numElements() * 4;
    }
    // The next row of its input an accumulating last operator sums.
    int32_t NextSummed = 0;

    // Replay. Rows [Lo, Hi) of each window are held; Done counts how often
    // each row of each output was written.
    std::map<int32_t, int32_t> Lo, Hi;
    std::map<int32_t, std::vector<int32_t>> Done;
    for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
      int32_t T = G.Operators[K].output(0);
      Done[T].assign(G.tensor(T).Shape[1], 0);
      Lo[T] = Hi[T] = 0;
    }
    // An output that takes over other tensors' bytes (an in-place operator,
    // or the cascade's output over a tensor its stripes consume) must be
    // whole, and so must they; by overwritten tensor, the output
    // overwriting it row by row from its first byte.
    std::map<int32_t, int32_t> OverwrittenBy;
    auto StorageOf = [&](int32_t T) {
      const Buffer *B = Plan.Memory.find(T);
      return !B ? -1 : B->AliasOf < 0 ? T : B->AliasOf;
    };
    for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
      int32_t Out = G.Operators[K].output(0);
      const Buffer *B = Plan.Memory.find(Out);
      if (!B || B->AliasOf < 0)
        continue;
      if (K < C.LastOp) {
        Report(llvm::formatv("{0}: tensor {1} is held as a window but takes "
                             "over another tensor's bytes",
                             Who, Out));
        continue;
      }
      for (int32_t J = C.FirstOp; J <= C.LastOp; ++J)
        for (int32_t In : G.Operators[J].Inputs) {
          if (In < 0 || In == Out || StorageOf(In) != B->AliasOf)
            continue;
          const ir::Tensor &InT = G.tensor(In), &OutT = G.tensor(Out);
          if (Lo.count(In))
            Report(llvm::formatv("{0}: tensor {1} takes over the bytes of "
                                 "tensor {2}, held as a window",
                                 Who, Out, In));
          else if (InT.Shape.size() != 4 || InT.Shape[0] != 1 ||
                   InT.Shape[1] <= 0)
            Report(llvm::formatv("{0}: tensor {1} takes over the bytes of "
                                 "tensor {2}, which has no rows",
                                 Who, Out, In));
          else if (J == C.LastOp && InT.Shape != OutT.Shape)
            Report(llvm::formatv("{0}: tensor {1} takes over the bytes of "
                                 "tensor {2}, which its own operator reads "
                                 "with other rows",
                                 Who, Out, In));
          else
            OverwrittenBy[In] = Out;
        }
    }
    for (size_t S = 0; S < C.Steps.size(); ++S) {
      if (C.Steps[S].size() != static_cast<size_t>(C.numOps())) {
        Report(llvm::formatv("{0}: step {1} has the wrong operator count", Who,
                             S));
        break;
      }
      for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
        const StripeStep &St = C.Steps[S][K - C.FirstOp];
        const ir::Operator &Op = G.Operators[K];
        const int32_t Out = Op.output(0);
        const bool Window = K < C.LastOp;
        auto Where = [&] {
          return llvm::formatv("{0}: step {1}, operator {2} ({3})", Who, S, K,
                               Op.Type)
              .str();
        };
        if (!Window && Sums(K)) {
          // Every row of its input once, in order, from its window; the
          // whole output after the last.
          const int32_t In = Op.input(0);
          const int32_t InRows = G.tensor(In).Shape[1];
          if (!St.In.empty()) {
            if (St.In.Begin != NextSummed || St.In.End > InRows ||
                (!Done[Out].empty() && Done[Out].front() > 0))
              Report(llvm::formatv("{0}: sums rows [{1}, {2}) of tensor {3}, "
                                   "not the next from row {4}",
                                   Where(), St.In.Begin, St.In.End, In,
                                   NextSummed));
            else if (Lo.count(In) &&
                     (St.In.Begin < Lo[In] || St.In.End > Hi[In]))
              Report(llvm::formatv("{0}: needs rows [{1}, {2}) of tensor "
                                   "{3}, whose window holds [{4}, {5})",
                                   Where(), St.In.Begin, St.In.End, In, Lo[In],
                                   Hi[In]));
            NextSummed = std::max(NextSummed, St.In.End);
          }
          if (St.Out.empty())
            continue;
          if (St.Out.Begin != 0 || St.Out.End != G.tensor(Out).Shape[1] ||
              NextSummed != InRows) {
            Report(llvm::formatv("{0}: writes rows [{1}, {2}) of its output "
                                 "having summed {3} of {4} input rows",
                                 Where(), St.Out.Begin, St.Out.End, NextSummed,
                                 InRows));
            continue;
          }
          for (int32_t R = St.Out.Begin; R < St.Out.End; ++R)
            ++Done[Out][R];
          continue;
        }
        if (St.Out.empty()) {
          if (Window && St.WindowBegin != Lo[Out])
            Report(Where() + ": slides its window without writing");
          continue;
        }
        if (St.Out.Begin < 0 || St.Out.End > G.tensor(Out).Shape[1]) {
          Report(Where() + ": writes rows outside its output");
          continue;
        }
        // Its reads.
        int32_t Pad = 0;
        RowRange Need = requiredRows(G, Op, St.Out.Begin, St.Out.End, Pad);
        if (ir::mapsInputRows(Op.code()) &&
            (St.In.Begin != Need.Begin || St.In.End != Need.End ||
             St.PadTop != Pad))
          Report(llvm::formatv("{0}: reads rows [{1}, {2}) with padding {3}, "
                               "not [{4}, {5}) with {6}",
                               Where(), St.In.Begin, St.In.End, St.PadTop,
                               Need.Begin, Need.End, Pad));
        for (size_t X = 0; X < Op.Inputs.size(); ++X) {
          int32_t In = Op.Inputs[X];
          if (In < 0 || G.tensor(In).IsConstant)
            continue;
          auto Over = OverwrittenBy.find(In);
          if (Over != OverwrittenBy.end()) {
            // Rows an earlier operator of this step or an earlier step has
            // overwritten; the operator's own writes follow its reads.
            // Both tensors start at the same byte: a row of either is
            // the bytes [row * its row bytes, + its row bytes).
            const std::vector<int32_t> &Written = Done[Over->second];
            const bool Windowed = ir::mapsInputRows(Op.code());
            RowRange Read = Windowed && X != 0 ? RowRange{} : Need;
            const ir::Tensor &InT = G.tensor(In);
            const ir::Tensor &OutT = G.tensor(Over->second);
            const int64_t InRow = InT.byteSize() / InT.Shape[1];
            const int64_t OutRow = std::max<int64_t>(
                1, OutT.byteSize() / std::max(1, OutT.Shape[1]));
            for (int32_t R = Read.Begin; R < Read.End; ++R) {
              bool Overwritten = false;
              for (int64_t W = R * InRow / OutRow;
                   W * OutRow < (R + 1) * InRow &&
                   W < static_cast<int64_t>(Written.size());
                   ++W)
                Overwritten |= Written[W] > 0;
              if (Overwritten) {
                Report(llvm::formatv("{0}: reads row {1} of tensor {2} after "
                                     "tensor {3} overwrote it",
                                     Where(), R, In, Over->second));
                break;
              }
            }
          }
          if (!Lo.count(In) || Need.empty())
            continue; // whole, made before the cascade, or not read
          if (Need.Begin < Lo[In] || Need.End > Hi[In])
            Report(llvm::formatv("{0}: needs rows [{1}, {2}) of tensor {3}, "
                                 "whose window holds [{4}, {5})",
                                 Where(), Need.Begin, Need.End, In, Lo[In],
                                 Hi[In]));
        }
        // Its writes.
        if (Window) {
          if (St.Out.Begin != Hi[Out] || St.WindowBegin < Lo[Out] ||
              St.WindowBegin > St.Out.Begin)
            Report(Where() + ": does not append to its window");
          Lo[Out] = St.WindowBegin;
          Hi[Out] = St.Out.End;
          int32_t Rows = C.WindowRows[C.windowOf(Out)];
          if (Hi[Out] - Lo[Out] > Rows)
            Report(llvm::formatv("{0}: its window holds {1} rows, more than "
                                 "the {2} planned",
                                 Where(), Hi[Out] - Lo[Out], Rows));
        }
        for (int32_t R = St.Out.Begin; R < St.Out.End; ++R)
          ++Done[Out][R];
      }
    }
    for (const auto &[T, Rows] : Done)
      for (size_t R = 0; R < Rows.size(); ++R)
        if (Rows[R] != 1) {
          Report(llvm::formatv("{0}: row {1} of tensor {2} is written {3} "
                               "times",
                               Who, R, T, Rows[R]));
          break;
        }
  }

  if (Plan.Options.Groups != Spans)
    Report("the arena's groups are not the cascades");
  if (Plan.Options.HeldBytes != Held)
    Report("the arena's window sizes are not the cascades'");
  for (std::string &M : verifyPlan(G, Plan.Memory, Plan.Options))
    Report(std::move(M));
  return Problems;
}

} // namespace plan
} // namespace accelgen
