//===- ImportResult.h - What reading a model produced -----------*- C++ -*-===//
//
// The result every model reader returns (TensorFlow Lite, ONNX): the Graph IR
// and the warnings given on the way.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IMPORT_IMPORTRESULT_H
#define ACCELGEN_IMPORT_IMPORTRESULT_H

#include "ir/Graph.h"

#include <memory>
#include <string>
#include <vector>

namespace accelgen {

/// What an import produced: the model and the warnings on the way.
struct ImportResult {
  std::unique_ptr<ir::Model> Model;
  /// Things accepted with a workaround, e.g. an out-of-range
  /// `quantized_dimension` on a 1-D bias, each naming its tensor.
  std::vector<std::string> Warnings;
};

} // namespace accelgen

#endif // ACCELGEN_IMPORT_IMPORTRESULT_H
