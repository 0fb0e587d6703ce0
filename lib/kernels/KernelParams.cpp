//===- KernelParams.cpp - Reference kernel parameters from the IR ---------===//
//
// The tables of the kernel families (from the generated ref_kernel_table.inc)
// and the dispatch from an operator to its family's builder, then to the
// function for the element types and variant the builder found. The builders
// (ConvParams.cpp, ArithmeticParams.cpp,
// DataMovementParams.cpp) read the operator's tensors and attributes, check
// what the kernel assumes, and fill its parameters the way TensorFlow Lite's
// Prepare functions do (TensorFlow Lite Micro's where the two differ, since
// its reference kernels define the expected outputs). Every check that fails
// becomes an error naming the operator.
//
//===----------------------------------------------------------------------===//
#include "kernels/KernelParams.h"

#include "kernels/OpContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace accelgen {
namespace kernels {

namespace {

// The element types of the kernel table's rows: KT_I8, ..., KT_ANY (none).
const std::optional<ir::DType> KT_I8 = ir::DType::I8;
const std::optional<ir::DType> KT_U8 = ir::DType::U8;
const std::optional<ir::DType> KT_I16 = ir::DType::I16;
const std::optional<ir::DType> KT_I32 = ir::DType::I32;
const std::optional<ir::DType> KT_I64 = ir::DType::I64;
const std::optional<ir::DType> KT_F32 = ir::DType::F32;
const std::optional<ir::DType> KT_BOOL = ir::DType::Bool;
const std::optional<ir::DType> KT_U32 = ir::DType::U32;
const std::optional<ir::DType> KT_ANY = std::nullopt;

std::vector<KernelFamilyInfo> buildFamilies() {
  std::vector<KernelFamilyInfo> Families;
#define REF_KERNEL_FAMILY(Family, Struct, Header, Builder, ByValue, MayAlias)  \
  Families.push_back(                                                          \
      {#Family, #Struct, Header, ByValue != 0, MayAlias != 0, {}});
#include "ref_kernel_table.inc"
  auto Find = [&](llvm::StringRef Name) -> KernelFamilyInfo & {
    for (KernelFamilyInfo &F : Families)
      if (Name == F.Name)
        return F;
    llvm_unreachable("the kernel table names an undeclared family");
  };
  // The table spells kinds in capitals, ArgKind in CamelCase.
  using AK = ArgKind;
  constexpr AK PARAMS = AK::Params, FIELDS = AK::Fields, SHAPE = AK::Shape,
               DATA = AK::Data, OUTPUT_SHAPE = AK::OutputShape,
               OUTPUT = AK::Output, COUNT = AK::Count,
               ELEMENT_SIZE = AK::ElementSize, INPUT_SHAPES = AK::InputShapes,
               INPUTS = AK::Inputs, STATE = AK::State, RESULT = AK::Result,
               SCRATCH = AK::Scratch;
#define REF_KERNEL_ARG(Family, Struct, Kind, Operand, Name)                    \
  Find(#Family).Args.push_back({Kind, Operand, #Name});
#include "ref_kernel_table.inc"
  return Families;
}

std::vector<KernelFunctionInfo>
buildFunctions(llvm::ArrayRef<KernelFamilyInfo> Families) {
  auto Find = [&](llvm::StringRef Name) {
    for (const KernelFamilyInfo &F : Families)
      if (Name == F.Name)
        return &F;
    llvm_unreachable("the kernel table names an undeclared family");
  };
  std::vector<KernelFunctionInfo> Functions;
#define REF_KERNEL_FUNCTION(Function, Family, Struct, Type, Out, Variant, T0,  \
                            T1, T2, Result)                                    \
  Functions.push_back({#Function,                                              \
                       Find(#Family),                                          \
                       KT_##Type,                                              \
                       KT_##Out,                                               \
                       Variant,                                                \
                       {KT_##T0, KT_##T1, KT_##T2},                            \
                       KT_##Result});
#include "ref_kernel_table.inc"
  return Functions;
}

/// One operator a function computes (the table's ROW section).
struct KernelRow {
  const char *Op;
  const KernelFunctionInfo *Function;
  llvm::Expected<KernelCall> (*Builder)(const detail::OpContext &);
};

const std::vector<KernelRow> &kernelRows() {
  static const std::vector<KernelRow> Rows = [] {
    std::vector<KernelRow> R;
    auto Builder = [](llvm::StringRef Family) {
      using BuilderFn =
          llvm::Expected<KernelCall> (*)(const detail::OpContext &);
      BuilderFn B = nullptr;
#define REF_KERNEL_FAMILY(Name, Struct, Header, Builder, ByValue, MayAlias)    \
  if (Family == #Name)                                                         \
    B = &detail::Builder;
#include "ref_kernel_table.inc"
      return B;
    };
#define REF_KERNEL_ROW(Op, OpName, Function, Family)                           \
  R.push_back({OpName, findKernelFunction(#Function), Builder(#Family)});
#include "ref_kernel_table.inc"
    return R;
  }();
  return Rows;
}

} // namespace

llvm::ArrayRef<KernelFamilyInfo> kernelFamilies() {
  static const std::vector<KernelFamilyInfo> Families = buildFamilies();
  return Families;
}

llvm::ArrayRef<KernelFunctionInfo> kernelFunctions() {
  static const std::vector<KernelFunctionInfo> Functions =
      buildFunctions(kernelFamilies());
  return Functions;
}

const KernelFunctionInfo *findKernelFunction(llvm::StringRef Name) {
  for (const KernelFunctionInfo &F : kernelFunctions())
    if (Name == F.Name)
      return &F;
  return nullptr;
}

const KernelFamilyInfo &familyOf(const AnyParams &P) {
  return kernelFamilies()[P.index()];
}

size_t resultsWritten(const KernelFamilyInfo &F) {
  return 1 + static_cast<size_t>(llvm::count_if(F.Args, [](const KernelArgInfo &A) {
           return A.Kind == ArgKind::Result;
         }));
}

llvm::Expected<ref_shape> toRefShape(llvm::ArrayRef<int32_t> Shape) {
  if (Shape.size() > REF_MAX_RANK)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("rank {0} exceeds the reference kernels' maximum of {1}",
                      Shape.size(), REF_MAX_RANK)
            .str());
  ref_shape S{};
  S.rank = static_cast<int32_t>(Shape.size());
  for (size_t I = 0; I < Shape.size(); ++I)
    S.dims[I] = Shape[I];
  return S;
}

std::string kernelCallReason(llvm::StringRef Message, llvm::StringRef Type) {
  llvm::StringRef Rest = Message;
  if (!Rest.consume_front("operator "))
    return Message.str();
  Rest = Rest.ltrim("0123456789");
  if (!Rest.consume_front(" (") || !Rest.consume_front(Type) ||
      !Rest.consume_front("): "))
    return Message.str();
  return Rest.str();
}

llvm::Expected<KernelCall> computeKernelCall(const ir::Graph &G,
                                             const ir::Operator &Op,
                                             unsigned Result) {
  using namespace detail;
  OpContext Ctx(G, Op, Result);
  if (Op.Opaque)
    return Ctx.error("the operator is not known to the importer, so no "
                     "reference kernel runs it");
  if (Op.Outputs.empty())
    return Ctx.error("it has no result");
  if (Result >= Op.Outputs.size() || Op.Outputs[Result] < 0 ||
      !G.isValidTensor(Op.Outputs[Result]))
    return Ctx.error(llvm::formatv("output {0} is missing", Result));
  // The families computing this operator, in declaration order: the
  // first builder whose family takes the input's element type (a QUANTIZE
  // of float32 and of int8 are different families), else the first.
  const std::vector<KernelRow> &Rows = kernelRows();
  const KernelRow *First = nullptr;
  const std::optional<ir::DType> InType =
      Op.input(0) >= 0 && static_cast<size_t>(Op.input(0)) < G.Tensors.size()
          ? std::optional<ir::DType>(G.tensor(Op.input(0)).Type)
          : std::nullopt;
  for (const KernelRow &R : Rows) {
    if (Op.Type != R.Op)
      continue;
    if (!First)
      First = &R;
    if (!R.Function->Type || R.Function->Type == InType) {
      First = &R;
      break;
    }
  }
  if (!First)
    return Ctx.error("no reference kernel implements this operator");
  llvm::Expected<KernelCall> Call = First->Builder(Ctx);
  if (!Call)
    return Call.takeError();
  const KernelFamilyInfo &Family = familyOf(Call->Params);
  const size_t Writes = resultsWritten(Family);
  if (Writes > 1) {
    // One call writes every result.
    if (Op.Outputs.size() != Writes)
      return Ctx.error(llvm::formatv("{0} outputs; its kernel writes {1}",
                                     Op.Outputs.size(), Writes));
    for (size_t R = 0; R < Writes; ++R)
      if (Op.Outputs[R] < 0 || !G.isValidTensor(Op.Outputs[R]))
        return Ctx.error(llvm::formatv("output {0} is missing", R));
    Call->Results = Op.Outputs;
  } else if (Op.Outputs.size() != 1 && !Ctx.resultAsked()) {
    return Ctx.error(llvm::formatv("{0} outputs; the reference kernels write "
                                   "one",
                                   Op.Outputs.size()));
  }
  Call->Output = Op.Outputs[Result];
  // The function of the family the builder filled, for the element types
  // and the variant it found.
  const std::optional<ir::DType> OutType = G.tensor(Call->Output).Type;
  std::optional<ir::DType> CallIn;
  if (!Call->DataInputs.empty() && Call->DataInputs[0] >= 0)
    CallIn = G.tensor(Call->DataInputs[0]).Type;
  for (const KernelRow &R : Rows) {
    const KernelFunctionInfo &F = *R.Function;
    if (Op.Type != R.Op || F.Family != &Family || Call->Variant != F.Variant)
      continue;
    if (F.Type && F.Type != CallIn)
      continue;
    if (F.Out && F.Out != OutType)
      continue;
    Call->Function = F.Name;
    return Call;
  }
  return Ctx.error(llvm::formatv(
      "no {0} kernel function takes {1} to {2}{3}", Family.Name,
      CallIn ? ir::dtypeName(*CallIn) : llvm::StringRef("no input"),
      ir::dtypeName(*OutType),
      Call->Variant.empty() ? std::string() : " (" + Call->Variant + ")"));
}

llvm::Expected<std::vector<KernelCall>>
computeKernelCalls(const ir::Graph &G, const ir::Operator &Op) {
  std::vector<KernelCall> Calls;
  // Result 0 first: its builder refuses several results unless it writes
  // each one.
  for (unsigned R = 0; R < std::max<size_t>(Op.Outputs.size(), 1); ++R) {
    llvm::Expected<KernelCall> Call = computeKernelCall(G, Op, R);
    if (!Call)
      return Call.takeError();
    const bool All = !Call->Results.empty();
    Calls.push_back(std::move(*Call));
    if (All)
      break;
  }
  return Calls;
}

} // namespace kernels
} // namespace accelgen
