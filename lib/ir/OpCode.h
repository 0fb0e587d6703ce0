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

/// The attribute names of defs/ops.td's operators, as constants.
namespace attr {
#define ACCELGEN_ATTR(Constant, Name)                                          \
  inline constexpr llvm::StringLiteral Constant = Name;
#include "ir/OpVocabulary.inc"
} // namespace attr

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_OPCODE_H
