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
  /// Bit I set: operand I (of the first 64) may not be omitted. Optional
  /// operands are usually trailing; SVDF's bias is followed by its state.
  uint64_t RequiredMask = ~uint64_t(0);

  bool required(int64_t I) const {
    return I >= 64 || ((RequiredMask >> I) & 1) != 0;
  }
};

/// The arity of \p Code as defs/ops.td declares it (any count for Unknown).
OpArity opArity(OpCode Code);

/// How the input rows an operator reads follow from a stripe of its output
/// rows (`StripeRows` in defs/accelgen.td).
enum class RowKind : uint8_t {
  Whole,    ///< Needs its whole input.
  Identity, ///< Output rows [a, b) read rows [a, b) of every data input.
  Shifted,  ///< Rows [a, b) read rows [a - p, b - p) of input 0 (PAD).
  Window,   ///< A sliding window over input 0 (convolutions, pools).
  /// Sums over input 0's rows, read a stripe at a time; the output is
  /// written whole after the last (FULLY_CONNECTED; ends a cascade).
  Accumulate,
};

/// An operator's stripe transform as defs/ops.td declares it.
struct RowMap {
  RowKind Kind = RowKind::Whole;
  /// For a window: the attributes giving stride, dilation (1 when empty) and
  /// kernel height (empty when the kernel operand gives it).
  llvm::StringRef Stride, Dilation, Kernel;
  /// For a window: the operand whose dimension 1 is the kernel height, or -1.
  int32_t KernelOperand = -1;
};

/// The stripe transform of \p Code (Whole for Unknown).
RowMap rowMap(OpCode Code);
/// The same over the columns (dimension 2; a window's kernel operand gives
/// the width as its dimension 2): Whole or Window, for tiled cascades.
RowMap colMap(OpCode Code);

/// True when the rows of input 0 an operator of \p Code reads follow from
/// its output rows through a map (window, shifted) rather than being them.
inline bool mapsInputRows(OpCode Code) {
  const RowKind K = rowMap(Code).Kind;
  return K == RowKind::Window || K == RowKind::Shifted;
}

/// True when a stripe of an operator of \p Code reads rows of input 0 of its
/// own (StripeStep::In) rather than its output rows: a window, a shifted
/// copy, or an operator summing over its input's rows.
inline bool readsInputRows(OpCode Code) {
  return mapsInputRows(Code) || rowMap(Code).Kind == RowKind::Accumulate;
}

/// Whether output 0 of an operator of \p Code may take the bytes of its
/// operand \p Operand (`OutputOverlays` in defs/ops.td): its kernels read
/// each element of that operand before writing the same element of the
/// output. False for Unknown.
bool mayOverlay(OpCode Code, unsigned Operand);

/// True for an operator the generated code runs itself, without a kernel
/// (`RunByHost` in defs/ops.td): IF, WHILE, CALL_ONCE and the resource
/// variables' operators.
bool runByHost(OpCode Code);

/// Adds \p Name to the operators known by name alone: the operators no
/// defs/ops.td declares that a kernel family registered at run time (a
/// plugin's) computes. A TensorFlow Lite CUSTOM operator whose custom code
/// is one of them imports as that operator, its FlexBuffer options as its
/// attributes.
void registerCustomOperator(llvm::StringRef Name);

/// Whether \p Name was added by registerCustomOperator.
bool isCustomOperator(llvm::StringRef Name);

/// The attribute names of defs/ops.td's operators, as constants.
namespace attr {
#define ACCELGEN_ATTR(Constant, Name)                                          \
  inline constexpr llvm::StringLiteral Constant = Name;
#include "ir/OpVocabulary.inc"
} // namespace attr

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_OPCODE_H
