//===- KernelTemplate.h - Rendering a kernel family's C templates ----------===//
//
// A kernel family's `.h.in` / `.c.in` templates (the reference kernels'
// templates/ref/, or a target's own `<target>_<template>.{h,c}.in`) are
// rendered once each with two bindings:
//
//   KERNELS  the instantiation rows of the template's families, in order,
//            each a map of its KEY=VALUE words (FUNCTION, OP, DTYPE, OUT,
//            VARIANT, WEIGHTS, ACC);
//   DT       per element type (i8, u8, i16, i32, i64, f32, bool, u32):
//            `ctype`, the C element type, and `quantized`; the quantized
//            types (and bool) also `min` and `max` as C expressions.
//
// accelgen-ref-kernels renders the reference kernels with it at build time,
// accelgen-tblgen a target's own families.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TEMPLATE_KERNELTEMPLATE_H
#define ACCELGEN_TEMPLATE_KERNELTEMPLATE_H

#include "template/Value.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace accelgen {
namespace tmpl {

/// The DT binding.
Value kernelDataTypes();

/// Template \p Text, called \p Name in errors and in the banner the output
/// opens with, rendered for the instantiation rows \p Kernels; an error
/// located in the template otherwise.
llvm::Expected<std::string> renderKernelTemplate(llvm::StringRef Text,
                                                 llvm::StringRef Name,
                                                 Value::List Kernels);

} // namespace tmpl
} // namespace accelgen

#endif // ACCELGEN_TEMPLATE_KERNELTEMPLATE_H
