//===- OpCode.h - The Graph IR's operator vocabulary ----------------------===//
//
// One enumerator per canonical operator of defs/ops.td, named as its record
// (Conv2D for CONV_2D), and one constant per attribute name (attr::StrideH
// for "stride_h"), all generated from defs/ops.td by accelgen-tblgen
// -gen-op-vocabulary (OpVocabulary.inc). An operator's string Type stays its
// identity: target operators (MDLA_CONV_2D) and opaque operators have no
// enumerator, and read as OpCode::Unknown.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_OPCODE_H
#define ACCELGEN_IR_OPCODE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace accelgen {
namespace ir {

/// A canonical operator of defs/ops.td; Unknown for any other.
enum class OpCode : uint16_t {
  Unknown = 0,
#define ACCELGEN_OP(Enumerator, Name, BuiltinCode) Enumerator,
#include "ir/OpVocabulary.inc"
};

/// The canonical name of \p Code ("CONV_2D"); "" for Unknown.
llvm::StringRef opName(OpCode Code);

/// The operator named \p Name; Unknown for a target operator or any name
/// defs/ops.td does not define.
OpCode opCodeOf(llvm::StringRef Name);

/// How many operands and results an operator of defs/ops.td takes: optional
/// operands may be left off the end; MaxOperands is -1 for a variadic one.
struct OpArity {
  int32_t MinOperands = 0;
  int32_t MaxOperands = -1;
  int32_t NumResults = 1;
};

/// The arity of \p Code as defs/ops.td declares it (any count for Unknown).
OpArity opArity(OpCode Code);

/// The attribute names of defs/ops.td's operators, as constants.
namespace attr {
#define ACCELGEN_ATTR(Constant, Name)                                          \
  inline constexpr llvm::StringLiteral Constant = Name;
#include "ir/OpVocabulary.inc"
} // namespace attr

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_OPCODE_H
