//===- MemoryPlan.cpp - Static working-memory plan of a graph
//--------------===//
//
// Three steps: lifetimes of the tensors the graph refers to, the aliases view
// operators and in-place operators introduce (which merge lifetimes into the
// buffer they share), and greedy placement of the remaining buffers (and
// operators' scratch) in each requested order, repeated with the topmost
// buffer first while that helps, keeping the smallest arena. The checker lives
// apart, in VerifyPlan.cpp, so that it shares no code with what it checks.
//
//===----------------------------------------------------------------------===//
#include "plan/MemoryPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>
#include <tuple>

namespace accelgen {
namespace plan {

llvm::StringRef placementOrderName(PlacementOrder O) {
  switch (O) {
  case PlacementOrder::Size:
    return "size";
  case PlacementOrder::FirstUse:
    return "first-use";
  case PlacementOrder::SizeTimesLifetime:
    return "size*lifetime";
  case PlacementOrder::Lifetime:
    return "lifetime";
  }
  llvm_unreachable("unknown placement order");
}

bool inputInPlace(const ir::Graph &G, int32_t T, const PlanOptions &Opts) {
  return Opts.InputsInPlace && G.isValidTensor(T) &&
         llvm::is_contained(G.Inputs, T) && !llvm::is_contained(G.Outputs, T) &&
         !G.tensor(T).IsVariable && !G.tensor(T).IsConstant;
}

const Buffer *MemoryPlan::find(int32_t Tensor) const {
  auto It = llvm::partition_point(
      Buffers, [&](const Buffer &B) { return B.Tensor < Tensor; });
  return It != Buffers.end() && It->Tensor == Tensor ? &*It : nullptr;
}

const Buffer *MemoryPlan::findScratch(int32_t Op) const {
  auto It = llvm::partition_point(Scratch,
                                  [&](const Buffer &B) { return B.Op < Op; });
  return It != Scratch.end() && It->Op == Op ? &*It : nullptr;
}

namespace {

constexpr int32_t Unset = -1;

int64_t alignUp(int64_t Value, int64_t Alignment) {
  return (Value + Alignment - 1) / Alignment * Alignment;
}

/// The lifetime of every tensor the plan covers; Unset elsewhere.
struct Lifetimes {
  std::vector<int32_t> First, Last;
  bool planned(int32_t T) const { return First[T] != Unset; }
};

/// Computes lifetimes by the conventions of MemoryPlan.h.
Lifetimes computeLifetimes(const ir::Graph &G) {
  size_t NumTensors = G.Tensors.size();
  int32_t LastStep =
      std::max<int32_t>(0, static_cast<int32_t>(G.Operators.size()) - 1);
  Lifetimes L{std::vector<int32_t>(NumTensors, Unset),
              std::vector<int32_t>(NumTensors, Unset)};
  auto Planned = [&](int32_t T) {
    return G.isValidTensor(T) && !G.tensor(T).IsConstant;
  };
  auto Touch = [&](int32_t T, int32_t Step) {
    if (L.First[T] == Unset || Step < L.First[T])
      L.First[T] = Step;
    L.Last[T] = std::max(L.Last[T], Step);
  };

  for (int32_t T : G.Inputs)
    if (Planned(T))
      Touch(T, 0);
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    const ir::Operator &Op = G.Operators[K];
    int32_t Step = static_cast<int32_t>(K);
    for (int32_t T : Op.Outputs)
      if (Planned(T))
        Touch(T, Step);
    for (int32_t T : Op.Inputs) {
      if (!Planned(T))
        continue;
      // Something read before any operator writes it must hold its bytes
      // from the start (a verified graph only does this with state).
      if (L.First[T] == Unset)
        Touch(T, 0);
      Touch(T, Step);
    }
  }
  for (int32_t T : G.Outputs)
    if (Planned(T))
      Touch(T, LastStep);
  for (size_t T = 0; T < NumTensors; ++T)
    if (G.Tensors[T].IsVariable && Planned(static_cast<int32_t>(T))) {
      Touch(static_cast<int32_t>(T), 0);
      Touch(static_cast<int32_t>(T), LastStep);
    }
  return L;
}

} // namespace

bool overlayable(const ir::Graph &G, const ir::Operator &Op, size_t I) {
  if (Op.Outputs.size() != 1 || !ir::mayOverlay(Op.code(), I))
    return false;
  int32_t In = Op.Inputs[I], Out = Op.output(0);
  if (!G.isValidTensor(In) || !G.isValidTensor(Out) || In == Out)
    return false;
  const ir::Tensor &InT = G.tensor(In), &OutT = G.tensor(Out);
  return !InT.IsConstant && !InT.IsVariable && !OutT.IsVariable &&
         InT.Shape == OutT.Shape && InT.byteSize() == OutT.byteSize();
}

namespace {

/// A buffer whose bytes past the first Keep are free after step Until: a
/// group's output took over a larger tensor the group consumed.
/// What stays of a buffer as groups' outputs take its first bytes: steps
/// of decreasing Keep, the bytes past each Keep live only until its Until
/// (increasing); none: all of them for the buffer's life.
struct Shrink {
  llvm::SmallVector<std::pair<int64_t, int32_t>, 1> Steps;
  int64_t keep() const { return Steps.empty() ? -1 : Steps.back().first; }
};

/// For every tensor, the tensor whose bytes it uses (itself when it has its
/// own), merging each alias's lifetime into the buffer it shares: views of
/// their input, then in-place outputs over an operand whose bytes nothing
/// reads after the operator (or its group) and no graph output holds, and
/// groups' outputs over a tensor the group consumed (\p Shrinks: what stays
/// of the larger tensor's bytes after the group).
std::vector<int32_t> resolveAliases(const ir::Graph &G, Lifetimes &L,
                                    const PlanOptions &Opts,
                                    std::vector<Shrink> &Shrinks) {
  Shrinks.assign(G.Tensors.size(), Shrink());
  std::vector<int32_t> Root(G.Tensors.size());
  std::iota(Root.begin(), Root.end(), 0);
  // Bytes a graph output or state holds; by root.
  std::vector<bool> Pinned(G.Tensors.size(), false);
  for (int32_t T : G.Outputs)
    if (G.isValidTensor(T))
      Pinned[T] = true;
  for (size_t T = 0; T < G.Tensors.size(); ++T)
    if (G.Tensors[T].IsVariable)
      Pinned[T] = true;
  auto Share = [&](int32_t Out, int32_t R) {
    Root[Out] = R;
    Pinned[R] = Pinned[R] || Pinned[Out];
    L.First[R] = std::min(L.First[R], L.First[Out]);
    L.Last[R] = std::max(L.Last[R], L.Last[Out]);
  };
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    const ir::Operator &Op = G.Operators[K];
    if (llvm::is_contained(Opts.AliasOps, Op.code())) {
      int32_t In = Op.input(0), Out = Op.output(0);
      if (!G.isValidTensor(In) || !G.isValidTensor(Out) || In == Out ||
          !L.planned(In) || !L.planned(Out))
        continue;
      const ir::Tensor &InT = G.tensor(In), &OutT = G.tensor(Out);
      if (InT.IsVariable || OutT.IsVariable ||
          InT.byteSize() != OutT.byteSize())
        continue;
      // Operators run in order, so In's own root is already final.
      Share(Out, Root[In]);
      continue;
    }
    int32_t End = static_cast<int32_t>(K);
    bool InGroup = false;
    for (const auto &[First, Last] : Opts.Groups)
      if (First <= End && End <= Last) {
        End = Last;
        InGroup = true;
      }
    if (!Opts.Overlays && !InGroup)
      continue;
    for (size_t I = 0; I < Op.Inputs.size(); ++I) {
      if (!overlayable(G, Op, I))
        continue;
      int32_t In = Op.Inputs[I], Out = Op.output(0), R = Root[In];
      if (!L.planned(In) || !L.planned(Out) || Root[Out] != Out || Pinned[R] ||
          L.Last[R] > End)
        continue;
      if (InGroup) {
        auto It = Opts.GroupOverlays.find(Out);
        if (It == Opts.GroupOverlays.end() || It->second != In)
          continue;
      }
      Share(Out, R);
      break;
    }
    // Inside a group the output may also take the bytes of a tensor an
    // earlier operator of the group reads, if it fits in them (a cascade's
    // output over the input its stripes consume).
    auto It = Opts.GroupOverlays.find(Op.output(0));
    if (!InGroup || Op.Outputs.size() != 1 || It == Opts.GroupOverlays.end())
      continue;
    const int32_t Out = It->first, In = It->second;
    if (!G.isValidTensor(In) || In == Out || !L.planned(In) ||
        !L.planned(Out) || Root[Out] != Out)
      continue;
    const int32_t R = Root[In];
    const ir::Tensor &InT = G.tensor(In), &OutT = G.tensor(Out);
    const int64_t RootBytes = G.tensor(R).byteSize();
    // Bytes an earlier group's output already took (In is that output, or
    // shares its bytes) hold Out if it fits in the part they keep.
    const int64_t Keep = Shrinks[R].keep() >= 0 ? Shrinks[R].keep() : RootBytes;
    if (Pinned[R] || L.Last[R] > End || InT.IsConstant || InT.IsVariable ||
        OutT.IsVariable || OutT.byteSize() > Keep || Opts.HeldBytes.count(R))
      continue;
    // The bytes past Out's are free once the group has run (once the
    // tensors holding them now are dead).
    if (OutT.byteSize() < Keep)
      Shrinks[R].Steps.push_back({OutT.byteSize(), L.Last[R]});
    Share(Out, R);
  }
  return Root;
}

/// A buffer with bytes of its own, as the placer sees it: Size bytes over
/// steps [First, Last], of which those past a Keep of Shrink only until its
/// step.
struct Item {
  int32_t Tensor;
  int64_t Size;
  int32_t First, Last;
  Shrink Shrinks;
  int64_t lifetime() const { return int64_t(Last) - First + 1; }
};

/// Bytes [Rel, Rel + Size) of an item over steps [First, Last].
struct Rect {
  int64_t Rel, Size;
  int32_t First, Last;
};

/// The rectangles item \p It takes in bytes x steps: one, or its kept bytes
/// and the rest until it is free.
llvm::SmallVector<Rect, 2> rects(const Item &It) {
  const int32_t First = std::max(It.First, 0);
  llvm::SmallVector<Rect, 2> Out;
  int64_t End = It.Size;
  for (const auto &[Keep, Until] : It.Shrinks.Steps) {
    Out.push_back(Rect{Keep, End - Keep, First, std::max(First, Until)});
    End = Keep;
  }
  Out.push_back(Rect{0, End, First, It.Last});
  return Out;
}

/// Sorts \p Items into the visiting order \p O; ties go to the lower tensor
/// index, so the order is total and the placement deterministic.
void sortItems(std::vector<Item> &Items, PlacementOrder O) {
  auto Key = [O](const Item &I) {
    switch (O) {
    case PlacementOrder::Size:
      return std::make_tuple(-I.Size, int64_t(I.First), int64_t(0));
    case PlacementOrder::FirstUse:
      return std::make_tuple(int64_t(I.First), -I.Size, int64_t(0));
    case PlacementOrder::SizeTimesLifetime:
      return std::make_tuple(-I.Size * I.lifetime(), -I.Size, int64_t(0));
    case PlacementOrder::Lifetime:
      return std::make_tuple(-I.lifetime(), -I.Size, int64_t(I.First));
    }
    llvm_unreachable("unknown placement order");
  };
  std::sort(Items.begin(), Items.end(), [&](const Item &A, const Item &B) {
    auto KA = Key(A), KB = Key(B);
    return KA != KB ? KA < KB : A.Tensor < B.Tensor;
  });
}

/// The items placed so far, for finding those a new item lives with: a
/// segment tree over the steps, each item kept at the few nodes that cover
/// its steps (the items live at step K are those on K's path from the root),
/// and the items by first step. Finding the items that share a step with
/// [First, Last] takes time in proportion to the items found plus the
/// steps: neither a long chain (100,000 items, each living with few) nor
/// thousands of items live at once (each meeting each other at every step
/// they share) is quadratic or worse.
class PlacedItems {
public:
  explicit PlacedItems(int32_t NumSteps)
      : Steps(std::max(NumSteps, 1)), Nodes(4 * size_t(Steps)),
        ByFirst(size_t(Steps)) {}

  void add(size_t Index, int32_t First, int32_t Last) {
    insert(1, 0, Steps - 1, First, Last, Index);
    ByFirst[size_t(First)].push_back(Index);
  }

  /// Calls \p F once with each added item live at a step of [First, Last].
  template <typename Fn> void forEachLivingWith(int32_t First, int32_t Last,
                                                Fn F) const {
    // Those live at First, then those that start after it.
    size_t Node = 1;
    for (int32_t Lo = 0, Hi = Steps - 1;;) {
      for (size_t I : Nodes[Node])
        F(I);
      if (Lo == Hi)
        break;
      const int32_t Mid = Lo + (Hi - Lo) / 2;
      if (First <= Mid) {
        Node = 2 * Node;
        Hi = Mid;
      } else {
        Node = 2 * Node + 1;
        Lo = Mid + 1;
      }
    }
    for (int32_t K = First + 1; K <= Last; ++K)
      for (size_t I : ByFirst[size_t(K)])
        F(I);
  }

private:
  void insert(size_t Node, int32_t Lo, int32_t Hi, int32_t First,
              int32_t Last, size_t Index) {
    if (Last < Lo || Hi < First)
      return;
    if (First <= Lo && Hi <= Last) {
      Nodes[Node].push_back(Index);
      return;
    }
    const int32_t Mid = Lo + (Hi - Lo) / 2;
    insert(2 * Node, Lo, Mid, First, Last, Index);
    insert(2 * Node + 1, Mid + 1, Hi, First, Last, Index);
  }

  int32_t Steps;
  std::vector<std::vector<size_t>> Nodes;
  std::vector<std::vector<size_t>> ByFirst;
};

/// Places \p Items (already in visiting order) greedily; returns each item's
/// offset, by position in \p Items, and sets \p Arena to the arena size.
std::vector<int64_t> placeGreedy(const std::vector<Item> &Items,
                                 int64_t Alignment, int64_t &Arena) {
  std::vector<int64_t> Offsets(Items.size(), 0);
  int32_t Steps = 0;
  for (const Item &It : Items)
    Steps = std::max(Steps, It.Last + 1);
  PlacedItems Placed(Steps);
  // The placed rectangles, absolute: [begin, end) bytes.
  std::vector<std::pair<int64_t, int64_t>> Bytes;
  // Offsets the item may not take, [lo, hi): each a placed rectangle its
  // own would overlap.
  std::vector<std::pair<int64_t, int64_t>> Banned;
  Arena = 0;
  for (size_t I = 0; I < Items.size(); ++I) {
    const Item &It = Items[I];
    if (It.Size == 0) // takes no bytes, overlaps nothing
      continue;
    const llvm::SmallVector<Rect, 2> Own = rects(It);
    Banned.clear();
    for (const Rect &R : Own) {
      if (R.Size == 0)
        continue;
      Placed.forEachLivingWith(R.First, R.Last, [&](size_t P) {
        const auto &[Begin, End] = Bytes[P];
        Banned.emplace_back(Begin - R.Rel - R.Size + 1, End - R.Rel);
      });
    }
    std::sort(Banned.begin(), Banned.end());
    int64_t Candidate = 0;
    for (const auto &[Lo, Hi] : Banned) {
      if (Candidate < Lo)
        break;
      if (Candidate < Hi)
        Candidate = alignUp(Hi, Alignment);
    }
    Offsets[I] = Candidate;
    for (const Rect &R : Own) {
      if (R.Size == 0)
        continue;
      Arena = std::max(Arena, Candidate + R.Rel + R.Size);
      Placed.add(Bytes.size(), R.First, R.Last);
      Bytes.emplace_back(Candidate + R.Rel, Candidate + R.Rel + R.Size);
    }
  }
  return Offsets;
}

/// placeGreedy(), then again with the item that reaches the arena's end
/// visited first, while that makes the arena smaller (a few rounds):
/// greedy placement fragments where a large item placed early pushes one
/// that lives with it to the top, which placed first would have sat below
/// it. Reorders \p Items to the order whose placement it returns.
std::vector<int64_t> placeRepeated(std::vector<Item> &Items, int64_t Alignment,
                                   int64_t &Arena) {
  constexpr int Rounds = 8;
  std::vector<int64_t> Offsets = placeGreedy(Items, Alignment, Arena);
  for (int Round = 0; Round < Rounds; ++Round) {
    size_t Top = 0;
    while (Top < Items.size() &&
           !(Items[Top].Size > 0 && Offsets[Top] + Items[Top].Size == Arena))
      ++Top;
    if (Top == 0 || Top == Items.size())
      break;
    std::vector<Item> Moved = Items;
    std::rotate(Moved.begin(), Moved.begin() + Top, Moved.begin() + Top + 1);
    int64_t MovedArena = 0;
    std::vector<int64_t> MovedOffsets =
        placeGreedy(Moved, Alignment, MovedArena);
    if (MovedArena >= Arena)
      break;
    Items = std::move(Moved);
    Offsets = std::move(MovedOffsets);
    Arena = MovedArena;
  }
  return Offsets;
}

/// The total size of the items live at each of \p Steps steps (a rectangle
/// adds its bytes from its first step to its last).
std::vector<int64_t> liveBytes(const std::vector<Item> &Items, int32_t Steps) {
  std::vector<int64_t> Change(size_t(Steps) + 1, 0);
  for (const Item &I : Items)
    for (const Rect &R : rects(I)) {
      Change[size_t(R.First)] += R.Size;
      Change[size_t(R.Last) + 1] -= R.Size;
    }
  std::vector<int64_t> Live(size_t(Steps), 0);
  int64_t Sum = 0;
  for (int32_t K = 0; K < Steps; ++K)
    Live[size_t(K)] = Sum += Change[size_t(K)];
  return Live;
}

} // namespace

MemoryPlan planMemory(const ir::Graph &G, const PlanOptions &Opts) {
  assert(Opts.Alignment > 0 && (Opts.Alignment & (Opts.Alignment - 1)) == 0 &&
         "alignment must be a power of two");
  Lifetimes L = computeLifetimes(G);
  for (int32_t T : G.Inputs)
    if (inputInPlace(G, T, Opts))
      L.First[T] = L.Last[T] = Unset;
  // A tensor live at one operator of a group is live at all of them.
  for (const auto &[First, Last] : Opts.Groups)
    for (size_t T = 0; T < G.Tensors.size(); ++T)
      if (L.planned(static_cast<int32_t>(T)) && L.First[T] <= Last &&
          First <= L.Last[T]) {
        L.First[T] = std::min(L.First[T], First);
        L.Last[T] = std::max(L.Last[T], Last);
      }
  auto Bytes = [&](size_t T) {
    auto Held = Opts.HeldBytes.find(static_cast<int32_t>(T));
    return Held != Opts.HeldBytes.end()
               ? Held->second
               : std::max<int64_t>(0, G.Tensors[T].byteSize());
  };
  std::vector<Shrink> Shrinks;
  std::vector<int32_t> Root = resolveAliases(G, L, Opts, Shrinks);

  std::vector<Item> Items;
  for (size_t T = 0; T < G.Tensors.size(); ++T)
    if (L.planned(static_cast<int32_t>(T)) &&
        Root[T] == static_cast<int32_t>(T))
      Items.push_back({static_cast<int32_t>(T), Bytes(T), L.First[T], L.Last[T],
                       Shrinks[T]});
  // Scratch: one item per step (an operator, or a group) whose operators
  // need some, of the largest they need, keyed past the tensors by the
  // step's first operator.
  const int32_t NumTensors = static_cast<int32_t>(G.Tensors.size());
  auto StepOf = [&](int32_t K) {
    std::pair<int32_t, int32_t> Step{K, K};
    for (const auto &[First, Last] : Opts.Groups)
      if (First <= K && K <= Last)
        Step = {First, Last};
    return Step;
  };
  std::map<int32_t, size_t> ScratchItem; // by the step's first operator
  for (const auto &[K, Need] : Opts.Scratch) {
    assert(K >= 0 && size_t(K) < G.Operators.size() &&
           "scratch for an operator the graph does not have");
    if (Need <= 0)
      continue;
    const auto [First, Last] = StepOf(K);
    auto [It, New] = ScratchItem.try_emplace(First, Items.size());
    if (New)
      Items.push_back({NumTensors + First, Need, First, Last, Shrink()});
    else
      Items[It->second].Size = std::max(Items[It->second].Size, Need);
  }

  MemoryPlan Plan;
  Plan.Alignment = Opts.Alignment;
  Plan.LiveBytes = liveBytes(
      Items, std::max<int32_t>(1, static_cast<int32_t>(G.Operators.size())));
  Plan.LowerBound =
      *std::max_element(Plan.LiveBytes.begin(), Plan.LiveBytes.end());

  // Offsets by tensor index (scratch past them), from the best order tried.
  std::vector<int64_t> Offset(G.Tensors.size() + G.Operators.size(), 0);
  int64_t BestArena = std::numeric_limits<int64_t>::max();
  std::vector<PlacementOrder> Orders = Opts.Orders;
  if (Orders.empty())
    Orders.push_back(PlacementOrder::Size);
  for (PlacementOrder O : Orders) {
    std::vector<Item> Sorted = Items;
    sortItems(Sorted, O);
    int64_t Arena = 0;
    std::vector<int64_t> Offsets = placeRepeated(Sorted, Opts.Alignment, Arena);
    if (Arena >= BestArena)
      continue;
    BestArena = Arena;
    Plan.Order = O;
    for (size_t I = 0; I < Sorted.size(); ++I)
      Offset[Sorted[I].Tensor] = Offsets[I];
  }
  Plan.ArenaBytes = BestArena;

  for (size_t T = 0; T < G.Tensors.size(); ++T) {
    int32_t Index = static_cast<int32_t>(T);
    if (!L.planned(Index))
      continue;
    Buffer B;
    B.Tensor = Index;
    B.Size = Bytes(T);
    B.Offset = Offset[Root[T]];
    B.FirstOp = L.First[T];
    B.LastOp = L.Last[T];
    B.AliasOf = Root[T] == Index ? -1 : Root[T];
    Plan.Buffers.push_back(B);
  }
  for (const auto &[K, Need] : Opts.Scratch) {
    if (Need <= 0)
      continue;
    Buffer B;
    B.Op = K;
    B.Size = Need;
    std::tie(B.FirstOp, B.LastOp) = StepOf(K);
    B.Offset = Offset[NumTensors + B.FirstOp];
    Plan.Scratch.push_back(B);
  }
  return Plan;
}

} // namespace plan
} // namespace accelgen
