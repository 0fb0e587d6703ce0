//===- MemoryPlan.h - Static working-memory plan of a graph
//----------------===//
//
// Places every non-constant tensor of a graph in one statically sized arena,
// so that emitted code needs no allocator. Each tensor is live from the
// operator that writes it to the last operator that reads it; tensors whose
// lifetimes overlap get disjoint byte ranges, the others may share memory.
// The outputs of view operators (RESHAPE, SQUEEZE, EXPAND_DIMS by default)
// share their input's bytes instead of being copied, and the output of an
// in-place operator (ir::mayOverlay: element-wise operators, activations,
// (re)quantization) takes the bytes of an operand whose last use it is.
//
// Conventions, which the emitted code follows:
//
//  - Lifetimes are closed intervals of operator indices, [FirstOp, LastOp];
//    an operator's inputs and outputs are live together, so no operator
//    writes over what it reads, with one exception: an in-place operator's
//    output may take the bytes of an operand it reads for the last time
//    (PlanOptions::Overlays), which its kernels read element by element
//    before writing the same element.
//  - Graph inputs are in the arena, live from operator 0: the caller's data is
//    copied in before the first operator runs.
//  - Graph outputs are in the arena, live to the last operator: they are read
//    (or copied out) after the invocation, and nothing overwrites them.
//  - Variable tensors (state an operator updates in place, e.g. LSTM state)
//    are live over the whole graph, so no other tensor ever shares their
//    bytes and they keep their value from one invocation to the next.
//  - Constant tensors are not in the arena (they stay in read-only memory).
//    Other tensors that no operator, graph input or graph output refers to
//    get no buffer.
//  - A graph without operators counts as one step, operator 0.
//  - An operator's scratch memory (PlanOptions::Scratch: a library's working
//    buffer, used only while the call runs) is a buffer live at that
//    operator alone, or at its group's operators; the operators of one group
//    share one scratch buffer, the largest they need, as they run one after
//    another.
//
// Placement is greedy, as in TensorFlow Lite Micro's GreedyMemoryPlanner:
// buffers in some order, each at the lowest aligned offset that does not
// overlap an already placed buffer with an overlapping lifetime. Several
// orders are tried and the smallest arena is kept; the result is
// deterministic.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PLAN_MEMORYPLAN_H
#define ACCELGEN_PLAN_MEMORYPLAN_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace plan {

/// Where one tensor lives in the arena, and when.
struct Buffer {
  /// The tensor's index in the graph.
  int32_t Tensor = -1;
  /// The byte offset in the arena; a multiple of the plan's alignment.
  int64_t Offset = 0;
  /// The tensor's size in bytes (`Tensor::byteSize()`), or the bytes of its
  /// window when PlanOptions::HeldBytes holds it.
  int64_t Size = 0;
  /// The first and last operator at which the bytes are live. For a buffer
  /// other tensors alias, this spans their lifetimes too.
  int32_t FirstOp = 0;
  int32_t LastOp = 0;
  /// The tensor whose bytes this one shares (the output of a view operator
  /// sharing its input's, or of an in-place operator taking over an
  /// operand's), or -1 when the tensor has bytes of its own. Always names a
  /// tensor with bytes of its own, never another alias.
  int32_t AliasOf = -1;
  /// For a scratch buffer (MemoryPlan::Scratch), the operator whose kernel
  /// uses it; Tensor is then -1. -1 for a tensor's buffer.
  int32_t Op = -1;
};

/// An order in which the greedy placer visits buffers.
enum class PlacementOrder {
  /// Largest first (TensorFlow Lite Micro's order).
  Size,
  /// Earliest first use first, larger first among equals.
  FirstUse,
  /// Largest size times lifetime (in operators) first.
  SizeTimesLifetime,
  /// Longest lifetime first, larger first among equals.
  Lifetime,
};

/// The name of \p O for reports: "size", "first-use", "size*lifetime",
/// "lifetime".
llvm::StringRef placementOrderName(PlacementOrder O);

/// How to plan.
struct PlanOptions {
  /// The alignment of every offset, in bytes; a power of two.
  int64_t Alignment = 16;
  /// Operator types whose output 0 shares the bytes of input 0 when the two
  /// have the same byte size and the input is neither constant nor variable.
  std::vector<ir::OpCode> AliasOps = {ir::OpCode::Reshape, ir::OpCode::Squeeze,
                                      ir::OpCode::ExpandDims};
  /// The orders to try; the first one giving the smallest arena wins.
  std::vector<PlacementOrder> Orders = {
      PlacementOrder::Size, PlacementOrder::FirstUse,
      PlacementOrder::SizeTimesLifetime, PlacementOrder::Lifetime};
  /// The output of an operator that may overlay one of its operands
  /// (ir::mayOverlay, from `OutputOverlays` in defs/ops.td) takes the
  /// operand's bytes when it has the operand's shape and byte size, neither
  /// is variable or constant, no graph output shares those bytes and the
  /// operator is their last use. Off where the order in which a kernel reads
  /// and writes is not known (accelerator programs). Outside groups only:
  /// inside one, GroupOverlays decides.
  bool Overlays = true;
  /// Operator spans [first, last] that run interleaved, as one step (a
  /// cascade): a tensor live at one of their operators is live at all.
  std::vector<std::pair<int32_t, int32_t>> Groups;
  /// Inside a group only these overlays are made, output tensor to the
  /// tensor whose bytes it takes: an operand of the operator that may
  /// overlay it, or any whole tensor an earlier operator of the group reads
  /// that is no smaller than the output (the bytes past the output's are
  /// free after the group). The cascade planner checks that no later stripe
  /// reads bytes the output has overwritten.
  std::map<int32_t, int32_t> GroupOverlays;
  /// Tensors held in other bytes than their size, and those bytes: a
  /// cascade's row windows (fewer), the output of an accumulating operator
  /// ending a cascade, which holds its int32 sums until the last stripe
  /// (more).
  std::map<int32_t, int64_t> HeldBytes;
  /// Graph inputs stay in the caller's buffers and get no bytes in the arena
  /// (the emitted code reads them where the caller passed them); not those
  /// that are also graph outputs or variable.
  bool InputsInPlace = false;
  /// Bytes of scratch memory operators' kernels use while they run, by
  /// operator (CMSIS-NN's `*_get_buffer_size`): each a buffer live at its
  /// operator, or at its group's operators, where the group's operators
  /// share one of the largest size they need.
  std::map<int32_t, int64_t> Scratch;
};

/// Whether output 0 of \p Op may take the bytes of its operand \p Operand
/// by the operator (ir::mayOverlay) and the two tensors' shapes, byte sizes
/// and kinds; lifetimes decide the rest (PlanOptions::Overlays).
bool overlayable(const ir::Graph &G, const ir::Operator &Op, size_t Operand);

/// True if graph input \p T stays in the caller's buffer under \p Opts.
bool inputInPlace(const ir::Graph &G, int32_t T, const PlanOptions &Opts);

/// A placement of a graph's tensors in one arena.
struct MemoryPlan {
  /// One buffer per planned tensor, by increasing tensor index.
  std::vector<Buffer> Buffers;
  /// The arena size: the end of the highest buffer.
  int64_t ArenaBytes = 0;
  /// The bytes live at each operator (one step for a graph without
  /// operators): the buffers with bytes of their own and the scratch live
  /// there, aliases counted once, alignment ignored, of a buffer a group's
  /// output took only the part still kept.
  std::vector<int64_t> LiveBytes;
  /// No placement can use less: the largest of LiveBytes.
  int64_t LowerBound = 0;
  /// The alignment the offsets honor.
  int64_t Alignment = 16;
  /// The order that produced this placement.
  PlacementOrder Order = PlacementOrder::Size;
  /// One scratch buffer per operator PlanOptions::Scratch gives bytes, by
  /// increasing operator (Buffer::Op).
  std::vector<Buffer> Scratch;

  /// The buffer of tensor \p Tensor, or null if it is not in the arena.
  const Buffer *find(int32_t Tensor) const;
  /// The scratch buffer of operator \p Op, or null if it has none.
  const Buffer *findScratch(int32_t Op) const;
};

/// Plans the arena of \p G, a graph that passes `ir::verifyGraph`.
MemoryPlan planMemory(const ir::Graph &G, const PlanOptions &Opts = {});

/// Checks \p Plan against \p G without trusting the planner: every
/// non-constant tensor the graph refers to has exactly one buffer of its
/// byte size (or held bytes) at an aligned offset inside the arena; every
/// alias is the output of one of \p Opts' view operators sharing its input's
/// offset, or, with \p Opts' Overlays, of an operator that may overlay an
/// operand of its shape and byte size whose bytes it takes; and no two
/// tensors live at the same operator (lifetimes recomputed from the graph,
/// the groups of \p Opts run as one step) have overlapping bytes unless they
/// are views of one value, or an overlaid operand and the output taking it
/// over at the operator (or group) that writes it, after which nothing reads
/// the operand; every operator with scratch bytes in \p Opts has one scratch
/// buffer of that size, aligned, inside the arena, apart from every tensor
/// live at its step. Returns one message per problem; empty when the plan is
/// sound. (That no stripe of a group reads rows already overwritten is
/// verifyCascades' check.)
std::vector<std::string> verifyPlan(const ir::Graph &G, const MemoryPlan &Plan,
                                    const PlanOptions &Opts = {});

} // namespace plan
} // namespace accelgen

#endif // ACCELGEN_PLAN_MEMORYPLAN_H
