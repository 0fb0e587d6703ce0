//===- OnnxTestData.cpp - ONNX's node tests, as the tests use them --------===//
#include "OnnxTestData.h"

#include "TestSupport.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "llvm/Support/FileSystem.h"

#include <cstring>

namespace accelgen {
namespace test {

std::string onnxNodeDir() { return ACCELGEN_ONNX_NODE_TESTS; }

void requireOnnxNodeTests() {
  REQUIRE_MESSAGE(
      llvm::sys::fs::exists(onnxNodeDir() + "/test_relu/model.onnx"),
      "ONNX's node tests are missing: "
          << onnxNodeDir()
          << " has no test_relu/model.onnx (install Debian's "
             "libonnx-testdata, as scripts/setup.sh does, or "
             "point ACCELGEN_ONNX_NODE_TESTS at them)");
}

std::vector<uint8_t> onnxNodeModel(const std::string &Name, int Runtime) {
  std::string Dir = onnxNodeDir() + "/" + Name;
  std::vector<uint8_t> Bytes = readFileBytes(Dir + "/model.onnx");
  ::onnx::ModelProto M;
  REQUIRE(M.ParseFromArray(Bytes.data(), static_cast<int>(Bytes.size())));
  ::onnx::GraphProto *G = M.mutable_graph();
  for (int I = G->input_size(); I-- > Runtime;) {
    std::vector<uint8_t> Value = readFileBytes(Dir + "/test_data_set_0/input_" +
                                               std::to_string(I) + ".pb");
    ::onnx::TensorProto *T = G->add_initializer();
    REQUIRE(T->ParseFromArray(Value.data(), static_cast<int>(Value.size())));
    T->set_name(G->input(I).name());
    G->mutable_input()->DeleteSubrange(I, 1);
  }
  std::string Out;
  REQUIRE(M.SerializeToString(&Out));
  return std::vector<uint8_t>(Out.begin(), Out.end());
}

onnximport::TensorData onnxIrValue(const std::string &File) {
  std::vector<uint8_t> Bytes = readFileBytes(File);
  llvm::Expected<onnximport::TensorData> T = onnximport::readTensorProto(Bytes);
  REQUIRE_MESSAGE(static_cast<bool>(T),
                  File << ": " << llvm::toString(T.takeError()));
  if (T->Dims.size() == 4) {
    const std::vector<int64_t> D = T->Dims;
    size_t Size = ir::dtypeSize(T->Type);
    std::vector<uint8_t> Nhwc(T->Data.size());
    for (int64_t N = 0; N < D[0]; ++N)
      for (int64_t C = 0; C < D[1]; ++C)
        for (int64_t H = 0; H < D[2]; ++H)
          for (int64_t W = 0; W < D[3]; ++W) {
            int64_t From = ((N * D[1] + C) * D[2] + H) * D[3] + W;
            int64_t To = ((N * D[2] + H) * D[3] + W) * D[1] + C;
            std::memcpy(Nhwc.data() + To * Size, T->Data.data() + From * Size,
                        Size);
          }
    T->Data = std::move(Nhwc);
  }
  return std::move(*T);
}

} // namespace test
} // namespace accelgen
