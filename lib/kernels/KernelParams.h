//===- KernelParams.h - Reference kernel parameters from the IR -*- C++ -*-===//
//
// For one Graph IR operator, which reference C kernel runs it and with which
// parameters. The kernel families, their functions and which operators each
// function computes are declared once, in defs/kernels.td; this header reads
// them from the generated ref_kernel_table.inc. The parameters are the C
// structs of the reference kernels (ref_params.h, generated) filled
// exactly as TensorFlow Lite fills its own when it prepares the operator:
// quantized multipliers from the float scales, per-channel arrays, zero-point
// offsets, activation clamps, padding. The C emitter prints them as
// constants; the tests pass them straight to the kernels.
//
// Anything the kernels do not implement (a data type, an attribute value, a
// quantization scheme) is an llvm::Error naming the operator and the reason;
// malformed operators (missing operands, inconsistent shapes) are errors too,
// never crashes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_KERNELS_KERNELPARAMS_H
#define ACCELGEN_KERNELS_KERNELPARAMS_H

#include "ir/Graph.h"
#include "kernels/QuantMath.h"
#include "ref_kernels.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace accelgen {
namespace kernels {

/// The parameters of one kernel family: its C struct (`Scalars`) and, for
/// each pointer field, the array it aims at, named after the field. One
/// specialization per family of defs/kernels.td (ref_kernel_table.inc).
template <typename CStruct> struct FamilyParams;

#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)                                \
  template <> struct FamilyParams<Struct> {                                    \
    FamilyParams() = default;                                                  \
    FamilyParams(const Struct &S) : Scalars(S) {}                              \
    /** The C struct, its pointers aimed at this object's arrays (null when    \
     * empty); valid while this object lives unchanged. */                     \
    Struct c() const;                                                          \
    Struct Scalars{};
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)
#define REF_KERNEL_POINTER(Family, Struct, Field, CType)                       \
  std::vector<CType> Field;
#define REF_KERNEL_PARAMS_END(Family, Struct)                                  \
  }                                                                            \
  ;
#include "ref_kernel_table.inc"

#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)                                \
  inline Struct FamilyParams<Struct>::c() const {                              \
    Struct P = Scalars;
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)
#define REF_KERNEL_POINTER(Family, Struct, Field, CType)                       \
  P.Field = Field.empty() ? nullptr : Field.data();
#define REF_KERNEL_PARAMS_END(Family, Struct)                                  \
  return P;                                                                    \
  }
#include "ref_kernel_table.inc"

/// Calls, for each field of \p P (a FamilyParams<Struct>, const or not) in
/// declaration order, Visit.scalar(name, field), Visit.array(name, first
/// element, length) or Visit.pointer(name, the std::vector it aims at).
#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)                                \
  template <typename V, typename P>                                            \
  std::enable_if_t<                                                            \
      std::is_same_v<std::remove_const_t<P>, FamilyParams<Struct>>>            \
  forEachField(V &&Visit, P &Params) {
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)                        \
  Visit.scalar(#Field, Params.Scalars.Field);
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)                 \
  Visit.array(#Field, Params.Scalars.Field, size_t(Length));
#define REF_KERNEL_POINTER(Family, Struct, Field, CType)                       \
  Visit.pointer(#Field, Params.Field);
#define REF_KERNEL_PARAMS_END(Family, Struct) }
#include "ref_kernel_table.inc"

struct KernelFamilyInfo;

/// The parameters of a kernel family registered at run time
/// (registerKernelFamily): each field's elements, in the family's field
/// order, as integers or reals by its C type. A scalar holds one element, a
/// fixed array its length, a pointer field the array it aims at (none: a
/// null pointer).
struct DynamicParams {
  struct Field {
    std::vector<int64_t> Ints;
    std::vector<double> Reals;
  };
  const KernelFamilyInfo *Family = nullptr;
  std::vector<Field> Fields;

  /// Parameters of \p F with every field zero (pointer fields null).
  static DynamicParams of(const KernelFamilyInfo &F);
  /// Field \p Name, which the family must declare: a builder naming a
  /// field its family lacks stops the program with both names.
  Field &field(llvm::StringRef Name);
  const Field &field(llvm::StringRef Name) const;
  /// Sets scalar or array field \p Name: integers for an integer C type,
  /// reals for float and double.
  void set(llvm::StringRef Name, llvm::ArrayRef<int64_t> Values);
  void setReal(llvm::StringRef Name, llvm::ArrayRef<double> Values);
};

#define ACCELGEN_FAMILY_PARAMS(Struct) FamilyParams<Struct>
/// The parameters of any kernel; the alternatives follow the families'
/// order, so index() is the family's index in kernelFamilies(), and the last
/// one holds the parameters of a family registered at run time.
using AnyParams = std::variant<REF_KERNEL_STRUCT_LIST(ACCELGEN_FAMILY_PARAMS),
                               DynamicParams>;
#undef ACCELGEN_FAMILY_PARAMS

/// Calls \p Fn with a null pointer of the C type \p CType names ("int32_t",
/// "float", ...); false for a name that is none of the field types.
template <typename Fn> bool withFieldType(llvm::StringRef CType, Fn &&F) {
#define ACCELGEN_FIELD_TYPE(T)                                                 \
  if (CType == #T) {                                                           \
    F(static_cast<T *>(nullptr));                                              \
    return true;                                                               \
  }
  ACCELGEN_FIELD_TYPE(int8_t)
  ACCELGEN_FIELD_TYPE(int16_t)
  ACCELGEN_FIELD_TYPE(int32_t)
  ACCELGEN_FIELD_TYPE(int64_t)
  ACCELGEN_FIELD_TYPE(uint8_t)
  ACCELGEN_FIELD_TYPE(uint16_t)
  ACCELGEN_FIELD_TYPE(uint32_t)
  ACCELGEN_FIELD_TYPE(uint64_t)
  ACCELGEN_FIELD_TYPE(size_t)
  ACCELGEN_FIELD_TYPE(float)
  ACCELGEN_FIELD_TYPE(double)
#undef ACCELGEN_FIELD_TYPE
  return false;
}

/// How a kernel function takes one argument (defs/kernels.td, KernelArg).
enum class ArgKind {
  Params,
  Fields,
  Shape,
  Data,
  OutputShape,
  Output,
  Count,
  ElementSize,
  InputShapes,
  Inputs,
  /// A data operand the kernel reads and updates in place (variable tensor).
  State,
  /// A further result the call writes (Operand: its index, 1 or more): the
  /// call writes every result of its operator.
  Result,
  /// Working memory for the call, KernelCall::ScratchBytes bytes.
  Scratch
};

/// One argument of a family's functions.
struct KernelArgInfo {
  ArgKind Kind;
  /// The data operand (Shape, Data, State), the result (Result); -1
  /// otherwise.
  int Operand;
  const char *Name;
};

/// One field of a family's parameter struct.
struct KernelFieldInfo {
  const char *Name;
  const char *CType; ///< "int32_t", "float", ...
  /// The elements of a fixed array; 0 for a scalar and for a pointer field
  /// (whose array the operator sizes).
  size_t Length;
  bool Pointer;
};

/// One kernel family: a calling convention.
struct KernelFamilyInfo {
  const char *Name;   ///< "conv2d"
  const char *Struct; ///< "ref_conv2d_params"
  const char *Header; ///< "ref_conv.h"
  /// The parameters are passed field by field instead of as a struct.
  bool ByValue;
  /// The result may share its input's bytes, and then nothing runs.
  bool MayAlias;
  std::vector<KernelArgInfo> Args;
  std::vector<KernelFieldInfo> Fields;
  /// Its functions round nothing, so they compute every arithmetic of
  /// quantized operators (ir::Graph::Computes) alike; otherwise only its
  /// functions of variant "onnx" compute ONNX's.
  bool AnyArithmetic = false;
};

/// forEachField for the parameters of a registered family: each field is
/// visited as a typed copy of its elements, written back when \p Params is
/// not const.
template <typename V, typename P>
std::enable_if_t<std::is_same_v<std::remove_const_t<P>, DynamicParams>>
forEachField(V &&Visit, P &Params) {
  const std::vector<KernelFieldInfo> &Infos = Params.Family->Fields;
  for (size_t I = 0; I < Infos.size() && I < Params.Fields.size(); ++I) {
    const KernelFieldInfo &Info = Infos[I];
    auto &Field = Params.Fields[I];
    withFieldType(Info.CType, [&](auto *Null) {
      using T = std::remove_pointer_t<decltype(Null)>;
      std::vector<T> Typed;
      if constexpr (std::is_floating_point_v<T>)
        Typed.assign(Field.Reals.begin(), Field.Reals.end());
      else
        Typed.assign(Field.Ints.begin(), Field.Ints.end());
      if (Info.Pointer) {
        Visit.pointer(Info.Name, Typed);
      } else if (Info.Length == 0) {
        Typed.resize(1);
        Visit.scalar(Info.Name, Typed[0]);
      } else {
        Typed.resize(Info.Length);
        Visit.array(Info.Name, Typed.data(), Info.Length);
      }
      if constexpr (!std::is_const_v<P>) {
        if constexpr (std::is_floating_point_v<T>)
          Field.Reals.assign(Typed.begin(), Typed.end());
        else
          Field.Ints.assign(Typed.begin(), Typed.end());
      }
    });
  }
}

/// One kernel function.
struct KernelFunctionInfo {
  const char *Name; ///< "ref_conv2d_i8_per_channel"
  const KernelFamilyInfo *Family;
  /// The element types read and written; none for byte-moving kernels.
  std::optional<ir::DType> Type, Out;
  const char *Variant; ///< "" or "per_channel", ...
  /// The element types of data operands 0 to 2 and of the result; none
  /// where unused or any.
  std::optional<ir::DType> OperandTypes[3];
  std::optional<ir::DType> Result;
};

/// Every family, in declaration order (the alternatives of AnyParams).
llvm::ArrayRef<KernelFamilyInfo> kernelFamilies();
/// Every function, in declaration order.
llvm::ArrayRef<KernelFunctionInfo> kernelFunctions();
/// The function named \p Name, or null.
const KernelFunctionInfo *findKernelFunction(llvm::StringRef Name);
/// The family whose parameters \p P holds.
const KernelFamilyInfo &familyOf(const AnyParams &P);
/// How many results one call of \p F writes: 1, or 1 + its Result
/// arguments.
size_t resultsWritten(const KernelFamilyInfo &F);

/// The kernel that runs one operator.
struct KernelCall {
  /// The C function, e.g. "ref_conv2d_i8_per_channel".
  std::string Function;
  /// Its parameters.
  AnyParams Params;
  /// The operator inputs that are data arguments of the kernel, in the
  /// kernel's argument order (-1 for an omitted optional operand, such as a
  /// missing bias). Shape and parameter operands (RESHAPE's shape, PAD's
  /// paddings, MEAN's axes, ...) are folded into Params and not listed.
  std::vector<int32_t> DataInputs;
  /// The tensor it writes: the operator's only result, or one of several
  /// (each result of a SPLIT is one call).
  int32_t Output = -1;
  /// Every result, when the family writes them all in one call (it has
  /// Result arguments); empty otherwise.
  std::vector<int32_t> Results;
  /// The bytes of working memory the call needs (a family with a Scratch
  /// argument); set by the family's builder.
  int64_t ScratchBytes = 0;
  /// The variant of the family's function the parameters call for ("" or,
  /// for instance, "per_channel"); set by the family's builder.
  std::string Variant;
};

/// The reference kernel and parameters writing result \p Result of
/// operator \p Op of \p G, or an error saying why the reference kernels
/// cannot run it. An operator with several results runs as one call per
/// result when its family's builder writes any one of them (SPLIT, SPLIT_V,
/// UNPACK), as one call when its family writes them all (Result arguments:
/// TFLite_Detection_PostProcess); for others, several results are an error.
llvm::Expected<KernelCall> computeKernelCall(const ir::Graph &G,
                                             const ir::Operator &Op,
                                             unsigned Result = 0);

/// Every call that runs \p Op, in order: one per result, or one for all.
llvm::Expected<std::vector<KernelCall>>
computeKernelCalls(const ir::Graph &G, const ir::Operator &Op);

/// True when \p Op reads or writes a quantized tensor: an operator whose
/// results depend on the arithmetic \p G computes (ir::Graph::Computes),
/// unless its kernels round nothing (KernelFamilyInfo::AnyArithmetic).
bool readsQuantized(const ir::Graph &G, const ir::Operator &Op);

/// The reason in a computeKernelCall error message \p Message for an
/// operator of type \p Type, without the "operator N (TYPE): " it starts
/// with, for a report that names the operator already.
std::string kernelCallReason(llvm::StringRef Message, llvm::StringRef Type);

namespace detail {
class OpContext;
} // namespace detail

/// A family's builder: the call running the operator \p Ctx describes, or
/// an error naming the operator and why its kernels cannot run it.
using KernelBuilder =
    llvm::Expected<KernelCall> (*)(const detail::OpContext &Ctx);

/// A kernel family added at run time, by a plugin: its calling convention,
/// its functions, the operators each computes, the builder filling its
/// parameters (DynamicParams) and the C files that define its functions.
/// Every string is the registration's to keep alive for the process (a
/// plugin's string literals).
struct KernelFamilyRegistration {
  KernelFamilyInfo Family;
  /// Each function; its Family member is set by the registry.
  std::vector<KernelFunctionInfo> Functions;
  /// The operator (IR name) each row's function computes, and the
  /// function's name, in dispatch order.
  std::vector<std::pair<const char *, const char *>> Rows;
  KernelBuilder Builder = nullptr;
  /// The C files the functions need, by name: the family's Header, the
  /// source of the same stem, and what they include besides the reference
  /// kernels' own files (ref_common.h, ...).
  std::vector<std::pair<const char *, const char *>> Files;
  /// Where it comes from, for messages and the files' banners ("plugin
  /// accelgen-acme.so").
  std::string Origin;
  /// The family's rows of a kernel table (REF_KERNEL_FAMILY(...), ... as
  /// accelgen-tblgen -gen-kernel-registration writes them, without #undef),
  /// which an emitted functional model includes to run it; null: it runs on
  /// the CPU only.
  const char *ProgramRows = nullptr;
};

/// Adds a family. An error, registering nothing, when its struct, a
/// function or a file name is taken (by the reference kernels or another
/// registered family), when an operator it computes already has a kernel
/// family, or when the registration is inconsistent (a row naming a
/// function it does not declare, a field of an unknown C type, no header).
llvm::Error registerKernelFamily(KernelFamilyRegistration R);

/// Adds every family of \p All, in order, or none: at the first one
/// refused, the error, and those before it are removed again (a plugin's
/// families come or go together).
llvm::Error registerKernelFamilies(std::vector<KernelFamilyRegistration> All);

/// The families registered so far, in registration order.
std::vector<const KernelFamilyInfo *> registeredFamilies();

/// The registered family named \p Name, or null.
const KernelFamilyInfo *findRegisteredFamily(llvm::StringRef Name);

/// A registered family's kernel-table rows for the functional model, and
/// where it comes from; none for a family that is not registered or brings
/// no rows.
struct RegisteredRows {
  llvm::StringRef Rows;
  llvm::StringRef Origin;
};
std::optional<RegisteredRows> registeredProgramRows(const KernelFamilyInfo &F);

/// The text of the registered kernel file \p Name, and where it comes from;
/// none when no registered family brings it.
struct RegisteredFile {
  llvm::StringRef Text;
  llvm::StringRef Origin;
};
std::optional<RegisteredFile> registeredKernelFile(llvm::StringRef Name);

/// The C shape of an IR shape; an error above REF_MAX_RANK dimensions.
llvm::Expected<ref_shape> toRefShape(llvm::ArrayRef<int32_t> Shape);

} // namespace kernels
} // namespace accelgen

#endif // ACCELGEN_KERNELS_KERNELPARAMS_H
