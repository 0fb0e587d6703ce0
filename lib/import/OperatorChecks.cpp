//===- OperatorChecks.cpp - What the importer checks of each operator -----===//
#include "import/OperatorChecks.h"
#include "ir/Verifier.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>

namespace accelgen {
namespace tflite {

namespace {

namespace attr = ir::attr;

class OperatorChecker {
public:
  OperatorChecker(const ir::Graph &G, size_t Index)
      : G(G), Op(G.Operators[Index]), Index(Index) {}

  llvm::Error run() {
    if (Op.Version < 1 || Op.Version > MaxOperatorVersion)
      return error(llvm::formatv("version {0} is outside [1, {1}]", Op.Version,
                                 MaxOperatorVersion));
    if (Op.Opaque || Op.code() == ir::OpCode::Unknown)
      return llvm::Error::success();
    if (llvm::Error E = checkArity())
      return E;
    if (llvm::Error E = checkAttributes())
      return E;
    if (Op.code() == ir::OpCode::Reshape)
      return checkReshape();
    return llvm::Error::success();
  }

private:
  const ir::Graph &G;
  const ir::Operator &Op;
  size_t Index;

  llvm::Error error(const llvm::Twine &Msg) const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("operator {0} ({1}): {2}", Index, Op.Type, Msg.str())
            .str());
  }

  llvm::Error checkArity() const {
    ir::OpArity A = ir::opArity(Op.code());
    const int64_t N = static_cast<int64_t>(Op.Inputs.size());
    if (N < A.MinOperands || (A.MaxOperands >= 0 && N > A.MaxOperands)) {
      std::string Expected =
          A.MaxOperands < 0 ? llvm::formatv("at least {0}", A.MinOperands).str()
          : A.MinOperands == A.MaxOperands
              ? std::to_string(A.MinOperands)
              : llvm::formatv("{0} to {1}", A.MinOperands, A.MaxOperands).str();
      return error(llvm::formatv("takes {0} operands, found {1}", Expected, N));
    }
    for (int64_t K = 0; K < std::min<int64_t>(N, A.MinOperands); ++K)
      if (Op.Inputs[K] < 0 && A.required(K))
        return error(llvm::formatv("operand {0} is required, but missing", K));
    if (A.NumResults >= 0 &&
        static_cast<int64_t>(Op.Outputs.size()) != A.NumResults)
      return error(llvm::formatv("has {0} results, expected {1}",
                                 Op.Outputs.size(), A.NumResults));
    return llvm::Error::success();
  }

  /// The rank of the first input, or nothing if it has none.
  std::optional<int64_t> inputRank() const {
    if (Op.Inputs.empty() || Op.Inputs[0] < 0)
      return std::nullopt;
    return static_cast<int64_t>(G.tensor(Op.Inputs[0]).rank());
  }

  llvm::Error checkAttributes() const {
    for (llvm::StringRef Name :
         {attr::StrideH, attr::StrideW, attr::StrideD, attr::DilationH,
          attr::DilationW, attr::DilationD, attr::FilterH, attr::FilterW})
      if (Op.hasAttr(Name) && Op.getInt(Name) < 1)
        return error(llvm::formatv("{0} is {1}; it must be at least 1", Name,
                                   Op.getInt(Name)));
    for (llvm::StringRef Name :
         {attr::Beta, attr::Alpha, attr::CellClip, attr::ProjClip})
      if (Op.hasAttr(Name) && !std::isfinite(Op.getFloat(Name)))
        return error(llvm::formatv("{0} is {1}; it must be finite", Name,
                                   llvm::format("%g", Op.getFloat(Name))));
    for (llvm::StringRef Name : {attr::CellClip, attr::ProjClip})
      if (Op.hasAttr(Name) && Op.getFloat(Name) < 0)
        return error(llvm::formatv("{0} is {1}; it must not be negative", Name,
                                   llvm::format("%g", Op.getFloat(Name))));
    if (Op.code() == ir::OpCode::Concatenation && !Op.Outputs.empty()) {
      int64_t Rank = G.tensor(Op.Outputs[0]).rank();
      int64_t Axis = Op.getInt(attr::Axis);
      if (Axis < -Rank || Axis >= Rank)
        return error(llvm::formatv("axis {0} is outside [{1}, {2}) of the "
                                   "rank-{3} output",
                                   Axis, -Rank, Rank, Rank));
    }
    if (Op.code() == ir::OpCode::Squeeze)
      if (std::optional<int64_t> Rank = inputRank())
        for (int64_t D : Op.getInts(attr::SqueezeDims))
          if (D < -*Rank || D >= *Rank)
            return error(llvm::formatv("squeeze dimension {0} is outside "
                                       "[{1}, {2}) of the rank-{3} input",
                                       D, -*Rank, *Rank, *Rank));
    return llvm::Error::success();
  }

  /// A constant shape operand must give the output tensor's shape: at most
  /// one -1, which takes what the input's other dimensions leave.
  llvm::Error checkReshape() const {
    if (Op.Inputs.size() < 2 || Op.Inputs[1] < 0 || Op.Inputs[0] < 0)
      return llvm::Error::success();
    const ir::Tensor &Shape = G.tensor(Op.Inputs[1]);
    if (!Shape.IsConstant ||
        (Shape.Type != ir::DType::I32 && Shape.Type != ir::DType::I64))
      return llvm::Error::success();
    const size_t Width = Shape.Type == ir::DType::I32 ? 4 : 8;
    const size_t N = Shape.Data.size() / Width;
    const int64_t InElements = G.tensor(Op.Inputs[0]).numElements();
    const ir::Tensor &Out = G.tensor(Op.Outputs[0]);
    if (N == 0 && Out.rank() == 0)
      return llvm::Error::success();
    std::vector<int64_t> Dims;
    int64_t Known = 1, Unknown = -1;
    for (size_t I = 0; I < N; ++I) {
      int64_t D =
          Width == 4
              ? static_cast<int32_t>(
                    llvm::support::endian::read32le(Shape.Data.data() + 4 * I))
              : static_cast<int64_t>(
                    llvm::support::endian::read64le(Shape.Data.data() + 8 * I));
      if (D < -1 || D > ir::MaxElements || (D == -1 && Unknown >= 0))
        return error(llvm::formatv("shape tensor '{0}' holds {1} at {2}; "
                                   "dimensions are at least 0, with at most "
                                   "one -1",
                                   Shape.Name, D, I));
      if (D == -1)
        Unknown = static_cast<int64_t>(I);
      else
        Known *= D;
      if (Known > ir::MaxElements)
        return error(llvm::formatv("shape tensor '{0}' has more than {1} "
                                   "elements",
                                   Shape.Name, ir::MaxElements));
      Dims.push_back(D);
    }
    if (Unknown >= 0)
      Dims[Unknown] = Known == 0 ? 0 : InElements / Known;
    std::vector<int32_t> Resolved(Dims.begin(), Dims.end());
    int64_t OutElements = 1;
    for (int64_t D : Dims)
      OutElements *= D;
    if (OutElements != InElements || Resolved != Out.Shape)
      return error(llvm::formatv(
          "shape tensor '{0}' gives {1} for an input of {2} elements, but the "
          "output '{3}' is {4}",
          Shape.Name, ir::formatShape(Resolved), InElements, Out.Name,
          ir::formatShape(Out.Shape)));
    return llvm::Error::success();
  }
};

} // namespace

llvm::Error checkOperators(const ir::Graph &G) {
  for (size_t I = 0; I < G.Operators.size(); ++I)
    if (llvm::Error E = OperatorChecker(G, I).run())
      return E;
  return llvm::Error::success();
}

} // namespace tflite
} // namespace accelgen
