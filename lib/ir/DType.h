//===- DType.h - Element types of the Graph IR ----------------------------===//
//
// The element types a tensor can hold, with their names and sizes. The names
// are the short forms used everywhere in accelgen: in the IR printer, in
// `accelgen inspect`, in target descriptions (`i8`, `u8`, ...).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_DTYPE_H
#define ACCELGEN_IR_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace accelgen {
namespace ir {

/// An element type of a tensor.
enum class DType : uint8_t { I8, U8, I16, I32, I64, F16, F32, Bool, U32 };

/// The short name of \p T: "i8", "u8", "i16", "i32", "i64", "f16", "f32",
/// "bool", "u32".
llvm::StringRef dtypeName(DType T);

/// The size in bytes of one element of \p T.
unsigned dtypeSize(DType T);

/// Parses a short name back to a type; std::nullopt if it is not one.
std::optional<DType> parseDType(llvm::StringRef Name);

/// True for the integer types that carry quantized values.
inline bool isQuantizedIntType(DType T) {
  return T == DType::I8 || T == DType::U8 || T == DType::I16 || T == DType::I32;
}

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_DTYPE_H
