//===- ParamPrinter.cpp - Kernel parameters as C declarations -------------===//
//
// One printFields overload per params struct is generated from the X-macro
// rows of the kernel table (ref_kernel_table.inc, from defs/kernels.td); each
// forwards every field to a FieldWriter,
// whose overloads know how to spell each C field type. A field of a type
// the writer does not know fails to compile here, not silently at run time.
//
//===----------------------------------------------------------------------===//
#include "emit/ParamPrinter.h"
#include "emit/CLiteral.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>
#include <vector>

namespace accelgen {
namespace emit {

namespace {

/// An array a pointer field of a params struct may aim at.
struct KnownArray {
  const void *Data;
  size_t Count;
  llvm::StringRef CType;
  std::vector<std::string> Literals;
};

// The literal of each C field type; a params struct with a field of any
// other type fails to compile here.
std::string literal(int8_t V) { return intLiteral(V); }
std::string literal(int16_t V) { return intLiteral(V); }
std::string literal(int32_t V) { return intLiteral(V); }
std::string literal(int64_t V) { return intLiteral(V); }
std::string literal(uint8_t V) { return unsignedLiteral(V); }
std::string literal(uint16_t V) { return unsignedLiteral(V); }
std::string literal(uint32_t V) { return unsignedLiteral(V); }
std::string literal(uint64_t V) { return unsignedLiteral(V); }
std::string literal(float V) { return floatLiteral(V); }
std::string literal(double V) { return doubleLiteral(V); }

/// Collects the `.field = value` initializers of one struct and the arrays
/// they refer to.
class FieldWriter {
public:
  explicit FieldWriter(llvm::StringRef Prefix) : Prefix(Prefix.str()) {}

  /// Makes the elements of \p V available to pointer fields.
  void known(llvm::ArrayRef<int32_t> V) {
    KnownArray A{V.data(), V.size(), "int32_t", {}};
    for (int32_t X : V)
      A.Literals.push_back(intLiteral(X));
    Known.push_back(std::move(A));
  }
  void known(llvm::ArrayRef<float> V) {
    KnownArray A{V.data(), V.size(), "float", {}};
    for (float X : V)
      A.Literals.push_back(floatLiteral(X));
    Known.push_back(std::move(A));
  }

  /// A scalar field.
  template <typename T> void field(const char *Name, T V) {
    add(Name, literal(V));
  }
  /// A pointer field: NULL, or an array of its own named after the field.
  void field(const char *Name, const int32_t *P) { pointer(Name, P); }
  void field(const char *Name, const float *P) { pointer(Name, P); }

  /// A fixed-size array field, every element printed.
  template <typename T> void array(const char *Name, const T *P, size_t N) {
    std::string S = "{";
    for (size_t I = 0; I < N; ++I)
      S += (I ? ", " : "") + literal(P[I]);
    add(Name, S + "}");
  }

  /// The declarations: the arrays pointed at, then `static const Struct
  /// Prefix_params = {...};`.
  std::string finish(llvm::StringRef Struct) const {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << Arrays;
    OS << "static const " << Struct << " " << Prefix << "_params = {\n";
    for (const std::string &F : Fields)
      OS << "    " << F << ",\n";
    OS << "};\n";
    return OS.str();
  }

  llvm::Error takeError() {
    return Problem.empty() ? llvm::Error::success()
                           : llvm::createStringError(
                                 llvm::inconvertibleErrorCode(), Problem);
  }

private:
  void add(const char *Name, const std::string &Value) {
    Fields.push_back("." + std::string(Name) + " = " + Value);
  }

  void pointer(const char *Name, const void *P) {
    if (!P) {
      add(Name, "NULL");
      return;
    }
    for (const KnownArray &A : Known) {
      if (A.Data != P)
        continue;
      ownArray(Name, A.CType, A.Literals);
      return;
    }
    Problem = llvm::formatv("field {0} points at an array the C emitter does "
                            "not know",
                            Name)
                  .str();
    add(Name, "NULL");
  }

public:
  /// A pointer field aiming at an array of its own, \p Literals of
  /// \p CType; NULL when there are none.
  void ownArray(const char *Name, llvm::StringRef CType,
                const std::vector<std::string> &Literals) {
    if (Literals.empty()) {
      add(Name, "NULL");
      return;
    }
    std::string ArrayName = Prefix + "_" + Name;
    llvm::raw_string_ostream OS(Arrays);
    OS << "static const " << CType << " " << ArrayName << "["
       << Literals.size() << "] = {";
    for (size_t I = 0; I < Literals.size(); ++I)
      OS << (I % 8 ? " " : "\n    ") << Literals[I]
         << (I + 1 < Literals.size() ? "," : "\n");
    OS << "};\n";
    add(Name, ArrayName);
  }

  /// The fields' values, in order.
  std::vector<std::string> values() const {
    std::vector<std::string> V;
    for (const std::string &F : Fields)
      V.push_back(F.substr(F.find(" = ") + 3));
    return V;
  }

private:
  std::string Prefix;
  std::vector<KnownArray> Known;
  std::vector<std::string> Fields;
  std::string Arrays;
  std::string Problem;
};

// One printFields per family's C struct, from the kernel table.
#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)                                \
  [[maybe_unused]] void printFields(FieldWriter &W, const Struct &P) {
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)                        \
  W.field(#Field, P.Field);
#define REF_KERNEL_POINTER(Family, Struct, Field, CType)                       \
  W.field(#Field, P.Field);
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)                 \
  W.array(#Field, P.Field, Length);
#define REF_KERNEL_PARAMS_END(Family, Struct) }
#include "ref_kernel_table.inc"

// The arrays each family's pointer fields aim at.
#define REF_KERNEL_PARAMS_BEGIN(Family, Struct)                                \
  [[maybe_unused]] void knownArrays(FieldWriter &W,                            \
                                    const kernels::FamilyParams<Struct> &P) {  \
    (void)W;                                                                   \
    (void)P;
#define REF_KERNEL_SCALAR(Family, Struct, Field, CType)
#define REF_KERNEL_ARRAY(Family, Struct, Field, CType, Length)
#define REF_KERNEL_POINTER(Family, Struct, Field, CType) W.known(P.Field);
#define REF_KERNEL_PARAMS_END(Family, Struct) }
#include "ref_kernel_table.inc"

/// The fields of a registered family's parameters, through forEachField.
struct DynamicFields {
  FieldWriter &W;
  const kernels::KernelFamilyInfo &Family;

  template <typename T> void scalar(const char *Name, const T &V) {
    W.field(Name, V);
  }
  template <typename T> void array(const char *Name, const T *P, size_t N) {
    W.array(Name, P, N);
  }
  template <typename T>
  void pointer(const char *Name, const std::vector<T> &V) {
    std::vector<std::string> Literals;
    for (const T &X : V)
      Literals.push_back(literal(X));
    llvm::StringRef CType;
    for (const kernels::KernelFieldInfo &F : Family.Fields)
      if (llvm::StringRef(F.Name) == Name)
        CType = F.CType;
    W.ownArray(Name, CType, Literals);
  }
};

} // namespace

llvm::Expected<PrintedParams> printParams(const kernels::AnyParams &Params,
                                          llvm::StringRef Prefix) {
  FieldWriter W(Prefix);
  PrintedParams Out;
  const kernels::KernelFamilyInfo &Family = kernels::familyOf(Params);
  std::visit(
      [&](const auto &P) {
        if constexpr (std::is_same_v<std::decay_t<decltype(P)>,
                                     kernels::DynamicParams>) {
          kernels::forEachField(DynamicFields{W, Family}, P);
        } else {
          knownArrays(W, P);
          auto C = P.c();
          printFields(W, C);
        }
        Out.Declarations = W.finish(Family.Struct);
        Out.Argument = "&" + Prefix.str() + "_params";
      },
      Params);
  if (Family.ByValue) {
    // The fields are the arguments: no struct to declare.
    Out.Declarations.clear();
    Out.Argument = llvm::join(W.values(), ", ");
  }
  if (llvm::Error E = W.takeError())
    return std::move(E);
  return Out;
}

} // namespace emit
} // namespace accelgen
