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
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>
#include <deque>

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
      {#Family, #Struct, Header, ByValue != 0, MayAlias != 0, {}, {}});
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
#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)                        \
  Find(#Family).Fields.push_back({#Field, #CType, 0, false});
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)                 \
  Find(#Family).Fields.push_back({#Field, #CType, size_t(Length), false});
#define REF_KERNEL_POINTER(Family, Struct, Field, CType)                       \
  Find(#Family).Fields.push_back({#Field, #CType, 0, true});
#define REF_KERNEL_PARAMS_END(Family, Struct)
#include "ref_kernel_table.inc"
#define REF_KERNEL_ANY_ARITHMETIC(Family) Find(#Family).AnyArithmetic = true;
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

/// A family registered at run time, with its own storage.
struct RegisteredFamily {
  KernelFamilyInfo Family;
  /// A deque: rows and calls keep pointers to its elements.
  std::deque<KernelFunctionInfo> Functions;
  std::vector<std::pair<const char *, const char *>> Files;
  std::string Origin;
  const char *ProgramRows = nullptr;
};

/// Every registered family; a deque, so that pointers to its elements stay
/// valid as families are added.
std::deque<RegisteredFamily> &registry() {
  static std::deque<RegisteredFamily> R;
  return R;
}

/// The rows of the reference kernels, then those of the registered
/// families, in registration order.
std::vector<KernelRow> &kernelRows() {
  static std::vector<KernelRow> Rows = [] {
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
  for (const RegisteredFamily &R : registry())
    for (const KernelFunctionInfo &F : R.Functions)
      if (Name == F.Name)
        return &F;
  return nullptr;
}

const KernelFamilyInfo &familyOf(const AnyParams &P) {
  if (const auto *D = std::get_if<DynamicParams>(&P)) {
    assert(D->Family && "parameters of no family");
    return *D->Family;
  }
  return kernelFamilies()[P.index()];
}

DynamicParams DynamicParams::of(const KernelFamilyInfo &F) {
  DynamicParams P;
  P.Family = &F;
  for (const KernelFieldInfo &Info : F.Fields) {
    Field V;
    if (!Info.Pointer) {
      const size_t N = std::max<size_t>(Info.Length, 1);
      const llvm::StringRef T(Info.CType);
      if (T == "float" || T == "double")
        V.Reals.assign(N, 0.0);
      else
        V.Ints.assign(N, 0);
    }
    P.Fields.push_back(std::move(V));
  }
  return P;
}

DynamicParams::Field &DynamicParams::field(llvm::StringRef Name) {
  for (size_t I = 0; I < Family->Fields.size(); ++I)
    if (Name == Family->Fields[I].Name)
      return Fields[I];
  // A builder naming a field its family lacks: a mistake in the builder's
  // code, stopped here with its names rather than left to corrupt anything.
  llvm::report_fatal_error(
      llvm::formatv("kernel family '{0}' declares no field '{1}'",
                    Family->Name, Name)
          .str()
          .c_str(),
      /*gen_crash_diag=*/false);
}

const DynamicParams::Field &DynamicParams::field(llvm::StringRef Name) const {
  return const_cast<DynamicParams *>(this)->field(Name);
}

void DynamicParams::set(llvm::StringRef Name, llvm::ArrayRef<int64_t> Values) {
  field(Name).Ints.assign(Values.begin(), Values.end());
}

void DynamicParams::setReal(llvm::StringRef Name,
                            llvm::ArrayRef<double> Values) {
  field(Name).Reals.assign(Values.begin(), Values.end());
}

namespace {

llvm::Error registrationError(const KernelFamilyRegistration &R,
                              const llvm::Twine &Msg) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("kernel family '{0}'{1}: {2}",
                    R.Family.Name ? R.Family.Name : "",
                    R.Origin.empty() ? std::string() : " of " + R.Origin,
                    Msg.str())
          .str());
}

bool nonEmpty(const char *S) { return S && *S; }

/// Where \p Op already has a family: the family's name, or "".
std::string familyComputing(llvm::StringRef Op) {
  for (const KernelRow &Row : kernelRows())
    if (Op == Row.Op)
      return Row.Function->Family->Name;
  return "";
}

} // namespace

namespace {

/// Adds \p R to the registry and its rows to the kernel rows; its custom
/// operators are the caller's to register.
llvm::Error addFamily(KernelFamilyRegistration R) {
  const KernelFamilyInfo &F = R.Family;
  if (!nonEmpty(F.Name) || !nonEmpty(F.Struct) || !nonEmpty(F.Header))
    return registrationError(R, "needs a name, a struct and a header");
  if (!R.Builder)
    return registrationError(R, "has no builder");
  auto Taken = [&](const KernelFamilyInfo &Other) {
    return llvm::StringRef(Other.Name) == F.Name ||
           llvm::StringRef(Other.Struct) == F.Struct;
  };
  for (const KernelFamilyInfo &Other : kernelFamilies())
    if (Taken(Other))
      return registrationError(
          R, llvm::formatv("the reference kernels already declare {0}",
                           Other.Struct));
  for (const RegisteredFamily &Other : registry())
    if (Taken(Other.Family))
      return registrationError(
          R, llvm::formatv("{0} already declares {1}", Other.Origin,
                           Other.Family.Struct));
  for (const KernelFieldInfo &Field : F.Fields)
    if (!nonEmpty(Field.Name) ||
        !withFieldType(Field.CType ? Field.CType : "", [](auto *) {}))
      return registrationError(
          R, llvm::formatv("field '{0}' has no name or an unknown C type "
                           "'{1}'",
                           Field.Name ? Field.Name : "",
                           Field.CType ? Field.CType : ""));
  const auto Kinds = [&](ArgKind A, ArgKind B) {
    return llvm::count_if(F.Args, [&](const KernelArgInfo &Arg) {
      return Arg.Kind == A || Arg.Kind == B;
    });
  };
  if (Kinds(ArgKind::Params, ArgKind::Fields) != 1 ||
      Kinds(ArgKind::Output, ArgKind::Output) != 1)
    return registrationError(R, "needs exactly one parameters argument and "
                                "one output");
  if (llvm::any_of(F.Args, [](const KernelArgInfo &A) {
        return A.Kind == ArgKind::Result || A.Kind == ArgKind::Scratch;
      }))
    return registrationError(R, "writes several results or takes scratch "
                                "memory, which registered families cannot "
                                "yet");
  for (const KernelFunctionInfo &Fn : R.Functions) {
    if (!nonEmpty(Fn.Name))
      return registrationError(R, "a function has no name");
    if (findKernelFunction(Fn.Name) ||
        llvm::count_if(R.Functions, [&](const KernelFunctionInfo &Other) {
          return llvm::StringRef(Other.Name) == Fn.Name;
        }) != 1)
      return registrationError(
          R, llvm::formatv("function {0} is declared already", Fn.Name));
  }
  for (const auto &[Op, Fn] : R.Rows) {
    if (!nonEmpty(Op) ||
        llvm::none_of(R.Functions, [&, Fn = Fn](const KernelFunctionInfo &X) {
          return Fn && llvm::StringRef(X.Name) == Fn;
        }))
      return registrationError(
          R, llvm::formatv("a row names function '{0}', which it does not "
                           "declare",
                           Fn ? Fn : ""));
    std::string Other = familyComputing(Op);
    if (!Other.empty())
      return registrationError(
          R, llvm::formatv("operator {0} already runs with kernel family "
                           "'{1}'",
                           Op, Other));
  }
  if (llvm::none_of(R.Files, [&](const auto &File) {
        return File.first && llvm::StringRef(File.first) == F.Header;
      }))
    return registrationError(
        R, llvm::formatv("its header {0} is not among its files", F.Header));
  for (const auto &[Name, Text] : R.Files) {
    if (!nonEmpty(Name) || !Text)
      return registrationError(R, "a file has no name or no text");
    if (registeredKernelFile(Name))
      return registrationError(
          R, llvm::formatv("file {0} is brought already", Name));
  }

  RegisteredFamily &New = registry().emplace_back();
  New.Family = std::move(R.Family);
  New.Files = std::move(R.Files);
  New.Origin = std::move(R.Origin);
  New.ProgramRows = R.ProgramRows;
  for (KernelFunctionInfo Fn : R.Functions) {
    Fn.Family = &New.Family;
    New.Functions.push_back(Fn);
  }
  for (const auto &[Op, Fn] : R.Rows)
    for (const KernelFunctionInfo &X : New.Functions)
      if (llvm::StringRef(X.Name) == Fn)
        kernelRows().push_back({Op, &X, R.Builder});
  return llvm::Error::success();
}

} // namespace

llvm::Error registerKernelFamilies(std::vector<KernelFamilyRegistration> All) {
  const size_t Families = registry().size(), Rows = kernelRows().size();
  for (KernelFamilyRegistration &R : All)
    if (llvm::Error E = addFamily(std::move(R))) {
      registry().erase(registry().begin() + Families, registry().end());
      kernelRows().erase(kernelRows().begin() + Rows, kernelRows().end());
      return E;
    }
  // An operator of their own: a model names it as a custom operator.
  for (size_t I = Rows; I < kernelRows().size(); ++I)
    if (ir::opCodeOf(kernelRows()[I].Op) == ir::OpCode::Unknown)
      ir::registerCustomOperator(kernelRows()[I].Op);
  return llvm::Error::success();
}

llvm::Error registerKernelFamily(KernelFamilyRegistration R) {
  std::vector<KernelFamilyRegistration> One;
  One.push_back(std::move(R));
  return registerKernelFamilies(std::move(One));
}

std::vector<const KernelFamilyInfo *> registeredFamilies() {
  std::vector<const KernelFamilyInfo *> Out;
  for (const RegisteredFamily &R : registry())
    Out.push_back(&R.Family);
  return Out;
}

const KernelFamilyInfo *findRegisteredFamily(llvm::StringRef Name) {
  for (const RegisteredFamily &R : registry())
    if (Name == R.Family.Name)
      return &R.Family;
  return nullptr;
}

std::optional<RegisteredRows>
registeredProgramRows(const KernelFamilyInfo &F) {
  for (const RegisteredFamily &R : registry())
    if (&R.Family == &F && nonEmpty(R.ProgramRows))
      return RegisteredRows{R.ProgramRows, R.Origin};
  return std::nullopt;
}

std::optional<RegisteredFile> registeredKernelFile(llvm::StringRef Name) {
  for (const RegisteredFamily &R : registry())
    for (const auto &[File, Text] : R.Files)
      if (Name == File)
        return RegisteredFile{Text, R.Origin};
  return std::nullopt;
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

bool readsQuantized(const ir::Graph &G, const ir::Operator &Op) {
  auto Quantized = [&](int32_t T) {
    return G.isValidTensor(T) && G.tensor(T).Quant &&
           G.tensor(T).Type != ir::DType::F32;
  };
  return llvm::any_of(Op.Inputs, Quantized) ||
         llvm::any_of(Op.Outputs, Quantized);
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
  Ctx.setFamily(*First->Function->Family);
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
    // The integer functions round nothing: every arithmetic's.
    if (G.Computes == ir::Arithmetic::ONNX && !Family.AnyArithmetic &&
        Call->Variant != "onnx" && Call->Variant != "onnx_per_channel" &&
        Call->Variant != "integer" && readsQuantized(G, Op))
      return Ctx.error(llvm::formatv(
          "no {0} kernel computes ONNX's arithmetic (requantization in "
          "float32, rounding half to even), which the model specifies, for "
          "it; --onnx-arithmetic tflite computes TensorFlow Lite's for the "
          "whole model (docs/onnx.md)",
          Family.Name));
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
