//===- ConstraintRuntime.cpp - What generated constraint checks call ------===//
//
// The out-of-line part of the accessors generated checks and cost estimates
// use: tensor lookup that tolerates absent operands, attribute reads, the
// multiply-accumulate count, float functions, and value formatting.
//
//===----------------------------------------------------------------------===//
#include "target/ConstraintRuntime.h"

#include "analysis/ModelStats.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace accelgen {
namespace target {

Captures::Captures(const PatternDesc &P, const PatternMatch &M) {
  for (unsigned N = 0; N < P.NumNodes && N < M.Nodes.size(); ++N)
    if (P.Nodes[N].Capture && P.Nodes[N].Capture[0] != '\0')
      bind(P.Nodes[N].Capture, M.Nodes[N]);
}

void Captures::bind(llvm::StringRef Name, int32_t OpIndex) {
  for (auto &B : Bound)
    if (B.first == Name) {
      B.second = OpIndex;
      return;
    }
  Bound.emplace_back(Name.str(), OpIndex);
}

int32_t Captures::index(llvm::StringRef Name) const {
  for (const auto &B : Bound)
    if (B.first == Name)
      return B.second;
  return -1;
}

const ir::Operator &Captures::op(const ir::Graph &G,
                                 llvm::StringRef Name) const {
  static const ir::Operator None;
  int32_t I = index(Name);
  if (I < 0 || static_cast<size_t>(I) >= G.Operators.size())
    return None;
  return G.Operators[I];
}

namespace rt {

int64_t attrInt(const ir::Operator &Op, llvm::StringRef Name) {
  return Op.getInt(Name, 0);
}

double attrFloat(const ir::Operator &Op, llvm::StringRef Name) {
  auto It = Op.Attrs.find(Name.str());
  if (It == Op.Attrs.end())
    return 0.0;
  if (const double *D = std::get_if<double>(&It->second))
    return *D;
  if (const int64_t *I = std::get_if<int64_t>(&It->second))
    return static_cast<double>(*I);
  return 0.0;
}

bool attrBool(const ir::Operator &Op, llvm::StringRef Name) {
  return Op.getBool(Name, false);
}

std::string attrString(const ir::Operator &Op, llvm::StringRef Name) {
  return Op.getString(Name, "");
}

static const ir::Tensor *tensorAt(const ir::Graph &G, int32_t Index) {
  return G.isValidTensor(Index) ? &G.Tensors[Index] : nullptr;
}

const ir::Tensor *inputTensor(const ir::Graph &G, const ir::Operator &Op,
                              unsigned I) {
  return tensorAt(G, Op.input(I));
}

const ir::Tensor *outputTensor(const ir::Graph &G, const ir::Operator &Op,
                               unsigned I) {
  return tensorAt(G, Op.output(I));
}

MaybeDType tensorDType(const ir::Tensor *T) {
  if (!T)
    return std::nullopt;
  return T->Type;
}

int64_t tensorRank(const ir::Tensor *T) { return T ? T->rank() : 0; }

int64_t tensorDim(const ir::Tensor *T, int64_t Axis) {
  if (!T)
    return 0;
  int64_t Rank = T->rank();
  if (Axis < 0)
    Axis += Rank;
  if (Axis < 0 || Axis >= Rank)
    return 0;
  return T->Shape[Axis];
}

int64_t tensorChannels(const ir::Tensor *T) { return tensorDim(T, -1); }

int64_t tensorNumElements(const ir::Tensor *T) {
  return T ? T->numElements() : 0;
}

bool tensorIsConstant(const ir::Tensor *T) { return T && T->IsConstant; }

double tensorScale(const ir::Tensor *T) {
  return T && T->Quant ? T->Quant->scale() : 0.0;
}

int64_t tensorZeroPoint(const ir::Tensor *T) {
  return T && T->Quant ? T->Quant->zeroPoint() : 0;
}

bool tensorPerChannel(const ir::Tensor *T) {
  return T && T->Quant && T->Quant->isPerChannel();
}

int64_t macs(const ir::Graph &G, const ir::Operator &Op) {
  return analysis::operatorMacs(G, Op);
}

double fmin(double A, double B) { return std::fmin(A, B); }
double fmax(double A, double B) { return std::fmax(A, B); }

/// \p X, already integral, as an int64 saturated to its range; 0 for NaN.
static int64_t saturate(double X) {
  if (std::isnan(X))
    return 0;
  // 2^63 is exactly representable; every double below it and at least
  // -2^63 converts without overflow.
  if (X >= 9223372036854775808.0)
    return INT64_MAX;
  if (X < -9223372036854775808.0)
    return INT64_MIN;
  return static_cast<int64_t>(X);
}

int64_t ceil(double X) { return saturate(std::ceil(X)); }
int64_t floor(double X) { return saturate(std::floor(X)); }

} // namespace rt
} // namespace target
} // namespace accelgen
