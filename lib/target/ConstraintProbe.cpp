//===- ConstraintProbe.cpp - Generated tests of constraint checks ---------===//
#include "target/ConstraintProbe.h"

#include "target/ConstraintRuntime.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <map>

namespace accelgen {
namespace target {

namespace {

/// Ranks past this are not built.
constexpr int64_t MaxProbeRank = 64;

bool isAttr(ProbeRef::Kind K) { return K <= ProbeRef::AttrString; }
/// True for the properties of one operand or result.
bool isTensor(ProbeRef::Kind K) {
  return !isAttr(K) && K != ProbeRef::NumInputs && K != ProbeRef::NumOutputs;
}

/// The dtype a value stands for.
rt::MaybeDType dtypeOf(const ProbeValue &V) {
  if (V.Int == ProbeDTypeNone)
    return std::nullopt;
  return static_cast<ir::DType>(V.Int);
}

/// \p V of reference \p R as rejection messages show it.
std::string format(const ProbeRef &R, const ProbeValue &V) {
  switch (R.K) {
  case ProbeRef::AttrFloat:
  case ProbeRef::Scale:
    return rt::format(V.Float);
  case ProbeRef::AttrBool:
  case ProbeRef::IsConstant:
  case ProbeRef::PerChannel:
    return rt::format(V.Int != 0);
  case ProbeRef::AttrString:
    return rt::format(std::string(V.Str ? V.Str : ""));
  case ProbeRef::DType:
    return rt::format(dtypeOf(V));
  default:
    return rt::format(V.Int);
  }
}

/// What reference \p R reads as on operator 0 of \p G, formatted.
std::string readBack(const ir::Graph &G, const ProbeRef &R) {
  const ir::Operator &Op = G.Operators.front();
  const ir::Tensor *T = isAttr(R.K) ? nullptr
                        : R.Output  ? rt::outputTensor(G, Op, R.Index)
                                    : rt::inputTensor(G, Op, R.Index);
  switch (R.K) {
  case ProbeRef::AttrInt:
    return rt::format(rt::attrInt(Op, R.Name));
  case ProbeRef::AttrFloat:
    return rt::format(rt::attrFloat(Op, R.Name));
  case ProbeRef::AttrBool:
    return rt::format(rt::attrBool(Op, R.Name));
  case ProbeRef::AttrString:
    return rt::format(rt::attrString(Op, R.Name));
  case ProbeRef::DType:
    return rt::format(rt::tensorDType(T));
  case ProbeRef::Rank:
    return rt::format(rt::tensorRank(T));
  case ProbeRef::Dim:
    return rt::format(rt::tensorDim(T, R.Axis));
  case ProbeRef::Channels:
    return rt::format(rt::tensorChannels(T));
  case ProbeRef::IsConstant:
    return rt::format(rt::tensorIsConstant(T));
  case ProbeRef::Scale:
    return rt::format(rt::tensorScale(T));
  case ProbeRef::ZeroPoint:
    return rt::format(rt::tensorZeroPoint(T));
  case ProbeRef::PerChannel:
    return rt::format(rt::tensorPerChannel(T));
  case ProbeRef::NumElements:
    return rt::format(rt::tensorNumElements(T));
  case ProbeRef::NumInputs:
    return rt::format(rt::numInputs(Op));
  case ProbeRef::NumOutputs:
    return rt::format(rt::numOutputs(Op));
  }
  return "";
}

int32_t clampToInt32(int64_t V) {
  return static_cast<int32_t>(
      std::clamp<int64_t>(V, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

/// Tensor \p Index of one side, from the references' values \p Values.
ir::Tensor buildTensor(const ConstraintProbe &P, const ProbeValue *Values,
                       bool Output, unsigned Index) {
  ir::Tensor T;
  T.Name = llvm::formatv("{0}{1}", Output ? "output" : "input", Index);
  T.Type = ir::DType::I8;
  std::vector<unsigned> Mine;
  for (unsigned I = 0; I < P.NumRefs; ++I)
    if (isTensor(P.Refs[I].K) && P.Refs[I].Output == Output &&
        P.Refs[I].Index == Index)
      Mine.push_back(I);
  int64_t Rank = -1;
  for (unsigned I : Mine)
    if (P.Refs[I].K == ProbeRef::Rank)
      Rank = std::clamp<int64_t>(Values[I].Int, 0, MaxProbeRank);
  if (Rank < 0) {
    Rank = 4;
    for (unsigned I : Mine)
      if (P.Refs[I].K == ProbeRef::Dim)
        Rank = std::max<int64_t>(Rank, P.Refs[I].Axis < 0
                                           ? -int64_t(P.Refs[I].Axis)
                                           : int64_t(P.Refs[I].Axis) + 1);
    Rank = std::min(Rank, MaxProbeRank);
  }
  T.Shape.assign(static_cast<size_t>(Rank), 1);
  std::vector<bool> Set(static_cast<size_t>(Rank), false);
  bool Quantized = false, PerChannel = false;
  float Scale = 1.0f;
  int64_t ZeroPoint = 0;
  for (unsigned I : Mine) {
    const ProbeRef &R = P.Refs[I];
    const ProbeValue &V = Values[I];
    switch (R.K) {
    case ProbeRef::DType:
      if (dtypeOf(V))
        T.Type = *dtypeOf(V);
      break;
    case ProbeRef::Dim:
    case ProbeRef::Channels: {
      int64_t Axis = R.K == ProbeRef::Channels ? Rank - 1
                     : R.Axis < 0              ? R.Axis + Rank
                                               : R.Axis;
      if (Axis >= 0 && Axis < Rank) {
        T.Shape[static_cast<size_t>(Axis)] = clampToInt32(V.Int);
        Set[static_cast<size_t>(Axis)] = true;
      }
      break;
    }
    case ProbeRef::IsConstant:
      T.IsConstant = V.Int != 0;
      break;
    case ProbeRef::Scale:
      Quantized = true;
      Scale = static_cast<float>(V.Float);
      break;
    case ProbeRef::ZeroPoint:
      Quantized = true;
      ZeroPoint = V.Int;
      break;
    case ProbeRef::PerChannel:
      Quantized = true;
      PerChannel = V.Int != 0;
      break;
    default:
      break;
    }
  }
  // num_elements: the lowest axis no dim sets takes what the others leave.
  for (unsigned I : Mine) {
    if (P.Refs[I].K != ProbeRef::NumElements)
      continue;
    auto Free = std::find(Set.begin(), Set.end(), false);
    if (Free == Set.end())
      break;
    size_t Axis = static_cast<size_t>(Free - Set.begin());
    int64_t Others = 1;
    bool Overflow = false;
    for (size_t A = 0; A < T.Shape.size(); ++A)
      if (A != Axis)
        Overflow |= __builtin_mul_overflow(Others, int64_t(T.Shape[A]), &Others);
    if (!Overflow && Others > 0 && Values[I].Int % Others == 0)
      T.Shape[Axis] = clampToInt32(Values[I].Int / Others);
  }
  if (Quantized) {
    ir::QuantParams Q;
    Q.Scales.assign(PerChannel ? 2 : 1, Scale);
    Q.ZeroPoints.assign(PerChannel ? 2 : 1, ZeroPoint);
    Q.Axis = PerChannel && Rank > 0 ? static_cast<int32_t>(Rank - 1) : 0;
    T.Quant = Q;
  }
  return T;
}

} // namespace

ir::Graph probeGraph(const ConstraintProbe &P, const ProbeCase &Case) {
  const ProbeValue *Values = P.Values + Case.FirstValue;
  ir::Graph G;
  G.Name = P.Id;
  ir::Operator Op;
  Op.Type = "PROBE";
  unsigned NumInputs = 0, NumOutputs = 0;
  std::map<std::pair<bool, unsigned>, bool> Absent;
  for (unsigned I = 0; I < P.NumRefs; ++I) {
    const ProbeRef &R = P.Refs[I];
    const ProbeValue &V = Values[I];
    switch (R.K) {
    case ProbeRef::AttrInt:
      Op.Attrs[R.Name] = V.Int;
      continue;
    case ProbeRef::AttrFloat:
      Op.Attrs[R.Name] = V.Float;
      continue;
    case ProbeRef::AttrBool:
      Op.Attrs[R.Name] = V.Int != 0;
      continue;
    case ProbeRef::AttrString:
      Op.Attrs[R.Name] = std::string(V.Str ? V.Str : "");
      continue;
    case ProbeRef::NumInputs:
    case ProbeRef::NumOutputs: {
      unsigned &N = R.K == ProbeRef::NumOutputs ? NumOutputs : NumInputs;
      N = std::max(N, static_cast<unsigned>(
                          std::clamp<int64_t>(V.Int, 0, MaxProbeRank)));
      continue;
    }
    case ProbeRef::DType:
      if (!dtypeOf(V))
        Absent[{R.Output, R.Index}] = true;
      break;
    default:
      break;
    }
    unsigned &N = R.Output ? NumOutputs : NumInputs;
    N = std::max(N, static_cast<unsigned>(R.Index) + 1);
  }
  auto Add = [&](bool Output, unsigned Index) -> int32_t {
    if (Absent.count({Output, Index}))
      return -1;
    G.Tensors.push_back(buildTensor(P, Values, Output, Index));
    return static_cast<int32_t>(G.Tensors.size() - 1);
  };
  for (unsigned I = 0; I < NumInputs; ++I)
    Op.Inputs.push_back(Add(false, I));
  for (unsigned I = 0; I < NumOutputs; ++I)
    Op.Outputs.push_back(Add(true, I));
  G.Operators.push_back(std::move(Op));
  return G;
}

ProbeResult runConstraintProbe(const ConstraintProbe &P) {
  ProbeResult Result;
  const ProbeValue *Base = P.NumCases ? P.Values + P.Cases[0].FirstValue
                                      : nullptr;
  for (unsigned C = 0; C < P.NumCases; ++C) {
    const ProbeCase &Case = P.Cases[C];
    std::string Where = llvm::formatv("{0} with {1}", P.Id, Case.Label);
    if (Case.NotConstructible) {
      Result.NotConstructible.push_back(
          llvm::formatv("{0}: not constructible: {1}", Where,
                        Case.NotConstructible));
      continue;
    }
    const ProbeValue *Values = P.Values + Case.FirstValue;
    ir::Graph G = probeGraph(P, Case);
    bool Buildable = true;
    for (unsigned I = 0; I < P.NumRefs; ++I) {
      std::string Want = format(P.Refs[I], Values[I]);
      std::string Got = readBack(G, P.Refs[I]);
      if (Got != Want) {
        Result.Failures.push_back(llvm::formatv(
            "{0}: the table calls the case constructible, but {1} reads as "
            "{2}, not {3}",
            Where, P.Refs[I].Spelling, Got, Want));
        Buildable = false;
      }
    }
    if (!Buildable)
      continue;
    ++Result.Run;
    std::string Message;
    bool Holds = P.Check(G, G.Operators.front(), Message);
    if (Holds != Case.Accept) {
      Result.Failures.push_back(llvm::formatv(
          "{0}: `{1}` {2}, expected it to {3}{4}", Where, P.Expr,
          Holds ? "holds" : "fails", Case.Accept ? "hold" : "fail",
          Message.empty() ? "" : " (" + Message + ")"));
      continue;
    }
    if (Holds)
      continue;
    // The message shows every value the case changed from the base.
    for (unsigned I = 0; I < P.NumRefs; ++I) {
      std::string Value = format(P.Refs[I], Values[I]);
      if (Base && C != 0 && Value == format(P.Refs[I], Base[I]))
        continue;
      std::string Observed =
          llvm::formatv("{0} = {1}", P.Refs[I].Spelling, Value);
      if (Message.find(Observed) == std::string::npos)
        Result.Failures.push_back(llvm::formatv(
            "{0}: the rejection message \"{1}\" does not show \"{2}\"", Where,
            Message, Observed));
    }
  }
  return Result;
}

} // namespace target
} // namespace accelgen
