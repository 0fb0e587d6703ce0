//===- KernelTemplate.cpp - Rendering a kernel family's C templates --------===//
#include "template/KernelTemplate.h"
#include "template/Template.h"

namespace accelgen {
namespace tmpl {

Value kernelDataTypes() {
  auto Quantized = [](const char *CType, const char *Min, const char *Max) {
    return Value(Value::Map{
        {"ctype", CType}, {"quantized", true}, {"min", Min}, {"max", Max}});
  };
  return Value(Value::Map{
      {"i8", Quantized("int8_t", "INT8_MIN", "INT8_MAX")},
      {"u8", Quantized("uint8_t", "0", "UINT8_MAX")},
      {"i16", Quantized("int16_t", "INT16_MIN", "INT16_MAX")},
      {"i32", Quantized("int32_t", "INT32_MIN", "INT32_MAX")},
      // Only an accumulator and bias type.
      {"i64", Value(Value::Map{{"ctype", "int64_t"}, {"quantized", false}})},
      {"f32", Value(Value::Map{{"ctype", "float"}, {"quantized", false}})},
      // TensorFlow Lite's one-byte bool, stored as 0 or 1.
      {"bool", Value(Value::Map{{"ctype", "uint8_t"},
                                {"quantized", false},
                                {"min", "0"},
                                {"max", "1"}})},
      {"u32", Value(Value::Map{{"ctype", "uint32_t"}, {"quantized", false}})}});
}

llvm::Expected<std::string> renderKernelTemplate(llvm::StringRef Text,
                                                 llvm::StringRef Name,
                                                 Value::List Kernels) {
  llvm::Expected<Template> T = Template::parse(Text, Name);
  if (!T)
    return T.takeError();
  llvm::Expected<std::string> Body = T->render(Bindings{
      {"KERNELS", Value(std::move(Kernels))}, {"DT", kernelDataTypes()}});
  if (!Body)
    return Body.takeError();
  return banner(Name, "/*") + *Body;
}

} // namespace tmpl
} // namespace accelgen
