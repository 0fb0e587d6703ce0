//===- BuiltinOps.cpp - TensorFlow Lite builtin operator codes -------------===//
#include "import/BuiltinOps.h"

#include <iterator>

namespace accelgen {
namespace tflite {

static const char *const BuiltinNames[] = {
#include "BuiltinNames.inc"
};

std::string builtinOperatorName(int32_t Code) {
  if (Code >= 0 && Code < static_cast<int32_t>(std::size(BuiltinNames)) &&
      BuiltinNames[Code][0] != '\0')
    return BuiltinNames[Code];
  return "BUILTIN_" + std::to_string(Code);
}

int32_t builtinOperatorCode(llvm::StringRef Name) {
  for (size_t I = 0; I < std::size(BuiltinNames); ++I)
    if (!Name.empty() && Name == BuiltinNames[I])
      return static_cast<int32_t>(I);
  return -1;
}

} // namespace tflite
} // namespace accelgen
