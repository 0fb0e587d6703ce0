//===- partition.cpp - An out-of-tree tool on the installed libraries -----===//
//
// acme-partition MODEL: reads a TensorFlow Lite model with accelgen's
// importer and partitions it for acme1 with the `ref` semantics of the CPU
// left out (no CPU target is linked): one line, "<model>: N of M operators
// on acme1", or the importer's error and exit code 1.
//
//===----------------------------------------------------------------------===//
#include "import/TFLiteImporter.h"
#include "partition/Partitioner.h"
#include "target/TargetInfo.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <memory>

namespace accelgen::targets::acme {
std::unique_ptr<target::TargetInfo> createTargetInfo();
} // namespace accelgen::targets::acme

using namespace accelgen;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: acme-partition MODEL.tflite\n");
    return 2;
  }
  llvm::Expected<tflite::ImportResult> R = tflite::importModelFile(argv[1]);
  if (!R) {
    std::fprintf(stderr, "error: %s: %s\n", argv[1],
                 llvm::toString(R.takeError()).c_str());
    return 1;
  }
  std::unique_ptr<target::TargetInfo> Acme = targets::acme::createTargetInfo();
  partition::PartitionResult P =
      partition::partition(R->Model->Graphs.front(), *Acme, /*Version=*/0);
  std::printf("%s: %zu of %zu operators on %s\n", argv[1], P.numOnAccelerator(),
              P.Ops.size(), P.Target.c_str());
  return 0;
}
