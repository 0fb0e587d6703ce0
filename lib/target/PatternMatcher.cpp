//===- PatternMatcher.cpp - Running fusion pattern tables on a graph ------===//
//
// A match is grown from the root through a worklist of pattern nodes; each
// step looks the producer of an operand up in a per-graph index (writer and
// reader count of every tensor), so a match costs time proportional to the
// pattern, not the graph.
//
//===----------------------------------------------------------------------===//
#include "target/PatternMatcher.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cassert>

namespace accelgen {
namespace target {

namespace {

/// Who writes and how often each tensor is read.
struct GraphIndex {
  std::vector<int32_t> Writer;
  std::vector<uint32_t> Reads;
  std::vector<bool> IsOutput;

  explicit GraphIndex(const ir::Graph &G)
      : Writer(G.Tensors.size(), -1), Reads(G.Tensors.size(), 0),
        IsOutput(G.Tensors.size(), false) {
    for (size_t I = 0; I < G.Operators.size(); ++I) {
      for (int32_t T : G.Operators[I].Outputs)
        if (G.isValidTensor(T))
          Writer[T] = static_cast<int32_t>(I);
      for (int32_t T : G.Operators[I].Inputs)
        if (G.isValidTensor(T))
          ++Reads[T];
    }
    for (int32_t T : G.Outputs)
      if (G.isValidTensor(T))
        IsOutput[T] = true;
  }
};

enum class MatchResult { NoMatch, CheckFailed, Matched };

/// Matches one pattern at one root.
class Matcher {
public:
  Matcher(const ir::Graph &G, const GraphIndex &Index, const PatternDesc &P,
          llvm::function_ref<bool(size_t)> Excluded)
      : G(G), Index(Index), P(P), Excluded(Excluded) {}

  MatchResult run(size_t Root, PatternMatch &M, std::vector<std::string> &Why) {
    constexpr int32_t Unbound = -2;
    M.Nodes.assign(P.NumNodes, -1);
    M.Values.assign(P.NumValues, Unbound);
    if (P.NumNodes == 0 || !bindNode(M, 0, static_cast<int32_t>(Root)))
      return MatchResult::NoMatch;
    while (!Worklist.empty()) {
      uint16_t N = Worklist.back();
      Worklist.pop_back();
      if (!matchNode(M, N))
        return MatchResult::NoMatch;
    }
    // A node no operand reaches would be an invalid table.
    if (llvm::is_contained(M.Nodes, -1))
      return MatchResult::NoMatch;
    for (int32_t &V : M.Values)
      if (V == Unbound)
        V = -1;
    if (!resultsStayInside(M))
      return MatchResult::NoMatch;
    if (P.Check && !P.Check(G, M, Why))
      return MatchResult::CheckFailed;
    return MatchResult::Matched;
  }

private:
  const ir::Graph &G;
  const GraphIndex &Index;
  const PatternDesc &P;
  llvm::function_ref<bool(size_t)> Excluded;
  std::vector<uint16_t> Worklist;

  /// Binds pattern node \p N to operator \p Op, or checks an earlier binding.
  bool bindNode(PatternMatch &M, uint16_t N, int32_t Op) {
    assert(N < P.NumNodes && "operand refers to a node the pattern lacks");
    if (M.Nodes[N] != -1)
      return M.Nodes[N] == Op;
    if (llvm::is_contained(M.Nodes, Op))
      return false;
    const ir::Operator &O = G.Operators[Op];
    if (!P.Nodes[N].matches(O.Type) || (Excluded && Excluded(Op)))
      return false;
    M.Nodes[N] = Op;
    Worklist.push_back(N);
    return true;
  }

  bool matchNode(PatternMatch &M, uint16_t N) {
    const PatternNodeDesc &Node = P.Nodes[N];
    const ir::Operator &O = G.Operators[M.Nodes[N]];
    for (size_t K = Node.NumOperands; K < O.Inputs.size(); ++K)
      if (O.Inputs[K] != -1)
        return false;
    for (uint16_t K = 0; K < Node.NumOperands; ++K) {
      const PatternOperand &A = Node.Operands[K];
      int32_t T = O.input(K);
      if (A.Node >= 0) {
        if (!G.isValidTensor(T) || Index.Writer[T] < 0 ||
            !bindNode(M, static_cast<uint16_t>(A.Node), Index.Writer[T]))
          return false;
      }
      if (A.Value >= 0) {
        assert(A.Value < P.NumValues && "operand refers to a missing value");
        int32_t &Bound = M.Values[A.Value];
        if (Bound == -2)
          Bound = T;
        else if (Bound != T)
          return false;
      }
    }
    return true;
  }

  /// The results of non-root nodes: no graph output, no capture, and read
  /// only through the pattern's own node-to-node operands.
  bool resultsStayInside(const PatternMatch &M) const {
    std::vector<std::pair<int32_t, uint32_t>> Edges; // tensor, pattern reads
    for (uint16_t N = 0; N < P.NumNodes; ++N) {
      const ir::Operator &O = G.Operators[M.Nodes[N]];
      for (uint16_t K = 0; K < P.Nodes[N].NumOperands; ++K) {
        if (P.Nodes[N].Operands[K].Node < 0)
          continue;
        int32_t T = O.input(K);
        auto It =
            llvm::find_if(Edges, [T](const auto &E) { return E.first == T; });
        if (It == Edges.end())
          Edges.emplace_back(T, 1);
        else
          ++It->second;
      }
    }
    for (uint16_t N = 1; N < P.NumNodes; ++N) {
      for (int32_t T : G.Operators[M.Nodes[N]].Outputs) {
        if (!G.isValidTensor(T) || Index.IsOutput[T] ||
            llvm::is_contained(M.Values, T))
          return false;
        auto It =
            llvm::find_if(Edges, [T](const auto &E) { return E.first == T; });
        uint32_t PatternReads = It == Edges.end() ? 0 : It->second;
        if (Index.Reads[T] != PatternReads)
          return false;
      }
    }
    return true;
  }
};

ir::Operator fusedOperator(const ir::Graph &G, const FoundMatch &F) {
  const PatternDesc &P = *F.Pattern;
  const PatternMatch &M = F.Match;
  const ir::Operator &Root = G.Operators[M.Nodes[0]];
  ir::Operator Op;
  Op.Type = P.resultOp(G, M).str();
  Op.Version = Root.Version;
  for (uint16_t I = 0; I < P.NumResultOperands; ++I) {
    int16_t V = P.ResultOperands[I];
    Op.Inputs.push_back(V < 0 ? -1 : M.Values[V]);
  }
  Op.Outputs = Root.Outputs;

  // Execution order; the root reads (through the others) every other
  // matched operator's result, so it comes last.
  std::vector<int32_t> Order(M.Nodes.begin(), M.Nodes.end());
  llvm::sort(Order);
  assert(Order.back() == M.Nodes[0] && "the root must run last");
  std::string Fused;
  for (int32_t I : Order) {
    const ir::Operator &O = G.Operators[I];
    for (const auto &[Name, Value] : O.Attrs)
      Op.Attrs[Name] = Value;
    Fused += (Fused.empty() ? "" : "+") +
             (O.hasAttr(FusedOpsAttr) ? O.getString(FusedOpsAttr) : O.Type);
  }
  Op.Attrs[FusedOpsAttr] = Fused;
  return Op;
}

} // namespace

std::optional<PatternMatch> matchPattern(const ir::Graph &G,
                                         const PatternDesc &P, size_t Root,
                                         std::vector<std::string> *Why) {
  if (Root >= G.Operators.size())
    return std::nullopt;
  GraphIndex Index(G);
  PatternMatch M;
  std::vector<std::string> Messages;
  MatchResult R = Matcher(G, Index, P, nullptr).run(Root, M, Messages);
  if (R == MatchResult::CheckFailed && Why)
    llvm::append_range(*Why, Messages);
  if (R != MatchResult::Matched)
    return std::nullopt;
  return M;
}

std::vector<FoundMatch>
findMatches(const ir::Graph &G, llvm::ArrayRef<PatternDesc> Patterns,
            unsigned Version, std::vector<MatchRejection> *Rejected,
            llvm::function_ref<bool(size_t OpIndex)> CanFuse) {
  GraphIndex Index(G);
  std::vector<bool> Taken(G.Operators.size(), false);
  auto Excluded = [&](size_t Op) {
    return Taken[Op] || (CanFuse && !CanFuse(Op));
  };
  std::vector<FoundMatch> Found;
  for (const PatternDesc &P : Patterns) {
    if (P.SinceVersion > Version || P.NumNodes == 0)
      continue;
    for (size_t Root = 0; Root < G.Operators.size(); ++Root) {
      if (!P.Nodes[0].matches(G.Operators[Root].Type) || Excluded(Root))
        continue;
      PatternMatch M;
      std::vector<std::string> Why;
      MatchResult R = Matcher(G, Index, P, Excluded).run(Root, M, Why);
      if (R == MatchResult::CheckFailed && Rejected)
        Rejected->push_back({&P, Root, std::move(Why)});
      if (R != MatchResult::Matched)
        continue;
      for (int32_t Op : M.Nodes)
        Taken[Op] = true;
      Found.push_back({&P, std::move(M)});
    }
  }
  return Found;
}

void applyMatches(ir::Graph &G, llvm::ArrayRef<FoundMatch> Matches) {
  std::vector<int32_t> RootOf(G.Operators.size(), -1);
  std::vector<bool> Erased(G.Operators.size(), false);
  std::vector<ir::Operator> Fused;
  for (size_t I = 0; I < Matches.size(); ++I) {
    const PatternMatch &M = Matches[I].Match;
    assert(RootOf[M.Nodes[0]] == -1 && !Erased[M.Nodes[0]] &&
           "matches overlap");
    RootOf[M.Nodes[0]] = static_cast<int32_t>(I);
    for (size_t N = 1; N < M.Nodes.size(); ++N) {
      assert(!Erased[M.Nodes[N]] && RootOf[M.Nodes[N]] == -1 &&
             "matches overlap");
      Erased[M.Nodes[N]] = true;
    }
    Fused.push_back(fusedOperator(G, Matches[I]));
  }
  std::vector<ir::Operator> Ops;
  Ops.reserve(G.Operators.size());
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Erased[I])
      continue;
    if (RootOf[I] >= 0)
      Ops.push_back(std::move(Fused[RootOf[I]]));
    else
      Ops.push_back(std::move(G.Operators[I]));
  }
  G.Operators = std::move(Ops);
}

size_t fusePatterns(ir::Graph &G, llvm::ArrayRef<PatternDesc> Patterns,
                    unsigned Version) {
  std::vector<FoundMatch> Matches = findMatches(G, Patterns, Version);
  applyMatches(G, Matches);
  return Matches.size();
}

} // namespace target
} // namespace accelgen
