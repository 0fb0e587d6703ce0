//===- Cascade.cpp - Choosing cascades and stripe heights -----------------===//
//
// Three steps. Each operator's stripe transform (ir::rowMap, from
// defs/ops.td) gives the input rows of a stripe of output rows. Simulating a
// span of operators stripe by stripe, from the last operator's stripe back to
// the first, gives every window's height and so the span's working memory:
// the whole tensors live across it plus its windows. A span's memory depends
// on nothing outside it, so a dynamic program over the operators picks the
// spans (single operators run layer at a time) that minimize the peak, or,
// under a budget, cost the fewest device switches (an accelerator's stripes)
// and cascade the fewest operators. The greedy placer of
// MemoryPlan.cpp then places the arena with each cascade as one step; if
// fragmentation pushes it past the budget the target is tightened and the
// choice made again.
//
//===----------------------------------------------------------------------===//
#include "plan/Cascade.h"

#include "analysis/ModelStats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace accelgen {
namespace plan {

int32_t Cascade::windowOf(int32_t T) const {
  auto It = llvm::find(Windowed, T);
  return It == Windowed.end() ? -1
                              : static_cast<int32_t>(It - Windowed.begin());
}

bool Cascade::endsBand(size_t S) const {
  if (!tiled() || S + 1 >= Steps.size())
    return true;
  const int32_t L = LastOp - FirstOp;
  return Steps[S + 1][L].Out.Begin != Steps[S][L].Out.Begin;
}

int64_t Cascade::stagingOffset(unsigned Which, int64_t Alignment) const {
  auto Up = [&](int64_t V) {
    return (V + Alignment - 1) / Alignment * Alignment;
  };
  const int64_t Sizes[] = {Up(int64_t(WindowRows[0]) * RowBytes[0]),
                           Up(PatchBytes), Up(TileBytes)};
  int64_t Offset = 0;
  for (unsigned I = 0; I <= Which && I < 3; ++I)
    Offset += Sizes[I];
  return Offset;
}

int64_t Cascade::heldBytes(size_t I, int64_t Alignment) const {
  const int64_t Window = int64_t(WindowRows[I]) * RowBytes[I];
  if (!tiled() || I != 0)
    return Window;
  return stagingOffset(2, Alignment) + BandBytes;
}

const Cascade *CascadePlan::cascadeOf(int32_t Op) const {
  for (const Cascade &C : Cascades)
    if (C.FirstOp <= Op && Op <= C.LastOp)
      return &C;
  return nullptr;
}

namespace {

/// The longest span tried as one cascade.
constexpr int32_t MaxCascadeOps = 64;

bool isBatchOneImage(const ir::Tensor &T) {
  return T.rank() == 4 && T.Shape[0] == 1 && T.Shape[1] > 0 &&
         T.Shape[1] < (1 << 15);
}

int64_t rowBytes(const ir::Tensor &T) { return T.byteSize() / T.Shape[1]; }

int64_t alignUp(int64_t V, int64_t A) { return (V + A - 1) / A * A; }

bool accumulates(const ir::Operator &Op) {
  return ir::rowMap(Op.code()).Kind == ir::RowKind::Accumulate;
}

/// Why accumulating operator \p Op cannot end a cascade, or nothing if it
/// can: it sums over the elements of one 8-bit batch-1 image (its kernels'
/// _accumulate and _finish forms), a constant filter row per unit as long as
/// the image, into a batch-1 output.
std::optional<std::string> whyNotAccumulating(const ir::Graph &G,
                                              const ir::Operator &Op) {
  if (Op.Inputs.size() < 2 || !G.isValidTensor(Op.input(0)) ||
      !G.isValidTensor(Op.input(1)))
    return "it has no input or no filter";
  const ir::Tensor &In = G.tensor(Op.input(0));
  const ir::Tensor &Filter = G.tensor(Op.input(1));
  if (!isBatchOneImage(In) || In.IsConstant || In.IsVariable)
    return "its input is not one NHWC image";
  if (In.Type != ir::DType::I8 && In.Type != ir::DType::U8)
    return "only its 8-bit kernels sum stripe by stripe";
  if (!Filter.IsConstant || Filter.rank() != 2 ||
      Filter.Shape[1] != In.numElements())
    return "its filter is not a constant row per unit as long as its input";
  for (size_t I = 2; I < Op.Inputs.size(); ++I)
    if (Op.Inputs[I] >= 0 &&
        (!G.isValidTensor(Op.Inputs[I]) || !G.tensor(Op.Inputs[I]).IsConstant))
      return "it reads a computed tensor besides input 0";
  if (Op.Outputs.size() != 1 || !G.isValidTensor(Op.output(0)))
    return "it has more than one output";
  const ir::Tensor &Out = G.tensor(Op.output(0));
  if (Out.IsConstant || Out.IsVariable || Out.rank() < 2 || Out.Shape[0] != 1 ||
      Out.numElements() != Filter.Shape[0])
    return "its output is not one batch of units";
  return std::nullopt;
}

} // namespace

int64_t accumulatorBytes(const ir::Graph &G, const ir::Operator &Op) {
  return G.tensor(Op.output(0)).numElements() * 4;
}

std::optional<std::string> whyNotStripable(const ir::Graph &G, size_t Index) {
  const ir::Operator &Op = G.Operators[Index];
  const ir::RowMap Map = ir::rowMap(Op.code());
  switch (Map.Kind) {
  case ir::RowKind::Whole:
    return "its stripe transform is 'whole'";
  case ir::RowKind::Shifted:
    if (!ir::rowShift(G, Op))
      return "its row padding is not a constant of the expected shape";
    break;
  case ir::RowKind::Identity:
    break;
  case ir::RowKind::Accumulate:
    return whyNotAccumulating(G, Op);
  case ir::RowKind::Window: {
    // A geometry in the range where the row arithmetic (int32) cannot
    // overflow: rows, strides, dilations and kernel extents below 2^15.
    const int64_t Stride = Op.getInt(Map.Stride, 1);
    const int64_t Dilation =
        Map.Dilation.empty() ? 1 : Op.getInt(Map.Dilation, 1);
    int64_t Kernel = Op.getInt(Map.Kernel, 1);
    if (Map.KernelOperand >= 0) {
      const int32_t K = Op.input(static_cast<unsigned>(Map.KernelOperand));
      if (!G.isValidTensor(K) || G.tensor(K).rank() < 2)
        return "its kernel operand has no height";
      Kernel = G.tensor(K).Shape[1];
    }
    constexpr int64_t Limit = int64_t(1) << 15;
    if (Stride < 1 || Stride >= Limit || Dilation < 1 || Dilation >= Limit ||
        Kernel < 1 || Kernel >= Limit || (Kernel - 1) * Dilation >= Limit)
      return "its stride, dilation or kernel height is outside [1, 2^15)";
    break;
  }
  }
  if (Op.code() == ir::OpCode::Reshape)
    return "RESHAPE shares its input's bytes";
  if (Op.Outputs.size() != 1 || !G.isValidTensor(Op.output(0)))
    return "it has more than one output";
  const ir::Tensor &Out = G.tensor(Op.output(0));
  if (!isBatchOneImage(Out) || Out.IsConstant || Out.IsVariable)
    return "its output is not one NHWC image";
  if (Op.code() == ir::OpCode::Concatenation) {
    int64_t Axis = Op.getInt(ir::attr::Axis, 0);
    if (Axis < 0)
      Axis += 4;
    if (Axis < 2)
      return "it concatenates along the rows";
  }
  for (size_t I = 0; I < Op.Inputs.size(); ++I) {
    int32_t T = Op.Inputs[I];
    if (T < 0)
      continue;
    const ir::Tensor &In = G.tensor(T);
    if (In.IsVariable)
      return "it reads state";
    if (ir::mapsInputRows(Op.code())) {
      if (I == 0 && (!isBatchOneImage(In) || In.IsConstant))
        return "its input is not one NHWC image";
      if (I != 0 && !In.IsConstant)
        return "it reads a computed tensor besides input 0";
      continue;
    }
    // Identity: constants broadcast along the rows; computed inputs have the
    // output's rows.
    if (In.IsConstant) {
      if (In.rank() == 4 && In.Shape[1] != 1)
        return "a constant input has rows of its own";
      continue;
    }
    if (!isBatchOneImage(In) || In.Shape[1] != Out.Shape[1])
      return "an input does not have the output's rows";
  }
  if (Map.Kind == ir::RowKind::Window) {
    // Every output row's window meets the input, as it does wherever the
    // output's rows follow from the input's by SAME or VALID padding; then
    // the rows read, clipped to the input, only move down from row to row,
    // which the windows rely on.
    int32_t Pad = 0;
    const RowRange First = stripeInputRows(G, Op, {0, 1}, Pad);
    const RowRange Last =
        stripeInputRows(G, Op, {Out.Shape[1] - 1, Out.Shape[1]}, Pad);
    if (First.empty() || Last.empty())
      return "its output rows do not follow from its input's by its stride";
  }
  return std::nullopt;
}

namespace {

/// A window's geometry over one dimension (1: rows, 2: columns).
struct WindowAxis {
  int32_t Stride = 1, Dilation = 1, Kernel = 1, In = 0, Out = 0;
};

WindowAxis windowAxis(const ir::Graph &G, const ir::Operator &Op, int Dim) {
  const ir::RowMap Map =
      Dim == 1 ? ir::rowMap(Op.code()) : ir::colMap(Op.code());
  WindowAxis A;
  A.Stride = static_cast<int32_t>(Op.getInt(Map.Stride, 1));
  A.Dilation = Map.Dilation.empty()
                   ? 1
                   : static_cast<int32_t>(Op.getInt(Map.Dilation, 1));
  A.Kernel = Map.KernelOperand >= 0
                 ? G.tensor(Op.input(Map.KernelOperand)).Shape[Dim]
                 : static_cast<int32_t>(Op.getInt(Map.Kernel, 1));
  A.In = G.tensor(Op.input(0)).Shape[Dim];
  A.Out = G.tensor(Op.output(0)).Shape[Dim];
  return A;
}

/// The input range a window reads for output range \p Out, clipped to the
/// input, and the padding before it.
RowRange windowInput(const WindowAxis &A, RowRange Out, int32_t &Pad) {
  const int32_t Extent = (A.Kernel - 1) * A.Dilation + 1;
  // TensorFlow Lite's padding: half the total, the smaller half first.
  const int32_t Total = std::max(0, (A.Out - 1) * A.Stride + Extent - A.In) / 2;
  const int32_t Begin = Out.Begin * A.Stride - Total;
  const int32_t End = (Out.End - 1) * A.Stride + Extent - Total;
  RowRange R{std::max(0, Begin), std::min(A.In, End)};
  // The kernel sees the input from R.Begin: Out.Begin's window starts
  // Begin - R.Begin before it.
  Pad = R.Begin - Begin;
  return R;
}

} // namespace

RowRange tileInputCols(const ir::Graph &G, const ir::Operator &Op, RowRange Out,
                       int32_t &PadLeft) {
  return windowInput(windowAxis(G, Op, 2), Out, PadLeft);
}

std::optional<std::string> whyNotTileable(const ir::Graph &G, size_t Index) {
  const ir::Operator &Op = G.Operators[Index];
  if (ir::rowMap(Op.code()).Kind != ir::RowKind::Window ||
      ir::colMap(Op.code()).Kind != ir::RowKind::Window)
    return std::string("it is no window over both rows and columns (Cols in "
                       "defs/ops.td)");
  const ir::RowMap Cols = ir::colMap(Op.code());
  if (Cols.KernelOperand >= 0) {
    const int32_t K = Op.input(static_cast<unsigned>(Cols.KernelOperand));
    if (!G.isValidTensor(K) || G.tensor(K).rank() < 3)
      return std::string("its kernel operand has no width");
  }
  constexpr int64_t Limit = int64_t(1) << 15;
  for (int Dim : {1, 2}) {
    const WindowAxis A = windowAxis(G, Op, Dim);
    if (A.Stride < 1 || A.Stride >= Limit || A.Dilation < 1 ||
        A.Dilation >= Limit || A.Kernel < 1 || A.Kernel >= Limit ||
        int64_t(A.Kernel - 1) * A.Dilation >= Limit || A.In >= Limit ||
        A.Out < 1 || A.Out >= Limit)
      return std::string("its geometry over the columns is outside [1, 2^15)");
    // Tiles next to each other read input ranges that meet or overlap, so
    // that their parts of the input cover it (the traces, the last tiles'
    // rows no window reads).
    if ((A.Kernel - 1) * A.Dilation + 1 < A.Stride)
      return std::string("its window skips input rows or columns (a kernel "
                         "extent below its stride)");
    int32_t Pad = 0;
    if (windowInput(A, {0, 1}, Pad).empty() ||
        windowInput(A, {A.Out - 1, A.Out}, Pad).empty())
      return std::string("its output columns do not follow from its input's "
                         "by its stride");
  }
  return std::nullopt;
}

RowRange stripeInputRows(const ir::Graph &G, const ir::Operator &Op,
                         RowRange Out, int32_t &PadTop) {
  PadTop = 0;
  const ir::RowMap Map = ir::rowMap(Op.code());
  // Identity: the same rows (input 0 may be a constant broadcast along them).
  if (!ir::mapsInputRows(Op.code()))
    return Out;
  const ir::Tensor &In = G.tensor(Op.input(0));
  const int32_t InRows = In.Shape[1];
  if (Map.Kind == ir::RowKind::Shifted) {
    // Output row r is input row r - p; rows outside the input are padding,
    // PadTop of them above the first row read.
    const int32_t Shift = ir::rowShift(G, Op).value_or(0);
    const int32_t Begin = Out.Begin - Shift;
    const int32_t First = std::clamp(Begin, 0, InRows);
    PadTop = std::max(0, First - Begin);
    return {First, std::max(First, std::clamp(Out.End - Shift, 0, InRows))};
  }
  return windowInput(windowAxis(G, Op, 1), Out, PadTop);
}

namespace {

PlanOptions layerOptions(const CascadeOptions &Opts) {
  PlanOptions P;
  P.InputsInPlace = Opts.InputsInPlace;
  P.Overlays = Opts.Overlays;
  P.Scratch = Opts.Scratch;
  return P;
}

/// Without overlays: every tensor with bytes of its own, which a span's
/// working memory sums before taking its overlay off.
PlanOptions baseOptions(const CascadeOptions &Opts) {
  PlanOptions P = layerOptions(Opts);
  P.Overlays = false;
  return P;
}

/// Every operator's layer-at-a-time facts the planner needs.
class Planner {
public:
  Planner(const ir::Graph &G, const CascadeOptions &Opts)
      : G(G), Opts(Opts), Layer(planMemory(G, layerOptions(Opts))),
        Base(planMemory(G, baseOptions(Opts))) {
    const size_t N = G.Operators.size();
    Stripable.resize(N);
    for (size_t K = 0; K < N; ++K)
      Stripable[K] = !whyNotStripable(G, K).has_value() &&
                     !Opts.NotStripable.count(static_cast<int32_t>(K));
    Tileable.resize(N);
    for (size_t K = 0; K < N; ++K)
      Tileable[K] = Opts.Tiles && Stripable[K] && !whyNotTileable(G, K);
    LastRead.assign(G.Tensors.size(), -1);
    Producer.assign(G.Tensors.size(), -1);
    for (size_t K = 0; K < N; ++K) {
      for (int32_t T : G.Operators[K].Inputs)
        if (T >= 0)
          LastRead[T] = std::max<int32_t>(LastRead[T], K);
      for (int32_t T : G.Operators[K].Outputs)
        if (T >= 0)
          Producer[T] = static_cast<int32_t>(K);
    }
    for (int32_t T : G.Outputs)
      if (T >= 0)
        LastRead[T] = std::numeric_limits<int32_t>::max();
  }

  /// The plan, or under a budget too small an error naming the smallest
  /// that works.
  llvm::Expected<CascadePlan> plan();
  /// The smallest budget that works.
  int64_t smallestTotal() { return arena(smallest()); }

private:
  /// The plan: without a budget the least-memory one (of the fewest
  /// cascaded operators); under one, which fits, the one fit() gives.
  CascadePlan run();
  /// The least-memory search's plan, peak and operator at the peak, for
  /// the current Consume (cached).
  struct Least {
    CascadePlan Plan;
    int64_t Peak = 0;
    int32_t PeakOp = 0;
  };
  const Least &least();
  /// The least-memory plan of the fewest cascaded operators.
  CascadePlan leastPlan();
  /// A plan whose whole arena fits \p Budget, for the current Consume,
  /// cascading as little as fits; or nothing.
  std::optional<CascadePlan> fitOnce(int64_t Budget);
  /// fitOnce() with and without outputs over the tensors they consume.
  std::optional<CascadePlan> fitBoth(int64_t Budget);
  /// The plan of the smallest arena the searches find (cached): no budget
  /// one byte below it fits (fitBoth), it fits any budget from it up.
  const CascadePlan &smallest();
  /// fitBoth(), else smallest() where it fits.
  std::optional<CascadePlan> fit(int64_t Budget);
  static int64_t arena(const CascadePlan &P) { return P.Memory.ArenaBytes; }
  static int64_t cascaded(const CascadePlan &P);
  static double switchCycles(const CascadePlan &P);
  /// A span's cost at its best stripe height.
  struct SpanChoice {
    bool Valid = false;
    int64_t Bytes = 0;
    int32_t StripeRows = 0;
    int32_t TileCols = 0; // > 0: tiles
    int64_t Extra = 0;    // MACs computed twice
    double Switch = 0;    // Cascade::SwitchCycles
  };
  /// One dynamic-programming state: the best way to run operators [0, K).
  struct State {
    bool Reached = false;
    int64_t Peak = 0;
    int64_t Cascaded = 0; // operators inside cascades
    int32_t From = 0;     // the last span is [From, K)
    int32_t StripeRows = 0;
    int32_t TileCols = 0;
    int64_t Extra = 0; // MACs computed twice (tiles)
    double Switch = 0; // the cascades' switch cycles
  };

  bool validSpan(int32_t First, int32_t Last) const;
  /// The rows a span ending at \p Last steps through: its output's, or for
  /// an accumulating operator its input 0's.
  int32_t stepRows(int32_t Last) const {
    const ir::Operator &Op = G.Operators[Last];
    return G.tensor(accumulates(Op) ? Op.input(0) : Op.output(0)).Shape[1];
  }
  /// Simulates span [First, Last] with \p Rows output rows per step.
  Cascade simulate(int32_t First, int32_t Last, int32_t Rows) const;
  /// Whether span [First, Last] may run in tiles: a chain of windows, each
  /// operator reading the previous one's output alone.
  bool validTiledSpan(int32_t First, int32_t Last) const;
  /// Simulates span [First, Last] in tiles of \p Rows x \p Cols of the last
  /// operator's output.
  Cascade simulateTiles(int32_t First, int32_t Last, int32_t Rows,
                        int32_t Cols) const;
  /// Whole bytes live over [First, Last] other than the span's windows.
  int64_t wholeBytes(int32_t First, int32_t Last,
                     const std::vector<int32_t> &Windowed) const;
  /// Operator \p Op's bytes layer at a time, its output taking over an
  /// operand's bytes where the layer-at-a-time plan lets it.
  int64_t layerBytes(int32_t Op) const;
  /// The scratch bytes (aligned) live at operators [First, Last] run as one
  /// step: the most one of them needs (in tiles, TileScratch's).
  int64_t scratchBytes(int32_t First, int32_t Last, bool Tiled) const;
  /// The whole tensor whose bytes the output of \p C's last operator may
  /// take over, or -1.
  int32_t overlayOf(const Cascade &C) const;
  int64_t spanBytes(const Cascade &C) const;
  SpanChoice bestSpan(int32_t First, int32_t Last, int64_t Target) const;
  std::vector<Cascade> choose(int64_t Target, bool &Feasible, int64_t &Peak,
                              int32_t &PeakOp) const;
  CascadePlan place(std::vector<Cascade> Cascades) const;

  const ir::Graph &G;
  const CascadeOptions &Opts;
  /// The layer-at-a-time plan, and the same without overlays.
  MemoryPlan Layer, Base;
  std::vector<bool> Stripable, Tileable;
  std::vector<int32_t> LastRead, Producer;
  /// A cascade's output may take over a tensor its stripes consume, not
  /// only an in-place operand of its last operator.
  bool Consume = false;
  /// least(), without and with Consume; smallest().
  std::optional<Least> Leasts[2];
  std::optional<CascadePlan> Smallest;
};

bool Planner::validSpan(int32_t First, int32_t Last) const {
  for (int32_t K = First; K <= Last; ++K)
    if (!Stripable[K] || (K < Last && accumulates(G.Operators[K])))
      return false;
  // An accumulating operator ends a cascade whose stripes make its input.
  if (accumulates(G.Operators[Last])) {
    const int32_t In = Producer[G.Operators[Last].input(0)];
    if (In < First || In >= Last)
      return false;
  }
  for (const auto &[A, B] : Opts.Unsplit)
    if ((First > A && First <= B) || (Last >= A && Last < B))
      return false;
  // Every tensor made before the last operator is read only inside the span.
  for (int32_t K = First; K < Last; ++K) {
    int32_t T = G.Operators[K].output(0);
    if (LastRead[T] < 0 || LastRead[T] > Last)
      return false;
  }
  return true;
}

Cascade Planner::simulate(int32_t First, int32_t Last, int32_t Rows) const {
  Cascade C;
  C.FirstOp = First;
  C.LastOp = Last;
  C.StripeRows = Rows;
  for (int32_t K = First; K < Last; ++K)
    C.Windowed.push_back(G.Operators[K].output(0));
  llvm::sort(C.Windowed);
  const size_t W = C.Windowed.size();
  C.WindowRows.assign(W, 0);
  for (int32_t T : C.Windowed)
    C.RowBytes.push_back(rowBytes(G.tensor(T)));
  std::vector<int32_t> Lo(W, 0), Hi(W, 0);

  // The steps cover the last operator's output rows, or the rows of input 0
  // an accumulating one sums over.
  const int32_t OutRows = stepRows(Last);
  const bool Sums = accumulates(G.Operators[Last]);
  // First the rows each operator writes and reads in each step, and the
  // first row each window's consumers read in each step (INT32_MAX: none).
  std::vector<std::vector<int32_t>> NeedBegin;
  for (int32_t Begin = 0; Begin < OutRows; Begin += Rows) {
    std::vector<StripeStep> Step(C.numOps());
    std::vector<RowRange> Need(W, RowRange{0, 0});
    std::vector<bool> Needed(W, false);
    for (int32_t K = Last; K >= First; --K) {
      StripeStep &S = Step[K - First];
      const ir::Operator &Op = G.Operators[K];
      if (K == Last && Sums) {
        // The next rows of its input, each once; the whole output after
        // the last.
        S.In = {Begin, std::min(OutRows, Begin + Rows)};
        S.Out = {0, S.In.End < OutRows ? 0 : G.tensor(Op.output(0)).Shape[1]};
        const int32_t I = C.windowOf(Op.input(0));
        Need[I] = Needed[I] ? RowRange{std::min(Need[I].Begin, S.In.Begin),
                                       std::max(Need[I].End, S.In.End)}
                            : S.In;
        Needed[I] = true;
        continue;
      }
      if (K == Last) {
        S.Out = {Begin, std::min(OutRows, Begin + Rows)};
      } else {
        int32_t I = C.windowOf(Op.output(0));
        // The last step also computes the rows no consumer reads (a VALID
        // window's last rows), so that every row is computed once, as layer
        // at a time.
        if (Begin + Rows >= OutRows) {
          const int32_t AllRows = G.tensor(Op.output(0)).Shape[1];
          if (!Needed[I])
            Need[I] = {Hi[I], AllRows};
          Need[I].End = AllRows;
          Needed[I] = true;
        }
        // The new rows follow the ones computed before.
        S.Out = {Hi[I], Needed[I] ? std::max(Hi[I], Need[I].End) : Hi[I]};
        Hi[I] = S.Out.End;
      }
      if (S.Out.empty())
        continue;
      S.In = stripeInputRows(G, Op, S.Out, S.PadTop);
      const bool Mapped = ir::mapsInputRows(Op.code());
      for (size_t X = 0; X < Op.Inputs.size(); ++X) {
        int32_t I = Op.Inputs[X] < 0 ? -1 : C.windowOf(Op.Inputs[X]);
        if (I < 0 || (Mapped && X != 0))
          continue;
        RowRange R = Mapped ? S.In : S.Out;
        // A stripe of padding alone reads nothing.
        if (R.empty())
          continue;
        if (!Needed[I])
          Need[I] = R;
        else
          Need[I] = {std::min(Need[I].Begin, R.Begin),
                     std::max(Need[I].End, R.End)};
        Needed[I] = true;
      }
    }
    std::vector<int32_t> Begins(W, std::numeric_limits<int32_t>::max());
    for (size_t I = 0; I < W; ++I)
      if (Needed[I])
        Begins[I] = Need[I].Begin;
    NeedBegin.push_back(std::move(Begins));
    C.Steps.push_back(std::move(Step));
  }
  // Then the windows: when an operator appends rows, its window keeps the
  // rows [Lo, Hi) from the first row any consumer reads in this step or a
  // later one (a consumer may read nothing for a while, as a PAD does over
  // its padding, and then rows below the others').
  for (size_t S = NeedBegin.size(); S-- > 1;)
    for (size_t I = 0; I < W; ++I)
      NeedBegin[S - 1][I] = std::min(NeedBegin[S - 1][I], NeedBegin[S][I]);
  std::fill(Lo.begin(), Lo.end(), 0);
  std::fill(Hi.begin(), Hi.end(), 0);
  for (size_t Si = 0; Si < C.Steps.size(); ++Si)
    for (int32_t K = First; K < Last; ++K) {
      StripeStep &S = C.Steps[Si][K - First];
      const int32_t I = C.windowOf(G.Operators[K].output(0));
      if (!S.Out.empty()) {
        const int32_t NewLo =
            std::max(Lo[I], std::min(NeedBegin[Si][I], Hi[I]));
        if (NewLo != Lo[I])
          C.MovedBytes += int64_t(Hi[I] - NewLo) * C.RowBytes[I];
        Lo[I] = NewLo;
        Hi[I] = S.Out.End;
      }
      S.WindowBegin = Lo[I];
      C.WindowRows[I] = std::max(C.WindowRows[I], Hi[I] - Lo[I]);
    }
  C.Overlaid = overlayOf(C);
  C.SwitchCycles = plan::switchCycles(G, C, Opts);
  return C;
}

bool Planner::validTiledSpan(int32_t First, int32_t Last) const {
  for (int32_t K = First; K <= Last; ++K)
    if (!Tileable[K])
      return false;
  for (int32_t K = First + 1; K <= Last; ++K) {
    // Operator K reads operator K-1's output as its input 0, and nothing
    // else reads it.
    const int32_t T = G.Operators[K - 1].output(0);
    if (G.Operators[K].input(0) != T || LastRead[T] != K)
      return false;
    for (int32_t J = First; J <= Last; ++J)
      for (size_t X = 0; X < G.Operators[J].Inputs.size(); ++X)
        if (G.Operators[J].Inputs[X] == T && (J != K || X != 0))
          return false;
  }
  return true;
}

Cascade Planner::simulateTiles(int32_t First, int32_t Last, int32_t Rows,
                               int32_t Cols) const {
  Cascade C;
  C.FirstOp = First;
  C.LastOp = Last;
  C.StripeRows = Rows;
  C.TileCols = Cols;
  const int32_t M = C.numOps();
  // Rows and columns are independent: per dimension, per operator and band
  // (of rows, or of columns), the range it computes, the part of it it
  // owns (traces), the input range it reads and the padding before it.
  struct Axis {
    std::vector<std::vector<RowRange>> Region, Own, In;
    std::vector<std::vector<int32_t>> Pad;
  };
  auto Solve = [&](int Dim, int32_t Size, Axis &A) {
    const ir::Tensor &Out = G.tensor(G.Operators[Last].output(0));
    const int32_t N = Out.Shape[Dim];
    const int32_t Bands = (N + Size - 1) / Size;
    A.Region.assign(M, std::vector<RowRange>(Bands));
    A.Own = A.In = A.Region;
    A.Pad.assign(M, std::vector<int32_t>(Bands, 0));
    for (int32_t B = 0; B < Bands; ++B)
      A.Region[M - 1][B] =
          A.Own[M - 1][B] = {B * Size, std::min(N, (B + 1) * Size)};
    for (int32_t K = M - 1; K >= 0; --K) {
      const ir::Operator &Op = G.Operators[First + K];
      const WindowAxis W = windowAxis(G, Op, Dim);
      for (int32_t B = 0; B < Bands; ++B)
        A.In[K][B] = windowInput(W, A.Region[K][B], A.Pad[K][B]);
      if (K == 0)
        break;
      // The producer computes what this operator reads; its own part of
      // band B runs to where band B + 1's reads begin (the last band's to
      // its end), so the parts cover it once.
      for (int32_t B = 0; B < Bands; ++B) {
        const RowRange Need = A.In[K][B];
        const int32_t OwnEnd = B + 1 < Bands ? A.In[K][B + 1].Begin : W.In;
        A.Own[K - 1][B] = {Need.Begin, OwnEnd};
        A.Region[K - 1][B] = {Need.Begin, std::max(Need.End, OwnEnd)};
        A.In[K][B] = A.Region[K - 1][B];
      }
    }
  };
  Axis R, Cl;
  Solve(1, Rows, R);
  Solve(2, Cols, Cl);
  const size_t RowBands = R.Region[0].size(), ColBands = Cl.Region[0].size();
  for (size_t B = 0; B < RowBands; ++B)
    for (size_t X = 0; X < ColBands; ++X) {
      std::vector<StripeStep> Step(M);
      for (int32_t K = 0; K < M; ++K) {
        StripeStep &S = Step[K];
        S.Out = R.Region[K][B];
        S.WindowBegin = S.Out.Begin;
        S.In = R.In[K][B];
        S.PadTop = R.Pad[K][B];
        S.OutCols = Cl.Region[K][X];
        S.InCols = Cl.In[K][X];
        S.PadLeft = Cl.Pad[K][X];
        S.OwnRows = R.Own[K][B];
        S.OwnCols = Cl.Own[K][X];
      }
      C.Steps.push_back(std::move(Step));
    }
  auto MaxSize = [](const std::vector<RowRange> &V) {
    int32_t Max = 0;
    for (const RowRange &X : V)
      Max = std::max(Max, X.size());
    return Max;
  };
  // Bytes of one element with its channels.
  auto PixelBytes = [&](int32_t T) {
    const ir::Tensor &Ten = G.tensor(T);
    return Ten.byteSize() / (int64_t(Ten.Shape[1]) * Ten.Shape[2]);
  };
  for (int32_t K = First; K < Last; ++K)
    C.Windowed.push_back(G.Operators[K].output(0));
  llvm::sort(C.Windowed);
  for (int32_t T : C.Windowed) {
    const int32_t K = Producer[T] - First;
    C.WindowRows.push_back(MaxSize(R.Region[K]));
    C.RowBytes.push_back(MaxSize(Cl.Region[K]) * PixelBytes(T));
  }
  const int32_t In = G.Operators[First].input(0);
  const int32_t Out = G.Operators[Last].output(0);
  C.PatchBytes = int64_t(MaxSize(R.In[0])) * MaxSize(Cl.In[0]) * PixelBytes(In);
  C.TileBytes = int64_t(MaxSize(R.Region[M - 1])) * MaxSize(Cl.Region[M - 1]) *
                PixelBytes(Out);
  C.BandBytes = int64_t(Rows) * rowBytes(G.tensor(Out));
  C.Overlaid = overlayOf(C);
  C.SwitchCycles = plan::switchCycles(G, C, Opts);
  return C;
}

int32_t Planner::overlayOf(const Cascade &C) const {
  if (!Opts.CascadeOverlays)
    return -1;
  const ir::Operator &Op = G.Operators[C.LastOp];
  const int32_t Out = Op.output(0);
  const ir::Tensor &OutT = G.tensor(Out);
  // An accumulating operator's output holds its sums while the stripes run.
  if (!Base.find(Out) || OutT.IsVariable || accumulates(Op))
    return -1;
  // The candidates: an operand the last operator may overlay (an in-place
  // operator: it reads each element before writing it), then any whole
  // tensor an earlier member reads (the first cascade's input: its rows are
  // consumed as the stripes move down, and the output fills them).
  std::vector<int32_t> Candidates;
  for (size_t I = 0; I < Op.Inputs.size(); ++I)
    if (overlayable(G, Op, I))
      Candidates.push_back(Op.Inputs[I]);
  for (int32_t K = C.FirstOp; Consume && K < C.LastOp; ++K)
    for (int32_t In : G.Operators[K].Inputs)
      if (In >= 0 && !llvm::is_contained(Candidates, In) &&
          !G.tensor(In).IsConstant && !G.tensor(In).IsVariable)
        Candidates.push_back(In);
  for (int32_t In : Candidates) {
    if (C.windowOf(In) >= 0)
      continue;
    const Buffer *B = Base.find(In);
    if (!B)
      continue;
    // The bytes In lives in, views of it included: nothing after the
    // cascade reads them, no graph output holds them, and Out fits in them.
    const int32_t Root = B->AliasOf < 0 ? In : B->AliasOf;
    const Buffer *R = Base.find(Root);
    bool Pinned = false;
    for (int32_t T : G.Outputs) {
      const Buffer *TB = T >= 0 ? Base.find(T) : nullptr;
      Pinned |= TB && (T == Root || TB->AliasOf == Root);
    }
    if (!R || Pinned || R->LastOp > C.LastOp || R->Size < OutT.byteSize())
      continue;
    // No stripe reads bytes that an earlier stripe of Out has overwritten:
    // Out's rows are written in order, the bytes [0, Written) of the
    // storage, after the other members of the step have read theirs. The
    // last operator reads such bytes only as an in-place operator reads
    // its operand: the same rows it writes.
    int64_t Written = 0;
    bool Safe = true;
    for (const std::vector<StripeStep> &Step : C.Steps) {
      for (int32_t K = C.FirstOp; K <= C.LastOp && Safe; ++K) {
        const StripeStep &S = Step[K - C.FirstOp];
        const ir::Operator &Reader = G.Operators[K];
        if (S.Out.empty())
          continue;
        const bool Window = ir::mapsInputRows(Reader.code());
        for (size_t X = 0; X < Reader.Inputs.size(); ++X) {
          const int32_t T = Reader.Inputs[X];
          const Buffer *TB = T >= 0 ? Base.find(T) : nullptr;
          if (!TB || (T != Root && TB->AliasOf != Root))
            continue;
          const ir::Tensor &TT = G.tensor(T);
          const bool InPlace = K == C.LastOp && overlayable(G, Reader, X) &&
                               TT.Shape == OutT.Shape;
          // Rows of T are bytes of the storage only for a batch-1 image
          // whose rows are the ones the stripe names.
          if ((K == C.LastOp && !InPlace) || TT.Shape.size() != 4 ||
              TT.Shape[0] != 1 ||
              (!(Window && X == 0) &&
               TT.Shape[1] != G.tensor(Reader.output(0)).Shape[1]))
            Safe = false;
          const RowRange Read = Window && X == 0 ? S.In : S.Out;
          if (!Read.empty() && Read.Begin * rowBytes(TT) < Written)
            Safe = false;
        }
      }
      // A tiled cascade copies a band of rows into the output after the
      // band's last tile.
      const StripeStep &Last = Step[C.LastOp - C.FirstOp];
      const size_t S = &Step - C.Steps.data();
      if (!Last.Out.empty() && C.endsBand(S))
        Written = Last.Out.End * rowBytes(OutT);
    }
    if (Safe)
      return In;
  }
  return -1;
}

int64_t Planner::wholeBytes(int32_t First, int32_t Last,
                            const std::vector<int32_t> &Windowed) const {
  int64_t Sum = 0;
  for (const Buffer &B : Base.Buffers)
    if (B.AliasOf < 0 && B.FirstOp <= Last && First <= B.LastOp &&
        !llvm::is_contained(Windowed, B.Tensor))
      Sum += alignUp(B.Size, Base.Alignment);
  return Sum;
}

int64_t Planner::scratchBytes(int32_t First, int32_t Last, bool Tiled) const {
  const std::map<int32_t, int64_t> &Need =
      Tiled ? Opts.TileScratch : Opts.Scratch;
  int64_t Most = 0;
  for (int32_t K = First; K <= Last; ++K) {
    auto It = Need.find(K);
    if (It != Need.end())
      Most = std::max(Most, alignUp(It->second, Layer.Alignment));
  }
  return Most;
}

int64_t Planner::layerBytes(int32_t Op) const {
  int64_t Sum = wholeBytes(Op, Op, {}) + scratchBytes(Op, Op, false);
  const Buffer *Out = Layer.find(G.Operators[Op].output(0));
  if (Out && Out->AliasOf >= 0 &&
      !llvm::is_contained(layerOptions(Opts).AliasOps, G.Operators[Op].code()))
    Sum -= alignUp(Out->Size, Layer.Alignment);
  return Sum;
}

int64_t Planner::spanBytes(const Cascade &C) const {
  int64_t Sum = wholeBytes(C.FirstOp, C.LastOp, C.Windowed) +
                scratchBytes(C.FirstOp, C.LastOp, C.tiled());
  if (C.Overlaid >= 0)
    Sum -= alignUp(G.tensor(G.Operators[C.LastOp].output(0)).byteSize(),
                   Layer.Alignment);
  for (size_t I = 0; I < C.Windowed.size(); ++I)
    Sum += alignUp(C.heldBytes(I, Layer.Alignment), Layer.Alignment);
  const ir::Operator &Last = G.Operators[C.LastOp];
  if (accumulates(Last))
    Sum += std::max<int64_t>(
        0, alignUp(accumulatorBytes(G, Last), Layer.Alignment) -
               alignUp(G.tensor(Last.output(0)).byteSize(), Layer.Alignment));
  return Sum;
}

Planner::SpanChoice Planner::bestSpan(int32_t First, int32_t Last,
                                      int64_t Target) const {
  SpanChoice Best;
  if (!validSpan(First, Last))
    return Best;
  const int32_t OutRows = stepRows(Last);
  for (int32_t Rows = 1; Rows < OutRows; Rows *= 2) {
    const Cascade C = simulate(First, Last, Rows);
    const int64_t Bytes = spanBytes(C);
    bool Better;
    if (Target < 0) // the least memory, then the fewest switch cycles
      Better = !Best.Valid || Bytes < Best.Bytes ||
               (Bytes == Best.Bytes && C.SwitchCycles < Best.Switch);
    else // the tallest stripes that fit, else the least memory
      Better = !Best.Valid || (Bytes <= Target) ||
               (Best.Bytes > Target && Bytes < Best.Bytes);
    if (Better)
      Best = {true, Bytes, Rows, 0, 0, C.SwitchCycles};
  }
  // Under a budget that no stripes fit: tiles, those of the fewest MACs
  // computed twice among the ones that fit, else of the least memory (the
  // least-memory search under a budget compares them by memory alone).
  if (!Opts.Tiles || Opts.Budget < 0 ||
      (Target >= 0 && Best.Valid && Best.Bytes <= Target) ||
      !validTiledSpan(First, Last))
    return Best;
  const ir::Tensor &Out = G.tensor(G.Operators[Last].output(0));
  // No tiles fit (or, without a target, beat the stripes) where the whole
  // tensors alone, less an output over one of them, exceed the target.
  {
    std::vector<int32_t> Windowed;
    for (int32_t K = First; K < Last; ++K)
      Windowed.push_back(G.Operators[K].output(0));
    const int64_t Floor = wholeBytes(First, Last, Windowed) -
                          alignUp(Out.byteSize(), Layer.Alignment);
    if ((Target >= 0 && Floor > Target) ||
        (Target < 0 && Best.Valid && Floor >= Best.Bytes))
      return Best;
  }
  int64_t BestExtra = -1;
  for (int32_t Rows = 1; Rows <= Out.Shape[1]; Rows *= 2)
    for (int32_t Cols = 1; Cols < Out.Shape[2]; Cols *= 2) {
      const Cascade C = simulateTiles(First, Last, Rows, Cols);
      const int64_t Bytes = spanBytes(C);
      const bool Fits = Target >= 0 && Bytes <= Target;
      const int64_t Extra = Fits ? extraMacs(G, C) : 0;
      bool Better;
      if (!Best.Valid)
        Better = true;
      else if (Target < 0)
        Better = Bytes < Best.Bytes;
      else if (Fits)
        Better = Best.Bytes > Target || BestExtra < 0 || Extra < BestExtra;
      else
        Better = Best.Bytes > Target && Bytes < Best.Bytes;
      if (Better) {
        Best = {true, Bytes, Rows, Cols, extraMacs(G, C), C.SwitchCycles};
        BestExtra = Fits ? Extra : -1;
      }
    }
  return Best;
}

std::vector<Cascade> Planner::choose(int64_t Target, bool &Feasible,
                                     int64_t &Peak, int32_t &PeakOp) const {
  const int32_t N = static_cast<int32_t>(G.Operators.size());
  std::vector<State> Best(N + 1);
  Best[0].Reached = true;
  // Lexicographic goals: under a target, fit it, then compute the fewest
  // MACs twice (tiles), then switch the device the fewest cycles, then
  // cascade the fewest operators, then the least peak; without one, the
  // least peak first.
  auto Key = [&](const State &S) {
    bool Over = Target >= 0 && S.Peak > Target;
    const int64_t PeakFirst = Target >= 0 ? 0 : S.Peak;
    const int64_t PeakLast = Target >= 0 ? S.Peak : 0;
    return std::make_tuple(Over, PeakFirst, S.Extra, S.Switch, S.Cascaded,
                           PeakLast);
  };
  for (int32_t K = 0; K < N; ++K) {
    if (!Best[K].Reached)
      continue;
    for (int32_t Last = K; Last < N && Last < K + MaxCascadeOps; ++Last) {
      SpanChoice Span;
      if (Last == K)
        Span = {true, layerBytes(K), 0};
      else if (!Opts.Enabled)
        break;
      else
        Span = bestSpan(K, Last, Target);
      if (!Span.Valid) {
        // A span stays invalid once an operator cannot stripe.
        if (!Stripable[Last])
          break;
        continue;
      }
      State S;
      S.Reached = true;
      S.Peak = std::max(Best[K].Peak, Span.Bytes);
      S.Cascaded = Best[K].Cascaded + (Last > K ? Last - K + 1 : 0);
      S.From = K;
      S.StripeRows = Span.StripeRows;
      S.TileCols = Span.TileCols;
      S.Extra = Best[K].Extra + Span.Extra;
      S.Switch = Best[K].Switch + Span.Switch;
      if (!Best[Last + 1].Reached || Key(S) < Key(Best[Last + 1]))
        Best[Last + 1] = S;
      // Nothing cascades past an accumulating operator.
      if (accumulates(G.Operators[Last]))
        break;
    }
  }
  std::vector<Cascade> Chosen;
  Peak = Best[N].Peak;
  Feasible = Target < 0 || Peak <= Target;
  PeakOp = 0;
  int64_t PeakSpan = -1;
  for (int32_t K = N; K > 0; K = Best[K].From) {
    const State &S = Best[K];
    int32_t First = S.From, Last = K - 1;
    int64_t Bytes;
    if (Last > First) {
      Chosen.push_back(
          S.TileCols > 0 ? simulateTiles(First, Last, S.StripeRows, S.TileCols)
                         : simulate(First, Last, S.StripeRows));
      Bytes = spanBytes(Chosen.back());
    } else {
      Bytes = layerBytes(First);
    }
    if (Bytes >= PeakSpan) {
      PeakSpan = Bytes;
      PeakOp = First;
    }
  }
  std::reverse(Chosen.begin(), Chosen.end());
  return Chosen;
}

CascadePlan Planner::place(std::vector<Cascade> Cascades) const {
  CascadePlan P;
  P.Cascades = std::move(Cascades);
  P.Options = layerOptions(Opts);
  for (const Cascade &C : P.Cascades) {
    P.Options.Groups.push_back({C.FirstOp, C.LastOp});
    for (int32_t K = C.FirstOp; C.tiled() && K <= C.LastOp; ++K) {
      auto Tile = Opts.TileScratch.find(K);
      if (Tile != Opts.TileScratch.end())
        P.Options.Scratch[K] = Tile->second;
      else
        P.Options.Scratch.erase(K);
    }
    for (size_t I = 0; I < C.Windowed.size(); ++I)
      P.Options.HeldBytes[C.Windowed[I]] = C.heldBytes(I, P.Options.Alignment);
    if (C.Overlaid >= 0)
      P.Options.GroupOverlays[G.Operators[C.LastOp].output(0)] = C.Overlaid;
    // An accumulating operator's sums, in its output's bytes.
    const ir::Operator &Last = G.Operators[C.LastOp];
    if (accumulates(Last) &&
        accumulatorBytes(G, Last) > G.tensor(Last.output(0)).byteSize())
      P.Options.HeldBytes[Last.output(0)] = accumulatorBytes(G, Last);
  }
  P.Memory = planMemory(G, P.Options);
  P.LayerMemory = Layer;
  P.LiveBefore = Layer.LiveBytes;
  P.LiveAfter = P.Memory.LiveBytes;
  return P;
}

CascadePlan Planner::run() {
  if (!Opts.Enabled)
    return place({});
  if (Opts.Budget >= 0) {
    std::optional<CascadePlan> P = fit(Opts.Budget);
    assert(P && "run() without a plan that fits");
    return std::move(*P);
  }
  // An output over the tensor its stripes consume saves its bytes inside
  // the cascade, but the bytes it takes stay live as long as it does, all
  // of them: the spans' sums see the saving and not that, so the search
  // runs with and without such outputs and the placed arenas decide.
  Consume = false;
  CascadePlan Without = leastPlan();
  if (!Opts.CascadeOverlays)
    return Without;
  Consume = true;
  CascadePlan With = leastPlan();
  auto Key = [](const CascadePlan &P) {
    return std::make_tuple(P.Memory.ArenaBytes, switchCycles(P), cascaded(P));
  };
  return Key(With) < Key(Without) ? std::move(With) : std::move(Without);
}

int64_t Planner::cascaded(const CascadePlan &P) {
  int64_t N = 0;
  for (const Cascade &C : P.Cascades)
    N += C.numOps();
  return N;
}

double Planner::switchCycles(const CascadePlan &P) {
  double Sum = 0;
  for (const Cascade &C : P.Cascades)
    Sum += C.SwitchCycles;
  return Sum;
}

const Planner::Least &Planner::least() {
  std::optional<Least> &L = Leasts[Consume];
  if (!L) {
    // The least memory any schedule the planner knows reaches.
    bool Feasible = true;
    int64_t Peak = 0;
    int32_t PeakOp = 0;
    CascadePlan Plan = place(choose(-1, Feasible, Peak, PeakOp));
    L = Least{std::move(Plan), Peak, PeakOp};
  }
  return *L;
}

CascadePlan Planner::leastPlan() {
  const Least &L = least();
  // The same peak cascading as few operators as reach it: the search for
  // the least peak compares peaks so far, and keeps cascades that lower a
  // peak a later operator raises again.
  bool Fits = true;
  int64_t FewestPeak = 0;
  int32_t FewestPeakOp = 0;
  std::vector<Cascade> Fewest = choose(L.Peak, Fits, FewestPeak, FewestPeakOp);
  if (Fits) {
    CascadePlan FewestPlan = place(std::move(Fewest));
    if (FewestPlan.Memory.ArenaBytes <= L.Plan.Memory.ArenaBytes)
      return FewestPlan;
  }
  return L.Plan;
}

std::optional<CascadePlan> Planner::fitOnce(int64_t Budget) {
  // Cascade as little as fits; tighten the target while fragmentation
  // pushes the placed arena over the budget.
  int64_t Target = Budget;
  for (int Try = 0; Try < 8 && Target > 0; ++Try) {
    bool Feasible = true;
    int64_t Peak = 0;
    int32_t PeakOp = 0;
    std::vector<Cascade> Chosen = choose(Target, Feasible, Peak, PeakOp);
    if (!Feasible)
      break;
    CascadePlan P = place(std::move(Chosen));
    if (arena(P) <= Budget)
      return P;
    Target -= arena(P) - Budget;
  }
  return std::nullopt;
}

std::optional<CascadePlan> Planner::fitBoth(int64_t Budget) {
  Consume = false;
  std::optional<CascadePlan> Without = fitOnce(Budget);
  if (!Opts.CascadeOverlays)
    return Without;
  Consume = true;
  std::optional<CascadePlan> With = fitOnce(Budget);
  if (!With || !Without)
    return With ? std::move(With) : std::move(Without);
  // Both fit: the fewer MACs computed twice, the fewer switch cycles, the
  // fewer cascaded operators, then the smaller arena.
  auto Key = [&](const CascadePlan &P) {
    int64_t Twice = 0;
    for (const Cascade &C : P.Cascades)
      Twice += extraMacs(G, C);
    return std::make_tuple(Twice, switchCycles(P), cascaded(P),
                           P.Memory.ArenaBytes);
  };
  return Key(*With) < Key(*Without) ? std::move(With) : std::move(Without);
}

const CascadePlan &Planner::smallest() {
  if (Smallest)
    return *Smallest;
  // The least-memory searches' plans, then plans under budgets one byte
  // below the best so far while one fits: a plan of more operators may
  // place with less fragmentation than the least-memory one.
  Consume = false;
  Smallest = least().Plan;
  if (Opts.CascadeOverlays) {
    Consume = true;
    if (arena(least().Plan) < arena(*Smallest))
      Smallest = least().Plan;
  }
  while (std::optional<CascadePlan> P = fitBoth(arena(*Smallest) - 1))
    Smallest = std::move(P);
  return *Smallest;
}

std::optional<CascadePlan> Planner::fit(int64_t Budget) {
  if (std::optional<CascadePlan> P = fitBoth(Budget))
    return P;
  if (arena(smallest()) <= Budget)
    return smallest();
  return std::nullopt;
}

llvm::Expected<CascadePlan> Planner::plan() {
  if (!Opts.Enabled || Opts.Budget < 0 || fit(Opts.Budget))
    return run();
  // Where the least-memory schedule (of the smaller arena) peaks.
  const int64_t Smallest = arena(smallest());
  Consume = false;
  const Least *L = &least();
  if (Opts.CascadeOverlays) {
    Consume = true;
    if (arena(least().Plan) < arena(L->Plan))
      L = &least();
  }
  const int32_t PeakOp = L->PeakOp;
  const ir::Operator &Op = G.Operators[PeakOp];
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      // One figure, the placed arena's: the planner's own peak counts
      // buffers apart that the placement may overlay, so it can exceed what
      // works.
      llvm::formatv("a memory budget of {0} bytes is too small: the "
                    "smallest budget that works is {1} bytes (the working "
                    "memory peaks at operator {2}, {3})",
                    Opts.Budget, Smallest, PeakOp, Op.Type)
          .str());
}

} // namespace

llvm::Expected<CascadePlan> planCascades(const ir::Graph &G,
                                         const CascadeOptions &Opts) {
  llvm::Expected<CascadePlan> P = Planner(G, Opts).plan();
  if (P)
    P->Given = Opts;
  return P;
}

double switchCycles(const ir::Graph &G, const Cascade &C,
                    const CascadeOptions &Opts) {
  if (Opts.SwitchCycles <= 0)
    return 0;
  auto SubgraphOf = [&](int32_t K) {
    return K < static_cast<int32_t>(Opts.Subgraph.size()) ? Opts.Subgraph[K]
                                                          : -1;
  };
  const int32_t N = static_cast<int32_t>(G.Operators.size());
  double Sum = 0;
  for (int32_t First = C.FirstOp; First <= C.LastOp;) {
    const int32_t Sub = SubgraphOf(First);
    int32_t End = First + 1;
    while (End <= C.LastOp && Sub >= 0 && SubgraphOf(End) == Sub)
      ++End;
    if (Sub >= 0) {
      // The run's boundary: what it reads and none of its operators writes
      // (constants aside), and what it writes for a later operator or as a
      // graph output.
      std::set<int32_t> Written, Inputs, Outputs;
      for (int32_t K = First; K < End; ++K)
        for (int32_t T : G.Operators[K].Outputs)
          if (T >= 0)
            Written.insert(T);
      for (int32_t K = First; K < End; ++K)
        for (int32_t T : G.Operators[K].Inputs)
          if (T >= 0 && !G.tensor(T).IsConstant && !Written.count(T))
            Inputs.insert(T);
      for (int32_t T : G.Outputs)
        if (Written.count(T))
          Outputs.insert(T);
      for (int32_t K = End; K < N; ++K)
        for (int32_t T : G.Operators[K].Inputs)
          if (T >= 0 && Written.count(T))
            Outputs.insert(T);
      size_t Runs = 0;
      for (const std::vector<StripeStep> &Step : C.Steps)
        Runs += !Step[First - C.FirstOp].Out.empty();
      Sum += Opts.SwitchCycles * static_cast<double>(Runs) *
             static_cast<double>(Inputs.size() + Outputs.size());
    }
    First = End;
  }
  return Sum;
}

int64_t extraMacs(const ir::Graph &G, const Cascade &C) {
  int64_t Extra = 0;
  for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
    const ir::Operator &Op = G.Operators[K];
    const ir::Tensor &Out = G.tensor(Op.output(0));
    // Rows, or in tiles pixels, computed against the output's.
    const int64_t Whole =
        int64_t(Out.Shape[1]) * (C.tiled() ? Out.Shape[2] : 1);
    int64_t Computed = 0;
    for (const std::vector<StripeStep> &Step : C.Steps) {
      const StripeStep &S = Step[K - C.FirstOp];
      Computed += int64_t(S.Out.size()) * (C.tiled() ? S.OutCols.size() : 1);
    }
    Extra += analysis::operatorMacs(G, Op) * (Computed - Whole) / Whole;
  }
  return Extra;
}

int64_t smallestBudget(const ir::Graph &G, const CascadeOptions &Opts) {
  CascadeOptions O = Opts;
  O.Enabled = true;
  O.Budget = 0;
  return Planner(G, O).smallestTotal();
}

} // namespace plan
} // namespace accelgen
