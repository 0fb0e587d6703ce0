//===- ModelFile.h - Reading a model of any format --------------*- C++ -*-===//
//
// accelgen reads TensorFlow Lite and ONNX models, told apart by their bytes
// (a TensorFlow Lite file carries "TFL3" at offset 4; an ONNX file reads as
// ModelProto's fields), not by the file's name.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_MODELFILE_H
#define ACCELGEN_IMPORT_MODELFILE_H

#include "import/ImportResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace accelgen {

enum class ModelFormat { TFLite, ONNX };

/// The format of the model in \p Bytes: ONNX when they read as a
/// ModelProto (onnximport::looksLikeModel) and lack TensorFlow Lite's
/// identifier, TensorFlow Lite otherwise (whose reader then says what is
/// wrong with bytes of neither).
ModelFormat detectModelFormat(llvm::ArrayRef<uint8_t> Bytes);

/// "TensorFlow Lite" or "ONNX".
llvm::StringRef modelFormatName(ModelFormat F);

/// Imports the model in \p Bytes with the reader of its format; an ONNX
/// model's graphs compute \p OnnxComputes (onnximport::importModel).
llvm::Expected<ImportResult>
importAnyModel(llvm::ArrayRef<uint8_t> Bytes,
               ir::Arithmetic OnnxComputes = ir::Arithmetic::ONNX);

/// Reads (within support::MaxModelBytes) and imports the model at \p Path.
llvm::Expected<ImportResult> importAnyModelFile(llvm::StringRef Path);

} // namespace accelgen

#endif // ACCELGEN_IMPORT_MODELFILE_H
