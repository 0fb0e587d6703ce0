//===- OnnxTestData.h - ONNX's node tests, as the tests use them -*- C++
//-*-===//
//
// ONNX ships a test per operator behaviour (Debian's libonnx-testdata): a
// one-node model.onnx, its inputs and the outputs ONNX's reference computes,
// as serialized TensorProtos under test_data_set_0/. The node tests feed
// weights as graph inputs; a deployment compiler needs them constant, so
// nodeModel makes the inputs past the leading activations initializers
// holding their test values.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_ONNXTESTDATA_H
#define ACCELGEN_TESTS_ONNXTESTDATA_H

#include "import/ONNXImporter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace test {

/// The folder of ONNX's node tests (the CMake cache variable
/// ACCELGEN_ONNX_NODE_TESTS).
std::string onnxNodeDir();

/// Fails the current test case, saying what to install, unless the node
/// tests are there.
void requireOnnxNodeTests();

/// Node test \p Name's model with its inputs past the first \p Runtime made
/// initializers holding their test values, serialized.
std::vector<uint8_t> onnxNodeModel(const std::string &Name, int Runtime = 1);

/// The serialized TensorProto at \p File as the IR holds the value: rank 4
/// in NHWC. Fails the test if it does not read.
onnximport::TensorData onnxIrValue(const std::string &File);

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_ONNXTESTDATA_H
