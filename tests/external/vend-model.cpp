//===- vend-model.cpp - A model with the vend target's own operator -------===//
//
// vend-model DIR writes DIR/vend.tflite: input int8 [1, 4, 4, 3] ->
// VEND_CLAMP_OFFSET (per-channel offsets, lo -40, hi 50) -> output, the
// operator a CUSTOM one with its attributes as FlexBuffer options; its
// input DIR/input/input_0.bin; and DIR/expected_0.bin, the operator's
// arithmetic computed here, which `accelgen run` with the vend plugin must
// reproduce byte for byte.
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteWriter.h"
#include "ir/Graph.h"
#include "ir/OpCode.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace accelgen;

namespace {

bool writeBytes(const std::string &Path, const std::vector<int8_t> &Bytes) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  return !OS.has_error();
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: vend-model DIR\n");
    return 2;
  }
  const std::string Dir = argv[1];
  const std::vector<int32_t> Offsets = {60, -5, -70};
  const int64_t Lo = -40, Hi = 50;

  ir::Graph G;
  G.Name = "main";
  ir::Tensor In;
  In.Name = "input";
  In.Shape = {1, 4, 4, 3};
  In.Type = ir::DType::I8;
  In.Quant = ir::QuantParams{{0.5f}, {0}, 0};
  ir::Tensor Off;
  Off.Name = "offsets";
  Off.Shape = {3};
  Off.Type = ir::DType::I32;
  Off.IsConstant = true;
  Off.Data.resize(Offsets.size() * 4);
  std::memcpy(Off.Data.data(), Offsets.data(), Off.Data.size());
  ir::Tensor Out = In;
  Out.Name = "output";
  G.Tensors = {In, Off, Out};
  ir::Operator Op;
  Op.Type = "VEND_CLAMP_OFFSET";
  Op.Inputs = {0, 1};
  Op.Outputs = {2};
  Op.Attrs["lo"] = Lo;
  Op.Attrs["hi"] = Hi;
  G.Operators = {Op};
  G.Inputs = {0};
  G.Outputs = {2};
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.push_back(std::move(G));
  // Known by name, so that the writer gives its attributes as options.
  ir::registerCustomOperator("VEND_CLAMP_OFFSET");
  if (llvm::Error E = tflite::writeModelFile(M, Dir + "/vend.tflite")) {
    std::fprintf(stderr, "vend-model: %s\n",
                 llvm::toString(std::move(E)).c_str());
    return 1;
  }

  std::vector<int8_t> X(48), Want(48);
  for (size_t I = 0; I < X.size(); ++I) {
    X[I] = static_cast<int8_t>(static_cast<int>(I * 37 % 256) - 128);
    const int64_t V = X[I] + Offsets[I % 3];
    Want[I] = static_cast<int8_t>(std::clamp(V, Lo, Hi));
  }
  llvm::sys::fs::create_directories(Dir + "/input");
  if (!writeBytes(Dir + "/input/input_0.bin", X) ||
      !writeBytes(Dir + "/expected_0.bin", Want)) {
    std::fprintf(stderr, "vend-model: cannot write into %s\n", Dir.c_str());
    return 1;
  }
  return 0;
}
