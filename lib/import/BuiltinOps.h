//===- BuiltinOps.h - TensorFlow Lite builtin operator codes ---------------===//
#ifndef ACCELGEN_IMPORT_BUILTINOPS_H
#define ACCELGEN_IMPORT_BUILTINOPS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace accelgen {
namespace tflite {

/// The TensorFlow Lite name of builtin operator \p Code ("CONV_2D"), or
/// "BUILTIN_<code>" for a code the format does not assign.
std::string builtinOperatorName(int32_t Code);

/// The builtin code named \p Name, or -1.
int32_t builtinOperatorCode(llvm::StringRef Name);

} // namespace tflite
} // namespace accelgen

#endif // ACCELGEN_IMPORT_BUILTINOPS_H
