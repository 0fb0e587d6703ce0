//===- BuiltinOps.h - TensorFlow Lite builtin operator codes ---------------===//
//
// The builtin operator codes of the TensorFlow Lite format, from defs/tflite.td
// through the generated OpVocabulary.inc: names by code and back, and the
// canonical operator (ir::OpCode) a code is.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_BUILTINOPS_H
#define ACCELGEN_IMPORT_BUILTINOPS_H

#include "ir/OpCode.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace accelgen {
namespace tflite {

/// A builtin operator code of the format (BuiltinOperator in its schema).
enum class Builtin : int32_t {
#define ACCELGEN_TFLITE_BUILTIN(Id, Name, Code) Id = Code,
#include "ir/OpVocabulary.inc"
};

/// The TensorFlow Lite name of builtin operator \p Code ("CONV_2D"), or
/// "BUILTIN_<code>" for a code the format does not assign.
std::string builtinOperatorName(int32_t Code);

/// The builtin code named \p Name, or -1.
int32_t builtinOperatorCode(llvm::StringRef Name);

/// The canonical operator builtin \p Code is; Unknown for a code defs/ops.td
/// has no operator for.
ir::OpCode builtinOpCode(int32_t Code);

/// The builtin code of canonical operator \p Op; -1 for one of accelgen's own
/// (REQUANTIZE) and for Unknown.
int32_t builtinCodeOf(ir::OpCode Op);

} // namespace tflite
} // namespace accelgen

#endif // ACCELGEN_IMPORT_BUILTINOPS_H
