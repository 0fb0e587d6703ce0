//===- TFLiteImporter.h - TensorFlow Lite FlatBuffers to Graph IR ----------===//
//
// Reads a `.tflite` model into the Graph IR. The bytes are checked with the
// FlatBuffers verifier before anything is read, every index is range-checked,
// and the resulting graphs pass the IR verifier, so a malformed file yields an
// error message, never a crash. Operators the importer does not know become
// opaque nodes carrying their builtin code and version.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_TFLITEIMPORTER_H
#define ACCELGEN_IMPORT_TFLITEIMPORTER_H

#include "import/ImportResult.h"
#include "ir/Graph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace accelgen {
namespace tflite {

/// What an import produced (shared by every model reader).
using ImportResult = accelgen::ImportResult;

/// How many times the file's size the constant data of all tensors may total.
/// Tensors get copies of their buffers, so only tensors sharing buffers take
/// it past 1; a model that goes past this is rejected, which bounds the
/// memory an import takes.
constexpr uint64_t MaxConstantExpansion = 4;

/// Imports the model in \p Bytes. Errors describe what is wrong and where,
/// without a file name (the caller knows it). \p Bytes may sit at any
/// address; bytes that are not 8-byte aligned are copied first.
llvm::Expected<ImportResult> importModel(llvm::ArrayRef<uint8_t> Bytes);

/// Reads and imports the model file at \p Path.
llvm::Expected<ImportResult> importModelFile(llvm::StringRef Path);

/// importModelFile for a tool that handles models of one graph: a model of
/// several (control flow) is an error saying so.
llvm::Expected<ImportResult> importOneGraphModelFile(llvm::StringRef Path);

} // namespace tflite
} // namespace accelgen

#endif // ACCELGEN_IMPORT_TFLITEIMPORTER_H
