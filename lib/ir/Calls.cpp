//===- Calls.cpp - The graphs operators call, and the model's variables ---===//
#include "ir/Calls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

namespace accelgen {
namespace ir {

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

std::string opLoc(size_t G, size_t I, const Operator &Op) {
  return llvm::formatv("graph {0}, operator {1} ({2})", G, I, Op.Type).str();
}

/// "tensor 3 'x' (i8 [1x4])".
std::string tensorText(const Graph &G, int32_t T) {
  if (!G.isValidTensor(T))
    return llvm::formatv("tensor {0}", T).str();
  const Tensor &Ten = G.tensor(T);
  return llvm::formatv("tensor {0} '{1}' ({2} {3})", T, Ten.Name,
                       dtypeName(Ten.Type), formatShape(Ten.Shape))
      .str();
}

/// Checks that the caller's tensors \p Mine (of graph \p G) can be copied
/// to or from the tensors \p Theirs of graph \p Callee (index \p K).
void checkCopies(const Graph &G, llvm::ArrayRef<int32_t> Mine,
                 llvm::StringRef MyWord, const Graph &Callee, size_t K,
                 llvm::ArrayRef<int32_t> Theirs, llvm::StringRef TheirWord,
                 const std::string &Loc, std::vector<std::string> &Problems) {
  if (Mine.size() != Theirs.size()) {
    Problems.push_back(llvm::formatv("{0}: has {1} {2}s but graph {3} has "
                                     "{4} {5}s",
                                     Loc, Mine.size(), MyWord, K,
                                     Theirs.size(), TheirWord));
    return;
  }
  for (size_t J = 0; J < Mine.size(); ++J) {
    if (!G.isValidTensor(Mine[J]) || !Callee.isValidTensor(Theirs[J]))
      continue; // The graph verifier reports it.
    const Tensor &A = G.tensor(Mine[J]);
    const Tensor &B = Callee.tensor(Theirs[J]);
    if (A.Type != B.Type || A.byteSize() != B.byteSize())
      Problems.push_back(llvm::formatv(
          "{0}: {1} {2}, {3}, is copied to or from {4} {2} of graph {5}, "
          "{6}, which differs in element type or size",
          Loc, MyWord, J, tensorText(G, Mine[J]), TheirWord, K,
          tensorText(Callee, Theirs[J])));
  }
}

/// True when tensor \p T of \p G is one bool.
bool isOneBool(const Graph &G, int32_t T) {
  return G.isValidTensor(T) && G.tensor(T).Type == DType::Bool &&
         G.tensor(T).numElements() == 1;
}

} // namespace

std::vector<int64_t> calledGraphs(const Operator &Op) {
  switch (Op.code()) {
  case OpCode::If:
    return {Op.getInt(attr::ThenSubgraph, -1),
            Op.getInt(attr::ElseSubgraph, -1)};
  case OpCode::While:
    return {Op.getInt(attr::CondSubgraph, -1),
            Op.getInt(attr::BodySubgraph, -1)};
  case OpCode::CallOnce:
    return {Op.getInt(attr::InitSubgraph, -1)};
  default:
    return {};
  }
}

std::vector<size_t> reachableGraphs(const Model &M, const Graph &From) {
  std::set<size_t> Seen;
  std::vector<const Graph *> Work = {&From};
  while (!Work.empty()) {
    const Graph *G = Work.back();
    Work.pop_back();
    for (const Operator &Op : G->Operators)
      for (int64_t K : calledGraphs(Op))
        if (K > 0 && static_cast<size_t>(K) < M.Graphs.size() &&
            Seen.insert(static_cast<size_t>(K)).second)
          Work.push_back(&M.Graphs[static_cast<size_t>(K)]);
  }
  return {Seen.begin(), Seen.end()};
}

std::vector<std::string> verifyCalls(const Model &M) {
  std::vector<std::string> Problems;
  const size_t N = M.Graphs.size();
  std::vector<std::vector<size_t>> Calls(N);
  for (size_t G = 0; G < N; ++G) {
    const Graph &Gr = M.Graphs[G];
    for (size_t I = 0; I < Gr.Operators.size(); ++I) {
      const Operator &Op = Gr.Operators[I];
      std::vector<int64_t> Called = calledGraphs(Op);
      if (Called.empty())
        continue;
      const std::string Loc = opLoc(G, I, Op);
      bool Valid = true;
      for (int64_t K : Called)
        if (K < 1 || K >= static_cast<int64_t>(N)) {
          Problems.push_back(llvm::formatv(
              "{0}: calls graph {1}, which is not a graph it can call (the "
              "model has {2}; graph 0, the main one, is never called)",
              Loc, K, N));
          Valid = false;
        } else {
          Calls[G].push_back(static_cast<size_t>(K));
        }
      if (!Valid)
        continue;
      auto Callee = [&](size_t Which) -> const Graph & {
        return M.Graphs[static_cast<size_t>(Called[Which])];
      };
      auto Index = [&](size_t Which) {
        return static_cast<size_t>(Called[Which]);
      };
      switch (Op.code()) {
      case OpCode::If: {
        if (!isOneBool(Gr, Op.input(0)))
          Problems.push_back(llvm::formatv(
              "{0}: its condition, {1}, must be one bool", Loc,
              tensorText(Gr, Op.input(0))));
        llvm::ArrayRef<int32_t> Operands(Op.Inputs);
        Operands = Operands.drop_front(std::min<size_t>(1, Operands.size()));
        for (size_t W = 0; W < 2; ++W) {
          checkCopies(Gr, Operands, "operand", Callee(W), Index(W),
                      Callee(W).Inputs, "input", Loc, Problems);
          checkCopies(Gr, Op.Outputs, "result", Callee(W), Index(W),
                      Callee(W).Outputs, "output", Loc, Problems);
        }
        break;
      }
      case OpCode::While: {
        checkCopies(Gr, Op.Inputs, "operand", Callee(0), Index(0),
                    Callee(0).Inputs, "input", Loc, Problems);
        if (Callee(0).Outputs.size() != 1 ||
            !isOneBool(Callee(0), Callee(0).Outputs[0]))
          Problems.push_back(llvm::formatv(
              "{0}: its condition graph {1} must have one output, one bool",
              Loc, Index(0)));
        checkCopies(Gr, Op.Inputs, "operand", Callee(1), Index(1),
                    Callee(1).Inputs, "input", Loc, Problems);
        checkCopies(Gr, Op.Outputs, "result", Callee(1), Index(1),
                    Callee(1).Outputs, "output", Loc, Problems);
        if (Op.Inputs.size() == Op.Outputs.size())
          for (size_t J = 0; J < Op.Inputs.size(); ++J) {
            int32_t A = Op.Inputs[J], B = Op.Outputs[J];
            if (Gr.isValidTensor(A) && Gr.isValidTensor(B) &&
                (Gr.tensor(A).Type != Gr.tensor(B).Type ||
                 Gr.tensor(A).byteSize() != Gr.tensor(B).byteSize()))
              Problems.push_back(llvm::formatv(
                  "{0}: operand {1}, {2}, and result {1}, {3}, differ in "
                  "element type or size",
                  Loc, J, tensorText(Gr, A), tensorText(Gr, B)));
          }
        else
          Problems.push_back(llvm::formatv(
              "{0}: has {1} operands but {2} results; they must be as many",
              Loc, Op.Inputs.size(), Op.Outputs.size()));
        break;
      }
      default: // CALL_ONCE
        if (!Callee(0).Inputs.empty() || !Callee(0).Outputs.empty())
          Problems.push_back(llvm::formatv(
              "{0}: its graph {1} must have no inputs and no outputs (it "
              "has {2} and {3})",
              Loc, Index(0), Callee(0).Inputs.size(),
              Callee(0).Outputs.size()));
        break;
      }
    }
  }
  // No graph may call itself: a depth-first walk from every graph, with a
  // stack of its own (a file may chain more graphs than the C++ stack
  // holds calls). Path holds each open graph and how many of its calls are
  // walked.
  enum class Mark { None, Open, Done };
  std::vector<Mark> Marks(N, Mark::None);
  std::vector<std::pair<size_t, size_t>> Path;
  for (size_t Root = 0; Root < N; ++Root) {
    if (Marks[Root] != Mark::None)
      continue;
    Marks[Root] = Mark::Open;
    Path.push_back({Root, 0});
    while (!Path.empty()) {
      auto &[G, Next] = Path.back();
      if (Next == Calls[G].size()) {
        Marks[G] = Mark::Done;
        Path.pop_back();
        continue;
      }
      const size_t K = Calls[G][Next++];
      if (Marks[K] == Mark::Open) {
        std::string Cycle;
        bool In = false;
        for (const auto &Step : Path) {
          In = In || Step.first == K;
          if (In)
            Cycle += std::to_string(Step.first) + " -> ";
        }
        Problems.push_back(llvm::formatv("graph {0} calls itself ({1}{0})", K,
                                         Cycle));
        return Problems;
      }
      if (Marks[K] == Mark::None) {
        Marks[K] = Mark::Open;
        Path.push_back({K, 0});
      }
    }
  }
  return Problems;
}

int32_t VariableTable::find(const Operator &Handle) const {
  auto It = ByName.find({Handle.getString(attr::Container),
                         Handle.getString(attr::SharedName)});
  return It == ByName.end() ? -1 : It->second;
}

std::map<int32_t, int32_t> VariableTable::handles(const Graph &G) const {
  std::map<int32_t, int32_t> Handles;
  for (const Operator &Op : G.Operators)
    if (Op.code() == OpCode::VarHandle)
      if (int32_t V = find(Op); V >= 0)
        Handles[Op.output(0)] = V;
  return Handles;
}

llvm::Expected<VariableTable> modelVariables(const Model &M) {
  VariableTable Table;
  auto &ByName = Table.ByName;
  std::vector<bool> Assigned;
  struct Read {
    size_t G, Op;
    int32_t Var;
    int64_t Bytes;
  };
  std::vector<Read> Reads;
  for (size_t G = 0; G < M.Graphs.size(); ++G) {
    const Graph &Gr = M.Graphs[G];
    // The variable each handle tensor of this graph names.
    std::map<int32_t, int32_t> Handles;
    for (size_t I = 0; I < Gr.Operators.size(); ++I) {
      const Operator &Op = Gr.Operators[I];
      const OpCode Code = Op.code();
      if (Code == OpCode::VarHandle) {
        auto Key = std::make_pair(Op.getString(attr::Container),
                                  Op.getString(attr::SharedName));
        auto [It, New] = ByName.try_emplace(
            Key, static_cast<int32_t>(Table.Variables.size()));
        if (New) {
          Table.Variables.push_back({Key.first, Key.second, 0, 0});
          Assigned.push_back(false);
        }
        Handles[Op.output(0)] = It->second;
        continue;
      }
      if (Code != OpCode::ReadVariable && Code != OpCode::AssignVariable)
        continue;
      auto H = Handles.find(Op.input(0));
      if (H == Handles.end())
        return makeError(llvm::formatv(
            "{0}: its resource handle, {1}, is not written by a VAR_HANDLE "
            "of graph {2}; handles passed between graphs are not supported",
            opLoc(G, I, Op), tensorText(Gr, Op.input(0)), G));
      const int32_t V = H->second;
      Variable &Var = Table.Variables[V];
      if (Code == OpCode::ReadVariable) {
        Reads.push_back({G, I, V, Gr.tensor(Op.output(0)).byteSize()});
        continue;
      }
      const Tensor &Value = Gr.tensor(Op.input(1));
      if (!Assigned[V]) {
        Assigned[V] = true;
        Var.Bytes = Value.byteSize();
        Var.Fill = Value.Quant ? static_cast<uint8_t>(Value.Quant->zeroPoint())
                               : 0;
      } else if (Value.byteSize() != Var.Bytes) {
        return makeError(llvm::formatv(
            "{0}: assigns {1} bytes ({2}) to variable '{3}', which holds {4}",
            opLoc(G, I, Op), Value.byteSize(), tensorText(Gr, Op.input(1)),
            Var.SharedName, Var.Bytes));
      }
    }
  }
  for (const Read &R : Reads) {
    const Variable &Var = Table.Variables[R.Var];
    const std::string Loc =
        opLoc(R.G, R.Op, M.Graphs[R.G].Operators[R.Op]);
    if (!Assigned[R.Var])
      return makeError(llvm::formatv("{0}: reads variable '{1}', which no "
                                     "ASSIGN_VARIABLE of the model assigns",
                                     Loc, Var.SharedName));
    if (R.Bytes != Var.Bytes)
      return makeError(llvm::formatv("{0}: reads {1} bytes of variable "
                                     "'{2}', which holds {3}",
                                     Loc, R.Bytes, Var.SharedName, Var.Bytes));
  }
  return Table;
}

} // namespace ir
} // namespace accelgen
