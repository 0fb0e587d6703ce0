//===- BuiltinOps.cpp - TensorFlow Lite builtin operator codes -------------===//
//
// Tables of rows from OpVocabulary.inc (generated from defs/tflite.td and
// defs/ops.td), each with one lookup.
//
//===----------------------------------------------------------------------===//
#include "import/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace accelgen {
namespace tflite {

namespace {

struct BuiltinRow {
  int32_t Code;
  llvm::StringLiteral Name;
};

/// Every builtin code of the format, ascending.
constexpr BuiltinRow Builtins[] = {
#define ACCELGEN_TFLITE_BUILTIN(Id, Name, Code) {Code, Name},
#include "ir/OpVocabulary.inc"
};

struct OpRow {
  ir::OpCode Op;
  int32_t Code;
};

/// The builtin code of every canonical operator, in ir::OpCode order.
constexpr OpRow Ops[] = {
#define ACCELGEN_OP(Enumerator, Name, BuiltinCode)                             \
  {ir::OpCode::Enumerator, BuiltinCode},
#include "ir/OpVocabulary.inc"
};

const BuiltinRow *findCode(int32_t Code) {
  const BuiltinRow *It = llvm::partition_point(
      Builtins, [Code](const BuiltinRow &R) { return R.Code < Code; });
  return It != std::end(Builtins) && It->Code == Code ? It : nullptr;
}

} // namespace

std::string builtinOperatorName(int32_t Code) {
  if (const BuiltinRow *R = findCode(Code))
    return R->Name.str();
  return "BUILTIN_" + std::to_string(Code);
}

int32_t builtinOperatorCode(llvm::StringRef Name) {
  return llvm::StringSwitch<int32_t>(Name)
#define ACCELGEN_TFLITE_BUILTIN(Id, Name, Code) .Case(Name, Code)
#include "ir/OpVocabulary.inc"
      .Default(-1);
}

ir::OpCode builtinOpCode(int32_t Code) {
  for (const OpRow &R : Ops)
    if (R.Code == Code && Code >= 0)
      return R.Op;
  return ir::OpCode::Unknown;
}

int32_t builtinCodeOf(ir::OpCode Op) {
  for (const OpRow &R : Ops)
    if (R.Op == Op)
      return R.Code;
  return -1;
}

} // namespace tflite
} // namespace accelgen
