//===- TestSupport.cpp - Shared pieces of accelgen's tests ----------------===//
//
// The paths below come from compile definitions set in tests/CMakeLists.txt,
// on this file only, so that every test finds them the same way.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#ifndef ACCELGEN_TEST_BINARY
#error "ACCELGEN_TEST_BINARY must name the accelgen binary"
#endif
#ifndef ACCELGEN_TEST_VERSION
#error "ACCELGEN_TEST_VERSION must give the project version"
#endif
#ifndef ACCELGEN_TEST_EXAMPLE_MODEL
#error "ACCELGEN_TEST_EXAMPLE_MODEL must name the example model"
#endif
#ifndef ACCELGEN_TEST_SHARED_DIR
#error "ACCELGEN_TEST_SHARED_DIR must name the shared conformance folder"
#endif

namespace accelgen {
namespace test {

std::string accelgenPath() { return ACCELGEN_TEST_BINARY; }
std::string accelgenVersion() { return ACCELGEN_TEST_VERSION; }
std::string exampleModelPath() { return ACCELGEN_TEST_EXAMPLE_MODEL; }
std::string sharedDir() { return ACCELGEN_TEST_SHARED_DIR; }

std::set<std::string> &coveredModels() {
  static std::set<std::string> Models;
  return Models;
}

bool coverModel(const char *Name) {
  coveredModels().insert(Name);
  return true;
}

const std::vector<std::string> &sharedModelNames() {
  static const std::vector<std::string> Models = {
      "coral_keras_lstm_mnist_ptq",
      "coral_mobilenet_v2_10_224_quant_uint8",
      "mlperf_tiny_ad_autoencoder_int8",
      "mlperf_tiny_ic_resnet8_int8",
      "mlperf_tiny_kws_dscnn_int8",
      "mlperf_tiny_vww_mobilenetv1_025_96_int8",
      "tflm_hello_world_int8",
      "tflm_micro_speech_int8",
      "tflm_mnist_lstm_int8",
      "tflm_person_detect_int8",
      "tflm_person_detect_int8_qdimfix",
      "tflm_simple_add",
  };
  return Models;
}

bool sharedModelHasState(llvm::StringRef Name) {
  return Name == "coral_keras_lstm_mnist_ptq" || Name == "tflm_mnist_lstm_int8";
}

RunResult runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                     unsigned TimeoutSeconds,
                     llvm::Optional<llvm::ArrayRef<std::string>> Env) {
  RunResult R;
  TempDir Dir;
  std::string Out = Dir.file("stdout"), Err = Dir.file("stderr");
  std::vector<llvm::StringRef> Argv{Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  llvm::Optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Out), llvm::StringRef(Err)};
  llvm::Optional<llvm::ArrayRef<llvm::StringRef>> EnvRefs;
  std::vector<llvm::StringRef> EnvList;
  if (Env) {
    EnvList.assign(Env->begin(), Env->end());
    EnvRefs = llvm::makeArrayRef(EnvList);
  }
  bool Failed = false;
  R.ExitCode = llvm::sys::ExecuteAndWait(Program, Argv, EnvRefs, Redirects,
                                         TimeoutSeconds, /*MemoryLimit=*/0,
                                         &R.ErrorMessage, &Failed);
  if (Failed)
    R.ExitCode = -1;
  R.Stdout = readFileText(Out);
  R.Stderr = readFileText(Err);
  return R;
}

RunResult runAccelgen(llvm::ArrayRef<std::string> Args,
                      llvm::Optional<llvm::ArrayRef<std::string>> Env) {
  return runProgram(accelgenPath(), Args, 60, Env);
}

TempDir::TempDir() {
  llvm::SmallString<128> P;
  std::error_code EC = llvm::sys::fs::createUniqueDirectory("accelgen-test", P);
  REQUIRE_MESSAGE(!EC, "cannot create a temporary folder: " << EC.message());
  Path = std::string(P);
}

TempDir::~TempDir() { llvm::sys::fs::remove_directories(Path); }

std::string TempDir::file(llvm::StringRef Name) const {
  llvm::SmallString<128> P(Path);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

std::vector<uint8_t> readFileBytes(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  REQUIRE_MESSAGE(bool(Buf), "cannot read " << Path.str() << ": "
                                            << Buf.getError().message());
  llvm::StringRef Data = (*Buf)->getBuffer();
  return std::vector<uint8_t>(Data.bytes_begin(), Data.bytes_end());
}

std::string readFileText(llvm::StringRef Path) {
  std::vector<uint8_t> Bytes = readFileBytes(Path);
  return std::string(Bytes.begin(), Bytes.end());
}

void writeFileBytes(llvm::StringRef Path, llvm::ArrayRef<uint8_t> Bytes) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  REQUIRE_MESSAGE(!EC, "cannot write " << Path.str() << ": " << EC.message());
  OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  OS.close();
  REQUIRE_MESSAGE(!OS.has_error(), "cannot write " << Path.str());
}

namespace {

void checkSameTensor(const ir::Tensor &E, const ir::Tensor &A) {
  CHECK(A.Name == E.Name);
  CHECK(A.Shape == E.Shape);
  CHECK(ir::dtypeName(A.Type).str() == ir::dtypeName(E.Type).str());
  CHECK(A.IsConstant == E.IsConstant);
  CHECK(A.IsVariable == E.IsVariable);
  CHECK(A.Data == E.Data);
  REQUIRE(A.Quant.has_value() == E.Quant.has_value());
  if (!E.Quant)
    return;
  CHECK(A.Quant->Scales == E.Quant->Scales);
  CHECK(A.Quant->ZeroPoints == E.Quant->ZeroPoints);
  CHECK(A.Quant->Axis == E.Quant->Axis);
}

void checkSameOperator(const ir::Operator &E, const ir::Operator &A) {
  CHECK(A.Type == E.Type);
  CHECK(A.Version == E.Version);
  CHECK(A.Inputs == E.Inputs);
  CHECK(A.Outputs == E.Outputs);
  CHECK(A.Opaque == E.Opaque);
  CHECK(A.CustomCode == E.CustomCode);
  CHECK(A.RawOptions == E.RawOptions);
  std::vector<std::string> ENames, ANames;
  for (const auto &KV : E.Attrs)
    ENames.push_back(KV.first);
  for (const auto &KV : A.Attrs)
    ANames.push_back(KV.first);
  CHECK(ANames == ENames);
  for (const auto &NameValueEntry : E.Attrs) {
    const auto &Name = NameValueEntry.first;
    const auto &Value = NameValueEntry.second;
    auto It = A.Attrs.find(Name);
    if (It == A.Attrs.end())
      continue;
    INFO("attribute ", Name);
    CHECK(ir::formatAttr(It->second) == ir::formatAttr(Value));
    CHECK(It->second.index() == Value.index());
  }
}

} // namespace

ir::Tensor int32Constant(std::string Name, std::vector<int32_t> Shape,
                         llvm::ArrayRef<int32_t> Values) {
  ir::Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = ir::DType::I32;
  T.IsConstant = true;
  for (int32_t V : Values)
    for (int Byte = 0; Byte < 4; ++Byte)
      T.Data.push_back(static_cast<uint8_t>(uint32_t(V) >> (8 * Byte)));
  return T;
}

void checkSameModel(const ir::Model &Expected, const ir::Model &Actual) {
  CHECK(Actual.Description == Expected.Description);
  CHECK(Actual.SchemaVersion == Expected.SchemaVersion);
  REQUIRE(Actual.Graphs.size() == Expected.Graphs.size());
  for (size_t GI = 0; GI < Expected.Graphs.size(); ++GI) {
    const ir::Graph &E = Expected.Graphs[GI], &A = Actual.Graphs[GI];
    INFO("graph ", GI);
    CHECK(A.Name == E.Name);
    CHECK(A.Inputs == E.Inputs);
    CHECK(A.Outputs == E.Outputs);
    REQUIRE(A.Tensors.size() == E.Tensors.size());
    for (size_t I = 0; I < E.Tensors.size(); ++I) {
      INFO("tensor ", I, " '", E.Tensors[I].Name, "'");
      checkSameTensor(E.Tensors[I], A.Tensors[I]);
    }
    REQUIRE(A.Operators.size() == E.Operators.size());
    for (size_t I = 0; I < E.Operators.size(); ++I) {
      INFO("operator ", I, " (", E.Operators[I].Type, ")");
      checkSameOperator(E.Operators[I], A.Operators[I]);
    }
  }
}

} // namespace test
} // namespace accelgen
