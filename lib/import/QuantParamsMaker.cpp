//===- QuantParamsMaker.cpp - Operator-oriented to tensor-oriented --------===//
#include "import/QuantParamsMaker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>

namespace accelgen {
namespace quant {

namespace {

namespace attr = ir::attr;

/// What an operand of a pattern's operator reads.
enum class Role {
  /// A quantized value (an activation, or a constant such as an addend):
  /// the operand of a DEQUANTIZE.
  Value,
  /// Weights: a DEQUANTIZE of an int8 constant, per channel or per tensor.
  Weights,
  /// A bias: a DEQUANTIZE of an int32 constant, or omitted.
  Bias,
  /// An operand that is not quantized (a shape, permutation, paddings):
  /// read as it is.
  Plain,
};

/// One pattern: DEQUANTIZE operands -> Op -> [activation] -> QUANTIZE.
struct Pattern {
  llvm::StringLiteral Op;
  /// The roles of operands 0, 1, 2; operands past the list take the last
  /// role (CONCATENATION's).
  std::vector<Role> Operands;
  /// The result keeps operand 0's parameters: the operator does not
  /// requantize (TensorFlow Lite Micro's kernels copy or compare values).
  bool SameParams = false;
  /// A following RELU or RELU6 becomes the operator's fused activation.
  bool FusesActivation = false;
  /// With ONNX's arithmetic the operator requantizes after all (ONNX
  /// Runtime's QLinearAveragePool): SameParams holds for TensorFlow Lite's.
  bool OnnxRequantizes = false;
};

const Pattern Patterns[] = {
    {"CONV_2D", {Role::Value, Role::Weights, Role::Bias}, false, true},
    {"DEPTHWISE_CONV_2D",
     {Role::Value, Role::Weights, Role::Bias},
     false,
     true},
    {"FULLY_CONNECTED", {Role::Value, Role::Weights, Role::Bias}, false, true},
    {"BATCH_MATMUL", {Role::Value, Role::Value}, false, false},
    {"ADD", {Role::Value, Role::Value}, false, true},
    {"SUB", {Role::Value, Role::Value}, false, true},
    {"MUL", {Role::Value, Role::Value}, false, true},
    {"AVERAGE_POOL_2D", {Role::Value}, true, true, true},
    {"MAX_POOL_2D", {Role::Value}, true, true},
    {"RESHAPE", {Role::Value, Role::Plain}, true, false},
    {"TRANSPOSE", {Role::Value, Role::Plain}, true, false},
    {"PAD", {Role::Value, Role::Plain}, true, false},
    {"CONCATENATION", {Role::Value}, true, true},
    {"SOFTMAX", {Role::Value}, false, false},
    {"LOGISTIC", {Role::Value}, false, false},
    {"TANH", {Role::Value}, false, false},
    {"RELU", {Role::Value}, false, false},
    {"RELU6", {Role::Value}, false, false},
    {"LEAKY_RELU", {Role::Value}, false, false},
};

const Pattern *patternOf(llvm::StringRef Op) {
  for (const Pattern &P : Patterns)
    if (P.Op == Op)
      return &P;
  return nullptr;
}

bool sameParams(const ir::QuantParams &A, const ir::QuantParams &B) {
  return A.Scales == B.Scales && A.ZeroPoints == B.ZeroPoints &&
         (!A.isPerChannel() || A.Axis == B.Axis);
}

class Maker {
public:
  explicit Maker(ir::Graph &G) : G(G) {}
  llvm::Expected<QuantReport> run();

private:
  ir::Graph &G;
  QuantReport Report;
  /// The operator writing each tensor (-1: none), and the operators
  /// reading it.
  std::vector<int32_t> Producer;
  std::vector<std::vector<size_t>> Readers;
  std::vector<bool> Dead;

  void index();
  bool isGraphOutput(int32_t T) const {
    return llvm::is_contained(G.Outputs, T);
  }
  /// The operand of the DEQUANTIZE writing \p T, or -1.
  int32_t dequantized(int32_t T) const;
  /// The single live reader of \p T, or nullptr.
  ir::Operator *soleReader(int32_t T, size_t *Index = nullptr);
  /// Tries pattern \p P on operator \p I; on failure says why in \p Why.
  bool rewrite(size_t I, const Pattern &P, std::string &Why);
  /// Every read of \p From (by operators and as a graph output) reads \p To.
  void replaceUses(int32_t From, int32_t To);
  /// Drops the DEQUANTIZE operators nothing reads any more.
  void removeUnreadDequantize();
  /// Removes dead operators, then tensors nothing names.
  void compact();
  /// A TRANSPOSE whose only reader is the inverse TRANSPOSE: the readers of
  /// the second read the first's operand (the reader's layout changes
  /// around an ONNX Transpose cancel so).
  void foldInverseTransposes();
  /// A RESHAPE to [batches, depth] whose only reader is a FULLY_CONNECTED
  /// of that depth: the layer flattens its operand so itself.
  void foldFlattenIntoFullyConnected();
};

void Maker::foldFlattenIntoFullyConnected() {
  index();
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Dead[I] || G.Operators[I].Type != "RESHAPE")
      continue;
    const ir::Operator &Reshape = G.Operators[I];
    size_t J;
    ir::Operator *Fc = soleReader(Reshape.Outputs[0], &J);
    if (!Fc || Fc->Type != "FULLY_CONNECTED" ||
        Fc->input(0) != Reshape.Outputs[0] || Fc->getBool(attr::KeepNumDims) ||
        Fc->input(1) < 0)
      continue;
    const ir::Tensor &Flat = G.tensor(Reshape.Outputs[0]);
    const ir::Tensor &In = G.tensor(Reshape.Inputs[0]);
    const ir::Tensor &W = G.tensor(Fc->input(1));
    if (Flat.rank() != 2 || W.rank() != 2 || Flat.Shape[1] != W.Shape[1] ||
        In.Type != Flat.Type ||
        In.Quant.has_value() != Flat.Quant.has_value() ||
        (In.Quant && !sameParams(*In.Quant, *Flat.Quant)))
      continue;
    Fc->Inputs[0] = Reshape.Inputs[0];
    Dead[I] = true;
    index();
  }
}

/// The permutation of constant TRANSPOSE operand \p T, or empty.
std::vector<int64_t> permutation(const ir::Graph &G, int32_t T) {
  std::vector<int64_t> P;
  if (T < 0 || !G.tensor(T).IsConstant || G.tensor(T).Type != ir::DType::I32)
    return P;
  for (int64_t I = 0; I < G.tensor(T).numElements(); ++I)
    P.push_back(*G.tensor(T).intAt(I));
  return P;
}

void Maker::foldInverseTransposes() {
  index();
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Dead[I] || G.Operators[I].Type != "TRANSPOSE")
      continue;
    size_t J;
    ir::Operator *Next = soleReader(G.Operators[I].Outputs[0], &J);
    if (!Next || Next->Type != "TRANSPOSE" || Dead[J])
      continue;
    std::vector<int64_t> A = permutation(G, G.Operators[I].input(1));
    std::vector<int64_t> B = permutation(G, Next->input(1));
    if (A.empty() || A.size() != B.size())
      continue;
    bool Identity = true;
    for (size_t K = 0; K < A.size(); ++K)
      Identity &= B[K] >= 0 && static_cast<size_t>(B[K]) < A.size() &&
                  A[B[K]] == static_cast<int64_t>(K);
    int32_t From = G.Operators[I].Inputs[0], To = Next->Outputs[0];
    if (!Identity || isGraphOutput(To) ||
        G.tensor(From).Quant.has_value() != G.tensor(To).Quant.has_value())
      continue;
    Dead[I] = Dead[J] = true;
    for (ir::Operator &Reader : G.Operators)
      for (int32_t &T : Reader.Inputs)
        if (T == To)
          T = From;
    index();
  }
}

void Maker::index() {
  Producer.assign(G.Tensors.size(), -1);
  Readers.assign(G.Tensors.size(), {});
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Dead[I])
      continue;
    for (int32_t T : G.Operators[I].Inputs)
      if (T >= 0)
        Readers[T].push_back(I);
    for (int32_t T : G.Operators[I].Outputs)
      Producer[T] = static_cast<int32_t>(I);
  }
}

int32_t Maker::dequantized(int32_t T) const {
  if (T < 0 || Producer[T] < 0)
    return -1;
  const ir::Operator &Op = G.Operators[Producer[T]];
  return Op.Type == "DEQUANTIZE" ? Op.Inputs[0] : -1;
}

ir::Operator *Maker::soleReader(int32_t T, size_t *Index) {
  if (Readers[T].size() != 1 || isGraphOutput(T))
    return nullptr;
  if (Index)
    *Index = Readers[T][0];
  return &G.Operators[Readers[T][0]];
}

bool Maker::rewrite(size_t I, const Pattern &P, std::string &Why) {
  ir::Operator &Op = G.Operators[I];
  std::vector<int32_t> Inputs = Op.Inputs;
  // Whether the result keeps operand 0's parameters, in the arithmetic the
  // graph computes.
  const bool Keeps = P.SameParams &&
                     !(P.OnnxRequantizes && G.Computes == ir::Arithmetic::ONNX);
  for (size_t K = 0; K < Inputs.size(); ++K) {
    Role R = P.Operands[std::min(K, P.Operands.size() - 1)];
    int32_t T = Inputs[K];
    if (R == Role::Plain)
      continue;
    if (T < 0) {
      if (R == Role::Bias)
        continue;
      Why = llvm::formatv("operand {0} is omitted", K).str();
      return false;
    }
    int32_t Q = dequantized(T);
    if (Q < 0) {
      Why = llvm::formatv("operand {0} ('{1}') is not dequantized", K,
                          G.tensor(T).Name)
                .str();
      return false;
    }
    const ir::Tensor &Source = G.tensor(Q);
    // int8 weights, or uint8 ones for a uint8 operand (TensorFlow Lite's
    // older uint8 kernels, per tensor).
    bool Uint8 = Source.Type == ir::DType::U8 && K > 0 &&
                 G.tensor(Inputs[0]).Type == ir::DType::U8 && Source.Quant &&
                 !Source.Quant->isPerChannel();
    if (R == Role::Weights &&
        !(Source.IsConstant && (Source.Type == ir::DType::I8 || Uint8))) {
      Why = "its weights are not an int8 constant (or a uint8 one quantized "
            "per tensor, for a uint8 operand)";
      return false;
    }
    if (R == Role::Bias &&
        !(Source.IsConstant && Source.Type == ir::DType::I32)) {
      Why = "its bias is not an int32 constant";
      return false;
    }
    Inputs[K] = Q;
  }
  // The operands an operator that does not requantize reads as values.
  auto IsValue = [&](size_t K) {
    return P.Operands[std::min(K, P.Operands.size() - 1)] == Role::Value;
  };
  // The result: QUANTIZE, or a fusable activation and then QUANTIZE.
  int32_t Out = Op.Outputs[0];
  size_t QIndex, AIndex = SIZE_MAX;
  ir::Operator *Next = soleReader(Out, &QIndex);
  std::string Activation = "NONE";
  int32_t Quantized = Out;
  if (Next && P.FusesActivation &&
      (Next->Type == "RELU" || Next->Type == "RELU6") &&
      Op.getString(attr::FusedActivation, "NONE") == "NONE") {
    Activation = Next->Type;
    AIndex = QIndex;
    Quantized = Next->Outputs[0];
    Next = soleReader(Quantized, &QIndex);
  }
  // Several readers quantizing the result otherwise: one QUANTIZE gives
  // the result (for an operator that does not requantize, one with its
  // operand's parameters), the others requantize it.
  std::vector<size_t> Requantizing;
  if (!Next && !isGraphOutput(Quantized) && Readers[Quantized].size() > 1 &&
      llvm::all_of(Readers[Quantized], [&](size_t R) {
        return G.Operators[R].Type == "QUANTIZE" &&
               G.tensor(G.Operators[R].Outputs[0]).Quant;
      })) {
    QIndex = Readers[Quantized][0];
    if (Keeps && G.tensor(Inputs[0]).Quant)
      for (size_t R : Readers[Quantized])
        if (sameParams(*G.tensor(Inputs[0]).Quant,
                       *G.tensor(G.Operators[R].Outputs[0]).Quant)) {
          QIndex = R;
          break;
        }
    Next = &G.Operators[QIndex];
    for (size_t R : Readers[Quantized])
      if (R != QIndex)
        Requantizing.push_back(R);
  }
  if ((!Next || Next->Type != "QUANTIZE") && Keeps && AIndex == SIZE_MAX) {
    // An operator that does not requantize (a layout change) may be
    // followed by anything: its result is quantized as its operand, and
    // dequantized for its float readers. Its operands (CONCATENATION's
    // several) must then be quantized alike.
    for (size_t K = 1; K < Inputs.size(); ++K) {
      const ir::Tensor &A = G.tensor(Inputs[0]), &B = G.tensor(Inputs[K]);
      if (IsValue(K) && (!A.Quant || !B.Quant || A.Type != B.Type ||
                         !sameParams(*A.Quant, *B.Quant))) {
        Why = llvm::formatv("its operands '{0}' and '{1}' are quantized "
                            "otherwise, and no QUANTIZE of its result says "
                            "which to requantize to",
                            A.Name, B.Name)
                  .str();
        return false;
      }
    }
    const ir::Tensor &Src = G.tensor(Inputs[0]);
    ir::Tensor T = G.tensor(Out);
    T.Name += "#quantized";
    T.Type = Src.Type;
    T.Quant = Src.Quant;
    G.Tensors.push_back(std::move(T));
    int32_t Q = static_cast<int32_t>(G.Tensors.size() - 1);
    ir::Operator &Rewritten = G.Operators[I];
    Rewritten.Inputs = Inputs;
    Rewritten.Outputs = {Q};
    ir::Operator Deq;
    Deq.Type = "DEQUANTIZE";
    Deq.Inputs = {Q};
    Deq.Outputs = {Out};
    G.Operators.insert(G.Operators.begin() + I + 1, std::move(Deq));
    Dead.insert(Dead.begin() + I + 1, false);
    return true;
  }
  if (!Next || Next->Type != "QUANTIZE") {
    Why = "its result is not quantized (by one QUANTIZE, its only reader)";
    return false;
  }
  int32_t Result = Next->Outputs[0];
  const ir::Tensor &R = G.tensor(Result);
  if (!R.Quant || R.Quant->isPerChannel()) {
    Why = "its result is not quantized per tensor";
    return false;
  }
  // An operator that does not requantize reads its operands with its
  // result's parameters: those quantized otherwise are requantized first
  // (a QUANTIZE between quantized types before it).
  std::vector<ir::Operator> Before;
  const ir::DType ResultType = R.Type;
  const ir::QuantParams ResultParams = *R.Quant;
  if (Keeps)
    for (size_t K = 0; K < Inputs.size(); ++K) {
      const ir::Tensor &X = G.tensor(Inputs[K]);
      if (!IsValue(K) || (X.Type == ResultType && X.Quant &&
                          sameParams(*X.Quant, ResultParams)))
        continue;
      if (!X.Quant || X.Quant->isPerChannel()) {
        Why = llvm::formatv("operand '{0}' is not quantized per tensor, and "
                            "{1} does not requantize",
                            X.Name, Op.Type)
                  .str();
        return false;
      }
      ir::Tensor T = X;
      T.Name += "#requantized";
      T.Type = ResultType;
      T.Quant = ResultParams;
      T.IsConstant = false;
      T.Data.clear();
      ir::Operator Q;
      Q.Type = "QUANTIZE";
      Q.Inputs = {Inputs[K]};
      G.Tensors.push_back(std::move(T));
      Inputs[K] = static_cast<int32_t>(G.Tensors.size() - 1);
      Q.Outputs = {Inputs[K]};
      Before.push_back(std::move(Q));
    }
  Op.Inputs = Inputs;
  Op.Outputs = {Result};
  if (Op.hasAttr(attr::FusedActivation))
    Op.setAttr(attr::FusedActivation, Activation);
  Dead[QIndex] = true;
  if (AIndex != SIZE_MAX)
    Dead[AIndex] = true;
  for (size_t R : Requantizing) {
    ir::Operator &Q = G.Operators[R];
    // With the result's own parameters the QUANTIZE is the result.
    if (sameParams(*G.tensor(Q.Outputs[0]).Quant, *G.tensor(Result).Quant) &&
        G.tensor(Q.Outputs[0]).Type == G.tensor(Result).Type) {
      Dead[R] = true;
      replaceUses(Q.Outputs[0], Result);
      continue;
    }
    Q.Inputs[0] = Result;
  }
  // The requantizations, just before the operator (which moves, with the
  // indices after it).
  G.Operators.insert(G.Operators.begin() + I, Before.begin(), Before.end());
  Dead.insert(Dead.begin() + I, Before.size(), false);
  return true;
}

void Maker::replaceUses(int32_t From, int32_t To) {
  for (ir::Operator &Reader : G.Operators)
    for (int32_t &T : Reader.Inputs)
      if (T == From)
        T = To;
  for (int32_t &T : G.Outputs)
    if (T == From)
      T = To;
}

void Maker::removeUnreadDequantize() {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    index();
    for (size_t I = 0; I < G.Operators.size(); ++I) {
      const ir::Operator &Op = G.Operators[I];
      if (Dead[I] || Op.Type != "DEQUANTIZE")
        continue;
      if (Readers[Op.Outputs[0]].empty() && !isGraphOutput(Op.Outputs[0])) {
        Dead[I] = true;
        Changed = true;
      }
    }
  }
}

void Maker::compact() {
  removeUnreadDequantize();
  std::vector<ir::Operator> Ops;
  for (size_t I = 0; I < G.Operators.size(); ++I)
    if (!Dead[I])
      Ops.push_back(std::move(G.Operators[I]));
  G.Operators = std::move(Ops);
  // Tensors no operator or graph boundary names.
  std::vector<bool> Used(G.Tensors.size(), false);
  for (const ir::Operator &Op : G.Operators) {
    for (int32_t T : Op.Inputs)
      if (T >= 0)
        Used[T] = true;
    for (int32_t T : Op.Outputs)
      Used[T] = true;
  }
  for (int32_t T : G.Inputs)
    Used[T] = true;
  for (int32_t T : G.Outputs)
    Used[T] = true;
  std::vector<int32_t> NewIndex(G.Tensors.size(), -1);
  std::vector<ir::Tensor> Tensors;
  for (size_t T = 0; T < G.Tensors.size(); ++T)
    if (Used[T]) {
      NewIndex[T] = static_cast<int32_t>(Tensors.size());
      Tensors.push_back(std::move(G.Tensors[T]));
    }
  G.Tensors = std::move(Tensors);
  auto Map = [&](int32_t &T) {
    if (T >= 0)
      T = NewIndex[T];
  };
  for (ir::Operator &Op : G.Operators) {
    llvm::for_each(Op.Inputs, Map);
    llvm::for_each(Op.Outputs, Map);
  }
  llvm::for_each(G.Inputs, Map);
  llvm::for_each(G.Outputs, Map);
}

llvm::Expected<QuantReport> Maker::run() {
  Dead.assign(G.Operators.size(), false);
  index();
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    if (Dead[I])
      continue;
    const ir::Operator &Op = G.Operators[I];
    // Only float operators reading a dequantized value are candidates.
    bool ReadsDequantized =
        llvm::any_of(Op.Inputs, [&](int32_t T) { return dequantized(T) >= 0; });
    if (!ReadsDequantized || Op.Type == "QUANTIZE" || Op.Outputs.size() != 1 ||
        G.tensor(Op.Outputs[0]).Type != ir::DType::F32)
      continue;
    const Pattern *P = patternOf(Op.Type);
    std::string Why = "no pattern quantizes it";
    if (P && rewrite(I, *P, Why)) {
      ++Report.Quantized;
      index();
      continue;
    }
    Report.LeftInFloat.push_back(
        llvm::formatv("{0} writing '{1}': {2}", Op.Type,
                      G.tensor(Op.Outputs[0]).Name, Why)
            .str());
  }
  // QUANTIZE(DEQUANTIZE(x)) with x's own parameters is x; with others, a
  // QUANTIZE of x (a requantization, as TensorFlow Lite writes one).
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    ir::Operator &Op = G.Operators[I];
    if (Dead[I] || Op.Type != "QUANTIZE")
      continue;
    int32_t X = dequantized(Op.Inputs[0]);
    const ir::Tensor &Y = G.tensor(Op.Outputs[0]);
    if (X < 0 || !G.tensor(X).Quant || !Y.Quant ||
        G.tensor(X).Quant->isPerChannel() || Y.Quant->isPerChannel())
      continue;
    if (G.tensor(X).Type == Y.Type &&
        sameParams(*G.tensor(X).Quant, *Y.Quant)) {
      Dead[I] = true;
      replaceUses(Op.Outputs[0], X);
    } else {
      Op.Inputs[0] = X;
    }
    index();
  }
  removeUnreadDequantize();
  foldInverseTransposes();
  foldFlattenIntoFullyConnected();
  compact();
  return Report;
}

} // namespace

llvm::Expected<QuantReport> makeQuantParams(ir::Graph &G) {
  return Maker(G).run();
}

bool keepsParams(llvm::StringRef Op) {
  const Pattern *P = patternOf(Op);
  return P && P->SameParams;
}

} // namespace quant
} // namespace accelgen
