//===- ConstraintProbe.cpp - Boundary tests of generated constraint checks ===//
#include "target/ConstraintProbe.h"

#include "target/ConstraintRuntime.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>

namespace accelgen {
namespace target {

namespace {

/// Ranks past this are not built; a case asking for one is reported.
constexpr int64_t MaxProbeRank = 64;

bool isInput(ProbeRef::Kind K) {
  return K == ProbeRef::InputRank || K == ProbeRef::InputDim ||
         K == ProbeRef::InputChannels;
}

bool isRank(ProbeRef::Kind K) {
  return K == ProbeRef::InputRank || K == ProbeRef::OutputRank;
}
bool isDim(ProbeRef::Kind K) {
  return K == ProbeRef::InputDim || K == ProbeRef::OutputDim;
}
bool isChannels(ProbeRef::Kind K) {
  return K == ProbeRef::InputChannels || K == ProbeRef::OutputChannels;
}

int32_t clampToInt32(int64_t V) {
  return static_cast<int32_t>(
      std::clamp<int64_t>(V, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

/// The shape of operand or result \p Index (\p Input tells which) from the
/// references' values.
std::vector<int32_t> shapeOf(const ConstraintProbe &P,
                             const std::vector<int64_t> &Values, bool Input,
                             unsigned Index) {
  auto Mine = [&](const ProbeRef &R) {
    return R.K != ProbeRef::Attr && isInput(R.K) == Input && R.Index == Index;
  };
  int64_t Rank = 4;
  bool RankSet = false;
  for (unsigned I = 0; I < P.NumRefs; ++I)
    if (Mine(P.Refs[I]) && isRank(P.Refs[I].K)) {
      Rank = std::clamp<int64_t>(Values[I], 0, MaxProbeRank);
      RankSet = true;
    }
  if (!RankSet)
    for (unsigned I = 0; I < P.NumRefs; ++I)
      if (Mine(P.Refs[I]) && isDim(P.Refs[I].K))
        Rank = std::max<int64_t>(Rank, P.Refs[I].Axis < 0
                                           ? -int64_t(P.Refs[I].Axis)
                                           : int64_t(P.Refs[I].Axis) + 1);
  std::vector<int32_t> Shape(static_cast<size_t>(Rank), 1);
  for (unsigned I = 0; I < P.NumRefs; ++I) {
    const ProbeRef &R = P.Refs[I];
    if (!Mine(R))
      continue;
    if (isDim(R.K)) {
      int64_t Axis = R.Axis < 0 ? R.Axis + Rank : R.Axis;
      if (Axis >= 0 && Axis < Rank)
        Shape[static_cast<size_t>(Axis)] = clampToInt32(Values[I]);
    } else if (isChannels(R.K) && Rank > 0) {
      Shape.back() = clampToInt32(Values[I]);
    }
  }
  return Shape;
}

/// What reference \p R reads as on operator 0 of \p G.
int64_t readBack(const ir::Graph &G, const ProbeRef &R) {
  const ir::Operator &Op = G.Operators.front();
  switch (R.K) {
  case ProbeRef::Attr:
    return rt::attrInt(Op, R.Name);
  case ProbeRef::InputRank:
    return rt::inputRank(G, Op, R.Index);
  case ProbeRef::InputDim:
    return rt::inputDim(G, Op, R.Index, R.Axis);
  case ProbeRef::InputChannels:
    return rt::inputChannels(G, Op, R.Index);
  case ProbeRef::OutputRank:
    return rt::outputRank(G, Op, R.Index);
  case ProbeRef::OutputDim:
    return rt::outputDim(G, Op, R.Index, R.Axis);
  case ProbeRef::OutputChannels:
    return rt::outputChannels(G, Op, R.Index);
  }
  return 0;
}

} // namespace

ir::Graph probeGraph(const ConstraintProbe &P, const ProbeCase &Case) {
  std::vector<int64_t> Values;
  for (unsigned I = 0; I < P.NumRefs; ++I)
    Values.push_back(I == Case.Ref ? Case.Value : P.Refs[I].Accepted);

  unsigned NumInputs = 0, NumOutputs = 0;
  for (unsigned I = 0; I < P.NumRefs; ++I) {
    const ProbeRef &R = P.Refs[I];
    if (R.K == ProbeRef::Attr)
      continue;
    unsigned &N = isInput(R.K) ? NumInputs : NumOutputs;
    N = std::max(N, static_cast<unsigned>(R.Index) + 1);
  }

  ir::Graph G;
  G.Name = P.Id;
  ir::Operator Op;
  Op.Type = "PROBE";
  for (unsigned I = 0; I < P.NumRefs; ++I)
    if (P.Refs[I].K == ProbeRef::Attr)
      Op.Attrs[P.Refs[I].Name] = Values[I];
  auto AddTensor = [&](bool Input, unsigned Index) {
    ir::Tensor T;
    T.Name = llvm::formatv("{0}{1}", Input ? "input" : "output", Index);
    T.Type = ir::DType::I8;
    T.Shape = shapeOf(P, Values, Input, Index);
    G.Tensors.push_back(std::move(T));
    return static_cast<int32_t>(G.Tensors.size() - 1);
  };
  for (unsigned I = 0; I < NumInputs; ++I)
    Op.Inputs.push_back(AddTensor(true, I));
  for (unsigned I = 0; I < NumOutputs; ++I)
    Op.Outputs.push_back(AddTensor(false, I));
  G.Operators.push_back(std::move(Op));
  return G;
}

std::vector<std::string> runConstraintProbe(const ConstraintProbe &P) {
  std::vector<std::string> Failures;
  for (unsigned C = 0; C < P.NumCases; ++C) {
    const ProbeCase &Case = P.Cases[C];
    const ProbeRef &Probed = P.Refs[Case.Ref];
    std::string Where = llvm::formatv("{0} with {1} = {2}", P.Id,
                                      Probed.Spelling, Case.Value);
    ir::Graph G = probeGraph(P, Case);
    bool Buildable = true;
    for (unsigned I = 0; I < P.NumRefs; ++I) {
      int64_t Want = I == Case.Ref ? Case.Value : P.Refs[I].Accepted;
      int64_t Got = readBack(G, P.Refs[I]);
      if (Got != Want) {
        Failures.push_back(llvm::formatv("{0}: cannot build the case, {1} "
                                         "reads as {2}, not {3}",
                                         Where, P.Refs[I].Spelling, Got, Want));
        Buildable = false;
      }
    }
    if (!Buildable)
      continue;
    std::string Message;
    bool Holds = P.Check(G, G.Operators.front(), Message);
    if (Holds != Case.Accept) {
      Failures.push_back(llvm::formatv(
          "{0}: `{1}` {2}, expected it to {3}{4}", Where, P.Expr,
          Holds ? "holds" : "fails", Case.Accept ? "hold" : "fail",
          Message.empty() ? "" : " (" + Message + ")"));
      continue;
    }
    std::string Observed =
        llvm::formatv("{0} = {1}", Probed.Spelling, Case.Value);
    if (!Holds && Message.find(Observed) == std::string::npos)
      Failures.push_back(llvm::formatv(
          "{0}: the rejection message \"{1}\" does not show \"{2}\"", Where,
          Message, Observed));
  }
  return Failures;
}

} // namespace target
} // namespace accelgen
