//===- Cascade.h - Striped execution of operator chains ---------*- C++ -*-===//
//
// A cascade runs consecutive operators together, a stripe of rows at a time,
// so that the tensors between them are never whole in memory: each such
// tensor is held as a window of rows (a rolling line buffer) that slides down
// the tensor as the stripes advance. The rows an operator reads for a stripe
// of the rows it writes follow from its stripe transform, declared with the
// operator in defs/ops.td (ir::rowMap).
//
// Line buffers rather than recomputed overlaps: a window keeps the rows a
// later stripe needs again, so every row of every tensor is computed exactly
// once (no extra MACs) for the same window sizes recomputation would need;
// the price is a memmove of the kept rows per stripe.
//
// planCascades chooses which operators to cascade and the stripe height of
// each cascade: with no budget the schedule of least working memory (of
// those, the one cascading the fewest operators), with a
// budget the schedule that cascades the fewest operators (with the tallest
// stripes) whose arena fits. verifyCascades checks a plan by replaying its
// stripes, sharing no code with the planner. docs/cascading.md has the rules.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PLAN_CASCADE_H
#define ACCELGEN_PLAN_CASCADE_H

#include "ir/Graph.h"
#include "plan/MemoryPlan.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace plan {

/// Rows [Begin, End) of an NHWC tensor (dimension 1).
struct RowRange {
  int32_t Begin = 0;
  int32_t End = 0;
  bool empty() const { return Begin >= End; }
  int32_t size() const { return empty() ? 0 : End - Begin; }
};

/// What one operator of a cascade does in one stripe step.
struct StripeStep {
  /// The rows of its output it computes (empty: it does not run, unless it
  /// accumulates and In is not empty).
  RowRange Out;
  /// The first row its output's window holds after the step (0 for the
  /// cascade's output, which is whole).
  int32_t WindowBegin = 0;
  /// The rows of input 0 it reads, and the padding rows before them that the
  /// kernel must assume (a window's SAME padding at the top edge; PAD's rows
  /// of padding above the first row it copies).
  RowRange In;
  int32_t PadTop = 0;
  /// In a tiled cascade (Cascade::tiled()): the columns of Out, the columns
  /// of input 0 it reads and the padding columns left of them; and the part
  /// of its output this step traces (OwnRows x OwnCols: the steps' parts
  /// cover each tensor once, each inside its step's Out x OutCols; the last
  /// operator's part is its tile).
  RowRange OutCols, InCols;
  int32_t PadLeft = 0;
  RowRange OwnRows, OwnCols;
};

/// Consecutive operators run stripe by stripe.
struct Cascade {
  /// Operators [FirstOp, LastOp]; LastOp's output is whole in the arena.
  int32_t FirstOp = 0;
  int32_t LastOp = 0;
  /// Rows of LastOp's output per step (of its input 0 for an accumulating
  /// LastOp, ir::RowKind::Accumulate, which writes its whole output in the
  /// last step).
  int32_t StripeRows = 1;
  /// Columns of LastOp's output per step, or 0: a cascade of stripes of
  /// whole rows. With columns, a *tiled* cascade: step S computes one tile
  /// (StripeRows x TileCols of the output, the tiles of a band of rows from
  /// left to right, the bands from the top), every operator recomputing the
  /// region of its output the next one reads from the cascade's input
  /// (operators in a chain, windows over rows and columns), so each window
  /// holds one tile's region from its first byte, with no line buffers
  /// and some MACs computed twice (docs/cascading.md, "Tiles").
  int32_t TileCols = 0;
  /// The tensors held as windows (the outputs of FirstOp .. LastOp-1),
  /// ascending, with the rows each window holds and the bytes of one row
  /// (a tiled cascade's: of its widest region's row).
  std::vector<int32_t> Windowed;
  std::vector<int32_t> WindowRows;
  std::vector<int64_t> RowBytes;
  /// Steps[S][K]: operator FirstOp + K in step S.
  std::vector<std::vector<StripeStep>> Steps;
  /// Bytes the windows move per invocation to keep their rows.
  int64_t MovedBytes = 0;
  /// The whole tensor whose bytes LastOp's output takes over
  /// (PlanOptions::GroupOverlays), or -1: an operand of an in-place LastOp,
  /// or a tensor the cascade's stripes consume (its input), no smaller than
  /// the output; one whose bytes nothing reads after the cascade, and whose
  /// bytes no later stripe reads once LastOp has written over them.
  int32_t Overlaid = -1;
  /// A tiled cascade's staging buffers, at aligned offsets after its first
  /// window's bytes (which PlanOptions::HeldBytes counts them in): the region
  /// of its input FirstOp reads, LastOp's tile, and a band of StripeRows
  /// whole rows of LastOp's output, copied into the output after the band's
  /// last tile.
  int64_t PatchBytes = 0, TileBytes = 0, BandBytes = 0;
  /// The device switches its stripes cost (CascadeOptions::SwitchCycles):
  /// each run of one accelerator subgraph's operators inside it switches
  /// at the run's inputs and outputs in every step its first operator
  /// computes rows; 0 on the CPU.
  double SwitchCycles = 0;

  int32_t numOps() const { return LastOp - FirstOp + 1; }
  bool tiled() const { return TileCols > 0; }
  /// Whether step \p S ends a band of a tiled cascade (its last tile).
  bool endsBand(size_t S) const;
  /// The bytes of window \p I, with a tiled cascade's staging buffers
  /// after the first.
  int64_t heldBytes(size_t I, int64_t Alignment) const;
  /// Where a tiled cascade's staging buffer \p Which (0: patch, 1: tile,
  /// 2: band) starts, in bytes from its first window's.
  int64_t stagingOffset(unsigned Which, int64_t Alignment) const;
  /// The window index of tensor \p T, or -1 if it is whole.
  int32_t windowOf(int32_t T) const;
};

/// How to plan.
struct CascadeOptions {
  /// Cascade at all; without it the plan is the layer-at-a-time one.
  bool Enabled = false;
  /// The working-memory budget in bytes, or -1 for the least memory.
  int64_t Budget = -1;
  /// Bytes of scratch memory each operator's kernel uses while it runs
  /// (PlanOptions::Scratch: a library's working buffers, target cmsis-nn),
  /// which the arena holds at its operator (its cascade's operators).
  std::map<int32_t, int64_t> Scratch;
  /// The same for an operator in a tiled cascade, where another kernel may
  /// run it (target cmsis-nn: CMSIS-NN's wrappers, which take any tile);
  /// none where not given (the reference kernels).
  std::map<int32_t, int64_t> TileScratch;
  /// Graph inputs stay in the caller's buffers (PlanOptions::InputsInPlace),
  /// for both plans.
  bool InputsInPlace = false;
  /// Outputs may take their operands' bytes layer at a time
  /// (PlanOptions::Overlays); off for accelerator programs.
  bool Overlays = true;
  /// A cascade's last operator may take over a whole operand's bytes
  /// (Cascade::Overlaid).
  bool CascadeOverlays = true;
  /// Operator spans [first, last] a cascade takes whole or not at all (an
  /// accelerator's fused layers).
  std::vector<std::pair<int32_t, int32_t>> Unsplit;
  /// Operators that may not run stripe by stripe here, each with why (an
  /// accelerator kernel its functional model cannot stripe).
  std::map<int32_t, std::string> NotStripable;
  /// Under a budget that no cascade of stripes fits, cascades may run in
  /// tiles (Cascade::TileCols), recomputing overlaps: where the kernels take
  /// any rectangle of an image through shapes and padding (the reference
  /// kernels: targets ref and cpu, emit::hostCascading; and cmsis-nn,
  /// cmsis::cascadeOptions, whose CMSIS-NN wrappers do too).
  bool Tiles = false;
  /// The accelerator subgraph each operator runs in (-1, or past the end:
  /// the CPU), and the cycles of moving one tensor between the device and
  /// the CPU (target::TargetInfo::switchCycles). Inside a cascade a run of
  /// one subgraph's operators switches the device at its inputs and outputs
  /// with every stripe (Cascade::SwitchCycles): of the plans that fit (or
  /// reach the least memory), the planner takes those of the fewest switch
  /// cycles, so stripes as tall and cascades as few as the memory allows.
  std::vector<int32_t> Subgraph;
  double SwitchCycles = 0;
};

/// A memory plan with cascades.
struct CascadePlan {
  std::vector<Cascade> Cascades;
  /// The options the arena was planned with (the cascades' spans as groups,
  /// their windows' bytes), which verifyPlan needs.
  PlanOptions Options;
  MemoryPlan Memory;
  /// The layer-at-a-time plan, for comparison.
  MemoryPlan LayerMemory;
  /// Bytes live at each operator, layer at a time and with the cascades
  /// (MemoryPlan::LiveBytes of LayerMemory and Memory).
  std::vector<int64_t> LiveBefore, LiveAfter;
  /// The options it was chosen under (planCascades' argument).
  CascadeOptions Given;

  /// The cascade operator \p Op belongs to, or null.
  const Cascade *cascadeOf(int32_t Op) const;
};

/// The bytes of the int32 sums accumulating operator \p Op (ir::RowKind::
/// Accumulate) keeps in its output's bytes while a cascade's stripes run: the
/// arena holds its output in at least these.
int64_t accumulatorBytes(const ir::Graph &G, const ir::Operator &Op);

/// Why operator \p Op of \p G cannot run stripe by stripe, or nothing if it
/// can.
std::optional<std::string> whyNotStripable(const ir::Graph &G, size_t Op);

/// The rows of input 0 operator \p Op reads to write rows \p Out of its
/// output, clipped to the input, and the padding rows the kernel assumes
/// before them. Identity operators read the same rows of every data input.
RowRange stripeInputRows(const ir::Graph &G, const ir::Operator &Op,
                         RowRange Out, int32_t &PadTop);
/// The same over the columns (ir::colMap) for an operator that may run in
/// tiles.
RowRange tileInputCols(const ir::Graph &G, const ir::Operator &Op, RowRange Out,
                       int32_t &PadLeft);
/// Why operator \p Op of \p G cannot run in a tiled cascade, beyond
/// whyNotStripable, or nothing if it can.
std::optional<std::string> whyNotTileable(const ir::Graph &G, size_t Op);

/// Plans \p G with cascades. Fails when no schedule fits the budget, naming
/// the operator that cannot fit and the smallest budget that works.
llvm::Expected<CascadePlan> planCascades(const ir::Graph &G,
                                         const CascadeOptions &Opts);

/// The MACs cascade \p C computes beyond layer at a time: each operator's
/// MACs per output row (in tiles, per pixel) times the rows (pixels) it
/// computes more than once (0 with line buffers; from the steps).
int64_t extraMacs(const ir::Graph &G, const Cascade &C);

/// The device switches \p C's stripes cost under \p Opts
/// (Cascade::SwitchCycles, which the planner sets so).
double switchCycles(const ir::Graph &G, const Cascade &C,
                    const CascadeOptions &Opts);

/// The smallest budget planCascades meets for \p G under \p Opts (whose
/// Budget it ignores): the figure its error for a smaller one names.
int64_t smallestBudget(const ir::Graph &G, const CascadeOptions &Opts);

/// Checks \p Plan against \p G by replaying every cascade's steps: every row
/// each operator reads is in its input's window (or whole input) when it
/// runs, and not yet overwritten by an output that takes over the input's
/// bytes, every row of every output is computed exactly once, windows never
/// hold more rows than planned, the arena options match the cascades, and
/// the arena passes verifyPlan. Returns one message per problem.
std::vector<std::string> verifyCascades(const ir::Graph &G,
                                        const CascadePlan &Plan);

} // namespace plan
} // namespace accelgen

#endif // ACCELGEN_PLAN_CASCADE_H
