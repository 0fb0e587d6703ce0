//===- ModelStats.cpp - Work and memory figures of a graph -----------------===//
#include "analysis/ModelStats.h"

namespace accelgen {
namespace analysis {

namespace {

// Shapes come from files. Each tensor has fewer than 2^31 elements once
// verified, but products of two or three such counts, and their sums, can
// exceed int64: all arithmetic on counts saturates at INT64_MAX instead.

int64_t mulSat(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_mul_overflow(A, B, &R) ? INT64_MAX : R;
}

int64_t addSat(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_add_overflow(A, B, &R) ? INT64_MAX : R;
}

/// Shape of input \p I of \p Op, or an empty shape when it is absent.
const std::vector<int32_t> &inputShape(const ir::Graph &G,
                                       const ir::Operator &Op, unsigned I) {
  static const std::vector<int32_t> None;
  int32_t T = Op.input(I);
  return G.isValidTensor(T) ? G.tensor(T).Shape : None;
}

int64_t outputElements(const ir::Graph &G, const ir::Operator &Op) {
  int32_t T = Op.output(0);
  return G.isValidTensor(T) ? G.tensor(T).numElements() : 0;
}

int64_t product(const std::vector<int32_t> &Dims, size_t From, size_t To) {
  int64_t N = 1;
  for (size_t I = From; I < To && I < Dims.size(); ++I)
    N = mulSat(N, Dims[I]);
  return N;
}

/// Unidirectional sequence LSTM: per time step and batch, four gates each
/// apply an input weight matrix [cell x input] and a recurrent one
/// [cell x output], plus an optional projection [output x cell].
int64_t lstmMacs(const ir::Graph &G, const ir::Operator &Op) {
  const std::vector<int32_t> &In = inputShape(G, Op, 0);
  const std::vector<int32_t> &InToForget = inputShape(G, Op, 2);
  const std::vector<int32_t> &RecToForget = inputShape(G, Op, 6);
  if (In.size() != 3 || InToForget.size() != 2 || RecToForget.size() != 2)
    return 0;
  int64_t Steps = mulSat(In[0], In[1]);
  int64_t Cell = InToForget[0];
  int64_t PerStep = mulSat(
      4, addSat(mulSat(Cell, InToForget[1]), mulSat(Cell, RecToForget[1])));
  const std::vector<int32_t> &Proj = inputShape(G, Op, 16);
  if (Proj.size() == 2)
    PerStep = addSat(PerStep, mulSat(Proj[0], Proj[1]));
  return mulSat(Steps, PerStep);
}

} // namespace

int64_t operatorMacs(const ir::Graph &G, const ir::Operator &Op) {
  if (Op.Opaque)
    return 0;
  switch (Op.code()) {
  case ir::OpCode::Conv2D: {
    // Filter [out_c, kh, kw, in_c / groups].
    const std::vector<int32_t> &F = inputShape(G, Op, 1);
    return F.size() == 4 ? mulSat(outputElements(G, Op), product(F, 1, 4)) : 0;
  }
  case ir::OpCode::DepthwiseConv2D: {
    // Filter [1, kh, kw, out_c]: each output uses one kh x kw window.
    const std::vector<int32_t> &F = inputShape(G, Op, 1);
    return F.size() == 4 ? mulSat(outputElements(G, Op), product(F, 1, 3)) : 0;
  }
  case ir::OpCode::FullyConnected: {
    // Weights [units, depth]: each output value sums `depth` products.
    const std::vector<int32_t> &W = inputShape(G, Op, 1);
    return W.size() == 2 ? mulSat(outputElements(G, Op), W[1]) : 0;
  }
  case ir::OpCode::Conv3D: {
    // Filter [kd, kh, kw, in_c, out_c].
    const std::vector<int32_t> &F = inputShape(G, Op, 1);
    return F.size() == 5 ? mulSat(outputElements(G, Op), product(F, 0, 4)) : 0;
  }
  case ir::OpCode::TransposeConv: {
    // Inputs: output shape, filter [out_c, kh, kw, in_c], input. Every input
    // value is scattered through kh x kw x out_c weights.
    const std::vector<int32_t> &F = inputShape(G, Op, 1);
    const std::vector<int32_t> &In = inputShape(G, Op, 2);
    return F.size() == 4 && !In.empty()
               ? mulSat(product(In, 0, In.size()), product(F, 0, 3))
               : 0;
  }
  case ir::OpCode::UnidirectionalSequenceLSTM:
    return lstmMacs(G, Op);
  default:
    return 0;
  }
}

int64_t graphMacs(const ir::Graph &G) {
  int64_t Sum = 0;
  for (const ir::Operator &Op : G.Operators)
    Sum = addSat(Sum, operatorMacs(G, Op));
  return Sum;
}

int64_t activationBytes(const ir::Graph &G) {
  int64_t Sum = 0;
  for (const ir::Tensor &T : G.Tensors)
    if (!T.IsConstant)
      Sum = addSat(Sum, T.byteSize());
  return Sum;
}

int64_t constantBytes(const ir::Graph &G) {
  int64_t Sum = 0;
  for (const ir::Tensor &T : G.Tensors)
    if (T.IsConstant)
      Sum = addSat(Sum, T.byteSize());
  return Sum;
}

} // namespace analysis
} // namespace accelgen
