//===- VerifyPlan.cpp - Independent check of a memory plan
//-----------------===//
//
// Checks a plan against its graph with nothing taken from the planner but the
// buffers themselves: when each tensor is live is recomputed from the graph,
// and every pair of tensors live at a common step is compared byte range
// against byte range, once, at the first step both are live. Written for
// tests and for a defensive check before code is emitted: plain, and in
// time proportional to the pairs live together (not to those pairs times
// the steps they share, which took minutes for 5,000 operators with
// thousands of tensors live).
//
//===----------------------------------------------------------------------===//
#include "plan/MemoryPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace accelgen {
namespace plan {

namespace {

std::string describe(const ir::Graph &G, int32_t T) {
  return llvm::formatv("tensor {0} '{1}'", T, G.tensor(T).Name).str();
}

std::string describeOp(const ir::Graph &G, size_t K) {
  if (G.Operators.empty())
    return "the start (no operators)";
  return llvm::formatv("operator {0} ({1})", K, G.Operators[K].Type).str();
}

/// The steps a tensor is live at, first to last: step K is operator K; a
/// graph without operators has one step.
struct Interval {
  size_t Begin = 0, End = 0;
};

/// Each tensor's live interval; std::nullopt for a tensor live at no step
/// (constants, inputs read in place, tensors nothing refers to).
std::vector<std::optional<Interval>> liveIntervals(const ir::Graph &G,
                                                   const PlanOptions &Opts) {
  size_t Steps = std::max<size_t>(1, G.Operators.size());
  std::vector<std::optional<Interval>> Live(G.Tensors.size());
  auto Constant = [&](int32_t T) { return G.tensor(T).IsConstant; };
  // Live while between being written (or existing from the start) and the
  // last read (or forever for outputs and state).
  std::vector<bool> FromStart(G.Tensors.size(), false),
      ToEnd(G.Tensors.size(), false);
  std::vector<std::vector<size_t>> Writes(G.Tensors.size()),
      Reads(G.Tensors.size());
  for (int32_t T : G.Inputs)
    if (G.isValidTensor(T))
      FromStart[T] = true;
  for (int32_t T : G.Outputs)
    if (G.isValidTensor(T))
      ToEnd[T] = true;
  for (size_t T = 0; T < G.Tensors.size(); ++T)
    if (G.Tensors[T].IsVariable)
      FromStart[T] = ToEnd[T] = true;
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    for (int32_t T : G.Operators[K].Outputs)
      if (G.isValidTensor(T))
        Writes[T].push_back(K);
    for (int32_t T : G.Operators[K].Inputs)
      if (G.isValidTensor(T))
        Reads[T].push_back(K);
  }
  for (size_t T = 0; T < G.Tensors.size(); ++T) {
    if (Constant(static_cast<int32_t>(T)) ||
        inputInPlace(G, static_cast<int32_t>(T), Opts))
      continue;
    // Read, or handed out, without a writer: it must exist from the start
    // (the importer rejects such an output; the plan check must not rely on
    // it).
    if (!FromStart[T] && Writes[T].empty() && (!Reads[T].empty() || ToEnd[T]))
      FromStart[T] = true;
    bool Referenced = FromStart[T] || ToEnd[T] || !Writes[T].empty();
    if (!Referenced)
      continue;
    size_t Begin = FromStart[T] ? 0 : Writes[T].front();
    size_t End = Begin;
    for (size_t K : Reads[T])
      End = std::max(End, K);
    for (size_t K : Writes[T])
      End = std::max(End, K);
    if (ToEnd[T])
      End = Steps - 1;
    // Operators of a group run interleaved: live at one, live at all.
    for (const auto &[First, Last] : Opts.Groups)
      if (First >= 0 && static_cast<size_t>(Last) < Steps &&
          static_cast<size_t>(First) <= End &&
          Begin <= static_cast<size_t>(Last)) {
        Begin = std::min(Begin, static_cast<size_t>(First));
        End = std::max(End, static_cast<size_t>(Last));
      }
    Live[T] = Interval{Begin, End};
  }
  return Live;
}

} // namespace

std::vector<std::string> verifyPlan(const ir::Graph &G, const MemoryPlan &Plan,
                                    const PlanOptions &Opts) {
  std::vector<std::string> Problems;
  auto Report = [&](std::string Message) {
    Problems.push_back(std::move(Message));
  };

  if (Plan.Alignment <= 0 || (Plan.Alignment & (Plan.Alignment - 1)) != 0)
    Report(
        llvm::formatv("alignment {0} is not a power of two", Plan.Alignment));

  // A buffer at an aligned offset inside the arena.
  auto CheckPlace = [&](const std::string &Who, const Buffer &B) {
    if (B.Offset < 0 || (Plan.Alignment > 0 && B.Offset % Plan.Alignment != 0))
      Report(llvm::formatv("{0} is at offset {1}, not a multiple of {2}", Who,
                           B.Offset, Plan.Alignment));
    if (B.Offset + B.Size > Plan.ArenaBytes)
      Report(llvm::formatv("{0} ends at {1}, past the arena's {2} bytes", Who,
                           B.Offset + B.Size, Plan.ArenaBytes));
  };

  // Buffers: one per tensor, well formed.
  std::map<int32_t, const Buffer *> ByTensor;
  for (const Buffer &B : Plan.Buffers) {
    if (!G.isValidTensor(B.Tensor)) {
      Report(llvm::formatv("a buffer names tensor {0}, which does not exist",
                           B.Tensor));
      continue;
    }
    std::string Who = describe(G, B.Tensor);
    if (!ByTensor.emplace(B.Tensor, &B).second) {
      Report(Who + " has more than one buffer");
      continue;
    }
    const ir::Tensor &T = G.tensor(B.Tensor);
    if (T.IsConstant)
      Report(Who + " is constant but has a buffer in the arena");
    auto Held = Opts.HeldBytes.find(B.Tensor);
    int64_t Want = Held != Opts.HeldBytes.end() ? Held->second : T.byteSize();
    if (B.Size != Want)
      Report(llvm::formatv("{0} has a buffer of {1} bytes, not {2}", Who,
                           B.Size, Want));
    CheckPlace(Who, B);
  }

  // Every tensor live at some step needs a buffer.
  const std::vector<std::optional<Interval>> Live = liveIntervals(G, Opts);
  for (size_t T = 0; T < Live.size(); ++T)
    if (Live[T] && !ByTensor.count(static_cast<int32_t>(T)))
      Report(describe(G, static_cast<int32_t>(T)) +
             " is used but has no buffer");

  // Aliases: the output of a view operator, sharing the offset of its input's
  // bytes, which are nobody's alias; or the output of an operator that may
  // overlay an operand, taking that operand's bytes.
  auto Storage = [&](const Buffer &B) {
    return B.AliasOf == -1 ? B.Tensor : B.AliasOf;
  };
  auto StorageOf = [&](int32_t T) {
    auto It = ByTensor.find(T);
    return It == ByTensor.end() ? -1 : Storage(*It->second);
  };
  // The value each tensor holds: its own, or for a view its input's. By
  // tensor; overlaid operand and operator for outputs taking one over.
  std::vector<int32_t> Value(G.Tensors.size());
  for (size_t T = 0; T < Value.size(); ++T)
    Value[T] = static_cast<int32_t>(T);
  std::map<int32_t, std::pair<int32_t, size_t>> Overlay;
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    const ir::Operator &Op = G.Operators[K];
    for (int32_t T : Op.Outputs) {
      auto It = ByTensor.find(T);
      if (It == ByTensor.end() || It->second->AliasOf == -1)
        continue;
      const Buffer *B = It->second;
      std::string Who = describe(G, T);
      auto Target = ByTensor.find(B->AliasOf);
      if (Target == ByTensor.end()) {
        Report(llvm::formatv("{0} aliases tensor {1}, which has no buffer", Who,
                             B->AliasOf));
        continue;
      }
      if (Target->second->AliasOf != -1)
        Report(llvm::formatv("{0} aliases {1}, itself an alias", Who,
                             describe(G, B->AliasOf)));
      if (B->Offset != Target->second->Offset)
        Report(llvm::formatv("{0} aliases {1} but sits at offset {2}, not {3}",
                             Who, describe(G, B->AliasOf), B->Offset,
                             Target->second->Offset));
      const ir::Tensor &OutT = G.tensor(T);
      bool View = false, Overlaid = false;
      if (llvm::is_contained(Opts.AliasOps, Op.code()) && Op.output(0) == T &&
          G.isValidTensor(Op.input(0)) &&
          StorageOf(Op.input(0)) == B->AliasOf) {
        const ir::Tensor &InT = G.tensor(Op.input(0));
        View = !InT.IsConstant && !InT.IsVariable && !OutT.IsVariable &&
               InT.byteSize() == OutT.byteSize();
        if (View)
          Value[T] = Value[Op.input(0)];
      }
      for (size_t I = 0; !View && !Overlaid && I < Op.Inputs.size(); ++I) {
        int32_t In = Op.Inputs[I];
        if ((!Opts.Overlays && !Opts.GroupOverlays.count(T)) ||
            Op.Outputs.size() != 1 ||
            !ir::mayOverlay(Op.code(), I) || !G.isValidTensor(In) || In == T ||
            StorageOf(In) != B->AliasOf)
          continue;
        const ir::Tensor &InT = G.tensor(In);
        Overlaid = !InT.IsConstant && !InT.IsVariable && !OutT.IsVariable &&
                   InT.Shape == OutT.Shape && InT.byteSize() == OutT.byteSize();
        if (Overlaid)
          Overlay[T] = {In, K};
      }
      // A group's output over a tensor an earlier operator of the group
      // reads, no larger than the bytes it takes.
      auto GroupIt = Opts.GroupOverlays.find(T);
      if (!View && !Overlaid && GroupIt != Opts.GroupOverlays.end() &&
          Op.Outputs.size() == 1 && G.isValidTensor(GroupIt->second) &&
          GroupIt->second != T && StorageOf(GroupIt->second) == B->AliasOf) {
        const int32_t In = GroupIt->second;
        const ir::Tensor &InT = G.tensor(In);
        std::optional<std::pair<size_t, size_t>> Group;
        for (const auto &[First, Last] : Opts.Groups)
          if (First >= 0 && static_cast<size_t>(First) < K &&
              K <= static_cast<size_t>(Last))
            Group = {static_cast<size_t>(First), K};
        bool ReadInGroup = false;
        for (size_t J = Group ? Group->first : K; Group && J < K; ++J)
          ReadInGroup |= llvm::is_contained(G.Operators[J].Inputs, In);
        Overlaid = ReadInGroup && !InT.IsConstant && !InT.IsVariable &&
                   !OutT.IsVariable &&
                   OutT.byteSize() <= G.tensor(B->AliasOf).byteSize();
        if (Overlaid)
          Overlay[T] = {In, K};
      }
      if (!View && !Overlaid)
        Report(llvm::formatv("{0} aliases {1} but is neither a same-size view "
                             "of it by one of the aliasing operators, nor the "
                             "output of an operator that may overlay it, nor "
                             "a group's output no larger than a tensor the "
                             "group reads",
                             Who, describe(G, B->AliasOf)));
    }
  }
  for (const auto &Entry : ByTensor) {
    // A structured binding cannot be captured in C++17.
    const auto T = Entry.first;
    const auto &B = Entry.second;
    if (B->AliasOf != -1 && llvm::none_of(G.Operators, [&](const auto &Op) {
          return llvm::is_contained(Op.Outputs, T);
        }))
      Report(llvm::formatv("{0} aliases {1} but no operator writes it",
                           describe(G, T), describe(G, B->AliasOf)));
  }

  // The step an overlay's operator belongs to: itself, or its group.
  auto StepOf = [&](size_t K) {
    std::pair<size_t, size_t> Step{K, K};
    for (const auto &[First, Last] : Opts.Groups)
      if (First >= 0 && static_cast<size_t>(First) <= K &&
          K <= static_cast<size_t>(Last))
        Step = {static_cast<size_t>(First), static_cast<size_t>(Last)};
    return Step;
  };
  // Scratch: one buffer for each operator that needs some, of its bytes,
  // apart from every tensor live at the operator's step (the operators of
  // one group run one after another, so their scratch may share bytes).
  std::set<int32_t> WithScratch;
  for (const Buffer &B : Plan.Scratch) {
    if (B.Op < 0 || static_cast<size_t>(B.Op) >= G.Operators.size()) {
      Report(llvm::formatv("a scratch buffer names operator {0}, which does "
                           "not exist",
                           B.Op));
      continue;
    }
    const std::string Who = "the scratch of " + describeOp(G, B.Op);
    if (!WithScratch.insert(B.Op).second) {
      Report(Who + " has more than one buffer");
      continue;
    }
    auto Need = Opts.Scratch.find(B.Op);
    const int64_t Want = Need == Opts.Scratch.end() ? 0 : Need->second;
    if (B.Size != Want)
      Report(llvm::formatv("{0} has {1} bytes, not {2}", Who, B.Size, Want));
    CheckPlace(Who, B);
    const auto [First, Last] = StepOf(static_cast<size_t>(B.Op));
    for (const auto &[T, TB] : ByTensor)
      if (Live[T] && TB->Size > 0 && Live[T]->Begin <= Last &&
          First <= Live[T]->End && TB->Offset < B.Offset + B.Size &&
          B.Offset < TB->Offset + TB->Size)
        Report(llvm::formatv("{0} [{1}, {2}) overlaps {3} [{4}, {5}), live "
                             "at the same step",
                             Who, B.Offset, B.Offset + B.Size, describe(G, T),
                             TB->Offset, TB->Offset + TB->Size));
  }
  for (const auto &[K, Want] : Opts.Scratch)
    if (Want > 0 && !WithScratch.count(K))
      Report(llvm::formatv("{0} needs {1} bytes of scratch but has no buffer",
                           K >= 0 && static_cast<size_t>(K) < G.Operators.size()
                               ? describeOp(G, static_cast<size_t>(K))
                               : "operator " + std::to_string(K),
                           Want));

  // Nothing holding an overlaid value is live after the overlay's step.
  std::vector<int64_t> LastLive(G.Tensors.size(), -1);
  for (size_t T = 0; T < Live.size(); ++T)
    if (Live[T])
      LastLive[T] = static_cast<int64_t>(Live[T]->End);
  for (const auto &[Out, From] : Overlay) {
    const auto &[In, K] = From;
    size_t End = StepOf(K).second;
    for (size_t T = 0; T < G.Tensors.size(); ++T)
      if (Value[T] == Value[In] &&
          StorageOf(static_cast<int32_t>(T)) == StorageOf(Out) &&
          LastLive[T] > static_cast<int64_t>(End))
        Report(llvm::formatv(
            "{0} takes over the bytes of {1} at {2}, but "
            "{3} is live until {4}",
            describe(G, Out), describe(G, In), describeOp(G, K),
            describe(G, static_cast<int32_t>(T)), describeOp(G, LastLive[T])));
  }
  // Two values in the same bytes at once: only an overlaid operand's and
  // the output taking it over, at the step that writes the output. The
  // first step of [Lo, Hi] at which A and B may not share bytes, or
  // std::nullopt.
  auto OverlaySteps = [&](int32_t A, int32_t B)
      -> std::optional<std::pair<size_t, size_t>> {
    auto It = Overlay.find(A);
    if (It == Overlay.end() || Value[B] != Value[It->second.first])
      return std::nullopt;
    return StepOf(It->second.second);
  };
  auto FirstConflict = [&](int32_t A, int32_t B, size_t Lo,
                           size_t Hi) -> std::optional<size_t> {
    const auto AB = OverlaySteps(A, B), BA = OverlaySteps(B, A);
    for (size_t K = Lo; K <= Hi;) {
      if (AB && AB->first <= K && K <= AB->second)
        K = AB->second + 1;
      else if (BA && BA->first <= K && K <= BA->second)
        K = BA->second + 1;
      else
        return K;
    }
    return std::nullopt;
  };

  // Tensors live together: disjoint bytes unless they share storage. Swept
  // step by step: each tensor is compared with those already live when it
  // becomes live, so each pair once, at the first step of both.
  auto Check = [&](int32_t I, int32_t J) {
    const Buffer &BA = *ByTensor.at(I), &BB = *ByTensor.at(J);
    const size_t Lo = std::max(Live[I]->Begin, Live[J]->Begin);
    const size_t Hi = std::min(Live[I]->End, Live[J]->End);
    if (Storage(BA) == Storage(BB)) {
      if (Value[I] == Value[J])
        return;
      if (std::optional<size_t> K = FirstConflict(I, J, Lo, Hi))
        Report(llvm::formatv("{0} and {1} share bytes but hold different "
                             "values, both live at {2}",
                             describe(G, I), describe(G, J),
                             describeOp(G, *K)));
      return;
    }
    if (BA.Offset < BB.Offset + BB.Size && BB.Offset < BA.Offset + BA.Size)
      Report(llvm::formatv("{0} [{1}, {2}) and {3} [{4}, {5}) overlap and "
                           "are both live at {6}",
                           describe(G, I), BA.Offset, BA.Offset + BA.Size,
                           describe(G, J), BB.Offset, BB.Offset + BB.Size,
                           describeOp(G, Lo)));
  };
  const size_t Steps = std::max<size_t>(1, G.Operators.size());
  std::vector<std::vector<int32_t>> Starting(Steps), Ending(Steps);
  for (size_t T = 0; T < Live.size(); ++T) {
    auto B = ByTensor.find(static_cast<int32_t>(T));
    if (!Live[T] || B == ByTensor.end() || B->second->Size == 0)
      continue;
    Starting[Live[T]->Begin].push_back(static_cast<int32_t>(T));
    Ending[Live[T]->End].push_back(static_cast<int32_t>(T));
  }
  std::set<int32_t> Active;
  for (size_t K = 0; K < Steps; ++K) {
    for (int32_t T : Starting[K]) {
      for (int32_t Other : Active)
        Check(std::min(T, Other), std::max(T, Other));
      Active.insert(T);
    }
    for (int32_t T : Ending[K])
      Active.erase(T);
  }
  return Problems;
}

} // namespace plan
} // namespace accelgen
