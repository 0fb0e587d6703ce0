//===- KernelLibrary.h - The calling conventions of a kernel library
//-------===//
//
// The typed, validated model of the kernel families a description declares
// (defs/kernels.td's `KernelFamily` records, or a `.yaml`'s
// `kernel_families`, read by the front ends into KernelFamilyDecl):
// for each family its parameter struct, argument order and functions, with
// every function's C name and element types resolved. The kernel library
// emitters (KernelLibraryEmitter.cpp) read only this model; the C structs,
// the template instantiation rows and the tables of the C emitter, the
// accelerator program and the functional models all come from it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_KERNELLIBRARY_H
#define ACCELGEN_GEN_MODEL_KERNELLIBRARY_H

#include "model/Description.h"
#include "model/Diagnostics.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {

/// One field of a parameter struct.
struct KernelFieldDef {
  std::string Name;
  std::string CType;
  std::string Doc;
  /// Non-empty: a fixed array of this length (a C constant expression).
  std::string Length;
  /// A pointer to a constant array of CType.
  bool Pointer = false;
};

/// One argument of the family's functions.
struct KernelArgDef {
  std::string Kind; ///< See KernelArg in defs/accelgen.td.
  std::string Name;
  int Operand = -1;
  /// "in", "out", "acc", "wide", "any" or "" (no element type).
  std::string Elem;
  bool Optional = false;
};

/// One C function of a family.
struct KernelFunctionDef {
  std::string Name;    ///< "ref_conv2d_i8_per_channel"
  std::string Stem;    ///< "conv2d"
  std::string Type;    ///< Element type read ("i8"), "" for any.
  std::string Out;     ///< Element type written, "" when it is Type.
  std::string Variant; ///< "" or "per_channel", ...
  std::string Weights; ///< Element type of `weights` arguments, "" for Type.
  std::string Acc;     ///< Element type of `acc` arguments, "" for the usual.
  /// The operators it computes (record keys, in declaration order).
  std::vector<std::string> Ops;
  /// The element type of each data operand the arguments read, by operand
  /// index, and of the result ("any" for byte-moving kernels).
  std::vector<std::string> OperandTypes;
  std::string ResultType;
  /// The element types of the further results it writes (`result`
  /// arguments), by result index ("" where none).
  std::vector<std::string> ResultTypes;

  /// Its instantiation of a kernel template, as KEY=VALUE words: FUNCTION,
  /// OP, then DTYPE, OUT, VARIANT, WEIGHTS and ACC where given (the rows of
  /// -gen-kernel-instances, the KERNELS entries a template renders).
  std::vector<std::pair<std::string, std::string>> instanceWords() const;
};

/// One calling convention.
struct KernelFamilyDef {
  std::string Key;      ///< The record name (`Conv2DKernels`).
  std::string Library;  ///< "ref"
  std::string Name;     ///< "conv2d"
  std::string Template; ///< "conv"
  bool Rendered = true;
  bool MayAlias = false;
  bool AnyArithmetic = false;
  std::string Builder;
  std::string Doc;
  /// Declared by a target description rather than the portable library:
  /// registered at run time when the target is loaded.
  bool Own = false;
  std::vector<KernelFieldDef> Fields;
  std::vector<KernelArgDef> Args;
  /// One per distinct C function, in declaration order.
  std::vector<KernelFunctionDef> Functions;
  /// Every (operator, function) pair the family declares, in declaration
  /// order: the rows operators are dispatched by.
  std::vector<std::pair<std::string, const KernelFunctionDef *>> Rows;
  Loc At;

  /// The C struct, `ref_conv2d_params` (declared even when the kernels take
  /// the fields by value).
  std::string structName() const;
  /// The header declaring the functions, `ref_conv.h`.
  std::string header() const;
  /// True when an argument passes the fields by value.
  bool byValue() const;
};

/// Every family of one description, in declaration order.
struct KernelLibraryModel {
  std::vector<std::unique_ptr<KernelFamilyDef>> Families;
  /// The IR name of each operator record the families name (`Conv2D` ->
  /// `CONV_2D`).
  std::vector<std::pair<std::string, std::string>> OpNames;
  /// How an operator runs on a stripe of rows, as defs/ops.td says: its
  /// `Rows` kind ("whole", "identity", "shifted", "window") and the mask of
  /// operands whose bytes its output may take (`OutputOverlays`).
  struct OpStripe {
    std::string Rows = "whole";
    unsigned Overlays = 0;
  };
  std::map<std::string, OpStripe> OpStripes;
  /// What function \p Fn runs as on a stripe: what any operator it computes
  /// allows ("whole" where two of them map rows differently).
  OpStripe stripe(const KernelFunctionDef &Fn) const;

  const KernelFamilyDef *family(llvm::StringRef Key) const;
  std::string opName(llvm::StringRef Key) const;
};

/// Where the files a family names are looked for: rendered families'
/// `<library>/<template>.{h,c}.in` under TemplateDir, plain ones'
/// `<library>_<template>.{h,c}` under SourceDir. Empty: not checked.
struct KernelSourceDirs {
  std::string TemplateDir;
  std::string SourceDir;
};

/// Validates every family of \p D.KernelFamilies against its operators
/// (D.Ops) and element types (D.KnownElementTypes); null after reporting
/// errors.
std::unique_ptr<KernelLibraryModel>
buildKernelLibrary(const TargetDecl &D, const KernelSourceDirs &Dirs,
                   Diagnostics &Diags);

/// The C type of an element type name ("i8" -> "int8_t"), "void" for "any".
std::string elementCType(llvm::StringRef Type);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_KERNELLIBRARY_H
