//===- OracleSweep.h - Models against TensorFlow Lite Micro, every target -===//
//
// What the oracle sweeps share (Int16OracleTest, BuiltinOracleTest): the
// shared tflm_runner (TensorFlow Lite Micro's reference kernels) writes a
// model's inputs and expected outputs, and every target path must write the
// same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_E2E_ORACLESWEEP_H
#define ACCELGEN_TESTS_E2E_ORACLESWEEP_H

#include "ir/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace accelgen {
namespace e2e {

/// The shared oracle, ../shared/tools/tflm-oracle/tflm_runner.
std::string oraclePath();

/// Every target path a layer runs on, the target then its options: ref, cpu
/// (generic and the widest --cpu this processor runs), every version of
/// every target with a functional model, cmsis-nn on this machine and,
/// where installed, on Cortex-M4 and M55 under QEMU.
std::vector<std::vector<std::string>> targetPaths();

/// A target path a sweep leaves out, and why (printed with the results).
struct PathLeftOut {
  /// The path's --cpu value (e.g. "cortex-m4").
  std::string Cpu;
  std::string Why;
};

/// Zeroes the bytes of the oracle's outputs (one byte vector per graph
/// output) that its kernels leave unwritten, whose content is whatever the
/// runner's memory held; accelgen's kernels write 0 there.
using UnwrittenBytes =
    std::function<void(std::vector<std::vector<uint8_t>> &Outputs)>;

/// Runs \p M with the oracle (inputs \p Inputs, one file's bytes per graph
/// input, or from its generator, seed 1, when empty), then on every target
/// path but \p LeftOut; every output must equal the oracle's byte for byte
/// (after \p Unwritten, when given). \p Oracle is another runner of the
/// same command line (MODEL IN_DIR OUT_DIR), such as the native TensorFlow
/// Lite one, which needs \p Inputs.
void checkAgainstOracle(const ir::Model &M, llvm::StringRef What,
                        const std::vector<std::vector<uint8_t>> &Inputs = {},
                        const std::vector<PathLeftOut> &LeftOut = {},
                        const std::string &Oracle = oraclePath(),
                        const UnwrittenBytes &Unwritten = {});

/// What `accelgen explain --target cmsis-nn` says of model \p M.
std::string explainOnCmsisNn(const ir::Model &M);

} // namespace e2e
} // namespace accelgen

#endif // ACCELGEN_TESTS_E2E_ORACLESWEEP_H
