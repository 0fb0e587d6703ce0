//===- Quantize.cpp - Comparing and requantizing quantization parameters --===//
//
// Requantize operators are placed immediately next to the operator they serve:
// one before it reads a tensor that is already written (the operator reads
// it), one after it reads what the operator just wrote, so the operator order
// stays topological without reordering anything else.
//
//===----------------------------------------------------------------------===//
#include "target/Quantize.h"
#include "target/QuantRules.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <set>

namespace accelgen {
namespace target {

bool scalesClose(double A, double B) {
  return std::fabs(A - B) <=
         QuantScaleTolerance * std::max(std::fabs(A), std::fabs(B));
}

bool sameQuantParams(const ir::QuantParams &A, const ir::QuantParams &B) {
  if (A.Scales.size() != B.Scales.size() ||
      A.ZeroPoints.size() != B.ZeroPoints.size())
    return false;
  if (A.isPerChannel() && A.Axis != B.Axis)
    return false;
  for (size_t I = 0; I < A.Scales.size(); ++I)
    if (!scalesClose(A.Scales[I], B.Scales[I]))
      return false;
  return A.ZeroPoints == B.ZeroPoints;
}

bool sameQuant(const ir::Tensor &A, const ir::Tensor &B) {
  if (!A.Quant || !B.Quant)
    return !A.Quant && !B.Quant;
  return sameQuantParams(*A.Quant, *B.Quant);
}

bool quantFits(const ir::Tensor &T, const ir::QuantParams &Q) {
  if (Q.Scales.empty() || Q.ZeroPoints.size() != Q.Scales.size())
    return false;
  if (!Q.isPerChannel())
    return true;
  return Q.Axis >= 0 && static_cast<unsigned>(Q.Axis) < T.rank() &&
         static_cast<int64_t>(Q.Scales.size()) == T.Shape[Q.Axis];
}

std::string formatScale(double S) {
  // Seven significant digits tell float32 scales apart in a message without
  // printing rounding noise.
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.7g", S);
  return Buf;
}

namespace {

template <typename T, typename Fn>
std::string formatList(const std::vector<T> &Values, Fn Format) {
  constexpr size_t Shown = 4;
  std::string S = "[";
  for (size_t I = 0; I < Values.size() && I < Shown; ++I)
    S += (I ? ", " : "") + Format(Values[I]);
  if (Values.size() > Shown)
    S += llvm::formatv(", ... ({0} in all)", Values.size()).str();
  return S + "]";
}

/// A tensor name not used yet in \p G, derived from \p Base.
std::string uniqueTensorName(const ir::Graph &G, const std::string &Base) {
  std::set<llvm::StringRef> Used;
  for (const ir::Tensor &T : G.Tensors)
    Used.insert(T.Name);
  if (!Used.count(Base))
    return Base;
  for (unsigned N = 1;; ++N) {
    std::string Name = Base + "_" + std::to_string(N);
    if (!Used.count(Name))
      return Name;
  }
}

/// Appends a non-constant tensor shaped like \p Like with \p Params.
int32_t addTensorLike(ir::Graph &G, int32_t Like, llvm::StringRef Suffix,
                      const ir::QuantParams &Params) {
  ir::Tensor T;
  T.Name = uniqueTensorName(G, G.tensor(Like).Name + Suffix.str());
  T.Shape = G.tensor(Like).Shape;
  T.Type = G.tensor(Like).Type;
  T.Quant = Params;
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

ir::Operator makeRequantize(int32_t From, int32_t To, llvm::StringRef Rule) {
  ir::Operator Op;
  Op.Type = ir::opName(ir::OpCode::Requantize).str();
  Op.Inputs = {From};
  Op.Outputs = {To};
  Op.Attrs[QuantRuleAttr] = Rule.str();
  return Op;
}

} // namespace

std::string describeQuant(llvm::StringRef Where, const ir::QuantParams &Q) {
  if (!Q.isPerChannel())
    return llvm::formatv("{0}.scale = {1}, {0}.zero_point = {2}", Where,
                         formatScale(Q.scale()), Q.zeroPoint());
  return llvm::formatv(
      "{0}.scale = {1}, {0}.zero_point = {2} (per channel, axis {3})", Where,
      formatList(Q.Scales, [](float S) { return formatScale(S); }),
      formatList(Q.ZeroPoints, [](int64_t Z) { return std::to_string(Z); }),
      Q.Axis);
}

std::string describeQuant(llvm::StringRef Where, const ir::Tensor &T) {
  if (!T.Quant)
    return (Where + " is not quantized").str();
  return describeQuant(Where, *T.Quant);
}

int32_t insertRequantizeBefore(ir::Graph &G, size_t &OpIndex, unsigned InputPos,
                               const ir::QuantParams &Params,
                               llvm::StringRef Rule) {
  int32_t Old = G.Operators.at(OpIndex).Inputs.at(InputPos);
  assert(Old >= 0 && "requantizing an omitted operand");
  int32_t New = addTensorLike(G, Old, "/requantized", Params);
  for (int32_t &In : G.Operators[OpIndex].Inputs)
    if (In == Old)
      In = New;
  G.Operators.insert(G.Operators.begin() + OpIndex,
                     makeRequantize(Old, New, Rule));
  ++OpIndex;
  return New;
}

int32_t insertRequantizeAfter(ir::Graph &G, size_t OpIndex, unsigned OutputPos,
                              const ir::QuantParams &Params,
                              llvm::StringRef Rule) {
  int32_t Old = G.Operators.at(OpIndex).Outputs.at(OutputPos);
  int32_t New = addTensorLike(G, Old, "/pre_requantize", Params);
  G.Operators[OpIndex].Outputs[OutputPos] = New;
  G.Operators.insert(G.Operators.begin() + OpIndex + 1,
                     makeRequantize(New, Old, Rule));
  return New;
}

bool isInsertedRequantize(const ir::Operator &Op) {
  return Op.code() == ir::OpCode::Requantize && Op.hasAttr(QuantRuleAttr);
}

QuantCheckpoint::QuantCheckpoint(const ir::Graph &G, size_t OpIndex)
    : Index(OpIndex), NumOperators(G.Operators.size()),
      NumTensors(G.Tensors.size()), Saved(G.Operators.at(OpIndex)) {
  std::set<int32_t> Seen;
  auto Save = [&](int32_t T) {
    if (G.isValidTensor(T) && Seen.insert(T).second)
      SavedQuant.emplace_back(T, G.tensor(T).Quant);
  };
  for (int32_t T : Saved.Inputs)
    Save(T);
  for (int32_t T : Saved.Outputs)
    Save(T);
}

void QuantCheckpoint::restore(ir::Graph &G, size_t &OpIndex) const {
  size_t Inserted = numInserted(G);
  assert(G.Tensors.size() >= NumTensors && "tensors were removed");
  auto First = G.Operators.begin() + Index;
  G.Operators.erase(First, First + Inserted + 1);
  G.Operators.insert(G.Operators.begin() + Index, Saved);
  G.Tensors.resize(NumTensors);
  for (const auto &[T, Quant] : SavedQuant)
    G.tensor(T).Quant = Quant;
  OpIndex = Index;
}

} // namespace target
} // namespace accelgen
