//===- Verifier.cpp - Structural checks of the Graph IR --------------------===//
#include "ir/Verifier.h"

#include "ir/Calls.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>

namespace accelgen {
namespace ir {

namespace {

class GraphVerifier {
public:
  explicit GraphVerifier(const Graph &G) : G(G) {}

  std::vector<std::string> run() {
    if (!llvm::json::isUTF8(G.Name))
      report("graph name is not valid UTF-8");
    for (size_t I = 0; I < G.Tensors.size(); ++I)
      checkTensor(static_cast<int32_t>(I));
    checkGraphIO();
    for (size_t I = 0; I < G.Operators.size(); ++I)
      checkOperatorOperands(I);
    if (Problems.empty())
      checkOrder();
    return std::move(Problems);
  }

private:
  const Graph &G;
  std::vector<std::string> Problems;

  void report(std::string Msg) { Problems.push_back(std::move(Msg)); }

  /// "tensor 3 'name'"; invalid UTF-8 in the name is shown as U+FFFD, so
  /// that messages stay printable as text and as JSON.
  std::string tensorLoc(int32_t T) const {
    const std::string &Name = G.Tensors[T].Name;
    return llvm::formatv("tensor {0} '{1}'", T,
                         llvm::json::isUTF8(Name) ? Name
                                                  : llvm::json::fixUTF8(Name))
        .str();
  }
  std::string opLoc(size_t I) const {
    return llvm::formatv("operator {0} ({1})", I, G.Operators[I].Type).str();
  }

  void checkTensor(int32_t Index) {
    const Tensor &T = G.Tensors[Index];
    if (!llvm::json::isUTF8(T.Name))
      report(llvm::formatv("{0}: name is not valid UTF-8", tensorLoc(Index)));
    if (T.Shape.size() > MaxRank) {
      report(llvm::formatv("{0}: rank {1} exceeds the maximum of {2}",
                           tensorLoc(Index), T.Shape.size(), MaxRank));
      return;
    }
    for (size_t D = 0; D < T.Shape.size(); ++D)
      if (T.Shape[D] < 0) {
        report(llvm::formatv("{0}: dimension {1} is negative ({2})",
                             tensorLoc(Index), D, T.Shape[D]));
        return;
      }
    int64_t N = T.numElements();
    if (N > MaxElements) {
      report(llvm::formatv("{0}: shape {1} has more than {2} elements",
                           tensorLoc(Index), formatShape(T.Shape),
                           MaxElements));
      return;
    }
    if (T.IsConstant && static_cast<int64_t>(T.Data.size()) != T.byteSize())
      report(llvm::formatv(
          "{0}: constant data has {1} bytes, but shape {2} of {3} needs {4}",
          tensorLoc(Index), T.Data.size(), formatShape(T.Shape),
          dtypeName(T.Type), T.byteSize()));
    if (T.IsResource && (T.Type != DType::I32 || T.numElements() != 1 ||
                         T.IsConstant || T.Quant))
      report(llvm::formatv("{0}: a resource handle must be one int32, not "
                           "constant and not quantized",
                           tensorLoc(Index)));
    if (T.PackedInt4 &&
        (!T.IsConstant || T.Type != DType::I8 ||
         llvm::any_of(T.Data, [](uint8_t B) {
           return int8_t(B) < -8 || int8_t(B) > 7;
         })))
      report(llvm::formatv("{0}: packed int4 data must be constant int8 "
                           "values in [-8, 7]",
                           tensorLoc(Index)));
    if (T.Quant)
      checkQuant(Index, *T.Quant);
  }

  void checkQuant(int32_t Index, const QuantParams &Q) {
    const Tensor &T = G.Tensors[Index];
    if (Q.Scales.empty()) {
      report(llvm::formatv("{0}: quantization has no scale", tensorLoc(Index)));
      return;
    }
    if (Q.ZeroPoints.size() != Q.Scales.size())
      report(llvm::formatv("{0}: {1} scales but {2} zero points",
                           tensorLoc(Index), Q.Scales.size(),
                           Q.ZeroPoints.size()));
    for (float S : Q.Scales)
      if (!std::isfinite(S) || !(S > 0)) {
        // "%.9g" shows any float exactly; formatv's default would print a
        // scale of -1e-5 as "-0.00".
        report(llvm::formatv("{0}: quantization scale {1} is not a finite "
                             "positive number",
                             tensorLoc(Index), llvm::format("%.9g", S)));
        break;
      }
    // A zero point is a value of the tensor's type.
    if (T.Type == DType::I8 || T.Type == DType::U8 || T.Type == DType::I16) {
      const int64_t Lo = T.Type == DType::U8   ? 0
                         : T.Type == DType::I8 ? -128
                                               : -32768;
      const int64_t Hi = T.Type == DType::U8   ? 255
                         : T.Type == DType::I8 ? 127
                                               : 32767;
      for (int64_t ZP : Q.ZeroPoints)
        if (ZP < Lo || ZP > Hi) {
          report(llvm::formatv("{0}: zero point {1} is outside the range of "
                               "{2}",
                               tensorLoc(Index), ZP, dtypeName(T.Type)));
          break;
        }
    }
    if (!Q.isPerChannel())
      return;
    if (Q.Axis < 0 || static_cast<unsigned>(Q.Axis) >= T.rank()) {
      report(llvm::formatv("{0}: quantization axis {1} is out of range for "
                           "rank {2}",
                           tensorLoc(Index), Q.Axis, T.rank()));
      return;
    }
    if (static_cast<int64_t>(Q.Scales.size()) != T.Shape[Q.Axis])
      report(llvm::formatv("{0}: {1} per-channel scales, but dimension {2} "
                           "has {3} channels",
                           tensorLoc(Index), Q.Scales.size(), Q.Axis,
                           T.Shape[Q.Axis]));
  }

  void checkGraphIO() {
    for (int32_t T : G.Inputs)
      if (!G.isValidTensor(T))
        report(llvm::formatv("graph input {0} is out of range ({1} tensors)", T,
                             G.Tensors.size()));
    for (int32_t T : G.Outputs)
      if (!G.isValidTensor(T))
        report(llvm::formatv("graph output {0} is out of range ({1} tensors)",
                             T, G.Tensors.size()));
  }

  void checkOperatorOperands(size_t I) {
    const Operator &Op = G.Operators[I];
    if (!llvm::json::isUTF8(Op.CustomCode))
      report(llvm::formatv("{0}: custom code is not valid UTF-8", opLoc(I)));
    for (size_t K = 0; K < Op.Inputs.size(); ++K) {
      int32_t T = Op.Inputs[K];
      if (T != -1 && !G.isValidTensor(T))
        report(llvm::formatv("{0}: input {1} is tensor {2}, but the graph has "
                             "{3} tensors",
                             opLoc(I), K, T, G.Tensors.size()));
    }
    for (size_t K = 0; K < Op.Outputs.size(); ++K) {
      int32_t T = Op.Outputs[K];
      if (!G.isValidTensor(T))
        report(llvm::formatv("{0}: output {1} is tensor {2}, but the graph "
                             "has {3} tensors",
                             opLoc(I), K, T, G.Tensors.size()));
      else if (G.Tensors[T].IsConstant)
        report(llvm::formatv("{0}: output {1} is the constant {2}", opLoc(I), K,
                             tensorLoc(T)));
    }
  }

  /// Each tensor is written at most once, never a graph input, and every
  /// operator runs after the writers of what it reads. A cycle shows up as an
  /// operator reading a tensor its own descendants write.
  void checkOrder() {
    const size_t NumOps = G.Operators.size();
    std::vector<int64_t> Writer(G.Tensors.size(), -1);
    for (size_t I = 0; I < NumOps; ++I)
      for (int32_t T : G.Operators[I].Outputs) {
        if (Writer[T] != -1)
          report(llvm::formatv("{0}: writes {1}, already written by "
                               "operator {2}",
                               opLoc(I), tensorLoc(T), Writer[T]));
        else
          Writer[T] = static_cast<int64_t>(I);
      }
    for (int32_t T : G.Inputs)
      if (Writer[T] != -1)
        report(llvm::formatv("graph input {0} is written by operator {1}",
                             tensorLoc(T), Writer[T]));
    if (!Problems.empty())
      return;

    // An output nothing produces would hand back whatever its memory held.
    for (int32_t T : G.Outputs)
      if (Writer[T] == -1 && !G.Tensors[T].IsConstant &&
          std::find(G.Inputs.begin(), G.Inputs.end(), T) == G.Inputs.end())
        report(llvm::formatv("graph output {0} is written by no operator and "
                             "is neither a graph input nor a constant",
                             tensorLoc(T)));
    // Nor may an operator read one: TensorFlow Lite refuses such a model,
    // and it would read whatever the memory held. State (variable tensors)
    // starts from its declared value.
    for (size_t I = 0; I < NumOps; ++I) {
      const std::vector<int32_t> &Ins = G.Operators[I].Inputs;
      for (size_t K = 0; K < Ins.size(); ++K) {
        const int32_t T = Ins[K];
        if (T >= 0 && Writer[T] == -1 && !G.Tensors[T].IsConstant &&
            !G.Tensors[T].IsVariable &&
            std::find(G.Inputs.begin(), G.Inputs.end(), T) == G.Inputs.end())
          report(llvm::formatv("{0}: input {1} is {2}, which no operator "
                               "writes and which is neither a graph input "
                               "nor a constant",
                               opLoc(I), K, tensorLoc(T)));
      }
    }
    if (!Problems.empty())
      return;

    // Depth-first search over operator dependencies, to name a cycle if any.
    enum class Mark : uint8_t { None, Active, Done };
    std::vector<Mark> Marks(NumOps, Mark::None);
    std::vector<size_t> Path;
    for (size_t Root = 0; Root < NumOps && Problems.empty(); ++Root) {
      if (Marks[Root] != Mark::None)
        continue;
      // Explicit stack of (operator, next input position).
      std::vector<std::pair<size_t, size_t>> Stack{{Root, 0}};
      Marks[Root] = Mark::Active;
      while (!Stack.empty() && Problems.empty()) {
        auto &[Op, Pos] = Stack.back();
        const std::vector<int32_t> &Ins = G.Operators[Op].Inputs;
        if (Pos == Ins.size()) {
          Marks[Op] = Mark::Done;
          Stack.pop_back();
          continue;
        }
        int32_t T = Ins[Pos++];
        if (T < 0 || Writer[T] < 0)
          continue;
        size_t Dep = static_cast<size_t>(Writer[T]);
        if (Marks[Dep] == Mark::Active) {
          std::string Cycle;
          bool In = false;
          for (auto &Frame : Stack) {
            In = In || Frame.first == Dep;
            if (In)
              Cycle += std::to_string(Frame.first) + " -> ";
          }
          Cycle += std::to_string(Dep);
          report(llvm::formatv("operators form a cycle: {0}", Cycle));
        } else if (Marks[Dep] == Mark::None) {
          Marks[Dep] = Mark::Active;
          Stack.push_back({Dep, 0});
        }
      }
    }
    if (!Problems.empty())
      return;

    for (size_t I = 0; I < NumOps; ++I)
      for (int32_t T : G.Operators[I].Inputs)
        if (T >= 0 && Writer[T] > static_cast<int64_t>(I))
          report(llvm::formatv("{0}: reads {1} before operator {2} writes it",
                               opLoc(I), tensorLoc(T), Writer[T]));
  }
};

} // namespace

std::vector<std::string> verifyGraph(const Graph &G) {
  return GraphVerifier(G).run();
}

llvm::Error verifyModel(const Model &M) {
  std::string All;
  if (!llvm::json::isUTF8(M.Description))
    All = "model description is not valid UTF-8";
  for (size_t I = 0; I < M.Graphs.size(); ++I) {
    for (const std::string &P : verifyGraph(M.Graphs[I])) {
      if (!All.empty())
        All += "; ";
      All += llvm::formatv("graph {0}: {1}", I, P).str();
    }
  }
  // The graphs operators call, and the variables, once every graph is sound.
  if (All.empty())
    for (const std::string &P : verifyCalls(M))
      All += (All.empty() ? "" : "; ") + P;
  if (All.empty())
    if (llvm::Expected<VariableTable> V = modelVariables(M); !V)
      All = llvm::toString(V.takeError());
  if (All.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), All);
}

} // namespace ir
} // namespace accelgen
