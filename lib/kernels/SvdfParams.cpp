//===- SvdfParams.cpp - SVDF parameters -----------------------------------===//
//
// The builder of the svdf kernel family (defs/kernels.td): checks an SVDF the
// way TensorFlow Lite Micro's PrepareSvdf does (2-D input, feature weights
// [filters, input], time weights [filters, memory], a bias of one value per
// unit, a variable state [batches, filters * memory]; int8 with int8 feature
// weights, int16 time weights and state and an int32 bias, or float32) and
// computes its two requantization multipliers.
//
//===----------------------------------------------------------------------===//
#include "kernels/OpContext.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace accelgen {
namespace kernels {
namespace detail {

namespace {

using ir::DType;
using ir::Tensor;

// The operands of SVDF (TensorFlow Lite's order).
constexpr unsigned InputOperand = 0;
constexpr unsigned FeatureOperand = 1;
constexpr unsigned TimeOperand = 2;
constexpr unsigned BiasOperand = 3;
constexpr unsigned StateOperand = 4;

/// An error unless \p T (operand \p I, named \p Role) has element type
/// \p Want.
llvm::Error requireType(const OpContext &Ctx, const Tensor &T, unsigned I,
                        llvm::StringRef Role, DType Want, DType Input) {
  if (T.Type == Want)
    return llvm::Error::success();
  return Ctx.error(llvm::formatv("{0} (input {1}) '{2}' is {3}; with {4} "
                                 "input the kernel needs {5}",
                                 Role, I, T.Name, ir::dtypeName(T.Type),
                                 ir::dtypeName(Input), ir::dtypeName(Want)));
}

} // namespace

llvm::Expected<KernelCall> svdfOp(const OpContext &Ctx) {
  const ir::Operator &Op = Ctx.op();
  if (Op.Inputs.size() != 5)
    return Ctx.error(llvm::formatv("{0} inputs; the operator has 5",
                                   Op.Inputs.size()));
  ACCELGEN_TRY(In, Ctx.input(InputOperand));
  ACCELGEN_TRY(Feature, Ctx.input(FeatureOperand));
  ACCELGEN_TRY(Time, Ctx.input(TimeOperand));
  ACCELGEN_TRY(Bias, Ctx.optionalInput(BiasOperand));
  ACCELGEN_TRY(State, Ctx.input(StateOperand));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->Type != DType::I8 && In->Type != DType::F32)
    return Ctx.error(llvm::formatv("input '{0}' is {1}; the kernel takes "
                                   "int8 or float32",
                                   In->Name, ir::dtypeName(In->Type)));
  if (In->rank() != 2 || Feature->rank() != 2 || Time->rank() != 2)
    return Ctx.error("input, feature weights and time weights must be 2-D");
  const int32_t Rank = static_cast<int32_t>(Op.getInt(ir::attr::Rank, 0));
  const int32_t Batches = In->Shape[0], InputSize = In->Shape[1];
  const int32_t Filters = Feature->Shape[0], Memory = Time->Shape[1];
  if (Rank <= 0 || Filters <= 0 || Filters % Rank != 0)
    return Ctx.error(llvm::formatv("rank {0} must be positive and divide the "
                                   "{1} filters",
                                   Rank, Filters));
  if (Memory <= 0 || InputSize <= 0)
    return Ctx.error(llvm::formatv("the memory ({0}) and the input size ({1}) "
                                   "must be positive",
                                   Memory, InputSize));
  const int32_t Units = Filters / Rank;
  if (llvm::Error E = requireShape(Ctx, *Feature, FeatureOperand,
                                   "feature weights", {Filters, InputSize}))
    return E;
  if (llvm::Error E = requireShape(Ctx, *Time, TimeOperand, "time weights",
                                   {Filters, Memory}))
    return E;
  if (Bias)
    if (llvm::Error E =
            requireShape(Ctx, *Bias, BiasOperand, "bias", {Units}))
      return E;
  if (llvm::Error E = requireShape(Ctx, *State, StateOperand, "state",
                                   {Batches, Filters * Memory}))
    return E;
  if (!State->IsVariable || State->IsConstant)
    return Ctx.error(llvm::formatv("state '{0}' must be a variable tensor "
                                   "without data (the kernel updates it in "
                                   "place)",
                                   State->Name));
  if (Out->Shape != std::vector<int32_t>{Batches, Units})
    return Ctx.error(llvm::formatv("output '{0}' has shape {1}; expected "
                                   "{2}x{3}",
                                   Out->Name, ir::formatShape(Out->Shape),
                                   Batches, Units));

  const bool Quantized = In->Type == DType::I8;
  const DType Wide = Quantized ? DType::I16 : DType::F32;
  if (llvm::Error E = requireType(Ctx, *Feature, FeatureOperand,
                                  "feature weights", In->Type, In->Type))
    return E;
  if (llvm::Error E = requireType(Ctx, *Time, TimeOperand, "time weights",
                                  Wide, In->Type))
    return E;
  if (llvm::Error E = requireType(Ctx, *State, StateOperand, "state", Wide,
                                  In->Type))
    return E;
  if (Bias)
    if (llvm::Error E = requireType(Ctx, *Bias, BiasOperand, "bias",
                                    Quantized ? DType::I32 : DType::F32,
                                    In->Type))
      return E;
  if (llvm::Error E = requireSameType(Ctx, *In, *Out))
    return E;

  FamilyParams<ref_svdf_params> P;
  ref_svdf_params &S = P.Scalars;
  S.batches = Batches;
  S.input_size = InputSize;
  S.filters = Filters;
  S.rank = Rank;
  S.memory = Memory;
  const std::string Activation = Ctx.activation();
  if (!Quantized) {
    static const char *const Codes[] = {"NONE", "RELU", "RELU_N1_TO_1",
                                        "RELU6"};
    S.activation = -1;
    for (int32_t I = 0; I < 4; ++I)
      if (Activation == Codes[I])
        S.activation = I;
    if (S.activation < 0)
      return Ctx.error("fused activation " + Activation +
                       " is not supported by the reference kernels");
  } else {
    ACCELGEN_TRY(InQ, Ctx.quant(*In, "input"));
    ACCELGEN_TRY(FQ, Ctx.quant(*Feature, "feature weights"));
    ACCELGEN_TRY(TQ, Ctx.quant(*Time, "time weights"));
    ACCELGEN_TRY(SQ, Ctx.quant(*State, "state"));
    ACCELGEN_TRY(OutQ, Ctx.quant(*Out, "output"));
    // The products in float, then widened, as PrepareSvdf.
    ACCELGEN_TRY(M1, Ctx.multiplier(double(InQ.Scale * FQ.Scale / SQ.Scale),
                                    "input scale * feature weight scale / "
                                    "state scale"));
    ACCELGEN_TRY(M2, Ctx.multiplier(double(SQ.Scale * TQ.Scale / OutQ.Scale),
                                    "state scale * time weight scale / "
                                    "output scale"));
    S.input_zero_point = InQ.ZeroPoint;
    S.state_zero_point = SQ.ZeroPoint;
    S.output_zero_point = OutQ.ZeroPoint;
    S.feature_multiplier = M1.Multiplier;
    S.feature_left_shift = M1.LeftShift;
    S.output_multiplier = M2.Multiplier;
    S.output_left_shift = M2.LeftShift;
  }
  KernelCall Call;
  Call.Params = std::move(P);
  Call.DataInputs = {Op.input(InputOperand), Op.input(FeatureOperand),
                     Op.input(TimeOperand), Bias ? Op.input(BiasOperand) : -1,
                     Op.input(StateOperand)};
  return Call;
}

} // namespace detail
} // namespace kernels
} // namespace accelgen
