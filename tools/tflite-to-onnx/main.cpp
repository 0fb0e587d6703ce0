//===- main.cpp - accelgen-tflite-to-onnx ---------------------------------===//
//
// accelgen-tflite-to-onnx [--form qdq|qoperator] MODEL.tflite OUT.onnx:
// writes a quantized TensorFlow Lite model as an ONNX model in the QDQ or
// the QOperator form (OnnxExport.h), so that the ONNX path is tested on
// real networks; no quantized ONNX network ships in Debian or npm.
//
//===----------------------------------------------------------------------===//
#include "OnnxExport.h"

#include "import/TFLiteImporter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace accelgen;

static llvm::cl::opt<std::string> Input(llvm::cl::Positional,
                                        llvm::cl::desc("<model.tflite>"),
                                        llvm::cl::Required);
static llvm::cl::opt<std::string> Output(llvm::cl::Positional,
                                         llvm::cl::desc("<out.onnx>"),
                                         llvm::cl::Required);

static llvm::cl::opt<onnxexport::Form>
    FormOpt("form", llvm::cl::desc("How quantized operators are written"),
            llvm::cl::init(onnxexport::Form::QDQ),
            llvm::cl::values(
                clEnumValN(onnxexport::Form::QDQ, "qdq",
                           "float operators between DequantizeLinear and "
                           "QuantizeLinear (default)"),
                clEnumValN(onnxexport::Form::QOperator, "qoperator",
                           "QLinearConv, com.microsoft QGemm, QLinearAdd, ... "
                           "where one exists, QDQ for the rest")));

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Writes a quantized TensorFlow Lite model as ONNX\n");
  llvm::Expected<ImportResult> M = tflite::importOneGraphModelFile(Input);
  if (!M) {
    llvm::errs() << "error: " << Input << ": " << toString(M.takeError())
                 << "\n";
    return 1;
  }
  llvm::Expected<std::string> Bytes =
      onnxexport::exportOnnx(M->Model->main(), FormOpt);
  if (!Bytes) {
    llvm::errs() << "error: " << Input << ": " << toString(Bytes.takeError())
                 << "\n";
    return 1;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, llvm::sys::fs::OF_None);
  if (EC) {
    llvm::errs() << "error: " << Output << ": " << EC.message() << "\n";
    return 1;
  }
  OS << *Bytes;
  return 0;
}
