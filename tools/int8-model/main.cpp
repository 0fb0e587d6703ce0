//===- main.cpp - accelgen-int8-model -------------------------------------===//
//
// accelgen-int8-model MODEL.tflite OUT.tflite: writes a uint8 quantized
// TensorFlow Lite model as an int8 one (Int8Model.h): the int8 MobileNetV2
// of the Cortex-M tests, made from the shared uint8 one.
//
//===----------------------------------------------------------------------===//
#include "Int8Model.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace accelgen;

static llvm::cl::opt<std::string> Input(llvm::cl::Positional,
                                        llvm::cl::desc("<model.tflite>"),
                                        llvm::cl::Required);
static llvm::cl::opt<std::string> Output(llvm::cl::Positional,
                                         llvm::cl::desc("<out.tflite>"),
                                         llvm::cl::Required);

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Writes a uint8 TensorFlow Lite model as an int8 one\n");
  llvm::Expected<ImportResult> M = tflite::importOneGraphModelFile(Input);
  if (!M) {
    llvm::errs() << "error: " << Input << ": " << toString(M.takeError())
                 << "\n";
    return 1;
  }
  if (llvm::Error E = int8model::toInt8(M->Model->Graphs.front())) {
    llvm::errs() << "error: " << Input << ": " << toString(std::move(E))
                 << "\n";
    return 1;
  }
  if (llvm::Error E = tflite::writeModelFile(*M->Model, Output)) {
    llvm::errs() << "error: " << Output << ": " << toString(std::move(E))
                 << "\n";
    return 1;
  }
  return 0;
}
