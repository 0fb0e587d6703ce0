//===- OpCode.cpp - Names of the Graph IR's operators ---------------------===//
#include "ir/OpCode.h"

#include "llvm/ADT/StringSwitch.h"

#include <iterator>
#include <set>
#include <string>

namespace accelgen {
namespace ir {

namespace {

/// Names by enumerator value; Unknown's is empty.
const llvm::StringLiteral Names[] = {
    "",
#define ACCELGEN_OP(Enumerator, Name, BuiltinCode) Name,
#include "ir/OpVocabulary.inc"
};

} // namespace

llvm::StringRef opName(OpCode Code) {
  auto Index = static_cast<size_t>(Code);
  if (Index >= std::size(Names))
    return "";
  return Names[Index];
}

OpCode opCodeOf(llvm::StringRef Name) {
  return llvm::StringSwitch<OpCode>(Name)
#define ACCELGEN_OP(Enumerator, Name, BuiltinCode)                             \
  .Case(Name, OpCode::Enumerator)
#include "ir/OpVocabulary.inc"
      .Default(OpCode::Unknown);
}

OpArity opArity(OpCode Code) {
  switch (Code) {
#define ACCELGEN_OP_ARITY(Enumerator, Min, Max, Results, Required)             \
  case OpCode::Enumerator:                                                     \
    return OpArity{Min, Max, Results, Required};
#include "ir/OpVocabulary.inc"
  case OpCode::Unknown:
    break;
  }
  return OpArity{0, -1, -1, 0};
}

RowMap rowMap(OpCode Code) {
  switch (Code) {
#define ACCELGEN_OP_ROWS(Enumerator, Kind, Stride, Dilation, Kernel, Operand)  \
  case OpCode::Enumerator:                                                     \
    return RowMap{RowKind::Kind, Stride, Dilation, Kernel, Operand};
#include "ir/OpVocabulary.inc"
  case OpCode::Unknown:
    break;
  }
  return RowMap{};
}

RowMap colMap(OpCode Code) {
  switch (Code) {
#define ACCELGEN_OP_COLS(Enumerator, Kind, Stride, Dilation, Kernel, Operand)  \
  case OpCode::Enumerator:                                                     \
    return RowMap{RowKind::Kind, Stride, Dilation, Kernel, Operand};
#include "ir/OpVocabulary.inc"
  case OpCode::Unknown:
    break;
  }
  return RowMap{};
}

bool mayOverlay(OpCode Code, unsigned Operand) {
  uint32_t Mask = 0;
  switch (Code) {
#define ACCELGEN_OP_OVERLAYS(Enumerator, Bits)                                 \
  case OpCode::Enumerator:                                                     \
    Mask = Bits;                                                               \
    break;
#include "ir/OpVocabulary.inc"
  case OpCode::Unknown:
    break;
  }
  return Operand < 32 && (Mask >> Operand & 1u) != 0;
}

bool runByHost(OpCode Code) {
  switch (Code) {
#define ACCELGEN_OP_RUN_BY_HOST(Enumerator)                                    \
  case OpCode::Enumerator:                                                     \
    return true;
#include "ir/OpVocabulary.inc"
  default:
    return false;
  }
}

namespace {
std::set<std::string, std::less<>> &customOperators() {
  static std::set<std::string, std::less<>> Names;
  return Names;
}
} // namespace

void registerCustomOperator(llvm::StringRef Name) {
  customOperators().insert(Name.str());
}

bool isCustomOperator(llvm::StringRef Name) {
  return customOperators().count(Name) != 0;
}

} // namespace ir
} // namespace accelgen
