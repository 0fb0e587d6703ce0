//===- ModelMutator.cpp - Structured mutations of TensorFlow Lite models --===//
#include "ModelMutator.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/Support/Endian.h"

#include <cmath>
#include <iterator>
#include <limits>

namespace accelgen {
namespace fuzz {

namespace {

template <typename T, size_t N> T pick(Random &R, const T (&Values)[N]) {
  return Values[R.below(N)];
}

/// Values a converter should never write, and ordinary ones, for each kind.
const float Scales[] = {0.0f,
                        -1.0f,
                        1e-45f,
                        3e38f,
                        1e5f,
                        1e-3f,
                        0.02f,
                        1.0f,
                        std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()};
const int64_t ZeroPoints[] = {0, -128, 127, 128, -129, 255, 300, -70000};
const int32_t Dims[] = {0, 1, 2, 3, 7, 64, 1 << 16, 1 << 30};
const int64_t Ints[] = {0,
                        -1,
                        1,
                        2,
                        3,
                        7,
                        31,
                        32,
                        1 << 20,
                        std::numeric_limits<int32_t>::max(),
                        std::numeric_limits<int32_t>::min()};
const int64_t Wide[] = {
    (int64_t(1) << 32) + 1, -(int64_t(1) << 32), int64_t(1) << 40, -1, 0, 1};
const double Floats[] = {0.0,
                         -1.0,
                         1e-30,
                         1e30,
                         0.5,
                         std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()};

int32_t anyTensor(const ir::Graph &G, Random &R) {
  return G.Tensors.empty() ? -1
                           : static_cast<int32_t>(R.below(G.Tensors.size()));
}

ir::Operator *anyOperator(ir::Graph &G, Random &R) {
  return G.Operators.empty() ? nullptr
                             : &G.Operators[R.below(G.Operators.size())];
}

void mutateQuant(ir::Graph &G, Random &R) {
  int32_t T = anyTensor(G, R);
  if (T < 0 || !G.Tensors[T].Quant)
    return;
  ir::QuantParams &Q = *G.Tensors[T].Quant;
  if (Q.Scales.empty())
    return;
  if (R.below(2))
    Q.Scales[R.below(Q.Scales.size())] = pick(R, Scales);
  else if (!Q.ZeroPoints.empty())
    Q.ZeroPoints[R.below(Q.ZeroPoints.size())] = pick(R, ZeroPoints);
}

void mutateShape(ir::Graph &G, Random &R) {
  int32_t T = anyTensor(G, R);
  if (T < 0 || G.Tensors[T].IsConstant || G.Tensors[T].Shape.empty())
    return;
  std::vector<int32_t> &S = G.Tensors[T].Shape;
  S[R.below(S.size())] = pick(R, Dims);
}

void mutateIntAttr(ir::Graph &G, Random &R) {
  ir::Operator *Op = anyOperator(G, R);
  if (!Op || Op->Attrs.empty())
    return;
  auto It = std::next(Op->Attrs.begin(), R.below(Op->Attrs.size()));
  if (std::holds_alternative<int64_t>(It->second))
    It->second = pick(R, Ints);
  else if (std::holds_alternative<double>(It->second))
    It->second = pick(R, Floats);
  else if (auto *V = std::get_if<std::vector<int64_t>>(&It->second))
    if (!V->empty())
      (*V)[R.below(V->size())] = pick(R, Ints);
}

/// An int32 or int64 constant (shapes, axes, begins, paddings) gets a value
/// that needs 64 bits, or an ordinary one.
void mutateIntConstant(ir::Graph &G, Random &R) {
  std::vector<int32_t> Candidates;
  for (size_t I = 0; I < G.Tensors.size(); ++I) {
    const ir::Tensor &T = G.Tensors[I];
    if (T.IsConstant && !T.Data.empty() &&
        (T.Type == ir::DType::I32 || T.Type == ir::DType::I64))
      Candidates.push_back(static_cast<int32_t>(I));
  }
  if (Candidates.empty())
    return;
  ir::Tensor &T = G.Tensors[Candidates[R.below(Candidates.size())]];
  if (T.Type == ir::DType::I64) {
    size_t N = T.Data.size() / 8;
    llvm::support::endian::write64le(T.Data.data() + 8 * R.below(N),
                                     static_cast<uint64_t>(pick(R, Wide)));
  } else {
    size_t N = T.Data.size() / 4;
    llvm::support::endian::write32le(T.Data.data() + 4 * R.below(N),
                                     static_cast<uint32_t>(pick(R, Ints)));
  }
}

void mutateOperand(ir::Graph &G, Random &R) {
  ir::Operator *Op = anyOperator(G, R);
  if (!Op)
    return;
  switch (R.below(4)) {
  case 0:
    if (!Op->Inputs.empty())
      Op->Inputs[R.below(Op->Inputs.size())] =
          R.below(4) ? anyTensor(G, R) : -1;
    break;
  case 1:
    Op->Inputs.push_back(anyTensor(G, R));
    break;
  case 2:
    if (!Op->Inputs.empty())
      Op->Inputs.pop_back();
    break;
  default:
    Op->Version = static_cast<int32_t>(pick(R, Ints));
    break;
  }
}

/// Puts a PAD in front of an operator's first input: usually paddings that
/// fit the new shape (1 to 3 rows and columns on each side), sometimes not.
void insertPad(ir::Graph &G, Random &R) {
  if (G.Operators.empty())
    return;
  const size_t At = R.below(G.Operators.size());
  const int32_t In = G.Operators[At].input(0);
  if (!G.isValidTensor(In) || G.tensor(In).rank() != 4 ||
      G.tensor(In).IsConstant)
    return;
  int32_t Pads[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int D = 2; D < 6; ++D)
    Pads[D] = static_cast<int32_t>(R.below(4));
  ir::Tensor Padded = G.tensor(In);
  Padded.Name += "_padded";
  Padded.Shape[1] += Pads[2] + Pads[3];
  Padded.Shape[2] += Pads[4] + Pads[5];
  if (R.below(4) == 0)
    Pads[R.below(8)] = static_cast<int32_t>(pick(R, Ints));
  ir::Tensor Paddings;
  Paddings.Name = "paddings";
  Paddings.Shape = {4, 2};
  Paddings.Type = ir::DType::I32;
  Paddings.IsConstant = true;
  Paddings.Data.resize(32);
  for (int I = 0; I < 8; ++I)
    llvm::support::endian::write32le(Paddings.Data.data() + 4 * I,
                                     static_cast<uint32_t>(Pads[I]));
  G.Tensors.push_back(std::move(Padded));
  const int32_t Out = static_cast<int32_t>(G.Tensors.size() - 1);
  G.Tensors.push_back(std::move(Paddings));
  ir::Operator Pad;
  Pad.Type = "PAD";
  Pad.Inputs = {In, static_cast<int32_t>(G.Tensors.size() - 1)};
  Pad.Outputs = {Out};
  G.Operators[At].Inputs[0] = Out;
  G.Operators.insert(G.Operators.begin() + At, std::move(Pad));
}

void mutateGraph(ir::Graph &G, Random &R) {
  switch (R.below(4)) {
  case 3:
    insertPad(G, R);
    break;
  case 0: // An output that may have no writer.
    if (int32_t T = anyTensor(G, R); T >= 0)
      G.Outputs.push_back(T);
    break;
  case 1: // Drop an operator; its result loses its writer.
    if (!G.Operators.empty())
      G.Operators.erase(G.Operators.begin() + R.below(G.Operators.size()));
    break;
  default: // An input becomes another tensor.
    if (!G.Inputs.empty())
      G.Inputs[R.below(G.Inputs.size())] = anyTensor(G, R);
    break;
  }
}

} // namespace

void mutateModel(ir::Model &M, Random &R) {
  if (M.Graphs.empty())
    return;
  ir::Graph &G = M.Graphs.front();
  switch (R.below(7)) {
  case 0:
  case 1:
    mutateQuant(G, R);
    break;
  case 2:
    mutateShape(G, R);
    break;
  case 3:
    mutateIntAttr(G, R);
    break;
  case 4:
    mutateIntConstant(G, R);
    break;
  case 5:
    mutateOperand(G, R);
    break;
  default:
    mutateGraph(G, R);
    break;
  }
}

std::optional<std::vector<uint8_t>>
mutateModelBytes(llvm::ArrayRef<uint8_t> Bytes, uint32_t Seed,
                 size_t MaxSize) {
  auto R = tflite::importModel(Bytes);
  if (!R) {
    llvm::consumeError(R.takeError());
    return std::nullopt;
  }
  Random Rand(Seed);
  ir::Model M = std::move(*R->Model);
  for (uint32_t I = 0, N = 1 + Rand.below(3); I < N; ++I)
    mutateModel(M, Rand);
  std::vector<uint8_t> Out = tflite::writeModel(M);
  if (Out.size() > MaxSize)
    return std::nullopt;
  return Out;
}

} // namespace fuzz
} // namespace accelgen
