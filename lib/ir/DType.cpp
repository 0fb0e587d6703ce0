//===- DType.cpp - Element types of the Graph IR --------------------------===//
#include "ir/DType.h"

#include "llvm/Support/ErrorHandling.h"

namespace accelgen {
namespace ir {

namespace {
struct DTypeInfo {
  DType Type;
  const char *Name;
  unsigned Size;
};
constexpr DTypeInfo Infos[] = {
    {DType::I8, "i8", 1},   {DType::U8, "u8", 1},   {DType::I16, "i16", 2},
    {DType::I32, "i32", 4}, {DType::I64, "i64", 8}, {DType::F16, "f16", 2},
    {DType::F32, "f32", 4}, {DType::Bool, "bool", 1}, {DType::U32, "u32", 4},
};
} // namespace

llvm::StringRef dtypeName(DType T) {
  for (const DTypeInfo &I : Infos)
    if (I.Type == T)
      return I.Name;
  llvm_unreachable("unknown DType");
}

unsigned dtypeSize(DType T) {
  for (const DTypeInfo &I : Infos)
    if (I.Type == T)
      return I.Size;
  llvm_unreachable("unknown DType");
}

std::optional<DType> parseDType(llvm::StringRef Name) {
  for (const DTypeInfo &I : Infos)
    if (Name == I.Name)
      return I.Type;
  return std::nullopt;
}

} // namespace ir
} // namespace accelgen
