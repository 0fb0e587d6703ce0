//===- ModelFile.cpp - Reading a model of any format ----------------------===//
#include "import/ModelFile.h"

#include "import/ONNXImporter.h"
#include "import/TFLiteImporter.h"
#include "support/InputFile.h"

#include <cstring>

namespace accelgen {

ModelFormat detectModelFormat(llvm::ArrayRef<uint8_t> Bytes) {
  bool Tfl = Bytes.size() >= 8 && std::memcmp(Bytes.data() + 4, "TFL3", 4) == 0;
  return !Tfl && onnximport::looksLikeModel(Bytes) ? ModelFormat::ONNX
                                                   : ModelFormat::TFLite;
}

llvm::StringRef modelFormatName(ModelFormat F) {
  return F == ModelFormat::ONNX ? "ONNX" : "TensorFlow Lite";
}

llvm::Expected<ImportResult> importAnyModel(llvm::ArrayRef<uint8_t> Bytes,
                                            ir::Arithmetic OnnxComputes) {
  if (detectModelFormat(Bytes) == ModelFormat::ONNX)
    return onnximport::importModel(Bytes, OnnxComputes);
  return tflite::importModel(Bytes);
}

llvm::Expected<ImportResult> importAnyModelFile(llvm::StringRef Path) {
  auto Buf = support::readInputFile(Path, support::MaxModelBytes);
  if (!Buf)
    return Buf.takeError();
  return importAnyModel(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize()));
}

} // namespace accelgen
