//===- TFLiteWriter.h - Graph IR to TensorFlow Lite FlatBuffers -----------===//
//
// Serializes a Graph IR model to `.tflite` bytes with the FlatBuffers builder
// of the importer's schema, so that importing what was written gives back the
// same tensors, quantization, operators and attributes.
//
// The writer checks nothing: it writes the model exactly as it is, including
// out-of-range tensor indices, negative dimensions, cycles and constant data
// of the wrong size. That makes it the tool for building malformed models in
// tests; run the IR verifier first when a valid file is wanted.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_TFLITEWRITER_H
#define ACCELGEN_IMPORT_TFLITEWRITER_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace accelgen {
namespace tflite {

/// Serializes \p M, unverified, to the bytes of a `.tflite` file.
///
/// Layout: buffer 0 is the empty buffer, each constant tensor gets a buffer
/// of its own holding its data, and every other tensor points to buffer 0.
/// Operator codes are shared by operators with the same code, version and
/// custom name. An operator's code is its `BuiltinCode` when set, otherwise
/// the builtin named by its type; an operator of another type (a target
/// operator) is written as a CUSTOM operator named by its type.
std::vector<uint8_t> writeModel(const ir::Model &M);

/// Serializes \p M with writeModel and writes it to the file at \p Path.
llvm::Error writeModelFile(const ir::Model &M, llvm::StringRef Path);

} // namespace tflite
} // namespace accelgen

#endif // ACCELGEN_IMPORT_TFLITEWRITER_H
