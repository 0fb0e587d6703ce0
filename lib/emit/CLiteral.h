//===- CLiteral.h - Values as C99 source text -------------------*- C++ -*-===//
//
// How the C emitter spells numbers, element types and comments: every float
// and double so that a C99 compiler reads back exactly the same value
// (`%.9g` with an `f` suffix, `%.17g`; infinities as HUGE_VALF / HUGE_VAL, NaN
// as NAN), integers so that no literal needs a wider type than its field
// (INT32_MIN as `(-2147483647 - 1)`), constant tensor data as initializer
// lists, and arbitrary names safely inside comments.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_CLITERAL_H
#define ACCELGEN_EMIT_CLITERAL_H

#include "ir/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace accelgen {
namespace emit {

/// A float literal that reads back as exactly \p V: "0.5f", "1e-06f",
/// "HUGE_VALF", "(-HUGE_VALF)", "NAN".
std::string floatLiteral(float V);

/// A double literal that reads back as exactly \p V: "0.5", "(-HUGE_VAL)".
std::string doubleLiteral(double V);

/// An integer literal of type int (or wider when needed), valid for any
/// int64_t: "-5", "(-2147483647 - 1)", "INT64_C(8589934592)".
std::string intLiteral(int64_t V);

/// An unsigned literal: "5u", "4294967295u".
std::string unsignedLiteral(uint64_t V);

/// The C type of one element of \p T: "int8_t", "float", ...
llvm::StringRef cType(ir::DType T);

/// Writes the \p Bytes of a tensor of element type \p T (little-endian, as
/// in the IR) as the body of a C initializer list: comma-separated literals,
/// several per line, each line starting with \p Indent.
void writeInitializer(llvm::raw_ostream &OS, ir::DType T,
                      llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef Indent);

/// \p Text made safe inside a C block comment: no "*/", no control or
/// non-ASCII characters.
std::string commentSafe(llvm::StringRef Text);

/// True if \p Name is a C identifier that reserves nothing: letters, digits
/// and underscores, not starting with a digit or an underscore.
bool isCIdentifier(llvm::StringRef Name);

/// Why \p Name cannot prefix an emitted model's symbols (NAME_run,
/// NAME_UPPER_ARENA_BYTES, ...): it is no C identifier, or it is (or starts
/// with) the prefix of a C library the emitted program links, whose symbols
/// it would then collide with (accel_*: the functional model's runtime;
/// ref_*: the reference kernels; cpu_*: target cpu's kernels; arm_*:
/// CMSIS-NN; cnn_*: its calls' constants). Empty when it can.
std::string modelNameProblem(llvm::StringRef Name);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_CLITERAL_H
